"""Train & decode: teach a fresh model a toy task live, then watch it decode step by step.

The trained model lives in this learner's st.session_state only. The untrained model of the
same architecture and seed is shared through a cache, read-only (eval mode, no gradients).
"""

import time

import streamlit as st

from explorer.charts import show_chart
from explorer.exports import checkpoint_bytes, download_name
from explorer.figures.training import (
    attention_figure,
    loss_figure,
    next_token_figure,
    noam_figure,
    smoothing_figure,
)
from explorer.session_training import (
    BATCH_SIZES,
    CHECK_EVERY,
    CHECK_SEQUENCES,
    DEFAULT_DIGITS,
    FACTOR_RANGE,
    LR_CHOICES,
    MAX_INPUT_CHARS,
    MODEL_CHOICES,
    SMOOTHING_RANGE,
    STEPS_RANGE,
    SYMBOL_MODES,
    TIME_LIMIT,
    WARMUP_RANGE,
    ModelKey,
    TrainedState,
    TrainSettings,
    answer,
    attention_pattern,
    build_model_for,
    decode_input,
    finish,
    freeze,
    is_current,
    parse_sequence,
    parse_train_settings,
    run_training,
    sentence_input,
    sentence_words,
    smoothing_example,
    start_training,
    task_for,
    teacher_forcing_rows,
    top_tokens,
)
from explorer.settings import architecture_problem, estimate_params, training_problem
from explorer.ui import LARGE_PARAMS, context, session_disconnected
from transformer.recipes import FAST
from transformer.tasks import TASKS
from transformer.train import SCHEDULES

STATE_KEY = "train_state"  # this learner's TrainedState
MEMO_KEY = "train_memo"  # this learner's recent decodings, by (model version, input)


@st.cache_resource(max_entries=32, show_spinner=False)
def _untrained_small(key: ModelKey):
    return freeze(build_model_for(key))


@st.cache_resource(max_entries=2, show_spinner="Building the untrained model…")
def _untrained_large(key: ModelKey):
    return freeze(build_model_for(key))


def untrained(key: ModelKey):
    """The untrained model (shared, read-only): the trained one's starting point."""
    large = estimate_params(key.N, key.d_model, key.d_ff, 0) > LARGE_PARAMS
    cached = _untrained_large if large else _untrained_small
    model = cached(key)
    if not is_current(model):  # built before the app's code was reloaded: build again
        cached.clear()
        model = cached(key)
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


st.title("Train & decode")
st.markdown(
    "Here you train a fresh Transformer on a toy task — copy, reverse or sort a short "
    "sequence — in a few seconds, then watch it produce an answer one token at a time."
)
with st.expander("How training works: teacher forcing, the loss, and why attention changes",
                 expanded=False):
    st.markdown(
        "**Teacher forcing.** Each training example is a source `x1 … xn </s>` and a target "
        "`<s> y1 … ym </s>`. `Batch` cuts the target in two, shifted by one: the decoder "
        "*input* `tgt = <s> y1 … ym` and the *labels* `tgt_y = y1 … ym </s>`. Position *i* "
        "of the decoder reads the correct tokens up to *i* and must predict the token at "
        "*i*+1. All positions are trained at once, in one pass; the subsequent mask stops a "
        "position from looking at the answer it must predict. The model never sees its own "
        "mistakes during training — only when it decodes on its own (section 3).\n\n"
        "**Loss per token.** At every label position the generator gives log-probabilities "
        "over the vocabulary; the loss compares them with the label (with label smoothing, "
        "with a slightly spread-out target). The losses of all real label tokens in the "
        "batch are summed, `<pad>` positions are skipped, and the sum is divided by the "
        "number of real tokens (`batch.ntokens`), so the curve below is the average loss per "
        "target token, whatever the sequence lengths. Without smoothing it is the cross-"
        "entropy: ln(vocabulary size) ≈ 2.6 for guessing among 14 tokens, 0 for certainty.\n\n"
        "**Why attention changes.** A fresh model's weight matrices are random (Xavier "
        "initialisation), so its queries and keys are random projections and its attention "
        "weights are a nearly uniform, patternless smear. Training shapes them to the task: "
        "to copy, output position *i* needs source token *i*, so the cross-attention "
        "becomes a **diagonal**; to reverse, it needs token *n*−*i*, an **anti-diagonal**; "
        "to sort, each step looks for the next-smallest symbol wherever it sits. Section 4 "
        "shows the same input through the untrained and the trained model side by side."
    )

