"""A seat in a class that a browser keeps (explorer/app/classroom.py `join_class`): a student
who reloads or opens a second tab is the same student, with one answer and the nickname
they gave; a teacher who closes the tab and opens the class link again gets the class back
as it was, students unmoved; class codes are guessed no faster from fresh sessions of one
address, and a right code always joins.

A browser's cookies are a dict here (`Browser`): what the class panel's component writes
(`_keep_seat`, read from the component's data as the browser's script would) is what the
next session of that browser sends. Time for the join's wait is a clock the test moves.
"""

from __future__ import annotations

import json
import math
import time

import pytest
from apptest_helpers import ROOT, app, own_class_store  # noqa: F401 (autouse)
from streamlit.testing.v1 import AppTest

from explorer.app import classroom as C
from explorer.classroom.store import JOIN_FAILURES, JOIN_STEP, Question
from explorer.text.i18n import set_lang
from explorer.text.locales import en, zh


class Browser:
    """One browser's cookies: sent with each new session it opens, written by the class
    panel's component after each run."""

    current: Browser | None = None  # the browser whose session runs now

    def __init__(self, **cookies: str) -> None:
        self.cookies = dict(cookies)

    def run(self, at: AppTest) -> AppTest:
        Browser.current = self
        try:
            at.run()
        finally:
            Browser.current = None
        assert not at.exception, at.exception
        for proto in _components(at._tree, []):
            if proto.component_name == "transformer_explorer_class_key":
                data = json.loads(proto.json)
                self.cookies[data["name"]] = data["value"]
        return at

    def open(self, **query: str) -> AppTest:
        """A new session of this browser (a reload, another tab) at "/" with `query`."""
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params.update(query)
        return self.run(at)


def _components(node, found: list) -> list:
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        if getattr(child, "type", None) == "bidi_component":
            found.append(child.proto)
        _components(child, found)
    return found


@pytest.fixture
def browsers(monkeypatch):
    """Cookies as the session that runs now was sent them."""
    monkeypatch.setattr(C, "_cookie", lambda name: (Browser.current.cookies.get(name)
                                                    if Browser.current else None))


def _sent(at: AppTest) -> bool:
    return any(en.TEXT["class.q_sent"].split(".")[0] in i.value for i in at.info)


ATTENTION = Question("token", "Where will 'sat' look?", ("0:the", "1:cat", "2:sat"), 1,
                     {"about": "attention", "token": "sat", "query": "2", "layer": "0",
                      "head": "0", "kind": "enc"})


def _on_attention(seat: C.Seat) -> AppTest:
    """The student's session on the Attention page, where the question is answered (AppTest
    runs a page it switches to without the state of app.py's runs: the seat is handed over)."""
    return app("attention", **{C.SEAT_KEY: seat, C.FOLLOW_KEY: True})


def _pointed_to_the_question(at: AppTest) -> bool:
    return en.TEXT["class.q_open_attention"] in [i.value for i in at.info]


def test_a_student_who_reloads_or_opens_a_second_tab_is_one_student_with_one_answer(browsers):
    store = C.class_store()
    code, key = store.start(time.time())
    first = store.ask(code, key, ATTENTION, time.time())
    phone = Browser()
    tab = phone.open(**{"class": code})  # the join link
    assert _pointed_to_the_question(tab)
    seat = tab.session_state[C.SEAT_KEY]
    assert phone.cookies == {C.STUDENT_COOKIE + code: seat.student_id}
    page = _on_attention(seat)
    page.text_input(key="class_nick").set_value("Ada").run()
    page.selectbox(key="class_answer").set_value(1).run()
    page.button(key="class_send").click().run()
    assert not page.exception, page.exception
    assert _sent(page) and seat.nickname == "Ada"

    reloaded, second = phone.open(**{"class": code}), phone.open(**{"class": code})
    for again in (reloaded, second):
        kept = again.session_state[C.SEAT_KEY]
        assert (kept.student_id, kept.nickname) == (seat.student_id, "Ada")
        assert not _pointed_to_the_question(again)  # answered already
        answering = _on_attention(kept)
        assert _sent(answering)  # no second answer offered
        assert not [b for b in answering.button if b.key == "class_send"]
    assert store.tally(code, key, first).answered == 1
    assert store.roster(code, key, time.time()).connected == 1  # three tabs, one student

    # the next question starts with the name given, which the student may change
    store.ask(code, key, ATTENTION, time.time())
    page = _on_attention(second.session_state[C.SEAT_KEY])
    assert page.text_input(key="class_nick").value == "Ada"
    page.text_input(key="class_nick").set_value("Ada L.").run()
    page.selectbox(key="class_answer").set_value(0).run()
    page.button(key="class_send").click().run()
    tally = store.tally(code, key, first + 1)
    assert tally.answered == 1 and tally.nicknames == (("Ada L.",), (), ())
    assert phone.open(**{"class": code}).session_state[C.SEAT_KEY].nickname == "Ada L."
    # another browser is another student
    other = Browser().open(**{"class": code}).session_state[C.SEAT_KEY]
    assert other.student_id != seat.student_id and other.nickname is None


