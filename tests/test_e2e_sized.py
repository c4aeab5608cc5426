"""The Model page's "at sizes of your own" in a real browser: a size the learner typed stays
when they go to another page and come back (Streamlit drops the value of a widget a run
does not draw, and the browser then shows its default), and it travels in the address.
At 1280 x 720 in English and Chinese; the boxes on a 390 px phone (screenshots go to
test-artifacts/)."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, no_exception, open_page, set_number, settled
from serve import after_rerun

from explorer.text.locales import en, zh

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)

TEXTS = {"en": en.TEXT, "zh": zh.TEXT}
PRESENTER, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}


def _go(page, name: str) -> None:
    """Click page `name` in the page menu and wait until it is drawn."""
    after_rerun(page, page.locator(f".st-key-nav a[href^='{name}']").first.click)
    page.wait_for_function(f"() => location.pathname.endsWith('/{name}')", timeout=120_000)
    settled(page, timeout=120_000)


def _open_sizes(page, lang: str):
    """Unfold the expander (in the browser alone: no run) unless it is open: its d_v box."""
    box = page.locator(".st-key-sized_d_v input").first
    if not box.is_visible():
        expander = page.get_by_text(TEXTS[lang]["sized.expander"]).first
        expander.scroll_into_view_if_needed()
        expander.click()
        box.wait_for(state="visible")
    return box


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_size_of_your_own_stays_when_the_learner_comes_back(browser, app_url, lang):
    context = browser.new_context(viewport=PRESENTER)
    page = context.new_page()
    try:
        open_page(page, f"{app_url}/?lang={lang}", "model")
        _open_sizes(page, lang)
        set_number(page, "sized_d_v", 100)
        page.wait_for_function("() => /[?&]zdv=100/.test(location.search)", timeout=60_000)
        _go(page, "shapes")
        _go(page, "model")
        box = _open_sizes(page, lang)
        assert box.input_value() == "100"
        assert "8 × 100 = 800" in page.inner_text("[data-testid='stMain']")
        assert "zdv=100" in page.url
        no_exception(page)
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"sized_kept_{lang}.png"))
    finally:
        context.close()


def test_the_sizes_read_in_order_on_a_phone(browser, app_url):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        open_page(page, f"{app_url}/?lang=zh&zdv=100", "model")
        box = _open_sizes(page, "zh")
        assert box.input_value() == "100"  # from the link
        sideways = page.evaluate("() => document.scrollingElement.scrollWidth > innerWidth")
        assert not sideways
        no_exception(page)
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "sized_phone_zh.png"))
    finally:
        context.close()
