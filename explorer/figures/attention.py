"""Attention figures: a layers x heads grid of weights, and one head's computation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from ..i18n import t
from .common import FONT, axis_labels, cell_labels, esc, fast_figure, heatmap


@dataclass(frozen=True)
class AttentionKind:
    """One of the three places attention is used."""

    key: str  # "enc", "dec", "cross"
    stack: str  # "encoder" or "decoder"
    module: str  # "self_attn" or "src_attn"
    queries: str  # "src" or "tgt": which tokens ask
    keys: str  # "src" or "tgt": which tokens are looked at

    @property
    def label(self) -> str:
        """Its name, in the run's language."""
        return t(f"fig.attention.kind_{self.key}")

    @property
    def mask(self) -> str:
        """What mask this attention uses, in the run's language."""
        return t(f"fig.attention.mask_{self.key}")


KINDS: dict[str, AttentionKind] = {
    "enc": AttentionKind("enc", "encoder", "self_attn", "src", "src"),
    "dec": AttentionKind("dec", "decoder", "self_attn", "tgt", "tgt"),
    "cross": AttentionKind("cross", "decoder", "src_attn", "tgt", "src"),
}


GRID_CELL_BUDGET = 60_000  # weights drawn one heatmap per head; beyond this, average the heads


def hook(kind: AttentionKind, layer: int, point: str) -> str:
    """The capture name of `point` (e.g. "hook_pattern") in one attention module."""
    return f"{kind.stack}.layers.{layer}.{kind.module}.{point}"


def patterns(cache: Mapping[str, np.ndarray], kind: AttentionKind, n_layers: int) -> np.ndarray:
    """Attention weights of every layer: (N, h, q_len, k_len), batch item 0."""
    return np.stack([cache[hook(kind, i, "hook_pattern")][0] for i in range(n_layers)])


def _span(low: float, high: float) -> list[float]:
    """A subplot's domain, kept inside [0, 1] despite floating-point rounding."""
    return [min(max(round(low, 9), 0.0), 1.0), min(max(round(high, 9), 0.0), 1.0)]


def attention_grid(
    weights: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str],
    *,
    average_heads: bool = False,
    title: str = "",
) -> go.Figure:
    """One heatmap per layer (rows) and head (columns), all on the same 0-1 colour scale."""
    if average_heads:
        weights = weights.mean(axis=1, keepdims=True)
    n_layers, n_heads, q_len, k_len = weights.shape
    col_titles = ([t("fig.attention.mean_of_heads")] if average_heads
                  else [t("fig.attention.head", j=j) for j in range(n_heads)])
    row_titles = [t("fig.attention.layer", i=i) for i in range(n_layers)]
    query, key, weight = (t("fig.attention.query"), t("fig.attention.key"),
                          t("fig.attention.weight"))
    qlab, klab = axis_labels(q_tokens), axis_labels(k_tokens)
    custom = cell_labels(qlab, klab)
    xs, ys = list(range(k_len)), list(range(q_len))
    small = n_heads * k_len > 60
    # The grid is laid out by hand and the figure built from plain dicts without plotly's
    # validation: with make_subplots and per-subplot updates, building this figure was most
    # of the page's time (bench/page_response.py), and a class reruns it at once.
    hs = 0.012 if n_heads > 4 else 0.03
    vs = 0.02 if n_layers > 3 else 0.05
    width = (1 - hs * (n_heads - 1)) / n_heads
    height = (1 - vs * (n_layers - 1)) / n_layers
    data: list[dict] = []
    layout: dict = {"annotations": []}
    for layer in range(n_layers):
        top = 1 - layer * (height + vs)
        for head in range(n_heads):
            n = layer * n_heads + head + 1
            suffix = "" if n == 1 else str(n)
            left = head * (width + hs)
            data.append(dict(
                type="heatmap", z=weights[layer, head], x=xs, y=ys, zmin=0.0, zmax=1.0,
                colorscale="Blues", showscale=layer == 0 and head == 0,
                colorbar=dict(thickness=10, len=0.5, y=1.0, yanchor="top"),
                customdata=custom, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
                hovertemplate=f"{row_titles[layer]} · {col_titles[head]}<br>{query} "
                f"%{{customdata[0]}}<br>{key} %{{customdata[1]}}<br>{weight} %{{z:.3f}}"
                "<extra></extra>",
            ))
            layout[f"xaxis{suffix}"] = dict(
                domain=_span(left, left + width), anchor=f"y{suffix}", tickmode="array",
                tickvals=xs, tickangle=-60,
                ticktext=klab if layer == n_layers - 1 and not small else [""] * k_len,
            )
            layout[f"yaxis{suffix}"] = dict(
                domain=_span(top - height, top), anchor=f"x{suffix}", tickmode="array",
                tickvals=ys, ticktext=qlab if head == 0 else [""] * q_len,
                autorange="reversed",
            )
        layout["annotations"].append(dict(
            text=row_titles[layer], x=1, y=top - height / 2, xref="paper", yref="paper",
            xanchor="left", yanchor="middle", textangle=90, showarrow=False,
            font=dict(size=12)))
    for head in range(n_heads):
        layout["annotations"].append(dict(
            text=col_titles[head], x=head * (width + hs) + width / 2, y=1, xref="paper",
            yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
            font=dict(size=12)))
    cell = 150 if n_heads <= 4 else 110
    layout.update(
        title=dict(text=esc(title)) if title else None,
        font=FONT,
        height=max(320, 90 + cell * n_layers + (60 if not small else 0)),
        margin=dict(l=10, r=10, t=70, b=10),
    )
    return fast_figure(data, layout)


def head_matrix(
    z: np.ndarray, row_tokens: Sequence[str], title: str, *, value_format: str = ".2f"
) -> go.Figure:
    """A (tokens x features) matrix such as one head's Q, K or V, or its output."""
    limit = float(np.abs(z).max()) or 1.0
    return heatmap(
        z, None, row_tokens, title, x_title=t("fig.attention.feature_axis"), zmin=-limit,
        zmax=limit,
        colorscale="RdBu", value_format=value_format,
        show_values=z.shape[1] <= 6 and z.size <= 60,
    )
