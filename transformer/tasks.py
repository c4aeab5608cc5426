"""Toy sequence-to-sequence tasks: copy, reverse and sort, on digits or on a learner's words.

Framing, the same for every task: the source is the symbols and an end marker,
`x1 .. xn </s>` (as The Annotated Transformer's translation data ends each source
sentence: the marker tells the encoder where the sequence ends, which reversing needs and
which halves the steps it takes to learn); the target is `<s> y1 .. ym </s>`. `Batch`
turns the target into the decoder input `<s> y1 .. ym` and the labels `y1 .. ym </s>`
(teacher forcing). Shorter sequences are padded with `<pad>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .tokenize import BOS, EOS, PAD, SPECIALS, Vocab

TASKS: tuple[str, ...] = ("copy", "reverse", "sort")
DIGITS: tuple[str, ...] = tuple("0123456789")


@dataclass(frozen=True)
class Task:
    """A toy task: which rule maps a source sequence to its target, over which symbols."""

    name: str  # "copy", "reverse" or "sort"
    symbols: tuple[str, ...]  # the task's tokens besides the specials
    min_len: int = 1  # shortest source sequence sampled
    max_len: int = 9  # longest source sequence sampled

    def __post_init__(self) -> None:
        if self.name not in TASKS:
            raise ValueError(f"Unknown task {self.name!r}: choose one of {', '.join(TASKS)}.")
        if not self.symbols:
            raise ValueError("A task needs at least one symbol.")
        if len(set(self.symbols)) != len(self.symbols) or set(self.symbols) & set(SPECIALS):
            raise ValueError("Task symbols must be distinct and must not be special tokens.")
        if not 1 <= self.min_len <= self.max_len:
            raise ValueError(
                f"Need 1 <= min_len <= max_len, got min_len={self.min_len}, "
                f"max_len={self.max_len}."
            )

    @property
    def vocab(self) -> Vocab:
        """Specials followed by the symbols, shared by source and target."""
        return Vocab(list(self.symbols))

    @property
    def vocab_size(self) -> int:
        """Number of tokens: the specials and the symbols."""
        return len(SPECIALS) + len(self.symbols)

    @property
    def target_len(self) -> int:
        """The longest target, <s> and </s> included: what decoding may produce at most."""
        return self.max_len + 2

    def source_ids(self, symbol_ids: Sequence[int]) -> list[int]:
        """The encoder's input for `symbol_ids`: the symbols, then </s>."""
        return [*symbol_ids, EOS]

    def target_ids(self, src_ids: Sequence[int]) -> list[int]:
        """The answer to `src_ids` (ids without specials)."""
        if self.name == "copy":
            return list(src_ids)
        if self.name == "reverse":
            return list(reversed(src_ids))
        return sorted(src_ids)  # symbol order = id order

    def sample(
        self, batch_size: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """A padded random batch: src (batch, max_len + 1), tgt (batch, max_len + 2)."""
        first, B, L = len(SPECIALS), batch_size, self.max_len
        lengths = torch.randint(self.min_len, L + 1, (B,), generator=generator)  # (batch,)
        symbols = torch.randint(first, first + len(self.symbols), (B, L), generator=generator)
        pos = torch.arange(L).unsqueeze(0)  # (1, max_len)
        real = pos < lengths.unsqueeze(1)  # (batch, max_len): True inside each sequence
        rows = torch.arange(B)
        if self.name == "copy":
            answer = symbols
        elif self.name == "reverse":  # position i takes symbol n-1-i
            answer = symbols.gather(1, (lengths.unsqueeze(1) - 1 - pos).clamp(min=0))
        else:  # sort: padding sorts last (symbol order = id order)
            answer = symbols.masked_fill(~real, first + len(self.symbols)).sort(dim=1).values
        src = torch.full((B, L + 1), PAD, dtype=torch.long)  # x1 .. xn </s> <pad> ..
        src[:, :L] = symbols.masked_fill(~real, PAD)
        src[rows, lengths] = EOS
        tgt = torch.full((B, L + 2), PAD, dtype=torch.long)  # <s> y1 .. yn </s> <pad> ..
        tgt[:, 0] = BOS
        tgt[:, 1 : L + 1] = answer.masked_fill(~real, PAD)
        tgt[rows, lengths + 1] = EOS
        return src, tgt


def make_task(name: str, symbols: Sequence[str] | None = None, max_len: int = 9) -> Task:
    """A task over `symbols` (default: the ten digits); words are de-duplicated and sorted."""
    syms = tuple(sorted(dict.fromkeys(symbols))) if symbols else DIGITS
    syms = tuple(s for s in syms if s not in SPECIALS) or DIGITS
    return Task(name=name, symbols=syms, min_len=1, max_len=max_len)
