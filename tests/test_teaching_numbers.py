"""Numbers the pages say are computed from the live model, in both languages."""

from __future__ import annotations

import math

import numpy as np
import pytest
from apptest_helpers import app

from explorer.app.cache import shared_model
from explorer.app.context import build_context
from explorer.core.settings import Settings


@pytest.mark.parametrize(("lang", "words"), [("en", "Why multiply by"), ("zh", "为什么要乘以")])
@pytest.mark.parametrize("d_model", [32, 64])
def test_the_scaling_note_gives_the_live_tables_range_and_xaviers_bound(lang, words, d_model):
    at = app("embeddings", lang=lang, d_model=d_model, preset="custom")
    captions = [c.value for c in at.caption if words in c.value]
    assert len(captions) == 1, [c.value for c in at.caption]
    ctx = build_context(Settings(d_model=d_model))
    lut = shared_model(ctx.cfg, 0, False, ctx.tokens.vocab).src_embed[0].lut.weight
    V = ctx.cfg.src_vocab
    assert f"{float(lut.abs().max()):.2f}" in captions[0]
    assert f"±{math.sqrt(6 / (V + d_model)):.2f}" in captions[0]
    assert f"{V} " in captions[0] and f"d_model = {d_model}" in captions[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("task", ["copy", "dates"])
def test_the_loss_explainer_gives_ln_of_the_chosen_tasks_vocabulary(lang, task):
    from explorer.training.task import task_for

    at = app("train", lang=lang, tr_task=task)
    assert not at.exception, at.exception
    text = at.expander[0].markdown[0].value
    vocab = len(task_for(task, "digits", "")[0].vocab)
    assert f"ln {vocab} ≈ {math.log(vocab):.2f}" in text
    assert "n*−1−*i*" in text  # reverse, counted from 0 as everywhere on the page
    assert "V = 11" in text  # how The Annotated Transformer's copy task differs


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("d_model", "layer_norm"), [(32, "annotated"), (64, "standard")])
def test_the_model_page_compares_the_two_layernorms_on_the_sentence(lang, d_model, layer_norm):
    import torch

    from explorer.core.introspect import layer_norm_comparison
    from explorer.text.i18n import set_lang, t
    from transformer.hook_paths import sublayer_hook

    at = app("model", lang=lang, d_model=d_model, preset="custom", layer_norm=layer_norm)
    assert not at.exception, at.exception
    ctx = build_context(Settings(d_model=d_model, layer_norm=layer_norm))
    x = ctx.run().cache[sublayer_hook("encoder", 0, 0, "hook_in")][0, 0]
    v = torch.from_numpy(np.array(x, dtype=np.float64))
    su, sb = float(v.std()), float(v.std(unbiased=False))
    texts = [m.value for m in at.markdown if f"{su:.4f}" in m.value]
    assert len(texts) == 1
    text = texts[0]
    assert f"{sb:.4f}" in text and f"{math.sqrt((d_model - 1) / d_model):.4f}" in text
    assert f"{(math.sqrt(d_model / (d_model - 1)) - 1) * 100:.1f}%" in text
    set_lang(lang)
    try:
        assert t(f"model.ln_{layer_norm}") in text  # the formula this model uses
    finally:
        set_lang("en")
    ln = layer_norm_comparison(x)
    centred = v - v.mean()
    ours = centred / (su + 1e-6)
    torchs = torch.nn.functional.layer_norm(v[None], (d_model,), eps=1e-5)[0]
    assert ln.max_diff == pytest.approx(float((ours - torchs).abs().max()), rel=1e-9)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_annotated_transformers_smoothing_examples_are_reproduced(lang):
    from explorer.figures.train import annotated_smoothing_example, confidence_losses

    dist, _, _ = annotated_smoothing_example(lang=lang)
    # AT's printed true_dist: 0.6 on the label, 0.4/3 elsewhere, padding column and row 0
    third = 0.4 / 3
    assert np.allclose(dist, [[0, third, 0.6, third, third], [0, 0.6, third, third, third],
                              [0, 0, 0, 0, 0], [0, third, third, 0.6, third],
                              [0, third, third, 0.6, third]])
    xs, losses = confidence_losses()
    best = int(np.argmin(losses))
    assert xs[best] == 27 and losses[best] == pytest.approx(0.0, abs=1e-6)  # 27/30 = 1 - 0.1
    assert losses[-1] > losses[best] and losses[0] > losses[best]
    at = app("train", lang=lang, tr_smoothing_open=True)  # its expander opened
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "0.6" in captions and "0.133" in captions and "x = 27" in captions
    assert "0.900" in captions and f"{losses[-1]:.3f}" in captions
    assert xs == list(range(1, 100)) and "x = 99" in captions  # AT's range(1, 100)
    assert "-0.000" not in captions  # the minimum, -1.9e-8 in float64, is printed as 0.000


@pytest.mark.parametrize(("value", "text"), [(-1.9e-8, "0.000"), (-0.0, "0.000"),
                                             (-0.0004, "0.000"), (-0.0005, "-0.001"),
                                             (-1.5, "-1.500"), (2.0, "2.000")])
