"""The Train & decode page's first two sections, drawn with streamlit: the task, training.

Each section is a function taking what it needs; `pages/train.py` calls them in order.
The learner's trained model is kept and read through `explorer/train_state.py`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import streamlit as st
import torch

from transformer import dates as D
from transformer.recipes import DATES
from transformer.tasks import DIGITS
from transformer.train import SCHEDULES

from .charts import show_chart
from .context import Context, session_disconnected
from .decoding import teacher_forcing_rows
from .exports import checkpoint_bytes, download_name
from .figures.train import loss_figure
from .i18n import get_lang, percent, t
from .settings import Settings, architecture_problem, training_problem
from .sources import shipped_dates_meta
from .train_hub import Hub, Request, Ticket
from .train_hub import hub as training_hub
from .train_settings import (
    BATCH_SIZES,
    FACTOR_RANGE,
    LR_CHOICES,
    MODEL_CHOICES,
    SMOOTHING_RANGE,
    STEPS_RANGE,
    SYMBOL_MODES,
    TRAIN_TASKS,
    WARMUP_RANGE,
    TrainSettings,
    parse_train_settings,
    recipe_for,
)
from .train_state import (
    EARLY,
    TICKETS_KEY,
    WAIT,
    content_id,
    current_state,
    keep_state,
    set_default,
    shared_memo,
    tickets,
)
from .train_task import (
    DEFAULT_DIGITS,
    TrainTask,
    date_probe_example,
    film_probe,
    is_dates,
    parse_sequence,
    sentence_input,
    task_for,
)
from .training import (
    CHECK_EVERY,
    CHECK_SEQUENCES,
    EVAL_SEQUENCES,
    TIME_LIMIT,
    ModelKey,
    TrainedState,
    check_every,
    stop_reason_text,
    stop_share,
    task_meta,
)

# The training widgets' session keys -> TrainSettings fields.
WIDGETS = {"tr_task": "task", "tr_symbols": "symbols", "tr_model": "model", "tr_steps": "steps",
           "tr_batch": "batch_size", "tr_schedule": "schedule", "tr_lr": "lr",
           "tr_warmup": "warmup", "tr_factor": "factor", "tr_smoothing": "smoothing",
           "tr_early": "early_stop"}
REDRAW_EVERY = 0.5  # seconds between redraws of a training's progress for one learner alone
RECIPE_KEY = "tr_recipe"  # the name of the recipe the training widgets were last set from


# ---- 1. The task ----------------------------------------------------------------------------


def _recipe_widgets(keep: bool) -> None:
    """The training widgets take the values of the current task's recipe, if it differs
    from the one they were last set from (the date task trains another size and schedule).
    `keep`: values the session already has stay (a first visit, possibly from a link)."""
    recipe = recipe_for(st.session_state.get("tr_task", ""))
    if st.session_state.get(RECIPE_KEY) == recipe.name:
        return
    st.session_state[RECIPE_KEY] = recipe.name
    for key, name in WIDGETS.items():
        if hasattr(recipe.train, name) and not (keep and key in st.session_state):
            st.session_state[key] = getattr(recipe.train, name)


def _use_recipe_values() -> None:
    """On a task change: the widgets take the new task's recipe values."""
    _recipe_widgets(keep=False)


def how_training_works(where: Any, task: TrainTask) -> None:
    """The explainer of teacher forcing and the loss, with the numbers of `task`."""
    vocab = len(task.vocab)
    where.markdown(t("train.how_text", vocab=vocab, ln_vocab=f"{math.log(vocab):.2f}"))


