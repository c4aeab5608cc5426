"""Beam search beside greedy decoding on the Train & decode page: the
computations, the tree figure, and the page through AppTest in English and Chinese."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
import torch
from apptest_helpers import all_text, app, app_in, figures
from shared_inputs import bad_input_items, bad_input_texts
from streamlit.testing.v1 import AppTest

from explorer.core.settings import Settings
from explorer.figures.train import beam_figure
from explorer.text.i18n import TABLES
from explorer.training.decoding import (
    DEFAULT_ALPHA,
    DEFAULT_BEAM,
    BeamDecoding,
    BeamNode,
    DecodeView,
    Decoding,
    answer_text,
    beam_checkpoint,
    beam_input,
    beam_ranking_rows,
    compare_with_greedy,
    decode_checkpoint,
    decode_input,
    parse_alpha,
    parse_beam_size,
)
from explorer.training.run import ModelKey, build_model_for, run_training, start_training
from explorer.training.settings import TrainSettings
from explorer.training.task import sentence_input, task_for
from transformer.train import TrainConfig, length_penalty

TAGS = ("<b>", "<a ", "<span", "<script", "<i>")
LOG = math.log


def _key(task_name: str = "copy", symbols: str = "digits", text: str = "") -> ModelKey:
    task, _ = task_for(task_name, symbols, text)
    return ModelKey.of(Settings(), task)


def _node(tokens: tuple[str, ...], log_prob: float, parent: int | None,
          kept: bool = True) -> BeamNode:
    score = log_prob / length_penalty(len(tokens), 0.6)
    return BeamNode(("<s>", *tokens), log_prob, score, parent, kept, tokens[-1] == "</s>")


def _two_step_beam(a: str = "A", b: str = "B") -> BeamDecoding:
    """tests/test_experiments.py's table with beam 2: greedy takes A (0.6) then </s> (0.4),
    P = 0.24; the beam also keeps B (0.4), whose </s> (0.9) gives P = 0.36."""
    step1 = (_node((a,), LOG(0.6), 0), _node((b,), LOG(0.4), 0))
    step2 = (_node((b, "</s>"), LOG(0.36), 1), _node((a, "</s>"), LOG(0.24), 0),
             _node((a, a), LOG(0.18), 0, kept=False), _node((a, b), LOG(0.18), 0, kept=False))
    final = (step2[0], step2[1])
    return BeamDecoding((step1, step2), final, 2, 0.6)


def _greedy(tokens: list[str], probs: list[float]) -> Decoding:
    """A greedy Decoding whose step k picks tokens[k], the most likely, with probability
    probs[k] (the rest spread over ten other tokens)."""
    empty = np.zeros((1, 1, 1, 1))
    views = tuple(DecodeView(("<s>", *tokens[:k]), np.array([p] + [(1 - p) / 10] * 10), tok,
                             empty, empty)
                  for k, (tok, p) in enumerate(zip(tokens, probs, strict=True)))
    return Decoding(("x", "</s>"), ("a", "b"), views, empty)


# ---- Validation -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 99, -1, 9, "4", 4.0, 2.5, float("nan"), True, None, [4]])
def test_a_forged_beam_size_is_refused(value):
    assert parse_beam_size(value) is None


@pytest.mark.parametrize("value", [-1, 1.6, 99, "0.6", float("nan"), float("inf"), True, None])
def test_a_forged_alpha_is_refused(value):
    assert parse_alpha(value) is None


def test_the_widgets_own_values_pass():
    assert [parse_beam_size(k) for k in (1, 4, 8)] == [1, 4, 8]
    assert parse_alpha(0) == 0.0 and isinstance(parse_alpha(1), float)
    assert parse_alpha(0.6) == DEFAULT_ALPHA == 0.6 and parse_alpha(1.5) == 1.5
    assert DEFAULT_BEAM == 4  # the paper's beam size


# ---- Computed -------------------------------------------------------------------------------


def test_beam_and_greedy_differ_at_step_one_where_the_beam_finds_the_likelier_answer():
    beam = _two_step_beam()
    greedy = _greedy(["A", "</s>"], [0.6, 0.4])
    vs = compare_with_greedy(beam, greedy)
    assert not vs.agree and vs.step == 1
    assert vs.greedy_log_prob == pytest.approx(LOG(0.24))
    assert vs.greedy_score == pytest.approx(LOG(0.24) / length_penalty(2, 0.6))
    assert vs.beam_log_prob == pytest.approx(LOG(0.36))
    assert vs.beam_log_prob > vs.greedy_log_prob
    same = compare_with_greedy(beam, _greedy(["B", "</s>"], [0.4, 0.9]))
    assert same.agree and same.step is None
    longer = compare_with_greedy(beam, _greedy(["B", "A", "</s>"], [0.4, 0.1, 1.0]))
    assert not longer.agree and longer.step == 2  # </s> against A


def test_the_ranking_rows_are_computed():
    rows = beam_ranking_rows(_two_step_beam())
    assert list(rows) == ["rank", "answer", "log P(Y)", "|Y|", "lp(Y)", "score"]
    assert rows["rank"] == [1, 2] and rows["answer"] == ["B </s>", "A </s>"]
    assert rows["log P(Y)"] == [round(LOG(0.36), 4), round(LOG(0.24), 4)]
    assert rows["|Y|"] == [2, 2] and rows["lp(Y)"] == [round((7 / 6) ** 0.6, 4)] * 2
    assert rows["score"][0] == round(LOG(0.36) / (7 / 6) ** 0.6, 4)
    assert answer_text(("2", "0", "-", "1", "</s>"), "") == "20-1 </s>"  # dates: characters
    assert answer_text(("</s>",), "") == "</s>" and answer_text((), " ") == ""


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_beam_size_one_is_greedy_decoding(seed):
    key = _key()
    key = ModelKey.of(Settings(seed=seed), key.task_obj)
    model, task = build_model_for(key), key.task_obj
    for tokens in (["3", "1", "4"], ["9", "9", "0", "2", "7"]):
        greedy = decode_input(model, task, tokens)
        beam = beam_input(model, task, tokens, 1, 0.6)
        assert beam.output == greedy.output
        vs = compare_with_greedy(beam, greedy)
        assert vs.agree and vs.beam_log_prob == pytest.approx(vs.greedy_log_prob, abs=1e-4)
        assert all(len([n for n in step if n.kept]) <= 1 for step in beam.steps)


def test_a_wider_beam_never_ranks_its_best_below_what_it_kept():
    key = _key("reverse")
    model, task = build_model_for(key), key.task_obj
    beam = beam_input(model, task, ["1", "2", "3", "4"], 4, 0.6)
    assert len(beam.steps[0]) == 8  # 4 kept and the 4 best pruned of the first step
    assert [n.kept for n in beam.steps[0]] == [True] * 4 + [False] * 4
    scores = [n.score for n in beam.final]
    assert scores == sorted(scores, reverse=True) and 1 <= len(beam.final) <= 4


@pytest.fixture(scope="module")
def loaded():
    """A checkpoint as The Annotated Transformer saves one: its <s> is id 0, not this app's."""
    from explorer.core.checkpoint import load_checkpoint
    from transformer import make_model

    vocab = ["<s>", "</s>", "<blank>", "<unk>", "the", "cat", "sat", "on", "mat", "a"]
    model = make_model(len(vocab), len(vocab), N=1, d_model=16, d_ff=32, h=4, seed=3)
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    return load_checkpoint(buf.getvalue(), 4, "\n".join(vocab))


