"""The model: Annotated-Transformer compatibility, the seeds' examples, torch.nn equivalence,
validation, weight tying, determinism, and the shape of every captured tensor."""

from __future__ import annotations

import math
import re
import threading

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from transformer.hooks import capture, hook_names
from transformer.model import (
    LayerNorm,
    MultiHeadedAttention,
    PositionalEncoding,
    TransformerConfig,
    attention,
    make_model,
    subsequent_mask,
)
from transformer.tasks import make_task
from transformer.train import Batch, TrainConfig, train

# ---------------------------------------------------------------------------------------
# Helpers written from the Annotated Transformer, independently of transformer/
# ---------------------------------------------------------------------------------------


def annotated_shapes(src_vocab, tgt_vocab, N, d_model, d_ff, h, max_len=5000):
    """Every state_dict key of the reference `make_model` and the shape of its tensor."""
    shapes: dict[str, tuple[int, ...]] = {}

    def attn(prefix):
        for j in range(4):
            shapes[f"{prefix}.linears.{j}.weight"] = (d_model, d_model)
            shapes[f"{prefix}.linears.{j}.bias"] = (d_model,)

    def ff(prefix):
        shapes[f"{prefix}.w_1.weight"] = (d_ff, d_model)
        shapes[f"{prefix}.w_1.bias"] = (d_ff,)
        shapes[f"{prefix}.w_2.weight"] = (d_model, d_ff)
        shapes[f"{prefix}.w_2.bias"] = (d_model,)

    def norm(prefix):
        shapes[f"{prefix}.a_2"] = (d_model,)
        shapes[f"{prefix}.b_2"] = (d_model,)

    for i in range(N):
        p = f"encoder.layers.{i}"
        attn(f"{p}.self_attn")
        ff(f"{p}.feed_forward")
        for k in range(2):
            norm(f"{p}.sublayer.{k}.norm")
    norm("encoder.norm")
    for i in range(N):
        p = f"decoder.layers.{i}"
        attn(f"{p}.self_attn")
        attn(f"{p}.src_attn")
        ff(f"{p}.feed_forward")
        for k in range(3):
            norm(f"{p}.sublayer.{k}.norm")
    norm("decoder.norm")
    shapes["src_embed.0.lut.weight"] = (src_vocab, d_model)
    shapes["src_embed.1.pe"] = (1, max_len, d_model)
    shapes["tgt_embed.0.lut.weight"] = (tgt_vocab, d_model)
    shapes["tgt_embed.1.pe"] = (1, max_len, d_model)
    shapes["generator.proj.weight"] = (tgt_vocab, d_model)
    shapes["generator.proj.bias"] = (tgt_vocab,)
    return shapes


