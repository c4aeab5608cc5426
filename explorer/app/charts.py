"""Drawing a figure in the page: PNG download names and presenter-mode sizes in one place.

Pages call `ctx.chart(fig, "attention_enc_L0", key=...)` (which calls `show_chart` with the
view's model and presenter flag) instead of `st.plotly_chart`: the
plotly toolbar's camera button then saves `attention_enc_L0_tiny.png` (at twice the screen
resolution), and in presenter mode every text of the figure is enlarged for a projector.

Why presenter mode writes every font size out: Streamlit's chart theme is a plotly template
that sets the tick labels (12 px), axis titles (14 px), the title (16 px), legend and hover
labels (12 px) explicitly, so they do not follow `layout.font.size`; and the figures
themselves set some sizes (cell numbers, subplot titles, annotations). `presenter_figure`
scales the explicit ones and writes the theme's ones out, enlarged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from transformer.config import TransformerConfig

from ..core.exports import download_name
from ..core.settings import Settings
from ..figures.as_text import figure_lines
from ..text.i18n import Text, plain
from .memo import remember
from .shelves import CHART_TEXTS, SPECS

PRESENTER_FONT = 20  # base font size of figures in presenter mode (plotly's default is 12)
PRESENTER_HEIGHT = 1.3  # figure heights are scaled by this in presenter mode
PRESENTER_MIN_TICK = 18.0  # least tick label size in presenter mode (tests/test_e2e_presenter.py)
PRESENTER_SCALE_MIN = 1.2  # presenter_spec's least factor: the ones below are not presenter's
# Sizes that Streamlit's chart theme (its plotly template) gives the texts a figure leaves
# unset; a figure's own `layout.font.size` does not reach them.
THEME_SIZES = {"tick": 12, "axis_title": 14, "title": 16, "legend": 12, "hover": 12}
_AXIS = re.compile(r"^(x|y)axis\d*$")
_CARTESIAN = {"heatmap", "scatter", "bar", "contour", "histogram", "box"}
# Inline sizes inside a label: only our own markup (user text is escaped, so it has no "<").
_INLINE_SIZE = re.compile(r"(<span style='font-size:)(\d+(?:\.\d+)?)(px'>)")
# The plotly toolbar keeps the camera (a PNG named by `download_name`), zooming into a box
# and going back; panning and the zoom steps made it as wide as a phone's chart, where it
# covered the titles, tick labels and colour bars at the top.
MODEBAR_REMOVE = ["pan2d", "zoomIn2d", "zoomOut2d", "autoScale2d", "select2d", "lasso2d"]
# The toolbar's own band above every chart that has one: plotly puts it over the top right
# corner of the figure, where on a phone's narrow chart (and a half-width one on a laptop)
# it covered titles, column labels and axis titles. Its buttons work as before (mouse,
# tap, Tab key). The band is padding of the chart's element, whose height Streamlit sets to
# the figure's: padding inside the chart itself would be measured by Streamlit and taken
# from the figure's height; the plot's box must not clip the toolbar above it. (`:has`: a
# chart drawn without a toolbar, a static one, keeps no band.)
MODEBAR_BAND_PX = 30
CHART_CSS = f"""<style>
.stElementContainer:has(.stPlotlyChart .modebar-container) {{
  padding-top: {MODEBAR_BAND_PX}px; box-sizing: content-box; }}
