"""A student-paced lesson: 30 students move through it on their own; is the teacher's roster
current?

Rerun: `.venv/bin/python -m bench.class_paced` (options: --students 30, --steps 10, --pace 4
(mean seconds between one student's Next clicks, drawn at random, seeded), --timeout 30
(seconds a step may take to reach a student's page, or the roster to count a move), --store
URL (a redis:// class store; default SQLite in a temporary folder), --smoke: 3 students, 4
steps, a Next every second).

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port, stopped at the end;
CLASS_DATA a temporary folder) serves, in this order:

1. A warm-up: the Attention page in English and in Chinese, closed.
2. The teacher opens bench/class_lesson.py's lesson (--steps steps on the Attention page),
   presses "Start a class" and switches "Students move at their own pace" on; --students
   students open the join link at once (a third in Chinese) and land on step 1.
3. Every student clicks Next --steps - 1 times, each after a gap drawn from an exponential
   of mean --pace seconds: a rerun whose address names their next step, as the lesson's
   Next link is (explorer/app/lesson.py `follow_address`). The students move independently,
   so several move at once.
4. The teacher's page is never touched: its roster (a timed fragment, every
   ROSTER_PACED_EVERY in a student-paced lesson) says how many students are on each step
   (explorer/sections/classroom.py `steps_line`).

Measured:
(a) each Next: to the student's page drawing the step ("step i of n", in their language):
    p50, p95, max, never drawn.
(b) each Next: to the teacher's roster counting it. The roster shows counts per step, not
    who; every Next adds one to the sum over students of (step - 1), so the m-th Next sent
    is counted once the roster's sum reaches m (moves counted out of order make this a
    slight underestimate for one and an overestimate for another; the sum is exact).
    Target: p95 <= 2 s, and the last roster equal to where the students are (all on the
    last step, none missing).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode

from bench.class_background import _all, settle
from bench.class_lesson import bench_lesson, where
from bench.classroom import P95_TARGET_S, PAGE, ZH_EVERY, Tab, class_server, wait_for
from bench.common import machine_facts, median, table
from bench.load import p95
from explorer.app.classroom import ROSTER_PACED_EVERY
from explorer.app.lesson import LESSON_PARAM, STEP_PARAM
from explorer.sections.lesson_class import PACE_TOGGLE
from explorer.state.lesson import to_link
from explorer.text.locales import en

STEPS_PREFIX = en.TEXT["class.roster_steps"].split("{")[0]  # the teacher reads English
STEP_COUNT = re.compile(re.escape(en.TEXT["class.roster_step"]).replace(
    r"\{i\}", r"(\d+)").replace(r"\{n\}", r"(\d+)"))


def roster_counts(text: str) -> dict[int, int]:
    """The roster line's students per step (from 1), as `steps_line` wrote it in English."""
    return {int(i): int(n) for i, n in STEP_COUNT.findall(text.removeprefix(STEPS_PREFIX))}


class Teacher(Tab):
    """The teacher's tab: every roster line its page draws, with when it arrived."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rosters: list[tuple[float, dict[int, int]]] = []

    def _on(self, msg, kb: float) -> None:
        super()._on(msg, kb)
        if msg.WhichOneof("type") == "delta" and \
                msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            if el.WhichOneof("type") == "markdown" and el.markdown.body.startswith(
                    STEPS_PREFIX):
                self.rosters.append((time.perf_counter(), roster_counts(el.markdown.body)))


@dataclass
class Move:
    student: int
    step: int  # the step moved to (from 1)
    sent: float  # perf_counter as its rerun left the client
    drawn: float | None = None  # ... as the student's page drew the step
    counted: float | None = None  # ... as the teacher's roster counted it (see (b))
    error: str = ""


@dataclass
class Outcome:
    moves: list[Move] = field(default_factory=list)
    first: int = 0  # students whose page drew step 1 after the join link
    last_roster: dict[int, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


async def walk(s: Tab, k: int, lang: str, steps: int, pace: float, rng: random.Random,
               timeout: float, moves: list[Move]) -> None:
    """Student `k` clicks Next through the lesson, a random gap before each click."""
    for i in range(2, steps + 1):
        await asyncio.sleep(rng.expovariate(1 / pace) if pace > 0 else 0.0)
        shows = where(lang, i, steps)
        s.looking_for.add(shows)
        params = {key: v[-1] for key, v in parse_qs(s.query).items()}
        s.query = urlencode({**params, STEP_PARAM: str(i)})
        move = Move(k, i, time.perf_counter())
        moves.append(move)
        result = await s.run({})
        move.error = result.error
        await wait_for(lambda shows=shows: shows in s.seen_text, timeout)
        move.drawn = s.seen_text.get(shows)


def counted_at(moves: list[Move], rosters: list[tuple[float, dict[int, int]]]) -> None:
    """Each move's time counted by the roster (`Move.counted`, see (b) above)."""
    for m, move in enumerate(sorted(moves, key=lambda x: x.sent), start=1):
        for at, counts in rosters:
            if at >= move.sent and sum((i - 1) * n for i, n in counts.items()) >= m:
                move.counted = at
                break


