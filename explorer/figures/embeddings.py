"""Embeddings-page figures: PE curves, the whole table, similarity, the shift matrix, and the
learner's tokens as the encoder receives them (with the data they are drawn from)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch

from transformer.hook_paths import embedding_hook, positional_hook
from transformer.model import sinusoid_table

from ..text.i18n import Text
from .common import FONT, esc, heatmap, title_html


def pe_curves(table: np.ndarray, dims: Sequence[int], title: str = "", *,
              lang: str) -> go.Figure:
    """PE value over positions, one line per chosen dimension."""
    t = Text(lang)
    fig = go.Figure()
    positions = np.arange(table.shape[0])
    dim, position, value = t("fig.pos.dim"), t("fig.pos.position"), t("fig.common.value")
    for d in dims:
        kind = "sin" if d % 2 == 0 else "cos"
        fig.add_trace(
            go.Scatter(
                x=positions,
                y=table[:, d],
                mode="lines",
                name=esc(t("fig.pos.curve_name", d=d, kind=kind)),
                hovertemplate=f"{dim} {d}<br>{position} %{{x}}<br>{value} %{{y:.3f}}"
                "<extra></extra>",
            )
        )
    # The title at the top, the legend under it (on a phone its items take two rows,
    # which beside the title ran into it), then the plot.
    fig.update_layout(
        title=dict(text=title_html(title, 600), x=0, xanchor="left", xref="paper", y=1,
                   yref="container", yanchor="top", pad=dict(t=8)) if title else None,
        xaxis_title=t("fig.pos.position"),
        yaxis_title=t("fig.pos.pe_value"),
        yaxis_range=[-1.1, 1.1],
        font=FONT,
        height=380,
        margin=dict(l=10, r=10, t=72 if title else 50, b=10),
        legend=dict(orientation="h", y=1.0, yanchor="bottom", x=0, xanchor="left"),
    )
    return fig


def _position_matrix(t: Text, z: np.ndarray, x_title: str, colorscale: str, hover: str,
                     zmin: float | None = None, zmax: float | None = None) -> go.Figure:
    fig = go.Figure(go.Heatmap(z=z, colorscale=colorscale, zmin=zmin, zmax=zmax,
                               colorbar=dict(thickness=12), hovertemplate=hover))
    fig.update_layout(
        xaxis_title=x_title,
        yaxis=dict(title=t("fig.pos.position"), autorange="reversed"),
        font=FONT,
        height=420,
        margin=dict(l=10, r=10, t=30, b=10),
    )
    return fig


def pe_table_heatmap(table: np.ndarray, *, lang: str) -> go.Figure:
    """The whole table: positions (rows) by dimensions (columns)."""
    t = Text(lang)
    return _position_matrix(
        t, table, t("fig.pos.dimension_axis"), "RdBu",
        f"{t('fig.pos.position')} %{{y}}<br>{t('fig.pos.dim')} %{{x}}<br>"
        f"{t('fig.common.value')} %{{z:.3f}}<extra></extra>", zmin=-1, zmax=1,
    )


def pe_similarity(table: np.ndarray, *, lang: str) -> go.Figure:
    """Dot products PE(p) · PE(q): large near the diagonal, depends only on |p - q|."""
    t = Text(lang)
    position = t("fig.pos.position")
    return _position_matrix(
        t, table @ table.T, position, "Viridis",
        f"{position} %{{y}} · {position} %{{x}}<br>{t('fig.pos.dot_product')} %{{z:.2f}}"
        "<extra></extra>",
    )


def shift_matrix(d_model: int, k: int) -> np.ndarray:
    """The (d_model, d_model) matrix M_k with PE(pos + k) = M_k PE(pos) for every pos.

    Each (sin, cos) pair at frequency w is rotated by the angle k*w:
    sin(w(p+k)) = sin(wp)cos(wk) + cos(wp)sin(wk); cos(w(p+k)) = cos(wp)cos(wk) - sin(wp)sin(wk).
    """
    m = np.zeros((d_model, d_model))
    freqs = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    for i, w in enumerate(freqs):
        c, s = np.cos(k * w), np.sin(k * w)
        m[2 * i, 2 * i], m[2 * i, 2 * i + 1] = c, s
        m[2 * i + 1, 2 * i], m[2 * i + 1, 2 * i + 1] = -s, c
    return m


def shift_error(table: np.ndarray, m: np.ndarray, k: int, positions: int) -> float:
    """max |M_k · PE(pos) − PE(pos + k)| over `positions` positions (`table` has pos + k rows)."""
    full = table.astype(np.float64)
    return float(np.abs(full[:positions] @ m.T - full[k: k + positions]).max())


def shift_matrix_figure(m: np.ndarray, k: int, *, lang: str) -> go.Figure:
    """M_k as a heatmap: 2x2 rotation blocks along the diagonal, zeros elsewhere."""
    t = Text(lang)
    return heatmap(
        m, None, None, t("fig.pos.shift_title", k=k), lang=lang,
        zmin=-1, zmax=1, colorscale="RdBu", value_format=".2f",
        show_values=m.shape[0] <= 12, height=420,
    )


@dataclass(frozen=True)
class EncoderInput:
    """What the encoder receives for the learner's tokens (batch item 0), each array
    (src_len, d_model): the token_vectors and magnitude_bars figures' data."""

    embedding: np.ndarray  # lut(ids), times √d_model when the model scales its embeddings
    pe: np.ndarray  # the positional encoding added to it
    total: np.ndarray  # dropout(embedding + PE): what the first encoder layer reads
    raw: np.ndarray  # lut(ids), before any scaling

    @property
    def limit(self) -> float:
        """The colour range shared by the three token_vectors heatmaps: the embedding's
        largest |value|, and at least 1 (the PE's range)."""
        return float(max(np.abs(self.embedding).max(), 1.0))

    def magnitudes(self) -> list[float]:
        """Mean |value| of the raw embedding, the embedding as added, and the PE (the order of
        magnitude_bars' bars)."""
        return [float(np.abs(a).mean()) for a in (self.raw, self.embedding, self.pe)]


