"""Training recipes, the warm-up schedule and the Annotated copy task (behaviour, not speed)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import torch

from transformer.recipes import (
    ANNOTATED,
    DATES,
    DATES_LIVE,
    FAST,
    RECIPES,
    AnnotatedCopy,
    copy_accuracy,
)
from transformer.train import SCHEDULES, TrainConfig, lr_at, rate, train


def test_warmup_schedule_ramps_linearly_then_stays():
    cfg = TrainConfig(schedule="warmup", lr=1e-2, warmup=10)
    assert [lr_at(cfg, s, 32) for s in (1, 5, 10, 11, 500)] == pytest.approx(
        [1e-3, 5e-3, 1e-2, 1e-2, 1e-2])
    assert lr_at(TrainConfig(schedule="constant", lr=2e-3), 1, 32) == 2e-3
    noam = TrainConfig(schedule="noam", factor=0.5, warmup=400)
    assert lr_at(noam, 400, 512) == pytest.approx(rate(400, 512, 0.5, 400))
    assert SCHEDULES == ("constant", "warmup", "noam")


@pytest.mark.parametrize("bad", [
    {"warmup": math.nan}, {"warmup": 2.5}, {"warmup": True}, {"warmup": 0},
    {"factor": math.nan}, {"factor": math.inf}, {"factor": 0.0},
    {"batch_size": True}, {"lr": math.nan}, {"schedule": "cosine"},
])
def test_train_config_refuses_bad_values_with_a_message(bad):
    with pytest.raises(ValueError, match=r"must"):
        TrainConfig(**bad)


def test_recipes_are_the_documented_ones():
    assert RECIPES == {"fast": FAST, "annotated": ANNOTATED, "dates": DATES,
                       "dates_live": DATES_LIVE}
    # the Train page's date recipe: the shipped model's depth and heads, narrower (the
    # learner waits; bench/dates_train.py)
    assert (DATES_LIVE.N, DATES_LIVE.h) == (DATES.N, DATES.h)
    assert (DATES_LIVE.d_model, DATES_LIVE.d_ff) == (48, 96)
    assert DATES_LIVE.d_model < DATES.d_model
    assert (FAST.N, FAST.d_model, FAST.h, FAST.d_ff, FAST.dropout) == (1, 32, 2, 64, 0.0)
    assert FAST.train.schedule == "warmup" and FAST.train.smoothing == 0.0
    # The Annotated Transformer's copy example: make_model(V, V, N=2), batch 80, 400 steps,
    # Adam lr 0.5 x rate(factor=1, warmup=400), i.e. Noam with factor 0.5.
    assert (ANNOTATED.N, ANNOTATED.d_model, ANNOTATED.h, ANNOTATED.d_ff) == (2, 512, 8, 2048)
    assert ANNOTATED.dropout == 0.1
    t = ANNOTATED.train
    assert (t.schedule, t.factor, t.warmup, t.batch_size, t.steps) == ("noam", 0.5, 400, 80, 400)
    assert (t.betas, t.eps) == ((0.9, 0.98), 1e-9)


def test_annotated_copy_batches():
    task = AnnotatedCopy()
    src, tgt = task.sample(5, torch.Generator().manual_seed(0))
    assert src.shape == tgt.shape == (5, 10)
    assert torch.equal(src, tgt) and src.data_ptr() != tgt.data_ptr()
    assert (src[:, 0] == 1).all() and src.min() >= 1 and src.max() <= 10
    assert task.vocab_size == 11


def test_fast_recipe_learns_the_annotated_copy_task():
    torch.manual_seed(0)
    task = AnnotatedCopy()
    model = FAST.build(task.vocab_size, seed=0)
    assert copy_accuracy(model, task, n=200) < 0.05  # untrained: no copying yet
    # How many steps a seed needs varies (bench.time_to_learn: 160 median, worst seeds
    # more), and any change to the arithmetic's rounding moves a seed's path; 400 is ample.
    history = train(model, task, replace(FAST.train, steps=400, seed=0))
    assert len(history) == 400 and history[-1].loss < 0.05
    assert copy_accuracy(model, task, n=500) >= 0.99
    assert model.training  # train() hands it back as it came: a new module is in train mode


def test_copy_accuracy_restores_the_training_mode():
    task = AnnotatedCopy()
    model = FAST.build(task.vocab_size, seed=1)
    model.train()
    copy_accuracy(model, task, n=10)
    assert model.training
