"""Describe a model in words: module tree, parameters, code, and walk-throughs' layouts
(the shape table is core/shape_table.py).

Pure python/torch, no streamlit: the Model and Shapes pages turn these into widgets.
Names that code compares (parameter groups, `ShapeRow.stack`/`layer`/`sublayer`) stay
English identifiers; `group_label`, `stack_label`, `layer_label` and `sublayer_label` give
the learner's wording in the run's language, or in `lang` when a figure hands its own down.
Operation descriptions and component summaries are written in the run's language directly.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import torch
from torch import nn

from transformer import model as model_module
from transformer.config import TransformerConfig
from transformer.model import LayerNorm

from ..text.i18n import Text, t

_HOOK_LINE = re.compile(r"^\s*\(hook_\w+\): HookPoint\(\)\s*$")


def module_tree(model: nn.Module) -> str:
    """`print(model)` without the HookPoint lines (they are identities)."""
    return "\n".join(line for line in repr(model).splitlines() if not _HOOK_LINE.match(line))


# ---- Parameters ----------------------------------------------------------------------


def _group(name: str) -> str:
    parts = name.split(".")
    if parts[0] in ("src_embed", "tgt_embed"):
        return "Source embedding" if parts[0] == "src_embed" else "Target embedding"
    if parts[0] == "generator":
        return "Generator (output layer)"
    stack = "Encoder" if parts[0] == "encoder" else "Decoder"
    if parts[1] == "norm":
        return f"{stack} LayerNorms"
    part = parts[3]
    return {
        "self_attn": f"{stack} self-attention",
        "src_attn": "Decoder cross-attention",
        "feed_forward": f"{stack} feed-forward",
        "sublayer": f"{stack} LayerNorms",
    }[part]


GROUP_KEYS: dict[str, str] = {  # parameter group (an identifier) -> its label's text key
    "Source embedding": "intro.group.src_embed",
    "Target embedding": "intro.group.tgt_embed",
    "Generator (output layer)": "intro.group.generator",
    "Encoder self-attention": "intro.group.enc_self_attn",
    "Encoder feed-forward": "intro.group.enc_ff",
    "Encoder LayerNorms": "intro.group.enc_norms",
    "Decoder self-attention": "intro.group.dec_self_attn",
    "Decoder cross-attention": "intro.group.dec_cross_attn",
    "Decoder feed-forward": "intro.group.dec_ff",
    "Decoder LayerNorms": "intro.group.dec_norms",
}


def _text(lang: str | None) -> Callable[..., str]:
    """The text of `lang`, or of the run's language when None."""
    return Text(lang) if lang is not None else t


def group_label(group: str, lang: str | None = None) -> str:
    """A parameter group's name in `lang` (the run's language when None; unknown names are
    returned as given)."""
    key = GROUP_KEYS.get(group)
    return _text(lang)(key) if key is not None else group


@dataclass(frozen=True)
class ParamRow:
    """One parameter tensor (tied tensors appear once, under their first name)."""

    name: str
    group: str
    shape: tuple[int, ...]
    count: int


def parameter_rows(model: nn.Module) -> list[ParamRow]:
    """Every distinct parameter with its component group, shape and size."""
    return [
        ParamRow(name, _group(name), tuple(p.shape), p.numel())
        for name, p in model.named_parameters()  # de-duplicates tied weights
    ]


def parameter_groups(model: nn.Module) -> dict[str, int]:
    """Parameter count per component group, in model order."""
    groups: dict[str, int] = {}
    for row in parameter_rows(model):
        groups[row.group] = groups.get(row.group, 0) + row.count
    return groups


def embedding_range(model: nn.Module) -> float:
    """The largest |weight| of `model`'s source embedding table (read only)."""
    return float(model.src_embed[0].lut.weight.detach().abs().max())


def xavier_bound(fan_in: int, fan_out: int) -> float:
    """`nn.init.xavier_uniform_`'s bound for a (fan_out, fan_in) weight: √(6 / (in + out))."""
    return float(np.sqrt(6 / (fan_in + fan_out)))


def tied_names(model: nn.Module) -> list[tuple[str, str]]:
    """Pairs (kept name, tied name) of parameters that share one tensor."""
    first: dict[int, str] = {}
    pairs = []
    for name, p in model.named_parameters(remove_duplicate=False):
        if id(p) in first:
            pairs.append((first[id(p)], name))
        else:
            first[id(p)] = name
    return pairs


# ---- Source code ---------------------------------------------------------------------

