"""A model at sizes of the learner's own: d_v apart from d_k, source and target vocabularies
of their own sizes, and the shapes explorer/core/sized.py reads off a model built on the
meta device, checked against a real forward pass of the same model code."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from explorer.core.sized import (
    CONFIG_SIZES,
    WALK_SIZES,
    WEIGHT_KINDS,
    sized_config,
    sized_model,
)
from transformer.config import ConfigError, TransformerConfig
from transformer.hook_paths import attention_hook, generator_hook
from transformer.hooks import capture
from transformer.model import MultiHeadedAttention, build_model, subsequent_mask

ROOT = Path(__file__).resolve().parents[1]
SMALL = dict(src_vocab=7, tgt_vocab=11, N=2, d_model=12, h=3, d_ff=16, d_v=5)


def test_attention_with_d_v_apart_from_d_k_is_the_paper_s_formula_written_out():
    torch.manual_seed(0)
    h, d_model, d_v = 3, 12, 5
    mha = MultiHeadedAttention(h, d_model, dropout=0.0, d_v=d_v).eval()
    x = torch.randn(2, 4, d_model)  # (batch, seq, d_model)
    w_q, w_k, w_v, w_o = mha.linears
    d_k = d_model // h
    heads = []
    for i in range(h):  # head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V) (section 3.2.2)
        q = w_q(x)[..., i * d_k:(i + 1) * d_k]  # (batch, seq, d_k)
        k = w_k(x)[..., i * d_k:(i + 1) * d_k]
        v = w_v(x)[..., i * d_v:(i + 1) * d_v]  # (batch, seq, d_v)
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)
        heads.append(weights @ v)
    expected = w_o(torch.cat(heads, dim=-1))  # Concat(head_1..h) W^O
    assert w_v.weight.shape == (h * d_v, d_model) and w_o.weight.shape == (d_model, h * d_v)
    torch.testing.assert_close(mha(x, x, x), expected)


def test_without_d_v_the_attention_is_the_annotated_transformer_s_four_copies():
    mha = MultiHeadedAttention(4, 16)
    assert [tuple(lin.weight.shape) for lin in mha.linears] == [(16, 16)] * 4
    assert mha.d_v == mha.d_k == 4
    assert "d_v" not in mha.extra_repr()
    assert TransformerConfig(5, 5, d_model=16, h=4).value_dim == 4
    assert TransformerConfig(5, 5, d_model=16, h=4, d_v=7).value_dim == 7


def test_the_walk_through_s_model_gives_logits_of_its_target_vocabulary():
    """Seed 004: 500 source and 1000 target tokens, d_model 512, 8 heads, 6 layers, a batch
    of 2 x 4: logits (2, 4, 1000), and tables of 500 and 1000 rows."""
    sizes = {k: WALK_SIZES[k] for k in CONFIG_SIZES}
    sized = sized_model(sized_config(**sizes), WALK_SIZES["batch"], WALK_SIZES["length"])
    assert sized.logits == (2, 4, 1000)
    shapes = dict(zip(WEIGHT_KINDS, (shape for _, shape in sized.weights), strict=True))
    assert shapes["src_embed"] == (500, 512) and shapes["tgt_embed"] == (1000, 512)
    assert shapes["generator"] == (1000, 512)
    # the paper's base model with these tables: 44.1M in the stacks, the rest in the tables
    assert sized.parameters == 45_421_544


@pytest.mark.parametrize("sizes", [SMALL, {**SMALL, "d_v": 4}, {**SMALL, "src_vocab": 11}])
def test_every_shape_read_off_the_meta_model_is_the_shape_of_a_real_pass(sizes):
    batch, length = 2, 5
    cfg = sized_config(**sizes)
    sized = sized_model(cfg, batch, length)
    model = build_model(cfg, seed=0).eval()
    src = torch.randint(0, cfg.src_vocab, (batch, length))
    tgt = torch.randint(0, cfg.tgt_vocab, (batch, length))
    src_mask = torch.ones(batch, 1, length, dtype=torch.bool)
    tgt_mask = subsequent_mask(length).expand(batch, length, length)
    with torch.no_grad(), capture(model) as cache:
        model.generator(model(src, tgt, src_mask, tgt_mask))
    for point, shape in sized.attention:
        assert tuple(cache[attention_hook("encoder", 0, "self_attn", point)].shape) == shape
    assert tuple(cache[generator_hook("hook_logits")].shape) == sized.logits
    params = dict(model.named_parameters())
    for name, shape in sized.weights:
        assert tuple(params[name].shape) == shape
    assert sized.parameters == sum(p.numel() for p in model.parameters())


@pytest.mark.parametrize(("change", "key"), [
    ({"d_v": 0}, "config.at_least"),
    ({"d_model": 13}, "config.even"),
    ({"h": 5}, "config.heads_widths"),
])
def test_sizes_that_cannot_build_are_refused_with_a_reason(change, key):
    with pytest.raises(ConfigError) as err:
        sized_config(**{**SMALL, **change})
    assert err.value.key == key


def test_the_meta_build_loads_nothing_heavy_and_allocates_no_tables():
    """On the meta device nn.Embedding's normal_ fill would load torch._dynamo (75 MB, over
    a second, once per server): the build skips it."""
    code = ("import sys; from explorer.core.sized import sized_config, sized_model; "
            "s = sized_model(sized_config(500, 1000, 6, 512, 8, 2048, 64), 2, 4); "
            "assert s.logits == (2, 4, 1000); print('torch._dynamo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_a_change_of_batch_or_length_does_not_build_the_model_again():
    from explorer.core import sized as S

    cfg = sized_config(**SMALL)
    S.sized_model(cfg, 2, 4)
    built = S._built.cache_info().misses
    other = S.sized_model(cfg, 7, 11)
    assert S._built.cache_info().misses == built
    assert other.logits[:2] == (7, 11) and other.attention[3][1][-1] == 11
