"""A class follows its teacher (explorer/app/classroom.py, explorer/sections/classroom.py):
the teacher starts a class in one session, students join it in others, follow the
teacher's view in their own language, explore on their own and come back.

Each test gets a class store of its own (SQLite in a temporary folder). AppTest runs the
default page through app.py, where the class is wired in; a student's page switch is the
browser's (tests/test_e2e_classroom.py)."""

from __future__ import annotations

import time

import pytest
from apptest_helpers import ROOT, app, chart_names, own_class_store  # noqa: F401 (autouse)
from shared_inputs import bad_input_texts
from step_gate import StepGate
from streamlit.testing.v1 import AppTest

from explorer.app import classroom as C
from explorer.app import streamlit_internals as I
from explorer.classroom.store import NotTeacherError, Question
from explorer.sections.classroom import ANSWERED_KEY, join_link, qr_png
from explorer.text.i18n import plain, set_lang
from explorer.text.locales import en, zh


def _session(page: str | None = None, **query: str) -> AppTest:
    """A browser session opening app.py (on `page`) with the link's `query`. (A page change
    the script makes, st.switch_page, AppTest follows by running that page alone.)"""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def _teacher() -> tuple[AppTest, str]:
    at = _session()
    at.button(key="class_start").click().run()
    assert not at.exception, at.exception
    seat = at.session_state[C.SEAT_KEY]
    assert seat.teaching and len(seat.code) == 6
    return at, seat.code


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.sidebar.markdown] + [c.value for c in at.sidebar.caption]
    return "\n".join(str(p) for p in parts)


def test_a_teacher_starts_a_class_with_a_code_a_join_link_and_a_qr_code():
    at, code = _teacher()
    assert f"## {code}" in _texts(at)
    assert any(f"?class={code}" in c.value for c in at.sidebar.code)
    assert at.sidebar.get("image")  # the QR code
    assert at.query_params["class"] in (code, [code])  # a reload finds the class again
    assert join_link("http://host:8501/attention?N=3", code) == \
        f"http://host:8501/attention?class={code}"
    assert qr_png("x").startswith(b"\x89PNG")


def test_a_student_follows_the_teachers_sentence_and_settings_in_their_own_language():
    teacher, code = _teacher()
    set_lang("zh")  # AppTest formats a widget's value again in the test's thread
    try:
        _student_in_chinese_follows(teacher, code)
    finally:
        set_lang("en")


def _student_in_chinese_follows(teacher: AppTest, code: str) -> None:
    set_lang("en")
    teacher.text_input(key="source").set_value("the teacher types this").run()
    teacher.number_input(key="N").set_value(3).run()
    set_lang("zh")
    student = _session(**{"class": code, "lang": "zh"})
    seat = student.session_state[C.SEAT_KEY]
    assert not seat.teaching and student.session_state[C.FOLLOW_KEY] is True
    assert not teacher.exception
    assert not student.exception, student.exception
    assert student.text_input(key="source").value == "the teacher types this"
    assert student.session_state["N"] == 3
    assert _folded_size(student).startswith(zh.TEXT["sidebar.following_size"].split("{")[0])
    assert "N 3 · h " in _folded_size(student)
    assert student.session_state["lang"] == "zh"  # the student's language is their own
    assert zh.TEXT["class.follow"] in [w.label for w in student.sidebar.toggle]
    set_lang("en")
    teacher.text_input(key="source").set_value("then this").run()  # a change while in class
    teacher.toggle(key="presenter").set_value(True).run()  # the projector's, not theirs
    set_lang("zh")
    student.run()
    assert student.text_input(key="source").value == "then this"
    assert student.session_state["presenter"] is not True
    assert student.session_state[C.FOLLOW_KEY] is True


def _folded_size(at: AppTest) -> str:
    """The label of a following student's folded model size ("" if not folded)."""
    prefixes = tuple(lang.TEXT["sidebar.following_size"].split("{")[0] for lang in (en, zh))
    labels = [e.label for e in at.sidebar.expander if e.label.startswith(prefixes)]
    return labels[0] if labels else ""