def test_an_imported_checkpoint_beam_of_one_is_its_greedy_answer(loaded):
    src = ("the", "cat", "sat", "<unk>")
    greedy = decode_checkpoint(loaded, src, max_len=8)
    beam = beam_checkpoint(loaded, src, 8, 1, 0.6)
    assert beam.final[0].tokens[0] == "<s>"
    assert beam.output == greedy.output
    assert beam_checkpoint(loaded, src, 8, 3, 0.0).beam_size == 3


# ---- The figure ------------------------------------------------------------------------------


def _traces(fig) -> dict[str, dict]:
    return {trace["meta"]: trace for trace in json.loads(fig.to_json())["data"]}


def test_the_tree_has_one_node_per_hypothesis_and_greys_the_pruned():
    beam = _two_step_beam()
    traces = _traces(beam_figure(beam, lang="en"))
    nodes = [traces[name] for name in ("kept", "finished", "pruned")]
    assert sum(len(n["x"]) for n in nodes) == sum(len(step) for step in beam.steps) == 6
    assert len(traces["pruned"]["x"]) == 2 and traces["pruned"]["x"] == [2, 2]
    assert traces["pruned"]["marker"]["color"] == "#b0b0b0"  # greyed
    assert traces["kept"]["marker"]["color"] != traces["pruned"]["marker"]["color"]
    assert set(traces["finished"]["marker"]["symbol"]) == {"square"}
    assert traces["finished"]["x"] == [2, 2] and traces["kept"]["x"] == [1, 1]
    # the best answer (<s> B </s>) is reached from B: rank 1 of step 1 to rank 0 of step 2
    best = traces["edges_best"]
    assert best["x"] == [0, 1, None, 1, 2, None] and best["y"] == [0, 1, None, 1, 0, None]
    assert traces["finished"]["name"] == "finished (&lt;/s&gt;)"  # the legend, escaped
    hover = " ".join(traces["finished"]["hovertext"])
    assert "&lt;s&gt; B &lt;/s&gt;" in hover and f"log P = {LOG(0.36):.4f}" in hover


