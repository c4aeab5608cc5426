"""Browser-test support: the fixtures that serve the app and open Debian's Chromium, helpers.

The fixtures (`app_url`, `class_url`, `browser`, `page`) are registered in conftest.py, so
every test module can use them: each module gets its own server, stopped when the module
ends, unless it never trains and says so (SHARED_SERVER).
Without a browser the tests are skipped with a message, except under CI (CI=true), where a
missing browser is a failure: `make test` installs Debian's Chromium when it is missing and
the user is root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from serve import (  # the server and the page helpers (tests/serve.py)
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    after_rerun,
    free_port,
    have_chromium,
    serve,
    wait_idle,
)

ARTIFACTS = ROOT / "test-artifacts"
PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]

# Elements a hostile text would create if it were rendered as markup anywhere on the page.
INJECTED = """() => {
  const q = s => document.querySelectorAll(s).length;
  const main = '[data-testid="stMain"]';
  const inMain = [...document.querySelectorAll(main + ' b, ' + main + ' i')]
    .filter(e => /bold|italic|it$/.test(e.textContent)).length;
  // a link that leads to example.com (the app's own links may carry the text in their query)
  const away = [...document.querySelectorAll('a[href]')]
    .filter(a => new URL(a.href, location.href).hostname.endsWith('example.com')).length;
  return away + q('a[href^="javascript:"]') + q('span[style*="999px"]')
    + [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert(1)'))
      .length + inMain;
}"""


def settled(page, timeout: int = 60_000) -> None:
    """Wait until Streamlit has finished its run and no element is left over from an older one.

    Call it after a condition that shows the run started (the address bar changed, an
    element appeared): a rerun the browser has asked for but the server has not begun yet
    is not visible in the page.
    """
    wait_idle(page, timeout=timeout)


def need_browser() -> None:
    if have_chromium():
        return
    message = ("No Chromium: browser tests need Debian's chromium (`apt-get install -y "
               "chromium`, which `make test` does when run as root).")
    if os.environ.get("CI"):
        pytest.fail("CI must run the browser tests. " + message)
    pytest.skip(message)


# A module whose tests never train says SHARED_SERVER = True: those modules share one server
# for the whole run (a start and a cold first page, the imports and the default model's
# figures, paid once). A module that trains serves the app alone (a training left running on
# a shared server slows the next module's pages), as does a class module (a class store's
# limits, such as wrong codes per address, would reach across modules), and the modules that
# load the trained date translator or walk the Train page's choices (on the shared server,
# after the others, the view module's walk took 75 s in a fresh-clone run, 17 s alone).
SHARED_SERVER = "SHARED_SERVER"


@pytest.fixture(scope="session")
def shared_app_url():
    """The app served once for every module that says SHARED_SERVER = True."""
    need_browser()
    with serve(free_port()) as url:
        yield url


@pytest.fixture(scope="module")
def app_url(request):
    """The app served for this module: its own server, or the shared one (SHARED_SERVER)."""
    need_browser()
    if getattr(request.module, SHARED_SERVER, False):
        yield request.getfixturevalue("shared_app_url")
        return
    with serve(free_port()) as url:
        yield url


@pytest.fixture(scope="module")
def class_url(tmp_path_factory):
    """The app served with a class store of its own (SQLite in a temporary folder)."""
    need_browser()
    data = tmp_path_factory.mktemp("classes")
    with serve(free_port(), {"CLASS_DATA": str(data)}) as url:
        yield url


@contextmanager
def chromium() -> Iterator:
    """Debian's Chromium (a Playwright Browser), closed on leaving; test-artifacts/ exists."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser(app_url):
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    p = context.new_page()
    yield p
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    context.close()


def open_page(page, url: str, name: str) -> None:
    """Open a page and wait until its first run is drawn."""
    page.goto(url if name == "model" else f"{url}/{name}")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page, timeout=120_000)


def set_number(page, key: str, value: int) -> None:
    """Type a new `value` into the number input `key` and wait for the run it starts."""
    box = page.locator(f".st-key-{key} input").first

    def type_value() -> None:
        box.fill(str(value))
        box.press("Enter")

    after_rerun(page, type_value)  # the count is read before the value changes


def no_exception(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def chart_ticks(page, index: int = 0, axis: str = "ytick") -> list[str]:
    chart = page.locator(".js-plotly-plot").nth(index)
    return [t.text_content() for t in chart.locator(f"g.{axis} text").all()]


def heatmap_count(page, index: int = 0) -> int:
    return page.locator(".js-plotly-plot").nth(index).locator("g.hm").count()


# Where the keyboard's focus is, shown: the focused element (or its label) has an outline or
# a ring (WCAG 2.4.7).
FOCUS_SHOWN = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return false;
  const s = getComputedStyle(e), w = getComputedStyle(e.closest('label') || e);
  return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0)
    || s.boxShadow !== 'none' || w.boxShadow !== 'none'
    || (w.outlineStyle !== 'none' && parseFloat(w.outlineWidth) > 0);
}"""
MAX_TABS = 120  # a control further than this from where focus starts is not reachable


def tab_to(page, selector: str) -> int:
    """Press Tab until the focused element is (inside) `selector`; how many presses."""
    for n in range(1, MAX_TABS + 1):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.closest(s) != null", selector):
            return n
    raise AssertionError(f"{selector} not reached in {MAX_TABS} presses of Tab")


def keyboard_focus(page, selector: str) -> None:
    """Give the control `selector` the focus as the keyboard does: it is focused, then
    Shift+Tab leaves it and Tab comes back to it, so it is in the Tab order and the browser
    shows the focus as it does for a keyboard (`:focus-visible`); asserted shown. A test
    then presses Enter or Space, as a keyboard-only learner does."""
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("s => document.activeElement?.closest(s) != null", selector), selector
    assert page.evaluate(FOCUS_SHOWN), selector
