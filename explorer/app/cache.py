"""The shared compute behind every page: models and runs, kept once per process.

Caching rules (explorer/app/memo.py): a result on a shared shelf is read by every user and
never changed (bodies and models have requires_grad off and a fixed train/eval mode; a
`Run` holds read-only arrays). Per-user things (a trained or imported model) live in
`st.session_state`, never here.

Each shelf here keeps a few large results apart from many small ones, so that a handful
of paper-base models cannot fill a 2.7 GB server.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

import numpy as np

from transformer.config import TransformerConfig
from transformer.model import EncoderDecoder, sinusoid_table
from transformer.tokenize import Vocab

from ..core.runs import Run, Tokens, assemble, body_config, build_body, forward, run_bytes
from ..core.settings import estimate_params
from .memo import remember
from .shelves import BODIES, MODELS, PE_TABLES, RUNS

LARGE_PARAMS = 5_000_000  # a model above this many parameters goes to the large tier
LARGE_RUN_BYTES = 2_000_000  # a run holding more than this goes to the large tier


class _Sized(Protocol):
    N: int
    d_model: int
    d_ff: int


def is_large(cfg: _Sized) -> bool:
    """Whether a model of this size (a config, or a key with its size) is in the large tier."""
    return estimate_params(cfg.N, cfg.d_model, cfg.d_ff, 0) > LARGE_PARAMS




def pe_table(positions: int, d_model: int) -> np.ndarray:
    """The sinusoid table (positions, d_model) as a read-only numpy array."""
    def table() -> np.ndarray:
        out = sinusoid_table(positions, d_model).numpy()
        out.setflags(write=False)
        return out

    return remember(PE_TABLES, (positions, d_model), table)




def shared_body(cfg: TransformerConfig, seed: int, train_mode: bool) -> EncoderDecoder:
    """The encoder and decoder stacks of `cfg` from `seed` (any vocabulary can be added)."""
    return remember(BODIES, (cfg, seed, train_mode), lambda: build_body(cfg, seed, train_mode),
                    large=is_large(cfg))


def shared_model(cfg: TransformerConfig, seed: int, train_mode: bool,
                 vocab: Vocab) -> EncoderDecoder:
    """The shared, read-only model for this architecture, seed, mode and vocabulary."""
    def build() -> EncoderDecoder:
        body = shared_body(body_config(cfg), seed, train_mode)
        return assemble(body, cfg, seed, vocab)

    return remember(MODELS, (cfg, seed, train_mode, tuple(vocab.itos)), build,
                    large=is_large(cfg))


def shared_run(cfg: TransformerConfig, seed: int, train_mode: bool, tokens: Tokens) -> Run:
    """The read-only forward pass of `tokens`: kept and shared in eval mode only.

    With dropout on (train mode) every pass draws a new pattern, so it is never kept.
    """
    if train_mode:
        return forward(shared_model(cfg, seed, True, tokens.vocab), tokens)
    large = is_large(cfg) or run_bytes(cfg, len(tokens.src_tokens),
                                       len(tokens.tgt_tokens) + 1) > LARGE_RUN_BYTES
    return remember(RUNS, (cfg, seed, tokens.src_tokens, tokens.tgt_tokens),
                    lambda: forward(shared_model(cfg, seed, False, tokens.vocab), tokens),
                    large=large)


def checkpoint_run(name: Hashable, model: EncoderDecoder, tokens: Tokens) -> Run:
    """The read-only forward pass of `tokens` through a checkpoint's `model`, whose weights
    `name` fixes (its `content`: sessions that show the same model share the pass), kept and
    shared like `shared_run`."""
    return remember(RUNS, (name, tokens.src_tokens, tokens.tgt_tokens),
                    lambda: forward(model, tokens))
