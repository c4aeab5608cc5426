"""The shared compute behind every page: models and runs, cached once per process.

Caching rules: an object returned from `st.cache_resource` is shared by every user and is
never changed (bodies and models have requires_grad off and a fixed train/eval mode; a
`Run` holds read-only arrays). Per-user things (a trained or imported model) live in
`st.session_state`, never here.

Every cache has two tiers (`tiered`): many entries for small objects, a few for large
ones, so that a handful of paper-base models cannot fill a 2.7 GB server.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, Protocol, TypeVar

import numpy as np
import streamlit as st

from transformer.config import TransformerConfig
from transformer.model import EncoderDecoder, sinusoid_table
from transformer.tokenize import Vocab

from ..core.runs import Run, Tokens, assemble, body_config, build_body, forward, run_bytes
from ..core.settings import estimate_params
from ..text.i18n import t

LARGE_PARAMS = 5_000_000  # a model above this many parameters goes to the large tier
LARGE_RUN_BYTES = 2_000_000  # a run holding more than this goes to the large tier

F = TypeVar("F", bound=Callable[..., Any])


class _Sized(Protocol):
    N: int
    d_model: int
    d_ff: int


def is_large(cfg: _Sized) -> bool:
    """Whether a model of this size (a config, or a key with its size) is in the large tier."""
    return estimate_params(cfg.N, cfg.d_model, cfg.d_ff, 0) > LARGE_PARAMS


def tiered(small: int, large: int, is_big: Callable[..., bool],
           spinner: str | None = None) -> Callable[[F], F]:
    """Cache a function with `st.cache_resource` in two tiers of `small` and `large` entries.

    `is_big(*args)` picks the tier of a call. On the large tier the call shows `spinner`
    (a text key, drawn in the learner's language; st.spinner appears only after 0.5 s, so
    only on a slow cache miss). `f.clear()` empties both tiers.
    """

    def wrap(fn: F) -> F:
        tiers = []
        for name, entries in (("small", small), ("large", large)):
            # Streamlit keys a cache by the function's module, qualified name and source:
            # a copy with its own qualified name gets a cache of its own.
            copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                                      fn.__defaults__, fn.__closure__)
            copy.__qualname__ = f"{fn.__qualname__}[{name}]"
            copy.__module__, copy.__doc__ = fn.__module__, fn.__doc__
            tiers.append(st.cache_resource(max_entries=entries, show_spinner=False)(copy))

        @functools.wraps(fn)
        def call(*args: Any) -> Any:
            big = is_big(*args)
            with st.spinner(t(spinner)) if big and spinner else nullcontext():
                return tiers[big](*args)

        call.clear = lambda: [tier.clear() for tier in tiers]  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap


@st.cache_data(max_entries=32, show_spinner=False)
def pe_table(positions: int, d_model: int) -> np.ndarray:
    """The sinusoid table (positions, d_model) as numpy; st.cache_data hands out copies."""
    return sinusoid_table(positions, d_model).numpy()


@tiered(small=16, large=2, is_big=lambda cfg, seed, train_mode: is_large(cfg))
def shared_body(cfg: TransformerConfig, seed: int, train_mode: bool) -> EncoderDecoder:
    """The encoder and decoder stacks of `cfg` from `seed` (any vocabulary can be added)."""
    return build_body(cfg, seed, train_mode)


@tiered(small=64, large=4, is_big=lambda cfg, *_: is_large(cfg))
def _shared_model(cfg: TransformerConfig, seed: int, train_mode: bool,
                  itos: tuple[str, ...]) -> EncoderDecoder:
    body = shared_body(body_config(cfg), seed, train_mode)
    return assemble(body, cfg, seed, Vocab(list(itos)))


def shared_model(cfg: TransformerConfig, seed: int, train_mode: bool,
                 vocab: Vocab) -> EncoderDecoder:
    """The shared, read-only model for this architecture, seed, mode and vocabulary."""
    return _shared_model(cfg, seed, train_mode, tuple(vocab.itos))


def _run_is_big(cfg: TransformerConfig, seed: int, src: tuple[str, ...],
                tgt: tuple[str, ...], _tokens: Tokens) -> bool:
    return is_large(cfg) or run_bytes(cfg, len(src), len(tgt) + 1) > LARGE_RUN_BYTES


# The cache key is (cfg, seed, source tokens, target tokens); `_tokens` (not hashed: its
# name starts with "_") is the same text as an object.
@tiered(small=128, large=6, is_big=_run_is_big, spinner="ui.running_sentence")
def _shared_run(cfg: TransformerConfig, seed: int, src: tuple[str, ...], tgt: tuple[str, ...],
                _tokens: Tokens) -> Run:
    return forward(shared_model(cfg, seed, False, _tokens.vocab), _tokens)


def shared_run(cfg: TransformerConfig, seed: int, train_mode: bool, tokens: Tokens) -> Run:
    """The read-only forward pass of `tokens`: cached and shared in eval mode only.

    With dropout on (train mode) every pass draws a new pattern, so it is never cached.
    """
    if train_mode:
        return forward(shared_model(cfg, seed, True, tokens.vocab), tokens)
    return _shared_run(cfg, seed, tokens.src_tokens, tokens.tgt_tokens, tokens)
