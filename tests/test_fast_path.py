"""The fast paths compute the same function as the written-out code the app shows:
the fused attention (used when nothing captures or edits a pass) and the LayerNorm's
hand-written gradient."""

from __future__ import annotations

import pytest
import torch

from transformer.fast import (
    MANY_ROWS,
    SHORT_KEYS,
    _ShortAttentionFunction,
    annotated_norm,
)
from transformer.fast import attention as fast_attention
from transformer.hooks import capture, hook_names, intervene, quiet
from transformer.model import LayerNorm, TransformerConfig, attention, build_model
from transformer.train import Batch

BASE = dict(src_vocab=12, tgt_vocab=12, N=2, d_model=16, d_ff=32, h=4, dropout=0.0)


def _batch() -> Batch:
    src = torch.tensor([[1, 5, 6, 7, 2], [1, 8, 9, 2, 0]])
    tgt = torch.tensor([[1, 5, 6, 7, 2, 0], [1, 8, 9, 2, 0, 0]])
    return Batch(src, tgt)


def _loss_and_grads(model, hooked: bool) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    b = _batch()
    model.zero_grad(set_to_none=True)
    if hooked:  # an active capture turns the fused path off
        with capture(model):
            out = model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
    else:
        assert quiet()
        out = model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
    loss = -out[b.tgt_y != 0].gather(-1, b.tgt_y[b.tgt_y != 0][:, None]).sum()
    loss.backward()
    return out.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}


@pytest.mark.parametrize("options", [
    {}, {"decoder_mask": "inverted"}, {"decoder_mask": "none"}, {"scale_scores": False},
    {"norm_placement": "post", "layer_norm": "standard"},
])
def test_fused_and_hooked_paths_agree_in_training(options):
    model = build_model(TransformerConfig(**BASE, **options), seed=3).train()
    fast_out, fast_grads = _loss_and_grads(model, hooked=False)
    slow_out, slow_grads = _loss_and_grads(model, hooked=True)
    assert torch.allclose(fast_out, slow_out, atol=1e-5)
    for name, grad in slow_grads.items():
        assert torch.allclose(fast_grads[name], grad, atol=1e-5, rtol=1e-4), name


def test_a_capture_still_records_every_hook_point():
    model = build_model(TransformerConfig(**BASE), seed=0).eval()
    b = _batch()
    with torch.no_grad(), capture(model) as cache:
        model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert set(cache) >= {n for n in hook_names(model) if not n.startswith("generator")}


def test_only_an_edit_inside_attention_turns_the_fused_path_off():
    model = build_model(TransformerConfig(**BASE), seed=0).eval()
    attn = model.encoder.layers[0].self_attn
    inside = (attn.hook_q, attn.hook_pattern)
    with intervene(model, {}):
        assert quiet(inside)  # an empty intervention edits nothing
    b = _batch()
    z = "encoder.layers.0.self_attn.hook_z"  # after the kernel: the fused path still runs
    with intervene(model, {z: lambda x: x * 0}):
        assert quiet(inside)
        edited = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    plain = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert not torch.allclose(edited, plain)
    pattern = "encoder.layers.0.self_attn.hook_pattern"  # inside it: the written-out path
    with intervene(model, {pattern: lambda p: torch.full_like(p, 1 / p.size(-1))}):
        assert not quiet(inside)
        uniform = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert not torch.allclose(uniform, plain)
    with capture(model):
        assert not quiet(inside)


def test_dropout_on_the_weights_keeps_the_written_out_path():
    model = build_model(TransformerConfig(**{**BASE, "dropout": 0.5}), seed=0).train()
    b = _batch()
    torch.manual_seed(0)
    a = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    torch.manual_seed(0)
    with capture(model):
        c = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert torch.allclose(a, c, atol=1e-6)  # the same dropout draws: the same path


def _norm_by_autograd(norm, x: torch.Tensor) -> torch.Tensor:
    """The LayerNorm formula left to autograd (no hand-written gradient)."""
    z, _ = annotated_norm(x, norm.eps)
    return norm.a_2 * z + norm.b_2


def test_the_layer_norms_hand_written_gradient_is_autograds():
    torch.manual_seed(0)
    norm = LayerNorm(16)
    with torch.no_grad():
        norm.a_2.normal_()
        norm.b_2.normal_()
    x = torch.randn(3, 5, 16) * 4 + 1
    grad_out = torch.randn(3, 5, 16)
    results = []
    for forward in (norm, lambda t: _norm_by_autograd(norm, t)):
        xi = x.clone().requires_grad_()
        norm.zero_grad(set_to_none=True)
        y = forward(xi)
        y.backward(grad_out)
        results.append((y.detach(), xi.grad, norm.a_2.grad, norm.b_2.grad))
    for fast, written in zip(*results, strict=True):
        assert torch.allclose(fast, written, atol=1e-5, rtol=1e-4)
    with torch.no_grad():  # no gradient wanted: the formula itself, the same numbers
        assert torch.allclose(norm(x), results[0][0], atol=1e-6)
    double = LayerNorm(6).double()
    with torch.no_grad():
        double.a_2.normal_()
        double.b_2.normal_()
    assert torch.autograd.gradcheck(double, (torch.randn(2, 4, 6, dtype=torch.double,
                                                          requires_grad=True),))


