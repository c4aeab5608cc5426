"""Interface text in English and Simplified Chinese: `t("key", **values)`.

Every string a learner reads lives in one table per language (`explorer/text/locales/en.py`,
`explorer/text/locales/zh.py`), under the same keys; tests/test_i18n.py fails when a key or a
`{placeholder}` exists in one table but not the other. The language of the current script
run is held in a ContextVar (each Streamlit session runs its script in its own thread), set
once per run by app.py; pure code (figures) reads it through `t()` like the pages do.
"""

from __future__ import annotations

from contextvars import ContextVar

from explorer.text.locales import en, zh

LANGS: tuple[str, ...] = ("en", "zh")
LANG_NAMES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"
TABLES: dict[str, dict[str, str]] = {"en": en.TEXT, "zh": zh.TEXT}

_lang: ContextVar[str] = ContextVar("lang", default=DEFAULT_LANG)


def set_lang(lang: object) -> str:
    """Use `lang` for this run (an unknown value falls back to English); returns the one used."""
    chosen = lang if isinstance(lang, str) and lang in TABLES else DEFAULT_LANG
    _lang.set(chosen)
    return chosen


def get_lang() -> str:
    """The language of the current run."""
    return _lang.get()


def t(key: str, /, **values: object) -> str:
    """The text for `key` in the current language, with `{name}` fields filled from `values`."""
    text = TABLES[_lang.get()].get(key)
    if text is None:
        text = en.TEXT[key]  # a KeyError here is a programming error, caught by the tests
    return text.format(**values) if values else text


def percent(share: float) -> str:
    """A share in [0, 1] as text that says what it is: whole percents when exact (0.97 ->
    "97%"), else one decimal (0.985 -> "98.5%"), and never "100%" or "0%" for a share that
    is not all or nothing (199 of 200 -> "99.5%", not the "100%" that :.0% gives)."""
    p = 100 * share
    if abs(p - round(p)) < 1e-9:
        return f"{round(p)}%"
    return f"{min(max(p, 0.1), 99.9):.1f}%"


# What separates two sentences written one after the other: Chinese ends each with "。".
SENTENCE_GAP = {"en": " ", "zh": ""}


def sentences(*parts: str) -> str:
    """Sentences run together as the language writes them: a space between English ones,
    none after a Chinese full stop. Empty parts are left out."""
    return SENTENCE_GAP.get(get_lang(), " ").join(part for part in parts if part)


def fixed(value: float, digits: int = 3) -> str:
    """`value` with `digits` decimals, never a negative zero: a loss of -1.9e-8 (float
    rounding around an exact 0) is "0.000", not "-0.000"."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def learner_message(exc: Exception) -> str:
    """An error raised in transformer/ (tokenizer, model config), in the learner's language.

    Those errors carry a stable code (`key`, a key of the text tables) and the `values` to
    fill in; the English table says what their English message says. Anything else, or a
    code the tables lack, is shown as it is.
    """
    key, values = getattr(exc, "key", None), getattr(exc, "values", None)
    if isinstance(key, str) and key in TABLES["en"] and isinstance(values, dict):
        try:
            return t(key, **values)
        except (KeyError, IndexError, ValueError):  # values that do not fit the text
            pass
    return str(exc)
