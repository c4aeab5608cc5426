"""The Train page's state, kept by streamlit: this learner's trained model and memo, and the
shared untrained model.

- `STATE_KEY`: this learner's `TrainedState`, in `st.session_state` only (a trained model
  belongs to the session that trained it); `current_state` reads it after a click.
- `TICKETS_KEY`: this learner's place in the server's training hub (training/hub.py) while a
  training is queued or under way. It goes on while the learner clicks, reads another
  page or switches language; Stop, a new training or the end of the session leaves it
  (Stop keeps the model so far), and `kept_training` keeps it once it ends, on any page.
- `TRAINED_RESULTS`: what the page computes from a trained model, on a shared shelf by
  `content_id` (the trained weights); `MINE`: this session's own results.
- `untrained(key)`: the untrained model of a key, shared, read-only.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit import config

from transformer.model import EncoderDecoder

from ..core.runs import freeze
from ..text.i18n import t
from ..training.hub import SNAPSHOT_WAIT, Hub, Ticket, hub
from ..training.run import ModelKey, TrainedState, build_model_for
from . import classroom
from .cache import is_large
from .memo import remember
from .shelves import UNTRAINED


def training_hub() -> Hub:
    """The server's training hub, which keeps a disconnected learner's training no longer
    than this server keeps the session (`server.disconnectedSessionTTL`)."""
    try:
        ttl = float(config.get_option("server.disconnectedSessionTTL"))
    except (TypeError, ValueError):  # an option of another type: the hub's default
        ttl = None
    return hub(session_ttl=ttl)


STATE_KEY = "train_state"  # this learner's TrainedState
# This learner's tickets in the server's training hub, in a plain dict kept in session
# state: "early" (asked for at the top of a Train click's run) and "wait" (the wait the
# page shows). Keeping or dropping one is then plain Python, which no click interrupts.
TICKETS_KEY = "train_tickets"
EARLY, WAIT = "early", "wait"
FAILED_KEY = "train_failed"  # why this learner's last training failed, shown once
# What the Train page computes from a trained model (decodings, figures, films), by
# `content_id`: copies of one training read one result. A trained page run asks for about
# ten; a class trains a few different models at once.
# Results of a model only this session has (an imported checkpoint's decodings, a beam
# search on a model not shared).


def untrained(key: ModelKey) -> EncoderDecoder:
    """The untrained model (shared, read-only): the trained one's starting point."""
    return remember(UNTRAINED, key, lambda: freeze(build_model_for(key)),
                    large=is_large(key.config))


def set_default(key: str, value: Any) -> None:
    """A widget's value before it is first drawn (kept if the learner set one already)."""
    if key not in st.session_state:
        st.session_state[key] = value


def trained_state() -> TrainedState | None:
    """This learner's trained model as it is kept (a finished copy, read-only)."""
    state = st.session_state.get(STATE_KEY)
    return state if isinstance(state, TrainedState) else None


def take_failure() -> str | None:
    """Why this learner's last training failed, once (the Train page shows it)."""
    return st.session_state.pop(FAILED_KEY, None)


def keep_state(state: TrainedState) -> None:
    """Keep `state` as this learner's trained model (replacing any earlier one), read-only
    from now on: results are shared by what fixes it (`content_id`), not by its weights."""
    freeze(state.model)
    st.session_state[STATE_KEY] = state


def tickets() -> dict[str, Ticket]:
    """This learner's tickets in the hub (EARLY, WAIT), in a plain dict."""
    store = st.session_state.get(TICKETS_KEY)
    if not isinstance(store, dict):
        store = st.session_state[TICKETS_KEY] = {}
    return store


def training_under_way() -> Ticket | None:
    """This learner's training while it is queued or trains (its WAIT ticket), else None."""
    ticket = tickets().get(WAIT)
    if isinstance(ticket, Ticket) and not ticket.left and not ticket.done:
        return ticket
    return None


