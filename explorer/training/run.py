"""One learner's training run: the model's key, its trained state, stopping, evaluation.

Pure Python and torch (no streamlit). The page keeps a `TrainedState` in the learner's
`st.session_state`, never in a shared cache: a trained model belongs to the session that
trained it.

- `ModelKey` is everything that fixes a model's architecture, task and initial weights;
  `build_model_for(key)` makes the fresh, untrained model (the same weights every time).
- `start_training` and `run_training` train it; progress is written into the state step by
  step. `request_stop`, from any thread, stops it after its current step (the training's
  own thread then evaluates it: `finish`).
- `held_out` is the evaluation shown after training (other sequences than the stop checks').
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import torch

from transformer import dates as D
from transformer.config import TransformerConfig
from transformer.film import Film, Probe, film_cap
from transformer.model import EncoderDecoder, build_model
from transformer.tasks import DIGITS, Task
from transformer.train import StepInfo, TrainConfig, exact_matches, sequence_accuracy, train

from ..core.settings import TIME_LIMIT, Settings
from ..text.i18n import t

# When to check (check_due): after a step whose own batch was nearly all right (QUICK_SLACK),
# at most every CHECK_EVERY / HINT_GAPS steps; with dropout, every CHECK_EVERY steps.
CHECK_EVERY = 25
HINT_GAPS = 5
CHECK_SEQUENCES = 200  # fresh sequences per early-stop check; all must be right
# A quick first look before a check that decodes (a broken decoder mask): failing on a few
# sequences costs a quarter of decoding 200. It, and the hint before any check, may miss up
# to QUICK_SLACK more than the check allows, so a model the full check would pass is not
# held back by chance.
QUICK_SEQUENCES = 50
QUICK_SLACK = 0.05
# The date task: its steps and its decoding are ~10x a toy task's, so it is checked less
# often; and it stops at 98.5% of a check right (the learner waits for a model that reads
# dates, not for the last 1%, which takes minutes more: bench/dates_train.py).
DATE_CHECK_EVERY = 100
DATE_STOP_SHARE = 0.985
EVAL_SEQUENCES = 200  # held-out sequences for the exact-sequence accuracy shown
EVAL_SEED = 4321  # their seed; the stop checks use 10_000 + step, training cfg.seed


@dataclass(frozen=True)
class ModelKey:
    """Everything that fixes a model: its task, its architecture and the seed of its weights."""

    task: str  # a name of explorer.training.settings.TRAIN_TASKS
    symbols: tuple[str, ...]  # the task's symbols: the digits, the learner's words, or the
    # date task's characters
    max_len: int  # the task's longest sequence
    config: TransformerConfig  # the architecture, sized for the task's vocabulary
    seed: int  # the initial weights

    @classmethod
    def of(cls, settings: Settings, task: Task | D.DateTask) -> ModelKey:
        """The key of the model the sidebar's `settings` describe, for `task`."""
        # positions a task sequence can reach: its symbols plus <s> or </s>
        cfg = replace(settings.model_config(len(task.vocab)), max_len=task.max_len + 2)
        return cls(task.name, task.symbols, task.max_len, cfg, settings.seed)

    @property
    def task_obj(self) -> Task | D.DateTask:
        if self.task == "dates":
            return D.DateTask()
        return Task(self.task, self.symbols, 1, self.max_len)

    def describe(self) -> str:
        """The task and the model, for a message (in the language of the run)."""
        cfg = self.config
        if self.task == "dates":
            syms = t("train.describe_dates")
        elif self.symbols == DIGITS:
            syms = t("train.describe_digits")
        else:
            syms = t("train.describe_words", n=len(self.symbols))
        return t("train.describe", task=t(f"train.task_{self.task}"), symbols=syms, N=cfg.N,
                 d_model=cfg.d_model, h=cfg.h, d_ff=cfg.d_ff,
                 dropout=f"{cfg.dropout:g}", seed=self.seed)


