"""Lessons: the file and link forms checked like any input, a lesson followed alone (the step's
view, note and self-check, Back and Next, the address), and a lesson made in the app."""

from __future__ import annotations

import base64
import json
import zlib
from urllib.parse import parse_qs

import numpy as np
import pytest
from apptest_helpers import ROOT, app, array, own_class_store  # noqa: F401
from shared_inputs import bad_input_texts
from streamlit.testing.v1 import AppTest

from explorer.app import lesson as L
from explorer.sections.lesson import app_root, read_upload, step_fields
from explorer.state.lesson import (
    MAX_BYTES,
    MAX_STEPS,
    SHIPPED,
    Lesson,
    LessonError,
    Question,
    Step,
    dumps,
    from_link,
    parse_lesson,
    shipped,
    to_json,
    to_link,
)
from explorer.text.i18n import set_lang

ATTENTION = Step("attention", {"kind": "enc", "layer": "1", "head": "2"},
                 {"en": "Look at **this** [link](http://example.com) <b>x</b>", "zh": "看这里"},
                 Question("attention", query=2))
MASKS = Step("masks", {"ms": "4"}, {"en": "The mask."},
             Question("choice", {"en": "How many keys may position 2 see?", "zh": "几个？"},
                      ({"en": "2"}, {"en": "3"}, {"en": "4"}), 1,
                      {"en": "Positions 0, 1 and 2.", "zh": "0、1、2。"}))
POLL = Step("attention", {"kind": "dec"}, {},
            Question("poll", {"en": "Which did you expect?"}, ({"en": "a"}, {"en": "b"})))
LESSON = Lesson({"en": "Test lesson", "zh": "测试课程"}, (ATTENTION, MASKS, POLL))
# The same steps on the Model page: AppTest runs app.py only on the default page (a page
# change the script makes, it follows by running that page alone, without the lesson panel)
HOME = Lesson(LESSON.title, tuple(Step("model", s.view, s.note, s.question) for s in LESSON.steps))


def _raw(data: dict) -> bytes:
    return json.dumps(data).encode()


def _refused(raw: bytes | str) -> LessonError:
    with pytest.raises(LessonError) as caught:
        parse_lesson(raw)
    return caught.value


# ---- the file and the link -----------------------------------------------------------------


def test_a_lesson_comes_back_the_same_from_its_file_and_from_its_link():
    assert parse_lesson(dumps(LESSON)) == LESSON
    assert from_link(to_link(LESSON)) == LESSON
    assert to_link(LESSON).isascii() and "=" not in to_link(LESSON)


@pytest.mark.parametrize("change, key", [
    (lambda d: d.update(extra=1), "lesson.err_field"),
    (lambda d: d.update(format="something else"), "lesson.err_format"),
    (lambda d: d.update(version=2), "lesson.err_newer"),
    (lambda d: d.update(version=True), "lesson.err_format"),
    (lambda d: d.update(steps=[]), "lesson.err_no_steps"),
    (lambda d: d.update(steps=d["steps"] * (MAX_STEPS + 1)), "lesson.err_steps"),
    (lambda d: d["steps"][0].update(page="admin"), "lesson.err_page"),
    (lambda d: d["steps"][0]["view"].update(layer="9"), "lesson.err_view_value"),
    (lambda d: d["steps"][0]["view"].update(N=["2"]), "lesson.err_view"),
    (lambda d: d["steps"][0]["view"].update(cls="ABC"), "lesson.err_view_key"),
    (lambda d: d["steps"][0]["view"].update(lang="zh"), "lesson.err_view_key"),
    (lambda d: d["steps"][0].update(note={"en": "x" * 5000}), "lesson.err_long"),
    (lambda d: d["steps"][0].update(note={"fr": "bonjour"}), "lesson.err_field"),
    (lambda d: d["steps"][0].update(note="plain text"), "lesson.err_text"),
    (lambda d: d["steps"][0]["question"].update(query=-1), "lesson.err_query"),
    (lambda d: d["steps"][0]["question"].update(query=1.5), "lesson.err_query"),
    (lambda d: d["steps"][0]["question"].update(kind="essay"), "lesson.err_kind"),
    (lambda d: d["steps"][1]["question"].update(answer=3), "lesson.err_answer"),
    (lambda d: d["steps"][1]["question"].update(answer=None), "lesson.err_answer"),
    (lambda d: d["steps"][1]["question"].update(options=[{"en": "one"}]), "lesson.err_options"),
    (lambda d: d["steps"][1]["question"].update(options=[{"en": "a"}, {}]), "lesson.err_options"),
    (lambda d: d["steps"][1]["question"].update(prompt={}), "lesson.err_prompt"),
    (lambda d: d["steps"][2]["question"].update(answer=0), "lesson.err_poll"),
])
def test_a_lesson_file_that_breaks_a_rule_is_refused_with_the_rule(change, key):
    data = to_json(LESSON)
    change(data)
    assert _refused(_raw(data)).key == key


