"""A lesson taught in a class: the class follows the teacher's lesson and step, each student
reads the step's note in their own language, the teacher asks the step's question, students
answer once and see after the reveal whether they were right, and why.

AppTest runs app.py only on the default page, the Model page (a page it is switched to, it
runs alone): the lesson's steps are all on that page; the Attention page's heatmaps waiting
for the reveal are the browser test's (tests/test_e2e_lessons.py). Both class
stores: SQLite in a temporary folder, and a redis-server of the module's own."""

from __future__ import annotations

import csv
import io
import json
import time
from urllib.parse import parse_qs

import pytest
import redis
from apptest_helpers import ROOT, own_class_store  # noqa: F401 (autouse)
from streamlit.testing.v1 import AppTest
from test_class_store import redis_url  # noqa: F401 (a fixture)

from explorer.app import classroom as C
from explorer.app import lesson as L
from explorer.classroom.store import REVEALED, SelfCheck, lesson_id
from explorer.sections.classroom import COUNTDOWN_PICK
from explorer.sections.lesson_checks import checks_csv, checks_json, verdict
from explorer.sections.lesson_class import class_question
from explorer.sections.lesson_questions import own_question
from explorer.state.lesson import Lesson, Question, Step, to_link
from explorer.text.i18n import set_lang
from explorer.text.locales import en, zh

VIEW = {"kind": "enc", "layer": "0", "head": "0"}
CHOICE = Question("choice", {"en": "How many heads does each layer have?", "zh": "每层有几个头？"},
                  ({"en": "two", "zh": "两个"}, {"en": "four", "zh": "四个"},
                   {"en": "eight", "zh": "八个"}), 1,
                  {"en": "h = 4 in this model.", "zh": "这个模型里 h = 4。"})
POLL = Question("poll", {"en": "Did you expect that?", "zh": "你预料到了吗？"},
                ({"en": "yes", "zh": "是"}, {"en": "no", "zh": "否"}))
LESSON = Lesson({"en": "In class", "zh": "课堂"}, (
    Step("model", VIEW, {"en": "First the encoder.", "zh": "先看编码器。"}),
    Step("model", {**VIEW, "head": "1"}, {"en": "Count the heads.", "zh": "数一数头。"},
         CHOICE),
    Step("model", {**VIEW, "head": "2"}, {"en": "A poll.", "zh": "投票。"}, POLL),
    Step("model", {**VIEW, "layer": "1"}, {"en": "Where does it look?", "zh": "看哪里？"},
         Question("attention", query=1)),
))


STORES = ["sqlite", "redis"]  # a test that takes `store_kind` runs with each (indirect)


@pytest.fixture
def store_kind(request, monkeypatch) -> str:
    """The class store of each back end, empty (the autouse fixture made a SQLite one)."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        with redis.Redis.from_url(url) as client:
            client.flushdb()
        monkeypatch.setenv(C.STORE_ENV, url)
        C.class_store.clear()
    return request.param


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_lang("en")


def _session(seat: C.Seat, lang: str = "en", **query: str) -> AppTest:
    """A browser session in the class (`seat`), opened with `query`."""
    set_lang(lang)  # AppTest formats a widget's value again in the test's thread
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lang": lang, **query})
    at.session_state[C.SEAT_KEY] = seat
    if not seat.teaching:
        at.session_state[C.FOLLOW_KEY] = True
    at.run()
    assert not at.exception, at.exception
    return at


def _run(at: AppTest, lang: str) -> AppTest:
    set_lang(lang)
    at.run()
    assert not at.exception, at.exception
    return at


def _next(teacher: AppTest) -> None:
    """The teacher follows the lesson's Next link (its address, one run), as a browser does."""
    set_lang("en")
    link = next(el.proto for el in teacher.get("page_link")
                if el.proto.label == en.TEXT["lesson.next"])
    teacher.query_params.clear()
    teacher.query_params.update({k: v[-1] for k, v in parse_qs(link.query_string).items()})
    _run(teacher, "en")


