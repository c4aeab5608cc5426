"""End-to-end: presenter mode enlarges the charts' texts at once, in the real browser.

Streamlit's chart theme sizes tick labels, axis titles and titles itself, so only the
browser shows whether a text follows the toggle.
"""

from __future__ import annotations

import itertools

import pytest
from browser_support import no_exception, open_page

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)

# Computed font sizes (px) of the first chart's texts: y tick labels, x tick labels and
# annotations (head / layer labels), once the chart has drawn its tick labels.
SIZES = """() => {
  const chart = document.querySelector('[data-testid="stMain"] .js-plotly-plot');
  if (!chart || document.querySelector("[data-test-script-state='notRunning']") === null)
    return null;
  const px = sel => [...chart.querySelectorAll(sel)].filter(e => e.textContent)
    .map(e => parseFloat(getComputedStyle(e).fontSize));
  const y = px('g.ytick text');
  const notes = px("g.annotation text");
  return y.length && notes.length ? {y, x: px('g.xtick text'), notes} : null;
}"""
GROWN = """before => {
  const now = (SIZES)();
  return now !== null && Math.min(...now.y) > Math.max(...before.y)
    && Math.min(...now.notes) > Math.max(...before.notes) ? now : null;
}""".replace("SIZES", SIZES)
SHRUNK = """big => {
  const now = (SIZES)();
  return now !== null && Math.max(...now.y) < Math.min(...big.y) ? now : null;
}""".replace("SIZES", SIZES)


def test_presenter_mode_enlarges_the_attention_grid_texts_without_leaving_the_page(
        page, app_url):
    open_page(page, app_url, "attention")
    before = page.wait_for_function(SIZES, polling=100, timeout=60_000).json_value()
    assert before["y"] and before["notes"]
    page.locator(".st-key-presenter label").first.click()
    after = page.wait_for_function(GROWN, arg=before, polling=100, timeout=60_000).json_value()
    no_exception(page)
    assert min(after["y"]) >= 18 and min(after["notes"]) >= 18
    assert not after["x"] or min(after["x"]) > max(before["x"] or [0])
    # and back: the texts shrink again without a reload
    page.locator(".st-key-presenter label").first.click()
    back = page.wait_for_function(SHRUNK, arg=after, polling=100, timeout=60_000).json_value()
    assert back["y"] == before["y"]


# ---- Tick labels that stay readable ------------------------------------

LONG = "the quick brown fox jumps over the lazy dog while the small cat sleeps on a warm mat"

# Every tick label of chart `i` of the page: text, axis letter, whether it is drawn, its box
# and font size; the chart's box, its subplots' plot areas and its annotations (titles of
# subplots, head and layer labels). Null while the app runs.
LABELS = """i => {
  if (document.querySelector("[data-test-script-state='notRunning']") === null) return null;
  const chart = document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')[i];
  if (!chart) return null;
  const box = e => { const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; };
  const ticks = [...chart.querySelectorAll('g.xaxislayer-above text, g.yaxislayer-above text')]
    .filter(e => e.textContent).map(e => ({
      text: e.textContent, axis: e.closest('g.xaxislayer-above') ? 'x' : 'y',
      shown: getComputedStyle(e).display !== 'none', box: box(e),
      font: parseFloat(getComputedStyle(e).fontSize)}));
  const notes = [...chart.querySelectorAll('g.annotation text')].filter(e => e.textContent)
    .map(e => ({text: e.textContent, box: box(e)}));
  return {chart: box(chart), plots: [...chart.querySelectorAll('.nsewdrag')].map(box), ticks,
          notes};
}"""


def _labels(page, index: int, ready: str, arg: object = None) -> dict:
    """Chart `index`'s labels once `ready` (a JS predicate of them and `arg`) holds."""
    check = f"([i, a]) => {{ const l = ({LABELS})(i); return l && ({ready})(l, a) ? l : null; }}"
    return page.wait_for_function(check, arg=[index, arg], polling=100,
                                  timeout=60_000).json_value()


