"""A page's frame: the context of this run (`page_frame`, `current_context`), what is
drawn after the page (`draw_last`) or ends it early (`end_page`), the friendly errors a page
shows when its text or model is refused, and the notes that say which model a page shows."""

from __future__ import annotations

import contextvars
import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn

import streamlit as st

from transformer import dates as D

from ..core.runs import ImportedTokens
from ..text.i18n import get_lang, percent, t
from .access import page_access
from .charts import chart_css
from .context import EOS_TOKEN, Context
from .sidebar import show_sentence
from .sources import (
    ALIGNMENT_DATES,
    DateCheck,
    answers_dates,
    cell_summary,
    check_date_answer,
    date_examples,
    dates_alignment,
    token_mode,
)


@dataclass
class PageFrame:
    """This run's frame: its context (once the sidebar made it), and the timed fragments to
    draw after the page (`draw_last`)."""

    ctx: Context | None = None
    last: list[Callable[[], None]] = field(default_factory=list)


_CURRENT: contextvars.ContextVar[PageFrame | None] = contextvars.ContextVar("page_frame",
                                                                            default=None)


class PageEnd(Exception):  # noqa: N818 (an end, not an error)
    """The page has drawn all it can this run (`end_page`)."""


@contextmanager
def page_frame() -> Iterator[PageFrame]:
    """This run's frame, opened by the entry script before the sidebar (which sets its
    `ctx`) and closed after the page. Once the page is drawn, also when it ended early
    (`end_page`) or failed, it draws the timed fragments asked for meanwhile (`draw_last`)."""
    frame = PageFrame()
    token = _CURRENT.set(frame)
    chart_css()  # every chart's toolbar in a band of its own
    page_access(get_lang())  # <html lang>, scrolling regions by keyboard, text contrast
    try:
        try:
            yield frame
        except PageEnd:
            pass
        except Exception:  # the failure is shown; a class still moves the page on
            _draw(frame.last)
            raise
        _draw(frame.last)
    finally:
        _CURRENT.reset(token)


def _draw(draws: Sequence[Callable[[], None]]) -> None:
    for draw in draws:
        draw()


def draw_last(draw: Callable[[], None]) -> None:
    """Draw `draw`, a fragment with a timer, here on the page but send it after the page.

    Streamlit 1.67 hands a run's messages to its event loop, which drops those of a runner
    that is no longer the session's current one (app_session.py
    `_handle_scriptrunner_event_on_event_loop`). A fragment's timer starts when the browser
    reads the fragment, so a timer drawn mid-page can ask for its rerun while a loop that
    lags behind a class's thirty page runs has not yet sent the rest of the page: the
    rerun's new runner drops the page's last messages (bench/classroom.py (d): one student
    in thirty did not see a question until the reveal). Sent last, a timer starts only once
    its page has reached the browser. A page run on its own draws it at once."""
    frame = _CURRENT.get()
    if frame is None:
        draw()
        return
    slot = st.container()  # its place

    def drawn() -> None:
        with slot:
            draw()

    frame.last.append(drawn)


def end_page() -> NoReturn:
    """End the page's run here, as `st.stop()` would, but let the entry script draw what
    comes after every page (`draw_last`): `st.stop()` would leave out a following student's
    look at the class, and the student would stay on this page. A page run on its own
    (without app.py) stops."""
    if _CURRENT.get() is None:
        st.stop()
    raise PageEnd


def current_context() -> Context | None:
    """The context app.py made for this run, or None for a page run on its own."""
    frame = _CURRENT.get()
    return frame.ctx if frame is not None else None


def show_problems(ctx: Context, need_text: bool = True, need_model: bool = True) -> bool:
    """Show friendly errors for what this page needs; True if the page can go on."""
    ok = True
    if need_text and ctx.text_error:
        st.error(t("problems.text", reason=ctx.text_error),
                 icon=":material/edit_note:")
        ok = False
    if need_model and ctx.arch_error:
        st.error(t("problems.arch", reason=ctx.arch_error),
                 icon=":material/construction:")
        ok = False
    return ok


