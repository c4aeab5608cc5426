"""Train a model on a toy task for one learner, then decode with it step by step.

Pure Python and torch: nothing here calls streamlit, so every function can be unit-tested.
Learner-visible texts come from `t()`, in the language of the run; a trained state keeps
its stop reason as a code (`stop_reason_text` words it when it is shown).
The page keeps what these functions return in the learner's `st.session_state` (never in a
cache shared by users): a trained model belongs to the session that trained it.

- `parse_train_settings(raw)` validates the training widgets again in Python.
- `task_for(...)` picks the task's symbols: the digits, or the distinct words of the text.
- `ModelKey` is everything that fixes a model's architecture, task and initial weights;
  `build_model_for(key)` makes the fresh, untrained model (the same weights every time).
- `TrainedState` holds one learner's trained model and its history; `start_training` and
  `record_step` update it during training so an interrupted run keeps what it learned.
  `stop_and_wait` stops a run that may still be training it in another thread (a click
  starts the next script run while the old one still trains) and waits until it has.
- `held_out` is the evaluation shown after training (other sequences than the stop check's);
  `input_fit` says whether an input to decode is like the sequences the model trained on.
- `parse_sequence`, `decode_input`, `attention_before_after`: decoding and attention.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import torch

from transformer.model import (
    AttentionModule,
    EncoderDecoder,
    Stack,
    attention_hook,
    make_model,
    subsequent_mask,
)
from transformer.recipes import FAST
from transformer.tasks import DIGITS, TASKS, Task, make_task
from transformer.tokenize import BOS, EOS, MAX_TEXT_CHARS, PAD, SPECIALS, TokenizeError, tokenize
from transformer.train import (
    SCHEDULES,
    LabelSmoothing,
    StepInfo,
    TrainConfig,
    decode_steps,
    exact_matches,
    sequence_accuracy,
    train,
)

from .i18n import t
from .settings import Settings

# ---- Limits of the training widgets, validated again here -------------------------------
SYMBOL_MODES = ("digits", "words")
MODEL_CHOICES = ("recipe", "sidebar")  # the fast recipe's size, or the sidebar's model
BATCH_SIZES = (16, 32, 64, 128)
STEPS_RANGE = (50, 2000)
LR_RANGE = (1e-4, 1e-2)
LR_CHOICES = (1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 5e-3, 7e-3, 1e-2)  # the page's slider stops
WARMUP_RANGE = (1, 4000)
CHECK_EVERY = 25  # steps between the early-stop checks
CHECK_SEQUENCES = 200  # fresh sequences per early-stop check; all must be right
FACTOR_RANGE = (0.1, 5.0)
SMOOTHING_RANGE = (0.0, 0.5)
TIME_LIMIT = 120.0  # seconds: one learner's run must not hold a shared core for longer
EVAL_SEQUENCES = 200  # held-out sequences for the exact-sequence accuracy shown
EVAL_SEED = 4321  # their seed; the stop checks use 10_000 + step, training cfg.seed
STOP_WAIT = 5.0  # seconds the page waits for an interrupted run's thread to stop training
DIGIT_MAX_LEN = 9  # longest digit sequence of the tasks
MAX_WORDS = 20  # distinct words of the learner's text used as symbols
WORD_MIN_LEN, WORD_MAX_LEN = 6, 12  # the words task covers the sentence's length, capped
DEFAULT_DIGITS = "3 1 4 1 5 9 2"
MAX_INPUT_CHARS = 200


@dataclass(frozen=True)
class TrainSettings:
    """The training widgets after validation. Defaults: the fast recipe (recipes.FAST)."""

    task: str = "copy"
    symbols: str = "digits"
    model: str = "recipe"  # train the fast recipe's size, or the sidebar's model
    steps: int = FAST.train.steps
    batch_size: int = FAST.train.batch_size
    schedule: str = FAST.train.schedule
    lr: float = FAST.train.lr
    warmup: int = FAST.train.warmup
    factor: float = FAST.train.factor
    smoothing: float = FAST.train.smoothing
    early_stop: bool = True  # stop once every sequence of a check is right
    errors: tuple[str, ...] = field(default=(), compare=False)

    def model_settings(self, settings: Settings) -> Settings:
        """The sidebar's settings with the size of the model to train."""
        if self.model == "sidebar":
            return settings
        return replace(settings, N=FAST.N, d_model=FAST.d_model, h=FAST.h, d_ff=FAST.d_ff,
                       dropout=FAST.dropout)

    def train_config(self, seed: int) -> TrainConfig:
        return TrainConfig(
            steps=self.steps, batch_size=self.batch_size, schedule=self.schedule,  # type: ignore[arg-type]
            lr=self.lr, factor=self.factor, warmup=self.warmup, smoothing=self.smoothing,
            seed=seed,
        )


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def parse_train_settings(raw: dict[str, Any]) -> TrainSettings:
    """Validate raw widget values: a bad value falls back to its default, with a message."""
    base = TrainSettings()
    errors: list[str] = []
    values: dict[str, Any] = {}
    for name, allowed in (("task", TASKS), ("symbols", SYMBOL_MODES), ("schedule", SCHEDULES),
                          ("model", MODEL_CHOICES)):
        value = raw.get(name, getattr(base, name))
        if value in allowed:
            values[name] = str(value)
        else:
            errors.append(t("train.err.choice", name=t(f"train.field.{name}"),
                            allowed=", ".join(allowed), default=getattr(base, name)))
    ints = {"steps": STEPS_RANGE, "warmup": WARMUP_RANGE}
    floats = {"lr": LR_RANGE, "factor": FACTOR_RANGE, "smoothing": SMOOTHING_RANGE}
    for name, (low, high) in {**ints, **floats}.items():
        number = _number(raw.get(name, getattr(base, name)))
        whole = name not in ints or (math.isfinite(number) and number == int(number))
        if math.isfinite(number) and whole and low <= number <= high:
            values[name] = int(number) if name in ints else number
        else:
            errors.append(t("train.err.whole" if name in ints else "train.err.number",
                            name=t(f"train.field.{name}"), low=f"{low:g}", high=f"{high:g}",
                            default=f"{getattr(base, name):g}"))
    batch = _number(raw.get("batch_size", base.batch_size))
    if batch in BATCH_SIZES:
        values["batch_size"] = int(batch)
    else:
        errors.append(t("train.err.batch", allowed=", ".join(map(str, BATCH_SIZES)),
                        default=base.batch_size))
    early = raw.get("early_stop", base.early_stop)
    if isinstance(early, bool):
        values["early_stop"] = early
    else:
        errors.append(t("train.err.early_stop"))
    return replace(base, **values, errors=tuple(errors))


