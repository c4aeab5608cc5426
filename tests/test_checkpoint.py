"""Importing checkpoints: the Annotated Transformer's state_dicts, wrappers, this app's export,
and every way a file can be wrong, each refused with one friendly message."""

from __future__ import annotations

import io
import math
import pickle
import random
import zipfile
from dataclasses import replace

import pytest
import torch
from checkpoint_helpers import LONG_CHINESE, LONG_DIGITS, copy_export
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer.core.checkpoint as ck
from explorer.app.context import build_context
from explorer.core.checkpoint import (
    MIN_POSITIONS,
    CheckpointError,
    LoadedCheckpoint,
    from_model,
    load_checkpoint,
    parse_token_list,
    valid_heads,
)
from explorer.core.exports import checkpoint_bytes
from explorer.core.settings import Settings
from transformer.model import (
    EncoderDecoder,
    TransformerConfig,
    build_model,
    make_model,
    sinusoid_table,
    subsequent_mask,
)

# The Annotated Transformer's make_model(src_vocab, tgt_vocab, N=1), written out by hand:
# every name its state_dict has, in its order.
ANNOTATED_KEYS_N1 = [
    "encoder.layers.0.self_attn.linears.0.weight", "encoder.layers.0.self_attn.linears.0.bias",
    "encoder.layers.0.self_attn.linears.1.weight", "encoder.layers.0.self_attn.linears.1.bias",
    "encoder.layers.0.self_attn.linears.2.weight", "encoder.layers.0.self_attn.linears.2.bias",
    "encoder.layers.0.self_attn.linears.3.weight", "encoder.layers.0.self_attn.linears.3.bias",
    "encoder.layers.0.feed_forward.w_1.weight", "encoder.layers.0.feed_forward.w_1.bias",
    "encoder.layers.0.feed_forward.w_2.weight", "encoder.layers.0.feed_forward.w_2.bias",
    "encoder.layers.0.sublayer.0.norm.a_2", "encoder.layers.0.sublayer.0.norm.b_2",
    "encoder.layers.0.sublayer.1.norm.a_2", "encoder.layers.0.sublayer.1.norm.b_2",
    "encoder.norm.a_2", "encoder.norm.b_2",
    "decoder.layers.0.self_attn.linears.0.weight", "decoder.layers.0.self_attn.linears.0.bias",
    "decoder.layers.0.self_attn.linears.1.weight", "decoder.layers.0.self_attn.linears.1.bias",
    "decoder.layers.0.self_attn.linears.2.weight", "decoder.layers.0.self_attn.linears.2.bias",
    "decoder.layers.0.self_attn.linears.3.weight", "decoder.layers.0.self_attn.linears.3.bias",
    "decoder.layers.0.src_attn.linears.0.weight", "decoder.layers.0.src_attn.linears.0.bias",
    "decoder.layers.0.src_attn.linears.1.weight", "decoder.layers.0.src_attn.linears.1.bias",
    "decoder.layers.0.src_attn.linears.2.weight", "decoder.layers.0.src_attn.linears.2.bias",
    "decoder.layers.0.src_attn.linears.3.weight", "decoder.layers.0.src_attn.linears.3.bias",
    "decoder.layers.0.feed_forward.w_1.weight", "decoder.layers.0.feed_forward.w_1.bias",
    "decoder.layers.0.feed_forward.w_2.weight", "decoder.layers.0.feed_forward.w_2.bias",
    "decoder.layers.0.sublayer.0.norm.a_2", "decoder.layers.0.sublayer.0.norm.b_2",
    "decoder.layers.0.sublayer.1.norm.a_2", "decoder.layers.0.sublayer.1.norm.b_2",
    "decoder.layers.0.sublayer.2.norm.a_2", "decoder.layers.0.sublayer.2.norm.b_2",
    "decoder.norm.a_2", "decoder.norm.b_2",
    "src_embed.0.lut.weight", "src_embed.1.pe",
    "tgt_embed.0.lut.weight", "tgt_embed.1.pe",
    "generator.proj.weight", "generator.proj.bias",
]


