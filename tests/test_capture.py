"""capture(): observes without changing anything, leaves nothing behind, and keeps every
recording to its own model and its own thread."""

from __future__ import annotations

import threading

import pytest
import torch
import torch.nn.modules.module as torch_module

from transformer.hooks import capture, hook_names
from transformer.model import make_model, subsequent_mask
from transformer.tokenize import BOS
from transformer.train import Batch, decode_steps


def build(seed=0, N=2, d_model=16, h=4, d_ff=24, src_vocab=12, tgt_vocab=12, **options):
    return make_model(src_vocab, tgt_vocab, N, d_model, d_ff, h, dropout=0.1, seed=seed,
                      **options).eval()


def inputs(seed=0, batch=2, src_len=6, tgt_len=5, vocab=12):
    gen = torch.Generator().manual_seed(seed)
    src = torch.randint(4, vocab, (batch, src_len), generator=gen)
    tgt = torch.randint(4, vocab, (batch, tgt_len), generator=gen)
    tgt[:, 0] = BOS
    src[-1, src_len // 2:] = 0  # some padding
    return src, tgt, (src != 0).unsqueeze(-2), subsequent_mask(tgt_len)


def forward(model, src, tgt, src_mask, tgt_mask):
    return model.generator(model(src, tgt, src_mask, tgt_mask))


def reference_cache(model, args):
    with torch.no_grad(), capture(model) as cache:
        forward(model, *args)
    return cache


def assert_same_cache(got, expected):
    assert sorted(got) == sorted(expected)
    for name, tensor in expected.items():
        assert torch.equal(got[name], tensor), name


def assert_no_hooks(model):
    for name, m in model.named_modules():
        for attr in ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks",
                     "_backward_pre_hooks"):
            assert not getattr(m, attr), (name, attr)
    for attr in ("_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks",
                 "_global_backward_pre_hooks"):
        assert not getattr(torch_module, attr), attr


