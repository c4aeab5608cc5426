"""An imported checkpoint explored on every page (the session's own model, never shared)."""

from __future__ import annotations

import io

import pytest
import torch
from apptest_helpers import app, figure_list

from explorer.checkpoint import load_checkpoint
from explorer.context import build_context
from explorer.runs import ImportedTokens
from explorer.settings import Settings
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