def test_an_edited_student_cookie_that_is_no_id_makes_a_new_student(browsers):
    code, _ = C.class_store().start(time.time())
    for forged in ("", "a b", "<b>x</b>", "x" * 65):
        seat = Browser(**{C.STUDENT_COOKIE + code: forged}).open(**{"class": code})
        assert seat.session_state[C.SEAT_KEY].student_id != forged


def _is_attention_page(at: AppTest) -> bool:
    return any(w.key == "attn_layer" for w in at.selectbox)


# what the teacher set, which the class's view keeps
SHOWN = ("source", "model_source", "attn_head", "shape_attn")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_teacher_who_reopens_the_class_link_gets_the_class_back_and_no_student_moves(
        browsers, lang):
    store = C.class_store()
    laptop = Browser()
    set_lang(lang)  # AppTest formats a widget's values in the test's thread
    try:
        teacher = laptop.open(lang=lang)
        teacher.button(key="class_start").click()
        laptop.run(teacher)
        code, key = (teacher.session_state[C.SEAT_KEY].code,
                     teacher.session_state[C.SEAT_KEY].teacher_key)
        teacher.toggle(key="presenter").set_value(True)
        laptop.run(teacher)
        teacher.radio(key="model_source").set_value("dates")
        laptop.run(teacher)
        teacher.text_input(key="source").set_value("Donnerstag, 30. Dezember 1926")
        laptop.run(teacher)
        # choices of other pages, as the teacher left them there
        teacher.session_state["attn_head"], teacher.session_state["shape_attn"] = 2, True
        laptop.run(teacher)
        store.ask(code, key, ATTENTION, time.time())
        assert laptop.cookies == {C.TEACHER_COOKIE + code: key,
                                  C.PRESENTER_COOKIE + code: "1"}
        wanted = {"source": "Donnerstag, 30. Dezember 1926", "model_source": "dates",
                  "attn_head": 2, "shape_attn": True}
        assert {"head": "2", "sattn": "1"}.items() <= store.state(code).view.items()
        student = Browser().open(**{"class": code})
        assert {k: student.session_state[k] for k in SHOWN} == wanted
        before = store.state(code)

        again = laptop.open(**{"class": code})  # the tab closed, the link opened again
        seat, state = again.session_state[C.SEAT_KEY], again.session_state
        assert seat.teaching and seat.trainings == "0"
        assert {k: state[k] for k in SHOWN} == wanted
        assert state["lang"] == lang and state["presenter"] is True
        laptop.run(again)  # its timers' runs too
        assert store.state(code) == before  # nothing sent: no student moves
        assert before.question.status == "open"  # the open question is the class's still
        student.run()
        assert not student.exception, student.exception
        assert {k: student.session_state[k] for k in SHOWN} == wanted
        assert student.session_state[C.FOLLOW_KEY] is True

        again.text_input(key="source").set_value("back in charge")
        laptop.run(again)
        student.run()  # the teacher steers again
        assert student.text_input(key="source").value == "back in charge"
        assert student.session_state["model_source"] == "dates"

        # a class on another page: the reopened link goes there
        view = store.state(code).view
        store.steer(code, key, {**view, C.PAGE_PARAM: "attention"}, time.time())
        on_attention = laptop.open(**{"class": code})
        assert _is_attention_page(on_attention)
        assert on_attention.session_state["source"] == "back in charge"
    finally:
        set_lang("en")


def _said(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "info", "warning")
                     for e in at.sidebar.get(kind))