def _annotated_shape(key: str, V_src: int, V_tgt: int, d: int, d_ff: int, L: int):
    """The shape the Annotated code gives each name (by its role)."""
    if key.startswith("src_embed.0"):
        return (V_src, d)
    if key.startswith(("tgt_embed.0", "generator.proj.weight")):
        return (V_tgt, d)
    if key == "generator.proj.bias":
        return (V_tgt,)
    if key.endswith(".pe"):
        return (1, L, d)
    if key.endswith("w_1.weight"):
        return (d_ff, d)
    if key.endswith("w_1.bias"):
        return (d_ff,)
    if key.endswith("w_2.weight"):
        return (d, d_ff)
    if key.endswith(".weight"):
        return (d, d)
    return (d,)  # biases of d_model width, a_2, b_2


def _hand_state_dict(V_src=7, V_tgt=9, d=12, d_ff=20, L=50, seed=0, keys=ANNOTATED_KEYS_N1):
    gen = torch.Generator().manual_seed(seed)
    sd = {}
    for key in keys:
        shape = _annotated_shape(key, V_src, V_tgt, d, d_ff, L)
        if key.endswith(".pe"):
            sd[key] = sinusoid_table(L, d).unsqueeze(0) if d % 2 == 0 else torch.zeros(shape)
        else:
            sd[key] = 0.3 * torch.randn(shape, generator=gen) + (1.0 if key.endswith("a_2") else 0)
    return sd


def _save(obj) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def _tiny(V: int = 11, *, max_len: int = 40, seed: int = 1, **options) -> EncoderDecoder:
    cfg = TransformerConfig(V, V, N=2, d_model=16, d_ff=24, h=4, max_len=max_len, **options)
    return build_model(cfg, seed=seed).eval()


def _outputs(model: EncoderDecoder, V_src: int, V_tgt: int) -> torch.Tensor:
    src = torch.tensor([[(2 * i + 1) % V_src for i in range(6)]])
    tgt = torch.tensor([[(5 * i + 2) % V_tgt for i in range(4)]])
    with torch.no_grad():
        return model.generator(model(src, tgt, torch.ones(1, 1, 6, dtype=torch.bool),
                                     subsequent_mask(4)))


def _refused(data: bytes, h: int | None = 4, vocab: str | None = None, **kw) -> str:
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(data, h, vocab, **kw)
    message = str(info.value)
    assert message and "Traceback" not in message and 'File "' not in message
    assert len(message) < 800
    return message


# ---- What loads -------------------------------------------------------------------------


def test_a_state_dict_saved_the_annotated_way_loads_with_identical_outputs():
    model = make_model(11, 13, N=2, d_model=16, d_ff=32, h=4, seed=5).eval()  # max_len 5000
    loaded = load_checkpoint(_save(model.state_dict()), 4, None)
    assert isinstance(loaded, LoadedCheckpoint)
    assert loaded.config == model.config
    assert loaded.kind == "state_dict"
    assert not loaded.model.training
    assert loaded.src_vocab == tuple(f"tok{i}" for i in range(11))
    assert loaded.tgt_vocab[-1] == "tok12"
    assert torch.equal(_outputs(loaded.model, 11, 13), _outputs(model, 11, 13))
    assert any("LayerNorm" in n for n in loaded.notes)


def test_the_hand_written_annotated_key_list_loads():
    sd = _hand_state_dict()
    loaded = load_checkpoint(_save(sd), 3, None)
    assert list(loaded.model.state_dict()) == ANNOTATED_KEYS_N1
    cfg = loaded.config
    assert (cfg.N, cfg.d_model, cfg.d_ff, cfg.h, cfg.src_vocab, cfg.tgt_vocab) == (
        1, 12, 20, 3, 7, 9)
    assert cfg.max_len == MIN_POSITIONS > 50  # the saved 50-row sinusoid table, extended
    assert cfg.norm_placement == "pre" and cfg.tie_weights == "none"
    for key, value in loaded.model.state_dict().items():
        if key.endswith(".pe"):
            assert torch.allclose(value[:, :50], sd[key], atol=1e-6), key
        else:
            assert torch.equal(value, sd[key]), key
    assert torch.isfinite(_outputs(loaded.model, 7, 9)).all()


