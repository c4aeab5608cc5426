"""The model's architecture drawn from its live config, and its parameter count per component.

`architecture_figure` redraws Figure 1 of the paper with shapes and annotations: the
encoder on the left, the decoder on the right, data flowing upwards. Everything in it
comes from the config (N, d_model, h, d_ff, norm placement, embedding scale, weight
tying) and the sentence lengths, so changing a setting in the sidebar changes the drawing.
Pure plotly: never calls streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from transformer.config import TransformerConfig

from ..core.introspect import group_label
from ..text.i18n import Text
from .common import FONT, esc, heatmap

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

# Horizontal layout, in drawing units (the x axis spans 0..WIDTH whatever the pixel width).
WIDTH = 1000
BOX_W = 220
ENC_X, DEC_X = 280, 610  # centre lines of the two columns
ENC_LANE, DEC_LANE = 410, 742  # residual paths: right of each column
STACK_PAD = 14  # stack outline beyond the boxes / residual lanes
MEMORY_LANE = 452  # the vertical run of the memory arrow between the stacks
TIE_LANE = 478  # the vertical run of the decoder's shared-weight line
LEFT_TAGS = 150  # encoder-side tags end here (right-aligned)
RIGHT_TAGS = 772  # decoder-side tags start here (left-aligned)

# Vertical layout, in pixels (y grows upwards; the figure height equals the y range).
TOKENS = (8, 46)
EMBED = (74, 112)
PE_Y = 132  # centre of the "+ positional encoding" node
PLUS_R = 10  # radius of a "+" node, pixels
STACK_BOTTOM = 168
TITLE_SIZE = 12
SUB_SIZE = 11
# Presenter mode enlarges this drawing's texts and height by only this much: the boxes'
# width is fixed by the page's width, and the longest labels nearly fill them already.
PRESENTER_SCALE = 1.15
# The drawing's least width in pixels: its labels are sized in pixels, its boxes in
# drawing units, and narrower (a phone) its labels ran out of their boxes and into each
# other. A narrower screen scrolls it sideways (explorer.app.charts.show_chart).
MIN_WIDTH_PX = 860


def _dim(name: str, n: int) -> str:
    """'src_len=6', or just 'src_len' when the length is unknown (n <= 0)."""
    return f"{name}={n}" if n > 0 else name


@dataclass
class _Canvas:
    """Collects shapes, annotations and marker points, then makes the figure."""

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
        width: float = BOX_W,
    ) -> None:
        self.shapes.append(dict(
            type="rect", name=f"box:{name}", x0=cx - width / 2, x1=cx + width / 2, y0=y0, y1=y1,
            fillcolor=FILL[kind], line=dict(color=INK, width=1), layer="below",
        ))
        text = f"<b>{esc(title)}</b>"
        if sub:
            text += f"<br><span style='font-size:{SUB_SIZE}px'>{esc(sub)}</span>"
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
    ) -> None:
        """Text at (x, y); `markup` means the caller escaped it and added <b>/<br> itself."""
        self.notes.append(dict(
            x=x, y=y, text=text if markup else esc(text), showarrow=False, xanchor=anchor,
            yanchor="middle", font=dict(size=size, color=color), align=anchor
            if anchor != "center" else "center", textangle=angle, name=name,
        ))

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
        fig = go.Figure()
        if self.dots:
            fig.add_trace(go.Scatter(
                x=[p[0] for p in self.dots], y=[p[1] for p in self.dots], mode="markers",
                marker=dict(size=6, color=INK), hoverinfo="skip", showlegend=False,
            ))
        if self.plus:
            fig.add_trace(go.Scatter(
                x=[p[0] for p in self.plus], y=[p[1] for p in self.plus], mode="markers",
                marker=dict(symbol="circle-cross", size=2 * PLUS_R, color="white",
                            line=dict(color=INK, width=1.5)),
                hoverinfo="skip", showlegend=False,
            ))
        fig.update_layout(
            shapes=self.shapes,
            annotations=self.notes,
            font=FONT,
            height=int(height),
            margin=dict(l=0, r=0, t=0, b=0),
            xaxis=dict(range=[0, WIDTH], visible=False, fixedrange=True),
            yaxis=dict(range=[0, height], visible=False, fixedrange=True),
            plot_bgcolor="white",
            paper_bgcolor="white",
            # read by explorer.app.charts
            meta={"presenter_scale": PRESENTER_SCALE, "min_width": MIN_WIDTH_PX},
            dragmode=False,
            showlegend=False,
            hovermode=False,
        )
        return fig


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


def _mask_tag(c: _Canvas, y: float, lines: list[str], side: str, box_edge: float) -> None:
    text = "<br>".join(esc(line) for line in lines)
    if side == "left":
        c.label(LEFT_TAGS, y, text, markup=True, anchor="right", size=SUB_SIZE, color=MASK)
        c.arrow(LEFT_TAGS + 4, y, box_edge, y, color=MASK, width=1.2)
    else:
        c.label(RIGHT_TAGS, y, text, markup=True, anchor="left", size=SUB_SIZE, color=MASK)
        c.arrow(RIGHT_TAGS - 4, y, box_edge, y, color=MASK, width=1.2)


def _inputs(c: _Canvas, t: Text, cx: float, cfg: TransformerConfig, side: str, seq: str,
            vocab: str, tokens: tuple[str, str], prefix: str) -> None:
    """Token ids -> Embeddings -> + positional encoding, below one stack."""
    c.box(f"{prefix}.tokens", cx, *TOKENS, "tokens", *tokens)
    c.arrow(cx, TOKENS[1], cx, EMBED[0])
    c.label(cx + 8, (TOKENS[1] + EMBED[0]) / 2, f"(1, {seq})", anchor="left", size=SUB_SIZE)
    scale = (f"× √d_model ≈ {math.sqrt(cfg.d_model):.3g}" if cfg.scale_embedding
             else t("fig.arch.not_scaled"))
    c.box(f"{prefix}[0]", cx, *EMBED, "embed", t("fig.arch.embeddings", name=f"{prefix}[0]"),
          t("fig.arch.embed_table", vocab=vocab, d_model=cfg.d_model, scale=scale))
    c.plus.append((cx, PE_Y))
    c.arrow(cx, EMBED[1], cx, PE_Y, standoff=PLUS_R)
    pe = [t("fig.arch.pe"), t("fig.arch.pe_fixed"), f"{prefix}[1]"]
    if side == "left":
        c.label(LEFT_TAGS, PE_Y, "<br>".join(esc(x) for x in pe), markup=True, anchor="right",
                size=SUB_SIZE)
        c.arrow(LEFT_TAGS + 4, PE_Y, cx, PE_Y, standoff=PLUS_R)
    else:  # a little lower: the shape label right of the stack's input line reaches here
        c.label(RIGHT_TAGS, PE_Y - 12, "<br>".join(esc(x) for x in pe), markup=True,
                anchor="left", size=SUB_SIZE)
        c.arrow(RIGHT_TAGS - 4, PE_Y, cx, PE_Y, standoff=PLUS_R)
    c.path([(cx, PE_Y + PLUS_R), (cx, STACK_BOTTOM)])  # continues as the first sublayer's
    c.label(cx + 8, (PE_Y + PLUS_R + STACK_BOTTOM) / 2, f"(1, {seq}, d_model={cfg.d_model})",
            anchor="left", size=SUB_SIZE)


def _stack_top(c: _Canvas, t: Text, x: float, lane: float, top: float, stack: str, N: int,
               pre: bool) -> float:
    """The outline of an encoder or decoder stack, and (pre-norm) its final LayerNorm.

    Returns the y where the stack's output leaves it.
    """
    _stack_outline(c, x, lane, top, t(f"fig.arch.{stack}_stack", N=N), stack)
    c.label(lane + STACK_PAD - 6, top - 13, f"{stack}.layers", anchor="right",
            size=SUB_SIZE, color="#566573")
    if not pre:
        return top
    norm = (top + 18, top + 42)
    c.arrow(x, top, x, norm[0])
    c.box(f"{stack}.norm", x, *norm, "norm", t("fig.arch.layernorm", name=f"{stack}.norm"),
          width=BOX_W - 40)
    return norm[1]


def _stack_outline(c: _Canvas, cx: float, lane: float, top: float, title: str,
                   name: str) -> None:
    c.shapes.insert(0, dict(  # first, so that the boxes are drawn on top of it
        type="rect", name=f"stack:{name}", x0=cx - BOX_W / 2 - STACK_PAD, x1=lane + STACK_PAD,
        y0=STACK_BOTTOM, y1=top, fillcolor=FILL["stack"], line=dict(color="#7f8c8d", width=1.5),
        layer="below",
    ))
    c.label(cx - BOX_W / 2 - STACK_PAD + 8, top - 13, f"<b>{esc(title)}</b>", markup=True,
            anchor="left", size=13)


def architecture_figure(
    cfg: TransformerConfig, src_len: int, tgt_len: int, *, lang: str, show_vocab: bool = True
) -> go.Figure:
    """Figure 1 of the paper for this config.

    Lengths <= 0 are shown as symbols only (src_len, tgt_len), and so are the vocabulary
    sizes with `show_vocab=False` (when the config's vocabulary is only a placeholder).
    """
    t = Text(lang)
    c = _Canvas()
    src_v = str(cfg.src_vocab) if show_vocab else "vocab"
    tgt_v = str(cfg.tgt_vocab) if show_vocab else "vocab"
    vocab_dim = f"vocab={cfg.tgt_vocab}" if show_vocab else "vocab"
    pre = cfg.norm_placement == "pre"
    d = cfg.d_model
    src, tgt = _dim("src_len", src_len), _dim("tgt_len", tgt_len)
    heads = t("fig.arch.heads", h=cfg.h, d_k=cfg.d_k)
    mask_tag = t("fig.arch.mask_tag", mask="src_mask")

    # ---- Encoder (left) ------------------------------------------------------------
    _inputs(c, t, ENC_X, cfg, "left", src, src_v,
            (t("fig.arch.src_tokens"), t("fig.arch.src_ids")), "src_embed")
    y = STACK_BOTTOM
    y, attn_y = _sublayer(c, t, ENC_X, ENC_LANE, y, pre, "attn", t("fig.arch.self_attn"),
                          f"self_attn: {heads}", "encoder.self_attn", "sublayer[0].norm")
    _mask_tag(c, attn_y, [mask_tag, f"(1, 1, 1, {src})", t("fig.arch.hides_padding")], "left",
              ENC_X - BOX_W / 2)
    y, _ = _sublayer(c, t, ENC_X, ENC_LANE, y, pre, "ff", t("fig.arch.feed_forward"),
                     f"feed_forward: {d} → {cfg.d_ff} → {d}", "encoder.feed_forward",
                     "sublayer[1].norm")
    enc_top = y + 40
    out = _stack_top(c, t, ENC_X, ENC_LANE, enc_top, "encoder", cfg.N, pre)
    # memory: up, right between the stacks, down to the decoder's cross-attention
    mem_y = enc_top + 70

    # ---- Decoder (right) ----------------------------------------------------------
    _inputs(c, t, DEC_X, cfg, "right", tgt, tgt_v,
            (t("fig.arch.tgt_tokens"), t("fig.arch.tgt_ids")), "tgt_embed")
    y = STACK_BOTTOM
    y, self_y = _sublayer(c, t, DEC_X, DEC_LANE, y, pre, "attn", t("fig.arch.masked_self_attn"),
                          f"self_attn: {heads}", "decoder.self_attn", "sublayer[0].norm")
    _mask_tag(c, self_y, [t("fig.arch.mask_tag", mask="tgt_mask"), f"(1, 1, {tgt}, {tgt})",
                          t("fig.arch.hides_later"), "(subsequent_mask)"], "right",
              DEC_X + BOX_W / 2)
    y, cross_y = _sublayer(c, t, DEC_X, DEC_LANE, y, pre, "attn", t("fig.arch.cross_attn"),
                           t("fig.arch.cross_sub"), "decoder.src_attn", "sublayer[1].norm")
    _mask_tag(c, cross_y, [mask_tag, f"(1, 1, 1, {src})", t("fig.arch.hides_src_padding")],
              "right", DEC_X + BOX_W / 2)
    y, _ = _sublayer(c, t, DEC_X, DEC_LANE, y, pre, "ff", t("fig.arch.feed_forward"),
                     f"feed_forward: {d} → {cfg.d_ff} → {d}", "decoder.feed_forward",
                     "sublayer[2].norm")
    dec_top = y + 40
    y = _stack_top(c, t, DEC_X, DEC_LANE, dec_top, "decoder", cfg.N, pre)
    if not pre:
        c.label(RIGHT_TAGS, dec_top - 40, esc(t("fig.arch.post_norm_1")) + "<br>"
                + esc(t("fig.arch.post_norm_2")), markup=True, anchor="left", size=SUB_SIZE,
                color="#566573")
    linear = (y + 36, y + 74)
    c.arrow(DEC_X, y, DEC_X, linear[0])
    c.label(DEC_X + 8, (y + linear[0]) / 2, f"(1, {tgt}, d_model={d})", anchor="left",
            size=SUB_SIZE)
    c.box("generator.proj", DEC_X, *linear, "linear", t("fig.arch.linear"),
          f"d_model={d} → {vocab_dim}")
    soft = (linear[1] + 16, linear[1] + 42)
    c.arrow(DEC_X, linear[1], DEC_X, soft[0])
    c.box("generator.log_softmax", DEC_X, *soft, "softmax", "log_softmax (generator)")
    out_y = soft[1] + 44
    c.arrow(DEC_X, soft[1], DEC_X, out_y - 8)
    c.label(DEC_X + 8, (soft[1] + out_y - 8) / 2, f"(1, {tgt}, {vocab_dim})",
            anchor="left", size=SUB_SIZE)
    c.label(DEC_X, out_y + 4, f"<b>{esc(t('fig.arch.output'))}</b>"
            + esc(t("fig.arch.output_detail")), markup=True, size=TITLE_SIZE)
    c.shapes.append(dict(type="rect", name="group:generator", x0=DEC_X - BOX_W / 2 - 8,
                         x1=DEC_X + BOX_W / 2 + 8, y0=linear[0] - 7, y1=soft[1] + 7,
                         line=dict(color="#7f8c8d", width=1, dash="dot")))
    c.label(DEC_X + BOX_W / 2 + 14, (linear[0] + soft[1]) / 2,
            f"<b>{esc(t('fig.arch.generator'))}</b><br>Linear + log_softmax", markup=True,
            anchor="left", size=SUB_SIZE, color="#566573")

    # ---- memory: the encoder output into every decoder layer's cross-attention --------
    c.dots.append((ENC_X, mem_y))
    c.arrow(ENC_X, out, ENC_X, mem_y - 3)
    c.path([(ENC_X, mem_y), (MEMORY_LANE, mem_y), (MEMORY_LANE, cross_y)], color=MEMORY,
           width=2)
    c.arrow(MEMORY_LANE, cross_y, DEC_X - BOX_W / 2, cross_y, color=MEMORY, width=2)
    c.label((ENC_X + MEMORY_LANE) / 2 + 10, mem_y + 22,
            "<b>memory</b><br>" + esc(f"(1, {src}, d_model={d})"), markup=True, size=SUB_SIZE,
            color=MEMORY)
    c.label(MEMORY_LANE - 12, (mem_y + cross_y) / 2, t("fig.arch.to_every_layer"),
            size=SUB_SIZE, color=MEMORY, angle=-90, anchor="center")

    # ---- shared weights -----------------------------------------------------------------
    embed_y = (EMBED[0] + EMBED[1]) / 2
    if cfg.tie_weights in ("decoder", "all"):
        lin_y = (linear[0] + linear[1]) / 2
        c.path([(DEC_X - BOX_W / 2, embed_y), (TIE_LANE, embed_y), (TIE_LANE, lin_y),
                (DEC_X - BOX_W / 2, lin_y)], color=TIE, dash="dash", width=2,
               name="tie:decoder")
        c.label(TIE_LANE - 8, (embed_y + cross_y) / 2, t("fig.arch.shared"), angle=-90,
                size=SUB_SIZE, color=TIE)
    if cfg.tie_weights == "all":
        c.path([(ENC_X + BOX_W / 2, embed_y), (DEC_X - BOX_W / 2, embed_y)], color=TIE,
               dash="dash", width=2, name="tie:all")
        c.label((ENC_X + BOX_W / 2 + TIE_LANE) / 2, embed_y - 22, t("fig.arch.shared"),
                size=SUB_SIZE, color=TIE)
    return c.figure(out_y + 20)


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
        xaxis=dict(title=dict(text=t("fig.arch.parameters")), range=[0, top * 1.6],
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