def encoder_input(cache: Mapping[str, np.ndarray], d_model: int,
                  scale_embedding: bool) -> EncoderInput:
    """The encoder's input read from a run's `cache` (scaled as the model's config says)."""
    emb = cache[embedding_hook("encoder")][0]  # (src_len, d_model)
    return EncoderInput(
        embedding=emb,
        pe=cache[positional_hook("encoder", "hook_pe")][0],
        total=cache[positional_hook("encoder", "hook_out")][0],
        raw=emb / (np.sqrt(d_model) if scale_embedding else 1.0),
    )


def token_vectors(z: np.ndarray, tokens: Sequence[str], title: str, limit: float, *,
                  lang: str) -> go.Figure:
    """Rows are the learner's tokens, columns the d_model features."""
    t = Text(lang)
    return heatmap(
        z, None, tokens, title, lang=lang, x_title=t("fig.pos.feature_axis"),
        zmin=-limit, zmax=limit, colorscale="RdBu", value_format=".2f", show_values=z.size <= 120,
    )


def magnitude_bars(names: Sequence[str], values: Sequence[float], *, lang: str) -> go.Figure:
    """Average absolute value of each ingredient of the encoder's input."""
    t = Text(lang)
    fig = go.Figure(go.Bar(x=[esc(n) for n in names], y=list(values),
                           text=[f"{v:.3f}" for v in values], textposition="outside"))
    fig.update_layout(
        yaxis_title=t("fig.pos.mean_abs"), font=FONT, height=300,
        margin=dict(l=10, r=10, t=30, b=10),
    )
    return fig


def divided_scale(raw: np.ndarray, pe: np.ndarray, d_model: int) -> tuple[float, float, float]:
    """A common mistake, computed: mean |value| of the embedding multiplied by √d_model (as
    the paper does), divided by it instead, and of the PE it is added to."""
    root = np.sqrt(d_model)
    return (float(np.abs(raw * root).mean()), float(np.abs(raw / root).mean()),
            float(np.abs(pe).mean()))


WALKTHROUGH_MAX_LEN = 1024  # the positions a walk-through's PositionalEncoding builds
PRINTED_ROW = 49_997  # the position its printout's last rows begin with (of 50,000)


@dataclass(frozen=True)
class PeSteps:
    """The sinusoid table built step by step, as a walk-through prints it (its shapes, and
    the corners `print(pe)` shows: first and last three rows and columns)."""

    half: int  # div_term's length, d_model / 2
    max_len: int
    corners: dict[str, list[str]]  # column name -> the corner rows' values, as torch prints
    # PE[pos, 0] = sin(pos) of the walk-through's last printed row (position 49,997 of a
    # 50,000-row table), and of this table's last row, max_len - 1
    printed_last: float
    last: float


def pe_steps(d_model: int, max_len: int = WALKTHROUGH_MAX_LEN) -> PeSteps:
    """`position` (max_len, 1) times `div_term` (d_model/2,) broadcast to `product`
    (max_len, d_model/2); sin and cos of it fill pe (max_len, d_model). The same formula
    as transformer.model.sinusoid_table, whose table gives the corners."""
    position = torch.arange(max_len).unsqueeze(1)  # (max_len, 1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    product = position * div_term  # broadcast: (max_len, d_model / 2)
    pe = sinusoid_table(max_len, d_model).numpy()  # (max_len, d_model), from `product`'s sin, cos
    rows = [r for r in (0, 1, 2, max_len - 3, max_len - 2, max_len - 1) if 0 <= r < max_len]
    cols = sorted({c for c in (0, 1, 2, d_model - 3, d_model - 2, d_model - 1)
                   if 0 <= c < d_model})
    corners = {"pos": [str(r) for r in rows]}
    corners.update({str(c): [f"{pe[r, c]:.4e}" for r in rows] for c in cols})
    return PeSteps(product.shape[1], max_len, corners, printed_last=float(np.sin(PRINTED_ROW)),
                   last=float(pe[max_len - 1, 0]))


def pe_curves_text(table: np.ndarray, dims: Sequence[int], *, lang: str) -> list[str]:
    """The curves of `pe_curves` in words, one sentence per dimension: sine or cosine, the
    wavelength in positions (2π·10000^(2i/d_model) for dimensions 2i and 2i+1, section 3.5
    of the paper) and the value at the first and the last position drawn."""
    t = Text(lang)
    d_model, last = table.shape[1], table.shape[0] - 1
    lines = []
    for d in dims:
        wavelength = 2 * math.pi * 10000 ** ((d - d % 2) / d_model)
        lines.append(t("a11y.pe_curve", d=d, kind="sin" if d % 2 == 0 else "cos",
                       period=f"{wavelength:,.1f}", first=f"{table[0, d]:.2f}",
                       n=last, last=f"{table[last, d]:.2f}"))
    return lines