def test_files_that_are_not_lessons_are_refused_without_repeating_them():
    assert _refused(b"\xff\xfe not utf-8").key == "lesson.err_json"
    assert _refused(b"[" * 50_000).key == "lesson.err_json"  # deep nesting
    assert _refused(b'{"format": NaN}').key == "lesson.err_json"
    assert _refused(b"[]").key == "lesson.err_top"
    assert _refused(b" " * (MAX_BYTES + 1)).key == "lesson.err_too_big"
    odd = to_json(LESSON)
    odd["<script>alert(1)</script>"] = 1
    error = _refused(_raw(odd))
    assert error.values["field"] == "?"  # a field's name is named only when a plain word
    # a file saved by a text editor with a byte-order mark still opens
    assert parse_lesson(b"\xef\xbb\xbf" + dumps(LESSON)) == LESSON


def test_a_link_that_inflates_past_the_limit_is_refused_before_it_is_read():
    bomb = "1." + base64.urlsafe_b64encode(zlib.compress(b" " * 10_000_000, 9)).decode()
    with pytest.raises(LessonError) as caught:
        from_link(bomb)
    assert caught.value.key == "lesson.err_too_big"
    for bad in ("", "2.abc", "1.!!!", "1." + "A" * 64, None, ["1.x"]):
        with pytest.raises(LessonError):
            from_link(bad)


def test_hostile_texts_as_a_lesson_file_or_link_are_refused_with_a_rule_never_an_error():
    for text in [*bad_input_texts(), "{}", "null", '{"format": []}', "\ud800"]:
        for read in (lambda x: parse_lesson(x.encode("utf-8", "surrogatepass")), from_link,
                     lambda x: from_link("1." + x), parse_lesson):
            try:
                read(text)
            except LessonError as e:
                assert e.key.startswith("lesson.err_")


def test_texts_lose_their_control_characters_and_keep_their_lines():
    data = to_json(LESSON)
    data["steps"][0]["note"] = {"en": "one\r\ntwo\x00\x1b[31m three\u200b"}
    note = parse_lesson(_raw(data)).steps[0].note["en"]
    assert note == "one\ntwo[31m three\u200b"


def test_the_editor_form_reads_options_line_by_line_in_both_languages():
    note, question = step_fields({
        "note_en": "Hi", "note_zh": "", "kind": "choice", "prompt_en": "Q?", "prompt_zh": "",
        "options_en": "first\n\n second \n", "options_zh": "一\n二", "answer": 2,
        "explain_en": "", "explain_zh": ""})
    assert note == {"en": "Hi", "zh": ""}
    assert question["options"] == [{"en": "first", "zh": "一"}, {"en": "second", "zh": "二"}]
    assert question["answer"] == 1
    assert step_fields({"kind": "none"})[1] is None
    assert step_fields({"kind": "attention", "query": 3})[1]["query"] == 3


def test_the_apps_address_is_found_from_any_pages():
    assert app_root("http://h:8501/attention") == "http://h:8501/"
    assert app_root("https://h/base/train?x=1") == "https://h/base/"
    assert app_root("http://h:8501/") == "http://h:8501/"
    assert app_root("") == "/"


# ---- following a lesson alone --------------------------------------------------------------


def _open(lang: str = "en", **query: str) -> AppTest:
    """A browser opening the app's address with the link's `query`."""
    set_lang(lang)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lang": lang, **query})
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_lang("en")


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _follow(at: AppTest, label: str) -> dict[str, str]:
    """Follow the lesson's Back or Next link as a browser does (its address, one run);
    the link's parameters. (AppTest cannot click a link.)"""
    link = next(el.proto for el in at.get("page_link") if el.proto.label == label)
    assert not link.disabled
    query = {k: v[-1] for k, v in parse_qs(link.query_string).items()}
    at.query_params.clear()
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return query


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lesson_link_opens_its_step_with_the_steps_view_note_and_question(lang):
    at = _open(lang, lesson=to_link(HOME), lstep="1")
    assert at.session_state["attn_layer"] == 1 and at.session_state["attn_head"] == 2
    texts = _texts(at)
    where = {"en": "step 1 of 3", "zh": "第 1 步，共 3 步"}[lang]
    assert any(where in text and LESSON.title[lang] in text for text in texts)
    if lang == "en":  # the note is the teacher's text: shown as typed, never as markdown
        assert ("Look at \\*\\*this\\*\\* \\[link\\]\\(http\u2060://example\\.com\\) "
                "\\<b\\>x\\</b\\>") in texts
    else:
        assert "看这里" in texts
    picker = next(r for r in at.radio if str(r.key).startswith("lesson_pick"))
    # the Attention page's heatmap of the step's head (layer 1, head 2), row 2: its largest
    attention = app("attention", attn_layer=1, attn_head=2)
    charts = {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec)
              for el in attention.get("plotly_chart")}
    weights = array(charts["attn_p"]["data"][0]["z"])
    truth = int(np.argmax(weights[2]))
    wrong = (truth + 1) % len(picker.options)
    picker.set_value(wrong).run()
    at.button(key="lesson_check_0").click().run()
    assert not at.exception
    assert len(at.error) == 1 and not at.success
    at.button(key="lesson_again_0").click().run()
    picker = next(r for r in at.radio if str(r.key).startswith("lesson_pick"))
    picker.set_value(truth).run()
    at.button(key="lesson_check_0").click().run()
    assert len(at.success) == 1 and not at.error
    share = {"en": "of this query's weight", "zh": "的权重给了"}[lang]
    assert any(share in text for text in _texts(at))