def _inside(inner: list[float], outer: list[float], slack: float = 2) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _overlap(a: list[float], b: list[float], slack: float = 1) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def _set_presenter(page, on: bool) -> float:
    """Presenter mode on or off, once the page's first chart shows it; its least tick font."""
    toggle = page.locator(".st-key-presenter input").first
    if toggle.is_checked() != on:
        page.locator(".st-key-presenter label").first.click()
    font = 18 if on else 12
    ready = ("(l, a) => l.ticks.length > 0 "
             "&& l.ticks.every(t => a > 12 ? t.font >= a : t.font <= 13)")
    _labels(page, 0, ready, font)
    return font


def _type(page, key: str, text: str) -> None:
    box = page.locator(f".st-key-{key} input").first
    box.fill(text)
    box.press("Enter")


def _wait_app(page) -> None:
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=120_000)


FONT_AT_LEAST = "(l, a) => l.ticks.length > 0 && l.ticks.every(t => t.font >= a)"


@pytest.mark.parametrize("presenter", [False, True], ids=["normal", "presenter"])
def test_a_long_sentence_keeps_the_attention_grid_labels_apart(page, app_url, presenter):
    page.goto(f"{app_url}/attention")
    _wait_app(page)
    font = _set_presenter(page, presenter)
    _type(page, "source", LONG)
    n = len(LONG.split())
    ready = (f"(l, a) => l.ticks.some(t => t.text === '{n - 1}:mat') && "
             f"l.ticks.every(t => t.font >= a)")
    got = _labels(page, 0, ready, font)
    no_exception(page)
    ys = [t for t in got["ticks"] if t["axis"] == "y" and t["shown"]]
    xs = [t for t in got["ticks"] if t["axis"] == "x" and t["shown"]]
    assert len(ys) >= n and xs  # the query labels of every layer, and some key labels
    for tick in ys + xs:
        assert _inside(tick["box"], got["chart"]), tick
    # query labels (horizontal): no two boxes overlap
    rows = sorted(ys, key=lambda t: (round(t["box"][0]), t["box"][1]))
    for a, b in zip(rows, rows[1:], strict=False):
        assert not _overlap(a["box"], b["box"]), (a, b)
    # key labels (rotated by 60 degrees): neighbours at least a line height apart
    by_panel: dict[float, list[dict]] = {}
    for tick in xs:
        by_panel.setdefault(round(tick["box"][3]), []).append(tick)
    for ticks in by_panel.values():
        lefts = sorted((t["box"][0] + t["box"][2]) / 2 for t in ticks)
        font = ticks[0]["font"]
        assert all((b - a) * 0.866 >= 0.9 * font for a, b in zip(lefts, lefts[1:],
                                                                  strict=False)), lefts


@pytest.mark.parametrize(("presenter", "width"), [(False, 1000), (True, 1000), (True, 1400)],
                         ids=["normal-1000px", "presenter-1000px", "presenter-1400px"])
def test_mask_labels_stay_in_their_own_chart(page, app_url, presenter, width):
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(f"{app_url}/masks")
    _wait_app(page)
    font = _set_presenter(page, presenter)
    _type(page, "mask_len_b", "6")
    # the padding mask shows sentence B's 6 positions once the page has rerun
    _labels(page, 1, "(l, a) => l.ticks.filter(t => t.axis === 'x').length === 6 "
            "&& l.ticks.every(t => t.font >= a)", font)
    count = page.locator('[data-testid="stMain"] .js-plotly-plot').count()
    assert count >= 6
    charts = [_labels(page, i, FONT_AT_LEAST, font) for i in range(count)]
    no_exception(page)
    for i, got in enumerate(charts):  # subsequent, padding, target masks, masking's effect...
        hidden = [t["text"] for t in got["ticks"] if not t["shown"]]
        assert not hidden, (i, hidden)  # plotly hides a label that would leave the figure
        for tick in got["ticks"]:
            assert _inside(tick["box"], got["chart"]), (i, tick)
            assert not any(_overlap(tick["box"], plot) for plot in got["plots"]), (i, tick)
            for j, other in enumerate(charts):
                assert j == i or not _overlap(tick["box"], other["chart"]), (i, j, tick)
        for a, b in itertools.combinations(got["notes"], 2):  # e.g. the two masks' titles
            assert not _overlap(a["box"], b["box"]), (i, a, b)
    pads = [t["text"] for t in charts[2]["ticks"] if t["axis"] == "y"]
    assert "5:<pad>" in pads
