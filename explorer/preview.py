"""The Model page's first look at trained attention: the date translator on a date the
learner can edit, before anything is trained (the sidebar's model is untrained)."""

from __future__ import annotations

import streamlit as st

from transformer import dates as D

from .context import Context
from .figures.model import date_preview_figure
from .i18n import t
from .sources import SOURCE_KEY, date_example, date_preview

PREVIEW_KEY = "preview_date"  # the preview's own text box (not the sidebar's sentence)
MAX_PREVIEW_CHARS = 60  # dates are short; the box's limit, checked again here


def _show_everywhere() -> None:
    """The preview's date becomes the sidebar's sentence, on the date translator."""
    text = st.session_state.get(PREVIEW_KEY)
    if isinstance(text, str) and len(text) <= MAX_PREVIEW_CHARS:
        st.session_state["source"] = text
        st.session_state["target"] = ""
        st.session_state[SOURCE_KEY] = "dates"


def show_date_preview(ctx: Context) -> None:
    """A bordered box: a date, the trained model's answer and its cross-attention."""
    if ctx.source != "untrained":
        return  # the pages already show a trained or imported model
    st.session_state.setdefault(PREVIEW_KEY, date_example(0))
    with st.container(border=True):
        st.markdown(t("preview.title", languages=len(D.LANGUAGES)))
        text = st.text_input(t("preview.input"), key=PREVIEW_KEY, max_chars=MAX_PREVIEW_CHARS)
        preview = (date_preview(text) if isinstance(text, str)
                   and len(text) <= MAX_PREVIEW_CHARS else None)
        if preview is None:
            st.caption(t("preview.unreadable", n=MAX_PREVIEW_CHARS))
        else:
            st.markdown(t("preview.answer", answer=preview.answer, layer=preview.layer))
            if preview.outside:
                st.warning(t("source.dates_outside"), icon=":material/help:")
            ctx.chart(date_preview_figure(preview.weights, preview.out_tokens,
                                          preview.src_tokens,
                                          t("preview.figure_title", layer=preview.layer)),
                      "dates_preview", key="preview_chart")
        if st.button(t("preview.everywhere"), on_click=_show_everywhere, type="primary",
                     icon=":material/visibility:", key="preview_open"):
            st.switch_page("pages/attention.py")
