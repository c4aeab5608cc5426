"""The toy tasks' held-out split: held-out sequences never appear in a training batch, and
the evaluation draws only them (transformer/tasks.py), as the date task splits its days."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from apptest_helpers import app

from explorer.text.i18n import LANGS, SENTENCE_GAP, TABLES, set_lang
from explorer.training.run import EVAL_SEQUENCES, evaluation_task, held_out
from transformer.tasks import HELD_OUT_SHARE, SPLIT_MIN, make_task
from transformer.tokenize import EOS, SPECIALS


def _sequences(src: torch.Tensor) -> list[tuple[int, ...]]:
    """The source rows as symbol-id tuples (up to </s>)."""
    out = []
    for row in src.tolist():
        out.append(tuple(row[:row.index(EOS)]))
    return out


@pytest.mark.parametrize("name", ["copy", "reverse", "sort"])
@pytest.mark.parametrize("symbols", [None, ["a", "b", "c"], ["x", "y"]])
def test_training_never_draws_a_held_out_sequence_and_evaluation_draws_only_them(name,
                                                                                symbols):
    task = make_task(name, symbols)
    held = replace(task, split="held_out")
    gen = torch.Generator().manual_seed(0)
    for _ in range(20):  # 20 training batches of 128: every length many times
        src, _ = task.sample(128, gen)
        assert not any(task.is_held_out(s) for s in _sequences(src))
    src, tgt = held.sample(EVAL_SEQUENCES, gen)
    seqs = _sequences(src)
    assert len(seqs) == EVAL_SEQUENCES and all(task.is_held_out(s) for s in seqs)
    assert {len(s) for s in seqs} <= set(task.held_lengths)
    # the answers are still the task's
    first = len(SPECIALS)
    for s, row in zip(seqs, tgt.tolist(), strict=True):
        answer = row[1:1 + len(s)]
        assert answer == task.target_ids(s), (s, answer)
        assert all(i >= first for i in s)


def test_one_in_twenty_is_held_out_at_every_length_with_enough_sequences():
    task = make_task("copy")  # ten digits: length 1 has 10 sequences, length 2 has 100
    assert 10 < SPLIT_MIN <= 100 and task.held_lengths == tuple(range(2, 10))
    every3 = [(a, b, c) for a in range(4, 14) for b in range(4, 14) for c in range(4, 14)]
    share = sum(task.is_held_out(s) for s in every3) / len(every3)
    assert abs(share - 1 / HELD_OUT_SHARE) < 0.02
    assert not any(task.is_held_out((d,)) for d in range(4, 14))  # every one is needed


def test_a_task_with_too_few_sequences_holds_none_out_and_says_so():
    task = make_task("copy", ["a"])
    assert task.held_lengths == ()
    src, _ = evaluation_task(task).sample(10, torch.Generator().manual_seed(1))
    assert src.shape == (10, task.max_len + 1)  # the evaluation still draws sequences
    for lang in LANGS:
        assert TABLES[lang]["train.held_none.one"]


def test_the_evaluation_measures_held_out_sequences():
    task = make_task("copy")
    assert evaluation_task(task).split == "held_out"
    from explorer.core.settings import Settings
    from explorer.training.run import ModelKey, build_model_for
    from explorer.training.settings import TrainSettings

    key = ModelKey.of(TrainSettings().model_settings(Settings()), task)
    result = held_out(build_model_for(key), key.task_obj)
    assert result.total == EVAL_SEQUENCES and set(result.by_length) <= set(task.held_lengths)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_says_which_sequences_are_held_out(lang):
    at = app("train", lang=lang, tr_steps=50, tr_early=False)
    set_lang(lang)  # AppTest formats the widgets again in the test's thread
    try:
        at.button(key="tr_train").click().run()
    finally:
        set_lang("en")
    assert not at.exception, at.exception
    helps = " ".join(m.proto.help for m in at.metric)
    words = TABLES[lang]
    expected = words["train.held_split"].format(share=HELD_OUT_SHARE, lengths="2–9")
    assert expected in helps
    assert words["train.held_short.one"].format(lengths=1, count=10) in helps
    assert expected + SENTENCE_GAP[lang] + words["train.held_short.one"].format(
        lengths=1, count=10) in helps


def test_sentences_are_joined_as_each_language_writes_them():
    assert set(SENTENCE_GAP) == set(LANGS)
