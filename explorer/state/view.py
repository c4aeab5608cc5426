"""The view: everything that decides what a learner sees, declared once.

A view is the page, the model to look at, the sidebar's settings (`explorer.core.settings.Settings`)
and each page's own choices, declared below as `Choice`s: the session key (which is also the
widget's key), the short key in a link, the default, and what a link may set it to. The link
(`urlstate`) writes and reads all of it; every widget of the view keeps its value while it
is not drawn (`keep`), so leaving a page, or looking at a trained model whose size the
sidebar shows read-only, never changes it.

Pure Python: no streamlit (`keep` returns the widget arguments; the pages pass them on).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from transformer.train import SCHEDULES

from ..core.kinds import KINDS
from ..core.settings import SETTING_NAMES, SOURCES
from ..core.shape_table import STACKS
from ..core.sized import LIMITS as SIZED_LIMITS
from ..core.sized import WALK_SIZES
from ..text.i18n import LANGS
from ..training.decoding import ALPHA_RANGE, BEAM_RANGE, DEFAULT_ALPHA, DEFAULT_BEAM
from ..training.experiments import BREAK_CHOICES, BUDGET_RANGE, DEFAULT_BUDGET, SMOOTHING_RANGE
from ..training.knockout import PARTS
from ..training.settings import (
    BATCH_SIZES,
    FACTOR_RANGE,
    LR_CHOICES,
    MODEL_CHOICES,
    STEPS_RANGE,
    SYMBOL_MODES,
    TRAIN_TASKS,
    WARMUP_RANGE,
    TrainSettings,
)
from ..training.settings import SMOOTHING_RANGE as TRAIN_SMOOTHING_RANGE
from ..training.task import DEFAULT_DIGITS, MAX_INPUT_CHARS, date_probe_example

# The six pages' URL paths, in teaching order (app.py makes a page of each: pages/<path>.py)
PAGE_PATHS: tuple[str, ...] = ("model", "embeddings", "masks", "attention", "shapes", "train")
ATTENTION_KINDS: tuple[str, ...] = tuple(KINDS)  # the Attention page's kinds, in page order
PE_D_MODEL_RANGE = (2, 1024)  # the Embeddings page's d_model input
PE_SHIFT_RANGE = (1, 50)  # the Embeddings page's shift k
MAX_PE_DIMS = 12  # the Embeddings page's multiselect max_selections
MASK_LEN_RANGE = (1, 12)  # the Masks page's two sentence lengths
MASK_SIZE_RANGE = (1, 32)  # the Masks page's subsequent-mask size (unset: the sentence's)
SHAPE_PARTS: tuple[str, ...] = ("all", *STACKS)  # the Shapes page's part filter
TRAINED_ATTENTION_KINDS: tuple[str, ...] = ("cross", "enc")  # Train page, before and after
WHOLE = -1  # the knock-out's head menu value for "the whole sublayer"
DECODE_WITH: tuple[str, ...] = ("trained", "untrained", "shipped", "imported")  # Train page
MEAN_OF_HEADS = "mean"  # the decoding step's head menu value for "the mean of the heads"
MAX_DECODE_STEPS = 64  # the decoding step slider's largest value any task's answer needs
SIZED_KEY = "sized_"  # + a size's name: the Model page's "at sizes of your own" boxes
# each size's key in a link
SIZED_URL = dict(src_vocab="zsrc", tgt_vocab="ztgt", N="zn", d_model="zd", h="zh", d_ff="zff",
                 d_v="zdv", batch="zb", length="zlen")

# The sidebar's keys that are not `Settings` fields.
MODEL_SOURCE_KEY = "model_source"
SIDEBAR_KEYS: tuple[str, ...] = (*SETTING_NAMES, "preset", MODEL_SOURCE_KEY)

_INT_RE = re.compile(r"-?[0-9]{1,12}", re.ASCII)
_FLOAT_RE = re.compile(r"[0-9]{0,4}(\.[0-9]{0,20})?([eE][+-]?[0-9]{1,3})?", re.ASCII)
_TRUE, _FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


def parse_int(text: str, low: int, high: int) -> int | None:
    """A whole number written in ASCII digits within [low, high], else None."""
    text = text.strip()
    if not _INT_RE.fullmatch(text):
        return None
    number = int(text)
    return number if low <= number <= high else None


def parse_float(text: str, low: float, high: float) -> float | None:
    """A finite decimal number within [low, high], else None (NaN, inf, 1e999 refused)."""
    text = text.strip()
    if not text or not _FLOAT_RE.fullmatch(text):
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) and low <= number <= high else None


def parse_bool(text: str) -> bool | None:
    """1/true/on/yes or 0/false/off/no (any case), else None."""
    word = text.strip().lower()
    return True if word in _TRUE else False if word in _FALSE else None


@dataclass(frozen=True)
class Fitted:
    """A number as a number box uses it (`fit_number`): `value`, what was `given`, and why
    the two differ (None: the given number is used)."""

    value: Any
    given: Any
    reason: str | None = None  # "below", "above", "odd", "not_whole" or "not_number"


def fit_number(value: Any, low: float, high: float, *, default: Any, whole: bool = True,
               even: bool = False, blank: bool = False) -> Fitted:
    """`value` (typed, or whatever a link or a modified client put in session state) as a
    number box of the closed range [low, high] uses it: a number outside the range becomes
    the nearest end, an odd one the next even one when `even` (the one before at the top
    end); what is not a number (or not whole when `whole`) becomes `default`. `blank`: an
    empty box (None) is a value of its own (the Masks page's "as long as the sentence")."""
    if value is None and blank:
        return Fitted(None, value)
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value)):
        return Fitted(default, value, "not_number")
    if whole and value != int(value):
        return Fitted(default, value, "not_whole")
    number = int(value) if whole else float(value)
    reason = None
    if number < low:
        number, reason = low, "below"
    elif number > high:
        number, reason = high, "above"
    if even and int(number) % 2:
        number = number + 1 if number + 1 <= high else number - 1
        reason = reason or "odd"
    return Fitted(int(number) if whole else float(number), value, reason)