def _use_example() -> None:
    """An example pill was clicked: it becomes the source, and the target the model's answer."""
    example = st.session_state.get("date_example")
    if example in date_examples():  # one of ours, never a value a client made up
        show_sentence(example)
    st.session_state["date_example"] = None


def cell_label(cell: D.Cell) -> str:
    """A cell of the date translator's evaluation as a learner reads it: the language, an
    example of the style (on that day, or in that month), and the day or month."""
    variant = {v.name: v for v in D.variants()}.get(cell.variant)
    try:
        date = (dt.date(2026, 1, cell.value) if cell.field == "day"
                else dt.date(2026, cell.value, 23))
    except (TypeError, ValueError):
        variant = None
    if variant is None or cell.field not in D.CELL_FIELDS:
        return cell.name
    return t(f"dates.cell_{cell.field}", language=D.locale_name(variant.locale, get_lang()),
             example=D.render(date, variant).text, value=cell.value)


def date_cells_text(meta: dict[str, Any]) -> str:
    """What the date translator's file says of its held-out accuracy, by its weakest cell
    (an average would hide a cell that is always wrong)."""
    summary = cell_summary(meta)
    if summary is None:  # a file without cells: its average, said to be one
        return t("dates.average", accuracy=percent(float(meta.get("held_out_exact", 0.0))),
                 n=meta.get("held_out_n", "?"))
    worst = summary.worst  # of cells all right, the one on the fewest dates
    key = "dates.all_cells" if worst.right == worst.total else "dates.worst_cell"
    result = t(key, cell=cell_label(worst), accuracy=percent(worst.accuracy),
               right=worst.right, total=worst.total)
    return t("dates.cells", n=f"{summary.dates:,}", cells=f"{summary.cells:,}", result=result)


def warn_date_check(check: DateCheck) -> None:
    """Say when a date model's answer is wrong (the text is a date as it was trained to
    read) or cannot be judged (the text is outside what it was trained on)."""
    if check.outside:
        st.warning(t("source.dates_outside"), icon=":material/help:")
    elif check.wrong:
        st.warning(t("source.dates_wrong", expected=check.expected), icon=":material/error:")


def show_source_notes(ctx: Context) -> None:
    """Say which model the page shows, what the decoder reads, and whether the input is of
    the kind the model was trained on."""
    loaded = ctx.loaded
    if loaded is None:
        st.info(t("attn.random_weights", seed=ctx.settings.seed), icon=":material/casino:")
        return
    meta = loaded.meta
    if ctx.source == "dates":
        st.info(t("source.dates_weights", steps=meta.get("steps", "?"),
                  checked=date_cells_text(meta)), icon=":material/calendar_month:")
        st.caption(t("source.dates_scope"))
        st.pills(t("source.examples"), date_examples(), key="date_example",
                 on_change=_use_example)
        align = dates_alignment()
        st.markdown(t("source.alignment", n=ALIGNMENT_DATES, layer=align.layer,
                      **{k: percent(align.shares[k])
                         for k in ("year", "month", "day", "month_word")}))
    elif ctx.source == "yours":
        st.info(t("source.yours_weights", task=t(f"train.task_{meta.get('task', 'copy')}"),
                  steps=meta.get("steps", "?")), icon=":material/model_training:")
    else:
        st.info(t("attn.checkpoint_weights"), icon=":material/upload_file:")
    tokens = ctx.tokens
    if tokens is None or not isinstance(tokens, ImportedTokens):
        return
    unknown = sum(i == tokens.src_unk for i in tokens.src_ids)
    if unknown:
        st.caption(t("source.unknown", n=unknown))
    if not ctx.answered:
        return
    joiner = "" if token_mode(loaded, ctx.settings.token_mode) == "char" else " "
    answer = joiner.join(tokens.tgt_tokens)
    st.markdown(t("source.answer", answer=answer) if answer else t("source.no_answer"))
    if answers_dates(ctx.source, meta):
        raw = tokens.src_tokens
        raw = raw[:-1] if raw[-1:] == (EOS_TOKEN,) else raw  # the source as typed
        warn_date_check(check_date_answer(raw, answer, bool(unknown)))
