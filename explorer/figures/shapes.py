"""Shape figures: one tensor's values, and how heads are split and concatenated."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer.hooks import capture
from transformer.model import MASK_FILL, MultiHeadedAttention, attention, subsequent_mask
from transformer.tokenize import PAD
from transformer.train import Batch

from ..core.shape_table import ShapeRow, layer_label, stack_label, sublayer_label
from ..text.i18n import Text
from .common import FONT, axis_labels, heatmap, title_html


def tensor_slice(value: np.ndarray, head: int = 0, *, lang: str) -> tuple[np.ndarray, str]:
    """A 2-D view of a captured tensor (batch item 0, one head) and what was sliced."""
    t = Text(lang)
    a = np.asarray(value)
    if a.ndim == 4:  # (batch, h, rows, cols)
        head = max(0, min(head, a.shape[1] - 1))
        return a[0, head], t("fig.shapes.slice_head", head=head)
    if a.ndim == 3:
        return a[0], "[0]"
    if a.ndim == 2:
        return a, ""
    return a.reshape(1, -1), ""


def values_figure(z: np.ndarray, row_tokens: Sequence[str] | None,
                  col_tokens: Sequence[str] | None, title: str, *, lang: str) -> go.Figure:
    """A small heatmap of one tensor's values (diverging colours, symmetric range)."""
    finite = z[np.isfinite(z) & (z != MASK_FILL)]
    lim = float(np.abs(finite).max()) if finite.size else 1.0
    shown = np.where(z == MASK_FILL, np.nan, z)  # -1e9 fills would flatten the colour scale
    rows = row_tokens if row_tokens is not None and len(row_tokens) == z.shape[0] else None
    cols = col_tokens if col_tokens is not None and len(col_tokens) == z.shape[1] else None
    return heatmap(shown, cols, rows, title, lang=lang, zmin=-lim or -1, zmax=lim or 1,
                   colorscale="RdBu", value_format=".2f", show_values=z.size <= 80,
                   height=min(520, 90 + 26 * z.shape[0]))


def head_split_figure(q_heads: np.ndarray, concat: np.ndarray,
                      tokens: Sequence[str], title: str = "", *, lang: str) -> go.Figure:
    """Left: each head's (seq x d_k) matrix side by side; right: the concatenated (seq x d_model).

    `title` (above the heads) says which attention module the matrices come from.

    Columns h*d_k .. (h+1)*d_k of the concatenation come from head h: the split is a
    view + transpose, the concatenation the inverse transpose + view.
    """
    t = Text(lang)
    h, seq, d_k = q_heads.shape
    concat_title = title_html(t("fig.shapes.concat_title"), 170, 11)
    fig = make_subplots(
        rows=1, cols=h + 1, column_widths=[1.0] * h + [float(h)],
        # more than 4 heads: "h0" ("头0"), whose titles stay apart in a phone's width
        # the concatenation's title wraps to its half of a phone's width
        subplot_titles=[t("fig.shapes.head" if h <= 4 else "fig.attention.head_short", j=j)
                        for j in range(h)] + [concat_title],
        horizontal_spacing=0.01 if h > 4 else 0.03,
    )
    lim_q = float(max(np.abs(q_heads).max(), np.abs(concat).max())) or 1.0
    lim_c = lim_q  # one colour scale, so equal numbers look equal
    labels = axis_labels(tokens)
    token, feature = t("fig.shapes.token"), t("fig.shapes.feature")
    for j in range(h):
        fig.add_trace(go.Heatmap(z=q_heads[j], zmin=-lim_q, zmax=lim_q, colorscale="RdBu",
                                 showscale=False,
                                 hovertemplate=f"{t('fig.shapes.head', j=j)}<br>{token} "
                                 f"%{{y}}<br>{feature} %{{x}}<br>%{{z:.3f}}<extra></extra>"),
                      row=1, col=j + 1)
        fig.update_yaxes(tickmode="array", tickvals=list(range(seq)),
                         ticktext=labels if j == 0 else [""] * seq, autorange="reversed",
                         showticklabels=j == 0, ticks="", row=1, col=j + 1)
        fig.update_xaxes(showticklabels=False, ticks="", row=1, col=j + 1)
    fig.add_trace(go.Heatmap(z=concat, zmin=-lim_c, zmax=lim_c, colorscale="RdBu",
                             showscale=False,
                             hovertemplate=f"{token} %{{y}}<br>{feature} %{{x}}<br>%{{z:.3f}}"
                             "<extra></extra>"),
                  row=1, col=h + 1)
    for j in range(1, h):
        fig.add_vline(x=j * d_k - 0.5, line=dict(color="black", width=1), row=1, col=h + 1)
    fig.update_yaxes(showticklabels=False, ticks="", autorange="reversed", row=1, col=h + 1)
    fig.update_xaxes(ticks="", row=1, col=h + 1)
    # the title (wrapped to a phone's width) above the subplots' titles. Plotly lifts a
    # title of several lines anchored at its top by part of a line per extra line: the
    # padding gives that back, or the first line is cut at the chart's top edge
    title_text = title_html(title) if title else ""
    extra = title_text.count("<br>")
    above = 22 * (extra + 1) + 6 + 20 * extra if title else 0
    top = 30 + above + 16 * concat_title.count("<br>")
    fig.update_layout(font=FONT, height=max(260, top + 60 + 24 * seq),
                      margin=dict(l=10, r=10, t=top, b=10),
                      title=dict(text=title_text, x=0, xanchor="left", y=1, yref="container",
                                 yanchor="top", pad=dict(t=10 + 20 * extra))
                      if title else None)
    fig.update_annotations(font_size=11)
    return fig


