"""Load: a class on one server; every learner types a sentence on the attention page.

Rerun: `.venv/bin/python -m bench.load` (options: --sessions N (30), --spread S (10),
--timeout S (120), --no-browser-check, --smoke). The browser check needs Debian's Chromium at
/usr/bin/chromium and the playwright package; without them it is skipped with a note.

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port) serves every
session and is stopped at the end. The learners are lightweight clients that speak
Streamlit's own protocol over the websocket `/_stcore/stream`, as the browser does:
protobuf BackMsg `rerun_script` messages carrying the page and the state of every widget
on it (ids and values taken from the widgets the server sent in the previous run, in the
form the browser sends them), and ForwardMsg deltas back. 30 Chromium pages would need far
more CPU than the server they measure on a 2-core machine; these clients need almost none,
so the times are the server's. A learner's page counts as updated when the rerun's script
finished successfully (the last message the server sends for it) and its attention grid
shows the new sentence's word; the browser only has to draw what it received then.

Phases: a warm-up session (the first run of a fresh server imports torch and plotly); all
sessions open the attention page at once ("open"); all send a new sentence at the same
moment ("burst", the worst case: the teacher says "now type your sentence"); each sends
another at a random moment within --spread seconds ("spread", seeded). The target is for
the burst: p95 <= 3 s on 2 cores, no errors. An error is a timeout, a closed connection, a
run that did not finish successfully, an exception or error box on the page, or a grid
without the new word. Memory: the server process's VmRSS, polled every 0.1 s, and VmHWM
(its peak since start) from /proc/<pid>/status; server CPU: utime + stime of
/proc/<pid>/stat. Finally one real Chromium page types session 0's last sentence and must
show the same grid (tick labels, heatmaps) and as many charts as that session received.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import (
    CHROMIUM,
    child_pid,
    have_chromium,
    machine_facts,
    median,
    memory_mb,
    met,
    sentence,
    table,
)
from tests.serve import CHROMIUM_ARGS, free_port, serve, wait_idle

P95_TARGET_S = 3.0
PAGE = "attention"
GRID_KEY = "attn_grid"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
WIDGET_KINDS = ("text_input", "radio", "selectbox", "number_input", "slider", "checkbox")


# ---- Statistics and /proc --------------------------------------------------------------------


def p95(xs: Sequence[float]) -> float:
    """95th percentile by nearest rank (the largest value for fewer than 20 runs)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """utime + stime of a process (or one of its threads), in seconds."""
    path = Path(f"/proc/{pid}/stat") if tid is None else Path(f"/proc/{pid}/task/{tid}/stat")
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # fields 14 and 15 of stat


# ---- A learner speaking Streamlit's websocket protocol ----------------------------------------


def widget_key(widget_id: str) -> str:
    """The user key in a widget id such as "$$ID-<hash>-source" (the id if it has none)."""
    return widget_id.split("-", 2)[2] if widget_id.startswith("$$ID-") else widget_id


def widget_state(kind: str, el, previous: object | None = None) -> object | None:
    """The WidgetState a browser reports for a widget the server drew (None: it sends none).

    As the browser's widget manager does: a value the server set (`set_value`, e.g. from
    st.session_state) wins; otherwise the value the widget already had keeps (`previous`,
    same widget id); a new widget starts from its default. Browsers send every widget's
    value on each rerun: strings for text inputs and the formatted option for radios and
    selectboxes, numbers for number inputs, a list for sliders, booleans for checkboxes and
    toggles. Buttons send a trigger only when clicked.
    """
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    if kind not in WIDGET_KINDS:
        return None
    if not el.set_value and previous is not None and previous.id == el.id:
        return previous
    ws = WidgetState(id=el.id)
    if kind == "text_input":
        ws.string_value = el.value if el.set_value else el.default
    elif kind in ("radio", "selectbox"):
        if el.set_value and el.HasField("raw_value"):
            ws.string_value = el.raw_value
        elif el.HasField("default") and 0 <= el.default < len(el.options):
            ws.string_value = el.options[el.default]
        else:
            return None
    elif kind == "number_input":
        value = el.value if el.set_value else el.default
        if el.data_type == el.DataType.INT:
            ws.int_value = int(value)
        else:
            ws.double_value = value
    elif kind == "slider":
        ws.double_array_value.data.extend(list(el.value) if el.set_value else list(el.default))
    else:  # checkbox (and toggle)
        ws.bool_value = el.value if el.set_value else el.default
    return ws


