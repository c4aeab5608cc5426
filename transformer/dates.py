"""A date translator: a date written in many languages and styles -> ISO 8601 (YYYY-MM-DD).

`Montag, 23. November 2026` -> `2026-11-23`, `2026年11月23日星期一` -> `2026-11-23`,
`23 novembre 2026`, `Nov 23, 2026`, `2026년 11월 23일 월요일`, ... A task whose attention is
worth looking at: each output digit has one place in the source it must come from (the
year's digits, the day's digits, the month's number or name), so the decoder's
cross-attention draws the classic alignment picture.

Data. Every source string is rendered by Babel (pinned in requirements.txt) from the Unicode
CLDR date patterns and month and weekday names, never from tables written here:

- locales (`LOCALES`): English (en_US, en_GB), Chinese (zh_Hans, zh_Hant), German, French,
  Spanish, Japanese, Korean;
- styles (`STYLES`): CLDR's "full", "long" and "medium" date formats, and "abbr", the
  CLDR skeleton yMMMEd (abbreviated weekday and month: `Mon, Nov 23, 2026`);
- a lower-case variant of every (locale, style) whose text has capitals
  (`montag, 23. november 2026`); French and the CJK locales have none;
- years 1900 to 2099, every day of them.

Left out, because no model could resolve them from the text alone:
- two-digit years (CLDR's "short" style in en_US `M/d/yy`, de `dd.MM.yy`, es `d/M/yy`,
  ko `yy. M. d.`): `23.11.26` could be 1926 or 2026;
- numeric day/month orders that differ between locales: the other "short" patterns
  (en_GB and fr `dd/MM/y`, zh `y/M/d`) next to en_US `M/d/y` make `03/04/2026` either
  March 4 or April 3. Numeric formats whose order no locale here contradicts are kept:
  de `dd.MM.y`, ja `y/MM/dd` and ko `y. M. d.` (the "medium" styles), since with a
  four-digit year first (or dots) the order is never in doubt within this set.
So the whole "short" style is out, as are eras, other calendars, times and years outside
1900-2099.

Tokens. The source is its characters, whitespace dropped (exactly what the app's "char"
tokenizer gives for these strings), then </s>; the target is `<s> Y Y Y Y - M M - D D </s>`.
One vocabulary serves both sides (`DateTask.vocab`): the specials, then every character the
renderings use, in code-point order.

Split. A day is held out when a hash of its ISO date says so (`HELD_OUT_SHARE`, about 5%
of the days): held-out days never appear in training, in any locale or style.
`held_out_examples(n)` spreads n held-out dates evenly over every (locale, style, case).

Cells. A model is judged by its worst cell, never by one average: `cell_examples` draws
dates for every variant on every calendar day, and `cells_of` counts exact matches per
variant x day of the month and per variant x month (`CELL_TARGET` for each).

Reading. `read_date` tells from a typed text alone whether it is a date as the task writes
them (each variant's pattern used as a parser), so a wrong answer to such a text is the
model's mistake, and the right answer is known.

Spans. Each `DateExample` records where the year, month and day fields (and the weekday,
when present) sit, both in the text and in the source token positions, so that
`alignment()` can measure the share of output digits whose cross-attention argmax falls
inside the field they come from.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Literal, get_args

import torch

from .film import Probe, field_probe
from .hook_paths import attention_hook
from .hooks import capture
from .model import EncoderDecoder
from .tokenize import BOS, EOS, PAD, Vocab, tokenize
from .train import Batch, greedy_decode

LOCALES: tuple[str, ...] = ("en_US", "en_GB", "zh_Hans", "zh_Hant", "de", "fr", "es", "ja", "ko")
# the languages of those locales (English and Chinese each come in two)
LANGUAGES: tuple[str, ...] = tuple(dict.fromkeys(code.split("_")[0] for code in LOCALES))
Style = Literal["full", "long", "medium", "abbr"]
STYLES: tuple[str, ...] = get_args(Style)
# Where each style's pattern comes from in CLDR: a standard date format, or a skeleton.
_PATTERN_SOURCE: dict[str, tuple[str, str]] = {
    "full": ("format", "full"),
    "long": ("format", "long"),
    "medium": ("format", "medium"),
    "abbr": ("skeleton", "yMMMEd"),
}
FIRST_YEAR, LAST_YEAR = 1900, 2099
HELD_OUT_SHARE = 20  # one day in 20 (by hash) is held out
Field = Literal["year", "month", "day"]
FIELDS: tuple[str, ...] = get_args(Field)
# Target characters of "YYYY-MM-DD" that each field's digits occupy.
FIELD_DIGITS: dict[str, tuple[int, ...]] = {"year": (0, 1, 2, 3), "month": (5, 6),
                                            "day": (8, 9)}
ISO_LEN = 10  # characters of YYYY-MM-DD
TGT_LEN = ISO_LEN + 2  # with <s> and </s>
# CLDR pattern letters and the field each renders.
_FIELD_OF_LETTER = {"y": "year", "M": "month", "L": "month", "d": "day", "E": "weekday",
                    "c": "weekday"}
Split = Literal["train", "held_out"]


@dataclass(frozen=True)
class Variant:
    """How a date is written: a locale, a style, and whether it is lower-cased."""

    locale: str
    style: str
    lower: bool = False

    @property
    def name(self) -> str:
        """E.g. "de/full" or "de/full-lower"."""
        return f"{self.locale}/{self.style}{'-lower' if self.lower else ''}"


@dataclass(frozen=True)
class DateExample:
    """One source date with its ISO target and where each field sits in the source.

    `spans[field]` = (start, end), end exclusive, in source token positions (the encoder's
    positions: `tokens[start:end]` is the field, whitespace dropped); `text_spans[field]`
    is the same field in `text`. Fields: "year", "month", "day", and "weekday" if written.
    """

    date: dt.date
    variant: Variant
    text: str
    tokens: tuple[str, ...]
    spans: Mapping[str, tuple[int, int]]
    text_spans: Mapping[str, tuple[int, int]]

    @property
    def iso(self) -> str:
        """The target: YYYY-MM-DD."""
        return self.date.isoformat()

    @property
    def locale(self) -> str:
        return self.variant.locale

    @property
    def style(self) -> str:
        return self.variant.style

    @property
    def month_is_word(self) -> bool:
        """Whether the month is written as a word ("November", "nov."), not a number."""
        start, end = self.text_spans["month"]
        return not any(ch.isdigit() for ch in self.text[start:end])


# ---------------------------------------------------------------------------------------
# Rendering with Babel
# ---------------------------------------------------------------------------------------


@cache
def _locale(name: str):  # -> babel.Locale
    from babel import Locale  # a data library; imported on first use only

    return Locale.parse(name)


def locale_name(locale: str, language: str) -> str:
    """A locale's name written in `language`, from CLDR: ("de", "zh") -> "德语"."""
    return _locale(locale).get_display_name(language) or locale


