"""The Train & decode page's experiment: break one part, train it beside the correct model.

Drawn with streamlit; the work is `explorer/training/experiments.py`. The experiment lives in this
learner's st.session_state only, beside (never replacing) their trained model. It trains in
a thread of its own (`train_in_background`), in turn with the server's trainings: clicks,
other pages and another language leave it going; Stop and a new "Train both" end it.
"""

from __future__ import annotations

import math
import time
from typing import Any

import streamlit as st

from ..app.charts import show_chart
from ..app.context import Context
from ..app.page import draw_last
from ..app.sidebar import use_session_lang
from ..app.streamlit_internals import session_alive, timed_fragment
from ..app.train_state import set_default, training_hub
from ..figures.train import attention_figure, comparison_figure
from ..state.view import keep
from ..text.i18n import get_lang, percent, sentences, t
from ..training.experiments import (
    ARM_TIME_LIMIT,
    BREAK_CHOICES,
    BUDGET_RANGE,
    DEFAULT_BUDGET,
    SMOOTHING,
    SMOOTHING_RANGE,
    ArmResult,
    BreakPlan,
    Experiment,
    parse_plan,
    start_experiment,
    train_in_background,
)
from ..training.run import EVAL_SEQUENCES, stop_reason_text
from ..training.settings import TrainSettings
from ..training.task import TrainTask, evaluated_text, film_probe
from .break_race import ask_which_break, break_heading, short_label, stop_a_race_nobody_waits_for
from .breaks import PROGRESS_EVERY, SETTLE_WAIT, break_label, progress_of
from .classroom import (
    ABOUT_BREAK,
    student_side,
    teacher_hides,
)
from .train import INLINE_WAIT, Trained

EXP_KEY = "exp_state"  # this learner's Experiment
WIDGETS = {"exp_breaks": [BREAK_CHOICES[0]], "exp_eps": 0.1, "exp_steps": DEFAULT_BUDGET}
# "The model relied on something only training has": with the answer fed in it looks at
# least as good as the correct model (and nearly perfect), yet it decodes far worse.
CHEAT_TF = 0.9  # the broken model's teacher-forced token accuracy, at least
GAP = 0.3  # how much lower its greedy exact accuracy is than the correct model's, at least
CLEAR = 0.1  # an accuracy difference that counts as visible


def _labels(choices: tuple[str, ...]) -> str:
    return " + ".join(break_label(c) for c in choices)


def _experiment() -> Experiment | None:
    exp = st.session_state.get(EXP_KEY)
    return exp if isinstance(exp, Experiment) else None


def _settle(clicked: bool, stop_requested: bool) -> Experiment | None:
    """This learner's experiment after this run's click: Stop ends one under way (both
    models keep what they trained and are measured) and so does a new "Train both"; any
    other click leaves it training in the background."""
    exp = _experiment()
    if exp is None or not exp.running or not (clicked or stop_requested):
        return exp
    exp.stop("new_training" if clicked else "stop_button")
    with st.spinner(t("train.evaluating")):
        exp.idle.wait(SETTLE_WAIT)
    if exp.running:
        st.warning(t("train.still_stopping", seconds=f"{SETTLE_WAIT:.0f}"),
                   icon=":material/hourglass_top:")
        return None
    return exp


def _start(key: Any, ts: TrainSettings, seed: int, plan: Any, probe: Any) -> Experiment:
    """Both models, training in the background in turn with the server's trainings; this
    run waits for them up to INLINE_WAIT seconds (a short experiment's results come in the
    same run), showing which one trains and how far it is."""
    exp = start_experiment(key, ts.train_config(seed), plan, probe)
    st.session_state[EXP_KEY] = exp
    hub = training_hub()
    train_in_background(exp, lambda on_wait: hub.turn(hub.step_seconds * 2 * plan.steps,
                                                      on_wait),
                        gone=hub.gone_check(session_alive()))
    progress = st.progress(0.0, text=t("train.starting"))
    asked = time.monotonic()
    with st.spinner(t("exp.training")):
        while exp.busy and time.monotonic() - asked < INLINE_WAIT:
            progress.progress(*_where(exp))
            exp.idle.wait(0.25)
    progress.empty()
    return exp


def _where(exp: Experiment) -> tuple[float, str]:
    """How far the experiment is (0 to 1) and its progress text."""
    names = (t("exp.correct"), t("exp.broken"))
    return progress_of(exp, lambda arm, info: t(
        "exp.progress", name=names[arm], step=info.step, steps=info.steps,
        loss=f"{info.loss:.3f}", seconds=f"{info.elapsed:.1f}"))


def _status_text(exp: Experiment) -> str:
    """One line for the sidebar: where the experiment is."""
    place = exp.place  # read once: the training thread clears it when its turn comes
    if place is not None and exp.busy:
        return t("exp.status_queued", ahead=place.ahead)
    names = (t("exp.correct"), t("exp.broken"))
    for arm, state in reversed(list(enumerate(exp.states))):
        if state.running and state.history:
            info = state.history[-1]
            return t("exp.status", name=names[arm], step=info.step, steps=info.steps)
    return t("exp.status_measuring") if any(s.history for s in exp.states) else \
        t("train.starting")


