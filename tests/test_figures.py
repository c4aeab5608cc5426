"""The data the pages draw, computed by pure functions next to their figures.

Each test pins what the page used to compute inline, so moving it kept the behaviour.
"""

import numpy as np
import pytest
import torch
from apptest_helpers import ROOT
from run_helpers import small_run

from explorer.core.introspect import embedding_range, xavier_bound
from explorer.core.kinds import KINDS
from explorer.core.shape_table import filter_rows, shape_rows
from explorer.figures.attention import head_steps
from explorer.figures.embeddings import encoder_input, shift_error, shift_matrix
from explorer.figures.masks import (
    effect_scores,
    example_words,
    padded_pair,
)
from explorer.figures.shapes import head_split_views
from transformer.model import MASK_FILL, sinusoid_table
from transformer.tokenize import PAD

_run = small_run


SRC, TGT = list("abcde"), ["<s>", "a", "b", "c"]


# ---- Attention page -----------------------------------------------------------------------


def test_head_steps_are_the_heads_captured_tensors_in_computing_order():
    _, cache = _run()
    figs = head_steps(cache, KINDS["dec"], 1, 2, TGT, TGT, lang="en")
    assert list(figs) == ["Q", "K", "V", "scores", "masked", "weights", "z"]
    q = cache["decoder.layers.1.self_attn.hook_q"][0, 2]
    np.testing.assert_array_equal(figs["Q"].data[0].z, q)
    np.testing.assert_array_equal(figs["weights"].data[0].z,
                                  cache["decoder.layers.1.self_attn.hook_pattern"][0, 2])
    # The causal mask blocks the 6 cells above the diagonal of a 4 x 4 score matrix: exactly
    # MASK_FILL in the capture, blank (NaN) in the figure, and counted in its title.
    masked = cache["decoder.layers.1.self_attn.hook_masked_scores"][0, 2]
    assert (masked == MASK_FILL).sum() == 6
    assert np.isnan(np.asarray(figs["masked"].data[0].z, dtype=float)).sum() == 6
    assert "6" in figs["masked"].layout.title.text


def test_cross_attention_steps_take_keys_from_the_source():
    _, cache = _run()
    figs = head_steps(cache, KINDS["cross"], 0, 0, TGT, SRC, lang="en")
    assert np.shape(figs["K"].data[0].z) == (5, 4)  # (src_len, d_k)
    assert np.shape(figs["scores"].data[0].z) == (4, 5)  # (tgt_len, src_len)
    assert not np.isnan(np.asarray(figs["masked"].data[0].z, dtype=float)).any()


# ---- Embeddings page ----------------------------------------------------------------------


@pytest.mark.parametrize("scaled", [True, False])
def test_encoder_input_reads_the_run_and_undoes_the_scaling(scaled):
    model, cache = _run(scale_embedding=scaled)
    inp = encoder_input(cache, 16, scaled)
    emb = cache["src_embed.0.hook_out"][0]
    np.testing.assert_array_equal(inp.embedding, emb)
    np.testing.assert_array_equal(inp.pe, cache["src_embed.1.hook_pe"][0])
    np.testing.assert_array_equal(inp.total, cache["src_embed.1.hook_out"][0])
    lut = model.src_embed[0].lut.weight.detach().numpy()[[4, 5, 6, 7, 8]]
    np.testing.assert_allclose(inp.raw, lut, rtol=1e-5, atol=1e-6)
    assert inp.limit == max(float(np.abs(emb).max()), 1.0)
    assert inp.magnitudes() == [float(np.abs(a).mean()) for a in (inp.raw, emb, inp.pe)]


def test_shift_error_is_rounding_only():
    table = sinusoid_table(150, 20).numpy()
    assert shift_error(table, shift_matrix(20, 3), 3, 100) < 1e-5
    assert shift_error(table, shift_matrix(20, 4), 3, 100) > 1e-2  # the wrong k is wrong


def test_scaling_note_numbers():
    model, _ = _run()
    lut = model.src_embed[0].lut.weight.detach()
    assert embedding_range(model) == float(lut.abs().max())
    w = torch.empty(12, 16)
    torch.nn.init.xavier_uniform_(w, generator=torch.Generator().manual_seed(0))
    assert float(w.abs().max()) <= xavier_bound(16, 12) == pytest.approx(np.sqrt(6 / 28))


