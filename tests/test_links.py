"""Shareable links through the whole app (AppTest): state -> URL -> state, tampered links,
the language chosen by `?lang=`, a choice the model lost leaving the link, and every page's
choices (presenter mode included) travelling in it."""

from __future__ import annotations

import pytest
from apptest_helpers import ROOT, app, reopen
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


# A few values through the whole app: that every hostile text (the shared ones included) is
# refused for every parameter, once and without echo, is tests/test_urlstate.py's
# test_hostile_text_as_any_other_parameter_is_refused_without_echo, on params_to_state.
@pytest.mark.parametrize("value", ["<script>alert(1)</script>", "1e999", "nan", "-1", "9" * 40])
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


# ---- The link equals the view: a choice the model lost leaves the link ----------------------


def test_a_layer_and_head_the_model_lost_leave_the_link():
    at = app("attention", attn_layer=1, attn_head=3)
    assert dict(at.query_params)["layer"] == "1" and dict(at.query_params)["head"] == "3"
    at.number_input(key="N").set_value(1).run()
    at.number_input(key="h").set_value(2).run()
    assert not at.exception
    assert "layer" not in at.query_params and "head" not in at.query_params
    assert (at.selectbox(key="attn_layer").value, at.selectbox(key="attn_head").value) == (0, 0)


def test_a_layer_filter_the_model_lost_leaves_the_link():
    at = app("shapes", shape_layer="layer 1")
    assert dict(at.query_params)["sl"] == "layer 1"
    at.number_input(key="N").set_value(1).run()
    assert not at.exception
    assert at.selectbox(key="shape_layer").value == "all"
    assert "sl" not in at.query_params
    other = reopen(at, "shapes")
    assert not other.sidebar.warning  # nothing in the link was refused
    assert other.selectbox(key="shape_layer").value == "all"


# (PE dimensions the d_model lost: tests/test_page_embeddings.py)


def test_an_odd_pe_d_model_is_rounded_in_the_widget_and_the_link():
    at = app("embeddings")
    at.number_input(key="pe_d_model").set_value(7).run()
    assert not at.exception
    assert at.number_input(key="pe_d_model").value == 8
    assert dict(at.query_params)["ped"] == "8"
    assert any("rounded up to 8" in i.value for i in at.info)


# ---- Every page's choices travel in the link ------------------------------------------------


@pytest.mark.parametrize(("page", "state", "link"), [
    ("attention", {"presenter": True, "attn_average": True}, {"pres": "1", "avg": "1"}),
    ("masks", {"mask_len_a": 2, "mask_len_b": 6, "mask_size": 20},
     {"la": "2", "lb": "6", "ms": "20"}),
    ("shapes", {"shape_stack": "Decoder", "shape_layer": "layer 1", "shape_attn": True},
     {"part": "Decoder", "sl": "layer 1", "sattn": "1"}),
])
def test_presenter_averaging_lengths_and_filters_travel_in_the_link(page, state, link):
    at = app(page, **state)
    assert not at.exception
    assert link.items() <= dict(at.query_params).items()
    other = AppTest.from_file(str(at._script_path), default_timeout=120)
    other.query_params.update(dict(at.query_params))
    other.switch_page(f"pages/{page}.py")
    other.run()
    assert not other.exception
    for key, value in state.items():
        assert other.session_state[key] == value, key
    assert not other.sidebar.warning


def test_the_share_box_shows_the_link_of_the_view():
    at = app("attention", attn_layer=1)
    code = [c.value for c in at.sidebar.get("code")]
    assert code == ["?layer=1"]  # AppTest has no address; the browser puts it in front
