"""The language tables: same keys, same placeholders, and t() picks the run's language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import numpy as np
import pytest
import torch
from apptest_helpers import app
from streamlit.testing.v1 import AppTest

from explorer.app.sidebar import TRANSLATED_CHOICES
from explorer.text.i18n import LANGS, TABLES, get_lang, plain, set_lang, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_exists_in_every_language():
    en = set(TABLES["en"])
    for lang in LANGS:
        missing = en - set(TABLES[lang])
        extra = set(TABLES[lang]) - en
        assert not missing, f"{lang} lacks {sorted(missing)}"
        assert not extra, f"{lang} has keys English lacks: {sorted(extra)}"


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_english(lang):
    for key, text in TABLES[lang].items():
        assert _fields(text) == _fields(TABLES["en"][key]), key
        assert text.strip(), key


def test_chinese_table_is_translated():
    same = [k for k, v in TABLES["zh"].items() if v == TABLES["en"][k] and any(
        c.isalpha() for c in v) and len(v) > 12 and "/" not in v]
    assert len(same) <= max(3, len(TABLES["en"]) // 20), same  # a few names may stay English


def test_t_uses_the_language_of_the_run():
    try:
        assert set_lang("zh") == "zh" and get_lang() == "zh"
        assert t("app.title") == TABLES["zh"]["app.title"]
        assert set_lang("<b>fr</b>") == "en" and t("app.title") == TABLES["en"]["app.title"]
        assert set_lang(None) == "en"
    finally:
        set_lang("en")


def test_text_is_the_text_of_one_language_and_t_reads_the_runs():
    from explorer.text.i18n import Text, sentences

    zh = Text("zh")
    assert zh("app.title") == TABLES["zh"]["app.title"] and zh == Text("zh")
    assert Text("<b>fr</b>") == Text("en") and Text(None).lang == "en"  # unknown: English
    assert zh.sentences("一。", "", "二。") == "一。二。"
    assert Text("en").sentences("One.", "", "Two.") == "One. Two."
    try:
        set_lang("zh")
        assert t("app.title") == zh("app.title") and sentences("a。", "b。") == "a。b。"
        assert Text("en")("app.title") == TABLES["en"]["app.title"]  # whatever the run's
    finally:
        set_lang("en")


# ---- Every key the code asks for exists -------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
# t("area.name") or t('area.name'), also inside f-strings; keys built at run time
# (t(f"...")) are checked in test_dynamic_keys_exist
_T_CALL = re.compile(r"""\bt\(\s*(["'])([A-Za-z]\w*(?:\.\w+)+)\1""")


def _literal_keys() -> dict[str, list[str]]:
    """Every key passed to t() as a literal in app.py, pages/ and explorer/, with its files."""
    found: dict[str, list[str]] = {}
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")),
             *sorted((ROOT / "explorer").rglob("*.py"))]
    for path in files:
        if "locales" in path.parts:
            continue
        for match in _T_CALL.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(2), []).append(str(path.relative_to(ROOT)))
    return found


def test_every_literal_key_in_the_code_exists():
    keys = _literal_keys()
    assert len(keys) > 200  # the regex still finds the calls
    missing = {k: files for k, files in keys.items() if k not in TABLES["en"]}
    assert not missing, f"keys used in the code but not in explorer/text/locales/en.py: {missing}"


def test_dynamic_keys_exist():
    from explorer.core import introspect, shape_table
    from explorer.core.kinds import KINDS

    keys = [*introspect.GROUP_KEYS.values(), *introspect.COMPONENTS.values(),
            *shape_table._STACK_KEYS.values(), *shape_table._SUBLAYER_KEYS.values(),
            "intro.layer_source", "intro.layer_target"]
    keys += [f"fig.attention.{part}_{kind}" for kind in KINDS for part in ("kind", "mask")]
    assert not [k for k in keys if k not in TABLES["en"]]


