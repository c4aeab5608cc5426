"""Memory: resident memory of the real server, idle, with one session and with many sessions.

Rerun: `.venv/bin/python -m bench.memory` (options: --sessions K (30), --paper-sessions P (3),
--smoke). Needs Debian's Chromium at /usr/bin/chromium and the playwright package.

For each preset a fresh `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free
port) is measured by reading /proc/<pid>/status of that server process: VmRSS (resident
now) and VmHWM (the peak so far). Phases: idle (no session yet); one browser session on the
attention page that typed its own sentence; K sessions at once (one Chromium, one context
per session, each opens the attention page and types its own sentence, all waited for until
their heatmaps show it); then all sessions closed (+10 s). The paper base rows pick "paper
base" in each session's sidebar first. The server is stopped at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from bench.browser import GRID_HAS, VIEWPORT
from bench.common import (
    CHROMIUM,
    child_pid,
    have_chromium,
    machine_facts,
    memory_mb,
    met,
    sentence,
    table,
)
from tests.serve import CHROMIUM_ARGS, choose, free_port, serve

ONE_SESSION_MB = 400.0
MANY_SESSIONS_MB = 1500.0  # with 30 sessions
CLOUD_MB = 2700.0  # what Community Cloud allows, about
TIMEOUT_MS = 300_000


def open_sessions(browser, url: str, n: int, preset: str, salt: int) -> list:
    """n sessions on the attention page, each with its own sentence; waits until all show it."""
    contexts, pages = [], []
    for _ in range(n):
        ctx = browser.new_context(viewport=VIEWPORT)
        page = ctx.new_page()
        page.goto(f"{url}/attention", wait_until="commit", timeout=TIMEOUT_MS)
        contexts.append(ctx)
        pages.append(page)
    for page in pages:  # the default sentence first: the session's first run is done
        page.wait_for_function(GRID_HAS, arg=":the", polling=200, timeout=TIMEOUT_MS)
        page.wait_for_selector("[data-test-script-state='notRunning']", timeout=TIMEOUT_MS)
    if preset != "tiny":
        for page in pages:
            choose(page, "preset", preset)  # waits for the page to be idle
    words = []
    for i, page in enumerate(pages):
        text = sentence(i, salt)
        words.append(text.split()[2])
        box = page.locator(".st-key-source input").first
        box.fill(text)
        box.press("Enter")
    for page, word in zip(pages, words, strict=True):
        page.wait_for_function(GRID_HAS, arg=f":{word}", polling=200, timeout=TIMEOUT_MS)
        page.wait_for_selector("[data-test-script-state='notRunning']", timeout=TIMEOUT_MS)
    return contexts


def measure_server(browser, preset: str, sessions: int,
                   settle: float = 1.0) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    port = free_port()
    with serve(port) as url:
        pid = child_pid(port)
        if pid is None:
            raise RuntimeError(f"no server process of ours on port {port}")

        def note(phase: str, n: int) -> None:
            m = memory_mb(pid)
            rows.append({"preset": preset, "phase": phase, "sessions": n, "rss": m["VmRSS"],
                         "peak": m["VmHWM"]})
            print(f"  {preset}: {phase}: {m['VmRSS']:.0f} MB (peak {m['VmHWM']:.0f})",
                  file=sys.stderr, flush=True)

        time.sleep(settle)
        note("idle, no session", 0)
        first = open_sessions(browser, url, 1, preset, salt=0)
        time.sleep(settle)
        note("1 session", 1)
        t0 = time.perf_counter()
        more = open_sessions(browser, url, sessions - 1, preset, salt=1) if sessions > 1 else []
        took = time.perf_counter() - t0
        time.sleep(settle)
        note(f"{sessions} sessions (opened in {took:.0f} s)", sessions)
        for ctx in [*first, *more]:
            ctx.close()
        time.sleep(10 * settle)
        note(f"all closed, +{10 * settle:g} s", 0)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=30, help="concurrent tiny sessions")
    ap.add_argument("--paper-sessions", type=int, default=3,
                    help="concurrent paper base sessions (0: skip)")
    ap.add_argument("--smoke", action="store_true", help="2 tiny sessions, no paper base")
    args = ap.parse_args(argv)
    sessions, paper = max(1, args.sessions), max(0, args.paper_sessions)
    if args.smoke:
        sessions, paper = 2, 0
    if not have_chromium():
        print(f"SKIP: no Chromium at {CHROMIUM} (apt-get install -y chromium)")
        return 0

    from playwright.sync_api import sync_playwright

    print(machine_facts() + "\n")
    rows: list[dict[str, object]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            settle = 0.2 if args.smoke else 1.0
            rows += measure_server(browser, "tiny", sessions, settle)
            if paper:
                rows += measure_server(browser, "paper base", paper, settle)
        finally:
            browser.close()

    print("Server resident memory (MB; peak = VmHWM, the most resident so far)\n")
    out = []
    for r in rows:
        n, preset = r["sessions"], r["preset"]
        if preset == "tiny" and n == 1:
            target, ok = f"≤ {ONE_SESSION_MB:,.0f}", met(r["peak"], ONE_SESSION_MB)
        elif preset == "tiny" and n > 1:
            note = "" if n == 30 else " (set for 30)"
            target, ok = f"≤ {MANY_SESSIONS_MB:,.0f}{note}", met(r["peak"], MANY_SESSIONS_MB)
        elif preset != "tiny" and n:
            target, ok = f"≤ {CLOUD_MB:,.0f} (cloud)", met(r["peak"], CLOUD_MB)
        else:
            target, ok = "-", "-"
        out.append([preset, r["phase"], n, r["rss"], r["peak"], target, ok])
    print(table(["preset", "phase", "sessions", "RSS MB", "peak MB", "target (peak)", "met?"],
                out))
    for preset in ("tiny", "paper base"):
        rs = [r for r in rows if r["preset"] == preset and r["sessions"]]
        if len(rs) == 2 and rs[1]["sessions"] > 1:
            per = (rs[1]["rss"] - rs[0]["rss"]) / (rs[1]["sessions"] - 1)
            print(f"\n{preset}: {per:.1f} MB resident per extra session")
    return 0


if __name__ == "__main__":
    sys.exit(main())