def task_section(source: str) -> tuple[TrainSettings, TrainTask]:
    """The task and symbols widgets, the training settings (validated), the task's text."""
    st.header(t("train.task_header"))
    if RECIPE_KEY not in st.session_state:  # first visit: a link may open the date task
        _recipe_widgets(keep=True)
    defaults = TrainSettings()
    for key, name in WIDGETS.items():
        set_default(key, getattr(defaults, name))
    c1, c2 = st.columns(2)
    c1.radio(t("train.task"), TRAIN_TASKS, key="tr_task", horizontal=True,
             format_func=lambda name: t(f"train.task_{name}"), on_change=_use_recipe_values)
    dates = st.session_state.get("tr_task") == "dates"
    c2.radio(t("train.symbols"), SYMBOL_MODES, key="tr_symbols", horizontal=True,
             format_func=lambda mode: t(f"train.symbols_{mode}"), disabled=dates,
             help=t("train.symbols_dates") if dates else None)
    ts = parse_train_settings({name: st.session_state.get(key) for key, name in WIDGETS.items()})
    for message in ts.errors:
        st.warning(message, icon=":material/build:")

    task, task_note = task_for(ts.task, ts.symbols, source)
    if task_note:
        st.info(task_note, icon=":material/info:")
    if is_dates(task):
        _date_task_text(task)
        return ts, task
    on_words = task.symbols != DIGITS
    rule = t("train.rule_sort_words" if task.name == "sort" and on_words
             else f"train.rule_{task.name}")
    st.markdown(t("train.task_text", max_len=task.max_len, rule=rule, vocab=len(task.vocab),
                  symbols=len(task.symbols)))
    st.code(" ".join(task.symbols), language=None)
    if on_words:
        example = sentence_input(task, source)
    else:
        example = parse_sequence(DEFAULT_DIGITS, task)[0] or ["1", "2", "3"]
    with st.expander(t("train.tf_expander")):
        st.dataframe(teacher_forcing_rows(task, example), hide_index=True)
        st.caption(t("train.tf_caption"))
    return ts, task


def _date_task_text(task: D.DateTask) -> None:
    """What the date task is: its data, a few examples, teacher forcing on one of them."""
    st.markdown(t("train.task_text_dates", locales=len(D.LOCALES), styles=len(D.STYLES),
                  first=D.FIRST_YEAR, last=D.LAST_YEAR, min_len=task.min_len,
                  max_len=task.max_len, vocab=len(task.vocab), symbols=len(task.symbols)))
    examples = task.examples(6, torch.Generator().manual_seed(3))
    st.dataframe({t("train.col_date"): [ex.text for ex in examples],
                  t("train.col_iso"): [ex.iso for ex in examples]}, hide_index=True)
    example = date_probe_example()
    with st.expander(t("train.tf_expander")):
        st.dataframe(teacher_forcing_rows(task, list(example.tokens), list(example.iso)),
                     hide_index=True)
        st.caption(t("train.tf_caption"))


# ---- 2. Training ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Trained:
    """What section 2 hands on: the model key, and the learner's model if it fits that key."""

    key: ModelKey | None  # None: no model can be built from these settings
    model_settings: Settings  # the sidebar's settings with the size of the model to train
    trained: TrainedState | None  # trained for `key` and not changing any more
    problem: str | None  # why nothing can be trained


def _training_widgets(s: Settings, ts: TrainSettings) -> None:
    recipe = recipe_for(ts.task)
    labels = {
        "recipe": t("train.model_recipe_dates" if ts.task == "dates" else "train.model_recipe",
                    N=recipe.N, d_model=recipe.d_model, h=recipe.h, d_ff=recipe.d_ff,
                    shipped=DATES.d_model),
        "sidebar": t("train.model_sidebar", N=s.N, d_model=s.d_model, h=s.h, d_ff=s.d_ff,
                     dropout=f"{s.dropout:g}"),
    }
    st.radio(t("train.model"), MODEL_CHOICES, key="tr_model", format_func=labels.get,
             help=t("train.model_help"))
    t1, t2, t3 = st.columns(3)
    t1.slider(t("train.steps"), *STEPS_RANGE, step=10, key="tr_steps",
              help=t("train.steps_help"))
    t2.selectbox(t("train.batch"), BATCH_SIZES, key="tr_batch")
    t3.slider(t("train.smoothing"), *SMOOTHING_RANGE, step=0.05, key="tr_smoothing",
              help=t("train.smoothing_help"))
    t1.radio(t("train.schedule"), SCHEDULES, key="tr_schedule",
             format_func=lambda name: t(f"train.schedule_{name}"))
    if ts.schedule != "noam":
        t2.select_slider(t("train.lr"), LR_CHOICES, key="tr_lr", format_func=lambda x: f"{x:g}")
    if ts.schedule != "constant":
        t3.number_input(t("train.warmup"), *WARMUP_RANGE, step=10, key="tr_warmup")
    if ts.schedule == "noam":
        t2.number_input(t("train.factor"), *FACTOR_RANGE, step=0.1, key="tr_factor")
    dates = ts.task == "dates"
    task = D.DateTask() if dates else None
    shipped = shipped_dates_meta() if dates else {}  # the translator in models/dates.pt
    t1.toggle(t("train.early"), key="tr_early",
              help=t("train.early_help_dates", every=check_every(task), n=CHECK_SEQUENCES,
                     share=percent(stop_share(task)),
                     minutes=_minutes(shipped.get("train_seconds"))) if task is not None else
              t("train.early_help", every=CHECK_EVERY, n=CHECK_SEQUENCES))
    st.caption(t("train.adam_caption_dates" if dates else "train.adam_caption",
                 lr=f"{recipe.train.lr:g}", warmup=recipe.train.warmup,
                 batch=recipe.train.batch_size, shipped_batch=DATES.train.batch_size,
                 shipped_steps=shipped.get("steps", "?"),
                 shipped_accuracy=percent(float(shipped.get("held_out_exact", 0.0))),
                 shipped_n=shipped.get("held_out_n", "?")))  # the last four: dates only
    if ts.model == "sidebar":
        st.caption(t("train.sidebar_caption", seconds=f"{TIME_LIMIT:.0f}"))


