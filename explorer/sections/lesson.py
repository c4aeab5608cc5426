"""A lesson on the page: the step's note above the view, its question as a self-check, Back
and Next (`lesson_panel`); and in the sidebar, opening a lesson and making one (`lesson_box`).
In a class, the panel's class side is explorer/sections/lesson_class.py's; a step's question
as a page asks it, explorer/sections/lesson_questions.py's.

The session side (which lesson, which step, the link) is `explorer/app/lesson.py`; the lesson
and its checks are `explorer/state/lesson.py`. Every text of a lesson is the teacher's or a
file's: shown as plain text (`plain`), never as markdown or HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from ..app import lesson as L
from ..app.context import Context
from ..app.import_panel import uploader_css
from ..app.links import share_link
from ..state.lesson import (
    MAX_BYTES,
    MAX_NOTE,
    MAX_OPTION,
    MAX_PROMPT,
    MAX_QUERY,
    MAX_STEPS,
    MAX_TITLE,
    MEASURED,
    QUESTION_KINDS,
    SHIPPED,
    Lesson,
    LessonError,
    Question,
    dumps,
    parse_lesson,
    parse_question,
    parse_text,
    text_in,
)
from ..state.view import PAGE_PATHS
from ..text.i18n import LANG_NAMES, LANGS, plain, t
from .classroom import teaching
from .lesson_checks import (
    checks_box,
    paced_student,
    self_check_nickname,
    send_check,
    take_back_checks,
)
from .lesson_class import class_student, class_teacher, in_class_as_student, notes_hidden
from .lesson_questions import not_asked, step_asked

NO_QUESTION = "none"  # the editor's question menu: no question at this step
_NOT_KEPT = "_lesson_check_not_kept"  # the step whose self-check the class did not keep, once
# Back and Next are links (explorer/app/lesson.py `step_address`) drawn as buttons (a link
# to the page shown is drawn as the menu's current page: not here)
LINK_BUTTONS_CSS = """<style>
.st-key-lesson_back a, .st-key-lesson_next a {
  border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 0.5rem; justify-content: center;
  min-height: 2.5rem; background-color: transparent; }