def test_keys_built_at_run_time_by_the_sidebar_train_and_checkpoint_code_exist():
    from explorer.training.run import STOP_REASONS
    from explorer.training.settings import SYMBOL_MODES
    from transformer.tasks import TASKS
    from transformer.train import SCHEDULES

    keys = [f"train.{part}_{task}" for task in TASKS for part in ("task", "rule", "pattern")]
    keys += [f"train.symbols_{mode}" for mode in SYMBOL_MODES]
    keys += [f"train.{part}_{name}" for name in SCHEDULES for part in ("schedule", "lr")]
    keys += [f"train.field.{name}" for name in ("task", "symbols", "schedule", "model",
                                                "steps", "warmup", "lr", "factor", "smoothing")]
    keys += [f"train.reason.{code}" for code in STOP_REASONS]
    keys += [f"train.which_{w}" for w in ("trained", "untrained")]
    keys += [f"train.kind_{k}" for k in ("cross", "enc")]
    keys += [f"settings.not_text_{name}" for name in ("source", "target")]
    from explorer.core.settings import PRESETS
    from explorer.state.view import PAGE_CHOICES

    keys += [f"sidebar.preset_{name.replace(' ', '_')}" for name in (*PRESETS, "custom")]
    keys += [choice.label for choice in PAGE_CHOICES]
    keys += [f"ckpt.err.{part}_{where}" for where in ("line", "token")
             for part in ("token_too_long", "duplicate")]
    keys += [f"ckpt.err.no_layers_{stack}" for stack in ("encoder", "decoder")]
    keys += [f"ckpt.err.list_size_{which}" for which in ("shared", "source", "target")]
    assert not [k for k in keys if k not in TABLES["en"]]


# Keys these files hand to t() through a variable (label tuples, notes, conditional keys):
# every quoted string that looks like one of their keys must exist.
_KEY_LITERAL = re.compile(r"""["']((?:ckpt|url|train|settings|ui)\.[A-Za-z_]\w*(?:\.\w+)*)["']""")


def test_every_key_like_string_in_the_code_exists():
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")),
             *sorted(p for p in (ROOT / "explorer").rglob("*.py") if "locales" not in p.parts)]
    found = {m.group(1): path.name for path in files
             for m in _KEY_LITERAL.finditer(path.read_text(encoding="utf-8"))}
    assert len(found) > 150
    missing = {k: f for k, f in found.items() if k not in TABLES["en"]}
    assert not missing, missing


# ---- Pure code in Chinese ------------------------------------------------------------------


@pytest.fixture
def zh():
    set_lang("zh")
    try:
        yield
    finally:
        set_lang("en")


def _labels(fig) -> str:
    return json.dumps(fig.to_plotly_json(), ensure_ascii=False, default=str)


def test_introspect_labels_follow_the_language(zh):
    from explorer.core import introspect, shape_table

    assert introspect.group_label("Decoder cross-attention") == "解码器交叉注意力"
    assert introspect.group_label("<b>odd</b>") == "<b>odd</b>"  # unknown names pass through
    assert shape_table.stack_label("Encoder") == "编码器"
    assert shape_table.layer_label("layer 3") == "第 3 层"
    assert shape_table.layer_label("source") == "源序列" and shape_table.layer_label("") == ""
    assert shape_table.sublayer_label("masked self-attention") == "掩码自注意力"
    assert introspect.component_summary("attention") == "缩放点积注意力"
    assert introspect.component_summary("nope") == ""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_component_summaries_describe_the_model_as_built(lang):
    set_lang(lang)
    try:
        _component_summaries_as_built(lang)
    finally:
        set_lang("en")


def _component_summaries_as_built(lang):
    from dataclasses import replace

    from torch import nn

    from explorer.core import introspect
    from explorer.text.i18n import TABLES
    from transformer.model import TransformerConfig, build_model

    words = TABLES[lang]
    paper = TransformerConfig(11, 11)
    built = replace(paper, norm_placement="post", scale_embedding=False)
    for name in ("Embeddings", "Encoder", "Decoder"):
        assert introspect.component_summary(name, paper) == words[f"intro.comp.{name}"]
    assert introspect.component_summary("Embeddings", built) == words[
        "intro.comp.Embeddings_unscaled"]
    assert introspect.component_summary("Encoder", built) == words["intro.comp.Encoder_post"]
    assert introspect.component_summary("Decoder", built) == words["intro.comp.Decoder_post"]
    # the model as built has exactly what the summaries say
    model = build_model(built, seed=0)
    assert isinstance(model.encoder.norm, nn.Identity) and isinstance(model.decoder.norm,
                                                                     nn.Identity)
    assert model.src_embed[0].scale == 1.0
    assert build_model(paper, seed=0).src_embed[0].scale == pytest.approx(paper.d_model ** 0.5)


