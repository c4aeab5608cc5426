"""The bilingual glossary (explorer/text/glossary.py), the Chinese table that follows it, and the
errors of transformer/ in the learner's language."""

from __future__ import annotations

import json

import pytest
from apptest_helpers import app
from shared_inputs import bad_input_items

from explorer.text.glossary import GLOSSARY, glossary_rows, misnamed_pages, misused_terms
from explorer.text.i18n import TABLES, set_lang, t
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


def test_the_chosen_chinese_words_of_the_core_concepts():
    chosen = {term.en: term for term in GLOSSARY}
    assert chosen["token"].zh == "token" and "词元" in chosen["token"].avoid
    assert chosen["teacher forcing"].zh == "教师强制"
    assert chosen["pre-norm"].zh == "前置归一化" and chosen["post-norm"].zh == "后置归一化"
    assert chosen["weight tying"].zh == "权重绑定" and "权重共享" in chosen["weight tying"].avoid
    assert chosen["padding"].zh == "填充" and chosen["batch"].zh == "批"
    assert chosen["(random) seed"].zh == "随机种子"
    assert chosen["encoder stack / decoder stack"].zh == "编码器 / 解码器"
    assert {"编码器栈", "解码器栈", "堆叠"} <= set(chosen["encoder stack / decoder stack"].avoid)
    ablation = chosen["knock-out (ablation)"]
    assert ablation.zh == "消融" and "敲除" in ablation.avoid
    assert chosen["training recipe"].zh == "训练方案" and "配方" in chosen["training recipe"].avoid
    assert chosen["smoothed target distribution"].zh == "平滑后的目标分布"


def test_one_chinese_word_per_concept():
    """One Chinese word per concept: each concept below came in two forms."""
    chosen = {term.en: term for term in GLOSSARY}
    decisions = {  # English term: (the Chinese term, the forms it replaced)
        "layer normalisation (LayerNorm)": ("层归一化", ("LayerNorm",)),
        "residual connection": ("残差连接", ("残差通路", "残差路径")),
        "masked_fill's fill": ("写入", ("填成",)),
        "accuracy": ("准确率", ("正确率",)),
        "exact(-sequence) accuracy": ("整序列准确率", ("完全正确率",)),
        "date translator": ("日期翻译器", ("翻译模型",)),
        "(code) walk-through": ("代码讲解", ("教程",)),
        "(date) style": ("格式", ("样式",)),
        "one-hot": ("one-hot", ("独热",)),
    }
    for en, (zh, rejected) in decisions.items():
        assert chosen[en].zh == zh and set(rejected) <= set(chosen[en].avoid), en
    assert chosen["padding"].zh == "填充"  # padding only: masked_fill's fill is 写入
    assert [m.shown for m in chosen["masked_fill's fill"].misuses] == ["填充（指 masked_fill）"]
    assert chosen["loss"].zh == "损失" and chosen["loss"].misuses[0].keys == "ko."
    assert chosen["warm-up"].misuses and chosen["warm-up"].zh == "预热"


# Each concept below came in several forms; a rejected form seen in the text, and what the scan
# names it.
REJECTED_FORMS = {
    "blocked (by a mask)": [("**填充掩码**遮住 `<pad>` token", "遮住"),
                            ("后续位置掩码挡住的每一对", "挡住")],
    "weight tying": [("让两个词嵌入层和输出层共享同一个权重矩阵", "共享、共用（指绑定的权重）"),
                     ("参数总量（共享的张量只算一次）", "共享、共用（指绑定的权重）"),
                     ("即使两个模块共享它", "共享、共用（指绑定的权重）"),
                     ("5000 × 512 的共享表再加 2.6M", "共享、共用（指绑定的权重）"),
                     ("让源语言和目标语言共用一张词嵌入表", "共享、共用（指绑定的权重）"),
                     ("让两个词嵌入和输出层共用一张表", "共享、共用（指绑定的权重）")],
    "forward pass": [("检验只做一次教师强制的前向计算", "前向计算")],
    "source sentence / target sentence": [
        ("源句", "源句、目标句（写全：源句子、目标句子）"),
        ("使用你的目标句：", "源句、目标句（写全：源句子、目标句子）"),
        ("（目标句要算上 <s>）", "源句、目标句（写全：源句子、目标句子）")],
    "(training) example": [("六个随机的训练样例", "样例")],
    "model size": [("按你现在的大小，它与这个模型的区别如下", "大小（指模型规模）"),
                   ("在这个大小和预算下", "大小（指模型规模）")],
    "later positions": [("包括未来的位置", "未来"), ("未来的信息还会漏过来一点吗", "未来")],
    "exact(-sequence) accuracy": [
        ("（完全正确 {greedy_bad}，对比 {greedy_ok}）", "完全正确（指整序列准确率）"),
        ("完全正确的序列是 {greedy_bad}", "完全正确（指整序列准确率）"),
        ("只有 {greedy_bad} 的序列完全正确", "完全正确（指整序列准确率）")],
    "accuracy": [("{answered} 人作答，答对率 {right}", "答对率")],
    "loss": [("所以不带偏置的结构几乎没有损失", "损失（指代价：“几乎没有损失”）")],
    "batch": [("Q：batch、头、位置、d_k", "batch（中文列举里写“批”“批大小”）"),
              ("只需 batch、头数和 d_k 相同", "batch（中文列举里写“批”“批大小”）"),
              ("48 个句子组成的 Batch，以及", "batch（中文列举里写“批”“批大小”）")],
    "knock-out (ablation)": [("敲除一个头", "敲除"),
                             ("动手试试：关掉一个头或一个子层", "关掉（指消融一个头或子层）")],
    "encoder stack / decoder stack": [("编码器栈和解码器栈共有", "编码器栈")],
}