# The components of transformer/model.py a learner can read, in the order of the code;
# each maps to the text key of its one-line summary (see `component_summary`).
COMPONENTS: dict[str, str] = {
    "Embeddings": "intro.comp.Embeddings",
    "PositionalEncoding": "intro.comp.PositionalEncoding",
    "attention": "intro.comp.attention",
    "MultiHeadedAttention": "intro.comp.MultiHeadedAttention",
    "PositionwiseFeedForward": "intro.comp.PositionwiseFeedForward",
    "LayerNorm": "intro.comp.LayerNorm",
    "SublayerConnection": "intro.comp.SublayerConnection",
    "EncoderLayer": "intro.comp.EncoderLayer",
    "DecoderLayer": "intro.comp.DecoderLayer",
    "Encoder": "intro.comp.Encoder",
    "Decoder": "intro.comp.Decoder",
    "Generator": "intro.comp.Generator",
    "EncoderDecoder": "intro.comp.EncoderDecoder",
    "subsequent_mask": "intro.comp.subsequent_mask",
    "make_model": "intro.comp.make_model",
}


# Summaries that differ with the model as built: (component, config field, value) -> key.
BUILT_AS: dict[tuple[str, str, object], str] = {
    ("Embeddings", "scale_embedding", False): "intro.comp.Embeddings_unscaled",
    ("Encoder", "norm_placement", "post"): "intro.comp.Encoder_post",
    ("Decoder", "norm_placement", "post"): "intro.comp.Decoder_post",
}


def component_summary(name: str, cfg: TransformerConfig | None = None) -> str:
    """What `name` does, in one line and the run's language ("" for an unknown name); with
    `cfg`, as that model is built (post-norm stacks have no final norm, embeddings are
    not scaled when `scale_embedding` is off)."""
    key = COMPONENTS.get(name)
    if key is None:
        return ""
    if cfg is not None:
        key = next((k for (comp, field, value), k in BUILT_AS.items()
                    if comp == name and getattr(cfg, field) == value), key)
    return t(key)


def component_source(name: str) -> str:
    """The source code of one component of `transformer/model.py`, the paper's formulas
    only: without the lines that hand over to the CPU fast paths of `transformer/fast.py`."""
    if name not in COMPONENTS:
        raise ValueError(f"Unknown component {name!r}; choose one of {', '.join(COMPONENTS)}.")
    return _component_sources()[name]


_SOURCES_LOCK = threading.Lock()


@functools.cache
def _component_sources_unlocked() -> Mapping[str, str]:
    return MappingProxyType({name: paper_code(inspect.getsource(getattr(model_module, name)))
                             for name in COMPONENTS})


def _component_sources() -> Mapping[str, str]:
    """Every component's source, read once per process and shared by every session.

    `inspect.getsource` of a class runs `ast.parse` over the whole module, and CPython 3.11's
    parser is not safe from several threads at once (sessions drawing the Model page together
    raised `SystemError: AST constructor recursion depth mismatch`): one thread reads all of
    them under a lock, and every later call only looks the text up."""
    with _SOURCES_LOCK:
        return _component_sources_unlocked()


# A hand-over to transformer/fast.py in model.py: `if fast.<check>(...):  # comment`.
_FAST_IF = re.compile(r"^(\s*)if fast\.")


def paper_code(source: str) -> str:
    """`source` without its hand-overs to the fast paths: each `if fast.…:` block is left
    out, and an `else:` after one gives way to its body, the written-out formula."""
    lines = source.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        found = _FAST_IF.match(lines[i])
        if not found:
            out.append(lines[i])
            i += 1
            continue
        indent = found.group(1)
        i += 1
        while i < len(lines) and lines[i].startswith(indent + " "):  # the fast block
            i += 1
        if i + 1 < len(lines) and lines[i] == f"{indent}else:\n":
            body = lines[i + 1]
            step = len(body) - len(body.lstrip()) - len(indent)  # the else body, dedented
            i += 1
            while i < len(lines) and lines[i].startswith(indent + " "):
                out.append(lines[i][step:])
                i += 1
    return "".join(out)


# ---- Shapes of one forward pass ------------------------------------------------------


PAPER_VOCAB = 37_000  # the paper's shared English-German BPE vocabulary (section 5.1)
PAPER_PARAMS = "65M"  # the base model's parameters in the paper's Table 3
_EMBEDDING_GROUPS = ("Source embedding", "Target embedding", "Generator (output layer)")


def make_model_arguments(cfg: TransformerConfig) -> dict[str, str]:
    """The arguments `make_model` would be called with to build `cfg`'s model, as text."""
    names = [f.name for f in dataclasses.fields(TransformerConfig) if f.name != "max_len"]
    return {name: str(getattr(cfg, name)) for name in names}


