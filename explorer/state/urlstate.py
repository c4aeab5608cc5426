"""Shareable state in URL query parameters: settings -> short params -> widget values.

Pure Python: no streamlit (notices are in the language of the run, through `t()`).
`settings_to_params` writes only what differs from the defaults,
under short stable keys (a link to the default app is the bare address).
`params_to_state` reads whatever a link (or a tampered client) sent and returns the
session-state values of the widgets plus one friendly notice per refused parameter; it
never raises, and a notice names the parameter and what is valid but never repeats the
client's text. Unknown parameters are ignored.

| key | session key | key | session key |
|---|---|---|---|
| src | source | norm | norm_placement |
| tgt | target | ln | layer_norm |
| tok | token_mode | scale | scale_embedding (1/0) |
| preset | preset | tie | tie_weights |
| N | N | train | train_mode (1/0) |
| d | d_model | lang | lang |
| h | h | layer, head, kind | attn_layer, attn_head, attn_kind |
| ff | d_ff | ped, dims | pe_d_model, pe_dims ("4,5,6,7") |
| drop | dropout | task | tr_task |
| seed | seed | pres | presenter (1/0) |
| avg | attn_average (1/0) | la, lb | mask_len_a, mask_len_b |
| model | model_source | | |
| part, sl | shape_stack, shape_layer ("layer 1") | sattn | shape_attn (1/0) |

A model size that is a preset is written as `preset=small`; a custom size is written as
the numbers that differ from the default (tiny) preset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from transformer.tokenize import MAX_TEXT_CHARS

from ..core.settings import (
    CHOICES,
    DEFAULT_PRESET,
    PRESETS,
    RANGES,
    SETTING_FIELDS,
    SETTING_NAMES,
    SIZE_FIELDS,
    Settings,
    kind_of,
    preset_of,
    settings_values,
)
from ..text.i18n import t
from .view import (
    MAX_PE_DIMS,
    MODEL_SOURCE_KEY,
    PAGE_CHOICES,
    PE_DIMS,
    Choice,
    Model,
    heads_of,
    layers_of,
    parse_bool,
    parse_float,
    parse_int,
)

MAX_PARAM_CHARS = 64  # longest value accepted for a non-text parameter

# The sidebar's settings travel under the short keys declared on `Settings`' fields.
URL_KEYS: dict[str, str] = {f.name: f.metadata["url"] for f in SETTING_FIELDS}


def _label(name: str) -> str:
    """The text key of a setting's name in a notice."""
    return f"url.label.{name}"


# Page selections: URL key -> (session key, default), derived from explorer/state/view.py's
# declarations. Written only when not the default.
EXTRAS: dict[str, tuple[str, object]] = {
    c.url: (c.key, c.default) for c in (*PAGE_CHOICES, PE_DIMS)
}


# ---- Settings -> params -----------------------------------------------------------------


def _text_fits(text: object) -> bool:
    """Whether `text` can travel in a link and be read back (str, not too long, UTF-8)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates cannot be percent-encoded
        return False
    return True


def _fmt(value: object) -> str:
    """A parameter value as text: 1/0 for booleans, repr for floats, comma-joined lists."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ",".join(_fmt(v) for v in value)
    return str(value)