def test_our_default_model_has_exactly_the_annotated_keys():
    model = make_model(7, 9, N=1, d_model=12, d_ff=20, h=3)
    shapes = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    assert list(shapes) == ANNOTATED_KEYS_N1
    assert shapes == {k: _annotated_shape(k, 7, 9, 12, 20, 5000) for k in ANNOTATED_KEYS_N1}


@pytest.mark.parametrize("wrapper", ["state_dict", "model_state_dict", "model"])
def test_a_state_dict_inside_a_training_checkpoint_loads(wrapper):
    model = _tiny()
    data = _save({wrapper: model.state_dict(), "epoch": 7, "optimizer": {"lr": 0.5},
                  "loss": torch.tensor(1.5)})
    loaded = load_checkpoint(data, 4, None)
    assert wrapper in loaded.kind
    assert torch.equal(_outputs(loaded.model, 11, 11), _outputs(model, 11, 11))


def test_a_data_parallel_prefix_is_removed():
    model = _tiny()
    data = _save({f"module.{k}": v for k, v in model.state_dict().items()})
    loaded = load_checkpoint(data, 4, None)
    assert any("module." in n for n in loaded.notes)
    assert torch.equal(_outputs(loaded.model, 11, 11), _outputs(model, 11, 11))


@pytest.mark.parametrize("options", [
    {},
    {"norm_placement": "post", "layer_norm": "standard", "scale_embedding": False},
    {"tie_weights": "all", "dropout": 0.3},
])
def test_the_apps_own_export_loads_with_its_config_and_vocab(options):
    model = _tiny(7, **options)
    vocab = ["<pad>", "<s>", "</s>", "<unk>", "我", "爱", "cat"]
    data = checkpoint_bytes(model, vocab, {"trained_steps": 300, "task": "copy"})
    loaded = load_checkpoint(data, None, None)
    # h, LayerNorm formula and scaling included; the 40-row sinusoid table is extended
    assert loaded.config == replace(model.config, max_len=MIN_POSITIONS)
    assert loaded.kind == "transformer-explorer/1"
    assert loaded.src_vocab == loaded.tgt_vocab == tuple(vocab)
    assert loaded.meta == {"trained_steps": 300, "task": "copy"}
    assert torch.equal(_outputs(loaded.model, 7, 7), _outputs(model, 7, 7))
    assert load_checkpoint(data, 4, None).config == loaded.config  # the same h is fine
    assert "exported with h = 4" in _refused(data, h=2)
    renamed = load_checkpoint(data, None, "a b c d e f g")
    assert renamed.src_vocab == tuple("abcdefg")


@pytest.mark.parametrize("options", [
    {},
    {"norm_placement": "post", "layer_norm": "standard", "scale_embedding": False},
    {"tie_weights": "all", "dropout": 0.3},
    {"positional_encoding": False},
])
def test_a_model_of_the_app_is_taken_as_its_export_would_load_without_the_bytes(options):
    model = _tiny(7, max_len=9, **options)
    vocab = ["<pad>", "<s>", "</s>", "<unk>", "我", "爱", "cat"]
    meta = {"task": "copy", "steps": 12, "accuracy": 0.5, "version": 3}
    loaded = load_checkpoint(checkpoint_bytes(model, vocab, meta), None, None)
    taken = from_model(model, vocab, meta)
    assert (taken.config, taken.kind, taken.meta, taken.note_keys) == \
        (loaded.config, loaded.kind, loaded.meta, loaded.note_keys)
    assert taken.src_vocab == taken.tgt_vocab == loaded.tgt_vocab
    assert not taken.model.training
    mine, theirs = taken.model.state_dict(), loaded.model.state_dict()
    assert mine.keys() == theirs.keys()
    assert all(torch.equal(mine[k], theirs[k]) for k in mine)
    assert torch.equal(_outputs(taken.model, 7, 7), _outputs(model, 7, 7))
    with torch.no_grad():  # a copy: the original may go on training
        next(model.parameters()).add_(1.0)
    assert not torch.equal(_outputs(taken.model, 7, 7), _outputs(model, 7, 7))


