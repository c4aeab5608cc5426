"""Every token label of every heatmap is written, titles fit, and nothing sits under the
plotly toolbar (a teacher projecting at 1280 x 720 in presenter mode, a student on a 390 px
phone).

The figures do not know the screen's width: these tests read the figure specs (no browser)
and check the designs that hold at both widths: every label of an axis of up to 32 tokens in
the spec (plotly's automatic thinning off), no tick marks between panels, cell numbers sized
by plotly to the drawn cells, wrapped titles, colour bars away from the toolbar's corner.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from explorer.figures.common import (
    MAX_LABELLED,
    MODEBAR_PX,
    TITLE_PX,
    TITLE_SIZE,
    axis_labels,
    esc,
    text_px,
    wrap_text,
)

AXIS = re.compile(r"^(x|y)axis\d*$")
DATE = list("2026年11月23日") + ["</s>"]  # the date translator's source: 12 tokens
ANSWER = ["<s>", *"2026-11-23"]  # its decoder input: 11 tokens


def tokens(n: int) -> list[str]:
    """n tokens, repeated ones and a Chinese one among them."""
    words = ["<s>", "the", "cat", "sat", "on", "the", "mat", "月", "a", "b"]
    return [words[i % len(words)] for i in range(n)]


def spec(fig) -> dict:
    return json.loads(fig.to_json())


def axes(fig: dict) -> dict[str, dict]:
    return {k: v for k, v in fig["layout"].items() if AXIS.match(k)}


def shown_labels(fig: dict, letter: str) -> list[list[str]]:
    """The tick labels each `letter` axis writes (an axis that shows no labels: none)."""
    out = []
    for name, axis in axes(fig).items():
        if name.startswith(letter) and axis.get("showticklabels", True) is not False:
            out.append([t for t in axis.get("ticktext", []) if t])
    return out


def assert_every_label(fig: dict, letter: str, toks: list[str],
                       want: list[str] | None = None) -> None:
    """Every label of `toks` (as `want`, by default "i:token") is written by the `letter`
    axes that write any: each writes all of them, in an array of ticks that plotly does not
    thin."""
    want = axis_labels(toks) if want is None else want
    written = [labels for labels in shown_labels(fig, letter) if labels]
    assert written, f"no {letter} axis writes labels"
    for labels in written:
        assert labels == want, (letter, labels, want)
    for name, axis in axes(fig).items():
        if name.startswith(letter) and axis.get("ticktext"):
            assert axis.get("tickmode") == "array", name
            assert len(axis["tickvals"]) == len(toks), name


# ---- one figure of every kind that draws token labels, at a given sentence length --------

def _grid(q: list[str], k: list[str], heads: int = 4, layers: int = 2, **kw) -> dict:
    from explorer.figures.attention import attention_grid

    rng = np.random.default_rng(0)
    w = rng.random((layers, heads, len(q), len(k)))
    return spec(attention_grid(w / w.sum(-1, keepdims=True), q, k, title="t", lang="en", **kw))


def _steps(q: list[str], k: list[str]) -> dict[str, dict]:
    """head_steps' figures, from a hand-made cache of one attention."""
    from explorer.core.kinds import KINDS
    from explorer.figures.attention import head_steps
    from transformer.model import MASK_FILL

    kind = KINDS["cross"]
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(1, 2, len(q), len(k)))
    masked = scores.copy()
    if len(k) > 1:
        masked[..., -1] = MASK_FILL
    pattern = np.exp(masked) / np.exp(masked).sum(-1, keepdims=True)
    cache = {kind.hook(0, "hook_q"): rng.normal(size=(1, 2, len(q), 4)),
             kind.hook(0, "hook_k"): rng.normal(size=(1, 2, len(k), 4)),
             kind.hook(0, "hook_v"): rng.normal(size=(1, 2, len(k), 4)),
             kind.hook(0, "hook_scores"): scores, kind.hook(0, "hook_masked_scores"): masked,
             kind.hook(0, "hook_pattern"): pattern,
             kind.hook(0, "hook_z"): rng.normal(size=(1, 2, len(q), 4))}
    return {name: spec(fig) for name, fig in head_steps(cache, kind, 0, 1, q, k, lang="en").items()}