@dataclass
class RunResult:
    """One script run as a learner saw it."""

    seconds: float = float("nan")  # from sending the message to the run's script_finished
    grid_seconds: float = float("nan")  # ... to the attention grid's delta
    error: str = ""  # empty: the page was updated as expected
    charts: int = 0  # plotly charts received in this run
    kilobytes: float = 0.0  # websocket payload received for this run
    grid_spec: dict = field(default_factory=dict)


class Socket:
    """A browser tab's end of /_stcore/stream: its connection, the widget values it holds and
    the BackMsg it sends, as Streamlit's frontend writes them. `Learner` (below) waits for
    each run it asks for; bench/class_background.py `Pupil` reads every message in a task of
    its own and runs the fragments' timers."""

    NOT_SENT: tuple[str, ...] = ()  # widgets whose state this client cannot write as a browser

    def __init__(self, base_url: str, page: str, timeout: float) -> None:
        self.base_url, self.page, self.timeout = base_url, page, timeout
        self.ws = None
        self.widgets: dict[str, object] = {}  # key -> WidgetState as the browser would send
        self.buttons: dict[str, str] = {}  # key -> widget id of the page's buttons
        self.page_hash = ""

    async def connect(self) -> str:
        """Open the websocket, as a browser opening the app does: "" or what went wrong."""
        from websockets.asyncio.client import connect

        ws_url = self.base_url.replace("http://", "ws://") + "/_stcore/stream"
        try:
            self.ws = await asyncio.wait_for(
                connect(ws_url, subprotocols=["streamlit"], max_size=None,
                        origin=self.base_url, open_timeout=self.timeout), self.timeout)
        except (TimeoutError, OSError) as exc:
            return f"connect: {type(exc).__name__}"
        return ""

    def widget_id(self, key: str) -> str:
        """The id of widget `key` on the page (KeyError if it has none)."""
        return self.widgets[key].id if key in self.widgets else self.buttons[key]

    def value(self, key: str, **fields: object) -> dict[str, object]:
        """A new value for widget `key`, e.g. value("source", string_value="a b"), or a
        click: value("tr_train", trigger_value=True). KeyError if the page has no such widget.
        """
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        state = WidgetState(id=self.widget_id(key))
        for name, v in fields.items():
            if isinstance(v, list | tuple):
                getattr(state, name).data.extend(v)
            else:
                setattr(state, name, v)
        return {key: state}

    def _back_msg(self, widgets: dict[str, object], page_name: str = "",
                  fragment_id: str = "") -> bytes:
        """A rerun request with `widgets`' states: of the whole page, or of `fragment_id` as
        its timer asks (is_auto_rerun)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = ""
        state.page_name = page_name
        state.page_script_hash = self.page_hash
        state.widget_states.widgets.extend(
            v for k, v in widgets.items() if k not in self.NOT_SENT)
        if fragment_id:
            state.fragment_id = fragment_id
            state.is_auto_rerun = True
        info = state.context_info
        info.timezone, info.timezone_offset, info.locale = "UTC", 0, "en-US"
        info.url, info.is_embedded, info.color_scheme = (f"{self.base_url}/{self.page}", False,
                                                         "light")
        return msg.SerializeToString()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


class Learner(Socket):
    """One session whose runs are awaited one at a time: it reads the messages of the run it
    asked for."""

    def __init__(self, base_url: str, page: str = PAGE, timeout: float = 120.0) -> None:
        super().__init__(base_url, page, timeout)
        self.session_id = ""

    async def open(self) -> RunResult:
        """Connect and ask for the page, as a browser opening /<page> does."""
        t0 = time.perf_counter()
        error = await self.connect()
        if error:
            return RunResult(error=error)
        return await self._rerun({}, t0, page_name=self.page)

    async def run(self, changed: dict[str, object], must_show: str | None = None) -> RunResult:
        """Send `changed` (from `value`) with every other widget's value; wait for the run."""
        return await self._rerun(changed, time.perf_counter(), must_show=must_show)

    async def set_widget(self, key: str, value: str, must_show: str | None = None) -> RunResult:
        """Change a text widget (as typing + Enter does) and wait for the page's rerun."""
        if key not in self.widgets:
            return RunResult(error=f"no widget {key!r} on the page")
        return await self.run(self.value(key, string_value=value), must_show=must_show)

    async def send(self, changed: dict[str, object]) -> float:
        """Send `changed` without waiting (e.g. a click during a run); the time it left."""
        await self.ws.send(self._back_msg({**self.widgets, **changed}))
        return time.perf_counter()

    async def receive(self, timeout: float | None = None):
        """The next ForwardMsg from the server."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        data = await asyncio.wait_for(self.ws.recv(), timeout or self.timeout)
        msg = ForwardMsg()
        msg.ParseFromString(data)
        return msg

    async def _rerun(self, changed: dict[str, object], t0: float, page_name: str = "",
                     must_show: str | None = None) -> RunResult:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        result = RunResult()
        known = {**self.widgets, **changed}  # what this session's widgets hold now
        widgets: dict[str, object] = {}
        problems: list[str] = []
        received = 0
        try:
            await self.ws.send(self._back_msg({**self.widgets, **changed}, page_name))
            deadline = t0 + self.timeout
            while True:
                data = await asyncio.wait_for(self.ws.recv(),
                                              max(0.01, deadline - time.perf_counter()))
                received += len(data)
                msg = ForwardMsg()
                msg.ParseFromString(data)
                kind = msg.WhichOneof("type")
                if kind == "new_session":  # a run starts: what came before was superseded
                    widgets, problems, result.charts = {}, [], 0
                    self.session_id = msg.new_session.initialize.session_id
                elif kind == "navigation":
                    for p in msg.navigation.app_pages:
                        if p.url_pathname == self.page:
                            self.page_hash = p.page_script_hash
                elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                    el_kind = msg.delta.new_element.WhichOneof("type")
                    el = getattr(msg.delta.new_element, el_kind)
                    if el_kind == "exception":
                        problems.append(f"exception: {el.type}")
                    elif el_kind == "alert" and el.format == el.Format.ERROR:
                        problems.append("error box: " + el.body[:80])
                    elif el_kind == "plotly_chart":
                        result.charts += 1
                        if widget_key(el.id) == GRID_KEY:
                            result.grid_seconds = time.perf_counter() - t0
                            result.grid_spec = json.loads(el.spec)
                    key = widget_key(getattr(el, "id", ""))
                    ws = widget_state(el_kind, el, known.get(key)) if key else None
                    if ws is not None:
                        widgets[key] = ws
                    elif el_kind == "button" and key:
                        self.buttons[key] = el.id
                elif kind == "script_finished":
                    status = msg.script_finished
                    if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        continue  # the app asked for a rerun (first visit to a page URL)
                    result.seconds = time.perf_counter() - t0
                    if status != ForwardMsg.FINISHED_SUCCESSFULLY:
                        problems.append(f"script finished with status {status}")
                    break
        except TimeoutError:
            problems.append(f"timeout after {self.timeout:g} s")
        except Exception as exc:  # a closed connection, a protocol error: count, go on
            problems.append(f"{type(exc).__name__}: {exc}"[:120])
        result.kilobytes = received / 1000
        if widgets:
            self.widgets = widgets
        if not problems and must_show is not None and must_show not in json.dumps(
                result.grid_spec, ensure_ascii=False):
            problems.append(f"the attention grid does not show {must_show!r}")
        result.error = "; ".join(problems)
        return result


# ---- The load test ----------------------------------------------------------------------------


class MemoryPoller:
    """Polls the server's VmRSS every `every` seconds in the event loop; keeps the maximum."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid, self.every, self.max_rss = pid, every, 0.0
        self._task: asyncio.Task | None = None

    async def _poll(self) -> None:
        while True:
            self.max_rss = max(self.max_rss, memory_mb(self.pid)["VmRSS"])
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self.max_rss = memory_mb(self.pid)["VmRSS"]
        self._task = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        return max(self.max_rss, memory_mb(self.pid)["VmRSS"])


