"""The page context: what every page of one script run gets from the sidebar.

`build_context` turns validated settings (and an imported checkpoint, if any) into a
`Context`: the tokens, the model's config, and a friendly reason for anything missing.
The entry script makes it current with `page.page_frame`; a page reads it with
`page.context()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import plotly.graph_objects as go

from transformer.config import TransformerConfig
from transformer.model import EncoderDecoder
from transformer.tokenize import EOS, SPECIALS, TokenizeError, normalize, tokenize

from ..core.checkpoint import LoadedCheckpoint
from ..core.runs import Run, Tokens, imported_tokens, make_tokens
from ..core.settings import Settings, architecture_problem
from ..text.i18n import get_lang, learner_message, t
from .cache import checkpoint_run, shared_model, shared_run
from .charts import show_chart
from .import_panel import imported_run
from .memo import remember
from .shelves import SHARED_RESULTS
from .sources import (
    ends_sources,
    token_mode,
)

T = TypeVar("T")

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
        if self.loaded is not None and self.loaded.content is not None:  # any session's
            return checkpoint_run(self.loaded.content, self.loaded.model, tokens)
        if self.loaded is not None:
            return imported_run(self.loaded, tokens)
        return shared_run(cfg, self.settings.seed, self.settings.train_mode, tokens)

    def model_name(self) -> tuple | None:
        """What fixes the weights of the model shown (in eval mode), the same for every
        session that shows it: the sidebar's untrained model (its config and seed), else
        the checkpoint's `content` (the shipped translator's or an upload's file, a
        training's content_id); None for a checkpoint whose content is not known."""
        cfg, _ = self._require()
        if self.loaded is None:
            return ("untrained", cfg, self.settings.seed)
        return self.loaded.content

    def run_name(self) -> tuple | None:
        """What fixes `run()` when every session reads the same one (`model_name` and the
        tokens), or None when the run is this session's own or drawn afresh (dropout on)."""
        _, tokens = self._require()
        model = self.model_name()
        if model is None or (self.loaded is None and self.settings.train_mode):
            return None
        return (*model, tokens.src_tokens, tokens.tgt_tokens)

    def from_run(self, parts: tuple, build: Callable[[], T]) -> tuple[T, tuple | None]:
        """`build()`, a result computed from the run (a figure, figures, numbers), and the name
        it is shared by: made once for every session when the run is shared (`run_name`),
        else here and unnamed. `parts` names everything else it depends on, the language
        included when it holds text."""
        run = self.run_name()
        if run is None:
            return build(), None
        name = ("run", run, *parts)
        return remember(SHARED_RESULTS, name, build), name

    @staticmethod
    def fixed(parts: tuple, build: Callable[[], T]) -> tuple[T, tuple]:
        """`build()`, a result fixed by `parts` alone (a page's worked example, a figure of
        the sentence's tokens), made once for every session, and the name it is shared by.
        `parts` starts with the page's name and holds the language when the result holds
        text."""
        name = ("fixed", *parts)
        return remember(SHARED_RESULTS, name, build), name

    def chart(self, fig: go.Figure, name: str, *, key: str, where: Any = None,
              **kwargs: Any) -> None:
        """Draw `fig` in this view (presenter sizes, PNG file named after `name` and the size
        of the model that runs, or of the sidebar's settings when none can be built)."""
        model = self.cfg if self.cfg is not None else self.settings
        show_chart(fig, name, model, self.presenter, key=key, lang=get_lang(), where=where,
                   **kwargs)


def build_context(settings: Settings, loaded: LoadedCheckpoint | None = None,
                  presenter: bool = False, source: str = "untrained",
                  answer: Callable[[tuple[str, ...]], tuple[str, ...]] | None = None,
                  wrap: bool = False) -> Context:
    """Tokenize and check the architecture; never raises.

    `loaded`: the model of a source other than the sidebar's (read in its own vocabulary).
    `answer(src_tokens)`: the model's answer, used as the target when the target box is
    blank (for models trained on a task, whose answer is what their attention explains).
    `wrap`: the source goes between `loaded`'s start and end tokens, as The Annotated
    Transformer's data gives it (`LoadedCheckpoint.source_marks`).
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
        marks = loaded.source_marks() if wrap else None
        if marks is not None:
            src = (marks[0], *src, marks[1])
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
