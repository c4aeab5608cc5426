"""A class that follows its teacher, on the Streamlit side: this session's seat in it.

The class itself lives in the class store (explorer/classroom/): SQLite in the data folder
by default, Redis when the CLASS_STORE setting names one (replicas behind a load balancer
then share it). This module keeps this session's `Seat` in st.session_state, sends the
teacher's view to the store on every run that changed it, and brings a following student's
view to the class's: the page and the query parameters a shared link carries (settings,
sentence, each page's choices), never the student's interface language.

A student follows until they change the view themselves (or switch "Follow the teacher"
off): they then explore, and the class's changes wait until they choose to follow again.
"""

from __future__ import annotations

import math
import os
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from ..classroom.backend import open_store
from ..classroom.codes import normalise_code
from ..classroom.store import (
    JOIN_FAILURES,
    JOIN_STEP,
    ClassNotFoundError,
    ClassroomError,
    ClassState,
    ClassStore,
    NotTeacherError,
    RateLimitedError,
    clean_nickname,
    client_of_address,
    is_student_id,
)
from ..state.urlstate import params_to_state
from ..state.view import BY_URL, page_defaults
from .streamlit_internals import (
    another_run_asked,
    answering_own_ticks,
    keep_fragment_reruns_on_their_page,
)

CLASS_PARAM = "class"  # the join link's query parameter: ?class=K7Q2XM
PAGE_PARAM = "page"  # the page, in the view a class follows (a link's page is its path)
TRAIN_PARAM = "trained"  # how many times the teacher pressed Train: students train with them
LANG_PARAM = "lang"  # never followed: each student keeps their own language
# the teacher's language, in the view the class follows: a student who joins starts in it
# (unless their link names a language or they chose one), then keeps their own
CLASS_LANG_PARAM = "clang"
PRESENTER_PARAM = "pres"  # nor presenter mode: the projector's, not the students' laptops'
# "1": the teacher locks the students' view (a lesson's step, `lesson.class_params`): a
# following student's own change goes back to the class's view (`notice_exploring`)
LOCK_PARAM = "lock"
LOCKED = "1"
# "<question id>:<time>": the teacher's countdown, the answers to that question close at that
# time (whole seconds of time.time()); in the class view while it runs (`start_countdown`)
CLOSES_PARAM = "closes"
COUNTDOWNS = (15, 30, 60)  # seconds a teacher may give the class to answer
OWN_PARAMS = (LANG_PARAM, PRESENTER_PARAM, CLASS_PARAM)  # what each session keeps its own
STORE_ENV, DATA_ENV = "CLASS_STORE", "CLASS_DATA"
# The address students open (the join link and its QR code), when the teacher's browser
# does not show it: an app behind a proxy, or opened as localhost on the projecting laptop.
# An environment variable, else a key of st.secrets (.streamlit/secrets.toml); README.
PUBLIC_URL_SETTING = "CLASS_PUBLIC_URL"
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
SEAT_KEY = "_class_seat"  # this session's Seat
FOLLOW_KEY = "_class_following"  # whether this student follows the teacher now
# The "Follow the teacher" toggle: its place (a container's key) and, with the seat's `turns`,
# its widget key (`follow_toggle_key`)
FOLLOW_TOGGLE = "class_follow"
NOTICE_KEY = "_class_notice"  # why a join link did not join (a text key and values), once
LOCKED_KEY = "_class_locked_back"  # a locked student's change was taken back: told once
TRAIN_KEY = "_class_train"  # a following student's Train page trains with the teacher
# (code, its questions' tallies): a class this session's teacher ended, its questions and
# answers kept to look at and download (`keep_ended`)
ENDED_KEY = "_class_ended"
TEACHER_COOKIE = "txclass_"  # + code: the teacher key, kept by the teacher's browser
# + code: whether the teacher presents ("1"/"0"), kept by the teacher's browser: a reopened
# class link shows the projector's screen as it was (the language is the class's `clang`)
PRESENTER_COOKIE = "txpres_"
# + code: a student's id in that class, kept by the student's browser: a reload or a second
# tab is the same student (one answer each, counted once in the roster)
STUDENT_COOKIE = "txstudent_"
# A right code typed from an address that waits its turn (`ClassStore.join`): the tries the
# join makes, waiting the store's `retry_after` (at most JOIN_STEP) before each next one
JOIN_TRIES = 3
# A following student's `_watch` fragment is timed every WATCH_EVERY seconds and its run
# waits about WAIT_FOR seconds for the class to change (`wait_for_class`): a change made on
# this server wakes it at once, one made on another replica is read within POLL_EVERY. The
# ticks that come meanwhile are answered by the waiting run, which ends REST_BEFORE_TICK
# before the next one (`wait_is_over`): the page rests that long, and that tick starts the
# next run. Idle, a student costs one run every WAIT_FOR seconds, not one a second
# (bench/classroom.py (b)).
WATCH_EVERY = 2.0
WAIT_FOR = 8.0
POLL_EVERY = 1.0
REST_BEFORE_TICK = 0.5
ROSTER_EVERY = 2.0  # seconds between the teacher's looks at who follows
# ... and at where each student is in a student-paced lesson: a student's Next is on the
# roster within about this long and a run (bench/class_paced.py: p95 under 2 s with 30
# students needs 1 s, not 2)
ROSTER_PACED_EVERY = 1.0
# seconds between the teacher's looks at the answers of an open question: the chart is
# complete within about this long of the last answer (one session polls it, not thirty)
TALLY_EVERY = 0.5
HEARTBEAT_EVERY = 4.0  # seconds between a student's "still here" (CONNECTED is 10 s)