@pytest.mark.parametrize("en", sorted(REJECTED_FORMS))
def test_each_rejected_form_of_a_concept_fails_the_scan(en):
    """Every rejected form seen in the text beside the chosen word is named by the scan, in a
    sample text and in a table value (the scan the Chinese table goes through)."""
    chosen = {term.en: term for term in GLOSSARY}
    term = chosen[en]
    shown = set(term.avoid) | {m.shown for m in term.misuses}
    for text, name in REJECTED_FORMS[en]:
        assert name in shown, (en, name)
        assert name in misused_terms(text, "model.sample"), (text, name)
        table = {"sample.key": f"前文。{text}。后文"}
        found = {key: bad for key, value in table.items() if (bad := misused_terms(value, key))}
        assert name in found.get("sample.key", []), (text, found)


def test_the_chosen_words_and_their_neighbours_pass_the_scan():
    """The chosen word, and the same characters used for another idea, are not flagged."""
    allowed = [
        "掩码屏蔽后面的位置；被屏蔽的分数", "权重绑定：绑定的张量只算一次",
        "占满共享服务器的内存；共享词表；共享 token 列表；源语言和目标语言共用一个词表",
        "看这个模型的所有人共用同一份模型", "一次前向传播", "源句子和目标句子", "训练样本",
        "模型规模；批大小为 2；同样大小的掩码；掩码的大小；大小为 1 的维度会被广播",
        "整序列准确率；整个答案（直到 </s>）完全正确的比例；即使预测完全正确也只能得到 0.1",
        "只有 3 个序列完全正确；3 个完全正确的序列",
        "训练损失照样下降；填充不产生损失",
        "形状 (batch, seq, d_model)，batch = 1；一批（batch）句子",
        "`batch.ntokens`；Q：批、头、位置、d_k", "消融（ablation）一个头；关掉 dropout",
        "编码器和解码器的最后；编码器的 N 层",
    ]
    for text in allowed:
        assert misused_terms(text, "model.sample") == [], text


# ---- The Chinese table follows it ----------------------------------------------------------


def test_no_chinese_text_uses_a_forbidden_variant():
    found = {key: bad for key, text in TABLES["zh"].items() if (bad := misused_terms(text, key))}
    assert not found, found


def test_every_page_is_named_by_its_title():
    titles = [TABLES["zh"][key] for key in TABLES["zh"] if key.startswith("nav.")]
    assert "训练与解码" in titles and misnamed_pages("本应用“训练”页导出的检查点") == ["训练"]
    assert misnamed_pages("去“训练与解码”页训练，“张量形状”页列出了全部张量") == []
    found = {key: bad for key, text in TABLES["zh"].items() if (bad := misnamed_pages(text))}
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
    # LayerNorm as a Chinese noun, but not as code
    assert misused_terms("两种 LayerNorm 公式") == ["LayerNorm"]
    assert misused_terms("用的是哪种 LayerNorm？") == ["LayerNorm"]
    assert misused_terms("本应用的 `LayerNorm`；nn.LayerNorm（PyTorch）；LayerNorm(x + Sublayer(x))"
                         "；来自 LayerNorm(x)；层归一化（LayerNorm）") == []
    # 填充 is padding; writing −1e9 with masked_fill is 写入
    fill = "填充（指 masked_fill）"
    assert misused_terms("正确的填充是 `masked_fill(mask == 0, -1e9)`。") == [fill]
    assert misused_terms("再用 `masked_fill(mask == 1, -1e9)` 填充的错误") == [fill]
    assert misused_terms("用了另一种约定的填充") == [fill]
    assert misused_terms("空白的格子被掩码填成了 −1e9。") == ["填成"]
    assert misused_terms("执行 `scores.masked_fill(mask == 0, -1e9)`。**填充掩码**屏蔽 `<pad>`，"
                         "较短的句子用 `<pad>` 填充。") == []
    assert misused_terms("再用 `masked_fill(mask == 1, -1e9)` 写入 −1e9 的错误") == []
    # 损失 is the training loss, not the accuracy a knock-out loses
    lost = "损失（指消融后准确率的下降）"
    assert misused_terms("损失的准确率", "ko.fig_lost") == [lost]
    assert misused_terms("训练损失照样下降", "mask.mistake_text") == []
    # accuracy, exact accuracy, and the other pairs
    assert misused_terms("完全正确率，完整模型") == ["正确率", "完全正确率"]
    assert misused_terms("只有 3 个序列完全正确；token 准确率") == []
    assert misused_terms("残差通路绕过层归一化；没有残差路径") == ["残差通路", "残差路径"]
    assert misused_terms("应用自带的日期翻译模型") == ["翻译模型"]
    assert misused_terms("有些教程；softmax 越接近独热的权重；别的样式") == ["独热", "样式", "教程"]
    # warmup with a number in Chinese prose (not inside a call such as rate(...))
    warm = "warmup 3000（正文写“预热 3000 步”）"
    assert misused_terms("基础学习率 1.0、warmup 3000。") == [warm]
    assert misused_terms("lr 0.5 × rate(factor 1, warmup 400)；前 warmup_steps = 4000 步") == []


