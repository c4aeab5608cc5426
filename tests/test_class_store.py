"""The class mode's store (explorer/classroom): codes, following the teacher's view, the
teacher key, rate-limited joins, the roster, questions and answers, the end of a class.

Every store test runs against both back ends, SQLite in a temporary folder and a real
redis-server started for this module on a free port, so both keep the same rules. Time is
handed to the store, so nothing here waits for a class to go idle.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import types
import unicodedata
from pathlib import Path

import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_inputs import bad_input_params, bad_input_texts

from explorer.classroom import store as store_module
from explorer.classroom.backend import SQLITE_FILE, open_store
from explorer.classroom.codes import ALPHABET, LENGTH, new_code, normalise_code
from explorer.classroom.redis_store import RedisStore
from explorer.classroom.sqlite_store import SQLiteStore
from explorer.classroom.store import (
    CLOSED,
    ENDED_KEEP,
    IDLE_LIMIT,
    JOIN_FAILURES,
    JOIN_STEP,
    JOIN_WINDOW,
    MAX_CHECK_STEP,
    MAX_CHOICES,
    MAX_LABEL_CHARS,
    MAX_VIEW_VALUE_CHARS,
    NICKNAME_CHARS,
    OPEN,
    REVEALED,
    SWEEP_EVERY,
    AlreadyAnsweredError,
    ClassFullError,
    ClassNotFoundError,
    ClassState,
    InvalidAnswerError,
    NotTeacherError,
    OnStep,
    PublicQuestion,
    Question,
    QuestionClosedError,
    RateLimitedError,
    Results,
    Roster,
    SelfCheck,
    StudentAnswer,
    clean_nickname,
    clean_text,
    client_of_address,
    join_wait,
    lesson_id,
)

T0 = 1_700_000_000.0  # the store's clock: every call is handed its time
FAST = settings(max_examples=200, deadline=None, derandomize=True, database=None)
SAT = Question(kind="token", prompt="Which source token will 'sat' attend to most?",
               choices=("the", "cat", "sat", "on", "the", "mat"), truth=1,
               fields={"token": "sat", "layer": "1", "head": "2"})
POLL = Question(kind="option", prompt="Did you expect that?", choices=("yes", "no"))
NO_REDIS = ("redis-server is not installed: `make test` installs Debian's package "
            "(apt-get install redis-server)")


# -- the two back ends --

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _answers_ping(client: redis.Redis, server: subprocess.Popen, timeout: float) -> bool:
    """Poll until the server answers PING (True) or exits or `timeout` passes (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            return bool(client.ping())
        except redis.ConnectionError:
            time.sleep(0.01)
    return False


@pytest.fixture(scope="module")
def redis_url():
    """A redis-server of this module's own on a free port, with nothing written to disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail(NO_REDIS, pytrace=False)
        pytest.skip(NO_REDIS)
    for _ in range(3):  # another program may take the free port before the server does
        port = _free_port()
        server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                   "--save", "", "--appendonly", "no"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
        if _answers_ping(client, server, timeout=15):
            break
        client.close()
        server.kill()
        server.wait()
    else:
        pytest.fail("redis-server did not start", pytrace=False)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(params=["sqlite", "redis"])
def spec(request) -> str | None:
    """The CLASS_STORE setting of each back end, its store empty."""
    if request.param == "sqlite":
        return None
    url = request.getfixturevalue("redis_url")
    with redis.Redis.from_url(url) as client:
        client.flushdb()
    return url


@pytest.fixture
def store(spec, tmp_path):
    opened = open_store(spec, tmp_path)
    yield opened
    opened.close()


def _stored_bytes(spec: str | None, data_dir: Path) -> bytes:
    """Everything the store wrote: the SQLite files, or every Redis value."""
    if spec is None:
        return b"".join(path.read_bytes() for path in sorted(data_dir.glob(SQLITE_FILE + "*")))
    found = []
    with redis.Redis.from_url(spec) as client:
        for key in client.scan_iter():
            kind = client.type(key)
            if kind == b"hash":
                found.extend(part for item in client.hgetall(key).items() for part in item)
            elif kind == b"zset":
                found.extend(client.zrange(key, 0, -1))
            found.append(key)
    return b"\n".join(found)


def _other_code(code: str) -> str:
    return next(c for c in ("000000", "111111") if c != code)


# -- class codes --

def test_class_codes_are_six_symbols_of_crockfords_base32_drawn_at_random():
    assert len(set(ALPHABET)) == 32 and not set("ILOU") & set(ALPHABET)
    assert 32 ** LENGTH >= 1e9
    codes = {new_code() for _ in range(500)}
    assert all(len(code) == LENGTH and set(code) <= set(ALPHABET) for code in codes)
    assert len(codes) > 490  # two alike in 500 draws of 1.07e9: p ≈ 1e-4
    assert set("".join(codes)) == set(ALPHABET)


@pytest.mark.parametrize("typed, meant", [
    ("K7Q2XM", "K7Q2XM"), ("k7q2xm", "K7Q2XM"), ("  K7Q-2XM ", "K7Q2XM"),
    ("k7q 2xm", "K7Q2XM"), ("K7Q\u20132XM", "K7Q2XM"), ("K7Q\u00a02XM", "K7Q2XM"),
    ("IL0Oio", "110010"),  # Crockford: I and L read as 1, O as 0
])
def test_a_typed_code_reads_as_the_code_meant(typed, meant):
    assert normalise_code(typed) == meant


@pytest.mark.parametrize("typed", [
    "", "K7Q2X", "K7Q2XMM", "K7Q2XU", "K7Q2X!", "K7Q2X\u200b", "\uff2b7Q2XM", "\u0131L0O10",
    "K7Q2XM" + " " * 40, "?class=K7Q2XM", "\u0665\u0665\u0665\u0665\u0665\u0665", None, 123456,
    b"K7Q2XM", ["K7Q2XM"],
])
def test_text_that_is_no_code_reads_as_none(typed):
    assert normalise_code(typed) is None


@pytest.mark.parametrize("text", bad_input_params())
def test_hostile_texts_are_no_codes(text):
    assert normalise_code(text) is None


@FAST
@given(st.text(max_size=60))
def test_any_text_reads_as_a_code_or_none_without_raising(text):
    code = normalise_code(text)
    assert code is None or (len(code) == LENGTH and set(code) <= set(ALPHABET))


def test_a_code_a_class_has_is_never_given_to_another(store, monkeypatch):
    drawn = iter(["AAAAAA", "AAAAAA", "AAAAAA", "BBBBBB"])
    monkeypatch.setattr(store_module, "new_code", lambda: next(drawn))
    first, first_key = store.start(T0)
    second, second_key = store.start(T0)
    assert (first, second) == ("AAAAAA", "BBBBBB") and first_key != second_key
    with pytest.raises(NotTeacherError):
        store.steer(first, second_key, {"h": "2"}, T0 + 1)


# -- following the teacher --

def test_a_student_joins_and_follows_the_teachers_view(store):
    code, key = store.start(T0)
    assert normalise_code(code) == code and len(key) >= 32
    typed = f" {code[:3].lower()}-{code[3:].lower()} "
    assert store.join(typed, "client-a", T0 + 1) == ClassState(
        code=code, version=1, view={}, question=None, ended=False)
    view = {"src": "the cat sat on the mat", "layer": "1", "head": "2"}
    assert store.steer(code, key, view, T0 + 2) == 2
    assert store.state(code).view == view and store.version(code) == 2
    assert store.steer(code, key, dict(view), T0 + 3) == 2  # nothing new for students
    assert store.steer(code, key, {**view, "head": "3"}, T0 + 4) == 3
    assert store.join(code, "client-b", T0 + 5).view == {**view, "head": "3"}
    assert store.version(code.lower()) == 3


def test_a_view_comes_back_exactly_whatever_its_text(store):
    code, key = store.start(T0)
    texts = [*bad_input_texts(), "<b>x</b>", "a\x00b", "\u202e", "", "\ud800", "x" * 4000]
    view = {f"k{i}": text[:MAX_VIEW_VALUE_CHARS] for i, text in enumerate(texts)}
    store.steer(code, key, view, T0 + 1)
    assert store.state(code).view == view


@pytest.mark.parametrize("view", [
    None, "src=the", [("src", "the")], {"src": 1}, {1: "the"}, {"": "x"}, {"k" * 65: "x"},
    {"src": "x" * (MAX_VIEW_VALUE_CHARS + 1)}, {f"k{i}": "" for i in range(129)},
    {f"k{i}": "x" * 3000 for i in range(30)},
])
def test_a_view_that_is_no_links_parameters_is_refused(store, view):
    code, key = store.start(T0)
    with pytest.raises(ValueError):
        store.steer(code, key, view, T0 + 1)
    assert store.version(code) == 1


def test_only_the_teacher_key_steers_the_class(store):
    code, key = store.start(T0)
    _, other_key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    last = "A" if key[-1] != "A" else "B"
    for forged in ("", "x", key[:-1], key[:-1] + last, key + "x", other_key, " " + key, None,
                   42, "x" * 10_000):
        with pytest.raises(NotTeacherError):
            store.steer(code, forged, {"h": "8"}, T0 + 2)
        with pytest.raises(NotTeacherError):
            store.ask(code, forged, POLL, T0 + 2)
        with pytest.raises(NotTeacherError):
            store.roster(code, forged, T0 + 2)
        with pytest.raises(NotTeacherError):
            store.tally(code, forged, question)
        with pytest.raises(NotTeacherError):
            store.reveal(code, forged, question, T0 + 2)
        with pytest.raises(NotTeacherError):
            store.end(code, forged, T0 + 2)
    state = store.state(code)
    assert state.view == {} and state.version == 2 and not state.ended
    assert state.question.status == OPEN and store.results(code, question) is None


def test_the_teacher_key_is_stored_only_as_a_digest(store, spec, tmp_path):
    code, key = store.start(T0)
    store.steer(code, key, {"h": "2"}, T0 + 1)
    stored = _stored_bytes(spec, tmp_path)
    assert code.encode() in stored
    assert key.encode() not in stored
    assert key not in repr(store.state(code))


def test_a_code_no_class_has_is_not_found(store):
    code, key = store.start(T0)
    for unknown in (_other_code(code), "<script>", "", None):
        assert store.state(unknown) is None and store.version(unknown) is None
        assert store.results(unknown, 1) is None
        with pytest.raises(ClassNotFoundError):
            store.join(unknown, "client", T0 + 1)
        with pytest.raises(ClassNotFoundError):
            store.steer(unknown, key, {}, T0 + 1)
        with pytest.raises(ClassNotFoundError):
            store.heartbeat(unknown, "s1", True, T0 + 1)
        with pytest.raises(ClassNotFoundError):
            store.answer(unknown, 1, "s1", 0, None, T0 + 1)


def test_wrong_codes_from_an_address_are_checked_one_every_step_and_a_right_code_joins(store):
    """Ten wrong codes a minute are free; then each try of that address is checked
    JOIN_STEP after its last wrong one: the same wait every time, and a right code joins
    once its turn comes (never a wait that grows, nor a right code refused for long)."""
    code, _ = store.start(T0)
    for attempt in range(20):  # joining the right code is no failure
        assert store.join(code, "203.0.113.7", T0 + attempt * 0.1).code == code
    wrong = [_other_code(code), "K7Q2XV", "ZZZZZZ"]
    for attempt in range(JOIN_FAILURES):  # from as many browser sessions: one address
        with pytest.raises(ClassNotFoundError) as refused:
            store.join(wrong[attempt % len(wrong)], "203.0.113.7", T0 + attempt)
        assert refused.value.next_try == (JOIN_STEP if attempt == JOIN_FAILURES - 1 else 0)
    last = T0 + JOIN_FAILURES - 1
    with pytest.raises(RateLimitedError) as limited:  # its turn has not come: not looked at
        store.join(code, "203.0.113.7", last + 0.5)
    assert limited.value.retry_after == pytest.approx(JOIN_STEP - 0.5)
    assert store.join(code, "198.51.100.1", last + 0.5).code == code  # another address
    assert store.join(code, "203.0.113.7", last + JOIN_STEP).code == code  # its turn
    # a steady schedule: after each wrong code the next try waits JOIN_STEP, no more
    now, waits = last + JOIN_STEP, []
    for attempt in range(6):
        with pytest.raises(ClassNotFoundError) as refused:
            store.join(wrong[attempt % len(wrong)], "203.0.113.7", now)
        assert refused.value.next_try == JOIN_STEP
        with pytest.raises(RateLimitedError) as limited:
            store.join(code, "203.0.113.7", now + 0.25)
        waits.append(limited.value.retry_after)
        now += JOIN_STEP
    assert waits == [pytest.approx(JOIN_STEP - 0.25)] * 6
    assert store.join(code, "203.0.113.7", now).code == code
    # a minute without wrong codes: free again
    with pytest.raises(ClassNotFoundError) as refused:
        store.join(wrong[0], "203.0.113.7", now + JOIN_WINDOW)
    assert refused.value.next_try == 0


def test_text_that_is_no_code_is_refused_without_counting_as_a_guess(store):
    code, _ = store.start(T0)
    for i, text in enumerate(["", "<script>alert(1)</script>", "K7Q2X", *bad_input_texts()]):
        with pytest.raises(ClassNotFoundError):
            store.join(text, "203.0.113.7", T0 + i * 0.01)
    assert store.join(code, "203.0.113.7", T0 + 1).code == code
    with pytest.raises(ClassNotFoundError) as refused:  # the first wrong code of that address
        store.join(_other_code(code), "203.0.113.7", T0 + 1)
    assert refused.value.next_try == 0


def test_tries_of_one_address_at_the_same_moment_are_checked_one_at_a_time(store):
    """Guesses sent at once (threads here; replicas and processes alike) cannot slip in
    together while the address waits its turn: one is checked, the others wait."""
    code, _ = store.start(T0)
    for attempt in range(JOIN_FAILURES):
        with pytest.raises(ClassNotFoundError):
            store.join(_other_code(code), "guesser", T0 + attempt)
    turn = T0 + JOIN_FAILURES - 1 + JOIN_STEP
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def guess(i: int) -> None:
        barrier.wait(timeout=30)
        try:
            store.join(f"ZZZZ{ALPHABET[i]}{ALPHABET[i]}", "guesser", turn)
            outcomes.append("checked")
        except ClassNotFoundError:
            outcomes.append("checked")
        except RateLimitedError:
            outcomes.append("waits")

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["checked"] + ["waits"] * 7


@pytest.mark.parametrize("address, client", [
    ("203.0.113.7", "203.0.113.7"), (" 203.0.113.7 ", "203.0.113.7"),
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::1", "2001:db8:1:2::/64"), ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    (None, "unknown"), ("", "unknown"), ("not an address", "unknown"), ("<b>", "unknown"),
])
def test_a_join_is_limited_as_its_address_an_ipv6_one_by_its_64(address, client):
    assert client_of_address(address) == client


def test_the_wait_is_never_longer_than_one_step_whatever_the_clocks():
    tried = [T0 + i for i in range(JOIN_FAILURES)]
    assert join_wait(tried[:-1], tried[-1]) == 0
    assert join_wait(tried, tried[-1]) == JOIN_STEP
    assert join_wait(tried, tried[-1] - 30) == JOIN_STEP  # a replica's clock behind
    assert join_wait(tried, tried[-1] + JOIN_STEP) == 0


# -- the roster --

def test_the_roster_counts_students_connected_following_and_exploring(store):
    code, key = store.start(T0)
    store.heartbeat(code, "s1", True, T0 + 1)
    store.heartbeat(code, "s2", True, T0 + 2)
    store.heartbeat(code, "s3", False, T0 + 3)
    store.heartbeat(code, "gone", True, T0 - 6)  # not seen for 11 s at T0 + 5
    assert store.roster(code, key, T0 + 5) == Roster(connected=3, following=2, exploring=1)
    store.heartbeat(code, "s3", True, T0 + 6)
    assert store.roster(code, key, T0 + 7) == Roster(connected=3, following=3, exploring=0)
    assert store.roster(code, key, T0 + 30) == Roster(connected=0, following=0, exploring=0)


def test_the_roster_says_how_many_students_are_on_each_step_of_the_lesson(store):
    """A student-paced lesson: each heartbeat names the student's step; the roster counts the
    connected students per step, with the nicknames they gave (a later heartbeat moves them,
    an older one that comes late does not, a student gone leaves the count)."""
    code, key = store.start(T0)
    question = store.ask(code, key, POLL, T0 + 1)
    store.answer(code, question, "s1", 0, "Ada", T0 + 1)
    store.answer(code, question, "s3", 1, "Lin", T0 + 1)
    store.heartbeat(code, "s1", True, T0 + 2, step=0)
    store.heartbeat(code, "s2", True, T0 + 2, step=0)
    store.heartbeat(code, "s3", True, T0 + 3, step=2)
    store.heartbeat(code, "s4", True, T0 + 3)  # no lesson open: on no step
    store.heartbeat(code, "gone", True, T0 - 20, step=5)
    assert store.roster(code, key, T0 + 4).steps == (
        OnStep(step=0, students=2, names=("Ada",)), OnStep(step=2, students=1, names=("Lin",)))
    store.heartbeat(code, "s1", False, T0 + 5, step=1)  # moved on, exploring there
    store.heartbeat(code, "s2", True, T0 + 4.5, step=3)  # sent before s2's last: kept as it was
    store.heartbeat(code, "s2", True, T0 + 5, step=1)
    roster = store.roster(code, key, T0 + 6)
    assert roster.steps == (OnStep(step=1, students=2, names=("Ada",)),
                            OnStep(step=2, students=1, names=("Lin",)))
    assert (roster.connected, roster.following, roster.explorers) == (4, 3, ("Ada",))
    store.heartbeat(code, "s2", True, T0 + 7, step=None)  # the lesson closed
    assert store.roster(code, key, T0 + 8).steps[0] == OnStep(step=1, students=1, names=("Ada",))
    assert store.roster(code, key, T0 + 30).steps == ()


LESSON_A, LESSON_B = lesson_id("attention-steps"), lesson_id("masks-shapes")


def _seated(store, *students: str) -> tuple[str, str]:
    """A new class with `students` in it (a heartbeat each): its code and key."""
    code, key = store.start(T0)
    for student in students:
        store.heartbeat(code, student, True, T0 + 0.5, step=1)
    return code, key


def test_a_students_self_checks_are_kept_latest_per_step_and_lesson_for_teacher_and_student(
        store):
    """A student-paced lesson: each student's latest self-check of each step (another answer
    replaces it and counts as a try), another lesson's apart, the teacher's list oldest
    first, also after the class ended; a student reads back their own; the nickname names
    the student on the roster; a student not in the class checks nothing."""
    code, key = _seated(store, "s1", "s2")
    store.check(code, "s1", LESSON_A, 1, 2, False, "Ada", T0 + 1)
    store.check(code, "s2", LESSON_A, 1, 1, True, None, T0 + 2)
    store.check(code, "s1", LESSON_A, 1, 1, True, "Ada", T0 + 3)  # tried again
    store.check(code, "s1", LESSON_A, 4, 0, None, "Ada", T0 + 4)  # a poll
    store.check(code, "s1", LESSON_B, 1, 3, False, "Ada", T0 + 5)
    assert store.checks_of(code, "s1", LESSON_A) == {1: 1, 4: 0}
    assert store.checks_of(code, "s1", LESSON_B) == {1: 3}
    assert store.checks_of(code, "s3", LESSON_A) == {}
    assert store.checks_of("ZZZZZZ", "s1", LESSON_A) == {}
    assert store.checks_of(code, "s1", "not a lesson") == {}
    assert store.roster(code, key, T0 + 5.5).steps == (OnStep(step=1, students=2,
                                                              names=("Ada",)),)
    with pytest.raises(ClassNotFoundError):  # never seen in this class
        store.check(code, "stranger", LESSON_A, 1, 0, True, None, T0 + 5.5)
    store.end(code, key, T0 + 6)
    with pytest.raises(ClassNotFoundError):  # the class is over
        store.check(code, "s2", LESSON_A, 2, 0, True, None, T0 + 7)
    assert store.self_checks(code, key, LESSON_A) == (
        SelfCheck("s2", 1, 1, True, None, T0 + 2, 1),
        SelfCheck("s1", 1, 1, True, "Ada", T0 + 3, 2),
        SelfCheck("s1", 4, 0, None, "Ada", T0 + 4, 1))
    with pytest.raises(NotTeacherError):
        store.self_checks(code, "not the key", LESSON_A)


@pytest.mark.parametrize("bad", [
    {"step": -1}, {"step": MAX_CHECK_STEP}, {"step": True}, {"step": "2"}, {"choice": -1},
    {"choice": MAX_CHOICES}, {"choice": True}, {"choice": 1.0}, {"right": 1}, {"right": "yes"},
])
def test_a_self_check_of_no_step_choice_or_verdict_is_refused(store, bad):
    code, _ = _seated(store, "s1")
    given = {"step": 1, "choice": 0, "right": True, **bad}
    with pytest.raises(InvalidAnswerError):
        store.check(code, "s1", LESSON_A, given["step"], given["choice"], given["right"],
                    None, T0 + 1)
    with pytest.raises(ValueError):
        store.check(code, "s1", "no lesson id", 1, 0, True, None, T0 + 1)
    with pytest.raises(ValueError):
        store.check(code, "not an id!", LESSON_A, 1, 0, True, None, T0 + 1)
    assert store.checks_of(code, "s1", LESSON_A) == {}


def test_hostile_nicknames_of_self_checks_are_kept_clean(store):
    texts = [*bad_input_texts(), "<b>x</b>", "a\x00b", "\u202e", "\ud800", "x" * 4000]
    code, key = _seated(store, *(f"s{step}" for step in range(len(texts))))
    for step, text in enumerate(texts):
        store.check(code, f"s{step}", LESSON_A, 1, 0, True, text, T0 + 1)
    names = {c.student: c.nickname for c in store.self_checks(code, key, LESSON_A)}
    assert names == {f"s{step}": clean_nickname(text) for step, text in enumerate(texts)}


def test_a_self_checks_label_is_kept_as_plain_text_and_replaced_with_its_answer(store):
    """The option's label as the student's page offered it (a measured question's token):
    kept with the check, cleaned like every text of the class, replaced by the next try."""
    texts = [*bad_input_texts(), "<b>x</b>", "a\x00b", "\u202e", "x" * 4000]
    code, key = _seated(store, *(f"s{step}" for step in range(len(texts))))
    for step, text in enumerate(texts):
        store.check(code, f"s{step}", LESSON_A, 1, 0, True, None, T0 + 1, text)
    labels = {c.student: c.label for c in store.self_checks(code, key, LESSON_A)}
    assert labels == {f"s{step}": clean_text(text[:10 * MAX_LABEL_CHARS], MAX_LABEL_CHARS) or None
                      for step, text in enumerate(texts)}
    assert all(label is None or len(label) <= MAX_LABEL_CHARS for label in labels.values())
    store.check(code, "s0", LESSON_A, 1, 2, False, None, T0 + 2, "年")
    store.check(code, "s1", LESSON_A, 1, 2, False, None, T0 + 2)  # none sent
    mine = {c.student: c for c in store.self_checks(code, key, LESSON_A)}
    assert (mine["s0"].choice, mine["s0"].label, mine["s0"].tries) == (2, "年", 2)
    assert mine["s1"].label is None


@pytest.mark.parametrize("label", [3, b"x", ["x"], True])
def test_a_self_check_whose_label_is_not_text_is_refused(store, label):
    code, key = _seated(store, "s1")
    with pytest.raises(InvalidAnswerError):
        store.check(code, "s1", LESSON_A, 1, 0, True, None, T0 + 1, label)
    assert store.self_checks(code, key, LESSON_A) == ()


def _as_written_before(store, spec, tmp_path, sql: str, redis_edit):
    """`store` as an earlier version left it: SQLite altered by `sql` (the store closed and
    opened again), or Redis changed by `redis_edit(client)`; the store to read it with."""
    if spec is None:
        store.close()
        import sqlite3

        with sqlite3.connect(tmp_path / SQLITE_FILE) as db:
            db.execute(sql)
        return open_store(spec, tmp_path)
    with redis.Redis.from_url(spec) as client:
        redis_edit(client)
    return store


def test_self_checks_kept_before_labels_were_are_read_without_one(store, spec, tmp_path):
    """A class store written by an earlier version: an SQLite checks table without its
    label column, Redis values of five items."""
    code, key = _seated(store, "s1")
    store.check(code, "s1", LESSON_A, 1, 2, False, "Ada", T0 + 1, "年")

    def five_items(client) -> None:
        (checks,) = [k for k in client.scan_iter() if k.endswith(b":checks")]
        (field,) = client.hkeys(checks)
        client.hset(checks, field, json.dumps([2, False, "Ada", T0 + 1, 1]))
    store = _as_written_before(store, spec, tmp_path, "ALTER TABLE checks DROP COLUMN label",
                               five_items)
    try:
        assert store.self_checks(code, key, LESSON_A) == (
            SelfCheck("s1", 1, 2, False, "Ada", T0 + 1, 1),)
        store.check(code, "s1", LESSON_A, 1, 3, True, "Ada", T0 + 2, "月")
        assert store.self_checks(code, key, LESSON_A) == (
            SelfCheck("s1", 1, 3, True, "Ada", T0 + 2, 2, "月"),)
    finally:
        if spec is None:
            store.close()


def test_a_class_keeps_at_most_so_many_self_checks(store, monkeypatch):
    import explorer.classroom.redis_store as redis_store
    import explorer.classroom.sqlite_store as sqlite_store

    for module in (redis_store, sqlite_store):
        monkeypatch.setattr(module, "MAX_CHECKS", 5)
        monkeypatch.setattr(module, "MAX_CHECKS_EACH", 3)
    code, _ = _seated(store, "s1", "s2", "s3")
    for step in range(3):
        store.check(code, "s1", LESSON_A, step, 0, True, None, T0 + 1)
    with pytest.raises(ClassFullError):  # the student's own bound, over every lesson
        store.check(code, "s1", LESSON_B, 0, 0, True, None, T0 + 2)
    store.check(code, "s1", LESSON_A, 0, 1, False, None, T0 + 3)  # a kept one is replaced
    assert store.checks_of(code, "s1", LESSON_A) == {0: 1, 1: 0, 2: 0}
    store.check(code, "s2", LESSON_A, 0, 0, True, None, T0 + 4)
    store.check(code, "s2", LESSON_A, 1, 0, True, None, T0 + 4)
    with pytest.raises(ClassFullError):  # the class's bound
        store.check(code, "s3", LESSON_A, 0, 0, True, None, T0 + 5)


@pytest.mark.parametrize("step", [-1, 1000, True, 1.0, "2", [2], None])
def test_a_step_that_is_no_lesson_step_counts_the_student_on_no_step(store, step):
    code, key = store.start(T0)
    store.heartbeat(code, "s1", True, T0 + 1, step=step)
    roster = store.roster(code, key, T0 + 2)
    assert (roster.connected, roster.steps) == (1, ())


def test_a_student_kept_before_steps_were_is_on_no_step(store, spec, tmp_path):
    """A class store written by an earlier version: Redis values "seen|following", an
    SQLite students table without its step column."""
    code, key = store.start(T0)
    store.heartbeat(code, "s1", True, T0 + 1, step=4)

    def seen_following(client) -> None:
        hashes = [k for k in client.scan_iter() if k.endswith(b":students")]
        client.hset(hashes[0], "s1", f"{T0 + 1!r}|1")
    store = _as_written_before(store, spec, tmp_path, "ALTER TABLE students DROP COLUMN step",
                               seen_following)
    try:
        roster = store.roster(code, key, T0 + 2)
        assert (roster.connected, roster.following, roster.steps) == (1, 1, ())
        store.heartbeat(code, "s1", True, T0 + 3, step=4)
        assert store.roster(code, key, T0 + 4).steps == (OnStep(step=4, students=1),)
    finally:
        if spec is None:
            store.close()


@pytest.mark.parametrize("student", ["", "a b", "x" * 65, "<b>", "\u202e1", None, 7])
def test_a_student_id_is_a_short_token(store, student):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    with pytest.raises(ValueError):
        store.heartbeat(code, student, True, T0 + 2)
    with pytest.raises(ValueError):
        store.answer(code, question, student, 0, None, T0 + 2)


# -- questions and answers --

def test_a_student_answers_a_question_once(store):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    assert store.state(code).question == PublicQuestion(
        id=question, kind="token", prompt=SAT.prompt, choices=SAT.choices,
        fields={"token": "sat", "layer": "1", "head": "2"}, status=OPEN)
    assert not hasattr(store.state(code).question, "truth")
    store.answer(code, question, "s1", 1, "Ada", T0 + 2)
    with pytest.raises(AlreadyAnsweredError):
        store.answer(code, question, "s1", 2, "Ada again", T0 + 3)
    for choice in (6, -1, True, 1.0, "1", None):
        with pytest.raises(InvalidAnswerError):
            store.answer(code, question, "s2", choice, None, T0 + 3)
    tally = store.tally(code, key, question)
    assert (tally.counts, tally.answered, tally.truth) == ((0, 1, 0, 0, 0, 0), 1, 1)
    assert tally.nicknames == ((), ("Ada",), (), (), (), ())


def test_a_student_in_two_tabs_is_one_student_with_one_answer(store):
    """A reload or a second tab keeps the browser's student id (explorer/app/classroom.py
    STUDENT_COOKIE): the second answer is refused, the tally and the roster count people."""
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    for tab in range(2):
        store.heartbeat(code, "same-browser", True, T0 + 2 + tab)
    store.heartbeat(code, "other", True, T0 + 2)
    store.answer(code, question, "same-browser", 1, "Ada", T0 + 3)
    with pytest.raises(AlreadyAnsweredError):
        store.answer(code, question, "same-browser", 2, "Ada", T0 + 4)  # the other tab
    store.answer(code, question, "other", 2, None, T0 + 4)
    tally = store.tally(code, key, question)
    assert (tally.answered, tally.counts[1:3]) == (2, (1, 1))
    assert store.roster(code, key, T0 + 5).connected == 2


def test_a_students_last_nickname_is_kept_for_their_next_answer(store):
    code, key = store.start(T0)
    assert store.nickname(code, "s1") is None  # no question asked yet
    first = store.ask(code, key, POLL, T0 + 1)
    assert store.nickname(code, "s1") is None
    store.answer(code, first, "s1", 0, " Ada\u202e ", T0 + 2)
    store.answer(code, first, "s2", 0, None, T0 + 2)
    assert store.nickname(code, "s1") == "Ada" and store.nickname(code, "s2") is None
    second = store.ask(code, key, POLL, T0 + 3)
    assert store.nickname(code, "s1") == "Ada"  # not answered yet: the last one given
    store.answer(code, second, "s1", 1, "Ada L.", T0 + 4)
    assert store.nickname(code, "s1") == "Ada L."
    third = store.ask(code, key, POLL, T0 + 5)
    store.answer(code, third, "s1", 1, None, T0 + 6)  # anonymous this time: so it stays
    assert store.nickname(code, "s1") is None
    for code_, student in ((code, "<b>"), ("nonsense", "s1"), (_other_code(code), "s1")):
        assert store.nickname(code_, student) is None


def test_asking_a_new_question_closes_the_open_one(store):
    code, key = store.start(T0)
    first = store.ask(code, key, SAT, T0 + 1)
    store.answer(code, first, "s1", 2, None, T0 + 2)
    second = store.ask(code, key, POLL, T0 + 3)
    assert second == first + 1 and store.version(code) == 3
    with pytest.raises(QuestionClosedError):
        store.answer(code, first, "s2", 2, None, T0 + 4)
    store.answer(code, second, "s1", 0, None, T0 + 4)  # one answer per question
    assert store.state(code).question.id == second
    assert store.tally(code, key, first).status == CLOSED
    assert store.tally(code, key, first).counts == (0, 0, 1, 0, 0, 0)
    for unknown in (99, 0):
        with pytest.raises(QuestionClosedError):
            store.answer(code, unknown, "s3", 0, None, T0 + 5)
        with pytest.raises(QuestionClosedError):
            store.tally(code, key, unknown)
        assert store.results(code, unknown) is None
    with pytest.raises(InvalidAnswerError):
        store.answer(code, str(second), "s3", 0, None, T0 + 5)


def test_answers_racing_from_threads_count_once_per_student(store):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def answer(student: str, choice: int) -> None:
        barrier.wait(timeout=30)
        try:
            store.answer(code, question, student, choice, None, T0 + 2)
            outcomes.append("counted")
        except AlreadyAnsweredError:
            outcomes.append("refused")

    for students in (["same"] * 8, [f"s{i}" for i in range(8)]):
        outcomes.clear()
        threads = [threading.Thread(target=answer, args=(s, i % 6))
                   for i, s in enumerate(students)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(outcomes) == (["counted"] + ["refused"] * 7 if students[0] == "same"
                                    else ["counted"] * 8)
    assert store.tally(code, key, question).answered == 9


def _answer_in_process(spec: str | None, data_dir: str, code: str, question: int,
                       student: str, barrier, outcomes) -> None:
    """A second process's answers: its own student's, then the student both processes
    answer for at the same moment."""
    store = open_store(spec, Path(data_dir))
    mine = []
    for who in (student, "both"):
        barrier.wait(timeout=60)
        try:
            store.answer(code, question, who, 0, who, T0 + 2)
            mine.append("counted")
        except AlreadyAnsweredError:
            mine.append("refused")
    store.close()
    outcomes.put(mine)


def test_answers_from_two_processes_count_once_each(store, spec, tmp_path, monkeypatch):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    # A spawned process first runs the parent's __main__ again; a test that ran a script
    # (AppTest) may have left that script as __main__. The children need none of it.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    context = multiprocessing.get_context("spawn")
    barrier, outcomes = context.Barrier(2), context.Queue()
    processes = [context.Process(target=_answer_in_process,
                                 args=(spec, str(tmp_path), code, question, f"p{i}", barrier,
                                       outcomes)) for i in range(2)]
    for process in processes:
        process.start()
    for process in processes:  # their few bytes of outcome fit the queue's pipe
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0, 0]
    results = sorted(outcomes.get(timeout=10) for _ in processes)
    assert results == [["counted", "counted"], ["counted", "refused"]]
    tally = store.tally(code, key, question)
    assert tally.answered == 3 and tally.nicknames[0] == ("both", "p0", "p1")


@pytest.mark.parametrize("typed, kept", [
    ("Ada", "Ada"), ("  Ada   Lovelace ", "Ada Lovelace"), ("Ada\nLovelace", "Ada Lovelace"),
    ("A\u202eB", "AB"), ("\x00\x07", None), ("x" * 30, "x" * NICKNAME_CHARS), ("", None),
    ("e\u0301cole", "\u00e9cole"), ("\U0001f468\u200d\U0001f469", "\U0001f468\u200d\U0001f469"),
    (None, None), (42, None), ("\u200b\ufeff", None), ("x" * 23 + "\u200d\U0001f469", "x" * 23),
])
def test_a_nickname_is_kept_as_one_short_line_of_text(typed, kept):
    assert clean_nickname(typed) == kept


@pytest.mark.parametrize("text", bad_input_params())
def test_a_hostile_nickname_is_kept_as_one_short_line_of_text(text):
    kept = clean_nickname(text)
    assert kept is None or (0 < len(kept) <= NICKNAME_CHARS and kept == kept.strip())
    assert kept is None or all(
        char in "\u200c\u200d" or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co")
        for char in kept)


def test_the_store_keeps_nicknames_cleaned(store):
    code, key = store.start(T0)
    question = store.ask(code, key, POLL, T0 + 1)
    texts = [*bad_input_texts(), "A\u202eB", "\x1b[31mred", "x" * 100]
    for i, text in enumerate(texts):
        store.answer(code, question, f"s{i}", i % 2, text, T0 + 2)
    tally = store.tally(code, key, question)
    assert tally.answered == len(texts)
    kept = [clean_nickname(text) for text in texts]
    assert sorted(n for names in tally.nicknames for n in names) == sorted(k for k in kept if k)


def test_students_see_the_truth_and_the_counts_only_after_the_reveal(store):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    for student, choice in (("s1", 1), ("s2", 1), ("s3", 2)):
        store.answer(code, question, student, choice, None, T0 + 2)
    assert store.results(code, question) is None
    assert store.tally(code, key, question).counts == (0, 2, 1, 0, 0, 0)
    before = store.version(code)
    shown = Results(question_id=question, counts=(0, 2, 1, 0, 0, 0), answered=3, truth=1)
    assert store.reveal(code, key, question, T0 + 3) == shown
    assert store.results(code, question) == shown
    assert store.state(code).question.status == REVEALED
    assert store.version(code) == before + 1
    with pytest.raises(QuestionClosedError):
        store.answer(code, question, "s4", 1, None, T0 + 4)
    assert store.reveal(code, key, question, T0 + 5) == shown  # again: nothing changes
    assert store.version(code) == before + 1
    assert store.results(code, str(question)) is None


def test_closing_the_answers_keeps_those_in_and_refuses_the_rest_until_the_reveal(store):
    code, key = store.start(T0)
    question_id = store.ask(code, key, POLL, T0 + 1)
    store.answer(code, question_id, "early", 0, "Ann", T0 + 2)
    version = store.version(code)
    with pytest.raises(NotTeacherError):
        store.close_answers(code, key + "x", question_id, T0 + 3)
    store.close_answers(code, key, question_id, T0 + 3)
    assert store.version(code) == version + 1  # every student's page shows it closed
    assert store.state(code).question.status == CLOSED
    with pytest.raises(QuestionClosedError):
        store.answer(code, question_id, "late", 1, None, T0 + 4)
    store.close_answers(code, key, question_id, T0 + 5)  # closed already: nothing changes
    assert store.version(code) == version + 1
    assert store.tally(code, key, question_id).counts == (1, 0)
    assert store.reveal(code, key, question_id, T0 + 6).answered == 1
    assert store.state(code).question.status == REVEALED
    store.close_answers(code, key, question_id, T0 + 7)  # revealed stays revealed
    assert store.state(code).question.status == REVEALED


def test_a_countdown_refuses_answers_from_its_end_before_any_page_closes_the_question(store):
    code, key = store.start(T0)
    question_id = store.ask(code, key, POLL, T0 + 1)
    with pytest.raises(NotTeacherError):
        store.close_at(code, key + "x", question_id, T0 + 30, T0 + 2)
    store.close_at(code, key, question_id, T0 + 30, T0 + 2)
    store.answer(code, question_id, "in_time", 0, None, T0 + 29.9)
    for late in (T0 + 30, T0 + 31):
        with pytest.raises(QuestionClosedError):
            store.answer(code, question_id, "late", 1, None, late)
    assert store.state(code).question.status == OPEN  # until the teacher's page closes it
    assert store.tally(code, key, question_id).counts == (1, 0)
    store.reveal(code, key, question_id, T0 + 32)
    store.close_at(code, key, question_id, T0 + 60, T0 + 33)  # not open: nothing changes
    again = store.ask(code, key, POLL, T0 + 34)  # a new question has no countdown of its own
    store.answer(code, again, "late", 1, None, T0 + 100)
    for at in (float("nan"), float("inf"), "30", None, True):
        with pytest.raises(ValueError):
            store.close_at(code, key, again, at, T0 + 101)


def test_the_teachers_tally_lists_every_students_answer_with_its_time(store):
    code, key = store.start(T0)
    question_id = store.ask(code, key, POLL, T0 + 1)
    store.answer(code, question_id, "late", 1, None, T0 + 5)
    store.answer(code, question_id, "early", 0, "Ann", T0 + 2)
    assert store.tally(code, key, question_id).by_student == (
        StudentAnswer("early", 0, "Ann", T0 + 2), StudentAnswer("late", 1, None, T0 + 5))


def test_a_poll_is_revealed_without_a_truth(store):
    code, key = store.start(T0)
    question = store.ask(code, key, POLL, T0 + 1)
    store.answer(code, question, "s1", 1, None, T0 + 2)
    assert store.reveal(code, key, question, T0 + 3) == Results(
        question_id=question, counts=(0, 1), answered=1, truth=None)


def test_a_truth_measured_after_the_question_is_given_at_the_reveal(store):
    code, key = store.start(T0)
    question = store.ask(code, key, POLL, T0 + 1)  # asked without a truth
    store.answer(code, question, "s1", 1, None, T0 + 2)
    store.answer(code, question, "s2", 0, None, T0 + 2)
    with pytest.raises(ValueError):
        store.reveal(code, key, question, T0 + 3, truth=2)  # not one of the choices
    with pytest.raises(ValueError):
        store.reveal(code, key, question, T0 + 3, truth=True)
    assert store.results(code, question) is None  # a refused reveal reveals nothing
    shown = Results(question_id=question, counts=(1, 1), answered=2, truth=1)
    assert store.reveal(code, key, question, T0 + 3, truth=1) == shown
    assert store.results(code, question) == shown
    assert store.tally(code, key, question).truth == 1
    assert store.reveal(code, key, question, T0 + 4) == shown  # again: the same truth


def test_a_question_asked_with_a_truth_keeps_it_at_the_reveal(store):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)  # its truth: 1
    with pytest.raises(ValueError):
        store.reveal(code, key, question, T0 + 2, truth=2)
    assert store.reveal(code, key, question, T0 + 2, truth=1).truth == 1


def test_only_the_teacher_reveals_with_a_truth(store):
    code, key = store.start(T0)
    question = store.ask(code, key, POLL, T0 + 1)
    with pytest.raises(NotTeacherError):
        store.reveal(code, "forged-key", question, T0 + 2, truth=0)
    assert store.results(code, question) is None


@pytest.mark.parametrize("question", [
    Question(kind="essay", prompt="?", choices=("a",)),
    Question(kind="option", prompt="?", choices=()),
    Question(kind="option", prompt="?", choices=("a",) * (MAX_CHOICES + 1)),
    Question(kind="option", prompt="?", choices=("a", 2)),
    Question(kind="option", prompt="?", choices="ab"),
    Question(kind="option", prompt="?", choices=("a", "b"), fields=[("k", "v")]),
    Question(kind="option", prompt="?", choices=("a", "b"), truth=2),
    Question(kind="option", prompt="?", choices=("a", "b"), truth=-1),
    Question(kind="option", prompt="?", choices=("a", "b"), truth=True),
    Question(kind="option", prompt="x" * 501, choices=("a", "b")),
    Question(kind="option", prompt="?", choices=("a", "b"), fields={"k": 1}),
    "Which token?",
])
def test_a_question_that_cannot_be_answered_is_refused(store, question):
    code, key = store.start(T0)
    with pytest.raises(ValueError):
        store.ask(code, key, question, T0 + 1)
    assert store.state(code).question is None


# -- the end of a class --

def test_an_ended_class_is_over_for_everyone(store):
    code, key = store.start(T0)
    question = store.ask(code, key, SAT, T0 + 1)
    store.answer(code, question, "s1", 1, None, T0 + 2)
    store.end(code, key, T0 + 3)
    state = store.state(code)
    assert state.ended and state.version == 3 and state.question.status == CLOSED
    with pytest.raises(ClassNotFoundError):
        store.join(code, "client", T0 + 4)
    with pytest.raises(ClassNotFoundError):
        store.steer(code, key, {"h": "2"}, T0 + 4)
    with pytest.raises(ClassNotFoundError):
        store.ask(code, key, POLL, T0 + 4)
    with pytest.raises(ClassNotFoundError):
        store.answer(code, question, "s2", 1, None, T0 + 4)
    with pytest.raises(ClassNotFoundError):
        store.heartbeat(code, "s2", True, T0 + 4)
    with pytest.raises(NotTeacherError):
        store.end(code, "forged", T0 + 4)
    store.end(code, key, T0 + 5)
    assert store.version(code) == 3
    assert store.tally(code, key, question).answered == 1  # the teacher can still look


def test_a_class_idle_for_hours_ends_and_is_then_forgotten(store):
    idle, idle_key = store.start(T0)
    busy, busy_key = store.start(T0)
    store.steer(busy, busy_key, {"h": "2"}, T0 + IDLE_LIMIT - 60)
    store.heartbeat(idle, "s1", True, T0 + IDLE_LIMIT - 1)  # students keep no class alive
    store.check(idle, "s1", LESSON_A, 1, 0, True, "Ada", T0 + IDLE_LIMIT - 1)  # nor checks
    later = T0 + IDLE_LIMIT + 1
    with pytest.raises(ClassNotFoundError):  # over already, before anything sweeps
        store.join(idle, "client", later)
    with pytest.raises(ClassNotFoundError):
        store.steer(idle, idle_key, {"h": "4"}, later)
    assert store.expire(later) == 1 and store.expire(later) == 0
    assert store.state(idle).ended and not store.state(busy).ended
    # the teacher's page polling the roster keeps the class alive
    store.roster(busy, busy_key, T0 + 2 * IDLE_LIMIT - 120)
    assert store.expire(T0 + 2 * IDLE_LIMIT) == 0
    assert store.join(busy, "client", T0 + 2 * IDLE_LIMIT).view == {"h": "2"}
    store.expire(later + ENDED_KEEP + 1)
    assert store.state(idle) is None and store.version(idle) is None
    assert store.checks_of(idle, "s1", LESSON_A) == {}  # forgotten with the class
    with pytest.raises(ClassNotFoundError):
        store.end(idle, idle_key, later + ENDED_KEEP + 2)
    assert store.state(busy) is not None


def test_a_sweep_expires_at_most_once_a_minute_so_students_of_a_gone_teacher_see_the_end(store):
    code, _ = store.start(T0)
    later = T0 + IDLE_LIMIT + 1
    assert not store.state(code).ended  # nothing swept yet: the students' pages wait
    assert store.sweep(later) and store.state(code).ended
    assert not store.sweep(later + SWEEP_EVERY - 1)  # a poll's sweep costs a comparison
    assert store.sweep(later + SWEEP_EVERY)
    store.sweep(later + ENDED_KEEP + SWEEP_EVERY)
    assert store.state(code) is None  # long ended: forgotten


# -- opening the store --

def test_the_teacher_sees_every_question_asked_with_its_answers(store):
    code, key = store.start(T0)
    assert store.questions(code, key) == []
    first = store.ask(code, key, SAT, T0 + 1)
    store.answer(code, first, "s1", 1, None, T0 + 2)
    store.answer(code, first, "s2", 2, None, T0 + 2)
    store.reveal(code, key, first, T0 + 3)
    second = store.ask(code, key, POLL, T0 + 4)
    asked = store.questions(code, key)
    assert [(q.question_id, q.prompt, q.status, q.answered) for q in asked] == [
        (first, SAT.prompt, REVEALED, 2), (second, POLL.prompt, OPEN, 0)]
    assert asked[0].counts[asked[0].truth] == 1  # one of the two was right
    with pytest.raises(NotTeacherError):
        store.questions(code, "not the key")
    with pytest.raises(ClassNotFoundError):
        store.questions("ZZZZZZ", key)


def test_a_data_folder_from_before_prompts_were_kept_still_opens(tmp_path):
    import sqlite3

    path = tmp_path / "classes.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE questions (code TEXT NOT NULL, id INTEGER NOT NULL,"
                   " choices INTEGER NOT NULL, truth INTEGER, status TEXT NOT NULL,"
                   " results TEXT, PRIMARY KEY (code, id)) WITHOUT ROWID")
    store = SQLiteStore(path)
    try:
        code, key = store.start(T0)
        question = store.ask(code, key, SAT, T0 + 1)
        assert store.tally(code, key, question).prompt == SAT.prompt
        store.close_at(code, key, question, T0 + 10, T0 + 2)  # ... nor countdowns
        with pytest.raises(QuestionClosedError):
            store.answer(code, question, "s1", 1, None, T0 + 10)
    finally:
        store.close()


def test_a_new_store_on_the_same_data_sees_the_class(store, spec, tmp_path):
    code, key = store.start(T0)
    store.steer(code, key, {"src": "the cat"}, T0 + 1)
    question = store.ask(code, key, SAT, T0 + 2)
    store.answer(code, question, "s1", 1, None, T0 + 3)
    store.close()
    reopened = open_store(spec, tmp_path)
    try:
        assert reopened.state(code).view == {"src": "the cat"}
        assert reopened.steer(code, key, {"src": "a dog"}, T0 + 4) == 4
        with pytest.raises(AlreadyAnsweredError):
            reopened.answer(code, question, "s1", 2, None, T0 + 5)
        assert reopened.tally(code, key, question).answered == 1
    finally:
        reopened.close()


@pytest.mark.parametrize("setting", [None, "", "  "])
def test_no_setting_keeps_classes_in_sqlite_in_the_data_folder(tmp_path, setting):
    data_dir = tmp_path / "data" / "classes"  # made when missing
    opened = open_store(setting, data_dir)
    try:
        assert isinstance(opened, SQLiteStore) and (data_dir / SQLITE_FILE).is_file()
    finally:
        opened.close()


def test_a_redis_url_opens_redis_and_a_dead_one_fails_at_once(redis_url, tmp_path):
    opened = open_store(redis_url, tmp_path)
    assert isinstance(opened, RedisStore)
    opened.close()
    with pytest.raises(redis.ConnectionError):
        open_store(f"redis://127.0.0.1:{_free_port()}/0", tmp_path)


@pytest.mark.parametrize("setting", ["postgres://user:secret@db/classes", "classes.sqlite3",
                                     "sqlite:///tmp/x", "http://secret@host"])
def test_any_other_setting_is_a_clear_error(tmp_path, setting):
    with pytest.raises(ValueError, match="CLASS_STORE") as refused:
        open_store(setting, tmp_path)
    assert "secret" not in str(refused.value)


def test_a_wait_wakes_at_once_for_a_change_made_in_this_process_and_gives_way(store):
    """ClassStore.wait: a teacher's change through any store of this process wakes students
    waiting on it (no 30 s read interval passes); `between` ends a wait early."""
    code, key = store.start(T0)
    seen = store.version(code)
    got: list[int | None] = []
    waiting = threading.Event()

    def student() -> None:
        got.append(store.wait(code, seen, timeout=30.0, every=30.0,
                              between=lambda: waiting.set() or False))

    thread = threading.Thread(target=student)
    started = time.monotonic()
    thread.start()
    assert waiting.wait(10)  # the student waits
    store.steer(code, key, {"h": "3"}, T0 + 1)
    thread.join(10)
    assert got == [store.version(code)] and got[0] != seen
    assert time.monotonic() - started < 10  # woken, not read 30 s later
    assert store.wait(code, got[0], timeout=30.0, every=30.0, between=lambda: True) == got[0]
    assert store.wait(code, got[0], timeout=0.05, every=0.01) == got[0]  # nothing changed
    assert store.wait("not a code!", 0, timeout=1.0, every=1.0) is None
