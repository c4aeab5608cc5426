"""The page context: what every page of one script run gets from the sidebar.

`build_context` turns validated settings (and an imported checkpoint, if any) into a
`Context`: the tokens, the model's config, and a friendly reason for anything missing.
The entry script makes it current with `page_context`; a page reads it with `context()`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from streamlit import runtime
from streamlit.runtime import Runtime
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

from transformer.model import EncoderDecoder, TransformerConfig
from transformer.tokenize import EOS, SPECIALS, TokenizeError, normalize, tokenize

from .cache import shared_model, shared_run
from .charts import show_chart
from .checkpoint import LoadedCheckpoint
from .i18n import learner_message, percent, set_lang, t
from .import_panel import imported_run
from .runs import ImportedTokens, Run, Tokens, imported_tokens, make_tokens
from .settings import Settings, architecture_problem
from .sources import (
    ALIGNMENT_DATES,
    answers_dates,
    date_examples,
    dates_alignment,
    ends_sources,
    outside_dates,
    token_mode,
)

EOS_TOKEN = SPECIALS[EOS]  # "</s>": a source's end, as this app's tasks train on it
EXPLORER_MAX_LEN = 256  # positions precomputed by the live model (sentences are short)


@dataclass(frozen=True)
class Context:
    """What every page gets: validated settings, the tokens, and why anything is missing."""

    settings: Settings
    tokens: Tokens | None  # None when the text cannot be tokenized
    text_error: str | None  # friendly reason the text was refused
    cfg: TransformerConfig | None  # None when no model can be built
    arch_error: str | None  # friendly reason the architecture was refused
    loaded: LoadedCheckpoint | None = None  # the model shown, unless the sidebar's own
    presenter: bool = False  # figures drawn large, for a projector
    source: str = "untrained"  # which model is shown: a name of sources.SOURCES
    answered: bool = False  # the target is the model's own answer (the target box is blank)

    @property
    def ok(self) -> bool:
        return self.tokens is not None and self.cfg is not None

    def _require(self) -> tuple[TransformerConfig, Tokens]:
        if self.tokens is None or self.cfg is None:
            raise RuntimeError("No model for these settings: check ctx.ok / show_problems first.")
        return self.cfg, self.tokens

    def model(self) -> EncoderDecoder:
        """The live model (cached, shared: read it, never change it)."""
        cfg, tokens = self._require()
        if self.loaded is not None:
            return self.loaded.model
        return shared_model(cfg, self.settings.seed, self.settings.train_mode, tokens.vocab)

    def run(self) -> Run:
        """The learner's sentence through the live model (cached, shared, read-only)."""
        cfg, tokens = self._require()
        if self.loaded is not None:
            return imported_run(self.loaded, tokens)
        return shared_run(cfg, self.settings.seed, self.settings.train_mode, tokens)

    def chart(self, fig: go.Figure, name: str, *, key: str, where: Any = None,
              **kwargs: Any) -> None:
        """Draw `fig` in this view (presenter sizes, PNG file named after `name` and the size
        of the model that runs, or of the sidebar's settings when none can be built)."""
        model = self.cfg if self.cfg is not None else self.settings
        show_chart(fig, name, model, self.presenter, key=key, where=where, **kwargs)