def _texts(at: AppTest) -> str:
    return "\n".join(str(x.value) for kind in ("markdown", "caption", "info", "success",
                                               "warning") for x in at.get(kind))


def _class() -> tuple[AppTest, AppTest, str, str]:
    """A teacher teaching LESSON to a class with one student, who reads Chinese."""
    code, key = C.class_store().start(time.time())
    teacher = _session(C.Seat(code, key), lesson=to_link(LESSON), lstep="1")
    student = _session(C.Seat(code, None), "zh", **{"class": code})
    return teacher, student, code, key


def _answer(student: AppTest, choice: int) -> None:
    set_lang("zh")
    student.selectbox(key="class_answer").set_value(choice).run()
    student.button(key="class_send").click().run()
    assert not student.exception, student.exception


def _ask_and_reveal(teacher: AppTest, student: AppTest, choice: int) -> None:
    """The teacher asks the step's question, the student answers `choice`, the teacher
    reveals."""
    _run(teacher, "en").button(key="lesson_ask").click().run()
    assert not teacher.exception, teacher.exception
    _run(student, "zh")
    _answer(student, choice)
    _run(teacher, "en").button(key="class_reveal").click().run()
    assert not teacher.exception, teacher.exception
    _run(student, "zh")


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_a_class_follows_the_teachers_lesson_step_by_step_and_answers_its_questions(store_kind):
    teacher, student, code, key = _class()
    # the student has the class's lesson, at the class's step, in their own language
    assert student.session_state[L._STEP] == 0 and student.session_state[L._FROM_CLASS]
    assert "先看编码器。" in _texts(student) and zh.TEXT["lesson.class_paced"] in _texts(student)
    # the teacher moves the class: no Back or Next of the student's own
    assert not [el for el in student.get("page_link")
                if el.proto.label in (zh.TEXT["lesson.next"], zh.TEXT["lesson.back"])]
    assert en.TEXT["lesson.class_next_up"].format(i=2, page=en.TEXT["nav.model"]) \
        in _texts(teacher)

    _next(teacher)
    _run(student, "zh")
    assert student.session_state[L._STEP] == 1
    assert student.session_state["attn_head"] == 1  # the step's view came with it
    assert "数一数头。" in _texts(student) and zh.TEXT["lesson.class_q_later"] in _texts(student)
    assert not [r for r in student.get("radio")  # no self-check in a class: the teacher asks
                if r.key and r.key.startswith("lesson_pick")]

    # a choice question: the options in the student's language, right after the reveal
    _run(teacher, "en").button(key="lesson_ask").click().run()
    _run(student, "zh")
    assert [student.selectbox(key="class_answer").format_func(i) for i in range(3)] == \
        ["两个", "四个", "八个"]
    _answer(student, 1)
    _run(teacher, "en").button(key="class_reveal").click().run()
    _run(student, "zh")
    assert any("四个" in s.value for s in student.success)  # "your answer was right"
    assert "这个模型里 h = 4。" in _texts(student)  # the step's explanation, once revealed
    tally = C.class_store().tally(code, key, C.class_store().state(code).question.id)
    assert tally.status == REVEALED and tally.counts == (0, 1, 0) and tally.truth == 1
    assert tally.prompt == "How many heads does each layer have?"  # the teacher's words

    # a poll: no right answer, and the reveal says so
    _next(teacher)
    _run(student, "zh")
    _ask_and_reveal(teacher, student, 0)
    assert zh.TEXT["class.q_poll_revealed"].format(n=1) in _texts(student)

    # where does a query look: the truth is the model's
    _next(teacher)
    _run(student, "zh")
    _ask_and_reveal(teacher, student, 0)
    asked = C.class_store().state(code).question
    assert asked.fields == {"about": "lesson", "step": "4"} and asked.choices[0] == "0: the"
    assert zh.TEXT["lesson.attention_truth"].split("{")[0] in _texts(student)

    # a student who joins late lands on the class's step; the teacher ends: results kept
    late = _session(C.Seat(code, None), "en", **{"class": code})
    assert late.session_state[L._STEP] == 3
    _run(teacher, "en").button(key="class_end").click().run()
    teacher.button(key="class_end_yes").click().run()
    ended = teacher.session_state[C.ENDED_KEY]
    assert [q.prompt for q in ended[1]][:2] == ["How many heads does each layer have?",
                                                "Did you expect that?"]
    assert [q.answered for q in ended[1]] == [1, 1, 1]
    assert {b.proto.label for b in teacher.get("download_button")} >= {
        "CSV", "JSON", en.TEXT["class.results_students"]}


