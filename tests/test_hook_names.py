"""The hook-name API names exactly the hook points a model has (no string spelled elsewhere)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import get_args

import pytest
import torch

from transformer import (
    ATTENTION_POINTS,
    SUBLAYER_POINTS,
    SUBLAYERS,
    AttentionModule,
    DecoderLayer,
    Embeddings,
    FeedForwardPoint,
    Generator,
    GeneratorPoint,
    MultiHeadedAttention,
    PositionalEncoding,
    PositionalPoint,
    PositionwiseFeedForward,
    Stack,
    SublayerConnection,
    TransformerConfig,
    attention_hook,
    build_model,
    capture,
    embedding_hook,
    feed_forward_hook,
    generator_hook,
    hook_names,
    layer_hook,
    positional_hook,
    stack_output_hook,
    sublayer_hook,
    subsequent_mask,
)
from transformer.model import NormPlacement

N = 2
STACKS = get_args(Stack)


def _model(norm_placement: NormPlacement = "pre"):
    cfg = TransformerConfig(11, 11, N=N, d_model=16, d_ff=32, h=2, dropout=0.0,
                            norm_placement=norm_placement)
    return build_model(cfg, seed=0).eval()


def _produced() -> set[str]:
    """Every name the API produces for a model with N layers, from every combination of its
    arguments (combinations the model does not have, such as an encoder src_attn, refused)."""
    names: set[str] = set()

    def add(build: Callable[..., str], *choices: tuple) -> None:
        for args in product(*choices):
            try:
                names.add(build(*args))
            except ValueError:
                pass

    layers, indices = range(N), range(max(map(len, SUBLAYERS.values())))
    add(attention_hook, STACKS, layers, get_args(AttentionModule), ATTENTION_POINTS)
    add(sublayer_hook, STACKS, layers, indices, SUBLAYER_POINTS)
    add(feed_forward_hook, STACKS, layers, get_args(FeedForwardPoint))
    add(stack_output_hook, STACKS)
    add(embedding_hook, STACKS)
    add(positional_hook, STACKS, get_args(PositionalPoint))
    add(generator_hook, get_args(GeneratorPoint))
    return names


@pytest.mark.parametrize("norm_placement", ["pre", "post"])
def test_the_api_names_every_hook_point_of_a_model_and_nothing_else(norm_placement):
    real = hook_names(_model(norm_placement))
    assert len(real) == len(set(real))
    produced = _produced()
    assert produced - set(real) == set(), "names that are not hook points"
    assert set(real) - produced == set(), "hook points the API cannot name"


def test_each_point_literal_lists_its_modules_hook_points_in_order():
    assert ATTENTION_POINTS == tuple(hook_names(MultiHeadedAttention(2, 8)))
    assert SUBLAYER_POINTS == tuple(hook_names(SublayerConnection(8, 0.0)))
    assert get_args(FeedForwardPoint) == tuple(hook_names(PositionwiseFeedForward(8, 16)))
    assert get_args(PositionalPoint) == tuple(hook_names(PositionalEncoding(8, 0.0, 10)))
    assert get_args(GeneratorPoint) == tuple(hook_names(Generator(8, 5)))
    assert hook_names(Embeddings(8, 5)) == ["hook_out"]  # what embedding_hook names


def test_stacks_and_attention_modules_are_the_models_attributes():
    model = _model()
    assert STACKS == ("encoder", "decoder") and all(hasattr(model, s) for s in STACKS)
    layer = model.decoder.layers[0]
    assert isinstance(layer, DecoderLayer)
    attns = tuple(n for n, m in layer.named_children() if isinstance(m, MultiHeadedAttention))
    assert attns == get_args(AttentionModule)
    for stack in STACKS:
        assert len(getattr(model, stack).layers[0].sublayer) == len(SUBLAYERS[stack])


def test_sublayers_and_embeddings_are_wired_as_the_names_say():
    """sublayer.{i} wraps SUBLAYERS[stack][i]; EMBED_OF[stack] feeds that stack's layer 0."""
    model = _model()
    src = torch.tensor([[1, 2, 3, 4, 5]])
    tgt = torch.tensor([[1, 6, 7, 8]])
    src_mask = torch.ones(1, 1, 5, dtype=torch.bool)
    _, cache = model.run_with_cache(src, tgt, src_mask, subsequent_mask(4))
    for stack, layer in product(STACKS, range(N)):
        for i, module in enumerate(SUBLAYERS[stack]):
            assert torch.equal(cache[sublayer_hook(stack, layer, i, "hook_sublayer_out")],
                               cache[layer_hook(stack, layer, f"{module}.hook_out")])
    for stack in STACKS:
        assert torch.equal(cache[positional_hook(stack, "hook_out")],
                           cache[sublayer_hook(stack, 0, 0, "hook_in")])
    with capture(model) as enc:
        model.encode(src, src_mask)
    assert embedding_hook("encoder") in enc and embedding_hook("decoder") not in enc


def test_the_names_read_as_module_paths():
    assert attention_hook("decoder", 1, "src_attn", "hook_pattern") == \
        "decoder.layers.1.src_attn.hook_pattern"
    assert sublayer_hook("encoder", 0, 1, "hook_resid") == "encoder.layers.0.sublayer.1.hook_resid"
    assert feed_forward_hook("decoder", 0, "hook_hidden") == \
        "decoder.layers.0.feed_forward.hook_hidden"
    assert layer_hook("encoder", 1, "self_attn") == "encoder.layers.1.self_attn"
    assert stack_output_hook("encoder") == "encoder.hook_out"
    assert embedding_hook("decoder") == "tgt_embed.0.hook_out"
    assert positional_hook("encoder", "hook_pe") == "src_embed.1.hook_pe"
    assert generator_hook("hook_log_probs") == "generator.hook_log_probs"


@pytest.mark.parametrize("build", [
    lambda: attention_hook("encoder", 0, "src_attn", "hook_pattern"),  # no cross-attention
    lambda: attention_hook("decoder", 0, "self_attn", "hook_patern"),
    lambda: sublayer_hook("encoder", 0, 2, "hook_in"),  # encoder layers have 2 sublayers
    lambda: sublayer_hook("decoder", 0, -1, "hook_in"),
    lambda: stack_output_hook("Encoder"),  # type: ignore[arg-type]
    lambda: embedding_hook("src"),  # type: ignore[arg-type]
    lambda: generator_hook("hook_out"),  # type: ignore[arg-type]
])
def test_a_name_the_model_does_not_have_is_refused(build):
    with pytest.raises(ValueError, match="must be one of|have"):
        build()
