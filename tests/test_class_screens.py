"""What a class shows on the teacher's projector and on each student's screen
(explorer/sections/classroom.py, explorer/app/classroom.py): names only where the teacher
chooses, the end of a class asked once and its results kept, a student's notices at the top
of the page, the question's wording, the class's and the browser's language, the join banner
folded, the ask controls above what they ask about, each student's own answer after the
reveal, and the join link's public address.

Each test gets a class store of its own (SQLite in a temporary folder), as in
tests/test_classroom.py; a student's page switch is the browser's
(tests/test_e2e_class_screens.py)."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from apptest_helpers import ROOT, app, own_class_store  # noqa: F401 (autouse)
from streamlit.testing.v1 import AppTest
from test_class_store import T0, redis_url, spec, store  # noqa: F401 (both back ends)

from explorer.app import classroom as C
from explorer.app import links
from explorer.classroom.store import Question, Tally
from explorer.sections import classroom as S
from explorer.text.i18n import lang_of_locale, set_lang
from explorer.text.locales import en, zh

TEXTS = {"en": en.TEXT, "zh": zh.TEXT}


def _session(page: str | None = None, **query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest, where: str = "all") -> str:
    """Every text the page shows (markdown, captions, alerts, headings), in `where`."""
    root = {"all": at, "main": at.main, "sidebar": at.sidebar}[where]
    kinds = ("markdown", "caption", "info", "warning", "success", "error", "subheader",
             "header", "title", "code")
    return "\n".join(str(e.value) for kind in kinds for e in root.get(kind))


def _asked(code: str, key: str, choices=("a", "b", "c"), truth: int | None = 1,
           about: str = "attention") -> int:
    return C.class_store().ask(code, key, Question("token", "Where?", tuple(choices), truth,
                                                   {"about": about, "token": "x"}), time.time())


def _ask_on_the_attention_page(teacher: AppTest) -> int:
    teacher.button(key="class_ask").click().run()
    assert not teacher.exception, teacher.exception
    return C.class_store().state(teacher.session_state[C.SEAT_KEY].code).question.id


def _answer(student: AppTest, choice: int, nickname: str = "") -> None:
    if nickname:
        student.text_input(key="class_nick").set_value(nickname).run()
    student.selectbox(key="class_answer").set_value(choice).run()
    student.button(key="class_send").click().run()
    assert not student.exception, student.exception


# -- names on the projector --

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_projector_hides_students_names_until_the_teacher_shows_them(lang):
    code, key = C.class_store().start(time.time())
    table = TEXTS[lang]
    set_lang(lang)
    try:
        teacher = app("attention", lang=lang, presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
        _ask_on_the_attention_page(teacher)
        student = app("attention", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                                 C.FOLLOW_KEY: True})
        _answer(student, 0, "Annika")
        teacher.run()
        assert not teacher.exception, teacher.exception
        assert "Annika" not in _texts(teacher)  # before the reveal
        assert table["class.q_names_hidden"].format(n=1) in _texts(teacher)
        teacher.button(key="class_reveal").click().run()
        assert "Annika" not in _texts(teacher)  # and after it
        # the teacher's choice: the class panel's switch (app.py draws it, on every page;
        # AppTest runs a page but the default one without app.py)
        teacher.session_state[S.SHOW_NAMES] = True
        teacher.run()
        assert not teacher.exception, teacher.exception
        assert "Annika" in _texts(teacher)
        laptop = app("attention", lang=lang, **{C.SEAT_KEY: C.Seat(code, key)})
        assert "Annika" in _texts(laptop)  # the teacher's own screen shows them
        assert "Annika" not in _texts(student)  # never a student's
        panel = app(lang=lang, presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
        switch = panel.toggle(key=S.SHOW_NAMES)
        assert switch.label == table["class.show_names"] and switch.value is False
        panel = app(lang=lang, **{C.SEAT_KEY: C.Seat(code, key)})
        assert not [w for w in panel.toggle if w.key == S.SHOW_NAMES]  # no projector
    finally:
        set_lang("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_name_help_says_exactly_who_sees_a_name(lang):
    help_text = TEXTS[lang]["class.q_nickname_help"]
    says = {"en": ("only the teacher sees it", "download", "other students never",
                   "projected", "unless the teacher chooses"),
            "zh": ("只有老师能看到", "下载", "其他同学看不到", "投影", "除非老师选择显示")}[lang]
    for part in says:
        assert part in help_text
    code, key = C.class_store().start(time.time())
    _asked(code, key)
    set_lang(lang)
    try:
        student = app("attention", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                                 C.FOLLOW_KEY: True})
        assert student.text_input(key="class_nick").help == help_text
    finally:
        set_lang("en")


# -- ending a class --

def _teacher() -> tuple[AppTest, str]:
    at = _session()
    at.button(key="class_start").click().run()
    assert not at.exception, at.exception
    return at, at.session_state[C.SEAT_KEY].code


def test_ending_a_class_asks_once_then_says_it_ended_and_keeps_its_results():
    teacher, code = _teacher()
    key = teacher.session_state[C.SEAT_KEY].teacher_key
    classes = C.class_store()
    first = _asked(code, key, ("x", "y"), 1)
    classes.answer(code, first, "s1", 1, "Ann", time.time())
    classes.answer(code, first, "s2", 0, None, time.time())
    classes.reveal(code, key, first, time.time())
    teacher.button(key="class_end").click().run()
    assert C.SEAT_KEY in teacher.session_state and not classes.state(code).ended  # asks first
    assert en.TEXT["class.end_confirm"] in _texts(teacher, "sidebar")
    teacher.button(key="class_end_no").click().run()  # not now
    assert not classes.state(code).ended and teacher.button(key="class_end")
    teacher.button(key="class_end").click().run()
    teacher.button(key="class_end_yes").click().run()
    assert not teacher.exception, teacher.exception
    assert classes.state(code).ended and C.SEAT_KEY not in teacher.session_state
    said = _texts(teacher, "sidebar")
    assert en.TEXT["class.ended_teacher"].format(code=code) in said
    assert not teacher.sidebar.warning  # no "no class runs with that code"
    assert "class" not in teacher.query_params  # a reload does not try it again
    assert "**1.** " + en.TEXT["class.asked_right"].format(answered=2, right="50%") in said
    downloads = {e.proto.id.rsplit("-", 1)[-1] for e in teacher.get("download_button")}
    assert {"class_results_csv", "class_results_json"} <= downloads
    teacher.run()  # still there on the next run
    assert en.TEXT["class.ended_teacher"].format(code=code) in _texts(teacher, "sidebar")
    teacher.button(key="class_ended_close").click().run()
    assert en.TEXT["class.ended_teacher"].format(code=code) not in _texts(teacher, "sidebar")
    assert teacher.button(key="class_start")


def test_a_student_who_leaves_is_not_joined_again_by_the_address():
    _, code = _teacher()
    student = _session(**{"class": code})
    assert student.session_state[C.SEAT_KEY].code == code
    student.button(key="class_leave").click().run()
    assert not student.exception, student.exception
    assert C.SEAT_KEY not in student.session_state
    assert "class" not in student.query_params


def test_the_results_download_holds_every_question_its_choices_counts_and_truth():
    asked = [Tally(1, "revealed", (1, 2), 3, 1, (("Ann",), ()), "Where will it look?",
                   ("0:the", "=cmd()")),
             Tally(2, "open", (0, 0, 1), 1, None, ((), (), ()), "Poll", ("a", "b", "c"))]
    data = json.loads(S.results_json("K7Q2XM", asked))
    assert data["class"] == "K7Q2XM"
    assert data["questions"][0] == {
        "question": 1, "prompt": "Where will it look?", "status": "revealed", "answered": 3,
        "truth": 1, "choices": [{"choice": 0, "label": "0:the", "count": 1, "right": False},
                                {"choice": 1, "label": "=cmd()", "count": 2, "right": True}]}
    assert data["questions"][1]["truth"] is None
    rows = list(csv.reader(io.StringIO(S.results_csv(asked).decode("utf-8-sig"))))
    assert rows[0] == ["question", "prompt", "status", "answered", "choice", "label", "count",
                       "right"]
    assert rows[1:] == [["1", "Where will it look?", "revealed", "3", "0", "0:the", "1", "0"],
                        ["1", "Where will it look?", "revealed", "3", "1", "'=cmd()", "2", "1"],
                        ["2", "Poll", "open", "1", "0", "a", "0", ""],
                        ["2", "Poll", "open", "1", "1", "b", "0", ""],
                        ["2", "Poll", "open", "1", "2", "c", "1", ""]]
    assert "Ann" not in S.results_csv(asked).decode() + json.dumps(data)  # names stay home


# -- a student's notices at the top of the page; who explores --

def test_an_exploring_student_reads_at_the_top_that_a_question_is_open_and_goes_back():
    teacher, code = _teacher()
    key = teacher.session_state[C.SEAT_KEY].teacher_key
    student = _session(**{"class": code})
    student.run()
    student.text_input(key="source").set_value("my own sentence").run()  # explores
    assert en.TEXT["class.elsewhere"].split("{")[0] in _texts(student, "main")
    assert en.TEXT["class.q_open_exploring"] not in _texts(student, "main")
    _asked(code, key)
    student.run()
    assert not student.exception, student.exception
    assert en.TEXT["class.q_open_exploring"] in _texts(student, "main")
    assert [b for b in student.main.button if b.key == "class_back"]  # one tap away
    assert not [b for b in student.sidebar.button if b.key == "class_back"]
    student.button(key="class_back").click().run()
    student.run()
    assert student.session_state[C.FOLLOW_KEY] is True
    assert en.TEXT["class.q_open_exploring"] not in _texts(student, "main")
    assert en.TEXT["class.q_open_attention"] in _texts(student, "main")  # answer it here


def test_the_teachers_roster_names_the_students_who_explore():
    teacher, code = _teacher()
    key = teacher.session_state[C.SEAT_KEY].teacher_key
    classes, now = C.class_store(), time.time()
    question = _asked(code, key)
    classes.answer(code, question, "ann", 0, "Ann", now)
    classes.answer(code, question, "bo", 0, None, now)
    for student, following in (("ann", False), ("bo", False), ("cy", True)):
        classes.heartbeat(code, student, following, now)
    teacher.run()
    assert not teacher.exception, teacher.exception
    said = _texts(teacher, "sidebar")
    assert en.TEXT["class.roster"].format(connected=3, following=1, exploring=2) in said
    assert en.TEXT["class.roster_explorers"].format(names="Ann") in said
    teacher.toggle(key="presenter").set_value(True).run()  # the room sees the sidebar too
    assert en.TEXT["class.roster_explorers"].format(names="Ann") not in _texts(teacher)


# -- the question's wording --

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_question_about_a_repeated_token_names_its_position_as_the_choices_do(lang):
    code, key = C.class_store().start(time.time())
    table = TEXTS[lang]
    teacher = app("attention", attn_kind="cross", **{C.SEAT_KEY: C.Seat(code, key)})
    tokens = [o.split(":", 1)[1] for o in teacher.selectbox(key="class_query").options]
    second = [i for i, tok in enumerate(tokens) if tok == "the"][1]  # "the cat sat on the mat"
    teacher.selectbox(key="class_query").set_value(second).run()
    teacher.selectbox(key="class_ask_head").set_value(2).run()
    _ask_on_the_attention_page(teacher)
    question = C.class_store().state(code).question
    assert question.fields["query"] == str(second)
    assert f"{second}:the" in question.choices or question.kind == "token"
    set_lang(lang)
    try:
        student = app("attention", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                                 C.FOLLOW_KEY: True})
        assert not student.exception, student.exception
        (heading,) = [h.value for h in student.subheader]
        assert f"{second}:the" in heading  # the position, as the choices name tokens
        assert table["class.q_numbering"] in _texts(student, "main")
        if lang == "zh":  # the heatmaps' words: 头 2 (numbered from 0), one pair of brackets
            assert "头 2" in heading and "个头" not in heading and "第 0 层" in heading
            assert heading.count("（") == 1 and "（交叉注意力" not in heading
        else:
            assert "layer 0, head 2" in heading and heading.count("(") == 1
    finally:
        set_lang("en")


# -- language --

def test_a_browsers_locale_names_the_interface_language():
    assert lang_of_locale("zh-CN") == lang_of_locale("zh_Hant_TW") == lang_of_locale("ZH") == "zh"
    assert lang_of_locale("en-US") == lang_of_locale("fr-FR") == lang_of_locale(None) == "en"
    assert lang_of_locale("") == "en"


def test_a_first_visit_opens_in_the_browsers_language_and_a_link_names_one(monkeypatch):
    monkeypatch.setattr(links, "browser_lang", lambda: "zh")
    set_lang("zh")  # AppTest formats a widget's values again in the test's thread
    try:
        chinese = _session()
        assert chinese.session_state["lang"] == "zh"
        assert zh.TEXT["nav.model"] in [t.value for t in chinese.title][0]
        assert "lang" not in chinese.query_params  # the reader's own language
        chinese.selectbox(key="lang").set_value("en").run()  # picked: the address keeps it
        set_lang("en")
        assert chinese.query_params["lang"] in ("en", ["en"])
        named = _session(lang="en")  # an explicit ?lang wins
        assert named.session_state["lang"] == "en"
    finally:
        set_lang("en")


def test_a_student_who_joins_starts_in_the_classs_language_and_may_switch():
    set_lang("zh")
    try:
        teacher = app(lang="zh")
        teacher.button(key="class_start").click().run()
        code = teacher.session_state[C.SEAT_KEY].code
        assert C.class_store().state(code).view[C.CLASS_LANG_PARAM] == "zh"
        student = _session(**{"class": code})  # an English browser, the join link
        assert student.session_state["lang"] == "zh"
        assert zh.TEXT["class.follow"] in [w.label for w in student.sidebar.toggle]
        student.selectbox(key="lang").set_value("en").run()  # their own choice
        set_lang("en")
        student.run()
        assert student.session_state["lang"] == "en"
        named = _session(**{"class": code, "lang": "en"})  # an explicit ?lang wins
        assert named.session_state["lang"] == "en"
    finally:
        set_lang("en")


# -- the join banner --

def test_the_teacher_folds_the_join_banner_to_one_line_for_the_class():
    code, key = C.class_store().start(time.time())
    teacher = app(presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})  # app.py draws it
    big = f"# {en.TEXT['class.banner'].format(code=code)}"
    assert big in [m.value for m in teacher.main.markdown]
    teacher.button(key="class_banner_fold").click().run()
    assert not teacher.exception, teacher.exception
    lines = [m.value for m in teacher.main.markdown if code in m.value]
    assert len(lines) == 1 and "\n" not in lines[0] and not lines[0].startswith("#")
    assert f"?class={code}" in lines[0].replace("\\", "").replace("*", "")  # the short link
    assert not [c for c in teacher.main.code if code in c.value]
    teacher.run()  # remembered for the class
    assert [m.value for m in teacher.main.markdown if code in m.value] == lines
    teacher.button(key="class_banner_unfold").click().run()
    assert big in [m.value for m in teacher.main.markdown]


# -- the ask controls above what they ask about --

def _order(at: AppTest) -> list[str]:
    """The keys of the main area's widgets and charts, in the page's order."""
    found = []

    def walk(node) -> None:
        key = getattr(node, "key", None) or getattr(getattr(node, "proto", None), "id", "")
        if key:
            found.append(str(key))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return found


def test_the_ask_panel_sits_above_the_heatmaps_it_asks_about():
    code, key = C.class_store().start(time.time())
    teacher = app("attention", **{C.SEAT_KEY: C.Seat(code, key)})
    order = _order(teacher)
    ask = order.index("class_ask")
    grid = next(i for i, k in enumerate(order) if "attn_grid" in k)
    assert ask < grid


def _grid_shown(at: AppTest) -> bool:
    return any(el.proto.id and "attn_grid" in el.proto.id for el in at.get("plotly_chart"))


def test_a_projector_hides_the_heatmaps_while_the_teacher_prepares_a_question():
    code, key = C.class_store().start(time.time())
    teacher = app("attention", presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
    assert _grid_shown(teacher)
    teacher.session_state[S.ASK_PANELS[S.ABOUT_ATTENTION]] = True  # the teacher opens Ask
    teacher.run()
    assert not _grid_shown(teacher)
    assert any(en.TEXT["class.hidden_on_projector"] in c.value for c in teacher.caption)
    _ask_on_the_attention_page(teacher)
    assert not _grid_shown(teacher)
    teacher.button(key="class_reveal").click().run()
    assert _grid_shown(teacher)  # the answer, once revealed
    teacher.selectbox(key="class_ask_head").set_value(1).run()  # the next question
    assert not _grid_shown(teacher)
    laptop = app("attention", **{C.SEAT_KEY: C.Seat(code, key),
                                 S.ASK_PANELS[S.ABOUT_ATTENTION]: True})
    assert _grid_shown(laptop)  # not projected: the teacher's own screen


def _decoding_shown(at: AppTest) -> bool:
    return any(el.proto.id and "tr_next" in el.proto.id for el in at.get("plotly_chart"))


def test_a_projector_hides_the_decoders_answer_while_the_teacher_prepares_a_question():
    code, key = C.class_store().start(time.time())
    teacher = app("train", presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
    answer = (en.TEXT["train.answer_right"], en.TEXT["train.answer_wrong"])
    assert _decoding_shown(teacher) and any(m.value in answer for m in teacher.markdown)
    teacher.session_state[S.ASK_PANELS[S.ABOUT_NEXT]] = True
    teacher.run()
    assert not teacher.exception, teacher.exception
    assert not _decoding_shown(teacher)
    assert not any(m.value in answer for m in teacher.markdown)  # the whole answer too
    teacher.button(key="class_ask_next").click().run()
    teacher.button(key="class_reveal").click().run()
    assert _decoding_shown(teacher)


# -- each student's own answer --

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_the_reveal_each_student_reads_their_own_answer_and_whether_it_was_right(lang):
    code, key = C.class_store().start(time.time())
    question = _asked(code, key, ("0:a", "1:b", "2:c"), truth=1)
    table = TEXTS[lang]
    set_lang(lang)
    try:
        students = {name: app("attention", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                                         C.FOLLOW_KEY: True})
                    for name in ("right", "wrong", "silent")}
        _answer(students["right"], 1)
        _answer(students["wrong"], 2)
        C.class_store().reveal(code, key, question, time.time())
        for at in students.values():
            at.run()
            assert not at.exception, at.exception
        assert table["class.q_you_right"].format(answer="1:b") in [
            s.value for s in students["right"].success]
        assert table["class.q_you_wrong"].format(answer="2:c", truth="1:b") in [
            w.value for w in students["wrong"].warning]
        assert table["class.q_you_none"] in [i.value for i in students["silent"].info]
    finally:
        set_lang("en")


# -- the join link's address --

def test_the_join_link_takes_the_public_address_setting_and_a_loopback_one_is_warned():
    assert S.join_link("http://localhost:8501/attention?N=3", "K7Q2XM",
                       "https://class.example.org/app") == \
        "https://class.example.org/app?class=K7Q2XM"
    assert S.join_link("http://10.0.0.5:8501/attention", "K7Q2XM") == \
        "http://10.0.0.5:8501/attention?class=K7Q2XM"
    for url in ("http://localhost:8501/", "http://127.0.0.1:8501/x", "http://[::1]:8501/",
                "http://0.0.0.0:8501/", "http://app.localhost/", "http://127.5.5.5/"):
        assert S.is_loopback(url), url
    for url in ("http://10.0.0.5:8501/", "https://class.example.org/", "", "http://host/"):
        assert not S.is_loopback(url), url
    assert S.public_address("https://class.example.org") == "https://class.example.org"
    assert S.public_address("class.example.org") is None  # no scheme
    assert S.public_address("javascript:alert(1)") is None
    assert S.short_link("https://class.example.org/?class=K7Q2XM") == \
        "class.example.org/?class=K7Q2XM"
    assert S.short_link("http://10.0.0.5:8501/attention?class=K7Q2XM", ("model", "attention")) \
        == "10.0.0.5:8501/?class=K7Q2XM"  # a student goes to the class's page anyway
    assert S.short_link("https://x.org/app/?class=K7Q2XM", ("model",)) == \
        "x.org/app/?class=K7Q2XM"


def test_the_teachers_join_link_uses_the_setting_and_warns_of_a_loopback_address(
        monkeypatch):
    code, key = C.class_store().start(time.time())
    monkeypatch.setenv(C.PUBLIC_URL_SETTING, "https://class.example.org")
    teacher = app(presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
    links_shown = [c.value for c in teacher.code if code in c.value]
    assert links_shown and all(v == f"https://class.example.org/?class={code}"
                               for v in links_shown)
    assert not teacher.warning
    monkeypatch.setenv(C.PUBLIC_URL_SETTING, "http://127.0.0.1:8501")  # the projecting laptop
    teacher.run()
    loopback = en.TEXT["class.loopback"].format(setting=C.PUBLIC_URL_SETTING)
    assert loopback in [w.value for w in teacher.sidebar.warning]
    assert en.TEXT["class.loopback_short"] in [w.value for w in teacher.main.warning]  # banner
    monkeypatch.setenv(C.PUBLIC_URL_SETTING, "class.example.org")  # not an address
    teacher.run()
    bad = en.TEXT["class.public_url_bad"].format(setting=C.PUBLIC_URL_SETTING)
    assert bad in [w.value for w in teacher.sidebar.warning]


def test_readme_documents_the_public_address_setting():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Use it in class", 1)[1].split("\n## ", 1)[0]
    assert C.PUBLIC_URL_SETTING in section and "secrets.toml" in section


# -- what the store keeps for these (both back ends) --


def test_the_store_tells_a_student_their_answer_names_explorers_and_keeps_the_choices(
        store):  # noqa: F811 (the fixture of tests/test_class_store.py)
    code, key = store.start(T0)
    first = store.ask(code, key, Question("token", "?", ("0:the", "1:cat"), 1), T0)
    store.answer(code, first, "ann", 0, "Ann", T0 + 1)
    store.answer(code, first, "bo", 1, None, T0 + 1)
    second = store.ask(code, key, Question("token", "?", ("x", "y"), 0), T0 + 2)
    store.answer(code, second, "ann", 1, "Annie", T0 + 3)  # a later name wins
    assert store.answer_of(code, first, "ann") == 0 and store.answer_of(code, first, "bo") == 1
    assert store.answer_of(code, second, "bo") is None
    assert store.answer_of(code, 99, "ann") is None
    assert store.answer_of("nonsense", 1, "ann") is None
    for student, following in (("ann", False), ("bo", False), ("cy", False), ("dee", True)):
        store.heartbeat(code, student, following, T0 + 4)
    roster = store.roster(code, key, T0 + 5)
    assert (roster.connected, roster.following, roster.exploring) == (4, 1, 3)
    assert roster.explorers == ("Annie",)  # bo gave no name; cy never answered
    assert store.tally(code, key, first).choices == ("0:the", "1:cat")
    store.end(code, key, T0 + 6)
    assert [q.choices for q in store.questions(code, key)] == [("0:the", "1:cat"), ("x", "y")]