def test_a_lesson_link_shows_its_steps_page():
    at = _open(lesson=to_link(LESSON), lstep="2")
    assert [t.value for t in at.title] == ["Masks"]
    assert "step 2 of 3" in " ".join(_texts(at))


def test_next_sets_the_next_steps_view_and_the_address_keeps_the_step():
    at = _open(lesson=to_link(HOME), lstep="1")
    assert next(el.proto for el in at.get("page_link") if el.proto.label == "Back").disabled
    query = _follow(at, "Next")
    assert query["ms"] == "4" and query["lstep"] == "2"  # the link holds the step's view
    assert at.session_state["mask_size"] == 4 and at.session_state["attn_layer"] == 0
    assert at.query_params["lstep"] == "2"
    assert "step 2 of 3" in " ".join(_texts(at))
    _follow(at, "Back")
    assert at.query_params["lstep"] == "1" and at.session_state["attn_layer"] == 1
    assert at.session_state["mask_size"] is None


def test_a_step_in_the_link_opens_that_step_and_its_choice_question_says_why():
    at = _open(lesson=to_link(HOME), lstep="2")
    assert at.session_state["mask_size"] == 4
    assert "step 2 of 3" in " ".join(_texts(at))
    picker = next(r for r in at.radio if str(r.key).startswith("lesson_pick"))
    picker.set_value(1).run()
    at.button(key="lesson_check_1").click().run()
    assert [s.value for s in at.success] == ["Right: 3."]
    assert r"Positions 0, 1 and 2\." in _texts(at)


def test_a_step_link_out_of_range_opens_the_last_step_and_a_bad_one_the_first():
    at = _open(lesson=to_link(HOME), lstep="99")
    assert "step 3 of 3" in " ".join(_texts(at))
    at = _open(lesson=to_link(HOME), lstep="-2")
    assert "step 1 of 3" in " ".join(_texts(at))


def test_a_lesson_link_with_a_view_of_its_own_keeps_that_view_and_says_it_left_the_step():
    at = _open(lesson=to_link(HOME), lstep="1", kind="dec", layer="0")
    assert at.session_state["attn_kind"] == "dec"
    assert any("moved away" in i.value for i in at.info)
    at.button(key="lesson_show").click().run()
    assert at.session_state["attn_kind"] == "enc" and at.session_state["attn_layer"] == 1


def test_close_leaves_the_view_and_takes_the_lesson_out_of_the_address():
    at = _open(lesson=to_link(HOME), lstep="1")
    at.button(key="lesson_close").click().run()
    assert "lesson" not in at.query_params and "lstep" not in at.query_params
    assert at.session_state["attn_layer"] == 1
    assert not any("step 1 of 3" in text for text in _texts(at))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_broken_lesson_link_says_why_in_the_learners_language(lang):
    at = _open(lang, lesson="1.bm90IGEgbGVzc29u")
    said = {"en": "could not be opened", "zh": "无法打开课程"}[lang]
    assert any(said in w.value for w in at.warning)


def test_hostile_texts_in_a_lesson_are_shown_as_typed():
    for text in bad_input_texts(limit=40):
        lesson = Lesson({"en": text[:80]}, (Step("model", {}, {"en": text[:1200]}),))
        try:
            link = to_link(parse_lesson(dumps(lesson)))
        except LessonError:
            continue  # refused with a message: nothing to show
        at = _open(lesson=link)
        assert not at.exception


# ---- making a lesson in the app --------------------------------------------------------------