def test_closing_the_lesson_closes_it_for_the_class_but_not_a_students_own_lesson():
    teacher, student, code, _ = _class()
    own = _session(C.Seat(code, None), "en", lesson=to_link(LESSON), lstep="2",
                   **{"class": code})
    assert own.session_state[L._STEP] == 0  # the class's step, as it follows
    _run(teacher, "en").button(key="lesson_close").click().run()
    assert not _run(student, "zh").session_state.get(L._LESSON)
    assert not _run(own, "en").session_state.get(L._LESSON)  # the class's lesson by then

    mine = _session(C.Seat(code, None), "en", lesson=to_link(LESSON), lstep="2")
    _run(mine, "en")
    assert mine.session_state[L._STEP] == 1  # the class has no lesson: theirs stays
    assert not mine.session_state.get(L._FROM_CLASS)


def test_a_lesson_too_long_for_the_class_store_leaves_it_out_and_tells_the_teacher(monkeypatch):
    import explorer.classroom.store as store_module
    import explorer.sections.lesson_class as lesson_class

    for module in (store_module, lesson_class):  # app.py imports the limit on every run
        monkeypatch.setattr(module, "MAX_VIEW_VALUE_CHARS", len(to_link(LESSON)) - 1)
    code, key = C.class_store().start(time.time())
    teacher = _session(C.Seat(code, key), lesson=to_link(LESSON), lstep="1")
    assert en.TEXT["lesson.class_too_long"].split(":")[0] in _texts(teacher)
    assert "lesson" not in C.class_store().state(code).view  # the view alone travels
    student = _session(C.Seat(code, None), "en", **{"class": code})
    assert not student.session_state.get(L._LESSON)


def test_a_steps_question_reaches_the_class_with_its_options_and_right_answer():
    asked = own_question(CHOICE, "en")
    question = class_question(asked, 1)
    assert question.kind == "option" and question.choices == ("two", "four", "eight")
    assert question.truth == 1 and question.fields == {"about": "lesson", "step": "2"}
    assert class_question(own_question(POLL, "zh"), 2).truth is None


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_the_teacher_closes_the_answers_and_a_late_student_waits_for_the_reveal(store_kind):
    teacher, early, code, key = _class()
    late = _session(C.Seat(code, None), "en", **{"class": code})
    _next(teacher)
    _run(teacher, "en").button(key="lesson_ask").click().run()
    _run(early, "zh")
    _answer(early, 1)
    _run(teacher, "en").button(key="class_close").click().run()
    assert not teacher.exception, teacher.exception
    assert en.TEXT["class.answers_closed"] in _texts(teacher)
    _run(late, "en")
    assert en.TEXT["class.q_closed_wait"] in _texts(late)
    assert not [b for b in late.get("button") if b.key == "class_send"]  # nothing to send
    _run(teacher, "en").button(key="class_reveal").click().run()
    _run(early, "zh")
    assert any("四个" in s.value for s in early.success)  # kept, counted, right
    assert C.class_store().tally(code, key, 1).answered == 1


