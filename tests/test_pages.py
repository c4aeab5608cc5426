"""AppTest: the Embeddings, Masks, Attention and Shapes pages render and show the right things."""

from pathlib import Path

import pytest
from apptest_helpers import PAPER_BASE, all_text, app, array, errors, figure_list
from shared_inputs import bad_input_texts

HERE = Path(__file__).resolve().parent
OWN_BAD = [  # the first is the case `make test-fast` runs (tests/conftest.py)
    "<b>bold</b> and <i>it</i>", "", "     ", "\t\n\r\n", "\u200b\u200b\ufeff",
    '<a href="https://example.com">click me</a>', '<span style="font-size:999px">huge</span>',
    "<script>alert(1)</script>", "[click](javascript:alert(1))", "&lt;b&gt; &amp;",
    "$\\alpha$ and $$x^2$$", "the cat the cat the", "我爱自然语言处理",
    "👨\u200d👩\u200d👧\u200d👦 🇨🇳", "\u202eevil text", "a" * 5000, "word " * 300, "a",
]


def bad_inputs() -> list[str]:
    return list(OWN_BAD) + bad_input_texts()


def _heatmaps(fig: dict) -> list[dict]:
    return [t for t in fig["data"] if t["type"] == "heatmap"]


def test_attention_grid_has_layers_times_heads_panels_with_token_labels():
    at = app("attention", source="the cat sat on the mat")
    assert not at.exception
    figs = figure_list(at)
    grid = figs[0]
    assert len(_heatmaps(grid)) == 2 * 4  # tiny preset: N=2, h=4
    ticks = grid["layout"]["yaxis"]["ticktext"]
    assert ticks == ["0:the", "1:cat", "2:sat", "3:on", "4:the", "5:mat"]  # repeats distinct
    # the focus view: Q, K, V, scores, masked scores, weights, weighted sum (the knock-out
    # experiment below is drawn only while open: explorer/sections/knockout.py)
    assert len(figs) == 1 + 7


def test_attention_average_and_cross_kind():
    at = app("attention", attn_average=True, attn_kind="cross", target="le chat")
    assert not at.exception
    grid = figure_list(at)[0]
    assert len(_heatmaps(grid)) == 2  # one averaged panel per layer
    assert grid["layout"]["yaxis"]["ticktext"] == ["0:&lt;s&gt;", "1:le", "2:chat"]
    assert array(_heatmaps(grid)[0]["z"]).shape == (3, 6)  # tgt_in x src


def test_decoder_self_attention_is_causal():
    at = app("attention", attn_kind="dec")
    z = array(_heatmaps(figure_list(at)[0])[0]["z"])
    for i, row in enumerate(z):
        assert all(v < 1e-6 for v in row[i + 1:])
        assert abs(sum(row) - 1) < 1e-4


def test_paper_base_renders_every_page():
    for page in ("attention", "embeddings", "masks", "shapes"):
        at = app(page, **PAPER_BASE)
        assert not at.exception, page
        assert not errors(at), (page, errors(at))
    at = app("attention", **PAPER_BASE)
    assert len(_heatmaps(figure_list(at)[0])) == 6 * 8


def test_masks_page_shows_target_length_and_seed_example():
    at = app("masks", source="a b c d e")
    assert not at.exception
    figs = figure_list(at)
    sub = array(_heatmaps(figs[0])[0]["z"])
    assert sub.shape == (6, 6)  # <s> + 5 tokens
    pad = array(_heatmaps(figs[1])[0]["z"])
    assert pad.tolist() == [[1, 1, 1, 0], [1, 1, 1, 1]]  # two sentences of lengths 3 and 4
    tgt = [array(t["z"]) for t in _heatmaps(figs[2])]
    assert tgt[0][-1].tolist() == [1, 1, 1, 0] and tgt[1][-1].tolist() == [1, 1, 1, 1]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [5, 20])
