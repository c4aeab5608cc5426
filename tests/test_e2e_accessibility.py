"""Every page passes an automated accessibility audit (axe-core, WCAG 2.0/2.1/2.2 A and AA;
tests/axe_audit.py) in English and Chinese, at a laptop's width and in presenter mode, with
every expander open: no serious or critical finding; and at 200% zoom nothing needs a
sideways swipe. The page says its language
(`<html lang>`), and a code block or formula that scrolls sideways takes the keyboard's
focus. A lesson's step with its self-check is audited too; the class panels are audited in
tests/test_e2e_class_lesson.py, where a class is running.

bench/accessibility.py counts every finding (minor and moderate too) by rule and impact.
"""

from __future__ import annotations

import pytest
from axe_audit import audit, blocking, open_every_expander, reflowed
from browser_support import FOCUS_SHOWN, PAGES, no_exception, settled, tab_to
from serve import after_rerun

from explorer.app.access import HTML_LANG
from explorer.text.i18n import TABLES

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)

def audited(page) -> list[str]:
    """The serious and critical findings of the page as drawn, every expander open. A
    finding is looked at again once two more frames are drawn: one of a moment (a sidebar
    widget caught too small while a page change redrew it: once in some twenty walks) is gone
    then; one of the page stays."""
    settled(page)
    open_every_expander(page, settled)
    if not blocking(audit(page)):
        return []
    settled(page)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return [str(f) for f in blocking(audit(page))]


@pytest.mark.parametrize("presenter", [False, True], ids=["laptop", "presenter"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_passes_the_audit(browser, app_url, lang, presenter):
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(f"{app_url}/{PAGES[0]}?lang={lang}" + ("&pres=1" if presenter else ""))
    page.wait_for_selector("h1", timeout=120_000)
    found, sideways = {}, {}
    for name in PAGES:
        if name != PAGES[0]:  # the menu's link, as a learner moves on
            link = page.locator(".st-key-nav a").filter(has_text=TABLES[lang][f"nav.{name}"])
            after_rerun(page, link.first.click)
            page.wait_for_function(f"() => location.pathname.endsWith('/{name}')")
        found[name] = audited(page)
        assert page.evaluate("document.documentElement.lang") == HTML_LANG[lang]
        if not presenter:  # the same page at 200% zoom: nothing needs a sideways swipe
            sideways[name] = reflowed(page)
    no_exception(page)
    page.context.close()
    assert found == {name: [] for name in PAGES}
    assert sideways == ({} if presenter else {name: [] for name in PAGES})


def test_a_lessons_step_and_its_answered_self_check_pass_the_audit(page, app_url):
    page.goto(f"{app_url}/?lesson=attention_step_by_step&lstep=2&lang=zh")
    page.wait_for_selector(".st-key-lesson_panel", timeout=120_000)
    settled(page)
    assert audited(page) == []
    picker = page.locator("[class*='st-key-lesson_pick_'] label:has(input[type=radio])").first
    after_rerun(page, picker.click)
    after_rerun(page, page.locator(".st-key-lesson_check_1 button").click)
    page.wait_for_selector(".st-key-lesson_again_1")  # the verdict, and "Try again"
    assert audited(page) == []
    no_exception(page)


def test_a_wide_code_block_takes_the_keyboards_focus_and_a_narrow_one_does_not(page, app_url):
    page.goto(f"{app_url}/model?lang=en")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    open_every_expander(page, settled)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: some code is wider
    page.wait_for_function("() => document.querySelector('pre[data-access-scroll]') !== null")
    blocks = page.evaluate("""() => [...document.querySelectorAll('.stCode pre')]
      .filter(p => p.offsetParent !== null)
      .map(p => [p.scrollWidth > p.clientWidth + 1, p.tabIndex, p.getAttribute('role'),
                 p.getAttribute('aria-label')])""")
    assert any(wide for wide, *_ in blocks)  # a phone is narrower than some of the code
    for wide, tab, role, label in blocks:
        if wide:
            assert (tab, role, label) == (0, "region", TABLES["en"]["access.code_region"])
        else:
            assert (tab, role) == (-1, None)
    region = page.locator("pre[data-access-scroll]").first
    region.focus()
    before = region.evaluate("r => r.scrollLeft")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("r => r.scrollLeft > 0", arg=region.element_handle())
    assert before == 0


# ---- The keyboard alone ------------------------------------------------------------------

def test_a_lesson_is_followed_by_keyboard_alone(page, app_url):
    """Next, a self-check's answer and Check, and Next again: Tab, the arrow keys, Space and
    Enter only, each control showing where the focus is."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{app_url}/?lesson=attention_step_by_step&lstep=1&lang=en")
    page.wait_for_selector(".st-key-lesson_panel", timeout=120_000)
    settled(page)
    tab_to(page, ".st-key-lesson_next")
    assert page.evaluate(FOCUS_SHOWN)
    after_rerun(page, lambda: page.keyboard.press("Enter"))
    page.wait_for_function("() => location.search.includes('lstep=2')")
    settled(page)
    tab_to(page, "[class*='st-key-lesson_pick_']")  # the self-check's options
    assert page.evaluate(FOCUS_SHOWN)
    after_rerun(page, lambda: page.keyboard.press("Space"))  # picks the focused option
    assert page.locator("[class*='st-key-lesson_pick_'] input:checked").count() == 1
    tab_to(page, ".st-key-lesson_check_1")
    assert page.evaluate(FOCUS_SHOWN)
    after_rerun(page, lambda: page.keyboard.press("Enter"))
    page.wait_for_selector(".st-key-lesson_again_1")  # the verdict, and "Try again"
    tab_to(page, ".st-key-lesson_next")
    after_rerun(page, lambda: page.keyboard.press("Enter"))
    page.wait_for_function("() => location.search.includes('lstep=3')")
    no_exception(page)
