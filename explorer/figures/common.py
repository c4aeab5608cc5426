"""Helpers shared by all figures: safe labels and a token-axis heatmap.

Figure functions are pure (no streamlit) and take the language they write in as an argument
(`lang`, required): their own words come from `Text(lang)`, never from the run's context, so
a figure is a function of its arguments and a cache of it is keyed by what it depends on.
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Sequence

import numpy as np
import pandas  # noqa: F401 (loaded in full before any figure is built: see below)
import plotly.colors as pc
import plotly.graph_objects as go

from ..text.i18n import Text

# plotly checks a figure's data against pandas with `sys.modules.get("pandas")`
# (_plotly_utils/optional_imports.py), not an import: while one session's thread imports
# pandas (Streamlit's tables do), another session's figure saw the half-initialised module
# and failed ("partially initialized module 'pandas' has no attribute 'Series"; a class
# following its teacher onto the Masks page, tests/test_e2e_classroom.py). Imported here,
# pandas is complete before a figure module is, in every thread: a thread importing a module
# another thread is still initialising waits for it.

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

    Validating every property takes most of a page's time (bench/page_response.py), and a
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


# ---- Labels that fit: every token named, titles wrapped ------------------------------------

MAX_LABELLED = 32  # an axis of up to this many tokens writes every label (never thinned)
TITLE_PX = 270  # a chart title wider than this (at the theme's 16 px) is wrapped
TITLE_SIZE = 16  # Streamlit's chart theme draws titles at 16 px (explorer.app.charts.THEME_SIZES)
TICK_SIZE = 12  # ... and tick labels at 12 px
MODEBAR_PX = 30  # the plotly toolbar's height: a top margin at least this tall
COLORBAR_GAP = 8  # pixels between a matrix and its colour bar under it
COLORBAR_PX = 52  # ... and from the matrix to a title under them (presenter mode included)
# plotly lifts a title anchored at its top for each line after the first (measured: 6 px
# at 16 px, 17 px at presenter mode's 25 px): so much more padding keeps it in its place
MULTILINE_LIFT = 12
VALUE_COLS = 8  # cell numbers are written while a row has at most this many cells
# Closing punctuation stays with the character before it, opening with the one after.
_CLOSING = set("）)」』】，。、：；！？,.:;!?%")
_OPENING = set("（(「『【")


def written(n: int, room: int = MAX_LABELLED) -> range:
    """The places whose labels an axis of `n` labels writes: every one up to `room`, else
    every step-th from the first, at most `room` of them. A long input (48 tokens) wrote 48
    labels over each other, at any angle."""
    return range(0, n, max(1, math.ceil(n / max(room, 1))))


def tick_array(values: Sequence, labels: Sequence[str], room: int = MAX_LABELLED) -> dict:
    """An axis's ticks: `labels` (escaped) at `values`, thinned to at most `room`
    (`written`), in a font size that fits as many side by side (`label_size`); plotly's
    own thinning off (tickmode "array")."""
    shown = written(len(labels), room)
    size = label_size(len(shown))
    return dict(tickmode="array", tickvals=[values[i] for i in shown],
                ticktext=[labels[i] for i in shown],
                tickfont=dict(size=size) if size else None)


def label_size(n: int) -> int | None:
    """The tick font size for an axis of `n` labels side by side, all of them written:
    the theme's 12 px (None) up to 24, which a phone's chart (~300 px) still fits upright;
    smaller beyond (presenter mode keeps at least 18 px: explorer.app.charts)."""
    if n > 28:
        return 9
    if n > 24:
        return 10
    return None


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def wrap_text(text: str, max_px: float, size: float = TITLE_SIZE) -> list[str]:
    """`text` (unescaped) in lines of at most about `max_px` at font size `size`.

    A line breaks, by preference, before an opening or after a closing punctuation mark
    (when the rest then fits on one line), else at a space, else between wide (CJK)
    characters: at the best such place that leaves the line at least 55 % full. Never
    before closing or after opening punctuation; a word longer than a line keeps a line of
    its own.
    """
    # (separator before it, word, how well a line breaks before it: 2, 1 or 0)
    words: list[tuple[str, str, int]] = []
    space = ""
    for ch in str(text):
        if ch.isspace():
            space = " " if words else ""
            continue
        if words and not space:
            sep, last, rank = words[-1]
            if ch in _CLOSING or last[-1] in _OPENING or not (_wide(ch) or _wide(last[-1])):
                words[-1] = (sep, last + ch, rank)
                continue
        rank = (2 if ch in _OPENING or (words and words[-1][1][-1] in _CLOSING)
                else 1 if space else 0)
        words.append((space, ch, rank))
        space = ""

    def joined(part: list[tuple[str, str, int]]) -> str:
        return "".join((sep if i else "") + word for i, (sep, word, _) in enumerate(part))

    lines: list[str] = []
    line: list[tuple[str, str, int]] = []
    for n, word in enumerate(words):
        line.append(word)
        if len(line) > 1 and text_px(joined(line), size) > max_px:
            # at punctuation that leaves the line 40 % full and the rest on one line; else
            # the latest of the best places to break that leave the line 55 % full
            rest = words[n + 1:]
            last = [i for i in range(1, len(line)) if line[i][2] == 2
                    and text_px(joined(line[:i]), size) >= 0.4 * max_px
                    and text_px(joined(line[i:] + rest), size) <= max_px]
            places = [i for i in range(1, len(line))
                      if text_px(joined(line[:i]), size) >= 0.55 * max_px]
            cut = last[-1] if last else max(places, key=lambda i: (line[i][2], i),
                                            default=len(line) - 1)
            lines.append(joined(line[:cut]))
            line = line[cut:]
            while len(line) > 1 and text_px(joined(line), size) > max_px:
                lines.append(joined(line[:-1]))
                line = line[-1:]
    if line or not lines:
        lines.append(joined(line))
    return lines


def title_html(text: str, max_px: float = TITLE_PX, size: float = TITLE_SIZE) -> str:
    """`text` escaped and wrapped for a plotly title or annotation (lines joined by <br>)."""
    return "<br>".join(esc(line) for line in wrap_text(text, max_px, size))


def head_word(noun: str) -> str:
    """An axis title without its explanation: "query (attending)" -> "query",
    "查询（发出关注的位置）" -> "查询"."""
    return noun.split("（")[0].split(" (")[0].strip() or noun


def fitting_title(noun: str, room_px: float, size: float = 14) -> str:
    """`noun` as a vertical axis title along `room_px`, or only its head word when longer.

    Presenter mode enlarges the font by about 1.5 but the plot by only about 1.2: the whole
    title must take less than 60 % of the room.
    """
    return noun if text_px(noun, size) <= 0.6 * room_px else head_word(noun)


def token_axis(labels: Sequence[str], title: str | None = None, room: int = MAX_LABELLED,
               **extra: object) -> dict:
    """An axis whose categories are `labels` (from `axis_labels`).

    Up to `room` of them, every one is written (tickmode "array": plotly thins nothing),
    else every step-th (`written`), in a smaller font when many, without tick marks (a
    neighbouring panel would get them) or grid lines (they showed through blank cells).
    """
    axis: dict = dict(type="category", ticks="", showgrid=False,
                      title=dict(text=esc(title)) if title else None)
    axis.update(tick_array(list(labels), list(labels), room))
    axis.update(extra)
    return axis


def heatmap(
    z: np.ndarray,
    x_tokens: Sequence[str] | None,
    y_tokens: Sequence[str] | None,
    title: str = "",
    *,
    lang: str,
    x_title: str | None = None,
    y_title: str | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    colorscale: str = "Blues",
    value_format: str = ".3f",
    show_values: bool | None = None,
    height: int | None = None,
) -> go.Figure:
    """A heatmap over token positions; rows top to bottom, hover shows both tokens and value.

    Every token label is written (up to MAX_LABELLED per axis, else every step-th:
    `written`); the column labels above the matrix stand at 45 degrees, or upright when
    the drawn width leaves no room (plotly picks the angle). Cell numbers are written for
    up to VALUE_COLS columns, in a size that plotly fits to the drawn cells. The colour bar
    lies under the matrix, the title (wrapped when long) under it.
    """
    t = Text(lang)
    z = np.asarray(z, dtype=float)
    rows, cols = z.shape
    # The axes are categories named by the labels, so the hover reads them as %{y} and %{x}
    # (a per-cell array of label pairs would be copied cell by cell on every rerun).
    ylab = axis_labels(y_tokens) if y_tokens is not None else [str(i) for i in range(rows)]
    xlab = axis_labels(x_tokens) if x_tokens is not None else [str(i) for i in range(cols)]
    if show_values is None:
        show_values = cols <= VALUE_COLS and rows * cols <= 144
    show_values = show_values and cols <= 12  # narrower cells would shrink them unreadable
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
        # no size: plotly fits the numbers to the drawn cells (at most the figure's font)
        # Under the matrix: beside it, it would take a narrow column's width from the cells
        # and the labels, and the plotly toolbar (top right) would cover its top.
        colorbar=dict(orientation="h", thickness=10, len=0.7, x=0.5, xanchor="center",
                      y=0, yanchor="top", ypad=COLORBAR_GAP),
    )
    if x_tokens is not None:
        xaxis = token_axis(xlab, x_title, side="top", autotickangles=[-45, -90])
        shown = xaxis["ticktext"]
        size = label_size(len(shown)) or TICK_SIZE
        above = 0.71 * max((text_px(lab, size) for lab in shown), default=0.0)
    else:
        xaxis = dict(type="category", title=dict(text=esc(x_title)) if x_title else None,
                     side="top", ticks="")
        above = 18.0
    top = int(max(MODEBAR_PX, 12 + above + (26 if x_title else 0)))
    title_text = title_html(title) if title else ""
    lines = title_text.count("<br>") + 1 if title else 0
    lift = MULTILINE_LIFT * max(lines - 1, 0)
    bottom = COLORBAR_PX + lift + 22 * lines + 6
    plot = height - top - bottom if height else max(200, 28 * rows)
    if y_title and plot > 0:
        y_title = fitting_title(y_title, plot)
    yaxis = (
        # every row is at least 18 px tall (below): each keeps its label
        token_axis(ylab, y_title, room=len(ylab), autorange="reversed")
        if y_tokens is not None
        else dict(type="category", title=dict(text=esc(y_title)) if y_title else None,
                  autorange="reversed", ticks="")
    )
    layout = dict(
        # under the colour bar, its lines flowing down (anchored at its top)
        title=dict(text=title_text, x=0, xanchor="left", xref="container", y=0,
                   yref="paper", yanchor="top", pad=dict(t=COLORBAR_PX + lift, l=4))
        if title else None,
        xaxis=xaxis,
        yaxis=yaxis,
        font=FONT,
        margin=dict(l=10, r=10, t=top, b=bottom),
        # a caller's height, but never so low that a row gets less than 18 px
        height=int(max(height, top + bottom + 18 * rows)) if height
        else int(top + bottom + max(200, 28 * rows)),
    )
    return fast_figure([trace], layout)
