"""Knocking out a head or a whole sublayer, and what it costs. Pure torch, no streamlit.

A `Unit` is one removable part of a model: one head of one attention in one layer (its
output `hook_z` set to zero), or a whole sublayer (its `hook_sublayer_out` set to zero: only
the residual path carries on). Everything runs inside `transformer.hooks.intervene`, so the
model is never written: a shared model (the shipped date translator, cached for every
learner) stays exactly as it was, and a knock-out in one thread is invisible to every other.

- `units(cfg)` lists what can be removed; `edits_for(units)` is the `intervene` dict.
- `answer_ids` decodes the learner's own input greedily, with or without a knock-out;
  `answer_pair` does both in one batch.
- `task_of` finds the task a model was trained on (or why there is none); `fresh_inputs`
  draws inputs of it; `accuracy` is the exact-sequence accuracy on them.
- `head_grid` measures the accuracy lost without each head, for each attention, and reports
  its progress through a callback (it knows nothing of the page that draws the bar).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import get_args

import numpy as np
import torch

from transformer import dates as D
from transformer.config import TransformerConfig
from transformer.hook_paths import SUBLAYERS, AttentionModule, Stack, attention_hook, sublayer_hook
from transformer.hooks import Edit, intervene, knock_out, zero
from transformer.model import EncoderDecoder
from transformer.tasks import TASKS, Task, make_task
from transformer.tokenize import PAD
from transformer.train import Batch, greedy_decode

from ..core.kinds import KINDS
from .run import evaluation_task

FRESH = 300  # fresh task inputs per accuracy: a step of 1/300 = 0.33 points
FRESH_SEED = 2718  # their seed: other sequences than training's, the stop checks' and EVAL's
TrainTask = Task | D.DateTask

# Every kind of sublayer, by key, in the order a forward pass meets them: the three
# attentions under the Attention page's keys ("enc", "dec", "cross"), and each stack's
# feed-forward network ("encoder_feed_forward", "decoder_feed_forward").
_ATTENTION_KEYS = {(kind.stack, kind.module): key for key, kind in KINDS.items()}
PARTS: dict[str, tuple[Stack, str]] = {
    _ATTENTION_KEYS.get((stack, module), f"{stack}_{module}"): (stack, module)
    for stack, modules in SUBLAYERS.items() for module in modules
}
ATTENTION_PARTS = tuple(k for k, (_, m) in PARTS.items() if m in get_args(AttentionModule))


@dataclass(frozen=True)
class Unit:
    """One removable part: a head of an attention, or a whole sublayer (head None)."""

    part: str  # a key of PARTS
    layer: int
    head: int | None = None

    @property
    def stack(self) -> Stack:
        return PARTS[self.part][0]

    @property
    def module(self) -> str:
        return PARTS[self.part][1]

    def hook(self) -> str:
        """The hook point the knock-out edits: the head's `hook_z`, else the sublayer's output."""
        if self.head is not None:
            return attention_hook(self.stack, self.layer, self.module, "hook_z")  # type: ignore[arg-type]
        index = SUBLAYERS[self.stack].index(self.module)
        return sublayer_hook(self.stack, self.layer, index, "hook_sublayer_out")


def is_unit_of(unit: object, cfg: TransformerConfig) -> bool:
    """Whether `unit` names a part that a model of `cfg` has (heads only in attentions)."""
    if not isinstance(unit, Unit) or unit.part not in PARTS:
        return False
    layer, head = unit.layer, unit.head
    if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < cfg.N:
        return False
    if head is None:
        return True
    return (unit.part in ATTENTION_PARTS and not isinstance(head, bool)
            and isinstance(head, int) and 0 <= head < cfg.h)


def units(cfg: TransformerConfig) -> list[Unit]:
    """Everything that can be removed: every head of every attention of every layer, and
    every whole sublayer, in the order of PARTS, layers, then heads."""
    out = []
    for part in PARTS:
        for layer in range(cfg.N):
            if part in ATTENTION_PARTS:
                out.extend(Unit(part, layer, head) for head in range(cfg.h))
            out.append(Unit(part, layer))
    return out


def edits_for(selection: Iterable[Unit]) -> dict[str, Edit]:
    """The `intervene` edits that remove every unit of `selection` (heads of one attention
    become one knock-out; a whole sublayer wins over its own heads)."""
    heads: dict[str, set[int]] = {}
    edits: dict[str, Edit] = {}
    for unit in selection:
        if unit.head is None:
            edits[unit.hook()] = zero
        else:
            heads.setdefault(unit.hook(), set()).add(unit.head)
    return {**{name: knock_out(sorted(h)) for name, h in heads.items()}, **edits}


@torch.no_grad()
def answer_ids(model: EncoderDecoder, src_ids: Sequence[int], *, bos: int, eos: int,
               max_len: int, edits: Mapping[str, Edit] | None = None) -> tuple[int, ...]:
    """Greedy decoding of one input (ids), inside `edits`: the ids after <s>, up to </s>."""
    src = torch.tensor([list(src_ids)])
    with intervene(model, edits or {}):
        ys = greedy_decode(model, src, Batch(src).src_mask, max_len=max_len,
                           start_symbol=bos, end_symbol=eos)[0, 1:].tolist()
    return tuple(ys[: ys.index(eos) + 1] if eos in ys else ys)


def _in_row(edit: Edit, row: int) -> Edit:
    """`edit` applied to one row of the batch only (the others pass unchanged)."""

    def on_row(x: torch.Tensor) -> torch.Tensor:
        out = x.clone()
        out[row:row + 1] = edit(x[row:row + 1])
        return out

    return on_row


@torch.no_grad()
def answer_pair(model: EncoderDecoder, src_ids: Sequence[int], *, bos: int, eos: int,
                max_len: int, edits: Mapping[str, Edit]) -> tuple[tuple[int, ...], ...]:
    """`answer_ids` without and with `edits`, as one batch of two rows (half the decoding
    steps of two calls): the edits act on the second row only."""
    src = torch.tensor([list(src_ids)] * 2)
    with intervene(model, {name: _in_row(edit, 1) for name, edit in edits.items()}):
        out = greedy_decode(model, src, Batch(src).src_mask, max_len=max_len,
                            start_symbol=bos, end_symbol=eos)[:, 1:].tolist()
    return tuple(tuple(ys[: ys.index(eos) + 1] if eos in ys else ys) for ys in out)


def task_of(meta: Mapping[str, object] | None, src_vocab: Sequence[str],
            tgt_vocab: Sequence[str], trained: TrainTask | None = None,
            max_len: int | None = None) -> tuple[TrainTask | None, str]:
    """The task a model was trained on, for measuring its accuracy; or None and why (a text
    key of ko.*): "untrained" (meta None), "no_task" (its file names none of this app's
    tasks), "vocab" (its vocabulary is not that task's), "too_long" (its positions end
    before the task's longest sequence). `trained`: the task itself, when known."""
    if meta is None and trained is None:
        return None, "ko.no_task_untrained"
    task: TrainTask | None = trained
    name = meta.get("task") if isinstance(meta, Mapping) else None
    if task is None and name == "dates":
        task = D.DateTask()
    elif task is None and name in TASKS:
        symbols = meta.get("symbols") if isinstance(meta, Mapping) else None
        words = [str(s) for s in symbols] if isinstance(symbols, list) else None
        task = make_task(str(name), words)
    if task is None:
        return None, "ko.no_task_file"
    itos = tuple(task.vocab.itos)
    if tuple(src_vocab) != itos or tuple(tgt_vocab) != itos:
        return None, "ko.no_task_vocab"
    if max_len is not None and max(task.max_len + 1, task.target_len) > max_len:
        return None, "ko.no_task_long"
    return evaluation_task(task), ""  # dates: days it never saw, as the Train page


@dataclass(frozen=True)
class Fresh:
    """Fresh inputs of a task and their right answers, drawn once and reused for every
    knock-out (every head is measured on the same sequences)."""

    src: torch.Tensor  # (n, longest source + 1)
    tgt: torch.Tensor  # (n, target_len): <s> y1 .. ym </s> <pad> ..

    @property
    def n(self) -> int:
        return int(self.src.size(0))


def fresh_inputs(task: TrainTask, n: int = FRESH, seed: int = FRESH_SEED) -> Fresh:
    """`n` random inputs of `task` from `seed` (the same ones every time)."""
    src, tgt = task.sample(n, torch.Generator().manual_seed(seed))
    return Fresh(src, tgt)


@torch.no_grad()
def accuracy(model: EncoderDecoder, fresh: Fresh,
             edits: Mapping[str, Edit] | None = None) -> float:
    """Share of `fresh` that greedy decoding gets exactly right (up to and with </s>),
    inside `edits`. The model must be in eval mode: it is only read, never switched."""
    if model.training:  # dropout would make every measurement differ; flipping is a write
        raise ValueError("accuracy() reads a model in eval mode (dropout off).")
    batch = Batch(fresh.src, fresh.tgt)
    with intervene(model, edits or {}):
        out = greedy_decode(model, batch.src, batch.src_mask, max_len=fresh.tgt.size(1))
    width = min(out.size(1), fresh.tgt.size(1))
    pred = torch.full_like(fresh.tgt, PAD)
    pred[:, :width] = out[:, :width]
    return int((pred == fresh.tgt).all(dim=1).sum()) / fresh.n


@dataclass(frozen=True)
class Grid:
    """Accuracy lost without each head: intact accuracy minus knocked-out accuracy."""

    intact: float  # accuracy of the whole model on the fresh inputs
    lost: dict[str, np.ndarray]  # ATTENTION_PARTS key -> (N, h) in [-1, 1]
    n: int  # fresh inputs per accuracy
    seconds: float  # how long the whole grid took
    order: tuple[str, ...] = field(default=ATTENTION_PARTS)

    def most_important(self) -> tuple[Unit, float]:
        """The head whose removal costs the most accuracy, and that loss."""
        part = max(self.order, key=lambda p: float(self.lost[p].max()))
        layer, head = np.unravel_index(int(self.lost[part].argmax()), self.lost[part].shape)
        return Unit(part, int(layer), int(head)), float(self.lost[part][layer, head])


Progress = Callable[[int, int], None]  # (done, total) after each measurement


def head_grid(model: EncoderDecoder, fresh: Fresh, cfg: TransformerConfig,
              progress: Progress | None = None, intact: float | None = None) -> Grid:
    """Knock out each head of each attention alone and measure the accuracy lost.

    1 + 3·N·h accuracies (the intact one unless given); `progress(done, total)` after each.
    """
    start = time.perf_counter()
    total = len(ATTENTION_PARTS) * cfg.N * cfg.h + (intact is None)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    if intact is None:
        intact = accuracy(model, fresh)
        tick()
    lost = {}
    for part in ATTENTION_PARTS:
        grid = np.zeros((cfg.N, cfg.h))
        for layer in range(cfg.N):
            for head in range(cfg.h):
                unit = Unit(part, layer, head)
                grid[layer, head] = intact - accuracy(model, fresh, edits_for([unit]))
                tick()
        lost[part] = grid
    return Grid(intact, lost, fresh.n, time.perf_counter() - start)
