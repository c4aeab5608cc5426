"""A worker's torch threads: its share of the cores while that makes steps shorter, else one.

`Threads` is fed simulated step times here (each step takes what its thread count costs),
so its choices are deterministic. The hub's share of the cores and a worker that may use two
threads are tested in tests/test_train_hub.py.
"""

from __future__ import annotations

import pytest

from explorer.training.worker import MAX_THREADS, Threads


def _run(threads: Threads, cost: dict[int, float], steps: int) -> list[int]:
    """Run `steps` simulated steps, each costing cost[its count]; the count each ran on."""
    used = []
    for _ in range(steps):
        used.append(threads.n)
        threads.step(cost[threads.n])
    return used


def _threads(most: int, applied: list[int]) -> Threads:
    return Threads(most, probe=4, every=20, apply=applied.append)


def test_two_threads_are_kept_while_they_make_steps_shorter():
    cost, applied = {1: 0.009, 2: 0.006}, []
    threads = _threads(2, applied)
    used = _run(threads, cost, 60)
    probe = [1] * 5 + [2] * 5  # each count timed for 4 steps after one to settle
    assert used[:10] == probe
    assert used[10:30] == [2] * 20  # the faster count until the next round of timing
    assert used[30:40] == probe and used[40:60] == [2] * 20
    assert applied[:3] == [2, 1, 2]  # torch's count is set only when it changes


def test_one_thread_when_the_other_core_is_busy():
    cost, applied = {1: 0.009, 2: 0.014}, []  # a second thread waits for its core
    threads = _threads(2, applied)
    used = _run(threads, cost, 30)
    assert used[10:30] == [1] * 20
    assert sum(n == 2 for n in used) == 5  # only the probe's steps


def test_a_small_gain_is_not_worth_a_second_core():
    cost, applied = {1: 0.0090, 2: 0.0085}, []  # under the 10% margin
    threads = _threads(2, applied)
    assert _run(threads, cost, 30)[10:] == [1] * 20


def test_a_step_far_slower_on_two_threads_ends_their_timing_at_once():
    cost = {1: 0.009, 2: 0.2}  # the other core is held: a step waits long for it
    threads = _threads(2, [])
    used = _run(threads, cost, 30)
    assert used[:7] == [1] * 5 + [2] + [1]  # one such step, not five
    assert used[6:] == [1] * 24


def test_load_that_comes_during_a_round_on_two_threads_ends_it_at_once():
    threads = _threads(2, [])
    used = _run(threads, {1: 0.009, 2: 0.006}, 12)  # two threads chosen for the round
    assert used[10:] == [2, 2]
    used = _run(threads, {1: 0.009, 2: 0.2}, 8)  # then the other core is taken
    assert used == [2] + [1] * 7  # one slow step, not the rest of the round
    used = _run(threads, {1: 0.009, 2: 0.006}, 20)  # the next round times both again
    assert used[-10:-5] == [1] * 5 and used[-5:] == [2] * 5


def test_steps_slowed_now_and_then_count_against_their_count():
    """Two threads are faster in three steps of four, but the fourth waits for a core that
    something else holds: on average one thread is faster (the median would say two)."""
    threads, nth = _threads(2, []), iter(range(1000))
    used = []
    for _ in range(30):
        used.append(threads.n)
        threads.step(0.008 if threads.n == 1 else (0.0155 if next(nth) % 4 == 3 else 0.005))
    assert used[:10] == [1] * 5 + [2] * 5  # no single step slow enough to give up at once
    assert used[10:] == [1] * 20


def test_the_choice_follows_the_machine_between_rounds():
    cost, applied = {1: 0.009, 2: 0.006}, []
    threads = _threads(2, applied)
    assert _run(threads, cost, 30).count(2) == 25  # all but the probe's 5 on one
    cost[2] = 0.02  # the server's pages now take the other core
    assert _run(threads, cost, 30).count(1) >= 28  # from the next round of timing on
    cost[2] = 0.005  # free again
    assert _run(threads, cost, 30).count(2) >= 20