def test_the_answers_by_student_number_each_student_and_say_who_was_right():
    from explorer.classroom.store import StudentAnswer, Tally
    from explorer.sections.classroom import results_by_student_csv, results_json

    asked = [Tally(1, "revealed", (1, 1), 2, 1, (("=Ann",), ()), "How many?", ("2", "4"),
                   (StudentAnswer("b", 1, None, 1_700_000_000.0),
                    StudentAnswer("a", 0, "=Ann", 1_700_000_001.0))),
             Tally(2, "revealed", (1, 0), 1, None, ((), ()), "Poll", ("yes", "no"),
                   (StudentAnswer("a", 0, "=Ann", 1_700_000_060.0),))]
    raw = results_by_student_csv(asked)
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: a spreadsheet reads UTF-8
    rows = [line.split(",") for line in raw.decode("utf-8-sig").splitlines()]
    assert rows[0] == ["student", "nickname", "question", "prompt", "choice", "label", "right",
                       "answered_at_utc"]
    answers = json.loads(results_json("K7Q2XM", asked))["answers"]  # the same, no names
    assert [(a["student"], a["question"], a["choice"], a["right"]) for a in answers] == [
        (1, 1, 1, True), (2, 1, 0, False), (2, 2, 0, None)]
    assert "Ann" not in json.dumps(answers) and answers[0]["answered_at"].endswith("+00:00")
    assert rows[1:] == [  # by student (numbered as they first answered), then question
        ["1", "", "1", "How many?", "1", "4", "1", "2023-11-14T22:13:20+00:00"],
        ["2", "'=Ann", "1", "How many?", "0", "2", "0", "2023-11-14T22:13:21+00:00"],
        ["2", "'=Ann", "2", "Poll", "0", "yes", "", "2023-11-14T22:14:20+00:00"]]


def test_a_presenting_teacher_may_hide_the_notes_from_the_projector_not_from_students():
    code, key = C.class_store().start(time.time())
    teacher = _session(C.Seat(code, key), lesson=to_link(LESSON), lstep="1", pres="1")
    student = _session(C.Seat(code, None), "zh", **{"class": code})
    assert "First the encoder\\." in _texts(teacher)
    set_lang("en")  # AppTest formats the teacher's widgets in the test's thread
    teacher.toggle(key="lesson_hide_notes").set_value(True).run()
    assert not teacher.exception, teacher.exception
    assert "First the encoder" not in _texts(teacher)
    assert en.TEXT["lesson.note_hidden"] in _texts(teacher)
    assert "先看编码器。" in _texts(_run(student, "zh"))


def _link(at: AppTest, lang: str, label: str) -> None:
    """A session follows its lesson's Back or Next link (`label`: its text key), one run."""
    texts = zh.TEXT if lang == "zh" else en.TEXT
    set_lang(lang)
    link = next(el.proto for el in at.get("page_link") if el.proto.label == texts[label])
    assert not link.disabled
    at.query_params.clear()
    at.query_params.update({k: v[-1] for k, v in parse_qs(link.query_string).items()})
    _run(at, lang)