@dataclass
class Seat:
    """This session in a class: the teacher (with the key) or a student."""

    code: str
    teacher_key: str | None  # only in the teacher's session (and the teacher's cookie)
    student_id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    version: int = -1  # the class version this session last sent (teacher) or applied
    sent: dict[str, str] | None = None  # the teacher's view last sent
    applied: dict[str, str] | None = None  # the student's own view just after following
    beat: float = 0.0  # time.time() of the student's last heartbeat
    beat_step: int | None = None  # the lesson step that heartbeat named (`heartbeat`)
    # the teacher: Train clicks sent; a student: the teacher's count last trained along with
    trainings: str = "0"
    # how often the app turned following on or off (Back to the class, exploring): the
    # toggle's key changes with it (`follow_toggle_key`)
    turns: int = 0
    lang_taken: bool = False  # a student: the class's language was offered (`take_class_lang`)
    nickname: str | None = None  # a student: the nickname sent with their last answer
    # a teacher who took the class back (`join_class`): its page still to go to, and
    # whether the view of this session's first run is held back (`steer`)
    resume_page: str | None = None
    resumed: bool = False
    # the class's view this run brought to the session (`follow`, `_take_back`), once: what
    # it holds beyond the widgets (the lesson and its step) is taken by app.py (`take_view`)
    taken: dict[str, str] | None = None
    locked: bool = False  # a student: the class's view is locked (LOCK_PARAM)
    # the countdown (CLOSES_PARAM) the teacher sent, or a student's class view carries
    closes: str | None = None

    @property
    def teaching(self) -> bool:
        return self.teacher_key is not None


@st.cache_resource(show_spinner=False)
def class_store() -> ClassStore:
    """The server's class store (shared by every session; it keeps no session's state)."""
    return open_store(os.environ.get(STORE_ENV), Path(os.environ.get(DATA_ENV) or DATA_DIR))


def store_or_none() -> ClassStore | None:
    """The class store, or None when the server has none (a CLASS_STORE that is wrong or
    does not answer): the rest of the app works on, and the panel says so."""
    try:
        return class_store()
    except Exception:  # a wrong setting or a Redis that is down: no class mode, no traceback
        return None


def seat() -> Seat | None:
    """This session's seat in a class, if it has one."""
    value = st.session_state.get(SEAT_KEY)
    return value if isinstance(value, Seat) else None


