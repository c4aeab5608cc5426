"""Train & decode: teach a fresh model a toy task live, then watch it decode step by step.

The trained model lives in this learner's st.session_state only. The untrained model of the
same architecture and seed is shared through a cache, read-only (eval mode, no gradients).
"""

import time

import streamlit as st

from explorer.cache import is_large, tiered
from explorer.context import context, session_disconnected
from explorer.exports import checkpoint_bytes, download_name
from explorer.figures.train import (
    attention_figure,
    loss_figure,
    next_token_figure,
    noam_figure,
    smoothing_figure,
)
from explorer.i18n import t
from explorer.session_training import (
    BATCH_SIZES,
    CHECK_EVERY,
    CHECK_SEQUENCES,
    DEFAULT_DIGITS,
    EVAL_SEQUENCES,
    FACTOR_RANGE,
    LR_CHOICES,
    MAX_INPUT_CHARS,
    MAX_WORDS,
    MODEL_CHOICES,
    SMOOTHING_RANGE,
    STEPS_RANGE,
    STOP_WAIT,
    SYMBOL_MODES,
    TIME_LIMIT,
    WARMUP_RANGE,
    WORD_MAX_LEN,
    ModelKey,
    TrainedState,
    TrainSettings,
    answer,
    attention_pattern,
    build_model_for,
    decode_input,
    freeze,
    input_fit,
    is_current,
    parse_sequence,
    parse_train_settings,
    run_training,
    sentence_fit,
    sentence_input,
    smoothing_example,
    start_training,
    stop_and_wait,
    stop_reason_text,
    task_for,
    teacher_forcing_rows,
    top_tokens,
)
from explorer.settings import architecture_problem, training_problem
from transformer.recipes import FAST
from transformer.tasks import DIGITS, TASKS
from transformer.train import SCHEDULES

STATE_KEY = "train_state"  # this learner's TrainedState
MEMO_KEY = "train_memo"  # this learner's recent decodings, by (model version, input)


@tiered(small=32, large=2, is_big=is_large,
        spinner="train.building_untrained")
def _untrained(key: ModelKey):
    return freeze(build_model_for(key))


def untrained(key: ModelKey):
    """The untrained model (shared, read-only): the trained one's starting point."""
    model = _untrained(key)
    if not is_current(model):  # built before the app's code was reloaded: build again
        _untrained.clear()
        model = _untrained(key)
    return model


def memo(name: tuple, compute):
    """Remember the last few results of this session (decoding again on every slider move
    would be wasted work); the memo lives in session_state, never shared."""
    store = st.session_state.setdefault(MEMO_KEY, {})
    if name not in store:
        if len(store) >= 6:
            store.pop(next(iter(store)))
        store[name] = compute()
    return store[name]


def set_default(key: str, value) -> None:
    if key not in st.session_state:
        st.session_state[key] = value


st.title(t("train.title"))
st.markdown(t("train.intro"))
with st.expander(t("train.how_title"), expanded=False):
    st.markdown(t("train.how_text"))

ctx = context()
s = ctx.settings

# ---- 1. The task ---------------------------------------------------------------------------
st.header(t("train.task_header"))
set_default("tr_task", "copy")
set_default("tr_symbols", "digits")
c1, c2 = st.columns(2)
c1.radio(t("train.task"), TASKS, key="tr_task", horizontal=True,
         format_func=lambda name: t(f"train.task_{name}"))
c2.radio(t("train.symbols"), SYMBOL_MODES, key="tr_symbols", horizontal=True,
         format_func=lambda mode: t(f"train.symbols_{mode}"))

_defaults = TrainSettings()
TRAIN_DEFAULTS = {"tr_model": _defaults.model, "tr_steps": _defaults.steps,
                  "tr_batch": _defaults.batch_size, "tr_schedule": _defaults.schedule,
                  "tr_lr": _defaults.lr, "tr_warmup": _defaults.warmup,
                  "tr_factor": _defaults.factor, "tr_smoothing": _defaults.smoothing,
                  "tr_early": _defaults.early_stop}
for k, v in TRAIN_DEFAULTS.items():
    set_default(k, v)
ts = parse_train_settings({
    "task": st.session_state.get("tr_task"), "symbols": st.session_state.get("tr_symbols"),
    "model": st.session_state.get("tr_model"),
    "steps": st.session_state.get("tr_steps"), "batch_size": st.session_state.get("tr_batch"),
    "schedule": st.session_state.get("tr_schedule"), "lr": st.session_state.get("tr_lr"),
    "warmup": st.session_state.get("tr_warmup"), "factor": st.session_state.get("tr_factor"),
    "smoothing": st.session_state.get("tr_smoothing"),
    "early_stop": st.session_state.get("tr_early"),
})
for message in ts.errors:
    st.warning(message, icon=":material/build:")