def test_a_teacher_who_opens_the_link_of_a_class_they_ended_finds_its_questions(browsers):
    """The results of an ended class outlive the teacher's tab, in that browser only."""
    store = C.class_store()
    laptop = Browser()
    teacher = laptop.open()
    teacher.button(key="class_start").click()
    laptop.run(teacher)
    seat = teacher.session_state[C.SEAT_KEY]
    code, key = seat.code, seat.teacher_key
    asked = store.ask(code, key, ATTENTION, time.time())
    store.answer(code, asked, "s1", 1, "Ann", time.time())
    store.reveal(code, key, asked, time.time())
    teacher.button(key="class_end").click()
    laptop.run(teacher)
    teacher.button(key="class_end_yes").click()
    laptop.run(teacher)
    assert store.state(code).ended

    again = laptop.open(**{"class": code})  # the tab closed, the link opened again
    said = _said(again)
    assert C.SEAT_KEY not in again.session_state
    assert en.TEXT["class.ended_teacher"].format(code=code) in said
    assert en.TEXT["class.asked_right"].format(answered=1, right="100%") in said
    assert not again.sidebar.warning  # not "no class is running with the code"
    downloads = {e.proto.id.rsplit("-", 1)[-1] for e in again.get("download_button")}
    assert {"class_results_csv", "class_results_json"} <= downloads

    other = Browser().open(**{"class": code})  # a student's link: no results, a notice
    assert en.TEXT["class.ended_teacher"].format(code=code) not in _said(other)
    assert other.sidebar.warning[0].value.startswith(
        en.TEXT["class.not_found"].format(code=code)[:30])
    forged = Browser(**{C.TEACHER_COOKIE + code: "not-the-key"}).open(**{"class": code})
    assert en.TEXT["class.ended_teacher"].format(code=code) not in _said(forged)


class Clock:
    """time for explorer/app/classroom.py: a join's wait moves it, instead of sleeping."""

    def __init__(self, moves: bool = True) -> None:
        self.offset, self.waits, self.moves = 0.0, [], moves

    def time(self) -> float:
        return time.time() + self.offset

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.offset += seconds if self.moves else 0.0


def _join_alone(text: str) -> None:
    import streamlit as st

    from explorer.app import classroom as C
    from explorer.text.i18n import t

    C.join_class(C.class_store(), text)
    notice = C.take_notice()
    if notice is not None:
        st.warning(t(notice[0], **notice[1]))


def _fresh_session(text: str) -> AppTest:
    at = AppTest.from_function(_join_alone, args=(text,), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_guesses_from_fresh_sessions_of_one_address_wait_their_turn_and_a_right_code_joins(
        monkeypatch):
    """Each guess in a new browser session: the limit is the address's, so they are
    counted together; past JOIN_FAILURES each waits its turn (at most JOIN_STEP, the same
    every time) and the page says so; a right code joins in one try, after that wait."""
    clock = Clock()
    monkeypatch.setattr(C, "time", clock)
    code, _ = C.class_store().start(time.time())
    said = []
    for i in range(JOIN_FAILURES + 2):
        guess = _fresh_session(f"ZZZZ{i:02d}")
        assert C.SEAT_KEY not in guess.session_state
        said.append(guess.warning[0].value)
    assert clock.waits[:1] and len(clock.waits) == 2  # the two past the free ten waited
    assert all(0 < wait <= JOIN_STEP for wait in clock.waits)
    free = en.TEXT["class.not_found"].split("{")[0]
    paced = en.TEXT["class.not_found_paced"].format(code="ZZZZ09", n=JOIN_FAILURES, step="2")
    assert all(text.startswith(free) for text in said[:JOIN_FAILURES - 1])
    assert said[JOIN_FAILURES - 1] == paced
    assert f"checked {JOIN_STEP:g} s after the last wrong one" in said[-1]
    right = _fresh_session(code)  # a classmate behind the same router
    assert right.session_state[C.SEAT_KEY].code == code and not right.warning
    assert len(clock.waits) == 3 and 0 < clock.waits[-1] <= JOIN_STEP


def test_a_join_that_never_gets_its_turn_says_how_long_to_wait(monkeypatch):
    clock = Clock(moves=False)  # others of the address take every turn
    monkeypatch.setattr(C, "time", clock)
    code, _ = C.class_store().start(time.time())
    for i in range(JOIN_FAILURES):
        _fresh_session(f"ZZZZ{i:02d}")
    at = _fresh_session(code)
    assert C.SEAT_KEY not in at.session_state
    assert len(clock.waits) == C.JOIN_TRIES - 1
    seconds = max(1, math.ceil(clock.waits[-1]))
    assert at.warning[0].value == en.TEXT["class.wait"].format(seconds=seconds)
    set_lang("zh")
    try:
        assert str(seconds) in zh.TEXT["class.wait"].format(seconds=seconds)
    finally:
        set_lang("en")
