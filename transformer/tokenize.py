"""Deterministic, offline text -> tokens for the explorer (pure Python, stdlib only).

Two modes are offered to the learner:

- ``"word"``: whitespace separates words; punctuation, symbols and emoji are tokens of their
  own; characters of scripts written without spaces (Chinese, Japanese kana, Thai, ...) are
  one token each.
- ``"char"``: one token per user-perceived character (an approximation of Unicode grapheme
  clusters written by hand), spaces dropped.

Every problem a learner can cause is reported as a :class:`TokenizeError` whose message says
what is wrong and what to do.
"""

from __future__ import annotations

import operator
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Literal, get_args

SPECIALS: tuple[str, ...] = ("<pad>", "<s>", "</s>", "<unk>")
PAD, BOS, EOS, UNK = 0, 1, 2, 3
MAX_TEXT_CHARS = 1000
MAX_TOKENS = 64
TokenMode = Literal["word", "char"]  # split into words (and punctuation), or characters
MODES: tuple[str, ...] = get_args(TokenMode)

_ZWJ = "\u200d"


class TokenizeError(ValueError):
    """A learner-facing problem with the text: the message says what is wrong and what to do.

    The message is English. `key` names the problem with a stable code and `values` holds
    the numbers and names in it, so an interface can say the same in the learner's language
    (the explorer's text tables have one entry per code); `key` is "" when there is none.
    """

    def __init__(self, message: str, key: str = "", values: Mapping[str, object] | None = None
                 ) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = dict(values or {})


# --------------------------------------------------------------------------------------------
# Character classes (code point range tables, looked up by bisection)
# --------------------------------------------------------------------------------------------


def _table(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    pairs = sorted(ranges)
    return tuple(a for a, _ in pairs), tuple(b for _, b in pairs)


def _in(cp: int, table: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    starts, ends = table
    i = bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


# Unicode's Extended_Pictographic property (emoji-data.txt), which `unicodedata` lacks.
_PICTOGRAPHIC = _table([
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328),
    (0x2388, 0x2388), (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2),
    (0x25AA, 0x25AB), (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x2605),
    (0x2607, 0x2612), (0x2614, 0x2685), (0x2690, 0x2705), (0x2708, 0x2712), (0x2714, 0x2714),
    (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734),
    (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755),
    (0x2757, 0x2757), (0x2763, 0x2767), (0x2795, 0x2797), (0x27A1, 0x27A1), (0x27B0, 0x27B0),
    (0x27BF, 0x27BF), (0x2934, 0x2935), (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297), (0x3299, 0x3299),
    (0x1F000, 0x1F0FF), (0x1F10D, 0x1F10F), (0x1F12F, 0x1F12F), (0x1F16C, 0x1F171),
    (0x1F17E, 0x1F17F), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F1AD, 0x1F1E5),
    (0x1F201, 0x1F20F), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F), (0x1F232, 0x1F23A),
    (0x1F23C, 0x1F23F), (0x1F249, 0x1F3FA), (0x1F400, 0x1F53D), (0x1F546, 0x1F64F),
    (0x1F680, 0x1F6FF), (0x1F774, 0x1F77F), (0x1F7D5, 0x1F7FF), (0x1F80C, 0x1F80F),
    (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F), (0x1F8AE, 0x1F8FF),
    (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1FAFF), (0x1FC00, 0x1FFFD),
])

# Scripts written without spaces between words: one token per character in "word" mode.
_NO_SPACE_SCRIPTS = _table([
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x1950, 0x19DF),  # Tai Le, New Tai Lue
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x1A20, 0x1AAF),  # Tai Tham
    (0x2E80, 0x2FDF),  # CJK and Kangxi radicals
    (0x3005, 0x3007),  # ideographic iteration mark, closing mark, number zero
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3038, 0x303B),
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo extended
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA9E0, 0xA9FF),  # Myanmar extended-B
    (0xAA60, 0xAA7F),  # Myanmar extended-A
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # halfwidth Katakana
    (0x16FE0, 0x16FFF),  # ideographic symbols
    (0x1AFF0, 0x1B16F),  # Kana extended / supplement
    (0x20000, 0x2FA1F),  # CJK extensions B-F, compatibility supplement
    (0x30000, 0x323AF),  # CJK extensions G, H
])

# Invisible characters that only make sense attached to something: dropped when orphaned.
_INVISIBLE_EXTENDERS = _table([
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x180B, 0x180D), (0x180F, 0x180F),  # Mongolian free variation selectors
    (0xFE00, 0xFE0F),  # variation selectors
    (0xE0100, 0xE01EF),  # variation selectors supplement
])

# Letters that render as nothing (a classic trick for "blank" names): always dropped.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")

def _is_pictographic(ch: str) -> bool:
    return _in(ord(ch), _PICTOGRAPHIC)