def test_a_following_students_model_size_is_one_line_that_opens_to_the_widgets():
    """The class sets the size: folded, it is one line; opened, the usual widgets, and a
    change there is the student's own (they explore, and the sidebar unfolds)."""
    teacher, code = _teacher()
    teacher.number_input(key="d_ff").set_value(96).run()
    student = _session(**{"class": code})
    student.run()
    assert "N 2 · h 4 · d_model 32 · d_ff 96 · dropout 0.0 · seed 0" in _folded_size(student)
    assert not [w for w in student.sidebar.number_input if w.key in ("N", "d_ff", "seed")]
    student.session_state["size_open"] = True  # the learner opens it
    student.run()
    assert student.number_input(key="d_ff").value == 96
    assert en.TEXT["sidebar.following_size_note"] in [c.value for c in student.sidebar.caption]
    student.number_input(key="d_ff").set_value(128).run()
    assert student.session_state[C.FOLLOW_KEY] is False  # exploring
    assert _folded_size(student) == ""  # unfolded at once
    assert student.number_input(key="d_ff").value == 128
    teacher.number_input(key="d_ff").set_value(64).run()
    student.run()
    assert student.number_input(key="d_ff").value == 128  # never overwritten
    assert not student.exception, student.exception


def test_a_student_who_changes_the_view_explores_and_comes_back_in_one_click():
    teacher, code = _teacher()
    student = _session(**{"class": code})
    student.run()
    student.text_input(key="source").set_value("my own sentence").run()
    assert student.session_state[C.FOLLOW_KEY] is False  # exploring now
    teacher.text_input(key="source").set_value("the class moves on").run()
    student.run()
    assert student.text_input(key="source").value == "my own sentence"  # never overwritten
    # at the top of the page, where a phone shows it (its sidebar is folded away)
    assert any(en.TEXT["class.elsewhere"].split("{")[0] in i.value for i in student.main.info)
    student.button(key="class_back").click().run()
    student.run()
    assert student.session_state[C.FOLLOW_KEY] is True
    assert student.text_input(key="source").value == "the class moves on"


def _follow_toggle(at: AppTest):
    """The student's "Follow the teacher" toggle as drawn in the last run."""
    (toggle,) = [w for w in at.sidebar.toggle if w.key.startswith(C.FOLLOW_TOGGLE)]
    return toggle


def test_the_follow_toggle_is_drawn_anew_whenever_the_app_turns_following():
    """A browser's rerun carries every widget's value, and one sent before it heard that the
    app turned following on or off would switch the toggle back: each turn draws a toggle of
    a new key, which shows the student's own flag; the student's switch is theirs."""
    teacher, code = _teacher()
    student = _session(**{"class": code})
    student.run()
    first = _follow_toggle(student)
    assert first.value is True
    student.text_input(key="source").set_value("my own sentence").run()  # explores
    exploring = _follow_toggle(student)
    assert exploring.key != first.key and exploring.value is False
    student.button(key="class_back").click().run()
    student.run()
    back = _follow_toggle(student)
    assert back.key not in (first.key, exploring.key) and back.value is True
    assert student.session_state[C.FOLLOW_KEY] is True
    back.set_value(False).run()  # the student's own switch
    assert student.session_state[C.FOLLOW_KEY] is False
    assert _follow_toggle(student).value is False
    _follow_toggle(student).set_value(True).run()
    student.run()
    assert student.session_state[C.FOLLOW_KEY] is True and _follow_toggle(student).value is True
    assert not student.exception, student.exception


def test_a_reopened_teacher_link_with_the_key_in_the_browser_steers_again(monkeypatch):
    teacher, code = _teacher()
    key = teacher.session_state[C.SEAT_KEY].teacher_key
    # the teacher closed the tab; the browser still sends the key's cookie with the link
    with monkeypatch.context() as browser:  # the students' browsers hold no key
        browser.setattr(C, "_teacher_cookie", lambda c: key if c == code else None)
        again = _session(**{"class": code})
    assert again.session_state[C.SEAT_KEY].teaching
    again.text_input(key="source").set_value("back in charge").run()
    assert not again.exception, again.exception
    student = _session(**{"class": code})
    student.run()
    assert student.text_input(key="source").value == "back in charge"
    # a forged key (a student's cookie) makes a student, and steers nothing
    with monkeypatch.context() as browser:
        browser.setattr(C, "_teacher_cookie", lambda c: "forged-key")
        forger = _session(**{"class": code})
    assert forger.session_state[C.SEAT_KEY].teacher_key is None
    with pytest.raises(NotTeacherError):
        C.class_store().steer(code, "forged-key", {"src": "hijack"}, time.time())


def test_the_teacher_ends_the_class_and_students_are_told():
    teacher, code = _teacher()
    student = _session(**{"class": code})
    teacher.button(key="class_end").click().run()  # asks to confirm
    assert C.SEAT_KEY in teacher.session_state
    teacher.button(key="class_end_yes").click().run()
    assert C.SEAT_KEY not in teacher.session_state
    student.run()
    assert not student.exception
    # at the top of the page, where a phone shows it
    assert any(en.TEXT["class.ended"] in w.value for w in student.main.warning)


