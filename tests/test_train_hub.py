"""The whole class presses Train: one training per request, one per core, in turn.

The hub trains in its own threads; these tests wait on its events and on the training's
own state, never on fixed sleeps. A stand-in runner that blocks until the test lets it go
makes the queue's order deterministic.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
import torch

from explorer.core.settings import Settings
from explorer.training.hub import Hub, Request, Ticket, own_copy
from explorer.training.run import (
    ModelKey,
    TrainedState,
    run_training,
    start_training,
)
from explorer.training.settings import TrainSettings
from explorer.training.task import task_for
from explorer.training.worker import thread_share

WAIT = 60.0  # seconds: a generous bound on a busy machine; never reached normally


def _request(seed: int = 0, steps: int = 20, early_stop: bool = False) -> Request:
    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings(seed=seed)), task)
    return Request(key, replace(TrainSettings().train_config(seed), steps=steps),
                   early_stop, None)


def _weights(state: TrainedState) -> bytes:
    return b"".join(p.detach().numpy().tobytes() for p in state.model.state_dict().values())


class Gate:
    """A runner that holds each training until the test opens its gate (by key seed)."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.gates: dict[int, threading.Event] = {}
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def gate(self, seed: int) -> threading.Event:
        with self.lock:
            return self.gates.setdefault(seed, threading.Event())

    def __call__(self, request, state: TrainedState, on_step, wants_weights,
                 threads) -> TrainedState:
        seed = state.key.seed
        with self.changed:
            self.started.append(seed)
            self.running += 1
            self.most = max(self.most, self.running)
            self.changed.notify_all()
        try:
            gate = self.gate(seed)
            while not gate.wait(0.05):
                if state.stop_request.is_set():
                    break
            return run_training(state, on_step)
        finally:
            with self.changed:
                self.running -= 1
                self.changed.notify_all()

    def wait_started(self, n: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.started) >= n, WAIT)


def _finish(hub: Hub, ticket: Ticket) -> TrainedState:
    assert ticket.job.done.wait(WAIT)
    state = hub.result(ticket)
    assert state is not None
    return state


def test_training_is_deterministic():
    """Same request, two trainings: the same bytes (what makes sharing one training right)."""
    r = _request(seed=3, steps=30, early_stop=True)
    runs = []
    for _ in range(2):
        state = start_training(r.key, r.config, early_stop=True)
        run_training(state)
        runs.append(state)
    assert _weights(runs[0]) == _weights(runs[1])
    assert [h.loss for h in runs[0].history] == [h.loss for h in runs[1].history]
    assert runs[0].accuracy == runs[1].accuracy


def test_a_training_with_dropout_is_deterministic_whatever_else_draws_random_numbers():
    """Dropout's masks come from the training's own generator, not torch's global one that
    every thread of the server shares: the same request gives the same bytes even when
    something else draws from the global generator in between."""
    r = _request(seed=3, steps=15)
    key = replace(r.key, config=replace(r.key.config, dropout=0.3))
    runs = []
    for disturb in (0, 1):
        torch.manual_seed(disturb)
        state = start_training(key, r.config)

        def draw(info, disturb=disturb):
            torch.rand(disturb * 7 + 1)  # another session's random numbers, between steps

        run_training(state, draw)
        runs.append(state)
    assert _weights(runs[0]) == _weights(runs[1])
    assert _weights(runs[0]) != _weights(start_training(key, r.config))  # it did train
    assert [h.loss for h in runs[0].history] == [h.loss for h in runs[1].history]


@pytest.mark.parametrize("dropout", [0.0, 0.1])
def test_the_number_of_threads_does_not_change_the_trained_weights(dropout):
    """Trained on one thread or on the counts the worker allows changing between steps, the
    same bytes: a training's result does not depend on the threads it had (bench/train_wait.py
    --threads 2 times a training on both cores). With dropout the worker allows one thread
    (`thread_share`): on a 2-core AMD EPYC torch's attention softmax backward rounds
    differently on two threads then, and the weights differ from about the 7th step."""
    r = _request(seed=2, steps=12)
    key = replace(r.key, config=replace(r.key.config, dropout=dropout))
    before = torch.get_num_threads()
    runs = []
    try:
        for switching in (False, True):
            torch.set_num_threads(1)
            state = start_training(key, r.config)

            def switch(info, switching=switching):
                if switching:
                    torch.set_num_threads(thread_share(1 + info.step % 2, key.config))

            run_training(state, switch)
            runs.append(state)
    finally:
        torch.set_num_threads(before)
    assert _weights(runs[0]) == _weights(runs[1])
    assert runs[0].accuracy == runs[1].accuracy