def test_shape_rows_keep_identifiers_and_translate_operations(zh):
    from explorer.core.shape_table import shape_rows
    from transformer.model import make_model, subsequent_mask

    model = make_model(8, 8, N=1, d_model=8, d_ff=16, h=2, dropout=0.0,
                       norm_placement="post", scale_embedding=False).eval()
    _, cache = model.run_with_cache(torch.tensor([[4, 5, 6]]), torch.tensor([[1, 4]]),
                                    torch.ones(1, 1, 3, dtype=torch.bool), subsequent_mask(2))
    rows = {r.name: r for r in shape_rows({k: v.numpy() for k, v in cache.items()},
                                          model.config)}
    q = rows["decoder.layers.0.src_attn.hook_q"]
    assert (q.stack, q.layer, q.sublayer) == ("Decoder", "layer 0", "cross-attention")
    assert rows["encoder.hook_out"].op == "memory （后置归一化：没有最后的归一化）"
    assert rows["src_embed.0.hook_out"].op == "lut(ids) （未缩放）"
    assert rows["encoder.layers.0.self_attn.hook_scores"].op == "Q @ K.transpose(-2, -1) / √d_k"


def test_figures_speak_chinese(zh):
    from explorer.core.kinds import KINDS
    from explorer.figures.attention import attention_grid, head_matrix
    from explorer.figures.embeddings import pe_curves, pe_similarity, shift_matrix_figure
    from explorer.figures.masks import batch_masks_figure, mask_figure, masking_effect_figure
    from explorer.figures.model import architecture_figure, parameter_chart
    from explorer.figures.shapes import head_split_figure, tensor_slice, values_figure
    from explorer.figures.train import loss_figure, noam_figure
    from transformer.model import TransformerConfig

    arch = _labels(architecture_figure(TransformerConfig(10, 10, N=2, d_model=32, d_ff=64, h=4,
                                                         tie_weights="all"), 5, 6, lang="zh"))
    for text in ("编码器层 × 2", "解码器层 × 2", "掩码自注意力", "交叉注意力", "绑定的权重",
                 "+ 位置编码", "&lt;s&gt; y₁ y₂ …（右移一位）", "(1, 1, tgt_len=6, tgt_len=6)"):
        assert text in arch, text
    bars = parameter_chart({"Encoder self-attention": 10, "Source embedding": 5, "<b>x</b>": 1},
                           lang="zh")
    assert list(bars.data[0].y) == ["&lt;b&gt;x&lt;/b&gt;", "源语言词嵌入", "编码器自注意力"]
    assert len(set(bars.data[0].marker.color)) == 3  # coloured by kind, whatever the language
    assert "个参数" in bars.data[0].hovertemplate

    assert KINDS["cross"].label == "交叉注意力（解码器 → 编码器）"
    w = np.full((2, 2, 3, 3), 1 / 3)
    grid = _labels(attention_grid(w, list("abc"), list("abc"), title=KINDS["enc"].label,
                                  lang="zh"))
    assert "头 1" in grid and "第 1 层" in grid and "编码器自注意力" in grid
    assert "各头的平均" in _labels(attention_grid(w, list("abc"), list("abc"), average_heads=True,
                                                 lang="zh"))
    assert "特征 (d_k)" in _labels(head_matrix(np.ones((3, 2)), list("abc"), "Q", lang="zh"))

    sub = np.tril(np.ones((3, 3), dtype=bool))
    mask = mask_figure(sub, ["<s>", "a", "b"], ["<s>", "a", "b"], "t", lang="zh")
    assert mask.layout.yaxis.title.text == "查询"  # the whole title is longer than 3 rows
    assert mask.data[0].hovertemplate.startswith("查询 %{y} → 键 %{x}")
    assert "被屏蔽" in mask.data[0].customdata[0]
    assert "句子 %{y} → 位置 %{x}" in mask_figure(sub, list("abc"), list("abc"), row_noun="句子",
                                                  col_noun="位置（token）",
                                                  lang="zh").data[0].hovertemplate
    assert "查询 %{y} → 键 %{x}" in batch_masks_figure(sub[None], [list("abc")], ["A"],
                                                       lang="zh").data[0].hovertemplate
    effect = masking_effect_figure(np.zeros((3, 3)), sub, list("abc"), lang="zh")
    assert {"分数", "不加掩码的 softmax", "加掩码的 softmax"} <= {a.text for a in
                                                             effect.layout.annotations}

    table = np.random.default_rng(0).normal(size=(10, 8))
    curves = pe_curves(table, [4, 5], "PE", lang="zh")
    assert [d.name for d in curves.data] == ["第 4 维 (sin)", "第 5 维 (cos)"]
    assert "%{x}" in curves.data[0].hovertemplate and "位置" in curves.data[0].hovertemplate
    assert "点积" in pe_similarity(table, lang="zh").data[0].hovertemplate
    assert shift_matrix_figure(np.eye(4), 2, lang="zh").layout.title.text.startswith(
        "k = 2 时的 M_k")

    z, where = tensor_slice(np.zeros((1, 2, 3, 3)), 1, lang="zh")
    assert where == "[0, 头 1]"
    assert "行 %{y}" in values_figure(z, None, None, "v", lang="zh").data[0].hovertemplate
    split = head_split_figure(np.zeros((2, 3, 4)), np.zeros((3, 8)), list("abc"), lang="zh")
    titles = {a.text.replace("<br>", " ") for a in split.layout.annotations}  # may wrap
    assert "拼接：(seq, h·d_k = d_model)" in titles

    assert noam_figure(16, 1.0, 100, steps=200, lang="zh").data[0].name.endswith("（你的设置）")
    assert loss_figure([], lang="zh").layout.xaxis2.title.text == "训练步数"


