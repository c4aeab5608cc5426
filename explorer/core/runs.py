"""Build the learner's model and run their sentence through it. Pure torch, no streamlit.

Two ideas keep pages fast and shared objects safe:
- The encoder/decoder stacks ("body") depend only on the architecture and the seed, not on
  the text. `assemble()` puts a body together with embedding tables for the current
  vocabulary, whose row for a token is seeded by the token's text: "cat" keeps its vector
  when other words change, and a new sentence costs no rebuild of the stacks.
- A `Run` holds every captured tensor as a read-only numpy array, so a result shared
  between users through a cache cannot be changed by any of them.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np
import torch
from torch import nn

from transformer.config import TransformerConfig
from transformer.model import (
    Embeddings,
    EncoderDecoder,
    Generator,
    PositionalEncoding,
    build_model,
    subsequent_mask,
)
from transformer.tokenize import (
    BOS,
    MAX_TEXT_CHARS,
    TokenizeError,
    Vocab,
    normalize,
    tokenize,
)

BODY_VOCAB = 4  # placeholder vocabulary for a body: only the stacks are kept from it


def token_ids(itos: Sequence[str]) -> dict[str, int]:
    """Token -> id for a vocabulary listed by id; a token listed twice keeps its first id."""
    return {tok: i for i, tok in reversed(list(enumerate(itos)))}


def encode(itos: Sequence[str], tokens: Sequence[str], unk: int) -> list[int]:
    """The ids of `tokens` in the vocabulary `itos`; one it lacks reads as `unk`."""
    ids = token_ids(itos)
    return [ids.get(tok, unk) for tok in tokens]


def freeze(model: nn.Module, train_mode: bool = False) -> nn.Module:
    """A model that will only be read (shared, or shown): no gradients, in eval mode (or
    in train mode, dropout on, when `train_mode`)."""
    model.train(train_mode)
    model.requires_grad_(False)
    return model


@dataclass(frozen=True)
class Tokens:
    """The learner's text as the model sees it."""

    src_tokens: tuple[str, ...]  # source tokens, no specials
    tgt_tokens: tuple[str, ...]  # target tokens, no specials
    vocab: Vocab  # one vocabulary shared by source and target

    @property
    def src_ids(self) -> list[int]:
        return self.vocab.encode(self.src_tokens)

    @property
    def tgt_in_tokens(self) -> tuple[str, ...]:
        """Decoder input (teacher forcing): <s> y1 .. ym."""
        return ("<s>", *self.tgt_tokens)

    @property
    def tgt_in_ids(self) -> list[int]:
        return [BOS, *self.vocab.encode(self.tgt_tokens)]


@dataclass(frozen=True)
class ImportedTokens(Tokens):
    """The learner's text in an imported model's own vocabularies (unknown words: <unk>)."""

    src_itos: tuple[str, ...] = ()  # id -> token of the model's source vocabulary
    tgt_itos: tuple[str, ...] = ()  # id -> token of its target vocabulary
    bos: int = BOS  # id of the start token in the target vocabulary
    src_unk: int = 0  # id used for a source token the vocabulary lacks
    tgt_unk: int = 0  # id used for a target token the vocabulary lacks

    @property
    def src_ids(self) -> list[int]:
        return encode(self.src_itos, self.src_tokens, self.src_unk)

    @property
    def tgt_in_tokens(self) -> tuple[str, ...]:
        return (self.tgt_itos[self.bos], *self.tgt_tokens)

    @property
    def tgt_in_ids(self) -> list[int]:
        return [self.bos, *encode(self.tgt_itos, self.tgt_tokens, self.tgt_unk)]


def imported_tokens(tokens: Tokens, src_itos: tuple[str, ...], tgt_itos: tuple[str, ...],
                    specials: dict[str, int], src_unk: int | None, bos: int) -> ImportedTokens:
    """`tokens` mapped into an imported model's vocabularies; unknown ones shown as it sees
    them; the decoder starts from `bos`."""
    tgt_unk = specials.get("unk", 0)
    s_unk = src_unk if src_unk is not None else 0
    src_known, tgt_known = set(src_itos), set(tgt_itos)
    src = tuple(tok if tok in src_known else src_itos[s_unk] for tok in tokens.src_tokens)
    tgt = tuple(tok if tok in tgt_known else tgt_itos[tgt_unk] for tok in tokens.tgt_tokens)
    return ImportedTokens(src, tgt, Vocab(list(dict.fromkeys([*src, *tgt]))), src_itos,
                          tgt_itos, bos, s_unk, tgt_unk)


