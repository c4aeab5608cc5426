"""Shareable links on the Streamlit side: read a link into the widgets, write the view back.

The mapping between settings and query parameters is pure Python, in `urlstate.py`; this
module moves its results between `st.query_params` and `st.session_state`, and draws the
sidebar's copy button and "Link to this view" box.
"""

from __future__ import annotations

import html
import json
from urllib.parse import quote, urlencode

import streamlit as st
import streamlit.components.v1 as components
from streamlit.delta_generator import DeltaGenerator

from .context import Context
from .i18n import get_lang, set_lang, t
from .urlstate import (
    EXTRAS,
    PE_D_MODEL_RANGE,
    params_to_state,
    settings_to_params,
    shape_layers,
)

_URL_LOADED = "_url_loaded"  # set once the link's parameters were read, on the first run
URL_NOTICES = "_url_notices"  # what the link asked for that was refused


def load_url_state() -> None:
    """On a session's first run, set the widgets to what the link says (never raises)."""
    if st.session_state.get(_URL_LOADED):
        return
    st.session_state[_URL_LOADED] = True
    try:
        params = {k: st.query_params.get_all(k) for k in st.query_params}
    except Exception:  # a malformed query string: ignore it, keep the defaults
        params = {}
    if not params:
        return
    written_in = get_lang()
    state, notices = params_to_state(params)
    for key, value in state.items():
        st.session_state[key] = value
    if notices and set_lang(st.session_state.get("lang")) != written_in:
        notices = params_to_state(params)[1]  # again, in the language the link asks for
    st.session_state[URL_NOTICES] = list(notices)


def view_params(ctx: Context) -> dict[str, str]:
    """The query parameters of what this run shows: the settings and the pages' selections.

    Computed before the page runs (widgets write a learner's change into session_state
    before the rerun starts), so a selection the page will correct is corrected here by the
    same rule: a layer or head (Attention) or a layer filter (Shapes) the shown model does
    not have is left out (the page shows the default), and the PE d_model and dimensions
    are corrected as the Embeddings page corrects them.
    """
    extras: dict[str, object] = {}
    for name, (key, default) in EXTRAS.items():
        value = st.session_state.get(key)
        if isinstance(value, bool) != isinstance(default, bool):
            continue  # only a toggle's value may be a bool
        if isinstance(value, (str, int, float, list, tuple)):
            extras[name] = list(value) if isinstance(value, tuple) else value
    if ctx.cfg is not None:
        for name, limit in (("layer", ctx.cfg.N), ("head", ctx.cfg.h)):
            if not (isinstance(extras.get(name), int) and 0 <= extras[name] < limit):
                extras.pop(name, None)
        if extras.get("sl") not in shape_layers(ctx.cfg.N):
            extras.pop("sl", None)  # the Shapes page falls back to "all"
    _pe_as_shown(extras)
    extras["model"] = ctx.source  # the model shown (an unavailable choice shows "untrained")
    try:
        return settings_to_params(ctx.settings, extras)
    except (ValueError, TypeError):
        return settings_to_params(ctx.settings, {})


def _pe_as_shown(extras: dict[str, object]) -> None:
    """Correct `ped` and `dims` in `extras` as the Embeddings page corrects its widgets.

    An odd d_model is rounded up (within the input's range); dimensions that d_model does
    not have are dropped, and if none is left the page shows its default ones for d_model.
    """
    ped = extras.get("ped")
    if isinstance(ped, int) and not isinstance(ped, bool):
        extras["ped"] = min(max(ped + ped % 2, PE_D_MODEL_RANGE[0]), PE_D_MODEL_RANGE[1])
    else:
        extras.pop("ped", None)  # not a number the input could show
    d_model = extras.get("ped", EXTRAS["ped"][1])
    dims = extras.get("dims")
    if not isinstance(d_model, int) or not isinstance(dims, list):
        return
    kept = [d for d in dims if isinstance(d, int) and not isinstance(d, bool) and 0 <= d < d_model]
    if kept != dims:
        default = EXTRAS["dims"][1]  # the Embeddings page's default dimensions
        extras["dims"] = kept or [d for d in default if d < d_model] or [0, 1]  # type: ignore[attr-defined]


def share_link(base: str, params: dict[str, str]) -> str:
    """The address of this view: the page's address `base` plus `params`."""
    query = urlencode(params, quote_via=quote)
    return f"{base}?{query}" if query else base


def publish_view(ctx: Context, share_slot: DeltaGenerator) -> None:
    """Write the view into the address bar and into the sidebar's share box."""
    params = view_params(ctx)
    current = {k: st.query_params.get(k) for k in st.query_params}
    if current != params:
        st.query_params.from_dict(params)
    with share_slot.container():
        # components.html, though Streamlit marks it deprecated. st.iframe was tried once and
        # a browser step that opens a sidebar selectbox failed with it; the same failure came
        # back with components.html (a scroll closing the list, handled in
        # tools/screenshots.choose), so st.iframe is untested rather than known to break.
        components.html(_copy_link_html(t("sidebar.copy_link"), t("sidebar.copied")),
                        height=40)
        with st.expander(t("sidebar.share"), icon=":material/link:"):
            st.caption(t("sidebar.share_help"))
            st.code(share_link(st.context.url or "", params), language=None, wrap_lines=True)


# One click copies the address bar: the browser's own URL, read when the button is pressed,
# so the page's HTML holds no learner text (only the two labels, JSON-escaped constants).
_COPY_LINK = """<style>body { margin: 0; }</style>
<button id="b" style="width:100%;height:38px;border-radius:8px;cursor:pointer;
border:1px solid rgba(49,51,63,0.2);background:#fff;color:rgb(49,51,63);font:14px
'Source Sans 3','Source Sans Pro',system-ui,sans-serif">__LABEL__</button>
<script>
const b = document.getElementById("b"), label = __LABEL_JS__, done = __DONE_JS__;
b.onclick = async () => {
  try { await navigator.clipboard.writeText(window.parent.location.href); b.textContent = done; }
  catch (e) { b.textContent = label; }
  setTimeout(() => { b.textContent = label; }, 2000);
};
</script>"""


def _copy_link_html(label: str, done: str) -> str:
    """The copy button's page: `label` and `done` are the app's own texts."""
    return (_COPY_LINK.replace("__LABEL_JS__", json.dumps(label))
            .replace("__DONE_JS__", json.dumps(done))
            .replace("__LABEL__", html.escape(label)))
