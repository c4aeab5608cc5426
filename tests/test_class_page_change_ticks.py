"""A fragment timer's tick that a browser sent before it read a page change runs nothing.

When a class moves a student to another page (st.switch_page on the server), the
student's browser goes on sending its timers' ticks with the page it still shows until it
reads the new page's run. Such a tick, reaching the server while it runs the new page, was
run after it as a change of page back to the old one, whose new_session message makes
Streamlit's frontend empty the new page (explorer/app/classroom.py
`keep_fragment_reruns_on_their_page`). The server now drops it.

Served for real (one `streamlit run app.py` on 127.0.0.1, a free port, its class store a
SQLite file in a temporary folder), with the protocol clients of bench/classroom.py; the
student's client resends its last tick of the class look at the moment the server starts
the new page, as a busy browser does (tests/test_e2e_class_follow.py `reads_late`).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from urllib.parse import parse_qs

import pytest
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

from bench.classroom import Tab
from bench.common import free_port, serve
from explorer.app import classroom as C
from explorer.app import streamlit_internals as I


class LateTab(Tab):
    """A student's tab whose last timer tick reaches the server again when the server starts
    a run of another page; it notes every run's page (new_session) in order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.last_tick: bytes | None = None
        self.resent = 0  # ticks sent again
        self.runs: list[tuple[str, bool]] = []  # (page script hash, a fragment run)
        self.full_done: list[str] = []  # the page of each full run that ended drawn

    def _back_msg(self, widgets, page_name: str = "", fragment_id: str = "") -> bytes:
        data = super()._back_msg(widgets, page_name, fragment_id)
        if fragment_id:
            self.last_tick = data
        return data

    def _on(self, msg, kb: float) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        kind = msg.WhichOneof("type")
        if kind == "new_session":
            page, fragments = msg.new_session.page_script_hash, bool(msg.metadata.run.fragment_ids)
            if not fragments and self.page_hash and page != self.page_hash and self.last_tick:
                # the server starts another page; this tab still shows the old one
                asyncio.get_running_loop().create_task(self.ws.send(self.last_tick))
                self.last_tick, self.resent = None, self.resent + 1
            self.runs.append((page, fragments))
        elif (kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY
              and self.runs and not self.runs[-1][1]):
            self.full_done.append(self.runs[-1][0])
        super()._on(msg, kb)


