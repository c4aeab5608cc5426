"""The learner's choices, validated in Python (a modified client can send any value).

Pure Python: no streamlit. `parse_settings(raw)` turns whatever the widgets (or a tampered
client) sent into a `Settings` plus a list of friendly messages (in the language of the
run, through `t()`); it never raises.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import Field, asdict, dataclass, field, fields, replace
from typing import Any, Literal, get_args, get_origin, get_type_hints

from transformer.config import LayerNormKind, NormPlacement, TieWeights, TransformerConfig
from transformer.tokenize import TokenMode

from ..text.i18n import learner_message, t

MAX_PARAMS = 120_000_000  # building: the paper base model (~44M with a small vocab) fits
# Training: a larger model would not learn within TIME_LIMIT on a shared server (the small
# preset, 0.93M parameters, already takes a median of 81 s to learn copy with the fast
# recipe, and one seed in three did not within the limit: bench/time_to_learn.py)
MAX_TRAIN_PARAMS = 3_000_000
TIME_LIMIT = 120.0  # seconds: one learner's run must not hold a shared core for longer
MAX_DROPOUT = 0.9

DEFAULT_SOURCE = "the cat sat on the mat"


@dataclass(frozen=True)
class Preset:
    """A named model size: the fields of `Settings` that the preset selector sets."""

    N: int
    d_model: int
    h: int
    d_ff: int
    dropout: float


PRESETS: dict[str, Preset] = {
    "tiny": Preset(N=2, d_model=32, h=4, d_ff=64, dropout=0.0),
    "small": Preset(N=2, d_model=128, h=8, d_ff=512, dropout=0.1),
    "paper base": Preset(N=6, d_model=512, h=8, d_ff=2048, dropout=0.1),
}
DEFAULT_PRESET = "tiny"

# Which model the pages look at (explorer/app/sources.py): the sidebar's untrained model, the
# date translator that ships with the app, this session's trained model, or an import.
ModelSource = Literal["untrained", "dates", "yours", "imported"]
SOURCES: tuple[str, ...] = get_args(ModelSource)
SIZE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Preset))
_TINY = PRESETS[DEFAULT_PRESET]


def _setting(default: Any, url: str, limits: tuple[float, float] | None = None) -> Any:
    """A sidebar setting: its default, its short key in a link, and (numbers) its range."""
    return field(default=default, metadata={"url": url, "limits": limits})


@dataclass(frozen=True)
class Settings:
    """Everything the shared sidebar controls, after validation.

    Each field is declared here once: its type gives the allowed values (the `Literal`
    types of `TransformerConfig`), its metadata the link key and the range; the sidebar's
    widget keys, the link and the validation below are derived from these fields.
    """

    source: str = _setting(DEFAULT_SOURCE, "src")
    target: str = _setting("", "tgt")  # empty: the target is the source itself (copy task)
    token_mode: TokenMode = _setting("word", "tok")
    N: int = _setting(_TINY.N, "N", (1, 12))
    d_model: int = _setting(_TINY.d_model, "d", (2, 1024))
    h: int = _setting(_TINY.h, "h", (1, 32))
    d_ff: int = _setting(_TINY.d_ff, "ff", (1, 8192))
    dropout: float = _setting(_TINY.dropout, "drop", (0.0, MAX_DROPOUT))
    seed: int = _setting(0, "seed", (0, 2**31 - 1))
    norm_placement: NormPlacement = _setting("pre", "norm")
    layer_norm: LayerNormKind = _setting("annotated", "ln")
    scale_embedding: bool = _setting(True, "scale")
    tie_weights: TieWeights = _setting("none", "tie")
    train_mode: bool = _setting(False, "train")  # dropout active in the forward pass
    errors: tuple[str, ...] = field(default=(), compare=False)  # what was wrong and refused

    def model_config(self, vocab_size: int) -> TransformerConfig:
        """The model config for a shared source/target vocabulary of `vocab_size` tokens."""
        shared = {f.name: getattr(self, f.name) for f in fields(TransformerConfig)
                  if f.name in SETTING_NAMES}
        return TransformerConfig(src_vocab=vocab_size, tgt_vocab=vocab_size, **shared)


SETTING_FIELDS: tuple[Field, ...] = tuple(f for f in fields(Settings) if f.metadata)
SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in SETTING_FIELDS)
_HINTS = get_type_hints(Settings)
# The allowed values of every choice: the arguments of its Literal type.
CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(_HINTS[name]) for name in SETTING_NAMES if get_origin(_HINTS[name]) is Literal
}
RANGES: dict[str, tuple[float, float]] = {
    f.name: f.metadata["limits"] for f in SETTING_FIELDS if f.metadata["limits"]
}
LIMITS: dict[str, tuple[int, int]] = {  # the whole-number settings' ranges
    name: limits for name, limits in RANGES.items() if _HINTS[name] is int  # type: ignore[misc]
}


def kind_of(name: str) -> type:
    """How a setting is read and validated: str, int, float, bool, or Literal (a choice)."""
    hint = _HINTS[name]
    return Literal if name in CHOICES else hint  # type: ignore[return-value]


def preset_of(values: Settings | Mapping[str, Any]) -> str:
    """The name of the preset whose size `values` (settings or widget values) has, or "custom".

    The one place that answers "which preset is this?": the sidebar, the link and the
    download names all ask it.
    """
    if isinstance(values, Mapping):
        size = tuple(values.get(k) for k in SIZE_FIELDS)
    else:
        size = tuple(getattr(values, k) for k in SIZE_FIELDS)
    for name, preset in PRESETS.items():
        if size == tuple(getattr(preset, k) for k in SIZE_FIELDS):
            return name
    return "custom"


def estimate_params(
    N: int, d_model: int, d_ff: int, vocab: int, tie: str = "none", norm_placement: str = "pre"
) -> int:
    """Parameter count of make_model's architecture, without building it."""
    attn = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    norm = 2 * d_model
    final = norm if norm_placement == "pre" else 0  # post-norm stacks have no final LayerNorm
    enc = N * (attn + ffn + 2 * norm) + final
    dec = N * (2 * attn + ffn + 3 * norm) + final
    tables = {"none": 3, "decoder": 2, "all": 1}.get(tie, 3)
    return enc + dec + tables * vocab * d_model + vocab  # + the generator's bias