def token_figures(q: list[str], k: list[str]) -> list[tuple[str, dict, list | None,
                                                            list | None]]:
    """(name, figure, row tokens, column tokens) of every figure with token axes."""
    from explorer.figures.common import heatmap
    from explorer.figures.embeddings import token_vectors
    from explorer.figures.masks import batch_masks_figure, mask_figure, masking_effect_figure
    from explorer.figures.model import date_preview_figure
    from explorer.figures.shapes import head_split_figure, values_figure
    from explorer.figures.train import attention_figure, film_figure

    rng = np.random.default_rng(2)
    w = rng.random((len(q), len(k)))
    w /= w.sum(-1, keepdims=True)
    sub = np.tril(np.ones((len(k), len(k)), dtype=bool))
    steps = _steps(q, k)
    film = rng.random((3, 1, 2, len(q), len(k)))
    return [
        ("heatmap", spec(heatmap(w, k, q, "weights", x_title="key", y_title="query",
                                 lang="en")), q, k),
        ("grid", _grid(q, k), q, k),
        ("grid, 8 heads", _grid(q, k, heads=8, layers=3), q, k),
        ("grid, averaged", _grid(q, k, average_heads=True), q, k),
        ("scores", steps["scores"], q, k),
        ("masked", steps["masked"], q, k),
        ("weights", steps["weights"], q, k),
        ("Q", steps["Q"], q, None),
        ("K", steps["K"], k, None),
        ("z", steps["z"], q, None),
        ("mask", spec(mask_figure(sub, k, k, "subsequent_mask", lang="en")), k, k),
        ("padding mask", spec(mask_figure(np.ones((2, len(k)), dtype=bool), ["A", "B"], k,
                                          "src_mask", lang="en")), ["A", "B"], k),
        ("target masks", spec(batch_masks_figure(np.stack([sub, sub]), [k, k], ["A", "B"],
                                                 lang="en")), k, k),
        ("masking effect", spec(masking_effect_figure(rng.normal(size=sub.shape), sub, k,
                                                      lang="en")), k, k),
        ("head split", spec(head_split_figure(rng.normal(size=(8, len(q), 4)),
                                              rng.normal(size=(len(q), 32)), q, lang="en")),
         q, None),
        ("values", spec(values_figure(w, q, k, "v", lang="en")), q, k),
        ("token vectors", spec(token_vectors(rng.normal(size=(len(q), 8)), q, "e", 1.0,
                                             lang="en")), q, None),
        ("date preview", spec(date_preview_figure(w, q, k, "preview", lang="en")), q, k),
        ("decoding attention", spec(attention_figure(w, q, k, "a", q_title="query",
                                                     k_title="key", lang="en")), q, k),
        ("film", spec(film_figure(film, [0, 1, 2], q, k, "film", lang="en")), q, k),
    ]


SENTENCES = {
    "1 token": (["a"], ["b"]),
    "the cat (6)": (tokens(6), tokens(6)),
    "date (11 x 12)": (ANSWER, DATE),
    "17 tokens": (tokens(17), tokens(17)),
    "32 tokens": (tokens(MAX_LABELLED), tokens(MAX_LABELLED)),
}


GRIDS = ("grid", "grid, 8 heads", "grid, averaged", "film")  # keys: `key_labels`
SIDE_BY_SIDE = ("target masks", "masking effect")  # two panels: half as many column labels


@pytest.mark.parametrize("sentence", list(SENTENCES))
def test_every_token_label_of_every_heatmap_is_in_the_figure(sentence):
    """The teacher can point at 月: no axis of up to 32 tokens (16 under each of two panels
    side by side) leaves a label to plotly's automatic thinning (every other key of the
    date, before)."""
    from explorer.figures.attention import key_labels
    from explorer.figures.masks import SIDE_BY_SIDE_ROOM

    q, k = SENTENCES[sentence]
    for name, fig, rows, cols in token_figures(q, k):
        if rows is not None:  # panels side by side name their rows once (left), or twice
            assert_every_label(fig, "y", rows)
        if cols is None or (name in SIDE_BY_SIDE and len(cols) > SIDE_BY_SIDE_ROOM):
            continue
        assert_every_label(fig, "x", cols, key_labels(cols) if name in GRIDS else None)