def test_the_hubs_share_changes_the_count_at_once():
    cost, applied = {1: 0.009, 2: 0.006}, []
    threads = _threads(2, applied)
    _run(threads, cost, 12)
    assert threads.n == 2
    threads.allow(1)  # another training started: one core each
    assert threads.n == 1 and applied[-1] == 1
    assert _run(threads, cost, 40) == [1] * 40  # no timing of a count it may not use
    threads.allow(2)  # it trains alone again: both counts are timed afresh
    assert _run(threads, cost, 12) == [1] * 5 + [2] * 7


@pytest.mark.parametrize("most", [0, 1, MAX_THREADS + 6])
def test_the_share_is_between_one_and_the_most(most):
    applied: list[int] = []
    threads = Threads(most, apply=applied.append)
    assert 1 <= threads.n <= MAX_THREADS
    assert threads.most == max(1, min(most, MAX_THREADS))


# ---- timing two threads only while the other core has room ----------------------------------


class _Spare:
    """A stand-in for SpareCores: the spare cores it reports, and how often it was asked."""

    def __init__(self, cores: float | None) -> None:
        self.cores, self.asked = cores, 0

    def __call__(self) -> float | None:
        self.asked += 1
        return self.cores


def test_no_round_of_two_threads_while_the_other_core_is_busy():
    cost, spare = {1: 0.009, 2: 0.2}, _Spare(0.1)  # a step on two would wait long
    threads = Threads(2, probe=4, every=20, apply=[].append, spare=spare)
    assert _run(threads, cost, 65) == [1] * 65  # not even one step on two threads
    assert spare.asked == 4  # at the start, then every 20 steps


def test_a_core_that_frees_up_is_timed_again():
    cost, spare = {1: 0.009, 2: 0.006}, _Spare(0.1)
    threads = Threads(2, probe=4, every=20, apply=[].append, spare=spare)
    assert _run(threads, cost, 19) == [1] * 19
    spare.cores = 0.9  # the other core is free again: the next look times both counts
    assert _run(threads, cost, 21) == [1] + [1] * 5 + [2] * 15


def test_without_a_look_at_the_machine_both_counts_are_timed():
    for spare in (None, _Spare(None)):  # no look, or a look that cannot tell
        threads = Threads(2, probe=4, every=20, apply=[].append, spare=spare)
        assert _run(threads, {1: 0.009, 2: 0.006}, 10) == [1] * 5 + [2] * 5


def test_spare_cores_reads_the_machines_idle_time_and_its_own(tmp_path, monkeypatch):
    from explorer.training import worker as W

    clock = {"wall": 100.0, "cpu": 5.0}
    monkeypatch.setattr(W.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(W.time, "process_time", lambda: clock["cpu"])
    stat = tmp_path / "stat"
    tick = W.CLOCK_TICKS

    def write(idle: float) -> None:  # user nice system idle iowait ...
        stat.write_text(f"cpu  100 0 50 {round(idle * tick)} 0 0 0 0 0 0\ncpu0 1 2 3 4\n")

    write(10.0)
    spare = W.SpareCores(stat)
    clock["wall"] += 0.1
    assert spare() is None  # too short a while to tell
    write(10.5)
    clock["wall"] += 1.0
    clock["cpu"] += 1.0  # one thread of this process busy throughout
    assert spare() == pytest.approx(0.5)  # the other core half idle
    write(10.5)
    clock["wall"] += 1.0
    clock["cpu"] += 1.9  # this process on two threads: its second thread's time is room
    assert spare() == pytest.approx(0.9)
    write(12.5)
    clock["wall"] += 1.0  # waiting for a training: both cores idle, one will be its own
    assert spare() == pytest.approx(1.0)
    stat.unlink()
    assert spare() is None and W.SpareCores(stat)() is None  # no /proc/stat: cannot tell
