"""The Model page's first look at trained attention: the date translator on a date the
learner can edit, before anything is trained (the sidebar's model is untrained)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from transformer import dates as D
from transformer.hook_paths import attention_hook
from transformer.tokenize import EOS, SPECIALS

from ..app.context import Context, build_context
from ..app.memo import remember
from ..app.page import warn_date_check
from ..app.shelves import PREVIEWS
from ..app.sidebar import show_sentence
from ..app.sources import DateCheck, check_date_answer, date_example, shipped_answer, shipped_dates
from ..core.runs import forward
from ..core.settings import Settings
from ..figures.model import date_preview_figure
from ..text.i18n import get_lang, t

PREVIEW_KEY = "preview_date"  # the preview's own text box (not the sidebar's sentence)
MAX_PREVIEW_CHARS = 60  # dates are short; the box's limit, checked again here


@dataclass(frozen=True)
class DatePreview:
    """The date translator on one text: what the Model page's preview draws."""

    src_tokens: tuple[str, ...]  # the date's characters and </s> (unknown ones as <unk>)
    out_tokens: tuple[str, ...]  # the decoder's input: <s> and the model's answer
    answer: str  # the answer as text
    check: DateCheck  # whether the text is a date as trained, and the answer right
    layer: int  # the decoder layer drawn (the one the alignment sentence names)
    weights: np.ndarray  # (len(out_tokens), len(src_tokens)) cross-attention, heads averaged




def date_preview(text: str) -> DatePreview | None:
    """The shipped model's answer to `text` and its cross-attention; None if the text cannot
    be read (empty, too long). Shared: the same text gives the same preview to everyone."""
    return remember(PREVIEWS, text, lambda: _preview(text))


def _preview(text: str) -> DatePreview | None:
    loaded = shipped_dates()
    ctx = build_context(Settings(source=text, target=""), loaded, source="dates",
                        answer=shipped_answer)
    if ctx.tokens is None or not ctx.answered:
        return None
    layer = int(loaded.meta.get("alignment_layer", 0))  # measured by tools/train_dates.py
    cache = forward(loaded.model, ctx.tokens).cache
    weights = cache[attention_hook("decoder", layer, "src_attn", "hook_pattern")][0]
    src, answer = tuple(ctx.tokens.src_tokens), "".join(ctx.tokens.tgt_tokens)
    typed = src[:-1] if src[-1:] == (SPECIALS[EOS],) else src
    unknown = any(i == ctx.tokens.src_unk for i in ctx.tokens.src_ids)
    mean = weights.mean(axis=0)
    mean.setflags(write=False)  # shared by every session that previews this text
    return DatePreview(src, tuple(ctx.tokens.tgt_in_tokens), answer,
                       check_date_answer(typed, answer, unknown), layer, mean)


def _show_everywhere() -> None:
    """The preview's date becomes the sidebar's sentence, on the date translator."""
    text = st.session_state.get(PREVIEW_KEY)
    if isinstance(text, str) and len(text) <= MAX_PREVIEW_CHARS:
        show_sentence(text, model="dates")


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
            warn_date_check(preview.check)
            ctx.chart(date_preview_figure(preview.weights, preview.out_tokens,
                                          preview.src_tokens,
                                          t("preview.figure_title", layer=preview.layer),
                                          lang=get_lang()),
                      "dates_preview", key="preview_chart")
        if st.button(t("preview.everywhere"), on_click=_show_everywhere, type="primary",
                     icon=":material/visibility:", key="preview_open"):
            st.switch_page("pages/attention.py")