@pytest.mark.parametrize("sentence", list(SENTENCES))
def test_no_tick_marks_between_panels(sentence):
    """A tick mark of a panel's axis was drawn into the panel beside it (a phone's grid)."""
    q, k = SENTENCES[sentence]
    for name, fig, _, _ in token_figures(q, k):
        for axis_name, axis in axes(fig).items():
            if axis.get("ticktext") or axis.get("tickvals"):
                assert axis.get("ticks") == "", (name, axis_name)


def test_many_labels_get_a_smaller_font_and_may_stand_upright():
    from explorer.app.charts import PRESENTER_MIN_TICK, presenter_spec
    from explorer.figures.common import heatmap

    q, k = tokens(26), tokens(30)
    fig = spec(heatmap(np.ones((26, 30)), k, q, lang="en"))
    x, y = fig["layout"]["xaxis"], fig["layout"]["yaxis"]
    assert x["tickfont"]["size"] < y["tickfont"]["size"] < 12
    assert -90 in x["autotickangles"]  # plotly turns them upright when 45 degrees overlap
    assert "tickangle" not in x
    # up to 24 labels keep the theme's 12 px (a phone's chart fits 24 upright)
    assert "tickfont" not in spec(heatmap(np.ones((24, 24)), tokens(24), tokens(24), lang="en"))[
        "layout"]["xaxis"]
    # a projector's charts are wide: presenter mode never writes them below 18 px
    big = presenter_spec(heatmap(np.ones((26, 30)), k, q, lang="en"))["layout"]
    assert big["xaxis"]["tickfont"]["size"] == big["yaxis"]["tickfont"]["size"] \
        == PRESENTER_MIN_TICK


# ---- the attention grid: heads wrap, short names, every layer --------------------------------

@pytest.mark.parametrize(("heads", "k_len", "columns"), [
    (4, 6, 4), (4, 7, 4), (4, 12, 2), (8, 7, 4), (8, 3, 8), (4, 17, 1), (5, 6, 3), (1, 30, 1)])
def test_grid_wraps_heads_so_that_a_row_keeps_its_key_labels_apart(heads, k_len, columns):
    from explorer.figures.attention import KEYS_PER_ROW, grid_columns

    assert grid_columns(heads, k_len) == columns
    assert columns * k_len <= KEYS_PER_ROW or columns == 1


def test_the_date_grid_names_every_character_under_every_row_of_panels():
    """On the projector the date's characters were written under the lowest panels only,
    1,500 px below the first: every row of panels has them, each character alone (the
    date reads as it is written; the hover names the position)."""
    fig = _grid(ANSWER, DATE)
    labelled = [a for n, a in axes(fig).items() if n.startswith("x")
                and a.get("showticklabels") is not False]
    assert len(labelled) == 8  # 2 layers x 4 heads, 2 a row: every panel
    for axis in labelled:
        assert axis["ticktext"] == [esc(c) for c in DATE]
        assert axis["tickvals"] == axis_labels(DATE)
        assert axis["autotickangles"] == [0, -90]  # across when they fit
    # between two rows of panels: room for the labels (upright at worst) and the heads' names
    layout = fig["layout"]
    plot = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    rows = sorted({tuple(a["domain"]) for n, a in axes(fig).items() if n.startswith("y")},
                  reverse=True)
    for (low, _), (_, high) in zip(rows, rows[1:], strict=False):
        assert (low - high) * plot >= text_px("</s>", 12) + 20
    # words keep their positions: "i:token"
    words = _grid(tokens(6), tokens(6))
    assert words["layout"]["xaxis"]["ticktext"] == axis_labels(tokens(6))
    heatmaps = [t for t in fig["data"] if t["type"] == "heatmap"]
    assert len(heatmaps) == 2 * 4
    # layer-major order, as film_figure's frames expect
    assert [t["hovertemplate"].split("<br>")[0] for t in heatmaps[:5]] == [
        "layer 0 · head 0", "layer 0 · head 1", "layer 0 · head 2", "layer 0 · head 3",
        "layer 1 · head 0"]


