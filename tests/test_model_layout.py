"""transformer/ reads in paper order: model.py is the paper's model, the CPU fast paths
(fast.py) compute the same function as its written-out formulas, and the Model page's
"Read the code" shows those formulas without the fast paths."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest
import torch

from explorer.core.introspect import COMPONENTS, component_source, paper_code
from transformer import fast
from transformer import model as model_module
from transformer.config import TransformerConfig
from transformer.hooks import capture
from transformer.model import LayerNorm, build_model
from transformer.train import Batch

ROOT = Path(__file__).resolve().parents[1]
BASE = dict(src_vocab=12, tgt_vocab=12, N=2, d_model=16, d_ff=32, h=4, dropout=0.0)
# What only the fast paths use; none of it belongs in the code a learner reads.
FAST_NAMES = ("fast", "annotated_norm", "autograd", "Function", "SHORT_KEYS", "MANY_ROWS",
              "quiet", "is_grad_enabled", "addcmul", "scaled_dot_product")


def _paper_layer_norm(x: torch.Tensor, a_2: torch.Tensor, b_2: torch.Tensor,
                      eps: float) -> torch.Tensor:
    """The Annotated Transformer's LayerNorm.forward, as it is written there."""
    mean = x.mean(-1, keepdim=True)
    std = x.std(-1, keepdim=True)
    return a_2 * (x - mean) / (std + eps) + b_2


def test_the_fast_layer_norm_is_the_papers_formula():
    torch.manual_seed(0)
    a_2, b_2 = torch.randn(32), torch.randn(32)
    x = torch.randn(8, 10, 32) * 3 + 1
    grad_out = torch.randn(8, 10, 32)
    results = []
    for norm in (fast.layer_norm, _paper_layer_norm):
        xi, ai, bi = (t.clone().requires_grad_() for t in (x, a_2, b_2))
        y = norm(xi, ai, bi, 1e-6)
        y.backward(grad_out)
        results.append((y.detach(), xi.grad, ai.grad, bi.grad))
    for quick, paper in zip(*results, strict=True):
        torch.testing.assert_close(quick, paper, atol=1e-5, rtol=1e-5)
    with torch.no_grad():  # without gradients: the formula, not the autograd node
        torch.testing.assert_close(fast.layer_norm(x, a_2, b_2, 1e-6),
                                   _paper_layer_norm(x, a_2, b_2, 1e-6), atol=1e-5, rtol=1e-5)


def test_layer_norm_runs_the_papers_formula_when_the_fast_paths_are_off():
    torch.manual_seed(1)
    norm = LayerNorm(32)
    with torch.no_grad():
        norm.a_2.normal_()
        norm.b_2.normal_()
    x = torch.randn(4, 6, 32)
    with fast.off():
        assert torch.equal(norm(x), _paper_layer_norm(x, norm.a_2, norm.b_2, norm.eps))
    torch.testing.assert_close(norm(x), _paper_layer_norm(x, norm.a_2, norm.b_2, norm.eps),
                               atol=1e-5, rtol=1e-5)