ctx = context()
s = ctx.settings

# ---- 1. The task ---------------------------------------------------------------------------
st.header("1. Pick a toy task")
set_default("tr_task", "copy")
set_default("tr_symbols", "digits")
c1, c2 = st.columns(2)
c1.radio("Task", TASKS, key="tr_task", horizontal=True,
         format_func={"copy": "copy", "reverse": "reverse", "sort": "sort"}.get)
c2.radio("Symbols", SYMBOL_MODES, key="tr_symbols", horizontal=True,
         format_func={"digits": "digits 0–9", "words": "the words of your sentence"}.get)

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
    st.warning(message, icon="🔧")

task, task_note = task_for(ts.task, ts.symbols, s.source)
on_words = task.symbols != tuple("0123456789")
if task_note:
    st.info(task_note, icon="ℹ️")
rule = {"copy": "the same sequence", "reverse": "the sequence backwards",
        "sort": "the symbols in order" + (" (alphabetical order of the words)" if on_words
                                          else "")}[task.name]
st.markdown(
    f"The source is 1 to {task.max_len} random symbols; the answer is {rule}. "
    f"Vocabulary: {len(task.vocab)} tokens = 4 special tokens + {len(task.symbols)} symbols:"
)
st.code(" ".join(task.symbols), language=None)

if on_words:
    example = sentence_input(task, s.source)
else:
    example = parse_sequence(DEFAULT_DIGITS, task)[0] or ["1", "2", "3"]
with st.expander("Teacher forcing for one example of this task"):
    st.dataframe(teacher_forcing_rows(task, example), hide_index=True)
    st.caption("Each row is one decoder position: it reads the input token (and everything "
               "above it) and is trained to give high probability to the label on its row.")

# ---- 2. Training ---------------------------------------------------------------------------
st.header("2. Train")
MODEL_LABELS = {
    "recipe": f"fast recipe: N={FAST.N}, d_model={FAST.d_model}, h={FAST.h}, "
              f"d_ff={FAST.d_ff}, no dropout (learns copy in about 2 s)",
    "sidebar": f"the sidebar's model: N={s.N}, d_model={s.d_model}, h={s.h}, d_ff={s.d_ff}, "
               f"dropout {s.dropout:g} (slower; see the note below)",
}
st.radio("Model to train", MODEL_CHOICES, key="tr_model", format_func=MODEL_LABELS.get,
         help="The fast recipe is small on purpose: one layer and two heads are all that "
              "copy, reverse and sort need, and it trains in seconds. The sidebar's teaching "
              "options (norm placement, LayerNorm, scaling, tying) and seed apply to both.")
ms = ts.model_settings(s)  # the sidebar's settings with the size of the model to train
V = len(task.vocab)
arch_problem = architecture_problem(ms, V)
train_problem = None if arch_problem else training_problem(ms, V)
key = ModelKey.of(ms, task) if arch_problem is None else None

t1, t2, t3 = st.columns(3)
t1.slider("Training steps", *STEPS_RANGE, step=10, key="tr_steps",
          help="Optimiser steps, one random batch each.")
t2.selectbox("Batch size (sequences per step)", BATCH_SIZES, key="tr_batch")
t3.slider("Label smoothing ε", *SMOOTHING_RANGE, step=0.05, key="tr_smoothing",
          help="0 = plain cross-entropy; the paper uses 0.1. See the plot at the bottom.")
t1.radio("Learning-rate schedule", SCHEDULES, key="tr_schedule",
         format_func={"constant": "constant", "warmup": "linear warm-up, then constant",
                      "noam": "Noam (warm-up, then 1/√step)"}.get)