def test_many_heads_side_by_side_get_short_names():
    fig = _grid(tokens(3), tokens(3), heads=8)
    names = [a["text"] for a in fig["layout"]["annotations"] if a.get("textangle") != 90]
    assert names[:8] == [f"h{j}" for j in range(8)]
    few = _grid(tokens(6), tokens(6), heads=4)
    assert [a["text"] for a in few["layout"]["annotations"]][:4] == [
        f"head {j}" for j in range(4)]


def test_every_panel_row_of_a_wrapped_grid_has_its_heads_names_and_room_for_them():
    fig = _grid(ANSWER, DATE)  # 2 layers x 2 rows of 2 heads
    names = [a for a in fig["layout"]["annotations"] if a.get("textangle") != 90]
    assert [a["text"] for a in names] == [f"head {j}" for j in (0, 1, 2, 3)] * 2
    layout = fig["layout"]
    plot = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    tops = sorted({round(a["y"], 6) for a in names}, reverse=True)
    panels = sorted({tuple(a["domain"]) for n, a in axes(fig).items() if n.startswith("y")},
                    reverse=True)
    for (low, _), (_, high) in zip(panels, panels[1:], strict=False):
        assert (low - high) * plot >= 20  # a head name's line between two rows of panels
    assert len(tops) == 4
    assert len(layout["shapes"]) == 1  # a line between the two layers


def test_grid_query_labels_keep_18_px_rows_up_to_32_tokens():
    from explorer.figures.attention import ROW_PX

    fig = _grid(tokens(32), tokens(5), heads=2)
    layout = fig["layout"]
    plot = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    low, high = layout["yaxis"]["domain"]
    assert plot * (high - low) / 32 >= ROW_PX - 0.01
    assert all(layout["yaxis"]["ticktext"])


def test_paper_base_grids_of_long_sentences_average_the_heads():
    """The page averages the heads beyond GRID_CELL_BUDGET weights: it also bounds the
    grid's height now that every label is written and heads wrap."""
    from explorer.figures.attention import GRID_CELL_BUDGET

    assert 6 * 8 * 7 * 7 <= GRID_CELL_BUDGET  # paper base, "<s> the cat sat on the mat"
    assert 2 * 4 * 17 * 17 <= GRID_CELL_BUDGET  # tiny, 17 tokens
    assert 6 * 8 * 17 * 17 > GRID_CELL_BUDGET  # paper base, 17 tokens: averaged


# ---- cell numbers ---------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", list(SENTENCES))
def test_cell_numbers_are_sized_to_their_cells_and_left_out_of_narrow_ones(sentence):
    """Decoder self-attention's 11 columns ran together ("0.000.000.00") on a phone."""
    q, k = SENTENCES[sentence]
    for name, fig, _, cols in token_figures(q, k):
        for trace in fig["data"]:
            if trace.get("type") != "heatmap" or not trace.get("texttemplate"):
                continue
            # no fixed size: plotly fits the numbers to the cells it draws
            assert "size" not in (trace.get("textfont") or {}), name
            n = len(trace["x"]) if trace.get("x") is not None else len(cols or [])
            digits = trace["texttemplate"] == "%{text}" and all(
                len(str(v)) == 1 for row in trace["text"] for v in row)  # a mask's 1 and 0
            assert n <= 12 or digits, (name, n)
    heatmaps = [t for _, fig, _, _ in token_figures(q, k) for t in fig["data"]
                if t.get("type") == "heatmap"]
    if len(k) > 12:  # a phone's cells are too narrow for numbers: none are written
        assert not any("%{z" in (t.get("texttemplate") or "") for t in heatmaps
                       if len(t.get("x") or []) > 12)


