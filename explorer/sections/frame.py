"""The frame around every page: the shared sidebar, with the progress of what trains in the
background for this learner, and the context a page reads (`context`)."""

from __future__ import annotations

import streamlit as st

from ..app.context import Context
from ..app.links import load_url_state
from ..app.page import current_context
from ..app.sidebar import render_sidebar, use_session_lang
from ..app.streamlit_internals import leave_legacy_pages
from .experiment import experiment_status_sidebar
from .train import training_status_sidebar


def draw_sidebar(following: bool = False) -> Context:
    """The shared sidebar, with a training and a "break a part" experiment going on in the
    background shown in it on every page; the context of its settings. `following`: a
    student following a class (the model's size folded)."""
    return render_sidebar(statuses=(training_status_sidebar, experiment_status_sidebar),
                          following=following)


def context() -> Context:
    """The context of this run: the entry script's, or (a page run on its own) a fresh one."""
    ctx = current_context()
    if ctx is not None:
        return ctx
    if leave_legacy_pages():
        # Streamlit starts in its legacy multipage mode because a pages/ folder exists, and
        # stays in it until the entry script calls st.navigation. A first visit straight to
        # a page URL (a shared link to /attention on a server that just woke up) would run
        # this page alone, without app.py: run again through app.py.
        st.rerun()
    # A page run without app.py (AppTest runs every page but the default one on its own, and
    # a rerun there would drop the click that caused it): draw the sidebar here.
    load_url_state()  # the link, then the language
    use_session_lang()
    return draw_sidebar()
