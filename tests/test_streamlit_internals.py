"""The contract of explorer/app/streamlit_internals.py with the installed Streamlit: each
private name or behaviour an item reads, checked here so that a Streamlit that moved it
fails by the item's number and name, not as a class whose students silently stop following.
"""

from __future__ import annotations

import dataclasses
import inspect
import types

import pytest
import streamlit as st
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.runtime.scriptrunner_utils.script_requests import (
    RerunData,
    ScriptRequests,
    ScriptRequestType,
)
from streamlit.runtime.scriptrunner_utils.script_run_context import (
    FragmentThreadState,
    ScriptRunContext,
    ThreadState,
)

from explorer.app import classroom  # noqa: F401 (its import installs item 5's wraps)
from explorer.app import streamlit_internals as I


def _fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_the_installed_streamlit_is_the_one_the_items_were_written_for():
    assert I.version_warning(st.__version__) is None, I.version_warning(st.__version__)
    assert I.version_warning("1.99.0") is not None  # another one is told in the log
    assert I.version_warning(I.WRITTEN_FOR + ".7") is None


def test_item_1_the_runtime_tells_a_connected_session():
    assert callable(getattr(Runtime, "is_active_session", None)), "1: Runtime.is_active_session"
    assert "session_id" in _fields(ScriptRunContext), "1: ScriptRunContext.session_id"
    assert I.real_server() is False  # no server in a test process
    assert I.session_alive() is None and I.session_disconnected() is False


def test_item_2_and_3_a_run_context_names_its_fragments_and_takes_messages():
    fields = _fields(ScriptRunContext)
    assert "fragment_ids_this_run" in fields, "2: ScriptRunContext.fragment_ids_this_run"
    assert callable(getattr(ScriptRunContext, "enqueue", None)), "3: ScriptRunContext.enqueue"
    assert callable(getattr(ThreadState, "get", None)), "3: ThreadState.get()"
    assert "fragment_id" in _fields(FragmentThreadState), "3: ThreadState.get().fragment_id"
    msg = ForwardMsg()
    msg.auto_rerun.interval, msg.auto_rerun.fragment_id = 2.0, "f"
    assert msg.WhichOneof("type") == "auto_rerun", "3: ForwardMsg.auto_rerun"


def test_item_3_a_timed_fragment_announces_its_timer_in_its_own_rerun(monkeypatch):
    sent = []
    ctx = types.SimpleNamespace(fragment_ids_this_run=["f1"], enqueue=sent.append)
    monkeypatch.setattr(I, "get_script_run_ctx", lambda suppress_warning=False: ctx)
    monkeypatch.setattr(I.ThreadState, "get", lambda: types.SimpleNamespace(fragment_id="f1"))
    I.announce_timer(2.0)
    assert [(m.auto_rerun.interval, m.auto_rerun.fragment_id) for m in sent] == [(2.0, "f1")]
    ctx.fragment_ids_this_run = []  # a run of the whole page: Streamlit announces it
    I.announce_timer(2.0)
    assert len(sent) == 1


def test_item_4_the_pending_request_is_read_where_the_items_read_it():
    requests = ScriptRequests()
    assert requests._state is ScriptRequestType.CONTINUE, "4: ScriptRequests._state"
    requests.request_rerun(RerunData(fragment_id="f", is_auto_rerun=True))
    assert requests._state.name == "RERUN", "4: ScriptRequestType.RERUN"
    assert requests._rerun_data.fragment_id_queue == ["f"], "4: RerunData.fragment_id_queue"
    assert "script_requests" in _fields(ScriptRunContext), "4: ScriptRunContext.script_requests"


