"""A student-paced lesson's self-checks, kept by the class: a student's check sent to the
class store with their nickname (`send_check`) and taken back after a reload
(`take_back_checks`); the teacher's count step by step, redrawn on its own (`checks_live`),
and the downloads (`checks_csv`, `checks_json`), which stay when the class ends
(`checks_box`, explorer/app/lesson.py `keep_ended_checks`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import streamlit as st

from ..app import classroom as C
from ..app import lesson as L
from ..app.sidebar import use_session_lang
from ..app.streamlit_internals import timed_fragment
from ..classroom.store import ClassroomError, ClassStore, SelfCheck
from ..state.lesson import MEASURED, Lesson, text_in
from ..text.i18n import Text, percent, t
from .classroom import csv_cell, csv_file, given_nickname, nickname_input

# the nickname box's key under a self-check (a class question may be open on the same page,
# with a box of its own)
NICKNAME = "lesson_nick"


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
    nickname_input(taken[1], NICKNAME)
    st.caption(t("lesson.check_to_teacher"))


def send_check(index: int, choice: int, right: bool | None, label: str) -> bool:
    """A self-check of step `index` sent to the class (the student's latest for the step)
    with the option's `label` as their page offered it; whether the class kept it (False:
    the class ended, or a store error)."""
    taken = paced_student()
    key = L.lesson_key()
    if taken is None or key is None:
        return False
    store, s = taken
    nickname = given_nickname(NICKNAME)
    try:
        store.check(s.code, s.student_id, key, index, choice, right, nickname, time.time(),
                    label)
    except (ClassroomError, ValueError):
        return False
    C.keep_nickname(nickname)
    return True


@timed_fragment(C.ROSTER_PACED_EVERY)
def checks_live(store: ClassStore, code: str, teacher_key: str, lesson: Lesson, key: str,
                 lang: str) -> None:
    """The teacher's view of the students' self-checks, step by step, redrawn on its own
    (`lang` handed in: a fragment's own reruns run without the page's context)."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    try:
        checks = store.self_checks(code, teacher_key, key)
    except ClassroomError:
        return
    checks_box(lesson, code, checks, lang)


def checks_kept(store: ClassStore, code: str, teacher_key: str, lesson: Lesson, key: str,
                lang: str) -> None:
    """The students' self-checks of `lesson` (`key`) in the class, if it has any."""
    try:
        checks = store.self_checks(code, teacher_key, key)
    except ClassroomError:
        return
    if checks:
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
        st.download_button("JSON", data=lambda: checks_json(code, lesson, checks, lang),
                           file_name=f"class_{code}_self_checks.json",
                           mime="application/json", key="lesson_checks_json",
                           on_click="ignore", icon=":material/download:", width="stretch",
                           help=t("lesson.checks_json_help"))


def verdict(lesson: Lesson, check: SelfCheck) -> bool | None:
    """Whether `check` was right: a multiple choice by the lesson's own answer, a poll
    never (None), a MEASURED question (attention, next token) as the student's page
    measured it from the live model (the teacher's page may show another model)."""
    step = lesson.steps[check.step] if 0 <= check.step < len(lesson.steps) else None
    question = step.question if step is not None else None
    if question is None or question.kind == "poll":
        return None
    if question.kind == "choice":
        return check.choice == question.answer
    return check.right


def checks_summary(lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> list[str]:
    """One line per step with a question: how many students checked it and, for a
    question with a right answer, how many were right (the latest answer of each)."""
    lines = []
    for index, step in enumerate(lesson.steps):
        if step.question is None:
            continue
        mine = [c for c in checks if c.step == index]
        right = sum(verdict(lesson, c) is True for c in mine)
        if not mine:
            said = t("lesson.checks_step_none")
        elif step.question.kind == "poll":
            said = t("lesson.checks_step_poll", answered=len(mine))
        else:
            said = t("lesson.checks_step", answered=len(mine), right=right,
                     share=percent(right / len(mine)))
        lines.append(f"**{t('lesson.step_n', i=index + 1)}** {said}")
    return lines


def checks_table(lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> list[dict]:
    """Every student's latest self-check as a record, by student then step: the student
    (numbered in the order of their first check), the nickname, the step (from 1), its
    question and the answer as the lesson words them (`lang`; a MEASURED question is named
    by its kind, its answer by the option's label as the student's page offered it, a key
    or a token, with its index among the options), right or not
    (`verdict`; None: a poll), the tries, when (UTC)."""
    numbers: dict[str, int] = {}
    for c in checks:  # oldest first
        numbers.setdefault(c.student, len(numbers) + 1)
    rows = []
    for c in sorted(checks, key=lambda c: (numbers[c.student], c.step)):
        step = lesson.steps[c.step] if 0 <= c.step < len(lesson.steps) else None
        question = step.question if step is not None else None
        prompt = label = ""
        if question is not None:
            prompt = (text_in(question.prompt, lang) if question.kind not in MEASURED
                      else Text(lang)(f"lesson.kind_{question.kind}"))
            if question.kind in MEASURED:
                label = c.label or ""
            elif 0 <= c.choice < len(question.options):
                label = text_in(question.options[c.choice], lang)
        rows.append({"student": numbers[c.student], "nickname": c.nickname or "",
                     "step": c.step + 1, "prompt": prompt, "choice": c.choice, "label": label,
                     "right": verdict(lesson, c), "tries": c.tries,
                     "answered_at": datetime.fromtimestamp(c.at, UTC).isoformat(
                         timespec="seconds")})
    return rows


def checks_csv(lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> bytes:
    """The self-checks as CSV (UTF-8 with a BOM), one row each (`checks_table`)."""
    return csv_file(["student", "nickname", "step", "prompt", "choice", "label", "right",
                     "tries", "answered_at_utc"],
                    ([r["student"], csv_cell(r["nickname"]), r["step"], csv_cell(r["prompt"]),
                      r["choice"], csv_cell(r["label"]),
                      "" if r["right"] is None else int(r["right"]), r["tries"],
                      r["answered_at"]] for r in checks_table(lesson, checks, lang)))


def checks_json(code: str, lesson: Lesson, checks: Sequence[SelfCheck], lang: str) -> bytes:
    """The self-checks as JSON (`checks_table`) without the names: the student's number
    only, as the class's own JSON download."""
    rows = [{k: v for k, v in r.items() if k != "nickname"}
            for r in checks_table(lesson, checks, lang)]
    return json.dumps({"class": code, "lesson": text_in(lesson.title, lang),
                       "self_checks": rows}, ensure_ascii=False, indent=1).encode("utf-8")