def numpy_pe(max_len: int, d_model: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d))."""
    pos = np.arange(max_len, dtype=np.float64)[:, None]
    two_i = np.arange(0, d_model, 2, dtype=np.float64)[None, :]
    angle = pos / np.power(10000.0, two_i / d_model)
    pe = np.zeros((max_len, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def annotated_state_dict(shapes, seed: int) -> dict[str, torch.Tensor]:
    """Random weights under the Annotated keys; pe holds the sinusoid, norms stay near 1/0."""
    gen = torch.Generator().manual_seed(seed)
    sd = {}
    for key, shape in shapes.items():
        if key.endswith(".pe"):
            sd[key] = torch.from_numpy(numpy_pe(shape[1], shape[2])).float().unsqueeze(0)
        elif key.endswith(".a_2"):
            sd[key] = 1.0 + 0.1 * torch.randn(shape, generator=gen)
        else:
            sd[key] = 0.2 * torch.randn(shape, generator=gen)
    return sd


def reference_forward(sd, src, tgt, src_mask, tgt_mask, N, h):
    """The Annotated Transformer's forward pass, written out on a state dict (float64)."""
    sd = {k: v.double() for k, v in sd.items()}
    d_model = sd["src_embed.0.lut.weight"].shape[1]
    d_k = d_model // h

    def ln(x, p):  # The Annotated LayerNorm: unbiased std, eps added to the std
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return sd[p + ".a_2"] * (x - mean) / (std + 1e-6) + sd[p + ".b_2"]

    def lin(x, p):
        return x @ sd[p + ".weight"].T + sd[p + ".bias"]

    def mha(p, q, k, v, mask):
        b = q.shape[0]

        def split(x, j):
            return lin(x, f"{p}.linears.{j}").view(b, -1, h, d_k).transpose(1, 2)

        Q, K, V = split(q, 0), split(k, 1), split(v, 2)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
        scores = scores.masked_fill(mask.unsqueeze(1) == 0, -1e9)
        z = scores.softmax(-1) @ V
        return lin(z.transpose(1, 2).reshape(b, -1, h * d_k), f"{p}.linears.3")

    def ffn(p, x):
        return lin(lin(x, p + ".w_1").relu(), p + ".w_2")

    def embed(p, ids):
        table, pe = sd[p + ".0.lut.weight"], sd[p + ".1.pe"]
        return table[ids] * math.sqrt(d_model) + pe[:, : ids.shape[1]]

    x = embed("src_embed", src)
    for i in range(N):
        p = f"encoder.layers.{i}"
        y = ln(x, p + ".sublayer.0.norm")
        x = x + mha(p + ".self_attn", y, y, y, src_mask)
        x = x + ffn(p + ".feed_forward", ln(x, p + ".sublayer.1.norm"))
    m = ln(x, "encoder.norm")
    x = embed("tgt_embed", tgt)
    for i in range(N):
        p = f"decoder.layers.{i}"
        y = ln(x, p + ".sublayer.0.norm")
        x = x + mha(p + ".self_attn", y, y, y, tgt_mask)
        x = x + mha(p + ".src_attn", ln(x, p + ".sublayer.1.norm"), m, m, src_mask)
        x = x + ffn(p + ".feed_forward", ln(x, p + ".sublayer.2.norm"))
    return F.log_softmax(lin(ln(x, "decoder.norm"), "generator.proj"), dim=-1)


def ids(gen, batch, length, vocab, low=1):
    return torch.randint(low, vocab, (batch, length), generator=gen)


@pytest.fixture
def no_mha_fastpath():
    """torch.nn's fused inference path skips padded positions; compare the plain math."""
    before = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)
    yield
    torch.backends.mha.set_fastpath_enabled(before)


# ---------------------------------------------------------------------------------------
# 1. state_dict compatibility with The Annotated Transformer
# ---------------------------------------------------------------------------------------


def assert_annotated_layout(model, shapes):
    sd = model.state_dict()
    assert set(sd) == set(shapes), (
        f"missing {sorted(set(shapes) - set(sd))[:5]}, extra {sorted(set(sd) - set(shapes))[:5]}"
    )
    for key, shape in shapes.items():
        assert tuple(sd[key].shape) == shape, key


def test_state_dict_layout_paper_defaults():
    model = make_model(11, 13, seed=0)  # N=6, d_model=512, d_ff=2048, h=8
    assert_annotated_layout(model, annotated_shapes(11, 13, 6, 512, 2048, 8))


@pytest.mark.parametrize(
    "options", [{}, {"layer_norm": "standard"}, {"scale_embedding": False}, {"dropout": 0.0}]
)
def test_state_dict_layout_small(options):
    model = make_model(7, 9, N=2, d_model=16, d_ff=24, h=4, seed=0, **options)
    assert_annotated_layout(model, annotated_shapes(7, 9, 2, 16, 24, 4))


def test_post_norm_layout_is_annotated_minus_final_norms():
    model = make_model(7, 9, N=2, d_model=16, d_ff=24, h=4, seed=0, norm_placement="post")
    shapes = annotated_shapes(7, 9, 2, 16, 24, 4)
    for key in ("encoder.norm.a_2", "encoder.norm.b_2", "decoder.norm.a_2", "decoder.norm.b_2"):
        del shapes[key]
    assert isinstance(model.encoder.norm, nn.Identity)
    assert isinstance(model.decoder.norm, nn.Identity)
    assert_annotated_layout(model, shapes)


