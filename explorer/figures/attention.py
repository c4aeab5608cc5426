"""Attention figures: a layers x heads grid of weights, and one head's computation."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch

from transformer.hook_paths import AttentionPoint, stack_output_hook, sublayer_hook
from transformer.model import MASK_FILL
from transformer.tokenize import SPECIALS

from ..core.kinds import AttentionKind
from ..text.i18n import Text, percent
from .common import (
    FONT,
    MAX_LABELLED,
    MODEBAR_PX,
    TICK_SIZE,
    axis_labels,
    esc,
    fast_figure,
    heatmap,
    label_size,
    text_px,
    tick_array,
    title_html,
)

# Weights drawn one heatmap per head; beyond this, the page averages the heads. It also
# bounds the grid's height (about 18 px per query row, KEYS_PER_ROW keys side by side): the
# paper base model's 6 x 8 heads for 7 tokens (2352), the tiny one's 2 x 4 for 17 (2312).
GRID_CELL_BUDGET = 2_500
ROW_PX = 18  # least height of a query row whose label is written (the font is 13 px)
KEYS_PER_ROW = 28  # key labels side by side under a row of panels (a phone: ~10 px each)
# ... on a projector (presenter mode at 1280 x 720, the sidebar open): a plot 790 px wide,
# 14 px a key for labels of at least 18 px (explorer.app.charts.PRESENTER_MIN_TICK), upright
# when need be (a character's glyph is about 13 px across then): two heads a row for the
# dates the translator reads (up to 27 characters and </s>)
KEYS_PER_ROW_WIDE = 56
# A layer of the grid on one projector screen: 720 px less Streamlit's header (79 px) and
# a margin, over presenter mode's 1.54 (explorer.app.charts: its fonts go from 13 to 20 px
# and this figure's height as much, `grow_with_text`): about 400 px as laid out here.
LAYER_SCREEN_PX = 400
WIDE_ROW_PX = 12  # least height of a labelled query row then (18.5 px on the projector)
WIDE_TICK_PX = 12  # a projector's least tick label (18 px) in this figure's pixels
MAX_PANEL_PX = MAX_LABELLED * ROW_PX  # longer sentences label every step-th query row
HEAD_BAND_PX = 22  # room above a row of panels for its heads' names
LAYER_GAP_PX = 12  # between two layers' panels
KEY_GAP_PX = 8  # between a row of panels and its key labels' lowest reach
COLORBAR_PX = 44  # the colour bar under the grid, with its numbers


def patterns(cache: Mapping[str, np.ndarray], kind: AttentionKind, n_layers: int) -> np.ndarray:
    """Attention weights of every layer: (N, h, q_len, k_len), batch item 0."""
    return np.stack([cache[kind.hook(i, "hook_pattern")][0] for i in range(n_layers)])


def _span(low: float, high: float) -> list[float]:
    """A subplot's domain, kept inside [0, 1] despite floating-point rounding."""
    return [min(max(round(low, 9), 0.0), 1.0), min(max(round(high, 9), 0.0), 1.0)]