def test_the_chosen_terms_are_used_in_the_chinese_text():
    zh = TABLES["zh"]
    assert "教师强制" in zh["mask.sub_text"] and "教师强制" in zh["fig.training.accuracy_name"]
    assert zh["model.norm_pre"].startswith("**前置归一化（pre-norm）**")
    assert zh["model.norm_post"].startswith("**后置归一化（post-norm）**")
    assert zh["fig.arch.post_norm_1"].startswith("后置归一化")
    assert zh["sidebar.tie_weights"] == "权重绑定"
    assert zh["model.metric_enc"] == "编码器" and zh["model.metric_dec"] == "解码器"
    assert "训练方案" in zh["train.model_recipe"]
    assert "随机种子" in zh["train.untrained_title"] and "随机种子" in zh["train.describe"]
    assert "大小为 1 的维度会被广播" in zh["mask.heads_text"]
    assert "平滑后的目标分布" in zh["fig.training.smoothing_title"]
    assert zh["model.alt_part_ln"] == "层归一化" and "残差连接" in zh["model.norm_pre"]
    assert zh["ko.fig_lost"] == "准确率下降" and zh["ko.acc_intact"].startswith("整序列准确率")
    assert zh["exp.row_greedy"] == "贪心解码的整序列准确率"
    assert "写入 −1e9" in zh["mask.mistake_text"] and "预热 3000 步" in zh["train.noam_text"]
    assert zh["train.which_shipped"] == "应用自带的日期翻译器"
    assert "“训练与解码”页" in zh["ckpt.h_help"] and "one-hot" in zh["exp.what.smoothing"]


# ---- Shown to learners, in both languages --------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_glossary_expander_is_the_last_thing_in_the_sidebar(lang):
    at = app(None, lang=lang, glossary_open=True)  # drawn while open
    assert not at.exception, at.exception
    title = TABLES[lang]["glossary.title"]
    expanders = [e for e in at.sidebar.expander if e.label == title]
    assert len(expanders) == 1 and at.sidebar.expander[-1].label == title
    table = expanders[0].dataframe[0].value
    # no column pinned in a narrow width: a phone's sidebar cut both terms short
    config = json.loads(expanders[0].dataframe[0].proto.columns or "{}")
    assert not any(c.get("pinned") or "width" in c for c in config.values())
    # the term in the learner's language first: a phone's sidebar shows that column whole
    terms = ("zh", "en") if lang == "zh" else ("en", "zh")
    heads = [TABLES[lang][f"glossary.col_{c}"] for c in (*terms, "note", "avoid")]
    assert list(table.columns) == heads
    assert len(table) == len(GLOSSARY)
    english, chinese = TABLES[lang]["glossary.col_en"], TABLES[lang]["glossary.col_zh"]
    assert "teacher forcing" in list(table[english]) and "教师强制" in list(table[chinese])
    notes = " ".join(table[heads[2]])
    assert ("词元" in notes) if lang == "zh" else ("tokenizer" in notes)


def test_glossary_rows_follow_the_language():
    try:
        set_lang("zh")
        rows = glossary_rows()
        assert list(rows) == ["中文", "English", "说明", "中文里不用"]
        assert rows["说明"][0] == GLOSSARY[0].note_zh
    finally:
        set_lang("en")
    assert glossary_rows()["Note"][0] == GLOSSARY[0].note_en
    assert list(glossary_rows()) == ["English", "中文", "Note", "Not used in Chinese"]


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
    from transformer.config import ConfigError

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
    from explorer.core.settings import Settings, architecture_problem

    try:
        set_lang("zh")
        zh = architecture_problem(Settings(d_model=30, h=4), 12)
    finally:
        set_lang("en")
    en = architecture_problem(Settings(d_model=30, h=4), 12)
    assert en and zh and zh != en
    assert any("\u4e00" <= c <= "\u9fff" for c in zh)


def test_the_sidebar_tables_are_built_only_while_their_expanders_are_open():
    """A closed expander's table would still be written as Arrow bytes on every run."""
    at = app(None)
    assert not at.exception, at.exception
    assert not at.sidebar.dataframe
    assert at.sidebar.expander[-1].label == TABLES["en"]["glossary.title"]  # there, closed
    at.session_state["glossary_open"] = True
    at.run()
    assert len(at.sidebar.dataframe) == 1