async def _until(done, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return done()


def _runs_after_page(student: LateTab, page: str) -> list[tuple[str, bool]]:
    """The runs that began after the student's last full run of `page` ended drawn."""
    drawn = [i for i, (p, fragments) in enumerate(student.runs) if p == page and not fragments]
    return student.runs[drawn[-1] + 1:] if drawn else []


@pytest.mark.timeout(240)
def test_a_tick_sent_before_the_browser_read_a_page_change_runs_nothing():
    async def scenario(url: str) -> None:
        teacher = Tab(url, "attention")
        assert not (await teacher.open()).error
        started = await teacher.run(teacher.value("class_start", trigger_value=True))
        assert not started.error, started.error
        code = parse_qs(teacher.query).get("class", [""])[0]
        student = LateTab(url, "", f"class={code}")
        try:
            assert not (await student.open()).error
            assert await _until(lambda: student.page == "attention" and any(
                every == C.WATCH_EVERY for every, _ in student.timers.values()))
            # the class look has ticked on this page: that tick will come again
            assert await _until(lambda: student.last_tick is not None)
            for page in ("masks", "shapes"):  # two page changes, each met by a late tick
                target = student.page_hashes[page]  # the menu names every page's hash
                moved = await teacher.go(page)
                assert not moved.error, moved.error
                assert await _until(lambda t=target: student.full_done[-1:] == [t])
                # the run after the new page's own run: its class look's next tick
                assert await _until(lambda t=target: len(_runs_after_page(student, t)) >= 1)
                assert all(p == target for p, _ in _runs_after_page(student, target)), (
                    page, student.runs[-4:])
                assert student.page == page
            assert student.resent == 2
        finally:
            await asyncio.gather(teacher.close(), student.close())

    with tempfile.TemporaryDirectory(prefix="class-ticks-") as data:
        with serve(free_port(), env={"CLASS_DATA": data, "CLASS_STORE": ""}) as url:
            asyncio.run(scenario(url))


@pytest.mark.parametrize("queue, asked, shown, left", [
    (["f1"], "page_b", "page_b", False),  # a tick of the page shown
    (["f1"], "page_a", "page_b", True),  # a tick sent before the browser read the change
    ([], "page_a", "page_b", False),  # a run of the whole page goes where it is asked
    (["f1"], "", "page_b", False),  # no page named: Streamlit's own default
    (["f1"], "page_a", "", False),  # the session's first run: no page yet
])
def test_a_fragment_rerun_has_left_the_page_only_when_it_names_another(queue, asked, shown,
                                                                       left):
    rerun = RerunData(page_script_hash=asked, fragment_id_queue=queue)
    assert I.left_page(shown, rerun.page_script_hash, bool(rerun.fragment_id_queue)) is left


class _Session:
    """What AppSession.request_rerun reads of its session before it decides anything."""

    def __init__(self, shown: str) -> None:
        self._pages_manager = type("Pages", (), {"current_page_script_hash": shown})()
        self.asked: list = []


def test_a_tick_of_a_page_left_is_dropped_before_the_session_decides_on_a_runner():
    """Taken on after the new page's run ended, such a tick would start a new ScriptRunner,
    and the old one's last messages (the class look's timer) would never be sent: the
    session must not look at it at all, as Streamlit does for a fragment it no longer holds."""
    from streamlit.proto.ClientState_pb2 import ClientState
    from streamlit.runtime.app_session import AppSession

    assert getattr(AppSession.request_rerun, "drops_ticks_of_pages_left", False)
    seen = []
    request_rerun = I.drop_ticks_of_pages_left(lambda session, state: seen.append(state))
    stale = ClientState(page_script_hash="page_a", fragment_id="f1", is_auto_rerun=True)
    here = ClientState(page_script_hash="page_b", fragment_id="f1", is_auto_rerun=True)
    whole = ClientState(page_script_hash="page_a")  # a click in the menu: goes where asked
    for state in (stale, here, whole, None):
        request_rerun(_Session("page_b"), state)
    assert seen == [here, whole, None]


def _requests_with_pending_page_run(page: str):
    """A session's rerun requests while a run of the whole of `page` waits to start (as after
    st.switch_page, before the script thread takes it)."""
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequests

    requests = ScriptRequests()
    requests.request_rerun(RerunData(page_script_hash=page))
    return requests


def test_a_tick_while_a_page_run_is_pending_leaves_it_going_to_its_page():
    requests = _requests_with_pending_page_run("class_page")
    assert requests.request_rerun(RerunData(page_script_hash="left_page", fragment_id="watch",
                                            is_auto_rerun=True))
    pending = requests._rerun_data
    assert (pending.page_script_hash, pending.fragment_id_queue) == ("class_page", [])


def test_a_learner_s_change_inside_a_fragment_is_still_merged_into_a_pending_page_run():
    """Only a timer's tick is taken as done: a widget changed in a fragment carries the
    learner's value, which the merge must keep."""
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

    states = WidgetStates()
    states.widgets.add(id="w", int_value=3)
    requests = _requests_with_pending_page_run("class_page")
    requests.request_rerun(RerunData(page_script_hash="class_page", fragment_id="form",
                                     widget_states=states))
    assert requests._rerun_data.widget_states == states


@pytest.mark.parametrize(("pending", "tick", "folds"), [
    (None, RerunData(fragment_id="w", is_auto_rerun=True), False),  # nothing pending
    (RerunData(page_script_hash="p"), RerunData(fragment_id="w", is_auto_rerun=True), True),
    (RerunData(page_script_hash="p"), RerunData(fragment_id="w"), False),  # a learner's change
    (RerunData(page_script_hash="p"), RerunData(is_auto_rerun=True), False),  # a whole page
    (RerunData(fragment_id_queue=["v"]), RerunData(fragment_id="w", is_auto_rerun=True),
     False),  # a fragment's run pending: both fragments must run
])
def test_only_a_timer_tick_folds_into_a_pending_run_of_the_whole_page(pending, tick, folds):
    assert I.folds_into_pending_page_run(pending, tick) is folds