def test_the_knockout_grid_fits_its_numbers_and_names_eight_heads_briefly():
    from explorer.figures.attention import knockout_grid

    rng = np.random.default_rng(0)
    fig = spec(knockout_grid({"enc": rng.normal(size=(2, 8)) * 0.1,
                              "cross": rng.normal(size=(2, 8)) * 0.1},
                             {"enc": "Encoder self-attention",
                              "cross": "权重：交叉注意力（解码器 → 编码器），第 0 层"}, 0.9,
                             lang="en"))
    for trace in fig["data"]:
        assert "size" not in (trace.get("textfont") or {})
    x = fig["layout"]["xaxis"]
    assert x["tickmode"] == "array" and x["ticktext"] == [f"h{j}" for j in range(8)]


# ---- titles ---------------------------------------------------------------------------------

LONG_TITLES = [
    "掩码后的分数：空白 = -1e9（0 个被屏蔽）",
    "权重：交叉注意力（解码器 → 编码器），第 0 层",
    "masked scores: blank = -1e9 (0 blocked)",
    "Cross-attention of the date translator, decoder layer 1",
    "masked_fill(mask == 1, -1e9) 之后的 softmax：只剩下后面的位置",
    "k = 3 时的 M_k：每个频率一个 2×2 旋转",
]


@pytest.mark.parametrize("title", LONG_TITLES)
def test_long_titles_wrap_into_lines_that_fit_a_half_column(title):
    """At 1280 x 720 in presenter mode, a title under a chart in half the page (438 px at
    1.54 times the size) was cut off: "掩码后的分数：空白 = -1e9（0 个被屏蔽"."""
    lines = wrap_text(title, TITLE_PX)
    assert len(lines) >= 2
    for line in lines:
        assert text_px(line, TITLE_SIZE) <= TITLE_PX or " " not in line
        assert text_px(line, TITLE_SIZE * 1.54) <= 438 + 20
    assert "".join(lines).replace(" ", "") == title.replace(" ", "")  # nothing lost
    # breaks at punctuation or spaces, not inside a bracket's first character
    for line in lines[1:]:
        assert not line.startswith(("）", ")", "，", "：", ","))
    for line in lines[:-1]:
        assert not line.endswith(("（", "("))


def test_wrapping_keeps_short_and_empty_text_and_long_words():
    assert wrap_text("scores", TITLE_PX) == ["scores"]
    assert wrap_text("", TITLE_PX) == [""]
    word = "x" * 80
    assert wrap_text(f"{word} y", TITLE_PX) == [word, "y"]
    assert wrap_text("掩码后的分数：空白 = -1e9（0 个被屏蔽）", 270) == [
        "掩码后的分数：空白 = -1e9", "（0 个被屏蔽）"]
    assert wrap_text("权重：交叉注意力（解码器 → 编码器），第 0 层", 270) == [
        "权重：交叉注意力", "（解码器 → 编码器），第 0 层"]


def test_heatmap_titles_are_wrapped_escaped_and_have_room_under_the_colour_bar():
    from explorer.figures.common import COLORBAR_PX, heatmap

    title = "<b>权重：交叉注意力（解码器 → 编码器），第 0 层</b>"
    fig = spec(heatmap(np.ones((3, 3)), list("abc"), list("abc"), title, lang="en"))
    layout = fig["layout"]
    text = layout["title"]["text"]
    assert text.count("<br>") >= 1 and "&lt;b&gt;" in text and "<b>" not in text
    assert layout["title"]["yanchor"] == "top" and layout["title"]["y"] == 0
    assert layout["margin"]["b"] >= COLORBAR_PX + 2 * 22
    bar = fig["data"][0]["colorbar"]
    assert bar["orientation"] == "h" and bar["y"] == 0 and bar["yanchor"] == "top"


def test_a_vertical_axis_title_longer_than_its_matrix_keeps_its_head_word():
    """"查询（发出关注的位置）" ran past a 7-row matrix into the title in presenter mode."""
    from explorer.figures.common import heatmap
    from explorer.figures.masks import mask_figure

    fig = heatmap(np.ones((4, 4)), list("abcd"), list("abcd"), "t",
                  y_title="查询（发出关注的位置）", x_title="键（被关注的位置）", lang="en")
    assert fig.layout.yaxis.title.text == "查询"
    assert fig.layout.xaxis.title.text == "键（被关注的位置）"
    tall = heatmap(np.ones((30, 4)), list("abcd"), tokens(30), y_title="query (attending)",
                   lang="en")
    assert tall.layout.yaxis.title.text == "query (attending)"
    small = mask_figure(np.tril(np.ones((4, 4), bool)), list("abcd"), list("abcd"),
                        row_noun="查询（发出关注的位置）", lang="en")
    assert small.layout.yaxis.title.text == "查询"
    assert small.data[0].hovertemplate.startswith("查询 %{y}")


