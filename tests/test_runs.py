"""The explorer's model assembly and Runs: shared parts stay untouched, results read-only."""

import numpy as np
import pytest
import torch

from explorer.core.runs import assemble, build_body, forward, make_tokens, run_bytes
from explorer.core.settings import parse_settings
from explorer.core.shape_table import shape_rows
from transformer.tokenize import TokenizeError


def _cfg(vocab: int, **raw):
    return parse_settings(raw).model_config(vocab)


def _state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in model.state_dict().items()}


def test_assembling_and_running_leave_the_shared_body_untouched():
    tokens = make_tokens("the cat sat", "", "word")
    cfg = _cfg(len(tokens.vocab))
    body = build_body(cfg, seed=0, train_mode=False)
    before = _state(body)
    model = assemble(body, cfg, 0, tokens.vocab)
    forward(model, tokens)
    assert not body.training and not model.training
    assert all(not p.requires_grad for p in model.parameters())
    after = body.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_a_word_keeps_its_vector_when_other_words_change():
    a = make_tokens("the cat sat", "", "word")
    b = make_tokens("a cat ran far", "", "word")
    cfg_a, cfg_b = _cfg(len(a.vocab)), _cfg(len(b.vocab))
    body = build_body(cfg_a, seed=3, train_mode=False)
    ma, mb = assemble(body, cfg_a, 3, a.vocab), assemble(body, cfg_b, 3, b.vocab)
    row_a = ma.src_embed[0].lut.weight[a.vocab.stoi["cat"]]
    row_b = mb.src_embed[0].lut.weight[b.vocab.stoi["cat"]]
    assert torch.equal(row_a, row_b)
    other = assemble(body, cfg_a, 4, a.vocab).src_embed[0].lut.weight[a.vocab.stoi["cat"]]
    assert not torch.equal(row_a, other)  # the seed matters


def test_runs_are_read_only():
    tokens = make_tokens("the cat sat", "", "word")
    cfg = _cfg(len(tokens.vocab))
    run = forward(assemble(build_body(cfg, 0, False), cfg, 0, tokens.vocab), tokens)
    with pytest.raises(TypeError):
        run.cache["new"] = np.zeros(1)  # type: ignore[index]
    for array in (*run.cache.values(), run.src_mask, run.tgt_mask):
        with pytest.raises(ValueError):
            array[(0,) * array.ndim] = 1
    assert run.src_mask.dtype == bool and run.tgt_mask.shape == (1, 4, 4)


def test_blank_target_copies_the_source_and_errors_name_the_field():
    t = make_tokens("the cat", "\u200b\u200b", "word")  # invisible only: blank
    assert t.tgt_tokens == t.src_tokens == ("the", "cat")
    with pytest.raises(TokenizeError, match="^Source sentence:"):
        make_tokens("   ", "", "word")
    with pytest.raises(TokenizeError, match="^Target sentence:"):
        make_tokens("the cat", "x" * 5000, "word")


def test_cross_attention_keys_are_labelled_with_source_tokens():
    tokens = make_tokens("the cat sat on the mat", "le chat", "word")
    cfg = _cfg(len(tokens.vocab))
    run = forward(assemble(build_body(cfg, 0, False), cfg, 0, tokens.vocab), tokens)
    rows = {r.name: r for r in shape_rows(run.cache, cfg)}
    assert (rows["decoder.layers.0.src_attn.hook_k"].row_seq, "src") == ("src", "src")
    assert rows["decoder.layers.0.src_attn.hook_q"].row_seq == "tgt"
    pattern = rows["decoder.layers.0.src_attn.hook_pattern"]
    assert (pattern.row_seq, pattern.col_seq) == ("tgt", "src")
    assert run.cache[pattern.name].shape == (1, 4, 3, 6)


def test_run_bytes_grows_with_layers_heads_and_length():
    small = _cfg(20)
    big = _cfg(20, N=12, d_model=64, h=32, d_ff=64)
    assert run_bytes(small, 6, 7) < 200_000
    assert run_bytes(big, 64, 65) > 50_000_000  # must not sit in the many-entry cache