# ---- The task -----------------------------------------------------------------------


def sentence_words(text: str) -> list[str]:
    """The word tokens of the learner's text (no specials); empty if it cannot be split."""
    try:
        tokens = tokenize(text, "word", max_tokens=MAX_TEXT_CHARS)
    except TokenizeError:
        return []
    return [tok for tok in tokens if tok not in SPECIALS]


def task_for(name: str, symbols: str, text: str) -> tuple[Task, str | None]:
    """The task over digits or over the text's distinct words, and a note if it fell back."""
    if symbols != "words":
        return make_task(name, None, max_len=DIGIT_MAX_LEN), None
    words = sentence_words(text)
    distinct = list(dict.fromkeys(words))
    if len(distinct) < 2:
        why = "train.note.too_few_words" if words else "train.note.no_words"
        return make_task(name, None, max_len=DIGIT_MAX_LEN), t(why)
    note = None
    if len(distinct) > MAX_WORDS:
        note = t("train.note.too_many_words", n=len(distinct), limit=MAX_WORDS)
        distinct = distinct[:MAX_WORDS]
    max_len = min(max(len(words), WORD_MIN_LEN), WORD_MAX_LEN)
    return make_task(name, distinct, max_len=max_len), note


def sentence_input(task: Task, text: str) -> list[str]:
    """The learner's sentence as an input of the words task: its first max_len known words."""
    known = set(task.symbols)
    return [w for w in sentence_words(text) if w in known][: task.max_len]


def answer(task: Task, tokens: Sequence[str]) -> list[str]:
    """What the task expects for `tokens`."""
    vocab = task.vocab
    return vocab.decode(task.target_ids(vocab.encode(list(tokens))))


