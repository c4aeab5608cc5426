"""A shipped lesson taught live in real browsers: a teacher and three students (one reading
Chinese, one on a 390 px phone) go through "Attention, step by step" from its first step to
its last. The teacher's Next moves every student to the step's page and note; each question
is asked to the class, answered once by each student (the heatmaps wait on the students'
pages while the attention question is open), and revealed (the last while a countdown runs
in the teacher's page); a student who reloads keeps their place and their answer; the teacher
ends the class and downloads the answers as CSV, per choice and per student.

The test waits on what each page shows (conditions), never on fixed sleeps. Screenshots of
the teacher at 1280 x 720 and of the students go to test-artifacts/class_lesson_*.png."""

from __future__ import annotations

import csv
import io

import pytest
from axe_audit import audit, blocking
from browser_support import ARTIFACTS, chromium, settled
from serve import after_rerun
from test_e2e_classroom import FOLLOW_MS, Classroom, click_until

from explorer.app.lesson import LESSON_PARAM, STEP_PARAM
from explorer.state.lesson import shipped
from explorer.text.locales import en, zh

NAME = "attention_step_by_step"
LESSON = shipped(NAME)
TEXTS = {"en": en.TEXT, "zh": zh.TEXT}
PANEL = ".st-key-lesson_panel"
PRESENTER, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}
LAST_QUESTION = max(i for i, step in enumerate(LESSON.steps, start=1) if step.question)


def _at_step(lang: str, i: int) -> str:
    """A JS condition: the lesson panel says step `i` (from 1), in `lang`."""
    where = TEXTS[lang]["lesson.where"].format(title=LESSON.title[lang], i=i,
                                               n=len(LESSON.steps)).replace("**", "")
    page = LESSON.steps[i - 1].page  # the Model page is also the app's address, "/"
    paths = ["/" + page, *(["/", "/home"] if page == "model" else [])]
    return (f"() => document.querySelector({PANEL!r})?.innerText.includes({where!r})"
            f" && {paths!r}.some(p => location.pathname.endsWith(p))")


def _has(text: str, within: str = "body") -> str:
    return f"() => document.querySelector({within!r})?.innerText.includes({text!r}) === true"


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"class_lesson_{name}.png"))


def _pick(page, option: int) -> None:
    """Pick option `option` of the class question and send it, once."""
    page.locator(".st-key-class_answer [role='combobox']").first.click()
    after_rerun(page, page.get_by_role("option").nth(option).click)
    click_until(page, ".st-key-class_send button",
                "() => document.querySelector('.st-key-class_send') === null")


QUESTION_STEP = 2  # the lesson's first question: a multiple choice


def _right(i: int, lang: str = "zh") -> str:
    """What a self-check of step `i`'s question answered rightly says, in `lang`."""
    question = LESSON.steps[i - 1].question
    given = question.options[question.answer].get(lang) or question.options[question.answer]["en"]
    return TEXTS[lang]["lesson.right"].format(given=given)


def _self_check(page, i: int, lang: str = "zh") -> None:
    """Answer step `i`'s multiple choice rightly as a self-check, and wait for the verdict."""
    question = LESSON.steps[i - 1].question
    label = question.options[question.answer].get(lang) or question.options[question.answer]["en"]
    settled(page)
    after_rerun(page, page.locator("[class*='st-key-lesson_pick_'] label").filter(
        has=page.get_by_text(label, exact=True)).first.click)
    settled(page)
    after_rerun(page, page.locator(f".st-key-lesson_check_{i - 1} button").click)
    page.wait_for_function(_has(_right(i, lang), PANEL), timeout=FOLLOW_MS)


@pytest.fixture
def classroom(class_url):
    with chromium() as browser:
        yield Classroom(browser, class_url)


def _open(classroom: Classroom, path: str, viewport: dict):
    page = classroom.browser.new_context(viewport=viewport).new_page()
    page.goto(f"{classroom.url}{path}")
    classroom.pages.append(page)
    return page