def _minutes(seconds: object) -> str:
    """Seconds as whole minutes for a sentence, or "?" when unknown."""
    return f"{float(seconds) / 60:.0f}" if isinstance(seconds, int | float) else "?"


def loss_chart(state: TrainedState, steps: int, presenter: bool, *, key: str,
               where: Any = None, done: bool = False) -> None:
    """The loss curve of `state` over `steps`, drawn as every chart is (presenter sizes).

    `where`: the page (None) or a placeholder that training redraws. The PNG is named
    after the trained model's size, which need not be the sidebar's (the fast recipe).
    `done`: training is over, so the copies of this training share one figure.
    """
    if done:
        name = ("loss", content_id(state), len(state.history), steps, get_lang())
        fig = shared_memo(name, lambda: loss_figure(state.history, steps))
    else:
        fig, name = loss_figure(state.history, steps), None
    show_chart(fig, f"loss_{state.key.task}", state.model.config, presenter, key=key,
               where=where, share=name)


def training_request(key: ModelKey, ts: TrainSettings, seed: int, source: str) -> Request:
    """What the hub trains for `key` with these settings; the film records the probe input
    (`film_probe`: `source` for the words task)."""
    return Request(key, ts.train_config(seed), ts.early_stop, film_probe(key.task_obj, source))


def start_early(ctx: Context) -> None:
    """On a click on Train, ask the hub for the training before the page is drawn: it then
    trains while the page draws (when a class presses Train, thirty pages take the server
    a few seconds to draw, bench/results.md §12). `_train_live` takes the ticket over; a
    ticket left by a run that a click interrupted is given back here."""
    hub = training_hub()
    store = tickets()  # a plain dict: from here on, nothing a click interrupts
    request = None
    if st.session_state.get("tr_train") is True:
        ts = parse_train_settings({name: st.session_state.get(key)
                                   for key, name in WIDGETS.items() if key in st.session_state})
        task, _ = task_for(ts.task, ts.symbols, ctx.settings.source)
        ms = ts.model_settings(ctx.settings)
        V = len(task.vocab)
        if not ts.errors and not architecture_problem(ms, V) and not training_problem(ms, V):
            request = training_request(ModelKey.of(ms, task), ts, ctx.settings.seed,
                                       ctx.settings.source)
    old = store.pop(EARLY, None)
    if isinstance(old, Ticket) and (request is None or old.job.request != request):
        hub.leave(old, "click", want_copy=False)
        old = None
    if request is not None:
        store[EARLY] = old or hub.join(request)