@pytest.mark.parametrize("tie", ["decoder", "all"])
def test_tied_weights_are_found_and_stay_tied(tie):
    model = _tiny(tie_weights=tie)
    loaded = load_checkpoint(_save(model.state_dict()), 4, None)
    assert loaded.config.tie_weights == tie
    m = loaded.model
    assert m.generator.proj.weight is m.tgt_embed[0].lut.weight
    assert (m.src_embed[0].lut.weight is m.tgt_embed[0].lut.weight) == (tie == "all")
    assert torch.equal(_outputs(m, 11, 11), _outputs(model, 11, 11))


def test_post_norm_is_read_from_the_missing_final_norms():
    model = _tiny(norm_placement="post")
    assert "encoder.norm.a_2" not in model.state_dict()
    loaded = load_checkpoint(_save(model.state_dict()), 4, None)
    assert loaded.config.norm_placement == "post"
    assert isinstance(loaded.model.encoder.norm, torch.nn.Identity)
    assert torch.equal(_outputs(loaded.model, 11, 11), _outputs(model, 11, 11))


def test_missing_positional_tables_are_computed():
    model = make_model(6, 6, N=1, d_model=8, d_ff=8, h=2, seed=0).eval()
    sd = {k: v for k, v in model.state_dict().items() if not k.endswith(".pe")}
    loaded = load_checkpoint(_save(sd), 2, None)
    assert any("positional" in n for n in loaded.notes)
    assert torch.equal(_outputs(loaded.model, 6, 6), _outputs(model, 6, 6))


def test_half_precision_weights_load():
    model = _tiny()
    loaded = load_checkpoint(_save({k: v.half() for k, v in model.state_dict().items()}), 4, None)
    assert torch.allclose(_outputs(loaded.model, 11, 11), _outputs(model, 11, 11), atol=0.05)


# ---- Vocabularies -----------------------------------------------------------------------


def test_token_lists_one_per_line_or_whitespace_separated():
    assert parse_token_list("a b\tc") == ["a", "b", "c"]
    assert parse_token_list("a b\tc\n") == ["a", "b", "c"]  # one line: split at whitespace
    assert parse_token_list("<s>\n</s>\r\n\n  the \nNew York\n") == ["<s>", "</s>", "the",
                                                                      "New York"]
    assert parse_token_list("\ufeffa b c") == ["a", "b", "c"]
    assert parse_token_list(b"a b c") == ["a", "b", "c"]


def test_a_shared_vocabulary_names_both_sides():
    model = _tiny(5)
    loaded = load_checkpoint(_save(model.state_dict()), 4, "\n".join("我爱自然语"))
    assert loaded.src_vocab == loaded.tgt_vocab == tuple("我爱自然语")
    assert not any("tok0" in n for n in loaded.notes)


def test_special_ids_are_found_by_name():
    vocab = "<s>\n</s>\n<blank>\n<unk>\nein\nHund\nHaus\nund\nder\nist\nda"
    loaded = load_checkpoint(_save(_tiny().state_dict()), 4, vocab)
    assert loaded.special_ids() == {"bos": 0, "eos": 1, "pad": 2, "unk": 3}  # Annotated order
    plain = load_checkpoint(_save(_tiny().state_dict()), 4, None)
    assert plain.special_ids("src") == {}


def test_separate_source_and_target_vocabularies():
    sd = _hand_state_dict(V_src=3, V_tgt=4)
    loaded = load_checkpoint(_save(sd), 3, "a b c", tgt_vocab_text="w x y z")
    assert loaded.src_vocab == ("a", "b", "c") and loaded.tgt_vocab == ("w", "x", "y", "z")
    only_src = load_checkpoint(_save(sd), 3, "a b c")
    assert only_src.tgt_vocab == ("tok0", "tok1", "tok2", "tok3")
    assert "swap" in _refused(_save(sd), 3, "w x y z", tgt_vocab_text="a b c")