def _same(a: object, b: object) -> bool:
    """Equality that treats lists and tuples alike."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return a == b


def settings_to_params(
    settings: Settings, extras: Mapping[str, object] | None = None
) -> dict[str, str]:
    """Query parameters for `settings` and page selections, only where they differ from defaults.

    `extras` uses the URL keys of `EXTRAS` (lang, layer, head, kind, ped, dims, task); a
    value of None is skipped. An unknown extras key raises ValueError (a programming error).
    Texts longer than MAX_TEXT_CHARS are left out (a link could not carry them back).
    """
    base = settings_values(Settings())
    values = settings_values(settings)
    preset = preset_of(values)
    ref = PRESETS.get(preset, PRESETS[DEFAULT_PRESET])
    out: dict[str, str] = {}
    for name in SETTING_NAMES:
        if name == SIZE_FIELDS[0] and preset != DEFAULT_PRESET and preset in PRESETS:
            out["preset"] = preset  # before the size fields, which differ from it only
        default = getattr(ref, name) if name in SIZE_FIELDS else base[name]
        value = values[name]
        if value == default or (kind_of(name) is str and not _text_fits(value)):
            continue
        out[URL_KEYS[name]] = value if kind_of(name) is str else _fmt(value)
    for key, value in (extras or {}).items():
        if key not in EXTRAS:
            raise ValueError(f"Unknown page selection {key!r}: use one of {', '.join(EXTRAS)}.")
        if value is not None and not _same(value, EXTRAS[key][1]):
            out[key] = _fmt(value)
    return out


# ---- Params -> session state ------------------------------------------------------------


class _Bad:
    """Marker for a parameter whose value is not a usable string."""


_BAD = _Bad()


def _raw(params: Mapping[str, Any], key: str, cap: int) -> str | _Bad | None:
    """The last value sent for `key` (None if absent), or _BAD if it is not short text."""
    value = params.get(key)
    if isinstance(value, (list, tuple)):
        if not value:
            return None
        value = value[-1]  # as st.query_params[key]: the last of repeated values
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > cap:
        return _BAD
    return value


def _parse_dims(params: Mapping[str, Any], d_model: int) -> list[int] | _Bad | None:
    """PE dimensions from `dims=4,5,6` or repeated `dims=4&dims=5`: distinct, in range."""
    value = params.get("dims")
    if value is None:
        return None
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items:
        return None
    if not all(isinstance(v, str) for v in items) or sum(len(v) for v in items) > 200:
        return _BAD
    parts = [p for v in items for p in v.split(",")]
    dims = [parse_int(p, 0, d_model - 1) for p in parts]
    if not 1 <= len(dims) <= MAX_PE_DIMS or None in dims or len(set(dims)) != len(dims):
        return _BAD
    return [d for d in dims if d is not None]


def _fallback(value: object) -> str:
    """The notice's last sentence: what is used instead of a refused value."""
    if value is None:
        return t("url.use_page_default")
    if isinstance(value, bool):
        return t("url.use_on") if value else t("url.use_off")
    if isinstance(value, str):
        return t("url.use_value", value=f'"{value}"')
    return t("url.use_value", value=_fmt(value))


