"""A training goes on in the background: only Stop, a new training or the end of the
session ends it; its progress shows on every page; a training already done says so.

The trainings run in the hub's threads (conftest.py). A gate on the training loop lets a
test decide how many steps it may take, so nothing here races the clock: every wait is on
a condition (a step reached, an event set), bounded by WAIT.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from apptest_helpers import app
from step_gate import StepGate
from streamlit.testing.v1 import AppTest

import explorer.training.hub as H
from explorer.app.train_state import STATE_KEY, TICKETS_KEY
from explorer.app.train_state import WAIT as WAITING
from explorer.core.settings import Settings
from explorer.sections import train as train_view
from explorer.text.i18n import set_lang
from explorer.training.run import ModelKey
from explorer.training.settings import TrainSettings
from explorer.training.task import task_for

WAIT = 60.0  # seconds: a generous bound on a busy machine; never reached normally
SIDEBAR = ("source", "target", "token_mode", "seed", "norm_placement", "layer_norm",
           "scale_embedding", "tie_weights", "train_mode", "N", "d_model", "h", "d_ff",
           "dropout")
WIDGET_KINDS = ("text_input", "number_input", "slider", "checkbox", "toggle", "radio",
                "selectbox")


def _goto(at, page: str, sidebar: dict[str, object]) -> None:
    """Switch page as a browser does. AppTest's switch_page resets every widget that is not
    on the new page to its default (a browser sends the sidebar's values along), so the
    sidebar's are set again through their widgets."""
    at.switch_page(f"pages/{page}.py")
    at.run()
    for key, value in sidebar.items():
        for kind in WIDGET_KINDS:
            try:
                widget = getattr(at, kind)(key=key)
            except KeyError:
                continue
            if widget.value != value:
                widget.set_value(value)
            break
    at.run()
    assert not at.exception, at.exception
    assert {k: at.session_state[k] for k in sidebar} == sidebar


def _ticket(at) -> H.Ticket:
    return at.session_state[TICKETS_KEY][WAITING]


def test_a_training_goes_on_through_clicks_pages_and_languages_and_ends_on_stop(monkeypatch):
    steps = StepGate(monkeypatch)
    monkeypatch.setattr(train_view, "INLINE_WAIT", 0.0)  # the page draws at once
    at = app("train", tr_steps=2000, tr_early=False)
    sidebar = {k: at.session_state[k] for k in SIDEBAR if k in at.session_state}
    at.button(key="tr_train").click().run()
    assert not at.exception, at.exception
    ticket = _ticket(at)
    step = steps.allow(ticket, 5)
    assert STATE_KEY not in at.session_state  # not kept: it is still training

    # a click on another widget of the page: the section shows its progress, Stop is on
    at.radio(key="tr_kind").set_value("enc").run()
    assert not at.exception, at.exception
    assert not ticket.left and not ticket.state.stop_request.is_set()
    assert any(" / 2000 · loss " in p.proto.text for p in at.get("progress"))
    assert not at.button(key="tr_stop").disabled
    step = steps.allow(ticket, 5)

    # another page and back, then another language: it never stops
    _goto(at, "attention", sidebar)
    assert not ticket.left and not ticket.state.stop_request.is_set()
    step = steps.allow(ticket, 5)
    _goto(at, "train", sidebar)
    assert not ticket.left and not ticket.state.stop_request.is_set()
    step = steps.allow(ticket, 5)
    at.selectbox(key="lang").set_value("zh").run()
    set_lang("zh")  # AppTest formats the widgets again in the test's thread
    try:
        assert not at.exception, at.exception
        assert any(" / 2000 步" in p.proto.text for p in at.get("progress"))
        assert ticket.job.status == "running" and not ticket.done
        assert not ticket.left and not ticket.state.stop_request.is_set()
        step = steps.allow(ticket, 5)

        # Stop ends it: the model as it is then is the learner's, stopped by the button
        at.button(key="tr_stop").click().run()
        assert not at.exception, at.exception
    finally:
        set_lang("en")
    state = at.session_state[STATE_KEY]
    assert ticket.left and ticket.done
    assert step <= state.step < 2000 and state.stopped and state.stop_reason == "stop_button"
    assert {m.label: m.value for m in at.metric}["步数"] == f"{state.step} / 2000"
    assert any(f"训练在第 {state.step} / 2000 步停止（点击了“停止”按钮）" in w.value
               for w in at.warning)
    assert TICKETS_KEY not in at.session_state or not at.session_state[TICKETS_KEY]


def test_a_new_training_replaces_the_one_under_way(monkeypatch):
    steps = StepGate(monkeypatch)
    monkeypatch.setattr(train_view, "INLINE_WAIT", 0.0)
    at = app("train", tr_steps=2000, tr_early=False)
    at.button(key="tr_train").click().run()
    first = _ticket(at)
    steps.allow(first, 3)
    at.slider(key="tr_steps").set_value(1990).run()  # a click: it goes on
    assert not first.left
    at.button(key="tr_train").click().run()  # Train with other settings: a new training
    assert not at.exception, at.exception
    second = _ticket(at)
    assert second is not first and first.left
    assert first.job.done.wait(WAIT) and first.state.stop_reason == "new_training"
    at.button(key="tr_stop").click().run()
    assert second.left and at.session_state[STATE_KEY].config.steps == 1990


def test_a_training_that_ends_while_the_learner_is_elsewhere_becomes_their_model(monkeypatch):
    steps = StepGate(monkeypatch)
    monkeypatch.setattr(train_view, "INLINE_WAIT", 0.0)
    at = app("train", tr_steps=60, tr_early=False)
    sidebar = {k: at.session_state[k] for k in SIDEBAR if k in at.session_state}
    at.button(key="tr_train").click().run()
    ticket = _ticket(at)
    _goto(at, "attention", sidebar)
    steps.allow(ticket, 60)
    assert ticket.job.done.wait(WAIT)
    # the shared sidebar keeps it on any page (app.py calls training_status_sidebar there;
    # here the Train page's own run keeps it, as it did before)
    _goto(at, "train", sidebar)
    state = at.session_state[STATE_KEY]
    assert state.step == 60 and not state.stopped
    assert {m.label: m.value for m in at.metric}["Steps"] == "60 / 60"


# ---- the status every page shows ------------------------------------------------------------


def _status_page():
    import streamlit as st

    from explorer.app.train_state import STATE_KEY
    from explorer.sections.train import training_status_sidebar

    training_status_sidebar()
    st.write("kept" if STATE_KEY in st.session_state else "none")


def _request(seed: int, steps: int) -> H.Request:
    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings(seed=seed)), task)
    return H.Request(key, replace(TrainSettings().train_config(seed), steps=steps), False,
                     None)