@pytest.mark.parametrize("text, needle", [
    ("a b c", "has 3 tokens but"),
    ("\n".join(f"t{i}" for i in range(12)), "has 12 tokens"),
    ("a a b c d e f g h i j", "same token at tokens 1 and 2"),
    ("a\nb\n" + "x" * 500 + "\n", "line 3 is 500 characters"),
    ("", "has 0 tokens"),
    (b"\xff\xfe\x00", "not UTF-8"),
])
def test_a_wrong_vocabulary_is_refused_clearly(text, needle):
    message = _refused(_save(_tiny().state_dict()), 4, text)  # type: ignore[arg-type]
    assert needle in message
    if isinstance(text, str) and len(text) > 300:
        assert "x" * 300 not in message


def test_a_huge_token_list_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(ck, "MAX_VOCAB_TEXT_CHARS", 100)
    assert "limit" in _refused(_save(_tiny().state_dict()), 4, "a " * 100)


# ---- The number of heads ----------------------------------------------------------------


@pytest.mark.parametrize("h, needle", [
    (None, "Give the number of heads h"),
    (3, "h must divide d_model = 16"),
    (0, "h must divide"),
    (-4, "h must divide"),
    (True, "(a bool)"),
    ("8", "(a str)"),
    (4.0, "(a float)"),
])
def test_h_must_be_given_and_divide_d_model(h, needle):
    message = _refused(_save(_tiny().state_dict()), h)
    assert needle in message
    assert "1, 2, 4, 8, 16" in message


def test_valid_heads_stay_within_the_apps_range():
    assert valid_heads(12) == [1, 2, 3, 4, 6, 12]
    assert valid_heads(512) == [1, 2, 4, 8, 16, 32]


# ---- Files that are not checkpoints -----------------------------------------------------

SIDE_EFFECTS: list[str] = []


def _side_effect(*args):
    SIDE_EFFECTS.append("ran")
    return args


class Exploit:
    """A pickle that would call a function when loaded without weights_only."""

    def __reduce__(self):
        return (_side_effect, ("pwned",))


class Custom:
    """An arbitrary class instance, as in a pickled whole model."""

    def __init__(self) -> None:
        self.weights = torch.zeros(2)


def _junk_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("archive/data.pkl", b"not a pickle at all")
        zf.writestr("archive/data/0", b"\x00" * 64)
    return buf.getvalue()


GOOD = _save(make_model(5, 5, N=1, d_model=8, d_ff=8, h=2, seed=0).state_dict())