class _Reader:
    """Reads one link: collects widget values and a notice for every refused parameter."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = params
        self.notices: list[str] = []

    def refuse(self, label: str, expected: str, fallback: str) -> None:
        """Record that `label` (a text key) was refused, what is valid, and what is used."""
        self.notices.append(t("url.refused", label=t(label), expected=expected,
                              fallback=fallback))

    def read(
        self,
        key: str,
        label: str,
        expected: str,
        parse: Callable[[str], object | None],
        default: object,
        cap: int = MAX_PARAM_CHARS,
        fallback: str | None = None,
    ) -> object:
        """The parsed value of `key`, or `default` (with a notice if a value was refused)."""
        raw = _raw(self.params, key, cap)
        if raw is None:
            return default
        got = parse(raw) if isinstance(raw, str) else None
        if got is None:
            if fallback is None:
                fallback = _fallback(default)
            self.refuse(label, expected, fallback)
            return default
        return got


def _one_of(allowed: Sequence[str]) -> str:
    """What a notice says is valid for a choice among `allowed` (identifiers, untranslated)."""
    return t("url.expect_one_of", choices=", ".join(allowed))


def _choice(allowed: Sequence[str]) -> Callable[[str], str | None]:
    """A parser accepting exactly one of `allowed`."""
    return lambda text: text if text in allowed else None


def params_to_state(
    params: Mapping[str, str | list[str]],
) -> tuple[dict[str, object], list[str]]:
    """Widget values (session-state keys) described by a link, and notices for refused values.

    The sidebar's keys are always all present (defaults where the link says nothing); `lang`
    and the page selections only when the link sets them to a valid value. Never raises.
    """
    if not isinstance(params, Mapping):
        params = {}
    r = _Reader(params)
    base = settings_values(Settings())
    names = (*PRESETS, "custom")
    preset = r.read("preset", "url.label.preset", _one_of(names), _choice(names),
                    DEFAULT_PRESET)
    ref = PRESETS.get(str(preset), PRESETS[DEFAULT_PRESET])
    state: dict[str, object] = {}
    for name in SETTING_NAMES:
        default = getattr(ref, name) if name in SIZE_FIELDS else base[name]
        state[name] = _read_setting(r, name, default)
    state["preset"] = preset_of(state)

    _read_extras(r, state)
    return state, r.notices


def _read_setting(r: _Reader, name: str, default: object) -> object:
    """The value a link gives the sidebar setting `name`, or `default` (with a notice)."""
    key, label, kind = URL_KEYS[name], _label(name), kind_of(name)
    if kind is str:
        return r.read(key, label, t("url.expect_text", n=MAX_TEXT_CHARS), lambda text: text,
                      default, cap=MAX_TEXT_CHARS,
                      fallback=t("url.use_default_text", label=t(label)))
    if kind is bool:
        return r.read(key, label, t("url.expect_bool"), parse_bool, default)
    if kind is int:
        low, high = RANGES[name]
        return r.read(key, label, t("url.expect_int", low=low, high=high),
                      lambda text: parse_int(text, int(low), int(high)), default)
    if kind is float:
        low, high = RANGES[name]
        return r.read(key, label, t("url.expect_number", low=f"{low:g}", high=f"{high:g}"),
                      lambda text: parse_float(text, low, high), default)
    allowed = CHOICES[name]
    return r.read(key, label, _one_of(allowed), _choice(allowed), default)


def _read_extras(r: _Reader, state: dict[str, object]) -> None:
    """Add the valid page selections of the link to `state` (layer/head within N and h)."""
    for choice in PAGE_CHOICES:  # "model" comes before the layers and heads it bounds
        if state.get(MODEL_SOURCE_KEY) in (None, "untrained"):  # the sidebar's own model
            model = Model(N=int(state["N"]), h=int(state["h"]))  # type: ignore[call-overload]
        else:  # a trained or imported model has its own N and h: the pages check those
            model = Model(N=int(RANGES["N"][1]), h=int(RANGES["h"][1]))
        # a list of choices is longer; a text is as long as its input allows
        cap = choice.chars or (200 if choice.many else MAX_PARAM_CHARS)
        got = r.read(choice.url, choice.label, _expected(choice, model),
                     lambda text, c=choice, m=model: c.parse(text, m), None, cap=cap)
        if got is not None:
            state[choice.key] = got
    pe_d_model = state.get("pe_d_model", EXTRAS["ped"][1])
    pe_d_model = pe_d_model if isinstance(pe_d_model, int) else 20
    dims = _parse_dims(r.params, pe_d_model)
    if isinstance(dims, list):
        state["pe_dims"] = dims
    elif dims is not None:
        r.refuse("url.label.pe_dims", t("url.expect_dims", n=MAX_PE_DIMS, last=pe_d_model - 1),
                 t("url.use_page_default"))


def _expected(choice: Choice, model: Model) -> str:
    """What a notice says is valid for `choice`."""
    if isinstance(choice.default, bool):
        return t("url.expect_bool")
    if choice.chars:
        return t("url.expect_text", n=choice.chars)
    if choice.values is not None:
        return _one_of([_fmt(v) for v in choice.allowed(model)])
    low, high = choice.bounds(model)
    if choice.limits is layers_of:
        return t("url.expect_layer", last=model.N - 1, N=model.N)
    if choice.limits is heads_of:
        return t("url.expect_head", last=model.h - 1, h=model.h)
    if choice.even:
        return t("url.expect_even", low=low, high=high)
    if isinstance(choice.default, float):
        return t("url.expect_number", low=f"{low:g}", high=f"{high:g}")
    return t("url.expect_int", low=low, high=high)