def new_word(text: str) -> str:
    """The attention grid's tick label for the sentence's fresh word (index 2)."""
    return f"2:{text.split()[2]}"


async def run_load(url: str, pid: int, sessions: int, spread: float,
                   timeout: float) -> dict[str, object]:
    """All phases against one running server; returns the measurements."""
    out: dict[str, object] = {"rss": {}, "cpu": {}}
    mem = out["rss"]
    mem["idle"] = memory_mb(pid)["VmRSS"]

    teacher = Learner(url, timeout=timeout)  # warm-up: imports, first models, first caches
    first = await teacher.open()
    text = sentence(0, salt=9)
    again = await teacher.set_widget("source", text, must_show=new_word(text))
    await teacher.close()
    out["warmup"] = (first, again)
    mem["after warm-up"] = memory_mb(pid)["VmRSS"]

    poller = MemoryPoller(pid)
    poller.start()
    learners = [Learner(url, timeout=timeout) for _ in range(sessions)]
    cpu0 = cpu_seconds(pid)
    out["open"] = await asyncio.gather(*(s.open() for s in learners))
    cpu1 = cpu_seconds(pid)
    mem["after open"] = memory_mb(pid)["VmRSS"]

    texts = [sentence(i, salt=1) for i in range(sessions)]
    out["burst_texts"] = texts
    out["burst"] = await asyncio.gather(*(
        s.set_widget("source", t, must_show=new_word(t)) for s, t in zip(learners, texts,
                                                                           strict=True)))
    cpu2 = cpu_seconds(pid)
    mem["after burst"] = memory_mb(pid)["VmRSS"]
    out["cpu"] = {"open": cpu1 - cpu0, "burst": cpu2 - cpu1}

    if spread > 0:
        rng = random.Random(5)
        delays = [rng.uniform(0, spread) for _ in learners]

        async def later(s: Learner, delay: float, text: str) -> RunResult:
            await asyncio.sleep(delay)
            return await s.set_widget("source", text, must_show=new_word(text))

        out["spread_texts"] = [sentence(i, salt=2) for i in range(sessions)]
        out["spread"] = await asyncio.gather(*(
            later(s, d, t) for s, d, t in zip(learners, delays, out["spread_texts"],
                                              strict=True)))
        out["cpu"]["spread"] = cpu_seconds(pid) - cpu2
    mem["peak during load (polled)"] = await poller.stop()
    await asyncio.gather(*(s.close() for s in learners))
    await asyncio.sleep(2.0)
    mem["all closed, +2 s"] = memory_mb(pid)["VmRSS"]
    mem["VmHWM (peak since start)"] = memory_mb(pid)["VmHWM"]
    return out


