"""A seat that the browser keeps, in real browsers: a student who reloads and opens a second
tab is one student with one answer and their nickname; a teacher who closes the tab and
opens the class link again in a new tab of the same browser gets the class back as it was
(page, sentence, language, presenter mode, the open question) and no student moves.

Each person is a browser context of their own (their own cookies). The app is served with a
class store of its own (tests/test_e2e_classroom.py's `class_url`). The test waits on what
the pages show, never on fixed sleeps; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

from browser_support import ARTIFACTS, settled
from serve import RUNS_DONE, after_rerun, choose
from test_e2e_classroom import (  # noqa: F401 (classroom: a fixture used here)
    FOLLOW_MS,
    _gone,
    _shown,
    _source_is,
    classroom,
    click_until,
    lands_on,
)

from explorer.text.locales import en, zh

# Whether this page has left the path or the sentence it showed when this was first
# evaluated, at any moment since (a MutationObserver sees a change that a later run undoes).
EVER_MOVED = """() => {
  if (window.__moved === undefined) {
    const path = location.pathname;
    const source = () => document.querySelector('.st-key-source input')?.value;
    const first = source();
    window.__moved = false;
    const seen = () => {
      if (location.pathname !== path || (source() !== undefined && source() !== first))
        window.__moved = true;
    };
    new MutationObserver(seen).observe(document.body, {childList: true, subtree: true,
                                                        attributes: true});
    seen();
  }
  return window.__moved;
}"""


def _answer(page, nickname: str | None) -> None:
    """Pick "1:cat" for the open question (with `nickname`) and send it."""
    page.locator(".st-key-class_question").scroll_into_view_if_needed()
    if nickname is not None:
        box = page.locator(".st-key-class_nick input")
        after_rerun(page, lambda: (box.fill(nickname), box.press("Enter")))
    choose(page, "class_answer", "1:cat")
    click_until(page, ".st-key-class_send button", _gone(".st-key-class_send"))


def _answered(page, table: dict) -> None:
    """The page shows the student's answer as sent, and no way to send another."""
    page.wait_for_selector(".st-key-class_question", timeout=FOLLOW_MS)
    settled(page)
    assert table["class.q_sent"][:6] in page.inner_text(".st-key-class_question")
    assert page.locator(".st-key-class_send").count() == 0


def test_a_student_who_reloads_and_opens_a_second_tab_still_has_one_answer(
        classroom):  # noqa: F811 (the fixture)
    teacher, code = classroom.start("/attention", height=1100)
    phone = classroom.browser.new_context(viewport={"width": 390, "height": 844})
    student = phone.new_page()
    classroom.pages.append(student)
    student.goto(f"{classroom.url}/?class={code}")
    lands_on(student, "attention")

    teacher.get_by_text(en.TEXT["class.ask_title"]).click()
    click_until(teacher, ".st-key-class_ask button", _shown(".st-key-class_reveal"))
    student.wait_for_selector(".st-key-class_question", timeout=FOLLOW_MS)
    settled(student)
    _answer(student, "Ada")
    teacher.wait_for_function(
        "() => document.body.innerText.includes('Answers so far: 1')", timeout=FOLLOW_MS)

    student.reload()  # a new session: the browser's cookie keeps the student
    lands_on(student, "attention")
    _answered(student, en.TEXT)
    student.locator(".st-key-class_question").screenshot(
        path=str(ARTIFACTS / "class_seat_reloaded_phone.png"))
    second = phone.new_page()  # another tab of the same browser
    classroom.pages.append(second)
    second.goto(f"{classroom.url}/?class={code}")
    lands_on(second, "attention")
    _answered(second, en.TEXT)
    # one student: the roster counts them once, the tally holds one answer
    teacher.wait_for_function(
        "() => /Students connected: 1 \\(/.test(document.body.innerText)", timeout=FOLLOW_MS)
    assert "Answers so far: 1" in teacher.inner_text("body")

    # the next question: the name given is there already, to keep or change
    click_until(teacher, ".st-key-class_ask button",
                "() => document.body.innerText.includes('Answers so far: 0')")
    second.wait_for_selector(".st-key-class_nick input", timeout=FOLLOW_MS)
    settled(second)
    assert second.locator(".st-key-class_nick input").input_value() == "Ada"
    second.locator(".st-key-class_question").screenshot(
        path=str(ARTIFACTS / "class_seat_nickname_kept_phone.png"))
    _answer(second, None)
    teacher.wait_for_function(
        "() => document.body.innerText.includes('Answers so far: 1')", timeout=FOLLOW_MS)
    # the first tab still shows the form it drew (an answer changes nothing a page follows);
    # its next run, at the student's first touch, finds the answer and offers no Send
    student.bring_to_front()  # a tab in the background draws no frames: waits never look
    student.wait_for_selector(".st-key-class_send", timeout=FOLLOW_MS)
    settled(student)
    choose(student, "class_answer", "1:cat")
    student.wait_for_function(_gone(".st-key-class_send"), timeout=FOLLOW_MS)
    assert en.TEXT["class.q_sent"][:6] in student.inner_text(".st-key-class_question")
    runs = teacher.evaluate(RUNS_DONE)  # the tally's next looks at the store
    teacher.wait_for_function(f"() => window.__runsDone > {runs + 2}", timeout=FOLLOW_MS)
    assert "Answers so far: 1" in teacher.inner_text("body")
    for page in (teacher, student, second):
        assert page.locator("[data-testid='stException']").count() == 0