def test_equal_requests_train_once_and_each_gets_its_own_copy():
    hub = Hub(slots=2)
    r = _request(seed=1)
    tickets = [None, None]

    def ask(i: int) -> None:
        tickets[i] = hub.join(r)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(WAIT)
    a, b = (_finish(hub, t) for t in tickets)
    assert hub.trainings == 1
    assert _weights(a) == _weights(b)
    assert a.model is not b.model and a.step == b.step == 20
    with torch.no_grad():
        next(a.model.parameters()).add_(1.0)  # one learner changes its copy
    assert _weights(a) != _weights(b)
    assert _weights(b) == _weights(own_copy(tickets[1].job.state))
    # a learner asking later gets the finished training, without training again
    c = _finish(hub, hub.join(r))
    assert hub.trainings == 1 and _weights(c) == _weights(b)


def test_at_most_slots_train_and_the_rest_wait_in_order():
    gate = Gate()
    hub = Hub(slots=2, runner=gate)
    tickets = [hub.join(_request(seed=s, steps=5)) for s in range(5)]
    gate.wait_started(2)
    assert gate.started == [0, 1]
    places = [hub.place(t) for t in tickets]
    assert [p.ahead for p in places] == [0, 0, 0, 1, 2]
    assert places[2].seconds > 0 and places[4].seconds > places[3].seconds > places[2].seconds
    for s in range(5):
        gate.gate(s).set()
    for t in tickets:
        _finish(hub, t)
    assert gate.started == [0, 1, 2, 3, 4]  # order of arrival
    assert gate.most == 2


@pytest.mark.parametrize("reason", ["stop_button", "tab_closed"])
def test_leaving_the_queue(reason):
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    first = hub.join(_request(seed=0, steps=5))
    gate.wait_started(1)
    queued = hub.join(_request(seed=1, steps=5))
    last = hub.join(_request(seed=2, steps=5))
    assert hub.place(last).ahead == 1
    assert hub.leave(queued, reason) is None  # nothing trained yet: nothing to keep
    assert queued.job.status == "dropped" and queued.done
    assert hub.place(last).ahead == 0
    gate.gate(0).set()
    gate.gate(2).set()
    _finish(hub, first)
    _finish(hub, last)
    assert gate.started == [0, 2]  # the one that left never trained


def test_the_time_limit_counts_training_not_the_queue():
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    first = hub.join(_request(seed=0, steps=5))
    gate.wait_started(1)
    waiting = replace(_request(seed=1, steps=5), time_limit=0.5)
    second = hub.join(waiting)
    # the first training holds the only slot for longer than the second's whole limit
    assert not second.job.done.wait(1.0)
    gate.gate(0).set()
    gate.gate(1).set()
    _finish(hub, first)
    state = _finish(hub, second)
    assert state.step == 5 and not state.stopped  # five steps take far less than 0.5 s


def test_a_learner_who_stops_alone_ends_the_training():
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    ticket = hub.join(_request(seed=0, steps=2000))
    gate.gate(0).set()
    with hub._lock:  # noqa: SLF001 -- wait until it trains
        assert hub._lock.wait_for(lambda: ticket.state.step >= 3, WAIT)
    state = hub.leave(ticket, "stop_button")
    assert state is not None and state.stopped and state.stop_reason == "stop_button"
    assert 3 <= state.step < 2000 and state.accuracy is not None
    # a later request for the same settings trains again: a stopped result is not shared
    again = hub.join(_request(seed=0, steps=2000))
    assert again.job is not ticket.job
    hub.leave(again, "stop_button")