@pytest.fixture
def one_thread():
    """One intra-op thread, so that results are bitwise reproducible across Python threads."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"norm_placement": "post", "tie_weights": "all"}])
def test_capture_changes_nothing(options):
    model = build(**options)
    args = inputs()
    with torch.no_grad():
        plain = forward(model, *args)
        with capture(model) as cache:
            captured = forward(model, *args)
        with capture(model, history=True):
            with_history = forward(model, *args)
        log_probs, run_cache = model.run_with_cache(*args)
    # Without a capture, attention runs as one fused kernel (the same function, to fp32
    # rounding); with one, every captured pass is the same written-out computation.
    torch.testing.assert_close(plain, captured)
    assert torch.equal(captured, with_history)
    assert torch.equal(captured, log_probs)
    assert torch.equal(cache["generator.hook_log_probs"], captured)
    assert_same_cache(run_cache, cache)
    # with gradients on, the recorded tensors are detached and the graph is unchanged
    with capture(model) as grad_cache:
        out = forward(model, *args)
    assert out.requires_grad and torch.equal(out, captured)
    assert not any(t.requires_grad for t in grad_cache.values())


def test_no_hooks_remain_after_capture_or_exception():
    model = build()
    args = inputs()
    assert_no_hooks(model)
    with torch.no_grad(), capture(model) as cache:
        forward(model, *args)
        assert_no_hooks(model)  # nothing is registered even while recording
    assert_no_hooks(model)
    n = len(cache)
    assert n == len(hook_names(model))
    snapshot = dict(cache)

    with pytest.raises(RuntimeError, match="boom"):
        with torch.no_grad(), capture(model) as failed:
            model.encode(args[0], args[2])
            raise RuntimeError("boom")
    assert_no_hooks(model)
    n_failed = len(failed)
    assert n_failed > 0

    bad_src = args[0].clone()
    bad_src[0, 0] = 99  # outside the vocabulary: the model raises inside the block
    with pytest.raises(ValueError), torch.no_grad(), capture(model) as raised:
        forward(model, bad_src, *args[1:])
    assert_no_hooks(model)

    n_raised = len(raised)
    with torch.no_grad():
        forward(model, *args)  # outside any capture: records nothing anywhere
    assert len(cache) == n and len(failed) == n_failed and len(raised) == n_raised
    assert all(cache[k] is snapshot[k] for k in snapshot)
    assert_same_cache(reference_cache(model, args), cache)  # capture still works afterwards


def test_foreign_model_in_the_block_is_not_recorded():
    a = build(seed=0, N=1)
    b = build(seed=1, N=2, d_model=8, h=2)
    twin = build(seed=2, N=1)  # same architecture as `a`: same hook names, other weights
    args_a = inputs(0)
    args_b = inputs(1, batch=3, src_len=4, tgt_len=3)
    expected = reference_cache(a, args_a)
    with torch.no_grad(), capture(a) as cache:
        forward(b, *args_b)
        forward(a, *args_a)
        forward(b, *args_b)
        forward(twin, *args_a)
    assert not any(name.startswith(("encoder.layers.1", "decoder.layers.1")) for name in cache)
    assert_same_cache(cache, expected)


def test_capturing_a_submodule_records_only_it_with_relative_names():
    model = build()
    args = inputs()
    full = reference_cache(model, args)
    with torch.no_grad(), capture(model.decoder.layers[1].src_attn) as cache:
        forward(model, *args)
    assert sorted(cache) == sorted(hook_names(model.decoder.layers[1].src_attn))
    assert "hook_pattern" in cache
    for name, tensor in cache.items():
        assert torch.equal(tensor, full[f"decoder.layers.1.src_attn.{name}"])


@pytest.mark.parametrize("shared", [False, True])
def test_threads_keep_their_own_recordings(one_thread, shared):
    first = build(seed=0, N=1)
    # two threads sharing one model, or two threads with models of different configs
    models = [first, first if shared else build(seed=1, N=2, d_model=8, h=2)]
    args = [inputs(0), inputs(1, batch=3, src_len=4, tgt_len=3)]
    expected = [reference_cache(m, a) for m, a in zip(models, args, strict=True)]
    assert sorted(expected[0]) != sorted(expected[1]) or shared
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def work(i):
        try:
            barrier.wait(timeout=30)
            for _ in range(20):
                with torch.no_grad(), capture(models[i]) as cache:
                    forward(models[i], *args[i])
                assert_same_cache(cache, expected[i])
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors


def test_history_keeps_one_tensor_per_call():
    model = build()
    src, _, src_mask, _ = inputs(batch=1)
    h = model.config.h
    steps = 4
    ys = torch.tensor([[BOS, 5, 6, 7]])
    singles = []
    with torch.no_grad():
        for k in range(steps):
            with capture(model) as single:
                model.decode(model.encode(src, src_mask), src_mask, ys[:, : k + 1],
                             subsequent_mask(k + 1))
            singles.append(single)
        with capture(model, history=True) as cache:
            memory = model.encode(src, src_mask)
            for k in range(steps):
                model.decode(memory, src_mask, ys[:, : k + 1], subsequent_mask(k + 1))
    assert sorted(cache) == sorted(n for n in hook_names(model) if not n.startswith("generator"))
    for name, values in cache.items():
        assert isinstance(values, list)
        calls = 1 if name.startswith(("encoder", "src_embed")) else steps
        assert len(values) == calls, name
        for k, t in enumerate(values):
            assert torch.equal(t, singles[k if calls > 1 else -1][name]), name
    patterns = cache["decoder.layers.0.self_attn.hook_pattern"]
    assert [tuple(p.shape) for p in patterns] == [(1, h, k + 1, k + 1) for k in range(steps)]


def test_decode_steps_caches_grow_step_by_step():
    model = build()
    src, _, src_mask, _ = inputs(batch=1, src_len=5)
    src_mask = Batch(src).src_mask
    h, N, S = model.config.h, model.config.N, src.size(1)
    max_len = 6
    enc_cache, steps = decode_steps(model, src, src_mask, max_len=max_len, end_symbol=None)
    assert sorted(enc_cache) == sorted(n for n in hook_names(model)
                                       if n.startswith(("encoder", "src_embed")))
    assert len(steps) == max_len - 1
    with torch.no_grad():
        memory = model.encode(src, src_mask)
    torch.testing.assert_close(enc_cache["encoder.hook_out"], memory)  # fused without capture
    for k, step in enumerate(steps):
        assert step.ys[0] == BOS and len(step.ys) == k + 1
        if k:
            assert step.ys == steps[k - 1].ys + [steps[k - 1].next_id]
        assert step.next_id == int(step.log_probs.argmax())
        assert not any(name.startswith(("encoder", "src_embed")) for name in step.cache)
        for i in range(N):
            self_p = step.cache[f"decoder.layers.{i}.self_attn.hook_pattern"]
            cross_p = step.cache[f"decoder.layers.{i}.src_attn.hook_pattern"]
            assert self_p.shape == (1, h, k + 1, k + 1)
            assert cross_p.shape == (1, h, k + 1, S)
        with torch.no_grad():
            tgt = torch.tensor([step.ys])
            full = model.generator(model.decode(memory, src_mask, tgt, subsequent_mask(k + 1)))
        torch.testing.assert_close(step.log_probs, full[0, -1], atol=1e-6, rtol=0)
    with pytest.raises(ValueError, match="batch 1"):
        decode_steps(model, src.repeat(2, 1), src_mask.repeat(2, 1, 1), max_len=3)


def test_nested_captures_each_record_their_own_model():
    """Regression: an inner capture used to replace the outer one."""
    a = make_model(7, 7, N=1, d_model=8, d_ff=8, h=2, seed=0).eval()
    b = make_model(7, 7, N=1, d_model=8, d_ff=8, h=2, seed=1).eval()
    src = torch.tensor([[4, 5, 6]])
    mask = torch.ones(1, 1, 3, dtype=torch.bool)
    with capture(a) as outer:
        with capture(b) as inner:
            a.encode(src, mask)
            b.encode(src, mask)
        with capture(a.encoder) as sub:
            a.encode(src, mask)
    assert set(outer) and set(outer) == set(inner)  # same names, different models
    assert not torch.equal(outer["encoder.hook_out"], inner["encoder.hook_out"])
    assert "hook_out" in sub and "layers.0.self_attn.hook_pattern" in sub
