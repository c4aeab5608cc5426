"""Every use of Streamlit's private insides, behind one wall, written against Streamlit 1.67.

The rest of the app calls the functions here and never imports from `streamlit.runtime` or
`streamlit.proto`. Each item says what it reads or changes, why no public API does it, and
what upstream would make it unnecessary; tests/test_streamlit_internals.py checks each
against the installed Streamlit and names the item that moved. On import, a Streamlit other
than the one these were written against is reported once in the server's log
(`version_warning`).

1. `real_server`, `session_alive`, `session_disconnected`: the Runtime singleton and
   `Runtime.is_active_session`. No public API tells whether the browser tab of a running
   script is still connected (a training stops for a learner who left).
2. `fragment_rerun`: `ScriptRunContext.fragment_ids_this_run`. No public API tells a
   fragment's own rerun from a run of the page.
3. `timed_fragment`, `announce_timer`: a timed fragment announces its timer again in its
   own reruns (a hand-built ForwardMsg `auto_rerun`, with the fragment id of
   `ThreadState`, through `ctx.enqueue`). Streamlit announces it only in a run of the page,
   among the run's last messages, which are lost when a tick starts a new ScriptRunner
   first (streamlit/streamlit#9921 is the same loss for a dialog).
4. `another_run_asked`: the pending request of `ctx.script_requests` (`_state`,
   `_rerun_data.fragment_id_queue`). No public API tells a waiting fragment that the
   learner asked for something else. `answering_own_ticks`: while a fragment's own rerun
   waits, its timer's ticks are taken as answered (an attribute of the run's
   ScriptRequests, read in the `_request_rerun_locked` wrap of item 5). Streamlit queues
   them, and the queued tick starts the next run the moment the wait ends: the page never
   stops running (no public API lets a run say it answers its own timer).
5. `keep_fragment_reruns_on_their_page`: wraps AppSession.request_rerun,
   ScriptRunner._run_script and ScriptRequests._request_rerun_locked, reading the
   sessions' `_pages_manager`. A server-side st.switch_page leaves the browser's fragment
   timers ticking under the page it left, and Streamlit runs such ticks as changes of page
   back (it would need to drop a fragment rerun of a page other than the session's).
6. `timed_fragment(name=...)`: a fragment's id is made from its function's `__qualname__`
   and place, so a new name gives a new fragment whose stale ticks Streamlit ignores.
7. `leave_legacy_pages`: `PagesManager.uses_pages_directory`. A first visit straight to a
   page URL runs that page alone while a pages/ folder exists; no public switch leaves the
   legacy mode before the entry script runs.
8. `history_navigation`: `ScriptRunContext.is_history_navigation`, whether the run comes
   from the browser's Back or Forward button (no public API).

Not here: CSS selectors on Streamlit's `data-testid` and `.st-key-*` class names
(explorer/app/sidebar.py, charts.py, import_panel.py), which a Streamlit change makes look
different, not fail; the browser tests read the same names.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from streamlit import runtime
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.runtime.scriptrunner_utils.script_requests import (
    RerunData,
    ScriptRequests,
    ScriptRequestType,
)
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

WRITTEN_FOR = "1.67"  # the Streamlit (major.minor) whose insides these items read
F = TypeVar("F", bound=Callable[..., Any])


def version_warning(version: str) -> str | None:
    """What to tell a server running Streamlit `version`, if it is not WRITTEN_FOR."""
    if ".".join(version.split(".")[:2]) == WRITTEN_FOR:
        return None
    return (f"Streamlit {version} is installed; explorer/app/streamlit_internals.py reads "
            f"the insides of Streamlit {WRITTEN_FOR}. Run tests/test_streamlit_internals.py: "
            "it names every item that moved (a class whose students stop following, Back "
            "that no longer restores the view).")


# ---- 1. The session's browser tab ----------------------------------------------------------
def real_server() -> bool:
    """True under `streamlit run`; False under AppTest, which has its own page routing."""
    return runtime.exists() and type(runtime.get_instance()) is Runtime


def session_disconnected() -> bool:
    """True when this run's browser tab has gone (closed, or lost its connection).

    Streamlit keeps running a script whose client left; a long loop (training) asks this
    to stop early instead of holding a shared core for nobody. Cheap: a dict lookup.
    """
    if not real_server():
        return False
    run_ctx = get_script_run_ctx()
    return run_ctx is not None and not runtime.get_instance().is_active_session(
        run_ctx.session_id)


def session_alive() -> Callable[[], bool] | None:
    """A check, callable from any thread, that this run's session is still connected (its
    browser tab open): the hub's reaper asks it, and ends the training of a learner who
    has gone. None where there is no server to ask (AppTest, a bare script)."""
    run_ctx = get_script_run_ctx()
    if run_ctx is None or not real_server():
        return None
    server = runtime.get_instance()
    session = run_ctx.session_id
    return lambda: server.is_active_session(session)


# ---- 2, 3, 6. Timed fragments --------------------------------------------------------------
def fragment_rerun() -> bool:
    """Whether this run is a fragment's own rerun (its timer's), not a run of the page."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def announce_timer(every: float) -> None:
    """In a timed fragment's own rerun: announce its timer to the browser again.

    Streamlit announces a fragment's timer (ForwardMsg `auto_rerun`) only in a run of the
    page that draws it, among that run's last messages (explorer/app/page.py `draw_last`),
    and the browser clears every timer when a run of the page starts. A tick sent just
    before that, reaching a server whose event loop lags behind a class's thirty runs
    after the run ended but before the loop sent its last messages, starts a new
    ScriptRunner, and the loop drops them (app_session.py
    `_handle_scriptrunner_event_on_event_loop`): the browser is left without the timer and
    the student stops watching the class (bench/classroom.py (d): a student whose pick of
    an answer met a tick missed the reveal). That tick's own rerun of the fragment
    announces it again; the browser ignores the announcement of a timer it already has
    (Streamlit 1.67's frontend, App.tsx `handleAutoRerun`)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not ctx.fragment_ids_this_run:
        return  # a run of the page announced it
    fragment = getattr(ThreadState.get(), "fragment_id", None)
    if not fragment:
        return
    msg = ForwardMsg()
    msg.auto_rerun.interval = every
    msg.auto_rerun.fragment_id = fragment
    ctx.enqueue(msg)


def timed_fragment(every: float, name: str | None = None) -> Callable[[F], F]:
    """st.fragment(run_every=every), whose every own rerun announces its timer again
    (`announce_timer`). `name`: the function's qualified name, from which Streamlit makes
    the fragment's id (with its place on the page): a new name is a new fragment, and the
    ticks of the old one's timer are ignored (app_session.py `request_rerun`)."""
    def decorate(function: F) -> F:
        def timed(*args: Any, **kwargs: Any) -> Any:
            announce_timer(every)
            return function(*args, **kwargs)

        timed.__name__ = function.__name__
        timed.__qualname__ = name or function.__qualname__
        timed.__module__ = function.__module__
        timed.__doc__ = function.__doc__
        return st.fragment(run_every=every)(timed)  # type: ignore[return-value]

    return decorate


