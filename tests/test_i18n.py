"""The language tables: same keys, same placeholders, and t() picks the run's language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.i18n import LANGS, TABLES, get_lang, set_lang, t


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
    assert not missing, f"keys used in the code but not in explorer/locales/en.py: {missing}"


def test_dynamic_keys_exist():
    from explorer import introspect
    from explorer.figures.attention import KINDS

    keys = [*introspect.GROUP_KEYS.values(), *introspect.COMPONENTS.values(),
            *introspect._STACK_KEYS.values(), *introspect._SUBLAYER_KEYS.values(),
            "intro.layer_source", "intro.layer_target"]
    keys += [f"fig.attention.{part}_{kind}" for kind in KINDS for part in ("kind", "mask")]
    assert not [k for k in keys if k not in TABLES["en"]]


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
    from explorer import introspect

    assert introspect.group_label("Decoder cross-attention") == "解码器交叉注意力"
    assert introspect.group_label("<b>odd</b>") == "<b>odd</b>"  # unknown names pass through
    assert introspect.stack_label("Encoder") == "编码器"
    assert introspect.layer_label("layer 3") == "第 3 层"
    assert introspect.layer_label("source") == "源序列" and introspect.layer_label("") == ""
    assert introspect.sublayer_label("masked self-attention") == "掩码自注意力"
    assert introspect.component_summary("attention") == "缩放点积注意力"
    assert introspect.component_summary("nope") == ""


def test_shape_rows_keep_identifiers_and_translate_operations(zh):
    from explorer.introspect import shape_rows
    from transformer.model import make_model, subsequent_mask

    model = make_model(8, 8, N=1, d_model=8, d_ff=16, h=2, dropout=0.0,
                       norm_placement="post", scale_embedding=False).eval()
    _, cache = model.run_with_cache(torch.tensor([[4, 5, 6]]), torch.tensor([[1, 4]]),
                                    torch.ones(1, 1, 3, dtype=torch.bool), subsequent_mask(2))
    rows = {r.name: r for r in shape_rows({k: v.numpy() for k, v in cache.items()},
                                          model.config)}
    q = rows["decoder.layers.0.src_attn.hook_q"]
    assert (q.stack, q.layer, q.sublayer) == ("Decoder", "layer 0", "cross-attention")
    assert rows["encoder.hook_out"].op == "memory （post-norm：没有最后的归一化）"
    assert rows["src_embed.0.hook_out"].op == "lut(ids) （未缩放）"
    assert rows["encoder.layers.0.self_attn.hook_scores"].op == "Q @ K.transpose(-2, -1) / √d_k"


def test_figures_speak_chinese(zh):
    from explorer.figures.architecture import architecture_figure, parameter_chart
    from explorer.figures.attention import KINDS, attention_grid, head_matrix
    from explorer.figures.masks import batch_masks_figure, mask_figure, masking_effect_figure
    from explorer.figures.positions import pe_curves, pe_similarity, shift_matrix_figure
    from explorer.figures.shapes import head_split_figure, tensor_slice, values_figure
    from explorer.figures.training import loss_figure, noam_figure
    from transformer.model import TransformerConfig

    arch = _labels(architecture_figure(TransformerConfig(10, 10, N=2, d_model=32, d_ff=64, h=4,
                                                         tie_weights="all"), 5, 6))
    for text in ("编码器层 × 2", "解码器层 × 2", "掩码自注意力", "交叉注意力", "共享权重",
                 "+ 位置编码", "&lt;s&gt; y₁ y₂ …（右移一位）", "(1, 1, tgt_len=6, tgt_len=6)"):
        assert text in arch, text
    bars = parameter_chart({"Encoder self-attention": 10, "Source embedding": 5, "<b>x</b>": 1})
    assert list(bars.data[0].y) == ["&lt;b&gt;x&lt;/b&gt;", "源语言词嵌入", "编码器自注意力"]
    assert len(set(bars.data[0].marker.color)) == 3  # coloured by kind, whatever the language
    assert "个参数" in bars.data[0].hovertemplate

    assert KINDS["cross"].label == "交叉注意力（解码器 → 编码器）"
    w = np.full((2, 2, 3, 3), 1 / 3)
    grid = _labels(attention_grid(w, list("abc"), list("abc"), title=KINDS["enc"].label))
    assert "头 1" in grid and "第 1 层" in grid and "编码器自注意力" in grid
    assert "各头的平均" in _labels(attention_grid(w, list("abc"), list("abc"), average_heads=True))
    assert "特征 (d_k)" in _labels(head_matrix(np.ones((3, 2)), list("abc"), "Q"))

    sub = np.tril(np.ones((3, 3), dtype=bool))
    mask = mask_figure(sub, ["<s>", "a", "b"], ["<s>", "a", "b"], "t")
    assert mask.layout.yaxis.title.text == "查询（发出关注的位置）"
    assert mask.data[0].hovertemplate.startswith("查询 %{y} → 键 %{x}")
    assert "被屏蔽" in mask.data[0].customdata[0]
    assert "句子 %{y} → 位置 %{x}" in mask_figure(sub, list("abc"), list("abc"), row_noun="句子",
                                                  col_noun="位置（token）").data[0].hovertemplate
    assert "查询 %{y} → 键 %{x}" in batch_masks_figure(sub[None], [list("abc")], ["A"]).data[0] \
        .hovertemplate
    effect = masking_effect_figure(np.zeros((3, 3)), sub, list("abc"))
    assert {"分数", "不加掩码的 softmax", "加掩码的 softmax"} <= {a.text for a in
                                                             effect.layout.annotations}

    table = np.random.default_rng(0).normal(size=(10, 8))
    curves = pe_curves(table, [4, 5], "PE")
    assert [d.name for d in curves.data] == ["第 4 维 (sin)", "第 5 维 (cos)"]
    assert "%{x}" in curves.data[0].hovertemplate and "位置" in curves.data[0].hovertemplate
    assert "点积" in pe_similarity(table).data[0].hovertemplate
    assert shift_matrix_figure(np.eye(4), 2).layout.title.text.startswith("k = 2 时的 M_k")

    z, where = tensor_slice(np.zeros((1, 2, 3, 3)), 1)
    assert where == "[0, 头 1]"
    assert "行 %{customdata[0]}" in values_figure(z, None, None, "v").data[0].hovertemplate
    split = head_split_figure(np.zeros((2, 3, 4)), np.zeros((3, 8)), list("abc"))
    assert "拼接：(seq, h·d_k = d_model)" in {a.text for a in split.layout.annotations}

    assert noam_figure(16, 1.0, 100, steps=200).data[0].name.endswith("（你的设置）")
    assert loss_figure([]).layout.xaxis2.title.text == "训练步数"


# ---- Every page in Chinese (AppTest) ---------------------------------------------------------

# A page run on its own, in the session's language. AppTest runs any page other than the
# default one without app.py (Streamlit's pages/-folder mode), so this sets the language the
# way app.py does and then runs the page file.
_PAGE_IN_LANGUAGE = """
import runpy
import streamlit as st
from explorer.i18n import set_lang
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
                  "masks": "Masks", "shapes": "Shapes"}
CHINESE_PAGES = {  # page -> (title, a heading further down)
    "model": ("模型", "模块树"),
    "embeddings": ("词嵌入与位置编码", "为什么 PE(pos + k) 是 PE(pos) 的线性函数"),
    "masks": ("掩码", "同一个掩码的两种约定"),
    "shapes": ("张量形状", "拆分成多个头，再拼接回去"),
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
