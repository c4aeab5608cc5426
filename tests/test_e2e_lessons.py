"""A lesson followed alone in a real browser: a lesson link opens its step's page with the
step's note; Next goes to the next step's page and view; a reload keeps the step; the
browser's Back returns to the step before; a self-check is answered at once. At 1280 x 720
in English and Chinese, and on a 390 px phone with no sideways scroll (screenshots go to
test-artifacts/)."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, no_exception, settled
from playwright.sync_api import expect
from serve import after_rerun
from test_lessons import LESSON

from explorer.state.lesson import to_link
from explorer.text.locales import en, zh

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)

TEXTS = {"en": en.TEXT, "zh": zh.TEXT}
PRESENTER, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}
PANEL = ".st-key-lesson_panel"


def _panel(page) -> str:
    return page.locator(PANEL).inner_text()


def _title_is(page, lang: str, page_key: str) -> None:
    """Wait until the page drawn is `page_key`'s (its h1) and the run has ended."""
    title = TEXTS[lang][f"{page_key}.title"]
    page.wait_for_function("(t) => document.querySelector('h1')?.innerText.includes(t)",
                           arg=title, timeout=120_000)
    settled(page, timeout=120_000)


def _where(lang: str, i: int) -> str:
    return TEXTS[lang]["lesson.where"].format(title=LESSON.title[lang], i=i, n=3).replace("**", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lesson_is_followed_step_by_step_with_next_reload_and_back(browser, app_url, lang):
    context = browser.new_context(viewport=PRESENTER)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/?lang={lang}&lesson={to_link(LESSON)}&lstep=1")
        page.wait_for_selector(PANEL, timeout=120_000)
        _title_is(page, lang, "attn")
        assert _where(lang, 1) in _panel(page)
        shown = _panel(page).replace("\u2060", "")  # (a word joiner breaks the autolink)
        assert LESSON.steps[0].note[lang] in shown  # the note as typed, not markdown
        assert page.locator(f"{PANEL} a[href*='example.com']").count() == 0
        page.screenshot(path=str(ARTIFACTS / f"lesson_step1_{lang}.png"))
        # a self-check: pick the first key and Check; the answer comes at once, with why
        check = page.locator(f"{PANEL} [class*='st-key-lesson_check'] button")
        after_rerun(page, page.locator(f"{PANEL} [role='radiogroup'] label").first.click)
        expect(check).to_be_enabled(timeout=60_000)
        after_rerun(page, check.click)
        page.wait_for_selector(f"{PANEL} [data-testid='stAlert']", timeout=60_000)
        share = {"en": "of this query's weight", "zh": "的权重给了"}[lang]
        assert share in _panel(page)
        # Next: the next step's page and view
        after_rerun(page, page.locator(".st-key-lesson_next a").click)
        _title_is(page, lang, "mask")
        assert _where(lang, 2) in _panel(page) and "lstep=2" in page.url and "ms=4" in page.url
        page.reload()
        page.wait_for_selector(PANEL, timeout=120_000)
        _title_is(page, lang, "mask")
        assert _where(lang, 2) in _panel(page)
        page.go_back()
        _title_is(page, lang, "attn")
        assert _where(lang, 1) in _panel(page) and "lstep=1" in page.url
        no_exception(page)
    finally:
        context.close()


def test_a_lesson_step_reads_on_a_phone(browser, app_url):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/?lang=en&lesson={to_link(LESSON)}&lstep=2")
        page.wait_for_selector(PANEL, timeout=120_000)
        _title_is(page, "en", "mask")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.locator(".st-key-lesson_next a").is_visible()
        page.screenshot(path=str(ARTIFACTS / "lesson_phone.png"))
        no_exception(page)
    finally:
        context.close()
