"""A class following its teacher: how soon students see a change, what following costs.

Rerun: `.venv/bin/python -m bench.classroom` (options: --students 30, --changes 5,
--idle 30 (seconds of each idle window), --gap 2 (seconds between a change seen by every
student and the next), --timeout 30 (seconds a change may take to reach every student),
--store URL (a redis:// class store; default SQLite in a temporary folder), --page
attention (the page everyone is on), --spread 10 (seconds over which the students' answers
to a question arrive), --smoke: 3 students, 1 change, 5 s idle windows, answers over 2 s,
under a minute).

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port, stopped at the end;
CLASS_DATA a temporary folder, so the class store is a fresh SQLite file) serves, in one
run and in this order:

1. A warm-up: the page (--page, /attention by default) in English and in Chinese (a fresh
   server's first runs import torch and plotly and fill the shared caches); then the
   server alone, idle.
2. P: --students sessions open the page (a third of them with ?lang=zh), no class.
3. The teacher opens the page and presses "Start a class" (sidebar, `class_start`); the
   class code is read from the address the server writes (page_info_changed, ?class=CODE).
4. C: --students students open /?class=CODE (a third with &lang=zh), all at once, as a
   class does from the join link: the app joins them and switches them to the teacher's
   page (explorer/app/classroom.py `follow`). P stays open.
5. P2: --students more sessions without a class (as in 2), opened last, to see what the
   order of opening does to the memory figures.
6. The teacher changes the sentence (`source`) --changes times, each once every student
   has shown the last one, --gap seconds apart.
7. On the Attention page: the teacher asks "where will it look?" (`class_ask`); once every
   student's page shows the question, each answers once (`class_send`), the clicks spread
   evenly over --spread seconds; then the teacher reveals (`class_reveal`).

The clients are the protocol clients of bench/class_background.py (`Pupil`: one reader per
websocket, fragments announced with run_every rerun on timers as Streamlit's frontend
does), extended here (`Tab`) with what following needs: the query string the browser
sends (it carries ?class=CODE on the first run, and then what the server wrote into the
address), and the page that runs (the navigation message's page hash, which every later
rerun carries: a server-side st.switch_page moves it). A following student's class panel
asks for its `_watch` fragment every 2 s (explorer/app/classroom.py WATCH_EVERY); a run
of it waits about 8 s for the class to change (WAIT_FOR; it answers the ticks meanwhile and
ends just before the next, REST_BEFORE_TICK), woken at once by the teacher's change on this
server; when the class's version changed it
reruns the whole app (st.rerun(scope="app")), which applies the teacher's view.

Measured:
(a) for each change, from the teacher's change leaving this client to the new heatmaps on
    each student's page (the attention grid's delta, in the student's full run that shows
    the new sentence: what the target names), and to the end (script_finished,
    FINISHED_SUCCESSFULLY) of that run, whose `source` text input shows the new sentence
    (the new_element delta's value) and whose attention grid must show the sentence's new
    word (the sections below the heatmaps are drawn by then too). Split into the wait until the
    student's full run began (the poll's interval, the fragment run, queueing) and the run
    itself, as the messages arrived; and the students' full runs left unfinished meanwhile
    (another run's new_session came before their script_finished). Streamlit 1.67 hands a
    ScriptRunner's events to the event loop, which ignores those of a runner that is no
    longer the session's current one (app_session.py
    `_handle_scriptrunner_event_on_event_loop`); when the loop lags behind 30 page runs, a
    `_watch` tick can reach it after a student's full run has ended but before its last
    events were handled, start a new runner, and so drop that run's last deltas and its
    script_finished (explorer/app/page.py `draw_last`). Target: the new heatmaps on every
    page within 2 s, p95 over students x changes, every student shows every change.
(b) the server process's CPU (utime + stime of /proc/<pid>/stat) per wall second over
    --idle seconds with nothing changing: the server alone, with P open, and with P and
    the class (teacher + C) open; and of it, the server's main thread (its event loop,
    which reads and writes every websocket: /proc/<pid>/task/<pid>/stat). Target: the
    class adds <= 5% of one core.
(c) the server's VmRSS (/proc/<pid>/status) and PSS (/proc/<pid>/smaps_rollup) after each
    group opened (and 2 s of quiet). Target: a class of 30 (C and its teacher) adds less
    than 50 MB beyond what as many sessions without a class (P) add.
(d) a question: from Ask to each student's page showing it; from the last answer's click
    leaving its client to the teacher's tally fragment drawing "Answers so far: <all>";
    from Reveal to each student's page showing the class's answers chart. Target: the
    teacher's chart complete within 1 s of the last answer.

Measured (30 students, 2 cores, SQLite, the machine otherwise idle; `--changes 5 --idle
10`, run side by side in one hour with the commit before students waited on the class):

| | students poll once a second | a student's run waits on the class |
|---|---|---|
| (a) change -> every student's page, p95 | 3.33 s | 2.69 s (1.3x the target) |
| (a) pages shown | 150/150 | 150/150 |
| (b) the class adds, idle | 16.9% of a core | 4.7% (target 5%: met) |
| (b) fragment runs a second | 30.5 | 3.5 |
| (d) Ask -> every student's page, p95 | 2.51 s | 1.54 s |
| (d) last answer -> the teacher's chart | 0.19 s | 0.54 s (target 1 s: met) |
| (d) Reveal -> every student's page, p95 | 2.66 s | 3.01 s |

(a) The students now start at once, woken by the teacher's change, so their 30 page
    runs and the teacher's own run share the interpreter lock: all end together, about
    2.2-2.5 s after the change (the teacher's own run, 0.2 s alone, takes as long; sending
    the change only after the teacher's page was drawn did not shorten it, 2.35 s, as the
    run's end waits for the event loop the students' runs keep busy). The floor is the
    CPU: 31 runs at about 80 ms, 2.5 s a change. Before the runs were shared
    (explorer/app/memo.py shelves, `Context.from_run`) a run took about 260 ms and p95
    was 7.96 s; before `_watch` became a fragment of its own per class version, --page
    masks showed 81 of 150 changes (the others were left unfinished as described above).
    With `_watch` asked every second instead of every 2 s, one run of five left 9 of 150
    unfinished: asked less often, none in five runs.
(b) A waiting student costs a wake-up every 0.25 s (WAKE_EVERY: a few attribute reads)
    and one `_watch` run every 8 s, not one a second (4.6 ms each).
(c) a class adds no measurable memory (C grew less than P).
(d) The tally is drawn every 0.5 s (TALLY_EVERY): the chart is complete within half a
    second of the last answer. A reveal is a change like (a).

Then a following student's page run was made cheaper (no `go.Figure` per written-out chart,
the knock-out's pattern and the revealed answers shared by the class, the sidebar's tables
and teaching options drawn only while open, following setting only the choices a student
had). Side by side in one hour with the commit before:

| | before | after (two runs) |
|---|---|---|
| (a) change -> every student's page, p95 | 2.66 s | 2.15 s, 2.02 s (x1.0-1.1 the target) |
| (a) median | 2.46 s | 1.62 s, 1.73 s |
| (a) server CPU, five changes | 13.1 s | 9.4 s, 9.7 s |
| (d) Reveal -> every student's page, p95 | 2.54 s | 2.02 s, 1.70 s |

In two of seven runs of this bench since the decoding joined the view, one student's page
missed the question until the reveal (29 of 30 showed it; the reveal reached all 30). The
cause: the class panel's `_watch`, drawn at the top of the sidebar, started its timer
before the rest of the page had left the server, and its rerun made Streamlit drop the
page's last messages (the question). Timed fragments are now sent after the page
(explorer/app/page.py `draw_last`, tests/test_class_timers_last.py); in the ten runs since,
every question reached 30 of 30. Three runs in one hour after that, (a) timed as the target
names it (the new heatmaps on each page):

| | run 1 | run 2 | run 3 |
|---|---|---|---|
| (a) new heatmaps on every page, p95 | 1.79 s | 1.95 s | 2.16 s (x1.1 the target) |
| (a) the page run ended, p95 | 1.86 s | 2.04 s | 2.20 s |
| (b) the class adds, idle | 4.6% | 3.9% | 4.2% |
| (d) Ask -> every page, p95 | 1.12 s | 1.43 s | 1.15 s |
| (d) last answer -> the teacher's chart | 0.46 s | 0.51 s | 0.29 s |
| (d) Reveal -> every page, p95 | 2.05 s | 2.17 s | 1.73 s |

The floor is still the CPU: 31 page runs in one interpreter. Of a run, Streamlit builds
its whole filtered session state again for every keyed widget
(`SessionState.filtered_state`), the largest single cost left.

Then (a sampling profile of the server under this bench, py-spy --gil, not kept: of the
interpreter's time while changes spread, the Attention page 33%, the sidebar 24%, the
event loop 22%; and a log of the garbage collector: a full collection took 220-295 ms
every few seconds, the whole interpreter stopped) three cuts: the knock-out experiment
is drawn only while its expander is open (explorer/sections/knockout.py; about 25 of the
page's 110 messages), a following student's model size is one line that opens to its
widgets (explorer/app/sidebar.py `_folded`), and the objects of the imported libraries
leave the collector's scans (explorer/app/heap.py, gc.freeze: full collections 35-105
ms). Alternating runs in one hour (`--changes 8 --idle 5`, the commit before and after):

| | before (3 runs) | after (3 runs) |
|---|---|---|
| (a) new heatmaps on every page, p95 | 2.03, 1.83, 2.34 s | 1.54, 1.70, 1.79 s |
| (a) the page run ended, p95 | 2.23, 1.88, 2.38 s | 1.55, 1.72, 1.86 s |
| (a) server CPU, eight changes | 17.1, 14.9, 17.9 s | 12.7, 13.5, 14.5 s |
| (b) the class adds, idle | 3.4%, 2.4%, 3.2% | 2.8%, 2.2%, 3.4% |
| (c) memory, the class adds | -3.2, -1.0, -2.0 MB | +3.7, +3.1, +2.4 MB |
| (d) last answer -> the teacher's chart | 0.42, 0.44, 0.49 s | 0.40, 0.44, 0.28 s |
| (d) Reveal -> every page, p95 | 1.78, 1.82, 2.35 s | 1.33, 1.36, 1.59 s |

(d)'s answers are now sent as a browser must: the pick is a run of its own, then Send
(drawn disabled until a choice is picked; Streamlit runs no callback of a widget that was
disabled). Sent together, no answer was counted, and the tally never completed.

In one run of three after that (`--changes 5 --idle 10`), one student's pick met a tick of
the class look: the pick's run ended without its last messages (its script_finished, so
this client waited 120 s for it), among them the announcement of the class look's timer,
and that student never saw the reveal. A tick's own run of a class fragment now announces
its timer again (explorer/app/streamlit_internals.py `announce_timer`;
tests/test_class_timers_last.py). Three runs after that: new heatmaps on every page p95
1.42, 1.42 and 1.81 s, every change on every page, every answer counted (the chart 0.43-0.49
s after the last), the reveal on 30 of 30 pages (p95 1.22-1.50 s), the class idle 2.9-4.1%
of a core, memory +2.5 to +3.6 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

from bench.class_background import Meter, Pupil, Window, _all, settle
from bench.common import child_pid, free_port, machine_facts, median, sentence, serve, table
from bench.load import cpu_seconds, new_word, p95, widget_key
from explorer.app.classroom import TALLY_EVERY

P95_TARGET_S = 2.0
TALLY_TARGET_S = 1.0  # the teacher's chart complete after the last answer
ANSWERED = "Answers so far: {n}"  # the teacher's tally caption (en: the teacher's language)
GUESSES_KEY = "class_guesses"  # the class's answers chart (explorer/sections/classroom.py)
GRID_KEY = "attn_grid"  # the Attention page's heatmaps (pages/attention.py)
IDLE_TARGET = 0.05  # of one core
MEMORY_TARGET_MB = 50.0
PAGE = "attention"
ZH_EVERY = 3  # every third session asks for the Chinese interface


@dataclass
class Shown:
    """A student's full run that showed a sentence the teacher sent."""

    finished: float  # perf_counter at its script_finished
    started: float  # ... at its new_session
    grid: bool  # its attention grid showed the sentence's new word
    problems: list[str] = field(default_factory=list)
    grid_at: float | None = None  # ... at the delta of its attention grid (the heatmaps)


