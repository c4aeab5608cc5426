"""Every sidebar value is validated again in Python: tampered values are refused politely."""

import math

import pytest

from explorer.core.settings import (
    MAX_PARAMS,
    PRESETS,
    Settings,
    architecture_problem,
    estimate_params,
    parse_settings,
    training_problem,
)
from transformer.model import make_model


def test_defaults_are_valid_and_tiny():
    s = parse_settings({})
    assert s.errors == ()
    assert s == Settings()
    assert (s.N, s.d_model, s.h, s.d_ff) == (2, 32, 4, 64)
    assert architecture_problem(s, 10) is None


@pytest.mark.parametrize(
    "field, value",
    [
        ("N", 0), ("N", 13), ("N", -1), ("N", 2.5), ("N", "6; rm -rf /"), ("N", None),
        ("N", True), ("N", math.nan), ("N", math.inf), ("N", 10**100),
        ("d_model", 1), ("d_model", 100000), ("h", 0), ("h", 999), ("d_ff", 0),
        ("d_ff", 10**9), ("seed", -5), ("seed", 2**40), ("dropout", 1.0), ("dropout", -0.1),
        ("dropout", math.nan), ("dropout", "a lot"), ("dropout", True),
        ("token_mode", "bytes"), ("norm_placement", "middle"), ("layer_norm", "rms"),
        ("tie_weights", "everything"), ("scale_embedding", "yes"), ("train_mode", 1),
        ("source", 42), ("target", ["list"]),
    ],
)
def test_tampered_values_fall_back_with_a_message(field, value):
    s = parse_settings({field: value})
    assert len(s.errors) == 1
    assert field.replace("_", " ") in s.errors[0] or field in s.errors[0]
    assert getattr(s, field) == getattr(Settings(), field)  # the default was kept
    assert "rm -rf" not in s.errors[0]  # raw client text is never echoed into Markdown


def test_whole_number_floats_are_accepted():
    assert parse_settings({"N": 3.0}).N == 3


def test_invalid_combination_explains_what_to_change():
    s = parse_settings({"d_model": 30, "h": 4})
    assert s.errors == ()  # each value is fine alone...
    problem = architecture_problem(s, 10)  # ...but not together
    assert problem is not None and "divisible" in problem and "h in" in problem
    odd = architecture_problem(parse_settings({"d_model": 33, "h": 3}), 10)
    assert odd is not None and "even" in odd


def test_param_cap_names_the_limit_and_paper_base_fits():
    base = PRESETS["paper base"]
    s = parse_settings({k: getattr(base, k) for k in ("N", "d_model", "h", "d_ff", "dropout")})
    assert architecture_problem(s, 60) is None
    huge = parse_settings({"N": 12, "d_model": 1024, "h": 16, "d_ff": 8192})
    problem = architecture_problem(huge, 60)
    assert problem is not None and f"{MAX_PARAMS / 1e6:.0f}M" in problem
    assert training_problem(s, 60) is not None and "tiny" in training_problem(s, 60)
    assert training_problem(parse_settings({}), 20) is None


@pytest.mark.parametrize("norm", ["pre", "post"])
@pytest.mark.parametrize("tie", ["none", "decoder", "all"])
@pytest.mark.parametrize("N,d_model,d_ff,vocab", [(1, 8, 16, 7), (2, 32, 64, 20), (3, 48, 10, 5)])
def test_estimate_params_matches_the_real_model(N, d_model, d_ff, vocab, tie, norm):
    model = make_model(vocab, vocab, N=N, d_model=d_model, d_ff=d_ff, h=2, tie_weights=tie,
                       norm_placement=norm)
    real = sum(p.numel() for p in model.parameters())  # parameters() skips tied duplicates
    assert estimate_params(N, d_model, d_ff, vocab, tie, norm) == real
