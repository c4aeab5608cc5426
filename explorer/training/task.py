"""The task to train and the learner's input: digits, the words of their sentence, or a date.

Pure Python: `task_for` picks the task's symbols (the digits, or the distinct words of the
learner's text) or the date task (`transformer.dates.DateTask`, characters);
`parse_sequence` and `parse_date_input` read an input to decode; `input_fit` and
`sentence_fit` say how an input compares with what the model trained on. Reasons are
worded with `t()` and never repeat the learner's text, so they are safe to show as Markdown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from transformer import dates as D
from transformer.film import Probe, task_probe
from transformer.tasks import DIGITS, HELD_OUT_SHARE, Task, make_task
from transformer.tokenize import MAX_TEXT_CHARS, SPECIALS, TokenizeError, tokenize

from ..text.i18n import TABLES, get_lang, sentences, t

DIGIT_MAX_LEN = 9  # longest digit sequence of the tasks
MAX_WORDS = 20  # distinct words of the learner's text used as symbols
WORD_MIN_LEN, WORD_MAX_LEN = 6, 12  # the words task covers the sentence's length, capped
DEFAULT_DIGITS = "3 1 4 1 5 9 2"
FILM_DIGITS = "7 2 9 4 0 6 1 8"  # the film's probe: distinct digits, so one ideal per row
# The app's example date: 23 November 2026, the date the docstring of transformer/dates.py
# opens with. The date task's film probe and first input to decode write it in German
# (`Montag, 23. November 2026`); the sidebar's example pills in seven styles (sources.py).
EXAMPLE_DATE = dt.date(2026, 11, 23)
FILM_DATE = D.Variant("de", "full"), EXAMPLE_DATE

TrainTask = Task | D.DateTask  # what the Train page trains: a toy task or the date task


def t_count(key: str, n: int, /, **values: object) -> str:
    """`t(key, n=n, ...)`, in the singular when `n` is 1: the text of `key + ".one"` when
    the table has it ("1 symbol", not "1 symbols"); a language without plural forms gives
    both keys the same text."""
    one = f"{key}.one"
    if n == 1 and one in TABLES[get_lang()]:
        key = one
    return t(key, n=n, **values)


def numbers_text(numbers: Sequence[int], limit: int = 5) -> str:
    """Numbers for a sentence, in the learner's language: "2", "2, 5" ("2、5"), and at most
    `limit` of them ("1, 2, 3, 4, 5 …")."""
    shown = t("train.list_sep").join(map(str, numbers[:limit]))
    return shown + (" …" if len(numbers) > limit else "")


def held_out_text(task: Task) -> str:
    """Which sequences of a toy task are held out of training (transformer/tasks.py), in
    words: one in HELD_OUT_SHARE at the lengths that have enough, why shorter ones are not,
    or that the task has too few sequences to hold any out."""
    lengths = task.held_lengths
    if not lengths:
        return t_count("train.held_none", len(task.symbols), symbols=len(task.symbols))
    first, last = lengths[0], lengths[-1]
    text = t("train.held_split", share=HELD_OUT_SHARE,
             lengths=str(first) if first == last else f"{first}–{last}")
    if first > task.min_len:
        short = first - 1
        text = sentences(text, t_count(
            "train.held_short", short - task.min_len + 1,
            lengths=str(short) if short == task.min_len else f"{task.min_len}–{short}",
            count=f"{len(task.symbols) ** short:,}"))
    return text


def evaluated_text(task: TrainTask) -> str:
    """What an evaluation of `task` decodes, in words: held-out sequences (the date task's
    held-out days too), or sequences as training draws them when the toy task has too few
    to hold any out (transformer/tasks.py `_split_draw`)."""
    held = is_dates(task) or bool(task.held_lengths)
    return t("eval.held" if held else "eval.not_held")


def is_dates(task: object) -> bool:
    """Whether `task` is the date translator's task (characters, no rule on symbols)."""
    return isinstance(task, D.DateTask)


def date_probe_example() -> D.DateExample:
    """The date the film records and the decoding section starts from."""
    variant, date = FILM_DATE
    return D.render(date, variant)
MAX_INPUT_CHARS = 200


def sentence_words(text: str) -> list[str]:
    """The word tokens of the learner's text (no specials); empty if it cannot be split."""
    try:
        tokens = tokenize(text, "word", max_tokens=MAX_TEXT_CHARS)
    except TokenizeError:
        return []
    return [tok for tok in tokens if tok not in SPECIALS]


def task_for(name: str, symbols: str, text: str) -> tuple[TrainTask, str | None]:
    """The task over digits or over the text's distinct words, and a note if it fell back;
    or the date task (name "dates", whatever `symbols` says)."""
    if name == "dates":
        return D.DateTask(), None
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


def film_probe(task: TrainTask, text: str) -> Probe:
    """The input whose attention the film records: FILM_DIGITS, the learner's sentence, or
    for dates FILM_DATE."""
    if is_dates(task):
        return D.film_probe(date_probe_example())
    if task.symbols == DIGITS:
        tokens = FILM_DIGITS.split()
    else:
        tokens = sentence_input(task, text) or list(task.symbols[: task.max_len])
    return task_probe(task.name, task.vocab.encode(tokens))


def answer(task: TrainTask, tokens: Sequence[str]) -> list[str]:
    """What the task expects for `tokens` (a toy task; a date's answer needs a model, see
    explorer/sections/decode.py)."""
    if is_dates(task):
        raise ValueError("A date task has no rule from its tokens to the answer.")
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
        digits = task.symbols == DIGITS
        return None, t_count("train.input.bad_digits" if digits else "train.input.bad_words",
                             len(bad), which=numbers_text(bad))
    if len(parts) > task.max_len:
        return None, t("train.input.too_many", n=task.max_len, got=len(parts))
    return parts, None


def parse_date_input(text: Any, task: D.DateTask) -> tuple[list[str] | None, str | None]:
    """A date typed by the learner as the task's character tokens, or (None, a reason).

    Characters the task never saw are kept (the model reads them as <unk>); a text longer
    than the task's longest date is refused, since the model has no positions for it.
    """
    if not isinstance(text, str):
        return None, t("train.input.not_text")
    if len(text) > MAX_INPUT_CHARS:
        return None, t("train.input.date_too_long", n=task.max_len)
    try:
        tokens = D.source_tokens(text)
    except TokenizeError as exc:  # empty (spaces, invisible characters), or too long
        empty = exc.key == "tokenize.empty"
        return None, t("train.input.date_empty" if empty else "train.input.date_too_long",
                       n=task.max_len)
    if not tokens:
        return None, t("train.input.date_empty")
    if len(tokens) > task.max_len:
        return None, t("train.input.date_too_long", n=task.max_len)
    return tokens, None


def unknown_characters(task: D.DateTask, tokens: Sequence[str]) -> int:
    """How many of `tokens` are not in the date task's vocabulary (read as <unk>)."""
    return sum(1 for tok in tokens if tok not in task.vocab)


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