def test_annotated_checkpoint_loads_strict_and_drives_outputs(tmp_path):
    src_vocab, tgt_vocab, N, d_model, d_ff, h = 9, 11, 2, 16, 32, 4
    shapes = annotated_shapes(src_vocab, tgt_vocab, N, d_model, d_ff, h)
    sd = annotated_state_dict(shapes, seed=123)
    path = tmp_path / "annotated.pt"
    torch.save(sd, path)

    models = []
    for seed in (0, 1):  # different initial weights, same checkpoint
        model = make_model(src_vocab, tgt_vocab, N, d_model, d_ff, h, dropout=0.1, seed=seed)
        result = model.load_state_dict(torch.load(path), strict=True)
        assert not result.missing_keys and not result.unexpected_keys
        model.eval()
        models.append(model)

    gen = torch.Generator().manual_seed(0)
    src = ids(gen, 2, 5, src_vocab)
    src[1, 3:] = 0  # padding
    tgt = ids(gen, 2, 4, tgt_vocab)
    src_mask = (src != 0).unsqueeze(-2)
    tgt_mask = subsequent_mask(4)
    with torch.no_grad():
        outs = [m.generator(m(src, tgt, src_mask, tgt_mask)) for m in models]
        fresh = make_model(src_vocab, tgt_vocab, N, d_model, d_ff, h, dropout=0.0, seed=0).eval()
        fresh_out = fresh.generator(fresh(src, tgt, src_mask, tgt_mask))
    assert torch.equal(outs[0], outs[1])
    assert not torch.allclose(outs[0], fresh_out, atol=1e-3)
    expected = reference_forward(sd, src, tgt, src_mask, tgt_mask, N, h)
    torch.testing.assert_close(outs[0], expected.float(), atol=1e-5, rtol=1e-5)


# ---------------------------------------------------------------------------------------
# 2. The seeds' worked examples
# ---------------------------------------------------------------------------------------


def test_subsequent_mask_is_lower_triangular():
    mask = subsequent_mask(5)
    assert mask.dtype == torch.bool and mask.shape == (1, 5, 5)
    expected = torch.tensor([[1 if j <= i else 0 for j in range(5)] for i in range(5)])
    assert torch.equal(mask[0], expected.bool())


def test_batch_masks_for_lengths_3_and_4():
    tgt = torch.tensor([[5, 6, 7, 0], [5, 6, 7, 8]])
    mask = Batch.make_std_mask(tgt, 0)
    expected = torch.tensor(
        [
            [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]],
            [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]],
        ]
    ).bool()
    assert mask.shape == (2, 4, 4)
    assert torch.equal(mask, expected)
    src_mask = Batch(tgt, pad=0).src_mask
    assert src_mask.shape == (2, 1, 4)
    assert torch.equal(src_mask, torch.tensor([[[1, 1, 1, 0]], [[1, 1, 1, 1]]]).bool())


def test_fully_blocked_row_gets_exactly_uniform_weights():
    torch.manual_seed(0)
    q, k, v = torch.randn(1, 2, 3, 8), torch.randn(1, 2, 4, 8), torch.randn(1, 2, 4, 8)
    mask = torch.zeros(1, 1, 3, 4, dtype=torch.bool)
    _, p = attention(q, k, v, mask=mask)
    assert torch.equal(p, torch.full((1, 2, 3, 4), 0.25))


def test_multi_headed_attention_shape():
    torch.manual_seed(0)
    mha = MultiHeadedAttention(8, 512)
    x = torch.randn(2, 4, 512)
    assert mha(x, x, x).shape == (2, 4, 512)


# ---------------------------------------------------------------------------------------
# 3. Positional encoding
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("d_model", [20, 512])
def test_positional_encoding_matches_numpy(d_model):
    pe = PositionalEncoding(d_model, dropout=0.0).pe
    assert pe.shape == (1, 5000, d_model) and pe.dtype == torch.float32
    np.testing.assert_allclose(pe[0].numpy(), numpy_pe(5000, d_model), rtol=0, atol=1e-6)


def test_model_pe_buffers_are_the_sinusoid():
    model = make_model(5, 6, N=1, d_model=20, d_ff=8, h=2, seed=0)
    for embed in (model.src_embed, model.tgt_embed):
        np.testing.assert_allclose(embed[1].pe[0].numpy(), numpy_pe(5000, 20), rtol=0, atol=1e-6)


# ---------------------------------------------------------------------------------------
# 4. Equivalence with torch.nn
# ---------------------------------------------------------------------------------------