class Tab(Pupil):
    """A browser tab (bench/class_background.py `Pupil`) that also keeps its address's query
    string and the page the server switched it to, and notes the full runs that show a
    watched sentence in the `source` text input."""

    def __init__(self, base_url: str, page: str, query: str = "", timeout: float = 120.0):
        super().__init__(base_url, page, timeout)
        self.query = query
        self.watching: set[str] = set()
        self.shown: dict[str, Shown] = {}
        self.full_problems: list[str] = []  # full runs nobody here asked for, that failed
        # full runs whose script_finished never came (another run's new_session first)
        self.cut_short = 0
        self._full_started = 0.0
        self._full_open = False
        self.looking_for: set[str] = set()  # texts (markdown) to note when first drawn
        self.seen_text: dict[str, float] = {}  # ... and when (perf_counter at the delta)
        self.guesses_at: float | None = None  # a full run's class answers chart, first
        self.last_full = 0.0  # perf_counter at the last full run's successful end
        self.full_drew: set[str] = set()  # the element keys that run drew
        self._drawing: set[str] = set()
        self._grid_at: float | None = None  # this full run's attention grid arrived

    def _back_msg(self, widgets: dict[str, object], page_name: str = "",
                  fragment_id: str = "") -> bytes:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg.FromString(super()._back_msg(widgets, page_name, fragment_id))
        msg.rerun_script.query_string = self.query  # as window.location.search
        if self.query:
            msg.rerun_script.context_info.url += "?" + self.query
        return msg.SerializeToString()

    async def run(self, changed: dict[str, object], must_show: str | None = None):
        # The browser's widget manager holds a typed value at once: a fragment timer that
        # fires before the run answers sends the new value, not the old one.
        self.widgets.update({k: v for k, v in changed.items() if k in self.widgets})
        return await super().run(changed, must_show)

    def _name_page(self) -> None:
        for path, page_hash in self.page_hashes.items():
            if page_hash == self.page_hash:
                self.page = path

    def _on(self, msg, kb: float) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        kind = msg.WhichOneof("type")
        run, asked, was_open = self.run_now, self.asked, self._full_open
        super()._on(msg, kb)
        now = time.perf_counter()
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el_kind = msg.delta.new_element.WhichOneof("type")
            el = getattr(msg.delta.new_element, el_kind)
            if run is not None and not run.fragments:
                self._drawing.add(widget_key(getattr(el, "id", "")))
            if el_kind == "markdown":
                for text in self.looking_for - self.seen_text.keys():
                    if text in el.body:
                        self.seen_text[text] = now
            elif (el_kind == "plotly_chart" and widget_key(el.id) == GUESSES_KEY
                  and run is not None and not run.fragments and self.guesses_at is None):
                self.guesses_at = now
            elif (el_kind == "plotly_chart" and widget_key(el.id) == GRID_KEY
                  and run is not None and not run.fragments):
                self._grid_at = now
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "navigation":  # the page that runs: later reruns carry its hash
            # (as the frontend's currentPageScriptHash; a server-side st.switch_page moves
            # it, and the default page's path is "", so `Pupil`'s look-up by path misses)
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
            self._name_page()
        elif kind == "new_session":
            self._drawing, self._grid_at = set(), None
            self.cut_short += was_open
            self._full_open = not self.run_now.fragments
            if self._full_open:
                self._full_started = now
        elif kind == "script_finished" and run is not None and not run.fragments:
            self._full_open = False
            status = msg.script_finished
            if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return
            ok = status == ForwardMsg.FINISHED_SUCCESSFULLY
            if ok:
                self.last_full, self.full_drew = now, self._drawing
            if asked is None and (run.problems or not ok):
                self.full_problems += run.problems or [f"script finished with status {status}"]
            source = run.widgets.get("source")
            text = source.string_value if source is not None else None
            if ok and text in self.watching and text not in self.shown:
                self.shown[text] = Shown(now, self._full_started,
                                         new_word(text) in (run.grid_spec or ""),
                                         list(run.problems), self._grid_at)