def test_the_subsequent_mask_takes_any_size_independent_of_the_target(size, lang):
    import numpy as np
    from apptest_helpers import app_in

    with app_in(lang, "masks", source="a b c", mask_size=size) as at:
        assert not at.exception and not errors(at)
        sub = array(_heatmaps(figure_list(at)[0])[0]["z"])
        assert sub.tolist() == np.tril(np.ones((size, size), dtype=int)).tolist()
        assert any(f"(1, {size}, {size})" in c.value and str(size * (size + 1) // 2) in c.value
                   for c in at.caption)
        at.number_input(key="mask_size").set_value(None).run()  # back to the sentence
        assert array(_heatmaps(figure_list(at)[0])[0]["z"]).shape == (4, 4)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_mask_larger_than_the_sentence_names_its_positions_without_tokens(lang):
    """Rows and columns past the sentence read "15:15", "16:16", as if it went on with
    numbers: they are positions without a token, and the caption says so."""
    from apptest_helpers import app_in

    from explorer.text.i18n import Text

    none = Text(lang)("fig.masks.no_token")
    with app_in(lang, "masks", source="a b c", mask_size=20) as at:
        assert not at.exception
        rows = figure_list(at)[0]["layout"]["yaxis"]["ticktext"]
        assert rows[:4] == ["0:&lt;s&gt;", "1:a", "2:b", "3:c"]  # the sentence's own tokens
        assert rows[4:] == [f"{i}:{none}" for i in range(4, 20)]
        assert any(Text(lang)("mask.sub_beyond", first=4, none=none) in c.value
                   for c in at.caption)
        at.number_input(key="mask_size").set_value(3).run()  # smaller: tokens only
        assert figure_list(at)[0]["layout"]["yaxis"]["ticktext"] == ["0:&lt;s&gt;", "1:a",
                                                                     "2:b"]


@pytest.mark.parametrize("forged", ["20", 2.5, True])
def test_a_forged_mask_size_falls_back_to_the_sentence(forged):
    # a number out of range is put in range instead (tests/test_number_boxes.py)
    at = app("masks", source="a b c", mask_size=forged)
    assert not at.exception
    assert array(_heatmaps(figure_list(at)[0])[0]["z"]).shape == (4, 4)


def test_the_inverted_fill_mistake_is_computed_on_the_learners_scores():
    import numpy as np

    from explorer.app.context import build_context
    from explorer.core.settings import Settings
    from explorer.figures.masks import EFFECT_SCORES, inverted_fill_weights, softmax_rows

    at = app("masks", source="a b c d")
    assert not at.exception
    figs = {f["layout"]["title"]["text"]: f for f in figure_list(at) if f["layout"].get("title")}
    wrong = array(next(f for k, f in figs.items() if "mask == 1" in k)["data"][0]["z"])
    scores = build_context(Settings(source="a b c d")).run().cache[EFFECT_SCORES][0, 0]
    n = scores.shape[0]
    tril = np.tril(np.ones((n, n), dtype=bool))
    expected = softmax_rows(np.where(tril, -1e9, scores))
    assert np.allclose(wrong, expected) and np.allclose(wrong, inverted_fill_weights(scores, tril))
    assert np.allclose(np.triu(wrong, k=1).sum(axis=1)[:-1], 1.0)  # only later positions are left
    assert np.allclose(wrong[-1], 1 / n)  # every key blocked: uniform
    assert any(f"1/{n} = {1 / n:.3f}" in c.value for c in at.caption)


def test_embeddings_page_defaults_reproduce_annotated_figure():
    at = app("embeddings")
    assert not at.exception
    curves = figure_list(at)[0]
    assert [t["name"] for t in curves["data"]] == [
        "dim 4 (sin)", "dim 5 (cos)", "dim 6 (sin)", "dim 7 (cos)"]
    assert len(array(curves["data"][0]["x"])) == 100
    assert any("e-" in m.value or m.value.startswith("0") for m in at.metric)


def test_shapes_table_has_one_row_per_tensor():
    at = app("shapes")
    assert not at.exception
    df = at.dataframe[0].value
    # tiny preset N=2: 3 embedding hooks x2, encoder 2x(2 sublayers x4 + 9 attn + 2 ffn) + 1,
    # decoder 2x(3x4 + 18 + 2) + 1, generator 2
    assert len(df) == 6 + 2 * (8 + 9 + 2) + 1 + 2 * (12 + 18 + 2) + 1 + 2
    assert "(batch=1, h=4, src_len=6, d_k=8)" in set(df["shape (named)"])
    assert at.get("download_button")


def test_chinese_sentence_is_split_per_character():
    at = app("attention", source="我爱自然语言处理")
    assert not at.exception
    ticks = figure_list(at)[0]["layout"]["yaxis"]["ticktext"]
    assert ticks[:3] == ["0:我", "1:爱", "2:自"] and len(ticks) == 8


def test_chinese_text_explains_why_words_and_characters_agree():
    at = app("attention", source="我爱自然语言处理")
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "without spaces" in captions
    at = app("attention", source="the cat sat")
    assert "without spaces" not in " ".join(c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("text", bad_inputs())
def test_hostile_text_never_breaks_a_page_or_becomes_markup(text):
    for field in ("source", "target"):
        at = app("attention", **{field: text})
        assert not at.exception, (field, text)
        for fig in figure_list(at):
            dumped = all_text(fig)
            for tag in ("<b>", "<a ", "<span", "<script", "<i>"):
                assert tag not in dumped, (field, text, tag)
        if errors(at):
            assert all(len(e) > 20 for e in errors(at))  # a sentence, not a code


def test_huge_grids_fall_back_to_head_averages_with_a_message():
    text = " ".join(f"w{i}" for i in range(40))
    at = app("attention", source=text, preset="custom", N=12, d_model=64, h=32, d_ff=64)
    assert not at.exception
    grid = figure_list(at)[0]
    assert len(_heatmaps(grid)) == 12  # one averaged panel per layer, not 12 x 32
    assert any("mean of the heads" in i.value for i in at.info)


NASTY = ["<b>bold</b>", '<a href="https://example.com">x</a>', "[click](javascript:alert(1))",
         '<span style="font-size:999px">huge</span>', "<script>alert(1)</script>",
         "$\\alpha$", "\u202eevil", "我爱自然语言处理", "the cat the cat", ""]


@pytest.mark.parametrize("page", ["model", "embeddings", "masks", "shapes", "train"])
def test_hostile_text_on_every_other_page(page):
    for text in NASTY:
        at = app(page, source=text)
        assert not at.exception, (page, text)
        for fig in figure_list(at):
            dumped = all_text(fig)
            if "<" in text:
                assert text not in dumped, (page, text)  # the user's markup only ever escaped


def test_no_page_uses_emoji_icons_debian_chromium_cannot_draw():
    from apptest_helpers import ROOT

    for path in [*ROOT.joinpath("pages").glob("*.py"), *ROOT.joinpath("explorer").rglob("*.py")]:
        source = path.read_text(encoding="utf-8")
        for line in source.splitlines():
            if "icon=" in line:
                value = line.split("icon=", 1)[1].strip()
                assert value.startswith(('":material/', "icon", "None")), (path.name, line)


def test_the_page_menu_is_made_once_per_session_and_again_in_another_language():
    """app.py keeps the session's st.Page objects between runs; their titles are the
    learner's language, so a language change makes them again."""
    from explorer.text.locales import en, zh

    at = app()  # app.py on "/" (a page test's app(page) runs the page alone)
    lang, pages, home = at.session_state["_nav_pages"]
    assert lang == "en" and pages[3].title == en.TEXT["nav.attention"]
    at.run()  # another run keeps the same objects
    assert at.session_state["_nav_pages"][1][3] is pages[3]
    at.selectbox(key="lang").set_value("zh").run()
    lang, pages, home = at.session_state["_nav_pages"]
    assert lang == "zh" and pages[3].title == zh.TEXT["nav.attention"]
    assert home.title == zh.TEXT["nav.model"]
    assert not at.exception