def _roster_line(teacher: AppTest) -> str:
    return next(x.value for x in _run(teacher, "en").get("caption")
                if x.value.startswith(en.TEXT["class.roster_steps"].split("{")[0]))


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_a_student_paced_lesson_moves_each_student_alone_and_the_teacher_sees_where(store_kind):
    teacher, student, code, key = _class()
    other = _session(C.Seat(code, None), "en", **{"class": code})
    set_lang("en")
    teacher.toggle(key="lesson_pace").set_value(True).run()
    assert not teacher.exception, teacher.exception
    assert en.TEXT["lesson.pace_self_note"] in _texts(teacher)
    assert not [b for b in teacher.button if b.key == "lesson_ask"]  # nothing to ask
    for at, lang in ((student, "zh"), (other, "en")):
        _run(at, lang)
        assert at.session_state[L._SELF_PACED] is True and at.session_state[L._STEP] == 0
        texts = zh.TEXT if lang == "zh" else en.TEXT
        assert texts["lesson.class_self_paced"] in _texts(at)
        assert not [b for b in at.button if b.key == "lesson_close"]  # the class's lesson
    assert _roster_line(teacher) == en.TEXT["class.roster_steps"].format(
        steps=en.TEXT["class.roster_step"].format(i=1, n=2))

    # the teacher's Next moves the teacher alone
    _next(teacher)
    assert teacher.session_state[L._STEP] == 1
    assert _run(student, "zh").session_state[L._STEP] == 0
    assert _run(other, "en").session_state[L._STEP] == 0

    # a student's Next moves that student alone; they are still in the class, following
    _link(student, "zh", "lesson.next")
    assert student.session_state[L._STEP] == 1 and student.session_state[C.FOLLOW_KEY] is True
    assert "数一数头。" in _texts(student)
    assert _run(other, "en").session_state[L._STEP] == 0
    step = en.TEXT["class.roster_step"]
    assert _roster_line(teacher) == en.TEXT["class.roster_steps"].format(
        steps=step.format(i=1, n=1) + " · " + step.format(i=2, n=1))

    # the step's question is the student's own self-check, answered at once
    set_lang("zh")
    student.radio(key=f"lesson_pick_{student.session_state[L.EDIT_ROUND]}_1").set_value(1).run()
    student.button(key="lesson_check_1").click().run()
    assert not student.exception, student.exception
    assert any(zh.TEXT["lesson.right"].format(given="四个") == x.value for x in student.success)

    # teacher-paced again: the class goes to the teacher's step
    set_lang("en")
    teacher.toggle(key="lesson_pace").set_value(False).run()
    assert not teacher.exception, teacher.exception
    for at, lang in ((student, "zh"), (other, "en")):
        _run(at, lang)
        assert at.session_state[L._SELF_PACED] is False and at.session_state[L._STEP] == 1
        texts = zh.TEXT if lang == "zh" else en.TEXT
        assert texts["lesson.class_paced"] in _texts(at)


def test_a_self_checks_verdict_is_the_lessons_own_for_a_choice_and_none_for_a_poll():
    def check(step: int, choice: int, right: bool | None) -> SelfCheck:
        return SelfCheck("s1", step, choice, right, None, 1.0, 1)

    assert verdict(LESSON, check(1, 0, True)) is False  # a choice: the lesson's answer is 1
    assert verdict(LESSON, check(1, 1, False)) is True
    assert verdict(LESSON, check(2, 0, True)) is None  # a poll
    assert verdict(LESSON, check(3, 0, True)) is True  # where it looks: the student's model
    assert verdict(LESSON, check(0, 0, True)) is None  # no question at this step
    assert verdict(LESSON, check(99, 0, True)) is None  # no such step


def test_a_measured_self_check_reaches_the_teachers_csv_with_the_option_the_student_saw():
    """A "where does it look?" self-check: its options come from the student's live model,
    so the CSV names the key the student picked as their page offered it."""
    teacher, student, code, key = _class()
    set_lang("en")
    teacher.toggle(key="lesson_pace").set_value(True).run()
    _run(student, "zh")
    for _ in range(3):  # to step 4, "where does it look?"
        _link(student, "zh", "lesson.next")
    pick = student.radio(key=f"lesson_pick_{student.session_state[L.EDIT_ROUND]}_3")
    picked = pick.options[2]
    set_lang("zh")
    pick.set_value(2).run()
    student.button(key="lesson_check_3").click().run()
    assert not student.exception, student.exception
    checks = C.class_store().self_checks(code, key, lesson_id(to_link(LESSON)))
    rows = list(csv.reader(io.StringIO(checks_csv(LESSON, checks, "en").decode("utf-8-sig"))))
    assert rows[1][2:6] == ["4", en.TEXT["lesson.kind_attention"], "2", picked]
    assert json.loads(checks_json(code, LESSON, checks, "zh"))["self_checks"][0]["label"] == (
        picked)


