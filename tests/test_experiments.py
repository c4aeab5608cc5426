"""Experiments in transformer/: the break switches (each changes exactly one thing), knocking
out a head through a hook point (the model is never edited), and beam search."""

from __future__ import annotations

import hashlib
import math
import threading

import pytest
import torch
from torch import nn

from transformer.config import ConfigError
from transformer.hook_paths import attention_hook, positional_hook, sublayer_hook
from transformer.hooks import capture, intervene, knock_out, zero
from transformer.model import (
    MASK_FILL,
    TransformerConfig,
    build_model,
    decoder_self_mask,
    subsequent_mask,
)
from transformer.tokenize import BOS, EOS, PAD
from transformer.train import (
    Batch,
    beam_search,
    greedy_decode,
    length_penalty,
)

BASE = dict(src_vocab=12, tgt_vocab=12, N=2, d_model=16, d_ff=32, h=4, dropout=0.0)
SWITCHES = {  # field -> its broken value
    "decoder_mask": ("none", "inverted"),
    "positional_encoding": (False,),
    "scale_scores": (False,),
    "residual": (False,),
}
BROKEN = [(name, value) for name, values in SWITCHES.items() for value in values]


def _batch() -> Batch:
    src = torch.tensor([[1, 5, 6, 7, 2], [1, 8, 9, 2, PAD]])
    tgt = torch.tensor([[1, 5, 6, 7, 2, PAD], [1, 8, 9, 2, PAD, PAD]])
    return Batch(src, tgt)


def _run(model: nn.Module, batch: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    return model.run_with_cache(batch.src, batch.tgt, batch.src_mask, batch.tgt_mask)


def _digest(model: nn.Module) -> str:
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().contiguous().numpy().tobytes())
    return h.hexdigest()


# ---- the break switches ---------------------------------------------------------------------


def test_defaults_are_the_papers_and_print_nothing_new():
    cfg = TransformerConfig(**BASE)
    assert (cfg.decoder_mask, cfg.positional_encoding, cfg.scale_scores, cfg.residual) == (
        "subsequent", True, True, True)
    text = repr(build_model(cfg, seed=0))
    for word in ("residual", "scale_scores", "add=", "mask="):
        assert word not in text


@pytest.mark.parametrize(("name", "value"), BROKEN)
def test_a_switch_changes_the_config_in_one_field_and_no_weight(name, value):
    base, broken = TransformerConfig(**BASE), TransformerConfig(**BASE, **{name: value})
    differ = [f for f in base.__dataclass_fields__ if getattr(base, f) != getattr(broken, f)]
    assert differ == [name]
    a, b = build_model(base, seed=3), build_model(broken, seed=3)
    assert a.state_dict().keys() == b.state_dict().keys()
    assert _digest(a) == _digest(b)  # the same weights: only the computation differs
    assert repr(a) != repr(b)  # and print(model) shows it
    out_a, _ = _run(a, _batch())
    out_b, _ = _run(b, _batch())
    assert not torch.allclose(out_a, out_b)


