"""A lesson taught to a class, on the page: the teacher's side (what comes next, the step's
question asked to the class, its answers, Reveal, the notes hidden from a projector) and a
student's (the step in their own language, the question when the teacher asks it), and
whether the Attention page's heatmaps wait for a reveal.

The lesson and its step travel in the class's view (explorer/app/lesson.py `class_params`,
`take_class`); the class's questions and answers are explorer/sections/classroom.py's."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

import streamlit as st

from ..app import classroom as C
from ..app import lesson as L
from ..app.context import Context
from ..app.page import draw_last
from ..app.sidebar import use_session_lang
from ..app.streamlit_internals import timed_fragment
from ..classroom.store import (
    MAX_VIEW_VALUE_CHARS,
    OPEN,
    REVEALED,
    ClassroomError,
    ClassStore,
    PublicQuestion,
    SelfCheck,
)
from ..classroom.store import Question as ClassQuestion
from ..state.lesson import Lesson, Step, text_in
from ..text.i18n import percent, plain, t
from .classroom import (
    ABOUT_LESSON,
    about_of,
    ask_now,
    csv_cell,
    csv_file,
    current_question,
    given_nickname,
    nickname_input,
    student_side,
    teacher_tally,
)
from .lesson_questions import Asked, not_asked, step_asked

HIDE_NOTES = "lesson_hide_notes"  # the teacher's "hide the notes on the projector" switch
PACE_TOGGLE = "lesson_pace"  # the teacher's "students move at their own pace" switch
LOCK_TOGGLE = "lesson_lock"  # + the step's index: the teacher's "lock exploring" switch


def _pace_changed() -> None:
    """The pace switch: the lesson is student-paced or teacher-paced from this run on (kept
    in the lesson's session state: a page change drops the switch's own value)."""
    L.set_self_paced(st.session_state.get(PACE_TOGGLE) is True)


def notes_hidden(presenter: bool) -> bool:
    """Whether the teacher's screen, projected (`presenter`), hides the steps' notes."""
    return presenter and st.session_state.get(HIDE_NOTES) is True


def _lock_changed(key: str) -> None:
    """The lock switch of the step shown: the students' view is locked on it, or not."""
    L.set_locked(st.session_state.get(key) is True)


def in_class_as_student() -> bool:
    """Whether this session is a student in a class."""
    s = C.seat()
    return s is not None and not s.teaching


def class_question(asked: Asked, index: int) -> ClassQuestion:
    """Step `index`'s question as the class is asked it: its options, the right one (None:
    a poll), and the step it belongs to (each student reads it in their own language)."""
    return ClassQuestion("option", asked.prompt, asked.options, asked.truth,
                         {"about": ABOUT_LESSON, "step": str(index + 1)})


def _step_of(question: PublicQuestion | None) -> int | None:
    """The index of the lesson step a class question asks, None for no lesson question."""
    if question is None or about_of(question) != ABOUT_LESSON:
        return None
    step = question.fields.get("step", "")
    return int(step) - 1 if step.isascii() and step.isdigit() and len(step) <= 3 else None


def class_teacher(ctx: Context, taught: tuple[ClassStore, C.Seat], lesson: Lesson, index: int,
                  lang: str, on_step: bool, page_names: Mapping[str, str]) -> None:
    """The teacher's side of a lesson the class follows: what comes next, this step's
    question asked to the class, its answers as they come, Reveal, and why."""
    store, s = taught
    paced = L.self_paced()
    # the switches show the lesson's state, which they change (a switch's own value would
    # outlive a lesson closed and another opened on the same page)
    st.session_state[PACE_TOGGLE] = paced
    st.toggle(t("lesson.pace"), key=PACE_TOGGLE, help=t("lesson.pace_help"),
              on_change=_pace_changed)
    if not paced:  # a lock holds for one step (a switch of the step's own)
        lock = f"{LOCK_TOGGLE}_{index}"
        st.session_state[lock] = L.locked_here()
        st.toggle(t("lesson.lock"), key=lock, help=t("lesson.lock_help"),
                  on_change=_lock_changed, args=(lock,))
    if ctx.presenter:  # the teacher's screen is projected: the notes may be for them alone
        st.toggle(t("lesson.hide_notes"), key=HIDE_NOTES, help=t("lesson.hide_notes_help"))
    if not L.fits_class(MAX_VIEW_VALUE_CHARS):
        st.warning(t("lesson.class_too_long"), icon=":material/warning:")
    if index + 1 < len(lesson.steps):
        after = lesson.steps[index + 1]
        note = _first_line(text_in(after.note, lang))
        st.caption(t("lesson.class_next_up", i=index + 2,
                     page=page_names.get(after.page, after.page))
                   + (" " + plain(note) if note else ""))
    step = lesson.steps[index]
    if paced:  # each student moves and checks the questions alone: nothing to ask
        st.caption(t("lesson.pace_self_note"))
        key = L.lesson_key()
        if key is not None:
            draw_last(lambda: _checks_live(store, s.code, s.teacher_key or "", lesson, key,
                                           lang))
        return
    if step.question is None:
        return
    asked = step_asked(ctx, step.question, step.view, lang, on_step)
    if asked is None:
        st.caption(t(not_asked(on_step)))
        return
    st.markdown(f"**{t('lesson.class_question')}** {plain(asked.prompt)}")
    question = current_question(store, s)
    if _step_of(question) != index:
        st.button(t("lesson.class_ask"), key="lesson_ask", icon=":material/help:",
                  type="primary", on_click=ask_now, args=(store, s, class_question(asked, index)))
        return
    labels = tuple(asked.options)  # as typed: the chart's ticks are text, not markdown
    teacher_tally(store, s, question, labels, lang, ctx.presenter)
    if question.status == REVEALED and asked.explain:
        st.markdown(plain(asked.explain))


