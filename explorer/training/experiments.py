"""Break a part and retrain: the correct model and a broken one, trained side by side; or a
race of several breaks, one model each, to see which hurts most.

Pure Python and torch (no streamlit). A break is one field of `TransformerConfig`'s break
switches set to a non-default value (transformer/model.py, BREAK_SWITCHES), or a label
smoothing epsilon for the training. Both models start from the same weights (a switch
changes the computation, never a parameter), train on the same task with the same seed,
batches and steps, and are then measured the same way: the loss, teacher-forced token
accuracy and greedy exact accuracy on the same held-out sequences, and the attention of one
probe input. The gap between the two accuracies is what a missing mask teaches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields, replace
from typing import Literal, TypeVar, get_args, get_origin, get_type_hints

import numpy as np
import torch

from transformer import dates as D
from transformer.config import BREAK_SWITCHES, TransformerConfig
from transformer.film import Probe
from transformer.hook_paths import attention_hook
from transformer.hooks import capture
from transformer.model import EncoderDecoder, subsequent_mask
from transformer.tasks import Task
from transformer.tokenize import PAD
from transformer.train import Batch, StepInfo, TrainConfig, greedy_decode

from .hub import Place
from .run import (
    EVAL_SEED,
    EVAL_SEQUENCES,
    TIME_LIMIT,
    ModelKey,
    TrainedState,
    evaluation_task,
    finish,
    request_stop,
    run_training,
    start_training,
)

SMOOTHING = "smoothing"  # the one break that is a training setting, not a model switch
SMOOTHING_RANGE = (0.05, 0.5)  # its epsilon (0 is the correct model's)
BUDGET_RANGE = (20, 2000)  # optimiser steps per model
DEFAULT_BUDGET = 300
ARM_TIME_LIMIT = TIME_LIMIT / 2  # two models share one run's time limit

_HINTS = get_type_hints(TransformerConfig)
T = TypeVar("T", bound="Trainings")


def _alternatives(name: str) -> tuple[object, ...]:
    """The non-default values of one break switch, from its declared type."""
    default = next(f.default for f in fields(TransformerConfig) if f.name == name)
    hint = _HINTS[name]
    values = get_args(hint) if get_origin(hint) is Literal else (True, False)
    return tuple(v for v in values if v != default)


def _break_id(name: str, value: object) -> str:
    return name if isinstance(value, bool) else f"{name}.{value}"


# Every break the panel offers, as "field" or "field.value" -> (field, broken value).
BREAKS: dict[str, tuple[str, object]] = {
    _break_id(name, value): (name, value)
    for name in BREAK_SWITCHES for value in _alternatives(name)
}
BREAK_CHOICES: tuple[str, ...] = (*BREAKS, SMOOTHING)


@dataclass(frozen=True)
class BreakPlan:
    """What the broken model changes: model switches and/or the label smoothing epsilon."""

    choices: tuple[str, ...]  # BREAK_CHOICES, in that order; usually one
    smoothing: float = 0.1  # the broken model's epsilon when SMOOTHING is chosen
    steps: int = DEFAULT_BUDGET  # the budget of each model

    @property
    def single(self) -> str | None:
        """The one part broken, or None for a combination."""
        return self.choices[0] if len(self.choices) == 1 else None


def one_per_switch(choices: tuple[str, ...]) -> tuple[str, ...]:
    """`choices` with only the first value of each switch (the smoothing is one)."""
    seen: set[str] = set()
    kept = []
    for choice in choices:
        switch = BREAKS[choice][0] if choice in BREAKS else choice
        if switch not in seen:
            seen.add(switch)
            kept.append(choice)
    return tuple(kept)


def parse_plan(choices: object, smoothing: object,
               steps: object) -> tuple[BreakPlan, list[str]]:
    """Validate the panel's values (a modified client can send anything): a bad value falls
    back to the default and is reported by its name ("choice", "none", "one_mask",
    "smoothing", "steps"). Two values of one switch (no mask and the inverted mask) cannot
    both apply: the first is kept."""
    bad: list[str] = []
    given = list(choices) if isinstance(choices, (list, tuple)) else [choices]
    valid = tuple(c for c in BREAK_CHOICES if c in given)  # in order, without repeats
    if choices is None or any(c not in BREAK_CHOICES for c in given):
        bad.append("choice")
    one_each = one_per_switch(valid)
    if len(one_each) < len(valid):
        bad.append("one_mask")
        valid = tuple(one_each)
    if not valid:
        if "choice" not in bad:
            bad.append("none")
        valid = BREAK_CHOICES[:1]
    eps = smoothing if isinstance(smoothing, (int, float)) and not isinstance(smoothing, bool) \
        else float("nan")
    if not SMOOTHING_RANGE[0] <= eps <= SMOOTHING_RANGE[1]:
        if SMOOTHING in valid:
            bad.append("smoothing")
        eps = 0.1
    n = steps if isinstance(steps, int) and not isinstance(steps, bool) else -1
    if not BUDGET_RANGE[0] <= n <= BUDGET_RANGE[1]:
        bad.append("steps")
        n = DEFAULT_BUDGET
    return BreakPlan(valid, float(eps), n), bad


def arms(key: ModelKey, config: TrainConfig,
         plan: BreakPlan) -> tuple[tuple[ModelKey, TrainConfig], tuple[ModelKey, TrainConfig]]:
    """The correct and the broken (model key, training config): the same task, seed,
    weights and batches, `plan.steps` steps each; they differ in exactly the plan's parts.
    The correct model trains with ε = 0 when smoothing is broken, else with `config`'s."""
    correct_cfg = replace(config, steps=plan.steps)
    broken_cfg = correct_cfg
    if SMOOTHING in plan.choices:
        correct_cfg = replace(correct_cfg, smoothing=0.0)
        broken_cfg = replace(correct_cfg, smoothing=plan.smoothing)
    switches = dict(BREAKS[c] for c in plan.choices if c in BREAKS)
    broken_key = replace(key, config=replace(key.config, **switches))
    return (key, correct_cfg), (broken_key, broken_cfg)