def _two_waiting(seed: int, steps: int) -> tuple[Hub, Ticket, Ticket]:
    """Two learners on one training (one slot), which has run at least three steps."""
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    r = _request(seed=seed, steps=steps)
    first, second = hub.join(r), hub.join(r)
    gate.gate(seed).set()
    with hub._lock:  # noqa: SLF001
        assert hub._lock.wait_for(lambda: first.state.step >= 3, WAIT)
    return hub, first, second


def test_a_learner_who_stops_while_others_wait_gets_a_copy_and_the_others_go_on():
    hub, staying, leaving = _two_waiting(seed=0, steps=200)
    mine = hub.leave(leaving, "stop_button")
    assert mine is not None and mine.stopped and mine.stop_reason == "stop_button"
    assert mine.step < 200 and mine.accuracy is not None
    theirs = _finish(hub, staying)
    assert theirs.step == 200 and not theirs.stopped
    assert mine.model is not theirs.model


def test_an_experiment_takes_its_turn_in_the_same_queue():
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    first = hub.join(_request(seed=0, steps=5))
    gate.wait_started(1)
    later = hub.join(_request(seed=1, steps=5))
    gate.gate(1).set()
    places, ran = [], threading.Event()

    def on_wait(place):
        places.append(place)
        gate.gate(0).set()  # the training ahead may finish now

    # the experiment arrived after `later`: it waits for both
    with hub.turn(3.0, on_wait):
        assert gate.started == [0, 1] and later.done
        ran.set()
    assert ran.is_set() and places[0].ahead == 1
    gate.gate(1).set()
    _finish(hub, first)


def test_a_click_while_waiting_for_a_turn_leaves_the_queue():
    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    first = hub.join(_request(seed=0, steps=5))
    gate.wait_started(1)

    class ClickError(Exception):  # a click: Streamlit stops the old run
        pass

    def on_wait(place):
        raise ClickError

    with pytest.raises(ClickError), hub.turn(3.0, on_wait):
        pytest.fail("the turn came before the training ahead ended")
    after = hub.join(_request(seed=1, steps=5))
    assert hub.place(after).ahead == 0  # the experiment is no longer queued
    gate.gate(0).set()
    gate.gate(1).set()
    _finish(hub, first)
    _finish(hub, after)


def test_a_copy_once_taken_is_given_again_to_a_later_run():
    """A click may stop the page's run between taking the copy and keeping it: the next
    run asks again (result, or leave) and gets the same copy, not nothing."""
    hub = Hub(slots=1)
    ticket = hub.join(_request(seed=6, steps=5))
    first = _finish(hub, ticket)
    assert hub.result(ticket) is first
    assert hub.leave(ticket, "click") is first
    assert ticket.job.waiting == 0


def test_leaving_without_a_copy_copies_nothing_and_stops_a_training_nobody_waits_for():
    hub, a, b = _two_waiting(seed=7, steps=2000)
    assert hub.leave(b, "click", want_copy=False) is None and not a.job.snapshots
    assert hub.leave(a, "click", want_copy=False) is None
    assert a.job.done.wait(WAIT) and a.state.stopped  # nobody waited: it stopped


def test_a_copy_not_ready_in_time_is_taken_when_asked_again(monkeypatch):
    import explorer.training.hub as H

    gate = Gate()
    hub = Hub(slots=1, runner=gate)
    r = _request(seed=9, steps=2000)
    staying, leaving = hub.join(r), hub.join(r)
    monkeypatch.setattr(H, "SNAPSHOT_WAIT", 0.0)  # the training has not stepped yet
    assert hub.leave(leaving, "stop_button") is None and leaving.pending is not None
    gate.gate(9).set()  # now it trains, and makes the copy after its next step
    assert leaving.pending[0].wait(WAIT)
    mine = hub.leave(leaving, "stop_button")
    assert mine is not None and mine.stopped and mine.stop_reason == "stop_button"
    assert hub.leave(leaving, "stop_button") is mine
    hub.leave(staying, "click", want_copy=False)


