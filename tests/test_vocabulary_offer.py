"""A trained model shown with a sentence outside its vocabulary: the sidebar says which tokens
it does not know and offers, in one click, an example its task knows.

Choosing "your trained model" (trained on digits) kept "the cat sat on the mat" in the
sentence box: every token read as <unk>, and the pages explained attention over six
unknown tokens without saying so where the learner had just chosen the model.
"""

from __future__ import annotations

import pytest
from apptest_helpers import app, app_in, figure_list
from shared_inputs import bad_input_texts

from explorer.core.settings import Settings
from explorer.text.i18n import Text
from transformer.tasks import DIGITS, Task


def _trained(symbols: tuple[str, ...]):
    """A copy model trained briefly on `symbols` (the Train page's kept state)."""
    from explorer.training.run import ModelKey, run_training, start_training
    from transformer.train import TrainConfig

    state = start_training(ModelKey.of(Settings(), Task("copy", symbols, 1, 6)),
                           TrainConfig(steps=20, batch_size=16, lr=3e-3))
    run_training(state)
    return state


@pytest.fixture(scope="module")
def digits():
    return _trained(DIGITS)


WORDS = ("the", "cat", "sat", "on", "mat", "dog", "ran")


@pytest.fixture(scope="module")
def words():
    return _trained(WORDS)


def _offer(at) -> tuple[list[str], list[str]]:
    """The sidebar's warnings and plain-text blocks."""
    return [w.value for w in at.sidebar.warning], [c.value for c in at.sidebar.code]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_sentence_outside_the_vocabulary_gets_the_tasks_own_example_in_one_click(lang,
                                                                                    digits):
    text = Text(lang)
    with app_in(lang, "attention", model_source="yours", train_state=digits,
                source="the cat sat on the mat", target="") as at:
        assert not at.exception
        warnings, blocks = _offer(at)
        assert text("source.unknown_tokens", name=text("source.yours"), n=6,
                    total=6) in warnings
        assert "the  cat  sat  on  mat" in blocks  # which ones, each once, as plain text
        button = at.sidebar.button(key="use_known_example")
        assert button.label == text("source.use_known_example")
        button.click().run()
        assert not at.exception
        assert at.text_input(key="source").value == "3 1 4 1 5 9 2"
        assert at.session_state["target"] == ""  # the model's own answer
        assert not [w for w in _offer(at)[0] if w.startswith("**")]  # nothing unknown now
        grid = figure_list(at)[0]
        assert grid["layout"]["yaxis"]["ticktext"][:3] == ["0:3", "1:1", "2:4"]


def test_a_words_model_offers_its_words_and_a_partly_known_sentence_names_the_rest(words):
    at = app("attention", model_source="yours", train_state=words,
             source="the cat sat on the sofa today", target="")
    assert not at.exception
    warnings, blocks = _offer(at)
    assert any("2 of the 7 tokens" in w for w in warnings)
    assert "sofa  today" in blocks
    at.sidebar.button(key="use_known_example").click().run()
    assert at.text_input(key="source").value == "the cat sat on mat dog"
    assert not [w for w in _offer(at)[0] if "does not know" in w]


def test_a_known_sentence_and_the_sidebars_own_model_get_no_offer(digits):
    at = app("attention", model_source="yours", train_state=digits, source="2 7 1 8",
             target="")
    assert not at.exception and not _offer(at)[0]
    assert not [b for b in at.sidebar.button if b.key == "use_known_example"]
    at = app("attention", source="the cat sat on the mat")  # untrained: built on the text
    assert not [b for b in at.sidebar.button if b.key == "use_known_example"]


def test_the_date_translator_offers_a_date():
    at = app("attention", model_source="dates", source="我爱自然语言处理", target="")
    assert not at.exception
    assert any("does not know 8 of the 8 tokens" in w for w in _offer(at)[0])
    at.sidebar.button(key="use_known_example").click().run()
    assert not at.exception
    from explorer.app.sources import date_examples

    assert at.text_input(key="source").value == date_examples()[0]
    assert not [w for w in _offer(at)[0] if "does not know" in w]


@pytest.mark.parametrize("text", bad_input_texts() + ["<b>cat</b> [x](javascript:alert(1))"])
def test_hostile_sentences_are_listed_as_plain_text(text, digits):
    at = app("attention", model_source="yours", train_state=digits, source=text, target="")
    assert not at.exception
    warnings, _ = _offer(at)
    for warning in warnings:
        for part in ("<b>", "<a ", "javascript", "<script", "<span"):
            assert part not in warning  # the learner's text only ever in a code block
