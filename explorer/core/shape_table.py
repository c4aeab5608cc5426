"""The Shapes page's table, and the Model page's live shapes: every captured tensor of a
forward pass with its shape named axis by axis (batch, h, seq, d_k, ...) and the operation
that made it, in the run's language or in `lang` (labels a figure hands down).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from transformer.config import TransformerConfig
from transformer.hook_paths import (
    ATTENTION_POINTS,
    SUBLAYERS,
    GeneratorPoint,
    PositionalPoint,
    Stack,
    attention_hook,
    embedding_hook,
    generator_hook,
    layer_hook,
    positional_hook,
    stack_output_hook,
    sublayer_hook,
)

from ..text.i18n import Text, t

_HOOK_LINE = re.compile(r"^\s*\(hook_\w+\): HookPoint\(\)\s*$")


STACKS_OF_MODEL: tuple[Stack, ...] = get_args(Stack)


def _text(lang: str | None) -> Callable[..., str]:
    """The text of `lang`, or of the run's language when None."""
    return Text(lang) if lang is not None else t


@dataclass(frozen=True)
class ShapeRow:
    """One captured tensor of a forward pass, described for a learner."""

    step: int  # order in which the tensor was produced
    name: str  # hook point's module path
    stack: str  # "Embeddings", "Encoder", "Decoder" or "Output" (see stack_label)
    layer: str  # "layer 0", ..., "source"/"target" (embeddings), or "" (see layer_label)
    sublayer: str  # "self-attention", "cross-attention", "feed-forward", ... (sublayer_label)
    shape: tuple[int, ...]
    dims: str  # named dimensions, e.g. "(batch=1, h=4, src_len=6, d_k=8)"
    op: str  # the operation that produced it, in the code's terms (words: run's language)
    row_seq: str  # which tokens index the rows of a 2-D view: "src", "tgt" or ""
    col_seq: str  # which tokens index its columns: "src", "tgt" or "" (features)


_SUBLAYER_NAMES = {
    ("encoder", "0"): "self-attention",
    ("encoder", "1"): "feed-forward",
    ("decoder", "0"): "masked self-attention",
    ("decoder", "1"): "cross-attention",
    ("decoder", "2"): "feed-forward",
}
_MODULE_SUBLAYER = {
    "self_attn": "self-attention",
    "src_attn": "cross-attention",
    "feed_forward": "feed-forward",
}
_STACK_KEYS = {"Embeddings": "intro.stack.embeddings", "Encoder": "intro.stack.encoder",
               "Decoder": "intro.stack.decoder", "Output": "intro.stack.output"}
STACKS: tuple[str, ...] = tuple(_STACK_KEYS)  # the values of ShapeRow.stack, in model order
_SUBLAYER_KEYS = {"self-attention": "intro.sub.self_attn",
                  "masked self-attention": "intro.sub.masked_self_attn",
                  "cross-attention": "intro.sub.cross_attn",
                  "feed-forward": "intro.sub.feed_forward",
                  "generator": "intro.sub.generator",
                  "final norm": "intro.sub.final_norm"}
_LAYER_RE = re.compile(r"layer ([0-9]+)", re.ASCII)


def stack_label(stack: str, lang: str | None = None) -> str:
    """`ShapeRow.stack` ("Encoder", ...) in `lang` (the run's language when None)."""
    key = _STACK_KEYS.get(stack)
    return _text(lang)(key) if key is not None else stack


def layer_label(layer: str, lang: str | None = None) -> str:
    """`ShapeRow.layer` ("layer 0", "source", "target" or "") in `lang` (the run's language
    when None)."""
    t = _text(lang)
    match = _LAYER_RE.fullmatch(layer)
    if match:
        return t("intro.layer_n", n=match.group(1))
    if layer in ("source", "target"):
        return t(f"intro.layer_{layer}")
    return layer


def sublayer_label(sublayer: str, lang: str | None = None) -> str:
    """`ShapeRow.sublayer` ("self-attention", ...) in `lang` (the run's language when None)."""
    key = _SUBLAYER_KEYS.get(sublayer)
    return _text(lang)(key) if key is not None else sublayer


