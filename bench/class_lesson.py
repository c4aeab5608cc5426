"""A lesson taught live to a class: every step on every student's page, every answer kept.

Rerun: `.venv/bin/python -m bench.class_lesson` (options: --students 30, --steps 10,
--spread 10 (seconds over which a question's answers arrive), --gap 2 (seconds the teacher
waits after every page showed a step or a result, as bench/classroom.py's --gap: a change
within 2 s of the last waits for the students' next look, WATCH_EVERY), --timeout 30 (seconds a step
or a question may take to reach every student), --store URL (a redis:// class store;
default SQLite in a temporary folder), --browsers 5 (students in Chromium besides the
protocol ones), --smoke: 3 students, 4 steps, answers over 2 s, no browser).

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port, stopped at the end;
CLASS_DATA a temporary folder) serves, in this order:

1. A warm-up: the Attention page in English and in Chinese, closed; the server idle.
2. P: --students sessions open the page, no class (what as many sessions cost).
3. The teacher opens the lesson's link (a lesson of --steps steps, all on the Attention
   page, each a layer and head of its own and a note; every third step asks a question: a
   multiple choice, and from the second on, every other one a poll) and presses "Start a
   class"; C: --students students open the join link at once (a third in Chinese), and
   --browsers more in Chromium (one in Chinese; tests/serve.py CHROMIUM), who
   follow every step and answer no question.
4. The teacher's Next, --steps - 1 times: a rerun whose address names the next step, as
   the lesson's Next link is (explorer/app/lesson.py `follow_address`). At a step with a
   question the teacher presses "Ask the class" (`lesson_ask`); every student answers once
   (student i picks option i mod the options), their clicks spread over --spread seconds;
   the teacher reveals once their chart counts every answer.

The clients are bench/classroom.py's `Tab` (protocol clients that follow a class as the
browser does: the address, the page, the class look's timers).

Measured:
(a) each step: from the teacher's Next leaving its client to each student's page drawing
    the step's place in the lesson ("step i of n", the lesson panel's first line, in the
    student's language): p50, p95, max, and the pages that never drew it. Target: every
    step on every student's page, p95 <= 2 s, 0 never drawn.
(b) each question: Ask to the question on each page; the last answer's click to the
    teacher's chart counting all; Reveal to each student's own result. Answers: sent, kept
    by the store (its answers, read from the store after the class: one per student and
    question, each with the choice sent), lost, duplicated. Target: 0 lost, 0 duplicated,
    and what the teacher's export counts (`results_csv` of the store's tallies) equal to
    what was sent.
(c) memory (VmRSS of the server, MB): what the class with its lesson adds beyond as many
    sessions without a class, and what teaching the whole lesson adds (with the browsers'
    sessions). Target: a class with a lesson of 30 adds < 50 MB beyond as many sessions
    without one.
(d) the students in Chromium: each step, from the teacher's Next to the browser showing
    the step (the lesson panel's "step i of n", as (a)) and drawing it (with the Attention
    page's heatmap grid), and whether it still showed both just before the next Next (a
    page drawn and then emptied is blank). Target: shown p95 <= 2 s, 0 never drawn, 0
    blank. The browsers render on the server's own cores (a class's render on their own).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlencode

from bench.class_background import _all, settle
from bench.classroom import (
    MEMORY_TARGET_MB,
    P95_TARGET_S,
    PAGE,
    ZH_EVERY,
    Asked,
    Tab,
    class_server,
    question,
    quiet_memory,
    wait_for,
)
from bench.common import CHROMIUM, machine_facts, median, table
from bench.load import p95
from explorer.app.lesson import LESSON_PARAM, STEP_PARAM
from explorer.state.lesson import Lesson, Question, Step, to_link
from explorer.text.locales import en, zh
from tests.serve import CHROMIUM_ARGS

WHERE = {"en": en.TEXT["lesson.where"], "zh": zh.TEXT["lesson.where"]}
TITLE = {"en": "Bench lesson", "zh": "测试课程"}
QUESTION_EVERY = 3  # steps 3, 6, 9, ... ask a question


def bench_lesson(steps: int) -> Lesson:
    """A lesson of `steps` steps on the Attention page: a layer and head each, a note, and
    every QUESTION_EVERY-th step a question (a multiple choice; from the second on, every
    other one a poll)."""
    made = []
    for i in range(1, steps + 1):
        question = None
        if i % QUESTION_EVERY == 0:
            poll = (i // QUESTION_EVERY) % 2 == 0
            question = Question(
                "poll" if poll else "choice",
                {"en": f"Question of step {i}?", "zh": f"第 {i} 步的问题？"},
                tuple({"en": f"option {k}", "zh": f"选项 {k}"} for k in range(4)),
                None if poll else 1)
        made.append(Step("attention", {"kind": "enc", "layer": str(i % 2), "head": str(i % 4)},
                         {"en": f"The note of step {i}.", "zh": f"第 {i} 步的说明。"},
                         question))
    return Lesson(TITLE, tuple(made))


def where(lang: str, i: int, n: int) -> str:
    """The lesson panel's first line at step `i` of `n`, in `lang` (as markdown)."""
    return WHERE[lang].format(title=TITLE[lang], i=i, n=n)


