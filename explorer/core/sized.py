"""A model at sizes of the learner's own (source and target vocabularies, d_v, batch and
length), built by `build_model` on PyTorch's meta device: every parameter has its shape and
no values, and nothing is allocated, so a walk-through's 45-million-parameter model costs
the server a fraction of a second and no memory.

The parameters' shapes are the built model's own. The shapes a forward pass would give
are read off its modules (heads, d_k, d_v, the output projections' widths), not computed by
running it: on the meta device a first multiplication loads torch._dynamo (75 MB and over a
second, once per server). tests/test_sized_model.py runs the same model code on the CPU at
small sizes and checks every shape this module gives against the real pass.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from transformer.config import TransformerConfig
from transformer.hook_paths import ATTENTION_POINTS
from transformer.model import build_model

# A walk-through's own example (seed 004): vocabularies of 500 source and 1000 target
# tokens, the paper's base sizes, and a batch of 2 sequences of 4 tokens; logits (2, 4, 1000)
WALK_SIZES = dict(src_vocab=500, tgt_vocab=1000, N=6, d_model=512, h=8, d_ff=2048, d_v=64,
                  batch=2, length=4)
# What the learner may ask for (low, high); each is checked again in Python, as a widget's
# limits hold only in the browser. Nothing is allocated, but the build takes longer with N
# and d_model (up to 2 s on a busy two-core server). The length stops at the positional
# table's 5000 rows.
LIMITS = dict(src_vocab=(2, 1_000_000), tgt_vocab=(2, 1_000_000), N=(1, 12),
              d_model=(2, 8_192), h=(1, 128), d_ff=(1, 32_768), d_v=(1, 4_096),
              batch=(1, 4_096), length=(1, 5_000))
# The sizes that fix the architecture (the others shape only the batch)
CONFIG_SIZES = ("src_vocab", "tgt_vocab", "N", "d_model", "h", "d_ff", "d_v")
# The parameters shown, one of each kind, in the order SizedModel.weights lists them
WEIGHT_KINDS = ("src_embed", "tgt_embed", "w_q", "w_k", "w_v", "w_o", "generator")


@dataclass(frozen=True)
class SizedModel:
    """What a model of these sizes holds and computes: shapes only."""

    cfg: TransformerConfig
    batch: int
    length: int  # source and target positions of the example batch
    parameters: int  # every parameter, tied tables counted once
    weights: tuple[tuple[str, tuple[int, ...]], ...]  # (parameter name, shape): WEIGHT_KINDS
    # (hook point, shape) in encoder layer 0's self-attention (transformer.hook_paths names)
    attention: tuple[tuple[str, tuple[int, ...]], ...]
    logits: tuple[int, ...]  # (batch, length, tgt_vocab)


def sized_config(src_vocab: int, tgt_vocab: int, N: int, d_model: int, h: int, d_ff: int,
                 d_v: int) -> TransformerConfig:
    """The config of these sizes, the rest as the paper's (TransformerConfig's defaults);
    a ConfigError names what cannot build."""
    return TransformerConfig(src_vocab=src_vocab, tgt_vocab=tgt_vocab, N=N, d_model=d_model,
                             h=h, d_ff=d_ff, d_v=d_v, dropout=0.0)


class _NoFill(TorchFunctionMode):
    """Skip nn.init.normal_ (nn.Embedding's initial fill): a meta tensor has nothing to fill,
    and on the meta device the call loads torch._dynamo. build_model overwrites the table
    with its Xavier fill anyway. A mode is active in its own thread only."""

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        kwargs = kwargs or {}
        if func is nn.init.normal_:
            return kwargs["tensor"] if "tensor" in kwargs else args[0]
        return func(*args, **kwargs)


@dataclass(frozen=True)
class _Built:
    """What a model of `cfg` holds, read off its modules (`_built`)."""

    parameters: int
    weights: tuple[tuple[str, tuple[int, ...]], ...]
    h: int
    head_widths: tuple[int, int, int]  # d_k of Q, d_k of K, d_v: W^Q, W^K, W^V's out / h
    concat: int  # W^O's in_features: h·d_v
    d_model: int  # W^O's out_features
    tgt_vocab: int  # the generator's out_features


@functools.lru_cache(maxsize=64)  # frozen results: safe to share between sessions
def _built(cfg: TransformerConfig) -> _Built:
    """`cfg`'s model built on the meta device (the build is the slow part: kept by `cfg`
    alone, so a change of batch or length only composes shapes)."""
    with torch.device("meta"), _NoFill():
        model = build_model(cfg)
    attn = model.encoder.layers[0].self_attn
    w_q, w_k, w_v, w_o = attn.linears  # nn.Linear weights are (out_features, in_features)
    named = {id(p): name for name, p in model.named_parameters()}
    kinds = (model.src_embed[0].lut.weight, model.tgt_embed[0].lut.weight, w_q.weight,
             w_k.weight, w_v.weight, w_o.weight, model.generator.proj.weight)
    return _Built(parameters=sum(p.numel() for p in model.parameters()),
                  weights=tuple((named[id(p)], tuple(p.shape)) for p in kinds), h=attn.h,
                  head_widths=(w_q.out_features // attn.h, w_k.out_features // attn.h,
                               w_v.out_features // attn.h),
                  concat=w_o.in_features, d_model=w_o.out_features,
                  tgt_vocab=model.generator.proj.out_features)


def sized_model(cfg: TransformerConfig, batch: int, length: int) -> SizedModel:
    """`cfg`'s model built on the meta device, and the shapes a batch of `batch` sequences of
    `length` tokens (source and target) would take through encoder layer 0's attention."""
    built = _built(cfg)
    heads = (batch, built.h, length)
    d_q, d_k, d_v = built.head_widths
    # named as captured (transformer.hook_paths), in the order MultiHeadedAttention computes
    q, k, v, scores, _masked, _pattern, z, concat, out = ATTENTION_POINTS
    steps = (
        (q, (*heads, d_q)),  # .view(batch, -1, h, d_k).transpose(1, 2)
        (k, (*heads, d_k)),
        (v, (*heads, d_v)),  # d_v per head
        (scores, (*heads, length)),  # Q @ K^T: one per query and key position
        (z, (*heads, d_v)),  # weights @ V
        (concat, (batch, length, built.concat)),  # h * d_v
        (out, (batch, length, built.d_model)),  # W^O: back to d_model
    )
    return SizedModel(cfg=cfg, batch=batch, length=length, parameters=built.parameters,
                      weights=built.weights, attention=steps,
                      logits=(batch, length, built.tgt_vocab))