def _first_line(text: str, limit: int = 120) -> str:
    """A note's first line, at most `limit` characters (what comes next, at a glance)."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def class_student(ctx: Context, step: Step, index: int, lang: str, on_step: bool) -> None:
    """A student's side of the lesson their class follows: the teacher moves the class from
    step to step; the step's question is answered when the teacher asks it."""
    st.caption(t("lesson.class_paced"))
    s = C.seat()
    if s is not None and s.locked and C.following():
        st.caption(t("lesson.class_locked"))
    if step.question is None:
        return
    asked = step_asked(ctx, step.question, step.view, lang, on_step)
    store = C.store_or_none()
    question = current_question(store, s) if s is not None and store is not None else None
    mine = asked is not None and _step_of(question) == index

    def heading(fields: Mapping[str, str]) -> None:
        prompt = asked.prompt if mine else (question.prompt if question else "")
        st.markdown(f"**{t('lesson.class_question')}** {plain(prompt)}")

    def labels(q: PublicQuestion) -> tuple[str, ...]:
        own = tuple(asked.options) if mine else ()
        return own if len(own) == len(q.choices) else q.choices  # else: as the teacher asked

    # this step's question, or one still open (the teacher moved on before revealing it);
    # an earlier step's revealed answers stay with that step
    if question is not None and (_step_of(question) == index or question.status == OPEN):
        student_side(ABOUT_LESSON, heading, lang, ctx.presenter, labels=labels)
    if question is None or _step_of(question) != index:
        st.caption(t("lesson.class_q_later"))
    elif mine and question.status == REVEALED and asked.explain:
        st.markdown(plain(asked.explain))


def lesson_hides(presenter: bool) -> bool:
    """Whether the teacher's page on a projector (`presenter`) hides its attention heatmaps:
    the class answers a lesson's attention question, which they would give away, until
    the teacher reveals it."""
    s = C.seat()
    return presenter and s is not None and s.teaching and _attention_asked(s)


def lesson_waits() -> bool:
    """Whether a following student's page stops above its attention heatmaps: the class
    answers a lesson's attention question, which they would give away, until the reveal."""
    s = C.seat()
    return C.following() and L.from_class() and s is not None and _attention_asked(s)


def _attention_asked(s: C.Seat) -> bool:
    """Whether the class's current question, not yet revealed, is the attention question of
    a step of the open lesson."""
    held, store = L.current(), C.store_or_none()
    if held is None or store is None or L.self_paced():  # student-paced: nothing is asked
        return False
    question = current_question(store, s)
    index = _step_of(question)
    steps = held[0].steps
    return (index is not None and 0 <= index < len(steps) and question.status != REVEALED
            and steps[index].question is not None
            and steps[index].question.kind == "attention")


# ---- a student-paced lesson's self-checks, kept by the class ----------------------------------


def paced_student() -> tuple[ClassStore, C.Seat] | None:
    """This session as a student of a class whose lesson is student-paced (its self-checks
    go to the class, for the teacher's results): the class store and the seat."""
    s = C.seat()
    if s is None or s.teaching or not (L.from_class() and L.self_paced()):
        return None
    return C.class_store(), s


