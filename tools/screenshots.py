"""Take full-page screenshots of every page in headless Chromium (for README and review).

Usage: .venv/bin/python tools/screenshots.py OUT_DIR [--text "sentence"] [--preset "paper base"]
       [--query "lang=zh"] [--presenter] [--train] [--prefix zh_] [--pages attention,train]
Starts `streamlit run app.py` on a free 127.0.0.1 port and stops it afterwards (tests/serve.py:
the tests' harness, which serves the app and drives it in Chromium).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python tools/screenshots.py` as well as `-m tools.screenshots`
    sys.path.insert(0, str(ROOT))

# The app served on a free port and the helpers that drive it: the test harness.
from tests.serve import CHROMIUM, CHROMIUM_ARGS, choose, free_port, serve, set_text, wait_idle  # noqa: E402

PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]


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
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
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
