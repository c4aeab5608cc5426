"""Which model the pages look at: the sidebar's untrained one, the date translator that ships
with the app, this session's trained model, or an imported checkpoint.

Every source but the first is a `LoadedCheckpoint` (weights, config, vocabularies). The
shipped model is loaded once per process and frozen before it is shared; a trained or
imported model belongs to its session. `resolve_source` turns the sidebar's choice into
the model to show, or into the reason it cannot be shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from transformer import dates as D
from transformer.model import EncoderDecoder
from transformer.train import Batch, greedy_decode

from ..core.checkpoint import CheckpointError, LoadedCheckpoint, from_model, load_checkpoint
from ..core.runs import freeze
from ..core.settings import SOURCES
from ..training.run import TrainedState, content_id, task_meta
from ..training.task import EXAMPLE_DATE
from .memo import remember
from .shelves import SHIPPED, SHIPPED_ANSWERS, YOUR_ANSWERS, YOURS

TRAINED_SOURCES = ("dates", "yours")  # trained on a task: a blank target means "its answer"
SHIPPED_DATES = Path(__file__).resolve().parents[2] / "models" / "dates.pt"
MAX_ANSWER = 40  # tokens a model's answer may have (the date model's are 11)
# The shipped translator and what is measured on it once per process (read-only).


def _load_shipped() -> LoadedCheckpoint:
    loaded = load_checkpoint(SHIPPED_DATES.read_bytes(), None, None)
    freeze(loaded.model)
    return loaded


def shipped_dates() -> LoadedCheckpoint:
    """The date translator in models/dates.pt, frozen: shared by every session, read-only."""
    return remember(SHIPPED, "model", _load_shipped)


def shipped_dates_model() -> EncoderDecoder | None:
    """The shipped date translator's model (shared, read-only), or None without the file."""
    try:
        return shipped_dates().model
    except (OSError, CheckpointError):  # a deployment without models/dates.pt
        return None


def shipped_dates_meta() -> dict:
    """What models/dates.pt says of its training (steps, seconds, held-out accuracy), or
    {} without the file."""
    try:
        return dict(shipped_dates().meta)
    except (OSError, CheckpointError):
        return {}


@dataclass(frozen=True)
class CellSummary:
    """What a date model's file says of its held-out cells (tools/train_dates.py)."""

    worst: D.Cell  # the cell with the lowest exact match
    cells: int  # how many cells (variant x day of the month, variant x month)
    dates: int  # held-out dates they were measured on