@pytest.mark.parametrize("text", ["", "K7Q2X", "nonsense!", *bad_input_texts()[:12]])
def test_a_bad_or_unknown_code_gives_a_message_and_the_normal_app(text):
    at = _session(**{"class": text})
    assert C.SEAT_KEY not in at.session_state
    assert not at.exception
    if text:
        assert at.sidebar.warning  # not a code, or no class with it


def _grid_shown(at: AppTest) -> bool:
    return any(el.proto.id and "attn_grid" in el.proto.id for el in at.get("plotly_chart"))


def test_the_teacher_asks_where_a_token_will_look_students_answer_once_and_see_the_truth():
    code, key = C.class_store().start(time.time())
    seats = {"teacher": C.Seat(code, key), "student": C.Seat(code, None)}
    teacher = app("attention", **{C.SEAT_KEY: seats["teacher"]})
    student = app("attention", **{C.SEAT_KEY: seats["student"], C.FOLLOW_KEY: True})
    assert not teacher.exception and not student.exception
    assert _grid_shown(student)
    teacher.selectbox(key="class_query").set_value(1).run()
    teacher.button(key="class_ask").click().run()
    assert not teacher.exception, teacher.exception
    student.run()
    assert not _grid_shown(student)  # the answer would be in the heatmaps
    assert student.selectbox(key="class_answer").value is None  # no answer preselected
    assert student.button(key="class_send").disabled  # until a token is picked
    student.selectbox(key="class_answer").set_value(2).run()
    student.button(key="class_send").click().run()
    assert not student.exception, student.exception
    assert any(en.TEXT["class.q_sent"].split(".")[0] in i.value for i in student.info)
    store = C.class_store()
    question = store.state(code).question
    tally = store.tally(code, key, question.id)
    assert tally.answered == 1 and tally.counts[2] == 1
    teacher.run()
    teacher.button(key="class_reveal").click().run()
    assert not teacher.exception, teacher.exception
    student.run()
    assert _grid_shown(student)  # back once revealed
    truth = store.results(code, question.id).truth
    assert any("of 1 answers were right" in s.value for s in student.success)
    assert truth == tally.truth
    # the chart's text alternative: each answer given, and by how many
    said = [c.value for c in student.caption if c.value.startswith("Answers given")]
    given = f"{question.choices[2]}: 1"  # one student, the third option
    assert said == [plain(en.TEXT["a11y.answers_given"].format(given=given))]


def _teacher_on_a_page(code: str, key: str, presenter: bool) -> None:
    """The teacher's question on a page drawn for a projector or not."""
    import numpy as np  # AppTest runs this function's body as a script of its own

    from explorer.sections.classroom import teacher_question

    teacher_question(np.eye(3)[[1, 2, 0]][None, None], ["a", "b", "c"], ["x", "y", "z"], "enc",
                     "en", presenter)


@pytest.mark.parametrize("presenter", [False, True])
def test_the_class_answers_are_drawn_like_every_chart_large_on_the_projector(presenter):
    """explorer.app.charts.show_chart: presenter sizes under a key of their own, and the
    toolbar's PNG named after the chart, for the teacher's tally and the students' results."""
    code, key = C.class_store().start(time.time())
    teacher = AppTest.from_function(_teacher_on_a_page, args=(code, key, presenter),
                                    default_timeout=60)
    teacher.session_state[C.SEAT_KEY] = C.Seat(code, key)
    teacher.run()
    teacher.button(key="class_ask").click().run()
    assert not teacher.exception, teacher.exception
    big = "_presenter" if presenter else ""
    assert chart_names(teacher) == {f"class_guesses{big}": "class_guesses"}
    store = C.class_store()
    store.reveal(code, key, store.state(code).question.id, time.time())
    student = app("attention", **{C.SEAT_KEY: C.Seat(code, None), C.FOLLOW_KEY: True})
    assert not student.exception, student.exception
    assert chart_names(student).get("class_guesses") == "class_guesses"  # a laptop's size


@pytest.mark.parametrize("nickname", ["**bold** [x](javascript:alert(1))", *bad_input_texts(6)])
def test_a_nickname_reaches_only_the_teacher_as_plain_text(nickname):
    code, key = C.class_store().start(time.time())
    teacher = app("attention", **{C.SEAT_KEY: C.Seat(code, key)})
    student = app("attention", **{C.SEAT_KEY: C.Seat(code, None), C.FOLLOW_KEY: True})
    teacher.button(key="class_ask").click().run()
    student.run()
    student.text_input(key="class_nick").set_value(nickname).run()
    student.selectbox(key="class_answer").set_value(0).run()
    student.button(key="class_send").click().run()
    teacher.run()
    assert not teacher.exception and not student.exception
    names = [c.value for c in teacher.caption if c.value.startswith("Who answered what")]
    cleaned = C.class_store().tally(code, key, C.class_store().state(code).question.id)
    if any(cleaned.nicknames):
        assert len(names) == 1 and "**bold**" not in names[0] and "](" not in names[0]
    assert not any("Who answered what" in c.value for c in student.caption)


