"""What a class is and the rules every back end keeps; the back ends store, this checks.

A teacher starts a class and gets its code (public: it is in the join link) and a teacher
key (secret: it stays in the teacher's session and is stored only as a SHA-256 digest, so
whoever reads the store cannot steer). Students follow the class's view, a link's query
parameters, and poll `version` (one number) about once a second, reading the whole
`state` only when it changed; `version` goes up with every change a student sees: the
view, a question asked or revealed, the end.

Time is always handed in (`now`, seconds as `time.time()` gives them), so the rules can be
tested without waiting. A class is live until the teacher ends it or until nothing the
teacher does has touched it for IDLE_LIMIT; a class that is no longer live keeps its last
state for ENDED_KEEP (students see that it ended), then `expire` forgets it. Students'
polling does not keep a class alive: a class left open by a teacher who has gone ends
though tabs keep asking.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import math
import re
import secrets
import threading
import time
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .codes import new_code, normalise_code

IDLE_LIMIT = 4 * 3600.0
ENDED_KEEP = 3600.0
WAKE_EVERY = 0.25  # seconds between a waiting student's looks at their own session (`wait`)
SWEEP_EVERY = 60.0  # seconds between one server's `expire` runs, asked for by `sweep`
CONNECTED = 10.0  # a student seen this recently counts as connected
FORGET_STUDENT = 3600.0  # a student not seen for this long leaves the roster's table
TOUCH_EVERY = 60.0  # the teacher's polling writes "still here" at most this often
# Wrong codes from one client address: JOIN_FAILURES within JOIN_WINDOW seconds are free;
# while that many are in the window, each try comes JOIN_STEP seconds after the last wrong
# one (`join_wait`): one check every 2 s, ~43,000 a day per address against ~1.07e9 codes.
# A right code is never refused for long: it waits its turn (at most JOIN_STEP), then joins.
JOIN_FAILURES = 10
JOIN_WINDOW = 60.0
JOIN_STEP = 2.0
MAX_STUDENTS = 1000  # per class: ids are the client's, so their number needs a bound
NICKNAME_CHARS = 24
MAX_CHOICES = 256  # a token question offers every source token; the model reads 256 at most
MAX_PROMPT_CHARS = 500
MAX_LABEL_CHARS = 100
MAX_FIELDS = 16
MAX_VIEW_KEYS = 128
MAX_VIEW_KEY_CHARS = 64
# a source sentence is at most 1000 characters; a lesson of one's own travels with the class
# in full, as its link does (explorer/state/lesson.py MAX_LINK_CHARS)
MAX_VIEW_VALUE_CHARS = 40_000
MAX_VIEW_JSON = 64_000
MAX_STEP = 1000  # a lesson step a heartbeat names: an index below this (a lesson has 30 at most)
# self-checks a class keeps (a student's latest per lesson step, `check`), of steps below
# MAX_CHECK_STEP (a lesson has 30 at most, explorer/state/lesson.py MAX_STEPS): per student,
# three lessons' worth; per class, 30 students through a 30-step lesson keep 900. The
# bounds stop a client that makes up lessons, steps or students.
MAX_CHECK_STEP = 30
MAX_CHECKS_EACH = 90
MAX_CHECKS = 20_000
_LESSON_ID = re.compile(r"[0-9a-f]{16}")  # a lesson as a class's self-checks name it
KINDS = ("token", "option")
OPEN, CLOSED, REVEALED = "open", "closed", "revealed"
_STUDENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_MAX_KEY_CHARS = 200  # a teacher key is 32 characters; anything much longer is not one
# Zero-width joiners hold emoji sequences and some scripts' letters together; every other
# format character (bidi overrides, zero-width spaces, the BOM) only disguises text.
_JOINERS = frozenset("\u200c\u200d")
# Unassigned code points stay: they may be emoji newer than Python's Unicode tables.
_DROPPED = frozenset(("Cc", "Cf", "Cs", "Co"))


class ClassroomError(Exception):
    """Something a user did that the class refuses; the message is for a log, not a page."""


class ClassNotFoundError(ClassroomError):
    """No live class has this code (never started, ended, idle too long, or mistyped).
    `next_try`: seconds until the client that typed it may try another (`join_wait`)."""

    def __init__(self, message: str, next_try: float = 0.0):
        super().__init__(message)
        self.next_try = next_try


class NotTeacherError(ClassroomError):
    """The teacher key is missing or wrong: only the session that started a class steers it."""


class RateLimitedError(ClassroomError):
    """Too many wrong codes from one client; `retry_after` seconds (at most JOIN_STEP) until
    its next try is checked."""

    def __init__(self, retry_after: float):
        super().__init__(f"too many wrong class codes: try again in {retry_after:.0f} s")
        self.retry_after = retry_after


class AlreadyAnsweredError(ClassroomError):
    """A student answers a question once; a second answer is refused, not counted."""


class QuestionClosedError(ClassroomError):
    """The question is not open: a newer one was asked, it was revealed, or it never was."""


class InvalidAnswerError(ClassroomError, ValueError):
    """The choice is not one of the question's."""


