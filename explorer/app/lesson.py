"""The lesson a learner has open: which one, the step shown, the answers given, its link.

The lesson itself and its file and link forms are pure (`explorer/state/lesson.py`); this
module keeps them in the session. Going to a step sets the view's widgets to the step's
(in a button's callback, before any widget of the next run is drawn) and leaves the page
to switch to (`take_page`, read by app.py before the page draws). The address keeps the
lesson and the step (`link_params`): a reload, Back and Forward, or a link sent to someone
opens the same lesson at the same step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import streamlit as st

from ..classroom.store import SelfCheck, lesson_id
from ..state.lesson import (
    SHIPPED,
    Lesson,
    LessonError,
    Step,
    changed_step,
    from_link,
    moved,
    shipped,
    step_view,
    to_link,
    with_step,
    without_step,
)
from ..state.urlstate import params_to_state
from ..state.view import page_defaults
from .classroom import LOCK_PARAM, LOCKED, apply_view
from .memo import remember
from .shelves import SHIPPED_LESSONS
from .streamlit_internals import history_navigation

LESSON_PARAM = "lesson"  # a shipped lesson's name, or a lesson of one's own in full
STEP_PARAM = "lstep"  # the step shown, counted from 1
LINK_PARAMS = (LESSON_PARAM, STEP_PARAM)
# In a class's view only: the class's lesson is student-paced (each student moves through it
# alone; the class's view then carries no step and no view of the teacher's)
PACE_PARAM, SELF_PACED = "lpace", "self"

_LESSON = "_lesson"  # the open lesson: (Lesson, shipped name or None)
_STEP = "_lesson_step"  # the index of the step shown
_PAGE = "_lesson_page"  # the page a step change goes to, once
_ANSWERS = "_lesson_answers"  # {step index: the option chosen} of this lesson
_LINK = "_lesson_link"  # (Lesson, its link form): encoded once per change
_NOTICE = "_lesson_notice"  # why a lesson could not be opened: (text key, values), once
_WRITTEN = "_lesson_written"  # the step the address was last given (`link_params`)
_FROM_CLASS = "_lesson_from_class"  # the open lesson is the class's (`take_class`)
# the class's lesson is student-paced: the teacher chose it (`set_self_paced`), or a
# student's class view says so (`take_class`)
_SELF_PACED = "_lesson_self_paced"
_LOCKED = "_lesson_locked"  # the step (index) whose view the teacher locks for the class
# a student of a student-paced class: the self-checks the class kept were taken back once
# for this lesson (`restore_answers`)
_RESTORED = "_lesson_restored"
# the teacher ended the class (End): its code and the students' self-checks of the open
# lesson, if any (`keep_ended_checks`)
_ENDED_CHECKS = "_lesson_ended_checks"
EDIT_ROUND = "_lesson_round"  # goes up when steps are added, moved or removed (edit boxes' keys)


def current() -> tuple[Lesson, int] | None:
    """The open lesson and the index of the step shown, or None."""
    held = st.session_state.get(_LESSON)
    if held is None:
        return None
    lesson = held[0]
    index = st.session_state.get(_STEP, 0)
    index = index if isinstance(index, int) and 0 <= index < len(lesson.steps) else 0
    return lesson, index


def shipped_name() -> str | None:
    """The shipped lesson open as shipped (unedited), or None."""
    held = st.session_state.get(_LESSON)
    return None if held is None else held[1]


def open_lesson(lesson: Lesson, name: str | None = None, index: int = 0,
                show: bool = True) -> None:
    """Open `lesson` (`name`: a shipped one, unedited) at step `index`; `show`: its view too."""
    st.session_state[_LESSON] = (lesson, name)
    st.session_state[_ANSWERS] = {}
    st.session_state.pop(_RESTORED, None)
    _next_round()
    if show:
        go_to(index)
    else:
        st.session_state[_STEP] = max(0, min(index, len(lesson.steps) - 1))


def shipped_lesson(name: str) -> Lesson:
    """A shipped lesson, read and checked once for the server (never changed: editing one
    makes a new lesson)."""
    return remember(SHIPPED_LESSONS, name, lambda: shipped(name))


def open_shipped(name: str) -> None:
    """Open a shipped lesson at its first step (a menu's callback)."""
    try:
        open_lesson(shipped_lesson(name), name)
    except LessonError as e:
        tell(e.key, e.values)


def close() -> None:
    """Close the lesson (the view stays as it is)."""
    for key in (_LESSON, _STEP, _PAGE, _ANSWERS, _LINK, _WRITTEN, _FROM_CLASS, _SELF_PACED,
                _LOCKED, _RESTORED, _ENDED_CHECKS):
        st.session_state.pop(key, None)


def go_to(index: int) -> None:
    """Show step `index`: its view's widgets set now (call it in a callback or before any
    widget is drawn), its page switched to by app.py (`take_page`)."""
    here = current()
    if here is None:
        return
    lesson, _ = here
    index = max(0, min(index, len(lesson.steps) - 1))
    st.session_state[_STEP] = index
    step = lesson.steps[index]
    apply_view(step.view)
    st.session_state[_PAGE] = step.page


def take_page() -> str | None:
    """The page a step change asked for, once."""
    return st.session_state.pop(_PAGE, None)


def step_address(index: int, own: Mapping[str, str]) -> dict[str, str]:
    """The address of step `index`: its view, the lesson at that step, and `own` (what each
    learner keeps: the language, presenter mode, a class). Back and Next are links to it, as
    the page menu's entries are: one history entry per step, which Back returns to."""
    here = current()
    if here is None:
        return dict(own)
    lesson, _ = here
    index = max(0, min(index, len(lesson.steps) - 1))
    return {**own, **lesson.steps[index].view, **link_params(), STEP_PARAM: str(index + 1)}


def follow_address(params: Mapping[str, Any]) -> None:
    """The address names another step of the open lesson than the one it was given (a Back
    or Next link was followed): show that step. Call it before any widget of the view is
    drawn. (A step changed in this session, by the editor, is written to the address later.)"""
    here = current()
    if here is None:
        return
    step = _one(params.get(STEP_PARAM))
    if step is None or step == st.session_state.get(_WRITTEN):
        return
    if not _is_open(_one(params.get(LESSON_PARAM))):
        return
    st.session_state[_WRITTEN] = step
    index = min(_step_index(step), len(here[0].steps) - 1)
    if index != here[1]:
        go_to(index)


def tell(key: str, values: Mapping[str, Any]) -> None:
    """Why a lesson could not be opened (a text key and its values), said on the next run."""
    st.session_state[_NOTICE] = (key, dict(values))


def take_notice() -> tuple[str, dict[str, Any]] | None:
    """Why a lesson could not be opened (a text key and its values), once."""
    return st.session_state.pop(_NOTICE, None)


def step_after_history(page: str, view: Mapping[str, str]) -> None:
    """After Back or Forward: the step whose page and view the address shows, when the shown
    step's are not (the browser's entry for a step's page can carry the step number of the
    page it went to next)."""
    here = current()
    if here is None or not history_navigation():
        return
    lesson, index = here
    if lesson.steps[index].page == page and shows_step(view):
        return
    widgets = _widgets(step_view(view))
    for i, step in enumerate(lesson.steps):
        if step.page == page and _widgets(step.view) == widgets:
            st.session_state[_STEP] = i
            return


def shows_step(view: Mapping[str, str]) -> bool:
    """Whether `view` (the link of what is shown) is the shown step's: the same widgets'
    values, whatever the link leaves out at its default."""
    here = current()
    if here is None:
        return False
    lesson, index = here
    return _widgets(step_view(view)) == _widgets(lesson.steps[index].view)


def _widgets(view: Mapping[str, str]) -> dict[str, Any]:
    """The widgets' values a view sets, each choice it leaves out at its default."""
    return {**page_defaults(), **params_to_state(view)[0]}


# ---- the link ---------------------------------------------------------------------------


def link_params() -> dict[str, str]:
    """What the address says of the open lesson: its name (shipped) or itself, and the step."""
    here = current()
    if here is None:
        return {}
    lesson, index = here
    st.session_state[_WRITTEN] = str(index + 1)
    return {LESSON_PARAM: _named(lesson), STEP_PARAM: str(index + 1)}


def _named(lesson: Lesson) -> str:
    """The open `lesson` as a link names it: its shipped name, or itself (encoded once)."""
    name = shipped_name()
    if name is None:
        made = st.session_state.get(_LINK)
        if made is None or made[0] is not lesson:
            made = st.session_state[_LINK] = (lesson, to_link(lesson))
        name = made[1]
    return name


def read_link(params: Mapping[str, Any]) -> None:
    """Open the lesson a link names, at its step (a session's first run; Back and Forward).
    A link with a lesson and no view of its own shows the step's view; a bad one is told."""
    given = _one(params.get(LESSON_PARAM))
    if given is None:
        if current() is not None and _one(params.get(STEP_PARAM)) is None:
            close()  # Back to an address before the lesson was opened
        return
    index = _step_index(_one(params.get(STEP_PARAM)))
    if _is_open(given):
        held = current()
        st.session_state[_STEP] = max(0, min(index, len(held[0].steps) - 1))
        return
    try:
        lesson = shipped_lesson(given) if given in SHIPPED else from_link(given)
    except LessonError as e:
        tell(e.key, e.values)
        return
    show = not step_view(dict(params))  # a link of the lesson alone: the step's view
    _open_linked(lesson, given, index, show)


def _open_linked(lesson: Lesson, given: str, index: int, show: bool) -> None:
    """Open `lesson`, named `given` in a link (a shipped name, or its link form: kept, so
    the address and a class name it as it came), at step `index`."""
    open_lesson(lesson, given if given in SHIPPED else None, index, show=show)
    if given not in SHIPPED:
        st.session_state[_LINK] = (lesson, given)


# ---- a lesson taught in a class -------------------------------------------------------------


def class_params(limit: int) -> dict[str, str]:
    """What a class follows of the open lesson: its name (or itself) and the step shown, as
    the address holds them (and the lock, `locked_here`), or, student-paced (`self_paced`),
    the lesson and its pace alone; nothing when the lesson is longer than `limit` characters
    (a class store's: a long lesson of one's own may not fit, `fits_class`)."""
    here = current()
    if here is None or not fits_class(limit):
        return {}
    lesson, index = here
    if self_paced():
        return {LESSON_PARAM: _named(lesson), PACE_PARAM: SELF_PACED}
    lock = {LOCK_PARAM: LOCKED} if locked_here() else {}
    return {LESSON_PARAM: _named(lesson), STEP_PARAM: str(index + 1), **lock}


def locked_here() -> bool:
    """Whether the teacher locks the class's view on the step shown (`set_locked`): a lock
    holds for its step alone, and never in a student-paced lesson."""
    here = current()
    return (here is not None and not self_paced()
            and st.session_state.get(_LOCKED) == here[1])


def set_locked(on: bool) -> None:
    """The teacher's choice: the students may not explore on the step shown (`on`), or may."""
    here = current()
    st.session_state[_LOCKED] = here[1] if on and here is not None else None


def self_paced() -> bool:
    """Whether the open lesson, taught to a class, is student-paced: each student moves
    through it at their own pace (`set_self_paced`, `take_class`)."""
    return current() is not None and st.session_state.get(_SELF_PACED) is True


def set_self_paced(on: bool) -> None:
    """The teacher's choice: the class's lesson is student-paced (`on`) or teacher-paced."""
    st.session_state[_SELF_PACED] = bool(on)


def paced_alone(view: Mapping[str, str]) -> bool:
    """Whether a class's `view` leaves each student's view to them: its lesson is
    student-paced (the class brings the lesson, never the teacher's page or view)."""
    return _one(view.get(PACE_PARAM)) == SELF_PACED and _one(view.get(LESSON_PARAM)) is not None


def fits_class(limit: int) -> bool:
    """Whether the open lesson, as a link names it, is at most `limit` characters (what a
    class store keeps of a view's value): a long lesson of one's own may not be."""
    here = current()
    return here is None or len(_named(here[0])) <= limit


def take_class(view: Mapping[str, str] | None) -> None:
    """The class's view this run brought (`view`; None: none came): its lesson opened or
    moved to its step, the view itself set already; a class view without a lesson closes
    the lesson the class had opened (never one the learner opened themselves). A
    student-paced lesson (`paced_alone`) is opened at its first step, with that step's view,
    and then left to the student: the class never moves them."""
    if view is None:
        return
    given = _one(view.get(LESSON_PARAM))
    if given is None:
        if st.session_state.get(_FROM_CLASS):
            close()
        return
    alone = paced_alone(view)
    index = _step_index(_one(view.get(STEP_PARAM)))
    if not _is_open(given):
        try:
            lesson = shipped_lesson(given) if given in SHIPPED else from_link(given)
        except LessonError as e:
            tell(e.key, e.values)
            return
        _open_linked(lesson, given, 0 if alone else index, show=alone)
    elif not alone:
        held = current()
        index = max(0, min(index, len(held[0].steps) - 1)) if held is not None else 0
        # (the address's step is left as it is: `follow_address` reads it against the step
        # it was last given, and this run's `link_params` gives it this one)
        st.session_state[_STEP] = index
    st.session_state[_FROM_CLASS] = True
    st.session_state[_SELF_PACED] = alone


def from_class() -> bool:
    """Whether the open lesson is the class's (`take_class`)."""
    return current() is not None and st.session_state.get(_FROM_CLASS) is True


def _is_open(given: str | None) -> bool:
    """Whether a link's lesson parameter names the open lesson (its shipped name, or the
    link form this session wrote of it)."""
    held = st.session_state.get(_LESSON)
    return given is not None and held is not None and given in (
        held[1], st.session_state.get(_LINK, (None, None))[1])


def _one(value: Any) -> str | None:
    """A parameter's value (the last, if repeated), or None."""
    if isinstance(value, list):
        value = value[-1] if value else None
    return value if isinstance(value, str) else None


def _step_index(text: str | None) -> int:
    """A link's step (from 1) as an index; what is not a small whole number is step 1."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 3:
        return 0
    return max(int(text) - 1, 0)


# ---- answers ----------------------------------------------------------------------------


def answer_of(index: int) -> int | None:
    """The option the learner checked at step `index` of the open lesson, or None."""
    return st.session_state.get(_ANSWERS, {}).get(index)


def keep_answer(index: int, choice: int) -> None:
    """The learner checked `choice` at step `index`."""
    st.session_state.setdefault(_ANSWERS, {})[index] = choice


def forget_answer(index: int) -> None:
    """Try step `index`'s question again."""
    st.session_state.get(_ANSWERS, {}).pop(index, None)


def lesson_key() -> str | None:
    """The open lesson as a class's self-checks name it (`lesson_id` of its link form: the
    teacher's and every student's the same), None with no lesson open."""
    here = current()
    return lesson_id(_named(here[0])) if here is not None else None


def answers_restored() -> bool:
    """Whether the class's kept self-checks were taken back for the open lesson."""
    return st.session_state.get(_RESTORED) is True


def keep_ended_checks(code: str, checks: tuple[SelfCheck, ...]) -> None:
    """The students' self-checks of the open lesson in class `code`, which its teacher just
    ended: they stay with the lesson on the teacher's page (`ended_checks`) until it closes."""
    st.session_state[_ENDED_CHECKS] = (lesson_key(), code, checks)


def ended_checks() -> tuple[str, tuple[SelfCheck, ...]] | None:
    """The ended class's code and its students' self-checks of the open lesson, if kept."""
    kept = st.session_state.get(_ENDED_CHECKS)
    if not isinstance(kept, tuple) or len(kept) != 3 or kept[0] != lesson_key():
        return None
    return kept[1], kept[2]


def restore_answers(kept: Mapping[int, int]) -> None:
    """A student's self-checks the class kept (`kept`: {step index: option}), taken back once
    per lesson opened, as after a reload; a step answered in this session keeps its own."""
    answers = st.session_state.setdefault(_ANSWERS, {})
    for index, choice in kept.items():
        answers.setdefault(index, choice)
    st.session_state[_RESTORED] = True


# ---- editing (callbacks of the lesson's editor) -------------------------------------------


def _next_round() -> None:
    st.session_state[EDIT_ROUND] = st.session_state.get(EDIT_ROUND, 0) + 1


def edit_round() -> int:
    """The edit boxes' key suffix: new when the steps' order changes."""
    return st.session_state.get(EDIT_ROUND, 0)


def _replace(lesson: Lesson, index: int, order_changed: bool = False) -> None:
    """The open lesson becomes `lesson` (a lesson of one's own now), showing step `index`."""
    st.session_state[_LESSON] = (lesson, None)
    st.session_state[_STEP] = max(0, min(index, len(lesson.steps) - 1))
    if order_changed:
        st.session_state[_ANSWERS] = {}
        _next_round()


def start_here(page: str, view: Mapping[str, str], title: Mapping[str, str]) -> None:
    """A new lesson whose first step is what is shown."""
    lesson = Lesson(title={k: v for k, v in title.items() if v},
                    steps=(Step(page=page, view=step_view(view)),))
    open_lesson(lesson, show=False)


def add_here(page: str, view: Mapping[str, str]) -> None:
    """What is shown, as a new step after the one shown (and shown)."""
    here = current()
    if here is not None:
        lesson, index = here
        _replace(with_step(lesson, index + 1, Step(page=page, view=step_view(view))),
                 index + 1, order_changed=True)


def set_here(page: str, view: Mapping[str, str]) -> None:
    """The step shown takes what is shown as its view."""
    here = current()
    if here is not None:
        lesson, index = here
        _replace(changed_step(lesson, index, page=page, view=step_view(view)), index)


def move(by: int) -> None:
    """The step shown moves `by` places (-1: one earlier)."""
    here = current()
    if here is not None:
        lesson, index = here
        to = max(0, min(index + by, len(lesson.steps) - 1))
        _replace(moved(lesson, index, by), to, order_changed=True)


def remove() -> None:
    """The step shown leaves the lesson; the one after it (or before, at the end) is shown."""
    here = current()
    if here is not None:
        lesson, index = here
        _replace(without_step(lesson, index), index, order_changed=True)
        go_to(min(index, len(lesson.steps) - 2))


def change(index: int, **changes: Any) -> None:
    """Step `index` of the open lesson changed (`Step` fields)."""
    here = current()
    if here is not None:
        _replace(changed_step(here[0], index, **changes), here[1])
        forget_answer(index)  # its question may have changed


def retitle(title: Mapping[str, str]) -> None:
    """The open lesson's title."""
    here = current()
    if here is not None:
        _replace(replace(here[0], title={k: v for k, v in title.items() if v}), here[1])