def test_a_student_paced_lesson_keeps_each_students_self_checks_for_the_teacher_and_a_reload():
    teacher, student, code, key = _class()
    set_lang("en")
    teacher.toggle(key="lesson_pace").set_value(True).run()
    assert en.TEXT["lesson.checks_none"] in _texts(teacher)
    _run(student, "zh")
    _link(student, "zh", "lesson.next")  # step 2 asks a multiple choice
    assert zh.TEXT["lesson.check_to_teacher"] in _texts(student)
    pick = f"lesson_pick_{student.session_state[L.EDIT_ROUND]}_1"
    set_lang("zh")
    student.text_input(key="lesson_nick").set_value("=小明").run()
    student.radio(key=pick).set_value(0).run()
    student.button(key="lesson_check_1").click().run()
    assert not student.exception, student.exception
    assert any(x.value.startswith(zh.TEXT["lesson.wrong"].split("{")[0]) for x in student.error)

    shown = _texts(_run(teacher, "en"))
    assert en.TEXT["lesson.checks_step"].format(answered=1, right=0, share="0%") in shown
    assert en.TEXT["lesson.checks_step_none"] in shown  # steps 3 and 4: no answer yet

    set_lang("zh")  # tried again, right this time: the class keeps the latest, two tries
    student.button(key="lesson_again_1").click().run()
    student.radio(key=pick).set_value(1).run()
    student.button(key="lesson_check_1").click().run()
    checks = C.class_store().self_checks(code, key, lesson_id(to_link(LESSON)))
    rows = list(csv.reader(io.StringIO(checks_csv(LESSON, checks, "en").decode("utf-8-sig"))))
    assert rows[0] == ["student", "nickname", "step", "prompt", "choice", "label", "right",
                       "tries", "answered_at_utc"]
    assert rows[1][:8] == ["1", "'=小明", "2", "How many heads does each layer have?", "1",
                           "four", "1", "2"]
    assert len(rows) == 2
    data = json.loads(checks_json(code, LESSON, checks, "en"))
    assert data["self_checks"][0]["right"] is True and "nickname" not in data["self_checks"][0]
    assert "小明" not in json.dumps(data, ensure_ascii=False)
    assert en.TEXT["lesson.checks_step"].format(answered=1, right=1, share="100%") in _texts(
        _run(teacher, "en"))

    # a reload: a new session of the same student (their id kept by the browser's cookie)
    again = _session(C.Seat(code, None, student_id=student.session_state[C.SEAT_KEY].student_id),
                     "zh", **{"class": code})
    _link(again, "zh", "lesson.next")
    assert again.session_state[L._STEP] == 1
    assert any(zh.TEXT["lesson.right"].format(given="四个") == x.value for x in again.success)

    # the class ends: the self-checks stay with the teacher's lesson
    set_lang("en")
    teacher.button(key="class_end").click().run()
    teacher.button(key="class_end_yes").click().run()
    assert not teacher.exception, teacher.exception
    assert any(en.TEXT["class.ended_teacher"].format(code=code) == x.value for x in teacher.info)
    assert en.TEXT["lesson.checks_step"].format(answered=1, right=1, share="100%") in _texts(
        _run(teacher, "en"))


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_a_locked_step_takes_a_students_own_change_back_and_ends_with_the_step(store_kind):
    teacher, student, code, key = _class()
    set_lang("en")
    teacher.toggle(key="lesson_lock_0").set_value(True).run()
    assert not teacher.exception, teacher.exception
    _run(student, "zh")
    assert student.session_state[C.SEAT_KEY].locked
    assert zh.TEXT["lesson.class_locked"] in _texts(student)
    (follow,) = [w for w in student.sidebar.toggle if w.key.startswith(C.FOLLOW_TOGGLE)]
    assert follow.disabled and follow.value is True
    sentence = student.text_input(key="source").value
    # a change of the student's own goes back to the class's view; they still follow
    set_lang("zh")
    student.text_input(key="source").set_value("my own sentence").run()
    assert not student.exception, student.exception
    assert student.text_input(key="source").value == sentence
    assert student.session_state[C.FOLLOW_KEY] is True
    assert any(zh.TEXT["class.locked_back"] == x.proto.body for x in student.get("toast"))

    # the lock holds for its step: on the next, the student may explore again
    _next(teacher)
    _run(student, "zh")
    assert not student.session_state[C.SEAT_KEY].locked
    assert student.session_state[L._STEP] == 1
    set_lang("zh")
    student.text_input(key="source").set_value("my own sentence").run()
    assert not student.exception, student.exception
    assert student.text_input(key="source").value == "my own sentence"
    assert student.session_state[C.FOLLOW_KEY] is False


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_a_countdown_closes_the_answers_and_every_student_sees_it(store_kind):
    teacher, student, code, key = _class()
    _next(teacher)  # step 2 asks a multiple choice
    _run(teacher, "en").button(key="lesson_ask").click().run()
    assert not teacher.exception, teacher.exception
    set_lang("en")
    teacher.segmented_control(key=COUNTDOWN_PICK).set_value(15).run()
    assert not teacher.exception, teacher.exception
    seat = teacher.session_state[C.SEAT_KEY]
    question = C.class_store().state(code).question
    closes = C.countdown_of(seat.closes, question.id)
    assert closes is not None and 13 <= closes - time.time() <= 16
    assert not [w for w in teacher.get("segmented_control")
                if w.key == COUNTDOWN_PICK]  # a countdown runs: no second one
    # the class view carries it: the student's page counts down (in the browser)
    _run(student, "zh")
    assert C.countdown_of(student.session_state[C.SEAT_KEY].closes, question.id) == closes
    _answer(student, 1)  # in time: kept
    # the time is up: the teacher's page closes the answers and the countdown ends
    seat.closes = f"{question.id}:{int(time.time()) - 1}"
    _run(teacher, "en")
    assert C.class_store().state(code).question.status == "closed"
    assert seat.closes is None and C.CLOSES_PARAM not in C.class_store().state(code).view
    assert C.class_store().tally(code, key, question.id).answered == 1
    _run(student, "zh")
    assert student.session_state[C.SEAT_KEY].closes is None


