"""The encoder-decoder Transformer of "Attention Is All You Need", in paper order.

Class and parameter names follow Harvard NLP's *The Annotated Transformer*, so that with
the default `TransformerConfig` a checkpoint trained with that code loads here with
`load_state_dict(strict=True)`. Every tensor worth looking at passes through a `HookPoint`
(see `hooks.py`); outside `capture()` they are identities and cost nothing.

Differences from the Annotated code, each deliberate:
- `MultiHeadedAttention` does not keep `self.attn`: a forward pass never writes to the
  model (models are shared between users); use `capture()` to read attention weights.
- The attention dropout follows `dropout` (the Annotated `make_model` always uses 0.1).
- Teaching options (`norm_placement`, `layer_norm`, `scale_embedding`, `tie_weights`) can
  turn the model into the paper's post-norm variant and others; defaults change nothing.
- Break switches (`decoder_mask`, `positional_encoding`, `scale_scores`, `residual`) each
  remove or invert one part, to train a broken model beside a correct one and see what the
  part is for; defaults change nothing.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Literal, get_args, get_origin, get_type_hints

import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd.function import once_differentiable

from .hooks import HookPoint, capture, quiet

# The score a blocked position gets before the softmax: The Annotated Transformer's
# `scores.masked_fill(mask == 0, -1e9)`. Finite, so a row with every key blocked still has
# a softmax (uniform weights) instead of NaN.
MASK_FILL = -1e9

NormPlacement = Literal["pre", "post"]
LayerNormKind = Literal["annotated", "standard"]
TieWeights = Literal["none", "decoder", "all"]
# The decoder self-attention's mask: "subsequent" (the paper's, section 3.2.3), "none" (only
# padding is blocked: every position sees the future) or "inverted" (the mistake of filling
# where the lower-triangular mask is 1: every position sees only *later* positions).
DecoderMask = Literal["subsequent", "none", "inverted"]


# ---------------------------------------------------------------------------------------
# Configuration and validation
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransformerConfig:
    """Everything that fixes a model's architecture; defaults are The Annotated Transformer's."""

    src_vocab: int  # rows of the source embedding table (distinct source tokens)
    tgt_vocab: int  # rows of the target embedding table = outputs of the generator
    N: int = 6  # identical layers in each stack (encoder and decoder)
    d_model: int = 512  # width of every token vector between sublayers
    d_ff: int = 2048  # hidden width of the position-wise feed-forward network
    h: int = 8  # attention heads; each works in d_k = d_model / h dimensions
    dropout: float = 0.1  # after every sublayer, on emb+PE, inside FFN and on attention weights
    max_len: int = 5000  # positions covered by the positional-encoding table
    norm_placement: NormPlacement = "pre"  # "pre": x + Sublayer(LN(x)); "post": LN(x + Sublayer(x))
    layer_norm: LayerNormKind = "annotated"  # "annotated": (x-mean)/(std+eps); "standard": as nn
    scale_embedding: bool = True  # multiply embeddings by sqrt(d_model) (paper, section 3.4)
    tie_weights: TieWeights = "none"  # "decoder": tgt_embed = generator; "all": src_embed too
    # Break switches: each removes or inverts exactly one part; the defaults are the paper's.
    decoder_mask: DecoderMask = "subsequent"  # what decoder self-attention may see (3.2.3)
    positional_encoding: bool = True  # add the sinusoids (3.5); False: order is invisible
    scale_scores: bool = True  # divide Q K^T by sqrt(d_k) (3.2.1); False: raw dot products
    residual: bool = True  # x + Sublayer(x) around every sublayer (3.1); False: Sublayer only

    def __post_init__(self) -> None:
        validate_config(self)

    @property
    def d_k(self) -> int:
        """Dimensions per head: d_k = d_v = d_model / h."""
        return self.d_model // self.h


# The break switches among the fields above: each removes or inverts one part, and none
# changes a parameter (explorer/training/experiments.py trains a broken model beside a correct one).
BREAK_SWITCHES: tuple[str, ...] = ("decoder_mask", "positional_encoding", "scale_scores",
                                   "residual")

# Each field's declared type, resolved (annotations are strings under `from __future__ import
# annotations`): validate_config reads which fields are ints and which are Literal choices here.
_FIELD_TYPES = get_type_hints(TransformerConfig)


class ConfigError(ValueError):
    """A setting that cannot build (or train) a model. The message is English; `key` is a
    stable code for the problem and `values` the names and numbers in it, so an interface
    can say the same in the learner's language (one text per code)."""

    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = values


