"""Numbers the pages say are computed from the live model, in both languages (issue 11)."""

from __future__ import annotations

import math

import pytest
from apptest_helpers import app

from explorer.cache import shared_model
from explorer.context import build_context
from explorer.settings import Settings


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
    from explorer.train_task import task_for

    at = app("train", lang=lang, tr_task=task)
    assert not at.exception, at.exception
    text = at.expander[0].markdown[0].value
    vocab = len(task_for(task, "digits", "")[0].vocab)
    assert f"ln {vocab} ≈ {math.log(vocab):.2f}" in text
    assert "n*−1−*i*" in text  # reverse, counted from 0 as everywhere on the page
    assert "V = 11" in text  # how The Annotated Transformer's copy task differs