# ---- Measurements ------------------------------------------------------------------------


def memory(pid: int) -> tuple[float, float]:
    """VmRSS and PSS of `pid`, in MB."""
    def kb(text: str, key: str) -> float:
        return next(int(line.split()[1]) for line in text.splitlines() if line.startswith(key))

    rss = kb(Path(f"/proc/{pid}/status").read_text(), "VmRSS:")
    pss = kb(Path(f"/proc/{pid}/smaps_rollup").read_text(), "Pss:")
    return rss / 1024, pss / 1024


@dataclass
class Change:
    text: str
    sent: float
    teacher_run: float
    teacher_error: str
    server_cpu: float
    loop_cpu: float  # of it, the server's main thread (the event loop)
    waits: list[float]  # students who showed it: from sending to their run's end
    heatmaps: list[float]  # ... to the new attention grid on their page (its delta)
    began: list[float]  # ... to their full run's start
    runs: list[float]  # their full run
    missing: int
    cut_short: int  # the students' full runs left unfinished meanwhile
    problems: list[str]


async def change(pid: int, teacher: Tab, students: list[Tab], text: str,
                 timeout: float, grid: bool) -> Change:
    """The teacher sends `text`; wait until every student showed it (or `timeout`).
    `grid`: the page draws the attention grid, which must show the new word."""
    for s in students:
        s.watching.add(text)
    cpu0, loop0 = cpu_seconds(pid), cpu_seconds(pid, pid)
    cut0 = sum(s.cut_short for s in students)
    sent = time.perf_counter()
    job = asyncio.get_running_loop().create_task(
        teacher.run(teacher.value("source", string_value=text),
                    must_show=new_word(text) if grid else None))
    while time.perf_counter() - sent < timeout and not (
            job.done() and all(text in s.shown for s in students)):
        await asyncio.sleep(0.02)
    mine = await job
    cpu, loop = cpu_seconds(pid) - cpu0, cpu_seconds(pid, pid) - loop0
    seen = [s.shown[text] for s in students if text in s.shown]
    problems = [p for x in seen for p in x.problems]
    problems += [f"the attention grid does not show {new_word(text)!r}" for x in seen
                 if grid and not x.grid]
    return Change(text, sent, mine.seconds, mine.error, cpu, loop,
                  [x.finished - sent for x in seen],
                  [x.grid_at - sent for x in seen if x.grid_at is not None],
                  [x.started - sent for x in seen],
                  [x.finished - x.started for x in seen],
                  len(students) - len(seen), sum(s.cut_short for s in students) - cut0,
                  problems)


