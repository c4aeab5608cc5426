"""Attention figures: a layers x heads grid of weights, and one head's computation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..i18n import t
from .common import FONT, axis_labels, cell_labels, esc, heatmap


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
    fig = make_subplots(
        rows=n_layers,
        cols=n_heads,
        column_titles=col_titles,
        row_titles=row_titles,
        horizontal_spacing=0.012 if n_heads > 4 else 0.03,
        vertical_spacing=0.02 if n_layers > 3 else 0.05,
    )
    qlab, klab = axis_labels(q_tokens), axis_labels(k_tokens)
    custom = cell_labels(qlab, klab)
    for layer in range(n_layers):
        for head in range(n_heads):
            fig.add_trace(
                go.Heatmap(
                    z=weights[layer, head],
                    x=list(range(k_len)),
                    y=list(range(q_len)),
                    zmin=0.0,
                    zmax=1.0,
                    colorscale="Blues",
                    showscale=layer == 0 and head == 0,
                    colorbar=dict(thickness=10, len=0.5, y=1.0, yanchor="top"),
                    customdata=custom,
                    hovertemplate=f"{row_titles[layer]} · {col_titles[head]}<br>{query} "
                    f"%{{customdata[0]}}<br>{key} %{{customdata[1]}}<br>{weight} %{{z:.3f}}"
                    "<extra></extra>",
                ),
                row=layer + 1,
                col=head + 1,
            )
    small = n_heads * k_len > 60
    for layer in range(n_layers):
        for head in range(n_heads):
            fig.update_xaxes(
                tickmode="array", tickvals=list(range(k_len)),
                ticktext=klab if layer == n_layers - 1 and not small else [""] * k_len,
                tickangle=-60, row=layer + 1, col=head + 1,
            )
            fig.update_yaxes(
                tickmode="array", tickvals=list(range(q_len)),
                ticktext=qlab if head == 0 else [""] * q_len,
                autorange="reversed", row=layer + 1, col=head + 1,
            )
    cell = 150 if n_heads <= 4 else 110
    fig.update_layout(
        title=dict(text=esc(title)) if title else None,
        font=FONT,
        height=max(320, 90 + cell * n_layers + (60 if not small else 0)),
        margin=dict(l=10, r=10, t=70, b=10),
    )
    fig.update_annotations(font_size=12)
    return fig


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