def test_no_scaling_multiplies_the_first_scores_by_root_dk_and_changes_nothing_before():
    a = build_model(TransformerConfig(**BASE), seed=1)
    b = build_model(TransformerConfig(**BASE, scale_scores=False), seed=1)
    _, ca = _run(a, _batch())
    _, cb = _run(b, _batch())
    q = attention_hook("encoder", 0, "self_attn", "hook_q")
    s = attention_hook("encoder", 0, "self_attn", "hook_scores")
    assert torch.equal(ca[q], cb[q])
    assert torch.allclose(cb[s], ca[s] * math.sqrt(BASE["d_model"] // BASE["h"]), atol=1e-5)


def test_no_positional_encoding_adds_zeros_and_keeps_the_embeddings():
    a = build_model(TransformerConfig(**BASE), seed=1)
    b = build_model(TransformerConfig(**BASE, positional_encoding=False), seed=1)
    _, ca = _run(a, _batch())
    _, cb = _run(b, _batch())
    pe, out = positional_hook("encoder", "hook_pe"), positional_hook("encoder", "hook_out")
    assert not torch.any(cb[pe]) and torch.any(ca[pe])
    assert torch.allclose(cb[out], ca[out] - ca[pe])
    # without positions, self-attention cannot tell order: a permuted source gives permuted
    # encoder output
    src = torch.tensor([[1, 5, 6, 7, 2]])
    perm = torch.tensor([[1, 7, 5, 6, 2]])
    mask = torch.ones(1, 1, 5, dtype=torch.bool)
    m1, m2 = b.encode(src, mask), b.encode(perm, mask)
    assert torch.allclose(m1[0, [0, 3, 1, 2, 4]], m2[0], atol=1e-5)


def test_no_residual_passes_only_the_sublayer_output():
    for placement in ("pre", "post"):
        b = build_model(TransformerConfig(**BASE, residual=False, norm_placement=placement),
                        seed=1)
        _, cb = _run(b, _batch())
        out = cb[sublayer_hook("encoder", 0, 0, "hook_sublayer_out")]
        resid = cb[sublayer_hook("encoder", 0, 0, "hook_resid")]
        assert torch.equal(resid, out)  # dropout 0: x + Dropout(out) without the x


@pytest.mark.parametrize("kind", ["subsequent", "none", "inverted"])
def test_decoder_mask_kinds(kind):
    batch = _batch()
    mask = decoder_self_mask(batch.tgt_mask, kind).expand(2, 5, 5)
    keys = batch.tgt != PAD  # (2, 5)
    causal = subsequent_mask(5)[0]
    expected = {"subsequent": causal, "none": torch.ones(5, 5, dtype=torch.bool),
                "inverted": ~causal}[kind]
    assert torch.equal(mask, keys.unsqueeze(1) & expected)
    model = build_model(TransformerConfig(**BASE, decoder_mask=kind), seed=2)
    _, cache = _run(model, batch)
    masked = cache[attention_hook("decoder", 1, "self_attn", "hook_masked_scores")]
    assert torch.equal(masked[:, 0] != MASK_FILL, mask)  # every layer uses the broken mask
    # the encoder and the cross-attention's mask are untouched
    base = build_model(TransformerConfig(**BASE), seed=2)
    _, ref = _run(base, batch)
    assert torch.equal(cache["encoder.hook_out"], ref["encoder.hook_out"])
    cross = attention_hook("decoder", 0, "src_attn", "hook_masked_scores")
    assert torch.equal(cache[cross] == MASK_FILL, ref[cross] == MASK_FILL)


def test_inverted_mask_last_row_is_uniform():
    model = build_model(TransformerConfig(**BASE, decoder_mask="inverted"), seed=0)
    src = torch.tensor([[1, 5, 6, 2]])
    tgt = torch.tensor([[1, 5, 6, 2]])
    with torch.no_grad(), capture(model) as cache:
        model(src, tgt, torch.ones(1, 1, 4, dtype=torch.bool), subsequent_mask(4))
    p = cache[attention_hook("decoder", 0, "self_attn", "hook_pattern")][0]
    assert torch.allclose(p[:, -1], torch.full((4, 4), 0.25))
    assert torch.all(p[:, 0, 0] < 1e-6)  # position 0 may not see itself


@pytest.mark.parametrize(("name", "value"), [
    ("decoder_mask", "causal"), ("positional_encoding", "yes"), ("scale_scores", 1),
    ("residual", None)])
def test_forged_switch_values_are_refused(name, value):
    with pytest.raises(ConfigError) as err:
        TransformerConfig(**BASE, **{name: value})
    assert err.value.key in ("config.choice", "config.true_false")
    assert err.value.values["name"] == name


# ---- knocking out a head through a hook point -----------------------------------------------


def test_knock_out_zeroes_one_head_and_leaves_the_model_alone():
    model = build_model(TransformerConfig(**BASE), seed=4)
    before = _digest(model)
    batch = _batch()
    ref, ref_cache = _run(model, batch)
    z = attention_hook("encoder", 0, "self_attn", "hook_z")
    with intervene(model, {z: knock_out([1])}):
        out, cache = _run(model, batch)
    assert torch.all(cache[z][:, 1] == 0)
    for head in (0, 2, 3):
        assert torch.equal(cache[z][:, head], ref_cache[z][:, head])
    assert not torch.allclose(out, ref)
    assert _digest(model) == before
    again, _ = _run(model, batch)
    assert torch.equal(again, ref)  # nothing outlives the block


def test_knocking_out_every_head_equals_removing_the_attention_values():
    model = build_model(TransformerConfig(**BASE), seed=4)
    batch = _batch()
    z = attention_hook("decoder", 1, "src_attn", "hook_z")
    out_z = sublayer_hook("decoder", 1, 1, "hook_sublayer_out")
    with intervene(model, {z: knock_out(range(4))}):
        _, cache = _run(model, batch)
    bias = model.decoder.layers[1].src_attn.linears[3].bias
    assert torch.allclose(cache[out_z], bias.expand_as(cache[out_z]))
    with intervene(model, {out_z: zero}):
        _, cache = _run(model, batch)
    resid = sublayer_hook("decoder", 1, 1, "hook_resid")
    assert torch.equal(cache[resid], cache[sublayer_hook("decoder", 1, 1, "hook_in")])


def test_interventions_are_refused_for_unknown_names_and_heads():
    model = build_model(TransformerConfig(**BASE), seed=4)
    with pytest.raises(ValueError, match="No hook point"):
        with intervene(model, {"encoder.layers.9.self_attn.hook_z": zero}):
            pass
    z = attention_hook("encoder", 0, "self_attn", "hook_z")
    batch = _batch()
    with pytest.raises(ValueError, match="out of range"):
        with intervene(model, {z: knock_out([4])}):
            _run(model, batch)


def test_an_intervention_in_one_thread_is_invisible_in_another():
    model = build_model(TransformerConfig(**BASE), seed=5)
    batch = _batch()
    ref, _ = _run(model, batch)
    z = attention_hook("encoder", 0, "self_attn", "hook_z")
    inside, seen = threading.Event(), {}

    def other() -> None:
        inside.wait(timeout=30)
        seen["out"], _ = _run(model, batch)

    thread = threading.Thread(target=other)
    thread.start()
    with intervene(model, {z: knock_out([0, 1, 2, 3])}):
        inside.set()
        thread.join(timeout=60)
    assert torch.equal(seen["out"], ref)


# ---- beam search ------------------------------------------------------------------------------


def test_length_penalty_is_gnmts():
    assert length_penalty(1, 0.6) == 1.0
    assert length_penalty(7, 0.0) == 1.0
    assert length_penalty(4, 0.6) == pytest.approx((9 / 6) ** 0.6)


@pytest.mark.parametrize("seed", range(4))
def test_beam_of_one_is_greedy(seed):
    model = build_model(TransformerConfig(**BASE), seed=seed)
    src = torch.tensor([[1, 5 + seed, 6, 7, 2]])
    mask = torch.ones(1, 1, 5, dtype=torch.bool)
    greedy = greedy_decode(model, src, mask, max_len=8)[0].tolist()
    result = beam_search(model, src, mask, max_len=8, beam_size=1)
    assert list(result.final[0].tokens) == greedy[: len(result.final[0].tokens)]
    assert len(result.final) == 1
    if EOS in greedy:
        assert greedy.index(EOS) == len(result.final[0].tokens) - 1


class _TableModel(nn.Module):
    """A hand-built 'model' whose next-token probabilities depend only on the prefix."""

    def __init__(self, table: dict[tuple[int, ...], dict[int, float]], vocab: int) -> None:
        super().__init__()
        self.table, self.vocab = table, vocab
        self.prefixes = list(table)

    def encode(self, src, src_mask):
        return torch.zeros(src.size(0), src.size(1), 1)

    def decode(self, memory, src_mask, tgt, tgt_mask):
        rows = [float(self.prefixes.index(tuple(r))) for r in tgt.tolist()]
        return torch.tensor(rows).view(-1, 1, 1).expand(-1, tgt.size(1), 1)

    def generator(self, x):
        out = torch.full((x.size(0), self.vocab), -1e9)
        for i, index in enumerate(x[:, 0].long().tolist()):
            for token, p in self.table[self.prefixes[index]].items():
                out[i, token] = math.log(p)
        return out


A, B = 3, 4
TABLE = {
    (BOS,): {A: 0.6, B: 0.4},
    (BOS, A): {EOS: 0.4, A: 0.3, B: 0.3},
    (BOS, B): {EOS: 0.9, A: 0.1},
    (BOS, A, A): {EOS: 1.0}, (BOS, A, B): {EOS: 1.0}, (BOS, B, A): {EOS: 1.0},
}


def test_a_beam_of_two_finds_what_greedy_misses():
    model = _TableModel(TABLE, vocab=5)
    src, mask = torch.tensor([[1, 2]]), torch.ones(1, 1, 2, dtype=torch.bool)
    assert greedy_decode(model, src, mask, max_len=5)[0].tolist() == [BOS, A, EOS]  # P 0.24
    one = beam_search(model, src, mask, max_len=5, beam_size=1)
    assert one.final[0].tokens == (BOS, A, EOS)
    two = beam_search(model, src, mask, max_len=5, beam_size=2)
    assert two.final[0].tokens == (BOS, B, EOS)  # P 0.36
    assert two.final[0].log_prob == pytest.approx(math.log(0.36), abs=1e-6)
    first = two.steps[0]
    assert [(h.tokens, h.kept) for h in first[:2]] == [((BOS, A), True), ((BOS, B), True)]
    assert all(not h.kept for h in first[2:])
    # step 2: <s> B </s> and <s> A </s> finish and fill the beam; nothing is left alive
    second = two.steps[1]
    kept = [h.tokens for h in second if h.kept]
    assert kept == [(BOS, B, EOS), (BOS, A, EOS)] and len(two.steps) == 2
    assert all(h.finished for h in second if h.kept)
    assert [h.parent for h in second if h.kept] == [1, 0]


def test_the_length_penalty_can_prefer_the_longer_answer():
    table = {(BOS,): {EOS: 0.5, A: 0.5}, (BOS, A): {A: 0.9, EOS: 0.1},
             (BOS, A, A): {EOS: 0.99, A: 0.01}, (BOS, A, A, A): {EOS: 1.0}}
    model = _TableModel(table, vocab=5)
    src, mask = torch.tensor([[1, 2]]), torch.ones(1, 1, 2, dtype=torch.bool)
    plain = beam_search(model, src, mask, max_len=6, beam_size=2, alpha=0.0)
    assert plain.final[0].tokens == (BOS, EOS)  # log 0.5 > log 0.4455
    paper = beam_search(model, src, mask, max_len=6, beam_size=2, alpha=2.0)
    assert paper.final[0].tokens == (BOS, A, A, EOS)
    assert paper.final[0].score == pytest.approx(
        math.log(0.5 * 0.9 * 0.99) / length_penalty(3, 2.0), abs=1e-6)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_beam_size_is_validated(bad):
    model = build_model(TransformerConfig(**BASE), seed=0)
    with pytest.raises(ValueError):
        beam_search(model, torch.tensor([[1, 2]]), torch.ones(1, 1, 2, dtype=torch.bool),
                    max_len=4, beam_size=bad)


def test_an_exported_broken_model_imports_broken():
    from explorer.core.checkpoint import load_checkpoint
    from explorer.core.exports import checkpoint_bytes

    cfg = TransformerConfig(**BASE, decoder_mask="none", positional_encoding=False,
                            scale_scores=False, residual=False)
    model = build_model(cfg, seed=0)
    vocab = [f"t{i}" for i in range(cfg.src_vocab)]
    loaded = load_checkpoint(checkpoint_bytes(model, vocab, {}), None, None)
    assert loaded.config == cfg
    out, _ = _run(loaded.model, _batch())
    assert torch.equal(out, _run(model, _batch())[0])


@pytest.mark.parametrize("version", [[1, 2], "3", True, {"a": 1}])
def test_a_forged_meta_version_is_dropped_on_import(version):
    from explorer.core.checkpoint import load_checkpoint
    from explorer.core.exports import checkpoint_bytes

    model = build_model(TransformerConfig(**BASE), seed=0)
    vocab = [f"t{i}" for i in range(BASE["src_vocab"])]
    try:
        data = checkpoint_bytes(model, vocab, {"version": version})
    except ValueError:
        return  # the export itself refuses it
    loaded = load_checkpoint(data, None, None)
    assert "version" not in loaded.meta
    assert load_checkpoint(checkpoint_bytes(model, vocab, {"version": 4}), None,
                           None).meta["version"] == 4