async def quiet_memory(pid: int, wait: float = 2.0) -> tuple[float, float]:
    await asyncio.sleep(wait)
    return memory(pid)


def store_timing(spec: str, data_dir: Path, code: str) -> tuple[float, float]:
    """Microseconds of one `version` and one `state` read of the class, from this process
    (the same store the server uses)."""
    from explorer.classroom.backend import open_store

    store = open_store(spec or None, data_dir)
    try:
        store.version(code)
        t0 = time.perf_counter()
        for _ in range(500):
            store.version(code)
        t1 = time.perf_counter()
        for _ in range(200):
            store.state(code)
        t2 = time.perf_counter()
    finally:
        store.close()
    return (t1 - t0) / 500 * 1e6, (t2 - t1) / 200 * 1e6


@dataclass
class Asked:
    reached: list[float]  # from Ask to each student's page showing the question
    answers_sent: int
    answer_errors: list[str]
    spread: float  # seconds from the first answer's click to the last's
    tally: float | None  # from the last answer's click to the teacher's chart showing all
    revealed: list[float]  # from Reveal to each student's page showing the answers chart
    missing: int  # students who never showed the question or the reveal
    sent: list[int] = field(default_factory=list)  # the choices sent (one per answer)


async def wait_for(done, timeout: float) -> None:
    t0 = time.perf_counter()
    while not done() and time.perf_counter() - t0 < timeout:
        await asyncio.sleep(0.02)


