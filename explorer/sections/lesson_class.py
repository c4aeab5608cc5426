"""A lesson taught to a class, on the page: the teacher's side (what comes next, the step's
question asked to the class, its answers, Reveal, the notes hidden from a projector) and a
student's (the step in their own language, the question when the teacher asks it), and
whether the Attention page's heatmaps wait for a reveal.

The lesson and its step travel in the class's view (explorer/app/lesson.py `class_params`,
`take_class`); the class's questions and answers are explorer/sections/classroom.py's."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from ..app import classroom as C
from ..app import lesson as L
from ..app.context import Context
from ..app.page import draw_last
from ..classroom.store import MAX_VIEW_VALUE_CHARS, OPEN, REVEALED, ClassStore, PublicQuestion
from ..classroom.store import Question as ClassQuestion
from ..state.lesson import Lesson, Step, text_in
from ..text.i18n import plain, t
from .classroom import (
    ABOUT_LESSON,
    about_of,
    ask_now,
    current_question,
    student_side,
    teacher_tally,
)
from .lesson_checks import checks_kept, checks_live
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
    key = L.lesson_key()
    if paced:  # each student moves and checks the questions alone: nothing to ask
        st.caption(t("lesson.pace_self_note"))
        if key is not None:
            draw_last(lambda: checks_live(store, s.code, s.teacher_key or "", lesson, key,
                                          lang))
        return
    if key is not None:  # the self-checks of a student-paced stretch of the lesson, if any
        checks_kept(store, s.code, s.teacher_key or "", lesson, key, lang)
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
