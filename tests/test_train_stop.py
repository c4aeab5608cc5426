"""A stop must stop: no step after it, and every number shown is the model's.

A training runs in a thread (or a worker process) of the hub while the learner's page asks
it to stop (`request_stop`). These tests train in a real second thread and stop it from the
test's thread. They wait on events and joins, never on fixed sleeps.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
import torch

from explorer.core.settings import Settings
from explorer.training.run import (
    EVAL_SEED,
    ModelKey,
    build_model_for,
    evaluation_task,
    held_out,
    request_stop,
    run_training,
    start_training,
)
from explorer.training.settings import TrainSettings
from explorer.training.task import task_for
from transformer.train import StepInfo, TrainConfig, sequence_accuracy

WAIT = 60.0  # seconds: a generous bound for a busy two-core machine; never reached normally


def _key() -> ModelKey:
    task, _ = task_for("copy", "digits", "")
    return ModelKey.of(TrainSettings().model_settings(Settings()), task)


def _params(model) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


class _Trainer:
    """run_training in a thread of its own; `started` is set once it has done `after` steps."""

    def __init__(self, state, after: int = 3) -> None:
        self.state = state
        self.started = threading.Event()
        self.error: BaseException | None = None
        self.after = after
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _on_step(self, info) -> bool:
        if info.step >= self.after:
            self.started.set()
        return False

    def _run(self) -> None:
        try:
            run_training(self.state, self._on_step)
        except BaseException as exc:  # noqa: BLE001 - kept for the test to look at
            self.error = exc
        finally:
            self.started.set()

    def __enter__(self):
        self.thread.start()
        assert self.started.wait(WAIT), "training did not start"
        return self

    def __exit__(self, *exc) -> None:
        request_stop(self.state)  # never leave a thread training after a failed assert
        self.thread.join(WAIT)


def _long_state(early_stop: bool = False):
    # far more steps than the test needs: only a stop ends this run
    return start_training(_key(), TrainConfig(steps=20_000, batch_size=16, seed=1),
                          early_stop=early_stop)


def test_a_stop_from_another_thread_stops_training_at_once():
    state = _long_state()
    with _Trainer(state) as trainer:
        request_stop(state, "click")
        trainer.thread.join(WAIT)
        assert not trainer.thread.is_alive() and trainer.error is None
    # no step after the stop was seen, and the model is the one that was evaluated
    step = state.step
    assert step == len(state.history)
    assert [h.step for h in state.history] == list(range(1, step + 1))
    assert 3 <= step < state.config.steps
    assert not state.running and state.stopped and state.stop_reason == "click"
    assert not state.model.training
    assert state.accuracy == held_out(state.model, state.task).accuracy
    assert state.held_out is not None and state.held_out.total == 200


def test_a_stop_during_the_stop_check_still_stops():
    """With "Stop when learned" on, the stop check decodes between steps: it stops too."""
    state = _long_state(early_stop=True)
    with _Trainer(state, after=30) as trainer:
        request_stop(state, "click")
        trainer.thread.join(WAIT)
        assert not trainer.thread.is_alive()
    assert state.step < state.config.steps and not state.running
    assert state.stopped or state.learned


def test_a_stop_before_training_started_trains_nothing():
    state = start_training(_key(), TrainConfig(steps=50, batch_size=16))
    fresh = _params(state.model)
    request_stop(state, "click")
    run_training(state, lambda info: pytest.fail("no step may run after a stop request"))
    assert state.step == 0 and not state.running and state.accuracy is None
    assert _same(fresh, _params(state.model))


def test_held_out_matches_sequence_accuracy_and_counts_lengths():
    key = _key()
    task = key.task_obj
    state = start_training(key, TrainConfig(steps=60, batch_size=32, seed=2))
    run_training(state)
    result = held_out(state.model, task)
    # the held-out sequences: the task's held-out split, which training never draws
    assert result.accuracy == sequence_accuracy(state.model, evaluation_task(task), n=200,
                                                seed=EVAL_SEED)
    assert result.total == sum(n for _, n in result.by_length.values()) == 200
    assert result.right == sum(r for r, _ in result.by_length.values())
    assert set(result.by_length) <= set(task.held_lengths)
    assert result.wrong_lengths() == sorted(
        n for n, (r, total) in result.by_length.items() if r < total)
    untrained = held_out(build_model_for(key), task)
    assert untrained.right == 0 and untrained.wrong_lengths() == sorted(untrained.by_length)


def _stub_model(**config):
    """Just what the stop check reads of a model: its config."""
    from types import SimpleNamespace

    base = {"dropout": 0.0, "decoder_mask": "subsequent"}
    return SimpleNamespace(config=SimpleNamespace(**{**base, **config}))


def test_a_quick_look_spares_a_decoding_check_when_it_fails(monkeypatch):
    from explorer.training import run as T

    calls: list[tuple[int, bool]] = []
    results = {T.QUICK_SEQUENCES: 0.9, T.CHECK_SEQUENCES: 1.0}

    def fake(model, task, n, seed, forced=False):
        calls.append((n, forced))
        return results[n]

    monkeypatch.setattr(T, "sequence_accuracy", fake)
    task, _ = task_for("copy", "digits", "")
    broken = _stub_model(decoder_mask="none")  # teacher forcing would see the answer
    assert not T.learned(broken, task, 25) and calls == [(T.QUICK_SEQUENCES, False)]
    calls.clear()
    results[T.QUICK_SEQUENCES] = 0.96  # within the slack: the full check decides
    assert T.learned(broken, task, 50)
    assert calls == [(T.QUICK_SEQUENCES, False), (T.CHECK_SEQUENCES, False)]
    results[T.CHECK_SEQUENCES] = 0.995
    assert not T.learned(broken, task, 75)  # all 200 must be right
    calls.clear()
    # under the subsequent mask: one teacher-forced pass over the full check, no quick look
    assert not T.learned(_stub_model(), task, 100)
    assert calls == [(T.CHECK_SEQUENCES, True)]
    results[T.CHECK_SEQUENCES] = 1.0
    assert T.learned(_stub_model(), task, 125)


def test_a_check_follows_a_batch_that_was_nearly_all_right():
    from explorer.training import run as T

    task, _ = task_for("copy", "digits", "")
    gap = T.CHECK_EVERY // T.HINT_GAPS

    def due(step: int, exact: float, last: int = 0, **config) -> bool:
        state = SimpleNamespace(model=_stub_model(**config), task=task)
        return T.check_due(state, StepInfo(step, 1000, 0.1, 0.9, 1e-3, 1.0, exact), last)

    assert not due(7, 0.5)  # the batch says: not yet
    assert due(7, 1.0) and due(7, 1 - T.QUICK_SLACK)
    assert not due(7, 1.0, last=7 - gap + 1) and due(7, 1.0, last=7 - gap)  # a gap between
    # unfair hints (dropout scores the batch with units dropped; a broken mask sees the
    # answer): every CHECK_EVERY steps instead, whatever the batch says
    for config in ({"dropout": 0.1}, {"decoder_mask": "none"}):
        assert not due(7, 1.0, **config)
        assert due(T.CHECK_EVERY, 0.0, **config)