# The lesson panel shows `where` (the step's place, its markdown's ** dropped): the step is
# shown, as (a) times it; and the page its heatmap grid: the step is drawn.
SHOWN = """(where) => {
  const panel = document.querySelector('.st-key-lesson_panel');
  return panel !== null && panel.innerText.includes(where);
}"""
DRAWN = """(where) => {
  const panel = document.querySelector('.st-key-lesson_panel');
  return panel !== null && panel.innerText.includes(where)
    && document.querySelector('.st-key-attn_grid .js-plotly-plot .main-svg') !== null;
}"""


@dataclass
class Browsers:
    """Students in Chromium (async Playwright): what each drew of every step."""

    pages: list = field(default_factory=list)
    langs: list[str] = field(default_factory=list)
    shown: dict[int, list[float]] = field(default_factory=dict)  # step -> waits to SHOWN
    waits: dict[int, list[float]] = field(default_factory=dict)  # step -> waits to DRAWN
    missing: dict[int, int] = field(default_factory=dict)  # step -> pages that never drew it
    blank: dict[int, int] = field(default_factory=dict)  # step -> drawn, then emptied
    drew: dict[int, list[bool]] = field(default_factory=dict)  # step -> each page drew it

    async def step(self, i: int, n: int, sent: float, timeout: float) -> None:
        """Wait for every browser to show, then draw step `i` of `n` (the Next left at
        `sent`)."""
        async def one(page, lang: str) -> tuple[float | None, float | None]:
            text, times = where(lang, i, n).replace("**", ""), []
            for condition in (SHOWN, DRAWN):
                try:
                    await page.wait_for_function(condition, arg=text, polling=50,
                                                 timeout=max(0.1, sent + timeout
                                                             - time.perf_counter()) * 1000)
                except Exception:  # noqa: BLE001 (a timeout: counted as never drawn)
                    return (times[0] if times else None), None
                times.append(time.perf_counter() - sent)
            return times[0], times[1]
        got = await asyncio.gather(*(one(p, lang) for p, lang in zip(self.pages, self.langs,
                                                                       strict=True)))
        self.shown[i] = [w for w, _ in got if w is not None]
        self.waits[i] = [w for _, w in got if w is not None]
        self.missing[i] = sum(w is None for _, w in got)
        self.drew[i] = [w is not None for _, w in got]

    async def still(self, i: int, n: int) -> None:
        """Count the browsers that drew step `i` and no longer show it (blank)."""
        shown = await asyncio.gather(*(p.evaluate(DRAWN, where(lang, i, n).replace("**", ""))
                                       for p, lang in zip(self.pages, self.langs, strict=True)))
        self.blank[i] = sum(drew and not now
                            for drew, now in zip(self.drew.get(i, []), shown, strict=False))


@dataclass
class StepShown:
    step: int
    waits: list[float]  # from the teacher's Next to each student's page drawing the step
    missing: int
    teacher_error: str


async def next_step(teacher: Tab, students: list[Tab], langs: list[str], i: int, n: int,
                    timeout: float, browsers: Browsers) -> StepShown:
    """The teacher's Next to step `i`: its address names that step."""
    for s, lang in zip(students, langs, strict=True):
        s.looking_for.add(where(lang, i, n))
    if browsers.pages:
        await browsers.still(i - 1, n)
    params = {k: v[-1] for k, v in parse_qs(teacher.query).items()}
    teacher.query = urlencode({**params, STEP_PARAM: str(i)})
    sent = time.perf_counter()
    drawn = asyncio.ensure_future(browsers.step(i, n, sent, timeout))
    try:
        mine = await teacher.run({})
        await wait_for(lambda: all(where(lang, i, n) in s.seen_text
                                   for s, lang in zip(students, langs, strict=True)), timeout)
        await drawn
    finally:
        drawn.cancel()  # (done already, unless the teacher's run failed)
    waits = [s.seen_text[where(lang, i, n)] - sent
             for s, lang in zip(students, langs, strict=True) if where(lang, i, n) in s.seen_text]
    return StepShown(i, waits, len(students) - len(waits), mine.error)