def test_the_tree_escapes_every_token():
    beam = _two_step_beam("<b>x</b>", '<a href="y">')
    dumped = all_text(json.loads(beam_figure(beam, lang="en").to_json()))
    assert not any(tag in dumped for tag in TAGS)
    assert "&lt;b&gt;x&lt;/b&gt;" in dumped


def test_the_tree_speaks_chinese():
    fig = beam_figure(_two_step_beam(), lang="zh")
    names = {t["meta"]: t.get("name") for t in json.loads(fig.to_json())["data"]}
    assert names["pruned"] == TABLES["zh"]["beam.fig_pruned"]
    assert "束" in fig.layout.title.text


@pytest.mark.parametrize("text", bad_input_texts())
def test_hostile_sentences_search_and_draw_safely(text):
    task, _ = task_for("copy", "words", text)
    tokens = sentence_input(task, text)
    if not tokens:
        return
    model = build_model_for(ModelKey.of(Settings(), task))
    beam = beam_input(model, task, tokens, 3, 0.6)
    dumped = all_text(json.loads(beam_figure(beam, lang="en").to_json()))
    assert not any(tag in dumped for tag in TAGS)
    assert len(beam_ranking_rows(beam)["rank"]) == len(beam.final) >= 1


# ---- The widgets, forged ---------------------------------------------------------------------


def _widgets_script() -> None:
    import streamlit as st

    from explorer.sections.decode import _beam_settings

    st.session_state["got"] = _beam_settings()


# Two forged pairs through the widgets (out of range; a wrong type and NaN): that each forged
# value is refused is test_a_forged_beam_size_is_refused's and test_a_forged_alpha_is_refused's.
@pytest.mark.parametrize(("size", "alpha"), [(99, 99), ("4", float("nan"))])
def test_forged_widget_values_are_refused_with_a_warning(size, alpha):
    at = AppTest.from_function(_widgets_script, default_timeout=30)
    at.session_state["tr_beam"] = size
    at.session_state["tr_alpha"] = alpha
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["got"] == (DEFAULT_BEAM, DEFAULT_ALPHA)
    assert len(at.warning) == 2
    assert "1 to 8" in at.warning[0].value and "0 to 1.5" in at.warning[1].value
    at.slider(key="tr_beam").set_value(2).run()  # the slider works again afterwards
    assert at.session_state["got"] == (2, DEFAULT_ALPHA) and not at.warning


def test_valid_values_pass_without_a_warning():
    at = AppTest.from_function(_widgets_script, default_timeout=30)
    at.session_state["tr_beam"] = 8
    at.session_state["tr_alpha"] = 1  # an int alpha is a number: kept, as a float
    at.run()
    assert not at.exception and not at.warning
    assert at.session_state["got"] == (8, 1.0)


# ---- The page ---------------------------------------------------------------------------------


def _in_order(node):
    """The page's elements in the order they are drawn (columns included)."""
    children = getattr(node, "children", None)
    if children is not None and not hasattr(node, "value"):
        for index in sorted(children):
            yield from _in_order(children[index])
    else:
        yield node


def _beam_code(at, lang: str = "en") -> tuple[str, str]:
    """(greedy decoding's answer, the beam's best answer) as the beam section shows them:
    each is the code block drawn right after its label."""
    shown = [(n.type, getattr(n, "value", None)) for n in _in_order(at.main)]
    shown = [value for kind, value in shown if kind in ("markdown", "code")]
    greedy = shown.index(TABLES[lang]["beam.greedy_answer"])
    best = shown.index(TABLES[lang]["beam.beam_answer"])
    return shown[greedy + 1], shown[best + 1]


