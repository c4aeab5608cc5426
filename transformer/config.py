"""What fixes a model's architecture (`TransformerConfig`), and the checks that refuse a
setting which cannot build one, each with a message naming a valid choice."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal, get_args, get_origin, get_type_hints

import torch

NormPlacement = Literal["pre", "post"]
LayerNormKind = Literal["annotated", "standard"]
TieWeights = Literal["none", "decoder", "all"]
# The decoder self-attention's mask: "subsequent" (the paper's, section 3.2.3), "none" (only
# padding is blocked: every position sees the future) or "inverted" (the mistake of filling
# where the lower-triangular mask is 1: every position sees only *later* positions).
DecoderMask = Literal["subsequent", "none", "inverted"]


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
    # Value dimensions per head; None: d_v = d_k, as the paper sets them (3.2.2). Another d_v
    # changes W^V (d_model -> h*d_v) and W^O (h*d_v -> d_model) and nothing else.
    d_v: int | None = None

    def __post_init__(self) -> None:
        validate_config(self)

    @property
    def d_k(self) -> int:
        """Query and key dimensions per head: d_k = d_model / h."""
        return self.d_model // self.h

    @property
    def value_dim(self) -> int:
        """Value dimensions per head as built: d_v, else d_k (the paper's d_v = d_k)."""
        return self.d_k if self.d_v is None else self.d_v


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
    if cfg.d_v is not None:
        check_int("d_v", cfg.d_v)
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
