"""The Train & decode page's first two sections, drawn with streamlit: the task, training.

Each section is a function taking what it needs; `pages/train.py` calls them in order.
The learner's trained model is kept and read through `explorer/app/train_state.py`.
"""

from __future__ import annotations

import bisect
import math
import time
from dataclasses import dataclass
from typing import Any

import streamlit as st
import torch

from transformer import dates as D
from transformer.recipes import DATES
from transformer.tasks import DIGITS
from transformer.train import SCHEDULES, StepInfo

from ..app import classroom
from ..app.charts import show_chart
from ..app.context import Context
from ..app.memo import remember
from ..app.numbers import fit_ahead, number_box
from ..app.page import date_cells_text, draw_last
from ..app.shelves import TRAINED_RESULTS
from ..app.sidebar import next_seed, use_session_lang
from ..app.sources import shipped_dates_meta
from ..app.streamlit_internals import session_alive, session_disconnected, timed_fragment
from ..app.train_state import (
    EARLY,
    TRAIN_KEY,
    WAIT,
    ask_to_train_anew,
    current_state,
    kept_training,
    set_default,
    stop_training,
    take_failure,
    take_train_request,
    tickets,
    train_asked,
    trained_state,
    training_hub,
    training_under_way,
)
from ..core.exports import checkpoint_bytes, download_name
from ..core.kinds import KINDS
from ..core.settings import LIMITS, Settings, architecture_problem, training_problem
from ..figures.train import attention_figure, loss_figure, walkthrough_teacher_forcing
from ..state.view import keep
from ..text.i18n import get_lang, percent, sentences, t
from ..training.decoding import teacher_forcing_rows
from ..training.hub import GONE_GRACE, SNAPSHOT_WAIT, Hub, Place, Request, Ticket
from ..training.run import (
    CHECK_EVERY,
    CHECK_SEQUENCES,
    EVAL_SEQUENCES,
    TIME_LIMIT,
    HeldOut,
    ModelKey,
    TrainedState,
    check_every,
    content_id,
    stop_reason_text,
    stop_share,
    task_meta,
)
from ..training.settings import (
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
    model_label,
    parse_train_settings,
    recipe_for,
)
from ..training.task import (
    DEFAULT_DIGITS,
    TrainTask,
    date_probe_example,
    evaluated_text,
    film_probe,
    held_out_text,
    is_dates,
    numbers_text,
    parse_sequence,
    sentence_input,
    t_count,
    task_for,
)

# The training widgets' session keys -> TrainSettings fields.
WIDGETS = {"tr_task": "task", "tr_symbols": "symbols", "tr_model": "model", "tr_steps": "steps",
           "tr_batch": "batch_size", "tr_schedule": "schedule", "tr_lr": "lr",
           "tr_warmup": "warmup", "tr_factor": "factor", "tr_smoothing": "smoothing",
           "tr_early": "early_stop"}
REDRAW_EVERY = 0.5  # seconds between redraws of a training's progress for one learner alone
# Seconds of training a Train click's run waits for before the page draws its other sections
# while the training goes on (`_progress`): a toy task's Train button takes 1-4 s on two
# cores (bench/train_wait.py), a class's trainings 1.6-2.0 s each once started
# (bench/class_train.py); the date task's 18-23 s (bench/dates_train.py) goes on in the
# background, where the page stays usable. A training still queued after as many seconds
# of waiting also goes on in the background: the page does not stay blocked behind a
# classmate's training.
INLINE_WAIT = 5.0
PROGRESS_EVERY = 1.0  # seconds between redraws of section 2 while a training goes on
STATUS_EVERY = 1.0  # seconds between redraws of the sidebar's training status
RECIPE_KEY = "tr_recipe"  # the name of the recipe the training widgets were last set from
AGAIN_KEY = "tr_again"  # the trained model whose training was done before it was asked


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