def _status_app(ticket: H.Ticket | None, lang: str = "en") -> AppTest:
    """A page that only draws the status (no app.py: its fragment runs alone do not either,
    so the status must set the learner's language itself)."""
    at = AppTest.from_function(_status_page, default_timeout=WAIT)
    at.session_state["lang"] = lang
    if ticket is not None:
        at.session_state[TICKETS_KEY] = {WAITING: ticket}
    return at.run()


def test_the_status_is_cheap_and_silent_when_nothing_trains():
    at = _status_app(None)
    assert not at.exception
    assert not at.sidebar.get("progress") and not at.sidebar.get("button")  # nothing drawn
    assert [m.value for m in at.markdown] == ["none"]


def test_the_status_shows_progress_stops_and_keeps_the_end(monkeypatch):
    steps = StepGate(monkeypatch)
    hub = H.Hub(slots=1)
    H._HUB = hub  # noqa: SLF001 -- the server's hub, as the pages find it
    ticket = hub.join(_request(seed=3, steps=500))
    steps.allow(ticket, 4)
    at = _status_app(ticket)
    assert not at.exception, at.exception
    texts = [p.proto.text for p in at.sidebar.get("progress")]
    assert len(texts) == 1 and texts[0].startswith("Training copy: step 4 / 500, about ")
    assert at.sidebar.button(key="tr_stop_status")
    assert [m.value for m in at.markdown] == ["none"]
    zh = _status_app(ticket, lang="zh")
    assert [p.proto.text for p in zh.sidebar.get("progress")][0].startswith(
        "正在训练“复制”：第 4 / 500 步")
    at.sidebar.button(key="tr_stop_status").click().run()  # Stop, from any page
    assert not at.exception, at.exception
    assert ticket.left and ticket.state.stop_request.is_set()
    assert at.session_state[STATE_KEY].stop_reason == "stop_button"
    assert [m.value for m in at.markdown] == ["kept"]
    assert not at.sidebar.get("progress")

    other = hub.join(_request(seed=4, steps=5))  # one that ends while nobody looks
    steps.allow(other, 5)
    assert other.job.done.wait(WAIT)
    at = _status_app(other)
    assert not at.exception, at.exception
    assert at.session_state[STATE_KEY].step == 5 and not at.session_state[STATE_KEY].stopped
    assert not at.session_state[TICKETS_KEY] and not at.sidebar.get("progress")