def parse_sequence(text: Any, task: Task) -> tuple[list[str] | None, str | None]:
    """The learner's input as task symbols, or (None, a friendly reason).

    Symbols are separated by spaces; a digit task also takes "31415" without spaces. The
    reason never repeats the learner's text, so it is safe to show as Markdown.
    """
    if not isinstance(text, str):
        return None, t("train.input.not_text")
    if len(text) > MAX_INPUT_CHARS:
        return None, t("train.input.too_long", n=task.max_len)
    parts = text.split()
    if task.symbols == DIGITS and len(parts) == 1 and parts[0].isdecimal():
        parts = list(parts[0])
    if not parts:
        return None, t("train.input.empty")
    bad = [i + 1 for i, p in enumerate(parts) if p not in task.symbols]
    if bad:
        which = ", ".join(map(str, bad[:5])) + (" …" if len(bad) > 5 else "")
        digits = task.symbols == DIGITS
        return None, t("train.input.bad_digits" if digits else "train.input.bad_words",
                       which=which)
    if len(parts) > task.max_len:
        return None, t("train.input.too_many", n=task.max_len, got=len(parts))
    return parts, None


# ---- The model and the learner's trained state ----------------------------------------


@dataclass(frozen=True)
class ModelKey:
    """Everything that fixes a model's architecture, its task and its initial weights."""

    task: str
    symbols: tuple[str, ...]
    max_len: int
    N: int
    d_model: int
    d_ff: int
    h: int
    dropout: float
    seed: int
    norm_placement: str
    layer_norm: str
    scale_embedding: bool
    tie_weights: str

    @classmethod
    def of(cls, settings: Settings, task: Task) -> ModelKey:
        return cls(
            task.name, task.symbols, task.max_len, settings.N, settings.d_model, settings.d_ff,
            settings.h, settings.dropout, settings.seed, settings.norm_placement,
            settings.layer_norm, settings.scale_embedding, settings.tie_weights,
        )

    @property
    def task_obj(self) -> Task:
        return Task(self.task, self.symbols, 1, self.max_len)

    def describe(self) -> str:
        """The task and the model, for a message (in the language of the run)."""
        syms = t("train.describe_digits") if self.symbols == DIGITS else (
            t("train.describe_words", n=len(self.symbols)))
        return t("train.describe", task=t(f"train.task_{self.task}"), symbols=syms, N=self.N,
                 d_model=self.d_model, h=self.h, d_ff=self.d_ff,
                 dropout=f"{self.dropout:g}", seed=self.seed)


def build_model_for(key: ModelKey) -> EncoderDecoder:
    """The fresh model for `key`: always the same initial weights (from key.seed)."""
    V = len(key.task_obj.vocab)
    model = make_model(
        V, V, key.N, key.d_model, key.d_ff, key.h, key.dropout, seed=key.seed,
        norm_placement=key.norm_placement, layer_norm=key.layer_norm,
        scale_embedding=key.scale_embedding, tie_weights=key.tie_weights,
        max_len=key.task_obj.max_len + 2,  # positions a task sequence can reach (with <s>, </s>)
    )
    return model.eval()


def is_current(model: object) -> bool:
    """Whether `model` was built by the code loaded now.

    A development server that sees a source file change unloads the project's modules and
    imports them again; a model built before (kept in a cache or a session) then has hook
    points that the new `capture()` cannot see, and must be built again.
    """
    return isinstance(model, EncoderDecoder)


def freeze(model: EncoderDecoder) -> EncoderDecoder:
    """Eval mode and no gradients: for a model that will only be read (e.g. shared)."""
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    return model


@dataclass
class TrainedState:
    """One learner's trained model and what happened while training it."""

    key: ModelKey
    model: EncoderDecoder
    task: Task
    config: TrainConfig
    history: list[StepInfo] = field(default_factory=list)
    running: bool = True  # True while a script run trains it
    stopped: bool = False  # ended before config.steps (Stop, another click, time limit)
    stop_reason: str = ""  # one of STOP_REASONS (or a caller's own text); see stop_reason_text
    accuracy: float | None = None  # exact-sequence accuracy on the held-out sequences
    held_out: HeldOut | None = None  # that evaluation, with its counts per length
    early_stop: bool = False  # check every CHECK_EVERY steps; stop when all are right
    learned: bool = False  # stopped early because a check got every sequence right
    version: int = 0  # bumped on every change, for memoised decodings
    # Asked from another thread (request_stop): the training loop stops after its step.
    stop_request: threading.Event = field(default_factory=threading.Event, repr=False,
                                          compare=False)
    requested_reason: str = ""  # the STOP_REASONS code given with the request
    # Held by the thread that trains (or finishes) the model: while another thread holds it,
    # the model may still change, so nothing about it may be shown.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def step(self) -> int:
        return self.history[-1].step if self.history else 0

    @property
    def seconds(self) -> float:
        return self.history[-1].elapsed if self.history else 0.0