def head_split_views(stack: str, layer: str) -> tuple[int, tuple[str, ...]]:
    """The attentions whose head split the Shapes page draws for its filters: the layer
    chosen ("layer i"; layer 0 for "all") and the keys of `KINDS` (explorer.core.kinds),
    both decoder attentions for the "Decoder" part, the encoder's self-attention otherwise."""
    index = int(layer.split()[1]) if layer != "all" else 0
    return index, ("dec", "cross") if stack == "Decoder" else ("enc",)


def shape_table(rows: Sequence[ShapeRow], *, lang: str) -> dict[str, list[object]]:
    """The shape table's columns, headers and labels in `lang`: part, layer and sublayer
    translated, the tensor by its short name, then its named shape, the operation and the
    hook point's full name."""
    t = Text(lang)
    return {
        "#": [r.step for r in rows],
        t("shapes.col_part"): [stack_label(r.stack, lang) for r in rows],
        t("shapes.col_layer"): [layer_label(r.layer, lang) for r in rows],
        t("shapes.col_sublayer"): [sublayer_label(r.sublayer, lang) for r in rows],
        t("shapes.col_tensor"): [r.name.rsplit(".", 1)[-1].removeprefix("hook_") for r in rows],
        t("shapes.col_shape"): [r.dims for r in rows],
        t("shapes.col_operation"): [r.op for r in rows],
        t("shapes.col_full_name"): [r.name for r in rows],
    }


def shape_csv(rows: Sequence[ShapeRow], *, lang: str) -> bytes:
    """The shape table as CSV bytes for a spreadsheet: UTF-8 with a byte order mark (without
    it, Excel reads the file in the system's code page and garbles Chinese), the table's
    columns in `lang` plus the plain shape (e.g. 1x4x6x8) after the named one."""
    t = Text(lang)
    columns = list(shape_table(rows, lang=lang).items())
    at = [name for name, _ in columns].index(t("shapes.col_shape")) + 1
    columns.insert(at, (t("shapes.col_size"), ["x".join(map(str, r.shape)) for r in rows]))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([name for name, _ in columns])
    writer.writerows(zip(*(values for _, values in columns), strict=True))
    return out.getvalue().encode("utf-8-sig")


# ---- The walk-throughs' worked examples, computed by this app's code ------------------------

MHA_EXAMPLE = dict(batch=2, seq=4, d_model=512, h=8)  # input (2, 4, 512) -> output (2, 4, 512)
BATCH_EXAMPLE = dict(batch=48, src_len=20, tgt_len=25)  # a walk-through's Batch(src, tgt) shapes


def mha_example_shapes(seed: int = 0) -> list[tuple[str, tuple[int, ...]]]:
    """Multi-head self-attention on a random batch of 2 sequences of 4 vectors of 512:
    (hook point, shape) in computing order, from this app's MultiHeadedAttention."""
    ex = MHA_EXAMPLE
    mha = MultiHeadedAttention(ex["h"], ex["d_model"], dropout=0.0).eval()
    x = torch.randn(ex["batch"], ex["seq"], ex["d_model"],
                    generator=torch.Generator().manual_seed(seed))  # (batch, seq, d_model)
    with torch.no_grad(), capture(mha) as cache:
        out = mha(x, x, x)
    assert tuple(out.shape) == tuple(x.shape)  # the output keeps the input's shape
    return [("x", tuple(x.shape)), *((name, tuple(cache[name].shape)) for name in cache)]


