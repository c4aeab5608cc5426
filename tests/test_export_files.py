"""The download files: a run's .npz names the vocabulary of the model that ran, for every
model a page can look at, and the shape table's CSV opens in a spreadsheet in the learner's
language."""

from __future__ import annotations

import csv
import dataclasses
import io
import re

import numpy as np
import pytest
import streamlit as st
import torch
from apptest_helpers import app, chart_names
from streamlit.testing.v1 import AppTest

from explorer.app.context import build_context
from explorer.app.sources import SHIPPED_DATES, answer_tokens
from explorer.core.checkpoint import LoadedCheckpoint, load_checkpoint
from explorer.core.exports import (
    LOG_PROBS,
    checkpoint_bytes,
    download_name,
    model_vocabs,
    run_to_npz,
    size_tag,
)
from explorer.core.runs import Tokens, assemble, build_body, forward
from explorer.core.settings import PRESETS, Settings
from explorer.core.shape_table import layer_label, shape_rows, stack_label, sublayer_label
from explorer.figures.shapes import shape_csv, shape_table
from explorer.text.i18n import set_lang, t
from explorer.training.run import ModelKey, run_training, start_training, task_meta
from transformer.model import TransformerConfig, make_model
from transformer.tasks import DIGITS, Task
from transformer.tokenize import BOS, Vocab
from transformer.train import Batch, TrainConfig, greedy_decode

BOM = b"\xef\xbb\xbf"


