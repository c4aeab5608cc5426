"""The class store in Redis, for an app that runs as several replicas (CLASS_STORE=redis://…).

One hash per class holds everything `state` returns, so a student's poll is one HMGET
(`version` one HGET). A teacher's change runs in a WATCH/MULTI transaction on that hash:
what it checked (the key, the class live) still holds when it writes, or it retries.
An answer is an HSETNX (one per student) in a transaction that watches the question's
hash, so an answer never lands after the question closed or was revealed: ending, asking
anew and revealing all write that hash.

The rules run on the `now` handed in, as in SQLite: two sorted sets (live classes by last
activity, ended ones by end time) let `expire` find what to end and what to forget.
Every key also has a TTL refreshed while the teacher is active, so a store that nobody
calls `expire` on empties itself.

    {prefix}{code}            hash: digest, view, version, question, question_id, ended, active
    {prefix}{code}:students   hash: student id -> "seen|following|step" (no step: "")
    {prefix}{code}:q:{id}     hash: choices, truth, status, results, prompt, labels, closes
    {prefix}{code}:a:{id}     hash: student id -> JSON [choice, nickname, time]
    {prefix}{code}:checks     hash: "lesson|student id|step" -> JSON [choice, right, nickname,
                              time, tries, label] (a student-paced lesson's self-checks;
                              kept before labels were: five items)
    {prefix}{code}:names      hash: student id -> the nickname of their last self-check
    {prefix}live, {prefix}ended   sorted sets of codes
    {prefix}join:{client}     sorted set: the client's wrong codes (and tries under way), by time
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

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

PREFIX = "transformer-explorer:class:"
MARGIN = 600  # seconds a key outlives the rules' deadline, for clocks a little apart
LIVE_TTL = int(IDLE_LIMIT + ENDED_KEEP) + MARGIN
ENDED_TTL = int(ENDED_KEEP) + MARGIN
_FIELDS = ("digest", "view", "version", "question", "question_id", "ended", "active")


@dataclass(frozen=True)
class _Class:
    digest: bytes
    view: str
    version: int
    question: str | None
    question_id: int
    ended: bool
    active: float


class RedisStore(ClassStore):
    def __init__(self, url: str, prefix: str = PREFIX):
        self._r = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10,
                                       socket_connect_timeout=10)
        self._p = prefix
        self._r.ping()  # a wrong address fails here, when the app starts, not in a class

    def close(self) -> None:
        self._r.close()

    # -- key names --

    def _class(self, code: str) -> str:
        return f"{self._p}{code}"

    def _students(self, code: str) -> str:
        return f"{self._p}{code}:students"

    def _question(self, code: str, question_id: int) -> str:
        return f"{self._p}{code}:q:{question_id}"

    def _answers(self, code: str, question_id: int) -> str:
        return f"{self._p}{code}:a:{question_id}"

    def _checks(self, code: str) -> str:
        return f"{self._p}{code}:checks"

    def _names(self, code: str) -> str:
        return f"{self._p}{code}:names"

    def _keys(self, code: str, question_ids: int) -> list[str]:
        return [self._class(code), self._students(code), self._checks(code), self._names(code),
                *(key for i in range(1, question_ids + 1)
                  for key in (self._question(code, i), self._answers(code, i)))]

    # -- reading a class --

    def _fetch(self, client: Any, code: str) -> _Class | None:
        values = client.hmget(self._class(code), _FIELDS)
        if values[2] is None:
            return None
        digest, view, version, question, question_id, ended, active = values
        return _Class(digest=bytes.fromhex(digest or ""), view=view, version=int(version),
                      question=question or None, question_id=int(question_id),
                      ended=ended == "1", active=float(active))

    def _teacher(self, client: Any, code: str, teacher_key: str,
                 now: float | None) -> _Class:
        """The class for its teacher; live (unless `now` is None) or an error."""
        found = self._fetch(client, code)
        if found is None:
            raise ClassNotFoundError("no class has this code")
        if not is_teacher(found.digest, teacher_key):
            raise NotTeacherError("wrong teacher key")
        if now is not None:
            check_live(found.ended, found.active, now)
        return found

    def _change(self, code: str, teacher_key: str, now: float,
                change: Callable[[Any, _Class], Any], *watched: str) -> Any:
        """Run `change(pipe, class)` for the live class's teacher in one transaction that
        watches the class and `watched`; `change` queues its writes after `pipe.multi()`."""
        def run(pipe: Any) -> Any:
            return change(pipe, self._teacher(pipe, code, teacher_key, now))
        return self._r.transaction(run, self._class(code), *watched, value_from_callable=True)

    def _touch(self, pipe: Any, code: str, found: _Class, now: float) -> None:
        """Queue "the teacher is here": the activity time and, at most every TOUCH_EVERY
        seconds, the TTL of every key of the class (two per question) renewed."""
        active = max(found.active, now)
        pipe.hset(self._class(code), "active", repr(active))
        pipe.zadd(f"{self._p}live", {code: active})
        if now - found.active >= TOUCH_EVERY:
            for key in self._keys(code, found.question_id):
                pipe.expire(key, LIVE_TTL)

    # -- the back end --

    def _create(self, code: str, digest: bytes, now: float) -> bool:
        def create(pipe: Any) -> bool:
            if pipe.exists(self._class(code)):
                return False
            pipe.multi()
            pipe.hset(self._class(code), mapping={
                "digest": digest.hex(), "view": "{}", "version": 1, "question": "",
                "question_id": 0, "ended": "0", "active": repr(now)})
            pipe.expire(self._class(code), LIVE_TTL)
            pipe.zadd(f"{self._p}live", {code: now})
            return True
        return self._r.transaction(create, self._class(code), value_from_callable=True)

    def _read(self, code: str) -> Record | None:
        found = self._fetch(self._r, code)
        if found is None:
            return None
        state = make_state(code, found.version, found.view, found.question, found.ended)
        return Record(state, found.active)

    def _version(self, code: str) -> int | None:
        version = self._r.hget(self._class(code), "version")
        return int(version) if version is not None else None

    def _tried(self, client: Any, key: str, now: float) -> list[float]:
        return [at for _, at in client.zrangebyscore(key, f"({now - JOIN_WINDOW!r}", "+inf",
                                                     withscores=True)]

    def _join(self, code: str, client: str, now: float) -> ClassState | None:
        key = f"{self._p}join:{client}"
        mark = f"{now!r}:{secrets.token_hex(4)}"

        def take_turn(pipe: Any) -> None:
            wait = join_wait(self._tried(pipe, key, now), now)
            if wait > 0:
                raise RateLimitedError(wait)
            pipe.multi()
            pipe.zremrangebyscore(key, "-inf", now - JOIN_WINDOW)
            pipe.zadd(key, {mark: now})
            pipe.expire(key, int(2 * JOIN_WINDOW))
        # The try is written as a wrong one before its code is read: a try of the same
        # client at the same moment (another replica) conflicts, runs again and sees it;
        # a right code takes it back. So no two codes of one client are read at once.
        self._r.transaction(take_turn, key)
        found = self._fetch(self._r, code)
        if found is None or found.ended or now - found.active > IDLE_LIMIT:
            return None
        self._r.zrem(key, mark)
        return make_state(code, found.version, found.view, found.question, False)

    def _next_try(self, client: str, now: float) -> float:
        return join_wait(self._tried(self._r, f"{self._p}join:{client}", now), now)

    def _nickname(self, code: str, student_id: str) -> str | None:
        last = self._last_question(code)
        if not last:
            return None
        with self._r.pipeline(transaction=False) as pipe:
            for question_id in range(last, 0, -1):  # the latest answer first
                pipe.hget(self._answers(code, question_id), student_id)
            for value in pipe.execute():
                if value:
                    return json.loads(value)[1]
        return None

    def _last_question(self, code: str) -> int:
        """The id of the class's last question (0: none asked)."""
        return int(self._r.hget(self._class(code), "question_id") or 0)

    def _steer(self, code: str, teacher_key: str, view: str, now: float) -> int:
        def steer(pipe: Any, found: _Class) -> int:
            pipe.multi()
            self._touch(pipe, code, found, now)
            if view == found.view:
                return found.version
            pipe.hset(self._class(code), mapping={"view": view, "version": found.version + 1})
            return found.version + 1
        return self._change(code, teacher_key, now, steer)

    def _heartbeat(self, code: str, student_id: str, following: bool, now: float,
                   step: int | None) -> None:
        key = self._students(code)
        with self._r.pipeline(transaction=False) as pipe:
            pipe.hmget(self._class(code), ("ended", "active"))
            pipe.hlen(key)
            pipe.hexists(key, student_id)
            (ended, active), students, known = pipe.execute()
        if active is None:
            raise ClassNotFoundError("no class has this code")
        check_live(ended == "1", float(active), now)
        if not known and students >= MAX_STUDENTS:
            raise ClassFullError("the class is full")
        with self._r.pipeline(transaction=False) as pipe:
            pipe.hset(key, student_id,
                      f"{now!r}|{int(following)}|{'' if step is None else step}")
            pipe.expire(key, LIVE_TTL)
            pipe.execute()

    def _roster(self, code: str, teacher_key: str, now: float) -> Roster:
        found = self._teacher(self._r, code, teacher_key, None)
        students = self._r.hgetall(self._students(code))
        connected = following = 0
        forgotten, seen_now, follows_now, steps = [], [], [], []
        for student, value in students.items():
            seen, follows, *step = value.split("|")  # a value kept before steps has none
            if float(seen) >= now - CONNECTED:
                connected += 1
                following += follows == "1"
                seen_now.append(student)
                follows_now.append(follows == "1")
                steps.append(int(step[0]) if step and step[0].isdigit() else None)
            elif float(seen) < now - FORGET_STUDENT:
                forgotten.append(student)
        if forgotten:
            self._r.hdel(self._students(code), *forgotten)
        if not found.ended and TOUCH_EVERY <= now - found.active <= IDLE_LIMIT:
            try:
                self._change(code, teacher_key, now,
                             lambda pipe, live: (pipe.multi(), self._touch(pipe, code, live, now)))
            except ClassNotFoundError:
                pass  # it ended in the meantime: nothing to keep alive
        # names only for those the roster names: explorers, and everyone on a step of a
        # student-paced lesson (in a class that follows its teacher, nearly no one)
        named = [i for i, (f, step) in enumerate(zip(follows_now, steps, strict=True))
                 if not f or step is not None]
        found_names = self._nicknames(code, found.question_id, [seen_now[i] for i in named])
        names: list[str | None] = [None] * len(seen_now)
        for i, name in zip(named, found_names, strict=True):
            names[i] = name
        explorers = (n for n, f in zip(names, follows_now, strict=True) if not f)
        return Roster(connected=connected, following=following,
                      exploring=connected - following, explorers=explorers_of(explorers),
                      steps=steps_of(zip(steps, names, strict=True)))

    def _nicknames(self, code: str, questions: int, students: list[str]) -> list[str | None]:
        """Each student's nickname as last given with an answer, or else with a self-check
        (None: never given)."""
        if not students:
            return []
        with self._r.pipeline(transaction=False) as pipe:
            for question_id in range(1, questions + 1):
                pipe.hmget(self._answers(code, question_id), students)
            pipe.hmget(self._names(code), students)
            *answered, checked = pipe.execute()
        names: list[str | None] = list(checked)
        for i, value in enumerate(names):
            names[i] = value or None
        for row in answered:  # oldest question first: a later name wins
            for i, value in enumerate(row):
                nickname = json.loads(value)[1] if value else None
                if nickname:
                    names[i] = nickname
        return names

    def _ask(self, code: str, teacher_key: str, question: Question, now: float) -> int:
        def ask(pipe: Any, found: _Class) -> int:
            question_id = found.question_id + 1
            pipe.multi()
            self._touch(pipe, code, found, now)
            if found.question and json.loads(found.question)["status"] == OPEN:
                pipe.hset(self._question(code, found.question_id), "status", CLOSED)
            key = self._question(code, question_id)
            pipe.hset(key, mapping={
                "choices": len(question.choices), "status": OPEN,
                "truth": "" if question.truth is None else question.truth, "results": "",
                "prompt": question.prompt, "labels": json.dumps(list(question.choices))})
            pipe.expire(key, LIVE_TTL)
            pipe.hset(self._class(code), mapping={
                "question_id": question_id, "version": found.version + 1,
                "question": public_json(question_id, question, OPEN)})
            return question_id
        # the open question's hash is watched by answers in flight: closing it stops them
        found = self._fetch(self._r, code)
        watched = [self._question(code, found.question_id)] if found else []
        return self._change(code, teacher_key, now, ask, *watched)

    def _answer(self, code: str, question_id: int, student_id: str, choice: int,
                nickname: str | None, now: float) -> None:
        question_key = self._question(code, question_id)
        answers_key = self._answers(code, question_id)

        def answer(pipe: Any) -> None:
            ended, active = pipe.hmget(self._class(code), ("ended", "active"))
            if active is None:
                raise ClassNotFoundError("no class has this code")
            check_live(ended == "1", float(active), now)
            choices, status, closes = pipe.hmget(question_key, ("choices", "status", "closes"))
            if status != OPEN:
                raise QuestionClosedError("the question is not open")
            if closes is not None and now >= float(closes):
                raise QuestionClosedError("the countdown is over")
            if not 0 <= choice < int(choices):
                raise InvalidAnswerError("no such choice")
            pipe.multi()
            pipe.hsetnx(answers_key, student_id, json.dumps([choice, nickname, now]))
            pipe.expire(answers_key, LIVE_TTL)
        added, _ = self._r.transaction(answer, question_key)
        if not added:
            raise AlreadyAnsweredError("one answer per student")

    def _answer_list(self, client: Any, code: str, question_id: int) -> list:
        """(choice, nickname) of every answer (stored as [choice, nickname, time])."""
        return [tuple(json.loads(value)[:2])
                for value in client.hvals(self._answers(code, question_id))]

    def _student_answers(self, code: str, question_id: int) -> list[StudentAnswer]:
        return [StudentAnswer(student, *_answer_fields(json.loads(value)))
                for student, value in self._r.hgetall(self._answers(code, question_id)).items()]

    def _tally(self, code: str, teacher_key: str, question_id: int) -> Tally:
        self._teacher(self._r, code, teacher_key, None)
        question = self._r.hgetall(self._question(code, question_id))
        if not question:
            raise QuestionClosedError("no such question")
        answers = self._student_answers(code, question_id)
        return tally_of(question_id, question["status"], int(question["choices"]),
                        _truth(question["truth"]), answers, question.get("prompt", ""),
                        tuple(json.loads(question.get("labels") or "[]")))

    def _reveal(self, code: str, teacher_key: str, question_id: int, now: float,
                truth: int | None) -> Results:
        question_key = self._question(code, question_id)

        def reveal(pipe: Any, found: _Class) -> Results:
            question = pipe.hgetall(question_key)
            if not question:
                raise QuestionClosedError("no such question")
            asked = _truth(question["truth"])
            if question["status"] == REVEALED:
                return results_from_json(question_id, asked, question["results"])
            shown_truth = revealed_truth(asked, truth, int(question["choices"]))
            counts, answered = count(self._answer_list(pipe, code, question_id),
                                     int(question["choices"]))
            results = json.dumps({"counts": counts, "answered": answered})
            pipe.multi()
            self._touch(pipe, code, found, now)
            pipe.hset(question_key, mapping={
                "status": REVEALED, "results": results,
                "truth": "" if shown_truth is None else shown_truth})
            shown = (with_status(found.question, REVEALED)
                     if question_id == found.question_id else found.question or "")
            pipe.hset(self._class(code), mapping={"question": shown,
                                                  "version": found.version + 1})
            return results_from_json(question_id, shown_truth, results)
        return self._change(code, teacher_key, now, reveal, question_key,
                            self._answers(code, question_id))

    def _close_at(self, code: str, teacher_key: str, question_id: int, at: float,
                  now: float) -> None:
        question_key = self._question(code, question_id)

        def close_at(pipe: Any, found: _Class) -> None:
            if pipe.hget(question_key, "status") != OPEN:
                return
            pipe.multi()
            pipe.hset(question_key, "closes", repr(at))
        # an answer in flight watches the question's hash: it is checked against `at` again
        self._change(code, teacher_key, now, close_at, question_key)

    def _close_answers(self, code: str, teacher_key: str, question_id: int,
                       now: float) -> None:
        question_key = self._question(code, question_id)

        def close(pipe: Any, found: _Class) -> None:
            if pipe.hget(question_key, "status") != OPEN:
                return
            pipe.multi()
            self._touch(pipe, code, found, now)
            pipe.hset(question_key, "status", CLOSED)
            if question_id == found.question_id and found.question:
                pipe.hset(self._class(code), mapping={
                    "question": with_status(found.question, CLOSED),
                    "version": found.version + 1})
        # an answer in flight watches the question's hash: closing it stops that answer
        self._change(code, teacher_key, now, close, question_key)

    def _results(self, code: str, question_id: int) -> Results | None:
        truth, status, results = self._r.hmget(self._question(code, question_id),
                                               ("truth", "status", "results"))
        if status != REVEALED:
            return None
        return results_from_json(question_id, _truth(truth), results)

    def _answer_of(self, code: str, question_id: int, student_id: str) -> int | None:
        value = self._r.hget(self._answers(code, question_id), student_id)
        return int(json.loads(value)[0]) if value else None

    def _check(self, code: str, student_id: str, lesson: str, step: int, choice: int,
               right: bool | None, nickname: str | None, now: float,
               label: str | None) -> None:
        key, field = self._checks(code), f"{lesson}|{student_id}|{step}"

        def check(pipe: Any) -> None:  # watches the class and its checks (tries, the end)
            ended, active = pipe.hmget(self._class(code), ("ended", "active"))
            if active is None:
                raise ClassNotFoundError("no class has this code")
            check_live(ended == "1", float(active), now)
            if not pipe.hexists(self._students(code), student_id):
                raise ClassNotFoundError("not a student of this class")
            kept = pipe.hget(key, field)
            if kept is None:  # a new step: the bounds (the student's over every lesson)
                fields = pipe.hkeys(key)
                if sum(f.split("|")[1] == student_id for f in fields) >= MAX_CHECKS_EACH:
                    raise ClassFullError("the student has no more self-checks")
                if len(fields) >= MAX_CHECKS:
                    raise ClassFullError("the class keeps no more self-checks")
            tries = json.loads(kept)[4] + 1 if kept else 1
            pipe.multi()
            pipe.hset(key, field, json.dumps([choice, right, nickname, now, tries, label]))
            pipe.expire(key, LIVE_TTL)
            if nickname is not None:
                pipe.hset(self._names(code), student_id, nickname)
                pipe.expire(self._names(code), LIVE_TTL)
        self._r.transaction(check, key, self._class(code))

    def _checks_of(self, code: str, student_id: str, lesson: str) -> dict[int, int]:
        mine = f"{lesson}|{student_id}|"
        return {int(field[len(mine):]): json.loads(value)[0]
                for field, value in self._r.hscan_iter(self._checks(code), match=mine + "*")}

    def _self_checks(self, code: str, teacher_key: str, lesson: str) -> list[SelfCheck]:
        self._teacher(self._r, code, teacher_key, None)
        kept = []
        for field, value in self._r.hgetall(self._checks(code)).items():
            named, student, step = field.split("|")
            if named == lesson:
                choice, right, nickname, at, tries, *label = json.loads(value)
                kept.append(SelfCheck(student, int(step), choice, right, nickname, at, tries,
                                      label[0] if label else None))
        return kept

    def _end(self, code: str, teacher_key: str, now: float) -> None:
        found = self._fetch(self._r, code)
        watched = [self._question(code, found.question_id)] if found else []

        def end(pipe: Any) -> None:
            current = self._teacher(pipe, code, teacher_key, None)
            if not current.ended:
                self._end_class(pipe, code, current, now)
        self._r.transaction(end, self._class(code), *watched)

    def _end_class(self, pipe: Any, code: str, found: _Class, now: float) -> None:
        """In a transaction watching the class and its last question: end it."""
        question = found.question or ""
        pipe.multi()
        if question and json.loads(question)["status"] == OPEN:
            question = with_status(question, CLOSED)
            pipe.hset(self._question(code, found.question_id), "status", CLOSED)
        pipe.hset(self._class(code), mapping={"ended": "1", "question": question,
                                              "version": found.version + 1})
        pipe.zrem(f"{self._p}live", code)
        pipe.zadd(f"{self._p}ended", {code: now})
        for key in self._keys(code, found.question_id):
            pipe.expire(key, ENDED_TTL)

    def expire(self, now: float) -> int:
        ended = 0
        for code in self._r.zrangebyscore(f"{self._p}live", "-inf", f"({now - IDLE_LIMIT!r}"):
            found = self._fetch(self._r, code)
            watched = [self._question(code, found.question_id)] if found else []

            def end_idle(pipe: Any, code: str = code) -> bool:
                current = self._fetch(pipe, code)
                if current is None or current.ended:
                    pipe.multi()
                    pipe.zrem(f"{self._p}live", code)
                    return False
                if now - current.active <= IDLE_LIMIT:
                    return False  # the teacher came back since the set was read
                self._end_class(pipe, code, current, now)
                return True
            ended += self._r.transaction(end_idle, self._class(code), *watched,
                                         value_from_callable=True)
        for code in self._r.zrangebyscore(f"{self._p}ended", "-inf", f"({now - ENDED_KEEP!r}"):
            found = self._fetch(self._r, code)
            with self._r.pipeline() as pipe:
                pipe.delete(*self._keys(code, found.question_id if found else 0))
                pipe.zrem(f"{self._p}ended", code)
                pipe.execute()
        return ended


def _truth(stored: str | None) -> int | None:
    return int(stored) if stored else None


def _answer_fields(stored: list) -> tuple[int, str | None, float]:
    """An answer as stored: [choice, nickname, time] (an answer kept before times were
    stored has none: 0)."""
    return int(stored[0]), stored[1], float(stored[2]) if len(stored) > 2 else 0.0