@dataclass(frozen=True)
class Model:
    """The two numbers of the model a link describes that bound a layer and a head."""

    N: int
    h: int


# A choice's limits: fixed, or read from the model (a layer of a 2-layer model is 0 or 1).
Limits = tuple[float, float] | Callable[[Model], tuple[int, int]]


@dataclass(frozen=True)
class Choice:
    """One page's choice: its widget key, its key in a link, its default, its valid values.

    Exactly one of `values` (a choice among these), `limits` (a number in this closed
    range; whole when the default is an int) and `chars` (a free text of at most this many
    characters, checked by its page as typed text is) is set, except for toggles (bool
    default).
    """

    key: str  # session-state key, which is also the widget's key
    url: str  # short key in a link
    default: Any
    label: str  # text key naming it in a link notice
    values: tuple | Callable[[Model], tuple] | None = None
    limits: Limits | None = None
    even: bool = False  # a number input that only takes even numbers (PE d_model)
    many: bool = False  # a list of `values` (a multiselect), written comma-separated
    chars: int = 0  # a text input's max_chars (a text choice), else 0

    def allowed(self, model: Model) -> tuple:
        """The values this choice may take for `model`."""
        return self.values(model) if callable(self.values) else tuple(self.values or ())

    def bounds(self, model: Model) -> tuple[float, float]:
        """The closed range of a number for `model`."""
        return self.limits(model) if callable(self.limits) else self.limits  # type: ignore[return-value]

    def parse(self, text: str, model: Model) -> Any:
        """The value `text` (from a link) stands for, or None if it is not a valid one."""
        if isinstance(self.default, bool):
            return parse_bool(text)
        if self.chars:
            return text if len(text) <= self.chars else None
        if self.values is not None:
            allowed = self.allowed(model)
            if self.many:
                parts = [p for p in text.split(",") if p]
                if len(parts) > len(allowed) or len(set(parts)) != len(parts):
                    return None
                got = [_one_of(p, allowed) for p in parts]
                return None if any(g is None for g in got) else got
            return _one_of(text, allowed)
        low, high = self.bounds(model)
        if isinstance(self.default, float):
            return parse_float(text, low, high)
        number = parse_int(text, int(low), int(high))
        if self.even and number is not None and number % 2:
            return None
        return number

    def valid(self, value: Any, model: Model) -> bool:
        """Whether `value` (from session state) is one this choice may take for `model`."""
        if isinstance(self.default, bool):
            return isinstance(value, bool)
        if self.chars:
            return isinstance(value, str) and len(value) <= self.chars
        if isinstance(value, bool):
            return False
        if self.values is not None:
            allowed = self.allowed(model)
            if self.many:
                return isinstance(value, (list, tuple)) and all(v in allowed for v in value)
            return value in allowed
        if not isinstance(value, (int, float)) or not math.isfinite(value) or (
                isinstance(self.default, int) and value != int(value)):
            return False
        low, high = self.bounds(model)
        return low <= value <= high and not (self.even and int(value) % 2)