.st-key-lesson_back a:hover, .st-key-lesson_next a:hover { border-color: currentColor; }
</style>"""
UPLOAD_KEY = "lesson_file"


def problem_text(key: str, values: Mapping[str, object]) -> str:
    """A lesson's problem (`LessonError`'s key and values) in the learner's words: where it
    is (the lesson, or a step) and what (a title, a note, ...) named in their language."""
    values = dict(values)
    if "step" in values:
        step = values["step"]
        values["where"] = t("lesson.in_step", step=step) if step else t("lesson.in_top")
    if "what" in values:
        values["what"] = t(f"lesson.what_{values['what']}")
    return t(key, **values)


# ---- the panel above the page -------------------------------------------------------------


def lesson_panel(ctx: Context, here: str, view: Mapping[str, str], lang: str,
                 page_names: Mapping[str, str], pages: Mapping[str, st.Page],
                 own: Mapping[str, str]) -> None:
    """The open lesson's step: where in the lesson, its note, its question, Back and Next
    (links to the steps' pages with their views, `pages` by URL path; `own`: the address's
    parameters each learner keeps)."""
    notice = L.take_notice()
    if notice is not None:
        st.warning(t("lesson.not_opened", reason=problem_text(*notice)),
                   icon=":material/school:")
    held = L.current()
    if held is None:
        return
    lesson, index = held
    step, n = lesson.steps[index], len(lesson.steps)
    title = text_in(lesson.title, lang) or t("lesson.untitled")
    with st.container(border=True, key="lesson_panel"):
        st.markdown(t("lesson.where", title=plain(title), i=index + 1, n=n))
        note = text_in(step.note, lang)
        taught = teaching()
        if note and taught is not None and notes_hidden(ctx.presenter):
            st.caption(t("lesson.note_hidden"))  # the room sees this screen
        elif note:
            st.markdown(plain(note))
        on_step = here == step.page and L.shows_step(view)
        classes = L.from_class() and in_class_as_student()  # the class's lesson
        if classes and not L.self_paced():  # the teacher moves the class
            class_student(ctx, step, index, lang, on_step)
            return
        if classes:  # student-paced: Back and Next are the student's own
            st.caption(t("lesson.class_self_paced"))
        if not on_step:
            st.info(t("lesson.away", page=page_names.get(step.page, step.page)),
                    icon=":material/explore:")
            st.button(t("lesson.show_step"), key="lesson_show", on_click=L.go_to,
                      args=(index,), icon=":material/replay:")
        ended = L.ended_checks() if taught is None else None
        if ended is not None:  # the class ended: its self-checks of this lesson stay
            checks_box(lesson, *ended, lang)
        if taught is not None:  # the class sees this lesson: its questions go to the class
            class_teacher(ctx, taught, lesson, index, lang, on_step, page_names)
        elif step.question is not None:
            _self_check(ctx, step.question, step.view, index, lang, on_step)
        st.markdown(LINK_BUTTONS_CSS, unsafe_allow_html=True)  # a constant: no user text
        back, forward, leave = st.columns(3, vertical_alignment="center")
        for where, to, label, icon in ((back, index - 1, "lesson.back", ":material/arrow_back:"),
                                       (forward, index + 1, "lesson.next",
                                        ":material/arrow_forward:")):
            with where.container(key=label.replace(".", "_")):
                target = lesson.steps[max(0, min(to, n - 1))].page
                st.page_link(pages[target], label=t(label), icon=icon,
                             query_params=L.step_address(to, own), disabled=not 0 <= to < n,
                             width="stretch")
        if not classes:  # the class's lesson closes when the teacher closes it
            leave.button(t("lesson.close"), key="lesson_close", on_click=L.close,
                         icon=":material/close:", width="stretch")
        if index == n - 1:
            st.caption(t("lesson.last_step"))


def _self_check(ctx: Context, question: Question, view: Mapping[str, str], index: int,
                lang: str, on_step: bool) -> None:
    """The step's question: pick, Check, and at once right or wrong with why. In a class's
    student-paced lesson the answer also goes to the class (the teacher's results), and
    the answers it kept come back after a reload."""
    asked = step_asked(ctx, question, view, lang, on_step)
    if asked is None:
        st.caption(t(not_asked(on_step)))
        return
    taken = paced_student()
    if taken is not None:
        take_back_checks(taken)
    st.markdown(f"**{t('lesson.question')}** {plain(asked.prompt)}")
    pick_key = f"lesson_pick_{L.edit_round()}_{index}"
    answered = L.answer_of(index)
    labels = [plain(o) for o in asked.options]
    if answered is None:
        choice = st.radio(t("lesson.your_answer"), range(len(labels)), index=None,
                          format_func=lambda i: labels[i], key=pick_key)
        if taken is not None:
            self_check_nickname(taken)
        st.button(t("lesson.check"), key=f"lesson_check_{index}", on_click=_check,
                  args=(index, pick_key, tuple(labels), asked.truth, taken is not None),
                  disabled=choice is None, icon=":material/check:")
        return
    if st.session_state.pop(_NOT_KEPT, None) == index:
        st.warning(t("lesson.check_not_kept"), icon=":material/cloud_off:")
    given = labels[answered] if 0 <= answered < len(labels) else "?"
    if asked.truth is None:
        st.info(t("lesson.poll_answer", given=given), icon=":material/how_to_vote:")
    elif answered == asked.truth:
        st.success(t("lesson.right", given=given), icon=":material/check_circle:")
    else:
        st.error(t("lesson.wrong", given=given, truth=labels[asked.truth]),
                 icon=":material/cancel:")
    if asked.explain:
        st.markdown(plain(asked.explain))
    st.button(t("lesson.again"), key=f"lesson_again_{index}", on_click=L.forget_answer,
              args=(index,), icon=":material/refresh:")


def _check(index: int, pick_key: str, labels: tuple[str, ...], truth: int | None,
           to_class: bool) -> None:
    """The Check button: the picked option, if it is one of the question's `labels`;
    `to_class`: sent to the class too with its label, right or not by `truth` (None: a
    poll)."""
    choice = st.session_state.get(pick_key)
    if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(labels):
        L.keep_answer(index, choice)
        right = None if truth is None else choice == truth
        if to_class and not send_check(index, choice, right, labels[choice]):
            st.session_state[_NOT_KEPT] = index


# ---- the sidebar's lesson box: open one, make one --------------------------------------------


def lesson_box(here: str, view: Mapping[str, str], base_url: str, lang: str) -> None:
    """The sidebar's "Lessons": open a shipped lesson or a file, or make one from the views."""
    with st.expander(t("lesson.box"), icon=":material/school:", key="lesson_box"):
        held = L.current()
        if held is None:
            _open_menu(here, view, lang)
        else:
            _editor(held[0], held[1], here, view, base_url, lang)


def _open_menu(here: str, view: Mapping[str, str], lang: str) -> None:
    st.caption(t("lesson.box_help"))
    titles = {}
    for name in SHIPPED:
        try:
            titles[name] = text_in(L.shipped_lesson(name).title, lang)
        except (LessonError, OSError):  # a broken install: the other lessons still open
            continue
    if titles:
        name = st.selectbox(t("lesson.shipped"), list(titles), format_func=titles.get,
                            key="lesson_shipped")
        st.button(t("lesson.open"), key="lesson_open", on_click=L.open_shipped,
                  args=(name if name in titles else next(iter(titles)),),
                  icon=":material/play_arrow:")
    # Streamlit's own line says "200MB per file" in English: the lesson's limit instead
    st.markdown(uploader_css(t("ckpt.upload_button"),
                             {UPLOAD_KEY: t("lesson.upload_limit", kb=MAX_BYTES // 1000)}),
                unsafe_allow_html=True)  # the app's own texts, checked by uploader_css
    st.file_uploader(t("lesson.upload"), type=["json"], key=UPLOAD_KEY, on_change=_uploaded,
                     help=t("lesson.upload_help", kb=MAX_BYTES // 1000), max_upload_size=1)
    st.button(t("lesson.start_here"), key="lesson_start", on_click=L.start_here,
              args=(here, dict(view), {"en": "", "zh": ""}), icon=":material/add:",
              help=t("lesson.start_here_help"))


def read_upload(file: object) -> Lesson:
    """The lesson in a chosen file (read no further than the size limit), checked."""
    try:
        raw = file.read(MAX_BYTES + 1)  # type: ignore[attr-defined]
    except Exception:  # an upload that cannot be read at all
        raise LessonError("lesson.err_json") from None
    return parse_lesson(raw if isinstance(raw, bytes) else b"")


def _uploaded() -> None:
    """A lesson file was chosen: opened at its first step, or why not said."""
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        return
    try:
        L.open_lesson(read_upload(file))
    except LessonError as e:
        L.tell(e.key, e.values)


def _editor(lesson: Lesson, index: int, here: str, view: Mapping[str, str], base_url: str,
            lang: str) -> None:
    """Make the open lesson: its title, its steps (add what is shown, move, remove), the
    shown step's note and question; save it as a file or a link."""
    rnd = L.edit_round()
    n = len(lesson.steps)
    st.caption(t("lesson.editing", i=index + 1, n=n))
    st.button(t("lesson.close"), key="lesson_close_box", on_click=L.close,
              icon=":material/close:", width="stretch")
    for code in LANGS:
        st.text_input(t("lesson.title_in", lang=LANG_NAMES[code]), key=f"lesson_title_{code}_{rnd}",
                      value=lesson.title.get(code, ""), max_chars=MAX_TITLE,
                      on_change=_retitle, args=(rnd,))
    st.button(t("lesson.add_here"), key="lesson_add", on_click=L.add_here,
              args=(here, dict(view)), disabled=n >= MAX_STEPS, icon=":material/add:",
              help=t("lesson.add_here_help", n=MAX_STEPS), width="stretch")
    step = lesson.steps[index]
    st.button(t("lesson.set_here"), key="lesson_set", on_click=L.set_here,
              args=(here, dict(view)), disabled=here == step.page and L.shows_step(view),
              icon=":material/photo_camera:", help=t("lesson.set_here_help"), width="stretch")
    up, down = st.columns(2)
    up.button(t("lesson.earlier"), key="lesson_up", on_click=L.move, args=(-1,),
              disabled=index == 0, icon=":material/arrow_upward:", width="stretch")
    down.button(t("lesson.later"), key="lesson_down", on_click=L.move, args=(1,),
                disabled=index == n - 1, icon=":material/arrow_downward:", width="stretch")
    st.button(t("lesson.remove_step"), key="lesson_remove", on_click=L.remove,
              disabled=n == 1, icon=":material/delete:", width="stretch")
    _step_form(step.note, step.question, index, rnd)
    st.download_button(t("lesson.download"), data=dumps(lesson), file_name="lesson.json",
                       mime="application/json", key="lesson_download", on_click="ignore",
                       icon=":material/download:", width="stretch")
    name = L.shipped_name()
    link = share_link(app_root(base_url) + lesson.steps[0].page,
                      {L.LESSON_PARAM: name or L.link_params()[L.LESSON_PARAM],
                       L.STEP_PARAM: "1"})
    st.caption(t("lesson.link_help"))
    st.code(link, language=None)  # one line that scrolls, with Streamlit's copy button


def app_root(url: str) -> str:
    """The app's address from a page's (`http://host/base/attention` -> `http://host/base/`)."""
    parts = urlsplit(url or "")
    path = parts.path
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if last in (*PAGE_PATHS, "home"):
        path = path.rstrip("/")[: -len(last)]
    if not path.endswith("/"):
        path += "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _retitle(rnd: int) -> None:
    L.retitle({code: str(st.session_state.get(f"lesson_title_{code}_{rnd}") or "")[:MAX_TITLE]
               for code in LANGS})


def _step_form(note: Mapping[str, str], question: Question | None, index: int, rnd: int) -> None:
    """The shown step's note and question, saved together by the form's button."""
    key = f"lesson_form_{rnd}_{index}"
    q = question or Question(kind=NO_QUESTION)
    with st.form(key, border=False):
        for code in LANGS:
            st.text_area(t("lesson.note_in", lang=LANG_NAMES[code]), value=note.get(code, ""),
                         max_chars=MAX_NOTE, key=f"{key}_note_{code}", height=100)
        kinds = (NO_QUESTION, *QUESTION_KINDS)
        st.selectbox(t("lesson.q_kind"), kinds, index=kinds.index(q.kind),
                     format_func=lambda k: t(f"lesson.kind_{k}"), key=f"{key}_kind",
                     help=t("lesson.q_kind_help"))
        st.number_input(t("lesson.q_query"), min_value=0, max_value=MAX_QUERY, value=q.query,
                        step=1, key=f"{key}_query", help=t("lesson.q_query_help"))
        for code in LANGS:
            st.text_input(t("lesson.q_prompt", lang=LANG_NAMES[code]),
                          value=q.prompt.get(code, ""), max_chars=MAX_PROMPT,
                          key=f"{key}_prompt_{code}")
            st.text_area(t("lesson.q_options", lang=LANG_NAMES[code]),
                         value="\n".join(o.get(code, "") for o in q.options),
                         key=f"{key}_options_{code}", height=100,
                         max_chars=(MAX_OPTION + 1) * 6, help=t("lesson.q_options_help"))
        st.number_input(t("lesson.q_answer"), min_value=1, max_value=6,
                        value=(q.answer or 0) + 1, step=1, key=f"{key}_answer",
                        help=t("lesson.q_answer_help"))
        for code in LANGS:
            st.text_area(t("lesson.q_explain", lang=LANG_NAMES[code]),
                         value=q.explain.get(code, ""), max_chars=MAX_NOTE,
                         key=f"{key}_explain_{code}", height=80)
        st.form_submit_button(t("lesson.save_step"), on_click=_save_step, args=(key, index),
                              icon=":material/save:")
    problem = st.session_state.pop(f"{key}_problem", None)
    if problem:
        st.error(problem, icon=":material/error:")


def step_fields(values: Mapping[str, object]) -> tuple[dict[str, str], dict | None]:
    """The note and the question (as a lesson file writes it) of an editor form's `values`
    (`note_en`, `kind`, `options_zh`, ...), whatever a client sent."""
    def text(name: str) -> dict[str, str]:
        return {code: str(values.get(f"{name}_{code}") or "") for code in LANGS}

    note = text("note")
    kind = values.get("kind")
    if kind not in QUESTION_KINDS:
        return note, None
    data: dict = {"kind": kind, "prompt": text("prompt"), "explain": text("explain")}
    if kind in MEASURED:
        data["query"] = values.get("query")
        return note, data
    lines = {code: [x.strip() for x in str(values.get(f"options_{code}") or "").splitlines()
                    if x.strip()] for code in LANGS}
    count = max(len(v) for v in lines.values())
    data["options"] = [{code: lines[code][k] if k < len(lines[code]) else "" for code in LANGS}
                       for k in range(count)]
    if kind == "choice":
        answer = values.get("answer")
        data["answer"] = answer - 1 if isinstance(answer, int) and not isinstance(
            answer, bool) else answer
    return note, data


def _save_step(key: str, index: int) -> None:
    """The form's Save: the step's note and question, checked as a lesson file's are."""
    values = {name[len(key) + 1:]: value for name, value in st.session_state.items()
              if isinstance(name, str) and name.startswith(key + "_")}
    note_data, question_data = step_fields(values)
    try:
        note = parse_text(note_data, MAX_NOTE, "note", index + 1)
        question = None if question_data is None else parse_question(question_data, index + 1)
    except LessonError as e:
        st.session_state[f"{key}_problem"] = problem_text(e.key, e.values)
        return
    L.change(index, note=note, question=question)
    st.toast(t("lesson.saved"), icon=":material/save:")