.stElementContainer .stPlotlyChart .modebar-container {{ top: -{MODEBAR_BAND_PX}px !important; }}
.stElementContainer .stPlotlyChart .js-plotly-plot {{ overflow: visible !important; }}
</style>"""
# A figure whose `layout.meta["min_width"]` names a least width (in pixels) is drawn that
# wide, and a narrower screen scrolls it sideways: its element gets this style; with
# `layout.meta["max_width"]` it is stretched no wider than that.
MIN_WIDTH_CSS = ("<style>.st-key-{key} {{ overflow-x: auto; }} "
                 ".st-key-{key} > div {{ min-width: {width}px; }}{most}</style>")
MAX_WIDTH_CSS = " .st-key-{key} {{ max-width: {width}px; }}"
# A figure drawn two ways (show_chart's `narrow`): the element holding both is a CSS size
# container, and only the drawing that fits its width is shown (the wide one from its least
# width up, the narrow one below). Streamlit tells the server nothing of the screen's width.
FIT_CSS = ("<style>.st-key-{box} {{ container-type: inline-size; }} "
           "@container (max-width: {below}px) {{ .st-key-{wide} {{ display: none; }} }} "
           "@container (min-width: {width}px) {{ .st-key-{narrow} {{ display: none; }} }}"
           "</style>")
_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _bigger(size: float, k: float) -> float:
    """`size` scaled by `k`, to a tenth of a pixel."""
    return round(size * k, 1)


def _fill(node: dict, key: str, size: float) -> None:
    """Give node[key] (a font) the size `size` if it has none of its own."""
    font = node.get(key)
    font = dict(font) if isinstance(font, dict) else {}
    if not isinstance(font.get("size"), (int, float)):
        font["size"] = size
    node[key] = font


def _fill_title(node: dict, size: float) -> None:
    """Give a title (a string or a dict) the font size `size` if it has none of its own."""
    title = node.get("title")
    if isinstance(title, str):
        title = {"text": title}
    if isinstance(title, dict):
        title = dict(title)
        _fill(title, "font", size)
        node["title"] = title


def _scale_explicit(node: Any, k: float) -> Any:
    """A copy of `node` with every explicit `*font.size` scaled (data arrays are shared)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                value = _scale_explicit(value, k)
                if (key.endswith("font") and isinstance(value, dict)
                        and isinstance(value.get("size"), (int, float))):
                    value["size"] = _bigger(value["size"], k)
            out[key] = value
        return out
    if isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        return [_scale_explicit(v, k) for v in node]
    return node


def presenter_figure(fig: go.Figure, *, base: int = PRESENTER_FONT,
                     height_scale: float = PRESENTER_HEIGHT) -> go.Figure:
    """A copy of `fig` with every text larger, for a projector (pure; `fig` is not changed)."""
    return go.Figure(presenter_spec(fig, base=base, height_scale=height_scale),
                     _validate=False)


def presenter_spec(fig: go.Figure, *, base: int = PRESENTER_FONT,
                   height_scale: float = PRESENTER_HEIGHT) -> dict[str, Any]:
    """`presenter_figure(fig)` as a plotly dict (`data`, `layout`, `frames`).

    Every font size the figure sets (ticks, cell numbers, annotations, subplot titles,
    colour bars, legends, inline `font-size` of labels) is scaled by k = base / the
    figure's font size, and every text the Streamlit theme would size (ticks, axis titles,
    title, legend, hover labels) gets that size times k, written out. The margins, which
    hold tick labels and titles, grow by k too, and the height by `height_scale`.

    A drawing whose parts are sized to their labels (the architecture) names its own factor
    for fonts and height in `layout.meta["presenter_scale"]`: its width cannot grow with the
    text, which would leave its boxes. A figure whose rows are as tall as their labels need
    (the attention grid) sets `layout.meta["grow_with_text"]`: its height grows by k too.
    """
    size = fig.layout.font.size
    k = max(base / (size or THEME_SIZES["tick"]), PRESENTER_SCALE_MIN)
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    own = meta.get("presenter_scale")
    if isinstance(own, (int, float)) and 1 < own <= k:
        k = height_scale = float(own)
    elif meta.get("grow_with_text") is True:
        height_scale = k  # rows sized to their labels (the attention grid) keep them apart
    return sized_spec(fig, k, height_scale)


def sized_figure(fig: go.Figure, k: float = 1.0, height_scale: float = 1.0) -> go.Figure:
    """A copy of `fig` with every font size written out and scaled by `k` (pure)."""
    return go.Figure(sized_spec(fig, k, height_scale), _validate=False)


