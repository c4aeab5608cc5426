"""CPU fast paths: two of the paper's formulas in `model.py`, computed in fewer operations.

The app trains small models on CPU, where a step takes milliseconds and its cost is the
number of operations more than their size: torch pays for every op it runs and every op
autograd records and replays, and its softmax and std kernels pay again for every row. So
two parts of the model are computed here instead of as model.py writes them:

- `layer_norm`, The Annotated Transformer's a_2 * (x - mean) / (std + eps) + b_2 (which
  F.layer_norm does not offer: unbiased std, eps outside the square root), with the std
  written out and, when gradients are wanted, one autograd node whose gradient is written
  by hand; autograd would record about ten small ops per norm instead, a tenth of a
  training step at the fast recipe's size (bench/step_cost.py).
- `attention`, softmax(Q K^T / sqrt(d_k)) V when nothing captures or edits what happens
  inside and no dropout falls on the weights: the fused F.scaled_dot_product_attention, or
  for many short rows the weights worked out here as one autograd node (`SHORT_KEYS`).
  bench/step_cost.py times a training step with it ("ours") and without ("ours, written
  out"): without it, ours was slower than torch.nn.Transformer (docs/performance.md).

Each computes the same function as the formula model.py writes out, the arithmetic done in
another order, so the numbers agree to float rounding: tests/test_fast_path.py compares
values and gradients part by part, tests/test_model_layout.py whole models run with and
without `off()`. model.py keeps the paper's formulas, which the Model page's "Read the
code" shows, and hands over to this module in one commented line each.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch.autograd.function import once_differentiable

from .hooks import quiet

if TYPE_CHECKING:
    from .model import MultiHeadedAttention

# True inside `off()`, in this thread only (as hooks.capture, a ContextVar).
_OFF: contextvars.ContextVar[bool] = contextvars.ContextVar("transformer_fast_off",
                                                            default=False)


def enabled() -> bool:
    """True unless inside `off()`: model.py then takes the fast paths wherever they apply."""
    return not _OFF.get()


@contextmanager
def off() -> Iterator[None]:
    """Inside the block, models in this thread compute only model.py's written-out formulas."""
    token = _OFF.set(True)
    try:
        yield
    finally:
        _OFF.reset(token)


# ---------------------------------------------------------------------------------------
# LayerNorm (model.LayerNorm, kind="annotated")
# ---------------------------------------------------------------------------------------


