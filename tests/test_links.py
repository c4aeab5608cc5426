"""Shareable links through the whole app (AppTest): state -> URL -> state, tampered links,
presenter mode, and the language chosen by `?lang=`."""

from __future__ import annotations

import json

import pytest
from apptest_helpers import ROOT
from shared_inputs import bad_input_texts
from streamlit.testing.v1 import AppTest


def _open(query: dict[str, object], page: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_copied_link_opens_the_same_view():
    at = _open({}, "attention")
    at.text_input(key="source").set_value("我 爱 你 <b>x</b>").run()
    at.number_input(key="h").set_value(2).run()
    at.selectbox(key="attn_layer").set_value(1).run()
    at.selectbox(key="attn_head").set_value(1).run()
    at.radio(key="attn_kind").set_value("cross").run()
    assert not at.exception
    link = dict(at.query_params)
    assert link["src"] == "我 爱 你 <b>x</b>" and link["h"] == "2"
    assert (link["layer"], link["head"], link["kind"]) == ("1", "1", "cross")

    other = _open(link, "attention")  # another student opens the link
    assert other.text_input(key="source").value == "我 爱 你 <b>x</b>"
    assert other.number_input(key="h").value == 2
    assert other.selectbox(key="attn_layer").value == 1
    assert other.selectbox(key="attn_head").value == 1
    assert other.radio(key="attn_kind").value == "cross"
    assert dict(other.query_params) == link
    assert not other.sidebar.warning  # nothing refused


def test_default_view_is_the_bare_address():
    at = _open({}, "attention")
    assert dict(at.query_params) == {}


def _hostile() -> list[str]:
    texts = ["<script>alert(1)</script>", "1e999", "nan", "-1", "9" * 40]
    return texts + bad_input_texts(12)


@pytest.mark.parametrize("value", _hostile())
def test_tampered_links_fall_back_with_a_notice_never_an_error(value):
    at = _open({"N": value, "d": value, "head": value, "lang": value, "tok": value,
                "drop": value}, "attention")
    assert not at.exception
    notices = " ".join(w.value for w in at.sidebar.warning)
    assert "N" in notices and "d_model" in notices  # each refused value is named
    if isinstance(value, str) and len(value) > 3:
        assert value not in notices  # the client's text is never echoed
    assert at.number_input(key="N").value == 2  # the default (tiny) size
    assert at.selectbox(key="lang").value == "en"


def test_lang_in_the_link_switches_the_interface_to_chinese():
    at = _open({"lang": "zh"}, "masks")
    assert at.selectbox(key="lang").value == "zh"
    assert dict(at.query_params)["lang"] == "zh"
    assert any("掩码" in header.value for header in at.header)


def test_presenter_mode_enlarges_the_charts():
    at = _open({}, "attention")
    normal = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    at.toggle(key="presenter").set_value(True).run()
    assert not at.exception
    big = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    assert big["font"]["size"] >= 18 > normal.get("font", {}).get("size", 12)
    config = json.loads(at.get("plotly_chart")[0].proto.config)
    assert config["toImageButtonOptions"]["filename"].startswith("attention_enc_grid")