def _describe(value: Any) -> str:
    """A safe description of a refused value: numbers as numbers, anything else by type.

    Raw text from a client is never echoed (messages are shown as Markdown).
    """
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, float)):
        return f"{value:.6g}" if isinstance(value, float) else str(value)[:24]
    return t("settings.value_of_type", type=type(value).__name__)


def _as_int(name: str, value: Any, errors: list[str]) -> int | None:
    low, high = LIMITS[name]
    if isinstance(value, bool):
        value = None
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number) or number != int(number):
        errors.append(t("settings.int_whole", name=name, low=low, high=high,
                        value=_describe(value)))
        return None
    number_i = int(number)
    if not low <= number_i <= high:
        errors.append(t("settings.int_range", name=name, low=low, high=high, value=number_i))
        return None
    return number_i


def _as_fraction(name: str, value: Any, errors: list[str]) -> float | None:
    """A finite number within the setting's limits (dropout), else None and a message."""
    low, high = RANGES[name]
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        number = math.nan
    if math.isfinite(number) and low <= number <= high:
        return number
    errors.append(t(f"settings.{name}", high=high, value=_describe(value)))
    return None


def _as_choice(name: str, value: Any, allowed: tuple[str, ...], errors: list[str]) -> str | None:
    if value in allowed:
        return str(value)
    errors.append(t("settings.choice", name=name, allowed=", ".join(allowed),
                    value=_describe(value)))
    return None


def _as_bool(name: str, value: Any, errors: list[str]) -> bool | None:
    if isinstance(value, bool):
        return value
    errors.append(t("settings.bool", name=name, value=_describe(value)))
    return None


def parse_settings(raw: Mapping[str, Any]) -> Settings:
    """Validate raw widget values; bad fields fall back to defaults and add a message."""
    errors: list[str] = []
    base = Settings()
    values: dict[str, Any] = {}
    for name in SETTING_NAMES:
        value = raw.get(name, getattr(base, name))
        kind = kind_of(name)
        if kind is str:
            got: Any = value if isinstance(value, str) else None
            if got is None:
                errors.append(t(f"settings.not_text_{name}", type=type(value).__name__))
        elif kind is int:
            got = _as_int(name, value, errors)
        elif kind is float:
            got = _as_fraction(name, value, errors)
        elif kind is bool:
            got = _as_bool(name, value, errors)
        else:
            got = _as_choice(name, value, CHOICES[name], errors)
        if got is not None:
            values[name] = got
    return replace(base, **values, errors=tuple(errors))


def settings_values(s: Settings) -> dict[str, Any]:
    """The settings as widget values (session-state key -> value), errors left out."""
    return {name: value for name, value in asdict(s).items() if name in SETTING_NAMES}


def settings_params(s: Settings, vocab_size: int) -> int:
    """Parameter count of the model these settings describe."""
    return estimate_params(s.N, s.d_model, s.d_ff, vocab_size, s.tie_weights, s.norm_placement)


def architecture_problem(s: Settings, vocab_size: int) -> str | None:
    """Why no model can be built from `s` (a friendly sentence), or None if it can."""
    try:
        s.model_config(vocab_size)
    except ValueError as exc:  # the model's own refusal (a ConfigError has a text key)
        return learner_message(exc)
    params = settings_params(s, vocab_size)
    if params > MAX_PARAMS:
        return t("settings.too_many_params", params=f"{params / 1e6:.0f}",
                 limit=f"{MAX_PARAMS / 1e6:.0f}")
    return None


def training_problem(s: Settings, vocab_size: int) -> str | None:
    """Why this model is too large to train live, or None."""
    params = settings_params(s, vocab_size)
    if params > MAX_TRAIN_PARAMS:
        return t("settings.too_big_to_train", limit=f"{MAX_TRAIN_PARAMS / 1e6:.0f}",
                 params=f"{params / 1e6:.1f}", seconds=f"{TIME_LIMIT:.0f}")
    return None
