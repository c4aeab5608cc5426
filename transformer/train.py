"""Training and decoding: Batch, the Noam rate, label smoothing, greedy decoding, a trainer.

The trainer knows nothing about any user interface: it reports every step through a
callback, which may ask it to stop by returning True.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, get_args

import torch
from torch import nn

from .config import check_choice, check_int
from .hooks import capture
from .model import Dropout, EncoderDecoder, subsequent_mask
from .tokenize import BOS, EOS, PAD

# The dropout masks' generator is seeded with the batches' seed plus this, so the two
# streams differ (train)
DROPOUT_SEED = 7919

# ---------------------------------------------------------------------------------------
# Batches and masks
# ---------------------------------------------------------------------------------------


class Batch:
    """A batch with its masks; the target is split for teacher forcing.

    src_mask (batch, 1, src_len): True on real tokens, False on padding.
    tgt (batch, T) = target[:, :-1] is the decoder input (starts with <s>);
    tgt_y (batch, T) = target[:, 1:] is what each position must predict;
    tgt_mask (batch, T, T) = not padding AND not a later position; ntokens = real labels.
    """

    def __init__(self, src: torch.Tensor, tgt: torch.Tensor | None = None, pad: int = PAD):
        self.src = src
        self.src_mask = (src != pad).unsqueeze(-2)  # (batch, 1, src_len)
        if tgt is not None:
            self.tgt = tgt[:, :-1]
            self.tgt_y = tgt[:, 1:]
            self.tgt_mask = self.make_std_mask(self.tgt, pad)
            self.ntokens = int((self.tgt_y != pad).sum())

    @staticmethod
    def make_std_mask(tgt: torch.Tensor, pad: int) -> torch.Tensor:
        """Hide padding and future words: (batch, 1, T) & (1, T, T) -> (batch, T, T)."""
        tgt_mask = (tgt != pad).unsqueeze(-2)
        return tgt_mask & subsequent_mask(tgt.size(-1))


# ---------------------------------------------------------------------------------------
# Optimiser schedule and regularisation (paper, section 5.3 and 5.4)
# ---------------------------------------------------------------------------------------


def rate(step: int, model_size: int, factor: float, warmup: int) -> float:
    """Noam schedule: factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5)."""
    step = max(step, 1)  # step 0 would divide by zero
    return factor * (model_size ** (-0.5) * min(step ** (-0.5), step * warmup ** (-1.5)))


class LabelSmoothing(nn.Module):
    """KL divergence to a smoothed target: confidence 1 - eps on the label, eps spread elsewhere.

    The eps mass is shared by the size - 2 tokens that are neither the label nor <pad>;
    <pad> columns get 0, and rows whose label is <pad> are ignored.
    """

    def __init__(self, size: int, padding_idx: int = PAD, smoothing: float = 0.0) -> None:
        super().__init__()
        if not 0.0 <= smoothing < 1.0:
            raise ValueError(f"smoothing must be in [0, 1), got {smoothing}.")
        self.padding_idx = padding_idx
        self.confidence = 1.0 - smoothing
        self.smoothing = smoothing
        self.size = size

    def true_dist(self, target: torch.Tensor) -> torch.Tensor:
        """The smoothed distribution the model is trained towards: (n, size)."""
        dist = torch.full((target.size(0), self.size), self.smoothing / max(self.size - 2, 1))
        dist.scatter_(1, target.unsqueeze(1), self.confidence)
        dist[:, self.padding_idx] = 0
        dist[target == self.padding_idx] = 0
        return dist

    def forward(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        """KL(true_dist || exp(x)) summed: x are log-probabilities (n, size), target ids (n,).

        Entries where the smoothed target is 0 contribute nothing (0 * log 0 = 0), even where
        x is -inf; `nn.KLDivLoss` would give NaN there.
        """
        if x.size(1) != self.size:
            raise ValueError(f"Expected {self.size} classes, got {x.size(1)}.")
        dist = self.true_dist(target).to(x.dtype)
        keep = dist > 0
        return (dist[keep] * (dist[keep].log() - x[keep])).sum()


# ---------------------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------------------


@torch.no_grad()
def greedy_decode(
    model: EncoderDecoder,
    src: torch.Tensor,
    src_mask: torch.Tensor,
    max_len: int,
    start_symbol: int = BOS,
    end_symbol: int | None = EOS,
) -> torch.Tensor:
    """Pick the most likely next token, one step at a time: (batch, <= max_len) ids."""
    memory = model.encode(src, src_mask)
    ys = torch.full((src.size(0), 1), start_symbol, dtype=torch.long)
    done = torch.zeros(src.size(0), dtype=torch.bool)
    for _ in range(max_len - 1):
        out = model.decode(memory, src_mask, ys, subsequent_mask(ys.size(1)))
        next_word = model.generator(out[:, -1]).argmax(dim=-1)  # (batch,)
        if end_symbol is not None:
            next_word = next_word.masked_fill(done, PAD)  # finished rows only pad
            done |= next_word == end_symbol
        ys = torch.cat([ys, next_word.unsqueeze(1)], dim=1)
        if end_symbol is not None and bool(done.all()):
            break
    return ys


@dataclass
class DecodeStep:
    """One step of greedy decoding of a single sequence, with everything the model computed."""

    ys: list[int]  # decoder input at this step, starting with <s>
    log_probs: torch.Tensor  # (tgt_vocab,) log-probabilities of the next token
    next_id: int  # the argmax, appended for the next step
    cache: dict[str, torch.Tensor]  # every hook point of this step's decoder pass


@torch.no_grad()
def decode_steps(
    model: EncoderDecoder,
    src: torch.Tensor,
    src_mask: torch.Tensor,
    max_len: int,
    start_symbol: int = BOS,
    end_symbol: int | None = EOS,
) -> tuple[dict[str, torch.Tensor], list[DecodeStep]]:
    """Greedy-decode one sequence (batch 1) step by step: (encoder cache, steps)."""
    if src.size(0) != 1:
        raise ValueError(f"decode_steps takes one sequence (batch 1), got batch {src.size(0)}.")
    with capture(model) as enc_cache:
        memory = model.encode(src, src_mask)
    ys = [start_symbol]
    steps: list[DecodeStep] = []
    for _ in range(max_len - 1):
        tgt = torch.tensor([ys])
        with capture(model) as cache:
            out = model.decode(memory, src_mask, tgt, subsequent_mask(len(ys)))
            log_probs = model.generator(out[:, -1])[0]
        next_id = int(log_probs.argmax())
        steps.append(DecodeStep(list(ys), log_probs, next_id, cache))
        ys.append(next_id)
        if next_id == end_symbol:
            break
    return enc_cache, steps


def length_penalty(length: int, alpha: float) -> float:
    """lp(Y) = (5 + |Y|)^alpha / (5 + 1)^alpha of Wu et al. (2016), which the paper uses
    with alpha = 0.6 (section 6.1); alpha = 0 turns it off. A score is log P(Y) / lp(Y)."""
    return ((5 + length) / 6) ** alpha


@dataclass(frozen=True)
class Hypothesis:
    """One candidate output of beam search."""

    tokens: tuple[int, ...]  # decoder tokens so far, starting with <s>
    log_prob: float  # log P of tokens[1:], the sum of each step's log-probability
    score: float  # log_prob / length_penalty(len(tokens) - 1, alpha): what the ranking uses
    parent: int | None  # its prefix's index in the previous step's list (None at step 1)
    kept: bool  # stayed in the beam (False: pruned at this step, shown for comparison)
    finished: bool  # ends with </s>: leaves the beam and waits for the final ranking


@dataclass(frozen=True)
class BeamResult:
    """Every step of a beam search over one sequence, and its final ranking."""

    steps: list[list[Hypothesis]]  # per step: the kept candidates, best first, then pruned
    final: list[Hypothesis]  # finished (and, at max_len, unfinished) ones, best score first
    beam_size: int
    alpha: float


@torch.no_grad()
def beam_search(
    model: EncoderDecoder,
    src: torch.Tensor,
    src_mask: torch.Tensor,
    max_len: int,
    beam_size: int = 4,
    alpha: float = 0.6,
    start_symbol: int = BOS,
    end_symbol: int = EOS,
    show_pruned: int | None = None,
) -> BeamResult:
    """Beam search over one sequence (batch 1), the decoding of the paper's section 6.1.

    1) Every hypothesis still in the beam is extended by every token; a candidate's
       log-probability is its prefix's plus the token's.
    2) The best `beam_size - finished` candidates stay (all candidates of a step have the
       same length, so the length penalty cannot change this choice); one ending with
       </s> is finished and leaves the beam.
    3) At the end, finished hypotheses (and the unfinished ones at max_len) are ranked by
       log P / lp, so longer answers are not punished for their extra factors < 1.
    With beam_size 1 this is greedy decoding. `show_pruned` (default beam_size) best
    pruned candidates per step are kept in the record, marked, to show what was cut.
    """
    if src.size(0) != 1:
        raise ValueError(f"beam_search takes one sequence (batch 1), got batch {src.size(0)}.")
    beam_size = check_int("beam_size", beam_size)
    if not 0.0 <= alpha <= 10.0:  # also refuses NaN
        raise ValueError(f"alpha must be in [0, 10], got {alpha}.")
    shown = beam_size if show_pruned is None else max(0, show_pruned)
    was_training = model.training
    model.eval()
    try:
        memory = model.encode(src, src_mask)  # (1, src_len, d_model)
        start = Hypothesis((start_symbol,), 0.0, 0.0, None, True, False)
        alive: list[tuple[int, Hypothesis]] = [(0, start)]  # (index in the last step, hypothesis)
        finished: list[Hypothesis] = []
        steps: list[list[Hypothesis]] = []
        for _ in range(max_len - 1):
            ys = torch.tensor([h.tokens for _, h in alive])  # (k, t)
            k = ys.size(0)
            out = model.decode(memory.expand(k, -1, -1), src_mask.expand(k, -1, -1), ys,
                               subsequent_mask(ys.size(1)))  # (k, t, d_model)
            log_probs = model.generator(out[:, -1])  # (k, vocab)
            prefix = torch.tensor([h.log_prob for _, h in alive], dtype=log_probs.dtype)
            total = (log_probs + prefix.unsqueeze(1)).flatten()  # 1) every extension: (k * vocab,)
            room = beam_size - len(finished)
            top = total.topk(min(room + shown, total.numel()))
            lp = length_penalty(ys.size(1), alpha)  # the new candidates have t tokens after <s>
            step: list[Hypothesis] = []
            for rank, (value, index) in enumerate(zip(top.values.tolist(), top.indices.tolist(),
                                                      strict=True)):
                row, token = divmod(index, log_probs.size(1))
                parent_index, parent = alive[row]
                step.append(Hypothesis(parent.tokens + (token,), value, value / lp, parent_index,
                                       rank < room, token == end_symbol))  # 2) the best stay
            steps.append(step)
            finished += [h for h in step if h.kept and h.finished]
            alive = [(i, h) for i, h in enumerate(step) if h.kept and not h.finished]
            if not alive:
                break
    finally:
        model.train(was_training)  # back as it was, even if decoding raised
    final = sorted(finished + [h for _, h in alive], key=lambda h: -h.score)  # 3) rank
    return BeamResult(steps, final, beam_size, alpha)


# ---------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------


class SequenceTask(Protocol):
    """What the trainer needs of a task: its vocabulary size and random batches."""

    @property
    def vocab_size(self) -> int: ...

    def sample(
        self, batch_size: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]: ...


Schedule = Literal["constant", "warmup", "noam"]
SCHEDULES: tuple[str, ...] = get_args(Schedule)


@dataclass(frozen=True)
class TrainConfig:
    """How to train on a toy task."""

    steps: int = 400  # optimiser steps (one batch each)
    batch_size: int = 64  # sequences per batch
    schedule: Schedule = "constant"  # constant lr; linear warm-up then constant; or Noam
    lr: float = 3e-3  # peak learning rate (schedules "constant" and "warmup")
    factor: float = 1.0  # Noam factor (schedule="noam")
    warmup: int = 400  # warm-up steps (schedules "warmup" and "noam")
    smoothing: float = 0.0  # label smoothing epsilon
    betas: tuple[float, float] = (0.9, 0.98)  # Adam betas (paper: 0.9, 0.98)
    eps: float = 1e-9  # Adam epsilon (paper: 1e-9)
    seed: int = 0  # seeds the batches (the model's weights come from its own seed)

    def __post_init__(self) -> None:
        check_int("steps", self.steps)
        check_int("batch_size", self.batch_size)
        check_choice("schedule", self.schedule, Schedule)
        if not (0 < self.lr <= 1):  # also refuses NaN
            raise ValueError(f"lr must be in (0, 1], got {self.lr}.")
        if not 0.0 <= self.smoothing < 1.0:
            raise ValueError(f"smoothing must be in [0, 1), got {self.smoothing}.")
        check_int("warmup", self.warmup)
        if not (0 < self.factor < math.inf):
            raise ValueError(f"factor must be a positive finite number, got {self.factor}.")


@dataclass(frozen=True)
class StepInfo:
    """What the trainer reports after each optimiser step."""

    step: int  # 1-based step number
    steps: int  # total steps planned
    loss: float  # loss per target token of this batch
    token_accuracy: float  # share of target tokens predicted right (teacher forcing)
    lr: float  # learning rate used for this step
    elapsed: float  # seconds since training started
    # share of this batch's sequences right at every target position (teacher forcing, the
    # batch fresh and scored before the update). Under the subsequent mask and without
    # dropout, exactly the share greedy decoding would get right: a cheap hint for a stop
    # check, which still decodes (explorer/training/run.py).
    exact: float = 0.0
    # seconds this step itself took (its batch, forward, backward and update; not what the
    # callback does after it): what a worker times to choose its threads
    # (explorer/training/worker.py)
    seconds: float = 0.0


def lr_at(cfg: TrainConfig, step: int, d_model: int) -> float:
    """The learning rate of optimiser step `step` (1-based)."""
    if cfg.schedule == "noam":
        return rate(step, d_model, cfg.factor, cfg.warmup)
    if cfg.schedule == "warmup":
        return cfg.lr * min(1.0, step / cfg.warmup)  # linear ramp, then constant
    return cfg.lr


def train(
    model: EncoderDecoder,
    task: SequenceTask,
    cfg: TrainConfig,
    callback: Callable[[StepInfo], bool | None] | None = None,
) -> list[StepInfo]:
    """Train `model` in place on `task`; `callback(info)` runs after each step, True stops.

    The model trains in train mode (dropout on) and is handed back in the mode it came in."""
    if model.config is None:
        raise ValueError("train() needs a model built by make_model/build_model.")
    vocab = task.vocab_size
    if model.config.src_vocab < vocab or model.config.tgt_vocab < vocab:
        raise ValueError(
            f"The model's vocabularies ({model.config.src_vocab}, {model.config.tgt_vocab}) "
            f"are smaller than the task's ({vocab})."
        )
    gen = torch.Generator().manual_seed(cfg.seed)
    # the dropout masks come from the training's own generator too (model.Dropout): the
    # same seed, the same weights, whatever else runs in the process
    drops = [m for m in model.modules() if isinstance(m, Dropout)]
    masks = torch.Generator().manual_seed(cfg.seed + DROPOUT_SEED)  # one stream for all
    criterion = LabelSmoothing(model.config.tgt_vocab, PAD, cfg.smoothing)
    # fused: one kernel for all parameters, a large share of a tiny model's step on CPU
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0, betas=cfg.betas, eps=cfg.eps,
                                 fused=True)
    history: list[StepInfo] = []
    start = time.perf_counter()
    was_training = model.training
    model.train()
    try:
        for m in drops:
            m.generator = masks  # set here, so that the finally below always clears them
        for step in range(1, cfg.steps + 1):
            began = time.perf_counter()
            lr = lr_at(cfg, step, model.config.d_model)
            for group in optimizer.param_groups:
                group["lr"] = lr
            batch = Batch(*task.sample(cfg.batch_size, gen))
            log_probs = model.generator(
                model(batch.src, batch.tgt, batch.src_mask, batch.tgt_mask)
            )  # (batch, T, vocab)
            flat = log_probs.reshape(-1, log_probs.size(-1))
            labels = batch.tgt_y.reshape(-1)
            loss = criterion(flat, labels) / batch.ntokens
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            real = batch.tgt_y != PAD  # (batch, T)
            hit = log_probs.detach().argmax(-1) == batch.tgt_y
            acc = hit[real].float().mean().item()
            exact = (hit | ~real).all(-1).float().mean().item()
            now = time.perf_counter()
            info = StepInfo(step, cfg.steps, loss.item(), acc, lr, now - start, exact,
                            now - began)
            history.append(info)
            if callback is not None and callback(info):
                break
    finally:
        for m in drops:
            m.generator = None
        model.train(was_training)
    return history


@torch.no_grad()
def sequence_accuracy(
    model: EncoderDecoder, task: SequenceTask, n: int = 500, seed: int = 1234,
    batch_size: int = 250, forced: bool = False,
) -> float:
    """Share of `n` fresh random sequences that greedy decoding gets exactly right."""
    right, _ = exact_matches(model, task, n, seed, batch_size, forced)
    return int(right.sum()) / n


@torch.no_grad()
def exact_matches(
    model: EncoderDecoder, task: SequenceTask, n: int = 500, seed: int = 1234,
    batch_size: int = 250, forced: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy-decode `n` fresh random sequences: (exactly right?, source length) for each.

    The source length counts the symbols, without </s>. forced=True reaches the same
    verdicts in one teacher-forced pass per batch instead of a loop of decoder passes: under
    the subsequent mask, position t sees only the answer's first t tokens, so if every
    position's most likely token is the answer's next one, greedy decoding writes exactly
    the answer, and if one is not, greedy goes wrong at the first such position. (A near-tie
    may round differently in the two computations.) It needs the subsequent mask.
    """
    if forced and model.config is not None and model.config.decoder_mask != "subsequent":
        raise ValueError("A teacher-forced check equals greedy decoding only under the "
                         "subsequent mask.")
    was_training = model.training
    model.eval()
    gen = torch.Generator().manual_seed(seed)
    rights, lengths = [], []
    done = 0
    while done < n:
        size = min(batch_size, n - done)
        src, tgt = task.sample(size, gen)
        batch = Batch(src, tgt)
        if forced:
            log_probs = model.generator(model(batch.src, batch.tgt, batch.src_mask,
                                              batch.tgt_mask))  # (size, T, vocab)
            hit = (log_probs.argmax(-1) == batch.tgt_y) | (batch.tgt_y == PAD)
            rights.append(hit.all(dim=1))
        else:
            out = greedy_decode(model, batch.src, batch.src_mask, max_len=tgt.size(1))
            # compare up to and including </s>; positions after it in `tgt` are padding
            width = min(out.size(1), tgt.size(1))
            pred = torch.full_like(tgt, PAD)
            pred[:, :width] = out[:, :width]
            rights.append((pred == tgt).all(dim=1))
        lengths.append((src != PAD).sum(dim=1) - 1)
        done += size
    model.train(was_training)
    return torch.cat(rights), torch.cat(lengths)
