"""`run_bytes` is the exact size of a `Run`: it decides which cache tier a run goes to."""

from __future__ import annotations

import pytest

from explorer.core.runs import assemble, build_body, forward, make_tokens, run_bytes
from transformer.model import TransformerConfig


def real_bytes(run) -> int:
    return sum(a.nbytes for a in run.cache.values()) + run.src_mask.nbytes + run.tgt_mask.nbytes


@pytest.mark.parametrize(("N", "norm", "tie", "d_ff", "source", "target"), [
    (1, "pre", "none", 12, "a b c d e", "x y z"),
    (2, "post", "decoder", 64, "the cat sat on the mat", ""),
    (3, "pre", "all", 7, "one", "a much longer target sentence than the source"),
    (2, "post", "none", 33, "中文 句子 很 好", "fine"),
])
def test_run_bytes_equals_the_real_size_of_a_run(N, norm, tie, d_ff, source, target):
    tokens = make_tokens(source, target, "word")
    V = len(tokens.vocab)
    cfg = TransformerConfig(V, V, N=N, d_model=8, d_ff=d_ff, h=2, norm_placement=norm,
                            tie_weights=tie, max_len=64)
    run = forward(assemble(build_body(cfg, 0, False), cfg, 0, tokens.vocab), tokens)
    assert run_bytes(cfg, len(tokens.src_tokens), len(tokens.tgt_in_tokens)) == real_bytes(run)