def test_a_teacher_teaches_a_shipped_lesson_to_three_students(classroom):
    teacher, code = classroom.start(f"/?{LESSON_PARAM}={NAME}&{STEP_PARAM}=1", height=720)
    teacher.set_viewport_size(PRESENTER)
    students = {"en": classroom.join(code), "zh": classroom.join(code, "zh"),
                "phone": _open(classroom, f"/?class={code}", PHONE)}
    langs = {"en": "en", "zh": "zh", "phone": "en"}
    for who, page in students.items():  # each has the class's lesson, at its first step
        page.wait_for_function(_at_step(langs[who], 1), timeout=120_000)
    assert TEXTS["zh"]["lesson.class_paced"] in students["zh"].inner_text(PANEL)
    assert students["en"].locator(".st-key-lesson_next").count() == 0  # the teacher's
    sent: dict[int, list[int]] = {}
    for i, step in enumerate(LESSON.steps, start=1):
        if i > 1:  # the teacher's Next moves the class
            after_rerun(teacher, teacher.locator(".st-key-lesson_next a").click)
            teacher.wait_for_function(_at_step("en", i), timeout=120_000)
            for who, page in students.items():
                page.wait_for_function(_at_step(langs[who], i), timeout=FOLLOW_MS)
        if step.question is None:
            continue
        settled(teacher)
        click_until(teacher, ".st-key-lesson_ask button", "() => document.querySelector("
                    "'.st-key-class_reveal') !== null")
        for k, page in enumerate(students.values()):
            page.wait_for_selector(".st-key-class_send", timeout=FOLLOW_MS)  # this step's
            settled(page)
            if step.question.kind == "attention":  # the heatmaps would give it away
                assert page.locator(".st-key-attn_grid").count() == 0
            if i == QUESTION_STEP:  # a student's class panel with a question open
                assert [str(f) for f in blocking(audit(page))] == [], k
            _pick(page, k)
            sent.setdefault(i, []).append(k)
        if i == 2:  # a reload: the same student, at the class's step, answered already
            students["zh"].reload()
            students["zh"].wait_for_function(_at_step("zh", i), timeout=120_000)
            students["zh"].wait_for_function(
                _has(zh.TEXT["class.q_lesson_sent"][:8], ".st-key-class_question"),
                timeout=FOLLOW_MS)
        teacher.wait_for_function(_has(en.TEXT["class.q_answered"].format(n=3)),
                                  timeout=FOLLOW_MS)
        _shot(teacher, f"teacher_step{i}_answers")
        if i == QUESTION_STEP:  # the teacher's lesson and class panels, the answers' chart
            assert [str(f) for f in blocking(audit(teacher))] == []
        if i == LAST_QUESTION:  # 15 s to answer, counted down in the browser, then closed
            settled(teacher)
            after_rerun(teacher, teacher.locator(".st-key-class_countdown_pick").get_by_text(
                en.TEXT["class.countdown_seconds"].format(n=15), exact=True).click)
            timer = teacher.get_by_role("timer")
            timer.wait_for(timeout=FOLLOW_MS)
            first = timer.inner_text()
            assert first.startswith("Answers close in")
            _shot(teacher, "teacher_countdown")
            # it counts down in the browser (closing at the end: tests/test_lesson_class.py)
            teacher.wait_for_function("([el, first]) => el.textContent !== first",
                                      arg=[timer.element_handle(), first], timeout=5_000)
        click_until(teacher, ".st-key-class_reveal button",
                    "() => document.querySelector('.st-key-class_reveal') === null")
        own = [TEXTS[lang][k].split("{")[0] for lang in ("en", "zh")
               for k in ("class.q_you_right", "class.q_you_wrong")]
        for page in students.values():  # each told whether they were right
            page.wait_for_function(
                "own => own.some(t => document.querySelector('.st-key-class_question')"
                "?.innerText.includes(t))", arg=own, timeout=FOLLOW_MS)
            if step.question.kind == "attention":
                page.wait_for_selector(".st-key-attn_grid", timeout=FOLLOW_MS)  # back
        if i == QUESTION_STEP:  # told whether they were right, in Chinese and on a phone
            for who in ("zh", "phone"):
                assert [str(f) for f in blocking(audit(students[who]))] == [], who
        _shot(students["zh"], f"zh_step{i}_revealed")
        _shot(students["phone"], f"phone_step{i}_revealed")
    assert teacher.locator(".st-key-lesson_next a[aria-disabled='true'], "
                           ".st-key-lesson_next a[disabled]").count() <= 1  # the last step
    assert students["phone"].evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # the end: the teacher keeps every question's answers, the CSV holds what was sent
    after_rerun(teacher, teacher.locator(".st-key-class_end button").click)
    click_until(teacher, ".st-key-class_end_yes button",
                "() => document.querySelector('.st-key-class_ended') !== null")
    settled(teacher)
    with teacher.expect_download() as download:
        # (a download button draws a second, hidden button of its own)
        teacher.locator(".st-key-class_ended .st-key-class_results_csv button").first.click()
    raw = open(download.value.path(), "rb").read()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: a spreadsheet reads UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    counts: dict[str, dict[int, int]] = {}
    for row in rows[1:]:
        counts.setdefault(row[0], {})[int(row[4])] = int(row[6])
    assert len(counts) == len(sent) == sum(step.question is not None for step in LESSON.steps)
    for (_, got), picks in zip(sorted(counts.items()), sent.values(), strict=True):
        assert {c: n for c, n in got.items() if n} == {k: picks.count(k) for k in set(picks)}
    # ... and every student's answer, one row each, numbered as they first answered
    with teacher.expect_download() as download:
        teacher.locator(".st-key-class_ended .st-key-class_results_students button").first.click()
    raw = open(download.value.path(), "rb").read()
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert raw.startswith(b"\xef\xbb\xbf") and len(rows) == 3 * len(sent)
    assert {r["student"] for r in rows} == {"1", "2", "3"}
    for (i, picks), question_id in zip(sent.items(), sorted({r["question"] for r in rows},
                                                             key=int), strict=True):
        got = sorted(int(r["choice"]) for r in rows if r["question"] == question_id)
        assert got == sorted(picks), i
        assert all(r["answered_at_utc"].endswith("+00:00") for r in rows)
    _shot(teacher, "teacher_ended")
    for page in (teacher, *students.values()):
        assert page.locator("[data-testid='stException']").count() == 0