def _load_npz(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


def _predicted(arrays: dict[str, np.ndarray]) -> list[str]:
    """Each decoder position's most likely next token, read through the file's vocabulary."""
    vocab, log_probs = arrays["tokens.vocab"], arrays[LOG_PROBS]
    assert len(vocab) == log_probs.shape[-1]
    return [str(vocab[i]) for i in log_probs[0].argmax(-1)]


def _greedy_ids(model, src_ids: list[int], start: int, steps: int) -> list[int]:
    """The model's greedy answer of `steps` ids (no end token), as this app decodes."""
    src = torch.tensor([src_ids])
    with torch.no_grad():
        ys = greedy_decode(model, src, Batch(src).src_mask, max_len=steps + 1,
                           start_symbol=start, end_symbol=None)
    return ys[0, 1:].tolist()


def _with_answer(loaded: LoadedCheckpoint, source: str, which: str):
    """The context a page builds for a trained model when the target box is blank."""
    ctx = build_context(Settings(source=source, target=""), loaded, source=which,
                        answer=lambda src: answer_tokens(loaded, src))
    assert ctx.ok and ctx.answered
    return ctx


# ---- The .npz names the model's own vocabulary ------------------------------------------


def test_the_sidebar_models_npz_names_its_greedy_answer():
    ctx = build_context(Settings(source="the cat sat on the mat", target="a dog ran", seed=3))
    vocab = ctx.tokens.vocab
    model = assemble(build_body(ctx.cfg, 3, False), ctx.cfg, 3, vocab)  # as shared_model
    ids = _greedy_ids(model, ctx.tokens.src_ids, start=BOS, steps=6)
    answer = [vocab.itos[i] for i in ids]
    run = forward(model, Tokens(ctx.tokens.src_tokens, tuple(answer), vocab))
    arrays = _load_npz(run_to_npz(run))
    assert arrays[LOG_PROBS].shape[-1] == ctx.cfg.tgt_vocab == len(vocab)
    assert _predicted(arrays)[:6] == answer
    assert arrays["tokens.src_vocab"].tolist() == list(vocab.itos)


@pytest.fixture(scope="module")
def dates() -> LoadedCheckpoint:
    return load_checkpoint(SHIPPED_DATES.read_bytes(), None, None)


def test_the_shipped_date_translators_npz_names_its_answer(dates):
    ctx = _with_answer(dates, "Montag, 23. November 2026", "dates")
    assert "".join(ctx.tokens.tgt_tokens) == "2026-11-23"
    run = forward(dates.model, ctx.tokens)  # what the page's run is for a checkpoint
    width = run.cache[LOG_PROBS].shape[-1]
    assert len(ctx.tokens.vocab) != width  # the typed text's vocabulary names other ids
    arrays = _load_npz(run_to_npz(run))
    assert len(arrays["tokens.vocab"]) == width == dates.config.tgt_vocab
    assert _predicted(arrays) == [*ctx.tokens.tgt_tokens, "</s>"]
    assert arrays["tokens.src_vocab"].tolist() == list(dates.src_vocab)


def test_a_trained_models_checkpoint_npz_names_its_answer():
    torch.manual_seed(0)
    task = Task("copy", DIGITS, 1, 9)
    config = TrainConfig(steps=10, batch_size=16, lr=3e-3)  # a few steps: any answer will do
    state = start_training(ModelKey.of(Settings(), task), config)
    run_training(state)
    meta = {**task_meta(task), "steps": state.step}  # as the Train page exports it
    loaded = load_checkpoint(checkpoint_bytes(state.model, list(task.vocab.itos), meta),
                             None, None)
    ctx = _with_answer(loaded, "3 1 4 1 5", "yours")
    answer = list(ctx.tokens.tgt_tokens)
    assert answer  # the model answered something to compare with
    arrays = _load_npz(run_to_npz(forward(loaded.model, ctx.tokens)))
    assert len(arrays["tokens.vocab"]) == len(task.vocab) == arrays[LOG_PROBS].shape[-1]
    assert _predicted(arrays)[:len(answer)] == answer


def test_an_imported_state_dict_without_a_vocabulary_names_both_of_its_vocabularies():
    model = make_model(11, 13, N=1, d_model=16, d_ff=32, h=4, seed=5).eval()
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    loaded = load_checkpoint(buf.getvalue(), 4, None)  # names: tok0, tok1, ...
    source = "tok4 tok7 tok9 tok3"
    first = build_context(Settings(source=source, target=""), loaded, source="imported")
    ids = _greedy_ids(loaded.model, first.tokens.src_ids, first.tokens.bos, steps=5)
    answer = [loaded.tgt_vocab[i] for i in ids]
    ctx = build_context(Settings(source=source, target=" ".join(answer)), loaded,
                        source="imported")  # the learner types the model's answer
    assert ctx.tokens.tgt_in_ids == [first.tokens.bos, *ids]
    arrays = _load_npz(run_to_npz(forward(loaded.model, ctx.tokens)))
    assert arrays[LOG_PROBS].shape[-1] == 13 and len(arrays["tokens.vocab"]) == 13
    assert _predicted(arrays)[:5] == answer
    assert arrays["tokens.vocab"].tolist() == list(loaded.tgt_vocab)
    assert arrays["tokens.src_vocab"].tolist() == list(loaded.src_vocab)
    assert len(arrays["tokens.src_vocab"]) == 11


def test_model_vocabs_of_the_sidebars_tokens_is_their_shared_vocabulary():
    tokens = Tokens(("a", "b"), ("b", "c"), Vocab(["a", "b", "c"]))
    assert model_vocabs(tokens) == (tokens.vocab.itos, tokens.vocab.itos)


def test_a_vocabulary_that_does_not_name_the_outputs_is_refused():
    ctx = build_context(Settings(source="one two three", target=""))
    model = assemble(build_body(ctx.cfg, 0, False), ctx.cfg, 0, ctx.tokens.vocab)
    run = forward(model, ctx.tokens)
    wrong = Tokens(ctx.tokens.src_tokens, ctx.tokens.tgt_tokens, Vocab(["one"]))
    with pytest.raises(ValueError, match="predicts"):
        run_to_npz(dataclasses.replace(run, tokens=wrong))


# ---- The shape table's CSV ----------------------------------------------------------------


@pytest.fixture(params=["en", "zh"])
def lang(request):
    set_lang(request.param)
    try:
        yield request.param
    finally:
        set_lang("en")


@pytest.fixture
def rows(lang):
    """The shape table's rows of a run, described in `lang` (as the page computes them)."""
    ctx = build_context(Settings(source="我爱 NLP", target="I love NLP"))
    model = assemble(build_body(ctx.cfg, 0, False), ctx.cfg, 0, ctx.tokens.vocab)
    return shape_rows(forward(model, ctx.tokens).cache, ctx.cfg)


def _read_csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_the_shape_csv_starts_with_a_byte_order_mark(rows, lang):
    data = shape_csv(rows, lang=lang)
    assert isinstance(data, bytes) and data.startswith(BOM)
    assert not data[len(BOM):].startswith(BOM)
    data[len(BOM):].decode("utf-8")  # the rest is plain UTF-8


def test_the_shape_csv_has_the_tables_columns_in_the_learners_language(rows, lang):
    header, *body = _read_csv(shape_csv(rows, lang=lang))
    table = shape_table(rows, lang=lang)
    named = header.index(t("shapes.col_shape"))
    assert header == [*list(table)[:named + 1], t("shapes.col_size"), *list(table)[named + 1:]]
    assert len(set(header)) == len(header)
    if lang == "en":
        assert header == ["#", "part", "layer", "sublayer", "tensor", "shape (named)", "shape",
                          "operation", "full name"]
    if lang == "zh":  # no English word left among the headers
        assert not any(re.search("[A-Za-z]", name) for name in header)
        assert {line[header.index("部分")] for line in body} == {"词嵌入", "编码器", "解码器",
                                                                 "输出"}
    assert len(body) == len(rows)
    by_column = dict(zip(header, zip(*body, strict=True), strict=True))
    assert list(by_column[t("shapes.col_part")]) == [stack_label(r.stack) for r in rows]
    assert list(by_column[t("shapes.col_layer")]) == [layer_label(r.layer) for r in rows]
    assert list(by_column[t("shapes.col_sublayer")]) == [sublayer_label(r.sublayer)
                                                          for r in rows]
    assert list(by_column[t("shapes.col_full_name")]) == [r.name for r in rows]
    assert list(by_column[t("shapes.col_size")]) == ["x".join(map(str, r.shape)) for r in rows]
    assert list(by_column["#"]) == [str(r.step) for r in rows]


# ---- File names name the model that runs ----------------------------------------------------


CHECKPOINT_TAG = "N2-d64-h2-ff128"  # the size of `small_import`, which is no preset


@pytest.fixture(scope="module")
def small_import():
    """A checkpoint whose size (N=2, d_model=64, h=2, d_ff=128) differs from the sidebar's."""
    set_lang("en")
    buf = io.BytesIO()
    torch.save(make_model(11, 11, N=2, d_model=64, d_ff=128, h=2, seed=1).state_dict(), buf)
    return load_checkpoint(buf.getvalue(), 2, None)


def test_the_size_tag_is_the_configs(small_import):
    assert size_tag(small_import.config) == CHECKPOINT_TAG
    for name, p in PRESETS.items():
        cfg = TransformerConfig(11, 11, N=p.N, d_model=p.d_model, h=p.h, d_ff=p.d_ff,
                                dropout=p.dropout)
        assert download_name("run", cfg, "npz") == f"run_{name.replace(' ', '-')}.npz"
    assert download_name("run", None, "npz") == "run.npz"


def _draw_chart() -> None:
    """A script: one chart drawn by show_chart for the model in session state."""
    import plotly.graph_objects as go
    import streamlit as st

    from explorer.app.charts import show_chart

    show_chart(go.Figure(go.Scatter(y=[1, 2])), "curve", st.session_state["model"], False,
               key="c", lang="en", where=st.empty(), text=False)


def test_show_chart_names_the_png_after_the_model_it_is_given(small_import):
    at = AppTest.from_function(_draw_chart)
    at.session_state["model"] = small_import.config
    at.run()
    assert not at.exception
    assert chart_names(at) == {"c": f"curve_{CHECKPOINT_TAG}"}


def test_the_attention_npz_is_named_after_the_imported_model(small_import, monkeypatch):
    names: list[str] = []
    download = st.download_button

    def spy(*args, **kwargs):
        names.append(kwargs.get("file_name"))
        return download(*args, **kwargs)

    monkeypatch.setattr(st, "download_button", spy)
    at = app("attention", imported_checkpoint=small_import)
    assert not at.exception, at.exception
    assert names == [f"run_{CHECKPOINT_TAG}.npz"]  # not the sidebar's run_tiny.npz


def test_every_png_on_a_page_is_named_after_the_imported_model(small_import):
    at = app("attention", imported_checkpoint=small_import)
    assert not at.exception, at.exception
    names = chart_names(at)
    assert names and all(name.endswith(f"_{CHECKPOINT_TAG}") for name in names.values())
