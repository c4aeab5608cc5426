"""Every number box of the app uses a number within its range and says so when it changed one.

Streamlit refuses a number outside a box's min and max in the browser only: "99" stayed in
the mask's box with a red border and Streamlit's English "Press Enter to apply", and the
figure kept the old size. The boxes give the browser no bounds (explorer/app/numbers.py):
Python puts the number in range, the box shows the number used, and a sentence in the
learner's language says what happened. A forged value (a link, a modified client) goes
through the same check. The browser's side: tests/test_e2e_inputs.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from apptest_helpers import app, app_in, array, figure_list
from shared_inputs import bad_input_texts

from explorer.state.view import MASK_LEN_RANGE, MASK_SIZE_RANGE, fit_number
from explorer.text.i18n import TABLES, Text

REASONS = ("below", "above", "odd", "not_whole", "not_number")


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def _heatmaps(fig: dict) -> list[dict]:
    return [t for t in fig["data"] if t.get("type") == "heatmap"]


def _said(lang: str, reason: str, name: str, given: str, low: int, high: int,
          used: str) -> str:
    return Text(lang)(f"number.{reason}", name=name, given=given, low=low, high=high, used=used)


# ---- the rule (pure) -------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "used", "reason"), [
    (5, 5, None), (1, 1, None), (32, 32, None), (5.0, 5, None),
    (0, 1, "below"), (-3, 1, "below"), (99, 32, "above"), (10**30, 32, "above"),
    (2.5, None, "not_whole"), (math.nan, None, "not_number"), (math.inf, None, "not_number"),
    (True, None, "not_number"), ("20", None, "not_number"), ([3], None, "not_number"),
    (None, None, None),
])
def test_a_number_outside_its_range_becomes_the_nearest_end(value, used, reason):
    fit = fit_number(value, 1, 32, default=None, blank=True)
    assert (fit.value, fit.reason) == (used, reason)
    assert fit.given is value


def test_an_even_box_rounds_up_within_its_range_and_an_empty_one_gets_its_default():
    assert fit_number(7, 2, 1024, default=20, even=True).value == 8
    assert fit_number(7, 2, 1024, default=20, even=True).reason == "odd"
    assert fit_number(1025, 2, 1024, default=20, even=True).value == 1024
    assert fit_number(1023, 2, 1023, default=20, even=True).value == 1022  # not past the end
    assert fit_number(None, 1, 12, default=3).value == 3  # not blank: None is not a number
    fit = fit_number(0.05, 0.1, 5.0, default=1.0, whole=False)
    assert (fit.value, fit.reason) == (0.1, "below") and isinstance(fit.value, float)


def test_every_sentence_of_a_box_exists_in_both_languages_with_the_same_fields():
    for reason in REASONS:
        for lang in TABLES:
            text = _said(lang, reason, "N", "99", 1, 12, "12")
            assert "{" not in text
        assert all(f"number.{r}" in TABLES["zh"] for r in REASONS)


# ---- the Masks page: the mask's size and the two sentence lengths ----------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("typed", "used", "reason"), [(0, 1, "below"), (99, 32, "above"),
                                                       (-3, 1, "below")])
def test_a_mask_size_outside_its_range_is_put_in_range_shown_and_said(lang, typed, used,
                                                                        reason):
    low, high = MASK_SIZE_RANGE
    with app_in(lang, "masks", source="a b c") as at:
        at.number_input(key="mask_size").set_value(typed).run()
        assert not at.exception
        assert at.number_input(key="mask_size").value == used  # the box shows the size used
        sub = array(_heatmaps(figure_list(at)[0])[0]["z"])
        assert sub.tolist() == np.tril(np.ones((used, used), dtype=int)).tolist()
        name = Text(lang)("mask.size_label")
        assert _said(lang, reason, name, str(typed), low, high, str(used)) in _warnings(at)
        at.run()  # said once: the next run has nothing to say
        assert not _warnings(at) and at.number_input(key="mask_size").value == used


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("typed", "used"), [(999, 12), (0, 1), (-3, 1)])
def test_a_sentence_length_outside_its_range_is_put_in_range_shown_and_said(lang, typed, used):
    low, high = MASK_LEN_RANGE
    with app_in(lang, "masks", source="a b c") as at:
        at.number_input(key="mask_len_b").set_value(typed).run()
        assert not at.exception
        assert at.number_input(key="mask_len_b").value == used
        pad = array(_heatmaps(figure_list(at)[1])[0]["z"])  # (2 sentences, the longer one)
        assert pad.shape == (2, max(3, used)) and pad[1].sum() == used
        name = Text(lang)("mask.len_label", name="B")
        reason = "above" if typed > high else "below"
        assert _said(lang, reason, name, str(typed), low, high, str(used)) in _warnings(at)


# ---- every other number box ---------------------------------------------------------------


BOXES = [  # (page, state, box key, its range, typed, used, its name's text key or its name)
    ("attention", {}, "N", (1, 12), 99, 12, "sidebar.N"),
    ("attention", {}, "h", (1, 32), 0, 1, "sidebar.h"),
    ("attention", {}, "d_model", (2, 1024), -3, 2, "d_model"),
    ("attention", {}, "d_ff", (1, 8192), 10**9, 8192, "d_ff"),
    ("attention", {}, "seed", (0, 2**31 - 1), -3, 0, "sidebar.seed"),
    ("embeddings", {}, "pe_d_model", (2, 1024), 99999, 1024, "emb.d_model_label"),
    ("embeddings", {}, "pe_d_model", (2, 1024), 0, 2, "emb.d_model_label"),
    ("train", {"tr_schedule": "noam"}, "tr_warmup", (1, 4000), 99999, 4000, "train.warmup"),
    ("train", {"tr_schedule": "noam"}, "tr_factor", (0.1, 5.0), 99.0, 5.0, "train.factor"),
    ("train", {"tr_noam_open": True}, "tr_noam_d", (2, 1024), 3000, 1024, "d_model"),
    ("train", {"tr_noam_open": True}, "tr_noam_warmup", (1, 20000), 0, 1, "warmup"),
    ("train", {"tr_noam_open": True}, "tr_noam_factor", (0.1, 5.0), -1.0, 0.1, "factor"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("page", "state", "key", "bounds", "typed", "used", "name"), BOXES,
                         ids=[f"{b[0]}-{b[2]}-{b[4]}" for b in BOXES])
def test_every_number_box_puts_a_typed_number_in_range_and_says_so(lang, page, state, key,
                                                                     bounds, typed, used, name):
    from explorer.app.numbers import number_text

    with app_in(lang, page, **state) as at:
        at.number_input(key=key).set_value(typed).run()
        assert not at.exception
        assert at.number_input(key=key).value == used
        said = _warnings(at) + [w.value for w in at.sidebar.warning]
        label = Text(lang)(name) if "." in name else name
        low, high = bounds
        assert _said(lang, "above" if typed > used else "below", label, number_text(typed),
                     number_text(low), number_text(high), number_text(used)) in said, said


def test_the_embeddings_page_still_rounds_an_odd_d_model_up_and_says_why():
    at = app("embeddings")
    at.number_input(key="pe_d_model").set_value(7).run()
    assert at.number_input(key="pe_d_model").value == 8
    assert any("rounded up to 8" in i.value for i in at.info)


# ---- forged values and hostile texts: never a traceback, never the text echoed --------------


FORGED = ["20", 2.5, True, math.nan, -math.inf, [3], {"x": 1}]  # not a number of the box


@pytest.mark.parametrize("value", FORGED + bad_input_texts(),
                         ids=[f"own-{i}" for i in range(len(FORGED))]
                         + [f"shared-{i}" for i in range(len(bad_input_texts()))])
def test_a_forged_number_falls_back_with_a_message_that_never_echoes_it(value):
    at = app("masks", source="a b c", mask_size=value, mask_len_a=value, N=value)
    assert not at.exception
    said = " ".join(_warnings(at) + [w.value for w in at.sidebar.warning])
    assert at.number_input(key="mask_len_a").value == 3  # the default length
    assert at.number_input(key="N").value == 2  # the default model's
    assert array(_heatmaps(figure_list(at)[0])[0]["z"]).shape == (4, 4)  # the sentence's
    if isinstance(value, str) and len(value.strip()) > 2:
        assert value not in said


@pytest.mark.parametrize("text", bad_input_texts() + ["<b>x</b> 99", "‮99"])
def test_a_hostile_sentence_with_out_of_range_numbers(text):
    """The sentence box takes any text while the number boxes hold numbers out of range."""
    at = app("masks", source=text, mask_size=99, mask_len_b=999)
    assert not at.exception
    assert at.number_input(key="mask_size").value == 32
    assert at.number_input(key="mask_len_b").value == 12
    for fig in figure_list(at):
        dumped = str(fig)
        for tag in ("<b>", "<a ", "<span", "<script"):
            assert tag not in dumped, (text, tag)


@pytest.mark.parametrize(("page", "key", "bounds"), [
    ("attention", "dropout", (0.0, 0.9)), ("train", "tr_steps", (50, 2000)),
    ("train", "tr_smoothing", (0.0, 0.5)), ("embeddings", "pe_positions", (10, 1000))])
@pytest.mark.parametrize("forged", ["x", 10**9, -5, math.nan])
def test_a_forged_slider_value_is_refused_without_a_traceback(page, key, bounds, forged):
    """A slider cannot be set off its range in the browser, but session state can (Streamlit
    then raised "value is less than the min_value" from the widget itself)."""
    at = app(page, **{key: forged})
    assert not at.exception
    low, high = bounds
    assert low <= at.slider(key=key).value <= high