def stored(spec: str, data_dir: Path, code: str) -> list[list[int]]:
    """What the store kept: each question's choices, one per answer, read after the class
    from this process (the tallies need the teacher's key, which only the teacher's session
    holds: the answers are read from a SQLite store's table; [] for another store)."""
    from explorer.classroom.backend import open_store
    from explorer.classroom.sqlite_store import SQLiteStore

    store = open_store(spec or None, data_dir)
    try:
        if not isinstance(store, SQLiteStore):
            return []
        with store._connection() as db:
            rows = db.execute(
                "SELECT question, choice FROM answers WHERE code = ? ORDER BY question",
                (code,)).fetchall()
    finally:
        store.close()
    by_question: dict[int, list[int]] = {}
    for q, choice in rows:
        by_question.setdefault(q, []).append(choice)
    return [by_question[q] for q in sorted(by_question)]


async def run_lesson(url: str, pid: int, n: int, steps: int, spread: float, gap: float,
                     timeout: float, spec: str, data_dir: Path,
                     browsers: int = 0) -> dict[str, object]:
    """The whole run; `browsers` students in Chromium beside the protocol ones."""
    if not browsers:
        return await _run_lesson(url, pid, n, steps, spread, gap, timeout, spec, data_dir,
                                 None)
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return await _run_lesson(url, pid, n, steps, spread, gap, timeout, spec,
                                     data_dir, (chromium, browsers))
        finally:
            await chromium.close()


async def _run_lesson(url: str, pid: int, n: int, steps: int, spread: float, gap: float,
                      timeout: float, spec: str, data_dir: Path,
                      chromium: tuple | None) -> dict[str, object]:
    out: dict[str, object] = {"memory": []}
    langs = ["zh" if i % ZH_EVERY == ZH_EVERY - 1 else "en" for i in range(n)]

    def lang_query(i: int, base: str = "") -> str:
        return "&".join(x for x in (base, "lang=zh" if langs[i] == "zh" else "") if x)

    warm = [Tab(url, PAGE), Tab(url, PAGE, "lang=zh")]
    await _all([w.open() for w in warm], "warm-up")
    await asyncio.gather(*(w.close() for w in warm))
    await settle(pid, longest=30.0)
    out["memory"].append(("the server, after a warm-up", *await quiet_memory(pid, 0.0)))
    plain = [Tab(url, PAGE, lang_query(i)) for i in range(n)]
    await _all([p.open() for p in plain], "P: the page, no class")
    out["memory"].append((f"+ P: {n} sessions, no class", *await quiet_memory(pid)))

    lesson = bench_lesson(steps)
    teacher = Tab(url, PAGE, urlencode({LESSON_PARAM: to_link(lesson), STEP_PARAM: "1"}))
    await _all([teacher.open()], "the teacher opens the lesson")
    await _all([teacher.run(teacher.value("class_start", trigger_value=True))],
               "the teacher starts a class")
    code = parse_qs(teacher.query).get("class", [""])[0]
    if not code:
        raise RuntimeError(f"no class code in the teacher's address: {teacher.query!r}")
    students = [Tab(url, "", lang_query(i, f"class={code}")) for i in range(n)]
    for s, lang in zip(students, langs, strict=True):
        s.looking_for.add(where(lang, 1, steps))
    await _all([s.open() for s in students], "C: the join link")
    await wait_for(lambda: all(where(lang, 1, steps) in s.seen_text
                               for s, lang in zip(students, langs, strict=True)), timeout)
    out["first"] = sum(where(lang, 1, steps) in s.seen_text
                       for s, lang in zip(students, langs, strict=True))
    out["memory"].append((f"+ C: the class with its lesson, {n} students + teacher",
                          *await quiet_memory(pid)))
    seen = Browsers()
    if chromium is not None:  # after the memory's C: the browsers are extra students
        browser, k = chromium
        for j in range(k):
            context = await browser.new_context(viewport={"width": 1100, "height": 800})
            page = await context.new_page()
            seen.pages.append(page)
            seen.langs.append("zh" if j == k - 1 else "en")
        joined = time.perf_counter()
        await asyncio.gather(*(p.goto(f"{url}/?class={code}" + ("&lang=zh" if lang == "zh"
                                                                  else ""))
                               for p, lang in zip(seen.pages, seen.langs, strict=True)))
        await seen.step(1, steps, joined, timeout)
    shown: list[StepShown] = []
    answered: list[tuple[int, Asked]] = []  # (step, its question)
    for i in range(2, steps + 1):
        await asyncio.sleep(gap)
        shown.append(await next_step(teacher, students, langs, i, steps, timeout, seen))
        if lesson.steps[i - 1].question is not None:
            await asyncio.sleep(gap)
            # student k picks option k mod the options (bench/classroom.py `question`)
            answered.append((i, await question(teacher, students, spread, timeout,
                                               ask="lesson_ask", pick=lambda k, n: k % n)))
    if seen.pages:
        await seen.still(steps, steps)
    out["browsers"] = seen
    out["memory"].append(("+ the whole lesson taught", *await quiet_memory(pid)))
    out["shown"], out["answered"], out["code"] = shown, answered, code
    out["problems"] = [x for t in [*plain, teacher, *students]
                       for x in t.fragment_problems + t.full_problems]
    out["cut_short"] = sum(s.cut_short for s in students)
    await asyncio.gather(*(t.close() for t in [*plain, teacher, *students]))
    out["stored"] = stored(spec, data_dir, code)
    return out