def test_a_student_paced_lesson_lets_each_student_move_and_the_teacher_sees_where(classroom):
    """The teacher switches the class's lesson to student-paced: each student has Back and
    Next of their own; one (reading Chinese) answers step 2's question and goes on to step
    3, one on a phone stays; the teacher's roster says how many are on which step, and the
    lesson panel how many answered step 2 and how many were right; the student who reloads
    is still on step 3, and back on step 2 finds their answer. Screenshots:
    class_lesson_paced_*."""
    teacher, code = classroom.start(f"/?{LESSON_PARAM}={NAME}&{STEP_PARAM}=1", height=720)
    students = {"zh": classroom.join(code, "zh"),
                "phone": _open(classroom, f"/?class={code}", PHONE)}
    langs = {"zh": "zh", "phone": "en"}
    for who, page in students.items():
        page.wait_for_function(_at_step(langs[who], 1), timeout=120_000)
    settled(teacher)
    after_rerun(teacher, teacher.locator(".st-key-lesson_pace label").first.click)
    teacher.wait_for_function(_has(en.TEXT["lesson.pace_self_note"]), timeout=FOLLOW_MS)
    step = en.TEXT["class.roster_step"]
    teacher.wait_for_function(_has(en.TEXT["class.roster_steps"].format(
        steps=step.format(i=1, n=2))), timeout=FOLLOW_MS)
    zh_page = students["zh"]
    zh_page.wait_for_function(_has(zh.TEXT["lesson.class_self_paced"][:10], PANEL),
                              timeout=FOLLOW_MS)
    for i in (2, 3):  # the student's own Next
        settled(zh_page)
        after_rerun(zh_page, zh_page.locator(".st-key-lesson_next a").click)
        zh_page.wait_for_function(_at_step("zh", i), timeout=120_000)
        if i == 2:  # the step's question as a self-check, kept by the class
            _self_check(zh_page, QUESTION_STEP)
    settled(zh_page)
    teacher.wait_for_function(_has(en.TEXT["class.roster_steps"].format(
        steps=step.format(i=1, n=1) + " · " + step.format(i=3, n=1))), timeout=FOLLOW_MS)
    assert students["phone"].locator(PANEL).inner_text().count(
        en.TEXT["lesson.where"].format(title=LESSON.title["en"], i=1,
                                       n=len(LESSON.steps)).replace("**", "")) == 1
    assert zh_page.locator(".st-key-lesson_close").count() == 0  # the class's lesson
    teacher.wait_for_function(_has(en.TEXT["lesson.checks_step"].format(
        answered=1, right=1, share="100%"), PANEL), timeout=FOLLOW_MS)
    _shot(teacher, "paced_teacher")
    _shot(zh_page, "paced_zh_step3")
    zh_page.reload()  # a reload keeps the student's place and answer
    zh_page.wait_for_function(_at_step("zh", 3), timeout=120_000)
    settled(zh_page)
    after_rerun(zh_page, zh_page.locator(".st-key-lesson_back a").click)
    zh_page.wait_for_function(_at_step("zh", 2), timeout=120_000)
    zh_page.wait_for_function(_has(_right(QUESTION_STEP), PANEL), timeout=FOLLOW_MS)
    _shot(students["phone"], "paced_phone_step1")
    for page in (teacher, *students.values()):
        assert page.locator("[data-testid='stException']").count() == 0