def cell_summary(meta: Mapping[str, Any]) -> CellSummary | None:
    """The held-out cells recorded in a date model's meta, or None without them."""
    try:
        found = meta["held_out_cells"]
        worst = found["worst"]
        cell = D.Cell(str(worst["variant"]), str(worst["field"]), int(worst["value"]),
                      int(worst["right"]), int(worst["total"]))
        cells = sum(len(rows) for by in found["cells"].values() for rows in by.values())
        return CellSummary(cell, cells, int(found["total"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def expected_date(tokens: Sequence[str]) -> list[str] | None:
    """The right ISO answer (its characters) for a typed date (without </s>), or None.

    Known from the text alone (`dates.read_date`): when the text is a date written exactly
    as one of the task's languages and styles writes it, its date is the answer, whatever
    any model says. None: the text is not a date as the task writes them.
    """
    example = D.read_date(tokens)
    return list(example.iso) if example is not None else None


def answers_dates(source: str, meta: Mapping[str, Any]) -> bool:
    """Whether the model shown translates dates: the shipped one, or one trained on dates."""
    return source == "dates" or (source == "yours" and meta.get("task") == "dates")


@dataclass(frozen=True)
class DateCheck:
    """What the app can say of a date model's answer to a typed text, decided from the text."""

    expected: str | None  # the right answer, when the text is a date as the task writes them
    right: bool  # the model's answer is `expected`

    @property
    def outside(self) -> bool:
        """The text is outside what the model was trained on: no answer is known to be right."""
        return self.expected is None

    @property
    def wrong(self) -> bool:
        """The text is of a form the model was trained on and its answer is not that date."""
        return self.expected is not None and not self.right


def check_date_answer(typed: Sequence[str], answer: str, unknown: bool) -> DateCheck:
    """The one rule for every place a date model answers (`typed`: the source without </s>):
    the text is inside what the model was trained on when it has no character the model does
    not know and is a date written exactly as one of the task's variants writes it; then
    that date, not the model, says what the answer should be."""
    example = None if unknown else D.read_date(typed)
    expected = example.iso if example is not None else None
    return DateCheck(expected, expected is not None and answer == expected)


ALIGNMENT_DATES = 400  # held-out dates the Attention page's alignment sentence is measured on


def dates_alignment() -> D.Alignment:
    """How well the shipped model's cross-attention aligns output digits with their source
    fields, measured once per process on held-out dates (a read-only result)."""
    return remember(SHIPPED, "alignment", lambda: D.alignment(
        shipped_dates().model, D.held_out_examples(ALIGNMENT_DATES, seed=11)))


# Dates offered as one-click examples (rendered by the task itself, so each is written
# exactly as the model was trained to read): (locale, style) pairs of D.variants().
EXAMPLE_VARIANTS = (("de", "full"), ("zh_Hans", "full"), ("en_US", "medium"), ("fr", "long"),
                    ("ja", "abbr"), ("es", "full"), ("ko", "long"))


def date_example(i: int, date: dt.date = EXAMPLE_DATE) -> str:
    """`date` written in the i-th EXAMPLE_VARIANTS style (one locale's data is loaded)."""
    return D.render(date, D.Variant(*EXAMPLE_VARIANTS[i])).text


def date_examples(date: dt.date = EXAMPLE_DATE) -> tuple[str, ...]:
    """`date` written in each EXAMPLE_VARIANTS style."""
    return tuple(date_example(i, date) for i in range(len(EXAMPLE_VARIANTS)))


def trained_checkpoint(state: TrainedState) -> LoadedCheckpoint:
    """This session's trained model as the Train page exports it and the import reads it
    (`from_model`): a copy (what the pages show never changes under them), its sinusoid
    table extended to every length the app reads. Kept in the session until the model
    changes."""
    def copy() -> LoadedCheckpoint:
        meta = {**task_meta(state.task), "steps": state.step, "accuracy": state.accuracy,
                "version": state.version}
        return from_model(state.model, state.task.vocab.itos, meta,
                          content=("trained", *content_id(state)))

    return remember(YOURS, (state.model, state.version), copy)


def resolve_source(
    choice: object, imported: LoadedCheckpoint | None, trained: object
) -> tuple[str, LoadedCheckpoint | None, str | None]:
    """(source shown, its model or None for the sidebar's, text key of why the choice could
    not be shown or None). An unavailable choice falls back to the untrained model."""
    source = choice if choice in SOURCES else "untrained"
    if source == "dates":
        try:
            return source, shipped_dates(), None
        except (OSError, CheckpointError):  # a deployment without the file (as above)
            return "untrained", None, "source.dates_missing"
    if source == "yours":
        if not isinstance(trained, TrainedState) or trained.step == 0:
            return "untrained", None, "source.yours_missing"
        # The lock is held by a thread that trains it: copy the weights only when free.
        if trained.running or not trained.lock.acquire(blocking=False):
            return "untrained", None, "source.yours_running"
        try:
            return source, trained_checkpoint(trained), None
        finally:
            trained.lock.release()
    if source == "imported":
        if imported is None:
            return "untrained", None, "source.imported_missing"
        return source, imported, None
    return "untrained", None, None


def token_mode(loaded: LoadedCheckpoint, default: str) -> str:
    """How the model's own data was tokenized (its meta says, as the date model's does)."""
    mode = loaded.meta.get("token_mode")
    return mode if mode in ("word", "char") else default


def ends_sources(loaded: LoadedCheckpoint) -> bool:
    """Whether the model was trained on sources ending with </s> (this app's tasks are)."""
    return isinstance(loaded.meta, Mapping) and "task" in loaded.meta


def answer_tokens(loaded: LoadedCheckpoint, src_tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The model's greedy answer to `src_tokens` (which include any </s>), without specials."""
    specials = loaded.special_ids("tgt")
    bos, eos = loaded.start_id(), specials.get("eos")
    src = torch.tensor([loaded.src_ids(src_tokens)])  # (1, src_len)
    ys = greedy_decode(loaded.model, src, Batch(src).src_mask, max_len=MAX_ANSWER + 1,
                       start_symbol=bos, end_symbol=eos)[0, 1:].tolist()
    ids = ys[: ys.index(eos)] if eos in ys else ys
    skip = {specials.get("pad"), bos}
    return tuple(loaded.tgt_vocab[i] for i in ids if i not in skip)


def shipped_answer(src_tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The shipped translator's answer to `src_tokens`, shared by every session: its model
    is the same read-only one for all, and a class often types the same example date."""
    return remember(SHIPPED_ANSWERS, src_tokens,
                    lambda: answer_tokens(shipped_dates(), src_tokens))


def answers_of(loaded: LoadedCheckpoint) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
    """How a trained model of this session answers: its last few answers kept here."""
    version = loaded.meta.get("version")
    return lambda src: remember(YOUR_ANSWERS, (loaded.model, version, src),
                                lambda: answer_tokens(loaded, src))