def batch_example_shapes(seed: int = 0) -> tuple[list[tuple[str, tuple[int, ...]]], int]:
    """`Batch(src, tgt)` on random ids of a walk-through's shapes, (48, 20) and (48, 25), all
    sentences but the first padded: ((attribute, shape) rows, ntokens)."""
    ex = BATCH_EXAMPLE
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, 50, (ex["batch"], ex["src_len"]), generator=g)
    tgt = torch.randint(4, 50, (ex["batch"], ex["tgt_len"]), generator=g)
    src[1:, -3:] = PAD  # shorter sentences are padded to the longest
    tgt[1:, -5:] = PAD
    b = Batch(src, tgt, pad=PAD)
    rows = [("src", tuple(b.src.shape)), ("src_mask", tuple(b.src_mask.shape)),
            ("tgt", tuple(b.tgt.shape)), ("tgt_y", tuple(b.tgt_y.shape)),
            ("tgt_mask", tuple(b.tgt_mask.shape))]
    return rows, b.ntokens


def example_table(rows: Sequence[tuple[str, tuple[int, ...]]], *,
                  lang: str) -> dict[str, list[str]]:
    """A worked example's (name, shape) rows as table columns, with what each tensor is."""
    t = Text(lang)
    return {t("shapes.col_tensor"): [WALK_NAMES.get(name, name) for name, _ in rows],
            t("shapes.col_size"): [" × ".join(map(str, shape)) for _, shape in rows],
            t("shapes.col_what"): [t(f"shapes.ex.{name}") for name, _ in rows]}


WALK_EXAMPLE = dict(batch=30, h=8, seq=33, d_k=64, src_len=20)  # a walk-through's shape walk
WALK_NAMES = {"walk_q": "query", "walk_k": "key", "walk_v": "value", "walk_mask": "mask",
              "walk_scores": "scores", "walk_masked_scores": "scores.masked_fill",
              "walk_pattern": "p_attn", "walk_out": "p_attn @ value"}  # the code's names


def attention_walk_shapes(seed: int = 0) -> tuple[tuple[tuple[str, tuple[int, ...]], ...],
                                                   tuple[tuple[str, tuple[int, ...]], ...]]:
    """A walk-through's shapes through this app's `attention`: Q, K, V (30, 8, 33, 64) and a
    padding mask (30, 1, 1, 33). Returns the (name, shape) rows in computing order, and two
    variations: the decoder's mask (30, 1, 33, 33), and keys and values of another length
    (cross-attention over 20 source positions), each with its weights' and output's shapes,
    as (name, shape) pairs."""
    ex = WALK_EXAMPLE
    g = torch.Generator().manual_seed(seed)
    b, h, n, d_k = ex["batch"], ex["h"], ex["seq"], ex["d_k"]
    q, k, v = (torch.randn(b, h, n, d_k, generator=g) for _ in range(3))
    pad_mask = torch.ones(b, 1, 1, n, dtype=torch.bool)
    pad_mask[1:, ..., -3:] = False  # sentences after the first end with padding
    seen: dict[str, torch.Tensor] = {}

    def keep(name: str, value: torch.Tensor) -> torch.Tensor:
        seen[name] = value
        return value

    out, _ = attention(q, k, v, mask=pad_mask, hook=keep)
    rows = [("walk_q", tuple(q.shape)), ("walk_k", tuple(k.shape)), ("walk_v", tuple(v.shape)),
            ("walk_mask", tuple(pad_mask.shape)),
            *((f"walk_{name}", tuple(seen[name].shape)) for name in seen),
            ("walk_out", tuple(out.shape))]
    dec_mask = subsequent_mask(n).unsqueeze(1).expand(b, 1, n, n)  # (batch, 1, T, T)
    dec_out, dec_p = attention(q, k, v, mask=dec_mask)
    s = ex["src_len"]
    mem_k, mem_v = (torch.randn(b, h, s, d_k, generator=g) for _ in range(2))
    cross_out, cross_p = attention(q, mem_k, mem_v, mask=torch.ones(b, 1, 1, s, dtype=torch.bool))
    variations = (("dec_mask", tuple(dec_mask.shape)), ("dec_weights", tuple(dec_p.shape)),
                  ("dec_out", tuple(dec_out.shape)), ("cross_k", tuple(mem_k.shape)),
                  ("cross_weights", tuple(cross_p.shape)), ("cross_out", tuple(cross_out.shape)))
    return tuple(rows), variations