def sized_spec(fig: go.Figure, k: float = 1.0, height_scale: float = 1.0) -> dict[str, Any]:
    """`sized_figure(fig, k, height_scale)` as a plotly dict (`data`, `layout`, `frames`).

    With k = 1 (outside presenter mode) only the sizes the Streamlit theme would give are
    written out, unchanged: the theme computes them from the page's root font size, which
    presenter mode's CSS enlarges, and a chart drawn just after presenter mode is turned
    off (while that CSS is still on the page) would otherwise keep them enlarged.
    """
    spec = fig.to_dict()  # a copy: the figure may come from a cache shared by sessions
    layout = spec.get("layout", {})
    size = (layout.get("font") or {}).get("size")
    old = size if isinstance(size, (int, float)) else THEME_SIZES["tick"]
    layout = _scale_explicit(layout, k)  # also scales layout.font.size
    data = [_scale_explicit(trace, k) for trace in spec.get("data", [])]
    if not isinstance((layout.get("font") or {}).get("size"), (int, float)):
        layout["font"] = {**(layout.get("font") or {}), "size": _bigger(old, k)}
    text = layout["font"]["size"]

    axes = {key for key in layout if _AXIS.match(key)}
    for trace in data:
        if trace.get("type", "scatter") in _CARTESIAN:
            axes.add("xaxis" + str(trace.get("xaxis", "x"))[1:])
            axes.add("yaxis" + str(trace.get("yaxis", "y"))[1:])
    for key in sorted(axes):
        axis = dict(layout.get(key) or {})
        _fill(axis, "tickfont", _bigger(THEME_SIZES["tick"], k))
        if k >= PRESENTER_SCALE_MIN and axis["tickfont"]["size"] < PRESENTER_MIN_TICK:
            # labels made small to fit a phone keep a projector's least size: presenter
            # mode's charts are wide (explorer.figures.common.label_size)
            axis["tickfont"] = {**axis["tickfont"], "size": PRESENTER_MIN_TICK}
        _fill_title(axis, _bigger(THEME_SIZES["axis_title"], k))
        layout[key] = axis
    if layout.get("title"):
        _fill_title(layout, _bigger(THEME_SIZES["title"], k))
    for key, theme in (("legend", "legend"), ("hoverlabel", "hover")):
        part = dict(layout.get(key) or {})
        _fill(part, "font", _bigger(THEME_SIZES[theme], k))
        layout[key] = part
    notes = []
    for note in layout.get("annotations") or []:
        note = dict(note)
        if note.get("text"):
            _fill(note, "font", text)
            note["text"] = _INLINE_SIZE.sub(
                lambda m: f"{m[1]}{_bigger(float(m[2]), k)}{m[3]}", str(note["text"]))
        notes.append(note)
    if notes:
        layout["annotations"] = notes
    for trace in data:
        if isinstance(trace.get("colorbar"), dict):
            trace["colorbar"] = dict(trace["colorbar"])
            _fill(trace["colorbar"], "tickfont", text)
    margin = layout.get("margin")
    if isinstance(margin, dict):  # margins hold tick labels and titles
        layout["margin"] = {
            side: round(v * k) if side in ("l", "r", "t", "b") and isinstance(v, (int, float))
            else v for side, v in margin.items()}
    if isinstance(layout.get("height"), (int, float)):
        layout["height"] = int(layout["height"] * height_scale)
    # an animation's frames only change values (z), never a size
    out: dict[str, Any] = {"data": data, "layout": layout}
    if spec.get("frames"):
        out["frames"] = spec["frames"]
    return out


class _Written(go.Figure):
    """A figure already written out as a dict, for `st.plotly_chart` only.

    Streamlit reads a figure through `to_dict()`, a deep copy of every array and label.
    The dict from `sized_spec` is a fresh copy made for this one chart, so it is handed
    over as it is: building one more `go.Figure` and copying it again would take about a
    third of the Attention page's rerun with the date translator (bench/dates.py).
    `go.Figure.__init__` is not called either: it copies plotly's default template, about
    0.8 ms a chart on every run, and nothing but `to_dict()` is ever read
    (`plotly.tools.return_figure_from_figure_or_data`, bench/classroom.py).
    """

    def __init__(self, spec: dict[str, Any]) -> None:  # no super().__init__(): see above
        self._spec = spec

    def to_dict(self) -> dict[str, Any]:
        return self._spec


# The written-out specs of figures shared by sessions (show_chart's `share`), by the
# figure's name and the sizes (presenter or not).


def _shared_spec(fig: go.Figure, presenter: bool) -> dict[str, Any]:
    spec = presenter_spec(fig) if presenter else sized_spec(fig)
    for trace in spec.get("data", []):
        trace.pop("uid", None)  # plotly.io.to_json would pop it from the shared dict
    return spec