def _train_live(key: ModelKey, ts: TrainSettings, seed: int, presenter: bool,
                source: str, old: Ticket | None) -> TrainedState | None:
    """Ask the server's hub for the training of `key` and wait for it, drawing the queue's
    place, then progress and the loss as it goes (train_hub.py: learners asking for the
    same training share it, and at most one training per core runs). The film records the
    probe input (`film_probe`: `source` for the words task). `old`: this learner's wait
    that the click interrupted, left once the new one is in (a second click on Train with
    the same settings keeps the training under way).

    Every st.* call and st.session_state access may stop this run (a click); the tickets
    live in a plain dict (`tickets()`) and are only forgotten once the model is kept, so a
    run stopped anywhere loses nothing: the next run takes the same copy (`Hub.leave`)."""
    hub = training_hub()
    request = training_request(key, ts, seed, source)
    store = tickets()
    early = store.pop(EARLY, None)
    if isinstance(early, Ticket) and early.job.request == request and not early.left:
        ticket = early  # asked for at the top of this run (start_early)
    else:
        if isinstance(early, Ticket):
            hub.leave(early, "click", want_copy=False)
        ticket = hub.join(request)
    store[WAIT] = ticket
    if old is not None and old is not ticket:
        hub.leave(old, "click", want_copy=False)
    note = st.empty()
    progress = st.progress(0.0, text=t("train.starting"))
    live_chart = st.empty()
    # the first redraw after one interval: a short training (or thirty learners sharing one)
    # needs no live chart at all
    shown = {"step": -1, "time": time.perf_counter(), "note": ""}
    with st.spinner(t("train.training")):
        while not ticket.done:
            if session_disconnected():  # the tab was closed: leave the queue or the training
                hub.leave(ticket, "tab_closed", want_copy=False)
                return None
            _ = TICKETS_KEY in st.session_state  # where a click stops this run, every turn
            _show_wait(hub, ticket, note, progress, live_chart, presenter, shown)
            hub.wait(ticket, 0.25)
    state = hub.result(ticket)
    if state is not None:
        keep_state(state)
        st.session_state["tr_which"] = "trained"  # decode with the new model (drawn below)
    if store.get(WAIT) is ticket:
        del store[WAIT]
    progress.empty()
    live_chart.empty()
    note.empty()
    if ticket.job.error is not None:
        st.error(t("train.failed", error=str(ticket.job.error) or type(ticket.job.error).__name__),
                 icon=":material/error:")
    return state


def _show_wait(hub: Hub, ticket: Ticket, note: Any, progress: Any, live_chart: Any,
               presenter: bool, shown: dict[str, Any]) -> None:
    """One look at a wait: the place in the queue, or the shared training's progress."""
    others = ticket.job.waiting - 1
    if ticket.job.status == "queued":
        place = hub.place(ticket)
        text = t("train.queued" if place.ahead else "train.queued_next", ahead=place.ahead,
                 seconds=f"{max(place.seconds, 1):.0f}", slots=hub.slots)
    else:
        text = (t("train.shared_one") if others == 1 else
                t("train.shared", n=others) if others > 1 else "")
    if text != shown["note"]:
        shown["note"] = text
        if text:
            note.info(text, icon=":material/groups:")
        else:
            note.empty()
    state = ticket.state
    history = state.history
    if not history:
        return
    info = history[-1]
    now = time.perf_counter()
    # A shared training is drawn on every waiting learner's page by one server: each page
    # redraws less often the more learners wait (thirty pages redrawing a chart every few
    # steps would take the server's whole core, bench/results.md §12).
    if info.step == shown["step"] or now - shown["time"] < REDRAW_EVERY * (1 + others / 4):
        return
    shown.update(step=info.step, time=now)
    progress.progress(
        info.step / info.steps,
        text=t("train.progress", step=info.step, steps=info.steps, loss=f"{info.loss:.3f}",
               acc=percent(info.token_accuracy), seconds=f"{info.elapsed:.1f}"),
    )
    show_chart(loss_figure(list(history), info.steps), f"loss_{state.key.task}",
               state.model.config, presenter, key=f"tr_live_{info.step}", where=live_chart)


