"""A class with a training going on in the background: what the 1 s status redraws cost.

Rerun: `.venv/bin/python -m bench.class_background` (options: --sessions 30, --on-train N
(a third of the sessions), --window 20, --turn 10, --every 2, --steps 2000, --batch 128,
--timeout 120 (s a learner waits for a page; the typist: the window), --press-timeout 30
(for the page a Train click draws), --smoke: 3 learners, 4 s windows, about a minute).

While a learner's training goes on in the background, every page of theirs redraws a small
status every second: the sidebar's training status (explorer/sections/train.py `_status`,
`@st.fragment(run_every=STATUS_EVERY)`) on every page, and on the Train page section 2
(`_progress`, `run_every=PROGRESS_EVERY`). Streamlit's server does not time those reruns:
it announces each fragment with a ForwardMsg `auto_rerun` (fragment id, interval) and the
browser's frontend sets a timer (`setInterval`) that sends a BackMsg `rerun_script` with the
fragment id, `is_auto_rerun` and every widget's state each interval, whether or not the
last one has been answered; a full run (a `new_session` without fragment ids), a page
change or a `stop_auto_rerun` cancels the timers (Streamlit 1.67's frontend, App.tsx
`handleAutoRerun`). The learners here are protocol clients (`Pupil`, built from
bench/load.py's widget handling) that do the same: one reader per websocket takes every
ForwardMsg, and the fragments' timers send their reruns as a browser tab would.

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port, stopped at the
end) serves, side by side in one run:

(a) --sessions learners (30) on the Attention page, nothing training. For --window seconds
    one of them (the typist) sends a new sentence every --every seconds; its wait is the
    time from sending it to the end of the script run that draws it (script_finished,
    FINISHED_SUCCESSFULLY), and the attention grid must show the sentence's new word (a
    sentence not drawn within the window counts as an error).
Then the same learners go to the Train page, choose the date task (`tr_task`), turn "Stop
    when learned" off and set the batch to 128 (so that the training lasts through the
    windows below: with the recipe's batch of 64 and "Stop when learned", a dates training
    ends after ~20 s here, bench.dates_train; the worker is as busy either way, and the
    time limit ends it after 120 s of training), and press Train at the same moment, with
    the same settings: the hub (explorer/training/hub.py) runs one training for all of them,
    in a worker process. A click whose page has not arrived after --press-timeout seconds
    counts as not done, and the bench goes on.
(p) For --turn seconds all of them stay on the Train page the click drew, its section 2
    (`_progress`) rerunning every second; nobody types.
Then all but --on-train of them (20 of 30) go to the Attention page; the others stay on
    the Train page and rerun it once (as any widget there does: the page a Train click
    drew has section 2's fragment only, its sidebar having been drawn before the training
    was the learner's; the next run adds the sidebar's). These moves are measured too
    (their runs' times, the CPU, the fragments meanwhile).
(b) Every page's fragments rerun every second: the typist (on the Attention page) types as
    in (a).
(c) A control, the same training going on, taken in turns of --turn seconds with (b)
    (b, c, b, c, ... 3 s after a turn of (b), for the server's backlog of fragment reruns
    to drain, 1 s after one of (c), until each has had --window seconds): the same
    pages, but the clients' fragment timers send nothing (no browser does that; it
    separates what the redraws cost from what the training itself costs the server,
    which relays every step of the worker's to the learners' tickets).
(d) The learners on the Train page go to the Attention page too: the sidebar's status
    alone on every page, for --window seconds.
Should the training end within a window, the window ends there (every page then redraws
once to show the trained model, which is not what is measured), and what follows is left
out.

For each window: the typist's wait (median, p90, worst), the server process's CPU (utime +
stime of /proc/<pid>/stat) over the window as a share of one core, the same for its child
processes (the hub's training workers, multiprocessing's resource tracker), and the
fragment reruns per second: asked for by the clients' timers, runs ended (script_finished
of a fragment run), and redraws sent (those FINISHED_FRAGMENT_RUN_SUCCESSFULLY; a run that
ends FINISHED_EARLY_FOR_RERUN ran, but the session's next run began before its messages
had left the server, and they were dropped), with the time from a timer's request to the
end of the redraw that answered it; and the clients' own CPU (this process: they share
the machine with the server). A warm-up learner opens the Attention and Train
pages first (a fresh server's first runs import torch and plotly; the first Train page
starts the hub's workers), and (a) starts once the server and its workers have been idle
for a second.

Measured (30 learners, a 2-core machine shared with another benchmark, load 3.5-4):
while section 2 built its own loss figure on every rerun, thirty Train pages rerunning it
each second stopped the server: no clicked page and no redraw arrived within 30 s in four
runs of five, the server's event loop waiting for the interpreter lock held by ~30 threads
building figures. With the figure of a step built once for every page that shows it
(explorer/sections/train.py `_show_wait`), the same moment serves 30 fragment runs a second
(22% of a core, 7 ms each) and 24 of 30 clicked pages arrive within 30 s (median 8.2 s);
the sidebar's status alone costs 13% of a core (5 ms a run); a typist meanwhile waits a
median 0.42 s (worst 1.40 s) with 20 Attention and 10 Train pages redrawing, against
0.17 s (worst 0.23 s) with the same training and no redraws.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.class_train import children
from bench.common import machine_facts, median, p90, sentence, served_app, table
from bench.load import (
    GRID_KEY,
    RunResult,
    Socket,
    cpu_seconds,
    new_word,
    widget_key,
    widget_state,
)

DATES_LABEL = "dates → ISO"  # the date task's option as the browser sends it (English)
SIDEBAR = 1  # the first index of a sidebar element's delta path


@dataclass
class _Run:
    """The script run a session is in, as its ForwardMsgs arrive."""

    fragments: tuple[str, ...]  # empty: a full run
    widgets: dict[str, object] = field(default_factory=dict)
    sidebar: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    grid_spec: str = ""
    charts: int = 0
    kilobytes: float = 0.0


@dataclass
class _Asked:
    """A full run this client asked for and waits for."""

    t0: float
    done: asyncio.Future
    known: dict[str, object]
    must_show: str | None
    started: bool = False  # a full run began after the request was sent


class Pupil(Socket):
    """A learner's browser tab (bench/load.py `Socket`): one reader takes every ForwardMsg;
    full runs are asked for and awaited (`run`); fragments announced with run_every are rerun
    on timers, as Streamlit's frontend does."""

    NOT_SENT = ("tr_lr",)  # bench/class_train.py TrainLearner: the client cannot write it yet

    def __init__(self, base_url: str, page: str, timeout: float = 120.0) -> None:
        super().__init__(base_url, page, timeout)
        self.sidebar: set[str] = set()  # keys of the sidebar's widgets
        self.options: dict[str, list[str]] = {}  # a radio's or selectbox's key -> its labels
        self.choice_ids: dict[str, str] = {}  # their key -> widget id (None chosen: no state)
        self.page_hashes: dict[str, str] = {}  # url path -> page script hash
        self.run_now: _Run | None = None
        self.asked: _Asked | None = None
        self.timers: dict[str, tuple[float, asyncio.Task]] = {}  # fragment id -> timer
        self.sent: dict[str, deque[float]] = {}  # fragment id -> requests not yet served
        # counters (read before and after a window)
        self.fragments_asked = 0
        self.fragments_served = 0
        # fragment runs that ended without a redraw: FINISHED_EARLY_FOR_RERUN when the
        # session's next run began before this one's messages had left the server (they
        # are dropped then: forward_msg_queue.py), or a failure
        self.fragments_other = 0
        self.fragment_problems: list[str] = []
        self.fragment_waits: list[tuple[float, float]] = []  # (when served, seconds)
        self.unasked_full: list[float] = []  # full runs nobody here asked for: times
        self.paused = False  # (c): the timers run but send nothing
        self.kilobytes = 0.0
        self._reader: asyncio.Task | None = None

    # ---- sending -------------------------------------------------------------------------

    def widget_id(self, key: str) -> str:
        """The id of widget `key`, a radio's or selectbox's with no value chosen too."""
        return (self.widgets[key].id if key in self.widgets
                else self.buttons.get(key) or self.choice_ids[key])

    async def open(self) -> RunResult:
        """Connect and ask for the page, as a browser opening /<page> does."""
        error = await self.connect()
        if error:
            return RunResult(error=error)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return await self._ask({}, {}, page_name=self.page)

    async def run(self, changed: dict[str, object], must_show: str | None = None) -> RunResult:
        """A full rerun with `changed` and every other widget's value, as a widget change does."""
        return await self._ask({**self.widgets, **changed}, changed, must_show=must_show)

    async def go(self, page: str) -> RunResult:
        """Go to another page, as the page menu does: the timers stop, and only the sidebar's
        widgets (which stay on the screen) send their values."""
        self._stop_timers()
        self.page = page
        self.page_hash = self.page_hashes.get(page, "")
        kept = {k: v for k, v in self.widgets.items() if k in self.sidebar}
        return await self._ask(kept, {}, page_name="" if self.page_hash else page)

    async def _ask(self, widgets: dict[str, object], changed: dict[str, object],
                   page_name: str = "", must_show: str | None = None) -> RunResult:
        if self.ws is None:
            return RunResult(error="not connected")
        t0 = time.perf_counter()
        asked = _Asked(t0, asyncio.get_running_loop().create_future(), widgets, must_show)
        self.asked = asked
        try:
            await self.ws.send(self._back_msg(widgets, page_name))
            return await asyncio.wait_for(asyncio.shield(asked.done), self.timeout)
        except TimeoutError:
            return RunResult(error=f"timeout after {self.timeout:g} s")
        except Exception as exc:  # a closed connection: count it, go on
            return RunResult(error=f"{type(exc).__name__}: {exc}"[:120])
        finally:
            if self.asked is asked:
                self.asked = None

    async def _tick(self, fragment_id: str, interval: float) -> None:
        """The frontend's setInterval: a rerun of the fragment every `interval` seconds."""
        try:
            while True:
                await asyncio.sleep(interval)
                if self.paused:
                    continue
                self.sent.setdefault(fragment_id, deque()).append(time.perf_counter())
                self.fragments_asked += 1
                await self.ws.send(self._back_msg(self.widgets, fragment_id=fragment_id))
        except asyncio.CancelledError:
            raise
        except Exception:  # the connection closed: the tab's timers die with it
            return

    def _stop_timers(self) -> None:
        for _, task in self.timers.values():
            task.cancel()
        self.timers.clear()
        self.sent.clear()

    async def close(self) -> None:
        self._stop_timers()
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass

    # ---- receiving ---------------------------------------------------------------------------

    async def _read(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        try:
            async for data in self.ws:
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self.kilobytes += len(data) / 1000
                self._on(msg, len(data) / 1000)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the connection closed
            if self.asked is not None and not self.asked.done.done():
                self.asked.done.set_result(RunResult(error=f"{type(exc).__name__}"[:120]))
        finally:
            if self.asked is not None and not self.asked.done.done():
                self.asked.done.set_result(RunResult(error="connection closed"))

    def _on(self, msg, kb: float) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        kind = msg.WhichOneof("type")
        run = self.run_now
        if kind == "new_session":
            fragments = tuple(msg.metadata.run.fragment_ids)
            self.run_now = _Run(fragments)
            if not fragments:  # a full run: the frontend clears every fragment timer
                self._stop_timers()
                if self.asked is not None:
                    self.asked.started = True
                else:
                    self.unasked_full.append(time.perf_counter())
        elif kind == "navigation":
            for p in msg.navigation.app_pages:
                self.page_hashes[p.url_pathname] = p.page_script_hash
            self.page_hash = self.page_hashes.get(self.page, self.page_hash)
        elif kind == "auto_rerun":
            fid, interval = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
            if fid and self.timers.get(fid, (None,))[0] != interval:
                if fid in self.timers:
                    self.timers.pop(fid)[1].cancel()
                task = asyncio.get_running_loop().create_task(self._tick(fid, interval))
                self.timers[fid] = (interval, task)
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                if fid in self.timers:
                    self.timers.pop(fid)[1].cancel()
        elif kind == "delta" and run is not None:
            run.kilobytes += kb
            if msg.delta.WhichOneof("type") != "new_element":
                return
            el_kind = msg.delta.new_element.WhichOneof("type")
            el = getattr(msg.delta.new_element, el_kind)
            if el_kind == "exception":
                run.problems.append(f"exception: {el.type}")
            elif el_kind == "alert" and el.format == el.Format.ERROR:
                run.problems.append("error box: " + el.body[:80])
            elif el_kind == "plotly_chart":
                run.charts += 1
                if widget_key(el.id) == GRID_KEY:
                    run.grid_spec = el.spec
            key = widget_key(getattr(el, "id", ""))
            if not key or run.fragments:
                return
            known = self.asked.known if self.asked is not None else self.widgets
            if el_kind in ("radio", "selectbox"):
                self.options[key], self.choice_ids[key] = list(el.options), el.id
            ws = widget_state(el_kind, el, known.get(key))
            if ws is not None:
                run.widgets[key] = ws
                if msg.metadata.delta_path and msg.metadata.delta_path[0] == SIDEBAR:
                    run.sidebar.add(key)
            elif el_kind == "button":
                self.buttons[key] = el.id
        elif kind == "script_finished" and run is not None:
            status = msg.script_finished
            now = time.perf_counter()
            if run.fragments:
                if status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    self.fragments_served += 1
                    for fid in run.fragments:
                        pending = self.sent.get(fid)
                        if pending:  # requests answered by this run (the server merges them)
                            self.fragment_waits.append((now, now - pending[0]))
                            pending.clear()
                else:
                    self.fragments_other += 1
                if run.problems:
                    self.fragment_problems += run.problems
                return
            if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return  # superseded (or the app asked for a rerun): the next run counts
            if run.widgets:
                self.widgets, self.sidebar = run.widgets, run.sidebar
            asked = self.asked
            if asked is None or not asked.started or asked.done.done():
                return
            problems = list(run.problems)
            if status != ForwardMsg.FINISHED_SUCCESSFULLY:
                problems.append(f"script finished with status {status}")
            if not problems and asked.must_show is not None and asked.must_show not in json.dumps(
                    json.loads(run.grid_spec or "{}"), ensure_ascii=False):
                problems.append(f"the attention grid does not show {asked.must_show!r}")
            asked.done.set_result(RunResult(seconds=now - asked.t0, error="; ".join(problems),
                                            charts=run.charts, kilobytes=run.kilobytes))


# ---- The measurement -------------------------------------------------------------------------


def _tree_cpu(pid: int) -> tuple[float, dict[int, float]]:
    """CPU seconds of the server process, and of each of its child processes."""
    kids = {}
    for child in children(pid):
        try:
            kids[child] = cpu_seconds(child)
        except (OSError, IndexError, ValueError):  # it ended meanwhile
            continue
    return cpu_seconds(pid), kids


async def settle(pid: int, idle: float = 0.05, longest: float = 60.0) -> float:
    """Wait until the server and its children use less than `idle` of a core over a second
    (the hub's workers import torch and warm up once the Train page was first drawn), at
    most `longest` seconds; the seconds waited."""
    t0 = time.perf_counter()
    before = _tree_cpu(pid)
    while time.perf_counter() - t0 < longest:
        await asyncio.sleep(1.0)
        after = _tree_cpu(pid)
        used = after[0] - before[0] + sum(v - before[1].get(k, 0.0) for k, v in after[1].items())
        if used < idle:
            break
        before = after
    return time.perf_counter() - t0


@dataclass
class Window:
    """What one stretch of time saw: the server's CPU, the fragments, the typist's waits."""

    name: str
    seconds: float = 0.0
    typed: list[RunResult] = field(default_factory=list)  # the typist's, or a phase's runs
    server_cpu: float = 0.0
    children_cpu: float = 0.0
    asked: int = 0
    served: int = 0
    other: int = 0
    fragment_waits: list[float] = field(default_factory=list)
    kilobytes: float = 0.0
    client_cpu: float = 0.0  # this process's: the protocol clients themselves
    ended_early: bool = False


class Meter:
    """The server's and the clients' counters from one moment on."""

    def __init__(self, pid: int, pupils: Sequence[Pupil]) -> None:
        self.pid, self.pupils = pid, list(pupils)
        self.counts = [(p.fragments_asked, p.fragments_served, p.fragments_other, p.kilobytes)
                       for p in self.pupils]
        self.cpu, self.kids = _tree_cpu(pid)
        self.own = time.process_time()
        self.t0 = time.perf_counter()

    def window(self, name: str) -> Window:
        """What happened since the meter was made."""
        t1 = time.perf_counter()
        cpu, kids = _tree_cpu(self.pid)
        out = Window(name, seconds=t1 - self.t0, server_cpu=cpu - self.cpu,
                     children_cpu=sum(v - self.kids.get(k, 0.0) for k, v in kids.items()),
                     client_cpu=time.process_time() - self.own)
        for p, (a, s, o, kb) in zip(self.pupils, self.counts, strict=True):
            out.asked += p.fragments_asked - a
            out.served += p.fragments_served - s
            out.other += p.fragments_other - o
            out.kilobytes += p.kilobytes - kb
            out.fragment_waits += [w for when, w in p.fragment_waits if self.t0 <= when <= t1]
        return out


async def measure(name: str, pid: int, pupils: list[Pupil], typist: Pupil | None,
                  window: float, every: float, salt: int, training: bool = False,
                  patience: float | None = None) -> Window:
    """`typist` (if any) sends a new sentence every `every` seconds for `window` seconds
    (or until some page redraws by itself: the training ended); the server's CPU, the
    fragments. A sentence not drawn within `patience` seconds (default: the window)
    counts as an error. `training`: a training
    should go on throughout; workers that used less than 5% of a core meanwhile had
    ended it (with the timers silenced, no page sees the end): the window counts as
    ended early."""
    ended = asyncio.Event()
    seen = [len(p.unasked_full) for p in pupils]

    async def watch() -> None:
        while not ended.is_set():
            if any(len(p.unasked_full) > n for p, n in zip(pupils, seen, strict=True)):
                ended.set()
            await asyncio.sleep(0.05)

    typed: list[RunResult] = []
    meter = Meter(pid, pupils)
    t0 = meter.t0
    watcher = asyncio.get_running_loop().create_task(watch())
    if typist is not None:
        kept_timeout, typist.timeout = typist.timeout, max(patience or window, 5.0)
    i = 0
    while typist is not None:
        slot = t0 + i * every
        if slot >= t0 + window or ended.is_set():
            break
        try:
            await asyncio.wait_for(ended.wait(), max(0.0, slot - time.perf_counter()))
            break
        except TimeoutError:
            pass
        text = sentence(i, salt=salt)
        result = await typist.run(typist.value("source", string_value=text),
                                  must_show=new_word(text))
        if not ended.is_set():  # a run the training's end redrew as well: not counted
            typed.append(result)
        i += 1
    if not ended.is_set():  # the rest of the window, without typing
        try:
            await asyncio.wait_for(ended.wait(), max(0.0, t0 + window - time.perf_counter()))
        except TimeoutError:
            pass
    out = meter.window(name)
    if typist is not None:
        typist.timeout = kept_timeout
    out.typed = typed
    out.ended_early = ended.is_set()
    ended.set()
    await watcher
    if training and out.children_cpu < 0.05 * out.seconds:
        out.ended_early = True
    return out


def merge(name: str, parts: Sequence[Window]) -> Window:
    """Windows of one kind taken in turns, as one."""
    out = Window(name)
    for w in parts:
        out.seconds += w.seconds
        out.typed += w.typed
        out.server_cpu += w.server_cpu
        out.children_cpu += w.children_cpu
        out.asked += w.asked
        out.served += w.served
        out.other += w.other
        out.fragment_waits += w.fragment_waits
        out.kilobytes += w.kilobytes
        out.client_cpu += w.client_cpu
        out.ended_early |= w.ended_early
    return out


async def _all(coros, what: str) -> list[RunResult]:
    """Runs that must work (the set-up before the training): an error stops the bench."""
    results = await asyncio.gather(*coros)
    errors = [r.error for r in results if r.error]
    if errors:
        raise RuntimeError(f"{what}: {len(errors)} errors, first: {errors[0]}")
    return results


async def phase(name: str, pid: int, pupils: list[Pupil], coros) -> Window:
    """Runs of many learners at once, measured (errors are kept, not raised)."""
    meter = Meter(pid, pupils)
    results = await asyncio.gather(*coros)
    out = meter.window(name)
    out.typed = list(results)
    return out


async def turns(pid: int, pupils: list[Pupil], typist: Pupil, names: tuple[str, str],
                window: float, turn: float, every: float, salt: int) -> list[Window]:
    """Two windows taken in turns of `turn` seconds, until each has had `window` seconds
    or the training ended: the first with the fragment timers on, the second (the
    control) with them silenced. 3 s pass after a turn of the first (the server's backlog
    of fragment reruns drains), 1 s after one of the second."""
    parts: dict[str, list[Window]] = {n: [] for n in names}
    k = 0
    while min(sum(w.seconds for w in ws) for ws in parts.values()) < window - 0.5:
        name = names[k % 2]
        for p in pupils:
            p.paused = name == names[1]
        if k:
            await asyncio.sleep(3.0 if name == names[1] else 1.0)
        left = window - sum(w.seconds for w in parts[name])
        part = await measure(name, pid, pupils, typist, min(turn, left), every,
                             salt=salt + k, training=True, patience=window)
        parts[name].append(part)
        k += 1
        if part.ended_early:
            break
    for p in pupils:
        p.paused = False
    return [merge(n, ws) for n, ws in parts.items() if ws]


async def run_class(url: str, pid: int, sessions: int, on_train: int, window: float,
                    turn: float, every: float, steps: int, batch: int, timeout: float,
                    press_timeout: float) -> dict[str, object]:
    out: dict[str, object] = {"windows": [], "phases": []}
    marks: list[tuple[str, float]] = []
    start = time.perf_counter()

    def mark(what: str) -> None:
        marks.append((what, time.perf_counter() - start))

    warm = Pupil(url, "attention", timeout)  # imports, first models, first caches
    await _all([warm.open()], "warm-up: Attention page")
    await _all([warm.go("train")], "warm-up: Train page")
    await _all([warm.run(warm.value("tr_task", string_value=DATES_LABEL))],
               "warm-up: the date task")
    await warm.close()
    mark("warm-up")

    pupils = [Pupil(url, "attention", timeout) for _ in range(sessions)]
    typist = pupils[0]
    movers, stayers = pupils[:sessions - on_train], pupils[sessions - on_train:]
    await _all([p.open() for p in pupils], "opening the Attention page")
    out["settle"] = await settle(pid)  # the hub's workers have started and warmed up
    mark("(a) starts")
    out["windows"].append(await measure("(a)", pid, pupils, typist, window, every, salt=1))

    mark("to the Train page")
    await _all([p.go("train") for p in pupils], "going to the Train page")
    await _all([p.run(p.value("tr_task", string_value=DATES_LABEL)) for p in pupils],
               "choosing the date task")
    await _all([p.run({**p.value("tr_early", bool_value=False),
                       **p.value("tr_steps", double_array_value=[steps]),
                       **p.value("tr_batch", string_value=str(batch))}) for p in pupils],
               "'Stop when learned' off, steps, batch")
    for p in pupils:
        p.timeout = press_timeout
    mark("Train pressed")
    out["phases"].append(await phase(
        f"all {sessions} press Train (the clicks' runs)", pid, pupils,
        [p.run(p.value("tr_train", trigger_value=True)) for p in pupils]))
    for p in pupils:
        p.timeout = timeout
    mark("(p) starts")
    out["timers_p"] = sum(len(p.timers) for p in pupils)
    out["windows"].append(await measure("(p)", pid, pupils, None, turn, every, salt=0,
                                        training=True))
    mark(f"{len(movers)} to the Attention page")
    # the page drawn by a Train click has section 2's fragment only (its sidebar was drawn
    # before the training was the learner's); any later run of the page adds the sidebar's
    out["phases"].append(await phase(
        f"{len(movers)} go to the Attention page, {len(stayers)} rerun the Train page", pid,
        pupils, [p.go("attention") for p in movers] + [p.run({}) for p in stayers]))
    await asyncio.sleep(2.0)
    out["timers_b"] = ([len(p.timers) for p in movers], [len(p.timers) for p in stayers])
    mark("(b) and (c) start")
    out["windows"] += await turns(pid, pupils, typist, ("(b)", "(c)"), window, turn, every,
                                  salt=10)
    if not any(w.ended_early for w in out["windows"]) and stayers:
        mark(f"the other {len(stayers)} to the Attention page")
        out["phases"].append(await phase(
            f"the other {len(stayers)} go to the Attention page", pid, pupils,
            [p.go("attention") for p in stayers]))
        await asyncio.sleep(2.0)
        out["timers_d"] = sum(len(p.timers) for p in pupils)
        mark("(d) starts")
        out["windows"].append(await measure("(d)", pid, pupils, typist, window, every,
                                            salt=40, training=True))
    mark("done")
    out["problems"] = [x for p in pupils for x in p.fragment_problems]
    out["marks"] = marks
    await asyncio.gather(*(p.close() for p in pupils))
    return out


def _share(cpu: float, seconds: float) -> str:
    return f"{cpu / seconds * 100:.0f}%" if seconds else "-"


def _window_row(w: Window, cores: int) -> list[object]:
    ok = [r.seconds for r in w.typed if not r.error]
    errors = sum(1 for r in w.typed if r.error)
    return [w.name, f"{w.seconds:.0f}" + (" (training ended)" if w.ended_early else ""),
            len(w.typed), errors, f"{median(ok):.2f}", f"{p90(ok):.2f}",
            f"{max(ok, default=float('nan')):.2f}", _share(w.server_cpu, w.seconds),
            _share(w.children_cpu, w.seconds),
            _share((w.server_cpu + w.children_cpu) / cores, w.seconds),
            f"{w.asked / w.seconds:.1f}", f"{(w.served + w.other) / w.seconds:.1f}",
            f"{w.served / w.seconds:.1f}",
            f"{median(w.fragment_waits):.2f}" if w.fragment_waits else "-",
            f"{p90(w.fragment_waits):.2f}" if w.fragment_waits else "-",
            f"{w.kilobytes / w.seconds:.0f}", _share(w.client_cpu, w.seconds)]


def _phase_row(w: Window, cores: int) -> list[object]:
    ok = [r.seconds for r in w.typed if not r.error]
    return [w.name, f"{w.seconds:.0f}", f"{len(ok)} / {len(w.typed)}", f"{median(ok):.1f}",
            f"{max(ok, default=float('nan')):.1f}", _share(w.server_cpu, w.seconds),
            _share(w.children_cpu, w.seconds),
            _share((w.server_cpu + w.children_cpu) / cores, w.seconds),
            f"{w.asked / w.seconds:.1f}", f"{(w.served + w.other) / w.seconds:.1f}",
            f"{w.served / w.seconds:.1f}"]


def main(argv: Sequence[str] | None = None) -> int:
    import os

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=30, help="learners")
    ap.add_argument("--on-train", type=int, default=None,
                    help="learners who stay on the Train page in (b) (default: a third)")
    ap.add_argument("--window", type=float, default=20.0, help="seconds of each window")
    ap.add_argument("--turn", type=float, default=10.0,
                    help="seconds of each turn of (b) and (c), which alternate")
    ap.add_argument("--every", type=float, default=2.0, help="seconds between sentences")
    ap.add_argument("--steps", type=int, default=2000, help="the training's steps (50-2000)")
    ap.add_argument("--batch", type=int, default=128, choices=(16, 32, 64, 128),
                    help="the training's batch size (the date recipe's is 64)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds a learner waits for a page (the typist: the window)")
    ap.add_argument("--press-timeout", type=float, default=30.0,
                    help="seconds a learner waits for the page its Train click draws (then "
                         "the bench goes on: the training must last through the windows)")
    ap.add_argument("--smoke", action="store_true", help="3 learners, 4 s windows")
    args = ap.parse_args(argv)
    sessions, window, turn, every = max(2, args.sessions), args.window, args.turn, args.every
    if args.smoke:
        sessions, window, turn, every = 3, 4.0, 2.0, 1.0
    on_train = args.on_train if args.on_train is not None else sessions // 3
    on_train = min(max(0, on_train), sessions - 1)
    cores = os.cpu_count() or 1

    print(machine_facts() + "\n")
    t0 = time.perf_counter()
    with served_app() as (url, pid):
        out = asyncio.run(run_class(url, pid, sessions, on_train, window, turn, every,
                                    args.steps, args.batch, args.timeout, args.press_timeout))
    took = time.perf_counter() - t0

    movers = sessions - on_train
    print(f"{sessions} learners on one server (whole run {took:.0f} s). (a) all on the "
          f"Attention page, nothing training. Then all press Train on the date task "
          f"together (same settings, {args.steps} steps, batch {args.batch}, \"Stop when "
          f"learned\" off: one shared training in a worker process); (p) all {sessions} "
          f"still on the Train page the click drew (section 2's progress fragment only), "
          f"nobody typing; (b) {movers} on the Attention page and {on_train} on the Train "
          f"page, every page's fragments rerunning every second; (c) the same, the "
          f"fragment timers silenced (a control), in turns of {turn:g} s with (b); (d) all "
          f"{sessions} on the Attention page (the sidebar's status only). In (a)-(d) one "
          f"learner on the Attention page sends a new sentence every {every:g} s.\n")
    print(table(["window", "seconds", "sentences", "errors", "wait median s", "wait p90 s",
                 "wait worst s", "server CPU (of one core)", "children CPU (of one core)",
                 f"all CPU (of {cores} cores)", "fragment reruns asked /s",
                 "fragment runs ended /s", "fragment redraws sent /s",
                 "fragment redraw median s", "fragment redraw p90 s",
                 "KB/s to all clients", "the clients' own CPU (of one core)"],
                [_window_row(w, cores) for w in out["windows"]]))
    print("\n(wait: from sending the sentence to the end of the script run that draws it, "
          "script_finished; an error: not drawn within the window (--window s), or drawn "
          "wrong. children: the hub's training worker processes and multiprocessing's "
          "resource tracker. Fragment reruns asked: by the clients' timers; runs ended: "
          "script_finished of a fragment run, the server merging the requests that arrive "
          "while one waits; redraws sent: those that ended FINISHED_FRAGMENT_RUN_SUCCESSFULLY "
          "(the others, FINISHED_EARLY_FOR_RERUN, ran but their messages were dropped: the "
          "session's next run began before they had left the server). Fragment redraw: from "
          "a timer's request to the end of the redraw sent that answered it)")
    print("\nThe moves between the windows (many learners at once):\n")
    print(table(["phase", "seconds", "runs done / asked", "run median s", "run worst s",
                 "server CPU (of one core)", "children CPU (of one core)",
                 f"all CPU (of {cores} cores)", "fragment reruns asked /s",
                 "fragment runs ended /s", "fragment redraws sent /s"],
                [_phase_row(w, cores) for w in out["phases"]]))
    named = {w.name: w for w in out["windows"]}
    base = named.get("(c)")
    print()
    for name, what in (("(p)", "Section 2's progress on all the Train pages"),
                       ("(b)", "The redraws of (b)"), ("(d)", "The sidebar status alone")):
        w = named.get(name)
        runs = (w.served + w.other) / w.seconds if w is not None and w.seconds else 0.0
        if base is None or not runs:
            continue
        cost = w.server_cpu / w.seconds - base.server_cpu / base.seconds
        print(f"{what}, {name} minus (c): {cost * 100:.0f}% of a core for {runs:.1f} fragment "
              f"runs a second ({cost / runs * 1000:.0f} ms of the server's CPU each).")
    if base is not None and "(a)" in named:
        a = named["(a)"]
        print(f"The training's own cost to the server (relaying its steps), (c) minus (a): "
              f"{(base.server_cpu / base.seconds - a.server_cpu / a.seconds) * 100:.0f}% of a "
              f"core.")
    on_att, on_tr = out.get("timers_b", ([], []))
    print(f"\nFragment timers: {out.get('timers_p', 0)} at the start of (p); at the start of "
          f"(b), {sum(on_att)} on the {len(on_att)} Attention pages and {sum(on_tr)} on the "
          f"{len(on_tr)} Train pages"
          + (f"; at the start of (d), {out['timers_d']}" if "timers_d" in out else "")
          + f". Before (a), {out['settle']:.0f} s until the server and its workers were idle.")
    errors = [r.error for w in [*out["windows"], *out["phases"]] for r in w.typed
              if r.error] + out["problems"]
    if errors:
        print(f"\nErrors ({len(errors)}; first 5): " + " | ".join(errors[:5]))
    print("\nTimeline (s after the server was up): " + "; ".join(
        f"{what} {at:.0f}" for what, at in out["marks"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