def following() -> bool:
    """Whether this session is a student who follows the teacher now."""
    s = seat()
    return s is not None and not s.teaching and st.session_state.get(FOLLOW_KEY) is True


def follow_toggle_key(s: Seat) -> str:
    """The key of the student's "Follow the teacher" toggle as drawn in this run.

    Every rerun the browser asks for carries the value each widget shows, and a timer's
    rerun sent before the browser heard that the app turned following on or off (a timer
    ticks every WATCH_EVERY; one that comes while "Back to the class" is handled rides on
    its rerun of the page) would carry the old value as if the student had switched the
    toggle back. A toggle of a new key each time the app turns it leaves such a value with
    a widget that is no longer drawn. The switch the student makes is the widget's own."""
    shown = st.session_state.get(f"{FOLLOW_TOGGLE}_{s.turns}")
    if shown is not None and shown != following():  # turned some other way: a new seat
        s.turns += 1
    return f"{FOLLOW_TOGGLE}_{s.turns}"


def toggled(key: str) -> None:
    """The toggle of key `key` was switched by the student: follow or explore (not while
    the class's view is locked: the toggle is drawn anew, on)."""
    s = seat()
    if st.session_state.get(key) is True:
        follow_again()
    elif s is not None and s.locked and following():
        s.turns += 1
    else:
        st.session_state[FOLLOW_KEY] = False


def _turn(on: bool) -> None:
    """The app turns following on or off (not the student's toggle): the toggle is drawn
    anew, under its next key."""
    st.session_state[FOLLOW_KEY] = on
    s = seat()
    if s is not None:
        s.turns += 1


def take_notice() -> tuple[str, dict[str, str]] | None:
    """Why a class link or code did not join (text key, values), once."""
    return st.session_state.pop(NOTICE_KEY, None)


def _client_address() -> str:
    """Who tries class codes, for the store's limit on wrong ones: the client's address
    (`client_of_address`). A new browser session is no new client, so guesses from many
    sessions add up. The address is Streamlit's `st.context.ip_address`: the connection's
    peer, which the server (uvicorn) replaces by X-Forwarded-For only when the peer is a
    proxy it trusts (FORWARDED_ALLOW_IPS, by default this computer's own). The header is
    never read here: any client can write one. A school's students share one address, and
    a right code is never turned away for their typos (`join_class`)."""
    try:
        address = st.context.ip_address
    except Exception:  # no request context (a test's bare run)
        address = None
    return client_of_address(address)


def _cookie(name: str) -> str | None:
    """A cookie the browser sent when this session connected, if any."""
    try:
        value = st.context.cookies.get(name)
    except Exception:  # no request context (a test's bare run)
        return None
    return value if isinstance(value, str) else None


def _teacher_cookie(code: str) -> str | None:
    return _cookie(TEACHER_COOKIE + code)


def _pause(seconds: float) -> None:
    """A join's wait for its turn (`join_class`)."""
    time.sleep(seconds)


def start_class(store: ClassStore) -> Seat:
    """Start a class taught from this session."""
    code, key = store.start(time.time())
    st.session_state[SEAT_KEY] = new = Seat(code, key)
    return new


def _try_join(store: ClassStore, code: str) -> ClassState | None:
    """The class's state for `code` typed here; None, with a notice, when it joins no class.
    While this address waits its turn for too many wrong codes, the try waits (at most
    JOIN_STEP each time, JOIN_TRIES times): a right code joins, never refused."""
    address = _client_address()
    for attempt in range(JOIN_TRIES):
        try:
            return store.join(code, address, time.time())
        except RateLimitedError as exc:
            if attempt == JOIN_TRIES - 1:  # others of this address tried at each turn
                st.session_state[NOTICE_KEY] = (
                    "class.wait", {"seconds": str(max(1, math.ceil(exc.retry_after)))})
                return None
            _pause(exc.retry_after)
        except ClassNotFoundError as exc:
            paced = exc.next_try > 0
            st.session_state[NOTICE_KEY] = (
                "class.not_found_paced" if paced else "class.not_found",
                {"code": code, "n": str(JOIN_FAILURES), "step": f"{JOIN_STEP:g}"})
            return None
    return None