def test_the_layer_norm_of_a_constant_vector_has_a_finite_gradient():
    norm = LayerNorm(4).double()
    x = torch.full((1, 4), 3.0, dtype=torch.double, requires_grad=True)
    grad_out = torch.tensor([[1.0, 2.0, 3.0, 6.0]], dtype=torch.double)
    norm(x).backward(grad_out)
    # the limit as the spread goes to 0: (g - mean(g)) / eps, nothing through the std
    expected = (grad_out - grad_out.mean()) / norm.eps
    assert torch.isfinite(x.grad).all()
    assert torch.allclose(x.grad, expected)


def test_an_integer_mask_gives_the_same_as_a_boolean_one():
    model = build_model(TransformerConfig(**BASE), seed=1).eval()
    b = _batch()
    with torch.no_grad():
        as_bool = model(b.src, b.tgt, b.src_mask, b.tgt_mask)
        as_int = model(b.src, b.tgt, b.src_mask.long(), b.tgt_mask.long())
    assert b.src_mask.dtype == torch.bool
    assert torch.allclose(as_bool, as_int, atol=1e-6)


def _many_sequences(n: int = 40) -> Batch:
    """n padded sequences of 2-7 symbols: (n x 4 heads) blocks of short rows."""
    gen = torch.Generator().manual_seed(5)
    lengths = torch.randint(2, 8, (n,), generator=gen)
    src = torch.zeros(n, 9, dtype=torch.long)
    for i, length in enumerate(lengths.tolist()):
        src[i, 0] = 1
        src[i, 1:length + 1] = torch.randint(3, 12, (length,), generator=gen)
        src[i, length + 1] = 2
    return Batch(src, torch.cat([src, torch.zeros(n, 1, dtype=torch.long)], 1))


@pytest.mark.parametrize("options", [{}, {"scale_scores": False}, {"decoder_mask": "none"}])
def test_the_short_rows_path_agrees_with_the_hooked_one_in_training(options):
    """A batch of 40 takes fast_attention's short-rows branch (40 x 4 heads >= MANY_ROWS)."""
    b = _many_sequences()
    assert b.src.size(0) * BASE["h"] >= MANY_ROWS and b.src.size(1) <= SHORT_KEYS
    model = build_model(TransformerConfig(**BASE, **options), seed=4).train()
    results = []
    for hooked in (False, True):
        model.zero_grad(set_to_none=True)
        if hooked:
            with capture(model):
                out = model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
        else:
            out = model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
        out[b.tgt_y != 0].gather(-1, b.tgt_y[b.tgt_y != 0][:, None]).sum().neg().backward()
        results.append((out.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}))
    (fast_out, fast_grads), (slow_out, slow_grads) = results
    assert torch.allclose(fast_out, slow_out, atol=1e-5)
    for name, grad in slow_grads.items():
        assert torch.allclose(fast_grads[name], grad, atol=1e-5, rtol=1e-4), name


@pytest.mark.parametrize("keys", [5, SHORT_KEYS, SHORT_KEYS + 5])  # both branches
@pytest.mark.parametrize("scale", [True, False])
def test_fast_attention_is_the_written_out_attention(keys, scale):
    torch.manual_seed(keys)
    q, k, v = (torch.randn(32, 4, keys if i else 6, 8, requires_grad=True) for i in range(3))
    mask = torch.rand(32, 1, 6, keys) > 0.4
    mask[..., 0] = True  # every row may attend somewhere
    grad_out = torch.randn(32, 4, 6, 8)
    results = []
    for forward in (fast_attention, lambda *a: attention(*a[:4], scale=a[4])[0]):
        for t in (q, k, v):
            t.grad = None
        out = forward(q, k, v, mask, scale)
        out.backward(grad_out)
        results.append((out.detach(), q.grad, k.grad, v.grad))
    for fast, written in zip(*results, strict=True):
        assert torch.allclose(fast, written, atol=1e-5, rtol=1e-4)
    with torch.no_grad():  # no gradient wanted: the same numbers without the autograd node
        assert torch.allclose(fast_attention(q, k, v, mask, scale), results[0][0], atol=1e-6)


def test_the_short_attentions_hand_written_gradient_is_autograds():
    torch.manual_seed(1)
    q, k, v = (torch.randn(2, 3, n, 4, dtype=torch.double, requires_grad=True)
               for n in (5, 6, 6))
    mask = torch.rand(2, 1, 5, 6) > 0.3
    mask[..., 2] = True
    for scale in (0.5, 1.0):
        assert torch.autograd.gradcheck(
            lambda a, b, c, s=scale: _ShortAttentionFunction.apply(a, b, c, mask, s), (q, k, v))
    # blocked keys get no gradient at all, as masked_fill gives in the written-out path
    k2 = k.detach().clone().requires_grad_()
    _ShortAttentionFunction.apply(q, k2, v, mask.expand(2, 3, 5, 6), 0.5).sum().backward()
    never = ~mask.any(-2).expand(2, 3, 6)  # keys no query may see
    assert (k2.grad[never] == 0).all()