if ts.schedule != "noam":
    t2.select_slider("Learning rate", LR_CHOICES, key="tr_lr",
                     format_func=lambda x: f"{x:g}")
if ts.schedule != "constant":
    t3.number_input("Warm-up steps", *WARMUP_RANGE, step=10, key="tr_warmup")
if ts.schedule == "noam":
    t2.number_input("Noam factor", *FACTOR_RANGE, step=0.1, key="tr_factor")
t1.toggle("Stop when learned", key="tr_early",
          help=f"Every {CHECK_EVERY} steps, greedy-decode {CHECK_SEQUENCES} fresh sequences; "
               "stop as soon as all of them are right.")
st.caption(
    f"Adam with β = (0.9, 0.98), ε = 1e-9 as in the paper. The default is the app's fast "
    f"recipe: {FAST.train.lr:g} after a {FAST.train.warmup}-step warm-up, batch "
    f"{FAST.train.batch_size}, no label smoothing — about 100 times faster here than The "
    "Annotated Transformer's copy recipe (N=2, d_model=512, Noam warm-up 400), which needs "
    "minutes on two CPU cores. Weights and batches come from the sidebar's seed; with "
    "dropout 0 a run is reproducible, with dropout > 0 the dropped units differ each time."
)
if ts.model == "sidebar":
    st.caption("The sidebar's model is trained with the same settings. The small preset "
               "(N=2, d_model=128) takes tens of seconds to learn copy here, the paper base "
               "model is too big to train on a shared CPU.")

if arch_problem:
    st.error(f"**No model can be built with these settings.** {arch_problem}", icon="🧱")
elif train_problem:
    st.error(f"**This model is too big to train here.** {train_problem}", icon="🏋️")
problem = arch_problem or train_problem

stop_requested = st.session_state.get("tr_stop") is True  # read before it is drawn disabled
b1, b2, _ = st.columns([1, 1, 4])
train_clicked = b1.button("Train", type="primary", disabled=bool(problem), key="tr_train",
                          help="Build a fresh model from the seed and train it.")
b2.button("Stop", key="tr_stop", disabled=not train_clicked,
                         help="Stop training; the model keeps what it has learned so far.")

state: TrainedState | None = st.session_state.get(STATE_KEY)
if state is not None and not (isinstance(state, TrainedState) and is_current(state.model)):
    st.session_state.pop(STATE_KEY, None)  # trained before the app's code was updated
    st.session_state.pop(MEMO_KEY, None)
    st.info("The app was updated since you trained your model: please train it again.",
            icon="🔁")
    state = None
if state is not None and state.running and not train_clicked:
    # the run that was training was interrupted by a click (Stop or any other widget):
    # the model and its history were saved at every step, so keep them
    with st.spinner("Evaluating the partly trained model…"):
        finish(state, "the Stop button" if stop_requested else "a click during training")
if state is not None and state.step == 0 and not state.running:
    st.session_state.pop(STATE_KEY, None)  # stopped before its first step: nothing learned
    state = None