def join_class(store: ClassStore, text: object) -> Seat | None:
    """Join the class of a typed or linked code, as its teacher if this browser holds its
    key (a teacher who closed the tab and opened the link again: the class comes back as
    it was, `_take_back`), else as a student who follows, with the id this browser keeps
    for the class (a reload or another tab is the same student). None, with a notice
    (`take_notice`), when the code joins no class."""
    code = normalise_code(text)
    if code is None:
        st.session_state[NOTICE_KEY] = ("class.not_a_code", {})
        return None
    state = _try_join(store, code)
    if state is None:
        _reopen_ended(store, code)
        return None
    key = _teacher_cookie(code)
    if key is not None:
        try:
            store.roster(code, key, time.time())  # refused unless it is this class's key
        except NotTeacherError:
            key = None
    if key is not None:
        new = _take_back(Seat(code, key), state)
    else:
        kept = _cookie(STUDENT_COOKIE + code)
        new = Seat(code, None) if not is_student_id(kept) else Seat(code, None, student_id=kept)
        new.nickname = store.nickname(code, new.student_id)
    st.session_state[SEAT_KEY] = new
    st.session_state[FOLLOW_KEY] = True
    return new


def keep_ended(store: ClassStore, code: str, key: str, ended_here: bool = False) -> bool:
    """Keep in this session the questions of the ended class `code`, with their answers,
    when `key` is its teacher key: whether it was kept (the store keeps an ended class for
    ENDED_KEEP). `ended_here`: this session's teacher just ended it, so it is kept even when
    the store has forgotten it (no questions then)."""
    state = store.state(code)
    asked: list = []
    if state is not None and state.ended:
        try:
            if state.question is None:  # nothing was asked: the key is checked all the same
                store.tally(code, key, 1)
            asked = store.questions(code, key)
        except NotTeacherError:
            return False
        except ClassroomError:  # no question 1 (nothing asked), or forgotten meanwhile
            asked = []
    elif not ended_here:
        return False
    st.session_state[ENDED_KEY] = (code, tuple(asked))
    return True


def ended_class() -> tuple[str, tuple] | None:
    """The class this session's teacher ended and its questions' tallies (`keep_ended`),
    until closed (`close_ended`)."""
    ended = st.session_state.get(ENDED_KEY)
    return ended if isinstance(ended, tuple) and len(ended) == 2 else None


def close_ended() -> None:
    """The teacher is done with the ended class's results."""
    st.session_state.pop(ENDED_KEY, None)


def _reopen_ended(store: ClassStore, code: str) -> None:
    """A teacher who opens the link of a class they ended finds it ended, with its
    questions and answers (`keep_ended`), not told that no class runs with that code."""
    key = _teacher_cookie(code)
    if key is not None and keep_ended(store, code, key):
        st.session_state.pop(NOTICE_KEY, None)


def _take_back(s: Seat, state: ClassState) -> Seat:
    """The teacher's seat in a class taken back: this session shows the class's view as it
    was (page, model, sentence, each page's choices, the Train count), in presenter mode if
    this browser was, in the class's language (`take_class_lang`); the first run's view is
    held back (`steer`), so no student moves unless the teacher changes something."""
    apply_view(state.view)
    presenter = _cookie(PRESENTER_COOKIE + s.code)
    if presenter in ("0", "1"):
        st.session_state[BY_URL[PRESENTER_PARAM].key] = presenter == "1"
    s.version, s.sent, s.taken = state.version, dict(state.view), dict(state.view)
    s.trainings, s.closes = state.view.get(TRAIN_PARAM, "0"), state.view.get(CLOSES_PARAM)
    s.resume_page, s.resumed = state.view.get(PAGE_PARAM), True
    return s


def resumed_page(s: Seat, page: str) -> str | None:
    """The page of a class its teacher just took back, once, when it is not `page` (the
    caller switches to it)."""
    target, s.resume_page = s.resume_page, None
    return target if target and target != page else None


