"""Helpers shared by all figures: safe labels and a token-axis heatmap.

Figure functions are pure (no streamlit); their own words come from `t()`, in the language
of the current run, so a page that caches a figure must make the language part of the key.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

import numpy as np
import plotly.colors as pc
import plotly.graph_objects as go

from ..i18n import t

FONT = dict(family="Inter, 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif", size=13)


def _drop_none(value: object) -> object:
    """`value` without dict entries that are None (plotly leaves unset what is absent)."""
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value]
    return value


def fast_figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dicts, without plotly.py's validation.

    Validating every property was most of a page's time (bench/page_response.py), and a
    class reruns the pages at once. The dicts here are written by this package, never by a
    user; colorscale names are expanded as plotly.py would (plotly.js reads some reversed).
    """
    traces = []
    for trace in data:
        trace = _drop_none(trace)
        if isinstance(trace.get("colorscale"), str):
            trace["colorscale"] = pc.get_colorscale(trace["colorscale"])
        traces.append(trace)
    return go.Figure(data=traces, layout=_drop_none(layout), _validate=False)


def esc(text: str) -> str:
    """Escape text for plotly, which renders <b>, <a>, <span style> and entities in labels."""
    return html.escape(str(text), quote=False)


def text_px(label: str, size: float = FONT["size"], narrow: float = 0.6) -> float:
    """About how wide `label` (escaped or not) is drawn, in pixels, at font size `size`.

    Used to give rotated or outer tick labels room in the margins: `narrow` em per
    character (0.6 errs on the wide side for the sans-serif fonts used), 1 em for wide
    (CJK) ones.
    """
    text = html.unescape(str(label))
    return size * sum(1.0 if unicodedata.east_asian_width(c) in "WF" else narrow
                      for c in text)


def axis_labels(tokens: Sequence[str]) -> list[str]:
    """Escaped labels that keep repeated tokens distinct: '0:the', '1:cat', '2:the'."""
    return [esc(f"{i}:{tok}") for i, tok in enumerate(tokens)]


def token_axis(labels: Sequence[str], title: str | None = None, **extra: object) -> dict:
    """An axis whose categories are `labels` (from `axis_labels`), every one of them shown."""
    return dict(
        type="category",
        tickmode="array",
        tickvals=list(labels),
        ticktext=list(labels),
        title=dict(text=esc(title)) if title else None,
        **extra,
    )


def heatmap(
    z: np.ndarray,
    x_tokens: Sequence[str] | None,
    y_tokens: Sequence[str] | None,
    title: str = "",
    *,
    x_title: str | None = None,
    y_title: str | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    colorscale: str = "Blues",
    value_format: str = ".3f",
    show_values: bool | None = None,
    height: int | None = None,
) -> go.Figure:
    """A heatmap over token positions; rows top to bottom, hover shows both tokens and value."""
    z = np.asarray(z, dtype=float)
    rows, cols = z.shape
    # The axes are categories named by the labels, so the hover reads them as %{y} and %{x}
    # (a per-cell array of label pairs was copied cell by cell on every rerun).
    ylab = axis_labels(y_tokens) if y_tokens is not None else [str(i) for i in range(rows)]
    xlab = axis_labels(x_tokens) if x_tokens is not None else [str(i) for i in range(cols)]
    if show_values is None:
        show_values = rows * cols <= 144
    trace = dict(
        type="heatmap",
        z=z,
        x=xlab,
        y=ylab,
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        hovertemplate=f"{t('fig.common.row')} %{{y}}<br>{t('fig.common.column')} "
        f"%{{x}}<br>{t('fig.common.value')} %{{z:{value_format}}}<extra></extra>",
        texttemplate=f"%{{z:{value_format}}}" if show_values else None,
        textfont=dict(size=10),
        colorbar=dict(thickness=12),
    )
    xaxis = (
        token_axis(xlab, x_title, side="top", tickangle=-45)
        if x_tokens is not None
        else dict(type="category", title=dict(text=esc(x_title)) if x_title else None,
                  side="top")
    )
    yaxis = (
        token_axis(ylab, y_title, autorange="reversed")
        if y_tokens is not None
        else dict(type="category", title=dict(text=esc(y_title)) if y_title else None,
                  autorange="reversed")
    )
    layout = dict(
        title=dict(text=esc(title), y=0.02, yanchor="bottom") if title else None,
        xaxis=xaxis,
        yaxis=yaxis,
        font=FONT,
        margin=dict(l=10, r=10, t=60, b=40 if title else 10),
        height=height or max(260, 60 + 28 * rows),
    )
    return fast_figure([trace], layout)
