"""Decoding with a trained (or untrained) model, step by step, and its attention.

Pure Python and torch. The model is only read (it may be shared): every function here
refuses a model in train mode instead of switching its mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from transformer.model import (
    AttentionModule,
    EncoderDecoder,
    Stack,
    attention_hook,
    subsequent_mask,
)
from transformer.tasks import Task
from transformer.tokenize import BOS, PAD
from transformer.train import DecodeStep, decode_steps

from .checkpoint import LoadedCheckpoint
from .i18n import t
from .train_task import answer


@dataclass(frozen=True)
class DecodeView:
    """One decoder step: what it read, what it predicts, and its attention weights."""

    prefix: tuple[str, ...]  # decoder input: <s> y1 .. y(k-1)
    probs: np.ndarray  # (V,) next-token probabilities
    next_token: str
    self_attn: np.ndarray  # (N, h, k, k) decoder self-attention of the prefix
    cross_attn: np.ndarray  # (N, h, k, src_len)

    def attention(self, layer: int, head: int | None) -> tuple[np.ndarray, np.ndarray]:
        """(self, cross) attention of one layer: one head's, or the mean of all (head None)."""
        if head is None:
            return self.self_attn[layer].mean(0), self.cross_attn[layer].mean(0)
        return self.self_attn[layer, head], self.cross_attn[layer, head]


@dataclass(frozen=True)
class Decoding:
    """Greedy decoding of one input, step by step."""

    src: tuple[str, ...]  # what the encoder read: the input, then </s>
    itos: tuple[str, ...]
    steps: tuple[DecodeView, ...]
    enc_attn: np.ndarray  # (N, h, src_len, src_len)

    @property
    def output(self) -> tuple[str, ...]:
        """Every token produced, up to and including </s> if it came."""
        return tuple(s.next_token for s in self.steps)


def source_tokens(tokens: Sequence[str]) -> list[str]:
    """What the encoder reads for an input of the task: the symbols, then </s>."""
    return [*tokens, "</s>"]


def _encode_src(task: Task, tokens: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    src = torch.tensor([task.source_ids(task.vocab.encode(list(tokens)))])
    return src, (src != PAD).unsqueeze(-2)


def _layers(cache: dict, stack: Stack, module: AttentionModule, n: int) -> np.ndarray:
    """The attention weights of every layer: (n, h, q_len, k_len), batch item 0."""
    return np.stack([cache[attention_hook(stack, i, module, "hook_pattern")][0].float().numpy()
                     for i in range(n)])


def _check_readable(model: EncoderDecoder) -> None:
    """Models handed to the read-only helpers may be shared: never switch their mode here."""
    if model.training:
        raise ValueError("Expected a model in eval mode (call .eval() on your own copy first).")


def decode_input(model: EncoderDecoder, task: Task, tokens: Sequence[str]) -> Decoding:
    """Greedy-decode `tokens` (task symbols) with an eval-mode `model` (it is only read)."""
    _check_readable(model)
    src, src_mask = _encode_src(task, tokens)
    enc_cache, steps = decode_steps(model, src, src_mask, max_len=task.target_len)
    return _decoding(model, source_tokens(tokens), tuple(task.vocab.itos), enc_cache, steps)


def decode_checkpoint(loaded: LoadedCheckpoint, src_tokens: Sequence[str],
                      max_len: int) -> Decoding:
    """Greedy-decode `src_tokens` (already in the checkpoint's vocabulary, ending as its
    training data did) with a loaded checkpoint's model, at most `max_len` tokens.

    Its special tokens are looked up by name: an imported vocabulary need not put <s> and
    </s> where this app's tasks do (The Annotated Transformer's does not).
    """
    _check_readable(loaded.model)
    src_specials = loaded.special_ids("src")
    stoi = {tok: i for i, tok in reversed(list(enumerate(loaded.src_vocab)))}
    unk = src_specials.get("unk", 0)
    src = torch.tensor([[stoi.get(tok, unk) for tok in src_tokens]])  # (1, src_len)
    pad = src_specials.get("pad")
    src_mask = (src != pad).unsqueeze(-2) if pad is not None else torch.ones(
        1, 1, src.size(1), dtype=torch.bool)  # (1, 1, src_len)
    tgt_specials = loaded.special_ids("tgt")
    enc_cache, steps = decode_steps(loaded.model, src, src_mask, max_len=max_len,
                                    start_symbol=tgt_specials.get("bos", BOS),
                                    end_symbol=tgt_specials.get("eos"))
    return _decoding(loaded.model, list(src_tokens), tuple(loaded.tgt_vocab), enc_cache, steps)


def _decoding(model: EncoderDecoder, src: list[str], itos: tuple[str, ...],
              enc_cache: dict, steps: list[DecodeStep]) -> Decoding:
    """What `decode_steps` computed, as names and numpy arrays for the page."""
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    views = tuple(
        DecodeView(
            prefix=tuple(itos[i] for i in s.ys),
            probs=s.log_probs.exp().float().numpy(),
            next_token=itos[s.next_id],
            self_attn=_layers(s.cache, "decoder", "self_attn", n),
            cross_attn=_layers(s.cache, "decoder", "src_attn", n),
        )
        for s in steps
    )
    return Decoding(tuple(src), itos, views, _layers(enc_cache, "encoder", "self_attn", n))


def top_tokens(probs: np.ndarray, itos: Sequence[str], k: int = 10) -> list[tuple[str, float]]:
    """The k most likely next tokens, most likely first."""
    order = np.argsort(-probs, kind="stable")[:k]
    return [(itos[i], float(probs[i])) for i in order]


def attention_pattern(
    model: EncoderDecoder, task: Task, tokens: Sequence[str], kind: str,
    expected: Sequence[str] | None = None,
) -> tuple[np.ndarray, list[str], list[str]]:
    """Last layer's attention, averaged over heads, with the correct answer fed in.

    kind "cross": rows are the decoder input `<s> y1 .. ym` (teacher forcing with the
    task's answer, or `expected`), columns the source; kind "enc": the source against itself.
    """
    _check_readable(model)
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    src, src_mask = _encode_src(task, tokens)
    tgt_tokens = ["<s>", *(answer(task, tokens) if expected is None else expected)]
    tgt = torch.tensor([[BOS, *task.vocab.encode(tgt_tokens[1:])]])
    _, cache = model.run_with_cache(src, tgt, src_mask, subsequent_mask(tgt.size(1)))
    last = n - 1
    if kind == "enc":
        w = cache[attention_hook("encoder", last, "self_attn", "hook_pattern")][0]
        return w.mean(0).float().numpy(), source_tokens(tokens), source_tokens(tokens)
    w = cache[attention_hook("decoder", last, "src_attn", "hook_pattern")][0]
    return w.mean(0).float().numpy(), tgt_tokens, source_tokens(tokens)


def teacher_forcing_rows(task: Task, tokens: Sequence[str],
                         expected: Sequence[str] | None = None) -> dict[str, list[str]]:
    """The decoder input and the labels for `tokens`, as `Batch` builds tgt and tgt_y;
    `expected` is the answer (default: the toy task's rule, `answer`)."""
    target = ["<s>", *(answer(task, tokens) if expected is None else expected), "</s>"]
    return {t("train.col_position"): [str(i) for i in range(len(target) - 1)],
            t("train.col_input"): target[:-1], t("train.col_label"): target[1:]}