def test_item_4_a_waiting_run_s_requests_hold_its_own_ticks_under_their_lock():
    requests = ScriptRequests()
    assert hasattr(requests, "_lock") and hasattr(requests._lock, "acquire"), \
        "4: ScriptRequests._lock"
    setattr(requests, I.ANSWERING, I.OwnTicks(frozenset({"f"})))  # no __slots__
    with requests._lock:  # the lock is not re-entrant: the wrap runs under it, alone
        assert requests._request_rerun_locked(RerunData(fragment_id="f", is_auto_rerun=True))
    assert requests._state is ScriptRequestType.CONTINUE, "4: a tick answered, none queued"
    assert getattr(requests, I.ANSWERING).last is not None


def test_item_5_the_wrapped_methods_exist_with_the_arguments_the_wraps_pass():
    assert getattr(AppSession.request_rerun, "drops_ticks_of_pages_left", False), \
        "5: AppSession.request_rerun is wrapped"
    assert getattr(ScriptRunner._run_script, "keeps_fragment_reruns_on_their_page", False), \
        "5: ScriptRunner._run_script is wrapped"
    locked = ScriptRequests._request_rerun_locked
    assert list(inspect.signature(locked.__wrapped__).parameters) == ["self", "new_data"], \
        "5: ScriptRequests._request_rerun_locked(self, new_data)"
    assert {"page_script_hash", "fragment_id", "is_auto_rerun"} <= {
        f.name for f in ClientState.DESCRIPTOR.fields}, "5: ClientState fields"
    assert {"page_script_hash", "fragment_id", "fragment_id_queue", "is_auto_rerun",
            "is_fragment_scoped_rerun"} <= _fields(RerunData), "5: RerunData fields"
    assert "current_page_script_hash" in dir(PagesManager), \
        "5: PagesManager.current_page_script_hash"


def test_item_5_streamlit_merges_a_tick_into_a_pending_page_run_under_the_tick_s_page():
    """Why `keep_the_page_a_run_goes_to` wraps the merge: Streamlit 1.67 keeps the newer
    request's page, so a timer's tick sent from the page a student is leaving would send
    the switch back there. When this fails, Streamlit keeps the pending page itself and
    the wrap may go."""
    requests = ScriptRequests()
    requests.request_rerun(RerunData(page_script_hash="class_page"))
    original = ScriptRequests._request_rerun_locked.__wrapped__
    with requests._lock:
        original(requests, RerunData(page_script_hash="left_page", fragment_id="watch",
                                     is_auto_rerun=True))
    assert requests._rerun_data.page_script_hash == "left_page", "5: the merge keeps the tick's"
    assert requests._rerun_data.fragment_id_queue == []  # a run of the whole page


def test_item_6_a_fragment_s_id_follows_its_qualified_name():
    from streamlit.runtime.fragment import _make_fragment_identity

    def look() -> None: ...

    ids = set()
    for name in ("_watch.v1", "_watch.v2"):
        look.__qualname__ = name
        ids.add(_make_fragment_identity(look, delta_path="0", additional_hash_info="")
                .fragment_id)
    assert len(ids) == 2, "6: a fragment's id is made from its __qualname__"


def test_item_7_and_8_legacy_pages_and_history_are_where_the_items_read_them():
    assert isinstance(PagesManager.uses_pages_directory, (bool, type(None))), \
        "7: PagesManager.uses_pages_directory"
    assert "is_history_navigation" in _fields(ScriptRunContext), \
        "8: ScriptRunContext.is_history_navigation"
    assert I.leave_legacy_pages() is False  # not on a real server


@pytest.mark.parametrize("path", ["explorer", "pages", "app.py"])
def test_no_module_but_the_wall_imports_streamlit_s_insides(path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = [root / path] if path.endswith(".py") else sorted((root / path).rglob("*.py"))
    inside = ("streamlit.runtime", "streamlit.proto", "from streamlit import runtime")
    found = [str(f.relative_to(root)) for f in files
             if f.name != "streamlit_internals.py"
             and any(word in f.read_text(encoding="utf-8") for word in inside)]
    assert not found, f"Streamlit's insides outside app/streamlit_internals.py: {found}"
