"""The attention film: the attention of one fixed input, recorded while a model trains.

Pure torch and numpy (no user interface). A `Probe` is the input: a source, the correct
decoder input (teacher forcing, so every frame shows the attention that produces the right
answer), and, for each decoder position, the source positions its cross-attention *should*
look at for the task (copy: the same position, the diagonal; reverse: the mirrored one;
sort: where the symbol it writes sits; dates: the span of the field the digit belongs to).

A `Film` keeps at most `cap` frames (plus the last step; `film_cap`: 40, fewer for a model
so large that its frames would pass MAX_BYTES): it records every `every` steps,
and each time it is full it drops every other frame and doubles `every`. So a run of any
length ends with 20 to 40 frames spread evenly over it, without knowing its length in
advance (early stopping decides that), and the memory stays bounded: see `Film.nbytes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from .hook_paths import SUBLAYERS, attention_hook
from .hooks import capture
from .model import EncoderDecoder, subsequent_mask
from .tokenize import BOS, EOS

MAX_FRAMES = 40  # frames kept before thinning (a film ends with 20-40, plus the last step)
MAX_BYTES = 4_000_000  # a film's frames stay below this: large models keep fewer frames
MIN_FRAMES = 4  # ... but never fewer than this (the app's largest models keep 9)


@dataclass(frozen=True)
class Probe:
    """The input a film records, and where its cross-attention should look."""

    src: tuple[int, ...]  # encoder input ids: the symbols, then </s>
    tgt: tuple[int, ...]  # decoder input ids: <s>, then the correct answer (teacher forcing)
    ideal: tuple[tuple[int, ...], ...]  # per decoder position: the source positions it
    # should attend to (cross-attention); () where the task names none (</s>, "-")

    def __post_init__(self) -> None:
        if len(self.ideal) != len(self.tgt):
            raise ValueError(f"ideal has {len(self.ideal)} rows, the decoder input "
                             f"{len(self.tgt)} positions.")
        if any(j < 0 or j >= len(self.src) for row in self.ideal for j in row):
            raise ValueError("ideal names a source position the probe does not have.")


def task_probe(task_name: str, symbol_ids: Sequence[int]) -> Probe:
    """The probe of a copy, reverse or sort task (tasks.Task) on `symbol_ids`.

    Decoder position i writes answer[i]; its ideal source position is the one holding that
    symbol in the task's rule: i (copy), n-1-i (reverse), and for sort every position that
    holds the symbol (any of them gives the same answer). The last position writes </s>.
    """
    ids = list(symbol_ids)
    n = len(ids)
    if task_name == "copy":
        answer, ideal = ids, [(i,) for i in range(n)]
    elif task_name == "reverse":
        answer, ideal = ids[::-1], [(n - 1 - i,) for i in range(n)]
    elif task_name == "sort":
        answer = sorted(ids)
        ideal = [tuple(j for j in range(n) if ids[j] == s) for s in answer]
    else:
        raise ValueError(f"No ideal pattern for task {task_name!r}.")
    return Probe((*ids, EOS), (BOS, *answer), (*map(tuple, ideal), ()))


def field_probe(src: Sequence[int], tgt: Sequence[int],
                fields: Sequence[tuple[Sequence[int], tuple[int, int]]]) -> Probe:
    """A probe whose ideal is a span per field: (decoder positions, (start, end) in the source).

    The date translator's (transformer/dates.py): the year digits should look at the year.
    """
    ideal: list[tuple[int, ...]] = [()] * len(tgt)
    for positions, (start, end) in fields:
        for p in positions:
            ideal[p] = tuple(range(start, end))
    return Probe(tuple(src), tuple(tgt), tuple(ideal))


def attention_names(model: EncoderDecoder) -> list[str]:
    """The attention-weight hook points of every layer: encoder self, decoder self, cross."""
    cfg = model.config
    if cfg is None:
        raise ValueError("The model needs its TransformerConfig (build it with build_model).")
    return [attention_hook(stack, layer, module, "hook_pattern")
            for stack, modules in SUBLAYERS.items() for layer in range(cfg.N)
            for module in modules if module != "feed_forward"]


@torch.no_grad()
def probe_patterns(model: EncoderDecoder, probe: Probe) -> dict[str, np.ndarray]:
    """Every attention of `model` on `probe`, in eval mode: name -> (h, q_len, k_len) float16."""
    # eval mode only turns dropout off; switching walks every module (~1 ms on a tiny
    # model, a third of a frame's cost), so it is skipped when there is no dropout
    was_training = model.training
    switch = was_training and model.config is not None and model.config.dropout > 0
    if switch:
        model.eval()
    src = torch.tensor([probe.src])  # (1, src_len)
    tgt = torch.tensor([probe.tgt])  # (1, tgt_len)
    src_mask = torch.ones(1, 1, src.size(1), dtype=torch.bool)  # no padding in a probe
    try:
        with capture(model) as cache:
            model(src, tgt, src_mask, subsequent_mask(tgt.size(1)))
    finally:
        if switch:
            model.train()
    return {name: cache[name][0].numpy().astype(np.float16) for name in attention_names(model)}


def ideal_mass(pattern: np.ndarray, ideal: Sequence[Sequence[int]]) -> np.ndarray:
    """Per head, the attention weight on the ideal source positions, averaged over the rows
    that have any: (h, q_len, k_len) -> (h,). 1 = exactly the task's pattern; a head that
    spreads evenly over k keys scores about (ideal positions per row) / k.
    """
    rows = [i for i, keys in enumerate(ideal) if keys]
    if not rows:
        return np.full(pattern.shape[0], np.nan)
    p = pattern.astype(np.float32)
    return np.mean([p[:, i, list(ideal[i])].sum(axis=-1) for i in rows], axis=0)


def frame_bytes(probe: Probe, N: int, h: int) -> int:
    """Bytes of one frame: every layer's three attentions, h heads each, in float16."""
    S, T = len(probe.src), len(probe.tgt)
    return 2 * N * h * (S * S + T * T + T * S)