def test_a_figure_writes_in_the_language_it_is_given_not_the_runs(zh):
    from explorer.core.shape_table import ShapeRow
    from explorer.figures.model import parameter_chart
    from explorer.figures.shapes import shape_table
    from explorer.figures.train import loss_figure

    assert get_lang() == "zh"
    assert loss_figure([], lang="en").layout.xaxis2.title.text == TABLES["en"][
        "fig.training.step_axis"]
    assert list(parameter_chart({"Source embedding": 5}, lang="en").data[0].y) == [
        "Source embedding"]
    row = ShapeRow(step=0, name="encoder.layers.1.self_attn.hook_q", stack="Encoder",
                   layer="layer 1", sublayer="self-attention", shape=(1, 2, 3, 4),
                   dims="(batch, h, src_len, d_k)", op="q", row_seq="src", col_seq="")
    en = TABLES["en"]
    assert shape_table([row], lang="en") == {
        "#": [0], en["shapes.col_part"]: [en["intro.stack.encoder"]],
        en["shapes.col_layer"]: [en["intro.layer_n"].format(n=1)],
        en["shapes.col_sublayer"]: [en["intro.sub.self_attn"]], en["shapes.col_tensor"]: ["q"],
        en["shapes.col_shape"]: ["(batch, h, src_len, d_k)"], en["shapes.col_operation"]: ["q"],
        en["shapes.col_full_name"]: ["encoder.layers.1.self_attn.hook_q"]}


# ---- Every page in Chinese (AppTest) ---------------------------------------------------------

# A page run on its own, in the session's language. AppTest runs any page other than the
# default one without app.py (Streamlit's pages/-folder mode), so this sets the language the
# way app.py does and then runs the page file.
_PAGE_IN_LANGUAGE = """
import runpy
import streamlit as st
from explorer.text.i18n import set_lang
set_lang(st.session_state.get("lang"))
runpy.run_path({path!r}, run_name="__main__")
"""


def _page(page: str, **state: object):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(_PAGE_IN_LANGUAGE.format(path=str(ROOT / "pages" / f"{page}.py")),
                             default_timeout=120)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    return at


ENGLISH_TITLES = {"model": "Model", "embeddings": "Embeddings & positional encoding",
                  "masks": "Masks", "shapes": "Shapes", "attention": "Attention",
                  "train": "Train & decode"}
CHINESE_PAGES = {  # page -> (title, a heading further down)
    "model": ("模型", "模块树"),
    "embeddings": ("词嵌入与位置编码", "为什么 PE(pos + k) 是 PE(pos) 的线性函数"),
    "masks": ("掩码", "同一个掩码的两种约定"),
    "shapes": ("张量形状", "拆分成多个头，再拼接回去"),
    "attention": ("注意力", "逐步查看一个头"),
    "train": ("训练与解码", "1. 选择一个任务"),
}


def test_model_page_in_chinese_through_app_py():
    from apptest_helpers import app

    at = app(None, lang="zh")  # the default page: app.py runs and sets the language
    assert not at.exception
    assert at.main.title[0].value == "模型"
    assert "由你的设置画出的模型结构" in [h.value for h in at.main.header]
    assert list(at.main.dataframe[0].value.columns) == ["组件", "参数量", "占比"]