def keep_nickname(nickname: object) -> None:
    """The nickname a student just sent: their next answer starts with it."""
    s = seat()
    if s is not None:
        s.nickname = clean_nickname(nickname)


def leave_class(store: ClassStore | None, end: bool) -> None:
    """Leave this session's class; the teacher may end it for everyone (`end`)."""
    s = seat()
    if s is not None and s.teaching and end and store is not None:
        try:
            store.end(s.code, s.teacher_key or "", time.time())
        except (ClassNotFoundError, NotTeacherError):
            pass  # ended already
    st.session_state.pop(SEAT_KEY, None)
    st.session_state.pop(FOLLOW_KEY, None)
    # the address kept the class (a reload rejoins it, links.py `publish_view`): this run's
    # `enter_from_link` would join again, or tell a teacher no class runs with that code
    if st.query_params.get(CLASS_PARAM) is not None:
        del st.query_params[CLASS_PARAM]


def take_class_lang(store: ClassStore | None, langs: tuple[str, ...], chosen: bool) -> str | None:
    """A student just seated in a class starts in the class's language (one of `langs`),
    unless their language was `chosen` (a link's ?lang, the language selector): the
    language to use, once per seat, else None."""
    s = seat()
    if s is None or (s.teaching and not s.resumed) or s.lang_taken or store is None:
        return None  # a teacher who took their class back takes its language, theirs
    s.lang_taken = True
    state = store.state(s.code)
    lang = state.view.get(CLASS_LANG_PARAM) if state is not None else None
    return lang if lang in langs and not chosen else None


def public_url() -> str | None:
    """The public address students open, from the PUBLIC_URL_SETTING (an environment
    variable, else st.secrets), or None when it is not set."""
    value = os.environ.get(PUBLIC_URL_SETTING)
    if not value:
        try:
            value = st.secrets.get(PUBLIC_URL_SETTING)
        except Exception:  # no secrets file: the setting is not given
            value = None
    return value.strip() if isinstance(value, str) and value.strip() else None


def enter_from_link(store: ClassStore | None, params: Mapping[str, object]) -> None:
    """A join link (`?class=CODE`) opened by a session not yet in that class joins it."""
    code = params.get(CLASS_PARAM)
    if code is None or store is None:
        return
    current = seat()
    if current is not None and current.code == normalise_code(code):
        return
    join_class(store, code)


def class_view(view: Mapping[str, str], page: str, trainings: str = "0",
               closes: str | None = None) -> dict[str, str]:
    """What a class follows of a view: its link parameters but each session's own (the
    language, presenter mode), its page, how often the teacher has pressed Train, and the
    countdown of the answers (`closes`) while one runs."""
    countdown = {CLOSES_PARAM: closes} if closes else {}
    return {**{k: v for k, v in view.items() if k not in OWN_PARAMS}, PAGE_PARAM: page,
            TRAIN_PARAM: trainings, **countdown}


def countdown_of(closes: str | None, question_id: int) -> float | None:
    """When the answers to question `question_id` close, by the countdown `closes`
    (CLOSES_PARAM's value), as time.time(); None: no countdown for that question."""
    asked, _, at = (closes or "").partition(":")
    if asked != str(question_id) or not at.isascii() or not at.isdigit() or len(at) > 12:
        return None
    return float(at)


def start_countdown(store: ClassStore, s: Seat, question_id: int, seconds: object) -> None:
    """The teacher gives the class `seconds` (one of COUNTDOWNS) to answer question
    `question_id`: every student's page counts down (the class view carries it), the store
    refuses an answer sent after the time (`ClassStore.close_at`), and the teacher's page
    closes the answers when it is up (`countdown_of`)."""
    if not s.teaching or seconds not in COUNTDOWNS or isinstance(seconds, bool):
        return
    now = time.time()
    at = math.ceil(now + float(seconds))
    try:
        store.close_at(s.code, s.teacher_key or "", question_id, at, now)
    except ClassroomError:  # ended meanwhile: the next redraw says so
        return
    s.closes = f"{question_id}:{at}"
    steer(store, s, {**(s.sent or {}), CLOSES_PARAM: s.closes})