def test_a_teacher_makes_a_lesson_from_two_views_and_saves_a_question():
    at = _open(kind="cross", layer="1")
    at.button(key="lesson_start").click().run()
    lesson, index = at.session_state[L._LESSON][0], at.session_state[L._STEP]
    assert index == 0 and lesson.steps[0].page == "model"
    assert lesson.steps[0].view["kind"] == "cross"
    at.session_state["attn_kind"] = "dec"  # (the Attention page's menu, not drawn here)
    at.run()
    at.button(key="lesson_add").click().run()
    lesson, index = at.session_state[L._LESSON][0], at.session_state[L._STEP]
    assert len(lesson.steps) == 2 and index == 1 and lesson.steps[1].view["kind"] == "dec"
    form = f"lesson_form_{at.session_state[L.EDIT_ROUND]}_1"
    at.text_area(key=f"{form}_note_en").set_value("The decoder looks back only.")
    at.selectbox(key=f"{form}_kind").set_value("choice")
    at.text_input(key=f"{form}_prompt_en").set_value("Can position 1 see position 3?")
    at.text_area(key=f"{form}_options_en").set_value("yes\nno")
    at.number_input(key=f"{form}_answer").set_value(2)
    next(b for b in at.button if str(b.key).startswith("FormSubmitter:" + form)).click().run()
    assert not at.exception
    step = at.session_state[L._LESSON][0].steps[1]
    assert step.note == {"en": "The decoder looks back only."}
    assert step.question == Question("choice", {"en": "Can position 1 see position 3?"},
                                     ({"en": "yes"}, {"en": "no"}), 1)
    # the lesson's link (in the editor) opens the same lesson at step 1
    link = next(c.value for c in at.code if "lesson=" in c.value)
    assert link.startswith("http") or link.startswith("/")
    assert "lstep=1" in link
    param = link.split("lesson=")[1].split("&")[0]
    assert from_link(param) == at.session_state[L._LESSON][0]


def test_a_question_the_editor_cannot_save_says_why_and_changes_nothing():
    at = _open()
    at.button(key="lesson_start").click().run()
    form = f"lesson_form_{at.session_state[L.EDIT_ROUND]}_0"
    at.selectbox(key=f"{form}_kind").set_value("choice")
    at.text_input(key=f"{form}_prompt_en").set_value("Which?")
    at.text_area(key=f"{form}_options_en").set_value("only one")
    next(b for b in at.button if str(b.key).startswith("FormSubmitter:" + form)).click().run()
    assert not at.exception
    assert any("2 to 6 options" in e.value for e in at.error)
    assert at.session_state[L._LESSON][0].steps[0].question is None


def test_steps_move_and_leave_and_a_lesson_keeps_one():
    at = _open(lesson=to_link(HOME), lstep="1")
    at.button(key="lesson_down").click().run()
    lesson = at.session_state[L._LESSON][0]
    assert [s.view for s in lesson.steps] == [MASKS.view, ATTENTION.view, POLL.view]
    assert at.session_state[L._STEP] == 1
    at.button(key="lesson_remove").click().run()
    assert len(at.session_state[L._LESSON][0].steps) == 2


class _Upload:
    """A chosen file as st.file_uploader gives it."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def read(self, n: int = -1) -> bytes:
        return self.raw if n < 0 else self.raw[:n]


@pytest.mark.parametrize("raw, key", [
    (b"not json", "lesson.err_json"),
    (b'{"format": "transformer-explorer-lesson", "version": 9, "steps": []}',
     "lesson.err_newer"),
    (b" " * (MAX_BYTES + 10), "lesson.err_too_big"),
])
def test_an_uploaded_file_that_is_not_a_lesson_is_refused_with_the_rule(raw, key):
    with pytest.raises(LessonError) as caught:
        read_upload(_Upload(raw))
    assert caught.value.key == key
    assert read_upload(_Upload(dumps(LESSON))) == LESSON


@pytest.mark.parametrize("lang, said", [("en", "newer version"), ("zh", "更新版本")])
def test_a_refused_lesson_is_told_on_the_page_in_the_learners_language(lang, said):
    set_lang(lang)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.session_state[L._NOTICE] = ("lesson.err_newer", {"version": 9})
    at.run()
    assert any(said in w.value for w in at.warning)
    at.run()  # said once
    assert not any(said in w.value for w in at.warning)


def test_every_shipped_lesson_opens_from_the_menu():
    for name in SHIPPED:
        lesson = shipped(name)
        at = _open()
        at.selectbox(key="lesson_shipped").set_value(name).run()
        at.button(key="lesson_open").click().run()
        assert not at.exception
        assert at.session_state[L._LESSON][0] == lesson
        assert at.query_params["lesson"] == name