@pytest.mark.parametrize("page", list(CHINESE_PAGES))
def test_page_in_chinese(page):
    from apptest_helpers import figure_list

    at = _page(page, lang="zh", source="我爱自然语言处理")
    assert not at.exception, at.exception
    assert not [e.value for e in at.main.error]
    title, heading = CHINESE_PAGES[page]
    assert at.main.title[0].value == title
    assert heading in [h.value for h in at.main.header]
    figs = figure_list(at)
    assert figs and all("<script" not in json.dumps(f) for f in figs)
    english = _page(page, source="我爱自然语言处理")  # no language chosen: English
    assert not english.exception
    assert english.main.title[0].value == ENGLISH_TITLES[page]


# ---- Messages of the pure modules in Chinese --------------------------------------------------


def test_link_notices_and_sidebar_validation_speak_chinese(zh):
    from explorer.core.settings import (
        Settings,
        architecture_problem,
        parse_settings,
        training_problem,
    )
    from explorer.state.urlstate import params_to_state

    _, notices = params_to_state({"N": "99", "train": "maybe", "tok": "<b>x</b>", "head": "9"})
    assert notices[0] == "链接中的“分词方式”没有被采用：应为以下之一：word, char。改用 \"word\"。"
    assert notices[1] == "链接中的“N（层数）”没有被采用：应为 1 到 12 之间的整数。改用 2。"
    assert notices[2] == "链接中的“训练模式”没有被采用：应为 1（开）或 0（关）。改为关闭。"
    assert notices[3].startswith("链接中的“注意力头”") and notices[3].endswith("改用页面的默认值。")
    assert all("<b>" not in n for n in notices)

    errors = parse_settings({"N": 99, "source": 3, "dropout": "x", "train_mode": "on"}).errors
    assert "N 必须在 1 到 12 之间；收到的是 99。" in errors
    assert "源句子必须是文本；收到的是 int。" in errors
    assert any(e.startswith("dropout 必须是 0 到 0.9 之间的数") for e in errors)
    assert any("一个 str 类型的值" in e for e in errors)
    big = Settings(N=12, d_model=1024, h=8, d_ff=8192)
    assert architecture_problem(big, 100).startswith("这个模型将有")
    assert "tiny" in training_problem(Settings(N=6, d_model=512, h=8, d_ff=2048), 20)


def test_training_messages_speak_chinese(zh):
    from explorer.core.settings import Settings
    from explorer.figures.train import smoothing_example
    from explorer.training.decoding import teacher_forcing_rows
    from explorer.training.run import ModelKey, stop_reason_text
    from explorer.training.settings import parse_train_settings
    from explorer.training.task import parse_sequence, task_for

    task, note = task_for("copy", "words", "the the")
    assert note == "你的句子中不同的词少于 2 个，不足以构成任务的符号，所以改用数字。"
    assert parse_sequence("1 x 2", task)[1] == (
        "只能使用 0 到 9 的数字，并用空格分隔；第 2 个符号不是数字。")
    assert parse_sequence("", task)[1] == "请至少输入一个符号，例如 3 1 4 1 5。"
    errors = parse_train_settings({"task": "<b>", "steps": 1, "batch_size": 7}).errors
    assert list(errors) == ["任务必须是以下之一：“复制”、“反转”、“排序”、“日期 → ISO”；"
                            "改用“复制”。",
                            "训练步数必须是 50 到 2000 之间的整数；改用 1000。",
                            "批大小必须是以下之一：16, 32, 64, 128；改用 128。"]
    assert list(teacher_forcing_rows(task, ["1", "2"])) == [
        "位置", "解码器输入 (tgt)", "要预测的标签 (tgt_y)"]
    assert smoothing_example(0.1, lang="zh")[1][0].startswith("标签 ")
    assert ModelKey.of(Settings(), task).describe().startswith(
        "任务：复制；符号：数字；N=2，d_model=32")
    assert stop_reason_text("time_limit") == "达到了 120 秒的时间上限"
    assert stop_reason_text("stop_button") == "点击了“停止”按钮"
    assert stop_reason_text("<b>own text</b>") == "<b>own text</b>"  # not a code: as it is


