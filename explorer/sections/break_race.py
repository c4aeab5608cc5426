"""In a class: "which break will hurt this task the most?". The teacher asks it and the
server trains, at once and in turn with its other trainings, the correct model and one
broken model per break offered; Reveal marks the break whose model decodes worst."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import streamlit as st

from ..app.classroom import Seat
from ..app.context import Context
from ..app.page import draw_last
from ..app.sidebar import use_session_lang
from ..app.streamlit_internals import session_alive, timed_fragment
from ..app.train_state import set_default, training_hub
from ..classroom.store import ClassStore, Question
from ..text.i18n import get_lang, percent, t
from ..training.experiments import (
    BREAK_CHOICES,
    DEFAULT_BUDGET,
    RACE_CHOICES,
    BreakPlan,
    Race,
    one_per_switch,
    start_race,
    train_in_background,
)
from ..training.run import EVAL_SEQUENCES
from ..training.settings import TRAIN_TASKS, TrainSettings
from ..training.task import TrainTask, evaluated_text, film_probe
from .breaks import PROGRESS_EVERY, SETTLE_WAIT, break_label, progress_of
from .classroom import (
    ABOUT_BREAK,
    asked_about,
    teacher_hides,
    teacher_tally,
    teaching,
)
from .train import Trained

RACE_KEY = "class_race"  # the teacher's race: (class code, question id, Race)
# Below this greedy exact accuracy of the correct model, the race trained too few steps for
# its breaks to tell much apart (the fast recipe's copy: 95% after the default 300 steps,
# about 0% after 20: bench/breaks.py).
WEAK_RACE = 0.5
OFFERED_KEY = "class_breaks"  # the breaks the teacher offers (a multiselect)


def short_label(choice: object) -> str:
    """A break's short name: a class's question offers several side by side."""
    return t(f"exp.short.{choice}") if choice in BREAK_CHOICES else str(choice)


def _task_label(task: str) -> str:
    return t(f"train.task_{task}") if task in TRAIN_TASKS else task


def break_heading(fields: Mapping[str, str]) -> None:
    """The break question as a following student reads it, in the student's language."""
    st.subheader(t("class.q_break", task=_task_label(fields.get("task", ""))))
    st.caption(t("class.q_break_how", steps=fields.get("steps", "?")))


def _kept_race() -> tuple[str, int, Race] | None:
    """The race this teacher started last: (class code, question id, Race)."""
    kept = st.session_state.get(RACE_KEY)
    if isinstance(kept, tuple) and len(kept) == 3 and isinstance(kept[2], Race):
        return kept
    return None


def _race_for(code: str, question_id: int) -> Race | None:
    """The race this teacher started for the question, if this session has it."""
    kept = _kept_race()
    return kept[2] if kept is not None and kept[:2] == (code, question_id) else None


def stop_a_race_nobody_waits_for() -> None:
    """Stop the teacher's race once its question is no longer the class's (another was
    asked, or the class ended): it would hold a training core for nothing."""
    kept = _kept_race()
    if kept is None or not kept[2].running:
        return
    here = teaching()
    asked = asked_about(ABOUT_BREAK, *here) if here is not None else None
    if asked is None or (here[1].code, asked.id) != kept[:2]:
        kept[2].stop("question_gone")


def _offered() -> None:
    """The teacher's breaks to offer, validated before the widget is drawn (a forged value
    would make it raise): known breaks, in the panel's order."""
    set_default(OFFERED_KEY, list(RACE_CHOICES))
    given = st.session_state.get(OFFERED_KEY)
    given = given if isinstance(given, list) else []
    st.session_state[OFFERED_KEY] = [c for c in BREAK_CHOICES if c in given]


