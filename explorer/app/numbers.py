"""Number boxes whose range Python checks and explains in the learner's language.

Streamlit's number input enforces its min and max in the browser only: a number typed
outside them stays in the box with a red border and Streamlit's own English hint, and the
page goes on with the old value. The boxes here give the browser no bounds, so every typed
number reaches the script, which puts it into the range (`explorer.state.view.fit_number`),
writes the number used back into the box and says what it did. A link or a modified client
may put anything in session state: the same check runs on every run, before the box is
drawn (Streamlit lets a script set a widget's value only then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from ..state.view import Fitted, fit_number, keep
from ..text.i18n import t

WAITING = "_number_notes"  # what `fit_ahead` changed, by box key, until the box is drawn


def number_text(value: object) -> str:
    """A number for a sentence: whole numbers as they are (very long ones shortened), others
    to a few significant digits; anything else (never shown raw) as "?"."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "?"
    if isinstance(value, int) and abs(value) < 10**12:
        return str(value)
    return f"{value:.6g}"


def fit_state(key: str, low: float, high: float, *, default: Any, whole: bool = True,
              even: bool = False, blank: bool = False) -> Fitted:
    """Check the number session state holds for box `key` (the box's last value, a link's,
    or a forged one) and put the number used there; call it before the box is drawn."""
    state = st.session_state
    given = state[key] if key in state else default
    fit = fit_number(given, low, high, default=default, whole=whole, even=even, blank=blank)
    if key not in state or fit.reason is not None or type(fit.value) is not type(given):
        state[key] = fit.value
    return fit


Odd = Callable[[str, str], str]  # (the odd number, the even one used) -> a sentence


def fit_note(fit: Fitted, name: str, low: float, high: float, blank: str = "",
             odd: Odd | None = None) -> str | None:
    """What a box did to the number it was given, in the learner's language (None: nothing).
    `blank`: what an empty box stands for, when that is used; `odd`: the sentence for a
    number made even (default: the general one)."""
    if fit.reason is None:
        return None
    if fit.reason == "odd" and odd is not None:
        return odd(number_text(fit.given), number_text(fit.value))
    return t(f"number.{fit.reason}", name=name, given=number_text(fit.given),
             low=number_text(low), high=number_text(high),
             used=blank if fit.value is None else number_text(fit.value))


def fit_ahead(key: str, low: float, high: float, *, default: Any, whole: bool | None = None,
              even: bool = False, blank: bool = False) -> Fitted:
    """`fit_state` for a box whose value is read before the box is drawn (its callback, the
    Train page, which reads its settings first): what was changed is kept, and said in
    the run's language under the box when it is drawn (`number_box`; a callback runs
    before the run has its language). `whole`: by default, whether `default` is whole."""
    whole = isinstance(default, int) if whole is None else whole
    fit = fit_state(key, low, high, default=default, whole=whole, even=even, blank=blank)
    if fit.reason is not None:
        st.session_state.setdefault(WAITING, {})[key] = fit
    return fit


def number_box(where: Any, label: str, key: str, low: float, high: float, *, step: int | float,
               default: Any, kept: bool = True, even: bool = False, blank: str = "",
               odd: Odd | None = None, note_where: Any = None,
               on_change: Callable[[], None] | None = None, **kwargs: Any) -> Any:
    """A number input in `where` whose value is always within [low, high]: the number used.

    `kept`: the box is part of the view (`keep`); `even`: as `fit_number`; `blank`: what an
    empty box stands for (the box may be left empty; `fit_note`); `odd`: as `fit_note`.
    A typed number is put in range by the box's callback, before the run reads it (the
    link written before the page runs shows it too); a value set otherwise, here. What was
    changed is said under the box, or in `note_where` (a number made even is only rounded:
    said as information)."""
    whole = isinstance(step, int)

    def typed() -> None:
        fit_ahead(key, low, high, default=default, whole=whole, even=even, blank=bool(blank))
        if on_change is not None:
            on_change()

    fit = fit_state(key, low, high, default=default, whole=whole, even=even,
                    blank=bool(blank))
    widget = keep(key) if kept else {"key": key}
    where.number_input(label, step=step, **widget, on_change=typed, **kwargs)
    waiting = st.session_state.get(WAITING)
    held = waiting.pop(key, None) if isinstance(waiting, dict) else None
    said = held if isinstance(held, Fitted) and fit.reason is None else fit
    note = fit_note(said, label, low, high, blank, odd)
    if note and said.reason == "odd":
        (note_where or where).info(note, icon=":material/info:")
    elif note:
        (note_where or where).warning(note, icon=":material/rule:")
    return fit.value
