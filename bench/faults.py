"""Faults during training: a learner closes the browser, reloads, or presses Stop.

Rerun: `.venv/bin/python -m bench.faults` (options: --faults close,reload,stop, --max-wait S
(150), --stop-runs N (3), --smoke). Needs Debian's Chromium at /usr/bin/chromium and the
playwright package.

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port) serves learner
A and learner B (two browser contexts) and is measured through /proc: the server process's
VmRSS (/proc/<pid>/status) and CPU time (utime + stime of /proc/<pid>/stat, and of
/proc/<pid>/task/<tid>/stat for one thread). It is stopped at the end. B opens the
attention page first (also the server's warm-up). In each scenario A opens the Train page,
drags the steps slider to its maximum (End key), turns "Stop when learned" off and presses
Train; the thread whose CPU time grows fastest over the next 0.5 s is the training thread.
While A trains, B loads the attention page again and types a sentence, both timed (not with
--smoke). Then the fault:
(a) close: A's browser context is closed (the websocket goes away mid-training);
(b) reload: A's page is reloaded;
(c) stop: A clicks Stop. Target: A's page is idle again, with its "Training stopped"
    message, within 1 s of the click (from when the click's message left the browser).
Right after the fault B types another sentence (timed: the server keeps serving others;
after Stop, once A's page is idle, so that the Stop time is A's alone).
"training ended", counted from the fault: for (a) and (b) when the training thread's CPU
time stopped growing (less than 0.03 s of CPU in 0.5 s) or the thread ended (target: 3 s);
the app lets a disconnected page's training go on while no other training waits for a core,
for as long as Streamlit keeps the session for its browser to come back
(`server.disconnectedSessionTTL`, at most explorer/training/hub.RECONNECT_GRACE), so this
server is started with that option at SESSION_TTL seconds: what is timed is how fast a
training ends once the server has given its learner up (a classmate waiting for a core gets
the same, after train_hub.GONE_GRACE);
for (c) when A's browser received the first message of the run that Stop started (the
training loop was interrupted); "A rerun sent": when it received that run's last message
(the server's share of the Stop time; the rest is the browser drawing the page).
"process quiet": the whole server used less than 5 % of a core over 1 s (no orphan thread
keeps a core busy; 0.5 s with --smoke). RSS is read just before Train is pressed and once
the process is quiet.
Finally Stop is timed again (--stop-runs, 3) by a protocol client (bench.load.Learner)
sending the same clicks: the server's time alone, without Chromium drawing the page on the
same two cores (a learner's browser runs on the learner's machine).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
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
from bench.load import Learner, cpu_seconds
from tests.serve import CHROMIUM_ARGS, choose, free_port, serve, wait_idle

STOP_TARGET_S = 1.0
STOP_THREAD_TARGET_S = 3.0  # closing or reloading: training ends within a few seconds
SESSION_TTL = 1  # seconds this server keeps a disconnected session (see the docstring)
VIEWPORT = {"width": 1400, "height": 1000}
TIMEOUT_MS = 180_000
IDLE = "[data-test-script-state='notRunning']"
GRID_HAS = """w => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const g = document.querySelector('.st-key-attn_grid .js-plotly-plot');
  return idle && g !== null && g.textContent.includes(w);
}"""
STOPPED_SHOWN = """() => document.querySelector("[data-test-script-state='notRunning']") !== null
  && document.querySelector("[data-testid='stMain']").innerText
       .includes('Training stopped at step')"""
TRAINING_SHOWN = """() => {
  const p = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']");
  return p !== null && / \\/ \\d+ · loss /.test(p.innerText);
}"""


# ---- /proc ---------------------------------------------------------------------------------


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of every thread of `pid` now."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out[int(task.name)] = cpu_seconds(pid, int(task.name))
        except (OSError, ValueError, IndexError):
            continue  # the thread ended while we looked
    return out


def busiest_thread(pid: int, window: float = 1.0) -> tuple[int, float]:
    """The thread that used the most CPU over `window` seconds, and its share of a core."""
    before = thread_cpu(pid)
    time.sleep(window)
    after = thread_cpu(pid)
    tid = max(after, key=lambda t: after[t] - before.get(t, after[t]))
    return tid, (after[tid] - before.get(tid, after[tid])) / window


def thread_stopped_after(pid: int, tid: int, since: float, max_wait: float,
                         window: float = 0.5, eps: float = 0.03) -> float | None:
    """Seconds from `since` until thread `tid` stopped using CPU (or ended); None: it did not."""
    samples: list[tuple[float, float]] = []
    while time.perf_counter() - since < max_wait + window:
        now = time.perf_counter()
        try:
            samples.append((now, cpu_seconds(pid, tid)))
        except (OSError, IndexError, ValueError):  # the thread is gone
            return (samples[-1][0] if samples else now) - since
        for t, c in samples:  # the first sample followed by a quiet window
            if now - t >= window and samples[-1][1] - c <= eps:
                return max(0.0, t - since)
        samples = [s for s in samples if now - s[0] <= 2 * window]
        time.sleep(0.1)
    return None


def process_quiet_after(pid: int, since: float, max_wait: float, window: float = 1.0,
                        share: float = 0.05) -> tuple[float | None, float]:
    """Seconds from `since` until the process used < `share` of a core over `window`."""
    last = 1.0
    while time.perf_counter() - since < max_wait:
        t0, c0 = time.perf_counter(), cpu_seconds(pid)
        time.sleep(window)
        last = (cpu_seconds(pid) - c0) / (time.perf_counter() - t0)
        if last < share:
            return t0 - since, last
    return None, last


# ---- Browser steps -------------------------------------------------------------------------


def open_and_time(page, url: str) -> float:
    """Load the attention page; seconds until its run is done and the grid is drawn."""
    t0 = time.perf_counter()
    page.goto(f"{url}/attention", timeout=TIMEOUT_MS)
    page.wait_for_function(GRID_HAS, arg="0:", polling=50, timeout=TIMEOUT_MS)
    return time.perf_counter() - t0


def type_and_time(page, text: str) -> float:
    """Type a new source sentence; seconds until the page is idle with the new word drawn."""
    word = text.split()[2]
    t0 = time.perf_counter()
    box = page.locator(".st-key-source input").first
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(GRID_HAS, arg=f":{word}", polling=50, timeout=TIMEOUT_MS)
    return time.perf_counter() - t0


def switch_off(page, key: str) -> None:
    """Turn off the toggle or checkbox whose widget key is `key`, if the page has it on."""
    box = page.locator(f".st-key-{key} input[type='checkbox']")
    if box.count() and box.first.is_checked():
        page.locator(f".st-key-{key} label").first.click()
        page.wait_for_timeout(300)
        wait_idle(page, 0.3)


def open_long_training(page, url: str) -> int:
    """Open the Train page, pick the sidebar's model in the small preset (the fast recipe
    would finish 2000 steps before the fault), drag the steps slider to its end (End key)
    and turn off "Stop when learned"; returns the steps set."""
    page.goto(f"{url}/train", timeout=TIMEOUT_MS)
    wait_idle(page, 0.3)
    choose(page, "preset", "small")
    sidebar_model = page.locator(".st-key-tr_model label")
    if sidebar_model.count() > 1:
        sidebar_model.nth(1).click()
        page.wait_for_timeout(300)
        wait_idle(page, 0.3)
    switch_off(page, "tr_early")
    slider = page.locator(".st-key-tr_steps input[type='range']").first
    slider.focus()
    slider.press("End")
    page.wait_for_timeout(300)
    wait_idle(page, 0.3)
    return int(slider.get_attribute("value") or 0)


def press_train(page) -> None:
    page.locator(".st-key-tr_train button").first.click()
    page.wait_for_function(TRAINING_SHOWN, polling=50, timeout=TIMEOUT_MS)


class RunEvents:
    """When the page received each script run's first (new_session) and last message."""

    def __init__(self, page) -> None:
        self.sent: list[float] = []  # when the page sent a message (a click's rerun request)
        self.starts: list[float] = []
        self.ends: list[float] = []
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        ws.on("framesent", lambda _: self.sent.append(time.perf_counter()))
        ws.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # noqa: BLE001 - not a ForwardMsg: not ours to judge here
            return
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.starts.append(time.perf_counter())
        elif kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            self.ends.append(time.perf_counter())

    @staticmethod
    def first_after(times: list[float], t: float) -> float | None:
        later = [x for x in times if x > t]
        return later[0] - t if later else None