def read_task(source: str) -> tuple[TrainSettings, TrainTask]:
    """The training settings of this run (validated, from the widgets' values: a widget
    writes a change before the run starts) and their task: read once, before the page is
    drawn, for the early start and for every section."""
    if RECIPE_KEY not in st.session_state:  # first visit: a link may open the date task
        _recipe_widgets(keep=True)
    defaults = TrainSettings()
    for key, name in WIDGETS.items():
        set_default(key, getattr(defaults, name))
    # their boxes give the browser no bounds: a number typed outside is put in range here
    fit_ahead("tr_warmup", *WARMUP_RANGE, default=defaults.warmup)
    fit_ahead("tr_factor", *FACTOR_RANGE, default=defaults.factor)
    ts = parse_train_settings({name: st.session_state.get(key) for key, name in WIDGETS.items()})
    for key, name in (("tr_steps", "steps"), ("tr_smoothing", "smoothing")):
        if st.session_state.get(key) != getattr(ts, name):  # refused (section 1 says why): a
            st.session_state[key] = getattr(ts, name)  # slider takes no value off its range
    return ts, task_for(ts.task, ts.symbols, source)[0]


def task_section(ts: TrainSettings, task: TrainTask, source: str) -> None:
    """Section 1: the task and symbols widgets, what the settings say, the task's text."""
    st.header(t("train.task_header"))
    c1, c2 = st.columns(2)
    c1.radio(t("train.task"), TRAIN_TASKS, **keep("tr_task"), horizontal=True,
             format_func=lambda name: t(f"train.task_{name}"), on_change=_use_recipe_values)
    dates = st.session_state.get("tr_task") == "dates"
    c2.radio(t("train.symbols"), SYMBOL_MODES, **keep("tr_symbols"), horizontal=True,
             format_func=lambda mode: t(f"train.symbols_{mode}"), disabled=dates,
             help=t("train.symbols_dates") if dates else None)
    for message in ts.errors:
        st.warning(message, icon=":material/build:")
    task_note = task_for(ts.task, ts.symbols, source)[1]
    if task_note:
        st.info(task_note, icon=":material/info:")
    if is_dates(task):
        _date_task_text(task)
        return
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
        _walkthrough_teacher_forcing()


def _walkthrough_teacher_forcing() -> None:
    """A walk-through's "<sos> it is a good day" example, split by this app's `Batch`."""
    rows, mask_shape = walkthrough_teacher_forcing(lang=get_lang())
    st.markdown(t("train.tf_seed_text"))
    st.dataframe(rows, hide_index=True)
    st.caption(t("train.tf_seed_caption", n=len(next(iter(rows.values()))), shape=mask_shape))


