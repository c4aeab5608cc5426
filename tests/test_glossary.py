"""The bilingual glossary (explorer/glossary.py), the Chinese table that follows it, and the
errors of transformer/ in the learner's language."""

from __future__ import annotations

import pytest
from apptest_helpers import app
from shared_inputs import bad_input_items

from explorer.glossary import GLOSSARY, glossary_rows, misused_terms
from explorer.i18n import TABLES, set_lang, t
from transformer.model import TransformerConfig
from transformer.tokenize import TokenizeError, tokenize

# ---- The glossary itself ---------------------------------------------------------------------


def test_every_entry_has_both_terms_and_both_notes():
    assert len(GLOSSARY) >= 15
    for term in GLOSSARY:
        assert term.en.strip() and term.zh.strip(), term
        assert term.note_en.strip() and term.note_zh.strip(), term
        assert term.zh not in term.avoid, term  # the chosen word is never forbidden


def test_english_terms_are_unique():
    names = [term.en.lower() for term in GLOSSARY]
    assert len(names) == len(set(names))


def test_the_decisions_the_issue_asks_for():
    chosen = {term.en: term for term in GLOSSARY}
    assert chosen["token"].zh == "token" and "词元" in chosen["token"].avoid
    assert chosen["teacher forcing"].zh == "教师强制"
    assert chosen["pre-norm"].zh == "前置归一化" and chosen["post-norm"].zh == "后置归一化"
    assert chosen["weight tying"].zh == "权重绑定" and "权重共享" in chosen["weight tying"].avoid
    assert chosen["padding"].zh == "填充" and chosen["batch"].zh == "批"
    assert chosen["(random) seed"].zh == "随机种子"
    assert chosen["encoder stack / decoder stack"].zh == "编码器栈 / 解码器栈"
    assert chosen["training recipe"].zh == "训练方案" and "配方" in chosen["training recipe"].avoid
    assert chosen["smoothed target distribution"].zh == "平滑后的目标分布"


# ---- The Chinese table follows it ----------------------------------------------------------


def test_no_chinese_text_uses_a_forbidden_variant():
    found = {key: bad for key, text in TABLES["zh"].items() if (bad := misused_terms(text))}
    assert not found, found


def test_the_scan_finds_variants_but_allows_code_and_explanations():
    assert misused_terms("模型看到的词元") == ["词元"]
    assert misused_terms("每个堆叠的最后") == ["堆叠"]
    assert misused_terms("训练时一次性输入（Teacher Forcing）") == ["teacher forcing"]
    assert misused_terms("**Pre-norm**：每个子层") == ["pre-norm"]
    assert misused_terms("屏蔽 padding") == ["padding"]
    assert misused_terms("未训练（seed 0）") == ["seed"]
    assert misused_terms("填充（padding）与掩码；教师强制（teacher forcing）") == []
    assert misused_terms("`torch.manual_seed(0)` 和 {seed}") == []


def test_terms_the_issue_names_are_used_in_chinese():
    zh = TABLES["zh"]
    assert "教师强制" in zh["mask.sub_text"] and "教师强制" in zh["fig.training.accuracy_name"]
    assert zh["model.norm_pre"].startswith("**前置归一化（pre-norm）**")
    assert zh["model.norm_post"].startswith("**后置归一化（post-norm）**")
    assert zh["fig.arch.post_norm_1"].startswith("后置归一化")
    assert zh["sidebar.tie_weights"] == "权重绑定"
    assert zh["model.metric_enc"] == "编码器栈" and zh["model.metric_dec"] == "解码器栈"
    assert "训练方案" in zh["train.model_recipe"]
    assert "随机种子" in zh["train.untrained_title"] and "随机种子" in zh["train.describe"]
    assert "大小为 1 的维度会被广播" in zh["mask.heads_text"]
    assert "平滑后的目标分布" in zh["fig.training.smoothing_title"]


# ---- Shown to learners, in both languages --------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_glossary_expander_is_the_last_thing_in_the_sidebar(lang):
    at = app(None, lang=lang)
    assert not at.exception, at.exception
    title = TABLES[lang]["glossary.title"]
    expanders = [e for e in at.sidebar.expander if e.label == title]
    assert len(expanders) == 1 and at.sidebar.expander[-1].label == title
    table = expanders[0].dataframe[0].value
    heads = [TABLES[lang][f"glossary.col_{c}"] for c in ("en", "zh", "note", "avoid")]
    assert list(table.columns) == heads
    assert len(table) == len(GLOSSARY)
    assert "teacher forcing" in list(table[heads[0]]) and "教师强制" in list(table[heads[1]])
    notes = " ".join(table[heads[2]])
    assert ("词元" in notes) if lang == "zh" else ("tokenizer" in notes)


