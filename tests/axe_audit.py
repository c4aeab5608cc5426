"""An accessibility audit of the page a Playwright page shows: axe-core (bundled by the
pinned axe-playwright-python) with the WCAG 2.0, 2.1 and 2.2 A and AA rules.

Shared by the browser tests (tests/test_e2e_accessibility.py and the class tests) and
bench/accessibility.py, which counts what it finds by rule and impact. No pytest here.

The page is audited whole: axe judges the contrast of text only where it can see it drawn,
so the viewport is made as tall as the page for the audit (then set back) and nothing is
left off-screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from axe_playwright_python.sync_playwright import Axe

TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")
BLOCKING = ("serious", "critical")  # impacts a page may not have (issue-free: 0 of each)
TALLEST_PX = 12_000  # a page taller than this is audited in its first 12,000 pixels
# Rules a page may break, each with why the app cannot mend it (none today). A rule here is
# still counted by bench/accessibility.py.
EXCEPTIONS: Mapping[str, str] = {}
# What the audit leaves out, each with why. WCAG 1.4.3 asks no contrast of "text that is part
# of an inactive user interface component": Streamlit draws a disabled widget's label (a
# setting the date translator fixes, say) faded, as it should look; screen readers read the
# label from the control's own aria-label, and this one is aria-hidden.
EXCLUDED: Mapping[str, str] = {
    'label[data-testid="stWidgetLabel"][disabled]': "a disabled widget's label (WCAG 1.4.3)",
}

_AXE = Axe()
CLOSED = "[data-testid='stExpander'] details:not([open]) > summary"


def open_every_expander(page, settled: Callable[[object], None]) -> None:
    """Open every closed expander of the page (opening one may draw more inside it), and
    wait with `settled(page)` after each round: the browser opens them without a run of
    the script, the class's panels but for."""
    for _ in range(10):
        opened = page.evaluate(f"""() => {{
          const closed = [...document.querySelectorAll({CLOSED!r})];
          closed.forEach(s => s.click());
          return closed.length; }}""")
        settled(page)
        if not opened:
            return
    raise AssertionError("expanders still closed after 10 rounds: one that closes again?")


# What needs a sideways swipe (WCAG 1.4.10 Reflow; tests/test_e2e_phone.py at 390 px, the
# accessibility test at 200% zoom): the page itself, and every element shown in the main
# area that scrolls sideways inside (a table scrolls inside its own grid, a code block
# inside its own box: neither is counted). 4 px: KaTeX's struts stick out a pixel or two.
SIDEWAYS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const wide = [...main.querySelectorAll('.stElementContainer, .katex-display')]
    .filter(e => e.offsetParent !== null && !e.querySelector('[data-testid="stDataFrame"]'))
    .filter(e => e.scrollWidth > e.clientWidth + 4)
    .map(e => `${String(e.className).match(/st-key-\\S+/) || e.className}: `
              + `${e.scrollWidth} px in ${e.clientWidth}`);
  const page = document.scrollingElement.scrollWidth;
  return page > innerWidth ? [`the page: ${page} px in ${innerWidth}`, ...wide] : wide;
}"""

_HEIGHT = """() => Math.max(document.documentElement.scrollHeight,
  ...[...document.querySelectorAll('section.stMain, [data-testid="stMain"], '
       + '[data-testid="stSidebarContent"]')].map(e => e.scrollHeight))"""


@dataclass(frozen=True)
class Finding:
    """One rule a page breaks: axe's rule id, its impact, and where (the first few nodes)."""

    rule: str
    impact: str
    nodes: int
    where: tuple[str, ...]
    help: str

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}, {self.nodes}): {self.help}; " + " | ".join(self.where)


def audit(page, whole: bool = True) -> list[Finding]:
    """What axe finds on `page` as drawn now (wait for it to be settled first). `whole`:
    the viewport is made as tall as the page for the audit."""
    size = page.viewport_size
    if whole and size is not None:
        tall = min(TALLEST_PX, int(page.evaluate(_HEIGHT)))
        if tall > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": tall})
    try:
        result = _AXE.run(page, context={"exclude": [[s] for s in EXCLUDED]},
                          options={"runOnly": {"type": "tag", "values": list(TAGS)},
                                   "resultTypes": ["violations"]})
    finally:
        if whole and size is not None and page.viewport_size != size:
            page.set_viewport_size(size)
    return [Finding(v["id"], v.get("impact") or "minor", len(v["nodes"]),
                    tuple(n["html"][:120] for n in v["nodes"][:3]), v.get("help", ""))
            for v in result.response["violations"]]


ZOOMED = {"width": 640, "height": 360}  # a 1280 x 720 screen at 200% zoom, in CSS pixels


def reflowed(page, zoomed: Mapping[str, int] = ZOOMED, within_ms: int = 10_000) -> list[str]:
    """What needs a sideways swipe (SIDEWAYS) once the page is shown at `zoomed`, the CSS
    size of its screen at 200% zoom (WCAG 1.4.4, 1.4.10): charts redraw for a new width on
    their own, so the page is given `within_ms` to fit before it is read. The window's size
    is set back after."""
    size = page.viewport_size
    page.set_viewport_size(dict(zoomed))
    try:
        page.wait_for_function(f"() => ({SIDEWAYS})().length === 0", timeout=within_ms)
    except Exception:  # noqa: BLE001 (a Playwright timeout: the page is read as it is)
        pass
    try:
        return page.evaluate(SIDEWAYS)
    finally:
        if size is not None:
            page.set_viewport_size(size)


def blocking(findings: Iterable[Finding]) -> list[Finding]:
    """The serious and critical findings that no exception covers."""
    return [f for f in findings if f.impact in BLOCKING and f.rule not in EXCEPTIONS]
