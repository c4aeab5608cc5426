"""End-to-end on a phone (390 x 844): every page is usable without a sideways swipe, the
tables show their key columns first, the chart toolbar covers no title or axis label; and
a 1280 x 720 screen (the presenter's projector too) still gets the side-by-side drawing.

Streamlit's server never learns the screen's width: what fits is decided by the browser
(CSS), so only a browser can show it. Every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import pytest
from axe_audit import SIDEWAYS
from browser_support import ARTIFACTS, PAGES, no_exception, settled
from serve import after_rerun

from explorer.text.i18n import TABLES

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1280, "height": 720}

# Every chart of the main area that is shown has been drawn, with its toolbar (null while
# Streamlit runs or a chart is still on its way).
CHARTS_DRAWN = """() => {
  if (document.querySelector("[data-test-script-state='notRunning']") === null) return false;
  const charts = [...document.querySelectorAll('[data-testid="stMain"] .stPlotlyChart')]
    .filter(c => c.offsetParent !== null);
  return charts.length > 0
    && charts.every(c => c.querySelector('.main-svg') && c.querySelector('.modebar-group'));
}"""
# Each shown chart's toolbar against its texts (titles, tick labels, axis titles,
# annotations, legend, colour bar): the texts it covers.
COVERED = """() => {
  const box = e => e.getBoundingClientRect();
  const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const hits = [];
  for (const chart of document.querySelectorAll('[data-testid="stMain"] .stPlotlyChart')) {
    if (chart.offsetParent === null) continue;
    const key = String(chart.closest('.stElementContainer').className).match(/st-key-\\S+/);
    const bars = [...chart.querySelectorAll('.modebar-group')].map(box);
    for (const text of chart.querySelectorAll('svg text')) {
      const b = box(text);
      if (!text.textContent.trim() || b.width === 0) continue;
      if (bars.some(bar => over(bar, b))) hits.push(`${key}: ${text.textContent}`);
    }
  }
  return hits;
}"""
# Titles, legends, annotations and bar labels of the shown charts that run out of their
# chart.
OUTSIDE = """() => {
  const out = [];
  for (const chart of document.querySelectorAll('[data-testid="stMain"] .stPlotlyChart')) {
    if (chart.offsetParent === null) continue;
    const frame = chart.querySelector('.main-svg').getBoundingClientRect();
    for (const text of chart.querySelectorAll(
        'text.gtitle, g.legend text, g.annotation text, text.bartext')) {
      const b = text.getBoundingClientRect();
      if (text.textContent.trim() && b.width > 0
          && (b.left < frame.left - 1 || b.right > frame.right + 1))
        out.push(text.textContent);
    }
  }
  return out;
}"""
# The headers of the columns a data grid shows (its accessible table holds the columns in
# view only), in order.
SHOWN_COLUMNS = """grid => [...grid.querySelectorAll('[role="columnheader"]')]
  .map(h => h.textContent.trim())"""


def _page_of_size(browser, request, viewport: dict, full_page: bool):
    """A page in a window of `viewport`, screenshotted into ARTIFACTS after the test."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=full_page)
    context.close()


@pytest.fixture
def phone(browser, request):
    yield from _page_of_size(browser, request, PHONE, full_page=True)


@pytest.fixture
def screen(browser, request):
    yield from _page_of_size(browser, request, SCREEN, full_page=False)


def open_drawn(page, url: str, name: str, lang: str) -> None:
    """Open page `name` in `lang` and wait until every chart it shows is drawn."""
    page.goto(f"{url}/{'' if name == 'model' else name}{'?lang=zh' if lang == 'zh' else ''}")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page, timeout=120_000)
    page.wait_for_function(CHARTS_DRAWN, timeout=120_000)
    no_exception(page)


def shown_columns(page, grid) -> list[str]:
    """The columns a data grid (a locator) shows, once it has drawn them."""
    grid.scroll_into_view_if_needed()
    handle = grid.element_handle()
    page.wait_for_function(f"grid => ({SHOWN_COLUMNS})(grid).length > 0", arg=handle,
                           timeout=30_000)
    return page.evaluate(SHOWN_COLUMNS, handle)


# Every page in English; in Chinese the pages whose drawings, titles and tables differ most.
PAGE_CASES = [*((name, "en") for name in PAGES),
              *((name, "zh") for name in ("model", "masks", "attention"))]


