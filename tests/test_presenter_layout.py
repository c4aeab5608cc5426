"""Presenter mode enlarges every text of every chart, and the charts' layout stays readable
(presenter mode, long sentences in the attention grid, the Masks and Shapes pages).
"""

from __future__ import annotations

import json
import re
import threading

import numpy as np
import plotly.io as pio
import pytest
from apptest_helpers import app, chart_names, figure_list
from streamlit.delta_generator import DeltaGenerator

from explorer.app.charts import PRESENTER_FONT, THEME_SIZES, presenter_figure, sized_figure
from explorer.figures.train import loss_figure
from transformer.recipes import FAST

AXIS = re.compile(r"^(x|y)axis\d*$")
SPAN = re.compile(r"font-size:(\d+(?:\.\d+)?)px")
PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]


def _size(font: object, default: float) -> float:
    size = font.get("size") if isinstance(font, dict) else None
    return size if isinstance(size, (int, float)) else default


def _title_size(owner: dict, default: float) -> float | None:
    title = owner.get("title")
    if isinstance(title, str):
        return default if title else None
    if isinstance(title, dict) and title.get("text"):
        return _size(title.get("font"), default)
    return None


def text_sizes(fig: dict) -> dict[str, float]:
    """The size every text of a figure is drawn at, by where it is.

    What the figure leaves unset gets what Streamlit's chart theme (a plotly template) gives
    it: tick labels 12 px, axis titles 14, the title 16, legend and hover labels 12; texts the
    theme does not size (annotations, cell numbers, colour bars) inherit `layout.font`.
    """
    layout = fig.get("layout", {})
    base = _size(layout.get("font"), 12)
    out: dict[str, float] = {"font": base}
    axes = {k for k in layout if AXIS.match(k)}
    for trace in fig["data"]:
        if trace.get("type", "scatter") in ("heatmap", "scatter", "bar"):
            axes |= {"xaxis" + trace.get("xaxis", "x")[1:], "yaxis" + trace.get("yaxis", "y")[1:]}
    for name in axes:
        axis = layout.get(name) or {}
        out[f"{name}.ticks"] = _size(axis.get("tickfont"), THEME_SIZES["tick"])
        title = _title_size(axis, THEME_SIZES["axis_title"])
        if title is not None:
            out[f"{name}.title"] = title
    title = _title_size(layout, THEME_SIZES["title"])
    if title is not None:
        out["title"] = title
    out["legend"] = _size(layout.get("legend", {}).get("font"), THEME_SIZES["legend"])
    out["hover"] = _size(layout.get("hoverlabel", {}).get("font"), THEME_SIZES["hover"])
    for i, note in enumerate(layout.get("annotations") or []):
        if note.get("text"):
            out[f"annotation{i}"] = _size(note.get("font"), base)
            for j, inline in enumerate(SPAN.findall(note["text"])):
                out[f"annotation{i}.span{j}"] = float(inline)
    for i, trace in enumerate(fig["data"]):
        if trace.get("text") is not None or trace.get("texttemplate"):
            out[f"trace{i}.text"] = _size(trace.get("textfont"), base)
        if trace.get("type") == "heatmap" and trace.get("showscale", True):
            out[f"trace{i}.colorbar"] = _size(trace.get("colorbar", {}).get("tickfont"), base)
    return out


def assert_all_larger(normal: dict, big: dict, where: str) -> None:
    small_sizes, big_sizes = text_sizes(normal), text_sizes(big)
    assert small_sizes.keys() <= big_sizes.keys(), where
    not_larger = {k: (v, big_sizes[k]) for k, v in small_sizes.items() if big_sizes[k] <= v}
    assert not not_larger, (where, not_larger)
    if "presenter_scale" not in (normal["layout"].get("meta") or {}):  # the architecture's own
        assert big_sizes["font"] >= PRESENTER_FONT


@pytest.mark.parametrize("page", PAGES)
def test_every_text_of_every_chart_grows_in_presenter_mode(page):
    at = app(page, source="the cat sat on the mat")
    assert not at.exception
    normal = figure_list(at)
    at.toggle(key="presenter").set_value(True).run()
    assert not at.exception
    big = figure_list(at)
    assert normal and len(big) == len(normal)
    for i, (a, b) in enumerate(zip(normal, big, strict=True)):
        assert_all_larger(a, b, f"{page} chart {i}")
        if a["layout"].get("height"):
            assert b["layout"]["height"] > a["layout"]["height"]


