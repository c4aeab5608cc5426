"""A class on a 1280x720 projector and a 390 px phone, in English and in Chinese: what
each screen shows (explorer/sections/classroom.py).

The teacher opens the Attention page in presenter mode in a browser whose language is the
class's (no ?lang: the browser's language), folds the join banner, prepares and asks a
question; a student on a phone whose browser speaks the other language opens the join
link and starts in the class's language, explores by touching a control, reads at the top
of the page that a question is open, goes back in one tap, answers, and after the reveal
reads their own answer; the teacher ends the class, and both are told. The test waits on
what each page shows; screenshots of every step go to test-artifacts/class_screens_*.png
(or SCREENSHOTS_DIR).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_support import ARTIFACTS, chromium, settled
from serve import after_rerun, choose
from test_e2e_classroom import FOLLOW_MS, click_until, lands_on

from explorer.text.locales import en, zh

TEXTS = {"en": en.TEXT, "zh": zh.TEXT}
LOCALES = {"en": "en-US", "zh": "zh-CN"}
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
GRID = "[class*='st-key-attn_grid']"  # the heatmaps (a key of their own in presenter mode)
SHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)  # where the screenshots go


@pytest.fixture
def browsers():
    """Chromium, with the screenshots' folder made."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        yield browser


def _has_text(text: str, selector: str = "body") -> str:
    return (f"() => {{ const e = document.querySelector({selector!r});"
            f" return e !== null && e.innerText.includes({text!r}); }}")


def _shot(page, name: str) -> None:
    settled(page)
    page.screenshot(path=str(SHOTS / f"class_screens_{name}.png"))


def _box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_class_on_a_projector_and_a_phone(browsers, class_url, lang):
    other = "zh" if lang == "en" else "en"
    teacher = browsers.new_context(viewport=PROJECTOR, locale=LOCALES[lang]).new_page()
    student = browsers.new_context(viewport=PHONE, locale=LOCALES[other], is_mobile=True,
                                   has_touch=True).new_page()
    try:
        _class(class_url, lang, teacher, student)
    finally:  # what each screen showed last, also when a step failed
        for name, page in (("projector", teacher), ("phone", student)):
            page.screenshot(path=str(SHOTS / f"class_screens_{lang}_{name}_last.png"))


