"""Paths real learners took that went wrong (issue 15): each test failed before its fix.

Imported checkpoints on long sentences, pages that must describe the model they run, the
checkpoint form's h field, a link that equals the view, the language switch's choices, and
the notes a learner needs (random weights, Chinese tokens). AppTest throughout; what only a
browser shows is in test_e2e_links.py.
"""

from __future__ import annotations

import io

import pytest
import torch
from apptest_helpers import app, errors
from streamlit.testing.v1 import AppTest

from explorer.app.context import build_context
from explorer.app.sidebar import TRANSLATED_CHOICES
from explorer.core.checkpoint import MIN_POSITIONS, load_checkpoint
from explorer.core.exports import checkpoint_bytes
from explorer.core.settings import Settings
from explorer.text.i18n import set_lang
from explorer.training.run import ModelKey, build_model_for
from explorer.training.task import task_for
from transformer import make_model
from transformer.model import TransformerConfig, build_model

PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]
LONG_DIGITS = "3 1 4 1 5 9 2 6 5 3 5 8"  # 12 tokens: more than the export's 11 positions
LONG_CHINESE = "我今天在图书馆里读了一本关于注意力的书"  # 19 characters


@pytest.fixture(scope="module")
def own_export():
    """The Train page's export, as a learner downloads it: max_len = task length + 2."""
    set_lang("en")
    task, _ = task_for("copy", "digits", "")
    model = build_model_for(ModelKey.of(Settings(N=1, d_model=32, h=2, d_ff=64), task))
    assert model.config.max_len == task.max_len + 2 < len(LONG_DIGITS.split()) + 1
    data = checkpoint_bytes(model, list(task.vocab.itos), {"task": "copy"})
    return load_checkpoint(data, None, None)


# ---- 1. The app's own export on a longer sentence -----------------------------------------


def test_the_export_is_extended_to_every_length_the_app_reads(own_export):
    assert own_export.config.max_len == MIN_POSITIONS
    assert any("extended" in note for note in own_export.notes)
    ctx = build_context(Settings(source=LONG_CHINESE, token_mode="char"), own_export)
    assert ctx.ok and ctx.text_error is None
    run = ctx.run()
    # the export was trained on sources ending with </s>, so it reads one after the text
    assert ctx.tokens.src_tokens[-1] == "</s>"
    assert run.cache["src_embed.1.hook_out"].shape[1] == len(LONG_CHINESE) + 1


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


# ---- 4. Every page describes the model it runs ---------------------------------------------


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


# ---- 5. The checkpoint form's h ------------------------------------------------------------


def test_the_h_field_starts_empty_and_the_export_loads_with_it_empty(own_export):
    at = app("attention")
    field = at.number_input(key="ckpt_h")
    assert field.value is None
    assert "leave empty" in field.label
    data = checkpoint_bytes(own_export.model, list(own_export.src_vocab), {})
    assert load_checkpoint(data, field.value, None).config.h == 2


# ---- 7, 9. The link equals the view ---------------------------------------------------------


def test_a_layer_and_head_the_model_lost_leave_the_link():
    at = app("attention", attn_layer=1, attn_head=3)
    assert dict(at.query_params)["layer"] == "1" and dict(at.query_params)["head"] == "3"
    at.number_input(key="N").set_value(1).run()
    at.number_input(key="h").set_value(2).run()
    assert not at.exception
    assert "layer" not in at.query_params and "head" not in at.query_params
    assert (at.selectbox(key="attn_layer").value, at.selectbox(key="attn_head").value) == (0, 0)


def test_an_odd_pe_d_model_is_rounded_in_the_widget_and_the_link():
    at = app("embeddings")
    at.number_input(key="pe_d_model").set_value(7).run()
    assert not at.exception
    assert at.number_input(key="pe_d_model").value == 8
    assert dict(at.query_params)["ped"] == "8"
    assert any("rounded up to 8" in i.value for i in at.info)


@pytest.mark.parametrize(("page", "state", "link"), [
    ("attention", {"presenter": True, "attn_average": True}, {"pres": "1", "avg": "1"}),
    ("masks", {"mask_len_a": 2, "mask_len_b": 6, "mask_size": 20},
     {"la": "2", "lb": "6", "ms": "20"}),
    ("shapes", {"shape_stack": "Decoder", "shape_layer": "layer 1", "shape_attn": True},
     {"part": "Decoder", "sl": "layer 1", "sattn": "1"}),
])
def test_presenter_averaging_lengths_and_filters_travel_in_the_link(page, state, link):
    at = app(page, **state)
    assert not at.exception
    assert link.items() <= dict(at.query_params).items()
    other = AppTest.from_file(str(at._script_path), default_timeout=120)
    other.query_params.update(dict(at.query_params))
    other.switch_page(f"pages/{page}.py")
    other.run()
    assert not other.exception
    for key, value in state.items():
        assert other.session_state[key] == value, key
    assert not other.sidebar.warning


def test_the_share_box_shows_the_link_of_the_view():
    at = app("attention", attn_layer=1)
    code = [c.value for c in at.sidebar.get("code")]
    assert code == ["?layer=1"]  # AppTest has no address; the browser puts it in front


# ---- 2. Translated choices survive a language change ---------------------------------------


def _choices(at: AppTest) -> dict[str, list[str]]:
    out = {}
    for kind in ("radio", "selectbox"):
        for w in at.get(kind):
            if w.key:
                out[w.key] = list(w.options)
    return out


@pytest.mark.parametrize("page", PAGES)
def test_every_translated_choice_is_kept_on_a_language_change(page):
    english = _choices(app(page))
    chinese = _choices(app(page, lang="zh"))
    translated = {k for k in english if k in chinese and english[k] != chinese[k]}
    assert translated <= set(TRANSLATED_CHOICES), translated - set(TRANSLATED_CHOICES)
    # (AppTest itself keeps a radio's old label across a language change, so the switch is
    # tested in the browser: tests/test_e2e_links.py)


# ---- 12. What a learner must be told -------------------------------------------------------


def test_the_attention_page_says_the_weights_are_random_or_the_checkpoints(wide_import):
    at = app("attention", seed=7)
    assert any("random" in i.value and "seed 7" in i.value for i in at.info)
    at = app("attention", imported_checkpoint=wide_import)
    assert not any("random" in i.value for i in at.info)
    assert any("checkpoint" in i.value for i in at.info)


def test_chinese_text_explains_why_words_and_characters_agree():
    at = app("attention", source="我爱自然语言处理")
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "without spaces" in captions
    at = app("attention", source="the cat sat")
    assert "without spaces" not in " ".join(c.value for c in at.sidebar.caption)


def test_no_page_uses_emoji_icons_debian_chromium_cannot_draw():
    from apptest_helpers import ROOT

    for path in [*ROOT.joinpath("pages").glob("*.py"), *ROOT.joinpath("explorer").rglob("*.py")]:
        source = path.read_text(encoding="utf-8")
        for line in source.splitlines():
            if "icon=" in line:
                value = line.split("icon=", 1)[1].strip()
                assert value.startswith(('":material/', "icon", "None")), (path.name, line)