task, task_note = task_for(ts.task, ts.symbols, s.source)
on_words = task.symbols != DIGITS
if task_note:
    st.info(task_note, icon=":material/info:")
rule = t("train.rule_sort_words" if task.name == "sort" and on_words
         else f"train.rule_{task.name}")
st.markdown(t("train.task_text", max_len=task.max_len, rule=rule, vocab=len(task.vocab),
              symbols=len(task.symbols)))
st.code(" ".join(task.symbols), language=None)

if on_words:
    example = sentence_input(task, s.source)
else:
    example = parse_sequence(DEFAULT_DIGITS, task)[0] or ["1", "2", "3"]
with st.expander(t("train.tf_expander")):
    st.dataframe(teacher_forcing_rows(task, example), hide_index=True)
    st.caption(t("train.tf_caption"))

# ---- 2. Training ---------------------------------------------------------------------------
st.header(t("train.train_header"))
MODEL_LABELS = {
    "recipe": t("train.model_recipe", N=FAST.N, d_model=FAST.d_model, h=FAST.h, d_ff=FAST.d_ff),
    "sidebar": t("train.model_sidebar", N=s.N, d_model=s.d_model, h=s.h, d_ff=s.d_ff,
                 dropout=f"{s.dropout:g}"),
}
st.radio(t("train.model"), MODEL_CHOICES, key="tr_model", format_func=MODEL_LABELS.get,
         help=t("train.model_help"))
ms = ts.model_settings(s)  # the sidebar's settings with the size of the model to train
V = len(task.vocab)
arch_problem = architecture_problem(ms, V)
train_problem = None if arch_problem else training_problem(ms, V)
key = ModelKey.of(ms, task) if arch_problem is None else None

t1, t2, t3 = st.columns(3)
t1.slider(t("train.steps"), *STEPS_RANGE, step=10, key="tr_steps",
          help=t("train.steps_help"))
t2.selectbox(t("train.batch"), BATCH_SIZES, key="tr_batch")
t3.slider(t("train.smoothing"), *SMOOTHING_RANGE, step=0.05, key="tr_smoothing",
          help=t("train.smoothing_help"))
t1.radio(t("train.schedule"), SCHEDULES, key="tr_schedule",
         format_func=lambda name: t(f"train.schedule_{name}"))
if ts.schedule != "noam":
    t2.select_slider(t("train.lr"), LR_CHOICES, key="tr_lr",
                     format_func=lambda x: f"{x:g}")
if ts.schedule != "constant":
    t3.number_input(t("train.warmup"), *WARMUP_RANGE, step=10, key="tr_warmup")
if ts.schedule == "noam":
    t2.number_input(t("train.factor"), *FACTOR_RANGE, step=0.1, key="tr_factor")
t1.toggle(t("train.early"), key="tr_early",
          help=t("train.early_help", every=CHECK_EVERY, n=CHECK_SEQUENCES))
st.caption(t("train.adam_caption", lr=f"{FAST.train.lr:g}", warmup=FAST.train.warmup,
             batch=FAST.train.batch_size))
if ts.model == "sidebar":
    st.caption(t("train.sidebar_caption"))

if arch_problem:
    st.error(t("problems.arch", reason=arch_problem), icon=":material/block:")
elif train_problem:
    st.error(t("train.too_big", reason=train_problem), icon=":material/fitness_center:")
problem = arch_problem or train_problem

stop_requested = st.session_state.get("tr_stop") is True  # read before it is drawn disabled
b1, b2, _ = st.columns([1, 1, 4])
train_clicked = b1.button(t("train.train"), type="primary", disabled=bool(problem),
                          key="tr_train", help=t("train.train_help"))
b2.button(t("train.stop"), key="tr_stop", disabled=not train_clicked,
          help=t("train.stop_help"))

state: TrainedState | None = st.session_state.get(STATE_KEY)
if state is not None and not (isinstance(state, TrainedState) and is_current(state.model)):
    st.session_state.pop(STATE_KEY, None)  # trained before the app's code was updated
    st.session_state.pop(MEMO_KEY, None)
    st.info(t("train.updated"), icon=":material/refresh:")
    state = None