class ClassFullError(ClassroomError):
    """The class has MAX_STUDENTS students already."""


@dataclass(frozen=True)
class Question:
    """What the teacher asks. `kind` "token": `choices` are the source tokens (the answer is
    a token index); "option": the teacher's options. `prompt` is the question's text and
    `fields` its parts (e.g. token, layer, head) for a page that draws them; `truth`, the
    index of the right choice (None for a poll), is hidden from students until the reveal."""

    kind: str
    prompt: str
    choices: tuple[str, ...]
    truth: int | None = None
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PublicQuestion:
    """A question as students see it: no truth. `status` is OPEN, CLOSED or REVEALED."""

    id: int
    kind: str
    prompt: str
    choices: tuple[str, ...]
    fields: Mapping[str, str]
    status: str


@dataclass(frozen=True)
class ClassState:
    """What a student's page follows: the view (a link's query parameters), the question
    asked last, whether the class ended, and the version they are at."""

    code: str
    version: int
    view: dict[str, str]
    question: PublicQuestion | None
    ended: bool


@dataclass(frozen=True)
class Roster:
    connected: int  # seen within CONNECTED seconds
    following: int  # of those, following the teacher's view
    exploring: int  # of those, looking around on their own
    # the exploring ones' nicknames, as they last gave one with an answer, sorted
    explorers: tuple[str, ...] = ()
    # where in the class's lesson the connected students are: one entry per step that has
    # any, in step order (a student-paced lesson: each moves on alone)
    steps: tuple[OnStep, ...] = ()


@dataclass(frozen=True)
class OnStep:
    """The connected students on one step of the class's lesson."""

    step: int  # the step's index (0: the first)
    students: int
    names: tuple[str, ...] = ()  # their nicknames, as last given with an answer, sorted


@dataclass(frozen=True)
class StudentAnswer:
    """One student's answer, for the teacher's export: the class's id of the student (never
    shown: the export numbers students), the nickname given with it, the choice, when."""

    student: str
    choice: int
    nickname: str | None
    at: float


@dataclass(frozen=True)
class SelfCheck:
    """A student's self-check of one step of a student-paced lesson (the latest they sent:
    "Try again" and another answer replace it): for the teacher's results."""

    student: str  # the class's id of the student (never shown: the export numbers students)
    step: int  # the step's index (0: the first)
    choice: int
    right: bool | None  # as the student's page measured it; None: a poll
    nickname: str | None
    at: float  # when the latest answer came
    tries: int  # how many answers the student sent to this step's question
    # the option as the student's page offered it (a measured question's options come from
    # the student's live model, so only their page can name them); None: not sent
    label: str | None = None


@dataclass(frozen=True)
class Tally:
    """The teacher's live count: per choice, how many answered it and who (nicknames given)."""

    question_id: int
    status: str
    counts: tuple[int, ...]
    answered: int
    truth: int | None
    nicknames: tuple[tuple[str, ...], ...]
    prompt: str = ""  # the question as asked (the teacher's dashboard lists them)
    choices: tuple[str, ...] = ()  # its choices' labels (the teacher's export of the class)
    by_student: tuple[StudentAnswer, ...] = ()  # every answer, oldest first (the export)


@dataclass(frozen=True)
class Results:
    """What every student sees once the teacher reveals: the truth and the class's guesses."""

    question_id: int
    counts: tuple[int, ...]
    answered: int
    truth: int | None