def test_a_failed_training_gives_no_model():
    def broken(request, state, on_step, wants_weights, threads):
        raise RuntimeError("out of memory")

    hub = Hub(slots=1, runner=broken)
    ticket = hub.join(_request(seed=8, steps=5))
    assert ticket.job.done.wait(WAIT)
    assert hub.result(ticket) is None
    assert str(ticket.job.error) == "out of memory" and not ticket.state.running
    later = hub.join(_request(seed=8, steps=5))  # a failure is not kept for later askers
    assert later.job is not ticket.job
    assert later.job.done.wait(WAIT)


def test_a_training_alone_gets_every_slot_and_two_share_them():
    seen: dict[int, list[int]] = {}
    gates = {seed: threading.Event() for seed in (1, 2)}
    started = threading.Semaphore(0)

    def runner(request, state, on_step, wants_weights, threads):
        seed = state.key.seed
        seen.setdefault(seed, []).append(threads())
        started.release()
        assert gates[seed].wait(WAIT)
        seen[seed].append(threads())
        return run_training(state, on_step)

    hub = Hub(slots=2, runner=runner)
    first = hub.join(_request(seed=1, steps=3))
    assert started.acquire(timeout=WAIT)
    second = hub.join(_request(seed=2, steps=3))
    assert started.acquire(timeout=WAIT)
    gates[2].set()
    assert second.job.done.wait(WAIT)
    gates[1].set()
    assert first.job.done.wait(WAIT)
    assert seen[1][0] == 2  # alone when it started
    assert seen[2] == [1, 1]  # two trainings: one slot each
    assert seen[1][1] == 2  # the other one has ended: both again


# ---- worker processes ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def processes():
    from explorer.training.worker import ProcessRunner

    runner = ProcessRunner(keep=1)
    yield runner
    runner.close()


def test_a_worker_process_trains_the_same_model_as_a_thread(processes):
    r = _request(seed=4, steps=30, early_stop=True)
    here = start_training(r.key, r.config, early_stop=True)
    run_training(here)
    hub = Hub(slots=1, runner=processes)
    there = _finish(hub, hub.join(r))
    assert _weights(there) == _weights(here)
    assert [h.loss for h in there.history] == [h.loss for h in here.history]
    assert there.accuracy == here.accuracy and there.learned == here.learned
    assert not there.running and there.held_out == here.held_out


def test_a_worker_process_stops_and_copies_on_request(processes):
    hub = Hub(slots=1, runner=processes)
    r = _request(seed=5, steps=2000)
    staying, leaving = hub.join(r), hub.join(r)
    with hub._lock:  # noqa: SLF001 -- wait until it trains
        assert hub._lock.wait_for(lambda: staying.state.step >= 3, WAIT)
    mine = hub.leave(leaving, "stop_button")
    assert mine is not None and mine.stopped and mine.stop_reason == "stop_button"
    assert 3 <= mine.step < 2000 and mine.accuracy is not None
    # the copy's weights are the training's at its last step, not the untrained ones
    fresh = start_training(r.key, r.config)
    assert _weights(mine) != _weights(fresh)
    theirs = hub.leave(staying, "stop_button")  # the last learner stops the training
    assert theirs is not None and theirs.stopped and theirs.step >= mine.step
    assert staying.job.done.is_set()


def test_a_worker_that_may_use_two_threads_trains_the_bytes_of_one(processes):
    r = _request(seed=6, steps=60, early_stop=True)
    here = start_training(r.key, r.config, early_stop=True)
    run_training(here)  # the tests' one thread (conftest)
    hub = Hub(slots=2, runner=processes)  # alone: the worker may use two
    ticket = hub.join(r)
    assert ticket.job.done.wait(WAIT)
    there = hub.result(ticket)
    assert there is not None
    assert _weights(there) == _weights(here)
    assert [h.loss for h in there.history] == [h.loss for h in here.history]


def test_a_training_with_dropout_gets_one_thread_whatever_the_hubs_share():
    """The count is chosen by timing: with dropout it could change the trained bytes."""
    config = _request().key.config
    assert thread_share(2, replace(config, dropout=0.0)) == 2
    assert thread_share(2, replace(config, dropout=0.1)) == 1
    assert thread_share(1, replace(config, dropout=0.0)) == 1