settled = True  # False while an interrupted run's thread may still train the model
if state is not None and state.running:
    # A click (Stop or any other widget) started this run while the run that was training
    # may still be inside run_training: Streamlit starts the new run at once and the old
    # thread only ends at its next st.* call. Stop it and wait until it has let go of the
    # model, so that every number shown below belongs to the model as it is. The history
    # was saved at every step, so the model keeps what it learned.
    replacing = train_clicked and not problem and key is not None
    with st.spinner(t("train.evaluating")):
        settled = stop_and_wait(state, "stop_button" if stop_requested else "click",
                                finish_state=not replacing)
    if replacing:
        state, settled = None, True  # replaced below by a fresh model, not evaluated
    elif not settled:
        st.warning(t("train.still_stopping", seconds=f"{STOP_WAIT:.0f}"),
                   icon=":material/hourglass_top:")
if state is not None and state.step == 0 and not state.running:
    st.session_state.pop(STATE_KEY, None)  # stopped before its first step: nothing learned
    state = None

if train_clicked and not problem and key is not None:
    config = ts.train_config(s.seed)
    state = start_training(key, config, early_stop=ts.early_stop)
    st.session_state[STATE_KEY] = state
    progress = st.progress(0.0, text=t("train.starting"))
    live_chart = st.empty()
    every = min(20, max(10, config.steps // 50))
    shown = {"step": 0, "time": time.perf_counter()}

    def on_step(info) -> bool:
        if session_disconnected():  # the tab was closed: nobody is waiting for this run
            state.stop_reason = "tab_closed"
            return True
        now = time.perf_counter()
        if info.step % every and info.step != info.steps and now - shown["time"] < 0.7:
            return False
        shown.update(step=info.step, time=now)
        progress.progress(
            info.step / info.steps,
            text=t("train.progress", step=info.step, steps=info.steps, loss=f"{info.loss:.3f}",
                   acc=f"{info.token_accuracy:.0%}", seconds=f"{info.elapsed:.1f}"),
        )
        live_chart.plotly_chart(loss_figure(state.history, info.steps), width="stretch",
                                key=f"tr_live_{info.step}")
        return False

    with st.spinner(t("train.training")):
        run_training(state, on_step)
    progress.empty()
    live_chart.empty()

trained = (state if settled and state is not None and state.key == key and state.step > 0
           else None)
if settled and state is not None and state.step > 0:
    if trained is None:
        st.info(t("train.other_settings", describe=state.key.describe()),
                icon=":material/refresh:")
    else:
        m1, m2, m3, m4 = st.columns(4)
        acc = state.accuracy if state.accuracy is not None else 0.0
        m1.metric(t("train.metric_accuracy"), f"{acc:.0%}",
                  help=t("train.metric_accuracy_help", n=EVAL_SEQUENCES,
                         check_n=CHECK_SEQUENCES, every=CHECK_EVERY))
        m2.metric(t("train.metric_loss"), f"{state.history[-1].loss:.3f}")
        m3.metric(t("train.metric_steps"), f"{state.step} / {state.config.steps}")
        m4.metric(t("train.metric_time"), f"{state.seconds:.1f} s")
        held = state.held_out
        missed = ""
        if held is not None and held.right < held.total:
            missed = " " + t("train.held_out_missed", metric=t("train.metric_accuracy"),
                             right=held.right, total=held.total,
                             acc=f"{held.accuracy:.0%}", wrong=held.total - held.right,
                             lengths=", ".join(map(str, held.wrong_lengths())))
        if state.learned:
            st.success(t("train.learned", step=state.step, n=CHECK_SEQUENCES) + missed,
                       icon=":material/check_circle:")
        if state.stopped:
            st.warning(t("train.stopped", step=state.step, steps=state.config.steps,
                         reason=stop_reason_text(state.stop_reason)),
                       icon=":material/stop_circle:")
        ctx.chart(loss_figure(state.history, state.config.steps), f"loss_{key.task}",
                   key="tr_loss")
        cfg = state.config
        lr_text = t(f"train.lr_{cfg.schedule}", lr=f"{cfg.lr:g}", warmup=cfg.warmup,
                    factor=f"{cfg.factor:g}")
        st.caption(t("train.trained_caption", batch=cfg.batch_size, lr_text=lr_text,
                     smoothing=f"{cfg.smoothing:g}"))
        trained_model, trained_task = state.model, state.task
        st.download_button(
            t("train.download"),
            data=lambda: checkpoint_bytes(
                trained_model, list(trained_task.vocab.itos),
                {"task": trained_task.name, "symbols": list(trained_task.symbols),
                 "steps": state.step, "accuracy": state.accuracy}),
            file_name=download_name(f"transformer_{key.task}", ms, "pt"),
            mime="application/octet-stream", key="tr_ckpt", on_click="ignore",
            icon=":material/download:",
            help=t("train.download_help", keys="{'state_dict', 'config', 'vocab'}",
                   panel=t("ckpt.title")),
        )
elif not problem and settled:
    st.caption(t("train.not_trained", seconds=f"{TIME_LIMIT:.0f}"))

# ---- 3. Decoding ---------------------------------------------------------------------------
if key is not None:
    st.header(t("train.decode_header"))
    st.markdown(t("train.decode_text"))
    use_trained = False
    if trained is not None:
        use_trained = st.radio(t("train.decode_with"), ("trained", "untrained"), key="tr_which",
                               horizontal=True,
                               format_func=lambda which: t(f"train.which_{which}"),
                               ) != "untrained"
    else:
        st.caption(t("train.untrained_caption"))

    tokens: list[str] | None
    if on_words:
        tokens = sentence_input(task, s.source)
        st.markdown(t("train.input_sentence"))
        st.code(" ".join(tokens), language=None)
        fit = sentence_fit(task, s.source)
        if fit.cut:
            st.caption(t("train.first_words", got=fit.words, n=task.max_len,
                         cap=WORD_MAX_LEN, positions=task.max_len + 2))
        if fit.dropped:
            st.caption(t("train.dropped_words", k=fit.dropped, limit=MAX_WORDS))
    else:
        set_default("tr_digits", DEFAULT_DIGITS)
        text = st.text_input(t("train.digits_input"), key="tr_digits",
                             max_chars=MAX_INPUT_CHARS)
        tokens, input_error = parse_sequence(text, task)
        if input_error:
            st.error(input_error, icon=":material/edit:")

    if tokens:
        if use_trained:
            model, version = trained.model, ("trained", id(trained), trained.version)
        else:
            model = untrained(key)  # with a spinner when the model is large
            version = ("untrained",)
        decoding = memo((*version, key, tuple(tokens)),
                        lambda: decode_input(model, task, tokens))
        expected = answer(task, tokens)
        produced = [tok for tok in decoding.output if tok != "</s>"]
        right = produced == expected and decoding.output[-1:] == ("</s>",)
        o1, o2 = st.columns(2)
        o1.markdown(t("train.expected"))
        o1.code(" ".join(expected), language=None)
        o2.markdown(t("train.answer_right" if right else "train.answer_wrong"))
        o2.code(" ".join(decoding.output), language=None)
        fits = input_fit(task, tokens)
        if fits.inside:
            st.caption(t("train.input_inside", length=fits.length, min_len=fits.min_len,
                         max_len=fits.max_len))
        else:
            st.caption(t("train.input_outside", length=fits.length, min_len=fits.min_len,
                         max_len=fits.max_len, unknown=len(fits.unknown)))
        if use_trained and not right and fits.inside and trained.held_out is not None:
            r, n_len = trained.held_out.by_length.get(fits.length, (0, 0))
            st.caption(t("train.wrong_inside", length=fits.length, right=r, total=n_len)
                       if n_len else t("train.wrong_inside_none", length=fits.length))

        n_steps = len(decoding.steps)
        if n_steps > 1:
            if st.session_state.get("tr_step", 1) > n_steps:
                st.session_state["tr_step"] = n_steps
            set_default("tr_step", n_steps)  # the whole answer first; slide back to step 1
            k = st.slider(t("train.step"), 1, n_steps, key="tr_step",
                          help=t("train.step_help"))
        else:
            k = 1
        k = min(max(int(k), 1), n_steps)
        view = decoding.steps[k - 1]
        d1, d2 = st.columns([2, 3])
        with d1:
            st.markdown(t("train.step_reads", k=k, n=len(view.prefix)))
            st.code(" ".join(view.prefix), language=None)
            st.markdown(t("train.picks"))
            st.code(view.next_token, language=None)
            ctx.chart(
                next_token_figure(top_tokens(view.probs, decoding.itos, 10), view.next_token),
                f"decode_step{k}_next_token", key="tr_next",
            )
        with d2:
            n_layers, n_heads = view.self_attn.shape[:2]
            a1, a2 = st.columns(2)
            layer = a1.selectbox(t("train.layer"), range(n_layers), index=n_layers - 1,
                                 key="tr_layer",
                                 format_func=lambda i: t("fig.attention.layer", i=i))
            head = a2.selectbox(t("train.heads"), ["mean", *range(n_heads)], key="tr_head",
                                format_func=lambda j: t("fig.attention.mean_of_heads")
                                if j == "mean" else t("fig.attention.head", j=j))
            layer = layer if isinstance(layer, int) and 0 <= layer < n_layers else n_layers - 1
            if head == "mean" or not isinstance(head, int) or not 0 <= head < n_heads:
                self_w, cross_w, which = (view.self_attn[layer].mean(0),
                                          view.cross_attn[layer].mean(0),
                                          t("fig.attention.mean_of_heads"))
            else:
                self_w, cross_w, which = (view.self_attn[layer, head],
                                          view.cross_attn[layer, head],
                                          t("fig.attention.head", j=head))
            prefix = list(view.prefix)
            ctx.chart(attention_figure(
                self_w, prefix, prefix,
                t("train.self_title", layer=layer, which=which, q=k, k=k),
                q_title=t("train.q_decoder"), k_title=t("train.k_decoder")),
                f"decode_step{k}_self_L{layer}", key="tr_self")
            ctx.chart(attention_figure(
                cross_w, prefix, list(decoding.src),
                t("train.cross_title", layer=layer, which=which, q=k, k=len(decoding.src)),
                q_title=t("train.q_decoder"), k_title=t("train.k_source")),
                f"decode_step{k}_cross_L{layer}", key="tr_cross")
            st.caption(t("train.no_cache_caption"))

        # ---- 4. Before and after ------------------------------------------------------------
        st.header(t("train.before_after_header"))
        kind = st.radio(t("train.attention"), ("cross", "enc"), key="tr_kind", horizontal=True,
                        format_func=lambda name: t(f"train.kind_{name}"))
        kind = kind if kind in ("cross", "enc") else "cross"
        st.caption(t("train.before_after_caption"))
        base = untrained(key)
        before = memo(("before", key, kind, tuple(tokens)),
                      lambda: attention_pattern(base, task, tokens, kind))
        q_title = t("train.q_decoder") if kind == "cross" else t("train.q_source")
        p1, p2 = st.columns(2)
        ctx.chart(attention_figure(before[0], before[1], before[2],
                                    t("train.untrained_title", seed=key.seed),
                                    q_title=q_title, k_title=t("train.k_source")),
                   f"{kind}_attention_untrained", key="tr_before", where=p1)
        if trained is not None:
            after = memo(("after", id(trained), trained.version, kind, tuple(tokens)),
                         lambda: attention_pattern(trained.model, task, tokens, kind))
            ctx.chart(attention_figure(after[0], after[1], after[2],
                                        t("train.trained_title", steps=trained.step),
                                        q_title=q_title, k_title=t("train.k_source")),
                       f"{kind}_attention_trained", key="tr_after", where=p2)
            p2.caption(t("train.pattern_caption", task=t(f"train.task_{task.name}"),
                         pattern=t(f"train.pattern_{task.name}")))
        else:
            p2.info(t("train.train_first"), icon=":material/fitness_center:")

# ---- 5. The schedule and label smoothing ---------------------------------------------------
st.header(t("train.schedule_header"))
with st.expander(t("train.noam_expander")):
    st.markdown(t("train.noam_text"))
    n1, n2, n3 = st.columns(3)
    set_default("tr_noam_d", int(min(max(s.d_model, 2), 1024)))
    set_default("tr_noam_warmup", 4000)
    set_default("tr_noam_factor", 1.0)
    nd = n1.number_input("d_model", 2, 1024, step=2, key="tr_noam_d")
    nw = n2.number_input("warmup", 1, 20000, step=100, key="tr_noam_warmup")
    nf = n3.number_input("factor", 0.1, 5.0, step=0.1, key="tr_noam_factor")
    try:
        nd, nw, nf = int(nd), int(nw), float(nf)
        valid = 2 <= nd <= 1024 and 1 <= nw <= 20000 and 0.1 <= nf <= 5.0
    except (TypeError, ValueError, OverflowError):
        valid = False
    if valid:
        ctx.chart(noam_figure(nd, nf, nw), "noam_schedule", key="tr_noam")
    else:
        st.error(t("train.noam_invalid"))

with st.expander(t("train.smoothing_expander")):
    st.markdown(t("train.smoothing_text"))
    set_default("tr_eps_demo", 0.1)
    eps = st.slider("ε", 0.0, 0.9, step=0.05, key="tr_eps_demo")
    try:
        eps = min(max(float(eps), 0.0), 0.9)
    except (TypeError, ValueError):
        eps = 0.1
    dist, rows, cols = smoothing_example(eps, size=7)
    ctx.chart(smoothing_figure(dist, rows, cols, eps), "label_smoothing", key="tr_smooth")
    st.caption(t("train.smoothing_caption", n=len(cols), share=f"{eps / (len(cols) - 2):.3f}"))