def test_presenter_charts_get_their_own_element_key():
    """The browser then draws a new chart instead of patching the old one, whose texts kept
    their size (tests/test_e2e_presenter.py shows it in the browser). The PNG file names stay
    the same."""
    at = app("attention")
    keys = [el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")]
    at.toggle(key="presenter").set_value(True).run()
    big_keys = [el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")]
    assert keys[0] == "attn_grid" and big_keys == [f"{k}_presenter" for k in keys]
    assert chart_names(at)["attn_grid_presenter"].startswith("attention_enc_grid")


def _all_figures() -> dict[str, object]:
    """One of every figure the figure modules make, including those AppTest cannot reach
    without a click (a tensor's values, the training curves)."""
    from explorer.figures.attention import attention_grid, head_matrix
    from explorer.figures.masks import batch_masks_figure, mask_figure, masking_effect_figure
    from explorer.figures.model import architecture_figure, parameter_chart
    from explorer.figures.shapes import head_split_figure, values_figure
    from explorer.figures.train import loss_figure, next_token_figure, noam_figure
    from transformer.model import TransformerConfig
    from transformer.train import StepInfo

    rng = np.random.default_rng(0)
    tokens = ["<s>", "the", "cat", "sat"]
    w = rng.random((2, 2, 4, 4))
    history = [StepInfo(step=i, steps=10, loss=1.0 / (i + 1), token_accuracy=i / 10, lr=1e-3,
                        elapsed=0.1 * i) for i in range(1, 6)]
    mask = np.tril(np.ones((4, 4), dtype=bool))
    return {
        "grid": attention_grid(w / w.sum(-1, keepdims=True), tokens, tokens, title="t", lang="en"),
        "head": head_matrix(rng.normal(size=(4, 4)), tokens, "Q", lang="en"),
        "mask": mask_figure(mask, tokens, tokens, "m", lang="en"),
        "batch": batch_masks_figure(np.stack([mask, mask]), [tokens, tokens], ["a", "b"],
                                    lang="en"),
        "effect": masking_effect_figure(rng.normal(size=(4, 4)), mask, tokens, lang="en"),
        "split": head_split_figure(rng.normal(size=(2, 4, 3)), rng.normal(size=(4, 6)), tokens,
                                   lang="en"),
        "values": values_figure(rng.normal(size=(4, 4)), tokens, tokens, "v", lang="en"),
        "loss": loss_figure(history, 10, lang="en"),
        "next": next_token_figure([("a", 0.6), ("b", 0.4)], "a", lang="en"),
        "noam": noam_figure(32, 1.0, 400, steps=1000, lang="en"),
        "architecture": architecture_figure(TransformerConfig(11, 11, N=2, d_model=32, d_ff=64,
                                                              h=2), 6, 5, lang="en"),
        "parameters": parameter_chart({"encoder": 1000, "decoder": 2000, "generator": 300},
                                      lang="en"),
    }


@pytest.mark.parametrize("name", list(_all_figures()))
def test_presenter_figure_enlarges_every_text_and_leaves_the_original_alone(name):
    fig = _all_figures()[name]
    before = json.loads(fig.to_json())
    big = json.loads(presenter_figure(fig).to_json())
    assert json.loads(fig.to_json()) == before  # a cached figure is never modified
    assert_all_larger(before, big, name)
    assert len(big["data"]) == len(before["data"])


# ---- Layout -------------------------------------------------------------

LONG = "the quick brown fox jumps over the lazy dog while the small cat sleeps on a warm mat"


def _row_pitch(fig: dict, axis: str = "yaxis") -> float:
    """Pixels between two labelled rows of a token axis of the figure (AppTest spec)."""
    layout = fig["layout"]
    margin = layout["margin"]
    plot = layout["height"] - margin["t"] - margin["b"]
    low, high = layout[axis]["domain"]
    rows = len(layout[axis]["tickvals"])
    labelled = [i for i, text in enumerate(layout[axis]["ticktext"]) if text]
    step = min((b - a for a, b in zip(labelled, labelled[1:], strict=False)), default=rows)
    return plot * (high - low) / rows * step


@pytest.mark.parametrize("preset", [{}, {"preset": "paper base", "N": 6, "d_model": 512,
                                        "h": 8, "d_ff": 2048, "dropout": 0.1}])
def test_long_sentences_keep_the_attention_grid_labels_apart(preset):
    at = app("attention", source=LONG, **preset)
    assert not at.exception
    grid = figure_list(at)[0]
    n = len(LONG.split())
    assert len(grid["layout"]["yaxis"]["ticktext"]) == n
    # every written query label has at least 18 px (23 px in presenter mode) of its own
    assert _row_pitch(grid) >= 18
    # every key label is written (up to 32 tokens): an array of ticks plotly does not thin
    assert grid["layout"]["xaxis"]["tickmode"] == "array"
    assert grid["layout"]["xaxis"]["ticktext"] == grid["layout"]["yaxis"]["ticktext"]
    if not preset:  # the tiny model's grid grows to give every token its row
        assert all(grid["layout"]["yaxis"]["ticktext"])


def test_few_tokens_keep_the_attention_grid_compact():
    grid = figure_list(app("attention"))[0]
    # 6 tokens, 2 layers: as before the fix, with the key labels under each layer's row too
    assert grid["layout"]["height"] <= 520
    assert all(grid["layout"]["yaxis"]["ticktext"])


def test_the_subsequent_mask_code_fits_its_column():
    at = app("masks")
    code = next(c for c in at.code if "def subsequent_mask" in c.value)
    assert max(len(line) for line in code.value.splitlines()) <= 32
    assert code.proto.wrap_lines  # and a narrow screen wraps instead of cutting it off


def test_target_masks_have_their_row_labels_outside_and_room_for_them():
    at = app("masks", mask_len_a=3, mask_len_b=6)
    assert not at.exception
    tgt = figure_list(at)[2]
    layout = tgt["layout"]
    assert layout["yaxis"].get("side", "left") == "left" and layout["yaxis2"]["side"] == "right"
    assert layout["yaxis"]["ticktext"][-1] == "5:&lt;pad&gt;"
    from explorer.figures.common import text_px

    for side, axis in (("l", "yaxis"), ("r", "yaxis2")):  # the labels fit in their margins
        assert layout["margin"][side] >= max(map(text_px, layout[axis]["ticktext"])) + 10
    # the padding mask's last column label ("5:mat" here) has room on the right
    pad = figure_list(at)[1]["layout"]
    assert pad["margin"]["r"] >= 30


def _main_warnings(at) -> list[str]:
    return [w.value for w in at.main.warning]


@pytest.mark.parametrize("forged", ["x", 99, 0, -3, True, 2.5, None, [1], float("nan")])
def test_forged_mask_lengths_fall_back_to_the_defaults(forged):
    """What is not a length falls back to the default, a number out of range becomes the
    nearest end (tests/test_number_boxes.py); the only warnings are the boxes' own, which say
    so (no Streamlit warning about a widget's value)."""
    at = app("masks", mask_len_a=forged, mask_len_b=forged)
    assert not at.exception
    numbers = {99: (12, 12), 0: (1, 1), -3: (1, 1)}
    a, b = numbers.get(forged, (3, 4)) if not isinstance(forged, (bool, list)) else (3, 4)
    assert at.number_input(key="mask_len_a").value == a
    assert at.number_input(key="mask_len_b").value == b
    assert all(w.startswith("length of sentence") for w in _main_warnings(at))


def test_mask_lengths_come_from_session_state():
    at = app("masks", mask_len_a=5, mask_len_b=2)
    assert not at.exception and not _main_warnings(at)  # no "default value" warning
    assert at.number_input(key="mask_len_a").value == 5
    pad = figure_list(at)[1]
    assert "(2, 1, 5)" in pad["layout"]["title"]["text"]
    at.number_input(key="mask_len_b").set_value(7).run()
    assert "(2, 1, 7)" in figure_list(at)[1]["layout"]["title"]["text"]


@pytest.mark.parametrize("forged", [
    {"shape_stack": 5, "shape_layer": "layer 9", "shape_attn": "yes"},
    {"shape_stack": ["Decoder"], "shape_layer": 1, "shape_attn": 1},
    {"shape_stack": "<b>x</b>", "shape_layer": None, "shape_attn": None},
])
def test_forged_shape_filters_fall_back_to_the_defaults(forged):
    at = app("shapes", **forged)
    assert not at.exception and not _main_warnings(at)
    assert at.selectbox(key="shape_stack").value == "all"
    assert at.selectbox(key="shape_layer").value == "all"
    assert at.toggle(key="shape_attn").value is False


def _split_figures(at) -> list[tuple[str, dict]]:
    out = []
    for el in at.get("plotly_chart"):
        config = json.loads(el.proto.config)
        name = config["toImageButtonOptions"]["filename"]
        if name.startswith("shapes_head_split"):
            out.append((name, json.loads(el.proto.spec)))
    return out


@pytest.mark.parametrize(("state", "modules"), [
    ({}, ["enc_L0"]),
    ({"shape_layer": "layer 1"}, ["enc_L1"]),
    ({"shape_stack": "Encoder", "shape_layer": "layer 1"}, ["enc_L1"]),
    ({"shape_stack": "Decoder", "shape_layer": "layer 1"}, ["dec_L1", "cross_L1"]),
    ({"shape_stack": "Decoder"}, ["dec_L0", "cross_L0"]),
])
def test_head_split_follows_the_part_and_layer_filters(state, modules):
    at = app("shapes", **state)
    assert not at.exception
    figs = _split_figures(at)
    assert [name.removeprefix("shapes_head_split_").split("_tiny")[0] for name, _ in figs] \
        == modules
    for module, (_, fig) in zip(modules, figs, strict=True):
        kind, layer = module.split("_L")
        stack = "encoder" if kind == "enc" else "decoder"
        attn = "src_attn" if kind == "cross" else "self_attn"
        assert f"{stack}.layers.{layer}.{attn}" in fig["layout"]["title"]["text"]
        # rows are the queries: source tokens for the encoder, target inputs for the decoder
        first = fig["layout"]["yaxis"]["ticktext"][0]
        assert first == ("0:the" if kind == "enc" else "0:&lt;s&gt;")


def test_shape_table_columns_are_as_wide_as_their_values():
    from explorer.figures.common import text_px

    at = app("shapes")
    widths = {name: spec["width"] for name, spec in json.loads(at.dataframe[0].proto.columns)
              .items() if "width" in spec}
    df = at.dataframe[0].value
    for column in df.columns:
        longest = max([str(column), *map(str, df[column])], key=lambda s: text_px(s, 14, 0.54))
        assert widths[column] >= text_px(longest, 14, 0.5) + 16, (column, longest)
    assert "masked self-attention" in set(df["sublayer"])
    assert "masked_scores" in set(df["tensor"])


# ---- The loss charts of a training in presenter mode ----------------------------------------


def test_training_in_presenter_mode_draws_every_loss_chart_large(monkeypatch):
    from explorer.training import run as training

    live: list[tuple[str, dict, dict]] = []  # (key, figure, config) of each redrawn chart
    drawn = threading.Event()
    plotly_chart = DeltaGenerator.plotly_chart

    def spy(self, fig, *args, **kwargs):
        if "tr_live" in str(kwargs.get("key")):
            live.append((kwargs["key"], json.loads(pio.to_json(fig.to_dict(), validate=False)),
                         kwargs.get("config") or {}))
            drawn.set()
        return plotly_chart(self, fig, *args, **kwargs)

    real_record = training.record_step

    def record_step(state, info):  # the training (in the hub's thread) waits at step 10
        stop = real_record(state, info)  # until the page has drawn its progress once
        if info.step == 10:
            drawn.wait(60)
        return stop

    monkeypatch.setattr(DeltaGenerator, "plotly_chart", spy)  # the placeholder's method
    monkeypatch.setattr(training, "record_step", record_step)
    at = app("train", presenter=True, tr_steps=50, tr_batch=16, seed=31)
    at.button(key="tr_train").click().run()
    assert not at.exception, at.exception
    state = at.session_state["train_state"]
    normal = json.loads(sized_figure(loss_figure(state.history, 50, lang="en")).to_json())
    # the fast recipe's model was trained, not the sidebar's (tiny) one
    tag = f"N{FAST.N}-d{FAST.d_model}-h{FAST.h}-ff{FAST.d_ff}"
    assert live and all(key.endswith("_presenter") for key, _, _ in live)
    for key, fig, config in live:
        assert_all_larger(normal, fig, key)
        assert config["toImageButtonOptions"]["filename"] == f"loss_copy_{tag}"
    final = {el.proto.id.rsplit("-", 1)[-1]: el for el in at.get("plotly_chart")}
    assert chart_names(at)["tr_loss_presenter"] == f"loss_copy_{tag}"
    big = json.loads(final["tr_loss_presenter"].proto.spec)
    assert_all_larger(normal, big, "tr_loss")
    assert big["layout"]["font"]["size"] >= PRESENTER_FONT
