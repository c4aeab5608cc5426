"""The page context: what every page of one script run gets from the sidebar.

`build_context` turns validated settings (and an imported checkpoint, if any) into a
`Context`: the tokens, the model's config, and a friendly reason for anything missing.
The entry script makes it current with `page_context`; a page reads it with `context()`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
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
from transformer.tokenize import TokenizeError

from .cache import shared_model, shared_run
from .charts import show_chart
from .checkpoint import LoadedCheckpoint
from .i18n import set_lang, t
from .import_panel import imported_run
from .runs import Run, Tokens, imported_tokens, make_tokens
from .settings import Settings, architecture_problem

EXPLORER_MAX_LEN = 256  # positions precomputed by the live model (sentences are short)


@dataclass(frozen=True)
class Context:
    """What every page gets: validated settings, the tokens, and why anything is missing."""

    settings: Settings
    tokens: Tokens | None  # None when the text cannot be tokenized
    text_error: str | None  # friendly reason the text was refused
    cfg: TransformerConfig | None  # None when no model can be built
    arch_error: str | None  # friendly reason the architecture was refused
    imported: LoadedCheckpoint | None = None  # this session's uploaded model, if any
    presenter: bool = False  # figures drawn large, for a projector

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
        if self.imported is not None:
            return self.imported.model
        return shared_model(cfg, self.settings.seed, self.settings.train_mode, tokens.vocab)

    def run(self) -> Run:
        """The learner's sentence through the live model (cached, shared, read-only)."""
        cfg, tokens = self._require()
        if self.imported is not None:
            return imported_run(self.imported, tokens)
        return shared_run(cfg, self.settings.seed, self.settings.train_mode, tokens)

    def chart(self, fig: go.Figure, name: str, *, key: str, where: Any = None,
              **kwargs: Any) -> None:
        """Draw `fig` in this view (presenter sizes, PNG file named after `name` and the size)."""
        show_chart(fig, name, self.settings, self.presenter, key=key, where=where, **kwargs)


def build_context(settings: Settings, imported: LoadedCheckpoint | None = None,
                  presenter: bool = False) -> Context:
    """Tokenize and check the architecture; never raises."""
    try:
        tokens: Tokens | None = make_tokens(settings.source, settings.target, settings.token_mode)
        text_error = None
    except TokenizeError as exc:
        tokens, text_error = None, str(exc)
    if imported is not None:
        if tokens is not None:
            specials = imported.special_ids("tgt")
            tokens = imported_tokens(tokens, imported.src_vocab, imported.tgt_vocab, specials,
                                     imported.special_ids("src").get("unk"))
            longest = max(len(tokens.src_tokens), len(tokens.tgt_in_tokens))
            if longest > imported.config.max_len:  # a table that is not the formula's
                tokens, text_error = None, t("problems.longer_than_model", n=longest,
                                             max_len=imported.config.max_len)
        return Context(settings, tokens, text_error, imported.config, None, imported, presenter)
    vocab_size = len(tokens.vocab) if tokens is not None else 8
    arch_error = architecture_problem(settings, vocab_size)
    cfg = None
    if arch_error is None:
        cfg = replace(settings.model_config(vocab_size), max_len=EXPLORER_MAX_LEN)
    return Context(settings, tokens, text_error, cfg, arch_error, None, presenter)


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
