"""Training recipes: the fast one the app's Train button uses, and The Annotated Transformer's.

A recipe is a model size plus a `TrainConfig`. `AnnotatedCopy` is the copy task exactly as
The Annotated Transformer frames it (vocabulary 11, length 10, first token fixed to 1,
no end token), so both recipes can be timed on the same footing (see bench/time_to_learn.py).

Why the fast recipe is fast (measured on 2 CPU cores, bench/time_to_learn.py):
- one layer (N=1) and d_model=32: copying needs one attention step from each output
  position to its source position, not a deep stack; a step costs ~8 ms instead of the
  base-size model's ~0.5 s;
- no dropout and no label smoothing: nothing to regularise on an endless stream of fresh
  random sequences, and both slow the fit;
- a high constant learning rate (1e-2) after a short linear warm-up (30 steps) instead of
  Noam's slow ramp (warm-up 400, peak ~1e-3 for d_model=512 after base lr 0.5);
- batches of 128: a step costs more than at 64, but far fewer steps are needed, and sort,
  which batch 64 rarely learned within 1000 steps, is learned (bench/recipe_sweep.py:
  every task's median wait fell);
- 2 heads rather than 4 (more dimensions per head: d_k = 16).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .model import EncoderDecoder, make_model
from .train import Batch, TrainConfig, greedy_decode


@dataclass(frozen=True)
class Recipe:
    """A model size and how to train it."""

    name: str  # short label shown in the app and the benchmark
    N: int  # encoder and decoder layers
    d_model: int  # width of every token vector
    h: int  # attention heads
    d_ff: int  # inner width of the feed-forward sublayer
    dropout: float  # dropout rate while training
    train: TrainConfig = field(default_factory=TrainConfig)  # optimiser, schedule, batches

    def build(self, vocab_size: int, seed: int = 0, **options: object) -> EncoderDecoder:
        """A fresh model of this recipe's size for a shared vocabulary."""
        return make_model(vocab_size, vocab_size, self.N, self.d_model, self.d_ff, self.h,
                          self.dropout, seed=seed, **options)


FAST = Recipe(
    name="fast", N=1, d_model=32, h=2, d_ff=64, dropout=0.0,
    train=TrainConfig(steps=1000, batch_size=128, schedule="warmup", lr=1e-2, warmup=30,
                      smoothing=0.0),  # steps: a ceiling; the app stops once it is learned
)

# The Annotated Transformer's copy example: make_model(V, V, N=2) (d_model 512, d_ff 2048,
# h 8, dropout 0.1), Adam(lr=0.5, betas=(0.9, 0.98), eps=1e-9) under LambdaLR with
# rate(step, d_model, factor=1.0, warmup=400): the base lr 0.5 times the Noam rate, which
# is the Noam rate with factor 0.5 here. Batch 80, 20 batches an epoch, 20 epochs.
ANNOTATED = Recipe(
    name="annotated", N=2, d_model=512, h=8, d_ff=2048, dropout=0.1,
    train=TrainConfig(steps=400, batch_size=80, schedule="noam", factor=0.5, warmup=400,
                      smoothing=0.0),
)

# The date translator the app ships (tools/train_dates.py trains it, models/dates.pt holds
# it). Two layers of width 64: one more layer and twice the width of FAST, since mapping a
# month's name in nine languages to two digits is more than one attention step, and the
# sources are up to 30 characters long. Early stop (the tool checks every 250 steps) ends
# training long before `steps`, which is a ceiling. Noam's decay (peak 4.4e-3 at step 200,
# then ∝ 1/√step) matters here: at a constant 3e-3 the last 1% of dates kept flipping
# between right and wrong (98.5–99.2% from step 750 to 1500). Its tail is still too high for
# the last cells (one language and style on one day of the month), which flip at ~1e-3: the
# tool follows it with a cool-down at a constant 3e-4 (tools/train_dates.py, COOL_DOWN).
DATES = Recipe(
    name="dates", N=2, d_model=64, h=4, d_ff=128, dropout=0.0,
    train=TrainConfig(steps=6000, batch_size=128, schedule="noam", factor=0.5, warmup=200,
                      smoothing=0.0),
)

# The date task on the Train page (the learner waits): the shipped model's depth and heads,
# narrower (d_model 48, d_ff 96: d_k = 12), trained for speed rather than the last 1%
# (bench/dates_train.py). A batch of 64 halves each step's time, and a constant 5e-3 after
# a 50-step warm-up replaces Noam's slow ramp. Measured on one core (seeds 0-2): 95% of
# held-out dates after 35-36 s of training, 99% after 62-121 s; the Train button (stopping
# then at 97% of a check) ends after 40-54 s. The shipped width (64, d_ff 128) needed 44-82 s to
# reach 95%, d_ff 64 alone 36-57 s. Also tried, not better: batch 32, lr 7e-3.
DATES_LIVE = Recipe(
    name="dates_live", N=2, d_model=48, h=4, d_ff=96, dropout=0.0,
    train=TrainConfig(steps=2000, batch_size=64, schedule="warmup", lr=5e-3, warmup=50,
                      smoothing=0.0),
)

RECIPES: dict[str, Recipe] = {r.name: r for r in (FAST, ANNOTATED, DATES, DATES_LIVE)}


@dataclass(frozen=True)
class AnnotatedCopy:
    """The Annotated Transformer's copy task: random ids 1..V-1, length L, first id 1."""

    V: int = 11  # vocabulary size; id 0 is padding and never sampled
    L: int = 10  # sequence length, the fixed first token included

    @property
    def vocab_size(self) -> int:
        """Number of token ids."""
        return self.V

    def sample(
        self, batch_size: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """A batch (src, tgt) of identical sequences, each (batch, L)."""
        data = torch.randint(1, self.V, (batch_size, self.L), generator=generator)
        data[:, 0] = 1  # the start symbol
        return data, data.clone()


@torch.no_grad()
def copy_accuracy(model: EncoderDecoder, task: AnnotatedCopy, n: int = 500,
                  seed: int = 1234) -> float:
    """Share of `n` fresh sequences that greedy decoding (from id 1) copies exactly."""
    was_training = model.training
    model.eval()
    src, _ = task.sample(n, torch.Generator().manual_seed(seed))
    out = greedy_decode(model, src, Batch(src, pad=0).src_mask, max_len=task.L,
                        start_symbol=1, end_symbol=None)
    model.train(was_training)
    return float((out == src).all(dim=1).float().mean())