@dataclass(frozen=True)
class ParameterSummary:
    """Where a model's parameters are: the whole, each stack, and the embedding tables."""

    total: int
    encoder: int
    decoder: int
    embeddings: int  # both embedding tables and the generator (tied tables counted once)

    @property
    def stacks(self) -> int:
        return self.encoder + self.decoder


def summarize_parameters(groups: Mapping[str, int]) -> ParameterSummary:
    """Sum `parameter_groups` into the totals the Model page shows."""
    total = sum(groups.values())
    stacks = sum(n for g, n in groups.items() if g not in _EMBEDDING_GROUPS)
    encoder = sum(n for g, n in groups.items() if g.startswith("Encoder"))
    return ParameterSummary(total, encoder, stacks - encoder, total - stacks)


def paper_comparison(summary: ParameterSummary, cfg: TransformerConfig, vocab_text: str,
                     share: str) -> str:
    """The sentence comparing this model with the paper's (with its shared 37,000 table)."""
    paper_total = summary.stacks + PAPER_VOCAB * cfg.d_model + PAPER_VOCAB  # table + bias
    note = t("model.paper_note", stacks=f"{summary.stacks:,}", share=share,
             vocab_text=vocab_text, paper_vocab=f"{PAPER_VOCAB:,}",
             paper_total=f"{paper_total / 1e6:.1f}")
    if (cfg.N, cfg.d_model, cfg.d_ff, cfg.h) == (6, 512, 2048, 8):
        note += t("model.paper_base_note", stacks=f"{summary.stacks / 1e6:.1f}",
                  paper_vocab=f"{PAPER_VOCAB:,}", d_model=cfg.d_model,
                  table=f"{PAPER_VOCAB * cfg.d_model / 1e6:.1f}",
                  paper_total=f"{paper_total / 1e6:.1f}", paper_params=PAPER_PARAMS)
    return note


@dataclass(frozen=True)
class LayerNormComparison:
    """One vector normalised by both of the model's LayerNorm formulas (gain 1, shift 0)."""

    d_model: int
    mean: float
    std_unbiased: float  # sum of squares / (d_model - 1): The Annotated Transformer's
    std_biased: float  # sum of squares / d_model: nn.LayerNorm's
    max_diff: float  # largest |annotated - standard| over the features

    @property
    def ratio(self) -> float:
        """std_biased / std_unbiased = sqrt((d_model - 1) / d_model)."""
        return self.std_biased / self.std_unbiased


def layer_norm_comparison(x: np.ndarray) -> LayerNormComparison:
    """Normalise the vector `x` (d_model,) with the model's own `LayerNorm` of either kind."""
    v = torch.from_numpy(np.array(x, dtype=np.float64))[None]  # (1, d_model), a copy
    d = v.shape[-1]
    with torch.no_grad():
        ours = LayerNorm(d, kind="annotated").double()(v)
        torchs = LayerNorm(d, kind="standard").double()(v)  # F.layer_norm
    return LayerNormComparison(
        d_model=d, mean=float(v.mean()), std_unbiased=float(v.std(unbiased=True)),
        std_biased=float(v.std(unbiased=False)), max_diff=float((ours - torchs).abs().max()))


@dataclass(frozen=True)
class ModuleListCheck:
    """A walk-through's claim that nn.ModuleList is not an nn.Module, computed on a stack."""

    is_module: bool  # issubclass(nn.ModuleList, nn.Module)
    registered: int  # the stack's parameters, its layers held in `clones`' nn.ModuleList
    in_a_list: int  # what parameters() finds with the same layers in a plain Python list


def module_list_check(stack: nn.Module) -> ModuleListCheck:
    """`stack` (an Encoder or Decoder, whose `layers` is an nn.ModuleList) beside a module
    that holds the same layers in a plain list: only a Module's children are registered,
    so the list's layers are missing from parameters() and state_dict(). Nothing of
    `stack` is changed (a shared model is only read)."""
    holder = nn.Module()
    holder.layers = list(stack.layers)  # a list is no Module: nn.Module registers nothing
    for name, child in stack.named_children():
        if name != "layers":
            holder.add_module(name, child)  # the final norm, as the stack has it
    return ModuleListCheck(issubclass(nn.ModuleList, nn.Module),
                           sum(p.numel() for p in stack.parameters()),
                           sum(p.numel() for p in holder.parameters()))


# ---- A common alternative layout (a walk-through's module tree beside this one) --------------


@dataclass(frozen=True)
class AlternativeLayout:
    """How a layout with bias-free attention projections and generator differs in size, and
    how much a key bias can change attention (nothing: it adds the same to a whole row)."""

    tree: str  # the alternative's print(model), for the live sizes
    attention_modules: int  # 3N: encoder self, decoder self, decoder cross
    projection_biases: int  # 4 d_model per attention module (W_q, W_k, W_v, W_o)
    generator_bias: int  # tgt_vocab
    key_bias_effect: float  # max |weights with b_k - weights without|, encoder layer 0
    query_bias_effect: float  # the same for b_q, which does change the weights