def test_each_class_version_a_page_takes_is_watched_by_a_fragment_of_its_own():
    """Streamlit names a fragment after its function's qualified name and ignores a timer's
    rerun of a fragment the last full run did not draw. A browser that has not yet drawn
    the page that took a class change still ticks the old `_watch`, and must be ignored: a
    run it started would make the server drop that page's last messages (bench/classroom.py
    lost 69 of 150 changes so)."""
    from explorer.sections.classroom import _watch_for

    names = {_watch_for(v).__qualname__ for v in (-1, 0, 1, 2, 41)}
    assert len(names) == 5
    assert _watch_for(7).__qualname__ == _watch_for(7).__qualname__  # a rerun keeps it


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teachers_dashboard_lists_every_question_with_its_answers(lang):
    store = C.class_store()
    code, key = store.start(time.time())
    first = store.ask(code, key, Question("token", "Where will **sat** look?", ("a", "b"), 1,
                                          {"token": "sat"}), time.time())
    store.answer(code, first, "s1", 1, None, time.time())
    store.answer(code, first, "s2", 0, None, time.time())
    store.reveal(code, key, first, time.time())
    store.ask(code, key, Question("option", "Did you expect it?", ("yes", "no")), time.time())
    set_lang(lang)
    try:
        teacher = _session(lang=lang)  # the class panel is drawn by app.py on every page
        teacher.session_state[C.SEAT_KEY] = C.Seat(code, key)
        teacher.run()
        assert not teacher.exception, teacher.exception
        texts = (en if lang == "en" else zh).TEXT
        marks = [m.value for m in teacher.sidebar.markdown]
        rows = [m for m in marks if m.startswith(("**1.**", "**2.**"))]
        assert rows == [  # newest first
            "**2.** " + texts["class.asked_open"].format(answered=0),
            "**1.** " + texts["class.asked_right"].format(answered=2, right="50%")]
        prompts = [c.value for c in teacher.sidebar.caption]
        assert "Did you expect it?" in prompts
        assert r"Where will \*\*sat\*\* look?" in prompts  # shown as typed, not bold
    finally:
        set_lang("en")


