"""An imported checkpoint explored on every page (the session's own model, never shared)."""

from __future__ import annotations

import io

import pytest
import torch
from apptest_helpers import app, figure_list

from explorer.app.context import build_context
from explorer.core.checkpoint import load_checkpoint
from explorer.core.runs import ImportedTokens
from explorer.core.settings import Settings
from transformer import make_model

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


# ---- The Train page decodes with the imported checkpoint (issue 10, part 1) ----------------


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
        assert at.radio(key="tr_which").value == "imported"
        shown = [c.value for c in at.code]
        assert "the cat sat on the <unk>" in shown
        assert t("train.imported_caption") in [c.value for c in at.caption]
        assert at.slider(key="tr_step").value >= 1  # the step view of the import's decoding
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
    assert at.radio(key="tr_which").value == "imported"
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
    at = app(lang="zh")
    styles = [m.value for m in at.markdown if "stFileUploaderDropzone" in m.value]
    assert styles and TABLES["zh"]["ckpt.upload_button"] in styles[0]
