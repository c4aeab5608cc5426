"""The attention heatmaps' text alternative: a sentence per query row of the focused head
(its strongest key and weight, and the next), and the grid of every layer and head as a
table, read from the same weights the charts draw, in both languages, with the learner's
tokens shown as written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from apptest_helpers import app, app_in, array
from shared_inputs import bad_input_texts

from explorer.figures.attention import grid_table, strongest_keys, weights_text
from explorer.figures.embeddings import pe_curves_text
from explorer.figures.masks import mask_text
from explorer.text.i18n import plain, set_lang
from transformer.model import sinusoid_table, subsequent_mask


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_lang("en")


def test_each_rows_strongest_key_is_its_largest_weight_and_ties_go_to_the_earlier_key():
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(5), size=4)  # (q_len, k_len), rows sum to 1
    weights[3] = [0.4, 0.1, 0.4, 0.05, 0.05]  # a tie: the earlier key
    found = strongest_keys(weights)
    for s, row in zip(found, weights, strict=True):
        assert s.weight == row.max() and row[s.key] == row.max()
        assert s.second_weight == np.sort(row)[-2] and s.second != s.key
    assert (found[3].key, found[3].second) == (0, 2)
    single = strongest_keys(np.ones((2, 1)))
    assert [(s.key, s.second) for s in single] == [(0, None), (0, None)]


@pytest.mark.parametrize("lang, says", [("en", "attends most to key"), ("zh", "最关注键")])
def test_the_sentences_name_each_query_its_strongest_key_and_the_share(lang, says):
    weights = np.array([[0.7, 0.2, 0.1], [0.05, 0.15, 0.8]])
    lines = weights_text(weights, ["a", "b"], ["x", "y", "z"], lang)
    assert len(lines) == 2 and all(says in line for line in lines)
    assert "0 \u201ca\u201d" in lines[0] and "0 \u201cx\u201d" in lines[0] and "70%" in lines[0]
    assert "1 \u201cy\u201d" in lines[0] and "20%" in lines[0]  # the next
    assert "2 \u201cz\u201d" in lines[1] and "80%" in lines[1]


def test_the_grid_table_has_a_row_per_layer_head_and_query_or_the_heads_mean():
    rng = np.random.default_rng(1)
    weights = rng.dirichlet(np.ones(4), size=(2, 3, 5))  # (N, h, q_len, k_len)
    q_tok, k_tok = list("abcde"), list("wxyz")
    rows = grid_table(weights, q_tok, k_tok, "en")
    assert len(rows) == 2 * 3 * 5
    assert list(rows[0]) == ["Layer", "Head", "Query", "Strongest key", "Weight"]
    for r in rows:
        layer, head, query = int(r["Layer"]), int(r["Head"]), int(r["Query"].split()[0])
        assert int(r["Strongest key"].split()[0]) == int(weights[layer, head, query].argmax())
    mean = grid_table(weights, q_tok, k_tok, "zh", average_heads=True)
    assert len(mean) == 2 * 5 and {r["头"] for r in mean} == {"各头平均"}
    assert int(mean[6]["最关注的键"].split()[0]) == int(weights[1].mean(axis=0)[1].argmax())


def test_hostile_tokens_stay_text():
    for text in bad_input_texts():
        tokens = text.split()[:6] or ["x"]
        n = len(tokens)
        lines = weights_text(np.full((n, n), 1 / n), tokens, tokens, "en")
        for line, tok in zip(lines, tokens, strict=True):
            assert tok in line  # as written; the page escapes it (`plain`)
            assert "<" not in plain(line).replace("\\<", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_attention_page_says_in_text_what_its_heatmaps_draw(lang):
    with app_in(lang, "attention") as at:
        charts = {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec)
                  for el in at.get("plotly_chart")}
        focus = array(charts["attn_p"]["data"][0]["z"])  # layer 0, head 0's weights
        said = next(m.value for m in at.markdown if m.value.startswith("- Query")
                    or m.value.startswith("- 查询")).split("\n")  # a line per query row
        word = {"en": "attends most to key", "zh": "最关注键"}[lang]
        assert len(said) == focus.shape[0]
        for row, line in zip(focus, said, strict=True):
            assert f"{word} {int(np.argmax(row))} \u201c" in line
        table = at.table[0].value  # every layer, head and query of the grid
        assert len(table) == 2 * 4 * focus.shape[0]  # the default tiny model: N = 2, h = 4
        first = table.iloc[:focus.shape[0]]  # layer 0, head 0: the focused head's rows
        assert [int(k.split()[0]) for k in first.iloc[:, 2]] == list(focus.argmax(axis=1))


# ---- The masks and the positional-encoding curves ------------------------------------------


def test_a_mask_row_says_which_positions_it_may_attend_to_and_which_are_blocked():
    mask = subsequent_mask(4)[0].numpy()
    lines = mask_text(mask, ["<s>", "a", "b", "c"], lang="en")
    assert lines[0] == "query 0 \u201c<s>\u201d: may attend to positions 0. Blocked: 1–3."
    assert lines[2] == "query 2 \u201cb\u201d: may attend to positions 0–2. Blocked: 3."
    assert lines[3] == "query 3 \u201cc\u201d: may attend to positions 0–3."
    padding = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)
    zh = mask_text(padding, ["A", "B"], lang="zh", row_noun="句子")
    assert zh == ["句子 0 \u201cA\u201d：可以关注位置 0–2。被屏蔽：3–4。",
                  "句子 1 \u201cB\u201d：可以关注位置 0–4。"]
    gaps = mask_text(np.array([[1, 0, 1, 1, 0]], dtype=bool), ["x"], lang="en")
    assert gaps == ["query 0 \u201cx\u201d: may attend to positions 0, 2–3. Blocked: 1, 4."]


def test_each_curve_is_said_with_its_wavelength_and_its_values_at_the_ends():
    table = sinusoid_table(100, 20).numpy()  # as the Embeddings page draws it (d_model = 20)
    lines = pe_curves_text(table, [0, 1, 4, 7], lang="en")
    assert lines[0].startswith("Dimension 0 (sin): one full wave every 6.3 positions")
    assert lines[1].startswith("Dimension 1 (cos): one full wave every 6.3 positions")
    assert f"{2 * np.pi * 10000 ** (4 / 20):,.1f} positions" in lines[2]  # 39.6
    assert f"{2 * np.pi * 10000 ** (6 / 20):,.1f} positions" in lines[3]  # 99.8: dims 6, 7
    assert "1.00 at position 0" in lines[1] and f"{table[99, 7]:.2f} at position 99" in lines[3]


def test_the_masks_and_embeddings_pages_say_their_charts_in_text():
    at = app("masks")
    said = [m.value for m in at.markdown if m.value.startswith("- query")]
    assert len(said) == 1 and said[0].count("\n- ") + 1 == 7  # <s> and the 6 target tokens
    pad = [m.value for m in at.markdown if m.value.startswith("- sentence 0")]
    assert len(pad) == 1 and "- sentence 1" in pad[0]
    emb = app("embeddings")
    curves = [m.value for m in emb.markdown if m.value.startswith("- Dimension")]
    assert len(curves) == 1 and curves[0].count("\n- ") + 1 == 4  # dims 4-7 by default