def browser_check(url: str, text: str, spec: dict, charts: int) -> tuple[bool, str]:
    """One real Chromium page types `text`: the same grid (tick labels, one heatmap per head)
    and as many charts as the protocol client received for it."""
    from playwright.sync_api import sync_playwright

    expected = [str(t) for t in spec.get("layout", {}).get("yaxis", {}).get("ticktext", [])]
    heatmaps = sum(1 for t in spec.get("data", []) if t.get("type") == "heatmap")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/{PAGE}", timeout=120_000)
            wait_idle(page, 0.5)
            box = page.locator(".st-key-source input").first
            box.fill(text)
            box.press("Enter")
            page.wait_for_function(
                """w => { const g = document.querySelector('.st-key-attn_grid .js-plotly-plot');
                          return g !== null && g.textContent.includes(w); }""",
                arg=new_word(text), polling=100, timeout=120_000)
            wait_idle(page, 1.0)
            grid = page.locator(f".st-key-{GRID_KEY} .js-plotly-plot").first
            ticks = [t.text_content() for t in grid.locator("g.ytick text").all()]
            shown_maps = grid.locator("g.hm").count()
            shown = page.locator("[data-testid='stPlotlyChart']").count()
        finally:
            browser.close()
    same = (bool(expected) and ticks[:len(expected)] == expected and shown == charts
            and shown_maps == heatmaps)
    return same, (f"grid ticks {ticks[:len(expected)]} (client: {expected}); heatmaps "
                  f"{shown_maps} (client: {heatmaps}); charts {shown} (client: {charts})")