def test_glossary_rows_follow_the_language():
    try:
        set_lang("zh")
        rows = glossary_rows()
        assert list(rows) == ["English", "中文", "说明", "中文里不用"]
        assert rows["说明"][0] == GLOSSARY[0].note_zh
    finally:
        set_lang("en")
    assert glossary_rows()["Note"][0] == GLOSSARY[0].note_en


# ---- Errors of transformer/ in the learner's language -------------------------------------


def _refused_text() -> str:
    """A shared hostile text the tokenizer refuses (blank once invisible characters go)."""
    for item in bad_input_items():
        if item["name"] == "zero-width only":
            return item["text"]
    return "\u200b\u200b\ufeff"  # the same case, when ../shared/ is absent


def test_tokenizer_errors_carry_a_code_and_say_the_same_in_english():
    cases = [("", "word", 64), ("\u200b", "char", 64), ("a b c", "word", 2), ("x" * 1001,
             "word", 64), ("a", "morse", 64), ("a", "word", 0), (b"bytes", "word", 64)]
    for text, mode, limit in cases:
        with pytest.raises(TokenizeError) as info:
            tokenize(text, mode, limit)  # type: ignore[arg-type]
        err = info.value
        assert err.key in TABLES["en"] and err.key in TABLES["zh"], err.key
        assert t(err.key, **err.values) == str(err)  # English: the message as it was


@pytest.mark.parametrize("fields", [{"d_model": 30, "h": 4}, {"d_model": 31, "h": 1},
                                    {"d_model": 32, "h": 3}, {"N": 0}, {"dropout": 1.5},
                                    {"norm_placement": "middle"}, {"scale_embedding": 1},
                                    {"tie_weights": "all", "tgt_vocab": 9}])
def test_config_errors_carry_a_code_and_say_the_same_in_english(fields):
    from transformer.model import ConfigError

    args = {"src_vocab": 8, "tgt_vocab": 8, "N": 1, "d_model": 16, "h": 2, "d_ff": 32, **fields}
    with pytest.raises(ConfigError) as info:
        TransformerConfig(**args)
    err = info.value
    assert isinstance(err, ValueError) and err.key in TABLES["zh"]
    assert t(err.key, **err.values) == str(err)
    try:
        set_lang("zh")
        assert t(err.key, **err.values) != str(err)
    finally:
        set_lang("en")


def test_a_refused_text_is_explained_in_chinese_on_the_page():
    text = _refused_text()
    at = app("attention", lang="zh", source=text)
    assert not at.exception, at.exception
    shown = [e.value for e in at.main.error] + [e.value for e in at.sidebar.error]
    expected = "源句子：" + TABLES["zh"]["tokenize.empty"]
    assert any(expected in message for message in shown), shown
    english = app("attention", source=text)
    shown = [e.value for e in english.main.error]
    assert any("Source sentence: The text is empty (after removing spaces" in m for m in shown)


def test_a_refused_target_names_the_target_in_chinese():
    at = app("masks", lang="zh", source="a b", target="x " * 65)
    assert not at.exception, at.exception
    shown = [e.value for e in at.main.error]
    assert any("目标句子：这段文本有 65 个 token，上限是 64" in m for m in shown), shown


def test_a_model_the_settings_cannot_build_is_explained_in_chinese():
    at = app("model", lang="zh", preset="custom", d_model=30, h=4)
    assert not at.exception, at.exception
    shown = [e.value for e in at.main.error] + [e.value for e in at.sidebar.error]
    assert any("d_model（30）必须能被 h（4）整除" in m for m in shown), shown


def test_the_train_pages_model_check_and_a_checkpoint_speak_chinese_too():
    """`architecture_problem` (the Train page's check) and a checkpoint whose shapes make no
    model both give the model's refusal in the learner's language."""
    from explorer.settings import Settings, architecture_problem

    try:
        set_lang("zh")
        zh = architecture_problem(Settings(d_model=30, h=4), 12)
    finally:
        set_lang("en")
    en = architecture_problem(Settings(d_model=30, h=4), 12)
    assert en and zh and zh != en
    assert any("\u4e00" <= c <= "\u9fff" for c in zh)