def annotated_norm(x: torch.Tensor, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(x - mean) / (std + eps) over the last dimension, with the unbiased std; also the std.

    Written out, several times faster on CPU than x.std() for short feature vectors (torch's
    std kernel pays a cost per row).
    """
    centred = x - x.mean(-1, keepdim=True)
    std = (centred.pow(2).sum(-1, keepdim=True) / (x.size(-1) - 1)).sqrt()  # (..., 1)
    return centred / (std + eps), std


class _AnnotatedNormFunction(torch.autograd.Function):
    """a_2 * annotated_norm(x) + b_2 as one autograd node, its gradient written by hand.

    The same forward arithmetic as without gradients; autograd would record and replay
    about ten small ops per norm instead, a tenth of a training step at the fast recipe's
    size (bench/step_cost.py). tests/test_fast_path.py compares it with autograd's gradient.
    """

    @staticmethod
    def forward(ctx, x: torch.Tensor, a_2: torch.Tensor, b_2: torch.Tensor,
                eps: float) -> torch.Tensor:
        z, std = annotated_norm(x, eps)
        ctx.save_for_backward(z, std, a_2)
        ctx.eps = eps
        return torch.addcmul(b_2, a_2, z)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        z, std, a_2 = ctx.saved_tensors
        n = z.size(-1)
        grad_x = grad_a = grad_b = None
        if ctx.needs_input_grad[0]:
            # With c = x - mean(x), std = |c| / sqrt(n - 1) and z = c / (std + eps), and
            # g = grad * a_2 the gradient reaching z:
            #   dL/dx = (g - mean(g)) / (std + eps) - (g . z) z / ((n - 1) std)
            # (the first term through c, whose every entry moves with mean(x); the second
            # through std). For a constant vector (std = 0, so z = 0) the second term is 0,
            # its limit as std -> 0.
            g = grad * a_2
            dot = (g * z).sum(-1, keepdim=True)  # (..., 1)
            grad_x = torch.addcmul((g - g.mean(-1, keepdim=True)) / (std + ctx.eps),
                                   dot / ((n - 1) * std + 1e-30), z, value=-1)
        if ctx.needs_input_grad[1]:
            grad_a = (grad * z).reshape(-1, n).sum(0)
        if ctx.needs_input_grad[2]:
            grad_b = grad.reshape(-1, n).sum(0)
        return grad_x, grad_a, grad_b, None


def layer_norm(x: torch.Tensor, a_2: torch.Tensor, b_2: torch.Tensor,
               eps: float) -> torch.Tensor:
    """a_2 * (x - mean) / (std + eps) + b_2 over the last dimension, with the unbiased std."""
    if torch.is_grad_enabled():  # training: the same arithmetic, one autograd node
        return _AnnotatedNormFunction.apply(x, a_2, b_2, eps)
    return torch.addcmul(b_2, a_2, annotated_norm(x, eps)[0])


# ---------------------------------------------------------------------------------------
# Attention (model.attention inside model.MultiHeadedAttention)
# ---------------------------------------------------------------------------------------

# Where `attention` computes the weights itself rather than calling the fused kernel: rows
# of at most SHORT_KEYS keys, at least MANY_ROWS (batch x head) blocks of them. torch's
# CPU softmax pays a cost per row, which short rows feel most. Measured on 2 CPU cores,
# forward and backward of one attention with its projections, at the fast recipe's size (10
# keys, 128 x 2 blocks): about 0.75x the fused kernel's time; a whole training step 0.9x
# (bench/step_cost.py). The kernel is faster from 16 keys on, and for a single sentence.
SHORT_KEYS = 15
MANY_ROWS = 64


def attention_applies(attn: MultiHeadedAttention, mask: torch.Tensor | None) -> bool:
    """True when `attention` may stand in for model.attention inside `attn` on this pass.

    That is when nothing captures or edits the tensors it skips (training, decoding), no
    dropout falls on the weights, and each row may attend somewhere. A row whose keys are
    all blocked (the inverted decoder mask's last row) keeps the written-out path, where
    masked_fill also stops its gradient (tests/test_fast_path.py compares both).
    """
    inside = (attn.hook_q, attn.hook_k, attn.hook_v, attn.hook_scores,
              attn.hook_masked_scores, attn.hook_pattern)  # what the fast path skips
    return (enabled() and quiet(inside) and not (attn.training and attn.dropout.p > 0)
            and (mask is None or bool(mask.any(-1).all())))


def _short_attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                     mask: torch.Tensor | None, scale: float) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * Q K^T, blocked keys -inf) V for short rows: (output, weights)."""
    scores = query @ key.transpose(-2, -1)  # (batch, h, q, k)
    if scale != 1.0:
        scores = scores * scale
    if mask is not None:
        scores = scores.masked_fill(~mask, -math.inf)
    # softmax = exp(s - max) / sum, in place on the fresh scores: the max only keeps exp in
    # range (a softmax does not change when its row is shifted)
    weights = (scores - scores.amax(-1, keepdim=True)).exp_()
    weights = weights.div_(weights.sum(-1, keepdim=True))
    return weights @ value, weights  # (batch, h, q, d_k), (batch, h, q, k)


class _ShortAttentionFunction(torch.autograd.Function):
    """`_short_attention` as one autograd node, its gradient written by hand.

    With P the weights, O = P V and G = dL/dO: dV = P^T G; dP = G V^T; the softmax's
    dS = P * (dP - rowsum(dP * P)); dQ = scale dS K and dK = scale dS^T Q. A blocked key
    has P = 0, so its score gets no gradient, as masked_fill gives in the written-out path.
    tests/test_fast_path.py checks it against autograd's.
    """

    @staticmethod
    def forward(ctx, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                mask: torch.Tensor | None, scale: float) -> torch.Tensor:
        out, weights = _short_attention(query, key, value, mask, scale)
        ctx.save_for_backward(query, key, value, weights)
        ctx.scale = scale
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        query, key, value, weights = ctx.saved_tensors
        grad_v = weights.transpose(-2, -1) @ grad  # (batch, h, k, d_k)
        grad_p = grad @ value.transpose(-2, -1)  # (batch, h, q, k)
        grad_s = weights * (grad_p - (grad_p * weights).sum(-1, keepdim=True))
        if ctx.scale != 1.0:
            grad_s = grad_s * ctx.scale
        return grad_s @ key, grad_s.transpose(-2, -1) @ query, grad_v, None, None


def attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    scale: bool = True,
) -> torch.Tensor:
    """model.attention's output without its hooks or weights, for passes nobody looks inside.

    The same function as long as each row may attend somewhere: a blocked key's weight is 0
    either way (exp(-inf) here, exp(MASK_FILL - max) in float32 there). Many short rows go
    to `_short_attention` (SHORT_KEYS), the rest to F.scaled_dot_product_attention, whose
    boolean mask is True where attending is allowed, model.py's convention too.
    """
    if mask is not None and mask.dtype != torch.bool:
        mask = mask != 0
    if key.size(-2) <= SHORT_KEYS and query.size(0) * query.size(1) >= MANY_ROWS:
        factor = 1 / math.sqrt(query.size(-1)) if scale else 1.0
        if torch.is_grad_enabled():  # training: one autograd node
            return _ShortAttentionFunction.apply(query, key, value, mask, factor)
        return _short_attention(query, key, value, mask, factor)[0]
    return F.scaled_dot_product_attention(query, key, value, attn_mask=mask,
                                          scale=None if scale else 1.0)