class ThreadWatch:
    """Watches in the background when thread `tid` of `pid` stops using CPU (or ends)."""

    def __init__(self, pid: int, tid: int, since: float, max_wait: float) -> None:
        self.result: float | None = None
        self._thread = threading.Thread(
            target=self._run, args=(pid, tid, since, max_wait), daemon=True)
        self._thread.start()

    def _run(self, pid: int, tid: int, since: float, max_wait: float) -> None:
        self.result = thread_stopped_after(pid, tid, since, max_wait)

    def wait(self) -> float | None:
        self._thread.join()
        return self.result


@dataclass
class Outcome:
    """What one fault scenario measured (seconds, MB; None: did not happen in time)."""

    fault: str
    steps: int = 0
    train_share: float = 0.0  # share of a core the training thread used
    b_load: float = float("nan")  # B loads the attention page during training
    b_during: float = float("nan")  # B types a sentence during training
    b_after: float = float("nan")  # B types a sentence right after the fault
    interrupted: float | None = None  # fault -> training ended (see the module docstring)
    rerun_done: float | None = None  # (c) click -> the rerun's last message received
    page_idle: float | None = None  # (c) click -> page idle with the stopped message
    quiet: float | None = None  # fault -> whole process quiet
    quiet_share: float = 0.0
    rss_before: float = 0.0
    rss_during: float = 0.0
    rss_after: float = 0.0
    notes: list[str] = field(default_factory=list)


