"""Positional-encoding figures: curves, the whole table, similarity, and the shift matrix."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..i18n import t
from .common import FONT, esc, heatmap


def pe_curves(table: np.ndarray, dims: Sequence[int], title: str = "") -> go.Figure:
    """PE value over positions, one line per chosen dimension."""
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
    fig.update_layout(
        title=dict(text=esc(title)) if title else None,
        xaxis_title=t("fig.pos.position"),
        yaxis_title=t("fig.pos.pe_value"),
        yaxis_range=[-1.1, 1.1],
        font=FONT,
        height=380,
        margin=dict(l=10, r=10, t=80, b=10),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=1, xanchor="right"),
    )
    return fig


def _position_matrix(z: np.ndarray, x_title: str, colorscale: str, hover: str,
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


def pe_table_heatmap(table: np.ndarray) -> go.Figure:
    """The whole table: positions (rows) by dimensions (columns)."""
    return _position_matrix(
        table, t("fig.pos.dimension_axis"), "RdBu",
        f"{t('fig.pos.position')} %{{y}}<br>{t('fig.pos.dim')} %{{x}}<br>"
        f"{t('fig.common.value')} %{{z:.3f}}<extra></extra>", zmin=-1, zmax=1,
    )


def pe_similarity(table: np.ndarray) -> go.Figure:
    """Dot products PE(p) · PE(q): large near the diagonal, depends only on |p - q|."""
    position = t("fig.pos.position")
    return _position_matrix(
        table @ table.T, position, "Viridis",
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


def shift_matrix_figure(m: np.ndarray, k: int) -> go.Figure:
    """M_k as a heatmap: 2x2 rotation blocks along the diagonal, zeros elsewhere."""
    return heatmap(
        m, None, None, t("fig.pos.shift_title", k=k),
        zmin=-1, zmax=1, colorscale="RdBu", value_format=".2f",
        show_values=m.shape[0] <= 12, height=420,
    )


def token_vectors(z: np.ndarray, tokens: Sequence[str], title: str, limit: float) -> go.Figure:
    """Rows are the learner's tokens, columns the d_model features."""
    return heatmap(
        z, None, tokens, title, x_title=t("fig.pos.feature_axis"), zmin=-limit, zmax=limit,
        colorscale="RdBu", value_format=".2f", show_values=z.size <= 120,
    )


def magnitude_bars(names: Sequence[str], values: Sequence[float]) -> go.Figure:
    """Average absolute value of each ingredient of the encoder's input."""
    fig = go.Figure(go.Bar(x=[esc(n) for n in names], y=list(values),
                           text=[f"{v:.3f}" for v in values], textposition="outside"))
    fig.update_layout(
        yaxis_title=t("fig.pos.mean_abs"), font=FONT, height=300,
        margin=dict(l=10, r=10, t=30, b=10),
    )
    return fig
