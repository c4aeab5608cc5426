"""Training and decoding: the Noam rate, label smoothing, greedy decoding, the toy tasks, and
a tiny model that really learns to copy."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from transformer.model import make_model
from transformer.tasks import TASKS, make_task
from transformer.tokenize import BOS, EOS, PAD, SPECIALS
from transformer.train import (
    Batch,
    LabelSmoothing,
    StepInfo,
    TrainConfig,
    exact_matches,
    greedy_decode,
    rate,
    sequence_accuracy,
    train,
)

# The recipe of the learning test: a seeded tiny model, constant learning rate, no dropout.
# Measured sequence accuracy after 300 steps (500 fresh sequences, one intra-op thread):
# seed 0: 0.958, seed 1: 0.934, seed 2: 0.934. The test uses seed 0 and asks for 0.9.
COPY_STEPS, COPY_BATCH, COPY_LR, COPY_SEED, COPY_THRESHOLD = 300, 64, 3e-3, 0, 0.9


@pytest.fixture(scope="module")
def copy_model():
    """The copy task and a model trained on it (shared by the tests that need one)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is faster and bitwise repeatable
    try:
        task = make_task("copy")  # digits, max_len 9
        V = len(task.vocab)
        model = make_model(V, V, N=2, d_model=32, d_ff=64, h=4, dropout=0.0, seed=COPY_SEED)
        cfg = TrainConfig(steps=COPY_STEPS, batch_size=COPY_BATCH, schedule="constant",
                          lr=COPY_LR, seed=COPY_SEED)
        history = train(model, task, cfg)
        accuracy = sequence_accuracy(model, task, n=500)
    finally:
        torch.set_num_threads(before)
    return task, model, history, accuracy


# ---------------------------------------------------------------------------------------
# The Noam rate
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("model_size, factor, warmup", [(512, 1.0, 4000), (32, 2.0, 400),
                                                        (16, 0.5, 1)])
