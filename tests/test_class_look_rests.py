"""A following student's waiting look at the class answers its own timer's ticks and ends
just before the next one, so the page rests between looks.

The look (explorer/sections/classroom.py `_watch`) waits about WAIT_FOR seconds, longer than
its timer's period. Streamlit queues every tick that comes meanwhile, and a queued tick
started the next run the moment one ended: the browser never saw the page at rest
(tests/test_e2e_class_seat.py counts its runs). While it waits, a tick of its own timer is
taken as answered (explorer/app/streamlit_internals.py `answering_own_ticks`); a learner's
change, or another fragment's tick, is still queued and ends the wait.
"""

from __future__ import annotations

import types

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils.script_requests import (
    RerunData,
    ScriptRequests,
    ScriptRequestType,
)

from explorer.app import classroom as C  # its import installs the request wraps
from explorer.app import streamlit_internals as I

TICK = RerunData(page_script_hash="p", fragment_id="watch", is_auto_rerun=True)


@pytest.fixture
def waiting(monkeypatch):
    """A fragment run of "watch" with its ScriptRequests (nothing pending)."""
    requests = ScriptRequests()
    ctx = types.SimpleNamespace(script_requests=requests, fragment_ids_this_run=["watch"])
    monkeypatch.setattr(I, "get_script_run_ctx", lambda suppress_warning=False: ctx)
    return requests


def test_a_tick_of_the_waiting_fragment_is_answered_by_its_run(waiting):
    with I.answering_own_ticks() as ticks:
        assert ticks.last is None
        assert waiting.request_rerun(TICK)
        assert waiting._state == ScriptRequestType.CONTINUE  # nothing queued
        assert ticks.last is not None
        assert not I.another_run_asked(lambda: None)  # the wait goes on


def test_after_the_wait_its_ticks_are_queued_again(waiting):
    with I.answering_own_ticks():
        pass
    waiting.request_rerun(TICK)
    assert waiting._state == ScriptRequestType.RERUN
    assert waiting._rerun_data.fragment_id_queue == ["watch"]


def test_a_learner_s_change_in_the_fragment_is_queued_with_its_value(waiting):
    states = WidgetStates()
    states.widgets.add(id="w", int_value=3)
    with I.answering_own_ticks() as ticks:
        waiting.request_rerun(RerunData(fragment_id="watch", widget_states=states))
        assert waiting._state == ScriptRequestType.RERUN
        assert waiting._rerun_data.widget_states == states
        assert ticks.last is None


def test_another_fragment_s_tick_is_queued_and_ends_the_wait(waiting):
    with I.answering_own_ticks() as ticks:
        waiting.request_rerun(RerunData(fragment_id="progress", is_auto_rerun=True))
        assert waiting._rerun_data.fragment_id_queue == ["progress"]
        assert ticks.last is None
        assert I.another_run_asked(lambda: None)  # a training's progress, say


def test_outside_a_fragment_s_rerun_nothing_is_answered(monkeypatch):
    requests = ScriptRequests()
    ctx = types.SimpleNamespace(script_requests=requests, fragment_ids_this_run=[])
    monkeypatch.setattr(I, "get_script_run_ctx", lambda suppress_warning=False: ctx)
    with I.answering_own_ticks() as ticks:
        assert ticks is None
        requests.request_rerun(TICK)
    assert requests._state == ScriptRequestType.RERUN


@pytest.mark.parametrize(("state", "fragments", "tick", "answered"), [
    (ScriptRequestType.CONTINUE, {"watch"}, TICK, True),
    (ScriptRequestType.RERUN, {"watch"}, TICK, False),  # something else asked: merge
    (ScriptRequestType.CONTINUE, {"other"}, TICK, False),  # another fragment's timer
    (ScriptRequestType.CONTINUE, {"watch"},  # a learner's change in the fragment
     RerunData(fragment_id="watch"), False),
    (ScriptRequestType.CONTINUE, {"watch"}, RerunData(is_auto_rerun=True), False),  # a page
])
def test_only_the_waiting_fragment_s_own_timer_is_answered(state, fragments, tick, answered):
    own = I.OwnTicks(frozenset(fragments))
    assert I.answered_by_waiting_run(state, own, tick) is answered
    assert I.answered_by_waiting_run(state, None, tick) is False


def _ends_at(start: float, ticks: list[float]) -> float:
    """When a wait that started at `start` ends, its timer's ticks reaching it at `ticks`,
    looked at every 0.25 s (store.WAKE_EVERY) and at most C.WAIT_FOR."""
    now, last = start, None
    while now < start + C.WAIT_FOR:
        last = max((t for t in ticks if t <= now), default=last)
        if C.wait_is_over(start, now, last):
            return now
        now += 0.25
    return start + C.WAIT_FOR


@pytest.mark.parametrize("lag", [0.0, 0.02, 0.3, 0.9])
def test_the_wait_ends_just_before_the_tick_due_after_about_wait_for(lag):
    """The run starts `lag` seconds after the tick that asked for it (a busy server); its
    timer's next ticks come every WATCH_EVERY from that tick."""
    ticks = [C.WATCH_EVERY * k for k in range(1, 8)]
    end = _ends_at(lag, ticks)
    due = next(t for t in ticks if t > end)  # the tick that starts the next look
    assert 0 < due - end <= C.REST_BEFORE_TICK  # rests, then the tick comes
    assert C.WAIT_FOR - C.WATCH_EVERY <= end - lag <= C.WAIT_FOR


def test_without_a_tick_the_wait_lasts_wait_for():
    assert _ends_at(0.0, []) == C.WAIT_FOR
    assert not C.wait_is_over(0.0, C.WAIT_FOR - 0.1, None)
