"""Toy sequence-to-sequence tasks: copy, reverse and sort, on digits or on a learner's words.

Framing, the same for every task: the source is the symbols and an end marker,
`x1 .. xn </s>` (as The Annotated Transformer's translation data ends each source
sentence: the marker tells the encoder where the sequence ends, which reversing needs and
which halves the steps it takes to learn); the target is `<s> y1 .. ym </s>`. `Batch`
turns the target into the decoder input `<s> y1 .. ym` and the labels `y1 .. ym </s>`
(teacher forcing). Shorter sequences are padded with `<pad>`.

Split, as the date task splits its days: a source sequence is held out when a hash of its
symbols says so (one in HELD_OUT_SHARE), at every length that has at least SPLIT_MIN
possible sequences; a length with fewer (ten one-digit sequences) is all training, since
the model needs every one of them. `split="train"` (what training draws) never gives a
held-out sequence, `split="held_out"` (what the evaluation draws) gives only those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

import torch

from .tokenize import BOS, EOS, PAD, SPECIALS, Vocab

TASKS: tuple[str, ...] = ("copy", "reverse", "sort")
DIGITS: tuple[str, ...] = tuple("0123456789")
Split = Literal["train", "held_out"]
HELD_OUT_SHARE = 20  # one source sequence in 20 (by hash) is held out of training
SPLIT_MIN = 100  # a length with fewer possible sequences holds none out (each is needed)
ENUMERATE_MAX = 100_000  # lengths with at most this many sequences are checked one by one
# The hash: a weighted sum of the symbol ids and the length, with fixed random weights
# below a prime, modulo that prime, then mixed (a universal hash family; 2^31 - 1 and its
# multiplier 48271 are the "minimal standard" generator's constants). One pass over the
# batch: a training batch's split costs a few tensor operations.
_PRIME, _MIX = 2_147_483_647, 48_271
_WEIGHTS = torch.randint(1, _PRIME, (257,), generator=torch.Generator().manual_seed(20_170_612))


@dataclass(frozen=True)
class Task:
    """A toy task: which rule maps a source sequence to its target, over which symbols."""

    name: str  # "copy", "reverse" or "sort"
    symbols: tuple[str, ...]  # the task's tokens besides the specials
    min_len: int = 1  # shortest source sequence sampled
    max_len: int = 9  # longest source sequence sampled
    split: Split = "train"  # which sequences `sample` draws: training's or the held-out ones

    def __post_init__(self) -> None:
        if self.split not in get_args(Split):
            raise ValueError(f"split must be one of {get_args(Split)}, got {self.split!r}.")
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

    @property
    def held_lengths(self) -> tuple[int, ...]:
        """The source lengths that have held-out sequences (none: nothing is held out)."""
        V = len(self.symbols)
        return tuple(n for n in range(self.min_len, self.max_len + 1) if _holds_out(V, n))

    def is_held_out(self, symbol_ids: Sequence[int]) -> bool:
        """Whether the source `symbol_ids` (ids without specials) is held out of training."""
        ids = torch.tensor([list(symbol_ids) + [PAD] * (self.max_len - len(symbol_ids))])
        return len(symbol_ids) in self.held_lengths and bool(
            _held(ids, torch.tensor([len(symbol_ids)]))[0])

    def _draw(self, batch_size: int, generator: torch.Generator, lengths_from: int
              ) -> tuple[torch.Tensor, torch.Tensor]:
        """Lengths (batch,) uniform in lengths_from..max_len and symbols (batch, max_len)."""
        first, L = len(SPECIALS), self.max_len
        lengths = torch.randint(lengths_from, L + 1, (batch_size,), generator=generator)
        symbols = torch.randint(first, first + len(self.symbols), (batch_size, L),
                                generator=generator)
        return lengths, symbols

    def _split_draw(self, batch_size: int, generator: torch.Generator
                    ) -> tuple[torch.Tensor, torch.Tensor]:
        """`_draw`, keeping only this split's sequences: a training draw redraws the rows
        that are held out; a held-out draw keeps the held-out rows of larger draws, at the
        lengths that have any (all lengths alike when none does: nothing to hold out)."""
        held_lengths = self.held_lengths
        if self.split == "train" or not held_lengths:
            lengths, symbols = self._draw(batch_size, generator, self.min_len)
            if not held_lengths:
                return lengths, symbols
            redraw = _held(symbols, lengths) & (lengths >= held_lengths[0])
            while redraw.any():  # about one row in HELD_OUT_SHARE, then fewer each time
                rows = redraw.nonzero().squeeze(1)
                _, symbols[rows] = self._draw(len(rows), generator, self.min_len)
                redraw[rows] = _held(symbols[rows], lengths[rows])
            return lengths, symbols
        found_lengths, found_symbols, have = [], [], 0
        while have < batch_size:
            lengths, symbols = self._draw(batch_size * HELD_OUT_SHARE, generator,
                                          held_lengths[0])
            keep = _held(symbols, lengths)
            found_lengths.append(lengths[keep])
            found_symbols.append(symbols[keep])
            have += int(keep.sum())
        return (torch.cat(found_lengths)[:batch_size],  # (batch,)
                torch.cat(found_symbols)[:batch_size])  # (batch, max_len)

    def sample(
        self, batch_size: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """A padded random batch of this split: src (batch, max_len + 1), tgt (batch,
        max_len + 2)."""
        first, B, L = len(SPECIALS), batch_size, self.max_len
        lengths, symbols = self._split_draw(B, generator)  # (batch,), (batch, max_len)
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


def _held(symbols: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Which rows of symbols (batch, max_len) with `lengths` (batch,) hash into the
    held-out share, from their first `length` symbols only: (batch,) bool."""
    L = symbols.size(1)
    real = torch.arange(L).unsqueeze(0) < lengths.unsqueeze(1)  # (batch, max_len)
    h = (symbols * real * _WEIGHTS[1 : L + 1]).sum(1)  # (batch,): < 2^31 * ids * L
    h = (h + lengths * _WEIGHTS[0]) % _PRIME
    h = (h * _MIX) % _PRIME
    return h % HELD_OUT_SHARE == 0


@cache
def _holds_out(V: int, n: int) -> bool:
    """Whether sequences of length n over V symbols are split: at least SPLIT_MIN of them,
    and at least one hashes into the held-out share (checked one by one when there are at
    most ENUMERATE_MAX; beyond, a share of 1/HELD_OUT_SHARE of so many is never empty)."""
    count = V ** n
    if count < SPLIT_MIN:
        return False
    if count > ENUMERATE_MAX:
        return True
    first = len(SPECIALS)
    every = torch.cartesian_prod(*[torch.arange(first, first + V)] * n).reshape(count, n)
    return bool(_held(every, torch.full((count,), n)).any())


def make_task(name: str, symbols: Sequence[str] | None = None, max_len: int = 9) -> Task:
    """A task over `symbols` (default: the ten digits); words are de-duplicated and sorted."""
    syms = tuple(sorted(dict.fromkeys(symbols))) if symbols else DIGITS
    syms = tuple(s for s in syms if s not in SPECIALS) or DIGITS
    return Task(name=name, symbols=syms, min_len=1, max_len=max_len)
