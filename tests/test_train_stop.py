"""A stop must stop (issue 15, item 3): no step after it, and every number shown is the model's.

Streamlit starts the next script run at once when the learner clicks, while the thread of
the run that was training is still inside `run_training`. These tests train in a real
second thread and stop it from the test's thread, as the page does. They wait on events
and joins, never on fixed sleeps.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
import torch
from apptest_helpers import app

from explorer.core.settings import Settings
from explorer.text.i18n import percent
from explorer.training.run import (
    EVAL_SEED,
    ModelKey,
    build_model_for,
    evaluation_task,
    held_out,
    request_stop,
    run_training,
    start_training,
    stop_and_wait,
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

    def __init__(self, state, after: int = 3, raise_at: int | None = None) -> None:
        self.state = state
        self.started = threading.Event()
        self.error: BaseException | None = None
        self.after, self.raise_at = after, raise_at
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _on_step(self, info) -> bool:
        if info.step >= self.after:
            self.started.set()
        if self.raise_at is not None and info.step == self.raise_at:
            raise _FakeStopError  # what st.* does in a run that Streamlit stopped
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


class _FakeStopError(BaseException):
    """Streamlit's StopException and RerunException derive from BaseException too."""


def _long_state(early_stop: bool = False):
    # far more steps than the test needs: only a stop ends this run
    return start_training(_key(), TrainConfig(steps=20_000, batch_size=16, seed=1),
                          early_stop=early_stop)


def test_a_stop_from_another_thread_stops_training_at_once():
    state = _long_state()
    with _Trainer(state) as trainer:
        assert stop_and_wait(state, "click", timeout=WAIT)
        step, history, params = state.step, len(state.history), _params(state.model)
        shown = state.accuracy  # what the page shows once stop_and_wait returned
        trainer.thread.join(WAIT)
        assert not trainer.thread.is_alive() and trainer.error is None
    # no step after the wait, and the model is the one that was evaluated
    assert state.step == step == len(state.history) == history
    assert [h.step for h in state.history] == list(range(1, step + 1))
    assert 3 <= step < state.config.steps
    assert _same(params, _params(state.model))
    assert not state.running and state.stopped and state.stop_reason == "click"
    assert not state.model.training
    assert shown is not None
    assert shown == state.accuracy == held_out(state.model, state.task).accuracy
    assert state.held_out is not None and state.held_out.total == 200


def test_a_streamlit_interrupt_lets_go_of_the_model_and_the_next_run_finishes_it():
    state = _long_state()
    with _Trainer(state, after=1, raise_at=6) as trainer:
        trainer.thread.join(WAIT)
        assert isinstance(trainer.error, _FakeStopError)
        assert state.running and state.step == 6 and state.accuracy is None
        params = _params(state.model)
        assert stop_and_wait(state, "stop_button", timeout=WAIT)  # the next script run
    assert state.step == 6 and _same(params, _params(state.model))
    assert not state.running and state.stopped and state.stop_reason == "stop_button"
    assert state.accuracy == held_out(state.model, state.task).accuracy


def test_a_stop_during_the_stop_check_still_stops():
    """With "Stop when learned" on, the stop check decodes between steps: it stops too."""
    state = _long_state(early_stop=True)
    with _Trainer(state, after=30) as trainer:
        assert stop_and_wait(state, "click", timeout=WAIT)
        step, params = state.step, _params(state.model)
        trainer.thread.join(WAIT)
    assert state.step == step and _same(params, _params(state.model))
    assert state.stopped or state.learned


def test_a_stop_before_training_started_trains_nothing():
    state = start_training(_key(), TrainConfig(steps=50, batch_size=16))
    fresh = _params(state.model)
    request_stop(state, "click")
    run_training(state, lambda info: pytest.fail("no step may run after a stop request"))
    assert state.step == 0 and not state.running and state.accuracy is None
    assert _same(fresh, _params(state.model))


def test_waiting_gives_up_while_another_thread_holds_the_model():
    state = start_training(_key(), TrainConfig(steps=50, batch_size=16))
    with state.lock:  # a training thread that does not let go (a stuck, busy server)
        assert not stop_and_wait(state, "click", timeout=0.05)
    assert state.running and state.accuracy is None and state.stop_request.is_set()
    assert stop_and_wait(state, "click", timeout=WAIT)  # once it has let go
    assert not state.running


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


def test_the_page_stops_a_run_still_training_before_it_shows_numbers():
    """The page's rerun finds the model still being trained by an earlier run's thread."""
    state = _long_state()
    with _Trainer(state) as trainer:
        at = app("train", train_state=state)  # the run a click starts (fast reruns)
        assert not at.exception, at.exception
        trainer.thread.join(WAIT)
        assert not trainer.thread.is_alive()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Steps"] == f"{state.step} / 20000"
    assert metrics["Exact-sequence accuracy"] == percent(state.accuracy)
    assert metrics["Final loss per token"] == f"{state.history[-1].loss:.3f}"
    assert any(f"Training stopped at step {state.step} of 20000" in w.value
               for w in at.warning)
    at.run()  # another click, with nothing running: the same numbers
    assert {m.label: m.value for m in at.metric} == metrics


def test_train_pressed_while_an_earlier_run_still_trains_stops_it_and_trains_anew():
    at = app("train", tr_steps=50, tr_batch=16)
    old = _long_state()
    with _Trainer(old) as trainer:
        at.session_state["train_state"] = old  # the earlier run's model, still training
        at.button(key="tr_train").click().run()
        assert not at.exception, at.exception
        trainer.thread.join(WAIT)
        assert not trainer.thread.is_alive()
    step, params = old.step, _params(old.model)
    assert step < old.config.steps and old.stop_request.is_set()
    new = at.session_state["train_state"]
    assert new is not old and new.step == 50 and not new.running
    assert {m.label: m.value for m in at.metric}["Steps"] == "50 / 50"
    assert old.step == step and _same(params, _params(old.model))  # nothing trains it now


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