# Why a run stopped early: codes kept in the state, worded when shown (the learner may have
# switched language since).
STOP_REASONS = ("time_limit", "stop_request", "click", "stop_button", "tab_closed")


def stop_reason_text(reason: str) -> str:
    """`reason` (a STOP_REASONS code) in words; any other text is returned as it is."""
    if reason in STOP_REASONS:
        return t(f"train.reason.{reason}", seconds=f"{TIME_LIMIT:.0f}")
    return reason


def start_training(key: ModelKey, config: TrainConfig, early_stop: bool = False) -> TrainedState:
    """A fresh model for `key`, ready to train with `config` (nothing trained yet)."""
    return TrainedState(key, build_model_for(key), key.task_obj, config, early_stop=early_stop)


def record_step(state: TrainedState, info: StepInfo) -> bool:
    """Keep `info` in the state; True if training must stop for the time limit."""
    state.history.append(info)
    state.version += 1
    if info.elapsed > TIME_LIMIT and info.step < info.steps:
        state.stopped = True
        state.stop_reason = "time_limit"
        return True
    return False


def run_training(
    state: TrainedState, on_step: Callable[[StepInfo], bool | None] | None = None
) -> TrainedState:
    """Train `state.model` in place; `on_step(info)` runs after each step, True stops.

    Progress is written into `state` before `on_step` runs, so if `on_step` raises (as
    Streamlit does when the learner clicks during a run) the state keeps every step done.
    A stop request (`request_stop`, from another thread) is seen after every step: the
    loop ends before `on_step` is called again. The calling thread holds `state.lock`
    until it returns or raises (even a BaseException such as Streamlit's StopException).
    """

    def callback(info: StepInfo) -> bool:
        stop = record_step(state, info)
        if state.stop_request.is_set():
            state.stopped = True
            state.stop_reason = state.stop_reason or state.requested_reason or "stop_request"
            return True
        if (state.early_stop and not stop and info.step % CHECK_EVERY == 0
                and info.step < info.steps and learned(state.model, state.task, info.step)):
            state.learned = True
            stop = True
        if on_step is not None and on_step(info):
            state.stopped = True
            state.stop_reason = state.stop_reason or "stop_request"
            stop = True
        return stop

    with state.lock:
        if not state.stop_request.is_set():  # stopped before it started: nothing to train
            state.running = True
            train(state.model, state.task, state.config, callback)
        finish(state, state.requested_reason)
    return state


def request_stop(state: TrainedState, reason: str = "stop_request") -> None:
    """Ask the thread training `state` (if any) to stop after its current step."""
    if not state.stop_request.is_set():
        state.requested_reason = reason
    state.stop_request.set()


def stop_and_wait(state: TrainedState, reason: str = "stop_request",
                  timeout: float = STOP_WAIT, finish_state: bool = True) -> bool:
    """Stop any training of `state` and wait for it; then finish (evaluate) the model.

    A Streamlit click starts the next script run at once, while the thread of the run that
    was training may still be inside `run_training` (it only ends at its next st.* call).
    Returns True when no thread trains the model any more and it has been evaluated (every
    number in `state` then belongs to the model as it is), False if the training thread
    did not let go within `timeout` seconds (the state is left as it was, still running).
    With finish_state=False it only waits (for a state about to be replaced).
    """
    request_stop(state, reason)
    if not state.lock.acquire(timeout=timeout):
        return False
    try:
        if finish_state:
            finish(state, reason)
    finally:
        state.lock.release()
    return True


def learned(model: EncoderDecoder, task: Task, step: int) -> bool:
    """Whether greedy decoding gets every one of CHECK_SEQUENCES fresh sequences right."""
    return sequence_accuracy(model, task, n=CHECK_SEQUENCES, seed=10_000 + step) == 1.0


def finish(state: TrainedState, reason: str = "") -> TrainedState:
    """Mark training over (after a normal end or an interruption) and evaluate the model.

    Call it only where no other thread trains the model: in `run_training`, or through
    `stop_and_wait`.
    """
    state.model.eval()
    if (state.running and state.step < state.config.steps and not state.stopped
            and not state.learned):
        state.stopped = True
        state.stop_reason = reason or "click"
    state.running = False
    if state.accuracy is None and state.step > 0:
        state.held_out = held_out(state.model, state.task)
        state.accuracy = state.held_out.accuracy
    state.version += 1
    return state