def scenario(browser, b, url: str, pid: int, fault: str, max_wait: float, salt: int,
             full: bool = True) -> Outcome:
    """One fault while A trains; `b` is learner B's page (open on the attention page)."""
    out = Outcome(fault)
    a_ctx = browser.new_context(viewport=VIEWPORT)
    try:
        a = a_ctx.new_page()
        events = RunEvents(a)
        out.steps = open_long_training(a, url)
        time.sleep(0.5 if full else 0.2)
        out.rss_before = memory_mb(pid)["VmRSS"]
        press_train(a)
        tid, out.train_share = busiest_thread(pid, 0.5)
        if full:
            out.b_load = open_and_time(b, url)
            out.b_during = type_and_time(b, sentence(0, salt))
        out.rss_during = memory_mb(pid)["VmRSS"]
        if a.locator(IDLE).count():
            out.notes.append("training had already ended before the fault")

        t_fault = time.perf_counter()
        watch = ThreadWatch(pid, tid, t_fault, max_wait)
        if fault == "close the browser":
            a_ctx.close()
        elif fault == "reload the page":
            a.reload(wait_until="commit", timeout=TIMEOUT_MS)
        else:  # Stop is timed alone: B types once A's page is idle again
            a.locator(".st-key-tr_stop button").first.click()
            a.wait_for_function(STOPPED_SHOWN, polling=50, timeout=TIMEOUT_MS)
            done = time.perf_counter()
            # the clock starts when the click's rerun request left the browser (Playwright
            # may wait a moment first for the button to hold still under the live chart)
            sent = events.first_after(events.sent, t_fault)
            t_click = t_fault + (sent or 0.0)
            out.page_idle = done - t_click
            out.interrupted = events.first_after(events.starts, t_click)
            out.rerun_done = events.first_after(events.ends, t_click)
        out.b_after = type_and_time(b, sentence(1, salt))
        thread_quiet = watch.wait()
        if fault != "click Stop":  # Stop's rerun may run on the same thread: timed above
            out.interrupted = thread_quiet
        if fault == "reload the page":
            wait_idle(a, 0.2)
            text = a.inner_text("[data-testid='stMain']")
            out.notes.append("after the reload: " + (
                "the partly trained model was kept" if "Training stopped at step" in text
                else "a fresh session (not trained yet)" if "Not trained yet" in text
                else "neither a trained model nor 'Not trained yet'"))
        quiet, out.quiet_share = process_quiet_after(pid, t_fault, max_wait,
                                                     window=1.0 if full else 0.5)
        out.quiet = quiet
        out.rss_after = memory_mb(pid)["VmRSS"]
    finally:
        a_ctx.close()  # a no-op when the scenario closed it
    return out


