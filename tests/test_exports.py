"""Downloads: a run as .npz, a model as a checkpoint, and safe file names."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.exports import (
    FORMAT,
    MASK_ARRAYS,
    TOKEN_ARRAYS,
    checkpoint_bytes,
    download_name,
    run_to_npz,
)
from explorer.core.runs import assemble, build_body, forward, make_tokens
from explorer.core.settings import PRESETS, Settings, parse_settings
from transformer.model import EncoderDecoder, TransformerConfig, build_model, subsequent_mask


def _run(source: str = "the cat sat on the mat", target: str = "", **raw):
    tokens = make_tokens(source, target, "word")
    cfg = parse_settings(raw).model_config(len(tokens.vocab))
    model = assemble(build_body(cfg, 0, False), cfg, 0, tokens.vocab)
    return model, tokens, forward(model, tokens)


def _load_npz(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


def _outputs(model: EncoderDecoder, vocab: int) -> torch.Tensor:
    src = torch.tensor([[i % vocab for i in range(1, 6)]])
    tgt = torch.tensor([[(3 * i) % vocab for i in range(1, 5)]])
    with torch.no_grad():
        return model.generator(model(src, tgt, torch.ones(1, 1, 5, dtype=torch.bool),
                                     subsequent_mask(4)))


# ---- run_to_npz -------------------------------------------------------------------------


def test_npz_holds_every_captured_tensor_and_the_tokens():
    _, tokens, run = _run("我爱 NLP", "I love NLP")
    arrays = _load_npz(run_to_npz(run))
    assert set(arrays) == {*run.cache, *TOKEN_ARRAYS, *MASK_ARRAYS, "train_mode"}
    for name, value in run.cache.items():
        assert arrays[name].shape == value.shape and arrays[name].dtype == value.dtype
        np.testing.assert_array_equal(arrays[name], value)
    assert arrays["tokens.src"].tolist() == ["我", "爱", "NLP"]  # CJK: one token per character
    assert arrays["tokens.tgt"].tolist() == ["I", "love", "NLP"]
    assert arrays["tokens.tgt_in"].tolist() == ["<s>", "I", "love", "NLP"]
    assert tuple(arrays["tokens.vocab"].tolist()) == tokens.vocab.itos
    assert arrays["mask.src"].shape == (1, 1, 3) and arrays["mask.src"].dtype == bool
    np.testing.assert_array_equal(arrays["mask.tgt"], run.tgt_mask)
    assert not arrays["train_mode"]
    pattern = arrays["encoder.layers.0.self_attn.hook_pattern"]
    assert pattern.shape == (1, 4, 3, 3)  # tiny: h = 4
    np.testing.assert_allclose(pattern.sum(-1), 1.0, rtol=1e-5)


def test_npz_is_compressed_and_for_a_larger_model_still_complete():
    _, _, run = _run(N=3, d_model=64, h=8, d_ff=128)
    data = run_to_npz(run)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_DEFLATED}
    names = _load_npz(data)
    assert "decoder.layers.2.src_attn.hook_pattern" in names
    assert names["decoder.layers.2.src_attn.hook_pattern"].shape == (1, 8, 7, 6)


# ---- checkpoint_bytes -------------------------------------------------------------------


def _read(data: bytes) -> dict:
    return torch.load(io.BytesIO(data), weights_only=True, map_location="cpu")


@pytest.mark.parametrize("options", [
    {},
    {"norm_placement": "post", "layer_norm": "standard", "scale_embedding": False},
    {"tie_weights": "decoder"},
    {"tie_weights": "all"},
])
def test_checkpoint_round_trips_with_weights_only_and_strict_loading(options):
    cfg = TransformerConfig(9, 9, N=2, d_model=16, d_ff=24, h=2, max_len=32, **options)
    model = build_model(cfg, seed=3).eval()
    vocab = [f"w{i}" for i in range(9)]
    data = checkpoint_bytes(model, vocab, {"note": "test", "steps": [1, 2.5, None]})
    payload = _read(data)
    assert payload["format"] == FORMAT
    assert payload["config"] == dataclasses.asdict(cfg)
    assert payload["vocab"] == vocab
    assert payload["meta"] == {"note": "test", "steps": [1, 2.5, None]}
    again = build_model(TransformerConfig(**payload["config"])).eval()
    again.load_state_dict(payload["state_dict"], strict=True)
    assert torch.equal(_outputs(again, 9), _outputs(model, 9))
    if options.get("tie_weights") == "all":
        assert again.src_embed[0].lut.weight is again.generator.proj.weight


def test_checkpoint_of_the_apps_own_assembled_model():
    model, tokens, _ = _run("the cat sat")
    data = checkpoint_bytes(model, tokens.vocab.itos, {})
    payload = _read(data)
    assert payload["vocab"] == list(tokens.vocab.itos)
    again = build_model(TransformerConfig(**payload["config"])).eval()
    again.load_state_dict(payload["state_dict"], strict=True)
    V = len(tokens.vocab)
    assert torch.equal(_outputs(again, V), _outputs(model, V))


def test_checkpoint_without_vocab_and_its_refusals():
    cfg = TransformerConfig(5, 7, N=1, d_model=8, d_ff=8, h=2, max_len=8)
    model = build_model(cfg, seed=0)
    assert _read(checkpoint_bytes(model, None, {}))["vocab"] is None
    with pytest.raises(ValueError, match="5 \\(source\\) and 7 \\(target\\)"):
        checkpoint_bytes(model, ["a"] * 7, {})
    with pytest.raises(ValueError, match="sequence of token strings"):
        checkpoint_bytes(model, "abcde", {})
    with pytest.raises(ValueError, match="meta"):
        checkpoint_bytes(model, None, {"when": object()})
    with pytest.raises(ValueError, match="finite"):
        checkpoint_bytes(model, None, {"loss": float("nan")})
    with pytest.raises(ValueError, match="keys must be strings"):
        checkpoint_bytes(model, None, {"nested": {1: 2}})
    bare = EncoderDecoder(model.encoder, model.decoder, model.src_embed, model.tgt_embed,
                          model.generator, config=None)
    with pytest.raises(ValueError, match="TransformerConfig"):
        checkpoint_bytes(bare, None, {})


# ---- download_name ----------------------------------------------------------------------


def test_download_names_are_readable():
    assert download_name("attention_enc_L0_H1", Settings(), "png") == "attention_enc_L0_H1_tiny.png"
    paper = PRESETS["paper base"]
    s = Settings(N=paper.N, d_model=paper.d_model, h=paper.h, d_ff=paper.d_ff,
                 dropout=paper.dropout)
    assert download_name("run", s, ".NPZ") == "run_paper-base.npz"
    assert download_name("shapes", Settings(N=3, d_model=64), "csv") == "shapes_N3-d64-h4-ff64.csv"
    assert download_name("checkpoint", None, "pt") == "checkpoint.pt"


@pytest.mark.parametrize("kind, ext, want", [
    ("../../etc/passwd", "png", "etc_passwd_tiny.png"),
    ("C:\\evil\\name", "png", "C_evil_name_tiny.png"),
    ("注意力", "png", "export_tiny.png"),
    ("", "", "export_tiny.bin"),
    ("a b", "p/ng", "a_b_tiny.bin"),
    (".hidden", "pt", "hidden_tiny.pt"),
    ("x" * 500, "pt", "x" * 80 + "_tiny.pt"),
])
def test_download_names_are_safe(kind, ext, want):
    assert download_name(kind, Settings(), ext) == want


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(kind=st.text(max_size=200), ext=st.text(max_size=12))
def test_any_download_name_is_ascii_without_separators(kind, ext):
    name = download_name(kind, Settings(), ext)
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z0-9]{1,8}", name, flags=re.ASCII)
    assert len(name) <= 120 and ".." not in name