# ---- the end of a session ----------------------------------------------------------------


def _until_stopped(request, state, on_step, wants, threads):  # trains until told not to
    assert state.stop_request.wait(WAIT)
    state.stopped, state.stop_reason = True, state.requested_reason


def _reaper_timing(monkeypatch, gone: float, reconnect: float) -> None:
    monkeypatch.setattr(H, "GONE_GRACE", gone)
    monkeypatch.setattr(H, "RECONNECT_GRACE", reconnect)
    monkeypatch.setattr(H, "REAP_EVERY", 0.02)


def test_a_session_that_has_gone_ends_its_training(monkeypatch):
    _reaper_timing(monkeypatch, gone=0.1, reconnect=0.1)
    hub = H.Hub(slots=2, runner=_until_stopped)
    here = threading.Event()
    here.set()
    staying = hub.join(_request(seed=5, steps=2000), alive=lambda: True)
    leaving = hub.join(_request(seed=6, steps=2000), alive=here.is_set)
    assert not leaving.job.done.wait(0.2)  # while its learner is there, it goes on
    here.clear()  # the tab was closed
    assert leaving.job.done.wait(WAIT)
    assert leaving.left and leaving.gone and leaving.state.stop_reason == "tab_closed"
    assert not staying.left and not staying.state.stop_request.is_set()
    hub.leave(staying, "stop_button", want_copy=False)


def _away(looked: threading.Semaphore):
    def away() -> bool:
        looked.release()
        return False
    return away


def test_a_disconnected_page_keeps_its_training_until_a_classmate_needs_the_core(
        monkeypatch):
    _reaper_timing(monkeypatch, gone=0.05, reconnect=WAIT * 10)  # reconnect: never here
    looked = threading.Semaphore(0)
    hub = H.Hub(slots=1, runner=_until_stopped)
    ticket = hub.join(_request(seed=7, steps=2000), alive=_away(looked))
    for _ in range(10):  # the reaper has looked ten times, past GONE_GRACE, and found nobody
        assert looked.acquire(timeout=WAIT)
    assert not ticket.left and not ticket.state.stop_request.is_set()  # nobody is held up
    classmate = hub.join(_request(seed=8, steps=2000))  # queued behind it: now it ends
    assert ticket.job.done.wait(WAIT) and ticket.gone
    assert ticket.state.stop_reason == "tab_closed"
    assert _started(classmate)
    hub.leave(classmate, "stop_button", want_copy=False)


def _started(ticket: H.Ticket) -> bool:
    deadline = time.monotonic() + WAIT
    while ticket.job.status == "queued" and time.monotonic() < deadline:
        ticket.job.done.wait(0.02)
    return ticket.job.status != "queued"


def test_a_training_others_share_is_not_ended_for_one_who_left(monkeypatch):
    _reaper_timing(monkeypatch, gone=0.05, reconnect=0.05)
    looked = threading.Semaphore(0)
    hub = H.Hub(slots=1, runner=_until_stopped)
    request = _request(seed=9, steps=2000)
    gone = hub.join(request, alive=_away(looked))
    other = hub.join(request, alive=lambda: True)
    assert other.job is gone.job
    queued = hub.join(_request(seed=10, steps=2000))  # someone queues: the short grace
    for _ in range(10):
        assert looked.acquire(timeout=WAIT)
    assert not gone.left and not gone.job.state.stop_request.is_set()  # it frees no core
    hub.leave(other, "stop_button", want_copy=False)  # now the gone one is alone
    assert gone.job.done.wait(WAIT) and gone.left and gone.gone
    hub.leave(queued, "stop_button", want_copy=False)


def test_a_learner_who_comes_back_gets_the_training_as_it_stopped(monkeypatch):
    _reaper_timing(monkeypatch, gone=0.05, reconnect=0.05)
    steps = StepGate(monkeypatch)
    here = threading.Event()
    hub = H.Hub(slots=1)  # trains in its thread, gated step by step
    H._HUB = hub  # noqa: SLF001 -- the server's hub, as the pages find it
    ticket = hub.join(_request(seed=11, steps=500), alive=here.is_set)
    here.set()
    steps.allow(ticket, 6)
    here.clear()  # the page lost its connection for longer than the grace
    assert ticket.job.done.wait(WAIT) and ticket.gone
    at = _status_app(ticket)  # it reconnects: any page's sidebar keeps what was trained
    assert not at.exception, at.exception
    state = at.session_state[STATE_KEY]
    assert state.stopped and state.stop_reason == "tab_closed" and 6 <= state.step < 500
    assert state is not ticket.job.state  # its own copy
    assert [m.value for m in at.markdown] == ["kept"]