def test_checkpoint_errors_and_notes_follow_the_language():
    import io

    from explorer.core.checkpoint import CheckpointError, load_checkpoint
    from transformer.model import make_model

    buffer = io.BytesIO()
    torch.save(make_model(11, 11, N=1, d_model=16, d_ff=32, h=2).state_dict(), buffer)
    loaded = load_checkpoint(buffer.getvalue(), 2, None)  # loaded in English...
    english = loaded.notes
    assert any("tok0" in n for n in english)
    set_lang("zh")
    try:
        notes = loaded.notes  # ...read in Chinese: the notes follow the learner's language
        assert notes != english and any("token 按 id 命名为 tok0" in n for n in notes)
        with pytest.raises(CheckpointError) as info:
            load_checkpoint(b"", 2, None)
        assert str(info.value) == "文件是空的。请选择一个用 torch.save 保存的检查点。"
        with pytest.raises(CheckpointError) as info:
            load_checkpoint(buffer.getvalue(), 3, None)
        assert str(info.value).startswith("h = 3 不可用：h 必须整除 d_model = 16")
        with pytest.raises(CheckpointError) as info:
            load_checkpoint(buffer.getvalue(), 2, "a\nb\n")
        assert str(info.value).startswith(
            "共享 token 列表有 2 个 token，而检查点的共享词表有 11 个")
    finally:
        set_lang("en")


# ---- The sidebar, the Attention page and the Train page in Chinese (AppTest) ---------------


def test_sidebar_in_chinese_through_app_py():
    from apptest_helpers import app

    at = app(None, lang="zh", tokens_open=True, import_open=True)  # drawn while open
    assert not at.exception
    assert at.sidebar.text_input(key="source").label == "源句子"
    assert at.sidebar.selectbox(key="preset").label == "模型规模"
    assert [m.label for m in at.sidebar.metric] == ["参数量"]
    labels = [e.label for e in at.sidebar.expander]
    assert "教学选项" in labels and "查看你自己的检查点" in labels
    assert labels[-2].startswith("模型看到的 token") and labels[-1].startswith("术语表")
    assert list(at.sidebar.dataframe[0].value.columns) == ["源 token", "id"]
    assert at.sidebar.button(key="ckpt_load").label == "加载检查点"
    english = app(None, import_open=True)
    assert english.sidebar.text_input(key="source").label == "Source sentence"
    assert english.sidebar.button(key="ckpt_load").label == "Load checkpoint"


def test_link_notices_are_in_the_language_the_link_asks_for():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lang": "zh", "N": "99"})
    at.run()
    assert not at.exception
    assert [w.value for w in at.sidebar.warning] == [
        "链接中的“N（层数）”没有被采用：应为 1 到 12 之间的整数。改用 2。"]


def test_train_page_in_chinese_after_training(zh):
    # zh: AppTest formats the widgets' values again in the test's thread when it sends a click
    at = _page("train", lang="zh", tr_steps=50, tr_batch=16)
    assert not at.exception, at.exception
    assert at.button(key="tr_train").label == "训练"
    at.button(key="tr_train").click().run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.main.metric}
    assert metrics["步数"] == "50 / 50" and metrics["整序列准确率"].endswith("%")
    assert at.radio(key="tr_which_shown").value == "trained"  # values stay identifiers
    headers = [h.value for h in at.main.header]
    assert "3. 逐步解码" in headers and "4. 训练前后的注意力" in headers
    assert not [e.value for e in at.main.error]


def test_percent_never_reads_as_all_or_nothing_when_it_is_not():
    from explorer.text.i18n import percent

    assert percent(0.985) == "98.5%"  # the date task's stop share, not "98%"
    assert percent(199 / 200) == "99.5%"  # one wrong of 200 is not "100%"
    assert percent(0.97) == "97%" and percent(0.8) == "80%"
    assert percent(1.0) == "100%" and percent(0.0) == "0%"
    assert percent(0.9996) == "99.9%" and percent(0.0004) == "0.1%"


PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]


# ---- Translated choices survive a language change (AppTest) ---------------------------------


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


@pytest.mark.parametrize("text", ["1:cat: and 3:on:", ":material/home:", ":red[x]",
                                  ":blue-background[y] z", "+1:+1:"])
def test_plain_text_draws_no_emoji_icon_or_colour_for_a_learners_shortcode(text):
    """Streamlit's markdown draws ":cat:" as an emoji and ":red[x]" in red, escapes or not:
    `plain` breaks each such colon with a word joiner, and the text reads as typed."""
    shown = plain(text)
    assert not re.search(r":[\w+/-]+(:|\\\[)", shown)
    assert shown.replace("\u2060", "").replace("\\", "") == text
