"""The learner's choices, validated in Python (a modified client can send any value).

Pure Python: no streamlit. `parse_settings(raw)` turns whatever the widgets (or a tampered
client) sent into a `Settings` plus a list of friendly messages (in the language of the
run, through `t()`); it never raises.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from transformer.model import TransformerConfig

from .i18n import t

# ---- Limits, each with the reason shown to the learner -------------------------------
LIMITS: dict[str, tuple[int, int]] = {
    "N": (1, 12),
    "d_model": (2, 1024),
    "h": (1, 32),
    "d_ff": (1, 8192),
    "seed": (0, 2**31 - 1),
}
MAX_PARAMS = 120_000_000  # building: the paper base model (~44M with a small vocab) fits
MAX_TRAIN_PARAMS = 3_000_000  # training must finish in seconds on 2 shared CPU cores
MAX_DROPOUT = 0.9

TOKEN_MODES = ("word", "char")
NORM_PLACEMENTS = ("pre", "post")
LAYER_NORMS = ("annotated", "standard")
TIE_WEIGHTS = ("none", "decoder", "all")

DEFAULT_SOURCE = "the cat sat on the mat"


@dataclass(frozen=True)
class Preset:
    """A named model size."""

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


@dataclass(frozen=True)
class Settings:
    """Everything the shared sidebar controls, after validation."""

    source: str = DEFAULT_SOURCE
    target: str = ""  # empty: the target is the source itself (the copy task)
    token_mode: str = "word"
    N: int = PRESETS[DEFAULT_PRESET].N
    d_model: int = PRESETS[DEFAULT_PRESET].d_model
    h: int = PRESETS[DEFAULT_PRESET].h
    d_ff: int = PRESETS[DEFAULT_PRESET].d_ff
    dropout: float = PRESETS[DEFAULT_PRESET].dropout
    seed: int = 0
    norm_placement: str = "pre"
    layer_norm: str = "annotated"
    scale_embedding: bool = True
    tie_weights: str = "none"
    train_mode: bool = False  # dropout active in the forward pass
    errors: tuple[str, ...] = field(default=(), compare=False)  # what was wrong and refused

    def model_config(self, vocab_size: int) -> TransformerConfig:
        """The model config for a shared source/target vocabulary of `vocab_size` tokens."""
        return TransformerConfig(
            src_vocab=vocab_size,
            tgt_vocab=vocab_size,
            N=self.N,
            d_model=self.d_model,
            d_ff=self.d_ff,
            h=self.h,
            dropout=self.dropout,
            norm_placement=self.norm_placement,  # type: ignore[arg-type]
            layer_norm=self.layer_norm,  # type: ignore[arg-type]
            scale_embedding=self.scale_embedding,
            tie_weights=self.tie_weights,  # type: ignore[arg-type]
        )


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


def parse_settings(raw: dict[str, Any]) -> Settings:
    """Validate raw widget values; bad fields fall back to defaults and add a message."""
    errors: list[str] = []
    base = Settings()
    values: dict[str, Any] = {}
    for name in ("source", "target"):
        value = raw.get(name, getattr(base, name))
        if not isinstance(value, str):
            errors.append(t(f"settings.not_text_{name}", type=type(value).__name__))
            value = getattr(base, name)
        values[name] = value
    for name in ("N", "d_model", "h", "d_ff", "seed"):
        got = _as_int(name, raw.get(name, getattr(base, name)), errors)
        if got is not None:
            values[name] = got
    dropout = raw.get("dropout", base.dropout)
    try:
        dropout_f = float(dropout) if not isinstance(dropout, bool) else math.nan
    except (TypeError, ValueError):
        dropout_f = math.nan
    if math.isfinite(dropout_f) and 0.0 <= dropout_f <= MAX_DROPOUT:
        values["dropout"] = dropout_f
    else:
        errors.append(t("settings.dropout", high=MAX_DROPOUT, value=_describe(dropout)))
    for name, allowed in (
        ("token_mode", TOKEN_MODES),
        ("norm_placement", NORM_PLACEMENTS),
        ("layer_norm", LAYER_NORMS),
        ("tie_weights", TIE_WEIGHTS),
    ):
        got_c = _as_choice(name, raw.get(name, getattr(base, name)), allowed, errors)
        if got_c is not None:
            values[name] = got_c
    for name in ("scale_embedding", "train_mode"):
        got_b = _as_bool(name, raw.get(name, getattr(base, name)), errors)
        if got_b is not None:
            values[name] = got_b
    return replace(base, **values, errors=tuple(errors))


def settings_params(s: Settings, vocab_size: int) -> int:
    """Parameter count of the model these settings describe."""
    return estimate_params(s.N, s.d_model, s.d_ff, vocab_size, s.tie_weights, s.norm_placement)


def architecture_problem(s: Settings, vocab_size: int) -> str | None:
    """Why no model can be built from `s` (a friendly sentence), or None if it can."""
    try:
        s.model_config(vocab_size)
    except ValueError as exc:
        return str(exc)
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
                 params=f"{params / 1e6:.1f}")
    return None