def _class(class_url: str, lang: str, teacher, student) -> None:
    """The class's steps (`test_a_class_on_a_projector_and_a_phone`)."""
    text = TEXTS[lang]

    # a first visit opens in the browser's language
    teacher.goto(f"{class_url}/attention?pres=1")
    teacher.wait_for_function(_has_text(text["attn.title"], "h1"), timeout=120_000)
    settled(teacher, timeout=120_000)
    teacher.get_by_text(text["class.title"]).click()
    teacher.locator(".st-key-class_start button").wait_for()
    click_until(teacher, ".st-key-class_start button",
                "() => document.querySelector('.st-key-class_teacher') !== null")
    teacher.wait_for_function("() => /[?&]class=[0-9A-Z]{6}/.test(location.search)",
                              timeout=120_000)
    code = re.search(r"class=([0-9A-Z]{6})", teacher.url).group(1)

    # the banner: large, with a warning that 127.0.0.1 is this computer's own address;
    # folded, one line of the projector's 720
    banner = ".st-key-class_banner"
    teacher.locator(banner).wait_for()
    assert text["class.loopback_short"] in teacher.inner_text(banner)
    _shot(teacher, f"{lang}_projector_banner")
    unfolded = _box(teacher, banner)["height"]
    after_rerun(teacher, teacher.locator(".st-key-class_banner_fold button").click)
    teacher.locator(".st-key-class_banner_unfold").wait_for(timeout=FOLLOW_MS)
    settled(teacher)
    folded_line = teacher.locator(f"{banner} [data-testid='stMarkdownContainer']").first
    line = folded_line.bounding_box()
    _shot(teacher, f"{lang}_projector_folded")
    assert code in folded_line.inner_text() and f"class={code}" in folded_line.inner_text()
    assert line["height"] < 60  # one line of text
    assert _box(teacher, banner)["height"] < unfolded
    _shot(teacher, f"{lang}_projector_folded")

    # a phone in the other language opens the join link: the class's language
    student.goto(f"{class_url}/?class={code}")
    lands_on(student, "attention")
    student.wait_for_function(_has_text(text["attn.title"], "h1"), timeout=FOLLOW_MS)

    # the teacher opens "Ask the class", above the heatmaps: the projector hides them
    assert teacher.locator(GRID).count() == 1
    assert _box(teacher, ".st-key-class_ask_open")["y"] < _box(teacher, GRID)["y"]
    after_rerun(teacher, teacher.get_by_text(text["class.ask_title"]).click)
    teacher.wait_for_function(f"() => document.querySelector({GRID!r}) === null",
                              timeout=FOLLOW_MS)
    choose(teacher, "class_query", "4:the")  # the second "the" of the sentence
    _shot(teacher, f"{lang}_projector_preparing")
    click_until(teacher, ".st-key-class_ask button",
                "() => document.querySelector('.st-key-class_reveal') !== null")

    # the phone: the question, its token named by position; the pointer at the top
    student.wait_for_selector(".st-key-class_question", timeout=FOLLOW_MS)
    settled(student)
    assert "4:the" in student.inner_text(".st-key-class_question h3")
    assert text["class.q_open_attention"] in student.inner_text(".st-key-class_notice")
    _shot(student, f"{lang}_phone_question")

    # a touch on a control: the student explores; the top of the page says so, and that a
    # question waits, with the way back one tap away and in view
    radio = student.locator("[data-testid='stMain'] [data-testid='stRadioOption']").nth(1)
    after_rerun(student, radio.click)
    student.wait_for_function(_has_text(text["class.q_open_exploring"], ".st-key-class_notice"),
                              timeout=FOLLOW_MS)
    settled(student)
    back = student.locator(".st-key-class_back button")
    assert text["class.elsewhere"].split("{")[0] in student.inner_text(".st-key-class_notice")
    assert back.is_visible() and _box(student, ".st-key-class_back")["y"] < PHONE["height"]
    _shot(student, f"{lang}_phone_exploring")
    click_until(student, ".st-key-class_back button",
                "() => document.querySelector('.st-key-class_send') !== null")

    # the student answers (with a name, where the page asks for one)
    name = "Annika" if lang == "en" else "小明"
    nick = student.locator(".st-key-class_nick input")
    if nick.count():
        after_rerun(student, lambda: (nick.fill(name), nick.press("Enter")), maybe=True)
    student.locator(".st-key-class_answer [role='combobox']").first.click()
    after_rerun(student, student.get_by_role("option").nth(4).click)
    click_until(student, ".st-key-class_send button",
                "() => document.querySelector('.st-key-class_send') === null")

    # the projector: the count, not the name
    answered = text["class.q_answered"].format(n=1)
    teacher.wait_for_function(_has_text(answered), timeout=FOLLOW_MS)
    settled(teacher)
    assert name not in teacher.inner_text("body")
    teacher.locator(".st-key-class_reveal").scroll_into_view_if_needed()
    _shot(teacher, f"{lang}_projector_tally")
    click_until(teacher, ".st-key-class_reveal button",
                "() => document.querySelector('.st-key-class_reveal') === null")
    teacher.wait_for_selector(GRID, timeout=FOLLOW_MS)  # revealed: back

    # the phone: the student's own answer and whether it was right
    own = [text[k].split("{")[0] for k in ("class.q_you_right", "class.q_you_wrong")]
    student.wait_for_function(
        "own => own.some(t => document.body.innerText.includes(t))", arg=own,
        timeout=FOLLOW_MS)
    _shot(student, f"{lang}_phone_revealed")

    # the end, asked once; the teacher keeps the results, the student is told at the top
    after_rerun(teacher, teacher.locator(".st-key-class_end button").click)
    teacher.wait_for_function(_has_text(text["class.end_confirm"]), timeout=FOLLOW_MS)
    teacher.locator(".st-key-class_end_yes").scroll_into_view_if_needed()
    _shot(teacher, f"{lang}_projector_end_confirm")
    click_until(teacher, ".st-key-class_end_yes button",
                "() => document.querySelector('.st-key-class_ended') !== null")
    settled(teacher)
    ended = teacher.inner_text(".st-key-class_ended")
    assert text["class.ended_teacher"].format(code=code) in ended
    for kind in ("csv", "json"):  # the results, to download
        assert kind.upper() in teacher.inner_text(f".st-key-class_results_{kind}")
    assert text["class.not_found"].split("{")[0] not in teacher.inner_text("body")
    teacher.locator(".st-key-class_ended").scroll_into_view_if_needed()
    _shot(teacher, f"{lang}_projector_ended")
    student.wait_for_function(_has_text(text["class.ended"], ".st-key-class_notice"),
                              timeout=FOLLOW_MS)
    _shot(student, f"{lang}_phone_ended")
    for page in (teacher, student):
        assert page.locator("[data-testid='stException']").count() == 0