@pytest.mark.parametrize("data, needle", [
    (b"", "empty"),
    (b"<script>alert(1)</script> this is a text file, not weights\n", "not a PyTorch"),
    (random.Random(0).randbytes(4096), "not a PyTorch"),
    (_junk_zip(), "checkpoint"),
    (_save({"x": Exploit()}), "Python objects"),
    (_save({"weights": Custom()}), "Python objects"),
    (_save(make_model(5, 5, N=1, d_model=8, d_ff=8, h=2)), "Python objects"),
    (GOOD[: len(GOOD) // 2], "damaged or incomplete"),
    (GOOD[:-7], "damaged or incomplete"),
    (pickle.dumps({"src_embed.0.lut.weight": [[0.0]]}), "not a PyTorch"),
    (_save([torch.zeros(2)]), "holds a list"),
    (_save(torch.zeros(3)), "holds a Tensor"),
    (_save({}), "No weights found"),
    (_save({"epoch": 3, "state": "done"}), "No weights found"),
    (_save({"format": "someone-else/9", "state_dict": {}}), "format"),
    (_save({"format": "transformer-explorer/1", "state_dict": {}}), "lacks"),
])
@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_a_file_that_is_not_a_checkpoint_is_refused_clearly(data, needle):
    message = _refused(data)
    assert needle in message
    assert "<script>" not in message and "alert" not in message
    assert SIDE_EFFECTS == []  # weights_only never ran the pickle's code


def test_a_zip_that_would_unpack_too_large_is_refused(monkeypatch):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data/0", b"\x00" * 200_000)
    data = buf.getvalue()
    monkeypatch.setattr(ck, "MAX_CHECKPOINT_BYTES", 10_000)
    assert len(data) < 10_000
    assert "unpacks to" in _refused(data)


def test_a_file_over_the_size_cap_is_refused_before_reading(monkeypatch):
    monkeypatch.setattr(ck, "MAX_CHECKPOINT_BYTES", len(GOOD) - 1)
    monkeypatch.setattr(ck.torch, "load", lambda *a, **k: pytest.fail("read a too-large file"))
    assert "the limit is" in _refused(GOOD, 2)


def test_too_many_parameters_are_refused_before_building(monkeypatch):
    monkeypatch.setattr(ck, "MAX_PARAMS", 1000)
    monkeypatch.setattr(ck, "build_model", lambda *a, **k: pytest.fail("built a too-big model"))
    assert "parameters; the limit is" in _refused(_save(_tiny().state_dict()))


def test_more_layers_than_the_app_shows_are_refused():
    model = make_model(4, 4, N=13, d_model=8, d_ff=8, h=2)
    assert "N = 13" in _refused(_save(model.state_dict()), 2)


def test_not_bytes_is_refused():
    assert "bytes" in _refused("a path/to/model.pt")  # type: ignore[arg-type]


# ---- Weights that do not fit ------------------------------------------------------------


def _edited(edit) -> bytes:
    sd = dict(_tiny().state_dict())
    edit(sd)
    return _save(sd)


def test_a_wrong_shape_is_named_with_what_was_expected():
    def edit(sd):
        sd["encoder.layers.1.feed_forward.w_2.weight"] = torch.zeros(16, 23)

    message = _refused(_edited(edit))
    assert "encoder.layers.1.feed_forward.w_2.weight is (16, 23), expected (16, 24)" in message


def test_inconsistent_vocabulary_sizes_are_named():
    def edit(sd):
        sd["generator.proj.weight"] = torch.zeros(12, 16)
        sd["generator.proj.bias"] = torch.zeros(12)

    message = _refused(_edited(edit))
    assert "generator.proj.weight is (12, 16), expected (11, 16)" in message


def test_a_missing_layer_is_found():
    def drop_last(sd):
        for k in [k for k in sd if k.startswith("decoder.layers.1.")]:
            del sd[k]

    assert "is a layer missing" in _refused(_edited(drop_last))

    def drop_one(sd):
        del sd["encoder.layers.0.self_attn.linears.2.weight"]

    assert "missing 1 tensor(s): encoder.layers.0.self_attn.linears.2.weight" in _refused(
        _edited(drop_one))


def test_extra_keys_are_refused_and_odd_names_not_echoed():
    def edit(sd):
        sd["encoder.layers.0.self_attn.extra_bias"] = torch.zeros(16)
        sd["<img src=x onerror=alert(1)>"] = torch.zeros(1)

    message = _refused(_edited(edit))
    assert "2 unexpected tensor(s)" in message
    assert "encoder.layers.0.self_attn.extra_bias" in message
    assert "<img" not in message and "alert" not in message


def test_only_one_final_norm_is_refused():
    assert "pre-norm models have both" in _refused(_edited(lambda sd: sd.pop("decoder.norm.a_2")))


def test_no_embedding_table_means_not_this_model():
    message = _refused(_save({"fc.weight": torch.zeros(3, 3), "fc.bias": torch.zeros(3)}))
    assert "src_embed.0.lut.weight" in message and "Annotated" in message


def test_integer_and_nan_weights_are_refused():
    def ints(sd):
        sd["generator.proj.bias"] = torch.zeros(11, dtype=torch.long)

    assert "floating-point" in _refused(_edited(ints))

    def nan(sd):
        sd["encoder.norm.a_2"] = torch.full((16,), math.nan)

    assert "NaN or infinite (encoder.norm.a_2)" in _refused(_edited(nan))


def test_non_tensor_entries_are_refused():
    message = _refused(_save({"state_dict": {**_tiny().state_dict(), "step": 3}}))
    assert "not named tensors (step)" in message


def test_an_odd_d_model_gets_the_models_own_explanation():
    sd = _hand_state_dict(d=15)
    assert "d_model must be even" in _refused(_save(sd), 3)


def test_an_export_whose_config_disagrees_with_its_weights():
    model = _tiny(7)
    payload = torch.load(io.BytesIO(checkpoint_bytes(model, None, {})), weights_only=True)
    payload["config"]["N"] = 3
    assert "config says N = 3 but its weights have N = 2" in _refused(_save(payload), None)
    payload["config"]["N"] = 2
    payload["config"]["layer_norm"] = "<b>rms</b>"
    message = _refused(_save(payload), None)
    assert "layer_norm" in message


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_damaged_files_load_or_are_refused_but_never_crash(data):
    raw = bytearray(GOOD)
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(raw)))
    try:
        loaded = load_checkpoint(bytes(raw[:cut]), 2, None)
    except CheckpointError as exc:
        assert str(exc)
    else:
        assert isinstance(loaded, LoadedCheckpoint)


