"""The hook-name API names exactly the hook points a model has (no string spelled elsewhere)."""

from __future__ import annotations

from itertools import product
from typing import get_args

import pytest

from transformer import (
    ATTENTION_POINTS,
    SUBLAYER_POINTS,
    TransformerConfig,
    attention_hook,
    build_model,
    hook_names,
    layer_hook,
    stack_output_hook,
    sublayer_hook,
)
from transformer.model import AttentionModule, Stack

N = 2


def _layer_names() -> set[str]:
    """Every name the API can produce for a model with N layers."""
    names = {stack_output_hook(s) for s in get_args(Stack)}
    for layer in range(N):
        for point in ATTENTION_POINTS:
            names.add(attention_hook("encoder", layer, "self_attn", point))
            for module in get_args(AttentionModule):
                names.add(attention_hook("decoder", layer, module, point))
        for point in SUBLAYER_POINTS:
            names.update(sublayer_hook("encoder", layer, i, point) for i in range(2))
            names.update(sublayer_hook("decoder", layer, i, point) for i in range(3))
        for stack, point in product(get_args(Stack), ("hook_hidden", "hook_out")):
            names.add(layer_hook(stack, layer, f"feed_forward.{point}"))
    return names


@pytest.mark.parametrize("norm_placement", ["pre", "post"])
def test_every_name_the_api_builds_is_a_hook_point_and_every_layer_hook_is_named(norm_placement):
    model = build_model(TransformerConfig(11, 11, N=N, d_model=16, d_ff=32, h=2,
                                          norm_placement=norm_placement), seed=0)
    real = set(hook_names(model))
    built = _layer_names()
    assert built <= real, sorted(built - real)
    in_layers = {n for n in real if ".layers." in n or n.endswith((".hook_out",))
                 and n.split(".")[0] in get_args(Stack)}
    assert in_layers <= built, sorted(in_layers - built)


def test_the_names_read_as_module_paths():
    assert attention_hook("decoder", 1, "src_attn", "hook_pattern") == \
        "decoder.layers.1.src_attn.hook_pattern"
    assert sublayer_hook("encoder", 0, 1, "hook_resid") == "encoder.layers.0.sublayer.1.hook_resid"
    assert stack_output_hook("encoder") == "encoder.hook_out"