@timed_fragment(PROGRESS_EVERY)
def _progress() -> None:
    """The section while the experiment trains in the background: redrawn by itself every
    PROGRESS_EVERY seconds; once both models are measured, the whole page is drawn again."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    exp = _experiment()
    if exp is None:
        return
    if not exp.running:
        st.rerun()
    st.progress(*_where(exp))
    st.caption(t("exp.goes_on"))


def experiment_status_sidebar(where: Any = None) -> None:
    """This learner's experiment, in the sidebar of every page while it trains (call it on
    every run); and a teacher's race that no question waits for any more stops. Cheap when
    none trains: a look at the session state, nothing drawn.

    `where`: the container to draw in (default: the sidebar)."""
    exp = _experiment()
    if exp is not None and exp.running:
        with st.sidebar if where is None else where:
            draw_last(_status)  # its timer starts once the page is drawn
    stop_a_race_nobody_waits_for()


@timed_fragment(PROGRESS_EVERY)
def _status() -> None:
    use_session_lang()  # a run of this fragment alone skips app.py's
    exp = _experiment()
    if exp is None or not exp.running:
        st.rerun()  # ended since the last look: the Train page shows its results
    done, _ = _where(exp)
    st.progress(done, text=_status_text(exp))
    if st.button(t("train.stop"), key="exp_stop_status", icon=":material/stop_circle:"):
        exp.stop("stop_button")
        st.rerun()


def experiment_section(ctx: Context, ts: TrainSettings, result: Trained,
                       task: TrainTask) -> None:
    """Section 7: choose a part to break, train both models, compare them; in a class, the
    question "which break will hurt this task the most?"."""
    st.header(t("exp.header"))
    st.markdown(t("exp.intro"))
    if student_side(ABOUT_BREAK, break_heading, get_lang(), ctx.presenter,
                    labels=lambda q: tuple(short_label(c) for c in q.choices)):
        # the class's question is open: a break trained here, or an experiment's results,
        # would give the answer away
        st.caption(t("class.break_wait"))
        return
    for key, value in WIDGETS.items():
        set_default(key, value)
    # Validated before the widgets are drawn: a widget given a forged value (from a modified
    # client) would raise; it gets the fallback instead, and a message says so.
    plan, bad = parse_plan(*(st.session_state.get(k) for k in WIDGETS))
    fixed = {"exp_eps": plan.smoothing, "exp_steps": plan.steps}
    if "choice" in bad:  # forged; an empty choice ("none") is the learner's and stays
        fixed["exp_breaks"] = list(plan.choices)
    st.session_state.update(fixed)
    c1, c2, c3 = st.columns([2, 1, 1])
    c1.multiselect(t("exp.break_label"), BREAK_CHOICES, **keep("exp_breaks"),
                   format_func=break_label, help=t("exp.break_help"))
    c2.slider(t("exp.steps"), *BUDGET_RANGE, step=10, **keep("exp_steps"),
              help=t("exp.steps_help", seconds=f"{ARM_TIME_LIMIT:.0f}"))
    if SMOOTHING in plan.choices:
        c3.slider(t("exp.eps"), *SMOOTHING_RANGE, step=0.05, **keep("exp_eps"))
    limits = {"steps": (*BUDGET_RANGE, DEFAULT_BUDGET), "smoothing": (*SMOOTHING_RANGE, 0.1),
              "one_mask": (None, None, break_label(plan.choices[0]))}
    for name in bad:
        low, high, default = limits.get(name, (None, None, None))
        st.warning(t(f"exp.bad_{name}", low=low, high=high, default=default),
                   icon=":material/build:")
    if "none" not in bad:
        for choice in plan.choices:
            st.markdown(t(f"exp.what.{choice}"))
    if result.problem or result.key is None:
        st.info(t("exp.cannot", reason=result.problem or ""), icon=":material/block:")
    ask_which_break(ctx, ts, result, task, plan)
    stop_requested = st.session_state.get("exp_stop") is True
    before = _experiment()
    b1, b2, _ = st.columns([1, 1, 3])
    clicked = b1.button(t("exp.run"), type="primary", key="exp_run",
                        disabled=result.key is None or bool(result.problem) or "none" in bad)
    b2.button(t("train.stop"), key="exp_stop",
              disabled=not (clicked or (before is not None and before.running)))
    exp = _settle(clicked, stop_requested)
    if clicked and result.key is not None and not result.problem and "none" not in bad:
        exp = _start(result.key, ts, ctx.settings.seed, plan,
                     film_probe(task, ctx.settings.source))
    if exp is None:
        st.caption(t("exp.not_run"))
        return
    if exp.running:
        draw_last(_progress)  # its timer starts once the page is drawn
        return
    if exp.error is not None:
        st.error(t("exp.failed", error=exp.error), icon=":material/error:")
        return
    if teacher_hides(ABOUT_BREAK, ctx.presenter):  # the room sees the teacher's screen
        st.caption(t("class.hidden_on_projector"))
        return
    _show(ctx, exp)


def _show(ctx: Context, exp: Experiment) -> None:
    """Both models' numbers, curves, explanation and attention."""
    correct, broken = exp.states
    arms = (t("exp.correct"), t("exp.broken"))
    for arm, state in zip(arms, exp.states, strict=True):
        if state.stopped and state.step > 0:  # one that never started did not "stop"
            st.warning(t("exp.stopped", name=arm, step=state.step, steps=state.config.steps,
                         reason=stop_reason_text(state.stop_reason, state.time_limit)),
                       icon=":material/stop_circle:")
    if exp.results is None:
        idle = [arm for arm, state in zip(arms, exp.states, strict=True) if state.step == 0]
        st.info(t("exp.incomplete", name=idle[0] if idle else arms[1]), icon=":material/info:")
        return
    ok, bad = exp.results
    names = (t("exp.correct"), t("exp.broken_named", name=_labels(exp.plan.choices)))
    st.caption(t("exp.trained", describe=correct.key.describe(), steps=correct.config.steps,
                 n=EVAL_SEQUENCES, sequences=evaluated_text(correct.task)))
    st.dataframe({
        t("exp.col_measure"): [t("exp.row_loss"), t("exp.row_tf"), t("exp.row_greedy"),
                               t("exp.row_steps"), t("exp.row_seconds")],
        names[0]: _column(ok), names[1]: _column(bad)}, hide_index=True, width="stretch")
    st.markdown(_explanation(exp.plan, ok, bad, correct.model.config.d_k,
                             evaluated_text(correct.task)))
    show_chart(comparison_figure([correct.history, broken.history], names,
                                 correct.config.steps, lang=get_lang()), "experiment_curves",
               correct.model.config, ctx.presenter, key="exp_curves", lang=get_lang())
    _attention(ctx, exp, names)