if train_clicked and not problem and key is not None:
    config = ts.train_config(s.seed)
    state = start_training(key, config, early_stop=ts.early_stop)
    st.session_state[STATE_KEY] = state
    progress = st.progress(0.0, text="Starting…")
    live_chart = st.empty()
    every = min(20, max(10, config.steps // 50))
    shown = {"step": 0, "time": time.perf_counter()}

    def on_step(info) -> bool:
        if session_disconnected():  # the tab was closed: nobody is waiting for this run
            state.stop_reason = "the browser tab was closed"
            return True
        now = time.perf_counter()
        if info.step % every and info.step != info.steps and now - shown["time"] < 0.7:
            return False
        shown.update(step=info.step, time=now)
        progress.progress(
            info.step / info.steps,
            text=f"step {info.step} / {info.steps} · loss {info.loss:.3f} · "
                 f"token accuracy {info.token_accuracy:.0%} · {info.elapsed:.1f} s",
        )
        live_chart.plotly_chart(loss_figure(state.history, info.steps), width="stretch",
                                key=f"tr_live_{info.step}")
        return False

    with st.spinner("Training… (click Stop to end early)"):
        run_training(state, on_step)
    progress.empty()
    live_chart.empty()

trained = state if state is not None and state.key == key and state.step > 0 else None
if state is not None and state.step > 0:
    if trained is None:
        st.info(f"Your trained model was for other settings ({state.key.describe()}). "
                "Press Train to train one for the current task and sidebar settings; until "
                "then the untrained model is used below.", icon="🔁")
    else:
        m1, m2, m3, m4 = st.columns(4)
        acc = state.accuracy if state.accuracy is not None else 0.0
        m1.metric("Exact-sequence accuracy", f"{acc:.0%}",
                  help="Greedy decoding of 200 fresh random sequences: the share whose whole "
                       "answer, up to </s>, is right.")
        m2.metric("Final loss per token", f"{state.history[-1].loss:.3f}")
        m3.metric("Steps", f"{state.step} / {state.config.steps}")
        m4.metric("Training time", f"{state.seconds:.1f} s")
        if state.learned:
            st.success(f"Learned after {state.step} steps: a check decoded {CHECK_SEQUENCES} "
                       "fresh sequences and got every one right, so training stopped there.",
                       icon="✅")
        if state.stopped:
            st.warning(f"Training stopped at step {state.step} of {state.config.steps} "
                       f"({state.stop_reason}). The model keeps what it learned by then.",
                       icon="⏹️")
        show_chart(loss_figure(state.history, state.config.steps), f"loss_{key.task}",
                   key="tr_loss")
        cfg = state.config
        lr_text = {"constant": f"constant lr {cfg.lr:g}",
                   "warmup": f"lr {cfg.lr:g} after a {cfg.warmup}-step linear warm-up",
                   "noam": f"Noam, warm-up {cfg.warmup}, factor {cfg.factor:g}"}[cfg.schedule]
        st.caption(f"Trained with batch {cfg.batch_size}, {lr_text}, label smoothing "
                   f"{cfg.smoothing:g}. Token accuracy is measured on the training batch with "
                   "teacher forcing; exact-sequence accuracy lets the model run on its own, "
                   "so one early mistake spoils the whole answer.")
        trained_model, trained_task = state.model, state.task
        st.download_button(
            "Download the trained model (.pt checkpoint)",
            data=lambda: checkpoint_bytes(
                trained_model, list(trained_task.vocab.itos),
                {"task": trained_task.name, "symbols": list(trained_task.symbols),
                 "steps": state.step, "accuracy": state.accuracy}),
            file_name=download_name(f"transformer_{key.task}", ms, "pt"),
            mime="application/octet-stream", key="tr_ckpt", on_click="ignore",
            icon=":material/download:",
            help="A torch.save of {'state_dict', 'config', 'vocab'}: load it with "
                 "torch.load(path, weights_only=True), or upload it in the sidebar "
                 "(Explore your own checkpoint) to look inside it on every page.",
        )
elif not problem:
    st.caption(f"Not trained yet. Training stops by itself after {TIME_LIMIT:.0f} s.")

# ---- 3. Decoding ---------------------------------------------------------------------------
if key is not None:
    st.header("3. Decode step by step")
    st.markdown(
        "Greedy decoding: the encoder reads the source once; the decoder starts from `<s>`, "
        "predicts a probability for every token, appends the most likely one and runs again "
        "on the longer prefix, until it produces `</s>`. Unlike training, it now reads its "
        "own previous outputs."
    )
    use_trained = False
    if trained is not None:
        use_trained = st.radio("Decode with", ("trained", "untrained"), key="tr_which",
                               horizontal=True) != "untrained"
    else:
        st.caption("The untrained model (train it above to see the difference): its "
                   "answers are garbage — that is the point.")

    tokens: list[str] | None
    if on_words:
        tokens = sentence_input(task, s.source)
        st.markdown("Input: your sentence")
        st.code(" ".join(tokens), language=None)
        if len(sentence_words(s.source)) > len(tokens):
            st.caption(f"Only the first {task.max_len} words are used: the task's longest "
                       "sequence.")
    else:
        set_default("tr_digits", DEFAULT_DIGITS)
        text = st.text_input("Digits to decode (separated by spaces)", key="tr_digits",
                             max_chars=MAX_INPUT_CHARS)
        tokens, input_error = parse_sequence(text, task)
        if input_error:
            st.error(input_error, icon="✍️")

    if tokens:
        if use_trained:
            model, version = trained.model, ("trained", id(trained), trained.version)
        else:
            with st.spinner("Building the untrained model…"):
                model = untrained(key)
            version = ("untrained",)
        decoding = memo((*version, key, tuple(tokens)),
                        lambda: decode_input(model, task, tokens))
        expected = answer(task, tokens)
        produced = [t for t in decoding.output if t != "</s>"]
        right = produced == expected and decoding.output[-1:] == ("</s>",)
        o1, o2 = st.columns(2)
        o1.markdown("Expected answer")
        o1.code(" ".join(expected), language=None)
        o2.markdown("Model's answer: " + (":green[**right**]" if right else ":red[**wrong**]"))
        o2.code(" ".join(decoding.output), language=None)

        n_steps = len(decoding.steps)
        if n_steps > 1:
            if st.session_state.get("tr_step", 1) > n_steps:
                st.session_state["tr_step"] = n_steps
            set_default("tr_step", n_steps)  # the whole answer first; slide back to step 1
            k = st.slider("Step", 1, n_steps, key="tr_step",
                          help="Step k reads <s> and the k−1 tokens produced so far.")
        else:
            k = 1
        k = min(max(int(k), 1), n_steps)
        view = decoding.steps[k - 1]
        d1, d2 = st.columns([2, 3])
        with d1:
            st.markdown(f"**Step {k}.** The decoder reads {len(view.prefix)} token(s):")
            st.code(" ".join(view.prefix), language=None)
            st.markdown("and picks the most likely next token:")
            st.code(view.next_token, language=None)
            show_chart(
                next_token_figure(top_tokens(view.probs, decoding.itos, 10), view.next_token),
                f"decode_step{k}_next_token", key="tr_next",
            )
        with d2:
            n_layers, n_heads = view.self_attn.shape[:2]
            a1, a2 = st.columns(2)
            layer = a1.selectbox("Layer", range(n_layers), index=n_layers - 1, key="tr_layer",
                                 format_func=lambda i: f"layer {i}")
            head = a2.selectbox("Heads", ["mean", *range(n_heads)], key="tr_head",
                                format_func=lambda j: "mean of heads" if j == "mean"
                                else f"head {j}")
            layer = layer if isinstance(layer, int) and 0 <= layer < n_layers else n_layers - 1
            if head == "mean" or not isinstance(head, int) or not 0 <= head < n_heads:
                self_w, cross_w, which = (view.self_attn[layer].mean(0),
                                          view.cross_attn[layer].mean(0), "mean of heads")
            else:
                self_w, cross_w, which = (view.self_attn[layer, head],
                                          view.cross_attn[layer, head], f"head {head}")
            prefix = list(view.prefix)
            show_chart(attention_figure(
                self_w, prefix, prefix,
                f"decoder self-attention, layer {layer}, {which} ({k}×{k})",
                q_title="query: decoder input", k_title="key: decoder input"),
                f"decode_step{k}_self_L{layer}", key="tr_self")
            show_chart(attention_figure(
                cross_w, prefix, list(decoding.src),
                f"cross-attention, layer {layer}, {which} ({k}×{len(decoding.src)})",
                q_title="query: decoder input", k_title="key: source"),
                f"decode_step{k}_cross_L{layer}", key="tr_cross")
            st.caption("There is no cache of earlier steps: every step runs the decoder on the "
                       "whole prefix again, so the rows above the last one repeat the previous "
                       "step's. The last row is the position that predicts the next token.")

        # ---- 4. Before and after ------------------------------------------------------------
        st.header("4. Attention before and after training")
        kind = st.radio("Attention", ("cross", "enc"), key="tr_kind", horizontal=True,
                        format_func={"cross": "cross-attention (decoder → source)",
                                     "enc": "encoder self-attention"}.get)
        kind = kind if kind in ("cross", "enc") else "cross"
        st.caption("Last layer, mean of the heads, for the input above. For cross-attention "
                   "both models are fed the correct answer (teacher forcing), so the rows are "
                   "the same decoder input `<s> y1 … ym` for both.")
        base = untrained(key)
        before = memo(("before", key, kind, tuple(tokens)),
                      lambda: attention_pattern(base, task, tokens, kind))
        q_title = "query: decoder input" if kind == "cross" else "query: source"
        p1, p2 = st.columns(2)
        show_chart(attention_figure(before[0], before[1], before[2],
                                    f"untrained (seed {key.seed})",
                                    q_title=q_title, k_title="key: source"),
                   f"{kind}_attention_untrained", key="tr_before", where=p1)
        if trained is not None:
            after = memo(("after", id(trained), trained.version, kind, tuple(tokens)),
                         lambda: attention_pattern(trained.model, task, tokens, kind))
            show_chart(attention_figure(after[0], after[1], after[2],
                                        f"trained ({trained.step} steps)",
                                        q_title=q_title, k_title="key: source"),
                       f"{kind}_attention_trained", key="tr_after", where=p2)
            pattern = {"copy": "a diagonal", "reverse": "an anti-diagonal",
                       "sort": "each row finding the next symbol in order"}[task.name]
            p2.caption(f"For {task.name}, look for {pattern} in the cross-attention. "
                       "Encoder self-attention need not show a clean pattern: the encoder "
                       "only has to keep each token's identity and position.")
        else:
            p2.info("Train the model (section 2) to see the trained attention here.", icon="🏋️")

# ---- 5. The schedule and label smoothing ---------------------------------------------------
st.header("5. The learning-rate schedule and label smoothing")
with st.expander("The Noam learning-rate schedule"):
    st.markdown(
        "The paper raises the learning rate linearly for `warmup` steps, then lowers it as "
        "1/√step: `lr = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)`. The peak "
        "is at step = warmup. Warm-up keeps Adam's first, badly estimated steps small; wider "
        "models (larger d_model) get a smaller rate. Dotted: the Annotated Transformer's "
        "example curves."
    )
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
        show_chart(noam_figure(nd, nf, nw), "noam_schedule", key="tr_noam")
    else:
        st.error("Use d_model from 2 to 1024, warmup from 1 to 20000 and factor from 0.1 to 5.")

with st.expander("Label smoothing"):
    st.markdown(
        "Instead of training towards a one-hot target (all probability on the label), label "
        "smoothing keeps 1 − ε on the label and spreads ε over the other tokens, except "
        "`<pad>`, which always gets 0. The model is discouraged from becoming certain; "
        "the paper (ε = 0.1) reports worse perplexity but better BLEU. The loss is the KL "
        "divergence to this distribution: it is 0 only when the model predicts exactly that "
        "smoothed distribution, so a fully confident (one-hot) prediction now costs loss. A "
        "row whose label is `<pad>` is all zeros: padding adds no loss."
    )
    set_default("tr_eps_demo", 0.1)
    eps = st.slider("ε", 0.0, 0.9, step=0.05, key="tr_eps_demo")
    try:
        eps = min(max(float(eps), 0.0), 0.9)
    except (TypeError, ValueError):
        eps = 0.1
    dist, rows, cols = smoothing_example(eps, size=7)
    show_chart(smoothing_figure(dist, rows, cols, eps), "label_smoothing", key="tr_smooth")
    st.caption(f"Vocabulary of {len(cols)} tokens: ε/(size − 2) = {eps / (len(cols) - 2):.3f} "
               "goes to every token that is neither the label nor <pad>.")