def test_subplot_titles_of_the_masking_effect_fit_half_a_phone():
    from explorer.figures.masks import masking_effect_figure

    sub = np.tril(np.ones((7, 7), dtype=bool))
    fig = masking_effect_figure(np.zeros((7, 7)), sub, tokens(7), lang="en")
    for note in fig.layout.annotations:
        for line in note.text.split("<br>"):
            assert text_px(line, TITLE_SIZE) <= 160 or " " not in line, note.text


# ---- the plotly toolbar, margins ------------------------------------------------------------

def _colour_bars(fig: dict) -> list[tuple[dict, dict]]:
    return [(t, t.get("colorbar") or {}) for t in fig["data"]
            if t.get("type") == "heatmap" and t.get("showscale", True) is not False]


@pytest.mark.parametrize("sentence", ["the cat (6)", "date (11 x 12)"])
def test_no_colour_bar_lies_under_the_toolbar(sentence):
    """The toolbar (top right, ~30 px tall, shown on hover) covered the colour bar's top:
    a colour bar lies under the matrix, or starts below the toolbar's band."""
    from explorer.figures.attention import knockout_grid
    from explorer.figures.embeddings import pe_similarity, pe_table_heatmap

    q, k = SENTENCES[sentence]
    figs = [(name, fig) for name, fig, _, _ in token_figures(q, k)]
    table = np.random.default_rng(0).normal(size=(10, 8))
    figs += [("pe table", spec(pe_table_heatmap(table, lang="en"))),
             ("pe sim", spec(pe_similarity(table, lang="en"))),
             ("knockout", spec(knockout_grid({"enc": np.zeros((2, 4))}, {"enc": "e"}, 1.0,
                                             lang="en")))]
    for name, fig in figs:
        for _, bar in _colour_bars(fig):
            below = bar.get("orientation") == "h" and bar.get("y", 1) <= 0
            top_margin = fig["layout"].get("margin", {}).get("t", 100)
            clear = top_margin >= MODEBAR_PX or (bar.get("y", 0.5) + (bar.get("len", 1) / 2
                                                 if bar.get("yanchor", "middle") == "middle"
                                                 else bar.get("len", 1)) < 0.9)
            assert below or clear, (name, bar, top_margin)


def test_heatmap_top_margin_only_holds_its_labels():
    """About 120 px stood empty above charts in presenter mode (fixed 60-90 px margins,
    times 1.54): the top margin is what the column labels and their title need."""
    from explorer.figures.common import heatmap
    from explorer.figures.embeddings import shift_matrix, shift_matrix_figure

    numbers = spec(shift_matrix_figure(shift_matrix(8, 3), 3, lang="en"))
    assert numbers["layout"]["margin"]["t"] <= 40
    short = spec(heatmap(np.ones((3, 3)), list("abc"), list("abc"), lang="en"))
    assert short["layout"]["margin"]["t"] <= 40
    assert short["layout"]["margin"]["t"] >= MODEBAR_PX


def test_pe_curves_put_the_legend_under_the_title():
    """On a phone the legend's two rows ran into the title beside it."""
    from explorer.figures.embeddings import pe_curves

    fig = pe_curves(np.zeros((10, 8)), [4, 5, 6, 7], "PE for d_model = 20", lang="en").layout
    assert fig.legend.x == 0 and fig.legend.xanchor == "left" and fig.legend.yanchor == "bottom"
    assert fig.title.yref == "container" and fig.title.yanchor == "top"
    assert fig.margin.t <= 80


# ---- charts.py: the toolbar and figures with a least width ---------------------------------

