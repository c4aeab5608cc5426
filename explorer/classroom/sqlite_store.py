"""The class store in one SQLite file: no set-up, survives a restart, and is safe for the
app's threads and for several processes on one machine.

WAL mode lets students' reads go on while a write commits; every change is one
`BEGIN IMMEDIATE` transaction (a writer takes the write lock before it reads, so what it
checked still holds when it writes), and writers that meet wait up to BUSY_SECONDS
instead of failing. One answer per student is the answers table's primary key.

Connections come from a small pool rather than one per thread: Streamlit runs each script
run in a new thread, so per-thread connections would be opened run after run. A connection
opened before a fork is never used (nor closed) in the child: SQLite forbids it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .store import (
    CLOSED,
    CONNECTED,
    ENDED_KEEP,
    FORGET_STUDENT,
    IDLE_LIMIT,
    JOIN_WINDOW,
    MAX_CHECKS,
    MAX_CHECKS_EACH,
    MAX_STUDENTS,
    OPEN,
    REVEALED,
    TOUCH_EVERY,
    AlreadyAnsweredError,
    ClassFullError,
    ClassNotFoundError,
    ClassState,
    ClassStore,
    InvalidAnswerError,
    NotTeacherError,
    Question,
    QuestionClosedError,
    RateLimitedError,
    Record,
    Results,
    Roster,
    SelfCheck,
    StudentAnswer,
    Tally,
    check_live,
    count,
    explorers_of,
    is_teacher,
    join_wait,
    make_state,
    public_json,
    results_from_json,
    revealed_truth,
    steps_of,
    tally_of,
    with_status,
)

BUSY_SECONDS = 10.0
POOL = 8  # idle connections kept; more threads at once open more and close them after
SCHEMA = (
    # `question` is the last question as students see it (JSON), so `state` is one row
    """CREATE TABLE IF NOT EXISTS classes (
        code TEXT PRIMARY KEY, digest BLOB NOT NULL, view TEXT NOT NULL,
        version INTEGER NOT NULL, question TEXT, question_id INTEGER NOT NULL,
        ended INTEGER NOT NULL, ended_at REAL, active REAL NOT NULL) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS classes_by_activity ON classes (ended, active)",
    """CREATE TABLE IF NOT EXISTS questions (
        code TEXT NOT NULL, id INTEGER NOT NULL, choices INTEGER NOT NULL, truth INTEGER,
        status TEXT NOT NULL, results TEXT, prompt TEXT, labels TEXT, closes REAL,
        PRIMARY KEY (code, id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS answers (
        code TEXT NOT NULL, question INTEGER NOT NULL, student TEXT NOT NULL,
        choice INTEGER NOT NULL, nickname TEXT, at REAL NOT NULL,
        UNIQUE (code, question, student))""",
    """CREATE TABLE IF NOT EXISTS students (
        code TEXT NOT NULL, student TEXT NOT NULL, seen REAL NOT NULL,
        following INTEGER NOT NULL, step INTEGER, nickname TEXT,
        PRIMARY KEY (code, student)) WITHOUT ROWID""",
    # a student's latest self-check of each step of a student-paced lesson
    """CREATE TABLE IF NOT EXISTS checks (
        code TEXT NOT NULL, lesson TEXT NOT NULL, student TEXT NOT NULL, step INTEGER NOT NULL,
        choice INTEGER NOT NULL, right INTEGER, nickname TEXT, at REAL NOT NULL,
        tries INTEGER NOT NULL, label TEXT,
        PRIMARY KEY (code, lesson, student, step)) WITHOUT ROWID""",
    "CREATE TABLE IF NOT EXISTS join_failures (client TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS join_failures_by_client ON join_failures (client, at)",
)
# Connections a forked child inherited: kept referenced so that they are never closed there.
_INHERITED: list[sqlite3.Connection] = []