def _ops(cfg: TransformerConfig) -> dict[str, str]:
    """What produced each captured tensor: the code's expression, words in the run's language."""
    pre = cfg.norm_placement == "pre"
    return {
        "embed.hook_out": "lut(ids) × √d_model" if cfg.scale_embedding
        else "lut(ids) " + t("intro.op.no_scaling"),
        "pe.hook_pe": "pe[:, :seq]  " + t("intro.op.fixed_sincos"),
        "pe.hook_out": "dropout(embedding + PE)",
        "hook_in": t("intro.op.x_entering"),
        "hook_normed": "LayerNorm(x)" if pre else "LayerNorm(x + dropout(sublayer(x)))",
        "hook_sublayer_out": "sublayer(LayerNorm(x))" if pre else "sublayer(x)",
        "hook_resid": "x + dropout(sublayer(LayerNorm(x)))" if pre else "x + dropout(sublayer(x))",
        "hook_q": "linears[0](query).view(batch, -1, h, d_k).transpose(1, 2)",
        "hook_k": "linears[1](key).view(batch, -1, h, d_k).transpose(1, 2)",
        "hook_v": "linears[2](value).view(batch, -1, h, d_k).transpose(1, 2)",
        "hook_scores": "Q @ K.transpose(-2, -1) / √d_k",
        "hook_masked_scores": "scores.masked_fill(mask == 0, -1e9)",
        "hook_pattern": "softmax(masked_scores, dim=-1)",
        "hook_z": "dropout(p_attn) @ V",
        "hook_concat": "x.transpose(1, 2).contiguous().view(batch, -1, h * d_k)",
        "attn.hook_out": "linears[3](concat)  (W^O)",
        "hook_hidden": "relu(w_1(x))",
        "ff.hook_out": "w_2(dropout(hidden))",
        "encoder.hook_out": "memory = norm(x)" if pre
        else "memory " + t("intro.op.post_no_final_norm"),
        "decoder.hook_out": "norm(x)" if pre else "x " + t("intro.op.post_no_final_norm"),
        "hook_logits": "proj(x)",
        "hook_log_probs": "log_softmax(logits, dim=-1)",
    }


def _axes(name: str) -> tuple[str, str]:
    """The sequences along the last two axes of a captured tensor ("" for features)."""
    parts = name.split(".")
    hook = parts[-1]
    seq = "tgt" if parts[0] in ("decoder", "tgt_embed", "generator") else "src"
    key_seq = "src" if "src_attn" in parts else seq
    if hook in ("hook_k", "hook_v"):
        return key_seq, ""
    if hook in ("hook_scores", "hook_masked_scores", "hook_pattern"):
        return seq, key_seq
    return seq, ""


def _dims(name: str, shape: tuple[int, ...], cfg: TransformerConfig) -> str:
    parts = name.split(".")
    hook = parts[-1]
    in_decoder = parts[0] in ("decoder", "tgt_embed", "generator")
    seq = "tgt_len" if in_decoder else "src_len"
    key_seq = "src_len" if "src_attn" in parts else seq
    if hook in ("hook_q", "hook_z"):
        names = ("batch", "h", seq, "d_k")
    elif hook in ("hook_k", "hook_v"):
        names = ("batch", "h", key_seq, "d_k")
    elif hook in ("hook_scores", "hook_masked_scores", "hook_pattern"):
        names = ("batch", "h", f"q:{seq}", f"k:{key_seq}")
    elif hook == "hook_hidden":
        names = ("batch", seq, "d_ff")
    elif hook == "hook_pe":
        names = ("1", seq, "d_model")
    elif hook in ("hook_logits", "hook_log_probs"):
        names = ("batch", "tgt_len", "vocab")
    else:
        names = ("batch", seq, "d_model")
    if len(names) != len(shape):
        return str(shape)
    return "(" + ", ".join(n if n == "1" else f"{n}={s}"
                           for n, s in zip(names, shape, strict=True)) + ")"


def _op_key(parts: list[str]) -> str:
    hook = parts[-1]
    if parts[0] in ("src_embed", "tgt_embed"):
        return ("embed." if parts[1] == "0" else "pe.") + hook
    if parts[0] in ("encoder", "decoder") and len(parts) == 2:
        return f"{parts[0]}.{hook}"
    if hook == "hook_out" and len(parts) > 3:
        return ("ff." if parts[3] == "feed_forward" else "attn.") + hook
    return hook


def shape_rows(cache: Mapping[str, np.ndarray], cfg: TransformerConfig) -> list[ShapeRow]:
    """Every captured tensor, in the order it was produced, with dims and operation."""
    ops = _ops(cfg)
    rows = []
    for step, (name, value) in enumerate(cache.items()):
        parts = name.split(".")
        if parts[0] in ("src_embed", "tgt_embed"):
            stack, layer, sub = "Embeddings", "source" if parts[0] == "src_embed" else "target", ""
        elif parts[0] == "generator":
            stack, layer, sub = "Output", "", "generator"
        elif len(parts) == 2:
            stack, layer, sub = parts[0].capitalize(), "", "final norm"
        else:
            stack, layer = parts[0].capitalize(), f"layer {parts[2]}"
            if parts[3] == "sublayer":
                sub = _SUBLAYER_NAMES[(parts[0], parts[4])]
            else:
                sub = _MODULE_SUBLAYER[parts[3]]
                if parts[0] == "decoder" and sub == "self-attention":
                    sub = "masked self-attention"
        shape = tuple(int(s) for s in np.shape(value))
        rows.append(
            ShapeRow(
                step=step,
                name=name,
                stack=stack,
                layer=layer,
                sublayer=sub,
                shape=shape,
                dims=_dims(name, shape, cfg),
                op=ops.get(_op_key(parts), ""),
                row_seq=_axes(name)[0],
                col_seq=_axes(name)[1],
            )
        )
    return rows