def film_cap(probe: Probe, N: int, h: int) -> int:
    """How many frames a film of this model may keep: MAX_FRAMES, fewer for large models so
    that `cap + 1` frames (the last step too) stay under MAX_BYTES."""
    fit = MAX_BYTES // frame_bytes(probe, N, h) - 1
    return max(MIN_FRAMES, min(MAX_FRAMES, fit))


@dataclass
class Film:
    """Attention of `probe` at moments of a training run (every layer and head)."""

    probe: Probe
    cap: int = MAX_FRAMES  # frames kept before thinning
    every: int = 2  # steps between frames; doubles each time the film is thinned
    steps: list[int] = field(default_factory=list)  # the step of each frame (0: untrained)
    frames: list[dict[str, np.ndarray]] = field(default_factory=list)  # name -> (h, q, k)

    def __post_init__(self) -> None:
        if self.cap < 2:
            raise ValueError(f"A film needs room for at least 2 frames, got cap={self.cap}.")

    def record(self, model: EncoderDecoder, step: int) -> None:
        """Add a frame of `model` now (after `step` optimiser steps)."""
        if self.steps and step <= self.steps[-1]:
            return  # already recorded (the last step may be recorded twice)
        self.steps.append(step)
        self.frames.append(probe_patterns(model, self.probe))

    def maybe_record(self, model: EncoderDecoder, step: int) -> None:
        """Record if `step` is due; thin the film first if it is full."""
        if step % self.every:
            return
        if len(self.steps) >= self.cap:
            self.every *= 2
            keep = [i for i, s in enumerate(self.steps) if s % self.every == 0]
            self.steps = [self.steps[i] for i in keep]
            self.frames = [self.frames[i] for i in keep]
            if step % self.every:
                return
        self.record(model, step)

    def weights(self, name: str) -> np.ndarray:
        """One attention over the film: (frames, h, q_len, k_len)."""
        return np.stack([frame[name] for frame in self.frames])

    def closeness(self, name: str) -> np.ndarray:
        """How close each head of attention `name` is to the ideal pattern: (frames, h)."""
        return np.stack([ideal_mass(frame[name], self.probe.ideal) for frame in self.frames])

    @property
    def nbytes(self) -> int:
        """Bytes held by the frames."""
        return sum(a.nbytes for frame in self.frames for a in frame.values())
