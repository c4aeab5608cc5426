"""An imported checkpoint explored on every page (the session's own model, never shared)."""

from __future__ import annotations

import io

import pytest
import torch
from apptest_helpers import app, errors, figure_list
from checkpoint_helpers import LONG_CHINESE, LONG_DIGITS, copy_export
from streamlit.testing.v1 import AppTest

from explorer.app.context import build_context
from explorer.core.checkpoint import load_checkpoint
from explorer.core.exports import checkpoint_bytes
from explorer.core.runs import ImportedTokens
from explorer.core.settings import Settings
from transformer import make_model
from transformer.model import TransformerConfig, build_model

PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]
# The Annotated Transformer's special tokens come first in its vocabularies.
VOCAB = ["<s>", "</s>", "<blank>", "<unk>", "the", "cat", "sat", "on", "mat", "a"]


@pytest.fixture(scope="module")
def loaded():
    model = make_model(len(VOCAB), len(VOCAB), N=2, d_model=16, d_ff=32, h=4, seed=3)
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # exactly as The Annotated Transformer saves
    return load_checkpoint(buf.getvalue(), 4, "\n".join(VOCAB))


def test_the_sentence_is_read_in_the_checkpoints_vocabulary(loaded):
    ctx = build_context(Settings(source="the cat sat on the sofa", target="a cat"), loaded)
    assert ctx.ok and ctx.loaded is loaded and ctx.cfg == loaded.config
    tokens = ctx.tokens
    assert isinstance(tokens, ImportedTokens)
    assert tokens.src_tokens == ("the", "cat", "sat", "on", "the", "<unk>")  # sofa: unknown
    assert tokens.src_ids == [4, 5, 6, 7, 4, 3]
    assert tokens.tgt_in_tokens == ("<s>", "a", "cat") and tokens.tgt_in_ids == [0, 9, 5]


def test_an_annotated_model_is_offered_its_start_and_end_tokens_around_the_sentence(loaded):
    """The Annotated Transformer's data wraps every source in <s> … </s>; typed, they split."""
    from explorer.app.import_panel import WRAP_KEY
    from explorer.text.locales import en

    assert loaded.source_marks() == ("<s>", "</s>")
    bare = build_context(Settings(source="the cat"), loaded, source="imported")
    wrapped = build_context(Settings(source="the cat"), loaded, source="imported", wrap=True)
    assert bare.tokens.src_tokens == ("the", "cat")
    assert wrapped.tokens.src_tokens == ("<s>", "the", "cat", "</s>")
    assert wrapped.tokens.src_ids == [0, 4, 5, 1]
    typed = build_context(Settings(source="<s> the cat </s>"), loaded, source="imported")
    assert typed.tokens.src_tokens[:3] == ("<unk>",) * 3  # "<", "s", ">": not the token
    at = app("attention", imported_checkpoint=loaded, source="the cat", import_open=True)
    note = en.TEXT["ckpt.wrap_note"].format(start="<s>", end="</s>")
    assert note in [c.value for c in at.sidebar.caption]
    assert at.toggle(key=WRAP_KEY).value is False
    at.toggle(key=WRAP_KEY).set_value(True).run()
    assert not at.exception, at.exception
    grid = str(figure_list(at)[0])
    assert "&lt;/s&gt;" in grid or "</s>" in grid
    app_export = load_checkpoint(copy_export(), None, None)
    assert app_export.source_marks() is None  # this app's tasks add </s> alone


@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_the_imported_model(loaded, page):
    at = app(page, imported_checkpoint=loaded, source="the cat sat on the sofa")
    assert not at.exception, at.exception
    assert not [e.value for e in at.error]
    if page == "attention":
        grid = figure_list(at)[0]
        assert "&lt;unk&gt;" in str(grid) or "<unk>" in str(grid)
    assert at.session_state["imported_checkpoint"] is loaded


def test_another_session_keeps_the_sidebar_model(loaded):
    mine = app("attention", imported_checkpoint=loaded)
    other = app("attention")
    assert not other.exception
    assert "imported_checkpoint" not in other.session_state
    assert figure_list(mine)[0] != figure_list(other)[0]


def test_forgetting_the_checkpoint_returns_to_the_sidebar_model(loaded):
    at = app("attention", imported_checkpoint=loaded)
    at.button(key="ckpt_forget").click().run()
    assert not at.exception
    assert "imported_checkpoint" not in at.session_state