def _row(name: str, results: Sequence[RunResult], target: bool) -> list[object]:
    ok = [r.seconds for r in results if not r.error]
    grid = [r.grid_seconds for r in results if not r.error]
    errors = sum(1 for r in results if r.error)
    value = p95(ok) if ok else float("inf")
    return [name, len(results), errors, f"{median(ok):.2f}", f"{p95(ok):.2f}",
            f"{max(ok, default=float('nan')):.2f}", f"{median(grid):.2f}",
            f"{median([r.kilobytes for r in results]):.0f}",
            f"≤ {P95_TARGET_S:g}, 0 errors" if target else "-",
            ("yes" if errors == 0 and value <= P95_TARGET_S else
             f"NO ({errors} errors)" if errors else met(value, P95_TARGET_S)) if target else "-"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=30, help="concurrent learners")
    ap.add_argument("--spread", type=float, default=10.0,
                    help="seconds over which the 'spread' round's texts arrive (0: skip)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per page update")
    ap.add_argument("--no-browser-check", action="store_true",
                    help="skip the Chromium check of what the protocol clients received")
    ap.add_argument("--smoke", action="store_true", help="3 sessions, a 2 s spread")
    args = ap.parse_args(argv)
    sessions, spread = max(1, args.sessions), max(0.0, args.spread)
    if args.smoke:
        sessions, spread = 3, 2.0

    print(machine_facts() + "\n")
    port = free_port()
    with serve(port) as url:
        pid = child_pid(port)
        if pid is None:
            raise RuntimeError(f"no server process of ours on port {port}")
        t0 = time.perf_counter()
        out = asyncio.run(run_load(url, pid, sessions, spread, args.timeout))
        took = time.perf_counter() - t0
        check = None
        if not args.no_browser_check and have_chromium():
            last = "spread" if "spread" in out else "burst"  # widget states carried longest
            first = out[last][0]
            check = browser_check(url, out[f"{last}_texts"][0], first.grid_spec, first.charts)

    warm_open, warm_type = out["warmup"]
    print(f"{sessions} learners on one server, attention page, tiny preset "
          f"(warm-up session: first page {warm_open.seconds:.1f} s, one new sentence "
          f"{warm_type.seconds:.2f} s; whole run {took:.0f} s)\n")
    rows = [_row("open the page (all at once)", out["open"], False),
            _row("new sentence, all at once (burst)", out["burst"], True)]
    if "spread" in out:
        rows.append(_row(f"new sentence, within {spread:g} s (spread)", out["spread"], False))
    print(table(["phase", "sessions", "errors", "p50 s", "p95 s", "max s", "grid p50 s",
                 "KB per session", "target", "met?"], rows))
    print("\n(s: from sending the message to the run's last message, script_finished; grid: to "
          "the attention grid's delta)")
    cpu = out["cpu"]
    print("\nServer CPU time (utime + stime): " + ", ".join(
        f"{k} {v:.1f} s ({v / sessions * 1000:.0f} ms per session)" for k, v in cpu.items()))
    print("\nServer memory (MB)\n")
    print(table(["phase", "RSS MB"], [[k, v] for k, v in out["rss"].items()]))
    errors = [r.error for phase in ("open", "burst", "spread") for r in out.get(phase, [])
              if r.error]
    if errors:
        print("\nErrors (first 5): " + " | ".join(errors[:5]))
    if check is None:
        print("\nBrowser check: skipped" + ("" if have_chromium() else
                                            f" (no Chromium at {CHROMIUM})"))
    else:
        print(f"\nBrowser check (Chromium typed session 0's last sentence): "
              f"{'same page' if check[0] else 'DIFFERENT'}: {check[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