def _decoding_shown(at: AppTest) -> bool:
    return any(el.proto.id and "tr_next" in el.proto.id for el in at.get("plotly_chart"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_asks_which_token_comes_next_and_students_see_the_decoding_after(lang):
    """The Train page's decoding step: the teacher asks which token the decoder writes; a
    following student sees the source and the prefix, answers once, and sees the decoding
    (which holds the answer) only after the reveal, with the truth in their language."""
    code, key = C.class_store().start(time.time())
    table = (zh if lang == "zh" else en).TEXT

    def as_student() -> None:  # AppTest formats a widget's values in the test's thread
        set_lang(lang)

    def as_teacher() -> None:
        set_lang("en")

    try:
        as_teacher()
        teacher = app("train", **{C.SEAT_KEY: C.Seat(code, key)})
        as_student()
        student = app("train", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                             C.FOLLOW_KEY: True})
        assert not teacher.exception and not student.exception
        assert _decoding_shown(student)
        as_teacher()
        teacher.slider(key="tr_step_shown").set_value(2).run()
        teacher.button(key="class_ask_next").click().run()
        assert not teacher.exception, teacher.exception
        store = C.class_store()
        question = store.state(code).question
        tally = store.tally(code, key, question.id)
        assert question.fields["about"] == "next" and question.fields["step"] == "2"
        assert question.fields["prefix"].startswith("<s>")
        assert question.prompt == en.TEXT["class.q_next"].format(step=2)  # the teacher's words
        as_student()
        student.run()
        assert not student.exception, student.exception
        assert not _decoding_shown(student)  # the step view would show the pick
        assert any(table["class.q_next"].format(step=2) in h.value for h in student.subheader)
        assert question.fields["prefix"] in [c.value for c in student.code]
        answer = student.selectbox(key="class_answer")
        assert list(answer.options) == list(question.choices)
        answer.set_value(tally.truth).run()
        student.button(key="class_send").click().run()
        assert not _decoding_shown(student)  # still hidden after answering
        as_teacher()
        teacher.run()
        teacher.button(key="class_reveal").click().run()
        as_student()
        student.run()
        assert not student.exception, student.exception
        assert _decoding_shown(student)
        right = table["class.q_next_truth"].split("{")[0]
        assert any(right in s.value and "100" in s.value for s in student.success)
    finally:
        set_lang("en")


def test_a_next_token_question_offers_the_vocabulary_in_its_order_and_the_likeliest_of_a_big_one():
    import numpy as np

    from explorer.classroom.store import MAX_CHOICES
    from explorer.sections.classroom import next_token_choices

    assert next_token_choices(["<s>", "a", "b"], np.array([0.1, 0.2, 0.7])) == [0, 1, 2]
    probs = np.random.default_rng(0).random(MAX_CHOICES + 40)
    ids = next_token_choices([str(i) for i in range(len(probs))], probs)
    assert len(ids) == MAX_CHOICES and ids == sorted(ids)  # the order gives no hint
    assert int(np.argmax(probs)) in ids and int(np.argmin(probs)) not in ids


def _student_polls(code: str) -> None:
    from explorer.app import classroom as C  # AppTest runs this function's body on its own

    C.heartbeat(C.class_store(), C.Seat(code, None))


def test_a_students_poll_ends_a_class_whose_teacher_left_hours_ago():
    """ClassStore.sweep with each heartbeat: nothing else needs to run for it to end."""
    from explorer.classroom.store import IDLE_LIMIT

    store = C.class_store()
    code, _ = store.start(time.time() - IDLE_LIMIT - 10)
    assert not store.state(code).ended
    at = AppTest.from_function(_student_polls, args=(code,), default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    assert store.state(code).ended


def test_a_waiting_student_gives_way_to_a_click_and_to_other_fragments_not_to_its_own_tick(
        monkeypatch):
    """explorer/app/classroom.py `_asked_for_another_run` (streamlit_internals.py
    `another_run_asked`), read against Streamlit's own
    request queue: `_watch`'s wait ends for a learner's rerun, another fragment's timer (a
    training's progress) or a stop, and goes on through its own next tick."""
    import types

    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests

    def asked(*requests: RerunData, stop: bool = False) -> bool:
        queue = ScriptRequests()
        for request in requests:
            queue.request_rerun(request)
        if stop:
            queue.request_stop()
        ctx = types.SimpleNamespace(script_requests=queue, fragment_ids_this_run=["watch"])
        monkeypatch.setattr(I, "get_script_run_ctx", lambda suppress_warning=False: ctx)
        return C._asked_for_another_run()

    tick = RerunData(fragment_id="watch", is_auto_rerun=True)
    assert not asked() and not asked(tick)
    assert asked(tick, RerunData(fragment_id="progress", is_auto_rerun=True))
    assert asked(RerunData(query_string="x"))  # a click: the whole page
    assert asked(tick, RerunData(query_string="x"))
    assert asked(stop=True)


def test_the_answers_chart_draws_every_token_of_a_digits_vocabulary():
    """A vocabulary of digits and specials: every bar on a category axis, none dropped."""
    from explorer.figures.attention import guesses_chart

    labels = ("<pad>", "<s>", "</s>", "<unk>", "0", "1", "4")
    fig = guesses_chart((0, 1, 1, 0, 0, 0, 2), labels, 6, lang="en")
    assert fig.layout.xaxis.type == "category"
    assert list(fig.data[0].x) == ["&lt;pad&gt;", "&lt;s&gt;", "&lt;/s&gt;", "&lt;unk&gt;",
                                   "0", "1", "4"]
    # the model's mark sits on "4", the seventh token: plotly reads x="4" on a category
    # axis as the fifth place ("0"), so the mark is placed by the token's place
    (mark,) = fig.layout.annotations
    assert mark.x == 6 and mark.y == 2 and mark.text == en.TEXT["class.q_model_pick"]
    hurt = guesses_chart((1, 0), ("No mask", "No residuals"), 1, lang="zh",
                         mark="class.q_hurt_most")  # a break question marks what hurt most
    assert hurt.layout.annotations[0].text == zh.TEXT["class.q_hurt_most"]


def test_a_following_student_takes_a_choice_the_teacher_puts_back_to_its_default():
    """A link leaves out the choices at their default: the class's view then holds the
    default, not whatever the student had before."""
    code, key = C.class_store().start(time.time())
    set_lang("zh")
    try:
        student = _session(**{"class": code, "lang": "zh"})
        store = C.class_store()
        store.steer(code, key, {"page": "model", "N": "3", "sattn": "1", "trained": "0"},
                    time.time())
        student.run()
        assert student.session_state["shape_attn"] is True and student.session_state["N"] == 3
        store.steer(code, key, {"page": "model", "trained": "0"}, time.time())
        student.run()
        assert not student.exception, student.exception
        assert student.session_state["shape_attn"] is False and student.session_state["N"] == 2
        assert student.session_state["lang"] == "zh"  # their own, whatever the defaults
        assert student.session_state[C.FOLLOW_KEY] is True
    finally:
        set_lang("en")


def test_a_following_student_decodes_the_teachers_input_at_the_teachers_step():
    """The decoding's input, step and head are the view's: a class asked about a step sees
    the step the teacher shows, and a teacher who puts them back gives the defaults back."""
    code, key = C.class_store().start(time.time())
    student = _session(**{"class": code})
    store = C.class_store()
    store.steer(code, key, {"page": "model", "task": "copy", "dig": "4 4 2", "dstep": "2",
                            "dh": "1", "trained": "0"}, time.time())
    student.run()
    assert not student.exception, student.exception
    state = student.session_state
    assert (state["tr_digits"], state["tr_step"], state["tr_head"]) == ("4 4 2", 2, 1)
    store.steer(code, key, {"page": "model", "task": "copy", "trained": "0"}, time.time())
    student.run()
    state = student.session_state
    assert (state["tr_digits"], state["tr_step"], state["tr_head"]) == ("3 1 4 1 5 9 2", None,
                                                                        "mean")


def test_the_decoding_shows_the_views_step_and_its_own_picks_stay_out_of_the_link():
    """None in the view (the whole answer, the last layer, the sidebar's model) is what the
    page picks, and the page does not write its pick back: a following student whose page
    picked would otherwise seem to explore (explorer/app/classroom.py notice_exploring)."""
    at = app("train", tr_digits="4 4 2", tr_step=2, tr_head=1)
    assert not at.exception, at.exception
    assert at.text_input(key="tr_digits").value == "4 4 2"
    assert at.slider(key="tr_step_shown").value == 2
    assert at.selectbox(key="tr_head").value == 1
    assert at.query_params["dstep"] in ("2", ["2"]) and at.query_params["dig"] in ("4 4 2",
                                                                                   ["4 4 2"])
    at = app("train")
    at.run()
    step = at.slider(key="tr_step_shown")
    assert step.value == step.max  # the whole answer
    assert at.session_state["tr_step"] is None if "tr_step" in at.session_state else True
    assert "dstep" not in at.query_params and "dl" not in at.query_params
    assert "with" not in at.query_params
    step.set_value(1).run()  # the learner's own step goes into the view
    assert at.session_state["tr_step"] == 1 and at.query_params["dstep"] in ("1", ["1"])


def _teacher_next_on_the_projector(code: str, key: str) -> AppTest:
    teacher = app("train", presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
    assert _decoding_shown(teacher)
    teacher.button(key="class_ask_next").click().run()
    assert not teacher.exception, teacher.exception
    return teacher


def test_the_projector_hides_the_decoders_pick_until_the_teacher_reveals_it():
    code, key = C.class_store().start(time.time())
    teacher = _teacher_next_on_the_projector(code, key)
    assert not _decoding_shown(teacher)  # the room sees the teacher's screen
    assert any(en.TEXT["class.hidden_on_projector"] in c.value for c in teacher.caption)
    headers = [h.value for h in teacher.header]
    assert en.TEXT["train.before_after_header"] in headers  # the sections keep their numbers
    teacher.button(key="class_reveal").click().run()
    assert not teacher.exception, teacher.exception
    assert _decoding_shown(teacher)


def test_the_projector_hides_the_heatmaps_until_the_teacher_reveals_where_it_looks():
    code, key = C.class_store().start(time.time())
    teacher = app("attention", presenter=True, **{C.SEAT_KEY: C.Seat(code, key)})
    assert _grid_shown(teacher)
    teacher.button(key="class_ask").click().run()
    assert not teacher.exception, teacher.exception
    assert not _grid_shown(teacher)
    assert any(en.TEXT["class.hidden_on_projector"] in c.value for c in teacher.caption)
    teacher.button(key="class_reveal").click().run()
    assert _grid_shown(teacher)
    plain = app("attention", **{C.SEAT_KEY: C.Seat(code, key)})  # a laptop, not projected
    plain.button(key="class_ask").click().run()
    assert _grid_shown(plain)


def _race(teacher: AppTest):
    code, question_id, race = teacher.session_state["class_race"]
    return race


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_asks_which_break_hurts_most_and_reveals_what_the_race_measured(
        lang, monkeypatch):
    """The Train page's "break a part": the teacher offers two breaks; the server trains the
    correct model and one per break while students answer (each in their own language);
    Reveal waits for the measurements, then shows the break that decoded worst."""
    gate = StepGate(monkeypatch)
    code, key = C.class_store().start(time.time())
    table = (zh if lang == "zh" else en).TEXT
    offered = ["decoder_mask.none", "positional_encoding"]

    try:  # AppTest formats a widget's values in the test's thread: in the user's language
        set_lang("en")
        teacher = app("train", exp_steps=20, class_breaks=offered,
                      **{C.SEAT_KEY: C.Seat(code, key)})
        assert not teacher.exception, teacher.exception
        teacher.button(key="class_ask_break").click().run()
        assert not teacher.exception, teacher.exception
        store = C.class_store()
        question = store.state(code).question
        assert question.kind == "option" and question.choices == tuple(offered)
        assert dict(question.fields) == {"about": "break", "task": "copy", "steps": "20"}
        assert question.prompt == en.TEXT["class.q_break"].format(task="copy")
        assert store.tally(code, key, question.id).truth is None  # measured later
        race = _race(teacher)
        assert race.choices == tuple(offered) and race.running
        assert teacher.button(key="class_reveal").disabled  # nothing measured yet
        assert any(en.TEXT["class.reveal_waits"] in c.value for c in teacher.caption)

        set_lang(lang)  # the student
        student = app("train", lang=lang, **{C.SEAT_KEY: C.Seat(code, None),
                                             C.FOLLOW_KEY: True})
        assert not student.exception, student.exception
        task = table["train.task_copy"]
        assert any(table["class.q_break"].format(task=task) in h.value
                   for h in student.subheader)
        answer = student.selectbox(key="class_answer")
        names = [table["exp.short.decoder_mask.none"], table["exp.short.positional_encoding"]]
        assert list(answer.options) == names  # the breaks in the student's language
        answer.set_value(0).run()
        student.button(key="class_send").click().run()
        assert not student.exception, student.exception

        for state in race.states:  # the race trains to its end
            gate.allow(state, 20)
        assert race.idle.wait(60) and race.results is not None
        set_lang("en")  # the teacher
        teacher.run()
        assert not teacher.exception, teacher.exception
        assert not teacher.button(key="class_reveal").disabled
        teacher.button(key="class_reveal").click().run()
        assert not teacher.exception, teacher.exception
        results = store.results(code, question.id)
        assert results.truth == race.hurt_most() is not None
        assert results.counts == (1, 0)
        set_lang(lang)  # the student
        student.run()
        assert not student.exception, student.exception
        right = table["class.q_break_truth"].split("{")[0]
        success = [s.value for s in student.success if right in s.value]
        assert success and names[results.truth] in success[0]
    finally:
        set_lang("en")


def test_the_projector_hides_the_races_measurements_until_the_reveal(monkeypatch):
    gate = StepGate(monkeypatch)
    code, key = C.class_store().start(time.time())
    teacher = app("train", presenter=True, exp_steps=20,
                  class_breaks=["positional_encoding", "residual"],
                  **{C.SEAT_KEY: C.Seat(code, key)})
    teacher.button(key="class_ask_break").click().run()
    race = _race(teacher)
    for state in race.states:
        gate.allow(state, 20)
    assert race.idle.wait(60) and race.results is not None
    teacher.run()
    assert not teacher.exception, teacher.exception
    model_column = en.TEXT["class.race_model"]
    assert not any(model_column in df.value.columns for df in teacher.dataframe)
    assert any(en.TEXT["class.race_hidden"] in c.value for c in teacher.caption)
    teacher.button(key="class_reveal").click().run()
    tables = [df.value for df in teacher.dataframe if model_column in df.value.columns]
    assert tables and len(tables[0]) == 3  # the correct model and one per break
    # 20 steps teach the copy task nothing yet: the page says the race is too short
    assert race.results[0].greedy < 0.5
    weak = en.TEXT["class.race_weak"].split("{")[0]
    assert any(weak in w.value for w in teacher.warning)


@pytest.mark.parametrize("offered", [[], ["residual"], ["<script>", "residual"], "residual"])
def test_a_break_question_needs_two_known_breaks(offered):
    code, key = C.class_store().start(time.time())
    teacher = app("train", class_breaks=offered, **{C.SEAT_KEY: C.Seat(code, key)})
    assert not teacher.exception, teacher.exception
    assert teacher.button(key="class_ask_break").disabled
    assert C.class_store().state(code).question is None


def test_the_teachers_tally_draws_its_chart_again_only_when_an_answer_came(monkeypatch):
    from explorer.figures import attention as figures
    from explorer.sections import classroom as section

    built: list[tuple[int, ...]] = []
    real = figures.guesses_chart

    def counted(counts, *args, **kwargs):
        built.append(tuple(counts))
        return real(counts, *args, **kwargs)

    monkeypatch.setattr(section, "guesses_chart", counted)
    code, key = C.class_store().start(time.time())
    teacher = app("attention", **{C.SEAT_KEY: C.Seat(code, key)})
    teacher.button(key="class_ask").click().run()
    teacher.run()
    teacher.run()  # the tally's timer, as often as it likes: nothing new, nothing built
    store = C.class_store()
    question = store.state(code).question
    store.answer(code, question.id, "s1", 0, None, time.time())
    teacher.run()
    teacher.run()
    assert not teacher.exception, teacher.exception
    assert len(built) == 2 and built[0] != built[1]  # before the answer, and after it


def test_a_stopped_race_reveals_the_answers_without_a_truth_and_says_so(monkeypatch):
    StepGate(monkeypatch)  # no step is taken until the race is stopped
    code, key = C.class_store().start(time.time())
    teacher = app("train", exp_steps=20, class_breaks=["positional_encoding", "residual"],
                  **{C.SEAT_KEY: C.Seat(code, key)})
    teacher.button(key="class_ask_break").click().run()
    student = app("train", **{C.SEAT_KEY: C.Seat(code, None), C.FOLLOW_KEY: True})
    # while the question is open, the student's section 7 waits: a break trained there
    # would give the answer away
    assert not any(b.key == "exp_run" for b in student.button)
    assert any(en.TEXT["class.break_wait"] in c.value for c in student.caption)
    race = _race(teacher)
    assert teacher.button(key="class_reveal").disabled
    teacher.button(key="class_race_stop").click().run()
    assert race.idle.wait(60) and race.results is None and not race.running
    assert any(en.TEXT["class.race_stopped"] in i.value for i in teacher.info)
    teacher.button(key="class_reveal").click().run()
    assert not teacher.exception, teacher.exception
    question = C.class_store().state(code).question
    assert C.class_store().results(code, question.id).truth is None
    student.run()
    assert not student.exception, student.exception
    none = en.TEXT["class.q_no_truth"].split(":")[0]
    assert any(none in i.value for i in student.info)
    assert any(b.key == "exp_run" for b in student.button)  # section 7 is back


def test_a_race_stops_when_the_teacher_asks_another_question(monkeypatch):
    StepGate(monkeypatch)
    code, key = C.class_store().start(time.time())
    teacher = app("train", exp_steps=20, class_breaks=["positional_encoding", "residual"],
                  **{C.SEAT_KEY: C.Seat(code, key)})
    teacher.button(key="class_ask_break").click().run()
    race = _race(teacher)
    assert race.running
    C.class_store().ask(code, key, Question("option", "?", ("a", "b")), time.time())
    teacher.run()  # any page: the sidebar sees the race's question is not the class's
    assert race.idle.wait(60) and not race.running
    assert {s.stop_reason for s in race.states} == {"question_gone"}


def test_a_break_question_offers_one_value_of_each_switch():
    code, key = C.class_store().start(time.time())
    both = ["decoder_mask.none", "decoder_mask.inverted", "residual"]
    teacher = app("train", exp_steps=20, class_breaks=both, **{C.SEAT_KEY: C.Seat(code, key)})
    assert any(en.TEXT["class.break_one_mask"] in c.value for c in teacher.caption)
    teacher.button(key="class_ask_break").click().run()
    assert C.class_store().state(code).question.choices == ("decoder_mask.none", "residual")
    _race(teacher).stop("test_over")


def _class_notices_alone() -> None:
    from explorer.app import classroom as C
    from explorer.sections.classroom import class_banner

    class_banner(C.class_store(), False, {})


@pytest.mark.parametrize("about, where", [("attention", "class.q_open_attention"),
                                          ("next", "class.q_open_next"),
                                          ("break", "class.q_open_break")])
def test_the_class_panel_points_a_student_to_the_open_question_until_answered(about, where):
    """A question sits in its section, which may be far down the page."""
    code, key = C.class_store().start(time.time())
    store = C.class_store()
    question = store.ask(code, key, Question("option", "?", ("a", "b"), None,
                                             {"about": about}), time.time())
    at = AppTest.from_function(_class_notices_alone, default_timeout=60)
    # a student whose page shows the class's version (app.py's `follow` brought it there)
    at.session_state[C.SEAT_KEY] = C.Seat(code, None, version=store.version(code))
    at.session_state[C.FOLLOW_KEY] = True
    at.run()
    assert not at.exception, at.exception
    assert [i.value for i in at.info] == [en.TEXT[where]]
    at.session_state[ANSWERED_KEY] = (code, question)  # this student answered
    at.run()
    assert not at.info
    at.session_state[ANSWERED_KEY] = None
    at.session_state[C.FOLLOW_KEY] = False  # exploring: the banner says where the class is
    at.run()
    assert en.TEXT[where] not in [i.value for i in at.info]