def build_model_for(key: ModelKey) -> EncoderDecoder:
    """The fresh model for `key`: always the same initial weights (from key.seed)."""
    return build_model(key.config, seed=key.seed).eval()


@dataclass
class TrainedState:
    """One learner's trained model and what happened while training it."""

    key: ModelKey
    # None until it is built where it trains (`with_model`): a worker process builds its
    # own, and the hub's copy of that training gets the worker's (worker.py)
    model: EncoderDecoder | None
    task: Task | D.DateTask
    config: TrainConfig
    history: list[StepInfo] = field(default_factory=list)
    running: bool = True  # True while a script run trains it
    stopped: bool = False  # ended before config.steps (Stop, the time limit, a tab closed)
    stop_reason: str = ""  # one of STOP_REASONS (or a caller's own text); see stop_reason_text
    accuracy: float | None = None  # exact-sequence accuracy on the held-out sequences
    held_out: HeldOut | None = None  # that evaluation, with its counts per length
    early_stop: bool = False  # stop checks (check_due); stop at stop_share(task)
    learned: bool = False  # stopped early because a check got every sequence right
    version: int = 0  # bumped on every change, for memoised decodings
    film: Film | None = None  # the attention of a probe input while it trained
    time_limit: float = TIME_LIMIT  # seconds of training before it is stopped
    # Asked from another thread (request_stop): the training loop stops after its step.
    stop_request: threading.Event = field(default_factory=threading.Event, repr=False,
                                          compare=False)
    requested_reason: str = ""  # the STOP_REASONS code given with the request
    # Held by the thread that trains (or finishes) the model: while another thread holds it,
    # the model may still change, so nothing about it may be shown.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def step(self) -> int:
        return self.history[-1].step if self.history else 0

    @property
    def seconds(self) -> float:
        return self.history[-1].elapsed if self.history else 0.0


def content_id(state: TrainedState) -> tuple:
    """What fixes the trained model of `state`: its key (task, architecture, seed), its
    recipe and the steps it took. Training is deterministic (tests/test_train_hub.py), so
    copies of one training, and two trainings of one request, share their results."""
    return state.key, state.config, state.step


# Why a run stopped early: codes kept in the state, worded when shown (the learner may have
# switched language since).
STOP_REASONS = ("time_limit", "stop_request", "click", "stop_button", "tab_closed",
                "new_training", "question_gone")


def stop_reason_text(reason: str, time_limit: float = TIME_LIMIT) -> str:
    """`reason` (a STOP_REASONS code) in words; any other text is returned as it is."""
    if reason in STOP_REASONS:
        return t(f"train.reason.{reason}", seconds=f"{time_limit:.0f}")
    return reason


def start_training(key: ModelKey, config: TrainConfig, early_stop: bool = False,
                   probe: Probe | None = None, build: bool = True) -> TrainedState:
    """A fresh model for `key`, ready to train with `config` (nothing trained yet).

    With a `probe`, training records the attention film of that input (transformer/film.py).
    `build=False`: the model is built where it trains, when it starts (`with_model`).
    """
    cfg = key.config
    film = Film(probe, cap=film_cap(probe, cfg.N, cfg.h)) if probe is not None else None
    return TrainedState(key, build_model_for(key) if build else None, key.task_obj, config,
                        early_stop=early_stop, film=film)


def with_model(state: TrainedState) -> EncoderDecoder:
    """The state's model, built now (from the key's seed) if it has none yet."""
    if state.model is None:
        state.model = build_model_for(state.key)
    return state.model


def add_step(state: TrainedState, info: StepInfo) -> None:
    """Keep one step's `info` in the state's history (the one place a step is recorded)."""
    state.history.append(info)
    state.version += 1


