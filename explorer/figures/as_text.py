"""Any chart said in text, from the numbers it draws: the text alternative every chart gets
(WCAG 1.1.1) unless its page says it better by hand (the attention weights, the masks, the
positional-encoding curves: explorer/figures/attention.py `weights_text` and its kin).

`figure_lines` reads a figure as plotly writes it out (`go.Figure.to_dict()`, or the spec
explorer/app/charts.py draws), so what it says is what is drawn: a heatmap row by row (where
the row is highest and lowest) or, when large, its extremes; a curve by its ends and
extremes, or point by point when short; bars one by one; a drawing's own labels. Labels are
read back from plotly's escaped text (`common.esc`) and its markup dropped: the lines are
plain text, the learner's tokens in them, for a caller that shows them as written.
"""

from __future__ import annotations

import base64
import html
import math
import re
from typing import Any

import numpy as np

from ..text.i18n import Text

MAX_ROWS = 24  # a heatmap with more rows is said by its extremes, not row by row
MAX_POINTS = 12  # a curve with at most this many points is said point by point
MAX_BARS = 30  # bars said one by one, at most
MAX_LABELS = 40  # a drawing's labels (its annotations), at most
MAX_LINES = 80  # a chart's text, at most (a grid of many panels), then "and N more"
_TAG = re.compile(r"<[^>]*>")


def label_text(value: object) -> str:
    """A label as plotly draws it, as plain text: markup dropped (a line break a space),
    entities read back (`common.esc` wrote the learner's `<` as `&lt;`)."""
    text = _TAG.sub(" ", str(value).replace("<br>", " "))
    return " ".join(html.unescape(text).split())


def number(value: float) -> str:
    """A drawn value as a reader needs it: three significant figures."""
    return f"{value:.3g}"


def array(value: object) -> np.ndarray:
    """A trace's numbers as an array: a list, an array, or plotly's typed-array form
    (`{"dtype", "bdata", "shape"}`: base64 bytes, how `to_dict` writes a numpy array)."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if isinstance(shape, str):
            flat = flat.reshape(tuple(int(n) for n in shape.split(",")))
        return flat.astype(float)
    return np.asarray(value, dtype=object)


def numbers(value: object) -> np.ndarray:
    """`array(value)` as floats, a missing value (None) as NaN."""
    out = array(value)
    if out.dtype == object:
        out = np.array([[np.nan if v is None else v for v in row] for row in out]
                       if out.ndim == 2 else [np.nan if v is None else v for v in out],
                       dtype=float)
    return out


def _title(node: object) -> str:
    """The text of a plotly title (a string or a dict with `text`)."""
    if isinstance(node, dict):
        node = node.get("text")
    return label_text(node) if node else ""


def _labels(values: object, n: int, axis: dict[str, Any]) -> list[str]:
    """`n` labels along `axis`: the trace's own coordinates (x or y; else positions 0..n-1),
    each as the axis writes it (its `ticktext` for a `tickvals` value)."""
    ticks = {}
    if axis.get("tickvals") is not None and axis.get("ticktext") is not None:
        ticks = {_value(v): label_text(s)
                 for v, s in zip(array(axis["tickvals"]).tolist(),
                                 array(axis["ticktext"]).tolist(), strict=False)}
    coords = list(range(n)) if values is None else array(values).tolist()[:n]
    out = [label_text(v) if isinstance(v, str) else _value(v) for v in coords]
    out = [ticks.get(v) or v for v in out]  # a tick left blank (a panel beside the first)
    return out + [str(i) for i in range(len(out), n)]


def _value(value: object) -> str:
    """A coordinate as text: a number to three figures, anything else as written."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        return label_text(value)
    return number(float(value)) if not float(value).is_integer() else str(int(value))


def _axes(trace: dict[str, Any], layout: dict[str, Any]) -> tuple[dict, dict]:
    """The layout's x and y axes of `trace` (a panel of a grid has its own: x2, y2, ...)."""
    x, y = (str(trace.get(name) or name[0]) for name in ("xaxis", "yaxis"))
    return (layout.get("xaxis" + x[1:]) or {}), (layout.get("yaxis" + y[1:]) or {})


def _heatmap(trace: dict[str, Any], layout: dict[str, Any], t: Text) -> list[str]:
    z = numbers(trace.get("z"))
    if z.ndim != 2 or z.size == 0:
        return []
    rows, cols = z.shape
    xaxis, yaxis = _axes(trace, layout)
    ys, xs = _labels(trace.get("y"), rows, yaxis), _labels(trace.get("x"), cols, xaxis)
    finite = np.isfinite(z)
    lines = []
    if not finite.any():
        return [t("a11y.heat_empty", rows=rows, cols=cols)]
    if rows <= MAX_ROWS:
        for r in range(rows):
            row = np.where(finite[r], z[r], np.nan)
            if np.isnan(row).all():
                lines.append(t("a11y.heat_row_empty", row=ys[r]))
                continue
            hi, lo = int(np.nanargmax(row)), int(np.nanargmin(row))
            lines.append(t("a11y.heat_row", row=ys[r], high=number(row[hi]), high_at=xs[hi],
                           low=number(row[lo]), low_at=xs[lo]))
    else:
        filled = np.where(finite, z, np.nan)
        hi = np.unravel_index(int(np.nanargmax(filled)), z.shape)
        lo = np.unravel_index(int(np.nanargmin(filled)), z.shape)
        lines.append(t("a11y.heat_summary", rows=rows, cols=cols,
                       high=number(filled[hi]), high_row=ys[hi[0]], high_col=xs[hi[1]],
                       low=number(filled[lo]), low_row=ys[lo[0]], low_col=xs[lo[1]],
                       mean=number(float(np.nanmean(filled)))))
    blank = int((~finite).sum())
    if blank:
        lines.append(t("a11y.heat_blank", n=blank))
    return lines