def _column(r: ArmResult) -> list[str]:
    return [f"{r.loss:.3f}", percent(r.teacher_forced), percent(r.greedy), str(r.steps),
            f"{r.seconds:.1f} s"]


def _explanation(plan: BreakPlan, ok: ArmResult, bad: ArmResult, d_k: int,
                 sequences: str) -> str:
    """What each broken part does, the measured numbers (on `sequences`, `evaluated_text`),
    and a verdict chosen by the numbers (with a hint where to see more, for a single part)."""
    nums = dict(tf_ok=percent(ok.teacher_forced), tf_bad=percent(bad.teacher_forced),
                greedy_ok=percent(ok.greedy), greedy_bad=percent(bad.greedy),
                loss_ok=f"{ok.loss:.3f}", loss_bad=f"{bad.loss:.3f}", n=EVAL_SEQUENCES,
                sequences=sequences)
    if (bad.teacher_forced >= max(CHEAT_TF, ok.teacher_forced - 0.02)
            and ok.greedy - bad.greedy >= GAP):
        verdict = t("exp.verdict_gap", **nums)
    elif ok.greedy - bad.greedy >= CLEAR:
        verdict = t("exp.verdict_worse", **nums)
    elif bad.greedy - ok.greedy >= CLEAR:
        verdict = t("exp.verdict_better", **nums)
    else:
        verdict = t("exp.verdict_same", **nums)
    if plan.single is not None and ok.greedy - bad.greedy < CLEAR:
        verdict = sentences(verdict, t(f"exp.hint.{plan.single}"))
    eps = plan.smoothing
    whys = [t(f"exp.why.{choice}", eps=f"{eps:g}", keep=f"{1 - eps:g}", d_k=d_k,
              root=f"{math.sqrt(d_k):.2f}") for choice in plan.choices]
    if plan.single is None:
        whys.insert(0, t("exp.combined", n=len(plan.choices)))
    return "\n\n".join((*whys,
                        t("exp.measured", **nums), verdict))


def _attention(ctx: Context, exp: Experiment, names: tuple[str, str]) -> None:
    """Both models' attention for the same probe input, teacher-forced."""
    assert exp.results is not None
    vocab = exp.correct.task.vocab
    src = [vocab.itos[i] for i in exp.probe.src]
    tgt = [vocab.itos[i] for i in exp.probe.tgt]
    st.subheader(t("exp.attn_header"))
    st.caption(t("exp.attn_caption", layer=exp.correct.model.config.N - 1))
    cols = st.columns(2)
    lang = get_lang()
    for where, name, r, arm in zip(cols, names, exp.results, ("ok", "bad"), strict=True):
        answer = " ".join(vocab.itos[i] for i in r.probe_answer)
        where.markdown(t("exp.answer", name=name))
        where.code(answer or "∅", language=None)
        q, k = t("fig.attention.query"), t("fig.attention.key")
        show_chart(attention_figure(r.self_attn, tgt, tgt, t("exp.self_title"), q_title=q,
                                    k_title=k, lang=lang), f"experiment_self_{arm}", None,
                   ctx.presenter, key=f"exp_self_{arm}", lang=lang, where=where)
        show_chart(attention_figure(r.cross_attn, tgt, src, t("exp.cross_title"), q_title=q,
                                    k_title=k, lang=lang), f"experiment_cross_{arm}", None,
                   ctx.presenter, key=f"exp_cross_{arm}", lang=lang, where=where)
