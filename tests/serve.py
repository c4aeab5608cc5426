"""The app served on a free 127.0.0.1 port, and the helpers that drive it in Chromium.

The test harness, shared with tools/screenshots.py and the bench scripts (which import it
as `tests.serve`; `tests` is a namespace package importable from the repository's root):

- `serve(port)`: `streamlit run app.py` on 127.0.0.1:port until the block ends;
  `free_port()` picks the port.
- `wait_idle(page)`: Streamlit has finished its run and drawn every element;
  `after_rerun(page, action)`: do an action that reruns the script and wait for that run.
- `choose(page, key, option)` and `set_text(page, key, text)`: change a selectbox or a text
  input by its widget key, waiting for the run the change starts.
- `CHROMIUM`, `CHROMIUM_ARGS`, `have_chromium()`: Debian's Chromium and how it is launched.
- `quiet_streamlit()`: silence the warnings of AppTest state set from the main thread.

No pytest here: the browser fixtures are in tests/browser_support.py.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def have_chromium() -> bool:
    return Path(CHROMIUM).exists()


def quiet_streamlit() -> None:
    """Silence "missing ScriptRunContext" warnings (AppTest state set from the main thread)."""
    import logging

    import streamlit  # noqa: F401  (creates the loggers first)

    for name in ("streamlit.runtime.scriptrunner_utils.script_run_context",
                 "streamlit.runtime.state.session_state_proxy"):
        logging.getLogger(name).setLevel(logging.ERROR)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(port: int, env: dict | None = None, script: Path = ROOT / "app.py",
          log: Path | None = None):
    """Run `script` (the app by default) on 127.0.0.1:port until the block ends; its output
    goes to `log` (then quoted if it does not start) or nowhere."""
    out = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,  # the project's .streamlit config
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.time() + 60
        while True:  # poll the health endpoint
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    said = log.read_text(errors="replace") if log is not None else ""
                    raise RuntimeError(f"{script.name} did not start:\n{said}") from None
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log is not None:
            out.close()


# Streamlit has finished the last script run and redrawn every element it sent (elements
# left from an earlier run are marked data-stale until the new run replaces them), and every
# element's code has loaded (Streamlit draws a stSkeleton while a chart's or widget's lazily
# loaded code is on its way).
SETTLED = """() => {
  const app = document.querySelector('[data-test-script-state]');
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-stale="true"]') === null
    && document.querySelector('[data-testid="stSkeleton"]') === null;
}"""
# Counts the script runs this page has seen finish (a MutationObserver on the run state,
# installed on first use): a test compares the count before and after an action.
RUNS_DONE = """() => {
  if (window.__runsDone === undefined) {
    window.__runsDone = 0;
    const app = document.querySelector('[data-test-script-state]');
    new MutationObserver(records => {
      for (const r of records) if (r.oldValue === 'running') window.__runsDone++;
    }).observe(app, {attributes: true, attributeOldValue: true,
                     attributeFilter: ['data-test-script-state']});
  }
  return window.__runsDone;
}"""


def wait_idle(page, settle: float = 0.0, timeout: int = 120_000) -> None:
    """Wait until Streamlit has finished its run and drawn every element (SETTLED).

    `settle`: an extra pause in seconds, for screenshots and benchmarks only (plotly may
    still be animating); tests wait on conditions and leave it at 0.
    """
    page.wait_for_function(SETTLED, timeout=timeout)
    if settle:
        page.wait_for_timeout(int(settle * 1000))


RUN_SEEN_WITHIN = 30_000  # ms a run's start is looked for before the page is read as settled


def after_rerun(page, action, timeout: int = 120_000, maybe: bool = False,
                retry=None) -> None:
    """Do `action()`, which makes Streamlit run the script again, and wait until that run
    has finished and its elements are drawn. An action that returns False says it changed
    nothing (so no run comes). If no run is seen within RUN_SEEN_WITHIN, `retry()` (if
    given) repeats the part of the action a busy browser may have dropped, and then the
    page is read once it is settled.

    `maybe`: Streamlit may let the change pass without a run (a text input's blank or
    invisible-only values): wait up to 10 s for the run, then only until the page is idle.
    """
    page.wait_for_function(SETTLED, timeout=timeout)
    done = page.evaluate(RUNS_DONE)  # read before the action: a run it starts is counted
    if action() is False:
        return
    try:
        page.wait_for_function(f"() => window.__runsDone > {done}",
                               timeout=10_000 if maybe else RUN_SEEN_WITHIN)
    except PlaywrightTimeout:
        # On a loaded machine the browser may draw a short run's start and end in one
        # frame, so the run state never reads "running" and the count misses it; or it
        # handled a key press before the text it was to send. Try that part again, then
        # read the page once it is settled (with `maybe`, no run may have been needed).
        if retry is not None and not maybe:
            retry()
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(f"() => window.__runsDone > {done}",
                                       timeout=RUN_SEEN_WITHIN)
    page.wait_for_function(SETTLED, timeout=timeout)


def choose(page, key: str, option: str) -> None:
    """Pick `option` in the Streamlit selectbox whose widget key is `key` (a new option).

    The list may close before it is read: a click on a selectbox below the sidebar's fold
    scrolls the sidebar, and the scroll can close the list it opened. Open it again then.
    """
    item = page.get_by_role("option", name=option, exact=True)
    for _ in range(6):
        page.wait_for_function(SETTLED, timeout=120_000)
        box = page.locator(f".st-key-{key} [role='combobox']").first
        box.scroll_into_view_if_needed()
        box.click()
        try:
            item.wait_for(timeout=5_000)
        except PlaywrightTimeout:
            continue
        after_rerun(page, item.click)
        return
    raise RuntimeError(f"the {key} selectbox never offered {option!r}")


_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def _blank(text: str) -> bool:
    """Whether `text` shows nothing: only spaces, tabs or zero-width characters."""
    return not text.strip().strip(_INVISIBLE).strip()


def set_text(page, key: str, text: str) -> None:
    """Type `text` into the Streamlit text input whose widget key is `key`, then Enter."""
    box = page.locator(f".st-key-{key} input").first
    old = box.input_value()
    # A one-line input drops line breaks from what is pasted into it; typed with them,
    # Playwright's fill leaves Streamlit's widget without a change to send.
    text = text.replace("\r", "").replace("\n", "")

    def type_text() -> bool:
        box.fill(text)  # the browser may still drop characters (beyond max_chars)
        if box.input_value() == old:
            return False  # the same text as before: Streamlit starts no run
        box.press("Enter")
        return True

    after_rerun(page, type_text, maybe=_blank(old) or _blank(text),
                retry=lambda: box.press("Enter"))