@pytest.mark.parametrize("seconds", [0, 7, 3600, -15, True, "15", 15.5, None])
def test_a_countdown_of_no_offered_length_is_refused(seconds):
    code, key = C.class_store().start(time.time())
    seat = C.Seat(code, key)
    C.start_countdown(C.class_store(), seat, 1, seconds)
    assert seat.closes is None and C.class_store().state(code).view == {}


@pytest.mark.parametrize("closes", ["", "1", "2:100", "1:", "1:abc", "1:1e9", "1:-5",
                                    "1:" + "9" * 13, "x:100", None])
def test_a_countdown_for_another_question_or_malformed_is_none(closes):
    assert C.countdown_of(closes, 1) is None
    assert C.countdown_of("1:1700000000", 1) == 1_700_000_000.0


@pytest.mark.parametrize("store_kind", STORES, indirect=True)
def test_a_lock_brings_an_exploring_student_back_to_the_class(store_kind):
    teacher, student, code, key = _class()
    sentence = student.text_input(key="source").value
    set_lang("zh")
    student.text_input(key="source").set_value("my own sentence").run()
    assert student.session_state[C.FOLLOW_KEY] is False  # exploring
    set_lang("en")
    teacher.toggle(key="lesson_lock_0").set_value(True).run()
    assert not teacher.exception, teacher.exception
    _run(student, "zh")
    assert student.session_state[C.FOLLOW_KEY] is True
    assert student.text_input(key="source").value == sentence
    assert student.session_state[C.SEAT_KEY].locked
