"""Hook names: the module paths `capture()` records each hook point under, spelled in this
one place.

Every part is an attribute name of a module in `model.py`, so a rename happens here in the
same diff. tests/test_hook_names.py checks that these functions name every hook point of a
built model and nothing else, and that each Literal lists exactly its module's hooks.
"""

from __future__ import annotations

from typing import Literal, get_args

from .config import check_choice

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