@pytest.fixture(scope="module")
def trained():
    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings()), task)
    state = start_training(key, TrainConfig(steps=30, batch_size=32, seed=0))
    run_training(state)
    return state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_beam_section_with_a_trained_model(trained, lang):
    with app_in(lang, "train", train_state=trained) as at:
        assert not at.exception, at.exception
        text = TABLES[lang]
        assert at.radio(key="tr_which_shown").value == "trained"
        assert text["beam.header"] in [h.value for h in at.subheader]
        assert any(k.endswith("tr_beam_tree") for k in figures(at))
        table = next(df.value for df in at.dataframe if text["beam.col_score"] in df.value)
        assert list(table[text["beam.col_rank"]])[:1] == [1]
        scores = list(table[text["beam.col_score"]])
        assert scores == sorted(scores, reverse=True)
        sentence = " ".join(m.value for m in at.markdown)
        greedy, best = _beam_code(at, lang)
        verdict = "beam.agree" if greedy == best else "beam.differ"
        assert text[verdict].split("{k}")[0] + "4" in sentence
        assert at.latex and "lp(Y)" in at.latex[0].value
        at.slider(key="tr_beam").set_value(1).run()
        assert not at.exception
        greedy, best = _beam_code(at, lang)
        assert greedy == best
        assert text["beam.agree"].split("{k}")[0] + "1" in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forged_values_on_the_page_warn_and_fall_back(lang):
    with app_in(lang, "train", tr_beam=99, tr_alpha=float("nan")) as at:
        assert not at.exception, at.exception
        warnings = [w.value for w in at.warning]
        assert TABLES[lang]["beam.bad_size"].format(low=1, high=8, default=4) in warnings
        assert TABLES[lang]["beam.bad_alpha"].format(low=0, high=1.5, default=0.6) in warnings
        assert at.slider(key="tr_beam").value == 4 and at.slider(key="tr_alpha").value == 0.6


def test_hostile_sentences_on_the_page():
    markup = ("html", "script", "markdown", "entities", "latex")
    hostile = " ".join(item["text"] for item in bad_input_items()
                       if any(word in item["name"] for word in markup))
    at = app("train", tr_symbols="words", tr_task="reverse", source=hostile or "<b>x</b>")
    assert not at.exception, at.exception
    tree = next(f for k, f in figures(at).items() if k.endswith("tr_beam_tree"))
    assert not any(tag in all_text(tree) for tag in TAGS)


def test_beam_size_one_agrees_with_greedy_on_the_page_for_the_date_task():
    at = app("train", tr_task="dates", tr_beam=1)
    assert not at.exception, at.exception
    assert at.radio(key="tr_which_shown").value in ("shipped", "untrained")
    greedy, best = _beam_code(at)
    assert greedy == best
    assert "and greedy decoding agree" in " ".join(m.value for m in at.markdown)


def test_the_imported_checkpoint_is_searched_too(loaded):
    at = app("train", imported_checkpoint=loaded, source="the cat sat on the sofa", tr_beam=1)
    assert not at.exception, at.exception
    assert at.radio(key="tr_which_shown").value == "imported"
    assert any(k.endswith("tr_beam_tree") for k in figures(at))
    greedy, best = _beam_code(at)
    assert greedy == best


def test_a_search_with_no_step_draws_the_root_alone():
    root = BeamNode(("<s>",), 0.0, 0.0, None, True, False)
    traces = _traces(beam_figure(BeamDecoding((), (root,), 2, 0.6), lang="en"))
    assert traces["root"]["x"] == [0] and traces["kept"]["x"] == []
    assert not traces["edges_best"]["x"]


def _verdict_script(lang: str) -> None:
    import numpy as np  # AppTest runs this function's source alone: its imports are its own

    from explorer.sections.decode import _beam_verdict
    from explorer.text.i18n import set_lang
    from explorer.training.decoding import BeamDecoding, BeamNode, DecodeView, Decoding

    set_lang(lang)
    log, lp = np.log, ((5 + 2) / 6) ** 0.6
    nodes = [BeamNode(("<s>", a, "</s>"), float(log(p)), float(log(p)) / lp, 0, True, True)
             for a, p in (("B", 0.36), ("A", 0.24))]
    beam = BeamDecoding(((), tuple(nodes)), tuple(nodes), 2, 0.6)
    empty = np.zeros((1, 1, 1, 1))
    views = tuple(DecodeView(("<s>",), np.array([p, (1 - p) / 2, (1 - p) / 2]), tok, empty, empty)
                  for tok, p in (("A", 0.6), ("</s>", 0.4)))  # greedy: A, then </s>
    _beam_verdict(beam, Decoding(("x",), ("a",), views, empty), " ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_verdict_says_where_they_differ_and_why(lang):
    at = AppTest.from_function(_verdict_script, args=(lang,), default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    text = TABLES[lang]
    expected = text["beam.differ"].format(
        k=2, alpha="0.6", step=1, greedy_log_prob=f"{LOG(0.24):.3f}",
        greedy_score=f"{LOG(0.24) / (7 / 6) ** 0.6:.3f}", beam_log_prob=f"{LOG(0.36):.3f}",
        beam_score=f"{LOG(0.36) / (7 / 6) ** 0.6:.3f}")
    assert expected in [m.value for m in at.markdown]
    assert text["beam.why_more_probable"] in [c.value for c in at.caption]
    assert [c.value for c in at.code] == ["A </s>", "B </s>"]