def check_int(name: str, value: object, low: int = 1) -> int:
    """Return `value` if it is an int >= low, else raise a ConfigError that says so."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, got {value!r}.", "config.whole",
                          name=name, value=f"{value!r:.40}")
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, got {value}.", "config.at_least",
                          name=name, low=low, value=value)
    return value


def check_choice(name: str, value: object, literal: object) -> None:
    """Raise a ConfigError, listing the allowed values, unless `value` is one of `literal`'s."""
    allowed = get_args(literal)
    if value not in allowed:
        raise ConfigError(f"{name} must be one of {allowed}, got {value!r}.", "config.choice",
                          name=name, allowed=str(allowed), value=f"{value!r:.40}")


def check_heads(d_model: int, h: int) -> None:
    """Raise a ValueError, with valid alternatives, unless h divides d_model."""
    if d_model % h == 0:
        return
    heads = [k for k in range(1, min(d_model, 64) + 1) if d_model % k == 0]
    near_heads = sorted(heads, key=lambda k: abs(k - h))[:3]
    widths = sorted({m for m in (d_model // h * h, (d_model // h + 1) * h) if m > 0 and m % 2 == 0})
    hint = f"h in {sorted(near_heads)}"
    if widths:
        hint += f", or d_model in {widths}"
    raise ConfigError(
        f"d_model ({d_model}) must be divisible by h ({h}): each of the h heads gets "
        f"d_k = d_model / h dimensions. Try {hint}.",
        "config.heads_widths" if widths else "config.heads", d_model=d_model, h=h,
        heads=", ".join(map(str, sorted(near_heads))), widths=", ".join(map(str, widths)),
    )


def validate_config(cfg: TransformerConfig) -> None:
    """Raise a ValueError naming the problem and a valid choice for any bad field."""
    for f in fields(cfg):
        if _FIELD_TYPES[f.name] is int:
            check_int(f.name, getattr(cfg, f.name))
    if cfg.d_model % 2:
        raise ConfigError(
            f"d_model must be even (got {cfg.d_model}): the sinusoidal positional encoding "
            f"pairs a sine and a cosine for each frequency. Try {cfg.d_model - 1} or "
            f"{cfg.d_model + 1}.",
            "config.even", d_model=cfg.d_model, lower=cfg.d_model - 1, upper=cfg.d_model + 1,
        )
    check_heads(cfg.d_model, cfg.h)
    if isinstance(cfg.dropout, bool) or not isinstance(cfg.dropout, (int, float)):
        raise ConfigError(f"dropout must be a number in [0, 1), got {cfg.dropout!r}.",
                          "config.dropout_number", value=f"{cfg.dropout!r:.40}")
    if not 0.0 <= float(cfg.dropout) < 1.0:  # also rejects NaN
        raise ConfigError(
            f"dropout must be in [0, 1) (the probability of zeroing a value), got {cfg.dropout}.",
            "config.dropout_range", value=cfg.dropout,
        )
    for f in fields(cfg):
        if get_origin(_FIELD_TYPES[f.name]) is Literal:
            check_choice(f.name, getattr(cfg, f.name), _FIELD_TYPES[f.name])
    for f in fields(cfg):
        value = getattr(cfg, f.name)
        if _FIELD_TYPES[f.name] is bool and not isinstance(value, bool):
            raise ConfigError(f"{f.name} must be True or False, got {value!r}.",
                              "config.true_false", name=f.name, value=f"{value!r:.40}")
    if cfg.tie_weights == "all" and cfg.src_vocab != cfg.tgt_vocab:
        raise ConfigError(
            f"tie_weights='all' shares one embedding table between source and target, so both "
            f"vocabularies must be the same size (got {cfg.src_vocab} and {cfg.tgt_vocab}). "
            f"Use tie_weights='decoder' or one shared vocabulary.",
            "config.tie_all", src=cfg.src_vocab, tgt=cfg.tgt_vocab,
        )


def check_ids(ids: torch.Tensor, vocab: int, what: str = "token") -> None:
    """Raise a ValueError if any id in `ids` is outside [0, vocab)."""
    if ids.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
        raise ValueError(f"{what} ids must be integers, got dtype {ids.dtype}.")
    if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= vocab):
        bad = ids[(ids < 0) | (ids >= vocab)].unique()[:5].tolist()
        raise ValueError(
            f"{what} ids {bad} are outside the vocabulary: valid ids are 0 to {vocab - 1}."
        )


# ---------------------------------------------------------------------------------------
# 3.1 Encoder and decoder stacks
# ---------------------------------------------------------------------------------------


class EncoderDecoder(nn.Module):
    """A standard encoder-decoder: encode the source once, decode the target against it."""

    def __init__(
        self,
        encoder: Encoder,
        decoder: Decoder,
        src_embed: nn.Sequential,
        tgt_embed: nn.Sequential,
        generator: Generator,
        config: TransformerConfig | None = None,
    ) -> None:
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_embed = src_embed
        self.tgt_embed = tgt_embed
        self.generator = generator
        self.config = config

    def forward(
        self,
        src: torch.Tensor,
        tgt: torch.Tensor,
        src_mask: torch.Tensor,
        tgt_mask: torch.Tensor,
    ) -> torch.Tensor:
        """Decoder output (batch, tgt_len, d_model); apply `generator` for log-probabilities."""
        return self.decode(self.encode(src, src_mask), src_mask, tgt, tgt_mask)

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        """Source ids (batch, src_len) -> memory (batch, src_len, d_model)."""
        return self.encoder(self.src_embed(src), src_mask)

    def decode(
        self,
        memory: torch.Tensor,
        src_mask: torch.Tensor,
        tgt: torch.Tensor,
        tgt_mask: torch.Tensor,
    ) -> torch.Tensor:
        """Target ids (batch, tgt_len) and memory -> decoder output (batch, tgt_len, d_model)."""
        return self.decoder(self.tgt_embed(tgt), memory, src_mask, tgt_mask)

    def run_with_cache(
        self,
        src: torch.Tensor,
        tgt: torch.Tensor,
        src_mask: torch.Tensor,
        tgt_mask: torch.Tensor,
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """Full forward pass without gradients: (log-probabilities, every hook point's tensor)."""
        with torch.no_grad(), capture(self) as cache:
            log_probs = self.generator(self(src, tgt, src_mask, tgt_mask))
        return log_probs, cache


class Generator(nn.Module):
    """The final linear layer and log-softmax: decoder vectors -> log-probabilities per token."""

    def __init__(self, d_model: int, vocab: int) -> None:
        super().__init__()
        self.proj = nn.Linear(d_model, vocab)
        self.hook_logits = HookPoint()
        self.hook_log_probs = HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.hook_logits(self.proj(x))  # (batch, seq, vocab)
        return self.hook_log_probs(F.log_softmax(logits, dim=-1))


def clones(module: nn.Module, N: int) -> nn.ModuleList:
    """N independent deep copies of `module`."""
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


def annotated_norm(x: torch.Tensor, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(x - mean) / (std + eps) over the last dimension, with the unbiased std; also the std.

    The Annotated Transformer's formula, which F.layer_norm does not offer (unbiased std, eps
    added outside the square root); written out, it is also several times faster on CPU than
    x.std() for short feature vectors (torch's std kernel pays a cost per row).
    """
    centred = x - x.mean(-1, keepdim=True)
    std = (centred.pow(2).sum(-1, keepdim=True) / (x.size(-1) - 1)).sqrt()  # (..., 1)
    return centred / (std + eps), std


class _AnnotatedNormFunction(torch.autograd.Function):
    """a_2 * annotated_norm(x) + b_2 as one autograd node, its gradient written by hand.

    The same forward arithmetic as the written-out formula; autograd would record and replay
    about ten small ops per norm instead, a tenth of a training step at the fast recipe's
    size (bench/step_cost.py). tests/test_fast_path.py compares both paths' gradients.
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


class LayerNorm(nn.Module):
    """Normalise each vector over its features, then scale by a_2 and shift by b_2.

    kind="annotated": (x - mean) / (std + eps) with the unbiased std and eps = 1e-6, as in
    The Annotated Transformer (`annotated_norm`). kind="standard": (x - mean) / sqrt(var +
    eps) with the biased variance and eps = 1e-5, exactly what `torch.nn.LayerNorm` computes.
    """

    def __init__(self, features: int, eps: float | None = None, kind: LayerNormKind = "annotated"):
        super().__init__()
        self.a_2 = nn.Parameter(torch.ones(features))
        self.b_2 = nn.Parameter(torch.zeros(features))
        self.kind = kind
        self.eps = eps if eps is not None else (1e-6 if kind == "annotated" else 1e-5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.kind == "standard":
            return F.layer_norm(x, (x.size(-1),), self.a_2, self.b_2, self.eps)
        if torch.is_grad_enabled():  # training: the same arithmetic, one autograd node
            return _AnnotatedNormFunction.apply(x, self.a_2, self.b_2, self.eps)
        return torch.addcmul(self.b_2, self.a_2, annotated_norm(x, self.eps)[0])

    def extra_repr(self) -> str:
        return f"{self.a_2.numel()}, kind={self.kind!r}, eps={self.eps:g}"


class Encoder(nn.Module):
    """A stack of N encoder layers (plus a final LayerNorm when norms come first)."""

    def __init__(self, layer: EncoderLayer, N: int, final_norm: nn.Module | None = None) -> None:
        super().__init__()
        self.layers = clones(layer, N)
        self.norm = final_norm if final_norm is not None else LayerNorm(layer.size)
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x, mask)
        return self.hook_out(self.norm(x))  # memory: (batch, src_len, d_model)


class Dropout(nn.Dropout):
    """nn.Dropout that draws its masks from `generator` when one is set (`train` sets it).

    nn.Dropout draws from torch's global generator, which every thread of the server shares:
    two trainings with dropout at once would take each other's draws, and one set of
    settings would not always train the same weights (explorer/training/hub.py shares one
    training among the learners who ask for it). With a training's own generator, seeded
    from its seed, the masks, and so the weights, depend on the seed alone.
    """

    generator: torch.Generator | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.generator is None or not self.training or self.p == 0:
            return super().forward(x)
        keep = torch.empty_like(x).bernoulli_(1 - self.p, generator=self.generator)
        return x * keep / (1 - self.p)  # the kept values scaled up, as nn.Dropout does


class SublayerConnection(nn.Module):
    """A residual connection around one sublayer, with LayerNorm before or after it.

    "pre" (The Annotated Transformer): x + Dropout(Sublayer(LayerNorm(x))).
    "post" (the paper, "Add & Norm"):  LayerNorm(x + Dropout(Sublayer(x))).
    With residual=False (a break switch) the "x +" is left out and only the sublayer's
    output goes on.
    """

    def __init__(
        self,
        size: int,
        dropout: float,
        norm_placement: NormPlacement = "pre",
        layer_norm: LayerNormKind = "annotated",
        residual: bool = True,
    ) -> None:
        super().__init__()
        self.norm = LayerNorm(size, kind=layer_norm)
        self.dropout = Dropout(dropout)
        self.norm_placement = norm_placement
        self.residual = residual
        self.hook_in = HookPoint()
        self.hook_normed = HookPoint()
        self.hook_sublayer_out = HookPoint()
        self.hook_resid = HookPoint()

    def forward(
        self, x: torch.Tensor, sublayer: Callable[[torch.Tensor], torch.Tensor]
    ) -> torch.Tensor:
        x = self.hook_in(x)  # (batch, seq, d_model)
        skip = x if self.residual else 0  # the residual path (section 3.1), or a break
        if self.norm_placement == "pre":
            out = self.hook_sublayer_out(sublayer(self.hook_normed(self.norm(x))))
            return self.hook_resid(skip + self.dropout(out))
        out = self.hook_sublayer_out(sublayer(x))
        return self.hook_normed(self.norm(self.hook_resid(skip + self.dropout(out))))

    def extra_repr(self) -> str:
        broken = "" if self.residual else ", residual=False"
        return f"norm_placement={self.norm_placement!r}{broken}"


class EncoderLayer(nn.Module):
    """Self-attention, then feed-forward, each wrapped in a SublayerConnection (Figure 1, left)."""

    def __init__(
        self,
        size: int,
        self_attn: MultiHeadedAttention,
        feed_forward: PositionwiseFeedForward,
        dropout: float,
        norm_placement: NormPlacement = "pre",
        layer_norm: LayerNormKind = "annotated",
        residual: bool = True,
    ) -> None:
        super().__init__()
        self.self_attn = self_attn
        self.feed_forward = feed_forward
        self.sublayer = clones(
            SublayerConnection(size, dropout, norm_placement, layer_norm, residual), 2)
        self.size = size

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.sublayer[0](x, lambda x: self.self_attn(x, x, x, mask))
        return self.sublayer[1](x, self.feed_forward)


class Decoder(nn.Module):
    """A stack of N decoder layers (plus a final LayerNorm when norms come first)."""

    def __init__(self, layer: DecoderLayer, N: int, final_norm: nn.Module | None = None,
                 mask: DecoderMask = "subsequent") -> None:
        super().__init__()
        self.layers = clones(layer, N)
        self.norm = final_norm if final_norm is not None else LayerNorm(layer.size)
        self.mask = mask  # a break switch: "subsequent" uses tgt_mask as given
        self.hook_out = HookPoint()

    def forward(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        src_mask: torch.Tensor,
        tgt_mask: torch.Tensor,
    ) -> torch.Tensor:
        tgt_mask = decoder_self_mask(tgt_mask, self.mask)
        for layer in self.layers:
            x = layer(x, memory, src_mask, tgt_mask)
        return self.hook_out(self.norm(x))  # (batch, tgt_len, d_model)

    def extra_repr(self) -> str:
        return "" if self.mask == "subsequent" else f"mask={self.mask!r}"


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention over memory, feed-forward (Figure 1, right)."""

    def __init__(
        self,
        size: int,
        self_attn: MultiHeadedAttention,
        src_attn: MultiHeadedAttention,
        feed_forward: PositionwiseFeedForward,
        dropout: float,
        norm_placement: NormPlacement = "pre",
        layer_norm: LayerNormKind = "annotated",
        residual: bool = True,
    ) -> None:
        super().__init__()
        self.size = size
        self.self_attn = self_attn
        self.src_attn = src_attn
        self.feed_forward = feed_forward
        self.sublayer = clones(
            SublayerConnection(size, dropout, norm_placement, layer_norm, residual), 3)

    def forward(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        src_mask: torch.Tensor,
        tgt_mask: torch.Tensor,
    ) -> torch.Tensor:
        m = memory
        x = self.sublayer[0](x, lambda x: self.self_attn(x, x, x, tgt_mask))  # 1) masked self
        x = self.sublayer[1](x, lambda x: self.src_attn(x, m, m, src_mask))  # 2) cross: K, V = m
        return self.sublayer[2](x, self.feed_forward)  # 3) feed-forward


def subsequent_mask(size: int) -> torch.Tensor:
    """(1, size, size) bool mask: True where position i may attend to position j, i.e. j <= i."""
    size = check_int("size", size)
    return torch.tril(torch.ones(1, size, size, dtype=torch.bool))


def decoder_self_mask(tgt_mask: torch.Tensor, kind: DecoderMask) -> torch.Tensor:
    """The mask decoder self-attention uses: `tgt_mask` (padding AND subsequent) as given, or,
    as a break switch, with its subsequent part left out ("none") or inverted ("inverted")."""
    if kind == "subsequent":
        return tgt_mask
    # The last query row of padding AND subsequent blocks exactly the padded keys.
    keys = tgt_mask[..., -1:, :]  # (batch, 1, T)
    if kind == "none":
        return keys
    later = ~subsequent_mask(tgt_mask.size(-1))  # (1, T, T): True where j > i
    return keys & later  # masked_fill(mask == 1): only later positions; the last row none


# ---------------------------------------------------------------------------------------
# 3.2 Attention
# ---------------------------------------------------------------------------------------


def _no_hook(name: str, t: torch.Tensor) -> torch.Tensor:
    return t


def attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    dropout: nn.Module | None = None,
    hook: Callable[[str, torch.Tensor], torch.Tensor] = _no_hook,
    scale: bool = True,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Scaled dot-product attention softmax(Q K^T / sqrt(d_k)) V; returns (output, weights).

    `mask` is True (or 1) where attending is allowed; blocked scores become MASK_FILL, so a row
    whose keys are all blocked gets uniform weights. `hook(name, tensor)` lets the caller
    record "scores", "masked_scores" and "pattern" (the weights before dropout).
    `scale=False` (a break switch) leaves out the division by sqrt(d_k).
    """
    d_k = query.size(-1)
    scores = query @ key.transpose(-2, -1)  # (batch, h, q, k)
    scores = hook("scores", scores / math.sqrt(d_k) if scale else scores)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, MASK_FILL)
    scores = hook("masked_scores", scores)
    p_attn = hook("pattern", scores.softmax(dim=-1))  # each row sums to 1
    if dropout is not None:
        p_attn = dropout(p_attn)
    return p_attn @ value, p_attn  # (batch, h, q, d_k), (batch, h, q, k)


# Where `fast_attention` computes the weights itself rather than calling the fused kernel:
# rows of at most SHORT_KEYS keys, at least MANY_ROWS (batch x head) blocks of them. torch's
# CPU softmax pays a cost per row, which short rows feel most. Measured on 2 CPU cores,
# forward and backward of one attention with its projections, at the fast recipe's size (10
# keys, 128 x 2 blocks): about 0.75x the fused kernel's time; a whole training step 0.9x
# (bench/step_cost.py). The kernel is faster from 16 keys on, and for a single sentence.
SHORT_KEYS = 15
MANY_ROWS = 64


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


def fast_attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    scale: bool = True,
) -> torch.Tensor:
    """`attention`'s output without its hooks or weights, for passes nobody looks inside.

    The same function as long as each row may attend somewhere: a blocked key's weight is 0
    either way (exp(-inf) here, exp(MASK_FILL - max) in float32 there). Many short rows go
    to `_short_attention` (SHORT_KEYS), the rest to F.scaled_dot_product_attention, whose
    boolean mask is True where attending is allowed, our convention too.
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


class MultiHeadedAttention(nn.Module):
    """h attention heads in parallel, each over d_k = d_model / h dimensions (section 3.2.2).

    Captured (module path + name): hook_q, hook_k, hook_v (batch, h, seq, d_k); hook_scores
    and hook_masked_scores (batch, h, q_len, k_len); hook_pattern, the attention weights
    *before* dropout, so each row sums to 1 in train mode too; hook_z, the weighted sum of V
    per head (batch, h, q_len, d_k); hook_concat (batch, q_len, d_model); hook_out.
    """

    def __init__(self, h: int, d_model: int, dropout: float = 0.1, scale: bool = True) -> None:
        super().__init__()
        check_heads(d_model, h)
        self.d_k = d_model // h  # we assume d_v = d_k (TransformerConfig.d_k)
        self.h = h
        self.scale = scale  # divide by sqrt(d_k); False only as a break switch
        self.linears = clones(nn.Linear(d_model, d_model), 4)  # W^Q, W^K, W^V, W^O
        self.dropout = Dropout(p=dropout)
        self.hook_q, self.hook_k, self.hook_v = HookPoint(), HookPoint(), HookPoint()
        self.hook_scores = HookPoint()
        self.hook_masked_scores = HookPoint()
        self.hook_pattern = HookPoint()
        self.hook_z = HookPoint()
        self.hook_concat = HookPoint()
        self.hook_out = HookPoint()

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        mask: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if mask is not None:
            mask = mask.unsqueeze(1)  # one mask for all heads: (batch, 1, 1 or q_len, k_len)
        nbatches = query.size(0)

        # 1) Project, then split d_model into h heads of d_k:
        #    (batch, seq, d_model) -> (batch, seq, h, d_k) -> (batch, h, seq, d_k)
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
            for lin, x in zip(self.linears, (query, key, value), strict=False)
        ]
        query, key, value = self.hook_q(query), self.hook_k(key), self.hook_v(value)

        # 2) Attention on all heads at once. With nothing to capture or edit (training,
        #    decoding) and no dropout on the weights, `fast_attention` computes the same
        #    function in fewer operations, as long as each row may attend somewhere. A row
        #    whose keys are all blocked (the inverted mask's last row) keeps the written-out
        #    path, where masked_fill also stops its gradient (tests/test_fast_path.py
        #    compares both).
        inside = (self.hook_q, self.hook_k, self.hook_v, self.hook_scores,
                  self.hook_masked_scores, self.hook_pattern)  # what the fast path skips
        if (quiet(inside) and not (self.training and self.dropout.p > 0)
                and (mask is None or bool(mask.any(-1).all()))):
            x = fast_attention(query, key, value, mask, self.scale)
        else:
            x, _ = attention(query, key, value, mask=mask, dropout=self.dropout,
                             hook=self._hook, scale=self.scale)
        x = self.hook_z(x)  # (batch, h, q_len, d_k)

        # 3) Concatenate the heads and apply W^O: (batch, h, q_len, d_k) -> (batch, q_len, d_model)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        x = self.hook_concat(x)
        return self.hook_out(self.linears[-1](x))

    def _hook(self, name: str, t: torch.Tensor) -> torch.Tensor:
        return getattr(self, f"hook_{name}")(t)

    def extra_repr(self) -> str:
        return f"h={self.h}, d_k={self.d_k}" + ("" if self.scale else ", scale_scores=False")


# ---------------------------------------------------------------------------------------
# 3.3 Position-wise feed-forward networks
# ---------------------------------------------------------------------------------------


class PositionwiseFeedForward(nn.Module):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2, applied to every position on its own."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.dropout = Dropout(dropout)
        self.hook_hidden = HookPoint()
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = self.hook_hidden(self.w_1(x).relu())  # (batch, seq, d_ff)
        return self.hook_out(self.w_2(self.dropout(hidden)))  # (batch, seq, d_model)


# ---------------------------------------------------------------------------------------
# 3.4 Embeddings and 3.5 positional encoding
# ---------------------------------------------------------------------------------------


class Embeddings(nn.Module):
    """Token ids -> learned vectors, multiplied by sqrt(d_model) (section 3.4)."""

    def __init__(self, d_model: int, vocab: int, scale: bool = True) -> None:
        super().__init__()
        self.lut = nn.Embedding(vocab, d_model)
        self.d_model = d_model
        self.scale = math.sqrt(d_model) if scale else 1.0
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        check_ids(x, self.lut.num_embeddings)
        return self.hook_out(self.lut(x) * self.scale)  # (batch, seq) -> (batch, seq, d_model)

    def extra_repr(self) -> str:
        return f"scale={self.scale:.4g}"


def sinusoid_table(max_len: int, d_model: int) -> torch.Tensor:
    """(max_len, d_model) table: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(.)."""
    position = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
    div_term = torch.exp(
        torch.arange(0, d_model, 2, dtype=torch.float64) * -(math.log(10000.0) / d_model)
    )  # 1 / 10000^(2i/d_model): (d_model / 2,)
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.float()  # computed in float64 so distant positions stay exact to float32


class PositionalEncoding(nn.Module):
    """Add the fixed sinusoidal position signal to the embeddings, then apply dropout.

    With add=False (a break switch) the table is kept but nothing is added: hook_pe then
    records the zeros that were added, and the model cannot tell positions apart.
    """

    def __init__(self, d_model: int, dropout: float, max_len: int = 5000,
                 add: bool = True) -> None:
        super().__init__()
        self.dropout = Dropout(p=dropout)
        self.register_buffer("pe", sinusoid_table(max_len, d_model).unsqueeze(0))  # (1, max_len, d)
        self.add = add
        self.hook_pe = HookPoint()
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.size(1) > self.pe.size(1):
            raise ValueError(
                f"The sequence has {x.size(1)} positions but the positional encoding covers "
                f"max_len = {self.pe.size(1)}. Shorten the text or build with a larger max_len."
            )
        pe = self.pe[:, : x.size(1)]  # (1, seq, d_model)
        pe = self.hook_pe(pe if self.add else torch.zeros_like(pe))
        return self.hook_out(self.dropout(x + pe))  # (batch, seq, d_model)

    def extra_repr(self) -> str:
        return "" if self.add else "add=False"


# ---------------------------------------------------------------------------------------
# The full model
# ---------------------------------------------------------------------------------------


def make_model(
    src_vocab: int,
    tgt_vocab: int,
    N: int = 6,
    d_model: int = 512,
    d_ff: int = 2048,
    h: int = 8,
    dropout: float = 0.1,
    *,
    seed: int | None = None,
    **options: object,
) -> EncoderDecoder:
    """Build the model from hyperparameters; `options` are TransformerConfig's teaching fields."""
    cfg = TransformerConfig(src_vocab, tgt_vocab, N, d_model, d_ff, h, dropout, **options)  # type: ignore[arg-type]
    return build_model(cfg, seed=seed)


def build_model(cfg: TransformerConfig, seed: int | None = None) -> EncoderDecoder:
    """Build the model a config describes; with `seed`, initialise from that seed alone.

    Weights with 2+ dimensions get Glorot/Xavier uniform init (as The Annotated Transformer);
    biases keep nn.Linear's default range. With a seed, a private generator is used so the
    result is the same whatever other threads do with torch's global random state.
    """
    c = copy.deepcopy
    attn = MultiHeadedAttention(cfg.h, cfg.d_model, cfg.dropout, cfg.scale_scores)
    ff = PositionwiseFeedForward(cfg.d_model, cfg.d_ff, cfg.dropout)
    position = PositionalEncoding(cfg.d_model, cfg.dropout, cfg.max_len,
                                  cfg.positional_encoding)
    norms = (cfg.norm_placement, cfg.layer_norm, cfg.residual)

    def final_norm() -> nn.Module:
        # pre-norm stacks end with a LayerNorm; post-norm layers already end with one
        if cfg.norm_placement == "post":
            return nn.Identity()
        return LayerNorm(cfg.d_model, kind=cfg.layer_norm)

    model = EncoderDecoder(
        Encoder(
            EncoderLayer(cfg.d_model, c(attn), c(ff), cfg.dropout, *norms), cfg.N, final_norm()
        ),
        Decoder(
            DecoderLayer(cfg.d_model, c(attn), c(attn), c(ff), cfg.dropout, *norms),
            cfg.N,
            final_norm(),
            cfg.decoder_mask,
        ),
        nn.Sequential(Embeddings(cfg.d_model, cfg.src_vocab, cfg.scale_embedding), c(position)),
        nn.Sequential(Embeddings(cfg.d_model, cfg.tgt_vocab, cfg.scale_embedding), c(position)),
        Generator(cfg.d_model, cfg.tgt_vocab),
        config=cfg,
    )
    gen = torch.Generator().manual_seed(seed) if seed is not None else None
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.Linear) and gen is not None:
                bound = 1 / math.sqrt(module.in_features)  # nn.Linear's default bias range
                module.bias.uniform_(-bound, bound, generator=gen)
        for p in model.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p, generator=gen)
    _tie(model, cfg.tie_weights)
    return model