def record_step(state: TrainedState, info: StepInfo) -> bool:
    """Keep `info` in the state; True if training must stop for the time limit."""
    add_step(state, info)
    if info.elapsed > state.time_limit and info.step < info.steps:
        state.stopped = True
        state.stop_reason = "time_limit"
        return True
    return False


def warm_up() -> None:
    """Train a tiny model for a few steps, then check and decode it (about 1 s, once).

    A process's first training pays for what torch loads on first use, above all
    torch._dynamo, which the first optimiser imports (about 1 s, bench/train_wait.py): a
    worker process does it when it starts rather than in a learner's wait.
    """
    task = Task(name="copy", symbols=DIGITS, min_len=1, max_len=3)
    vocab = len(task.vocab)
    config = TransformerConfig(vocab, vocab, N=1, d_model=8, d_ff=8, h=1, dropout=0.0,
                               max_len=task.max_len + 2)
    state = start_training(ModelKey(task.name, task.symbols, task.max_len, config, 0),
                           TrainConfig(steps=3, batch_size=4))
    run_training(state)  # trains, then evaluates by greedy decoding (finish)
    learned(state.model, task, 0)  # the teacher-forced stop check


def run_training(
    state: TrainedState, on_step: Callable[[StepInfo], bool | None] | None = None
) -> TrainedState:
    """Train `state.model` in place; `on_step(info)` runs after each step, True stops.

    Progress is written into `state` before `on_step` runs, so if `on_step` raises (as
    Streamlit does when the learner clicks during a run) the state keeps every step done.
    A stop request (`request_stop`, from another thread) is seen after every step: the
    loop ends before `on_step` is called again. The calling thread holds `state.lock`
    until it returns or raises (even a BaseException such as Streamlit's StopException).
    """

    last_check = 0

    def callback(info: StepInfo) -> bool:
        nonlocal last_check
        stop = record_step(state, info)
        if state.film is not None:
            state.film.maybe_record(state.model, info.step)
        if state.stop_request.is_set():
            state.stopped = True
            state.stop_reason = state.stop_reason or state.requested_reason or "stop_request"
            return True
        if (state.early_stop and not stop and info.step < info.steps
                and check_due(state, info, last_check)):
            last_check = info.step
            if learned(state.model, state.task, info.step):
                state.learned = True
                stop = True
        if on_step is not None and on_step(info):
            state.stopped = True
            state.stop_reason = state.stop_reason or "stop_request"
            stop = True
        return stop

    with state.lock:
        model = with_model(state)
        if not state.stop_request.is_set():  # stopped before it started: nothing to train
            state.running = True
            if state.film is not None:
                state.film.record(state.model, 0)  # the untrained model: the film's first frame
            train(model, state.task, state.config, callback)
        finish(state, state.requested_reason)
    return state


def request_stop(state: TrainedState, reason: str = "stop_request") -> None:
    """Ask the thread training `state` (if any) to stop after its current step."""
    if not state.stop_request.is_set():
        state.requested_reason = reason
    state.stop_request.set()


def task_meta(task: Task | D.DateTask) -> dict[str, object]:
    """What a checkpoint of a model trained on `task` says of it: its task and symbols, and
    for dates that it reads characters (the sidebar then fixes its token mode)."""
    meta: dict[str, object] = {"task": task.name, "symbols": list(task.symbols)}
    if isinstance(task, D.DateTask):
        meta["token_mode"] = "char"
    return meta


def check_every(task: Task | D.DateTask) -> int:
    """Steps between the early-stop checks of `task`."""
    return DATE_CHECK_EVERY if isinstance(task, D.DateTask) else CHECK_EVERY


