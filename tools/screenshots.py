"""Take full-page screenshots of every page in headless Chromium (for README and review).

Usage: .venv/bin/python tools/screenshots.py OUT_DIR [--text "sentence"] [--preset "paper base"]
       [--query "lang=zh"] [--presenter] [--train] [--prefix zh_] [--pages attention,train]
Starts `streamlit run app.py` on a free 127.0.0.1 port and stops it afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(port: int, env: dict | None = None):
    """Run the app on 127.0.0.1:port until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("the app did not start within 60 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


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


def after_rerun(page, action, timeout: int = 120_000, maybe: bool = False) -> None:
    """Do `action()`, which makes Streamlit run the script again, and wait until that run
    has finished and its elements are drawn. An action that returns False says it changed
    nothing (so no run comes); any other action that starts no run times out.

    `maybe`: Streamlit may let the change pass without a run (a text input's blank or
    invisible-only values): wait up to 10 s for the run, then only until the page is idle.
    """
    page.wait_for_function(SETTLED, timeout=timeout)
    done = page.evaluate(RUNS_DONE)  # read before the action: a run it starts is counted
    if action() is False:
        return
    try:
        page.wait_for_function(f"() => window.__runsDone > {done}",
                               timeout=10_000 if maybe else timeout)
    except PlaywrightTimeout:
        if not maybe:
            raise
    page.wait_for_function(SETTLED, timeout=timeout)


def full_screenshot(page, path: Path, width: int, max_height: int = 14000) -> None:
    """Grow the viewport to the page's content (Streamlit scrolls inside its main area)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], "
        "[data-testid=\"stMainBlockContainer\"]')].map(e => e.scrollHeight), 800)"
    )
    page.set_viewport_size({"width": width, "height": min(int(height) + 120, max_height)})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size({"width": width, "height": 1000})


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

    after_rerun(page, type_text, maybe=_blank(old) or _blank(text))


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--text", default=None)
    ap.add_argument("--preset", default=None)
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--prefix", default="")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--query", default="", help='a link\'s query string, e.g. "lang=zh&h=2"')
    ap.add_argument("--presenter", action="store_true", help="turn presenter mode on")
    ap.add_argument("--train", action="store_true", help="press Train on the train page")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(free_port()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": 1000})
        page.goto(f"{url}/?{args.query}" if args.query else url)
        wait_idle(page)
        if args.presenter:
            page.locator(".st-key-presenter label").first.click()
            page.wait_for_timeout(300)
            wait_idle(page)
        if args.text is not None:
            set_text(page, "source", args.text)
        if args.preset:
            choose(page, "preset", args.preset)
        for name in args.pages.split(","):
            page.locator(f".st-key-nav a[href^='{name}'], .st-key-nav a[href$='{name}']"
                         ).first.click() \
                if name != "model" else page.locator(".st-key-nav a").first.click()
            wait_idle(page, 2.5)
            if args.train and name == "train":
                page.locator(".st-key-tr_train button").first.click()
                page.wait_for_timeout(500)
                wait_idle(page, 2.5)
            path = args.out / f"{args.prefix}{name}.png"
            full_screenshot(page, path, args.width)
            print(path)
        browser.close()


if __name__ == "__main__":
    main()
