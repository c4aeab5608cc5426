"""Every chart said in text (explorer/figures/as_text.py `figure_lines`, drawn under each
chart by explorer/app/charts.py `show_chart`): what the sentences say against the numbers
the chart draws, plotly's typed arrays read back, the learner's tokens kept as text, and on
every page each chart with its text alternative, in both languages."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from apptest_helpers import app_in
from shared_inputs import bad_input_texts

from explorer.figures.as_text import MAX_LINES, MAX_ROWS, array, figure_lines, label_text
from explorer.figures.common import esc, heatmap
from explorer.figures.train import attention_figure, loss_figure
from explorer.text.i18n import Text
from explorer.text.locales import en, zh

PAGES = ("model", "embeddings", "attention", "masks", "shapes", "train")
# the titles of every chart's text: the generic one and those written by hand for a page
TEXT_TITLES = ("a11y.chart_as_text", "a11y.weights_as_text", "a11y.grid_as_text",
               "a11y.mask_as_text", "a11y.curves_as_text")


def _spec(fig: go.Figure) -> dict:
    return fig.to_dict()  # numpy arrays written as plotly's typed arrays (base64)


def test_a_typed_array_is_read_back_as_the_numbers_it_holds():
    z = np.random.default_rng(0).normal(size=(3, 5))
    trace = _spec(go.Figure(go.Heatmap(z=z)))["data"][0]
    assert isinstance(trace["z"], dict) and "bdata" in trace["z"]
    np.testing.assert_array_equal(array(trace["z"]), z)


def test_each_heatmap_row_names_where_it_is_highest_and_lowest():
    w = np.random.default_rng(1).dirichlet(np.ones(5), size=4)
    tokens = ["the", "cat", "sat", "on", "mat"]
    fig = attention_figure(w, tokens[:4], tokens, "w", q_title="q", k_title="k", lang="en")
    lines = figure_lines(_spec(fig), "en")
    rows = [line for line in lines if line.startswith("Row ")]
    assert len(rows) == 4
    for r, line in enumerate(rows):
        hi, lo = int(w[r].argmax()), int(w[r].argmin())
        assert line == Text("en")("a11y.heat_row", row=f"{r}:{tokens[r]}",
                                  high=f"{w[r, hi]:.3g}", high_at=f"{hi}:{tokens[hi]}",
                                  low=f"{w[r, lo]:.3g}", low_at=f"{lo}:{tokens[lo]}")


def test_blocked_cells_are_counted_and_a_large_heatmap_is_said_by_its_extremes():
    z = np.arange(40 * 6, dtype=float).reshape(40, 6)
    z[0, 0] = np.nan
    lines = figure_lines(_spec(heatmap(z, None, None, "big", lang="zh")), "zh")
    assert len(lines) < MAX_ROWS
    assert Text("zh")("a11y.heat_blank", n=1) in lines
    assert Text("zh")("a11y.heat_summary", rows=40, cols=6, high="239", high_row="39",
                      high_col="5", low="1", low_row="0", low_col="1",
                      mean=f"{np.nanmean(z):.3g}") in lines


def test_a_curve_is_said_by_its_ends_and_extremes_and_a_short_one_point_by_point():
    class Step:  # what loss_figure reads of a training's history
        def __init__(self, step, loss):
            self.step, self.loss, self.token_accuracy = step, loss, None

    losses = [3.0, 2.5, 1.0, 1.2] + [0.5 + 0.01 * i for i in range(20)]
    history = [Step(10 * (i + 1), v) for i, v in enumerate(losses)]
    long = figure_lines(_spec(loss_figure(history, 240, lang="en")), "en")
    curve = next(line for line in long if "24 points" in line)
    assert "from 3 at 10 " in curve and "to 0.69 at 240" in curve
    assert "highest 3 at 10" in curve and "lowest 0.5 at 50" in curve
    short = figure_lines(_spec(go.Figure(go.Scatter(x=[1, 2, 3], y=[0.5, 0.25, 0.125],
                                                    name="p"))), "en")
    assert short == [Text("en")("a11y.points", name="p", points="1 → 0.5 · 2 → 0.25 · 3 → 0.125")]


def test_bars_are_named_by_the_axis_ticks_they_stand_on():
    fig = go.Figure(go.Bar(x=[0, 1, 2], y=[0.7, 0.2, 0.1]))
    fig.update_xaxes(tickmode="array", tickvals=[0, 1, 2], ticktext=["年", "&lt;s&gt;", "x"])
    (line,) = figure_lines(_spec(fig), "zh")
    assert line == Text("zh")("a11y.bars", name=Text("zh")("a11y.series"),
                              bars="年: 0.7 · <s>: 0.2 · x: 0.1")


@pytest.mark.parametrize("token", bad_input_texts(40))
def test_the_learners_tokens_come_back_as_the_text_they_were(token):
    """Labels are escaped in the figure (`esc`); the text reads them back as typed (white
    space made single), never as markup: the page shows the lines as written."""
    said = label_text(esc(token))
    assert said == " ".join(token.split())
    lines = figure_lines(_spec(heatmap(np.eye(2), [token, "b"], [token, "b"], "t",
                                       lang="en")), "en")
    assert any(f"Row 0:{said}:" in line for line in lines)


def test_a_grid_of_many_panels_is_cut_to_the_most_lines():
    fig = go.Figure([go.Heatmap(z=np.eye(20), xaxis=f"x{i}", yaxis=f"y{i}")
                     for i in range(1, 9)])
    lines = figure_lines(_spec(fig), "en")
    assert len(lines) == MAX_LINES
    assert lines[-1].startswith("And ")


def test_the_texts_of_both_languages_have_the_same_fields():
    keys = [k for k in en.TEXT if k.startswith("a11y.")]
    assert keys and all(k in zh.TEXT for k in keys)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_chart_on_every_page_has_its_text_alternative(lang):
    """Each chart drawn (a phone's second drawing of the same figure aside) comes with an
    expander that says it in text: the generic one, or one written for it."""
    texts = (en.TEXT if lang == "en" else zh.TEXT)
    titles = {texts[k] for k in TEXT_TITLES}
    for page in PAGES:
        with app_in(lang, page) as at:
            charts = [el for el in at.get("plotly_chart")
                      if "_narrow" not in el.proto.id]
            said = [ex for ex in at.expander if ex.label in titles]
            assert charts, page
            assert len(said) == len(charts), (page, len(said), len(charts))
            assert all(ex.markdown or ex.table for ex in said), page