async def run_paced(url: str, pid: int, n: int, steps: int, pace: float,
                    timeout: float) -> Outcome:
    out = Outcome()
    langs = ["zh" if i % ZH_EVERY == ZH_EVERY - 1 else "en" for i in range(n)]
    warm = [Tab(url, PAGE), Tab(url, PAGE, "lang=zh")]
    await _all([w.open() for w in warm], "warm-up")
    await asyncio.gather(*(w.close() for w in warm))
    await settle(pid, longest=30.0)

    lesson = bench_lesson(steps)
    name = to_link(lesson)
    teacher = Teacher(url, PAGE, urlencode({LESSON_PARAM: name, STEP_PARAM: "1"}))
    await _all([teacher.open()], "the teacher opens the lesson")
    await _all([teacher.run(teacher.value("class_start", trigger_value=True))],
               "the teacher starts a class")
    await _all([teacher.run(teacher.value(PACE_TOGGLE, bool_value=True))],
               "the teacher makes the lesson student-paced")
    code = parse_qs(teacher.query).get("class", [""])[0]
    if not code:
        raise RuntimeError(f"no class code in the teacher's address: {teacher.query!r}")
    students = [Tab(url, "", "&".join(x for x in (
        f"class={code}", "lang=zh" if lang == "zh" else "") if x)) for lang in langs]
    for s, lang in zip(students, langs, strict=True):
        s.looking_for.add(where(lang, 1, steps))
    await _all([s.open() for s in students], "the join link")
    await wait_for(lambda: all(where(lang, 1, steps) in s.seen_text
                               for s, lang in zip(students, langs, strict=True)), timeout)
    out.first = sum(where(lang, 1, steps) in s.seen_text
                    for s, lang in zip(students, langs, strict=True))
    # the roster counts every student on step 1 before anyone moves
    await wait_for(lambda: bool(teacher.rosters) and teacher.rosters[-1][1] == {1: n}, timeout)
    if not teacher.rosters or teacher.rosters[-1][1] != {1: n}:
        out.problems.append(f"the roster never counted {n} on step 1")

    rng = random.Random(0)
    seeds = [random.Random(rng.random()) for _ in students]
    await asyncio.gather(*(walk(s, k, lang, steps, pace, seeds[k], timeout, out.moves)
                           for k, (s, lang) in enumerate(zip(students, langs, strict=True))))
    # the roster catches up with the last moves
    await wait_for(lambda: bool(teacher.rosters) and teacher.rosters[-1][1] == {steps: n},
                   timeout)
    out.last_roster = teacher.rosters[-1][1] if teacher.rosters else {}
    counted_at(out.moves, teacher.rosters)
    out.problems += [x for t in [teacher, *students] for x in t.fragment_problems
                     + t.full_problems]
    await asyncio.gather(*(t.close() for t in [teacher, *students]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--pace", type=float, default=4.0)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--store", default="")
    ap.add_argument("--smoke", action="store_true", help="3 students, 4 steps, a Next a second")
    args = ap.parse_args(argv)
    n, steps, pace = max(1, args.students), max(2, args.steps), max(0.0, args.pace)
    if args.smoke:
        n, steps, pace = 3, 4, 1.0

    print(machine_facts() + "\n")
    t0 = time.perf_counter()
    with class_server(args.store, "bench-paced-") as (url, pid, _):
        out = asyncio.run(run_paced(url, pid, n, steps, pace, args.timeout))
    took = time.perf_counter() - t0
    store = "Redis" if args.store else "SQLite"
    print(f"One server; a student-paced lesson of {steps} steps, {n} students (a third in "
          f"Chinese) each clicking Next every {pace:g} s on average (random, seeded) on "
          f"/{PAGE}; the teacher's roster redrawn every {ROSTER_PACED_EVERY:g} s; class store "
          f"{store}; whole run {took:.0f} s. Step 1 on {out.first} / {n} pages after the "
          f"join link.\n")

    moves = out.moves
    drawn = [m.drawn - m.sent for m in moves if m.drawn is not None]
    counted = [m.counted - m.sent for m in moves if m.counted is not None]
    never_drawn = len(moves) - len(drawn)
    never_counted = len(moves) - len(counted)
    truth = {steps: n}
    value = p95(counted)
    ok = value <= P95_TARGET_S and not never_counted and out.last_roster == truth
    rows = [
        ["(a) Next -> the student's page draws the step", f"{len(drawn)} / {len(moves)}",
         f"{median(drawn):.2f}", f"{p95(drawn):.2f}", f"{max(drawn, default=float('nan')):.2f}",
         "-", "-"],
        ["(b) Next -> the teacher's roster counts it", f"{len(counted)} / {len(moves)}",
         f"{median(counted):.2f}", f"{value:.2f}", f"{max(counted, default=float('nan')):.2f}",
         f"p95 ≤ {P95_TARGET_S:g} s, every move",
         "yes" if ok else "NO"],
    ]
    print(table(["measure", "moves", "p50 s", "p95 s", "max s", "target", "met?"], rows))
    print(f"\nThe last roster: {out.last_roster} (students per step; the truth {truth}: "
          f"{'equal' if out.last_roster == truth else 'NOT equal'}). Never drawn: "
          f"{never_drawn}; never counted: {never_counted}. Errors "
          f"({len(out.problems) + sum(bool(m.error) for m in moves)}; first 5): "
          + (" | ".join([*out.problems, *(m.error for m in moves if m.error)][:5]) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