async def question(teacher: Tab, students: list[Tab], spread: float, timeout: float,
                   ask: str = "class_ask",
                   pick: Callable[[int, int], int] = lambda k, n: 0) -> Asked:
    """The teacher asks (the button `ask`: "where will it look?", query token 0, by
    default); every student answers once (student k picks choice `pick(k, choices)` of
    `class_answer`, the first by default, and sends it, `class_send`), their clicks spread
    evenly over `spread` seconds; then the teacher reveals (`class_reveal`)."""
    n = len(students)
    teacher.looking_for.add(ANSWERED.format(n=n))
    teacher.seen_text.pop(ANSWERED.format(n=n), None)  # an earlier question's count
    asked_at = time.perf_counter()
    mine = await teacher.run(teacher.value(ask, trigger_value=True))
    if mine.error:
        raise RuntimeError(f"the teacher's question: {mine.error}")

    def shows_question(s: Tab) -> bool:
        return "class_send" in s.full_drew and s.last_full > asked_at

    await wait_for(lambda: all(shows_question(s) for s in students), timeout)
    reached = [s.last_full - asked_at for s in students if shows_question(s)]
    clicks: list[float] = []
    sent: list[int] = []

    async def answer(i: int, s: Tab) -> str:
        await asyncio.sleep(i * spread / max(n - 1, 1))
        # A pick is a run of its own: Send is drawn disabled until a choice is picked, and
        # Streamlit runs no callback of a widget that was disabled (SessionState
        # _call_callbacks), as a browser sends no click of a disabled button.
        options = s.options["class_answer"]
        k = pick(i, len(options))
        picked = await s.run(s.value("class_answer", string_value=options[k]))
        if picked.error:
            return picked.error
        clicks.append(time.perf_counter())
        error = (await s.run(s.value("class_send", trigger_value=True))).error
        if not error:
            sent.append(k)
        return error

    errors = [e for e in await asyncio.gather(*(answer(i, s) for i, s in enumerate(students)
                                                 if shows_question(s))) if e]
    last = max(clicks, default=time.perf_counter())
    await wait_for(lambda: ANSWERED.format(n=n) in teacher.seen_text, timeout)
    seen = teacher.seen_text.get(ANSWERED.format(n=n))
    revealed_at = time.perf_counter()
    for s in students:
        s.guesses_at = None
    mine = await teacher.run(teacher.value("class_reveal", trigger_value=True))
    if mine.error:
        errors.append(f"the teacher's reveal: {mine.error}")
    await wait_for(lambda: all(s.guesses_at is not None for s in students), timeout)
    revealed = [s.guesses_at - revealed_at for s in students if s.guesses_at is not None]
    return Asked(reached, len(clicks), errors, last - min(clicks, default=last),
                 None if seen is None else seen - last, revealed,
                 n - min(len(reached), len(revealed)), sent)


async def run_class(url: str, pid: int, page: str, n: int, changes: int, idle: float,
                    gap: float, timeout: float, spec: str, data_dir: Path,
                    spread: float) -> dict[str, object]:
    out: dict[str, object] = {"memory": [], "idle": [], "changes": []}
    marks: list[tuple[str, float]] = []
    start = time.perf_counter()

    def mark(what: str) -> None:
        marks.append((what, time.perf_counter() - start))

    def query(i: int, base: str = "") -> str:
        lang = "lang=zh" if i % ZH_EVERY == ZH_EVERY - 1 else ""
        return "&".join(x for x in (base, lang) if x)

    warm = [Tab(url, page, query(i)) for i in (0, ZH_EVERY - 1)]
    await _all([w.open() for w in warm], "warm-up")
    await asyncio.gather(*(w.close() for w in warm))
    mark("warm-up")
    out["settle"] = await settle(pid, longest=30.0)
    out["memory"].append(("the server, after a warm-up (2 sessions, closed)", 0,
                          *await quiet_memory(pid, 0.0)))
    out["idle"].append(await idle_window("the server alone", pid, [], idle))

    mark("P opens")
    plain = [Tab(url, page, query(i)) for i in range(n)]
    out["open_plain"] = await _all([p.open() for p in plain], f"P: opening /{page}")
    out["memory"].append((f"+ P: {n} sessions on /{page}, no class", n,
                          *await quiet_memory(pid)))
    out["idle"].append(await idle_window(f"P: {n} sessions, no class", pid, plain, idle))

    mark("the class starts")
    teacher = Tab(url, page)
    await _all([teacher.open()], "the teacher's page")
    await _all([teacher.run(teacher.value("class_start", trigger_value=True))],
               "the teacher starts a class")
    code = parse_qs(teacher.query).get("class", [""])[0]
    if not code:
        raise RuntimeError(f"no class code in the teacher's address: {teacher.query!r}")
    out["code"] = code
    students = [Tab(url, "", query(i, f"class={code}")) for i in range(n)]
    out["open_class"] = await _all([s.open() for s in students],
                                   "C: opening the join link")
    out["pages"] = sorted({s.page for s in students})
    await asyncio.sleep(2.0)  # the first polls, the first heartbeats
    out["memory"].append((f"+ C: a class, its teacher and {n} students following", n + 1,
                          *memory(pid)))
    out["idle"].append(await idle_window(f"P and the class (C, {n} students, + teacher)",
                                         pid, plain + [teacher] + students, idle))
    out["timers"] = (sum(len(p.timers) for p in plain), len(teacher.timers),
                     sum(len(s.timers) for s in students))
    out["store_us"] = store_timing(spec, data_dir, code)

    mark("P2 opens")
    later = [Tab(url, page, query(i)) for i in range(n)]
    await _all([p.open() for p in later], f"P2: opening /{page}")
    out["memory"].append((f"+ P2: {n} more sessions on /{page}, no class", n,
                          *await quiet_memory(pid)))

    mark("(a) starts")
    await asyncio.sleep(gap)
    for i in range(changes):
        out["changes"].append(await change(pid, teacher, students, sentence(i, salt=7),
                                           timeout, grid=page == PAGE))
        await asyncio.sleep(gap)
    if page == PAGE:  # the question is the Attention page's
        mark("(d) starts")
        out["question"] = await question(teacher, students, spread, timeout)
    mark("done")
    out["problems"] = [x for t in [*plain, teacher, *students, *later]
                       for x in t.fragment_problems + t.full_problems]
    out["marks"] = marks
    await asyncio.gather(*(t.close() for t in [*plain, teacher, *students, *later]))
    return out


