"""Helpers for AppTest-based page tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
PAPER_BASE = {"preset": "paper base", "N": 6, "d_model": 512, "h": 8, "d_ff": 2048,
              "dropout": 0.1}


@pytest.fixture(autouse=True)
def own_class_store(tmp_path, monkeypatch):
    """A fresh class store for each test (the app's cache_resource is per process), and no
    public address setting but the test's own. Autouse in each module that imports it."""
    from explorer.app import classroom as C

    monkeypatch.setenv(C.DATA_ENV, str(tmp_path))
    monkeypatch.delenv(C.STORE_ENV, raising=False)
    monkeypatch.delenv(C.PUBLIC_URL_SETTING, raising=False)
    C.class_store.clear()
    yield
    C.class_store.clear()


def app(page: str | None = None, timeout: float = 120, **state: object) -> AppTest:
    """Run the whole app (sidebar + navigation) on `page` with session state preset."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    if "imported_checkpoint" in state:  # loading one in the sidebar also shows it
        state.setdefault("model_source", "imported")
    for key, value in state.items():
        at.session_state[key] = value
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    at.run()
    return at


@contextmanager
def app_in(lang: str, page: str, **state: object) -> Iterator[AppTest]:
    """`app(page, lang=lang, ...)`, with the test's own thread in `lang` too: AppTest formats
    a widget's values again in the test's thread when a test sets or clicks one."""
    from explorer.text.i18n import set_lang

    set_lang(lang)
    try:
        yield app(page, lang=lang, **state)
    finally:
        set_lang("en")


def figures(at: AppTest) -> dict[str, dict]:
    """The plotly figures on the page as dicts, by element key when it has one."""
    out = {}
    for i, el in enumerate(at.get("plotly_chart")):
        spec = json.loads(el.proto.spec)
        out[el.proto.id or str(i)] = spec
    return out


def figure_list(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def all_text(fig: dict) -> str:
    """Every string in a figure spec (labels, titles, hover text), for escaping checks."""
    return json.dumps(fig, ensure_ascii=False)


def array(value: object):
    """A trace's data as numpy, whether plain lists or plotly's base64 typed arrays."""
    import base64

    import numpy as np

    if isinstance(value, dict) and "bdata" in value:
        a = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if shape:
            a = a.reshape([int(s) for s in str(shape).split(",")])
        return a
    return np.asarray(value, dtype=float)


def chart_names(at: AppTest) -> dict[str, str]:
    """The PNG file name (without .png) of every chart, by the chart's element key."""
    return {el.proto.id.rsplit("-", 1)[-1]:
            json.loads(el.proto.config)["toImageButtonOptions"]["filename"]
            for el in at.get("plotly_chart")}


def reopen(at: AppTest, page: str) -> AppTest:
    """A new session opened with the link `at` shows (as a learner pastes it)."""
    other = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    other.query_params.update(dict(at.query_params))
    other.switch_page(f"pages/{page}.py")
    other.run()
    assert not other.exception, other.exception
    return other