# ---- The Train page decodes with the imported checkpoint ----------------


def test_decode_checkpoint_agrees_with_the_models_greedy_answer(loaded):
    from explorer.app.sources import answer_tokens
    from explorer.training.decoding import decode_checkpoint

    src = ("the", "cat", "sat", "<unk>")
    decoding = decode_checkpoint(loaded, src, max_len=8)
    assert decoding.src == src and decoding.itos == tuple(VOCAB)
    assert decoding.steps[0].prefix == ("<s>",)  # its own <s> (id 0), not this app's
    produced = [tok for tok in decoding.output if tok != "</s>"]
    assert tuple(produced) == answer_tokens(loaded, src)[: len(produced)]
    n, h = loaded.config.N, loaded.config.h
    assert decoding.enc_attn.shape == (n, h, len(src), len(src))
    assert decoding.steps[-1].cross_attn.shape[-1] == len(src)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_decodes_the_sidebar_text_with_the_import(loaded, lang):
    from apptest_helpers import app_in

    from explorer.text.i18n import t

    with app_in(lang, "train", imported_checkpoint=loaded,
                source="the cat sat on the sofa") as at:
        assert not at.exception, at.exception
        assert at.radio(key="tr_which_shown").value == "imported"
        shown = [c.value for c in at.code]
        assert "the cat sat on the <unk>" in shown
        assert t("train.imported_caption") in [c.value for c in at.caption]
        assert at.slider(key="tr_step_shown").value >= 1  # the step view of the import's decoding
        assert t("train.imported_no_before_after") in [i.value for i in at.info]


def test_an_exported_copy_model_is_checked_against_the_copy_rule():
    from explorer.core.exports import checkpoint_bytes
    from explorer.text.i18n import t
    from explorer.training.run import task_meta
    from transformer.tasks import make_task

    task = make_task("copy")
    itos = list(task.vocab.itos)
    model = make_model(len(itos), len(itos), N=1, d_model=16, d_ff=32, h=2, seed=0)
    data = checkpoint_bytes(model, itos, {**task_meta(task), "steps": 0})
    copy_model = load_checkpoint(data, None, None)
    at = app("train", imported_checkpoint=copy_model, source="3 1 4", token_mode="word")
    assert not at.exception, at.exception
    assert at.radio(key="tr_which_shown").value == "imported"
    assert "3 1 4" in [c.value for c in at.code]  # the expected answer: the copy rule's
    task_name = t("train.task_copy")
    assert t("train.imported_caption_task", task=task_name) in [c.value for c in at.caption]
    at.sidebar.text_input(key="source").set_value("3 cat 4").run()  # not a copy input
    assert not at.exception
    assert t("train.imported_caption_outside", task=task_name) in [c.value for c in at.caption]


def test_a_checkpoint_without_token_names_is_decoded_from_one_start_id_everywhere():
    """The pages' decoder input, the Train page's greedy decoding and beam search, the
    knock-out and the sidebar's answer all start from the same id, which the panel names."""
    from explorer.core.checkpoint import NAMELESS_START
    from explorer.text.i18n import t
    from explorer.training.decoding import beam_checkpoint, decode_checkpoint

    model = make_model(11, 11, N=1, d_model=16, d_ff=32, h=2, seed=5)
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    nameless = load_checkpoint(buf.getvalue(), 2, None)
    assert not nameless.start_named and nameless.start_id() == NAMELESS_START
    ctx = build_context(Settings(source="tok4 tok5", target="tok6"), nameless)
    assert ctx.tokens.tgt_in_ids[0] == nameless.start_id()
    src = tuple(ctx.tokens.src_tokens)
    start = nameless.tgt_vocab[nameless.start_id()]
    assert decode_checkpoint(nameless, src, max_len=4).steps[0].prefix == (start,)
    beam = beam_checkpoint(nameless, src, max_len=4, beam_size=2, alpha=0.6)
    assert all(node.tokens[0] == start for node in beam.final)
    at = app(imported_checkpoint=nameless)
    assert not at.exception
    assert t("ckpt.start_nameless", start=NAMELESS_START) in [c.value for c in at.caption]