def take_back_checks(taken: tuple[ClassStore, C.Seat]) -> None:
    """Once per lesson opened: the student's self-checks the class kept (after a reload,
    their answers are still there)."""
    if L.answers_restored():
        return
    store, s = taken
    key = L.lesson_key()
    try:
        kept = store.checks_of(s.code, s.student_id, key) if key is not None else {}
    except ClassroomError:
        kept = {}
    L.restore_answers(kept)


def self_check_nickname(taken: tuple[ClassStore, C.Seat]) -> None:
    """The nickname box under a self-check, and what the teacher sees of the answer."""
    nickname_input(taken[1])
    st.caption(t("lesson.check_to_teacher"))


def send_check(index: int, choice: int, right: bool | None) -> bool:
    """A self-check of step `index` sent to the class (the student's latest for the step);
    whether the class kept it (False: the class ended, or a store error)."""
    taken = paced_student()
    key = L.lesson_key()
    if taken is None or key is None:
        return False
    store, s = taken
    nickname = given_nickname()
    try:
        store.check(s.code, s.student_id, key, index, choice, right, nickname, time.time())
    except (ClassroomError, ValueError):
        return False
    C.keep_nickname(nickname)
    return True


@timed_fragment(C.ROSTER_PACED_EVERY)
def _checks_live(store: ClassStore, code: str, teacher_key: str, lesson: Lesson, key: str,
                 lang: str) -> None:
    """The teacher's view of the students' self-checks, step by step, redrawn on its own
    (`lang` handed in: a fragment's own reruns run without the page's context)."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    try:
        checks = store.self_checks(code, teacher_key, key)
    except ClassroomError:
        return
    checks_box(lesson, code, checks, lang)


def checks_box(lesson: Lesson, code: str, checks: Sequence[SelfCheck], lang: str) -> None:
    """The students' self-checks of `lesson` in class `code`: step by step, and as CSV."""
    if not checks:
        st.caption(t("lesson.checks_none"))
        return
    with st.expander(t("lesson.checks", n=len({c.student for c in checks})),
                     icon=":material/fact_check:", expanded=True):
        for line in checks_summary(lesson, checks, lang):
            st.markdown(line)
        st.download_button(t("class.results_students"),
                           data=lambda: checks_csv(lesson, checks, lang),
                           file_name=f"class_{code}_self_checks.csv", mime="text/csv",
                           key="lesson_checks_csv", on_click="ignore",
                           icon=":material/download:", width="stretch",
                           help=t("lesson.checks_csv_help"))


def checks_summary(lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> list[str]:
    """One line per step with a question: how many students checked it and, for a
    question with a right answer, how many were right (the latest answer of each)."""
    lines = []
    for index, step in enumerate(lesson.steps):
        if step.question is None:
            continue
        mine = [c for c in checks if c.step == index]
        right = sum(c.right is True for c in mine)
        if not mine:
            said = t("lesson.checks_step_none")
        elif step.question.kind == "poll":
            said = t("lesson.checks_step_poll", answered=len(mine))
        else:
            said = t("lesson.checks_step", answered=len(mine), right=right,
                     share=percent(right / len(mine)))
        lines.append(f"**{t('lesson.step_n', i=index + 1)}** {said}")
    return lines


def checks_csv(lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> bytes:
    """Every student's latest self-check as CSV (UTF-8 with a BOM), one row each: the
    student (numbered in the order of their first check), the nickname, the step, its
    question and the answer as the lesson words them (`lang`), right or not (as the
    student's page measured it from the live model; empty: a poll), the tries, when (UTC)."""
    numbers: dict[str, int] = {}
    for c in checks:  # oldest first
        numbers.setdefault(c.student, len(numbers) + 1)
    rows = []
    for c in sorted(checks, key=lambda c: (numbers[c.student], c.step)):
        step = lesson.steps[c.step] if 0 <= c.step < len(lesson.steps) else None
        question = step.question if step is not None else None
        prompt = label = ""
        if question is not None:
            prompt = (text_in(question.prompt, lang) if question.kind != "attention"
                      else t("lesson.kind_attention"))
            if question.kind != "attention" and 0 <= c.choice < len(question.options):
                label = text_in(question.options[c.choice], lang)
        rows.append([numbers[c.student], csv_cell(c.nickname or ""), c.step + 1,
                     csv_cell(prompt), c.choice, csv_cell(label),
                     "" if c.right is None else int(c.right), c.tries,
                     datetime.fromtimestamp(c.at, UTC).isoformat(timespec="seconds")])
    return csv_file(["student", "nickname", "step", "prompt", "choice", "label", "right",
                     "tries", "answered_at_utc"], rows)