def kept_training() -> bool:
    """If this learner's training has ended, keep it as their trained model and forget the
    ticket: on whatever page they are (the sidebar's status calls this on every page).
    True when the trained model changed. A failure is kept (FAILED_KEY) for the Train
    page to show."""
    store = tickets()
    ticket = store.get(WAIT)
    if not isinstance(ticket, Ticket) or not (ticket.done or ticket.left):
        return False
    state = training_hub().leave(ticket, "stop_button") if ticket.left else \
        training_hub().result(ticket)
    if ticket.left and state is None and (
            ticket.pending is not None or (ticket.gone and not ticket.done)):
        return False  # a stopped training's copy, not made yet: asked for again next run
    if state is not None:
        keep_state(state)
    elif ticket.job.error is not None:
        error = ticket.job.error
        st.session_state[FAILED_KEY] = str(error) or type(error).__name__
    if store.get(WAIT) is ticket:
        del store[WAIT]
    return state is not None


def stop_training() -> TrainedState | None:
    """Stop: this learner leaves their training and keeps it as it is then (evaluated),
    while others asking for it go on; a queued one leaves the queue. The ticket is
    forgotten only once its model is kept: a run stopped on the way loses nothing (the
    next one gets the same copy)."""
    store = tickets()
    ticket = store.get(WAIT)
    if not isinstance(ticket, Ticket):
        return None
    queued = ticket.job.status == "queued"
    with st.spinner(t("train.evaluating")):
        state = training_hub().leave(ticket, "stop_button")
    if state is not None:
        keep_state(state)
    elif queued:
        st.info(t("train.left_queue"), icon=":material/logout:")
    elif ticket.pending is not None:  # the copy is not ready yet: the next run takes it
        st.warning(t("train.still_stopping", seconds=f"{SNAPSHOT_WAIT:.0f}"),
                   icon=":material/hourglass_top:")
        return None
    if store.get(WAIT) is ticket:
        del store[WAIT]
    return state


def _settle_ticket(replacing: bool, stop_requested: bool) -> Ticket | None:
    """This learner's training in the hub, after this run's click: Stop ends it (the model
    as it is then is kept); a new Train click returns the ticket, for the new request to
    join first (the same settings keep their training); a finished one is kept. Any other
    click leaves it training in the background."""
    ticket = tickets().get(WAIT)
    if not isinstance(ticket, Ticket):
        return None
    if replacing:
        return ticket
    if stop_requested and not ticket.left:
        stop_training()
    else:
        kept_training()
    return None


def current_state(replacing: bool, stop_requested: bool
                  ) -> tuple[TrainedState | None, Ticket | None]:
    """This learner's trained model after this run's click, and the wait in the hub that a
    new training replaces (`replacing`), for the caller to leave once the new one is in.

    Every training runs in the server's hub, and a kept model is a finished copy that
    nothing trains any more: so the one way to stop a training is to leave the hub (Stop:
    `stop_training`; a new training: the caller; a closed tab: the hub's reaper). Any
    other click leaves it training in the background.
    """
    old = _settle_ticket(replacing, stop_requested)
    state = trained_state()
    if state is not None and state.step == 0:
        st.session_state.pop(STATE_KEY, None)  # stopped before its first step: nothing learned
        state = None
    return state, old


TRAIN_KEY = "tr_train"  # the Train button's widget key (explorer/sections/train.py)
RESEED_KEY = "tr_reseed_asked"  # "train anew with the next seed" was clicked: train this run


def train_asked() -> bool:
    """Whether this run asks for a training: a click on Train, "train anew with the next
    seed" (whose callback set the sidebar's seed before this run), or, for a student who
    follows a class, the teacher's Train (explorer/app/classroom.py)."""
    return (st.session_state.get(TRAIN_KEY) is True or st.session_state.get(RESEED_KEY) is True
            or classroom.class_training_asked())


def ask_to_train_anew() -> None:
    """"Train anew with the next seed" was clicked: the next run trains (`train_asked`)."""
    st.session_state[RESEED_KEY] = True


def take_train_request() -> None:
    """The run that trains has taken the click: the next run asks again only if clicked."""
    st.session_state.pop(RESEED_KEY, None)