def _scatter(trace: dict[str, Any], layout: dict[str, Any], t: Text) -> list[str]:
    y = trace.get("y")
    if y is None:
        return []
    name = label_text(trace.get("name") or "") or t("a11y.series")
    # points that say what they are (a beam's candidates): their hover text or their label
    for said in (trace.get("hovertext"), trace.get("text") if "text" in str(
            trace.get("mode", "")) else None):
        if isinstance(said, list | tuple) and said:
            points = [label_text(v) for v in said if label_text(v)]
            more = len(points) - MAX_LABELS
            return [t("a11y.points", name=name, points=" · ".join(points[:MAX_LABELS]))
                    + (" " + t("a11y.more", n=more) if more > 0 else "")]
    if trace.get("hoverinfo") == "skip":
        return []  # a drawing's strokes (the architecture's dots, a beam's edges)
    ys = numbers(y).reshape(-1)
    n = len(ys)
    xs = _labels(trace.get("x"), n, _axes(trace, layout)[0])
    keep = np.isfinite(ys)
    if not keep.any():
        return []
    if n <= MAX_POINTS:
        points = " · ".join(f"{xs[i]} → {number(ys[i])}" for i in range(n) if keep[i])
        return [t("a11y.points", name=name, points=points)]
    at = np.flatnonzero(keep)
    first, last = int(at[0]), int(at[-1])
    filled = np.where(keep, ys, np.nan)
    hi, lo = int(np.nanargmax(filled)), int(np.nanargmin(filled))
    return [t("a11y.curve", name=name, n=int(keep.sum()), first_at=xs[first],
              first=number(ys[first]), last_at=xs[last], last=number(ys[last]),
              high=number(ys[hi]), high_at=xs[hi], low=number(ys[lo]), low_at=xs[lo])]


def _bar(trace: dict[str, Any], layout: dict[str, Any], t: Text) -> list[str]:
    across = trace.get("orientation") == "h"
    values = trace.get("x" if across else "y")
    if values is None:
        return []
    vs = numbers(values).reshape(-1)
    xaxis, yaxis = _axes(trace, layout)
    names = _labels(trace.get("y" if across else "x"), len(vs), yaxis if across else xaxis)
    name = label_text(trace.get("name") or "") or t("a11y.series")
    bars = " · ".join(f"{names[i]}: {number(vs[i])}" for i in range(min(len(vs), MAX_BARS))
                      if math.isfinite(vs[i]))
    more = len(vs) - MAX_BARS
    return [t("a11y.bars", name=name, bars=bars)
            + (" " + t("a11y.more", n=more) if more > 0 else "")]


_TRACES = {"heatmap": _heatmap, "scatter": _scatter, "scattergl": _scatter, "bar": _bar}


def figure_lines(spec: dict[str, Any], lang: str) -> list[str]:
    """What the figure `spec` (a plotly dict: `data`, `layout`, maybe `frames`) draws, in
    sentences in `lang`: its title, its axes, then each trace (a panel of a grid named by
    its place), its drawing's labels; at most MAX_LINES."""
    t = Text(lang)
    layout = spec.get("layout") or {}
    data = spec.get("data") or []
    lines = []
    title = _title(layout.get("title"))
    if title:
        lines.append(title)
    across, down = _title((layout.get("xaxis") or {}).get("title")), _title(
        (layout.get("yaxis") or {}).get("title"))
    if across or down:
        lines.append(t("a11y.axes", across=across or "–", down=down or "–"))
    if spec.get("frames"):
        lines.append(t("a11y.frames", n=len(spec["frames"])))
    panels = sum(trace.get("type", "scatter") == "heatmap" for trace in data)
    panel = 0
    for trace in data:
        kind = trace.get("type", "scatter")
        said = _TRACES.get(kind, lambda *_: [])(trace, layout, t)
        if kind == "heatmap" and panels > 1 and said:
            panel += 1
            said = [t("a11y.panel", i=panel, n=panels), *said]
        lines.extend(said)
    notes = [label_text(note.get("text")) for note in layout.get("annotations") or []
             if isinstance(note, dict) and note.get("text")]
    notes = [note for note in dict.fromkeys(notes) if note and note != title]
    if notes:  # a drawing's texts (the architecture's blocks and shapes), one a line
        lines += [t("a11y.labels"), *notes[:MAX_LABELS]]
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES - 1], t("a11y.more", n=len(lines) - MAX_LINES + 1)]
    return lines