def make_tokens(source: str, target: str, mode: str) -> Tokens:
    """Tokenize source and target (a blank target copies the source).

    Raises TokenizeError whose message says which of the two texts was refused.
    """
    try:
        src = tuple(tokenize(source, mode))
    except TokenizeError as exc:
        raise TokenizeError(f"Source sentence: {exc}") from exc
    if isinstance(target, str) and len(target) <= MAX_TEXT_CHARS and not normalize(target):
        return Tokens(src, src, Vocab(list(src)))  # blank (even invisible-only): copy
    try:
        tgt = tuple(tokenize(target, mode))
    except TokenizeError as exc:
        raise TokenizeError(f"Target sentence: {exc}") from exc
    return Tokens(src, tgt, Vocab([*src, *tgt]))


def body_config(cfg: TransformerConfig) -> TransformerConfig:
    """The same architecture with a placeholder vocabulary: the cache key of a body."""
    return replace(cfg, src_vocab=BODY_VOCAB, tgt_vocab=BODY_VOCAB, tie_weights="none")


def build_body(cfg: TransformerConfig, seed: int, train_mode: bool) -> EncoderDecoder:
    """Encoder and decoder stacks for `cfg` from `seed`, in train or eval mode; never changed."""
    return freeze(build_model(body_config(cfg), seed=seed), train_mode)


def _token_row(seed: int, salt: str, token: str, width: int, bound: float) -> torch.Tensor:
    digest = hashlib.sha256(f"{seed}\x1f{salt}\x1f{token}".encode()).digest()
    gen = torch.Generator().manual_seed(int.from_bytes(digest[:8], "little") & (2**63 - 1))
    return (torch.rand(width, generator=gen) * 2 - 1) * bound


def token_table(seed: int, salt: str, itos: tuple[str, ...], d_model: int) -> torch.Tensor:
    """(len(itos), d_model) rows in Glorot's range, each seeded by its token's text."""
    bound = math.sqrt(3.0 / d_model)  # xavier_uniform for a d_model x d_model table
    return torch.stack([_token_row(seed, salt, tok, d_model, bound) for tok in itos])


def assemble(
    body: EncoderDecoder, cfg: TransformerConfig, seed: int, vocab: Vocab
) -> EncoderDecoder:
    """A full model: the shared `body` stacks plus embeddings and generator for `vocab`."""
    V, d = len(vocab), cfg.d_model
    src_embed = nn.Sequential(
        Embeddings(d, V, cfg.scale_embedding), PositionalEncoding(d, cfg.dropout, cfg.max_len)
    )
    tgt_embed = nn.Sequential(
        Embeddings(d, V, cfg.scale_embedding), PositionalEncoding(d, cfg.dropout, cfg.max_len)
    )
    generator = Generator(d, V)
    with torch.no_grad():
        src_embed[0].lut.weight.copy_(token_table(seed, "src", vocab.itos, d))
        tgt_embed[0].lut.weight.copy_(token_table(seed, "tgt", vocab.itos, d))
        generator.proj.weight.copy_(token_table(seed, "gen", vocab.itos, d))
        generator.proj.bias.copy_(token_table(seed, "bias", vocab.itos, 1)[:, 0] / math.sqrt(d))
    if cfg.tie_weights in ("decoder", "all"):
        generator.proj.weight = tgt_embed[0].lut.weight
    if cfg.tie_weights == "all":
        src_embed[0].lut.weight = tgt_embed[0].lut.weight
    for fresh in (src_embed, tgt_embed, generator):  # the shared body is left untouched
        fresh.train(body.training)
        fresh.requires_grad_(False)
    model = EncoderDecoder(body.encoder, body.decoder, src_embed, tgt_embed, generator, cfg)
    model.training = body.training
    return model