def _tie(model: EncoderDecoder, tie: TieWeights) -> None:
    """Share embedding tables with the generator's projection (the paper, section 3.4)."""
    if tie in ("decoder", "all"):
        model.generator.proj.weight = model.tgt_embed[0].lut.weight  # (tgt_vocab, d_model)
    if tie == "all":
        model.src_embed[0].lut.weight = model.tgt_embed[0].lut.weight


# ---------------------------------------------------------------------------------------
# Hook names: the module paths `capture()` records under, spelled in this one place
# ---------------------------------------------------------------------------------------
# Every part is an attribute name of a module above, so a rename happens here in the same
# diff. tests/test_hook_names.py checks that these functions name every hook point of a
# built model and nothing else, and that each Literal lists exactly its module's hooks.

Stack = Literal["encoder", "decoder"]
AttentionModule = Literal["self_attn", "src_attn"]  # src_attn: the decoder's cross-attention
# What MultiHeadedAttention captures, in the order it computes it.
AttentionPoint = Literal["hook_q", "hook_k", "hook_v", "hook_scores", "hook_masked_scores",
                         "hook_pattern", "hook_z", "hook_concat", "hook_out"]
# What each SublayerConnection captures.
SublayerPoint = Literal["hook_in", "hook_normed", "hook_sublayer_out", "hook_resid"]
FeedForwardPoint = Literal["hook_hidden", "hook_out"]  # PositionwiseFeedForward
PositionalPoint = Literal["hook_pe", "hook_out"]  # PositionalEncoding: PE rows; dropout(emb + PE)
GeneratorPoint = Literal["hook_logits", "hook_log_probs"]
ATTENTION_POINTS: tuple[str, ...] = get_args(AttentionPoint)
SUBLAYER_POINTS: tuple[str, ...] = get_args(SublayerPoint)

