"""The class panel's timed fragments reach the browser after the page they belong to.

A fragment's timer starts when the browser reads its auto_rerun message; a timed rerun that
the server takes before it has sent the rest of a page run makes Streamlit drop that run's
last messages (explorer/sections/classroom.py `class_panel`). So in every full run of a
following student (and of the teacher), nothing of the page may come after the auto_rerun
of the class panel's fragment, also when the page ends early because a question is open.

Served for real (one `streamlit run app.py` on 127.0.0.1, a free port, its class store a
SQLite file in a temporary folder), with the protocol clients of bench/classroom.py.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from bench.classroom import Tab
from bench.common import free_port, serve
from explorer.app import classroom as C


@dataclass
class FullRun:
    """The messages of one full run, in the order they arrived."""

    order: list[tuple[str, str]] = field(default_factory=list)  # (kind, fragment id)
    finished: bool = False
    drawn: bool = False  # it ended having drawn the page (not cut short by a rerun)


class OrderTab(Tab):
    """A tab that keeps the order of each full run's page deltas and auto_reruns."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.full_runs: list[FullRun] = []

    def _on(self, msg, kb: float) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            fragments = tuple(msg.metadata.run.fragment_ids)
            if not fragments:
                self.full_runs.append(FullRun())
        elif self.full_runs and not self.full_runs[-1].finished and (
                self.run_now is not None and not self.run_now.fragments):
            current = self.full_runs[-1]
            if kind == "delta":
                current.order.append(("delta", msg.delta.fragment_id))
            elif kind == "auto_rerun":
                current.order.append(("auto_rerun", msg.auto_rerun.fragment_id))
            elif kind == "script_finished":
                current.finished = True
                current.drawn = msg.script_finished == msg.FINISHED_SUCCESSFULLY
        super()._on(msg, kb)


def _timers_come_last(run: FullRun) -> tuple[int, list[str]]:
    """How many timers the run started, and the page deltas that came after the first."""
    timers = [i for i, (kind, _) in enumerate(run.order) if kind == "auto_rerun"]
    if not timers:
        return 0, []
    ids = {fid for kind, fid in run.order if kind == "auto_rerun"}
    late = [f"delta #{i}" for i, (kind, fid) in enumerate(run.order)
            if i > timers[0] and kind == "delta" and fid not in ids]
    return len(timers), late


async def _class(url: str) -> tuple[OrderTab, OrderTab]:
    teacher = OrderTab(url, "attention")
    assert not (await teacher.open()).error
    started = await teacher.run(teacher.value("class_start", trigger_value=True))
    assert not started.error, started.error
    code = parse_qs(teacher.query).get("class", [""])[0]
    assert code, teacher.query
    student = OrderTab(url, "", f"class={code}")
    assert not (await student.open()).error
    return teacher, student


def _in_a_class(scenario: Callable[[OrderTab, OrderTab], Awaitable[None]]) -> None:
    """`scenario(teacher, student)` in a class on a server of its own, closed after."""
    async def run() -> None:
        with tempfile.TemporaryDirectory(prefix="class-timers-") as data:
            port = free_port()
            with serve(port, env={"CLASS_DATA": data, "CLASS_STORE": ""}) as url:
                teacher, student = await _class(url)
                try:
                    await scenario(teacher, student)
                finally:
                    await asyncio.gather(teacher.close(), student.close())

    asyncio.run(run())


@pytest.mark.timeout(180)
def test_the_class_panels_timers_reach_the_browser_after_the_page():
    async def scenario(teacher: OrderTab, student: OrderTab) -> None:
        # the teacher asks: the student's page ends early (its heatmaps hidden)
        asked = await teacher.run(teacher.value("class_ask", trigger_value=True))
        assert not asked.error, asked.error
        for _ in range(200):  # the student's class look reruns its page
            if "class_send" in student.full_drew:
                break
            await asyncio.sleep(0.05)
        assert "class_send" in student.full_drew, "the question never showed"
        for who, tab in (("teacher", teacher), ("student", student)):
            drawn = [r for r in tab.full_runs if r.drawn]
            assert len(drawn) >= 2, (who, len(drawn))
            for run in drawn[1:]:  # the teacher's first: before the class
                timers, late = _timers_come_last(run)
                # every run in the class draws the panel's timed fragment
                assert timers >= 1, (who, run.order[-5:])
                assert not late, (who, late, len(run.order))
        assert student.timers, "the student's class look has no timer"

    _in_a_class(scenario)


@pytest.mark.timeout(180)
def test_a_tick_of_the_class_look_announces_its_timer_again():
    """A run of the page announces the class look's timer among its last messages, which
    Streamlit drops when a tick starts a new run before they were sent; the browser, which
    cleared its timers when that run began, would then never look at the class again. The
    tick's own run announces the timer again."""
    async def scenario(teacher: OrderTab, student: OrderTab) -> None:
        for _ in range(200):
            if student.timers:
                break
            await asyncio.sleep(0.05)
        (watch,) = [fid for fid, (every, _) in student.timers.items() if every == C.WATCH_EVERY]
        student._stop_timers()  # the page's announcement never arrived
        await student.ws.send(student._back_msg(student.widgets, fragment_id=watch))
        for _ in range(200):  # the tick's run announces it before it waits for the class
            if watch in student.timers:
                break
            await asyncio.sleep(0.05)
        assert student.timers.get(watch, (None,))[0] == C.WATCH_EVERY

    _in_a_class(scenario)


# ---- The page frame: what comes after the page is drawn however the page ends --------------

FRAMED = """
import streamlit as st
from explorer.app.page import draw_last, end_page, page_frame

def page():
    st.markdown("the page begins")
    draw_last(lambda: st.markdown("drawn last"))
    {end}
    st.markdown("the page ends")

{frame}
"""


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


@pytest.mark.parametrize("end, drawn", [
    ("pass", ["the page begins", "drawn last", "the page ends"]),
    ("end_page()", ["the page begins", "drawn last"]),  # ended early: the rest left out
    ("raise ValueError('a bug')", ["the page begins", "drawn last"]),  # shown, and raised
])
def test_what_a_page_draws_last_is_drawn_however_the_page_ends(end, drawn):
    at = AppTest.from_string(FRAMED.format(end=end, frame="with page_frame():\n    page()"))
    at.run()
    assert _texts(at) == drawn  # in its place, above what the page drew after asking
    assert bool(at.exception) == end.startswith("raise")


def test_a_page_run_without_the_entry_script_draws_at_once_and_stops():
    at = AppTest.from_string(FRAMED.format(end="end_page()", frame="page()"))
    at.run()
    assert _texts(at) == ["the page begins", "drawn last"] and not at.exception