def page_model(cfg: TransformerConfig, seed: int, vocab: Vocab,
               train_mode: bool = False) -> EncoderDecoder:
    """The untrained model the pages show for `cfg`, `seed` and the sentence's `vocab`,
    rebuilt from scratch: what a script calls to reproduce a page's numbers.

    Not `make_model(len(vocab), len(vocab), ..., seed)`: `build_model` makes the encoder and
    decoder stacks with a placeholder vocabulary (`body_config`), so every sentence shares
    them, and `assemble` fills the embeddings and the generator one row per token, seeded by
    the token's text (a word keeps its vector whatever sentence it is in). The pages share
    one such model per key (explorer/app/cache.py `shared_model`)."""
    return assemble(build_body(cfg, seed, train_mode), cfg, seed, vocab)


def _readonly(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


def _readonly_tensor(t: torch.Tensor) -> np.ndarray:
    return _readonly(t.detach().to(torch.float32).numpy())


@dataclass(frozen=True)
class Run:
    """One forward pass of the learner's sentence: every captured tensor, read-only."""

    tokens: Tokens
    cache: MappingProxyType[str, np.ndarray]  # hook name -> array; batch dimension kept (1)
    src_mask: np.ndarray  # (1, 1, src_len) bool
    tgt_mask: np.ndarray  # (1, tgt_len, tgt_len) bool
    train_mode: bool


def run_bytes(cfg: TransformerConfig, src_len: int, tgt_len: int) -> int:
    """The bytes a `Run` holds, exactly, from the shapes its hook points capture.

    Counted without building anything (it picks the cache tier before the run exists).
    S = src_len, T = tgt_len (the decoder input, <s> included), float32 everywhere:
    - embeddings: lookup, PE and their sum, for both sides: 3·S·d + 3·T·d
    - each encoder layer: 2 sublayer connections × 4 points (in, normed, sublayer out,
      residual) = 8·S·d; self-attention Q, K, V, z (h·d_k = d each) and concat, out =
      6·S·d; scores, masked scores, pattern = 3·h·S²; feed-forward hidden S·d_ff + out S·d
    - each decoder layer: 3 connections = 12·T·d; self-attention 6·T·d + 3·h·T²;
      cross-attention Q, z, concat, out = 4·T·d, K and V from memory = 2·S·d, 3·h·T·S;
      feed-forward T·d_ff + T·d
    - each stack's output (S·d, T·d), the generator's logits and log-probs (2·T·vocab)
    - the masks, one byte per bool: src_mask S, tgt_mask T².
    """
    S, T, d, h = src_len, tgt_len, cfg.d_model, cfg.h
    encoder_layer = 15 * S * d + 3 * h * S * S + S * cfg.d_ff
    decoder_layer = 23 * T * d + 2 * S * d + 3 * h * (T * T + T * S) + T * cfg.d_ff
    floats = (3 * (S + T) * d + cfg.N * (encoder_layer + decoder_layer) + (S + T) * d
              + 2 * T * cfg.tgt_vocab)
    return 4 * floats + S + T * T


def forward(model: EncoderDecoder, tokens: Tokens) -> Run:
    """Run the sentence through `model` once, capturing every hook point.

    In train mode dropout is active and draws from torch's random generator, so every
    call gives a different pattern (that is what dropout does); callers do not cache those.
    """
    src = torch.tensor([tokens.src_ids])
    tgt = torch.tensor([tokens.tgt_in_ids])
    src_mask = torch.ones(1, 1, src.size(1), dtype=torch.bool)
    tgt_mask = subsequent_mask(tgt.size(1))
    _, cache = model.run_with_cache(src, tgt, src_mask, tgt_mask)
    return Run(
        tokens=tokens,
        cache=MappingProxyType({k: _readonly_tensor(v) for k, v in cache.items()}),
        src_mask=_readonly(src_mask.numpy()),
        tgt_mask=_readonly(tgt_mask.numpy()),
        train_mode=model.training,
    )
