"""The one way this app remembers a result: `remember(shelf, key, compute)`.

A `Shelf` is a bounded store of one kind of result; the least recently used result is
dropped first. A shared shelf is one for the whole server: its results are fixed by their
key (a model's content, never a session's object) and never changed by a reader, so thirty
learners looking at one sentence compute it once, and while the first computes a result
the others wait for it instead of computing it again. A session's shelf lives in
`st.session_state`: results of a model only that session has (an upload), or that must not
be shared. The key names everything the result depends on, the language included when the
result holds text.

Resources that are not results (the class store's connection, the training hub) are
`st.cache_resource` singletons of their own modules. Shared shelves live in one
`st.cache_resource` value too, so Streamlit's "Clear caches" empties them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, TypeVar

import streamlit as st

from ..text.i18n import t

T = TypeVar("T")

SESSION_KEY = "_memo"  # this session's shelves: {shelf name: OrderedDict}


@dataclass(frozen=True)
class Shelf:
    """Where results of one kind are kept, and how many."""

    name: str  # what it holds; unique among shelves
    entries: int  # results kept, the least recently used dropped first
    shared: bool  # one for the server (read-only results fixed by their key) or per session
    large: int = 0  # results of a large model: kept on a second shelf of this many
    spinner: str | None = None  # text key shown while a large result is computed or awaited


@dataclass
class _Store:
    """One shared shelf's results, and a lock per result being computed."""

    entries: int
    items: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    flights: dict[Hashable, threading.Lock] = field(default_factory=dict)


@st.cache_resource(show_spinner=False)
def _server() -> dict[str, _Store]:
    """Every shared shelf of this server process, by name."""
    return {}


def _name(shelf: Shelf, large: bool) -> str:
    return f"{shelf.name} (large)" if large and shelf.large else shelf.name


def _bound(shelf: Shelf, large: bool) -> int:
    return shelf.large if large and shelf.large else shelf.entries


def _shared_store(shelf: Shelf, large: bool) -> _Store:
    stores = _server()
    name = _name(shelf, large)
    store = stores.get(name)
    if store is None:
        store = stores.setdefault(name, _Store(_bound(shelf, large)))
    return store


def _session_store(shelf: Shelf, large: bool) -> OrderedDict[Hashable, Any]:
    shelves = st.session_state.setdefault(SESSION_KEY, {})
    return shelves.setdefault(_name(shelf, large), OrderedDict())


def remember(shelf: Shelf, key: Hashable, compute: Callable[[], T], *,
             large: bool = False) -> T:
    """The result for `key` on `shelf`, computed by `compute()` only when not kept already.

    `large`: the result belongs to a large model, kept on the shelf's second, smaller tier
    (a few paper-base models must not fill a 2.7 GB server), with the shelf's spinner.
    """
    with st.spinner(t(shelf.spinner)) if large and shelf.spinner else nullcontext():
        if shelf.shared:
            return _remember_shared(_shared_store(shelf, large), key, compute)
        items = _session_store(shelf, large)
        if key in items:
            items.move_to_end(key)
            return items[key]
        value = compute()
        items[key] = value
        while len(items) > _bound(shelf, large):
            items.popitem(last=False)
        return value


def _remember_shared(store: _Store, key: Hashable, compute: Callable[[], T]) -> T:
    with store.lock:
        if key in store.items:
            store.items.move_to_end(key)
            return store.items[key]
        flight = store.flights.setdefault(key, threading.Lock())
    with flight:  # one session computes; the others wait for its result
        with store.lock:
            if key in store.items:
                store.items.move_to_end(key)
                return store.items[key]
        try:
            value = compute()
        finally:
            with store.lock:
                store.flights.pop(key, None)
        with store.lock:
            store.items[key] = value
            while len(store.items) > store.entries:
                store.items.popitem(last=False)
        return value


def known(shelf: Shelf, key: Hashable, *, large: bool = False) -> Any:
    """The result kept for `key`, or None (nothing is computed)."""
    if shelf.shared:
        store = _shared_store(shelf, large)
        with store.lock:
            return store.items.get(key)
    return _session_store(shelf, large).get(key)


def held(shelf: Shelf, *, large: bool = False) -> dict[Hashable, Any]:
    """A copy of what `shelf` keeps now (for tests and benches)."""
    if shelf.shared:
        store = _shared_store(shelf, large)
        with store.lock:
            return dict(store.items)
    return dict(_session_store(shelf, large))


def forget(shelf: Shelf, key: Hashable | None = None) -> None:
    """Drop `key` from `shelf` (both tiers), or everything on it when `key` is None."""
    for large in (False, True):
        if shelf.shared:
            store = _shared_store(shelf, large)
            with store.lock:
                store.items.clear() if key is None else store.items.pop(key, None)
        else:
            items = _session_store(shelf, large)
            items.clear() if key is None else items.pop(key, None)
