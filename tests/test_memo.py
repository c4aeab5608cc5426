"""explorer/app/memo.py: the one way a result is kept (shared shelves and a session's own)."""

from __future__ import annotations

import threading

from streamlit.testing.v1 import AppTest

from explorer.app import memo


def test_a_shared_shelf_computes_a_key_once_while_others_wait_for_it():
    shelf = memo.Shelf("test: single flight", 4, shared=True)
    memo.forget(shelf)
    started, release, calls = threading.Event(), threading.Event(), []

    def slow():
        calls.append(1)
        started.set()
        release.wait(10)
        return object()

    results = []
    first = threading.Thread(target=lambda: results.append(memo.remember(shelf, "k", slow)))
    first.start()
    assert started.wait(10)
    others = [threading.Thread(target=lambda: results.append(memo.remember(shelf, "k", slow)))
              for _ in range(3)]
    for thread in others:
        thread.start()
    release.set()
    for thread in (first, *others):
        thread.join(10)
    assert len(calls) == 1 and len(results) == 4
    assert all(r is results[0] for r in results)


def test_a_shelf_drops_its_least_recently_used_result_and_keeps_large_ones_apart():
    shelf = memo.Shelf("test: bounds", 2, shared=True, large=1)
    memo.forget(shelf)
    for key in ("a", "b"):
        memo.remember(shelf, key, lambda k=key: k.upper())
    memo.remember(shelf, "a", lambda: "again")  # a hit: "a" is now the most recent
    memo.remember(shelf, "c", lambda: "C")
    assert memo.held(shelf) == {"a": "A", "c": "C"}
    memo.remember(shelf, "big1", lambda: 1, large=True)
    memo.remember(shelf, "big2", lambda: 2, large=True)
    assert memo.held(shelf, large=True) == {"big2": 2}
    assert memo.held(shelf) == {"a": "A", "c": "C"}  # large results never push out small ones
    assert memo.known(shelf, "zzz") is None
    memo.forget(shelf, "a")
    assert memo.held(shelf) == {"c": "C"}


def test_a_failed_computation_keeps_nothing_and_the_next_call_computes_again():
    shelf = memo.Shelf("test: failure", 2, shared=True)
    memo.forget(shelf)

    def fail():
        raise ValueError("no")

    try:
        memo.remember(shelf, "k", fail)
    except ValueError:
        pass
    assert memo.held(shelf) == {}
    assert memo.remember(shelf, "k", lambda: 3) == 3


_SESSION_SCRIPT = """
import streamlit as st
from explorer.app import memo

SHELF = memo.Shelf("test: a session's own", 2, shared=False)
value = memo.remember(SHELF, "k", lambda: st.session_state.setdefault("made", object()))
st.session_state["same"] = value is st.session_state["made"]
"""


def test_a_sessions_shelf_is_its_own():
    a, b = AppTest.from_string(_SESSION_SCRIPT), AppTest.from_string(_SESSION_SCRIPT)
    a.run()
    b.run()
    a.run()
    assert not a.exception and not b.exception
    assert a.session_state["same"] and b.session_state["same"]  # each computed its own
    assert a.session_state["made"] is not b.session_state["made"]
    assert list(a.session_state[memo.SESSION_KEY]) == ["test: a session's own"]


def test_learners_on_one_sentence_share_the_attention_pages_figures_but_not_dropouts():
    """What the Attention page computes from a run every session reads is made once: a
    class following one sentence builds each heatmap once (bench/classroom.py)."""
    from apptest_helpers import app

    from explorer.app.charts import SPECS
    from explorer.app.context import SHARED_RESULTS

    sentence = {"source": "shared shelves hold one figure", "target": "for every learner"}
    memo.forget(SHARED_RESULTS)
    a = app("attention", **sentence)
    made, specs = memo.held(SHARED_RESULTS), memo.held(SPECS)
    assert not a.exception
    assert {name[2] for name in made if name[0] == "run"} >= {"grid", "steps", "kv"}
    b = app("attention", **sentence)
    assert not b.exception
    assert memo.held(SHARED_RESULTS) == made  # the second learner built nothing
    assert all(memo.held(SPECS)[name] is spec for name, spec in specs.items())
    c = app("attention", train_mode=True, **sentence)  # dropout: a run of its own each time
    assert not c.exception and memo.held(SHARED_RESULTS) == made