def copy_attention(ours: MultiHeadedAttention, theirs: nn.MultiheadAttention) -> None:
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.linears[j].weight for j in range(3)]))
        theirs.in_proj_bias.copy_(torch.cat([ours.linears[j].bias for j in range(3)]))
        theirs.out_proj.weight.copy_(ours.linears[3].weight)
        theirs.out_proj.bias.copy_(ours.linears[3].bias)


def copy_norm(ours: LayerNorm, theirs: nn.LayerNorm) -> None:
    with torch.no_grad():
        theirs.weight.copy_(ours.a_2)
        theirs.bias.copy_(ours.b_2)


def copy_ff(ours, their_layer) -> None:
    with torch.no_grad():
        their_layer.linear1.weight.copy_(ours.w_1.weight)
        their_layer.linear1.bias.copy_(ours.w_1.bias)
        their_layer.linear2.weight.copy_(ours.w_2.weight)
        their_layer.linear2.bias.copy_(ours.w_2.bias)


def randomise_norms(model, seed):
    """LayerNorm starts at a_2 = 1, b_2 = 0; make them matter for the comparison."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, LayerNorm):
                m.a_2.copy_(1 + 0.2 * torch.randn(m.a_2.shape, generator=gen))
                m.b_2.copy_(0.2 * torch.randn(m.b_2.shape, generator=gen))


TORCH_CONFIGS = [  # N, d_model, h, d_ff, batch, src_len, tgt_len
    (1, 16, 1, 8, 1, 3, 4),
    (2, 16, 2, 32, 2, 5, 3),
    (1, 32, 4, 16, 3, 7, 6),
    (2, 32, 4, 64, 2, 4, 7),
    (2, 16, 4, 24, 3, 6, 5),
]


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True:UserWarning")
@pytest.mark.parametrize("placement", ["pre", "post"])
@pytest.mark.parametrize("N, d_model, h, d_ff, batch, src_len, tgt_len", TORCH_CONFIGS)
def test_stacks_match_torch_transformer(
    no_mha_fastpath, placement, N, d_model, h, d_ff, batch, src_len, tgt_len
):
    torch.manual_seed(0)
    ours = make_model(
        10, 10, N, d_model, d_ff, h, dropout=0.0, seed=1,
        layer_norm="standard", norm_placement=placement,
    ).eval()
    randomise_norms(ours, seed=2)
    pre = placement == "pre"
    theirs = nn.Transformer(
        d_model, nhead=h, num_encoder_layers=N, num_decoder_layers=N, dim_feedforward=d_ff,
        dropout=0.0, batch_first=True, norm_first=pre,
    ).eval()
    for ol, tl in zip(ours.encoder.layers, theirs.encoder.layers, strict=True):
        copy_attention(ol.self_attn, tl.self_attn)
        copy_ff(ol.feed_forward, tl)
        copy_norm(ol.sublayer[0].norm, tl.norm1)
        copy_norm(ol.sublayer[1].norm, tl.norm2)
    for ol, tl in zip(ours.decoder.layers, theirs.decoder.layers, strict=True):
        copy_attention(ol.self_attn, tl.self_attn)
        copy_attention(ol.src_attn, tl.multihead_attn)
        copy_ff(ol.feed_forward, tl)
        copy_norm(ol.sublayer[0].norm, tl.norm1)
        copy_norm(ol.sublayer[1].norm, tl.norm2)
        copy_norm(ol.sublayer[2].norm, tl.norm3)
    if pre:
        copy_norm(ours.encoder.norm, theirs.encoder.norm)
        copy_norm(ours.decoder.norm, theirs.decoder.norm)
    else:
        assert isinstance(ours.encoder.norm, nn.Identity)
        assert isinstance(ours.decoder.norm, nn.Identity)
        theirs.encoder.norm = None
        theirs.decoder.norm = None

    gen = torch.Generator().manual_seed(3)
    x_src = torch.randn(batch, src_len, d_model, generator=gen)
    x_tgt = torch.randn(batch, tgt_len, d_model, generator=gen)
    lengths = [src_len] + [max(1, src_len - 1 - i) for i in range(batch - 1)]
    if batch == 1:
        lengths = [src_len - 1]
    src_mask = (torch.arange(src_len)[None, :] < torch.tensor(lengths)[:, None]).unsqueeze(1)
    assert not src_mask.all()  # some padding
    tgt_mask = subsequent_mask(tgt_len)

    with torch.no_grad():
        memory = ours.encoder(x_src, src_mask)
        out = ours.decoder(x_tgt, memory, src_mask, tgt_mask)
        their_memory = theirs.encoder(x_src, src_key_padding_mask=~src_mask[:, 0])
        their_out = theirs.decoder(
            x_tgt, their_memory, tgt_mask=~tgt_mask[0],
            memory_key_padding_mask=~src_mask[:, 0],
        )
        whole = theirs(
            x_src, x_tgt, tgt_mask=~tgt_mask[0], src_key_padding_mask=~src_mask[:, 0],
            memory_key_padding_mask=~src_mask[:, 0],
        )
    torch.testing.assert_close(memory, their_memory, atol=1e-5, rtol=0)
    torch.testing.assert_close(out, their_out, atol=1e-5, rtol=0)
    torch.testing.assert_close(out, whole, atol=1e-5, rtol=0)


@pytest.mark.parametrize("d_model, h, q_len, k_len, batch", [(16, 1, 3, 3, 1), (16, 4, 5, 2, 2),
                                                              (32, 2, 4, 6, 3), (24, 8, 1, 7, 2)])
@pytest.mark.parametrize("padding", [False, True])
def test_multi_headed_attention_matches_torch(no_mha_fastpath, d_model, h, q_len, k_len, batch,
                                              padding):
    torch.manual_seed(0)
    ours = MultiHeadedAttention(h, d_model, dropout=0.0).eval()
    theirs = nn.MultiheadAttention(d_model, h, dropout=0.0, batch_first=True).eval()
    copy_attention(ours, theirs)
    gen = torch.Generator().manual_seed(1)
    q = torch.randn(batch, q_len, d_model, generator=gen)
    kv = torch.randn(batch, k_len, d_model, generator=gen)
    v = torch.randn(batch, k_len, d_model, generator=gen)
    keep = torch.ones(batch, k_len, dtype=torch.bool)
    if padding:
        for b in range(batch):
            keep[b, max(1, k_len - 1 - b):] = False
    mask = keep.unsqueeze(1) if padding else None  # (batch, 1, k_len), True = may attend
    with torch.no_grad(), capture(ours) as cache:
        out = ours(q, kv, v, mask)
        their_out, their_w = theirs(
            q, kv, v, key_padding_mask=~keep if padding else None,
            need_weights=True, average_attn_weights=False,
        )
    assert their_w.shape == (batch, h, q_len, k_len)
    torch.testing.assert_close(out, their_out, atol=1e-5, rtol=0)
    torch.testing.assert_close(cache["hook_pattern"], their_w, atol=1e-6, rtol=0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_attention_matches_scaled_dot_product_attention(seed):
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(2, 3, 5, 8, generator=gen)
    k = torch.randn(2, 3, 6, 8, generator=gen)
    v = torch.randn(2, 3, 6, 4, generator=gen)
    mask = torch.rand(2, 1, 5, 6, generator=gen) < 0.5
    mask[..., 0] = True  # no fully masked rows
    out, p = attention(q, k, v, mask=mask)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=0)
    torch.testing.assert_close(p.sum(-1), torch.ones(2, 3, 5), atol=1e-6, rtol=0)
    assert (p[~mask.expand_as(p)] == 0).all()
    unmasked, _ = attention(q, k, v)
    torch.testing.assert_close(
        unmasked, F.scaled_dot_product_attention(q, k, v), atol=1e-5, rtol=0
    )


# ---------------------------------------------------------------------------------------
# 5. LayerNorm
# ---------------------------------------------------------------------------------------


def test_annotated_layer_norm_by_hand():
    gen = torch.Generator().manual_seed(0)
    ln = LayerNorm(16)  # kind="annotated"
    with torch.no_grad():
        ln.a_2.copy_(torch.randn(16, generator=gen))
        ln.b_2.copy_(torch.randn(16, generator=gen))
    x = 3 * torch.randn(3, 5, 16, generator=gen) + 1
    xd = x.double().numpy()
    mean = xd.mean(-1, keepdims=True)
    std = np.sqrt(((xd - mean) ** 2).sum(-1, keepdims=True) / (16 - 1))  # unbiased
    expected = (xd - mean) / (std + 1e-6) * ln.a_2.detach().double().numpy()
    expected += ln.b_2.detach().double().numpy()
    np.testing.assert_allclose(ln(x).detach().numpy(), expected, atol=1e-5, rtol=1e-5)


def test_standard_layer_norm_is_torch_layer_norm():
    gen = torch.Generator().manual_seed(0)
    ln = LayerNorm(16, kind="standard")
    with torch.no_grad():
        ln.a_2.copy_(torch.randn(16, generator=gen))
        ln.b_2.copy_(torch.randn(16, generator=gen))
    x = 3 * torch.randn(3, 5, 16, generator=gen) + 1
    expected = F.layer_norm(x, (16,), ln.a_2, ln.b_2, eps=1e-5)
    torch.testing.assert_close(ln(x), expected, atol=1e-5, rtol=0)


# ---------------------------------------------------------------------------------------
# 6. Validation: ValueError naming the field
# ---------------------------------------------------------------------------------------

SMALL = {"src_vocab": 10, "tgt_vocab": 10, "N": 1, "d_model": 8, "d_ff": 8, "h": 2,
         "dropout": 0.0}


@pytest.mark.parametrize(
    "field, value",
    [
        ("d_model", 7),  # odd
        ("N", 0),
        ("d_ff", 0),
        ("h", 0),
        ("src_vocab", -3),
        ("tgt_vocab", -1),
        ("dropout", 1.0),
        ("dropout", -0.1),
        ("dropout", float("nan")),
        ("N", True),
        ("norm_placement", "middle"),
        ("layer_norm", "batch"),
        ("tie_weights", "encoder"),
        ("max_len", 0),
    ],
)
def test_bad_field_raises_value_error_naming_it(field, value):
    kwargs = {**SMALL, field: value}
    if field == "d_model":
        kwargs["h"] = 1
    with pytest.raises(ValueError, match=rf"\b{field}\b"):
        TransformerConfig(**kwargs)
    positional = [kwargs.pop(k) for k in ("src_vocab", "tgt_vocab", "N", "d_model", "d_ff", "h",
                                          "dropout")]
    with pytest.raises(ValueError, match=rf"\b{field}\b"):
        make_model(*positional, **kwargs)


def test_tie_all_needs_equal_vocabularies():
    with pytest.raises(ValueError, match=r"tie_weights"):
        make_model(10, 12, N=1, d_model=8, d_ff=8, h=2, tie_weights="all")


@pytest.mark.parametrize("d_model, h", [(10, 4), (30, 4), (512, 7), (6, 4), (2, 3), (4, 8)])
def test_heads_not_dividing_d_model_suggests_valid_values(d_model, h):
    with pytest.raises(ValueError, match=r"\bd_model\b.*\bh\b") as info:
        make_model(10, 10, N=1, d_model=d_model, d_ff=8, h=h)
    message = str(info.value)
    heads = re.search(r"h in \[([\d, ]+)\]", message)
    assert heads, message
    for good_h in map(int, heads.group(1).split(",")):
        TransformerConfig(10, 10, 1, d_model, 8, good_h)  # each suggestion is valid
    widths = re.search(r"d_model in \[([\d, ]+)\]", message)
    for good_d in map(int, widths.group(1).split(",")) if widths else ():
        TransformerConfig(10, 10, 1, good_d, 8, h)


def test_sequence_longer_than_max_len():
    model = make_model(10, 10, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0, max_len=8)
    ok = torch.ones(1, 8, dtype=torch.long)
    too_long = torch.ones(1, 9, dtype=torch.long)
    model(ok, ok, torch.ones(1, 1, 8, dtype=torch.bool), subsequent_mask(8))  # fits
    with pytest.raises(ValueError, match="max_len"):
        model(too_long, ok, torch.ones(1, 1, 9, dtype=torch.bool), subsequent_mask(8))
    with pytest.raises(ValueError, match="max_len"):
        model(ok, too_long, torch.ones(1, 1, 8, dtype=torch.bool), subsequent_mask(9))


@pytest.mark.parametrize("bad", [-1, 10])
@pytest.mark.parametrize("side", ["src", "tgt"])
def test_ids_outside_vocabulary(bad, side):
    model = make_model(10, 10, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0)
    good = torch.tensor([[4, 5, 6]])
    wrong = torch.tensor([[4, bad, 6]])
    src, tgt = (wrong, good) if side == "src" else (good, wrong)
    with pytest.raises(ValueError, match="vocabulary"):
        model(src, tgt, torch.ones(1, 1, 3, dtype=torch.bool), subsequent_mask(3))


# ---------------------------------------------------------------------------------------
# 7. Weight tying
# ---------------------------------------------------------------------------------------


def n_params(model):
    return sum(p.numel() for p in model.parameters())  # parameters() yields each once


def test_weight_tying_shares_parameters_and_survives_training():
    V, d = 14, 16
    plain = make_model(V, V, N=1, d_model=d, d_ff=8, h=2, dropout=0.0, seed=0)
    dec = make_model(V, V, N=1, d_model=d, d_ff=8, h=2, dropout=0.0, seed=0,
                     tie_weights="decoder")
    both = make_model(V, V, N=1, d_model=d, d_ff=8, h=2, dropout=0.0, seed=0, tie_weights="all")
    assert plain.generator.proj.weight is not plain.tgt_embed[0].lut.weight
    assert dec.generator.proj.weight is dec.tgt_embed[0].lut.weight
    assert dec.src_embed[0].lut.weight is not dec.tgt_embed[0].lut.weight
    assert both.generator.proj.weight is both.tgt_embed[0].lut.weight
    assert both.src_embed[0].lut.weight is both.tgt_embed[0].lut.weight
    assert n_params(plain) - n_params(dec) == V * d
    assert n_params(plain) - n_params(both) == 2 * V * d

    task = make_task("copy", max_len=4)
    for model in (dec, both):
        before = model.tgt_embed[0].lut.weight.detach().clone()
        history = train(model, task, TrainConfig(steps=2, batch_size=4, lr=1e-2))
        assert len(history) == 2
        w = model.tgt_embed[0].lut.weight
        assert not torch.equal(w, before)  # it trained
        assert model.generator.proj.weight is w
        assert (model.src_embed[0].lut.weight is w) == (model is both)


# ---------------------------------------------------------------------------------------
# 8. Determinism
# ---------------------------------------------------------------------------------------


def small(seed, **options):
    return make_model(12, 13, N=2, d_model=16, d_ff=24, h=4, seed=seed, **options)


def same_state(a, b):
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def test_same_seed_same_weights_different_seed_different_weights():
    torch.manual_seed(0)
    a = small(5)
    torch.manual_seed(99)  # the global RNG must not matter
    b = small(5)
    assert same_state(a, b)
    c = small(6)
    assert not same_state(a, c)
    sa, sc = a.state_dict(), c.state_dict()
    assert not torch.equal(sa["encoder.layers.0.self_attn.linears.0.bias"],
                           sc["encoder.layers.0.self_attn.linears.0.bias"])
    assert same_state(small(5, tie_weights="decoder"), small(5, tie_weights="decoder"))


def test_seeded_build_ignores_other_threads_using_global_rng():
    reference = small(7)
    stop = threading.Event()
    started = threading.Event()

    def churn():
        torch.manual_seed(1)
        while not stop.is_set():
            torch.rand(64)
            torch.manual_seed(int(torch.randint(0, 1000, ())))
            started.set()

    thread = threading.Thread(target=churn)
    thread.start()
    try:
        assert started.wait(10)
        built = [small(7) for _ in range(3)]
    finally:
        stop.set()
        thread.join()
    assert all(same_state(reference, m) for m in built)


# ---------------------------------------------------------------------------------------
# 9. Every captured tensor has the documented shape (property-based)
# ---------------------------------------------------------------------------------------


def expected_shapes(name, *, B, S, T, h, d_k, d_ff, tgt_vocab):
    """The shape a hook point must record, derived from its module path alone."""
    d_model = h * d_k
    parts = name.split(".")
    leaf = parts[-1]
    seq = {"encoder": S, "decoder": T, "src_embed": S, "tgt_embed": T}.get(parts[0])
    if parts[0] == "generator":
        return (B, T, tgt_vocab)
    if parts[0] in ("src_embed", "tgt_embed"):
        return (1, seq, d_model) if leaf == "hook_pe" else (B, seq, d_model)
    if len(parts) == 2:  # encoder.hook_out / decoder.hook_out
        return (B, seq, d_model)
    module = parts[3]
    if module == "sublayer":
        return (B, seq, d_model)
    if module == "feed_forward":
        return (B, seq, d_ff) if leaf == "hook_hidden" else (B, seq, d_model)
    assert module in ("self_attn", "src_attn"), name
    q_len = seq
    k_len = S if module == "src_attn" else seq
    if leaf in ("hook_q", "hook_z"):
        return (B, h, q_len, d_k)
    if leaf in ("hook_k", "hook_v"):
        return (B, h, k_len, d_k)
    if leaf in ("hook_scores", "hook_masked_scores", "hook_pattern"):
        return (B, h, q_len, k_len)
    assert leaf in ("hook_concat", "hook_out"), name
    return (B, q_len, d_model)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    N=st.integers(1, 3),
    h=st.sampled_from([1, 2, 4]),
    d_k=st.sampled_from([2, 4, 8]),
    d_ff=st.integers(1, 64),
    B=st.integers(1, 3),
    S=st.integers(1, 8),
    T=st.integers(1, 8),
    placement=st.sampled_from(["pre", "post"]),
    layer_norm=st.sampled_from(["annotated", "standard"]),
    seed=st.integers(0, 2**16),
)
def test_every_captured_tensor_has_its_shape(N, h, d_k, d_ff, B, S, T, placement, layer_norm,
                                             seed):
    src_vocab, tgt_vocab = 9, 11
    model = make_model(src_vocab, tgt_vocab, N, h * d_k, d_ff, h, dropout=0.5, seed=seed,
                       norm_placement=placement, layer_norm=layer_norm)
    gen = torch.Generator().manual_seed(seed)
    src = ids(gen, B, S, src_vocab)
    tgt = ids(gen, B, T, tgt_vocab)
    src_len = torch.randint(1, S + 1, (B,), generator=gen)
    tgt_len = torch.randint(1, T + 1, (B,), generator=gen)
    src[torch.arange(S)[None, :] >= src_len[:, None]] = 0
    tgt[torch.arange(T)[None, :] >= tgt_len[:, None]] = 0
    src_mask = (src != 0).unsqueeze(-2)
    tgt_mask = Batch.make_std_mask(tgt, 0)

    names = hook_names(model)
    for mode in ("eval", "train"):
        model.train(mode == "train")
        torch.manual_seed(seed)  # dropout in train mode
        log_probs, cache = model.run_with_cache(src, tgt, src_mask, tgt_mask)
        assert log_probs.shape == (B, T, tgt_vocab)
        assert sorted(cache) == sorted(names)  # every hook fired, nothing else recorded
        for name, tensor in cache.items():
            want = expected_shapes(name, B=B, S=S, T=T, h=h, d_k=d_k, d_ff=d_ff,
                                   tgt_vocab=tgt_vocab)
            assert tuple(tensor.shape) == want, (name, mode)
        for name, pattern in cache.items():
            if not name.endswith("hook_pattern"):
                continue
            torch.testing.assert_close(
                pattern.sum(-1), torch.ones(pattern.shape[:-1]), atol=1e-5, rtol=0
            )
            decoder_self = name.startswith("decoder") and ".self_attn." in name
            allowed = (tgt_mask if decoder_self else src_mask).unsqueeze(1).expand_as(pattern)
            has_any = allowed.any(-1, keepdim=True).expand_as(pattern)
            assert (pattern[~allowed & has_any] < 1e-6).all(), name


@pytest.mark.parametrize("start_in_train_mode", [True, False])
def test_train_hands_the_model_back_in_the_mode_it_came_in(start_in_train_mode):
    task = make_task("copy", max_len=4)
    model = make_model(task.vocab_size, task.vocab_size, N=1, d_model=8, d_ff=8, h=2,
                       dropout=0.1, seed=0)
    model.train(start_in_train_mode)
    seen: list[bool] = []
    train(model, task, TrainConfig(steps=2, batch_size=4, lr=1e-2),
          lambda info: seen.append(model.training))
    assert seen == [True, True]  # dropout on while it trains
    assert model.training is start_in_train_mode