def _one_of(text: str, allowed: tuple) -> Any:
    """The allowed value written as `text` (numbers compared as numbers), or None."""
    for value in allowed:
        if isinstance(value, str):
            if text == value:
                return value
        elif isinstance(value, (int, float)):
            number = parse_float(text, -math.inf, math.inf) if not text.startswith("-") \
                else parse_int(text, -(2**31), 2**31)
            if number is not None and number == value:
                return value
    return None


MODEL_FREE = Model(N=1, h=1)  # for the choices whose values do not depend on the model


def layers_of(m: Model) -> tuple[int, int]:
    """The layers a model of `m.N` layers has (a link's notice names them as layers)."""
    return 0, m.N - 1


def heads_of(m: Model) -> tuple[int, int]:
    """The heads a model of `m.h` heads has (a link's notice names them as heads)."""
    return 0, m.h - 1


def shape_layers(N: int) -> tuple[str, ...]:
    """The Shapes page's layer filter for a model of N layers: "all", "layer 0", ..."""
    return ("all", *(f"layer {i}" for i in range(N)))


_TRAIN = TrainSettings()

# Every page's choices that a link carries, in page order. (The PE dimensions, whose valid
# values depend on the PE d_model of the same link, are read by urlstate on their own.)
PAGE_CHOICES: tuple[Choice, ...] = (
    # the whole app
    Choice("lang", "lang", LANGS[0], "url.label.lang", values=LANGS),
    Choice(MODEL_SOURCE_KEY, "model", SOURCES[0], "url.label.model", values=SOURCES),
    Choice("presenter", "pres", False, "url.label.presenter"),
    # Model: at sizes of your own (a walk-through's sizes by default)
    *(Choice(SIZED_KEY + name, SIZED_URL[name], default, f"sized.{name}",
             limits=SIZED_LIMITS[name]) for name, default in WALK_SIZES.items()),
    # Embeddings & positions
    Choice("pe_d_model", "ped", 20, "url.label.pe_d_model", limits=PE_D_MODEL_RANGE, even=True),
    Choice("pe_k", "k", 3, "url.label.pe_k", limits=PE_SHIFT_RANGE),
    # Masks
    Choice("mask_len_a", "la", 3, "url.label.mask_len", limits=MASK_LEN_RANGE),
    Choice("mask_len_b", "lb", 4, "url.label.mask_len", limits=MASK_LEN_RANGE),
    Choice("mask_size", "ms", None, "url.label.mask_size", limits=MASK_SIZE_RANGE),
    # Attention, and its knock-out
    Choice("attn_kind", "kind", ATTENTION_KINDS[0], "url.label.kind", values=ATTENTION_KINDS),
    Choice("attn_layer", "layer", 0, "url.label.layer", limits=layers_of),
    Choice("attn_head", "head", 0, "url.label.head", limits=heads_of),
    Choice("attn_average", "avg", False, "url.label.average"),
    Choice("ko_open", "kon", False, "url.label.ko_open"),
    Choice("ko_part", "ko", next(iter(PARTS)), "url.label.ko_part", values=tuple(PARTS)),
    Choice("ko_layer", "kol", 0, "url.label.layer", limits=layers_of),
    Choice("ko_head", "koh", 0, "url.label.head", limits=lambda m: (WHOLE, m.h - 1)),
    # Shapes
    Choice("shape_stack", "part", SHAPE_PARTS[0], "url.label.shape_part", values=SHAPE_PARTS),
    Choice("shape_layer", "sl", "all", "url.label.shape_layer",
           values=lambda m: shape_layers(m.N)),
    Choice("shape_attn", "sattn", False, "url.label.shape_attn"),
    # Train & decode: the task and the training
    Choice("tr_task", "task", TRAIN_TASKS[0], "url.label.task", values=TRAIN_TASKS),
    Choice("tr_symbols", "sym", _TRAIN.symbols, "url.label.tr_symbols", values=SYMBOL_MODES),
    Choice("tr_model", "trm", _TRAIN.model, "url.label.tr_model", values=MODEL_CHOICES),
    Choice("tr_steps", "steps", _TRAIN.steps, "url.label.tr_steps", limits=STEPS_RANGE),
    Choice("tr_batch", "batch", _TRAIN.batch_size, "url.label.tr_batch", values=BATCH_SIZES),
    Choice("tr_smoothing", "ls", _TRAIN.smoothing, "url.label.tr_smoothing",
           limits=TRAIN_SMOOTHING_RANGE),
    Choice("tr_schedule", "sched", _TRAIN.schedule, "url.label.tr_schedule", values=SCHEDULES),
    Choice("tr_lr", "lr", _TRAIN.lr, "url.label.tr_lr", values=LR_CHOICES),
    Choice("tr_warmup", "warm", _TRAIN.warmup, "url.label.tr_warmup", limits=WARMUP_RANGE),
    Choice("tr_factor", "fac", _TRAIN.factor, "url.label.tr_factor", limits=FACTOR_RANGE),
    Choice("tr_early", "early", _TRAIN.early_stop, "url.label.tr_early"),
    # Train & decode: decoding (the model, the input, the step and the attention it shows)
    Choice("tr_which", "with", None, "url.label.tr_which", values=DECODE_WITH),
    Choice("tr_digits", "dig", DEFAULT_DIGITS, "url.label.tr_input", chars=MAX_INPUT_CHARS),
    Choice("tr_date", "date", date_probe_example().text, "url.label.tr_input",
           chars=MAX_INPUT_CHARS),
    Choice("tr_step", "dstep", None, "url.label.tr_step", limits=(1, MAX_DECODE_STEPS)),
    Choice("tr_layer", "dl", None, "url.label.layer", limits=layers_of),
    Choice("tr_head", "dh", MEAN_OF_HEADS, "url.label.head",
           values=lambda m: (MEAN_OF_HEADS, *range(m.h))),
    # Train & decode: beam search, attention before and after, the film, break a part
    Choice("tr_beam", "beam", DEFAULT_BEAM, "url.label.tr_beam", limits=BEAM_RANGE),
    Choice("tr_alpha", "alpha", DEFAULT_ALPHA, "url.label.tr_alpha", limits=ALPHA_RANGE),
    Choice("tr_kind", "trk", TRAINED_ATTENTION_KINDS[0], "url.label.kind",
           values=TRAINED_ATTENTION_KINDS),
    Choice("tr_film_kind", "film", "cross", "url.label.kind", values=ATTENTION_KINDS),
    Choice("exp_breaks", "brk", [BREAK_CHOICES[0]], "url.label.exp_breaks",
           values=BREAK_CHOICES, many=True),
    Choice("exp_steps", "xsteps", DEFAULT_BUDGET, "url.label.tr_steps", limits=BUDGET_RANGE),
    Choice("exp_eps", "xls", 0.1, "url.label.tr_smoothing", limits=SMOOTHING_RANGE),
)
BY_URL: dict[str, Choice] = {c.url: c for c in PAGE_CHOICES}
BY_KEY: dict[str, Choice] = {c.key: c for c in PAGE_CHOICES}
PE_DIMS = Choice("pe_dims", "dims", (4, 5, 6, 7), "url.label.pe_dims")  # read by urlstate