@dataclass(frozen=True)
class HeldOut:
    """Greedy decoding of held-out sequences: how many were right, in all and per length."""

    right: int
    total: int
    by_length: dict[int, tuple[int, int]]  # source length -> (right, total)

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    def wrong_lengths(self) -> list[int]:
        """The lengths of the sequences it got wrong, shortest first."""
        return [n for n, (right, total) in sorted(self.by_length.items()) if right < total]


@torch.no_grad()
def held_out(model: EncoderDecoder, task: Task, n: int = EVAL_SEQUENCES,
             seed: int = EVAL_SEED, batch_size: int = 250) -> HeldOut:
    """Exact-sequence accuracy on `n` random sequences of seed `seed`, with counts per length.

    The same sequences and the same verdicts as `transformer.train.sequence_accuracy` with
    that seed; the stop checks (seed 10_000 + step) and training (cfg.seed) draw others.
    """
    right, lengths = exact_matches(model, task, n, seed, batch_size)
    by_length = {int(k): (int(right[lengths == k].sum()), int((lengths == k).sum()))
                 for k in lengths.unique().tolist()}
    return HeldOut(int(right.sum()), n, by_length)


def evaluate(model: EncoderDecoder, task: Task, n: int = EVAL_SEQUENCES) -> float:
    """Exact-sequence accuracy of greedy decoding on `n` held-out random sequences."""
    return held_out(model, task, n).accuracy


@dataclass(frozen=True)
class InputFit:
    """How an input to decode compares with the sequences the model was trained on."""

    length: int  # symbols in the input
    min_len: int  # the task samples lengths min_len .. max_len (uniformly)
    max_len: int
    unknown: tuple[int, ...] = ()  # 1-based positions of symbols that are not the task's

    @property
    def inside(self) -> bool:
        return self.min_len <= self.length <= self.max_len and not self.unknown


def input_fit(task: Task, tokens: Sequence[str]) -> InputFit:
    """Whether `tokens` is like the training sequences: its length and its symbols."""
    known = set(task.symbols)
    unknown = tuple(i + 1 for i, tok in enumerate(tokens) if tok not in known)
    return InputFit(len(tokens), task.min_len, task.max_len, unknown)


@dataclass(frozen=True)
class SentenceFit:
    """The learner's sentence against the words task: what had to be left out, and why."""

    words: int  # word tokens of the sentence
    used: int  # words decoded (sentence_input)
    max_len: int  # the task's longest sequence
    dropped: int  # words of the sentence that are not symbols of the task

    @property
    def cut(self) -> bool:
        """More known words than the task's longest sequence: the rest is not decoded."""
        return self.words - self.dropped > self.max_len


def sentence_fit(task: Task, text: str) -> SentenceFit:
    """Compare the learner's sentence with what the words task trains on."""
    words = sentence_words(text)
    known = set(task.symbols)
    dropped = sum(1 for w in words if w not in known)
    return SentenceFit(len(words), len(sentence_input(task, text)), task.max_len, dropped)


# ---- Decoding and attention ------------------------------------------------------------


@dataclass(frozen=True)
class DecodeView:
    """One decoder step: what it read, what it predicts, and its attention weights."""

    prefix: tuple[str, ...]  # decoder input: <s> y1 .. y(k-1)
    probs: np.ndarray  # (V,) next-token probabilities
    next_token: str
    self_attn: np.ndarray  # (N, h, k, k) decoder self-attention of the prefix
    cross_attn: np.ndarray  # (N, h, k, src_len)


@dataclass(frozen=True)
class Decoding:
    """Greedy decoding of one input, step by step."""

    src: tuple[str, ...]  # what the encoder read: the input, then </s>
    itos: tuple[str, ...]
    steps: tuple[DecodeView, ...]
    enc_attn: np.ndarray  # (N, h, src_len, src_len)

    @property
    def output(self) -> tuple[str, ...]:
        """Every token produced, up to and including </s> if it came."""
        return tuple(s.next_token for s in self.steps)


def source_tokens(tokens: Sequence[str]) -> list[str]:
    """What the encoder reads for an input of the task: the symbols, then </s>."""
    return [*tokens, "</s>"]


