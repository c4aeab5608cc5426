"""The encoder-decoder Transformer of "Attention Is All You Need", in paper order.

Class and parameter names follow Harvard NLP's *The Annotated Transformer*, so that with
the default `TransformerConfig` (config.py) a checkpoint trained with that code loads here
with `load_state_dict(strict=True)`. Every tensor worth looking at passes through a
`HookPoint` (hooks.py; their names are spelled in hook_paths.py); outside `capture()` they
are identities and cost nothing. Two formulas, the LayerNorm's and the attention's, also
have a CPU fast path (fast.py) computing the same function in fewer operations; each is
taken in one commented line.

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

import torch
import torch.nn.functional as F
from torch import nn

from . import fast
from .config import (
    DecoderMask,
    LayerNormKind,
    NormPlacement,
    TieWeights,
    TransformerConfig,
    check_heads,
    check_ids,
    check_int,
)
from .hooks import HookPoint, capture

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


class LayerNorm(nn.Module):
    """Normalise each vector over its features, then scale by a_2 and shift by b_2.

    kind="annotated": (x - mean) / (std + eps) with the unbiased std and eps = 1e-6, as in
    The Annotated Transformer. kind="standard": (x - mean) / sqrt(var + eps) with the biased
    variance and eps = 1e-5, exactly what `torch.nn.LayerNorm` computes.
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
        if fast.enabled():  # the formula below in fewer operations on CPU (fast.py)
            return fast.layer_norm(x, self.a_2, self.b_2, self.eps)
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)  # unbiased: divides by d_model - 1
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2

    def extra_repr(self) -> str:
        return f"{self.a_2.numel()}, kind={self.kind!r}, eps={self.eps:g}"


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
        x = self.sublayer[0](x, lambda x: self.self_attn(x, x, x, mask))  # 1) self-attention
        return self.sublayer[1](x, self.feed_forward)  # 2) feed-forward


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


# The score a blocked position gets before the softmax: The Annotated Transformer's
# `scores.masked_fill(mask == 0, -1e9)`. Finite, so a row with every key blocked still has
# a softmax (uniform weights) instead of NaN.
MASK_FILL = -1e9


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
    return p_attn @ value, p_attn  # (batch, h, q, d_v), (batch, h, q, k)


class MultiHeadedAttention(nn.Module):
    """h attention heads in parallel, each over d_k = d_model / h dimensions (section 3.2.2);
    values get d_v dimensions per head, d_k unless `d_v` is given (the paper's d_v = d_k).

    Captured (module path + name): hook_q, hook_k, hook_v (batch, h, seq, d_k); hook_scores
    and hook_masked_scores (batch, h, q_len, k_len); hook_pattern, the attention weights
    *before* dropout, so each row sums to 1 in train mode too; hook_z, the weighted sum of V
    per head (batch, h, q_len, d_v); hook_concat (batch, q_len, h * d_v); hook_out.
    """

    def __init__(self, h: int, d_model: int, dropout: float = 0.1, scale: bool = True,
                 d_v: int | None = None) -> None:
        super().__init__()
        check_heads(d_model, h)
        self.d_k = d_model // h
        self.d_v = self.d_k if d_v is None else d_v  # TransformerConfig.value_dim
        self.h = h
        self.scale = scale  # divide by sqrt(d_k); False only as a break switch
        # W^Q, W^K, W^V, W^O: four copies of one (d_model, d_model) layer, as The Annotated
        # Transformer builds them, unless d_v != d_k widens W^V's output and W^O's input
        self.linears = (clones(nn.Linear(d_model, d_model), 4) if self.d_v == self.d_k else
                        nn.ModuleList([nn.Linear(d_model, d_model), nn.Linear(d_model, d_model),
                                       nn.Linear(d_model, h * self.d_v),
                                       nn.Linear(h * self.d_v, d_model)]))
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

        # 1) Project, then split into h heads of d_k (query, key) and d_v (value):
        #    (batch, seq, d_model) -> (batch, seq, h, d_k) -> (batch, h, seq, d_k)
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, d).transpose(1, 2)
            for lin, x, d in zip(self.linears, (query, key, value),
                                 (self.d_k, self.d_k, self.d_v), strict=False)
        ]
        query, key, value = self.hook_q(query), self.hook_k(key), self.hook_v(value)

        # 2) Attention on all heads at once (section 3.2.1).
        if fast.attention_applies(self, mask):  # nothing looks inside: the same, faster (fast.py)
            x = fast.attention(query, key, value, mask, self.scale)
        else:
            x, _ = attention(query, key, value, mask=mask, dropout=self.dropout,
                             hook=self._hook, scale=self.scale)
        x = self.hook_z(x)  # (batch, h, q_len, d_v)

        # 3) Concatenate the heads and apply W^O:
        #    (batch, h, q_len, d_v) -> (batch, q_len, h * d_v) -> (batch, q_len, d_model)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_v)
        x = self.hook_concat(x)
        return self.hook_out(self.linears[-1](x))

    def _hook(self, name: str, t: torch.Tensor) -> torch.Tensor:
        return getattr(self, f"hook_{name}")(t)

    def extra_repr(self) -> str:
        d_v = "" if self.d_v == self.d_k else f", d_v={self.d_v}"
        return f"h={self.h}, d_k={self.d_k}{d_v}" + ("" if self.scale else ", scale_scores=False")


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
    if torch.get_default_device().type == "meta":  # a model built for its shapes only
        return torch.empty(max_len, d_model)  # (explorer/core/sized.py): no values to compute
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
    attn = MultiHeadedAttention(cfg.h, cfg.d_model, cfg.dropout, cfg.scale_scores, cfg.d_v)
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