def build_context(settings: Settings, loaded: LoadedCheckpoint | None = None,
                  presenter: bool = False, source: str = "untrained",
                  answer: Callable[[tuple[str, ...]], tuple[str, ...]] | None = None
                  ) -> Context:
    """Tokenize and check the architecture; never raises.

    `loaded`: the model of a source other than the sidebar's (read in its own vocabulary).
    `answer(src_tokens)`: the model's answer, used as the target when the target box is
    blank (for models trained on a task, whose answer is what their attention explains).
    """
    mode = settings.token_mode if loaded is None else token_mode(loaded, settings.token_mode)
    try:
        tokens: Tokens | None = make_tokens(settings.source, settings.target, mode)
        text_error = None
    except TokenizeError as exc:
        tokens, text_error = None, _text_problem(exc, settings.source, mode)
    if loaded is None:
        vocab_size = len(tokens.vocab) if tokens is not None else 8
        arch_error = architecture_problem(settings, vocab_size)
        cfg = None
        if arch_error is None:
            cfg = replace(settings.model_config(vocab_size), max_len=EXPLORER_MAX_LEN)
        return Context(settings, tokens, text_error, cfg, arch_error, None, presenter)
    answered = False
    if tokens is not None:
        src = (*tokens.src_tokens, EOS_TOKEN) if ends_sources(loaded) else tokens.src_tokens
        tgt = tokens.tgt_tokens
        if answer is not None and not normalize(settings.target):
            try:
                tgt, answered = answer(src), True
            except (RuntimeError, ValueError, IndexError):  # e.g. longer than the PE table
                answered = False
        tokens = Tokens(src, tgt, tokens.vocab)
        specials = loaded.special_ids("tgt")
        tokens = imported_tokens(tokens, loaded.src_vocab, loaded.tgt_vocab, specials,
                                 loaded.special_ids("src").get("unk"), loaded.start_id())
        longest = max(len(tokens.src_tokens), len(tokens.tgt_in_tokens))
        if longest > loaded.config.max_len:  # a table that is not the formula's
            tokens, text_error = None, t("problems.longer_than_model", n=longest,
                                         max_len=loaded.config.max_len)
    return Context(settings, tokens, text_error, loaded.config, None, loaded, presenter,
                   source, answered)


def _text_problem(exc: TokenizeError, source: str, mode: str) -> str:
    """Why the text was refused, in the learner's language, naming the sentence at fault.

    `make_tokens` wraps the tokenizer's error (in English, "Source sentence: ...") and keeps
    it as the cause; which of the two texts was refused is found by reading the source again.
    """
    cause = exc.__cause__
    if not isinstance(cause, TokenizeError) or not cause.key:
        return learner_message(exc)
    try:
        tokenize(source, mode)
    except TokenizeError:
        which = "problems.source_sentence"
    else:
        which = "problems.target_sentence"
    return t(which, reason=learner_message(cause))


_CURRENT: contextvars.ContextVar[Context | None] = contextvars.ContextVar("page_context",
                                                                          default=None)


@contextmanager
def page_context(ctx: Context) -> Iterator[Context]:
    """Make `ctx` what `context()` returns while the page runs (the entry script uses this)."""
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


def context() -> Context:
    """The context of this run: the entry script's, or (a page run on its own) a fresh one."""
    ctx = _CURRENT.get()
    if ctx is not None:
        return ctx
    if PagesManager.uses_pages_directory and _real_server():
        # Streamlit starts in its legacy multipage mode because a pages/ folder exists, and
        # stays in it until the entry script calls st.navigation. A first visit straight to
        # a page URL (a shared link to /attention on a server that just woke up) would run
        # this page alone, without app.py. Leave legacy mode and run again through app.py.
        PagesManager.uses_pages_directory = False
        st.rerun()
    # A page run without app.py (AppTest runs a page file on its own): draw the sidebar here.
    # Imported late: the sidebar builds contexts, so it imports this module.
    from .links import load_url_state
    from .sidebar import render_sidebar

    load_url_state()  # the link, then the language
    set_lang(st.session_state.get("lang"))
    return render_sidebar()


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


def session_disconnected() -> bool:
    """True when this run's browser tab has gone (closed, or lost its connection).

    Streamlit keeps running a script whose client left; a long loop (training) asks this
    to stop early instead of holding a shared core for nobody. Cheap: a dict lookup.
    """
    if not _real_server():
        return False
    run_ctx = get_script_run_ctx()
    return run_ctx is not None and not runtime.get_instance().is_active_session(
        run_ctx.session_id)


def _real_server() -> bool:
    """True under `streamlit run`; False under AppTest, which has its own page routing."""
    return runtime.exists() and type(runtime.get_instance()) is Runtime


def _use_example() -> None:
    """An example pill was clicked: it becomes the source, and the target the model's answer."""
    example = st.session_state.get("date_example")
    if example in date_examples():  # one of ours, never a value a client made up
        st.session_state["source"] = example
        st.session_state["target"] = ""
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