def _encode_src(task: Task, tokens: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    src = torch.tensor([task.source_ids(task.vocab.encode(list(tokens)))])
    return src, (src != PAD).unsqueeze(-2)


def _layers(cache: dict, stack: Stack, module: AttentionModule, n: int) -> np.ndarray:
    """The attention weights of every layer: (n, h, q_len, k_len), batch item 0."""
    return np.stack([cache[attention_hook(stack, i, module, "hook_pattern")][0].float().numpy()
                     for i in range(n)])


def _check_readable(model: EncoderDecoder) -> None:
    """Models handed to the read-only helpers may be shared: never switch their mode here."""
    if model.training:
        raise ValueError("Expected a model in eval mode (call .eval() on your own copy first).")


def decode_input(model: EncoderDecoder, task: Task, tokens: Sequence[str]) -> Decoding:
    """Greedy-decode `tokens` (task symbols) with an eval-mode `model` (it is only read)."""
    _check_readable(model)
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    src, src_mask = _encode_src(task, tokens)
    enc_cache, steps = decode_steps(model, src, src_mask, max_len=task.max_len + 2)
    itos = tuple(task.vocab.itos)
    views = tuple(
        DecodeView(
            prefix=tuple(itos[i] for i in s.ys),
            probs=s.log_probs.exp().float().numpy(),
            next_token=itos[s.next_id],
            self_attn=_layers(s.cache, "decoder", "self_attn", n),
            cross_attn=_layers(s.cache, "decoder", "src_attn", n),
        )
        for s in steps
    )
    return Decoding(tuple(source_tokens(tokens)), itos, views,
                    _layers(enc_cache, "encoder", "self_attn", n))


def top_tokens(probs: np.ndarray, itos: Sequence[str], k: int = 10) -> list[tuple[str, float]]:
    """The k most likely next tokens, most likely first."""
    order = np.argsort(-probs, kind="stable")[:k]
    return [(itos[i], float(probs[i])) for i in order]


def attention_pattern(
    model: EncoderDecoder, task: Task, tokens: Sequence[str], kind: str
) -> tuple[np.ndarray, list[str], list[str]]:
    """Last layer's attention, averaged over heads, with the correct answer fed in.

    kind "cross": rows are the decoder input `<s> y1 .. ym` (teacher forcing with the
    task's answer), columns the source; kind "enc": the source against itself.
    """
    _check_readable(model)
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    src, src_mask = _encode_src(task, tokens)
    tgt_tokens = ["<s>", *answer(task, tokens)]
    tgt = torch.tensor([[BOS, *task.vocab.encode(tgt_tokens[1:])]])
    _, cache = model.run_with_cache(src, tgt, src_mask, subsequent_mask(tgt.size(1)))
    last = n - 1
    if kind == "enc":
        w = cache[attention_hook("encoder", last, "self_attn", "hook_pattern")][0]
        return w.mean(0).float().numpy(), source_tokens(tokens), source_tokens(tokens)
    w = cache[attention_hook("decoder", last, "src_attn", "hook_pattern")][0]
    return w.mean(0).float().numpy(), tgt_tokens, source_tokens(tokens)


def teacher_forcing_rows(task: Task, tokens: Sequence[str]) -> dict[str, list[str]]:
    """The decoder input and the labels for `tokens`, as `Batch` builds tgt and tgt_y."""
    target = ["<s>", *answer(task, tokens), "</s>"]
    return {t("train.col_position"): [str(i) for i in range(len(target) - 1)],
            t("train.col_input"): target[:-1], t("train.col_label"): target[1:]}


# ---- Teaching plots' data ----------------------------------------------------------------


def smoothing_example(epsilon: float, size: int = 6) -> tuple[np.ndarray, list[str], list[str]]:
    """LabelSmoothing.true_dist for a few labels over a small vocabulary (<pad> row last).

    Returns (dist (rows, size), row names, column tokens). The <pad> column is 0, and a
    row whose label is <pad> is all 0 (it is not a real target and adds no loss).
    """
    epsilon = min(max(float(epsilon), 0.0), 0.99) if math.isfinite(epsilon) else 0.0
    size = max(len(SPECIALS) + 1, size)
    crit = LabelSmoothing(size, PAD, epsilon)
    columns = list(SPECIALS) + [f"w{i}" for i in range(size - len(SPECIALS))]
    columns = columns[:size]
    labels = [size - 1, len(SPECIALS), EOS, PAD]
    dist = crit.true_dist(torch.tensor(labels)).numpy()
    rows = [t("train.smooth_row", token=columns[i]) for i in labels]
    return dist, rows, columns