def end_countdown(store: ClassStore, s: Seat) -> None:
    """The countdown is over (the answers closed, revealed, or another question asked)."""
    if s.teaching and s.closes is not None:
        s.closes = None
        steer(store, s, {k: v for k, v in (s.sent or {}).items() if k != CLOSES_PARAM})


def count_training(s: Seat, asked: bool) -> None:
    """The teacher's run that asks for a training (`asked`): the class trains along."""
    if s.teaching and asked:
        s.trainings = str(int(s.trainings) + 1)


def class_training_asked() -> bool:
    """Whether this run of a following student's Train page trains along with the teacher."""
    return st.session_state.get(TRAIN_KEY) is True


def take_class_training() -> None:
    """The training along with the teacher was asked for: once."""
    st.session_state.pop(TRAIN_KEY, None)


def steer(store: ClassStore, s: Seat, view: dict[str, str], lang: str | None = None) -> None:
    """Show the class the teacher's view, when it changed since the last run; `lang`, the
    teacher's language, is the class's (`take_class_lang`)."""
    view = {**view, CLASS_LANG_PARAM: lang} if lang is not None else view
    if s.resumed:  # the first run after taking the class back: the class shows its own view
        s.resumed, s.sent = False, view  # (a model only the old session had is not here)
        return
    if view == s.sent:
        return
    try:
        s.version = store.steer(s.code, s.teacher_key or "", view, time.time())
        s.sent = view
    except ClassNotFoundError:  # ended (idle for hours): the panel offers a new one
        pass


def locks(view: Mapping[str, str]) -> bool:
    """Whether a class's `view` locks the students' view for the step (LOCK_PARAM)."""
    return view.get(LOCK_PARAM) == LOCKED


def follow(store: ClassStore, s: Seat, page: str,
           paced_alone: Callable[[Mapping[str, str]], bool] = lambda view: False) -> str | None:
    """A following student's view brought to the class's, when the class changed: the
    widgets' values set (the language kept), and the class's page returned when it is not
    `page` (the caller switches to it). Call it before any widget of the view is drawn. A
    class view that leaves each student's view to them (`paced_alone`: a student-paced
    lesson) is taken (`take_view`) but sets nothing and goes nowhere."""
    version = store.version(s.code)
    if version is None or version == s.version or st.session_state.get(FOLLOW_KEY) is not True:
        return None
    state = store.state(s.code)
    if state is None or state.ended:
        return None
    s.version, s.applied, s.taken = state.version, None, dict(state.view)
    s.locked = locks(state.view)
    s.closes = state.view.get(CLOSES_PARAM)
    if paced_alone(state.view):
        return None
    apply_view(state.view)
    trainings = state.view.get(TRAIN_PARAM, "0")
    if trainings not in ("0", s.trainings):  # the teacher pressed Train: the same training
        st.session_state[TRAIN_KEY] = True  # (the hub shares it; a late joiner gets it done)
    s.trainings = trainings
    target = state.view.get(PAGE_PARAM)
    return target if target and target != page else None


def take_view(s: Seat) -> dict[str, str] | None:
    """The class's view this run brought to the session (`follow`, `_take_back`), once."""
    taken, s.taken = s.taken, None
    return taken


def apply_view(view: Mapping[str, str]) -> None:
    """The widgets set to a class's `view` (the language and presenter mode kept)."""
    widgets, _ = params_to_state({k: v for k, v in view.items() if k not in (
        PAGE_PARAM, TRAIN_PARAM, CLASS_LANG_PARAM, LOCK_PARAM, CLOSES_PARAM, *OWN_PARAMS)})
    # a link leaves out the choices at their default: the class's is the default then (a
    # choice the session never set shows its default already: every key set here makes
    # each widget of every later run dearer, Streamlit's SessionState.filtered_state)
    defaults = {k: v for k, v in _page_defaults().items() if k in st.session_state}
    for key, value in {**defaults, **widgets}.items():
        st.session_state[key] = value