def _date_task_text(task: D.DateTask) -> None:
    """What the date task is: its data, a few examples, teacher forcing on one of them."""
    st.markdown(t("train.task_text_dates", languages=len(D.LANGUAGES),
                  locales=len(D.LOCALES), styles=len(D.STYLES),
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
        _walkthrough_teacher_forcing()


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
    # The options' labels never change with the task or the sidebar: Streamlit sends a
    # radio's choice from the browser as its label, so a label that changed under the
    # browser (the date task's recipe, another sidebar size) would come back as a value
    # no option has. The sizes are each option's caption instead.
    captions = [
        t("train.model_recipe_dates" if ts.task == "dates" else "train.model_recipe",
          N=recipe.N, d_model=recipe.d_model, h=recipe.h, d_ff=recipe.d_ff,
          shipped=DATES.d_model),
        t("train.model_sidebar", N=s.N, d_model=s.d_model, h=s.h, d_ff=s.d_ff,
          dropout=f"{s.dropout:g}"),
    ]
    if st.session_state.get("tr_model") not in MODEL_CHOICES:  # refused above: the fallback
        st.session_state["tr_model"] = ts.model
    st.radio(t("train.model"), MODEL_CHOICES, **keep("tr_model"), captions=captions,
             format_func=model_label, help=t("train.model_help"))
    t1, t2, t3 = st.columns(3)
    t1.slider(t("train.steps"), *STEPS_RANGE, step=10, **keep("tr_steps"),
              help=t("train.steps_help"))
    t2.selectbox(t("train.batch"), BATCH_SIZES, **keep("tr_batch"))
    t3.slider(t("train.smoothing"), *SMOOTHING_RANGE, step=0.05, **keep("tr_smoothing"),
              help=t("train.smoothing_help"))
    t1.radio(t("train.schedule"), SCHEDULES, **keep("tr_schedule"),
             format_func=lambda name: t(f"train.schedule_{name}"))
    if ts.schedule != "noam":
        t2.select_slider(t("train.lr"), LR_CHOICES, **keep("tr_lr"), format_func=lambda x: f"{x:g}")
    base = TrainSettings()
    if ts.schedule != "constant":
        number_box(t3, t("train.warmup"), "tr_warmup", *WARMUP_RANGE, step=10,
                   default=base.warmup)
    if ts.schedule == "noam":
        number_box(t2, t("train.factor"), "tr_factor", *FACTOR_RANGE, step=0.1,
                   default=base.factor)
    dates = ts.task == "dates"
    task = D.DateTask() if dates else None
    shipped = shipped_dates_meta() if dates else {}  # the translator in models/dates.pt
    t1.toggle(t("train.early"), **keep("tr_early"),
              help=t("train.early_help_dates", every=check_every(task), n=CHECK_SEQUENCES,
                     share=percent(stop_share(task)),
                     minutes=_minutes(shipped.get("train_seconds"))) if task is not None else
              t("train.early_help", every=CHECK_EVERY, n=CHECK_SEQUENCES))
    st.caption(t("train.adam_caption_dates" if dates else "train.adam_caption",
                 lr=f"{recipe.train.lr:g}", warmup=recipe.train.warmup,
                 batch=recipe.train.batch_size, shipped_batch=DATES.train.batch_size,
                 shipped_steps=shipped.get("steps", "?"),
                 shipped_checked=date_cells_text(shipped)))  # the last three: dates only
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
    lang = get_lang()  # one variable: the figure is drawn in it and its name holds it
    if done:
        name = ("loss", content_id(state), len(state.history), steps, lang)
        fig = remember(TRAINED_RESULTS, name, lambda: loss_figure(state.history, steps, lang=lang))
    else:
        fig, name = loss_figure(state.history, steps, lang=lang), None
    show_chart(fig, f"loss_{state.key.task}", state.key.config, presenter, key=key,
               lang=lang, where=where, share=name, text=where is None)


def training_request(key: ModelKey, ts: TrainSettings, seed: int, source: str) -> Request:
    """What the hub trains for `key` with these settings; the film records the probe input
    (`film_probe`: `source` for the words task)."""
    return Request(key, ts.train_config(seed), ts.early_stop, film_probe(key.task_obj, source))


def start_early(ctx: Context, ts: TrainSettings, task: TrainTask) -> Request | None:
    """On a click on Train (or "train anew with the next seed", whose callback set the
    sidebar's seed before this run), this click's request, asked of the hub before the page
    is drawn: it then trains while the page draws (when a class presses Train, thirty pages
    take the server a few seconds to draw, bench/class_train.py). `_train_live` takes the
    ticket over. A ticket left by a click's run that was interrupted before it took it over
    is this learner's training now: it goes on (a click ends no training, only Stop does).
    None: this run trains nothing."""
    hub = training_hub()
    store = tickets()  # a plain dict: from here on, nothing a click interrupts
    request = None
    if train_asked():
        take_train_request()
        classroom.take_class_training()
        ms = ts.model_settings(ctx.settings)
        V = len(task.vocab)
        if not architecture_problem(ms, V) and not training_problem(ms, V):
            request = training_request(ModelKey.of(ms, task), ts, ctx.settings.seed,
                                       ctx.settings.source)
    old = store.pop(EARLY, None)
    if isinstance(old, Ticket) and (request is None or old.job.request != request):
        if request is None and not old.left:  # its run was interrupted: it is the training
            _replace_training(old)
        else:
            hub.leave(old, "new_training", want_copy=False)
        old = None
    if request is not None:
        store[EARLY] = old or hub.join(request, alive=session_alive())
    return request


def _replace_training(ticket: Ticket) -> None:
    """`ticket` becomes this learner's training; the one it replaces leaves the hub."""
    store = tickets()
    before = store.get(WAIT)
    store[WAIT] = ticket
    if isinstance(before, Ticket) and before is not ticket and not before.left:
        training_hub().leave(before, "new_training", want_copy=False)


def _train_live(request: Request, presenter: bool, old: Ticket | None) -> None:
    """Wait for the server's hub to train `request` (`start_early` asked for it), drawing
    the queue's place, then progress and the loss as it goes (explorer/training/hub.py:
    learners asking for the same training share it, and at most one training per core
    runs). `old`: this learner's training before this click, left once the new one is in
    (a second click on Train with the same settings keeps the training under way).

    The wait lasts until the training has trained INLINE_WAIT seconds (time in the queue
    not counted, as for a class that presses Train at once), or while it is still queued
    after INLINE_WAIT seconds: a longer training (dates), or one behind others in the
    queue, goes on in the background, and the page draws its sections while `_progress`
    shows how far it is or its place in the queue.
    Every st.* call and st.session_state access may stop this run (a click); the tickets
    live in a plain dict (`tickets()`), so a run stopped anywhere loses nothing: the
    training goes on, and the next run shows it."""
    hub = training_hub()
    store = tickets()
    early = store.pop(EARLY, None)
    if isinstance(early, Ticket) and early.job.request == request and not early.left:
        ticket = early  # asked for at the top of this run (start_early)
    else:
        if isinstance(early, Ticket):
            hub.leave(early, "new_training", want_copy=False)
        ticket = hub.join(request, alive=session_alive())
    store[WAIT] = ticket
    if old is not None and old is not ticket and not old.left:
        hub.leave(old, "new_training", want_copy=False)
    st.session_state.pop(AGAIN_KEY, None)
    note = st.empty()
    progress = st.progress(0.0, text=t("train.starting"))
    live_chart = st.empty()
    # the first redraw after one interval: a short training (or thirty learners sharing one)
    # needs no live chart at all
    shown = {"step": -1, "time": time.perf_counter(), "note": ""}
    asked = time.monotonic()
    with st.spinner(t("train.training")):
        while not ticket.done and _waits_inline(ticket, time.monotonic() - asked):
            if session_disconnected():  # the hub's reaper decides whether it was for good
                return
            _ = AGAIN_KEY in st.session_state  # where a click stops this run, every turn
            _show_wait(hub, ticket, note, progress, live_chart, presenter, shown)
            hub.wait(ticket, min(0.25, max(INLINE_WAIT - _trained_for(ticket), 0.0)))
    progress.empty()
    live_chart.empty()
    note.empty()
    if ticket.done and kept_training() and ticket.reused:
        # the same training, done before: its results come at once, and the page says so
        st.session_state[AGAIN_KEY] = trained_state()


def _waits_inline(ticket: Ticket, waited: float) -> bool:
    """Whether a Train click's run still waits for `ticket` before drawing the rest of the
    page, `waited` seconds after it asked: while its training has trained less than
    INLINE_WAIT seconds, unless it has been queued all that time."""
    if ticket.job.status == "queued":
        return waited < INLINE_WAIT
    return _trained_for(ticket) < INLINE_WAIT


def _trained_for(ticket: Ticket) -> float:
    """Seconds the ticket's training has trained (0 while it is queued)."""
    job = ticket.job
    return time.monotonic() - job.started if job.status != "queued" and job.started else 0.0


def _seconds_left(hub: Hub, ticket: Ticket, info: StepInfo) -> float:
    """Seconds this training is expected to go on, from its pace so far (its steps,
    checks included): to the steps a training of its task usually needs here, or to its
    last step once it has passed those, and never past its time limit."""
    request = ticket.job.request
    target = hub.expected_steps(request)
    if target <= info.step:
        target = info.steps
    pace = info.elapsed / max(info.step, 1)
    return max(min(pace * (target - info.step), request.time_limit - info.elapsed), 0.0)


def _progress_text(hub: Hub, ticket: Ticket, info: StepInfo) -> str:
    """The progress bar's text: step, loss, accuracy, time so far and time left."""
    left = _seconds_left(hub, ticket, info)
    return t("train.progress", step=info.step, steps=info.steps, loss=f"{info.loss:.3f}",
             acc=percent(info.token_accuracy), seconds=f"{info.elapsed:.1f}",
             left=f"{max(left, 1):.0f}")


def queued_text(place: Place, slots: int) -> str:
    """Where a training waits for one of the server's `slots` training cores."""
    return t("train.queued" if place.ahead else "train.queued_next", ahead=place.ahead,
             seconds=f"{max(place.seconds, 1):.0f}", slots=slots)


def _show_wait(hub: Hub, ticket: Ticket, note: Any, progress: Any, live_chart: Any,
               presenter: bool, shown: dict[str, Any], chart_key: str = "tr_live") -> None:
    """One look at a wait: the place in the queue, or the shared training's progress.
    `chart_key`: the loss chart's key prefix, one per caller drawn in the same run."""
    others = ticket.job.waiting - 1
    if ticket.job.status == "queued":
        text = queued_text(hub.place(ticket), hub.slots)
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
    count = len(history)  # the steps recorded so far (the training appends more meanwhile)
    if not count:
        return
    info = history[count - 1]
    now = time.perf_counter()
    # A shared training is drawn on every waiting learner's page by one server: each page
    # redraws less often the more learners wait (thirty pages redrawing a chart every few
    # steps would take the server's whole core, bench/class_train.py), and the figure of
    # one step is built once, for every page that shows it (thirty background pages
    # building their own each second stopped the server, bench/class_background.py).
    if info.step == shown["step"] or now - shown["time"] < REDRAW_EVERY * (1 + others / 4):
        return
    shown.update(step=info.step, time=now)
    progress.progress(info.step / info.steps, text=_progress_text(hub, ticket, info))
    lang = get_lang()  # one variable: the figure is drawn in it and its name holds it
    name = ("live_loss", ticket.job.number, count, lang)
    fig = remember(TRAINED_RESULTS, name,
                   lambda: loss_figure(history[:count], info.steps, lang=lang))
    show_chart(fig, f"loss_{state.key.task}", state.key.config, presenter,
               key=f"{chart_key}_{info.step}", lang=lang, where=live_chart, share=name,
               text=False)  # a placeholder redrawn while training


@timed_fragment(PROGRESS_EVERY)
def _progress(presenter: bool) -> None:
    """Section 2 while this learner's training goes on in the background: redrawn every
    PROGRESS_EVERY seconds by itself (not the whole page); once the training has ended,
    its model is kept and the whole page is drawn again."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    ticket = tickets().get(WAIT)
    if not isinstance(ticket, Ticket):
        return  # kept already (the sidebar's status saw it end first)
    if ticket.done:
        kept_training()
        st.rerun()
    if ticket.left:  # stopped: kept once its copy is made
        if kept_training():
            st.rerun()
        _stopping(ticket)
        return
    # its own chart key: the click's run may have drawn "tr_live_<step>" for the same step
    _show_wait(training_hub(), ticket, st.empty(), st.progress(0.0, text=t("train.starting")),
               st.empty(), presenter, {"step": -1, "time": -math.inf, "note": ""}, "tr_bg")
    st.caption(t("train.goes_on", reconnect=f"{training_hub().reconnect_grace:.0f}",
                 gone=f"{GONE_GRACE:g}"))


def training_status_sidebar(where: Any = None) -> None:
    """This learner's training, shown on every page (call it from the shared sidebar on
    every run: `training_status_sidebar()`). Cheap when nothing trains: one look at the
    session state, nothing drawn. While a training goes on, a small status with Stop is
    redrawn every STATUS_EVERY seconds without rerunning the page; when it ends, wherever
    the learner is, its model becomes their trained model and the page is drawn again.

    `where`: the container to draw in (default: the sidebar)."""
    store = tickets()
    early = store.get(EARLY)
    if isinstance(early, Ticket) and not early.left and not train_asked():
        # a Train click's run was interrupted (the learner went elsewhere) before the Train
        # page took its ticket over: it is the learner's training now, as start_early says
        _replace_training(store.pop(EARLY))
    if not isinstance(store.get(WAIT), Ticket):
        return
    if kept_training():
        return  # ended: this run's page already shows the new model
    ticket = store.get(WAIT)
    if not isinstance(ticket, Ticket) or (ticket.left and ticket.pending is None):
        return  # failed: the Train page says why
    with st.sidebar if where is None else where:
        draw_last(_status)  # its timer starts once the page is drawn


def _stopping(ticket: Ticket) -> None:
    """A stopped training whose model is still being copied: say so until it is kept."""
    if ticket.left and ticket.pending is not None:
        st.warning(t("train.still_stopping", seconds=f"{SNAPSHOT_WAIT:.0f}"),
                   icon=":material/hourglass_top:")


@timed_fragment(STATUS_EVERY)
def _status() -> None:
    use_session_lang()  # a run of this fragment alone skips app.py's
    ticket = tickets().get(WAIT)
    if not isinstance(ticket, Ticket):
        return
    if ticket.done:  # it ended since the last look: the learner's model now, on any page
        kept_training()
        st.rerun()
    if ticket.left:  # stopped: the learner's model once its copy is made
        if kept_training():
            st.rerun()
        _stopping(ticket)
        return
    task = t(f"train.task_{ticket.job.request.key.task}")
    history = ticket.state.history
    if ticket.job.status == "queued":
        place = training_hub().place(ticket)
        text, done = t("train.status_queued", task=task, ahead=place.ahead), 0.0
    elif history:
        info = history[-1]
        text = t("train.status", task=task, step=info.step, steps=info.steps,
                 left=f"{max(_seconds_left(training_hub(), ticket, info), 1):.0f}")
        done = info.step / info.steps
    else:
        text, done = t("train.status_starting", task=task), 0.0
    st.progress(done, text=text)
    if st.button(t("train.stop"), key="tr_stop_status", icon=":material/stop_circle:",
                 help=t("train.stop_help")):
        stop_training()
        st.rerun()


def _replay(state: TrainedState, presenter: bool) -> None:
    """Play a finished training again at the speed it trained: its loss curve step by step,
    and beside it the cross-attention of the film's probe (last layer, mean of the heads)
    as the film recorded it. A click ends the replay; nothing changes."""
    history, film = state.history, state.film
    if not history:
        return
    progress = st.progress(0.0, text=t("train.starting"))
    c1, c2 = st.columns(2)
    curve, frame = c1.empty(), c2.empty()
    frames = None
    if film is not None and len(film.steps) > 1:
        cfg = state.key.config
        frames = film.weights(KINDS["cross"].hook(cfg.N - 1, "hook_pattern")).mean(axis=1)
        vocab = state.task.vocab
        src, tgt = vocab.decode(film.probe.src), vocab.decode(film.probe.tgt)
    times = [info.elapsed for info in history]
    lang = get_lang()
    start = time.perf_counter()
    shown = -1
    while True:
        i = max(bisect.bisect_right(times, time.perf_counter() - start), 1)
        if i != shown:
            shown = i
            info = history[i - 1]
            progress.progress(info.step / info.steps, text=t(
                "train.replaying", step=info.step, steps=info.steps, loss=f"{info.loss:.3f}",
                seconds=f"{info.elapsed:.1f}"))
            show_chart(loss_figure(history[:i], info.steps, lang=lang), f"loss_{state.key.task}",
                       state.key.config, presenter, key=f"tr_replay_loss_{i}", lang=lang,
                       where=curve, text=False)  # a placeholder, redrawn
            if frames is not None:
                f = max(bisect.bisect_right(film.steps, info.step) - 1, 0)
                fig = attention_figure(frames[f], tgt, src,
                                       t("train.replay_frame", step=film.steps[f]),
                                       q_title=t("train.q_decoder"),
                                       k_title=t("train.k_source"), lang=lang)
                show_chart(fig, f"film_{state.key.task}", state.key.config, presenter,
                           key=f"tr_replay_film_{i}", lang=lang, where=frame, text=False)
        if i >= len(history):
            break
        time.sleep(REDRAW_EVERY / 2)
    progress.empty()
    curve.empty()
    frame.empty()


def _next_seed() -> None:
    """"Train anew with the next seed": the sidebar's seed goes up by one (the model's
    weights and its batches change), and this run trains."""
    next_seed()
    ask_to_train_anew()


def _again(state: TrainedState, seed: int) -> None:
    """The training just asked for had been done already: its results came at once. Say so,
    and offer to watch it again at its real speed, or to train anew with the next seed."""
    if st.session_state.get(AGAIN_KEY) is not state:
        return
    st.info(t("train.again", seconds=f"{state.seconds:.1f}"), icon=":material/replay:")
    a1, a2, _ = st.columns([1, 1, 2])
    a1.button(t("train.replay"), key="tr_replay", icon=":material/play_arrow:",
              help=t("train.replay_help"))
    low, high = LIMITS["seed"]
    a2.button(t("train.reseed", seed=seed + 1 if seed < high else low), key="tr_reseed",
              on_click=_next_seed, icon=":material/casino:", help=t("train.reseed_help"))


def _results(ctx: Context, state: TrainedState) -> None:
    """The trained model's numbers, messages, loss curve and download."""
    m1, m2, m3, m4 = st.columns(4)
    acc = state.accuracy if state.accuracy is not None else 0.0
    dates = is_dates(state.task)
    m1.metric(t("train.metric_accuracy"), percent(acc),
              help=t("train.metric_accuracy_help_dates", n=EVAL_SEQUENCES,
                     check_n=CHECK_SEQUENCES) if dates else
              t("train.metric_accuracy_help", n=EVAL_SEQUENCES, check_n=CHECK_SEQUENCES,
                split=held_out_text(state.task), sequences=evaluated_text(state.task)))
    m2.metric(t("train.metric_loss"), f"{state.history[-1].loss:.3f}")
    m3.metric(t("train.metric_steps"), f"{state.step} / {state.config.steps}")
    m4.metric(t("train.metric_time"), f"{state.seconds:.1f} s")
    held = state.held_out
    missed = ""
    if held is not None and held.right < held.total:
        missed = _missed(held, dates)
    if state.learned:
        st.success(sentences(t("train.learned_dates" if dates else "train.learned",
                               step=state.step, n=CHECK_SEQUENCES,
                               share=percent(stop_share(state.task))), missed),
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
    st.caption(t("train.download_keep", panel=t("ckpt.title")))


def _missed(held: HeldOut, dates: bool) -> str:
    """What the held-out evaluation got wrong, in a sentence whose numbers agree."""
    values = dict(metric=t("train.metric_accuracy"), right=held.right, total=held.total,
                  acc=percent(held.accuracy), wrong=held.total - held.right)
    if dates:
        return t("train.held_out_missed_dates", **values)
    lengths = held.wrong_lengths()
    key = "train.held_out_missed_same" if len(lengths) == 1 else "train.held_out_missed"
    return t_count(key, values["wrong"], lengths=numbers_text(lengths, limit=len(lengths)),
                   **values)


def training_section(ctx: Context, ts: TrainSettings, task: TrainTask,
                     request: Request | None) -> Trained:
    """Section 2: the model to train, the training widgets, Train/Stop, and the results.
    `request`: what this run's click trains (`start_early`), or None.

    A training goes on in the background while the learner clicks, reads another page or
    switches language: only Stop, a new training or the end of the session ends it."""
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
    under_way = training_under_way() is not None
    b1, b2, _ = st.columns([1, 1, 4])
    b1.button(t("train.train"), type="primary", disabled=bool(problem), key=TRAIN_KEY,
              help=t("train.train_help"))
    b2.button(t("train.stop"), key="tr_stop", disabled=not (request or under_way),
              help=t("train.stop_help"))
    state, old = current_state(request is not None, stop_requested)
    if request is not None:
        _train_live(request, ctx.presenter, old)
        state = trained_state()
    failed = take_failure()
    if failed is not None:
        st.error(t("train.failed", error=failed), icon=":material/error:")
    training = training_under_way() is not None
    if training:  # its timer starts once the page is drawn
        draw_last(lambda: _progress(ctx.presenter))

    trained = state if state is not None and state.key == key and state.step > 0 else None
    if trained is not None:
        if training:
            st.caption(t("train.previous_below"))
        else:
            _again(trained, s.seed)
            if st.session_state.get("tr_replay") is True:
                _replay(trained, ctx.presenter)
        _results(ctx, trained)
    elif training:  # its progress is drawn above; its model comes when it ends
        pass
    elif state is not None and state.step > 0:
        st.info(t("train.other_settings", describe=state.key.describe()),
                icon=":material/refresh:")
    elif not problem:
        st.caption(t("train.not_trained", seconds=f"{TIME_LIMIT:.0f}"))
    return Trained(key, ms, trained, problem)