# A layer's sublayers in the order its forward applies them: `sublayer.{i}` wraps
# SUBLAYERS[stack][i] (EncoderLayer.forward, DecoderLayer.forward).
SUBLAYERS: dict[Stack, tuple[str, ...]] = {
    "encoder": ("self_attn", "feed_forward"),
    "decoder": ("self_attn", "src_attn", "feed_forward"),
}
# What feeds each stack: nn.Sequential(Embeddings, PositionalEncoding), as in build_model.
EMBED_OF: dict[Stack, str] = {"encoder": "src_embed", "decoder": "tgt_embed"}


def _sublayers(stack: Stack) -> tuple[str, ...]:
    check_choice("stack", stack, Stack)
    return SUBLAYERS[stack]


def layer_hook(stack: Stack, layer: int, rest: str) -> str:
    """A path inside one layer: ("encoder", 0, "self_attn") -> "encoder.layers.0.self_attn"."""
    check_choice("stack", stack, Stack)
    return f"{stack}.layers.{layer}.{rest}"


def attention_hook(stack: Stack, layer: int, module: AttentionModule,
                   point: AttentionPoint) -> str:
    """A hook point of one attention: ("decoder", 1, "src_attn", "hook_pattern")."""
    check_choice("module", module, AttentionModule)
    check_choice("point", point, AttentionPoint)
    if module not in _sublayers(stack):
        raise ValueError(f"{stack} layers have no {module}: their sublayers are "
                         f"{_sublayers(stack)}.")
    return layer_hook(stack, layer, f"{module}.{point}")


