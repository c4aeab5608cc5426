"""Interface text in English and Simplified Chinese: `t("key", **values)`, `Text(lang)`.

Every string a learner reads lives in one table per language (`explorer/text/locales/en.py`,
`explorer/text/locales/zh.py`), under the same keys; tests/test_i18n.py fails when a key or a
`{placeholder}` exists in one table but not the other. `Text(lang)` is the text of one
language, a plain value: the figures (explorer/figures/) take their language as an argument
and read their words through it, so a cached figure's key names the language it was drawn
in. The language of the current script run is held in a ContextVar (each Streamlit session
runs its script in its own thread), set once per run by app.py; `t()` and `sentences()` read
it, for the pages and the app layer.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass

from explorer.text.locales import en, zh

LANGS: tuple[str, ...] = ("en", "zh")
LANG_NAMES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"
TABLES: dict[str, dict[str, str]] = {"en": en.TEXT, "zh": zh.TEXT}

# What separates two sentences written one after the other: Chinese ends each with "。".
SENTENCE_GAP = {"en": " ", "zh": ""}


def _known(lang: object) -> str:
    """`lang` if the tables have it, else English."""
    return lang if isinstance(lang, str) and lang in TABLES else DEFAULT_LANG


@dataclass(frozen=True)
class Text:
    """The text of one language: `Text("zh")("key", **values)`; an unknown language is English."""

    lang: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", _known(self.lang))

    def __call__(self, key: str, /, **values: object) -> str:
        """The text for `key`, with `{name}` fields filled from `values` (English when this
        language's table lacks the key)."""
        text = TABLES[self.lang].get(key)
        if text is None:
            text = en.TEXT[key]  # a KeyError here is a programming error, caught by the tests
        return text.format(**values) if values else text

    def sentences(self, *parts: str) -> str:
        """Sentences run together as the language writes them: a space between English ones,
        none after a Chinese full stop. Empty parts are left out."""
        return SENTENCE_GAP.get(self.lang, " ").join(part for part in parts if part)


_TEXTS: dict[str, Text] = {lang: Text(lang) for lang in TABLES}  # t() makes none per call
_lang: ContextVar[str] = ContextVar("lang", default=DEFAULT_LANG)


def lang_of_locale(locale: object) -> str:
    """The interface language for a browser's locale ("zh-CN", "zh_Hant_TW", "en-US"): the
    table of its language, whatever the region or script (a reader of traditional
    characters reads the simplified ones), else English."""
    if not isinstance(locale, str):
        return DEFAULT_LANG
    return _known(locale.strip().replace("_", "-").split("-")[0].lower())


def set_lang(lang: object) -> str:
    """Use `lang` for this run (an unknown value falls back to English); returns the one used."""
    chosen = _known(lang)
    _lang.set(chosen)
    return chosen


def get_lang() -> str:
    """The language of the current run."""
    return _lang.get()


def t(key: str, /, **values: object) -> str:
    """The text for `key` in the current language, with `{name}` fields filled from `values`."""
    return _TEXTS[_lang.get()](key, **values)


# Markdown's special characters: escaped, a learner's or a file's text shows as typed.
MARKDOWN_SPECIALS = frozenset("\\`*_{}[]()#+-.!|<>~$")


# Where st.markdown makes a link of plain text, escapes or not (GitHub's autolinks:
# http://…, www.…, a@b.c): an invisible word joiner (U+2060) after it breaks the pattern
_AUTOLINK = re.compile(r"(?i)(https?|ftp|www|mailto)(?=[:.])|(@)")
# ... and where it draws an emoji or an icon for a shortcode (":cat:", ":material/home:") or
# colours text (":red[x]"), escapes or not: a word joiner after the colon breaks that too
# (a token "cat" shown as "1:cat:" in a list of positions became a cat's face)
_SHORTCODE = re.compile(r":(?=[\w+/-]+[:\[])")


def plain(text: str) -> str:
    """`text` as st.markdown shows it as written: every markdown special escaped and every
    autolink and emoji shortcode broken (no link, image, heading, HTML or emoji), each line
    break kept."""
    text = _AUTOLINK.sub(lambda m: m.group(0) + "\u2060", text)
    text = _SHORTCODE.sub(":\u2060", text)
    escaped = "".join("\\" + ch if ch in MARKDOWN_SPECIALS else ch for ch in text)
    return escaped.replace("\n", "  \n")


def percent(share: float) -> str:
    """A share in [0, 1] as text that says what it is: whole percents when exact (0.97 ->
    "97%"), else one decimal (0.985 -> "98.5%"), and never "100%" or "0%" for a share that
    is not all or nothing (199 of 200 -> "99.5%", not the "100%" that :.0% gives)."""
    p = 100 * share
    if abs(p - round(p)) < 1e-9:
        return f"{round(p)}%"
    return f"{min(max(p, 0.1), 99.9):.1f}%"


def sentences(*parts: str) -> str:
    """Sentences run together as the current language writes them (`Text.sentences`)."""
    return _TEXTS[_lang.get()].sentences(*parts)


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