# Every session key of the view: the sidebar's and every page's choices.
VIEW_KEYS: tuple[str, ...] = (*SIDEBAR_KEYS, *BY_KEY, PE_DIMS.key)


def shown_key(key: str) -> str:
    """The widget key of a choice whose default its page picks (None in the view: the
    whole answer, the last layer): the widget shows the page's pick under this key of its
    own, and only a learner's change of it is written to `key`."""
    return f"{key}_shown"


def keep(key: str) -> dict[str, Any]:
    """The arguments that make a widget of the view keep its value while it is not drawn.

    Streamlit drops a widget's value at the end of a run that does not draw it (another
    page, or the read-only copy the sidebar shows for a trained model) and, when it is drawn
    again, the browser shows the widget's own default; `persist_state="session"` keeps the
    value for the whole session instead.
    """
    if key not in VIEW_KEYS:
        raise KeyError(f"{key!r} is not declared in explorer/state/view.py")
    return {"key": key, "persist_state": "session"}


def refit(state: MutableMapping[str, Any], keys: Iterable[str], model: Model) -> bool:
    """Put each choice of `keys` that `state` holds a value for which `model` cannot take
    (a model made smaller, a link, a forged request) back to its default; True if any was."""
    refused = False
    for key in keys:
        choice = BY_KEY[key]
        value = state.get(key)
        if value is not None and not choice.valid(value, model):
            state[key] = choice.default
            refused = True
    return refused


def page_defaults() -> dict[str, Any]:
    """Every page choice at its default (a fresh list where the default is one)."""
    return {c.key: list(c.default) if isinstance(c.default, (list, tuple)) else c.default
            for c in (*PAGE_CHOICES, PE_DIMS)}


def view_values(state: Mapping[str, Any]) -> dict[str, Any]:
    """The view held in `state` (session state): every declared key that is set."""
    return {key: state[key] for key in VIEW_KEYS if key in state}