def feed_forward_hook(stack: Stack, layer: int, point: FeedForwardPoint) -> str:
    """A hook point of one layer's feed-forward network: ("encoder", 0, "hook_hidden")."""
    check_choice("point", point, FeedForwardPoint)
    return layer_hook(stack, layer, f"feed_forward.{point}")


def sublayer_hook(stack: Stack, layer: int, index: int, point: SublayerPoint) -> str:
    """A hook point of sublayer connection `index`, which wraps SUBLAYERS[stack][index]."""
    check_choice("point", point, SublayerPoint)
    if not 0 <= index < len(_sublayers(stack)):
        raise ValueError(f"{stack} layers have sublayers 0 to {len(_sublayers(stack)) - 1} "
                         f"{_sublayers(stack)}, got {index!r}.")
    return layer_hook(stack, layer, f"sublayer.{index}.{point}")


def stack_output_hook(stack: Stack) -> str:
    """The output of a whole stack (after its final LayerNorm, if it has one)."""
    check_choice("stack", stack, Stack)
    return f"{stack}.hook_out"


def embedding_hook(stack: Stack) -> str:
    """The token embeddings (x sqrt(d_model)) of a stack's input: "src_embed.0.hook_out"."""
    check_choice("stack", stack, Stack)
    return f"{EMBED_OF[stack]}.0.hook_out"


def positional_hook(stack: Stack, point: PositionalPoint) -> str:
    """Positional encoding of a stack's input: ("encoder", "hook_pe") -> "src_embed.1.hook_pe"."""
    check_choice("stack", stack, Stack)
    check_choice("point", point, PositionalPoint)
    return f"{EMBED_OF[stack]}.1.{point}"


def generator_hook(point: GeneratorPoint) -> str:
    """A hook point of the generator: "generator.hook_logits" or "generator.hook_log_probs"."""
    check_choice("point", point, GeneratorPoint)
    return f"generator.{point}"