def export_counts(answers: list[list[int]], choices: int) -> list[list[int]]:
    """The teacher's export (`results_csv`) of tallies holding `answers`: its count column,
    per question and choice."""
    from explorer.classroom.store import StudentAnswer, tally_of
    from explorer.sections.classroom import results_csv

    tallies = [tally_of(q + 1, "revealed", choices, None,
                        [StudentAnswer(f"s{k}", c, None, float(k)) for k, c in enumerate(got)])
               for q, got in enumerate(answers)]
    rows = list(csv.reader(io.StringIO(results_csv(tallies).decode("utf-8-sig"))))[1:]
    counts: dict[str, list[int]] = {}
    for row in rows:
        counts.setdefault(row[0], []).append(int(row[6]))
    return [counts[k] for k in sorted(counts, key=int)]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--spread", type=float, default=10.0)
    ap.add_argument("--gap", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--store", default="")
    ap.add_argument("--browsers", type=int, default=5,
                    help="students in Chromium besides the protocol ones (0: none)")
    ap.add_argument("--smoke", action="store_true",
                    help="3 students, 4 steps, answers over 2 s, no browser")
    args = ap.parse_args(argv)
    n, steps, spread = max(1, args.students), max(2, args.steps), max(0.0, args.spread)
    browsers = max(0, args.browsers)
    if args.smoke:
        n, steps, spread, browsers = 3, 4, 2.0, 0
    if browsers and not Path(CHROMIUM).exists():
        print(f"No Chromium at {CHROMIUM} (apt-get install -y chromium): no browser students")
        browsers = 0

    print(machine_facts() + "\n")
    t0 = time.perf_counter()
    with class_server(args.store, "bench-lesson-") as (url, pid, data):
        out = asyncio.run(run_lesson(url, pid, n, steps, spread, max(0.0, args.gap),
                                     args.timeout, args.store, data, browsers))
    took = time.perf_counter() - t0
    store = "Redis" if args.store else "SQLite"
    print(f"One server; a lesson of {steps} steps taught to {n} students (a third in "
          f"Chinese) on /{PAGE}; class store {store}; whole run {took:.0f} s. Step 1 on "
          f"{out['first']} / {n} pages after the join link.\n")

    # (a)
    rows, waits, missing = [], [], 0
    for s in out["shown"]:
        waits += s.waits
        missing += s.missing
        rows.append([f"step {s.step}", f"{len(s.waits)} / {n}", f"{median(s.waits):.2f}",
                     f"{p95(s.waits):.2f}", f"{max(s.waits, default=float('nan')):.2f}",
                     s.teacher_error or "-", "-", "-"])
    value = p95(waits)
    rows.append([f"all ({len(out['shown'])} steps)", f"{len(waits)} / {len(waits) + missing}",
                 f"{median(waits):.2f}", f"{value:.2f}",
                 f"{max(waits, default=float('nan')):.2f}", "-",
                 f"p95 ≤ {P95_TARGET_S:g} s, 0 never drawn",
                 "yes" if value <= P95_TARGET_S and not missing else
                 f"NO ({missing} never drawn)" if missing else f"NO (x{value / P95_TARGET_S:.1f})"])
    print("(a) The teacher's Next: to each student's page drawing the step (the lesson "
          "panel's \"step i of n\", in the student's language)\n")
    print(table(["step", "pages", "p50 s", "p95 s", "max s", "teacher's error", "target",
                 "met?"], rows))

    # (b)
    answers = out["stored"]
    q_rows = []
    lost = dup = 0
    export_ok = True
    for k, (step, a) in enumerate(out["answered"]):
        kept = answers[k] if k < len(answers) else []
        sent, got = Counter(a.sent), Counter(kept)
        lost += sum((sent - got).values())
        dup += sum((got - sent).values())
        export = export_counts([kept], 4)[0] if kept else []
        export_ok &= export == [sent.get(c, 0) for c in range(4)]
        tally = f"{a.tally:.2f}" if a.tally is not None else "never"
        q_rows.append([f"step {step}", f"{len(a.reached)} / {n}", f"{p95(a.reached):.2f}",
                       f"{len(a.sent)} / {len(kept)}", tally, f"{len(a.revealed)} / {n}",
                       f"{p95(a.revealed):.2f}", "; ".join(a.answer_errors[:2]) or "-"])
    print("\n(b) Each question: Ask -> the question on each page; answers sent / kept by "
          "the store; the last answer's click -> the teacher's chart counting all; Reveal "
          "-> each student's result\n")
    print(table(["question", "pages asked", "p95 s", "answers sent / kept",
                 "chart complete after the last s", "results shown", "p95 s", "errors"],
                q_rows))
    if answers or not out["answered"]:
        print(f"\nAnswers lost: {lost}, duplicated: {dup} (target 0, 0: "
              f"{'met' if lost == dup == 0 else 'NOT met'}); the export's counts equal what "
              f"was sent: {'yes' if export_ok else 'NO'}.")
    else:
        print("\n(the answers kept are read from a SQLite store only: not counted here)")

    # (c)
    mem = out["memory"]
    base, plain, with_class, taught = (m[1] for m in mem)
    adds = (with_class - plain) - (plain - base)
    print("\n(c) Memory of the server (VmRSS, MB)\n")
    print(table(["after", "RSS MB", "added", "target", "met?"], [
        *[[name, f"{rss:.1f}", f"{rss - mem[i - 1][1]:+.1f}" if i else "-", "-", "-"]
          for i, (name, rss, _) in enumerate(mem)],
        ["the class with its lesson adds (C's growth - P's)", "-", f"{adds:+.1f}",
         f"< {MEMORY_TARGET_MB:g} MB", "yes" if adds < MEMORY_TARGET_MB else "NO"]]))
    # (d)
    seen: Browsers = out["browsers"]
    if seen.pages:
        b_rows, never, blank = [], 0, 0
        for i in sorted(seen.waits):
            w, shown, gone = seen.waits[i], seen.shown[i], seen.blank.get(i, 0)
            never += seen.missing[i]
            blank += gone
            b_rows.append([f"step {i}" + (" (the join link)" if i == 1 else ""),
                           f"{len(w)} / {len(seen.pages)}", f"{p95(shown):.2f}",
                           f"{median(w):.2f}", f"{p95(w):.2f}",
                           f"{max(w, default=float('nan')):.2f}", str(gone), "-", "-"])
        later = [x for i in seen.waits if i > 1 for x in seen.waits[i]]
        later_shown = [x for i in seen.shown if i > 1 for x in seen.shown[i]]
        value = p95(later_shown)
        ok = value <= P95_TARGET_S and not never and not blank
        b_rows.append([f"steps 2-{steps} (never, blank: all steps)",
                       f"{len(later)} / {len(seen.pages) * (steps - 1)}",
                       f"{value:.2f}", f"{median(later):.2f}", f"{p95(later):.2f}",
                       f"{max(later, default=float('nan')):.2f}", str(blank),
                       f"shown p95 ≤ {P95_TARGET_S:g} s, 0 never drawn, 0 blank",
                       "yes" if ok else "NO"])
        print(f"\n(d) {len(seen.pages)} students in Chromium (one in Chinese), on the "
              f"server's own {os.cpu_count()} cores: the teacher's Next -> the browser "
              "showing the step (the lesson panel's \"step i of n\", as (a)) and drawing it "
              "(with the heatmap grid); blank: drawn, then no longer shown just before the "
              "next Next\n")
        print(table(["step", "browsers", "shown p95 s", "drawn p50 s", "drawn p95 s",
                     "drawn max s", "blank", "target", "met?"], b_rows))

    problems = out["problems"] + [e for _, a in out["answered"] for e in a.answer_errors]
    print(f"\nStudents' full runs left unfinished (another run's new_session first): "
          f"{out['cut_short']}. Errors ({len(problems)}; first 5): "
          + (" | ".join(problems[:5]) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
