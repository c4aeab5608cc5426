"""Hook points: capture any intermediate tensor of a forward pass with one line in the model.

A `HookPoint` is an identity module placed where a tensor is worth looking at
(`p = self.hook_pattern(p)`). Outside `capture()` it does nothing. Inside
`with capture(model) as cache:` each hook point of *that* model stores what passes through
it in `cache`, under its module path (`"encoder.layers.0.self_attn.hook_pattern"`).
Inside `with intervene(model, {name: edit}):` a hook point passes on `edit(tensor)` instead
(knocking out a head is `intervene(model, {z_name: knock_out([2])})`).

Design choices, each for a reason:
- No `register_forward_hook`: nothing is attached to the model, so nothing can be left
  behind, and a model shared between users (cached by Streamlit) is never mutated.
- The active recording lives in a `ContextVar`: every thread has its own, so two threads
  running two models (or the same model) at the same time never see each other's tensors.
- Names are computed from `model.named_modules()` when the capture starts, so they always
  follow the module path, and only hook points inside the captured model record.
- Interventions use the same mechanism: a shared model is never edited, and an edit made in
  one thread (one learner) is invisible to every other.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType

import torch
from torch import nn


@dataclass
class _Recording:
    """The state of one active capture."""

    names: dict[int, str]  # id(HookPoint) -> its module path in the captured model
    cache: dict[str, object]  # name -> tensor, or name -> list of tensors with history
    history: bool  # keep every call (a decoder run step by step), not just the last


# The active recordings of this thread, innermost last (captures may be nested).
_ACTIVE: contextvars.ContextVar[tuple[_Recording, ...]] = contextvars.ContextVar(
    "transformer_capture", default=()
)
Edit = Callable[[torch.Tensor], torch.Tensor]
# The active interventions of this thread: id(HookPoint) -> the edit applied there.
_EDITS: contextvars.ContextVar[Mapping[int, Edit]] = contextvars.ContextVar(
    "transformer_intervene", default=MappingProxyType({})
)


class HookPoint(nn.Module):
    """Identity module that records its input while a `capture()` of its model is active."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        edit = _EDITS.get().get(id(self))
        if edit is not None:
            x = edit(x)  # recorded below as edited, so the cache shows what went on
        for rec in _ACTIVE.get():
            name = rec.names.get(id(self))
            if name is not None:
                t = x.detach()
                if rec.history:
                    rec.cache.setdefault(name, []).append(t)  # type: ignore[union-attr]
                else:
                    rec.cache[name] = t
        return x


def quiet(points: Iterable[nn.Module] = ()) -> bool:
    """True when no capture is active in this thread and no intervention edits any of
    `points`: those hook points are then identities, and the module around them may compute
    its result with fused kernels instead (edits elsewhere, e.g. at its output, still
    apply)."""
    if _ACTIVE.get():
        return False
    edits = _EDITS.get()
    return not any(id(p) in edits for p in points)


def hook_names(model: nn.Module) -> list[str]:
    """Module paths of every hook point in `model`, in registration order."""
    return [name for name, m in model.named_modules() if isinstance(m, HookPoint)]


@contextmanager
def capture(model: nn.Module, *, history: bool = False) -> Iterator[dict]:
    """Record every hook point of `model` run inside the block into the yielded dict.

    Keys are module paths; values are detached tensors in the order they were produced
    (with `history=True`, a list per key with one tensor per call). Captures may be nested:
    each records its own model's hook points. Nothing is registered on the model and
    nothing outlives the block.
    """
    names = {id(m): name for name, m in model.named_modules() if isinstance(m, HookPoint)}
    cache: dict = {}
    token = _ACTIVE.set((*_ACTIVE.get(), _Recording(names=names, cache=cache, history=history)))
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)


@contextmanager
def intervene(model: nn.Module, edits: Mapping[str, Edit]) -> Iterator[None]:
    """Inside the block, hook point `name` of `model` passes on `edits[name](tensor)`.

    Names are module paths, as `capture()` records them; an unknown name raises a
    ValueError. Nothing is written to the model: the edits live in this thread's context and
    end with the block. Interventions may be nested; the inner one wins at a shared name.
    """
    points = {name: m for name, m in model.named_modules() if isinstance(m, HookPoint)}
    unknown = sorted(set(edits) - set(points))
    if unknown:
        raise ValueError(f"No hook point named {unknown[:3]} in this model.")
    token = _EDITS.set({**_EDITS.get(), **{id(points[n]): e for n, e in edits.items()}})
    try:
        yield
    finally:
        _EDITS.reset(token)


def knock_out(heads: Iterable[int]) -> Edit:
    """An edit for a per-head hook point (batch, h, seq, d_k): the listed heads' outputs
    become 0, as if those heads were not there (W^O then sees zeros in their columns)."""
    index = sorted(set(heads))

    def edit(x: torch.Tensor) -> torch.Tensor:
        if any(not 0 <= i < x.size(1) for i in index):
            raise ValueError(f"heads {index} out of range: this attention has {x.size(1)}.")
        out = x.clone()
        out[:, index] = 0
        return out

    return edit


def zero(x: torch.Tensor) -> torch.Tensor:
    """An edit that removes a whole sublayer's output (hook_sublayer_out): only the residual
    path carries on."""
    return torch.zeros_like(x)