def grid_columns(n_heads: int, k_len: int, keys_per_row: int = KEYS_PER_ROW) -> int:
    """Heads side by side in one row of the attention grid.

    As many as keep `keys_per_row` key labels in a row (KEYS_PER_ROW: a phone's), so that
    every label is written and they stay apart; a layer's heads are then spread evenly over
    its rows (4 heads of 12 keys: 2 and 2).
    """
    fit = max(1, min(n_heads, keys_per_row // max(k_len, 1)))
    rows = math.ceil(n_heads / fit)
    return math.ceil(n_heads / rows)


def _grid_rows(n_heads: int, q_len: int, room: float | None = None) -> tuple[int, int]:
    """Pixel height of one panel, and the step between labelled query rows.

    Panels grow with the number of query tokens, so that each row keeps ROW_PX and its
    label stays readable (also in presenter mode, where fonts grow 1.5x and heights 1.3x);
    beyond MAX_LABELLED query tokens only every step-th row is labelled. `room`: the most a
    panel may take (a layer on one projector screen), rows then at least WIDE_ROW_PX.
    """
    cell = 150 if n_heads <= 4 else 110
    panel = min(max(cell, ROW_PX * q_len), MAX_PANEL_PX)
    row = ROW_PX
    if room is not None:
        panel, row = max(min(panel, int(room)), 4 * WIDE_ROW_PX), WIDE_ROW_PX
    return panel, max(1, math.ceil(row * q_len / panel))


def key_labels(k_tokens: Sequence[str]) -> list[str]:
    """The grid's key labels (escaped): each character alone when every key is a single
    character or a special token (a character-level sentence, a date, reads as it is
    written under each row of panels; the hover names the position), else "i:token"."""
    if all(len(tok) == 1 or tok in SPECIALS for tok in k_tokens):
        return [esc(tok) for tok in k_tokens]
    return axis_labels(k_tokens)


def attention_grid(
    weights: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str],
    *,
    lang: str,
    average_heads: bool = False,
    title: str = "",
    wide: bool = False,
) -> go.Figure:
    """One heatmap per layer and head, all on the same 0-1 colour scale.

    Each layer is a band of panels, one per head; when a row of heads would hold more than
    KEYS_PER_ROW key labels, the layer's heads wrap onto more rows (`grid_columns`), each
    row under its heads' names. Every query label (left) is written, and every row of
    panels has its key labels under it (`key_labels`), up to MAX_LABELLED tokens (then
    every step-th); the key labels stand upright when the drawn width leaves no room
    across (plotly picks the angle). The layer names are on the right, the colour bar below
    (the plotly toolbar, top right, would cover it).

    `wide`: drawn on a projector (presenter mode): KEYS_PER_ROW_WIDE keys side by side, and
    a layer as tall as one screen (LAYER_SCREEN_PX), its query rows thinned if need be.
    """
    t = Text(lang)
    if average_heads:
        weights = weights.mean(axis=1, keepdims=True)
    n_layers, n_heads, q_len, k_len = weights.shape
    cols = grid_columns(n_heads, k_len, KEYS_PER_ROW_WIDE if wide else KEYS_PER_ROW)
    per_layer = math.ceil(n_heads / cols)  # rows of panels per layer
    head_title = "fig.attention.head" if cols <= 4 else "fig.attention.head_short"
    col_titles = ([t("fig.attention.mean_of_heads")] if average_heads
                  else [t(head_title, j=j) for j in range(n_heads)])
    hover_titles = ([t("fig.attention.mean_of_heads")] if average_heads
                    else [t("fig.attention.head", j=j) for j in range(n_heads)])
    row_titles = [t("fig.attention.layer", i=i) for i in range(n_layers)]
    query, key, weight = (t("fig.attention.query"), t("fig.attention.key"),
                          t("fig.attention.weight"))
    # Both axes are categories named by the labels, so the hover reads them as %{y} and
    # %{x}: a per-cell array of label pairs would be copied, cell by cell, for every panel.
    qlab, klab = axis_labels(q_tokens), axis_labels(k_tokens)
    # a panel's key labels: each row of panels writes them, every step-th of a long input
    # (with their positions: characters alone, some left out, would not read as the text)
    per_panel = max((KEYS_PER_ROW_WIDE if wide else KEYS_PER_ROW) // cols,
                    MAX_LABELLED if cols == 1 else 1)
    short = k_len <= per_panel and key_labels(k_tokens) != klab
    keys = tick_array(klab, key_labels(k_tokens) if short else klab, per_panel)
    across = label_size(cols * len(keys["ticktext"]))  # the labels side by side in a row
    keys["tickfont"] = dict(size=across) if across else None
    key_size = across or TICK_SIZE
    # Room under each row of panels for its key labels: upright at worst (a projector's
    # 18 px at least); a character alone stands upright only beside a longer one (</s>).
    size = max(key_size, WIDE_TICK_PX) if wide else key_size
    longest = max((text_px(lab, size) for lab in keys["ticktext"]), default=0.0)
    band = int(min(KEY_GAP_PX + longest, 150))
    room = None
    if wide:  # a layer's panels, head names and key labels on one screen
        room = (LAYER_SCREEN_PX - per_layer * (HEAD_BAND_PX + band)) / per_layer
    panel, step = _grid_rows(n_heads, q_len, room)
    shown_q = [lab if i % step == 0 else "" for i, lab in enumerate(qlab)]
    # Rows of panels, top to bottom, in pixels: (layer, first head, top, bottom, titled).
    bands: list[tuple[int, int, float, float, bool]] = []
    gap = LAYER_GAP_PX if per_layer == 1 else 2 * LAYER_GAP_PX  # wrapped: a divider in it
    dividers: list[float] = []
    y = 0.0
    for layer in range(n_layers):
        for row in range(per_layer):
            if bands:  # the key labels of the row of panels above
                y += band
            if layer and not row:
                dividers.append(y + gap / 2)
                y += gap
            titled = layer == 0 or per_layer > 1
            y += HEAD_BAND_PX if titled else 0.0
            bands.append((layer, row * cols, y, y + panel, titled))
            y += panel
    plot = y
    # The grid is laid out by hand and the figure built from plain dicts without plotly's
    # validation: with make_subplots and per-subplot updates, building this figure would take
    # most of the page's time (bench/page_response.py), and a class reruns it at once.
    hs = 0.03 if cols <= 4 else 0.015
    width = (1 - hs * (cols - 1)) / cols
    data: list[dict] = []
    layout: dict = {"annotations": []}
    n = 0
    for layer, first, top_px, bottom_px, titled in bands:
        top, bottom = 1 - top_px / plot, 1 - bottom_px / plot
        for head in range(first, min(first + cols, n_heads)):
            n += 1
            suffix = "" if n == 1 else str(n)
            col = head - first
            left = col * (width + hs)
            data.append(dict(
                type="heatmap", z=weights[layer, head], x=klab, y=qlab, zmin=0.0, zmax=1.0,
                colorscale="Blues", showscale=n == 1,
                colorbar=dict(orientation="h", thickness=10, len=0.4, x=0.5,
                              xanchor="center", y=0, yref="container", yanchor="bottom",
                              ypad=6, tickvals=[0, 0.5, 1]),
                xaxis=f"x{suffix}", yaxis=f"y{suffix}",
                hovertemplate=f"{row_titles[layer]} · {hover_titles[head]}<br>{query} "
                f"%{{y}}<br>{key} %{{x}}<br>{weight} %{{z:.3f}}<extra></extra>",
            ))
            xaxis = dict(type="category", ticks="", showgrid=False, **keys,
                         autotickangles=[0, -90] if short else [-45, -90])
            xaxis.update(domain=_span(left, left + width), anchor=f"y{suffix}")
            layout[f"xaxis{suffix}"] = xaxis
            layout[f"yaxis{suffix}"] = dict(
                domain=_span(bottom, top), anchor=f"x{suffix}", type="category", ticks="",
                tickmode="array", tickvals=qlab,
                ticktext=shown_q if col == 0 else [""] * q_len,
                showticklabels=col == 0, autorange="reversed",
            )
            if titled:
                layout["annotations"].append(dict(
                    text=col_titles[head], x=left + width / 2, y=top, xref="paper",
                    yref="paper", xanchor="center", yanchor="bottom", yshift=2,
                    showarrow=False, font=dict(size=12)))
    if per_layer > 1:  # a layer's heads take several rows: a line between two layers
        layout["shapes"] = [dict(type="line", xref="paper", yref="paper", x0=0, x1=1,
                                 y0=1 - y / plot, y1=1 - y / plot,
                                 line=dict(color="#b3b6bd", width=1, dash="dot"))
                            for y in dividers]
    for layer in range(n_layers):
        spans = [(top, bottom) for lay, _, top, bottom, _ in bands if lay == layer]
        middle = (spans[0][0] + spans[-1][1]) / 2
        layout["annotations"].append(dict(
            text=row_titles[layer], x=1, y=1 - middle / plot, xref="paper", yref="paper",
            # clear of the last key's label, upright beside it (</s>)
            xanchor="left", yanchor="middle", xshift=12, textangle=90, showarrow=False,
            font=dict(size=12)))
    # Room below for the lowest row's key labels and the colour bar.
    below = band + 4 + COLORBAR_PX
    top_margin = 40 if title else MODEBAR_PX
    layout.update(
        title=dict(text=esc(title), x=0, xanchor="left", xref="container", y=1,
                   yref="container", yanchor="top", pad=dict(t=8, l=4)) if title else None,
        font=FONT,
        height=max(320, math.ceil(top_margin + plot + below) + 1),  # + 1: domain rounding
        # presenter mode grows the height as much as the labels (explorer.app.charts): rows of
        # ROW_PX keep their labels apart
        meta={"grow_with_text": True},
        margin=dict(l=10, r=34, t=top_margin, b=below),
    )
    return fast_figure(data, layout)


def head_matrix(
    z: np.ndarray, row_tokens: Sequence[str], title: str, *, lang: str,
    value_format: str = ".2f",
) -> go.Figure:
    """A (tokens x features) matrix such as one head's Q, K or V, or its output."""
    t = Text(lang)
    limit = float(np.abs(z).max()) or 1.0
    return heatmap(
        z, None, row_tokens, title, lang=lang, x_title=t("fig.attention.feature_axis"),
        zmin=-limit, zmax=limit, colorscale="RdBu", value_format=value_format,
        show_values=z.shape[1] <= 6 and z.size <= 60,
    )


def _shape(a: np.ndarray) -> str:
    return " × ".join(str(n) for n in a.shape)


def head_steps(cache: Mapping[str, np.ndarray], kind: AttentionKind, layer: int, head: int,
               q_tok: Sequence[str], k_tok: Sequence[str], *,
               lang: str) -> dict[str, go.Figure]:
    """One head of one attention, step by step: Q, K, V, scores, masked scores, weights, z.

    Keys are the steps in computing order. The scores and the masked scores share one
    colour scale; a blocked score (exactly MASK_FILL, the model's fill value) is left blank
    and counted in the title.
    """
    t = Text(lang)

    def take(point: AttentionPoint) -> np.ndarray:
        return cache[kind.hook(layer, point)][0, head]  # (q_len or k_len, ...) of this head

    Q, K, V = take("hook_q"), take("hook_k"), take("hook_v")  # (len, d_k)
    scores, masked = take("hook_scores"), take("hook_masked_scores")  # (q_len, k_len)
    pattern, z = take("hook_pattern"), take("hook_z")  # (q_len, k_len), (q_len, d_k)
    lim = float(np.abs(scores).max()) or 1.0
    blocked = masked == MASK_FILL
    return {
        "Q": head_matrix(Q, q_tok, f"Q  ({_shape(Q)})", lang=lang),
        "K": head_matrix(K, k_tok, f"K  ({_shape(K)})", lang=lang),
        "V": head_matrix(V, k_tok, f"V  ({_shape(V)})", lang=lang),
        "scores": heatmap(scores, k_tok, q_tok, t("attn.scores_title", shape=_shape(scores)),
                          lang=lang, zmin=-lim, zmax=lim, colorscale="RdBu",
                          value_format=".2f"),
        "masked": heatmap(np.where(blocked, np.nan, masked), k_tok, q_tok,
                          t("attn.masked_title", n=int(blocked.sum())), lang=lang,
                          zmin=-lim, zmax=lim, colorscale="RdBu", value_format=".2f"),
        "weights": heatmap(pattern, k_tok, q_tok, t("attn.weights_title", shape=_shape(pattern)),
                           lang=lang, zmin=0, zmax=1),
        "z": head_matrix(z, q_tok, t("attn.z_title", shape=_shape(z)), lang=lang),
    }


def scaling_effect(scores: np.ndarray, masked: np.ndarray, d_k: int) -> dict[str, float]:
    """Why the scores are divided by √d_k, computed on one head (q_len, k_len): the variance
    of the scores (before masking), the mean largest weight per row and the mean softmax
    gradient size Σ p(1 − p) per row (the diagonal of the softmax's Jacobian; masked scores,
    blocked keys left out), with and without the division (§3.2.1). Saturated rows have
    *small* gradients: without scaling they vanish, they do not explode."""
    out: dict[str, float] = {}
    root = np.sqrt(d_k)
    for name, k in (("scaled", 1.0), ("unscaled", root)):
        s = np.where(masked == MASK_FILL, MASK_FILL, masked * k)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        out[f"var_{name}"] = float((scores * k).var())
        out[f"max_{name}"] = float(p.max(axis=-1).mean())
        out[f"grad_{name}"] = float((p * (1 - p)).sum(axis=-1).mean())
    return out


def knockout_grid(lost: Mapping[str, np.ndarray], titles: Mapping[str, str], intact: float,
                  chosen: tuple[str, int, int] | None = None, *, lang: str) -> go.Figure:
    """Accuracy lost without each head: one layers x heads panel per attention, one above
    the other (their names are long; the heads are read across).

    `lost[key]` is (N, h) in [-1, 1] (intact minus knocked-out accuracy); red is lost, blue
    gained, on one colour scale centred at 0 for all panels. `chosen` = (key, layer, head)
    is outlined.
    """
    t = Text(lang)
    keys = list(lost)
    limit = max([float(np.abs(a).max()) for a in lost.values()] + [0.01])
    n_layers, n_heads = next(iter(lost.values())).shape
    # more than 4 heads: "h0" ("头0"), whose labels stay apart in a phone's width
    head_title = "fig.attention.head" if n_heads <= 4 else "fig.attention.head_short"
    heads = [t(head_title, j=j) for j in range(n_heads)]
    layers = [t("fig.attention.layer", i=i) for i in range(n_layers)]
    hover = (f"{esc(t('ko.fig_lost'))} %{{z:.1%}}<br>"
             f"{esc(t('ko.fig_intact', intact=f'{intact:.1%}'))}")
    row_px, title_px = 30, 46  # a layer's row; the room above a panel for its name
    panel_px = n_layers * row_px + title_px
    plot_px = panel_px * len(keys)
    data: list[dict] = []
    layout: dict = {"annotations": [], "shapes": []}
    for n, key in enumerate(keys):
        suffix = "" if n == 0 else str(n + 1)
        top = 1 - n * panel_px / plot_px - title_px / plot_px
        bottom = 1 - (n + 1) * panel_px / plot_px
        data.append(dict(
            type="heatmap", z=np.asarray(lost[key], dtype=float), x=heads, y=layers,
            zmin=-limit, zmax=limit, zmid=0.0, colorscale="RdBu_r", showscale=n == 0,
            # from the bottom up to the first panel's top: the plotly toolbar, at the top
            # right corner, would cover the colour bar's top
            colorbar=dict(thickness=10, title=dict(text=esc(t("ko.fig_scale")), side="right"),
                          tickformat=".0%", y=0, yanchor="bottom",
                          len=1 - title_px / plot_px),
            # no size: plotly fits the numbers to the drawn cells
            texttemplate="%{z:.1%}" if n_heads <= 8 else "%{z:.0%}",
            xaxis=f"x{suffix}", yaxis=f"y{suffix}",
            hovertemplate=f"{esc(titles[key])}<br>%{{y}} · %{{x}}<br>{hover}<extra></extra>",
        ))
        layout[f"xaxis{suffix}"] = dict(anchor=f"y{suffix}", type="category", ticks="",
                                        tickmode="array", tickvals=heads, ticktext=heads,
                                        showticklabels=n == len(keys) - 1,
                                        matches="x" if n else None)
        layout[f"yaxis{suffix}"] = dict(domain=_span(bottom, top), anchor=f"x{suffix}",
                                        type="category", autorange="reversed", ticks="",
                                        tickmode="array", tickvals=layers, ticktext=layers)
        layout["annotations"].append(dict(
            text=f"<b>{title_html(titles[key], 200, 13)}</b>", x=0, y=top, xref="paper",
            yref="paper", xanchor="left", yanchor="bottom", yshift=4, showarrow=False,
            align="left", font=dict(size=13)))
        if chosen is not None and chosen[0] == key:
            layout["shapes"].append(dict(
                type="rect", xref=f"x{suffix}", yref=f"y{suffix}", x0=chosen[2] - 0.5,
                x1=chosen[2] + 0.5, y0=chosen[1] - 0.5, y1=chosen[1] + 0.5,
                line=dict(color="black", width=3)))
    layout.update(font=FONT, height=int(plot_px + 40), margin=dict(l=10, r=10, t=10, b=30))
    return fast_figure(data, layout)


# ---- A walk-through's "K is usually V": one input, two projections ---------------------------


@dataclass(frozen=True)
class KeyValueSource:
    """Where one head's K and V come from, recomputed from the model's own weights."""

    source: str  # "memory" (cross-attention) or "x" (self-attention)
    rows: int  # positions of the tensor both are projected from
    d_model: int
    recompute_error: float  # max |(input W^K + b^K) - captured K|, same for V
    mean_k: float  # mean |K| over this head's entries
    mean_v: float  # mean |V|
    mean_diff: float  # mean |K - V|
    corr: float  # the correlation of K's and V's entries
    weight_diff: float  # ||W^K_head - W^V_head|| / ||W^K_head|| (Frobenius)


def key_value_input(cache: Mapping[str, np.ndarray], kind: AttentionKind, layer: int,
                    pre_norm: bool) -> np.ndarray:
    """The tensor K and V are both projected from (batch item 0): `memory`, the encoder's
    output, for cross-attention; for self-attention the same x as the queries, the sublayer's
    input (after layer normalisation when `pre_norm`)."""
    if kind.key == "cross":
        return cache[stack_output_hook("encoder")][0]
    point = "hook_normed" if pre_norm else "hook_in"
    return cache[sublayer_hook(kind.stack, layer, 0, point)][0]


def key_value_source(model: torch.nn.Module, cache: Mapping[str, np.ndarray],
                     kind: AttentionKind, layer: int, head: int,
                     pre_norm: bool) -> KeyValueSource:
    """K and V of `head` recomputed from their one input with W^K (linears[1]) and W^V
    (linears[2]), checked against the captured ones, and compared with each other."""
    attn = getattr(getattr(model, kind.stack).layers[layer], kind.module)
    d_k = attn.d_k
    rows = slice(head * d_k, (head + 1) * d_k)
    x = torch.from_numpy(np.array(key_value_input(cache, kind, layer, pre_norm),
                                  dtype=np.float64))  # (seq, d_model)
    w_k, w_v = (lin.weight.detach().double()[rows] for lin in attn.linears[1:3])
    b_k, b_v = (lin.bias.detach().double()[rows] for lin in attn.linears[1:3])
    k, v = x @ w_k.T + b_k, x @ w_v.T + b_v  # (seq, d_k) each
    got_k = torch.from_numpy(np.array(cache[kind.hook(layer, "hook_k")][0, head], np.float64))
    got_v = torch.from_numpy(np.array(cache[kind.hook(layer, "hook_v")][0, head], np.float64))
    error = float(max((k - got_k).abs().max(), (v - got_v).abs().max()))
    kf, vf = got_k.flatten().numpy(), got_v.flatten().numpy()
    corr = float(np.corrcoef(kf, vf)[0, 1]) if kf.size > 1 else float("nan")
    return KeyValueSource(
        "memory" if kind.key == "cross" else "x", x.shape[0], x.shape[1], error,
        float(np.abs(kf).mean()), float(np.abs(vf).mean()), float(np.abs(kf - vf).mean()),
        corr, float(torch.linalg.norm(w_k - w_v) / torch.linalg.norm(w_k)))


def guesses_chart(counts: Sequence[int], labels: Sequence[str], truth: int | None, *,
                  lang: str, mark: str = "class.q_model_pick") -> go.Figure:
    """A class's answers to a question: how many chose each choice, the right one (`truth`,
    once revealed) drawn in the accent colour and marked with the text of key `mark`."""
    t = Text(lang)
    colours = ["#2e7bcf" if i == truth else "#a9c6ea" for i in range(len(counts))]
    fig = go.Figure(go.Bar(x=[esc(label) for label in labels], y=list(counts),
                           marker_color=colours, hovertemplate="%{x}: %{y}<extra></extra>"))
    top = max([*counts, 0]) + 1  # room above the tallest bar for the model's mark
    # categories: a vocabulary of digits would otherwise make a numeric axis on which the
    # other tokens ("<s>", "</s>") have no place, and their answers would not be drawn
    fig.update_layout(height=260, margin={"l": 40, "r": 10, "t": 30, "b": 40},
                      xaxis={"type": "category"},
                      yaxis={"title": t("class.q_students"), "range": [0, top],
                             "dtick": max(1, top // 6)},
                      title=t("class.q_chart"))
    if truth is not None and 0 <= truth < len(counts):
        # by the category's place: plotly reads an x that looks like a number ("4") as a
        # place on a category axis, and would mark the fifth token instead of "4"
        fig.add_annotation(x=truth, y=counts[truth], text=t(mark),
                           showarrow=True, arrowhead=2, ax=0, ay=-28)
    return fig


# ---- The heatmaps as text (their text alternative, read from the same weights) ----------


@dataclass(frozen=True)
class Strongest:
    """A query row's strongest key and the next one (None for a single key), with weights."""

    query: int
    key: int
    weight: float
    second: int | None
    second_weight: float | None


def strongest_keys(weights: np.ndarray) -> list[Strongest]:
    """Each query row's two largest weights of `weights` (q_len, k_len), ties to the earlier
    key, as the lessons' questions order them."""
    rows = []
    for q, row in enumerate(np.asarray(weights, dtype=np.float64)):
        order = np.argsort(-row, kind="stable")
        second = int(order[1]) if len(order) > 1 else None
        rows.append(Strongest(q, int(order[0]), float(row[order[0]]), second,
                              None if second is None else float(row[second])))
    return rows


def _token(i: int, tokens: Sequence[str]) -> str:
    """A position and its token, as the text names it: 3 “sat”."""
    return f"{i} \u201c{tokens[i]}\u201d"


def weights_text(weights: np.ndarray, q_tokens: Sequence[str], k_tokens: Sequence[str],
                 lang: str) -> list[str]:
    """The heatmap of one head's weights, (q_len, k_len), as text: a sentence per query row
    saying which key it attends to most and how strongly, and the next. Plain text (the
    tokens are the learner's): the page shows it as written."""
    t = Text(lang)
    lines = []
    for s in strongest_keys(weights):
        line = t("a11y.row_strongest", query=_token(s.query, q_tokens),
                 key=_token(s.key, k_tokens), share=percent(s.weight))
        if s.second is not None:
            line = t.sentences(line, t("a11y.row_second", key=_token(s.second, k_tokens),
                                       share=percent(s.second_weight)))
        lines.append(line)
    return lines


def grid_table(weights: np.ndarray, q_tokens: Sequence[str], k_tokens: Sequence[str],
               lang: str, average_heads: bool = False) -> list[dict[str, str]]:
    """The grid of every layer's and head's weights, (N, h, q_len, k_len), as a table: a row
    per layer, head and query with its strongest key and weight (`average_heads`: the mean
    of a layer's heads, as the grid then draws it). Column names in `lang`."""
    t = Text(lang)
    cols = [t(f"a11y.col_{c}") for c in ("layer", "head", "query", "key", "weight")]
    rows = []
    for layer, heads in enumerate(np.asarray(weights, dtype=np.float64)):
        shown = [("mean", heads.mean(axis=0))] if average_heads else list(enumerate(heads))
        for head, w in shown:
            name = t("a11y.mean_heads") if head == "mean" else str(head)
            for s in strongest_keys(w):
                rows.append(dict(zip(cols, (str(layer), name, _token(s.query, q_tokens),
                                            _token(s.key, k_tokens), percent(s.weight)),
                                     strict=True)))
    return rows