# ---- 4. A waiting fragment gives way --------------------------------------------------------
def another_run_asked(idle: Callable[[], object]) -> bool:
    """Whether this session asked for another run while a fragment of this run waits: a
    learner's click or another fragment's timer (a training's progress) ends the wait, a
    tick of a fragment of this run does not. `idle()` is called where the request cannot be
    read (no script run context): reading session state still lets Streamlit stop the run
    for a click (its SafeSessionState calls the script runner's yield check)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    requests = getattr(ctx, "script_requests", None)
    state = getattr(getattr(requests, "_state", None), "name", None)
    if state is None:
        idle()
        return False
    if state != "RERUN":
        return state != "CONTINUE"
    queue = getattr(getattr(requests, "_rerun_data", None), "fragment_id_queue", None)
    mine = getattr(ctx, "fragment_ids_this_run", None) or []
    return not queue or any(fragment not in mine for fragment in queue)


@dataclass
class OwnTicks:
    """The ticks of its own timer that a waiting fragment run took as answered."""

    fragments: frozenset[str]  # the fragments this run reruns
    last: float | None = None  # time.monotonic() of the last tick taken, if any


ANSWERING = "_explorer_answering"  # the OwnTicks on a ScriptRequests while a run waits


@contextlib.contextmanager
def answering_own_ticks() -> Iterator[OwnTicks | None]:
    """While the block runs (a fragment's own rerun that waits), a tick of the fragment's
    timer is taken as answered by this run instead of queued for the next (and noted in
    the OwnTicks yielded; None outside a fragment's rerun).

    Streamlit queues such a tick; the wait of a following student's look at the class
    lasts longer than its timer's period, so a queued tick always started the next run the
    moment one ended: the browser never saw the page at rest, and whatever waits for it
    (a test, an assistive technology reading aria-busy) waited for a gap that came only by
    luck (tests/test_e2e_class_seat.py). The caller ends its wait just before the timer's
    next tick (`OwnTicks.last`), which starts the next run."""
    ctx = get_script_run_ctx(suppress_warning=True)
    requests = getattr(ctx, "script_requests", None)
    mine = frozenset(getattr(ctx, "fragment_ids_this_run", None) or ())
    if requests is None or not mine or not hasattr(requests, "_lock"):
        yield None
        return
    ticks = OwnTicks(mine)
    with requests._lock:
        setattr(requests, ANSWERING, ticks)
    try:
        yield ticks
    finally:
        with requests._lock:
            setattr(requests, ANSWERING, None)


def answered_by_waiting_run(state: ScriptRequestType, answering: OwnTicks | None,
                            tick: RerunData) -> bool:
    """Whether `tick` is a timer's tick of a fragment whose own rerun is waiting now
    (`answering`) with nothing else asked (`state` CONTINUE)."""
    return bool(answering is not None and state == ScriptRequestType.CONTINUE
                and tick.is_auto_rerun and tick.fragment_id
                and tick.fragment_id in answering.fragments)


# ---- 5. A fragment's rerun stays on its page -------------------------------------------------
def left_page(shown: str, asked: str, fragment: bool) -> bool:
    """Whether a rerun of a `fragment` (else of the whole page) that a browser asked for on
    page `asked` names a page other than `shown`, the page the session runs now (both are
    page script hashes; empty when not known)."""
    return bool(fragment and shown and asked and asked != shown)


def keep_fragment_reruns_on_their_page() -> None:
    """Make this server drop a fragment's rerun that a browser asked for on a page the
    server has since switched it away from (a class moving a student: st.switch_page).

    A browser sends each fragment timer's tick with the page it shows (Streamlit 1.67's
    frontend, App.tsx `sendRerunBackMsg`: its currentPageScriptHash), and stops its timers
    only once it reads the next run of the whole page. After a server-side st.switch_page
    the ticks it sent before that name the page it left, and until the new page's run ends
    the fragment storage still holds the fragments of the old one, so AppSession.request_rerun
    takes them. Run after the new page's run (script_runner.py `_run_script`), such a tick
    runs as a change of page back to the old one: widget state and query parameters are
    reset to the old page's, and its new_session message (the old page's hash, with fragment
    ids) makes the frontend remove every element the page drew (App.tsx `handleNewSession`:
    a page hash other than its currentPageScriptHash calls `clearAppState`, which keeps only
    the entry script's elements). The student is left with the new page's address and
    sidebar over an empty page until the class's next change.

    The session's page is the PagesManager's current page (session-wide, set by every run and
    by st.navigation: what the browser's later ticks name). A fragment rerun that names
    another page is dropped when the script thread takes it, before it starts (nothing is
    sent): the browser has left that page, and the new page's run announced the timers it
    keeps.

    It is dropped as soon as the session receives it (AppSession.request_rerun), as
    Streamlit drops a tick of a fragment it no longer holds: taken on, a tick that arrives
    just after the new page's run has ended would start a new ScriptRunner, and the event
    loop ignores what the old one had not yet handed over (app_session.py
    `_handle_scriptrunner_event_on_event_loop`): the page's last messages, among them its
    class look's timer (`draw_last`), so the student's page never runs again and stops
    following. One that the script thread has taken already (queued during the page's
    run, before the session's page had changed) is dropped when the thread takes it.
    A tick that reaches the session while a run of the whole page waits to start (st.rerun,
    or st.switch_page taking a following student to the class's page) is one that run
    covers, and it is not merged in (`keep_the_page_a_run_goes_to`).
    Once per process."""
    run_script = ScriptRunner._run_script
    if getattr(run_script, "keeps_fragment_reruns_on_their_page", False):
        return
    ScriptRequests._request_rerun_locked = keep_the_page_a_run_goes_to(  # type: ignore[method-assign]
        ScriptRequests._request_rerun_locked)

    def _run_script(self: ScriptRunner, rerun_data: RerunData) -> None:
        if left_page(self._pages_manager.current_page_script_hash,
                     rerun_data.page_script_hash, bool(rerun_data.fragment_id_queue)):
            return
        run_script(self, rerun_data)

    _run_script.keeps_fragment_reruns_on_their_page = True  # type: ignore[attr-defined]
    ScriptRunner._run_script = _run_script  # type: ignore[method-assign]
    AppSession.request_rerun = drop_ticks_of_pages_left(  # type: ignore[method-assign]
        AppSession.request_rerun)


def folds_into_pending_page_run(pending: RerunData | None, tick: RerunData) -> bool:
    """Whether `tick`, a rerun request, is a fragment timer's tick that the `pending` request,
    a run of the whole page, already covers (a full run reruns every fragment it draws)."""
    return bool(pending is not None and tick.is_auto_rerun and tick.fragment_id
                and not tick.fragment_id_queue and not pending.fragment_id
                and not pending.fragment_id_queue and not pending.is_fragment_scoped_rerun)


def keep_the_page_a_run_goes_to(request_rerun_locked: Callable[[Any, RerunData], bool]
                                ) -> Callable[[Any, RerunData], bool]:
    """ScriptRequests._request_rerun_locked (called under its lock), but a fragment timer's
    tick is taken as done while a run of the whole page is pending.

    Streamlit merges a rerun request into the pending one and keeps the newer request's
    page (script_requests.py `_request_rerun_locked`: `page_script_hash=new_data...`). A
    tick names the page the browser shows, so one that reaches the session between a
    following student's st.switch_page to the class's page (a pending full run of that
    page) and the script thread taking it turned it into a run of the page the student
    was leaving. That run found the class's version already taken and drew the old page
    for good: the student stayed there until the teacher's next change
    (tests/test_e2e_class_follow.py). The full run reruns the ticked fragment anyway; a
    timer's tick carries no change of the learner's, so nothing is lost. A tick of a
    fragment whose own rerun waits is taken as answered too (`answering_own_ticks`)."""
    def _request_rerun_locked(self: Any, new_data: RerunData) -> bool:
        pending = self._rerun_data if self._state == ScriptRequestType.RERUN else None
        if folds_into_pending_page_run(pending, new_data):
            return True
        answering = getattr(self, ANSWERING, None)
        if answered_by_waiting_run(self._state, answering, new_data):
            answering.last = time.monotonic()
            return True
        return request_rerun_locked(self, new_data)

    _request_rerun_locked.__wrapped__ = request_rerun_locked  # type: ignore[attr-defined]
    return _request_rerun_locked


def drop_ticks_of_pages_left(request_rerun: Callable[[Any, ClientState | None], None]
                             ) -> Callable[[Any, ClientState | None], None]:
    """AppSession.request_rerun, but a fragment's tick that names a page other than the
    session's current one is dropped (`keep_fragment_reruns_on_their_page`)."""
    def _request_rerun(self: Any, client_state: ClientState | None) -> None:
        if client_state is not None and left_page(
                self._pages_manager.current_page_script_hash, client_state.page_script_hash,
                bool(client_state.fragment_id)):
            return
        request_rerun(self, client_state)

    _request_rerun.drops_ticks_of_pages_left = True  # type: ignore[attr-defined]
    return _request_rerun


# ---- 7, 8. Pages and history ---------------------------------------------------------------
def leave_legacy_pages() -> bool:
    """On a real server still in Streamlit's legacy multipage mode (a pages/ folder exists,
    and the entry script has not yet called st.navigation): leave it, and True (the caller
    reruns through the entry script). False otherwise."""
    if PagesManager.uses_pages_directory and real_server():
        PagesManager.uses_pages_directory = False
        return True
    return False


def history_navigation() -> bool:
    """Whether this run comes from the browser's Back or Forward button (a test walks Back
    and Forward in a real browser, tests/test_e2e_view.py)."""
    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "is_history_navigation", False))


_said = version_warning(st.__version__)
if _said is not None:
    logging.getLogger(__name__).warning(_said)
