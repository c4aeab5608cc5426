"""The model's architecture drawn from its live config, and its parameter count per component.

`architecture_figure` redraws Figure 1 of the paper with shapes and annotations: the
encoder on the left, the decoder on the right, data flowing upwards (or, `stacked` for a
phone, the encoder above the decoder in one narrow column). Everything in it
comes from the config (N, d_model, h, d_ff, norm placement, embedding scale, weight
tying) and the sentence lengths, so changing a setting in the sidebar changes the drawing.
Pure plotly: never calls streamlit.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from transformer.config import TransformerConfig

from ..core.introspect import group_label
from ..text.i18n import Text
from .common import FONT, esc, fast_figure, heatmap, text_px, wrap_text

# Colours close to the paper's Figure 1.
FILL = {
    "attn": "#fcd9a8",
    "ff": "#c8e6f3",
    "norm": "#f3f0b4",
    "embed": "#f6cccc",
    "linear": "#ddd4f3",
    "softmax": "#cfeccf",
    "tokens": "#ffffff",
    "stack": "#f4f5f7",
}
INK = "#2c3e50"
MASK = "#7d3c98"  # mask tags and their arrows
TIE = "#c0392b"  # shared-weight lines
MEMORY = "#1f618d"  # the encoder output on its way to cross-attention

# Vertical layout, in pixels (y grows upwards; the figure height equals the y range).
TOKENS = (8, 46)
EMBED = (74, 112)
PE_Y = 132  # centre of the "+ positional encoding" node
PLUS_R = 10  # radius of a "+" node, pixels
STACK_BOTTOM = 168
TITLE_SIZE = 12
SUB_SIZE = 11
LINE_PX = 14.3  # a line of a SUB_SIZE label: plotly spaces lines 1.3 em apart
STACKED_GAP = 34  # pixels between the decoder's output and the encoder above it (stacked)
# Presenter mode enlarges this drawing's texts and height by only this much: the boxes'
# width is fixed by the page's width, and the longest labels nearly fill them already.
PRESENTER_SCALE = 1.15
# How wide a label is guessed to be (explorer.figures.common.text_px), from widths measured
# in Chromium in the figure's fonts: a Latin letter about half an em ("(1, 1, tgt_len=7,
# tgt_len=7)" at 11 px is 134 px, 0.43 em), a code name's up to 0.55 em ("(subsequent_mask)"
# 102 px: underscores and brackets are wide), so a label wrapped to a width fits in it.
NARROW_EM = 0.5
CODE_EM = 0.55


@dataclass(frozen=True)
class Columns:
    """Where the drawing's columns stand, in x units (the x axis spans 0..width whatever the
    pixel width): the centre lines of the two stacks, their residual lanes (right of each
    stack), the lanes of the memory and of the shared weights, and the tags' columns.

    Labels are sized in pixels and boxes in units, so a drawing has a least pixel width
    (`least_px`) at which its longest labels still fit their boxes and columns.
    """

    width: float
    least_px: float  # the least pixel width of the drawing
    box_w: float
    pad: float  # stack outline beyond the boxes / residual lanes
    enc_x: float
    dec_x: float
    enc_lane: float
    dec_lane: float
    memory_lane: float  # the vertical run of the memory arrow
    tie_lane: float  # the vertical run of the decoder's shared-weight line
    enc_tags: float  # the encoder's tags end here (left) or start here (right)
    enc_tags_left: bool
    dec_tags: float  # the decoder's tags start here (right of the stack)
    stacked: bool = False  # the encoder above the decoder (else side by side)

    @property
    def px(self) -> float:
        """Pixels per unit at the least width."""
        return self.least_px / self.width

    def room(self, x: float, left: bool) -> float:
        """Pixels a label anchored at `x` has at the least width: up to x (a label ending
        there) or from x to the edge."""
        return (x if left else self.width - x) * self.px - 4


# Side by side, as in the paper: the encoder on the left, the decoder on the right, the
# memory and shared-weight lanes between them, each stack's tags on its outer side. At its
# least width (800 px: the main column of a 1280 px screen beside the sidebar) a box is
# 189 px wide, which "LayerNorm (sublayer[1].norm)" (180 px at 12 px) fits.
WIDE = Columns(width=1000, least_px=800, box_w=236, pad=14, enc_x=298, dec_x=636,
               enc_lane=436, dec_lane=774, memory_lane=472, tie_lane=496, enc_tags=160,
               enc_tags_left=True, dec_tags=800)
# Stacked, for a phone: one column, the encoder above the decoder, drawn in pixels at its
# least width (327 px fits the 328 px of a 360 px phone's page; 341 px with a shared-weight
# lane). The memory lane runs down the left edge, every tag stands right of the stack.
STACKED_LEFT = 5  # the memory lane
STACKED_TIE = 14  # the shared-weight lane, this much right of the memory lane (when drawn)
STACKED_BOX = 190  # "src_attn: Q from x; K, V from memory" is 188 px at 11 px
STACKED_TAGS = 90  # the tags' column, pixels
# A stacked drawing is stretched to the page's width up to this factor of its least width
# (boxes wider than that only spread the labels apart).
STACKED_MAX = 1.5


def stacked_columns(tied: bool) -> Columns:
    """The one-column layout, in pixels at its least width; `tied`: with a lane for the
    shared weights left of the stack."""
    left = STACKED_LEFT + (STACKED_TIE if tied else 0)  # the leftmost lane
    pad = 8
    box_left = left + 6 + pad
    cx = box_left + STACKED_BOX / 2
    lane = box_left + STACKED_BOX + 14
    tags = lane + pad + 6
    width = tags + STACKED_TAGS
    return Columns(width=width, least_px=width, box_w=STACKED_BOX, pad=pad, enc_x=cx,
                   dec_x=cx, enc_lane=lane, dec_lane=lane, memory_lane=STACKED_LEFT,
                   tie_lane=left, enc_tags=tags, enc_tags_left=False, dec_tags=tags,
                   stacked=True)


def _dim(name: str, n: int) -> str:
    """'src_len=6', or just 'src_len' when the length is unknown (n <= 0)."""
    return f"{name}={n}" if n > 0 else name


def _wrapped(lines: Sequence[str], px: float) -> list[str]:
    """`lines` (unescaped), each wrapped to `px` pixels at SUB_SIZE: a Latin line at
    NARROW_EM a letter, a line with wide (CJK) letters as wrap_text guesses it (0.6 em a
    Latin letter, 1 em a wide one)."""
    return [piece for line in lines
            for part in wrap_text(line, px * (1 if _has_wide(line) else 0.6 / NARROW_EM),
                                  size=SUB_SIZE)
            for piece in _code_break(part, px)]


def _code_break(text: str, px: float) -> list[str]:
    """`text` in pieces of at most `px` pixels, broken after an underscore when it is one
    word wider than that (a code name, "(subsequent_mask)", has no space to wrap at)."""
    pieces = []
    while " " not in text and text_px(text, SUB_SIZE, CODE_EM) > px:
        cuts = [i + 1 for i, ch in enumerate(text[:-1])
                if ch == "_" and text_px(text[:i + 1], SUB_SIZE, CODE_EM) <= px]
        if not cuts:
            break
        pieces.append(text[:cuts[-1]])
        text = text[cuts[-1]:]
    return [*pieces, text]


def _has_wide(text: str) -> bool:
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


@dataclass
class _Canvas:
    """Collects shapes, annotations and marker points, then makes the figure."""

    cols: Columns = WIDE
    shapes: list[dict] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    plus: list[tuple[float, float]] = field(default_factory=list)
    dots: list[tuple[float, float]] = field(default_factory=list)

    def box(
        self,
        name: str,
        cx: float,
        y0: float,
        y1: float,
        kind: str,
        title: str,
        sub: str | None = None,
        width: float | None = None,
    ) -> None:
        width = self.cols.box_w if width is None else width
        self.shapes.append(dict(
            type="rect", name=f"box:{name}", x0=cx - width / 2, x1=cx + width / 2, y0=y0, y1=y1,
            fillcolor=FILL[kind], line=dict(color=INK, width=1), layer="below",
        ))
        text = f"<b>{esc(title)}</b>"
        if sub:  # a pixel smaller when it would not fit the box at the least width
            room = width * self.cols.px - 6
            size = SUB_SIZE if text_px(sub, SUB_SIZE, NARROW_EM) <= room else SUB_SIZE - 1
            text += f"<br><span style='font-size:{size}px'>{esc(sub)}</span>"
        self.label(cx, (y0 + y1) / 2, text, markup=True)

    def label(
        self,
        x: float,
        y: float,
        text: str,
        *,
        markup: bool = False,
        anchor: str = "center",
        size: int = TITLE_SIZE,
        color: str = INK,
        angle: float = 0,
        name: str | None = None,
        yanchor: str = "middle",
    ) -> None:
        """Text at (x, y); `markup` means the caller escaped it and added <b>/<br> itself."""
        self.notes.append(dict(
            x=x, y=y, text=text if markup else esc(text), showarrow=False, xanchor=anchor,
            yanchor=yanchor, font=dict(size=size, color=color), align=anchor
            if anchor != "center" else "center", textangle=angle, name=name,
        ))

    def tag(self, x: float, y: float, lines: Sequence[str], *, left: bool,
            color: str = INK, yanchor: str = "middle", floor: float | None = None) -> None:
        """Lines of a side label (escaped here), wrapped to the room its side leaves at the
        drawing's least width, ending at `x` (`left`) or starting there; centred on `y`, or
        raised so that it reaches no lower than `floor`."""
        shown = _wrapped(lines, self.cols.room(x, left))
        if floor is not None and yanchor == "middle":
            y = max(y, floor + LINE_PX * len(shown) / 2)
        self.label(x, y, "<br>".join(esc(line) for line in shown), markup=True,
                   anchor="right" if left else "left", size=SUB_SIZE, color=color,
                   yanchor=yanchor)

    def arrow(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        *,
        color: str = INK,
        standoff: float = 0,
        width: float = 1.4,
    ) -> None:
        self.notes.append(dict(
            x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="",
            showarrow=True, arrowhead=2, arrowsize=1.1, arrowwidth=width, arrowcolor=color,
            standoff=standoff,
        ))

    def path(
        self,
        points: list[tuple[float, float]],
        *,
        color: str = INK,
        dash: str = "solid",
        width: float = 1.4,
        name: str | None = None,
    ) -> None:
        d = "M " + " L ".join(f"{x},{y}" for x, y in points)
        self.shapes.append(dict(type="path", path=d, line=dict(color=color, width=width,
                                                                dash=dash), name=name))

    def wire(self, points: list[tuple[float, float]], *, color: str = INK,
             standoff: float = 0) -> None:
        """A polyline whose last segment ends in an arrowhead."""
        if len(points) > 2:
            self.path(points[:-1], color=color)
        (x0, y0), (x1, y1) = points[-2], points[-1]
        self.arrow(x0, y0, x1, y1, color=color, standoff=standoff)

    def figure(self, height: float) -> go.Figure:
        cols = self.cols
        data = []
        if self.dots:
            data.append(dict(
                type="scatter", x=[p[0] for p in self.dots], y=[p[1] for p in self.dots],
                mode="markers", marker=dict(size=6, color=INK), hoverinfo="skip",
                showlegend=False,
            ))
        if self.plus:
            data.append(dict(
                type="scatter", x=[p[0] for p in self.plus], y=[p[1] for p in self.plus],
                mode="markers", marker=dict(symbol="circle-cross", size=2 * PLUS_R,
                                            color="white", line=dict(color=INK, width=1.5)),
                hoverinfo="skip", showlegend=False,
            ))
        # read by explorer.app.charts: presenter mode's factor, and the widths the drawing
        # is shown at (a stacked one is stretched only so far)
        meta = {"presenter_scale": PRESENTER_SCALE, "min_width": cols.least_px}
        if cols.stacked:
            meta["max_width"] = round(cols.least_px * STACKED_MAX)
        # Written without plotly.py's validation (fast_figure): checking a hundred shapes and
        # annotations took 58 ms a drawing, on every run of the Model page.
        return fast_figure(data, dict(
            shapes=self.shapes,
            annotations=self.notes,
            font=FONT,
            height=int(height),
            margin=dict(l=0, r=0, t=0, b=0),
            xaxis=dict(range=[0, cols.width], visible=False, fixedrange=True),
            yaxis=dict(range=[0, height], visible=False, fixedrange=True),
            plot_bgcolor="white",
            paper_bgcolor="white",
            meta=meta,
            dragmode=False,
            showlegend=False,
            hovermode=False,
        ))


def _sublayer(
    c: _Canvas,
    t: Text,
    cx: float,
    lane: float,
    y_in: float,
    pre: bool,
    kind: str,
    title: str,
    sub: str,
    name: str,
    ln_name: str,
) -> tuple[float, float]:
    """One SublayerConnection from y_in upwards; returns (top y, centre y of the sublayer)."""
    branch = y_in + 11
    ln_box = (y_in + 22, y_in + 46) if pre else (y_in + 106, y_in + 130)
    sub_box = (y_in + 62, y_in + 102) if pre else (y_in + 22, y_in + 62)
    plus_y = y_in + 120 if pre else y_in + 80
    c.box(f"{name}.norm", cx, *ln_box, "norm", t("fig.arch.layernorm", name=ln_name))
    c.box(name, cx, *sub_box, kind, title, sub)
    c.plus.append((cx, plus_y))
    if pre:
        c.arrow(cx, y_in, cx, ln_box[0])
        c.arrow(cx, ln_box[1], cx, sub_box[0])
        c.arrow(cx, sub_box[1], cx, plus_y, standoff=PLUS_R)
        top = plus_y + PLUS_R
    else:
        c.arrow(cx, y_in, cx, sub_box[0])
        c.arrow(cx, sub_box[1], cx, plus_y, standoff=PLUS_R)
        c.arrow(cx, plus_y + PLUS_R, cx, ln_box[0])
        top = ln_box[1]
    c.dots.append((cx, branch))
    c.wire([(cx, branch), (lane, branch), (lane, plus_y), (cx, plus_y)], standoff=PLUS_R)
    return top, (sub_box[0] + sub_box[1]) / 2


def _mask_tag(c: _Canvas, y: float, lines: list[str], cx: float, tags: float,
              left: bool, floor: float) -> None:
    """A mask's tag beside the stack, with an arrow into the attention box at height y; a
    tag of many lines (a phone's narrow column) reaches no lower than `floor`, the bottom of
    its sublayer: below the first stands the label of the stack's input shape."""
    c.tag(tags, y, lines, left=left, color=MASK, floor=floor)
    box_edge = cx - c.cols.box_w / 2 if left else cx + c.cols.box_w / 2
    c.arrow(tags + 4 if left else tags - 4, y, box_edge, y, color=MASK, width=1.2)


def _inputs(c: _Canvas, t: Text, cx: float, base: float, cfg: TransformerConfig,
            tags: float, left: bool, seq: str, vocab: str, tokens: tuple[str, str],
            prefix: str) -> float:
    """Token ids -> Embeddings -> + positional encoding, below one stack, from height `base`;
    returns the centre y of the embeddings."""
    c.box(f"{prefix}.tokens", cx, base + TOKENS[0], base + TOKENS[1], "tokens", *tokens)
    c.arrow(cx, base + TOKENS[1], cx, base + EMBED[0])
    c.label(cx + 8, base + (TOKENS[1] + EMBED[0]) / 2, f"(1, {seq})", anchor="left",
            size=SUB_SIZE)
    scale = (f"× √d_model ≈ {math.sqrt(cfg.d_model):.3g}" if cfg.scale_embedding
             else t("fig.arch.not_scaled"))
    c.box(f"{prefix}[0]", cx, base + EMBED[0], base + EMBED[1], "embed",
          t("fig.arch.embeddings", name=f"{prefix}[0]"),
          t("fig.arch.embed_table", vocab=vocab, d_model=cfg.d_model, scale=scale))
    pe_y = base + PE_Y
    c.plus.append((cx, pe_y))
    c.arrow(cx, base + EMBED[1], cx, pe_y, standoff=PLUS_R)
    pe = [t("fig.arch.pe"), t("fig.arch.pe_fixed"), f"{prefix}[1]"]
    shape_y = base + (PE_Y + PLUS_R + STACK_BOTTOM) / 2  # the stack's input shape, right
    if left:
        c.tag(tags, pe_y, pe, left=True)
        c.arrow(tags + 4, pe_y, cx, pe_y, standoff=PLUS_R)
    else:  # hanging below the shape label right of the stack's input line, which reaches here
        c.tag(tags, shape_y - 8, pe, left=False, yanchor="top")
        c.arrow(tags - 4, pe_y, cx, pe_y, standoff=PLUS_R)
    c.path([(cx, pe_y + PLUS_R), (cx, base + STACK_BOTTOM)])  # continues as the first sublayer's
    c.label(cx + 8, shape_y, f"(1, {seq}, d_model={cfg.d_model})", anchor="left",
            size=SUB_SIZE)
    return base + (EMBED[0] + EMBED[1]) / 2


def _stack_top(c: _Canvas, t: Text, x: float, lane: float, base: float, top: float,
               stack: str, N: int, pre: bool) -> float:
    """The outline of an encoder or decoder stack, and (pre-norm) its final LayerNorm.

    Returns the y where the stack's output leaves it.
    """
    _stack_outline(c, x, lane, base, top, t(f"fig.arch.{stack}_stack", N=N), stack)
    # the module path beside the title, or under it in a one-column drawing's narrow stack
    c.label(lane + c.cols.pad - 6, top - (29 if c.cols.stacked else 13), f"{stack}.layers",
            anchor="right", size=SUB_SIZE, color="#566573")
    if not pre:
        return top
    norm = (top + 18, top + 42)
    c.arrow(x, top, x, norm[0])
    c.box(f"{stack}.norm", x, *norm, "norm", t("fig.arch.layernorm", name=f"{stack}.norm"),
          width=c.cols.box_w - 20)
    return norm[1]


def _stack_outline(c: _Canvas, cx: float, lane: float, base: float, top: float, title: str,
                   name: str) -> None:
    left = cx - c.cols.box_w / 2 - c.cols.pad
    c.shapes.insert(0, dict(  # first, so that the boxes are drawn on top of it
        type="rect", name=f"stack:{name}", x0=left, x1=lane + c.cols.pad,
        y0=base + STACK_BOTTOM, y1=top, fillcolor=FILL["stack"],
        line=dict(color="#7f8c8d", width=1.5), layer="below",
    ))
    c.label(left + 8, top - 13, f"<b>{esc(title)}</b>", markup=True, anchor="left", size=13)


@dataclass
class _Decoded:
    """Where the decoder's parts ended up: what the memory and shared weights join."""

    embed_y: float
    cross_y: float
    linear_y: float
    top: float  # the top of its drawing


def _decoder(c: _Canvas, t: Text, cfg: TransformerConfig, tgt: str, src: str, vocab: str,
             vocab_dim: str, heads: str) -> _Decoded:
    """The decoder, its inputs and the generator, from height 0."""
    cols, x, pre, d = c.cols, c.cols.dec_x, cfg.norm_placement == "pre", cfg.d_model
    embed_y = _inputs(c, t, x, 0, cfg, cols.dec_tags, False, tgt, vocab,
                      (t("fig.arch.tgt_tokens"), t("fig.arch.tgt_ids")), "tgt_embed")
    y = STACK_BOTTOM
    y, self_y = _sublayer(c, t, x, cols.dec_lane, y, pre, "attn",
                          t("fig.arch.masked_self_attn"), f"self_attn: {heads}",
                          "decoder.self_attn", "sublayer[0].norm")
    _mask_tag(c, self_y, [t("fig.arch.mask_tag", mask="tgt_mask"), f"(1, 1, {tgt}, {tgt})",
                          t("fig.arch.hides_later"), "(subsequent_mask)"], x, cols.dec_tags,
              False, STACK_BOTTOM + 4)
    cross_floor = y + 4
    y, cross_y = _sublayer(c, t, x, cols.dec_lane, y, pre, "attn", t("fig.arch.cross_attn"),
                           t("fig.arch.cross_sub"), "decoder.src_attn", "sublayer[1].norm")
    _mask_tag(c, cross_y, [t("fig.arch.mask_tag", mask="src_mask"), f"(1, 1, 1, {src})",
                           t("fig.arch.hides_src_padding")], x, cols.dec_tags, False,
              cross_floor)
    y, _ = _sublayer(c, t, x, cols.dec_lane, y, pre, "ff", t("fig.arch.feed_forward"),
                     f"feed_forward: {d} → {cfg.d_ff} → {d}", "decoder.feed_forward",
                     "sublayer[2].norm")
    dec_top = y + 40
    y = _stack_top(c, t, x, cols.dec_lane, 0, dec_top, "decoder", cfg.N, pre)
    if not pre:
        c.tag(cols.dec_tags, dec_top - 40, [t("fig.arch.post_norm_1"), t("fig.arch.post_norm_2")],
              left=False, color="#566573")
    linear = (y + 36, y + 74)
    c.arrow(x, y, x, linear[0])
    c.label(x + 8, (y + linear[0]) / 2, f"(1, {tgt}, d_model={d})", anchor="left",
            size=SUB_SIZE)
    c.box("generator.proj", x, *linear, "linear", t("fig.arch.linear"),
          f"d_model={d} → {vocab_dim}")
    soft = (linear[1] + 16, linear[1] + 42)
    c.arrow(x, linear[1], x, soft[0])
    c.box("generator.log_softmax", x, *soft, "softmax", "log_softmax (generator)")
    out_y = soft[1] + 44
    c.arrow(x, soft[1], x, out_y - 8)
    c.label(x + 8, (soft[1] + out_y - 8) / 2, f"(1, {tgt}, {vocab_dim})",
            anchor="left", size=SUB_SIZE)
    box_left = x - cols.box_w / 2
    if cols.stacked:  # in the column's width: the title, then its detail wrapped
        detail = _wrapped([t("fig.arch.output_detail").strip()], cols.room(box_left, False))
        c.label(box_left, out_y - 6, f"<b>{esc(t('fig.arch.output'))}</b><br>"
                + "<br>".join(esc(line) for line in detail), markup=True, anchor="left",
                yanchor="bottom")
        top = out_y - 6 + LINE_PX * 1.1 * (1 + len(detail)) + 4
    else:
        c.label(x, out_y + 4, f"<b>{esc(t('fig.arch.output'))}</b>"
                + esc(t("fig.arch.output_detail")), markup=True, size=TITLE_SIZE)
        top = out_y + 20
    c.shapes.append(dict(type="rect", name="group:generator", x0=box_left - 8,
                         x1=x + cols.box_w / 2 + 8, y0=linear[0] - 7, y1=soft[1] + 7,
                         line=dict(color="#7f8c8d", width=1, dash="dot")))
    gen_x = x + cols.box_w / 2 + 14
    gen = _wrapped(["Linear + log_softmax"], cols.room(gen_x, False))
    c.label(gen_x, (linear[0] + soft[1]) / 2, f"<b>{esc(t('fig.arch.generator'))}</b><br>"
            + "<br>".join(esc(line) for line in gen), markup=True, anchor="left",
            size=SUB_SIZE, color="#566573")
    return _Decoded(embed_y, cross_y, (linear[0] + linear[1]) / 2, top)


def architecture_figure(
    cfg: TransformerConfig, src_len: int, tgt_len: int, *, lang: str, show_vocab: bool = True,
    stacked: bool = False,
) -> go.Figure:
    """Figure 1 of the paper for this config: the encoder on the left and the decoder on the
    right, or (`stacked`, for a phone) the encoder above the decoder in one narrow column.

    Lengths <= 0 are shown as symbols only (src_len, tgt_len), and so are the vocabulary
    sizes with `show_vocab=False` (when the config's vocabulary is only a placeholder).
    """
    t = Text(lang)
    tied = cfg.tie_weights in ("decoder", "all")
    c = _Canvas(stacked_columns(tied) if stacked else WIDE)
    cols = c.cols
    src_v = str(cfg.src_vocab) if show_vocab else "vocab"
    tgt_v = str(cfg.tgt_vocab) if show_vocab else "vocab"
    vocab_dim = f"vocab={cfg.tgt_vocab}" if show_vocab else "vocab"
    pre = cfg.norm_placement == "pre"
    d = cfg.d_model
    src, tgt = _dim("src_len", src_len), _dim("tgt_len", tgt_len)
    heads = t("fig.arch.heads", h=cfg.h, d_k=cfg.d_k)

    # ---- Decoder (right, or below) ---------------------------------------------------
    dec = _decoder(c, t, cfg, tgt, src, tgt_v, vocab_dim, heads)

    # ---- Encoder (left, or above) ----------------------------------------------------
    base = dec.top + STACKED_GAP if cols.stacked else 0
    x = cols.enc_x
    embed_y = _inputs(c, t, x, base, cfg, cols.enc_tags, cols.enc_tags_left, src, src_v,
                      (t("fig.arch.src_tokens"), t("fig.arch.src_ids")), "src_embed")
    y = base + STACK_BOTTOM
    y, attn_y = _sublayer(c, t, x, cols.enc_lane, y, pre, "attn", t("fig.arch.self_attn"),
                          f"self_attn: {heads}", "encoder.self_attn", "sublayer[0].norm")
    _mask_tag(c, attn_y, [t("fig.arch.mask_tag", mask="src_mask"), f"(1, 1, 1, {src})",
                          t("fig.arch.hides_padding")], x, cols.enc_tags, cols.enc_tags_left,
              base + STACK_BOTTOM + 4)
    y, _ = _sublayer(c, t, x, cols.enc_lane, y, pre, "ff", t("fig.arch.feed_forward"),
                     f"feed_forward: {d} → {cfg.d_ff} → {d}", "encoder.feed_forward",
                     "sublayer[1].norm")
    enc_top = y + 40
    out = _stack_top(c, t, x, cols.enc_lane, base, enc_top, "encoder", cfg.N, pre)
    mem_y = enc_top + 70

    # ---- memory: the encoder output into every decoder layer's cross-attention --------
    lane, cross_y = cols.memory_lane, dec.cross_y
    c.dots.append((x, mem_y))
    c.arrow(x, out, x, mem_y - 3)
    c.path([(x, mem_y), (lane, mem_y), (lane, cross_y)], color=MEMORY, width=2)
    c.arrow(lane, cross_y, cols.dec_x - cols.box_w / 2, cross_y, color=MEMORY, width=2)
    memory = "<b>memory</b><br>" + esc(f"(1, {src}, d_model={d})")
    if cols.stacked:  # above the arrow's turn, saying where the lane at the edge goes
        c.label(lane + 6, mem_y + 6, memory + "<br>" + esc(t("fig.arch.to_every_layer")),
                markup=True, anchor="left", size=SUB_SIZE, color=MEMORY, yanchor="bottom")
        height = mem_y + 6 + 3 * LINE_PX * 1.1 + 6
    else:
        c.label((x + lane) / 2 + 10, mem_y + 22, memory, markup=True, size=SUB_SIZE,
                color=MEMORY)
        c.label(lane - 12, (mem_y + cross_y) / 2, t("fig.arch.to_every_layer"),
                size=SUB_SIZE, color=MEMORY, angle=-90, anchor="center")
        height = dec.top

    # ---- shared weights -----------------------------------------------------------------
    tie, dec_left = cols.tie_lane, cols.dec_x - cols.box_w / 2
    if tied:
        c.path([(dec_left, dec.embed_y), (tie, dec.embed_y), (tie, dec.linear_y),
                (dec_left, dec.linear_y)], color=TIE, dash="dash", width=2, name="tie:decoder")
        c.label(tie - (7 if cols.stacked else 8), (dec.embed_y + cross_y) / 2,
                t("fig.arch.shared"), angle=-90, size=SUB_SIZE, color=TIE)
    if cfg.tie_weights == "all":
        if cols.stacked:  # down the same lane, from the encoder's embeddings above
            c.path([(x - cols.box_w / 2, embed_y), (tie, embed_y), (tie, dec.linear_y)],
                   color=TIE, dash="dash", width=2, name="tie:all")
            c.label(tie - 7, (dec.top + base) / 2, t("fig.arch.shared"), angle=-90,
                    size=SUB_SIZE, color=TIE)
        else:
            c.path([(x + cols.box_w / 2, embed_y), (dec_left, embed_y)], color=TIE,
                   dash="dash", width=2, name="tie:all")
            c.label((x + cols.box_w / 2 + tie) / 2, embed_y - 26, t("fig.arch.shared"),
                    size=SUB_SIZE, color=TIE)
    return c.figure(height)


# ---- Parameters ----------------------------------------------------------------------

_GROUP_FILL = [
    ("attention", FILL["attn"]),
    ("feed-forward", FILL["ff"]),
    ("LayerNorm", FILL["norm"]),
    ("embedding", FILL["embed"]),
    ("Generator", FILL["linear"]),
]


def _group_colour(group: str) -> str:
    for word, colour in _GROUP_FILL:
        if word.lower() in group.lower():
            return colour
    return "#d5dbdb"


def share(part: int, total: int) -> str:
    """'14.3%', with '<0.1%' and '>99.9%' instead of rounding to 0 or 100."""
    pct = 100 * part / total if total else 0.0
    if 0 < pct < 0.1:
        return "<0.1%"
    if 99.9 < pct < 100:
        return ">99.9%"
    return f"{pct:.1f}%"


def _text_width(text: str) -> int:
    """Width of `text` in Latin characters: CJK and other wide characters count twice."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def parameter_chart(groups: dict[str, int], *, lang: str) -> go.Figure:
    """Horizontal bars: parameters per component group, in model order from the top.

    `groups` is keyed by the group names of `explorer.core.introspect.parameter_groups`; they are
    shown in `lang` (`group_label`) and coloured by the kind of component.
    """
    t = Text(lang)
    names = list(groups)
    labels = [group_label(n, lang=lang) for n in names]
    counts = [int(groups[n]) for n in names]
    total = sum(counts) or 1
    text = [f"{n:,} ({share(n, total)})" for n in counts]
    fig = go.Figure(go.Bar(
        x=counts[::-1],
        y=[esc(label) for label in labels][::-1],
        orientation="h",
        marker=dict(color=[_group_colour(n) for n in names][::-1], line=dict(color=INK,
                                                                              width=1)),
        text=[esc(label) for label in text][::-1],
        textposition="outside",
        cliponaxis=False,
        hovertemplate=t("fig.arch.param_hover"),
    ))
    top = max(counts) if counts else 1
    longest = max((_text_width(label) for label in labels), default=0)
    fig.update_layout(
        font=FONT,
        height=max(220, 60 + 34 * len(names)),
        margin=dict(l=16 + 7 * longest, r=20, t=10, b=40),  # room for the group names
        # the longest bar takes half the plot, its count and share the other half: at 1.6
        # times the longest, a phone's plot (about 200 px) cut "8,448 (19.3%)" off
        xaxis=dict(title=dict(text=t("fig.arch.parameters")), range=[0, top * 2.0],
                   fixedrange=True),
        yaxis=dict(fixedrange=True, automargin=True, ticksuffix=" "),
        dragmode=False,
        showlegend=False,
    )
    return fig


def date_preview_figure(weights: np.ndarray, out_tokens: Sequence[str],
                        src_tokens: Sequence[str], title: str, *, lang: str) -> go.Figure:
    """The shipped date translator's cross-attention (rows: the decoder's input, <s> and its
    answer; columns: the date's characters and </s>), one decoder layer, heads averaged."""
    return heatmap(weights, src_tokens, out_tokens, title, lang=lang, zmin=0.0, zmax=1.0,
                   show_values=False, height=170 + 22 * len(out_tokens))