@pytest.mark.parametrize(("name", "lang"), PAGE_CASES)
def test_every_page_fits_a_phone_and_its_toolbars_cover_no_label(phone, app_url, name, lang):
    open_drawn(phone, app_url, name, lang)
    assert phone.evaluate(SIDEWAYS) == []
    assert phone.evaluate(COVERED) == []
    assert phone.evaluate(OUTSIDE) == []
    # the toolbar stays reachable: shown over its band when the chart is touched, and its
    # camera a button the keyboard reaches (a chart that fits the screen, in its middle:
    # the page's sticky header covers its top)
    chart = phone.locator('[data-testid="stMain"] .stPlotlyChart').filter(
        has=phone.locator(".main-svg")).first
    chart.evaluate("c => c.closest('.stElementContainer').scrollIntoView({block: 'center'})")
    chart.hover()
    camera = chart.locator(".modebar-btn[data-title='Download plot as a PNG']")
    camera.wait_for(state="visible")
    assert camera.evaluate("b => { const r = b.getBoundingClientRect(); "
                           "return b.contains(document.elementFromPoint("
                           "(r.left + r.right) / 2, (r.top + r.bottom) / 2)); }")
    camera.focus()
    assert camera.evaluate("b => document.activeElement === b")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_architecture_is_stacked_on_a_phone(phone, app_url, lang):
    """Side by side it was 860 px wide in a 358 px box: the decoder needed a sideways swipe,
    with 200 px of blank space above the encoder."""
    open_drawn(phone, app_url, "model", lang)
    sizes = phone.evaluate("""() => {
      const size = s => { const e = document.querySelector(s);
        return e && e.offsetParent !== null ? e.getBoundingClientRect().width : 0; };
      return {box: size('.st-key-model_architecture_fit'),
              narrow: size('.st-key-model_architecture_narrow .main-svg'),
              wide: size('.st-key-model_architecture .main-svg')}; }""")
    assert sizes["wide"] == 0 and 0 < sizes["narrow"] <= sizes["box"] <= PHONE["width"]
    # no label of the drawing runs into another or out of it
    assert phone.evaluate(OVERLAPS, "model_architecture_narrow") == []


# The architecture's labels (annotations with text) that overlap another or leave the chart.
OVERLAPS = """key => {
  const chart = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const frame = chart.querySelector('.main-svg').getBoundingClientRect();
  const notes = [...chart.querySelectorAll('g.annotation')].filter(g => g.textContent.trim())
    .map(g => [g.textContent, g.querySelector('text').getBoundingClientRect()]);
  const out = [];
  notes.forEach(([text, a], i) => {
    if (a.left < frame.left - 1 || a.right > frame.right + 1) out.push(`outside: ${text}`);
    for (const [other, b] of notes.slice(i + 1))
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
          && b.top < a.bottom - 1) out.push(`${text} / ${other}`);
  });
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_shapes_table_shows_the_tensor_and_its_shape_first_on_a_phone(phone, app_url,
                                                                         lang):
    """It showed #, part, layer and sublayer; the tensor and its shape were off to the
    right."""
    text = TABLES[lang]
    open_drawn(phone, app_url, "shapes", lang)
    shown = shown_columns(phone, phone.locator('.st-key-shape_table [data-testid="stDataFrame"]'))
    assert shown[:2] == [text["shapes.col_tensor"], text["shapes.col_shape"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_unsqueeze_table_shows_the_mask_and_the_unsqueezes_first_on_a_phone(
        phone, app_url, lang):
    text = TABLES[lang]
    open_drawn(phone, app_url, "masks", lang)
    grids = phone.locator('[data-testid="stMain"] [data-testid="stDataFrame"]')
    unsqueeze = next(g for g in grids.all()
                     if text["mask.col_mask"] in shown_columns(phone, g))
    assert shown_columns(phone, unsqueeze)[:2] == [text["mask.col_mask"], "unsqueeze(1)"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_glossary_shows_the_learners_term_first_on_a_phone(phone, app_url, lang):
    """Both terms were pinned in narrow columns, each cut short ("positional e", "后续位置掩")
    and never scrollable; the term in the learner's language now comes first, whole."""
    text = TABLES[lang]
    open_drawn(phone, app_url, "model", lang)
    phone.locator('[data-testid="stExpandSidebarButton"], '
                  '[data-testid="stSidebarCollapsedControl"] button').first.click()
    glossary = phone.locator(".st-key-glossary_open summary").first
    glossary.scroll_into_view_if_needed()
    after_rerun(phone, glossary.click)
    shown = shown_columns(phone, phone.locator(
        '.st-key-glossary_open [data-testid="stDataFrame"]'))
    first = "glossary.col_zh" if lang == "zh" else "glossary.col_en"
    assert shown[0] == text[first]


@pytest.mark.parametrize("presenter", [False, True])
def test_a_laptop_screen_keeps_the_side_by_side_architecture(screen, app_url, presenter):
    """1280 x 720 with the sidebar open, as a teacher projects it: the drawing fits beside the
    sidebar (it used to be cut off at its right-hand tags) and is not stacked."""
    open_drawn(screen, app_url, "model", "en")
    key = "model_architecture"
    if presenter:
        screen.locator(".st-key-presenter label").first.click()
        key = "model_architecture_presenter"
        screen.wait_for_selector(f".st-key-{key} .main-svg", timeout=120_000)
        screen.wait_for_function(CHARTS_DRAWN, timeout=120_000)
    shown = screen.evaluate("""key => {
      const e = document.querySelector(`.st-key-${key}`);
      const narrow = document.querySelector(`.st-key-${key.replace('model_architecture',
        'model_architecture_narrow')}`);
      return {wide: e.offsetParent !== null, fits: e.scrollWidth <= e.clientWidth,
              narrow: narrow !== null && narrow.offsetParent !== null}; }""", key)
    assert shown == {"wide": True, "fits": True, "narrow": False}
    assert screen.evaluate(SIDEWAYS) == []
    assert screen.evaluate(COVERED) == []
    assert screen.evaluate(OVERLAPS, key) == []