def test_a_number_is_never_printed_as_negative_zero(value, text):
    from explorer.text.i18n import fixed

    assert fixed(value) == text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_walk_throughs_shape_examples_are_computed_on_the_shapes_page(lang):
    from explorer.figures.shapes import batch_example_shapes, mha_example_shapes

    mha = dict(mha_example_shapes())
    assert mha["x"] == mha["hook_out"] == mha["hook_concat"] == (2, 4, 512)
    assert mha["hook_q"] == mha["hook_z"] == (2, 8, 4, 64)
    assert mha["hook_pattern"] == (2, 8, 4, 4)
    rows, ntokens = batch_example_shapes()
    batch = dict(rows)  # seed 001: src (48, 20), tgt (48, 25) -> tgt_mask (48, 24, 24)
    assert batch == {"src": (48, 20), "src_mask": (48, 1, 20), "tgt": (48, 24),
                     "tgt_y": (48, 24), "tgt_mask": (48, 24, 24)}
    assert ntokens == 24 + 47 * 19  # the first target unpadded; the others end in 5 pads
    at = app("shapes", lang=lang)
    assert not at.exception
    tables = [df.value for df in at.dataframe]
    shown = [list(tb.iloc[:, 1]) for tb in tables if tb.shape[0] in (len(mha), len(batch))]
    assert ["2 × 4 × 512", "2 × 8 × 4 × 64"] == shown[0][:2]
    assert "48 × 24 × 24" in shown[1]
    assert any(f"ntokens = {ntokens}" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("placement", ["pre", "post"])
def test_the_bias_free_layout_is_compared_with_live_numbers(lang, placement):
    from explorer.core.introspect import alternative_layout
    from transformer.hook_paths import sublayer_hook

    at = app("model", lang=lang, norm_placement=placement)
    assert not at.exception, at.exception
    ctx = build_context(Settings(norm_placement=placement))
    cfg = ctx.cfg
    point = "hook_normed" if placement == "pre" else "hook_in"
    alt = alternative_layout(ctx.model(), cfg, ctx.run().cache[
        sublayer_hook("encoder", 0, 0, point)][0])
    assert alt.key_bias_effect < 1e-12 < 1e-3 < alt.query_bias_effect  # softmax shift-invariant
    fewer = 3 * cfg.N * 4 * cfg.d_model + cfg.tgt_vocab
    assert alt.projection_biases + alt.generator_bias == fewer
    text = " ".join(m.value for m in at.markdown)
    assert f"{fewer:,}" in text and f"{alt.query_bias_effect:.3f}" in text
    assert f"{alt.key_bias_effect:.1e}" in text
    assert "W_q" in [c.value for c in at.code][-1] or any("bias=False" in c.value for c in at.code)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_common_mistakes_show_live_numbers(lang):
    from explorer.core.kinds import KINDS
    from explorer.figures.attention import scaling_effect
    from explorer.figures.embeddings import divided_scale, encoder_input

    ctx = build_context(Settings())
    run, cfg = ctx.run(), ctx.cfg
    # the embedding divided instead of multiplied by sqrt(d_model)
    inp = encoder_input(run.cache, cfg.d_model, cfg.scale_embedding)
    times, divided, pe = divided_scale(inp.raw, inp.pe, cfg.d_model)
    assert times == pytest.approx(divided * cfg.d_model, rel=1e-5) and divided < pe < times
    at = app("embeddings", lang=lang)
    assert not at.exception
    assert any(f"{divided:.4f}" in m.value and f"{times:.3f}" in m.value for m in at.markdown)
    # scaling by sqrt(d_k): without it the softmax saturates and its gradients shrink
    kind = KINDS["enc"]
    fx = scaling_effect(run.cache[kind.hook(0, "hook_scores")][0, 0],
                        run.cache[kind.hook(0, "hook_masked_scores")][0, 0], cfg.d_k)
    assert fx["var_unscaled"] == pytest.approx(fx["var_scaled"] * cfg.d_k, rel=1e-4)
    assert fx["max_unscaled"] > fx["max_scaled"] and fx["grad_unscaled"] < fx["grad_scaled"]
    at = app("attention", lang=lang)
    assert not at.exception
    assert any(f"{fx['grad_unscaled']:.3f}" in c.value for c in at.caption)
    # the decoder's self-attention given a source-style mask: every future pair visible
    at = app("masks", source="a b c d", lang=lang)
    assert not at.exception
    assert any("T = 5" in c.value and "10" in c.value for c in at.caption)  # 5 * 4 / 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_002s_unmasked_and_all_blocked_cases_side_by_side(lang):
    from explorer.figures.masks import self_attention_example

    p_none, s_none = self_attention_example(blocked=False)
    p_all, _ = self_attention_example(blocked=True)
    assert np.allclose(p_none, np.eye(4), atol=1e-4)  # the walk-through's identity
    assert np.allclose(p_all, 0.25)  # and its 0.25 per key
    off = ~np.eye(4, dtype=bool)
    assert np.diag(s_none).min() > 10 * np.abs(s_none[off]).max()
    at = app("masks", lang=lang)
    assert not at.exception
    own = f"{np.diag(s_none).mean():,.0f}"
    assert any(own in c.value and "1.0000" in c.value for c in at.caption)
    assert any("0.25" in c.value for c in at.caption)
    tables = [d.value for d in at.dataframe if d.value.shape == (4, 4)]
    assert len(tables) >= 2