def filter_rows(rows: list[ShapeRow], stack: str = "all", layer: str = "all",
                only_attention: bool = False) -> list[ShapeRow]:
    """The Shapes page's filters: `rows` of one stack ("all" or a `ShapeRow.stack`), one
    layer ("all" or "layer i"; the embeddings' and final rows stay with every layer), and
    only the attention tensors if `only_attention`."""
    return [
        r for r in rows
        if (stack == "all" or r.stack == stack)
        and (layer == "all" or r.layer == layer or r.layer in ("", "source", "target"))
        and (not only_attention or "attn" in r.name)
    ]


# ---- What each component of the Model page's code view shows ---------------------------


def relevant_rows(component: str, rows: list[ShapeRow], pre: bool) -> list[ShapeRow]:
    """The captured tensors that show what `component` does (layer 0 where it repeats).

    `pre`: the model puts LayerNorm before each sublayer (pre-norm) rather than after it.
    """
    inner = {p for p in ATTENTION_POINTS if p not in ("hook_concat", "hook_out")}
    enc_out = "hook_resid" if pre else "hook_normed"  # a layer's output, per placement
    norm_in = "hook_in" if pre else "hook_resid"  # what the LayerNorm reads
    enc0, dec0 = layer_hook("encoder", 0, ""), layer_hook("decoder", 0, "")  # path prefixes
    enc_self, dec_self = enc0 + "self_attn.", dec0 + "self_attn."
    cross = dec0 + "src_attn."
    outs = {stack_output_hook("encoder"), stack_output_hook("decoder")}

    def keep(n: str) -> bool:
        hook = n.rsplit(".", 1)[-1]
        if component == "Embeddings":
            return n in (embedding_hook("encoder"), embedding_hook("decoder"))
        if component == "PositionalEncoding":
            return n in {positional_hook(s, p) for s in STACKS_OF_MODEL
                         for p in get_args(PositionalPoint)}
        if component == "attention":
            return n.startswith((enc_self, cross)) and hook in inner
        if component == "MultiHeadedAttention":
            return n.startswith((enc_self, dec_self, cross))
        if component == "PositionwiseFeedForward":
            return n.startswith((enc0 + "feed_forward.", dec0 + "feed_forward."))
        if component == "LayerNorm":
            return ((n.startswith(enc0 + "sublayer.") and hook in (norm_in, "hook_normed"))
                    or (pre and n in outs))
        if component == "SublayerConnection":
            return n.startswith(enc0 + "sublayer.")
        if component in ("EncoderLayer", "DecoderLayer"):
            prefix = enc0 if component == "EncoderLayer" else dec0
            return n.startswith(prefix) and (".sublayer." in n or hook == "hook_out"
                                             or n == attention_hook("decoder", 0, "src_attn",
                                                                    "hook_k"))
        if component in ("Encoder", "Decoder"):
            stack = "encoder" if component == "Encoder" else "decoder"
            last = SUBLAYERS[stack].index("feed_forward")  # its sublayer connection
            return (n == sublayer_hook(stack, 0, 0, "hook_in") or n == stack_output_hook(stack)
                    or (n.startswith(f"{stack}.layers.")
                        and n.endswith(f"sublayer.{last}.{enc_out}")))
        if component == "Generator":
            return n in {generator_hook(p) for p in get_args(GeneratorPoint)}
        if component == "EncoderDecoder":
            return n in (positional_hook("encoder", "hook_out"), stack_output_hook("encoder"),
                         positional_hook("decoder", "hook_out"), stack_output_hook("decoder"),
                         generator_hook("hook_log_probs"))
        if component == "subsequent_mask":
            return n.startswith(dec_self) and hook in (
                "hook_scores", "hook_masked_scores", "hook_pattern")
        return False

    return [r for r in rows if keep(r.name)]


def component_shapes(component: str, rows: list[ShapeRow], pre: bool,
                     tgt_len: int) -> list[tuple[str, str, str]]:
    """(tensor, dims, operation) rows of the live shapes beside `component`'s source.

    The hook comes first in a tensor's name: it is what tells the rows apart in a narrow
    column. For `subsequent_mask` the mask itself (not captured: it is an input) leads.
    """
    table = [(" · ".join(reversed(r.name.rsplit(".", 1))), r.dims, r.op)
             for r in relevant_rows(component, rows, pre)]
    if component == "subsequent_mask":
        n = tgt_len
        table.insert(0, ("tgt_mask", f"(batch=1, tgt_len={n}, tgt_len={n})",
                         f"subsequent_mask({n}): tril(ones(1, {n}, {n}))"))
    return table


# ---- The two LayerNorm formulas: The Annotated Transformer's and nn.LayerNorm's ------------


def self_attention_shapes(cache: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Encoder layer 0's self-attention in a run's cache: what goes in and comes out
    (hook_out, 3-D), Q once split into heads (hook_q, 4-D) and the scores (hook_scores)."""
    return {point: tuple(cache[attention_hook("encoder", 0, "self_attn", point)].shape)
            for point in ("hook_out", "hook_q", "hook_scores")}