def show_chart(fig: go.Figure, name: str, model: TransformerConfig | Settings | None,
               presenter: bool, *, key: str, lang: str, where: Any = None,
               share: tuple | None = None, narrow: go.Figure | None = None,
               text: bool = True, **kwargs: Any) -> None:
    """Draw `fig` in `where` (a container or column; default the page) with a PNG file name,
    and under it the chart as text in `lang` (`figure_lines`, one click away).

    The toolbar's camera button saves `<name>_<model size>.png`, the size of `model`: the
    config of the model that runs (an imported checkpoint's, not the sidebar's); None
    leaves the size out. In `presenter` mode the figure is `presenter_figure(fig)` and the
    element's key changes (`<key>_presenter`): the browser draws a new chart at once
    instead of patching the old one, so no text keeps its old size until the page is left
    and re-entered. Otherwise it is `sized_figure(fig)`, whose sizes do not depend on the
    page's root font size. `where` may be an `st.empty()` placeholder, redrawn in a loop.
    `share`: a name that fixes `fig`, a figure shared by sessions: its written-out spec is
    then made once and read by every session's chart (nothing downstream changes it).
    `narrow`: the same drawing laid out for a narrow page (a phone), shown instead of `fig`
    where the page is narrower than `fig`'s least width (`layout.meta["min_width"]`), under
    the key `<key>_narrow`; both go in a container keyed `<key>_fit`.
    `text` False: no text under it, where the caller says the chart in text of its own
    (`chart_as_text` with sentences written for it), or where `where` is a placeholder
    that holds one element, redrawn while training (the chart drawn at the end has it).
    """
    if share is not None:
        spec = remember(SPECS, (share, presenter), lambda: _shared_spec(fig, presenter))
    elif presenter:
        spec = presenter_spec(fig)
    else:
        spec = sized_spec(fig)
    suffix = "_presenter" if presenter else ""
    config = {
        "displaylogo": False,
        "modeBarButtonsToRemove": MODEBAR_REMOVE,
        "toImageButtonOptions": {"format": "png", "scale": 2,
                                 "filename": download_name(name, model, "png")
                                 .removesuffix(".png")},
    }
    kwargs.setdefault("width", "stretch")
    if narrow is None:
        _draw(spec, f"{key}{suffix}", where or st, config, kwargs)
    else:
        small = presenter_spec(narrow) if presenter else sized_spec(narrow)
        box = (where or st).container(key=f"{key}_fit")
        css = fit_css(spec, f"{key}_fit", f"{key}{suffix}", f"{key}_narrow{suffix}")
        if css:
            st.html(css)  # only a style: Streamlit puts it where it takes no room
        _draw(spec, f"{key}{suffix}", box, config, kwargs)
        _draw(small, f"{key}_narrow{suffix}", box, config, kwargs)
    if text:
        lines = (figure_lines(spec, lang) if share is None else  # read from the drawn spec
                 remember(CHART_TEXTS, (share, lang), lambda: figure_lines(spec, lang)))
        if lines:
            chart_as_text(lines, Text(lang)("a11y.chart_as_text"), where=where)


def _draw(spec: dict[str, Any], key: str, where: Any, config: dict[str, Any],
          kwargs: dict[str, Any]) -> None:
    """One chart of a written-out figure, with its width style if it declares widths."""
    css = min_width_css(spec, key)
    if css:
        st.html(css)  # only a style: Streamlit puts it where it takes no room
    where.plotly_chart(_Written(spec), key=key, config=config, **kwargs)


def _meta_px(spec: dict[str, Any], name: str) -> int | None:
    """`layout.meta[name]`, a width in pixels, or None."""
    meta = spec.get("layout", {}).get("meta")
    width = meta.get(name) if isinstance(meta, dict) else None
    if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
        return None
    return int(width)


def min_width_css(spec: dict[str, Any], key: str) -> str | None:
    """The style that draws the chart of element `key` at least `layout.meta["min_width"]`
    pixels wide, scrolling sideways on a narrower screen, and no wider than
    `layout.meta["max_width"]` when given; None when it names no least width."""
    width = _meta_px(spec, "min_width")
    if width is None or not _KEY.match(key):
        return None
    most = _meta_px(spec, "max_width")
    return MIN_WIDTH_CSS.format(key=key, width=width, most=MAX_WIDTH_CSS.format(
        key=key, width=most) if most is not None and most >= width else "")


def fit_css(spec: dict[str, Any], box: str, wide: str, narrow: str) -> str | None:
    """The style that shows, in the container `box`, the chart `wide` (of `spec`) where the
    container is at least its least width wide and the chart `narrow` where it is less;
    None when `spec` names no least width."""
    width = _meta_px(spec, "min_width")
    if width is None or not all(_KEY.match(k) for k in (box, wide, narrow)):
        return None
    return FIT_CSS.format(box=box, wide=wide, narrow=narrow, width=width,
                          below=f"{width - 0.02:g}")


def chart_css() -> None:
    """The page's style for every chart (the toolbar's band): once a run, before the page."""
    st.html(CHART_CSS)  # only a style: Streamlit puts it where it takes no room


def chart_as_text(lines: Sequence[str], title: str, *, where: Any = None,
                  icon: str = ":material/notes:") -> None:
    """A chart's text alternative one click away: `lines` (sentences read from the chart's
    own numbers, with the learner's tokens in them) as a list in an expander titled
    `title`, each shown as written (never as markdown)."""
    with (where or st).expander(title, icon=icon):
        st.markdown("\n".join("- " + plain(line) for line in lines))