@cache
def pattern(locale: str, style: str) -> str:
    """The CLDR pattern of a (locale, style), e.g. ("de", "full") -> "EEEE, d. MMMM y"."""
    kind, key = _PATTERN_SOURCE[style]
    loc = _locale(locale)
    if kind == "format":
        return loc.date_formats[key].pattern
    return loc.datetime_skeletons[key].pattern


@cache
def _pieces(locale: str, style: str) -> tuple[tuple[str, str], ...]:
    """The pattern as ("chars", text) and ("field", letters) pieces, checked."""
    from babel.dates import tokenize_pattern

    pieces: list[tuple[str, str]] = []
    for kind, value in tokenize_pattern(pattern(locale, style)):
        if kind == "chars":
            pieces.append(("chars", value))
            continue
        letter, count = value
        if letter not in _FIELD_OF_LETTER:
            raise ValueError(f"{locale}/{style}: unexpected pattern field {letter * count!r}.")
        if letter == "y" and count == 2:
            raise ValueError(f"{locale}/{style}: two-digit years are left out.")
        pieces.append(("field", letter * count))
    return tuple(pieces)


# A reference Monday: the weekday fields are rendered from MONDAY + weekday().
_MONDAY = dt.date(2024, 1, 1)


@cache
def _field_text(locale: str, letters: str, value: int) -> str:
    """One field of a pattern as Babel writes it, cached by the only part of the date it
    depends on (`value`: the year, month, day or weekday): rendering is then a join of
    cached strings, fast enough to draw fresh training batches at every step."""
    from babel.dates import DateTimeFormat

    field = _FIELD_OF_LETTER[letters[0]]
    date = {
        "year": lambda: dt.date(value, 1, 1),
        "month": lambda: dt.date(2000, value, 1),
        "day": lambda: dt.date(2000, 1, value),
        "weekday": lambda: _MONDAY + dt.timedelta(days=value),
    }[field]()
    return DateTimeFormat(date, _locale(locale))[letters]