def _page_defaults() -> dict[str, object]:
    """Every page choice at its default, but those each session keeps its own."""
    own = {BY_URL[p].key for p in OWN_PARAMS if p in BY_URL}
    return {k: v for k, v in page_defaults().items() if k not in own}


def notice_exploring(s: Seat, own: dict[str, str]) -> bool:
    """After a following student's run: the view the class gave them is remembered; a view
    of their own making after it means they explore (the class's changes then wait), or,
    while the teacher locks the class's view, goes back to the class's (told once,
    `take_locked_back`). Whether the page must run again."""
    if st.session_state.get(FOLLOW_KEY) is not True or s.teaching:
        return False
    if s.applied is None:
        s.applied = own
        return False
    if own == s.applied:
        return False
    if s.locked:
        s.version = -1  # the next run brings the class's view and page back (`follow`)
        st.session_state[LOCKED_KEY] = True
    else:
        _turn(False)
    return True


def take_locked_back() -> bool:
    """Whether a change of this student's own was just taken back (the view is locked), once."""
    return st.session_state.pop(LOCKED_KEY, None) is True


def heartbeat(store: ClassStore, s: Seat, step: int | None = None) -> None:
    """A student's "still here" (whether they follow, and the step of the class's lesson
    they are on: None, none), at most every HEARTBEAT_EVERY but at once when the step
    changed (the teacher's roster shows where a student-paced class is); with it, the
    store's sweep of idle and long-ended classes (`ClassStore.sweep`)."""
    now = time.time()
    if s.teaching or (now - s.beat < HEARTBEAT_EVERY and step == s.beat_step):
        return
    s.beat, s.beat_step = now, step
    store.sweep(now)
    try:
        store.heartbeat(s.code, s.student_id, st.session_state.get(FOLLOW_KEY) is True, now,
                        step)
    except ClassNotFoundError:
        pass  # ended: the panel says so


keep_fragment_reruns_on_their_page()  # on this module's import, before any class moves


def _asked_for_another_run() -> bool:
    """Whether this session asked for another run while `_watch` waits: the wait gives way
    (a learner's click or another fragment's timer, not `_watch`'s own next tick; a few
    attribute reads, as a waiting student looks every POLL_EVERY)."""
    return another_run_asked(lambda: st.session_state.get(FOLLOW_KEY))


def wait_is_over(started: float, now: float, last_tick: float | None) -> bool:
    """Whether a following student's wait that started at `started` ends at `now`: within
    REST_BEFORE_TICK of the first tick of its timer due after about WAIT_FOR (its ticks come
    every WATCH_EVERY; the last one it answered came at `last_tick`). Times are
    time.monotonic()'s; without a tick seen the wait lasts WAIT_FOR."""
    if last_tick is None:
        return False
    due = last_tick + WATCH_EVERY
    return due >= started + WAIT_FOR - WATCH_EVERY / 2 and now >= due - REST_BEFORE_TICK


def wait_for_class(store: ClassStore, s: Seat, step: int | None = None) -> bool:
    """A following student's wait, about WAIT_FOR seconds, for the class to move on from the
    version this page shows (`step`: the lesson step the page shows, for the heartbeats);
    True when it did (the caller reruns the page)."""
    with answering_own_ticks() as ticks:
        started = time.monotonic()

        def between() -> bool:
            heartbeat(store, s, step)  # "still here" while it waits (every HEARTBEAT_EVERY)
            return _asked_for_another_run() or (
                ticks is not None and wait_is_over(started, time.monotonic(), ticks.last))

        version = store.wait(s.code, s.version, WAIT_FOR, POLL_EVERY, between)
    return version is not None and version != s.version


def locked_back() -> None:
    """An exploring student brought back to the class, whose view the teacher locks: they
    follow again, and are told why once (`take_locked_back`)."""
    follow_again()
    st.session_state[LOCKED_KEY] = True


def follow_again() -> None:
    """"Back to the class": follow again; the next run brings the class's view."""
    _turn(True)
    s = seat()
    if s is not None:
        s.version = -1
