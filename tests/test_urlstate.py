"""Shareable links: settings -> query parameters -> widget values, and tampered links."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_inputs import bad_input_texts

from explorer.core.settings import (
    CHOICES,
    LIMITS,
    MAX_DROPOUT,
    PRESETS,
    Settings,
    parse_settings,
)
from explorer.state.urlstate import (
    EXTRAS,
    params_to_state,
    preset_of,
    settings_to_params,
)
from explorer.state.view import MAX_PE_DIMS, PAGE_CHOICES, SIZED_KEY, Choice, Model
from transformer.tokenize import MAX_TEXT_CHARS

ROOT = Path(__file__).resolve().parents[1]
SIDEBAR_KEYS = ("source", "target", "token_mode", "preset", "N", "h", "d_model", "d_ff",
                "dropout", "seed", "norm_placement", "layer_norm", "scale_embedding",
                "tie_weights", "train_mode")
FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None)

OWN_BAD_INPUTS = ["", "   ", "<script>alert(1)</script>", "[click](javascript:alert(1))",
                  "\u202eevil", "x" * 5000, "我" * 1001, "$\\alpha$", "1e999", "nan", "-1",
                  "0x10", "٣", "2.5", "inf", "None", "true"]


def _bad_inputs() -> list[str]:
    return list(OWN_BAD_INPUTS) + bad_input_texts()


BAD_INPUTS = _bad_inputs()


def _through_url(params: dict[str, str]) -> dict[str, list[str]]:
    """What a browser sends back: urlencode, then parse_qs as Streamlit does."""
    return urllib.parse.parse_qs(urllib.parse.urlencode(params), keep_blank_values=True)


def _settings_of(state: dict[str, object]) -> Settings:
    raw = {k: state[k] for k in SIDEBAR_KEYS if k != "preset"}
    parsed = parse_settings(raw)
    assert parsed.errors == ()
    return parsed


# ---- Defaults and round trips -----------------------------------------------------------


def test_the_default_app_is_the_bare_address():
    assert settings_to_params(Settings()) == {}
    assert settings_to_params(Settings(), {k: v for k, (_, v) in EXTRAS.items()}) == {}
    state, notices = params_to_state({})
    assert notices == []
    assert set(state) == set(SIDEBAR_KEYS)
    assert state["preset"] == "tiny"
    assert _settings_of(state) == Settings()


def test_a_preset_is_written_as_its_name():
    paper = PRESETS["paper base"]
    s = Settings(N=paper.N, d_model=paper.d_model, h=paper.h, d_ff=paper.d_ff,
                 dropout=paper.dropout)
    assert settings_to_params(s) == {"preset": "paper base"}
    state, notices = params_to_state(_through_url(settings_to_params(s)))
    assert notices == [] and state["preset"] == "paper base"
    assert (state["N"], state["d_model"], state["h"], state["d_ff"]) == (6, 512, 8, 2048)


def test_a_preset_with_one_change_is_custom():
    state, notices = params_to_state({"preset": "small", "N": "3"})
    assert notices == []
    assert state["preset"] == "custom"
    assert (state["N"], state["d_model"], state["h"]) == (3, 128, 8)
    s = _settings_of(state)
    assert preset_of(s) == "custom"
    assert params_to_state(_through_url(settings_to_params(s)))[0] == state


def test_many_non_default_settings_round_trip_with_short_keys():
    s = Settings(source="我爱自然语言处理", target="I love NLP", token_mode="char", N=3,
                 d_model=48, h=6, d_ff=100, dropout=0.15000000000000002, seed=12345,
                 norm_placement="post", layer_norm="standard", scale_embedding=False,
                 tie_weights="all", train_mode=True)
    params = settings_to_params(s)
    assert set(params) == {"src", "tgt", "tok", "N", "d", "h", "ff", "drop", "seed", "norm",
                           "ln", "scale", "tie", "train"}
    assert params["scale"] == "0" and params["train"] == "1"
    query = urllib.parse.urlencode(params)
    assert query.isascii()
    state, notices = params_to_state(urllib.parse.parse_qs(query, keep_blank_values=True))
    assert notices == []
    assert _settings_of(state) == s
    assert state["preset"] == "custom"


def test_unicode_text_survives_percent_encoding_exactly():
    text = "Transformer模型很强大, attention is all you need 👨‍👩‍👧‍👦 é"
    params = settings_to_params(Settings(source=text, target="我爱自然语言处理"))
    back = _through_url(params)
    assert back["src"] == [text]
    state, notices = params_to_state(back)
    assert notices == [] and state["source"] == text and state["target"] == "我爱自然语言处理"


valid_settings = st.builds(
    Settings,
    source=st.text(max_size=60),
    target=st.text(max_size=30),
    token_mode=st.sampled_from(CHOICES["token_mode"]),
    N=st.integers(*LIMITS["N"]),
    d_model=st.integers(*LIMITS["d_model"]),
    h=st.integers(*LIMITS["h"]),
    d_ff=st.integers(*LIMITS["d_ff"]),
    dropout=st.floats(0.0, MAX_DROPOUT, allow_nan=False),
    seed=st.integers(*LIMITS["seed"]),
    norm_placement=st.sampled_from(CHOICES["norm_placement"]),
    layer_norm=st.sampled_from(CHOICES["layer_norm"]),
    scale_embedding=st.booleans(),
    tie_weights=st.sampled_from(CHOICES["tie_weights"]),
    train_mode=st.booleans(),
)


@FAST
@given(s=valid_settings)
def test_every_valid_setting_round_trips_through_a_url(s: Settings):
    state, notices = params_to_state(_through_url(settings_to_params(s)))
    assert notices == []
    assert _settings_of(state) == s
    assert state["preset"] == preset_of(s)


def _strategy(choice: Choice, model: Model):
    """Hypothesis values for one declared page choice, within what it allows for `model`."""
    if isinstance(choice.default, bool):
        return st.booleans()
    if choice.chars:
        return st.text(max_size=choice.chars)
    if choice.values is not None:
        allowed = choice.allowed(model)
        if choice.many:
            return st.lists(st.sampled_from(allowed), unique=True, max_size=len(allowed))
        return st.sampled_from(allowed)
    low, high = choice.bounds(model)
    if isinstance(choice.default, float):
        return st.floats(low, high, allow_nan=False)
    if choice.even:
        return st.integers(int(low) // 2 + int(low) % 2, int(high) // 2).map(lambda n: 2 * n)
    return st.integers(int(low), int(high))


@st.composite
def settings_and_extras(draw):
    s = draw(valid_settings)
    model = Model(N=s.N, h=s.h)
    extras = {c.url: draw(_strategy(c, model)) for c in PAGE_CHOICES}
    extras["dims"] = draw(st.lists(st.integers(0, extras["ped"] - 1), min_size=1,
                                   max_size=MAX_PE_DIMS, unique=True))
    return s, extras


@FAST
@given(both=settings_and_extras())
def test_page_selections_round_trip(both):
    s, extras = both
    state, notices = params_to_state(_through_url(settings_to_params(s, extras)))
    assert notices == []
    assert _settings_of(state) == s
    for key, (session_key, default) in EXTRAS.items():
        want = list(extras[key]) if key == "dims" else extras[key]
        if want == (list(default) if key == "dims" else default):
            assert session_key not in state  # defaults are not in the link
        else:
            assert state[session_key] == want


def test_page_selections_use_the_pages_widget_keys():
    views = [*(ROOT / "pages").glob("*.py"), *(ROOT / "explorer" / "sections").glob("*.py")]
    pages = "".join(p.read_text(encoding="utf-8") for p in views)
    for key, (session_key, _default) in EXTRAS.items():
        if session_key.startswith(SIZED_KEY):  # one box per size, keyed SIZED_KEY + name
            assert "SIZED_KEY + name" in pages, session_key
        elif key not in ("lang", "pres"):  # the sidebar's (explorer/app/sidebar.py)
            assert f'"{session_key}"' in pages or f'"{key}"' in pages, session_key
    ui = (ROOT / "explorer" / "app" / "sidebar.py").read_text(encoding="utf-8")
    for key in SIDEBAR_KEYS:
        assert f'"{key}"' in ui, key


def test_unknown_extras_are_a_programming_error_and_none_is_skipped():
    with pytest.raises(ValueError, match="layer"):
        settings_to_params(Settings(), {"layr": 1})
    assert settings_to_params(Settings(), {"layer": None, "dims": None}) == {}


def test_texts_too_long_for_a_link_are_left_out():
    s = Settings(source="a " * MAX_TEXT_CHARS, target="\ud800 lone surrogate")
    assert settings_to_params(s) == {}


def test_dims_may_come_as_repeated_parameters():
    state, notices = params_to_state({"dims": ["1", "3", "5"], "ped": "8"})
    assert notices == [] and state["pe_dims"] == [1, 3, 5] and state["pe_d_model"] == 8


# ---- Tampered links ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, value, session_key",
    [
        ("N", "0", "N"), ("N", "13", "N"), ("N", "-1", "N"), ("N", "2.5", "N"),
        ("N", "1e999", "N"), ("N", "nan", "N"), ("N", "inf", "N"), ("N", "10" * 40, "N"),
        ("N", "٣", "N"), ("N", "0x10", "N"), ("N", "", "N"), ("d", "100000", "d_model"),
        ("d", "1", "d_model"), ("h", "0", "h"), ("h", "33", "h"), ("ff", "9999999", "d_ff"),
        ("seed", "2147483648", "seed"), ("seed", "-5", "seed"),
        ("drop", "1", "dropout"), ("drop", "0.95", "dropout"), ("drop", "-0.1", "dropout"),
        ("drop", "nan", "dropout"), ("drop", "NaN", "dropout"), ("drop", "1e999", "dropout"),
        ("drop", "-inf", "dropout"), ("drop", "a lot", "dropout"), ("drop", "0.1.2", "dropout"),
        ("tok", "bytes", "token_mode"), ("tok", "WORD", "token_mode"),
        ("norm", "middle", "norm_placement"), ("ln", "rms", "layer_norm"),
        ("tie", "everything", "tie_weights"), ("scale", "maybe", "scale_embedding"),
        ("train", "2", "train_mode"), ("preset", "huge", "preset"),
        ("src", "x" * (MAX_TEXT_CHARS + 1), "source"), ("tgt", "我" * 5000, "target"),
    ],
)
def test_tampered_values_fall_back_with_one_friendly_notice(key, value, session_key):
    default_state, _ = params_to_state({})
    state, notices = params_to_state({key: value})
    assert len(notices) == 1, notices
    assert state[session_key] == default_state[session_key]
    assert len(notices[0]) < 300
    if len(value) > 3:
        assert value not in notices[0]
    _settings_of(state)  # the fallback is itself valid


@pytest.mark.parametrize(
    "params",
    [
        {"layer": "2"},  # the default tiny model has N = 2: layers 0 and 1
        {"head": "4"}, {"head": "-1"}, {"kind": "decoder"}, {"task": "translate"},
        {"lang": "fr"}, {"lang": "<b>zh</b>"}, {"ped": "21"}, {"ped": "0"}, {"ped": "2000"},
        {"dims": "4,4"}, {"dims": "20"}, {"dims": ",".join(map(str, range(13)))},
        {"dims": "a,b"}, {"dims": ""}, {"dims": "1," * 500},
        {"ped": "8", "dims": "4,5,6,7,8"},
    ],
)
def test_bad_page_selections_are_dropped_with_a_notice(params):
    state, notices = params_to_state(params)
    assert len(notices) >= 1
    assert not set(state) - set(SIDEBAR_KEYS) - {"pe_d_model"}


def test_a_layer_is_checked_against_the_links_own_n():
    state, notices = params_to_state({"N": "4", "layer": "3", "h": "8", "head": "7"})
    assert notices == [] and state["attn_layer"] == 3 and state["attn_head"] == 7


@pytest.mark.parametrize("text", BAD_INPUTS)
def test_hostile_text_as_a_sentence_is_kept_or_refused(text):
    state, notices = params_to_state(_through_url({"src": text, "tgt": text}))
    if len(text) <= MAX_TEXT_CHARS:
        assert notices == []
        assert state["source"] == text and state["target"] == text
    else:
        assert len(notices) == 2
        assert state["source"] == Settings().source and state["target"] == ""
        assert all(text not in n for n in notices)


# One case per parameter, each trying every hostile text (not one case per pair: 780 cases,
# mostly pytest's own overhead). That any query gives valid widget values is also
# test_any_query_gives_valid_widget_values's property; one notice per refused value, without
# the value in it, is this test's alone.
@pytest.mark.parametrize("key", ["N", "d", "h", "ff", "drop", "seed", "tok", "norm", "ln",
                                 "scale", "tie", "train", "preset", "layer", "head", "kind",
                                 "ped", "dims", "task", "lang"])
def test_hostile_text_as_any_other_parameter_is_refused_without_echo(key):
    for text in BAD_INPUTS:
        state, notices = params_to_state({key: text})
        plausible = text.strip().lower() in ("true", "1", "0") and key in ("scale", "train")
        if text == "" and key == "dims":
            plausible = False
        if not plausible:
            assert len(notices) == 1, (key, text, notices)
            if len(text.strip()) > 3:
                assert text not in notices[0], (key, text)
        _settings_of(state)


@pytest.mark.parametrize(
    "params",
    [
        {"N": 5}, {"N": None}, {"N": [5]}, {"N": ["1", 2]}, {"N": b"3"}, {"N": {"a": 1}},
        {"src": 42}, {"src": ["a", None]}, {"dims": [4, 5]}, {"dims": {"x": 1}},
        {"layer": 1.0}, {"scale": True},
    ],
)
def test_wrong_types_never_raise(params):
    state, notices = params_to_state(params)  # type: ignore[arg-type]
    _settings_of(state)
    assert len(notices) <= 1


@pytest.mark.parametrize("params", [None, [], "N=3", 42])
def test_not_a_mapping_gives_the_defaults(params):
    state, notices = params_to_state(params)  # type: ignore[arg-type]
    assert _settings_of(state) == Settings() and notices == []


def test_repeated_values_use_the_last_and_empty_lists_are_absent():
    state, notices = params_to_state({"N": ["1", "3"], "h": []})
    assert notices == [] and state["N"] == 3 and state["h"] == Settings().h


def test_unknown_parameters_are_ignored_silently():
    state, notices = params_to_state({"utm_source": "x", "embed": "true", "<script>": "1"})
    assert notices == [] and _settings_of(state) == Settings()


def test_booleans_accept_common_spellings():
    for word, want in (("true", True), ("ON", True), ("yes", True), ("false", False),
                       ("off", False), ("0", False)):
        state, notices = params_to_state({"train": word})
        assert notices == [] and state["train_mode"] is want


keys = st.sampled_from(["src", "tgt", "tok", "preset", "N", "d", "h", "ff", "drop", "seed",
                        "norm", "ln", "scale", "tie", "train", "lang", "layer", "head", "kind",
                        "ped", "dims", "task", "other"])
values = st.one_of(st.text(max_size=40), st.lists(st.text(max_size=10), max_size=3),
                   st.integers().map(str), st.floats().map(repr))


@FAST
@given(params=st.dictionaries(keys, values, max_size=8))
def test_any_query_gives_valid_widget_values(params):
    state, notices = params_to_state(params)
    _settings_of(state)
    assert len(notices) <= len(params)
    N, h = state["N"], state["h"]
    assert 0 <= state.get("attn_layer", 0) < N and 0 <= state.get("attn_head", 0) < h
    ped = state.get("pe_d_model", 20)
    assert all(0 <= d < ped for d in state.get("pe_dims", []))


def test_a_trained_models_layers_and_heads_are_not_bounded_by_the_sidebars_size():
    """The date translator or an import has its own N and h: the page checks a layer
    against those, so the link does not refuse one the sidebar's tiny model lacks."""
    state, notices = params_to_state({"model": "dates", "layer": "5", "kol": "3", "head": "7"})
    assert notices == []
    assert (state["attn_layer"], state["ko_layer"], state["attn_head"]) == (5, 3, 7)
    state, notices = params_to_state({"layer": "5"})  # the sidebar's own 2-layer model
    assert "attn_layer" not in state and len(notices) == 1