def test_the_upload_boxes_own_words_follow_the_language_and_refuse_css_syntax():
    from explorer.app.import_panel import uploader_css
    from explorer.text.i18n import TABLES

    css = uploader_css("上传", {"ckpt_file": "每个文件最大 256 MB：.pt"})
    assert 'content: "上传"' in css and ".st-key-ckpt_file" in css
    for bad in ('x"; } body { display: none', "</style><script>", "a\\b"):
        with pytest.raises(ValueError):
            uploader_css(bad, {})
    at = app(lang="zh", import_open=True)  # the panel draws its boxes while open
    styles = [m.value for m in at.markdown if "stFileUploaderDropzone" in m.value]
    assert styles and TABLES["zh"]["ckpt.upload_button"] in styles[0]


# ---- The app's own export on a long sentence, on every page ---------------------------------


@pytest.fixture(scope="module")
def own_export():
    """The Train page's export, as a learner downloads it: max_len = task length + 2."""
    return load_checkpoint(copy_export(), None, None)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("text", [LONG_DIGITS, LONG_CHINESE])
def test_every_page_runs_the_export_on_a_long_sentence(own_export, page, text):
    at = app(page, imported_checkpoint=own_export, source=text, token_mode="char")
    assert not at.exception, at.exception
    assert not [e for e in errors(at) if "could not" in e.lower()]


def test_a_table_that_is_not_the_formula_gets_a_friendly_message():
    cfg = TransformerConfig(8, 8, N=1, d_model=8, d_ff=16, h=2, max_len=6)
    model = build_model(cfg, seed=0)
    sd = model.state_dict()
    learned = torch.randn(1, 6, 8, generator=torch.Generator().manual_seed(0))
    sd = {**sd, "src_embed.1.pe": learned, "tgt_embed.1.pe": learned}
    buf = io.BytesIO()
    torch.save(sd, buf)
    loaded = load_checkpoint(buf.getvalue(), 2, None)
    assert loaded.config.max_len == 6  # not a sinusoid table: kept as it is
    at = app("attention", imported_checkpoint=loaded, source="a b c d e f g h")
    assert not at.exception
    assert any("covers 6" in e for e in errors(at))


def test_the_h_field_starts_empty_and_the_export_loads_with_it_empty(own_export):
    at = app("attention", import_open=True)
    field = at.number_input(key="ckpt_h")
    assert field.value is None
    assert "leave empty" in field.label
    data = checkpoint_bytes(own_export.model, list(own_export.src_vocab), {})
    assert load_checkpoint(data, field.value, None).config.h == 2


# ---- Every page describes the model it runs -------------------------------------------------


@pytest.fixture(scope="module")
def wide_import():
    """A d_model = 64 checkpoint with 15 source and 25 target tokens."""
    model = make_model(15, 25, N=1, d_model=64, d_ff=128, h=4, seed=1)
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    return load_checkpoint(buf.getvalue(), 4, None)


def _main_text(at: AppTest) -> str:
    return " ".join(m.value for m in at.main.get("markdown"))


def test_the_embeddings_page_describes_the_imported_model(wide_import):
    at = app("embeddings", imported_checkpoint=wide_import, scale_embedding=False)
    assert not at.exception
    text = _main_text(at)
    assert "√64 = 8.00" in text and "√32" not in text
    assert "d_model = 64" in text and "not scaled" not in text


def test_the_model_page_names_the_checkpoints_vocabularies(wide_import):
    at = app("model", imported_checkpoint=wide_import)
    assert not at.exception
    text = _main_text(at)
    assert "15 source and 25 target tokens" in text
    assert "tokens of your sentences" not in text


def test_the_sidebar_shows_the_checkpoints_size_read_only(wide_import):
    at = app("attention", imported_checkpoint=wide_import, N=2, h=4, d_model=32)
    shown = {n.label: n.value for n in at.sidebar.number_input if n.disabled}
    assert shown["N (layers)"] == 1 and shown["d_model"] == 64 and shown["d_ff"] == 128
    at.button(key="ckpt_forget").click().run()
    assert not at.exception
    assert (at.number_input(key="N").value, at.number_input(key="d_model").value) == (2, 32)


def test_the_attention_page_says_the_weights_are_random_or_the_checkpoints(wide_import):
    at = app("attention", seed=7)
    assert any("random" in i.value and "seed 7" in i.value for i in at.info)
    at = app("attention", imported_checkpoint=wide_import)
    assert not any("random" in i.value for i in at.info)
    assert any("checkpoint" in i.value for i in at.info)