def test_rate_formula_and_peak(model_size, factor, warmup):
    for step in (1, 2, warmup // 2 + 1, warmup, warmup + 1, 3 * warmup, 10_000):
        expected = factor * model_size**-0.5 * min(step**-0.5, step * warmup**-1.5)
        assert rate(step, model_size, factor, warmup) == pytest.approx(expected, rel=1e-12)
    steps = range(1, 3 * warmup + 2)
    rates = [rate(s, model_size, factor, warmup) for s in steps]
    assert steps[int(np.argmax(rates))] == warmup
    assert max(rates) == pytest.approx(factor * (model_size * warmup) ** -0.5, rel=1e-12)
    assert rate(0, model_size, factor, warmup) == rate(1, model_size, factor, warmup)
    assert math.isfinite(rate(0, model_size, factor, warmup))


# ---------------------------------------------------------------------------------------
# Label smoothing
# ---------------------------------------------------------------------------------------


def test_label_smoothing_zero_is_nll_of_the_label():
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(7, 6, generator=gen).log_softmax(-1)
    target = torch.tensor([1, 4, PAD, 5, 2, PAD, 3])
    loss = LabelSmoothing(6, PAD, 0.0)(x, target)
    expected = F.nll_loss(x, target, ignore_index=PAD, reduction="sum")
    torch.testing.assert_close(loss, expected, atol=1e-5, rtol=1e-6)


@pytest.mark.parametrize("size, smoothing", [(5, 0.4), (12, 0.1), (3, 0.2)])
def test_label_smoothing_true_distribution(size, smoothing):
    target = torch.tensor([t % size for t in range(2 * size)])
    dist = LabelSmoothing(size, PAD, smoothing).true_dist(target)
    real = target != PAD
    torch.testing.assert_close(dist[real].sum(-1), torch.ones(int(real.sum())), atol=1e-6,
                               rtol=0)
    assert (dist[:, PAD] == 0).all()
    assert (dist[~real] == 0).all()
    rows = torch.arange(len(target))[real]
    assert torch.allclose(dist[rows, target[real]], torch.tensor(1 - smoothing))


def test_label_smoothing_annotated_example_by_hand():
    # The Annotated Transformer: LabelSmoothing(5, 0, 0.4), targets [2, 1, 0, 3, 3].
    crit = LabelSmoothing(5, 0, 0.4)
    target = torch.tensor([2, 1, 0, 3, 3])
    e = 0.4 / 3
    expected_dist = np.array([
        [0, e, 0.6, e, e],
        [0, 0.6, e, e, e],
        [0, 0, 0, 0, 0],
        [0, e, e, 0.6, e],
        [0, e, e, 0.6, e],
    ])
    np.testing.assert_allclose(crit.true_dist(target).numpy(), expected_dist, atol=1e-7)
    # The example's prediction row [0, 0.2, 0.7, 0.1, 0] made strictly positive, so that
    # the KL divergence is finite: sum over t > 0 of t * (log t - log p).
    predict = np.array([[0.05, 0.2, 0.6, 0.1, 0.05]] * 5)
    expected = float(sum(
        t * (math.log(t) - math.log(p))
        for t_row, p_row in zip(expected_dist, predict, strict=True)
        for t, p in zip(t_row, p_row, strict=True)
        if t > 0
    ))
    loss = crit(torch.tensor(np.log(predict), dtype=torch.float32), target)
    assert float(loss) == pytest.approx(expected, rel=1e-5)


# ---------------------------------------------------------------------------------------
# Greedy decoding
# ---------------------------------------------------------------------------------------


def test_greedy_decode_pads_after_end_of_sentence(copy_model):
    task, model, _, _ = copy_model
    src, tgt = task.sample(32, torch.Generator().manual_seed(5))
    batch = Batch(src, tgt)
    max_len = tgt.size(1)
    out = greedy_decode(model, batch.src, batch.src_mask, max_len=max_len)
    assert out.dtype == torch.long and out.size(0) == 32 and 2 <= out.size(1) <= max_len
    assert (out[:, 0] == BOS).all()
    finished_early = 0
    for row in out.tolist():
        if EOS in row:
            end = row.index(EOS)
            assert all(t == PAD for t in row[end + 1:]), row
            finished_early += end + 1 < len(row)
    assert finished_early > 0  # some rows really ended before others


def test_greedy_decode_stops_when_every_row_has_ended():
    model = make_model(10, 10, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0).eval()
    src = torch.tensor([[4, 5, 6], [7, 8, 0]])
    src_mask = (src != PAD).unsqueeze(-2)
    full = greedy_decode(model, src, src_mask, max_len=6, end_symbol=None)
    assert full.shape == (2, 6) and (full[:, 0] == BOS).all()
    with torch.no_grad():
        model.generator.proj.bias[EOS] = 1e4  # </s> always wins
    out = greedy_decode(model, src, src_mask, max_len=6)
    assert torch.equal(out, torch.tensor([[BOS, EOS], [BOS, EOS]]))
    out = greedy_decode(model, src, src_mask, max_len=6, start_symbol=5)
    assert out[:, 0].tolist() == [5, 5]


# ---------------------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------------------


def decode(task, row):
    return [task.vocab.itos[i] for i in row]


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.parametrize("symbols", [None, ["pear", "apple", "fig", "kiwi"]])
def test_task_targets_are_right(name, symbols):
    task = make_task(name, symbols, max_len=7)
    assert task.vocab.itos[: len(SPECIALS)] == tuple(SPECIALS)
    src, tgt = task.sample(50, torch.Generator().manual_seed(3))
    assert src.shape == (50, 8) and tgt.shape == (50, 9)  # source: symbols, then </s>
    lengths = set()
    for s_row, t_row in zip(src.tolist(), tgt.tolist(), strict=True):
        n = sum(t != PAD for t in s_row) - 1
        lengths.add(n)
        assert 1 <= n <= 7 and s_row[n] == EOS and all(t == PAD for t in s_row[n + 1:])
        assert t_row[0] == BOS and t_row[n + 1] == EOS and all(t == PAD for t in t_row[n + 2:])
        words = decode(task, s_row[:n])
        assert all(w in task.symbols for w in words)
        answer = decode(task, t_row[1 : n + 1])
        if name == "copy":
            assert answer == words
        elif name == "reverse":
            assert answer == words[::-1]
        else:
            assert answer == sorted(words)  # symbols are sorted, so id order = word order
    assert len(lengths) > 3  # lengths vary


def test_task_sampling_is_deterministic_for_a_seeded_generator():
    task = make_task("reverse")
    a = task.sample(16, torch.Generator().manual_seed(7))
    b = task.sample(16, torch.Generator().manual_seed(7))
    c = task.sample(16, torch.Generator().manual_seed(8))
    torch.manual_seed(0)
    d = task.sample(16, torch.Generator().manual_seed(7))  # the global RNG does not matter
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert torch.equal(a[0], d[0]) and torch.equal(a[1], d[1])
    assert not torch.equal(a[0], c[0])


# ---------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------


def test_copy_task_is_learned(copy_model):
    _, model, history, accuracy = copy_model
    assert len(history) == COPY_STEPS
    assert model.training  # handed back in the mode it came in (a new module trains)
    assert history[-1].loss < history[0].loss / 10
    assert history[-1].token_accuracy > 0.9
    assert accuracy >= COPY_THRESHOLD, f"sequence accuracy {accuracy:.3f}"


def test_callback_sees_every_step_and_can_stop_training():
    task = make_task("copy", max_len=4)
    V = len(task.vocab)
    model = make_model(V, V, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0)
    cfg = TrainConfig(steps=6, batch_size=4, lr=1e-2)
    seen: list[StepInfo] = []
    history = train(model, task, cfg, callback=seen.append)  # returns None: keep going
    assert history == seen
    assert [i.step for i in seen] == [1, 2, 3, 4, 5, 6]
    for info in seen:
        assert isinstance(info, StepInfo)
        assert info.steps == 6 and info.lr == 1e-2
        assert math.isfinite(info.loss) and 0.0 <= info.token_accuracy <= 1.0
        assert info.elapsed >= 0
    assert [i.elapsed for i in seen] == sorted(i.elapsed for i in seen)

    calls: list[int] = []

    def stop_at_three(info: StepInfo) -> bool:
        calls.append(info.step)
        return info.step == 3

    history = train(model, task, cfg, callback=stop_at_three)
    assert len(history) == 3 and calls == [1, 2, 3]
    assert model.training  # handed back in the mode it came in


def test_noam_schedule_feeds_the_optimiser():
    task = make_task("copy", max_len=4)
    V = len(task.vocab)
    model = make_model(V, V, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0)
    cfg = TrainConfig(steps=4, batch_size=4, schedule="noam", factor=2.0, warmup=3)
    history = train(model, task, cfg)
    assert [i.lr for i in history] == [rate(s, 8, 2.0, 3) for s in (1, 2, 3, 4)]


def test_label_smoothing_is_finite_where_probabilities_are_zero():
    """Regression: nn.KLDivLoss gives NaN for 0 * log(0); the Annotated example is 1.1745."""
    crit = LabelSmoothing(5, 0, 0.1)
    predict = torch.tensor([[0, 1 / 5, 1 / 5, 1 / 5, 1 / 5]]).log()  # -inf in the pad column
    loss = crit(predict, torch.tensor([1]))
    assert torch.isfinite(loss)
    assert abs(loss.item() - 1.1745) < 1e-3
    x = torch.tensor([[0.05, 0.2, 0.5, 0.2, 0.05]]).log().requires_grad_()
    crit(x, torch.tensor([2])).backward()
    assert torch.isfinite(x.grad).all()


def test_a_teacher_forced_check_gives_greedy_decodings_verdicts():
    torch.manual_seed(0)
    task = make_task("reverse", max_len=6)
    V = len(task.vocab)
    model = make_model(V, V, N=1, d_model=32, d_ff=64, h=2, dropout=0.0, seed=0)
    train(model, task, TrainConfig(steps=60, batch_size=64, schedule="constant", lr=1e-2))
    greedy, lengths = exact_matches(model, task, n=300, seed=5)
    forced, forced_lengths = exact_matches(model, task, n=300, seed=5, forced=True)
    assert 0 < int(greedy.sum()) < 300  # half-trained: some right, some wrong
    assert torch.equal(greedy, forced) and torch.equal(lengths, forced_lengths)
    broken = make_model(V, V, N=1, d_model=8, d_ff=8, h=2, dropout=0.0, seed=0,
                        decoder_mask="none")
    with pytest.raises(ValueError, match="subsequent"):
        exact_matches(broken, task, n=4, forced=True)


def test_each_step_reports_how_much_of_its_batch_was_exactly_right():
    task = make_task("copy", max_len=4)
    V = len(task.vocab)
    model = make_model(V, V, N=1, d_model=16, d_ff=16, h=2, dropout=0.0, seed=1)
    before = copy.deepcopy(model).train()
    cfg = TrainConfig(steps=1, batch_size=32, seed=7)
    (info,) = train(model, task, cfg)
    batch = Batch(*task.sample(cfg.batch_size, torch.Generator().manual_seed(cfg.seed)))
    with torch.no_grad():  # the step's own batch, scored by the model before its update
        pred = before.generator(before(batch.src, batch.tgt, batch.src_mask,
                                       batch.tgt_mask)).argmax(-1)
    real = batch.tgt_y != 0
    exact = ((pred == batch.tgt_y) | ~real).all(-1).float().mean().item()
    assert info.exact == pytest.approx(exact)


def test_a_training_that_fails_leaves_no_dropout_generator_behind():
    """train() sets every Dropout's generator for its run and clears it however it ends (here
    Adam refuses the betas), so later passes in train mode draw as nn.Dropout does."""
    from dataclasses import replace

    from transformer.model import Dropout

    task = make_task("copy")
    model = make_model(len(task.vocab), len(task.vocab), N=1, d_model=8, d_ff=8, h=1,
                       dropout=0.1)
    with pytest.raises(ValueError):
        train(model, task, replace(TrainConfig(steps=2, batch_size=4), betas=(1.5, 0.98)))
    drops = [m for m in model.modules() if isinstance(m, Dropout)]
    assert drops and all(m.generator is None for m in drops)