class SQLiteStore(ClassStore):
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._pid = os.getpid()
        with self._write() as db:
            for statement in SCHEMA:
                db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(questions)")}
            if "prompt" not in columns:  # a data folder written before prompts were kept
                db.execute("ALTER TABLE questions ADD COLUMN prompt TEXT")
            if "labels" not in columns:  # ... or before the choices' labels were (JSON)
                db.execute("ALTER TABLE questions ADD COLUMN labels TEXT")
            if "closes" not in columns:  # ... or before countdowns were
                db.execute("ALTER TABLE questions ADD COLUMN closes REAL")
            columns = {row[1] for row in db.execute("PRAGMA table_info(students)")}
            if "step" not in columns:
                db.execute("ALTER TABLE students ADD COLUMN step INTEGER")  # ... or steps
            if "nickname" not in columns:  # ... or self-checks' nicknames
                db.execute("ALTER TABLE students ADD COLUMN nickname TEXT")
            columns = {row[1] for row in db.execute("PRAGMA table_info(checks)")}
            if "label" not in columns:  # ... or self-checks' labels
                db.execute("ALTER TABLE checks ADD COLUMN label TEXT")

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        if os.getpid() == self._pid:
            for db in idle:
                db.close()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                             check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL loses no commit when the process dies, only on power loss.
        db.execute("PRAGMA synchronous = NORMAL")
        return db

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if os.getpid() != self._pid:
                _INHERITED.extend(self._idle)
                self._idle, self._pid = [], os.getpid()
            db = self._idle.pop() if self._idle else None
        if db is None:
            db = self._open()
        try:
            yield db
        finally:
            with self._lock:
                if len(self._idle) < POOL and os.getpid() == self._pid:
                    self._idle.append(db)
                    db = None
            if db is not None:
                db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _teacher(db: sqlite3.Connection, code: str, teacher_key: str,
                 now: float | None) -> tuple:
        """The class's row for its teacher; live (unless `now` is None) or an error."""
        row = db.execute("SELECT digest, ended, active, version, question_id, question, view"
                         " FROM classes WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise ClassNotFoundError("no class has this code")
        if not is_teacher(row[0], teacher_key):
            raise NotTeacherError("wrong teacher key")
        if now is not None:
            check_live(bool(row[1]), row[2], now)
        return row

    def _create(self, code: str, digest: bytes, now: float) -> bool:
        with self._connection() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO classes (code, digest, view, version, question,"
                " question_id, ended, active) VALUES (?, ?, '{}', 1, NULL, 0, 0, ?)",
                (code, digest, now))
            return cursor.rowcount == 1

    def _read(self, code: str) -> Record | None:
        with self._connection() as db:
            row = db.execute("SELECT version, view, question, ended, active FROM classes"
                             " WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        return Record(make_state(code, row[0], row[1], row[2], bool(row[3])), row[4])

    def _version(self, code: str) -> int | None:
        with self._connection() as db:
            row = db.execute("SELECT version FROM classes WHERE code = ?", (code,)).fetchone()
        return row[0] if row else None

    @staticmethod
    def _tried(db: sqlite3.Connection, client: str, now: float) -> list[float]:
        return [at for (at,) in db.execute(
            "SELECT at FROM join_failures WHERE client = ? AND at > ?",
            (client, now - JOIN_WINDOW))]

    def _join(self, code: str, client: str, now: float) -> ClassState | None:
        # one write transaction: tries of one client from several threads or processes
        # are checked one after the other, each against the wrong codes before it
        with self._write() as db:
            wait = join_wait(self._tried(db, client, now), now)
            if wait > 0:
                raise RateLimitedError(wait)
            row = db.execute("SELECT version, view, question, ended, active FROM classes"
                             " WHERE code = ?", (code,)).fetchone()
            if row is not None and not row[3] and now - row[4] <= IDLE_LIMIT:
                return make_state(code, row[0], row[1], row[2], False)
            db.execute("INSERT INTO join_failures (client, at) VALUES (?, ?)", (client, now))
            return None

    def _next_try(self, client: str, now: float) -> float:
        with self._connection() as db:
            return join_wait(self._tried(db, client, now), now)

    def _nickname(self, code: str, student_id: str) -> str | None:
        with self._connection() as db:
            row = db.execute("SELECT nickname FROM answers WHERE code = ? AND student = ?"
                             " ORDER BY question DESC LIMIT 1", (code, student_id)).fetchone()
        return row[0] if row else None

    def _steer(self, code: str, teacher_key: str, view: str, now: float) -> int:
        with self._write() as db:
            row = self._teacher(db, code, teacher_key, now)
            if row[6] == view:
                db.execute("UPDATE classes SET active = max(active, ?) WHERE code = ?",
                           (now, code))
                return row[3]
            db.execute("UPDATE classes SET view = ?, version = version + 1,"
                       " active = max(active, ?) WHERE code = ?", (view, now, code))
            return row[3] + 1

    def _heartbeat(self, code: str, student_id: str, following: bool, now: float,
                   step: int | None) -> None:
        with self._write() as db:
            _live(db, code, now)
            # (a heartbeat older than the last one kept leaves its step as it is)
            updated = db.execute("UPDATE students SET following = ?,"
                                 " step = CASE WHEN ? >= seen THEN ? ELSE step END,"
                                 " seen = max(seen, ?) WHERE code = ? AND student = ?",
                                 (int(following), now, step, now, code, student_id)).rowcount
            if updated:
                return
            _room(db, "students", code, MAX_STUDENTS, "the class is full")
            db.execute("INSERT INTO students (code, student, seen, following, step)"
                       " VALUES (?, ?, ?, ?, ?)", (code, student_id, now, int(following), step))

    def _roster(self, code: str, teacher_key: str, now: float) -> Roster:
        with self._connection() as db:
            row = self._teacher(db, code, teacher_key, None)
            connected, following = db.execute(
                "SELECT count(*), coalesce(sum(following), 0) FROM students"
                " WHERE code = ? AND seen >= ?", (code, now - CONNECTED)).fetchone()
            if not row[1] and TOUCH_EVERY <= now - row[2] <= IDLE_LIMIT:
                db.execute("UPDATE classes SET active = max(active, ?) WHERE code = ?"
                           " AND ended = 0", (now, code))
            # each connected student's step, and nickname as last given with an answer (or
            # else with a self-check) when the roster names them: explorers, and everyone on
            # a step of a student-paced lesson (in a class that follows its teacher, nearly
            # no one)
            seen = db.execute(
                "SELECT CASE WHEN following = 0 OR step IS NOT NULL THEN coalesce("
                " (SELECT nickname FROM answers WHERE answers.code = students.code"
                " AND answers.student = students.student AND nickname IS NOT NULL"
                " ORDER BY at DESC LIMIT 1), nickname) END, following, step FROM students"
                " WHERE code = ? AND seen >= ?", (code, now - CONNECTED)).fetchall()
        return Roster(connected=connected, following=following,
                      exploring=connected - following,
                      explorers=explorers_of(name for name, follows, _ in seen if not follows),
                      steps=steps_of((step, name) for name, _, step in seen))

    def _ask(self, code: str, teacher_key: str, question: Question, now: float) -> int:
        with self._write() as db:
            row = self._teacher(db, code, teacher_key, now)
            question_id = row[4] + 1
            db.execute("UPDATE questions SET status = ? WHERE code = ? AND status = ?",
                       (CLOSED, code, OPEN))
            db.execute("INSERT INTO questions (code, id, choices, truth, status, prompt,"
                       " labels) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (code, question_id, len(question.choices), question.truth, OPEN,
                        question.prompt, json.dumps(list(question.choices))))
            db.execute("UPDATE classes SET question_id = ?, question = ?,"
                       " version = version + 1, active = max(active, ?) WHERE code = ?",
                       (question_id, public_json(question_id, question, OPEN), now, code))
            return question_id

    def _answer(self, code: str, question_id: int, student_id: str, choice: int,
                nickname: str | None, now: float) -> None:
        with self._write() as db:
            _live(db, code, now)
            question = db.execute("SELECT choices, status, closes FROM questions"
                                  " WHERE code = ? AND id = ?", (code, question_id)).fetchone()
            if question is None or question[1] != OPEN:
                raise QuestionClosedError("the question is not open")
            if question[2] is not None and now >= question[2]:
                raise QuestionClosedError("the countdown is over")
            if not 0 <= choice < question[0]:
                raise InvalidAnswerError("no such choice")
            try:
                db.execute("INSERT INTO answers (code, question, student, choice, nickname,"
                           " at) VALUES (?, ?, ?, ?, ?, ?)",
                           (code, question_id, student_id, choice, nickname, now))
            except sqlite3.IntegrityError:
                raise AlreadyAnsweredError("one answer per student") from None

    @staticmethod
    def _answers(db: sqlite3.Connection, code: str, question_id: int) -> list:
        return db.execute("SELECT choice, nickname FROM answers WHERE code = ? AND question = ?",
                          (code, question_id)).fetchall()

    def _tally(self, code: str, teacher_key: str, question_id: int) -> Tally:
        with self._connection() as db:
            self._teacher(db, code, teacher_key, None)
            question = db.execute("SELECT choices, truth, status, prompt, labels FROM"
                                  " questions WHERE code = ? AND id = ?",
                                  (code, question_id)).fetchone()
            if question is None:
                raise QuestionClosedError("no such question")
            answers = [StudentAnswer(*row) for row in db.execute(
                "SELECT student, choice, nickname, at FROM answers WHERE code = ?"
                " AND question = ?", (code, question_id))]
        return tally_of(question_id, question[2], question[0], question[1], answers,
                        question[3] or "", tuple(json.loads(question[4] or "[]")))

    def _reveal(self, code: str, teacher_key: str, question_id: int, now: float,
                truth: int | None) -> Results:
        with self._write() as db:
            row = self._teacher(db, code, teacher_key, now)
            question = db.execute("SELECT choices, truth, status, results FROM questions"
                                  " WHERE code = ? AND id = ?", (code, question_id)).fetchone()
            if question is None:
                raise QuestionClosedError("no such question")
            if question[2] == REVEALED:
                return results_from_json(question_id, question[1], question[3])
            truth = revealed_truth(question[1], truth, question[0])
            counts, answered = count(self._answers(db, code, question_id), question[0])
            results = json.dumps({"counts": counts, "answered": answered})
            db.execute("UPDATE questions SET status = ?, results = ?, truth = ?"
                       " WHERE code = ? AND id = ?",
                       (REVEALED, results, truth, code, question_id))
            shown = with_status(row[5], REVEALED) if question_id == row[4] else row[5]
            db.execute("UPDATE classes SET question = ?, version = version + 1,"
                       " active = max(active, ?) WHERE code = ?", (shown, now, code))
            return results_from_json(question_id, truth, results)

    def _close_answers(self, code: str, teacher_key: str, question_id: int,
                       now: float) -> None:
        with self._write() as db:
            row = self._teacher(db, code, teacher_key, now)
            closed = db.execute("UPDATE questions SET status = ? WHERE code = ? AND id = ?"
                                " AND status = ?", (CLOSED, code, question_id, OPEN)).rowcount
            if closed and question_id == row[4]:
                db.execute("UPDATE classes SET question = ?, version = version + 1,"
                           " active = max(active, ?) WHERE code = ?",
                           (with_status(row[5], CLOSED), now, code))

    def _close_at(self, code: str, teacher_key: str, question_id: int, at: float,
                  now: float) -> None:
        with self._write() as db:
            self._teacher(db, code, teacher_key, now)
            db.execute("UPDATE questions SET closes = ? WHERE code = ? AND id = ? AND"
                       " status = ?", (at, code, question_id, OPEN))

    def _results(self, code: str, question_id: int) -> Results | None:
        with self._connection() as db:
            row = db.execute("SELECT truth, status, results FROM questions"
                             " WHERE code = ? AND id = ?", (code, question_id)).fetchone()
        if row is None or row[1] != REVEALED:
            return None
        return results_from_json(question_id, row[0], row[2])

    def _answer_of(self, code: str, question_id: int, student_id: str) -> int | None:
        with self._connection() as db:
            row = db.execute("SELECT choice FROM answers WHERE code = ? AND question = ?"
                             " AND student = ?", (code, question_id, student_id)).fetchone()
        return row[0] if row else None

    def _check(self, code: str, student_id: str, lesson: str, step: int, choice: int,
               right: bool | None, nickname: str | None, now: float,
               label: str | None) -> None:
        with self._write() as db:
            _live(db, code, now)
            known = db.execute("UPDATE students SET nickname = coalesce(?, nickname)"
                               " WHERE code = ? AND student = ?",
                               (nickname, code, student_id)).rowcount
            if not known:
                raise ClassNotFoundError("not a student of this class")
            updated = db.execute(
                "UPDATE checks SET choice = ?, right = ?, nickname = ?, at = ?, label = ?,"
                " tries = tries + 1 WHERE code = ? AND lesson = ? AND student = ? AND step = ?",
                (choice, right, nickname, now, label, code, lesson, student_id, step)).rowcount
            if updated:
                return
            (mine,) = db.execute("SELECT count(*) FROM checks WHERE code = ? AND student = ?",
                                 (code, student_id)).fetchone()
            if mine >= MAX_CHECKS_EACH:
                raise ClassFullError("the student has no more self-checks")
            _room(db, "checks", code, MAX_CHECKS, "the class keeps no more self-checks")
            db.execute("INSERT INTO checks (code, lesson, student, step, choice, right,"
                       " nickname, at, tries, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
                       (code, lesson, student_id, step, choice, right, nickname, now, label))

    def _checks_of(self, code: str, student_id: str, lesson: str) -> dict[int, int]:
        with self._connection() as db:
            return dict(db.execute("SELECT step, choice FROM checks WHERE code = ? AND"
                                   " lesson = ? AND student = ?", (code, lesson, student_id)))

    def _self_checks(self, code: str, teacher_key: str, lesson: str) -> list[SelfCheck]:
        with self._connection() as db:
            self._teacher(db, code, teacher_key, None)
            rows = db.execute("SELECT student, step, choice, right, nickname, at, tries, label"
                              " FROM checks WHERE code = ? AND lesson = ?",
                              (code, lesson)).fetchall()
        return [SelfCheck(student, step, choice, None if right is None else bool(right),
                          nickname, at, tries, label)
                for student, step, choice, right, nickname, at, tries, label in rows]

    def _end(self, code: str, teacher_key: str, now: float) -> None:
        with self._write() as db:
            row = self._teacher(db, code, teacher_key, None)
            if not row[1]:
                _end_class(db, code, row[5], now)

    def expire(self, now: float) -> int:
        with self._write() as db:
            idle = db.execute("SELECT code, question FROM classes WHERE ended = 0"
                              " AND active < ?", (now - IDLE_LIMIT,)).fetchall()
            for code, question in idle:
                _end_class(db, code, question, now)
            gone = [(code,) for (code,) in db.execute(
                "SELECT code FROM classes WHERE ended = 1 AND ended_at < ?",
                (now - ENDED_KEEP,))]
            for table in ("classes", "questions", "answers", "students", "checks"):
                db.executemany(f"DELETE FROM {table} WHERE code = ?", gone)
            db.execute("DELETE FROM students WHERE seen < ?", (now - FORGET_STUDENT,))
            db.execute("DELETE FROM join_failures WHERE at <= ?", (now - JOIN_WINDOW,))
            return len(idle)


def _live(db: sqlite3.Connection, code: str, now: float) -> None:
    """ClassNotFoundError unless class `code` is live at `now`, in the transaction under way."""
    row = db.execute("SELECT ended, active FROM classes WHERE code = ?", (code,)).fetchone()
    if row is None:
        raise ClassNotFoundError("no class has this code")
    check_live(bool(row[0]), row[1], now)


def _room(db: sqlite3.Connection, table: str, code: str, limit: int, message: str) -> None:
    """ClassFullError(`message`) when class `code` has `limit` rows in `table` already."""
    (rows,) = db.execute(f"SELECT count(*) FROM {table} WHERE code = ?", (code,)).fetchone()
    if rows >= limit:
        raise ClassFullError(message)


def _end_class(db: sqlite3.Connection, code: str, question: str | None, now: float) -> None:
    """End the class in the transaction under way: its open question closes with it."""
    db.execute("UPDATE questions SET status = ? WHERE code = ? AND status = ?",
               (CLOSED, code, OPEN))
    if question and json.loads(question)["status"] == OPEN:
        question = with_status(question, CLOSED)
    db.execute("UPDATE classes SET ended = 1, ended_at = ?, question = ?,"
               " version = version + 1 WHERE code = ?", (now, question, code))