def test_a_teacher_who_reopens_the_class_link_gets_the_class_back_and_no_student_moves(
        classroom):  # noqa: F811 (the fixture)
    # the teacher presents, in Chinese, on a 720p projector
    teacher = classroom.open("/attention?pres=1&lang=zh", height=720)
    teacher.set_viewport_size({"width": 1280, "height": 720})
    settled(teacher, timeout=120_000)
    teacher.get_by_text(zh.TEXT["class.title"]).click()
    teacher.locator(".st-key-class_start button").wait_for()
    click_until(teacher, ".st-key-class_start button", _shown(".st-key-class_teacher"))
    teacher.wait_for_function("() => /[?&]class=[0-9A-Z]{6}/.test(location.search)",
                              timeout=120_000)
    code = re.search(r"class=([0-9A-Z]{6})", teacher.url).group(1)
    box = teacher.locator(".st-key-source input")
    after_rerun(teacher, lambda: (box.fill("a dog saw a cat"), box.press("Enter")))
    teacher.get_by_text(zh.TEXT["class.ask_title"]).click()
    click_until(teacher, ".st-key-class_ask button", _shown(".st-key-class_reveal"))

    student = classroom.join(code)
    lands_on(student, "attention")
    student.wait_for_function(_source_is("a dog saw a cat"), timeout=FOLLOW_MS)
    student.wait_for_selector(".st-key-class_question", timeout=FOLLOW_MS)
    settled(student)
    assert not student.evaluate(EVER_MOVED)

    laptop = teacher.context
    teacher.close()  # the tab closed; the class link opened again in a new tab
    again = laptop.new_page()
    classroom.pages.append(again)
    again.set_viewport_size({"width": 1280, "height": 720})
    again.goto(f"{classroom.url}/?class={code}")
    lands_on(again, "attention")
    again.wait_for_function(_source_is("a dog saw a cat"), timeout=FOLLOW_MS)
    again.locator(".st-key-class_reveal").wait_for(timeout=FOLLOW_MS)  # the open question
    settled(again)
    titles = again.locator("h1").all_inner_texts()  # the banner's, the page's
    assert zh.TEXT["attn.title"] in titles  # the teacher's language
    assert again.locator(".st-key-presenter input").is_checked()  # presenter mode
    assert again.locator(".st-key-class_banner").count() == 1  # the projector's banner
    assert code in again.inner_text(".st-key-class_teacher")
    again.screenshot(path=str(ARTIFACTS / "class_teacher_reopened_zh_presenter.png"))

    # the student's look at the class runs on (a following student's run waits up to
    # 8 s for a change, and a change ends it at once): two more runs and they never moved
    runs = student.evaluate(RUNS_DONE)
    student.wait_for_function(f"() => window.__runsDone > {runs + 2}", timeout=60_000)
    assert not student.evaluate(EVER_MOVED)
    assert student.url.split("?")[0].endswith("/attention")
    assert student.locator(".st-key-source input").input_value() == "a dog saw a cat"
    assert student.locator(".st-key-class_question").count() == 1  # still asked
    assert student.locator(".st-key-class_follow input").is_checked()

    # the teacher steers again
    box = again.locator(".st-key-source input")
    after_rerun(again, lambda: (box.fill("the teacher is back"), box.press("Enter")))
    student.wait_for_function(_source_is("the teacher is back"), timeout=FOLLOW_MS)
    for page in (again, student):
        assert page.locator("[data-testid='stException']").count() == 0