def test_the_toolbar_keeps_only_the_camera_zoom_and_reset():
    from explorer.app.charts import MODEBAR_REMOVE

    assert {"pan2d", "zoomIn2d", "zoomOut2d", "autoScale2d"} <= set(MODEBAR_REMOVE)
    assert "toImage" not in MODEBAR_REMOVE and "zoom2d" not in MODEBAR_REMOVE


def test_the_architecture_scrolls_sideways_below_its_least_width_instead_of_overlapping():
    """At 390 px "LayerNorm (sublayer[1].norm)" ran over both stacks: the drawing declares a
    least width and its element scrolls sideways below it (a phone is shown the stacked
    drawing instead: tests/test_architecture_layout.py)."""
    from explorer.app.charts import min_width_css, presenter_spec, sized_spec
    from explorer.figures.model import WIDE, architecture_figure
    from transformer.model import TransformerConfig

    fig = architecture_figure(TransformerConfig(11, 11, N=2, d_model=32, d_ff=64, h=4), 6, 7,
                              lang="en")
    for written in (sized_spec(fig), presenter_spec(fig)):
        css = min_width_css(written, "model_architecture")
        assert css is not None
        assert f"min-width: {WIDE.least_px:g}px" in css and "overflow-x: auto" in css
        assert ".st-key-model_architecture" in css and "max-width" not in css
    assert min_width_css(sized_spec(fig), "bad key;}") is None
    from explorer.figures.common import heatmap

    assert min_width_css(sized_spec(heatmap(np.ones((2, 2)), None, None, lang="en")), "k") is None


def test_escaping_survives_the_new_labels():
    bad = "<b>x</b>"
    fig = _grid([bad, "a"], [bad, "b"])
    text = json.dumps(fig, ensure_ascii=False)
    assert "<b>x</b>" not in text and esc(f"0:{bad}") in text


# ---- a projector's date grid: a layer on one screen ------------------------------------------

PROJECTOR_PX = 720 - 79  # a 1280 x 720 screen below Streamlit's header, in presenter mode
MONTAG = list("Montag,23.November2026") + ["</s>"]  # the German example date's characters


def _layers_on_the_projector(fig: dict) -> list[float]:
    """Each layer's height on the projector (presenter mode's sizes), in pixels: its heads'
    names, panels and key labels, from the top of its first head name to the lowest reach
    of its last row's key labels."""
    from plotly.graph_objects import Figure

    from explorer.app.charts import presenter_spec
    from explorer.figures.attention import HEAD_BAND_PX

    big = presenter_spec(Figure(fig))["layout"]
    k = big["height"] / fig["layout"]["height"]
    plot = big["height"] - big["margin"]["t"] - big["margin"]["b"]
    by_layer: dict[str, list[tuple[float, float]]] = {}
    for name, axis in axes({"layout": big}).items():
        if name.startswith("y"):
            trace = next(t for t in fig["data"] if t["yaxis"] == "y" + name[5:])
            layer = trace["hovertemplate"].split(" · ")[0]
            by_layer.setdefault(layer, []).append(tuple(axis["domain"]))
    below = big["margin"]["b"] - 4 * k - 44 * k  # the last row's key labels (no colour bar)
    return [(max(h for _, h in spans) - min(lo for lo, _ in spans)) * plot
            + k * HEAD_BAND_PX + below for spans in by_layer.values()]


def test_a_layer_of_the_date_grid_fits_one_projector_screen():
    """The date translator's 8 heatmaps stood one above the other, about 2,000 px on the
    projector: there a layer's four heads, with every query row and the date's characters
    under every row of panels, fit one 1280 x 720 screen."""
    from plotly.graph_objects import Figure

    from explorer.app.charts import PRESENTER_MIN_TICK, presenter_spec

    fig = _grid(ANSWER, MONTAG, wide=True)
    heights = _layers_on_the_projector(fig)
    assert len(heights) == 2 and all(h <= PROJECTOR_PX for h in heights), heights
    big = presenter_spec(Figure(fig))["layout"]
    plot = big["height"] - big["margin"]["t"] - big["margin"]["b"]
    for name, axis in axes({"layout": big}).items():
        if name.startswith("x"):
            assert axis["ticktext"] == [esc(c) for c in MONTAG]  # every row of panels
        elif axis.get("showticklabels") is not False:
            assert axis["ticktext"] == axis_labels(ANSWER)  # every query row, written ...
            low, high = axis["domain"]
            assert (high - low) * plot / len(ANSWER) >= PRESENTER_MIN_TICK  # ... apart
    # the phone's grid (not wide) keeps one head a row for 23 keys
    assert len({tuple(a["domain"]) for n, a in axes(_grid(ANSWER, MONTAG)).items()
                if n.startswith("x")}) == 1


