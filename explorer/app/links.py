"""Shareable links on the Streamlit side: read a link into the widgets, write the view back.

The mapping between settings and query parameters is pure Python, in `urlstate.py`; this
module moves its results between `st.query_params` and `st.session_state`, and draws the
sidebar's copy button and "Link to this view" box.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ..state.urlstate import EXTRAS, params_to_state, settings_to_params
from ..state.view import PAGE_CHOICES, PE_D_MODEL_RANGE, Model, page_defaults
from ..text.i18n import LANGS, get_lang, lang_of_locale, set_lang, t
from . import classroom
from . import lesson as lesson_state
from .context import Context
from .copy_link import copy_link_button
from .streamlit_internals import history_navigation

_URL_LOADED = "_url_loaded"  # set once the link's parameters were read, on the first run
_URL_NOTICES = "_url_notices"  # what the link asked for that was refused
# Whether this session's language was chosen: named by the link it opened (?lang) or picked
# in the sidebar. Else it is the browser's, and a class the learner joins may give its own.
LANG_CHOSEN = "_lang_chosen"


def load_url_state() -> None:
    """Set the view to what the address says: on a session's first run (a shared link), and
    after Back or Forward (the view that address was written for). Never raises."""
    back = history_navigation()
    if st.session_state.get(_URL_LOADED) and not back:
        return
    st.session_state[_URL_LOADED] = True
    try:
        params = {k: st.query_params.get_all(k) for k in st.query_params}
    except Exception:  # a malformed query string: ignore it, keep the defaults
        params = {}
    if not params and not back:
        return
    written_in = get_lang()
    state, notices = params_to_state(params)
    if back:  # a link leaves out what is at its default: back to the default (the
        # language's is the browser's, `view_params`)
        state = {**page_defaults(), "lang": browser_lang(), **state}
    for key, value in state.items():
        st.session_state[key] = value
    if notices and set_lang(st.session_state.get("lang")) != written_in:
        notices = params_to_state(params)[1]  # again, in the language the link asks for
    st.session_state[_URL_NOTICES] = list(notices)
    lesson_state.read_link(params)  # a lesson and its step (its view, if the link has none)


def browser_lang() -> str:
    """The language of the learner's browser (`st.context.locale`), English if unknown."""
    try:
        return lang_of_locale(st.context.locale)
    except Exception:  # no browser (a test's bare run)
        return lang_of_locale(None)


def first_lang() -> None:
    """On a session's first run, after its link was read: the browser's language, unless the
    link named one (a Chinese student who scans a class's QR code reads Chinese)."""
    if LANG_CHOSEN in st.session_state:
        return
    chosen = st.session_state.get("lang") in LANGS
    st.session_state[LANG_CHOSEN] = chosen
    if not chosen:
        st.session_state["lang"] = browser_lang()


def lang_chosen() -> bool:
    """Whether the learner's language was chosen (a link's ?lang, the sidebar's selector)."""
    return st.session_state.get(LANG_CHOSEN) is True


def mark_lang_chosen() -> None:
    """The learner picked a language: the address keeps it from now on (`view_params`)."""
    st.session_state[LANG_CHOSEN] = True


def view_params(ctx: Context) -> dict[str, str]:
    """The query parameters of what this run shows: the settings and the pages' selections.

    Computed before the page runs (widgets write a learner's change into session_state
    before the rerun starts), so a selection the page will correct is corrected here by the
    same rule: a value the shown model cannot take (a layer or head it does not have, a
    Shapes layer filter) is left out (the page shows the default), and the PE d_model and
    dimensions are corrected as the Embeddings page corrects them.
    """
    extras: dict[str, object] = {}
    for name, (key, default) in EXTRAS.items():
        value = st.session_state.get(key)
        if isinstance(value, bool) != isinstance(default, bool):
            continue  # only a toggle's value may be a bool
        if isinstance(value, (str, int, float, list, tuple)):
            extras[name] = list(value) if isinstance(value, tuple) else value
    if ctx.cfg is not None:  # e.g. a layer the shown model does not have: the page's default
        model = Model(N=ctx.cfg.N, h=ctx.cfg.h)
        for choice in PAGE_CHOICES:
            if choice.url in extras and not choice.valid(extras[choice.url], model):
                extras.pop(choice.url)
    _pe_as_shown(extras)
    extras["model"] = ctx.source  # the model shown (an unavailable choice shows "untrained")
    try:
        params = settings_to_params(ctx.settings, extras)
    except (ValueError, TypeError):
        params = settings_to_params(ctx.settings, {})
    # Without ?lang a link opens in its reader's browser language: the address names the
    # language when it is not this browser's, so a reload keeps a language picked
    lang = st.session_state.get("lang")
    if lang in LANGS and lang != browser_lang():
        params["lang"] = lang  # (in its place when settings_to_params wrote it)
    else:
        params.pop("lang", None)
    return params


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
    """Write the view into the address bar and into the sidebar's share box. The address
    also keeps this session's class (a reload rejoins it) and lesson; the shared link, only
    the view."""
    params = view_params(ctx)
    seat = classroom.seat()
    address = {**params, **lesson_state.link_params()}  # a reload keeps the lesson and its step
    if seat is not None:
        address[classroom.CLASS_PARAM] = seat.code
    current = {k: st.query_params.get_all(k) for k in st.query_params}
    if current != {k: [v] for k, v in address.items()}:  # repeated keys (?N=3&N=4) too
        st.query_params.from_dict(address)
    with share_slot.container():
        copy_link_button(t("sidebar.copy_link"), t("sidebar.copied"))
        with st.expander(t("sidebar.share"), icon=":material/link:", key="share_box"):
            st.caption(t("sidebar.share_help"))
            st.code(share_link(st.context.url or "", params), language=None, wrap_lines=True)


def take_notices() -> list[str]:
    """What the link asked for that was refused, in the learner's words, once."""
    return st.session_state.pop(_URL_NOTICES, [])
