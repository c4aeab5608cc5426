"""A page's frame: the context of this run (`page_context`, `current_context`), the friendly
errors a page shows when its text or model is refused, and the notes that say which model
a page shows."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from ..core.runs import ImportedTokens
from ..text.i18n import percent, t
from .context import EOS_TOKEN, Context
from .sidebar import show_sentence
from .sources import (
    ALIGNMENT_DATES,
    answers_dates,
    date_examples,
    dates_alignment,
    outside_dates,
    token_mode,
)

_CURRENT: contextvars.ContextVar[Context | None] = contextvars.ContextVar("page_context",
                                                                          default=None)


@contextmanager
def page_context(ctx: Context) -> Iterator[Context]:
    """Make `ctx` this run's context while the page runs (the entry script uses this)."""
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


def current_context() -> Context | None:
    """The context app.py made current for this run, or None for a page run on its own."""
    return _CURRENT.get()


def show_problems(ctx: Context, need_text: bool = True, need_model: bool = True) -> bool:
    """Show friendly errors for what this page needs; True if the page can go on."""
    ok = True
    if need_text and ctx.text_error:
        st.error(t("problems.text", reason=ctx.text_error),
                 icon=":material/edit_note:")
        ok = False
    if need_model and ctx.arch_error:
        st.error(t("problems.arch", reason=ctx.arch_error),
                 icon=":material/construction:")
        ok = False
    return ok


def _use_example() -> None:
    """An example pill was clicked: it becomes the source, and the target the model's answer."""
    example = st.session_state.get("date_example")
    if example in date_examples():  # one of ours, never a value a client made up
        show_sentence(example)
    st.session_state["date_example"] = None


def show_source_notes(ctx: Context) -> None:
    """Say which model the page shows, what the decoder reads, and whether the input is of
    the kind the model was trained on."""
    loaded = ctx.loaded
    if loaded is None:
        st.info(t("attn.random_weights", seed=ctx.settings.seed), icon=":material/casino:")
        return
    meta = loaded.meta
    if ctx.source == "dates":
        st.info(t("source.dates_weights", steps=meta.get("steps", "?"),
                  accuracy=percent(float(meta.get("held_out_exact", 0.0))),
                  n=meta.get("held_out_n", "?")), icon=":material/calendar_month:")
        st.caption(t("source.dates_scope"))
        st.pills(t("source.examples"), date_examples(), key="date_example",
                 on_change=_use_example)
        align = dates_alignment()
        st.markdown(t("source.alignment", n=ALIGNMENT_DATES, layer=align.layer,
                      **{k: percent(align.shares[k])
                         for k in ("year", "month", "day", "month_word")}))
    elif ctx.source == "yours":
        st.info(t("source.yours_weights", task=t(f"train.task_{meta.get('task', 'copy')}"),
                  steps=meta.get("steps", "?")), icon=":material/model_training:")
    else:
        st.info(t("attn.checkpoint_weights"), icon=":material/upload_file:")
    tokens = ctx.tokens
    if tokens is None or not isinstance(tokens, ImportedTokens):
        return
    unknown = sum(i == tokens.src_unk for i in tokens.src_ids)
    if unknown:
        st.caption(t("source.unknown", n=unknown))
    if not ctx.answered:
        return
    joiner = "" if token_mode(loaded, ctx.settings.token_mode) == "char" else " "
    answer = joiner.join(tokens.tgt_tokens)
    st.markdown(t("source.answer", answer=answer) if answer else t("source.no_answer"))
    if answers_dates(ctx.source, meta):
        raw = tokens.src_tokens
        raw = raw[:-1] if raw[-1:] == (EOS_TOKEN,) else raw  # the source as typed
        if outside_dates(raw, answer, bool(unknown)):
            st.warning(t("source.dates_outside"), icon=":material/help:")