def check_due(state: TrainedState, info: StepInfo, last_check: int) -> bool:
    """Whether to run a stop check after this step (the last one ran after `last_check`).

    The step's own batch is a free hint: fresh sequences, scored before the update. When
    nearly all of it was right (`info.exact`), the check looks at fresh sequences, at most
    every check_every(task) / HINT_GAPS steps. The hint is fair only without dropout (which
    scores the batch with units dropped) and under the subsequent mask (a broken one lets
    teacher forcing see the answer); otherwise the check runs every check_every(task) steps.
    """
    every = check_every(state.task)
    cfg = state.model.config
    if cfg is None or cfg.dropout > 0 or cfg.decoder_mask != "subsequent":
        return info.step % every == 0
    return (info.exact >= stop_share(state.task) - QUICK_SLACK
            and info.step - last_check >= max(1, every // HINT_GAPS))


def stop_share(task: Task | D.DateTask) -> float:
    """The share of a check that must be right to stop: all of it, or DATE_STOP_SHARE."""
    return DATE_STOP_SHARE if isinstance(task, D.DateTask) else 1.0


def learned(model: EncoderDecoder, task: Task | D.DateTask, step: int) -> bool:
    """Whether greedy decoding gets enough of CHECK_SEQUENCES fresh sequences right (training
    ones: the date task's held-out days are kept for the evaluation).

    Under the subsequent mask one teacher-forced pass gives greedy decoding's verdicts
    (`exact_matches`); a broken decoder mask is decoded, after a quick look at a few.
    """
    if model.config is not None and model.config.decoder_mask == "subsequent":
        acc = sequence_accuracy(model, task, n=CHECK_SEQUENCES, seed=10_000 + step,
                                forced=True)
        return acc >= stop_share(task)
    quick = sequence_accuracy(model, task, n=QUICK_SEQUENCES, seed=20_000 + step)
    if quick < stop_share(task) - QUICK_SLACK:
        return False
    acc = sequence_accuracy(model, task, n=CHECK_SEQUENCES, seed=10_000 + step)
    return acc >= stop_share(task)


def finish(state: TrainedState, reason: str = "") -> TrainedState:
    """Mark training over (after a normal end or an interruption) and evaluate the model.

    Call it only where no other thread trains the model: at the end of `run_training`, or
    on a copy (`hub.Hub.leave`).
    """
    state.model.eval()
    if (state.running and state.step < state.config.steps and not state.stopped
            and not state.learned):
        state.stopped = True
        state.stop_reason = reason or "click"
    state.running = False
    if state.film is not None and state.step > 0:
        state.film.record(state.model, state.step)  # the model as it ended (if not recorded)
    if state.accuracy is None and state.step > 0:
        state.held_out = held_out(state.model, state.task)
        state.accuracy = state.held_out.accuracy
    state.version += 1
    return state


@dataclass(frozen=True)
class HeldOut:
    """Greedy decoding of held-out sequences: how many were right, in all and per length."""

    right: int
    total: int
    by_length: dict[int, tuple[int, int]]  # source length -> (right, total)

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    def wrong_lengths(self) -> list[int]:
        """The lengths of the sequences it got wrong, shortest first."""
        return [n for n, (right, total) in sorted(self.by_length.items()) if right < total]


def evaluation_task(task: Task | D.DateTask) -> Task | D.DateTask:
    """The task the evaluations draw from: its held-out split (the date task's held-out
    days, a toy task's held-out sequences), which training never sees."""
    return replace(task, split="held_out")


@torch.no_grad()
def held_out(model: EncoderDecoder, task: Task | D.DateTask, n: int = EVAL_SEQUENCES,
             seed: int = EVAL_SEED, batch_size: int = 250) -> HeldOut:
    """Exact-sequence accuracy on `n` random held-out sequences of seed `seed` (sequences,
    or the date task's days, that training never sees: transformer/tasks.py), with counts
    per length. The stop checks (seed 10_000 + step) draw training sequences instead."""
    right, lengths = exact_matches(model, evaluation_task(task), n, seed, batch_size)
    by_length = {int(k): (int(right[lengths == k].sum()), int((lengths == k).sum()))
                 for k in lengths.unique().tolist()}
    return HeldOut(int(right.sum()), n, by_length)