def ask_which_break(ctx: Context, ts: TrainSettings, result: Trained, task: TrainTask,
                     plan: BreakPlan) -> None:
    """The teacher's side: ask which of the offered breaks will hurt the task most, and
    at once train the correct model and one broken model per break (`plan`'s budget and
    epsilon) while students answer; Reveal, with the break that hurt most, once all are
    measured."""
    here = teaching()
    if here is None:
        return
    store, s = here
    asked = asked_about(ABOUT_BREAK, store, s)
    task_name = _task_label(task.name)
    with st.expander(t("class.ask_break_title", task=task_name), icon=":material/quiz:",
                     expanded=asked is not None):
        st.caption(t("class.ask_break_help", steps=plan.steps, eps=f"{plan.smoothing:g}"))
        _offered()
        chosen = st.multiselect(t("class.break_offered"), BREAK_CHOICES, key=OFFERED_KEY,
                                format_func=break_label)
        given = tuple(c for c in BREAK_CHOICES if c in (chosen or ()))
        # no mask and the inverted one both decode nothing (bench/breaks.py): offered
        # together, a loss's noise would decide between two equally right answers
        offered = one_per_switch(given)
        trainable = result.key is not None and not result.problem
        if len(offered) < len(given):
            st.caption(t("class.break_one_mask"))
        if len(offered) < 2:
            st.caption(t("class.break_two"))
        st.button(t("class.ask"), key="class_ask_break", icon=":material/help:",
                  disabled=len(offered) < 2 or not trainable, on_click=_ask_break_now,
                  args=(store, s, Question("option", t("class.q_break", task=task_name),
                                           offered, None,
                                           {"about": ABOUT_BREAK, "task": task.name,
                                            "steps": str(plan.steps)}),
                        trainable, result.key, ts, ctx.settings.seed, plan, task,
                        ctx.settings.source))
        if asked is None:
            return
        race = _race_for(s.code, asked.id)
        if race is not None and race.running and st.button(
                t("train.stop"), key="class_race_stop", icon=":material/stop_circle:"):
            race.stop("stop_button")
            race.idle.wait(SETTLE_WAIT)
        _race_shown(race, teacher_hides(ABOUT_BREAK, ctx.presenter))
        measured = None if race is None else (lambda: (not race.running, race.hurt_most()))
        teacher_tally(store, s, asked, tuple(short_label(c) for c in asked.choices), get_lang(),
                      ctx.presenter, measured)


def _ask_break_now(store: ClassStore, s: Seat, question: Question, trainable: bool, key: Any,
                   ts: TrainSettings, seed: int, plan: BreakPlan, task: TrainTask,
                   source: str) -> None:
    """Ask's callback: the question as the teacher's page showed it, and its race started."""
    if len(question.choices) < 2 or not trainable:  # checked again: a click can be forged
        return
    question_id = store.ask(s.code, s.teacher_key or "", question, time.time())
    _start_race(s.code, question_id, key, ts, seed, question.choices, plan,
                film_probe(task, source))


def _start_race(code: str, question_id: int, key: Any, ts: TrainSettings, seed: int,
                offered: tuple[str, ...], plan: BreakPlan, probe: Any) -> None:
    """Train the race of `offered` in the background, in turn with the server's trainings;
    a race of an earlier question stops."""
    kept = _kept_race()
    if kept is not None:
        kept[2].stop("question_gone")
    race = start_race(key, ts.train_config(seed), offered, plan.smoothing, plan.steps, probe)
    hub = training_hub()
    train_in_background(race, lambda on_wait: hub.turn(
        hub.step_seconds * len(race.states) * plan.steps, on_wait),
        gone=hub.gone_check(session_alive()))
    st.session_state[RACE_KEY] = (code, question_id, race)


def _race_shown(race: Race | None, hidden: bool) -> None:
    """Where the race is; once measured, its table (on a projector, only after the reveal:
    it gives the answer away)."""
    if race is None:  # this session did not start it (the teacher's tab was reopened)
        st.info(t("class.race_missing"), icon=":material/info:")
        return
    if race.running:
        draw_last(lambda: _race_progress(race))
        return
    if race.error is not None:
        st.error(t("exp.failed", error=race.error), icon=":material/error:")
        return
    if race.results is None:
        st.info(t("class.race_stopped"), icon=":material/stop_circle:")
        return
    if hidden:
        st.caption(t("class.race_hidden"))
        return
    worst = race.hurt_most()
    names = [t("exp.correct"), *(
        short_label(c) + (f" ← {t('class.q_hurt_most')}" if i == worst else "")
        for i, c in enumerate(race.choices))]
    table = {
        t("class.race_model"): names,
        t("exp.row_greedy"): [percent(r.greedy) for r in race.results],
        t("exp.row_tf"): [percent(r.teacher_forced) for r in race.results],
        t("exp.row_loss"): [f"{r.loss:.3f}" for r in race.results],
    }
    if len({r.steps for r in race.results}) > 1:  # a model stopped by its time limit
        table[t("exp.row_steps")] = [str(r.steps) for r in race.results]
    st.dataframe(table, hide_index=True, width="stretch")
    steps = race.correct.config.steps
    st.caption(t("class.race_caption", n=EVAL_SEQUENCES, steps=steps,
                 sequences=evaluated_text(race.correct.task)))
    if race.results[0].greedy < WEAK_RACE:
        st.warning(t("class.race_weak", steps=steps, greedy=percent(race.results[0].greedy),
                     default=DEFAULT_BUDGET), icon=":material/speed:")


@timed_fragment(PROGRESS_EVERY)
def _race_progress(race: Race) -> None:
    """The race while it trains, redrawn by itself; once every model is measured, the whole
    page is drawn again (its Reveal is ready). No numbers: a projector would give the
    answer away."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    if not race.running:
        st.rerun()
    names = [t("exp.correct"), *(short_label(c) for c in race.choices)]
    st.progress(*progress_of(race, lambda arm, info: t(
        "class.race_progress", name=names[arm], k=arm + 1, n=len(names), step=info.step,
        steps=info.steps)))