def _is_regional_indicator(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _is_emoji_modifier(ch: str) -> bool:
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _is_tag(ch: str) -> bool:
    return 0xE0020 <= ord(ch) <= 0xE007F


def _is_no_space_script(ch: str) -> bool:
    return _in(ord(ch), _NO_SPACE_SCRIPTS)


def _emoji_base_before(out: list[str]) -> str | None:
    """Return the last kept character before trailing modifiers, selectors and tags, if any."""
    for ch in reversed(out):
        if ch in "\ufe0e\ufe0f" or _is_emoji_modifier(ch) or _is_tag(ch):
            continue
        return ch
    return None


# --------------------------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------------------------


def normalize(text: str) -> str:
    """NFC-normalise, drop invisible format characters, turn controls into spaces, trim."""
    # Re-pair surrogate halves that belong together; any lone surrogate becomes U+FFFD.
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch in _BLANK_LETTERS:
            continue
        cat = unicodedata.category(ch)
        if cat == "Cc":
            out.append(" ")
        elif cat == "Cf":
            # Every format character (zero-width spaces, bidi controls, soft hyphen, BOM, ...)
            # is dropped, except the pieces that build one emoji out of several.
            if ch == _ZWJ:
                base = _emoji_base_before(out)
                nxt = text[i + 1] if i + 1 < n else ""
                if base and _is_pictographic(base) and nxt and _is_pictographic(nxt):
                    out.append(ch)
            elif _is_tag(ch) and out and (_is_tag(out[-1]) or _is_pictographic(out[-1])):
                out.append(ch)
        elif _in(ord(ch), _INVISIBLE_EXTENDERS) and (not out or out[-1].isspace()):
            continue  # a variation selector with nothing to vary
        else:
            out.append(ch)
    text = unicodedata.normalize("NFC", "".join(out))
    return " ".join(text.split())


# --------------------------------------------------------------------------------------------
# Grapheme clusters (approximation of UAX #29, by hand)
# --------------------------------------------------------------------------------------------


def _extends(cluster: list[str], ch: str, ri_count: int) -> bool:
    """Whether `ch` continues the user-perceived character collected in `cluster`."""
    base = cluster[0]
    if base.isspace():
        return False
    prev = cluster[-1]
    if ch == _ZWJ or _is_tag(ch) or ch in "\u0e33\u0eb3":
        return True
    if unicodedata.category(ch).startswith("M"):  # combining marks, variation selectors
        return True
    if _is_emoji_modifier(ch):
        return _is_pictographic(base)
    if prev == _ZWJ and _is_pictographic(ch):
        return True
    if _is_regional_indicator(ch):
        return _is_regional_indicator(base) and len(cluster) == ri_count and ri_count % 2 == 1
    cp = ord(ch)
    if 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:  # Hangul vowel / final jamo
        b = ord(base)
        return 0x1100 <= b <= 0x11FF or 0xA960 <= b <= 0xA97F or 0xAC00 <= b <= 0xD7A3
    return False


def _clusters(text: str) -> list[str]:
    """Split already-normalised text into user-perceived characters (spaces included)."""
    clusters: list[str] = []
    cluster: list[str] = []
    ri_count = 0
    for ch in text:
        if cluster and _extends(cluster, ch, ri_count):
            cluster.append(ch)
        else:
            if cluster:
                clusters.append("".join(cluster))
            cluster = [ch]
            ri_count = 0
        if _is_regional_indicator(ch):
            ri_count += 1
    if cluster:
        clusters.append("".join(cluster))
    return clusters


def _is_emoji_cluster(cluster: str) -> bool:
    base = cluster[0]
    if _is_pictographic(base) or _is_regional_indicator(base):
        return True
    return base in "0123456789#*" and "\u20e3" in cluster  # keycap sequences such as 1️⃣


def _stands_alone(cluster: str) -> bool:
    """Whether a cluster is a token on its own in word mode (punctuation, symbol, emoji, CJK)."""
    if _is_emoji_cluster(cluster):
        return True
    base = cluster[0]
    return unicodedata.category(base)[0] in "PS" or _is_no_space_script(base)


def writes_without_spaces(text: str) -> bool:
    """Whether `text` has a character of a script written without spaces (Chinese, Thai, ...).

    Word mode cannot find word boundaries in such text without a dictionary, so it splits
    those characters one by one, exactly as char mode does.
    """
    return any(_is_no_space_script(ch) for ch in text)


def _word_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    word: list[str] = []
    for cluster in _clusters(text):
        if cluster.isspace() or _stands_alone(cluster):
            if word:
                tokens.append("".join(word))
                word = []
            if not cluster.isspace():
                tokens.append(cluster)
        else:
            word.append(cluster)
    if word:
        tokens.append("".join(word))
    return tokens


def _char_tokens(text: str) -> list[str]:
    return [c for c in _clusters(text) if not c.isspace()]


# --------------------------------------------------------------------------------------------
# Public entry point
# --------------------------------------------------------------------------------------------


def tokenize(text: str, mode: str = "word", max_tokens: int = MAX_TOKENS) -> list[str]:
    """Turn learner text into tokens ("word" or "char" mode), or raise TokenizeError.

    "word": split on whitespace; each punctuation mark, symbol and emoji sequence is its own
    token; each character of a script written without spaces (Chinese, Japanese kana, Thai,
    Lao, Khmer, Myanmar, ...) is its own token; other runs (Latin, Arabic, digits, ...) stay
    whole words with their combining marks. So "don't" -> ["don", "'", "t"] and
    "3.14" -> ["3", ".", "14"].

    "char": one token per user-perceived character: a base with its combining marks and
    variation selectors, an emoji with its skin tone, a ZWJ family, a two-letter flag.
    Spaces are NOT tokens in char mode (they are dropped), so "a b" -> ["a", "b"].

    The text is first passed through `normalize` (NFC, invisible characters removed).
    """
    if not isinstance(text, str):
        raise TokenizeError(
            f"Expected text (a string) but got {type(text).__name__}. Type some words instead.",
            "tokenize.not_text", {"type": type(text).__name__},
        )
    if not isinstance(mode, str) or mode not in MODES:
        valid = " or ".join(repr(m) for m in MODES)
        raise TokenizeError(f"Unknown tokenizer mode {mode!r:.40}. Choose {valid}.",
                            "tokenize.mode", {"mode": f"{mode!r:.40}", "valid": valid})
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise TokenizeError(
            f"The token limit must be a whole number of at least 1, not {max_tokens!r:.40}.",
            "tokenize.max_tokens", {"value": f"{max_tokens!r:.40}"},
        )
    if len(text) > MAX_TEXT_CHARS:
        raise TokenizeError(
            f"The text has {len(text)} characters; the limit is {MAX_TEXT_CHARS} so that every "
            "picture stays readable and the server stays fast. Shorten it.",
            "tokenize.too_many_chars", {"n": len(text), "limit": MAX_TEXT_CHARS},
        )
    clean = normalize(text)
    tokens = _word_tokens(clean) if mode == "word" else _char_tokens(clean)
    if not tokens:
        raise TokenizeError(
            "The text is empty (after removing spaces and invisible characters). "
            "Type at least one word.",
            "tokenize.empty",
        )
    if len(tokens) > max_tokens:
        raise TokenizeError(
            f"The text has {len(tokens)} tokens; the limit is {max_tokens} so that every "
            "picture stays readable and the server stays fast. Shorten it.",
            "tokenize.too_many_tokens", {"n": len(tokens), "limit": max_tokens},
        )
    return tokens


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------


def _check_tokens(tokens: object, what: str) -> None:
    if isinstance(tokens, str):
        raise TypeError(f"{what} expects a sequence of tokens, not a single string.")


class Vocab:
    """An immutable token <-> id table whose first ids are the SPECIALS."""

    __slots__ = ("_itos", "_stoi")

    def __init__(self, tokens: Sequence[str] = ()) -> None:
        """Build itos = SPECIALS + tokens in order of first appearance, without duplicates."""
        _check_tokens(tokens, "Vocab")
        itos = list(SPECIALS)
        stoi = {tok: i for i, tok in enumerate(itos)}
        for tok in tokens:
            if not isinstance(tok, str):
                raise TypeError(f"Vocab tokens must be strings, got {type(tok).__name__}.")
            if tok not in stoi:
                stoi[tok] = len(itos)
                itos.append(tok)
        self._itos: tuple[str, ...] = tuple(itos)
        self._stoi: Mapping[str, int] = MappingProxyType(stoi)

    @classmethod
    def from_text(cls, text: str, mode: str = "word") -> Vocab:
        """Build a vocabulary from the tokens of `text` (may raise TokenizeError)."""
        return cls(tokenize(text, mode))

    @property
    def itos(self) -> tuple[str, ...]:
        """Id -> token, as a tuple."""
        return self._itos

    @property
    def stoi(self) -> Mapping[str, int]:
        """Token -> id, as a read-only mapping."""
        return self._stoi

    def __len__(self) -> int:
        """Number of entries, specials included."""
        return len(self._itos)

    def __contains__(self, token: object) -> bool:
        """Whether `token` has its own id."""
        return token in self._stoi

    def __eq__(self, other: object) -> bool:
        """Two vocabularies are equal when their id -> token tables are."""
        if not isinstance(other, Vocab):
            return NotImplemented
        return self._itos == other._itos

    def __hash__(self) -> int:
        """Hash of the id -> token table."""
        return hash(self._itos)

    def __repr__(self) -> str:
        """Short description for debugging."""
        more = ", ..." if len(self) > 8 else ""
        return f"Vocab({len(self)} entries: {', '.join(self._itos[:8])}{more})"

    def encode(
        self, tokens: Sequence[str], add_bos: bool = False, add_eos: bool = False
    ) -> list[int]:
        """Map tokens to ids (unknown -> UNK), optionally framed by BOS / EOS."""
        _check_tokens(tokens, "Vocab.encode")
        ids = [self._stoi.get(tok, UNK) for tok in tokens]
        if add_bos:
            ids.insert(0, BOS)
        if add_eos:
            ids.append(EOS)
        return ids

    def decode(self, ids: Sequence[int]) -> list[str]:
        """Map ids to tokens; ids outside the table (negative included) become "<unk>"."""
        out: list[str] = []
        size = len(self._itos)
        for raw in ids:
            i = operator.index(raw)
            out.append(self._itos[i] if 0 <= i < size else SPECIALS[UNK])
        return out