def _results(ctx: Context, state: TrainedState) -> None:
    """The trained model's numbers, messages, loss curve and download."""
    m1, m2, m3, m4 = st.columns(4)
    acc = state.accuracy if state.accuracy is not None else 0.0
    dates = is_dates(state.task)
    m1.metric(t("train.metric_accuracy"), percent(acc),
              help=t("train.metric_accuracy_help_dates" if dates else "train.metric_accuracy_help",
                     n=EVAL_SEQUENCES, check_n=CHECK_SEQUENCES))
    m2.metric(t("train.metric_loss"), f"{state.history[-1].loss:.3f}")
    m3.metric(t("train.metric_steps"), f"{state.step} / {state.config.steps}")
    m4.metric(t("train.metric_time"), f"{state.seconds:.1f} s")
    held = state.held_out
    missed = ""
    if held is not None and held.right < held.total:
        missed = " " + t("train.held_out_missed_dates" if dates else "train.held_out_missed",
                         metric=t("train.metric_accuracy"),
                         right=held.right, total=held.total, acc=percent(held.accuracy),
                         wrong=held.total - held.right,
                         lengths=", ".join(map(str, held.wrong_lengths())))
    if state.learned:
        st.success(t("train.learned_dates" if dates else "train.learned", step=state.step,
                     n=CHECK_SEQUENCES, share=percent(stop_share(state.task))) + missed,
                   icon=":material/check_circle:")
    if state.stopped:
        st.warning(t("train.stopped", step=state.step, steps=state.config.steps,
                     reason=stop_reason_text(state.stop_reason, state.time_limit)),
                   icon=":material/stop_circle:")
    loss_chart(state, state.config.steps, ctx.presenter, key="tr_loss", done=True)
    cfg = state.config
    lr_text = t(f"train.lr_{cfg.schedule}", lr=f"{cfg.lr:g}", warmup=cfg.warmup,
                factor=f"{cfg.factor:g}")
    st.caption(t("train.trained_caption", batch=cfg.batch_size, lr_text=lr_text,
                 smoothing=f"{cfg.smoothing:g}"))
    model, task = state.model, state.task
    st.download_button(
        t("train.download"),
        data=lambda: checkpoint_bytes(
            model, list(task.vocab.itos),
            {**task_meta(task), "steps": state.step, "accuracy": state.accuracy}),
        file_name=download_name(f"transformer_{task.name}", model.config, "pt"),
        mime="application/octet-stream", key="tr_ckpt", on_click="ignore",
        icon=":material/download:",
        help=t("train.download_help", keys="{'state_dict', 'config', 'vocab'}",
               panel=t("ckpt.title")),
    )


def training_section(ctx: Context, ts: TrainSettings, task: TrainTask) -> Trained:
    """Section 2: the model to train, the training widgets, Train/Stop, and the results."""
    st.header(t("train.train_header"))
    training_hub()  # the server's trainers start while the learner reads the page
    s = ctx.settings
    ms = ts.model_settings(s)
    V = len(task.vocab)
    arch_problem = architecture_problem(ms, V)
    train_problem = None if arch_problem else training_problem(ms, V)
    key = ModelKey.of(ms, task) if arch_problem is None else None
    _training_widgets(s, ts)
    if ctx.loaded is not None:  # the sidebar shows another model's size, read-only
        st.caption(t("source.train_own", name=t(f"source.{ctx.source}")))
    if arch_problem:
        st.error(t("problems.arch", reason=arch_problem), icon=":material/block:")
    elif train_problem:
        st.error(t("train.too_big", reason=train_problem), icon=":material/fitness_center:")
    problem = arch_problem or train_problem

    stop_requested = st.session_state.get("tr_stop") is True  # read before it is drawn disabled
    b1, b2, _ = st.columns([1, 1, 4])
    clicked = b1.button(t("train.train"), type="primary", disabled=bool(problem),
                        key="tr_train", help=t("train.train_help"))
    b2.button(t("train.stop"), key="tr_stop", disabled=not clicked, help=t("train.stop_help"))
    replacing = clicked and not problem and key is not None
    state, settled, old = current_state(replacing, stop_requested)
    if replacing:
        state = _train_live(key, ts, s.seed, ctx.presenter, s.source, old)

    trained = (state if settled and state is not None and state.key == key and state.step > 0
               else None)
    if trained is not None:
        _results(ctx, trained)
    elif settled and state is not None and state.step > 0:
        st.info(t("train.other_settings", describe=state.key.describe()),
                icon=":material/refresh:")
    elif not problem and settled:
        st.caption(t("train.not_trained", seconds=f"{TIME_LIMIT:.0f}"))
    return Trained(key, ms, trained, problem)