def _field_value(date: dt.date, letters: str) -> int:
    """The part of `date` a field with these pattern letters shows."""
    field = _FIELD_OF_LETTER[letters[0]]
    if field == "weekday":
        return date.weekday()
    return getattr(date, field)


def _cased(piece: str, lower: bool) -> str:
    """A piece of a rendering in the variant's case: lower-cased only where that keeps its
    length (so that spans stay put)."""
    if not lower:
        return piece
    lowered = piece.lower()
    return lowered if len(lowered) == len(piece) else piece


def _chars(piece: str) -> list[str]:
    """A piece's source tokens: its characters, whitespace dropped (the char tokenizer)."""
    return [ch for ch in piece if not ch.isspace()]


def render(date: dt.date, variant: Variant) -> DateExample:
    """Write `date` as `variant` says, with the spans of its fields."""
    text: list[str] = []
    tokens: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    text_spans: dict[str, tuple[int, int]] = {}
    n_text = 0
    for kind, value in _pieces(variant.locale, variant.style):
        piece = _cased(_field_text(variant.locale, value, _field_value(date, value))
                       if kind == "field" else value, variant.lower)
        chars = _chars(piece)
        if kind == "field":
            name = _FIELD_OF_LETTER[value[0]]
            spans[name] = (len(tokens), len(tokens) + len(chars))
            text_spans[name] = (n_text, n_text + len(piece))
        text.append(piece)
        tokens.extend(chars)
        n_text += len(piece)
    return DateExample(date, variant, "".join(text), tuple(tokens),
                       MappingProxyType(spans), MappingProxyType(text_spans))


# ---------------------------------------------------------------------------------------
# Variants, vocabulary, split (computed once, on first use)
# ---------------------------------------------------------------------------------------


def _covering_dates() -> list[dt.date]:
    """Dates that show every month and every weekday, with two-digit days (longest texts)."""
    return [dt.date(2026, m, d) for m in range(1, 13) for d in range(22, 29)]


@cache
def variants() -> tuple[Variant, ...]:
    """Every (locale, style, case): the lower-case variant only where it changes the text."""
    out: list[Variant] = []
    for locale in LOCALES:
        for style in STYLES:
            out.append(Variant(locale, style))
            lower = Variant(locale, style, lower=True)
            if any(render(d, lower).text != render(d, out[-1]).text for d in _covering_dates()):
                out.append(lower)
    return tuple(out)


@cache
def _vocab_and_max_len() -> tuple[Vocab, int, int]:
    """(vocabulary, longest source, shortest source), over dates that cover every field text."""
    chars: set[str] = set("0123456789-")
    longest, shortest = 0, 10**9
    for variant in variants():
        for d in _covering_dates():
            toks = render(d, variant).tokens
            chars.update(toks)
            longest = max(longest, len(toks))
            shortest = min(shortest, len(toks))
    return Vocab(sorted(chars)), longest, shortest


def vocab() -> Vocab:
    """The shared source/target vocabulary: specials, then every character, by code point."""
    return _vocab_and_max_len()[0]


def max_source_tokens() -> int:
    """The longest source any date renders to (tokens, without </s>)."""
    return _vocab_and_max_len()[1]