# ---- Masks page ---------------------------------------------------------------------------


def test_example_words_drop_bos_and_repeat_to_four():
    assert example_words(["<s>", "x", "y", "z", "w", "v"]) == ["x", "y", "z", "w", "v"]
    assert example_words(["<s>", "x"]) == ["x"] * 4
    assert example_words(["<s>", "x", "y", "z"]) == ["x", "y", "z", "x", "y", "z"]
    assert example_words(["<s>"]) == ["a", "b", "c", "d"]


@pytest.mark.parametrize(("len_a", "len_b"), [(3, 4), (5, 2), (3, 3)])
def test_padded_pair_pads_the_shorter_sentence(len_a, len_b):
    pair = padded_pair(example_words(TGT), len_a, len_b)
    width = max(len_a, len_b)
    assert pair.batch.src.shape == (2, width)
    assert (pair.batch.src != PAD).sum(-1).tolist() == [len_a, len_b]
    assert pair.batch.tgt_mask.shape == (2, width, width)
    longer = pair.src_tokens[1] if len_b >= len_a else pair.src_tokens[0]
    assert pair.longer_src_tokens == longer and "<pad>" not in longer


def test_effect_scores_are_the_runs_or_seeded():
    _, cache = _run()
    np.testing.assert_array_equal(effect_scores(cache, 4),
                                  cache["decoder.layers.0.self_attn.hook_scores"][0, 0])
    random = effect_scores(None, 5)
    np.testing.assert_array_equal(random, np.random.default_rng(0).normal(size=(5, 5)))


# ---- Shapes page --------------------------------------------------------------------------


def test_filter_rows_keeps_embeddings_and_final_rows_with_every_layer():
    model, cache = _run()
    rows = shape_rows(cache, model.config)
    assert filter_rows(rows) == rows
    layer1 = filter_rows(rows, "all", "layer 1")
    assert {r.layer for r in layer1} == {"layer 1", "", "source", "target"}
    dec = filter_rows(rows, "Decoder", "layer 0", only_attention=True)
    assert dec and all(r.name.startswith("decoder.layers.0.") and "attn" in r.name
                       for r in dec)
    assert not filter_rows(rows, "Embeddings", "all", only_attention=True)


def test_head_split_views_follow_the_filters():
    assert head_split_views("all", "all") == (0, ("enc",))
    assert head_split_views("Encoder", "layer 1") == (1, ("enc",))
    assert head_split_views("Decoder", "layer 2") == (2, ("dec", "cross"))
    assert head_split_views("Output", "layer 0") == (0, ("enc",))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_head_split_title_of_several_lines_is_padded_for_each_line_below_the_first(lang):
    """Plotly lifts a multi-line title anchored at its top by part of a line per extra line;
    without room given back, the first line's glyphs are cut at the chart's top edge (seen in
    Chromium: 6 px above the chart for two lines at a padding of 10)."""
    from explorer.figures.shapes import head_split_figure

    rng = np.random.default_rng(0)
    title = {"en": "Encoder self-attention, layer 0: encoder.layers.0.self_attn",
             "zh": "编码器自注意力，第 0 层：encoder.layers.0.self_attn"}[lang]
    fig = head_split_figure(rng.normal(size=(2, 3, 4)), rng.normal(size=(3, 8)),
                            ["a", "b", "c"], title, lang=lang)
    lines = fig.layout.title.text.count("<br>") + 1
    assert lines >= 2  # wrapped to a phone's width
    assert fig.layout.title.pad.t >= 10 + 20 * (lines - 1)
    assert fig.layout.margin.t >= fig.layout.title.pad.t + 22 * lines  # room above the heads


def test_pandas_is_loaded_in_full_with_the_figures():
    """plotly looks pandas up in sys.modules without importing it: a session's figure built
    while another session's thread was importing pandas met the half-made module."""
    import subprocess
    import sys

    code = ("import sys, explorer.figures.common; "
            "assert hasattr(sys.modules['pandas'], 'Series')")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