# ---- a long input: every step-th label, never on top of each other ----------------------------

LONG = tokens(48)


@pytest.mark.parametrize("kind", ["words", "characters"])
def test_a_long_input_writes_every_step_th_label_that_fits(kind):
    """48 tokens wrote 48 labels over each other under the masks, the softmax panels and
    the heatmaps: an axis of more than 32 tokens (16 under each of two panels side by side)
    writes every step-th, from the first, with its position, and may stand them upright."""
    from explorer.figures.attention import KEYS_PER_ROW
    from explorer.figures.masks import SIDE_BY_SIDE_ROOM

    toks = LONG if kind == "words" else list("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL")
    for name, fig, _, cols in token_figures(toks, toks):
        if cols is None:
            continue
        room = SIDE_BY_SIDE_ROOM if name in SIDE_BY_SIDE else MAX_LABELLED
        if name in GRIDS:  # one head a row: KEYS_PER_ROW of them at most, or every one of 32
            room = max(KEYS_PER_ROW, MAX_LABELLED)
        every = axis_labels(toks)
        for axis_name, axis in axes(fig).items():
            if not axis_name.startswith("x") or axis.get("showticklabels") is False:
                continue
            text, values = axis.get("ticktext"), axis.get("tickvals")
            assert axis.get("tickmode") == "array" and text, (name, axis_name)
            assert 1 < len(text) <= room, (name, len(text), room)
            step = len(toks) // len(text) + (len(toks) % len(text) > 0)
            assert text == every[::step], (name, text)  # positions kept: "2:quick"
            assert values == (every if isinstance(values[0], str)
                              else list(range(len(toks))))[::step], name
            angles = axis.get("autotickangles") or []
            assert -90 in angles or axis.get("tickangle") == -90, (name, angles)


def test_short_inputs_keep_every_label():
    from explorer.figures.common import tick_array, written

    assert list(written(32)) == list(range(32)) and list(written(48)) == list(range(0, 48, 2))
    assert list(written(64)) == list(range(0, 64, 2)) and len(written(65)) == 22
    ticks = tick_array(list(range(5)), list("abcde"))
    assert ticks["ticktext"] == list("abcde") and ticks["tickvals"] == [0, 1, 2, 3, 4]


# ---- the Masks page's mask of any size: positions past the sentence --------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_positions_past_the_sentence_have_no_token(lang):
    """With a mask larger than the sentence its rows and columns read "15:15", "16:16", as if
    the sentence went on with numbers: they are positions without tokens."""
    from explorer.figures.masks import mask_figure, sentence_positions
    from explorer.text.i18n import Text

    sentence = ["<s>", "the", "cat"]
    labels = sentence_positions(sentence, 20, lang=lang)
    none = Text(lang)("fig.masks.no_token")
    assert labels == sentence + [none] * 17
    assert none not in ("", "15") and not none.isdigit()
    fig = spec(mask_figure(np.tril(np.ones((20, 20), dtype=bool)), labels, labels, "m",
                           lang=lang))
    rows = fig["layout"]["yaxis"]["ticktext"]
    assert rows[:3] == ["0:&lt;s&gt;", "1:the", "2:cat"]
    assert rows[15] == esc(f"15:{none}") and "15:15" not in rows
    assert fig["layout"]["xaxis"]["ticktext"][16] == esc(f"16:{none}")
    assert sentence_positions(sentence, 2, lang=lang) == ["<s>", "the"]  # a smaller mask