@dataclass(frozen=True)
class ArmResult:
    """One trained model's measurements."""

    loss: float  # the last training batch's loss per token
    teacher_forced: float  # token accuracy on the held-out sequences, the answer fed in
    greedy: float  # exact-sequence accuracy of greedy decoding on the same sequences
    seconds: float  # training time
    steps: int  # steps done (fewer than planned if stopped)
    probe_answer: tuple[int, ...]  # greedy decoding of the probe input (ids, after <s>)
    self_attn: np.ndarray  # (T, T) decoder self-attention, layer 0, mean over heads
    cross_attn: np.ndarray  # (T, S) cross-attention, last layer, mean over heads


def _set_event() -> threading.Event:
    """An Event already set."""
    event = threading.Event()
    event.set()
    return event


@dataclass(kw_only=True)
class Trainings:
    """Models trained in turn by one background thread (`train_in_background`), then all
    measured the same way (`measure`): an experiment's two, a race's one per break."""

    probe: Probe
    results: tuple[ArmResult, ...] | None = None  # once every model has trained, in order
    # Held by the thread that trains and measures the models: while another thread holds
    # it, the results may still change.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    # Cleared from when a background training is asked for until it has measured every
    # model (`train_in_background`), queue included: `idle.wait(timeout)` waits for it.
    idle: threading.Event = field(default_factory=_set_event, repr=False, compare=False)
    place: Place | None = None  # while it waits for a core: where it stands in the queue
    error: str | None = None  # what ended a background training, if it failed

    @property
    def states(self) -> tuple[TrainedState, ...]:
        """The models, in the order they train (the correct one first)."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """Whether a background training of it is asked for and not yet measured."""
        return not self.idle.is_set()

    @property
    def running(self) -> bool:
        return self.busy or any(s.running for s in self.states) or self.lock.locked()

    @property
    def queued(self) -> bool:
        """Whether it waits for a core (nothing trains yet)."""
        return self.place is not None and self.busy

    def stop(self, reason: str) -> None:
        """Ask every model to stop (a queued one leaves the queue): the background thread
        then measures what was trained, if every model trained a step."""
        for state in self.states:
            request_stop(state, reason)


@dataclass(kw_only=True)
class Experiment(Trainings):
    """A correct and a broken model trained side by side (kept in one learner's session)."""

    plan: BreakPlan
    correct: TrainedState
    broken: TrainedState

    @property
    def states(self) -> tuple[TrainedState, TrainedState]:
        return self.correct, self.broken


@dataclass(kw_only=True)
class Race(Trainings):
    """Which break hurts a task most: the correct model, then one broken model per break,
    each broken alone as its own experiment would be (kept in a teacher's session)."""

    choices: tuple[str, ...]  # BREAK_CHOICES, one model each, in this order
    correct: TrainedState
    broken: tuple[TrainedState, ...]

    @property
    def states(self) -> tuple[TrainedState, ...]:
        return self.correct, *self.broken

    def hurt_most(self) -> int | None:
        """The index in `choices` of the break that hurt most, once measured (`hurt_most`)."""
        return None if self.results is None else hurt_most(self.results[1:])


def hurt_most(broken: tuple[ArmResult, ...]) -> int:
    """Which of the broken models did worst: the lowest greedy exact accuracy (the model on
    its own, what a user sees); a tie goes to the lower teacher-forced accuracy, then to
    the higher loss, then to the first."""
    return min(range(len(broken)), key=lambda i: (broken[i].greedy, broken[i].teacher_forced,
                                                  -broken[i].loss))


def start_experiment(key: ModelKey, config: TrainConfig, plan: BreakPlan,
                     probe: Probe) -> Experiment:
    """Two fresh models (the same initial weights) ready to train; nothing trained yet."""
    (k1, c1), (k2, c2) = arms(key, config, plan)
    return Experiment(plan=plan, correct=_fresh(k1, c1), broken=_fresh(k2, c2), probe=probe)


def _fresh(key: ModelKey, config: TrainConfig, time_limit: float = ARM_TIME_LIMIT
           ) -> TrainedState:
    """One of several models trained in turn: no early stop (they all train the same
    budget), and a part of one run's time limit each."""
    state = start_training(key, config, early_stop=False)
    state.time_limit = time_limit
    return state


# The breaks a race offers unless the teacher picks others: one per switch (the first of
# its values) and label smoothing. Two values of one switch often tie (no mask and the
# inverted one both decode nothing: bench/breaks.py).
RACE_CHOICES = one_per_switch(BREAK_CHOICES)


def start_race(key: ModelKey, config: TrainConfig, choices: tuple[str, ...], smoothing: float,
               steps: int, probe: Probe) -> Race:
    """The correct model and one broken model per break of `choices` (each as
    `start_experiment` of that break alone would make it, `steps` steps each): fresh,
    nothing trained yet. All train without label smoothing but the smoothing break's, so
    that it differs from the correct model whatever the training's own epsilon; together
    they hold a core no longer than one training may (TIME_LIMIT)."""
    config = replace(config, smoothing=0.0)
    limit = TIME_LIMIT / (len(choices) + 1)
    broken = []
    for choice in choices:
        _, (k2, c2) = arms(key, config, BreakPlan((choice,), smoothing, steps))
        broken.append(_fresh(k2, c2, limit))
    return Race(choices=tuple(choices), correct=_fresh(key, replace(config, steps=steps), limit),
                broken=tuple(broken), probe=probe)


def run_experiment(exp: T,
                   on_step: Callable[[int, StepInfo], bool | None] | None = None) -> T:
    """Train each model in turn (the correct one first), then measure them all.
    `on_step(arm, info)` (arm: the model's place in `exp.states`) runs after every step;
    True stops that model (and the ones after it). The calling thread holds `exp.lock`
    until the results are set (or it raises)."""
    with exp.lock:
        states = exp.states
        for arm, state in enumerate(states):
            run_training(state, None if on_step is None else
                         (lambda info, arm=arm: on_step(arm, info)))
            if state.stopped and state.stop_reason != "time_limit":
                for later in states[arm + 1:]:  # a stop ends the experiment
                    request_stop(later, state.stop_reason)
                    with later.lock:  # never started: not running, nothing to evaluate
                        finish(later, state.stop_reason)
                break
        exp.results = measure(exp)
    return exp


class _LeftQueueError(Exception):
    """A queued experiment was stopped before its turn came."""


# A turn: turn(on_wait) is a `with` block that runs once a core is free, calling
# on_wait(place) while it waits (hub.Hub.turn with the expected seconds bound).
Turn = Callable[[Callable[[Place], None]], AbstractContextManager[None]]


def train_in_background(exp: Trainings, turn: Turn,
                        gone: Callable[[], bool] | None = None) -> threading.Thread:
    """Train and measure `exp` in a thread of its own, once `turn` gives it a core, so that
    the learner's clicks, pages and languages leave it going; `exp.stop` ends it.
    `gone()`: whether the learner has gone for good (checked after every step; True stops
    it as "tab_closed"). While it waits, `exp.place` says where; `exp.busy` until the
    results are measured (None when a model trained no step)."""
    exp.idle.clear()

    def on_wait(place: Place) -> None:
        exp.place = place
        if exp.states[0].stop_request.is_set():
            raise _LeftQueueError

    def on_step(arm: int, info: StepInfo) -> bool:
        if gone is not None and gone():
            request_stop(exp.states[arm], "tab_closed")
        return False

    def work() -> None:
        try:
            try:
                with turn(on_wait):
                    exp.place = None
                    run_experiment(exp, on_step)
            except _LeftQueueError:  # stopped while queued: neither trains, both are finished
                exp.place = None
                run_experiment(exp)
        except Exception as exc:  # shown on the learner's page; the server goes on
            exp.error = f"{type(exc).__name__}: {exc}"
            for state in exp.states:  # nobody trains or measures them any more
                state.running = False
        finally:
            exp.place = None
            exp.idle.set()

    thread = threading.Thread(target=work, daemon=True, name="experiment")
    thread.start()
    return thread


def measure(exp: Trainings) -> tuple[ArmResult, ...] | None:
    """Every model measured the same way, or None if one has not trained a step."""
    if any(state.step == 0 for state in exp.states):
        return None
    return tuple(_measure(state, exp.probe) for state in exp.states)


@torch.no_grad()
def teacher_forced_accuracy(model: EncoderDecoder, task: Task | D.DateTask,
                            n: int = EVAL_SEQUENCES, seed: int = EVAL_SEED) -> float:
    """Token accuracy with the correct answer fed to the decoder (as in training), on the
    same `n` held-out sequences that `training.held_out` decodes greedily."""
    src, tgt = evaluation_task(task).sample(n, torch.Generator().manual_seed(seed))
    batch = Batch(src, tgt)
    model.eval()
    log_probs = model.generator(model(batch.src, batch.tgt, batch.src_mask, batch.tgt_mask))
    real = batch.tgt_y != PAD
    return float((log_probs.argmax(-1) == batch.tgt_y)[real].float().mean())


@torch.no_grad()
def _measure(state: TrainedState, probe: Probe) -> ArmResult:
    model, task = state.model, state.task
    model.eval()
    src = torch.tensor([probe.src])
    src_mask = torch.ones(1, 1, src.size(1), dtype=torch.bool)
    tgt = torch.tensor([probe.tgt])
    with capture(model) as cache:
        model(src, tgt, src_mask, subsequent_mask(tgt.size(1)))
    N = model.config.N
    self_attn = cache[attention_hook("decoder", 0, "self_attn", "hook_pattern")][0].mean(0)
    cross = cache[attention_hook("decoder", N - 1, "src_attn", "hook_pattern")][0].mean(0)
    answer = greedy_decode(model, src, src_mask, max_len=len(probe.tgt) + 1)[0, 1:]
    held = state.held_out
    return ArmResult(
        loss=state.history[-1].loss,
        teacher_forced=teacher_forced_accuracy(model, task),
        greedy=held.accuracy if held is not None else 0.0,
        seconds=state.seconds, steps=state.step,
        probe_answer=tuple(answer.tolist()),
        self_attn=self_attn.numpy(), cross_attn=cross.numpy())