# ---- The app's own export on a longer sentence, in any precision ----------------------------


PE_KEYS = ("src_embed.1.pe", "tgt_embed.1.pe")


@pytest.fixture(scope="module")
def export_bytes() -> bytes:
    """The Train page's export of a copy model: its PE table has only task length + 2 rows."""
    return copy_export()


@pytest.fixture(scope="module")
def own_export(export_bytes):
    """The export loaded as a learner imports it."""
    return load_checkpoint(export_bytes, None, None)


def test_the_export_is_extended_to_every_length_the_app_reads(own_export):
    assert own_export.config.max_len == MIN_POSITIONS
    assert any("extended" in note for note in own_export.notes)
    ctx = build_context(Settings(source=LONG_CHINESE, token_mode="char"), own_export)
    assert ctx.ok and ctx.text_error is None
    run = ctx.run()
    # the export was trained on sources ending with </s>, so it reads one after the text
    assert ctx.tokens.src_tokens[-1] == "</s>"
    assert run.cache["src_embed.1.hook_out"].shape[1] == len(LONG_CHINESE) + 1


def _cast(data: bytes, dtype: torch.dtype, everything: bool) -> bytes:
    """The export with its PE tables (or every weight) saved in `dtype`."""
    payload = torch.load(io.BytesIO(data), weights_only=True)
    payload["state_dict"] = {k: v.to(dtype) if everything or k in PE_KEYS else v
                             for k, v in payload["state_dict"].items()}
    buf = io.BytesIO()
    torch.save(payload, buf)
    return buf.getvalue()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("everything", [False, True], ids=["pe_only", "all_weights"])
def test_a_half_precision_export_is_extended_and_reads_a_long_sentence(export_bytes, dtype,
                                                                       everything):
    loaded = load_checkpoint(_cast(export_bytes, dtype, everything), None, None)
    assert loaded.config.max_len == MIN_POSITIONS
    assert any("extended" in note for note in loaded.notes)
    ctx = build_context(Settings(source=LONG_DIGITS), loaded)
    assert ctx.ok and ctx.text_error is None
    length = len(ctx.tokens.src_tokens)
    assert length >= len(LONG_DIGITS.split())
    assert ctx.run().cache["src_embed.1.hook_out"].shape[1] == length


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_a_learned_table_in_half_precision_is_still_not_the_formula(dtype):
    cfg = TransformerConfig(8, 8, N=1, d_model=8, d_ff=16, h=2, max_len=6)
    sd = build_model(cfg, seed=0).state_dict()
    learned = torch.randn(1, 6, 8, generator=torch.Generator().manual_seed(0)).to(dtype)
    buf = io.BytesIO()
    torch.save({**sd, **dict.fromkeys(PE_KEYS, learned)}, buf)
    assert load_checkpoint(buf.getvalue(), 2, None).config.max_len == 6  # kept as it is