def is_held_out(date: dt.date) -> bool:
    """Whether a day is kept out of training (in every locale and style)."""
    digest = hashlib.blake2b(date.isoformat().encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % HELD_OUT_SHARE == 0


@cache
def _days(split: str) -> torch.Tensor:
    """Ordinals of the days of one split, ascending: (n_days,) int64."""
    first = dt.date(FIRST_YEAR, 1, 1).toordinal()
    last = dt.date(LAST_YEAR, 12, 31).toordinal()
    held = split == "held_out"
    days = [o for o in range(first, last + 1) if is_held_out(dt.date.fromordinal(o)) == held]
    return torch.tensor(days, dtype=torch.long)


# ---------------------------------------------------------------------------------------
# The task
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DateTask:
    """Dates in many languages and styles -> ISO 8601; the `Task` protocol of tasks.py.

    `sample(batch, generator)` draws days of `split` uniformly, a locale uniformly, a style
    uniformly and, where the variant exists, lower case with probability `lower_share`.
    The same generator state always gives the same batch.
    """

    split: Split = "train"
    lower_share: float = 0.5

    def __post_init__(self) -> None:
        if self.split not in get_args(Split):
            raise ValueError(f"split must be one of {get_args(Split)}, got {self.split!r}.")
        if not 0.0 <= self.lower_share <= 1.0:
            raise ValueError(f"lower_share must be in [0, 1], got {self.lower_share}.")

    @property
    def name(self) -> str:
        return "dates"

    @property
    def vocab(self) -> Vocab:
        """Specials followed by the characters, shared by source and target."""
        return vocab()

    @property
    def symbols(self) -> tuple[str, ...]:
        """The task's tokens besides the specials."""
        return vocab().itos[4:]

    @property
    def vocab_size(self) -> int:
        return len(vocab())

    @property
    def min_len(self) -> int:
        """The shortest source (tokens, without </s>): as tasks.Task names it."""
        return _vocab_and_max_len()[2]

    @property
    def max_len(self) -> int:
        """The longest source (tokens, without </s>): as tasks.Task names it."""
        return max_source_tokens()

    @property
    def target_len(self) -> int:
        """The target's length, <s> and </s> included (as tasks.Task names it)."""
        return TGT_LEN

    def source_ids(self, symbol_ids: Sequence[int]) -> list[int]:
        """The encoder's input for `symbol_ids`: the characters, then </s> (as tasks.Task)."""
        return [*symbol_ids, EOS]

    def examples(self, n: int, generator: torch.Generator) -> list[DateExample]:
        """`n` random dates of this split, written in random variants."""
        days = _days(self.split)
        has_lower = {(v.locale, v.style) for v in variants() if v.lower}
        day = torch.randint(len(days), (n,), generator=generator).tolist()
        loc = torch.randint(len(LOCALES), (n,), generator=generator).tolist()
        sty = torch.randint(len(STYLES), (n,), generator=generator).tolist()
        low = (torch.rand(n, generator=generator) < self.lower_share).tolist()
        out = []
        for i in range(n):
            locale, style = LOCALES[loc[i]], STYLES[sty[i]]
            lower = low[i] and (locale, style) in has_lower
            date = dt.date.fromordinal(int(days[day[i]]))
            out.append(render(date, Variant(locale, style, lower)))
        return out

    def sample(
        self, batch_size: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """A padded random batch: src (batch, longest + 1), tgt (batch, 12)."""
        return self.tensors(self.examples(batch_size, generator))

    def tensors(self, examples: Sequence[DateExample]) -> tuple[torch.Tensor, torch.Tensor]:
        """src (batch, longest source + 1): tokens, </s>, <pad>...; tgt (batch, 12)."""
        return source_tensor([ex.tokens for ex in examples]), target_tensor(examples)


def source_tensor(token_lists: Sequence[Sequence[str]]) -> torch.Tensor:
    """Source ids (batch, longest + 1): each row its tokens, then </s>, then <pad>."""
    v = vocab()
    rows = [v.encode(list(toks), add_eos=True) for toks in token_lists]
    width = max(len(r) for r in rows)
    return torch.tensor([r + [PAD] * (width - len(r)) for r in rows], dtype=torch.long)


def target_tensor(examples: Sequence[DateExample]) -> torch.Tensor:
    """Target ids (batch, 12): <s> Y Y Y Y - M M - D D </s>."""
    v = vocab()
    return torch.tensor([v.encode(list(ex.iso), add_bos=True, add_eos=True) for ex in examples],
                        dtype=torch.long)


def source_tokens(text: str) -> list[str]:
    """A date typed by someone: its characters without whitespace (the app's char mode)."""
    return tokenize(text, mode="char")


def held_out_examples(n: int = 2000, seed: int = 0) -> list[DateExample]:
    """`n` held-out dates, variants taken in turn (every locale, style and case alike)."""
    gen = torch.Generator().manual_seed(seed)
    days = _days("held_out")
    picks = torch.randint(len(days), (n,), generator=gen).tolist()
    vs = variants()
    return [render(dt.date.fromordinal(int(days[p])), vs[i % len(vs)])
            for i, p in enumerate(picks)]


# ---------------------------------------------------------------------------------------
# Evaluation by cells: every variant on every day of the month and in every month
# ---------------------------------------------------------------------------------------

CELL_TARGET = 0.99  # what every cell must reach (exact match) for the model to be shipped
CellField = Literal["day", "month"]
CELL_FIELDS: tuple[str, ...] = get_args(CellField)


@dataclass(frozen=True)
class Cell:
    """Exact matches in one cell: one variant, on one day of the month or in one month."""

    variant: str  # Variant.name
    field: str  # "day" (value 1..31) or "month" (1..12)
    value: int
    right: int
    total: int

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    @property
    def name(self) -> str:
        """E.g. "de/medium, day 30"."""
        return f"{self.variant}, {self.field} {self.value}"


@dataclass(frozen=True)
class CellReport:
    """Exact matches by cell: every variant x day of the month and every variant x month.

    An average hides a cell that is always wrong (one variant on one day of the month is one
    of 1,457 day cells, under 0.1% of the dates), so a model is judged by its worst cell.
    """

    cells: tuple[Cell, ...]  # variants in `variants()` order; days, then months, ascending
    right: int  # dates decoded exactly, of
    total: int  # the dates evaluated (each is in one day cell and one month cell)

    @property
    def exact(self) -> float:
        return self.right / self.total if self.total else 0.0

    @property
    def worst(self) -> Cell:
        """The cell with the lowest accuracy; of equals, the one measured on the fewest dates
        (the least sure of them), then the first."""
        return min(self.cells, key=_weakness)

    def below(self, target: float = CELL_TARGET) -> tuple[Cell, ...]:
        """The cells under `target`, worst first."""
        return tuple(sorted((c for c in self.cells if c.accuracy < target), key=_weakness))

    def meta(self) -> dict[str, object]:
        """Plain data for a checkpoint's meta: {"day": {variant: [[right, total] for days
        1..31]}, "month": {variant: [[right, total] for months 1..12]}}."""
        out: dict[str, dict[str, list[list[int]]]] = {f: {} for f in CELL_FIELDS}
        for c in self.cells:
            out[c.field].setdefault(c.variant, []).append([c.right, c.total])
        return dict(out)


def _weakness(cell: Cell) -> tuple[float, int]:
    """How cells are ranked, weakest first: by accuracy, then by fewest dates."""
    return cell.accuracy, cell.total


@cache
def _days_by_month_day(split: str) -> Mapping[tuple[int, int], tuple[int, ...]]:
    """The split's days (ordinals, ascending) by (month, day of the month)."""
    out: dict[tuple[int, int], list[int]] = {}
    for o in _days(split).tolist():
        d = dt.date.fromordinal(o)
        out.setdefault((d.month, d.day), []).append(o)
    return MappingProxyType({k: tuple(v) for k, v in sorted(out.items())})


def cell_examples(split: Split = "held_out", per_cell: int = 1, seed: int = 0,
                  among: Sequence[Variant] | None = None) -> list[DateExample]:
    """For every variant (of `among`, default all) and every (month, day of the month) of the
    calendar, `per_cell` different dates of `split` with that month and day (years drawn at
    random, seeded; fewer where the split has fewer, as for 29 February), so that every
    variant x day cell gets about 12 x per_cell dates and every variant x month cell about
    30 x per_cell."""
    if split not in get_args(Split):
        raise ValueError(f"split must be one of {get_args(Split)}, got {split!r}.")
    gen = torch.Generator().manual_seed(seed)
    out: list[DateExample] = []
    for variant in variants() if among is None else among:
        for days in _days_by_month_day(split).values():
            k = min(per_cell, len(days))
            for i in torch.randperm(len(days), generator=gen)[:k].tolist():
                out.append(render(dt.date.fromordinal(days[i]), variant))
    return out


def cells_of(examples: Sequence[DateExample], right: Sequence[bool]) -> CellReport:
    """Group exact matches (one per example) into variant x day and variant x month cells.

    Cells no example falls in are left out (use `cell_examples` to cover them all)."""
    counts: dict[tuple[str, str, int], list[int]] = {}
    for ex, ok in zip(examples, right, strict=True):
        for field in CELL_FIELDS:
            cell = counts.setdefault((ex.variant.name, field, getattr(ex.date, field)), [0, 0])
            cell[0] += bool(ok)
            cell[1] += 1
    order = {v.name: i for i, v in enumerate(variants())}
    keys = sorted(counts, key=lambda k: (order.get(k[0], len(order)), k[0],
                                         CELL_FIELDS.index(k[1]), k[2]))
    cells = tuple(Cell(v, f, x, *counts[(v, f, x)]) for v, f, x in keys)
    return CellReport(cells, sum(map(bool, right)), len(examples))


def evaluate_cells(model: EncoderDecoder, examples: Sequence[DateExample]) -> CellReport:
    """Greedy-decode `examples` (batched) and report exact matches by cell."""
    return cells_of(examples, exact_matches(model, examples))


def parse_iso(text: str) -> dt.date | None:
    """`text` as a date if it is YYYY-MM-DD within FIRST_YEAR..LAST_YEAR, else None."""
    if len(text) != ISO_LEN:
        return None
    try:
        date = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return date if FIRST_YEAR <= date.year <= LAST_YEAR else None


# The values each field can show (weekday: Monday is 0), to read a rendering back.
_FIELD_VALUES: dict[str, range] = {"year": range(FIRST_YEAR, LAST_YEAR + 1),
                                   "month": range(1, 13), "day": range(1, 32),
                                   "weekday": range(7)}


@cache
def _reader(variant: Variant) -> tuple[re.Pattern[str], tuple[tuple[str, Mapping[str, int]], ...]]:
    """`variant`'s pattern turned into a parser: a regular expression that every source it
    writes (whitespace dropped) matches, one group per field, and for each group its field
    and a table from the field's text to its value. Built from the same pieces as `render`,
    on first use (~250 field texts per locale, shared by its case variants)."""
    parts: list[str] = []
    groups: list[tuple[str, Mapping[str, int]]] = []
    for kind, value in _pieces(variant.locale, variant.style):
        if kind == "chars":
            parts.append(re.escape("".join(_chars(_cased(value, variant.lower)))))
            continue
        field = _FIELD_OF_LETTER[value[0]]
        table = {"".join(_chars(_cased(_field_text(variant.locale, value, v), variant.lower))): v
                 for v in _FIELD_VALUES[field]}
        groups.append((field, MappingProxyType(table)))
        parts.append("(" + "|".join(map(re.escape, sorted(table, key=len, reverse=True))) + ")")
    return re.compile("".join(parts)), tuple(groups)


def read_date(tokens: Sequence[str]) -> DateExample | None:
    """The date that `tokens` (a source, without </s>) is, when it is exactly how one of the
    task's variants writes one date from FIRST_YEAR to LAST_YEAR; else None.

    Decided from the input alone, never from a model's answer: each variant's pattern is
    tried as a parser (`_reader`), and a date it reads counts only if rendering it in that
    variant gives back exactly `tokens` (the weekday included). A text two different dates
    would both render to is None too (no text is: over every date and variant, each of the
    2,970,209 different texts belongs to one date, and each reads back to it).
    """
    wanted = tuple(tokens)
    if not wanted or len(wanted) > max_source_tokens() or any(len(t) != 1 for t in wanted):
        return None  # longer than any rendering, or a token that is not one character
    text = "".join(wanted)
    found: dict[dt.date, DateExample] = {}
    for variant in variants():
        regex, groups = _reader(variant)
        match = regex.fullmatch(text)
        if match is None:
            continue
        values = {field: table[match.group(i + 1)] for i, (field, table) in enumerate(groups)}
        try:
            date = dt.date(values["year"], values["month"], values["day"])
        except ValueError:  # 30 February
            continue
        example = render(date, variant)
        if example.tokens == wanted:
            found.setdefault(date, example)
    return next(iter(found.values())) if len(found) == 1 else None


def written_as_trained(tokens: Sequence[str], answer: str) -> bool:
    """Whether `tokens` (a source, without </s>) is a date written as the task writes them
    (`read_date`) and `answer` is that date in YYYY-MM-DD."""
    example = read_date(tokens)
    return example is not None and example.iso == answer


# ---------------------------------------------------------------------------------------
# Using a trained model
# ---------------------------------------------------------------------------------------


@torch.no_grad()
def translate_tokens(
    model: EncoderDecoder, token_lists: Sequence[Sequence[str]], batch_size: int = 500
) -> list[str]:
    """Greedy-decode each source (tokens) into a string (ideally YYYY-MM-DD)."""
    was_training = model.training
    model.eval()
    v = vocab()
    out: list[str] = []
    for i in range(0, len(token_lists), batch_size):
        src = source_tensor(token_lists[i : i + batch_size])
        ys = greedy_decode(model, src, Batch(src).src_mask, max_len=TGT_LEN)
        for row in ys[:, 1:].tolist():
            ids = row[: row.index(EOS)] if EOS in row else row
            out.append("".join(v.decode([i for i in ids if i != PAD])))
    model.train(was_training)
    return out


def translate(model: EncoderDecoder, texts: Iterable[str]) -> list[str]:
    """Dates as typed -> the model's ISO answers."""
    return translate_tokens(model, [source_tokens(t) for t in texts])


def exact_matches(model: EncoderDecoder, examples: Sequence[DateExample]) -> list[bool]:
    """For each example, whether greedy decoding gives exactly its ISO date."""
    answers = translate_tokens(model, [ex.tokens for ex in examples])
    return [a == ex.iso for a, ex in zip(answers, examples, strict=True)]


def accuracy_by(
    examples: Sequence[DateExample], right: Sequence[bool], key: str = "locale"
) -> dict[str, tuple[int, int]]:
    """(right, total) per locale (key="locale"), style or variant name, in first-seen order."""
    out: dict[str, list[int]] = {}
    for ex, ok in zip(examples, right, strict=True):
        k = {"locale": ex.locale, "style": ex.style, "variant": ex.variant.name}[key]
        cell = out.setdefault(k, [0, 0])
        cell[0] += bool(ok)
        cell[1] += 1
    return {k: (r, n) for k, (r, n) in out.items()}


# ---------------------------------------------------------------------------------------
# Alignment: does each output digit look at the field it comes from?
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Alignment:
    """Share of output digits whose cross-attention argmax falls inside their field's span.

    `layer`: the decoder layer read; `head`: one head, or None for the average of all heads.
    `shares` keys: "year", "month", "day", plus "month_word" and "month_number" (months
    written as words or as numbers); `counts`: the digits each share is over.
    """

    layer: int
    head: int | None
    shares: Mapping[str, float]
    counts: Mapping[str, int]


@torch.no_grad()
def cross_attention_argmax(
    model: EncoderDecoder, examples: Sequence[DateExample], head: int | None = None
) -> torch.Tensor:
    """(layers, batch, 10): for each decoder layer and target character of YYYY-MM-DD, the
    source position that the (head-averaged, or one head's) cross-attention weighs most.

    Teacher-forced on the correct ISO date: the query at decoder position j is the one
    that predicts target character j (its input is <s> or character j - 1).
    """
    cfg = model.config
    if cfg is None:
        raise ValueError("The model needs its TransformerConfig (build it with build_model).")
    was_training = model.training
    model.eval()
    src = source_tensor([ex.tokens for ex in examples])
    batch = Batch(src, target_tensor(examples))
    with capture(model) as cache:
        model(batch.src, batch.tgt, batch.src_mask, batch.tgt_mask)
    model.train(was_training)
    out = []
    for layer in range(cfg.N):
        p = cache[attention_hook("decoder", layer, "src_attn", "hook_pattern")]  # (B, h, T, S)
        p = p.mean(dim=1) if head is None else p[:, head]  # (B, T, S)
        out.append(p[:, :ISO_LEN].argmax(dim=-1))  # (B, 10)
    return torch.stack(out)


def _shares(argmax: torch.Tensor, examples: Sequence[DateExample]) -> tuple[dict, dict]:
    """Per-field shares of digits whose argmax (batch, 10) lies in the field's span."""
    hits: dict[str, int] = {}
    counts: dict[str, int] = {}
    rows = argmax.tolist()
    for ex, row in zip(examples, rows, strict=True):
        for field in FIELDS:
            start, end = ex.spans[field]
            inside = sum(start <= row[j] < end for j in FIELD_DIGITS[field])
            keys = [field]
            if field == "month":
                keys.append("month_word" if ex.month_is_word else "month_number")
            for key in keys:
                hits[key] = hits.get(key, 0) + inside
                counts[key] = counts.get(key, 0) + len(FIELD_DIGITS[field])
    shares = {k: hits[k] / counts[k] for k in counts}
    return shares, counts


# What a model that "looks at the right place" (the alignment picture of this module's
# docstring) should reach: the share of output digits whose cross-attention argmax lies in
# their field. A month written with digits has no target: its digits often look at the
# separator after it, which tells a one-digit month ("3月", "3.") from a two-digit one
# before the zero is written.
ALIGNMENT_TARGETS: Mapping[str, float] = MappingProxyType(
    {"year": 0.95, "day": 0.95, "month_word": 0.90})


def alignment_by_layer(
    model: EncoderDecoder, examples: Sequence[DateExample], head: int | None = None
) -> list[Alignment]:
    """`alignment` of every decoder layer (heads averaged, or `head`)."""
    argmax = cross_attention_argmax(model, examples, head)
    out = []
    for i in range(argmax.size(0)):
        shares, counts = _shares(argmax[i], examples)
        out.append(Alignment(i, head, MappingProxyType(shares), MappingProxyType(counts)))
    return out


def alignment(
    model: EncoderDecoder,
    examples: Sequence[DateExample],
    layer: int | None = None,
    head: int | None = None,
) -> Alignment:
    """How well cross-attention aligns output digits with their source fields.

    For each output digit (4 of the year, 2 of the month, 2 of the day), take the decoder
    layer's cross-attention row (averaged over heads, or `head`), find its argmax over the
    source, and count it a hit if it lies inside that field's span. `layer=None` picks the
    layer that meets ALIGNMENT_TARGETS by the widest margin (its weakest field, measured
    against that field's target, is the strongest of any layer's).
    """
    layers = alignment_by_layer(model, examples, head)
    if layer is not None:
        return layers[layer]

    def margin(a: Alignment) -> float:
        return min(a.shares.get(k, 0.0) - v for k, v in ALIGNMENT_TARGETS.items())

    return max(layers, key=margin)


__all__ = [
    "ALIGNMENT_TARGETS", "CELL_FIELDS", "CELL_TARGET", "FIELDS", "FIELD_DIGITS", "FIRST_YEAR",
    "LAST_YEAR", "LOCALES", "STYLES", "TGT_LEN", "Alignment", "Cell", "CellReport",
    "DateExample", "DateTask", "Variant", "accuracy_by", "alignment", "alignment_by_layer",
    "cell_examples", "cells_of", "cross_attention_argmax", "evaluate_cells", "exact_matches",
    "film_probe", "held_out_examples", "is_held_out", "locale_name", "max_source_tokens",
    "parse_iso", "pattern", "read_date", "render", "source_tensor", "source_tokens",
    "target_tensor", "translate", "translate_tokens", "variants", "vocab", "written_as_trained",
]


def film_probe(example: DateExample) -> Probe:
    """The attention film's probe (transformer/film.py) for `example`: teacher-forced on its
    ISO date, each digit's ideal source positions being its field's span."""
    vocab_ = vocab()
    src = [*vocab_.encode(list(example.tokens)), EOS]
    tgt = [BOS, *vocab_.encode(list(example.iso))]
    return field_probe(src, tgt, [(FIELD_DIGITS[f], example.spans[f]) for f in FIELDS])