@dataclass(frozen=True)
class Record:
    """A back end's read of a class: its state and when the teacher last touched it."""

    state: ClassState
    active: float


def key_digest(teacher_key: str) -> bytes:
    return hashlib.sha256(teacher_key.encode("utf-8", "surrogatepass")).digest()


def client_digest(client_id: object) -> str:
    """A fixed-size name for a client id (an address, a session id: whatever the app has),
    so any text can key the rate limit without ending up in the store."""
    return hashlib.sha256(str(client_id).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def client_of_address(address: object) -> str:
    """The client a join is limited as: its address (st.context.ip_address), an IPv6 one by
    its /64 (one home or phone is given a whole /64, so each of its addresses is not a new
    client); "unknown" when there is none (a loopback connection, a bare test run)."""
    try:
        ip = ipaddress.ip_address(str(address).strip()) if address else None
    except ValueError:
        ip = None
    if ip is None:
        return "unknown"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def join_wait(tried: Iterable[float], now: float) -> float:
    """Seconds until a client whose wrong codes came at `tried` may try a code (0: now).
    While JOIN_FAILURES are within JOIN_WINDOW, a try is checked JOIN_STEP after the last
    wrong one: a steady wait, never longer (a clock a little behind another's included)."""
    recent = [t for t in tried if t > now - JOIN_WINDOW]
    if len(recent) < JOIN_FAILURES:
        return 0.0
    return min(max(max(recent) + JOIN_STEP - now, 0.0), JOIN_STEP)


def is_student_id(text: object) -> bool:
    """Whether `text` can be a student's id (what a browser keeps may have been edited)."""
    return isinstance(text, str) and _STUDENT_ID.fullmatch(text) is not None


def clean_text(text: str, limit: int) -> str:
    """`text` as one line of plain characters: NFC, no control or format characters (the
    joiners kept), runs of white space made one space, at most `limit` characters."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(" " if char.isspace() else char for char in text
                   if char in _JOINERS or char.isspace()
                   or unicodedata.category(char) not in _DROPPED)
    return " ".join(kept.split())[:limit].rstrip().rstrip("".join(_JOINERS)).rstrip()


def clean_nickname(text: object) -> str | None:
    """The nickname to keep, or None when nothing of it is left. It is plain text, never
    markup: a page shows it as text."""
    if not isinstance(text, str):
        return None
    return clean_text(text[:10 * NICKNAME_CHARS], NICKNAME_CHARS) or None


def check_question(question: Question) -> Question:
    """The question with its texts cleaned; ValueError when it cannot be asked."""
    if not isinstance(question, Question) or question.kind not in KINDS:
        raise ValueError(f"a question's kind is one of {KINDS}")
    if not (isinstance(question.choices, tuple | list) and isinstance(question.fields, Mapping)):
        raise ValueError("a question's choices are a tuple and its fields a mapping")
    choices = tuple(question.choices)
    if not 1 <= len(choices) <= MAX_CHOICES or not all(isinstance(c, str) for c in choices):
        raise ValueError(f"a question has 1 to {MAX_CHOICES} choices, each a str")
    truth = question.truth
    if truth is not None and (type(truth) is not int or not 0 <= truth < len(choices)):
        raise ValueError("the truth is the index of one of the choices, or None")
    fields = dict(question.fields)
    if len(fields) > MAX_FIELDS or not all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in fields.items()):
        raise ValueError(f"a question has at most {MAX_FIELDS} fields, str to str")
    if not isinstance(question.prompt, str) or len(question.prompt) > MAX_PROMPT_CHARS:
        raise ValueError(f"a prompt is a str of at most {MAX_PROMPT_CHARS} characters")
    return Question(kind=question.kind, prompt=clean_text(question.prompt, MAX_PROMPT_CHARS),
                    choices=tuple(clean_text(c, MAX_LABEL_CHARS) for c in choices),
                    truth=truth,
                    fields={clean_text(k, MAX_LABEL_CHARS): clean_text(v, MAX_LABEL_CHARS)
                            for k, v in fields.items()})


def view_json(view: Mapping[str, str]) -> str:
    """The view as the store keeps it; ValueError when it is not a link's parameters."""
    if not isinstance(view, Mapping) or len(view) > MAX_VIEW_KEYS:
        raise ValueError(f"a view maps at most {MAX_VIEW_KEYS} keys to values")
    for key, value in view.items():
        if not (isinstance(key, str) and isinstance(value, str)
                and 0 < len(key) <= MAX_VIEW_KEY_CHARS and len(value) <= MAX_VIEW_VALUE_CHARS):
            raise ValueError("a view's keys and values are short strings")
    text = json.dumps(dict(sorted(view.items())), separators=(",", ":"))
    if len(text) > MAX_VIEW_JSON:
        raise ValueError("the view is too large to share")
    return text


def public_json(question_id: int, question: Question, status: str) -> str:
    return json.dumps({"id": question_id, "kind": question.kind, "prompt": question.prompt,
                       "choices": list(question.choices), "fields": dict(question.fields),
                       "status": status}, separators=(",", ":"))


def with_status(public: str, status: str) -> str:
    return json.dumps({**json.loads(public), "status": status}, separators=(",", ":"))


def make_state(code: str, version: int, view: str, question: str | None,
               ended: bool) -> ClassState:
    public = None
    if question:
        q = json.loads(question)
        public = PublicQuestion(id=q["id"], kind=q["kind"], prompt=q["prompt"],
                                choices=tuple(q["choices"]), fields=q["fields"],
                                status=q["status"])
    return ClassState(code=code, version=version, view=json.loads(view), question=public,
                      ended=ended)


def count(answers: Iterable[tuple[int, str | None]], choices: int) -> tuple[list[int], int]:
    counts = [0] * choices
    for choice, _ in answers:
        counts[choice] += 1
    return counts, sum(counts)


def tally_of(question_id: int, status: str, choices: int, truth: int | None,
             answers: list[StudentAnswer], prompt: str = "",
             labels: tuple[str, ...] = ()) -> Tally:
    """The teacher's tally of `answers` (in any order): the nicknames of each choice sorted
    and the answers by time, so every back end gives the same one."""
    by_student = tuple(sorted(answers, key=lambda a: (a.at, a.student)))
    counts, answered = count(((a.choice, a.nickname) for a in by_student), choices)
    names: list[list[str]] = [[] for _ in counts]
    for a in by_student:
        if a.nickname:
            names[a.choice].append(a.nickname)
    return Tally(question_id=question_id, status=status, counts=tuple(counts),
                 answered=answered, truth=truth,
                 nicknames=tuple(tuple(sorted(n, key=str.casefold)) for n in names),
                 prompt=prompt, choices=tuple(labels), by_student=by_student)


def explorers_of(nicknames: Iterable[str | None]) -> tuple[str, ...]:
    """The roster's nicknames of exploring students: those given, sorted as the tally's."""
    return tuple(sorted((n for n in nicknames if n), key=str.casefold))


def steps_of(on: Iterable[tuple[int | None, str | None]]) -> tuple[OnStep, ...]:
    """The roster's steps from each connected student's (step, nickname): one `OnStep` per
    step that has a student, in step order (a student on no step of a lesson is left out)."""
    by_step: dict[int, list[str | None]] = {}
    for step, name in on:
        if step is not None:
            by_step.setdefault(step, []).append(name)
    return tuple(OnStep(step=step, students=len(names), names=explorers_of(names))
                 for step, names in sorted(by_step.items()))


def lesson_step(step: object) -> int | None:
    """A heartbeat's lesson step as the store keeps it: a step index below MAX_STEP, or None
    (no lesson open, or anything else a client sent)."""
    if isinstance(step, int) and not isinstance(step, bool) and 0 <= step < MAX_STEP:
        return step
    return None


def results_from_json(question_id: int, truth: int | None, results: str) -> Results:
    stored = json.loads(results)
    return Results(question_id=question_id, counts=tuple(stored["counts"]),
                   answered=stored["answered"], truth=truth)


def revealed_truth(asked: int | None, given: int | None, choices: int) -> int | None:
    """The truth a reveal shows: the one given when the question was asked, else the one
    given now; ValueError for a given one out of range or unlike the one asked with."""
    if given is None:
        return asked
    if not 0 <= given < choices:
        raise ValueError("the truth is the index of one of the choices")
    if asked is not None and asked != given:
        raise ValueError("the question was asked with another truth")
    return given


def is_teacher(stored: bytes, teacher_key: str) -> bool:
    return hmac.compare_digest(bytes(stored), key_digest(teacher_key))


def check_live(ended: bool, active: float, now: float) -> None:
    if ended or now - active > IDLE_LIMIT:
        raise ClassNotFoundError("the class has ended")


class _Bell:
    """Rings when a class changes through any store of this process, so that the students
    waiting on it here (`ClassStore.wait`) wake at once instead of at their next look."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._rung: dict[str, int] = {}  # code -> how often it rang (codes live for hours)

    def rung(self, code: str) -> int:
        with self._changed:
            return self._rung.get(code, 0)

    def ring(self, code: str) -> None:
        with self._changed:
            self._rung[code] = self._rung.get(code, 0) + 1
            self._changed.notify_all()

    def wait(self, code: str, rung: int, timeout: float) -> int:
        """How often `code` has rung, once it is no longer `rung` or after `timeout`."""
        with self._changed:
            self._changed.wait_for(lambda: self._rung.get(code, 0) != rung, timeout)
            return self._rung.get(code, 0)


_BELL = _Bell()


class ClassStore(ABC):
    """The class mode's store. Public methods check what they are given (codes as typed,
    ids, keys, views, questions, nicknames) and hand the back end only clean values; the
    back end keeps the rules that need its own atomicity (one answer per student, a code
    given to one class, the teacher key checked in the change it allows)."""

    _swept = float("-inf")  # when this store object last ran `expire` (`sweep`)
    _sweeping = threading.Lock()

    def sweep(self, now: float) -> bool:
        """`expire`, at most once every SWEEP_EVERY seconds of this store object; True when
        it ran. Cheap enough to call with every poll: the app calls it with each student's
        heartbeat, so a class whose teacher has gone ends for its students within a minute
        of IDLE_LIMIT, and what ended long ago is forgotten."""
        with self._sweeping:
            if now - self._swept < SWEEP_EVERY:
                return False
            self._swept = now
        self.expire(now)
        return True

    def start(self, now: float) -> tuple[str, str]:
        """A new class: (code, teacher key). Also forgets classes long ended (`expire`),
        so the store stays small with nothing else calling it."""
        self.expire(now)
        teacher_key = secrets.token_urlsafe(24)
        for _ in range(32):  # with a million live classes, all 32 draws taken: p ≈ 1e-96
            code = new_code()
            if self._create(code, key_digest(teacher_key), now):
                return code, teacher_key
        raise RuntimeError("no free class code")

    def join(self, code: str, client_id: str, now: float) -> ClassState:
        """The class's state for a student who typed `code` from `client_id` (an address,
        `client_of_address`). Codes cannot be guessed: a client with JOIN_FAILURES wrong
        codes in the last JOIN_WINDOW seconds has its next try checked only JOIN_STEP after
        the last wrong one (RateLimitedError says how long; the code is not looked at), a
        right code too, which joins once its turn comes. Text that is no code is refused
        and not counted: it cannot guess anything. A wrong code's ClassNotFoundError says
        when the client may try again (`next_try`)."""
        canonical = normalise_code(code)
        if canonical is None:
            raise ClassNotFoundError("not a class code")
        client = client_digest(client_id)
        state = self._join(canonical, client, now)
        if state is None:
            raise ClassNotFoundError("no live class has this code",
                                     self._next_try(client, now))
        return state

    def nickname(self, code: str, student_id: str) -> str | None:
        """The nickname a student sent with their latest answer in the class (None: none
        given then, or no answer yet): their next answer starts with it."""
        canonical = normalise_code(code)
        if canonical is None or not is_student_id(student_id):
            return None
        return self._nickname(canonical, student_id)

    def state(self, code: str) -> ClassState | None:
        """What students follow (None when no class has this code): one read."""
        canonical = normalise_code(code)
        record = self._read(canonical) if canonical else None
        return record.state if record else None

    def version(self, code: str) -> int | None:
        """The state's version, which changes with every change students see."""
        canonical = normalise_code(code)
        return self._version(canonical) if canonical else None

    def wait(self, code: str, seen: int, timeout: float, every: float,
             between: Callable[[], bool] = lambda: False) -> int | None:
        """The class's version once it is no longer `seen`, or after `timeout` seconds.

        A change made through any store of this process (the teacher's session on the same
        server) wakes the wait at once; one made elsewhere (another replica behind a load
        balancer, another process) is found by reading the version every `every` seconds.
        `between()` is called at least every WAKE_EVERY seconds while it waits; True ends the
        wait (the app's says whether its session asked for another run meanwhile).
        """
        canonical = normalise_code(code)
        if canonical is None:
            return None
        start = time.monotonic()
        rung, read = _BELL.rung(canonical), start
        version = self._version(canonical)
        while version == seen and (left := start + timeout - time.monotonic()) > 0:
            now_rung = _BELL.wait(canonical, rung, min(WAKE_EVERY, left))
            if between():
                break
            if now_rung != rung or time.monotonic() - read >= every:
                rung, read = now_rung, time.monotonic()
                version = self._version(canonical)
        return version

    def steer(self, code: str, teacher_key: str, view: Mapping[str, str], now: float) -> int:
        """Show the class `view`; returns the version (the same one if the view is)."""
        code = self._code(code)
        version = self._steer(code, self._key(teacher_key), view_json(view), now)
        _BELL.ring(code)
        return version

    def heartbeat(self, code: str, student_id: str, following: bool, now: float,
                  step: int | None = None) -> None:
        """A student's page is open, following the teacher's view or not, showing `step` of
        the class's lesson (None: none)."""
        self._heartbeat(self._code(code), _student(student_id), bool(following), now,
                        lesson_step(step))

    def roster(self, code: str, teacher_key: str, now: float) -> Roster:
        """Students connected now, following or exploring. The teacher's page polls this,
        so it also tells the store the teacher is still there."""
        return self._roster(self._code(code), self._key(teacher_key), now)

    def ask(self, code: str, teacher_key: str, question: Question, now: float) -> int:
        """Ask `question` (closing the one open); returns its id."""
        code = self._code(code)
        question_id = self._ask(code, self._key(teacher_key), check_question(question), now)
        _BELL.ring(code)
        return question_id

    def answer(self, code: str, question_id: int, student_id: str, choice: int,
               nickname: str | None, now: float) -> None:
        """A student's one answer: AlreadyAnsweredError for a second, QuestionClosedError once the
        question is not open, InvalidAnswerError for a choice it does not have."""
        if type(choice) is not int or type(question_id) is not int:
            raise InvalidAnswerError("a question id and a choice are ints")
        self._answer(self._code(code), question_id, _student(student_id), choice,
                     clean_nickname(nickname), now)

    def tally(self, code: str, teacher_key: str, question_id: int) -> Tally:
        """The answers so far, for the teacher (also after the class ended)."""
        return self._tally(self._code(code), self._key(teacher_key), _question_id(question_id))

    def questions(self, code: str, teacher_key: str) -> list[Tally]:
        """Every question asked in the class so far, oldest first, each with its answers
        (the teacher's dashboard)."""
        state = self.state(code)
        if state is None:
            raise ClassNotFoundError("no class has this code")
        last = state.question.id if state.question is not None else 0
        asked = []
        for question_id in range(1, last + 1):
            try:
                asked.append(self.tally(code, teacher_key, question_id))
            except QuestionClosedError:  # forgotten with its class's old keys
                continue
        return asked

    def reveal(self, code: str, teacher_key: str, question_id: int, now: float,
               truth: int | None = None) -> Results:
        """Close the question and show every student the truth and the counts. `truth`: the
        right choice of a question asked without one, whose answer was measured after it
        was asked (which break hurts most: the models train while students answer); a
        question asked with a truth keeps it (ValueError for another)."""
        if truth is not None and type(truth) is not int:
            raise ValueError("the truth is the index of one of the choices, or None")
        code = self._code(code)
        results = self._reveal(code, self._key(teacher_key), _question_id(question_id), now,
                               truth)
        _BELL.ring(code)
        return results

    def close_answers(self, code: str, teacher_key: str, question_id: int,
                      now: float) -> None:
        """Close the open question `question_id` (the teacher's "Close answers"): answers
        sent from now on are refused (QuestionClosedError), the ones in are kept and
        counted; students see it closed until the reveal. A question not open is left as
        it is."""
        code = self._code(code)
        self._close_answers(code, self._key(teacher_key), _question_id(question_id), now)
        _BELL.ring(code)

    def close_at(self, code: str, teacher_key: str, question_id: int, at: float,
                 now: float) -> None:
        """The answers to the open question `question_id` close at `at` (the teacher's
        countdown): an answer sent from then on is refused (QuestionClosedError), whether
        or not the teacher's page has closed the question yet. A question not open is left
        as it is."""
        if type(at) not in (int, float) or not math.isfinite(at):
            raise ValueError("a countdown ends at a time")
        self._close_at(self._code(code), self._key(teacher_key), _question_id(question_id),
                       float(at), now)

    def answer_of(self, code: str, question_id: int, student_id: str) -> int | None:
        """The choice a student answered the question with (None: no answer, or no such
        question): after the reveal each student is told their own answer."""
        canonical = normalise_code(code)
        if canonical is None or type(question_id) is not int:
            return None
        return self._answer_of(canonical, question_id, _student(student_id))

    def results(self, code: str, question_id: int) -> Results | None:
        """The truth and the counts, once revealed; None before (and for no such question)."""
        canonical = normalise_code(code)
        if canonical is None or type(question_id) is not int:
            return None
        return self._results(canonical, question_id)

    def check(self, code: str, student_id: str, lesson: str, step: int, choice: int,
              right: bool | None, nickname: str | None, now: float,
              label: str | None = None) -> None:
        """A student's self-check of `step` of the class's student-paced `lesson` (a
        `lesson_id`): their `choice` (and its `label` as their page offered it, plain text
        cut to MAX_LABEL_CHARS), whether it was `right` (None: a poll), kept as their
        latest for the teacher (`self_checks`) and for their own page after a reload
        (`checks_of`); the nickname, if any, also names them on the roster. Only a student
        of the class (a heartbeat seen) checks: ClassNotFoundError otherwise, and
        ClassFullError beyond MAX_CHECKS_EACH of theirs or MAX_CHECKS in the class."""
        if (type(choice) is not int or not 0 <= choice < MAX_CHOICES
                or (right is not None and type(right) is not bool)
                or lesson_step(step) is None or step >= MAX_CHECK_STEP
                or (label is not None and not isinstance(label, str))):
            raise InvalidAnswerError("a step, a choice, its label and right, wrong or a poll")
        kept_label = None if label is None else (
            clean_text(label[:10 * MAX_LABEL_CHARS], MAX_LABEL_CHARS) or None)
        self._check(self._code(code), _student(student_id), _lesson(lesson), step, choice,
                    right, clean_nickname(nickname), now, kept_label)

    def checks_of(self, code: str, student_id: str, lesson: str) -> dict[int, int]:
        """A student's latest self-checks of `lesson`: {step: choice} ({} for no class)."""
        canonical = normalise_code(code)
        if canonical is None or not is_student_id(student_id) or not is_lesson_id(lesson):
            return {}
        return self._checks_of(canonical, student_id, lesson)

    def self_checks(self, code: str, teacher_key: str, lesson: str) -> tuple[SelfCheck, ...]:
        """Every student's latest self-check of each step of `lesson`, oldest first, for
        the teacher (also after the class ended)."""
        return tuple(sorted(self._self_checks(self._code(code), self._key(teacher_key),
                                              _lesson(lesson)),
                            key=lambda c: (c.at, c.student, c.step)))

    def end(self, code: str, teacher_key: str, now: float) -> None:
        """End the class (ending it again is no error)."""
        code = self._code(code)
        self._end(code, self._key(teacher_key), now)
        _BELL.ring(code)

    @abstractmethod
    def expire(self, now: float) -> int:
        """End classes idle longer than IDLE_LIMIT and forget those ended more than
        ENDED_KEEP ago (and old join failures and students); returns how many it ended."""

    @abstractmethod
    def close(self) -> None:
        """Let go of connections."""

    # -- what a back end implements: arguments are checked, codes canonical --

    @abstractmethod
    def _create(self, code: str, digest: bytes, now: float) -> bool:
        """Store a new class under `code`; False if the code is taken."""

    @abstractmethod
    def _read(self, code: str) -> Record | None: ...

    @abstractmethod
    def _version(self, code: str) -> int | None: ...

    @abstractmethod
    def _join(self, code: str, client: str, now: float) -> ClassState | None:
        """In one step no other try of `client` comes between: RateLimitedError while
        `join_wait` of its wrong codes says to wait (nothing else read or written), else
        the live class's state, or None with a wrong code recorded at `now`."""

    @abstractmethod
    def _next_try(self, client: str, now: float) -> float:
        """`join_wait` of `client`'s wrong codes at `now`."""

    @abstractmethod
    def _nickname(self, code: str, student_id: str) -> str | None: ...

    @abstractmethod
    def _steer(self, code: str, teacher_key: str, view: str, now: float) -> int: ...

    @abstractmethod
    def _heartbeat(self, code: str, student_id: str, following: bool, now: float,
                   step: int | None) -> None: ...

    @abstractmethod
    def _roster(self, code: str, teacher_key: str, now: float) -> Roster: ...

    @abstractmethod
    def _ask(self, code: str, teacher_key: str, question: Question, now: float) -> int: ...

    @abstractmethod
    def _answer(self, code: str, question_id: int, student_id: str, choice: int,
                nickname: str | None, now: float) -> None: ...

    @abstractmethod
    def _tally(self, code: str, teacher_key: str, question_id: int) -> Tally: ...

    @abstractmethod
    def _reveal(self, code: str, teacher_key: str, question_id: int, now: float,
                truth: int | None) -> Results:
        """Reveal, with `revealed_truth` of what was asked and what is given now."""

    @abstractmethod
    def _close_answers(self, code: str, teacher_key: str, question_id: int,
                       now: float) -> None:
        """Close the question if it is open, in one step with the answers' own check."""

    @abstractmethod
    def _results(self, code: str, question_id: int) -> Results | None: ...

    @abstractmethod
    def _close_at(self, code: str, teacher_key: str, question_id: int, at: float,
                  now: float) -> None:
        """Keep `at` with the question if it is open (`_answer` refuses from then on)."""

    @abstractmethod
    def _check(self, code: str, student_id: str, lesson: str, step: int, choice: int,
               right: bool | None, nickname: str | None, now: float,
               label: str | None) -> None:
        """In one step: the class live, the student in it, MAX_CHECKS_EACH and MAX_CHECKS,
        and the check kept (tries counted, its label) and its nickname with the student's."""

    @abstractmethod
    def _checks_of(self, code: str, student_id: str, lesson: str) -> dict[int, int]: ...

    @abstractmethod
    def _self_checks(self, code: str, teacher_key: str, lesson: str) -> list[SelfCheck]: ...

    @abstractmethod
    def _answer_of(self, code: str, question_id: int, student_id: str) -> int | None: ...

    @abstractmethod
    def _end(self, code: str, teacher_key: str, now: float) -> None: ...

    @staticmethod
    def _code(code: str) -> str:
        canonical = normalise_code(code)
        if canonical is None:
            raise ClassNotFoundError("not a class code")
        return canonical

    @staticmethod
    def _key(teacher_key: str) -> str:
        if not isinstance(teacher_key, str) or not 0 < len(teacher_key) <= _MAX_KEY_CHARS:
            raise NotTeacherError("no teacher key")
        return teacher_key


def _student(student_id: str) -> str:
    if not is_student_id(student_id):
        raise ValueError("a student id is 1 to 64 letters, digits, '-' or '_'")
    return student_id


def is_lesson_id(lesson: object) -> bool:
    return isinstance(lesson, str) and _LESSON_ID.fullmatch(lesson) is not None


def lesson_id(link: str) -> str:
    """The name a class's self-checks give a lesson: a digest of its link form (a shipped
    lesson's name, or the lesson itself), so that another lesson's steps never mix in."""
    return hashlib.sha256(link.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _lesson(lesson: str) -> str:
    if not is_lesson_id(lesson):
        raise ValueError("a lesson id is 16 hexadecimal digits (lesson_id)")
    return lesson


def _question_id(question_id: int) -> int:
    if type(question_id) is not int:
        raise QuestionClosedError("no such question")
    return question_id