async def idle_window(name: str, pid: int, tabs: list[Tab],
                      seconds: float) -> tuple[Window, float]:
    """What `seconds` of quiet cost (Meter of bench/class_background.py), and the CPU
    seconds of the server's main thread (its event loop) meanwhile."""
    loop0 = cpu_seconds(pid, pid)
    meter = Meter(pid, tabs)
    await asyncio.sleep(seconds)
    return meter.window(name), cpu_seconds(pid, pid) - loop0


# ---- Report ----------------------------------------------------------------------------------


def _share(cpu: float, seconds: float) -> float:
    return cpu / seconds * 100 if seconds else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30, help="students in the class")
    ap.add_argument("--changes", type=int, default=5, help="sentences the teacher sends")
    ap.add_argument("--idle", type=float, default=30.0, help="seconds of each idle window")
    ap.add_argument("--gap", type=float, default=2.0,
                    help="seconds between a change seen by all and the next")
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds a change may take to reach every student")
    ap.add_argument("--store", default="",
                    help="CLASS_STORE for the server (a redis:// URL); default SQLite in a "
                         "temporary folder")
    ap.add_argument("--page", default=PAGE,
                    help="the page everyone is on (model, embeddings, masks, attention, "
                         "shapes); only the Attention page's grid is checked")
    ap.add_argument("--spread", type=float, default=10.0,
                    help="seconds over which the students' answers to a question arrive")
    ap.add_argument("--smoke", action="store_true",
                    help="3 students, 1 change, 5 s idle, answers over 2 s")
    args = ap.parse_args(argv)
    n, changes, idle = max(1, args.students), max(1, args.changes), args.idle
    spread = max(0.0, args.spread)
    if args.smoke:
        n, changes, idle, spread = 3, 1, 5.0, 2.0

    print(machine_facts() + "\n")
    t0 = time.perf_counter()
    with class_server(args.store, "bench-classroom-") as (url, pid, data):
        out = asyncio.run(run_class(url, pid, args.page, n, changes, idle, args.gap,
                                    args.timeout, args.store, data, spread))
    took = time.perf_counter() - t0
    store = "Redis" if args.store else "SQLite"

    joined = [r.seconds for r in out["open_class"]]
    print(f"One server, a class of {n} students following a teacher on /{args.page} (a third "
          f"of the sessions in Chinese); class store {store}; whole run {took:.0f} s. "
          f"Students joined at once from the join link: median {median(joined):.1f} s, "
          f"worst {max(joined):.1f} s, to their page "
          f"(now {', '.join('/' + p for p in out['pages'])}).\n")

    # (a)
    rows = []
    all_waits: list[float] = []
    missing = 0
    heatmaps: list[float] = []
    problems: list[str] = []
    for i, c in enumerate(out["changes"], 1):
        all_waits += c.waits
        missing += c.missing
        problems += c.problems + ([f"teacher: {c.teacher_error}"] if c.teacher_error else [])
        heatmaps += c.heatmaps
        rows.append([f"change {i}", f"{len(c.waits)} / {len(c.waits) + c.missing}",
                     f"{p95(c.heatmaps):.2f}" if c.heatmaps else "-",
                     f"{median(c.waits):.2f}", f"{p95(c.waits):.2f}",
                     f"{max(c.waits, default=float('nan')):.2f}", f"{median(c.began):.2f}",
                     f"{median(c.runs):.2f}", f"{c.teacher_run:.2f}", f"{c.server_cpu:.1f}",
                     f"{c.loop_cpu:.1f}", c.cut_short, "-", "-"])
    # the target names the heatmaps; on another page (--page) the run's end stands for them
    value = p95(heatmaps) if len(heatmaps) == len(all_waits) else p95(all_waits)
    rows.append([f"all ({len(out['changes'])} changes)", f"{len(all_waits)} / "
                 f"{len(all_waits) + missing}",
                 f"{p95(heatmaps):.2f}" if heatmaps else "-",
                 f"{median(all_waits):.2f}", f"{p95(all_waits):.2f}",
                 f"{max(all_waits, default=float('nan')):.2f}",
                 f"{median([x for c in out['changes'] for x in c.began]):.2f}",
                 f"{median([x for c in out['changes'] for x in c.runs]):.2f}",
                 f"{median([c.teacher_run for c in out['changes']]):.2f}",
                 f"{sum(c.server_cpu for c in out['changes']):.1f}",
                 f"{sum(c.loop_cpu for c in out['changes']):.1f}",
                 sum(c.cut_short for c in out["changes"]),
                 f"p95 ≤ {P95_TARGET_S:g} s, all seen", _verdict(value, P95_TARGET_S, missing)])
    print("(a) The teacher changes the sentence: from the change leaving the teacher's tab "
          "to each student's page shown (students x changes)\n")
    print(table(["change", "students who saw it", "new heatmaps shown p95 s",
                 "page run ended p50 s", "p95 s", "max s",
                 "until the student's run began p50 s", "the student's run p50 s",
                 "teacher's own run s", "server CPU s", "of it, its event loop s",
                 "students' full runs left unfinished", "target", "met?"], rows))
    print("\n(new heatmaps shown: the delta of the attention grid, showing the new sentence, "
          "reaching the student's tab: what the target names, and what the verdict "
          "reads on the Attention page; the page run ended: the end, FINISHED_SUCCESSFULLY, of "
          "the full run whose `source` input shows the new sentence (the sections below the "
          "heatmaps drawn too); until it began: to the run's new_session "
          "(the waiting `_watch` fragment run woken by the change, "
          "queueing), as this client received it: when the server's event loop falls "
          "behind, a run's messages arrive together at its end and the split shows 0 s "
          "for the run. Server CPU: from the change sent until every student showed it; "
          "its event loop: the main thread, which reads and writes every websocket. Left "
          "unfinished: a student's full run whose script_finished never came, another run's "
          "new_session first (the server dropped its last messages: see the module's "
          "docstring); when it is the run that applied the change, the student's seat "
          "already holds the new version (explorer/app/classroom.py `follow`), `_watch` "
          "asks for no other run, and the page never shows the change)")

    # (b)
    cores = os.cpu_count() or 1
    idle_rows = []
    for w, loop in out["idle"]:
        runs = (w.served + w.other) / w.seconds if w.seconds else 0.0
        idle_rows.append([w.name, f"{w.seconds:.0f}", f"{_share(w.server_cpu, w.seconds):.1f}%",
                          f"{_share(loop, w.seconds):.1f}%", f"{runs:.1f}",
                          f"{median(w.fragment_waits) * 1000:.0f}" if w.fragment_waits else "-",
                          f"{_share(w.client_cpu, w.seconds):.1f}%", "-", "-"])
    _, (plain_w, plain_loop), (class_w, class_loop) = out["idle"]
    added = (class_w.server_cpu / class_w.seconds - plain_w.server_cpu / plain_w.seconds)
    loop_added = class_loop / class_w.seconds - plain_loop / plain_w.seconds
    class_runs = (class_w.served + class_w.other) / class_w.seconds
    idle_rows.append(["the class adds (third row - second)", "-", f"{added * 100:.1f}%",
                      f"{loop_added * 100:.1f}%", f"{class_runs:.1f}",
                      "-", "-", f"≤ {IDLE_TARGET * 100:g}% of one core",
                      _verdict(added, IDLE_TARGET)])
    print(f"\n(b) Idle: nothing changes for {idle:g} s; the server process's CPU (utime + "
          f"stime) per wall second, as a share of one core (the machine has {cores})\n")
    print(table(["window", "seconds", "server CPU", "of it, its event loop", "fragment runs /s",
                 "fragment rerun p50 ms (asked to answered)", "the clients' own CPU",
                 "target", "met?"], idle_rows))
    plain_timers, teacher_timers, student_timers = out["timers"]
    version_us, state_us = out["store_us"]
    per_run = added / class_runs * 1000 if class_runs else float("nan")
    print(f"\nFragment timers: P {plain_timers}, the teacher {teacher_timers} (the roster, "
          f"every 2 s), the students {student_timers} (`_watch`, asked every 2 s, a run "
          f"waiting up to 8 s). Per fragment "
          f"run the class costs the server {per_run:.1f} ms of CPU "
          f"({loop_added / class_runs * 1000 if class_runs else float('nan'):.1f} ms in its "
          f"event loop: the BackMsg with every widget's state in, the run's messages out; "
          f"the rest in the script threads, one started per run); the store's reads take "
          f"(from this process, the same {store}) version {version_us:.0f} µs, state "
          f"{state_us:.0f} µs.")

    # (c)
    mem = out["memory"]
    mem_rows = []
    for i, (name, sessions, rss, pss) in enumerate(mem):
        grew = (rss - mem[i - 1][2], pss - mem[i - 1][3]) if i else (float("nan"),) * 2
        mem_rows.append([name, sessions, f"{rss:.1f}", f"{pss:.1f}",
                         f"{grew[0]:+.1f}" if i else "-", f"{grew[1]:+.1f}" if i else "-",
                         "-", "-"])
    grew_p = (mem[1][2] - mem[0][2], mem[1][3] - mem[0][3])
    grew_c = (mem[2][2] - mem[1][2], mem[2][3] - mem[1][3])
    grew_p2 = (mem[3][2] - mem[2][2], mem[3][3] - mem[2][3])
    class_adds = grew_c[0] - grew_p[0]
    mem_rows.append(["the class adds: C's growth - P's", "-", "-", "-", f"{class_adds:+.1f}",
                     f"{grew_c[1] - grew_p[1]:+.1f}", f"< {MEMORY_TARGET_MB:g} MB",
                     "yes" if class_adds < MEMORY_TARGET_MB else
                     f"NO (x{class_adds / MEMORY_TARGET_MB:.1f})"])
    mem_rows.append(["(check) C's growth - P2's", "-", "-", "-",
                     f"{grew_c[0] - grew_p2[0]:+.1f}", f"{grew_c[1] - grew_p2[1]:+.1f}", "-",
                     "-"])
    print("\n(c) Memory of the server process (MB), each group opened on top of the last "
          "and 2 s of quiet\n")
    print(table(["after", "sessions", "RSS MB", "PSS MB", "RSS added", "PSS added", "target",
                 "met?"], mem_rows))
    print("\n(P2, sessions without a class opened after the class, shows how much the order "
          "of opening moves the figures: memory that P's runs freed is reused by the later "
          "groups)")

    # (d)
    q = out.get("question")
    if q is not None:
        problems += q.answer_errors
        missing += q.missing
        tally = q.tally if q.tally is not None else float("nan")
        print(f"\n(d) A question: the teacher asks where a token will look; each student "
              f"answers once, the {q.answers_sent} clicks spread over {q.spread:.1f} s; then "
              f"the teacher reveals\n")
        print(table(["step", "students", "p50 s", "p95 s", "max s", "target", "met?"], [
            ["Ask -> the question on each student's page", f"{len(q.reached)} / {n}",
             f"{median(q.reached):.2f}", f"{p95(q.reached):.2f}",
             f"{max(q.reached, default=float('nan')):.2f}", "-", "-"],
            ["the last answer's click -> the teacher's chart counts every answer",
             f"{q.answers_sent} / {n}", "-", f"{tally:.2f}", "-",
             f"≤ {TALLY_TARGET_S:g} s",
             _verdict(tally, TALLY_TARGET_S) if q.tally is not None else "NO (never)"],
            ["Reveal -> the answers chart on each student's page", f"{len(q.revealed)} / {n}",
             f"{median(q.revealed):.2f}", f"{p95(q.revealed):.2f}",
             f"{max(q.revealed, default=float('nan')):.2f}", "-", "-"]]))
        print(f"\n(the teacher's chart: the first delta of the teacher's tally fragment "
              f"(every {TALLY_EVERY:g} s, explorer/app/classroom.py TALLY_EVERY) whose "
              f"caption reads \"{ANSWERED.format(n=n)}\"; a page shown: the end of the "
              f"student's full run that draws it)")

    problems += out["problems"]
    if missing:
        problems.append(f"{missing} student pages never showed a change or the question within "
                        f"{args.timeout:g} s")
    if problems:
        print(f"\nErrors ({len(problems)}; first 5): " + " | ".join(problems[:5]))
    print(f"\nBefore the first window, {out['settle']:.0f} s until the server was idle. "
          f"Timeline (s): " + "; ".join(f"{what} {at:.0f}" for what, at in out["marks"]))
    return 0


@contextlib.contextmanager
def class_server(store: str, prefix: str) -> Iterator[tuple[str, int, Path]]:
    """`streamlit run app.py` on a free port with a class store of its own (CLASS_STORE
    `store`, a redis:// URL, or SQLite in a temporary folder named `prefix`...): its
    address, its process's id and the folder."""
    with tempfile.TemporaryDirectory(prefix=prefix) as data:
        port = free_port()
        with serve(port, env={"CLASS_DATA": data, "CLASS_STORE": store}) as url:
            pid = child_pid(port)
            if pid is None:
                raise RuntimeError(f"no server process of ours on port {port}")
            yield url, pid, Path(data)


def _verdict(value: float, limit: float, missing: int = 0) -> str:
    if missing:
        return f"NO ({missing} not seen)"
    return "yes" if value <= limit else f"NO (x{value / limit:.1f})"


if __name__ == "__main__":
    sys.exit(main())