# ---- the same training again -------------------------------------------------------------


def test_train_again_with_the_same_settings_says_so_and_offers_a_replay_or_a_new_seed(
        monkeypatch):
    drawn: list[str] = []
    real_chart = train_view.show_chart

    def show_chart(*args, key, **kwargs):
        drawn.append(key)
        return real_chart(*args, key=key, **kwargs)

    monkeypatch.setattr(train_view, "show_chart", show_chart)
    at = app("train", tr_steps=50)
    at.button(key="tr_train").click().run()
    first = at.session_state[STATE_KEY]
    assert not any("done already" in i.value for i in at.info)
    at.button(key="tr_train").click().run()  # the same settings: the same training
    assert not at.exception, at.exception
    again = at.session_state[STATE_KEY]
    assert H.hub().trainings == 1 and again.history == first.history
    note = [i.value for i in at.info if "done already" in i.value]
    assert len(note) == 1 and f"in about {again.seconds:.1f} s" in note[0]
    assert at.button(key="tr_replay") and at.button(key="tr_reseed").label == (
        "Train anew with seed 1")
    metrics = {m.label: m.value for m in at.metric}

    drawn.clear()
    at.button(key="tr_replay").click().run()  # plays the recorded run, trains nothing
    assert not at.exception, at.exception
    # the loss curve grew to the last step, beside the film's frames
    assert "tr_replay_loss_50" in drawn and any(k.startswith("tr_replay_film_") for k in drawn)
    assert H.hub().trainings == 1 and at.session_state[STATE_KEY] is again
    assert {m.label: m.value for m in at.metric} == metrics
    assert any("done already" in i.value for i in at.info)  # it may be watched again

    at.button(key="tr_reseed").click().run()  # a new seed: a new training, live
    assert not at.exception, at.exception
    assert at.session_state["seed"] == 1 and H.hub().trainings == 2
    new = at.session_state[STATE_KEY]
    assert new.key.seed == 1 and new.config.seed == 1
    assert not any("done already" in i.value for i in at.info)


@pytest.fixture(autouse=True)
def _english():
    set_lang("en")
    yield
    set_lang("en")


# ---- a training that waits its turn --------------------------------------------------------


def test_a_queued_training_does_not_hold_the_page_and_shows_its_place(monkeypatch):
    monkeypatch.setattr(train_view, "INLINE_WAIT", 0.3)
    gate = threading.Event()
    hub = H.Hub(slots=1, runner=lambda request, state, on_step, wants, threads: gate.wait(WAIT))
    H._HUB = hub  # noqa: SLF001 -- the server's hub, as the pages find it
    try:
        classmate = hub.join(_request(seed=8, steps=5))  # holds the server's one slot
        at = app("train", tr_steps=50)
        at.button(key="tr_train").click().run()
        assert not at.exception, at.exception
        ticket = _ticket(at)
        assert ticket.job.status == "queued"  # the page was drawn while it waits its turn
        assert any(i.value.startswith("Waiting for a free core") for i in at.info)
        assert at.button(key="tr_stop").disabled is False
        at.run()  # any next run: the sidebar says so too, on every page
        assert [p.proto.text for p in at.sidebar.get("progress")] == [
            "Training copy: waiting for a free core (0 ahead)"]
    finally:
        gate.set()
    assert classmate.job.done.wait(WAIT) and ticket.job.done.wait(WAIT)


def test_a_disconnected_training_is_kept_no_longer_than_the_server_keeps_its_session():
    from streamlit import config

    from explorer.app.train_state import training_hub

    before = config.get_option("server.disconnectedSessionTTL")
    try:
        config.set_option("server.disconnectedSessionTTL", 4)
        assert training_hub().reconnect_grace == 4
        H._HUB = None
        config.set_option("server.disconnectedSessionTTL", 600)
        assert training_hub().reconnect_grace == H.RECONNECT_GRACE
    finally:
        config.set_option("server.disconnectedSessionTTL", before)