def _batch(n: int) -> Batch:
    """n padded sequences: 2 take the fused kernel, 40 (x 4 heads) the short-rows branch."""
    gen = torch.Generator().manual_seed(n)
    src = torch.randint(3, 12, (n, 9), generator=gen)
    src[:, 0] = 1
    src[n // 2:, 6:] = 0
    tgt = torch.randint(3, 12, (n, 8), generator=gen)
    tgt[:, 0] = 1
    tgt[n // 2:, 5:] = 0
    return Batch(src, tgt)


def _close(quick: torch.Tensor, paper: torch.Tensor, name: str = "") -> None:
    """Equal to float32 rounding: within 1e-5 of the tensor's largest value."""
    worst = (quick - paper).abs().max().item()
    assert worst <= 1e-5 * max(1.0, paper.abs().max().item()), (name, worst)


def _pass(model, b: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    model.zero_grad(set_to_none=True)
    out = model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
    (out * torch.linspace(-1, 1, out.numel()).view_as(out)).sum().backward()
    return out.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}


@pytest.mark.parametrize("n", [2, 40])
@pytest.mark.parametrize("options", [
    {}, {"decoder_mask": "none"}, {"scale_scores": False}, {"norm_placement": "post"},
    {"decoder_mask": "inverted"},
])
def test_a_model_computes_the_same_with_the_fast_paths_off(options, n):
    """Seeded: forward and every gradient of a training pass, fast paths on and off."""
    model = build_model(TransformerConfig(**BASE, **options), seed=3).train()
    b = _batch(n)
    quick_out, quick_grads = _pass(model, b)
    with fast.off():
        paper_out, paper_grads = _pass(model, b)
    _close(quick_out, paper_out)
    for name, grad in paper_grads.items():
        _close(quick_grads[name], grad, name)


def test_off_leaves_only_the_written_out_formulas(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a fast path ran inside fast.off()")

    model = build_model(TransformerConfig(**BASE), seed=0)
    b = _batch(40)
    monkeypatch.setattr(fast, "layer_norm", refuse)
    monkeypatch.setattr(fast, "attention", refuse)
    with fast.off():
        assert not fast.enabled()
        _pass(model, b)
        with torch.no_grad():
            model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert fast.enabled()
    with pytest.raises(AssertionError, match="fast path"):
        _pass(model, b)


def test_a_capture_records_the_same_with_the_fast_paths_off():
    model = build_model(TransformerConfig(**BASE), seed=2).eval()
    b = _batch(40)
    with torch.no_grad(), capture(model) as quick:
        model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    with torch.no_grad(), fast.off(), capture(model) as paper:
        model(b.src, b.tgt, b.src_mask, b.tgt_mask)
    assert quick.keys() == paper.keys()
    for name, t in paper.items():  # the masked scores hold MASK_FILL: no scale to go by
        torch.testing.assert_close(quick[name], t, atol=1e-5, rtol=1e-5, msg=name)


def test_model_py_reads_without_autograd_functions():
    model_py = (ROOT / "transformer" / "model.py").read_text()
    fast_py = (ROOT / "transformer" / "fast.py").read_text()
    for text in ("torch.autograd.Function", "autograd", "once_differentiable", "def backward"):
        assert text not in model_py, text
    assert fast_py.count("(torch.autograd.Function):") == 2


def test_model_py_defines_the_model_in_the_annotated_transformers_order():
    tree = ast.parse((ROOT / "transformer" / "model.py").read_text())
    defined = [n.name for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
    annotated = ["EncoderDecoder", "Generator", "clones", "Encoder", "LayerNorm",
                 "SublayerConnection", "EncoderLayer", "Decoder", "DecoderLayer",
                 "subsequent_mask", "attention", "MultiHeadedAttention",
                 "PositionwiseFeedForward", "Embeddings", "PositionalEncoding", "make_model"]
    assert [name for name in defined if name in annotated] == annotated


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_read_the_code_shows_the_papers_code(name):
    shown = component_source(name)
    for text in FAST_NAMES:
        assert text not in shown, (name, text)
    ast.parse(textwrap.dedent(shown))  # still Python after the hand-overs are left out
    written = inspect.getsource(getattr(model_module, name))
    if "fast." not in written:  # nothing to leave out: the code exactly as in model.py
        assert shown == written


def test_read_the_code_shows_the_written_out_formulas():
    norm = component_source("LayerNorm")
    assert "        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2\n" in norm
    assert "std = x.std(-1, keepdim=True)" in norm
    heads = component_source("MultiHeadedAttention")
    call = ("\n        x, _ = attention(query, key, value, mask=mask, dropout=self.dropout,\n"
            "                         hook=self._hook, scale=self.scale)\n")
    assert call in heads


def test_paper_code_leaves_out_each_hand_over_and_keeps_the_rest():
    source = textwrap.dedent("""\
        def forward(self, x):
            if self.kind == "standard":
                return standard(x)
            if fast.enabled():  # the same, faster
                return fast.norm(x,
                                 self.eps)
            y = x + 1
            if fast.applies(self):  # the same, faster
                z = fast.attend(y)
            else:
                z = attend(y,
                           mask=None)
            return z

        def other(self):
            return 1
        """)
    assert paper_code(source) == textwrap.dedent("""\
        def forward(self, x):
            if self.kind == "standard":
                return standard(x)
            y = x + 1
            z = attend(y,
                       mask=None)
            return z

        def other(self):
            return 1
        """)