def _alternative_tree(cfg: TransformerConfig) -> str:
    """The module tree of the alternative layout at the sizes of `cfg` (text only)."""
    d, f = cfg.d_model, cfg.d_ff

    def attn(name: str, pad: str) -> list[str]:
        proj = [f"{pad}  (W_{w}): Linear(in_features={d}, out_features={d}, bias=False)"
                for w in "qkv"]
        return [f"{pad}({name}): MultiHeadAttn(", *proj,
                f"{pad}  (W_o): Linear(in_features={d}, out_features={d}, bias=False)",
                f"{pad})"]

    def ffn(pad: str) -> list[str]:
        return [f"{pad}(ffn): PositionWiseFeedForward(",
                f"{pad}  (linear1): Linear(in_features={d}, out_features={f}, bias=True)",
                f"{pad}  (linear2): Linear(in_features={f}, out_features={d}, bias=True)",
                f"{pad})"]

    def norms(names: Sequence[str], pad: str) -> list[str]:
        return [f"{pad}({n}): SublayerConnection((norm): LayerNorm(gamma, beta; biased var, "
                "eps=1e-5 inside the root))" for n in names]

    p = "      "
    lines = ["Transformer(", "  (encoder): Encoder(",
             f"    (layers): {cfg.N} x EncoderLayer(", *attn("self_attn", p), *ffn(p),
             *norms(("sublayer_attn", "sublayer_ffn"), p), "    )",
             "    (norm): LayerNorm()", "  )", "  (decoder): Decoder(",
             f"    (layers): {cfg.N} x DecoderLayer(", *attn("self_attn", p),
             *attn("cross_attn", p), *ffn(p),
             *norms(("sublayer_self_attn", "sublayer_cross_attn", "sublayer_ffn"), p), "    )",
             "    (norm): LayerNorm()", "  )",
             f"  (encoder_embed): Sequential(Embedding({cfg.src_vocab}, {d}), "
             "PositionalEncoding)",
             f"  (decoder_embed): Sequential(Embedding({cfg.tgt_vocab}, {d}), "
             "PositionalEncoding)",
             f"  (generator): Linear(in_features={d}, out_features={cfg.tgt_vocab}, "
             "bias=False)  # logits; the loss applies the softmax", ")"]
    return "\n".join(lines)


def alternative_layout(model: nn.Module, cfg: TransformerConfig,
                       x: np.ndarray) -> AlternativeLayout:
    """Compare the live model with the bias-free layout. `x` (seq, d_model) is what encoder
    layer 0's self-attention reads (the learner's sentence); the bias experiment is written
    out as arithmetic on a copy of its weights (the shared model is only read)."""
    attn = model.encoder.layers[0].self_attn
    (wq, bq), (wk, bk) = ((lin.weight.detach().double(), lin.bias.detach().double())
                          for lin in attn.linears[:2])
    h, d_k = cfg.h, cfg.d_k
    xs = torch.from_numpy(np.array(x, dtype=np.float64))  # (seq, d_model)

    def weights(q_bias: bool, k_bias: bool) -> torch.Tensor:
        q = xs @ wq.T + (bq if q_bias else 0)  # (seq, d_model)
        k = xs @ wk.T + (bk if k_bias else 0)
        q, k = (m.view(-1, h, d_k).transpose(0, 1) for m in (q, k))  # (h, seq, d_k)
        return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)

    full = weights(True, True)
    return AlternativeLayout(
        tree=_alternative_tree(cfg), attention_modules=3 * cfg.N,
        projection_biases=3 * cfg.N * 4 * cfg.d_model, generator_bias=cfg.tgt_vocab,
        key_bias_effect=float((full - weights(True, False)).abs().max()),
        query_bias_effect=float((full - weights(False, True)).abs().max()))


def alternative_table(alt: AlternativeLayout, norm_here: str) -> dict[str, list[str]]:
    """What differs between this model and the alternative layout, part by part."""
    parts = ("attn", "ln", "gen", "names")
    fewer = {"attn": f"−{alt.projection_biases:,}", "gen": f"−{alt.generator_bias:,}"}
    return {
        t("model.alt_col_part"): [t(f"model.alt_part_{p}") for p in parts],
        t("model.alt_col_params"): [fewer.get(p, "0") for p in parts],
        t("model.alt_col_here"): [norm_here if p == "ln" else t(f"model.alt_here_{p}")
                                  for p in parts],
        t("model.alt_col_there"): [t(f"model.alt_there_{p}") for p in parts],
    }