async def stop_without_browser(url: str, run_for: float = 1.5) -> dict[str, float]:
    """Stop timed by a protocol client (bench.load.Learner) instead of a browser: the same
    clicks, but no Chromium drawing the page on the server's own two cores. Seconds from
    the Stop click's message to the rerun's first message and to its last (script idle)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    from explorer.training.settings import STEPS_RANGE

    s = Learner(url, page="train")
    out: dict[str, float] = {}
    try:
        first = await s.open()
        if first.error:
            raise RuntimeError(f"the Train page failed: {first.error}")
        await s.run(s.value("tr_steps", double_array_value=[STEPS_RANGE[1]]))
        if "tr_early" in s.widgets:
            await s.run(s.value("tr_early", bool_value=False))
        t_train = await s.send(s.value("tr_train", trigger_value=True))
        while True:  # let it train for a while, as a learner would before pressing Stop
            msg = await s.receive()
            if (msg.WhichOneof("type") == "delta" and "step" in msg.delta.new_element.progress.text
                    and time.perf_counter() - t_train > run_for):
                break
        t_click = await s.send(s.value("tr_stop", trigger_value=True))
        while True:
            msg = await s.receive()
            kind = msg.WhichOneof("type")
            if kind == "new_session" and "interrupted" not in out:
                out["interrupted"] = time.perf_counter() - t_click
            elif kind == "delta" and "Training stopped" in msg.delta.new_element.alert.body:
                out["message"] = time.perf_counter() - t_click
            elif kind == "script_finished" and msg.script_finished == (
                    ForwardMsg.FINISHED_SUCCESSFULLY):
                out["idle"] = time.perf_counter() - t_click
                break
    finally:
        await s.close()
    return out


def _secs(x: float | None, limit: float | None = None) -> str:
    if x is None:  # did not happen within the wait
        return f"> {limit:g} (NOT)" if limit is not None else "-"
    return "-" if x != x else f"{x:.2f}"  # NaN: not measured


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-wait", type=float, default=150.0,
                    help="seconds to wait for training to stop (the app's time limit is 120)")
    ap.add_argument("--faults", default="close,reload,stop",
                    help="which scenarios, in order: close, reload, stop")
    ap.add_argument("--stop-runs", type=int, default=3,
                    help="Stop timed by a protocol client, without a browser (0: skip)")
    ap.add_argument("--smoke", action="store_true",
                    help="close and stop only, B does nothing during training, shorter "
                         "windows, one Stop without a browser")
    args = ap.parse_args(argv)
    names = {"close": "close the browser", "reload": "reload the page", "stop": "click Stop"}
    chosen = "close,stop" if args.smoke else args.faults
    faults = [names[f.strip()] for f in chosen.split(",") if f.strip()]
    max_wait = 15.0 if args.smoke else max(5.0, args.max_wait)
    args.stop_runs = 1 if args.smoke else max(0, args.stop_runs)
    if not have_chromium():
        print(f"SKIP: no Chromium at {CHROMIUM} (apt-get install -y chromium)")
        return 0

    from playwright.sync_api import sync_playwright

    print(machine_facts() + "\n")
    port = free_port()
    outcomes: list[Outcome] = []
    with serve(port, env={"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(SESSION_TTL)}
               ) as url:
        pid = child_pid(port)
        if pid is None:
            raise RuntimeError(f"no server process of ours on port {port}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                b_ctx = browser.new_context(viewport=VIEWPORT)  # learner B, every scenario
                b = b_ctx.new_page()
                open_and_time(b, url)  # also the server's warm-up (imports, first models)
                for i, fault in enumerate(faults):
                    o = scenario(browser, b, url, pid, fault, max_wait, salt=10 + i,
                                 full=not args.smoke)
                    outcomes.append(o)
                    print(f"  {fault}: training ended after {_secs(o.interrupted)} s, page "
                          f"idle {_secs(o.page_idle)} s", file=sys.stderr, flush=True)
            finally:
                browser.close()
        stops = [asyncio.run(stop_without_browser(url, 0.5 if args.smoke else 1.5))
                 for _ in range(args.stop_runs)]
        hwm = memory_mb(pid)["VmHWM"]

    print("Faults during training (the sidebar's model in the small preset, steps slider at its "
          "maximum, 'Stop when learned' off; seconds)\n")
    rows = []
    for o in outcomes:
        if o.fault == "click Stop":
            target = f"A idle ≤ {STOP_TARGET_S:g}"
            ok = "NO (not in time)" if o.page_idle is None else met(o.page_idle, STOP_TARGET_S)
        else:
            target = f"ended ≤ {STOP_THREAD_TARGET_S:g}"
            ok = ("NO (still training)" if o.interrupted is None
                  else met(o.interrupted, STOP_THREAD_TARGET_S))
        rows.append([o.fault, o.steps, f"{o.train_share:.0%}", _secs(o.b_load),
                     _secs(o.b_during), _secs(o.b_after), _secs(o.interrupted, max_wait),
                     _secs(o.rerun_done), _secs(o.page_idle),
                     _secs(o.quiet, max_wait), target, ok])
    print(table(["fault", "steps set", "training CPU", "B loads page (during)",
                 "B types (during)", "B types (after fault)", "training ended",
                 "A rerun sent", "A idle", "process quiet", "target", "met?"],
                rows))
    print("\n(seconds from the fault. training ended: the training thread's CPU stopped "
          "growing, or for Stop the rerun's first message arrived; A rerun sent: Stop's rerun's "
          "last message arrived in A's browser; A idle: A's page idle with its message)")
    print("\nServer memory (MB)\n")
    print(table(["fault", "RSS before Train", "RSS training", "RSS after (quiet)",
                 "after - before"],
                [[o.fault, o.rss_before, o.rss_during, o.rss_after,
                  f"{o.rss_after - o.rss_before:+.1f}"] for o in outcomes]))
    print(f"\nVmHWM (peak since start): {hwm:.0f} MB")
    if stops:
        print(f"\nStop without a browser drawing on the server's cores (protocol client, "
              f"{len(stops)} run(s); seconds from the click's message)\n")
        rows = []
        for name, key, target in (("training loop ended (rerun's first message)",
                                   "interrupted", None),
                                  ("'Training stopped' message sent", "message", None),
                                  ("script idle (rerun's last message)", "idle", STOP_TARGET_S)):
            xs = [r[key] for r in stops if key in r]
            rows.append([name, f"{median(xs):.2f}", f"{max(xs, default=float('nan')):.2f}",
                         f"≤ {target:g}" if target else "-",
                         met(max(xs), target) if target and xs else "-"])
        print(table(["measure", "median s", "max s", "target", "met? (max)"], rows))
    for o in outcomes:
        for note in o.notes:
            print(f"- {o.fault}: {note}")
        if o.quiet is None:
            print(f"- {o.fault}: the process still used {o.quiet_share:.0%} of a core after "
                  f"{max_wait:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
