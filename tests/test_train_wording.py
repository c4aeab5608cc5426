"""What the Train & decode page says: messages that fit what happened, numbers that agree
with their words, no internal identifiers, sections numbered the same whatever is shown.
"""

from __future__ import annotations

import re

import pytest
from apptest_helpers import PAPER_BASE, ROOT, app, errors
from streamlit.testing.v1.element_tree import Radio

from explorer.core.settings import Settings
from explorer.text.i18n import set_lang
from explorer.training.run import HeldOut, ModelKey
from explorer.training.settings import MODEL_CHOICES, SCHEDULES, TRAIN_TASKS, parse_train_settings
from explorer.training.task import parse_date_input, parse_sequence, t_count, task_for
from transformer import dates as D

# ---- 1. an empty date ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\u200b", " \t "])
def test_an_empty_date_is_called_empty(text):
    tokens, error = parse_date_input(text, D.DateTask())
    assert tokens is None and error.startswith("Type a date to translate")
    assert "longer" not in error


def test_a_long_date_is_still_called_too_long():
    _, error = parse_date_input("x" * 31, D.DateTask())
    assert "at most 30 characters" in error


def test_the_page_says_an_emptied_date_box_is_empty():
    at = app("train", tr_task="dates")
    at.text_input(key="tr_date").set_value("  ").run()
    assert not at.exception
    assert [e for e in errors(at) if "date" in e] == [
        "Type a date to translate, for example “Nov 23, 2026” or “2026年11月23日”."]


# ---- 2. the model radio ------------------------------------------------------------------------


class _Browser(Radio):
    """The radio as the browser holds it: the label it was sent before, sent back as is."""

    sent: str = ""

    @property
    def _widget_state(self):
        state = super()._widget_state
        state.string_value = self.sent
        return state


def test_a_date_typed_after_choosing_the_date_task_keeps_the_model_choice():
    """Streamlit sends a radio's choice as its label; the browser still holds the label of
    the run that drew it. The model radio's labels must not depend on the task."""
    at = app("train")
    label = at.radio(key="tr_model").options[0]  # what the browser shows and will send
    at.radio(key="tr_task").set_value("dates").run()
    radio = at.radio(key="tr_model")
    radio.__class__ = _Browser
    radio.sent = label
    at.text_input(key="tr_date").set_value("Nov 23, 2026").run()
    assert not at.exception
    assert not [w.value for w in at.warning]
    assert at.session_state["tr_model"] == "recipe"


def test_the_model_labels_do_not_change_with_the_task_or_the_sidebar():
    labels = set()
    for state in ({}, {"tr_task": "dates"}, {"N": 3, "d_model": 64}):
        at = app("train", **state)
        labels.add(tuple(at.radio(key="tr_model").options))
    assert len(labels) == 1


def test_a_refused_choice_is_named_as_the_page_names_it():
    bad = parse_train_settings({"task": "x", "symbols": "x", "schedule": "x", "model": "x"})
    assert len(bad.errors) == 4
    for allowed, message in zip((TRAIN_TASKS, ("digits", "words"), SCHEDULES, MODEL_CHOICES),
                                bad.errors, strict=True):
        assert ", ".join(allowed) not in message  # the identifiers, as they were listed
        assert f"using {allowed[0]}." not in message
    assert bad.errors[3] == ("The model must be one of “the task's recipe”, “the sidebar's "
                             "model”; using “the task's recipe”.")
    assert bad.errors[1] == ("The symbols must be one of “digits 0–9”, “the words of your "
                             "sentence”; using “digits 0–9”.")


# ---- 3. numbers and their words ------------------------------------------------------------


def test_positions_of_wrong_symbols_agree_with_their_number():
    task, _ = task_for("copy", "digits", "")
    # counted from 1, and said so: the page counts positions from 0
    assert parse_sequence("1 x", task)[1].endswith(
        "symbol number 2 (counting from 1) is not a digit.")
    assert parse_sequence("a b c", task)[1].endswith(
        "symbols number 1, 2, 3 (counting from 1) are not digits.")
    words, _ = task_for("copy", "words", "the cat sat")
    assert parse_sequence("dog", words)[1].endswith(
        "symbol number 1 (counting from 1) is not one of them.")


def test_t_count_uses_the_singular_for_one():
    assert t_count("train.step_reads", 1, k=1) == "**Step 1.** The decoder reads 1 token:"
    assert t_count("train.step_reads", 2, k=2) == "**Step 2.** The decoder reads 2 tokens:"
    assert t_count("train.trained_title", 1, steps=1) == "trained (1 step)"
    set_lang("zh")
    try:
        assert t_count("train.trained_title", 1, steps=1) == "训练后（1 步）"
    finally:
        set_lang("en")


def test_an_input_of_one_symbol_is_one_symbol():
    at = app("train", tr_digits="3")
    assert not at.exception
    text = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert "1 symbols" not in text and "1 tokens" not in text
    assert "This input is like the training sequences: its length, 1," in text
    at.slider(key="tr_step_shown").set_value(1).run()
    assert any(m.value == "**Step 1.** The decoder reads 1 token:" for m in at.markdown)


def test_the_held_out_sentence_agrees_with_how_many_were_wrong():
    from explorer.sections.train import _missed

    one = HeldOut(199, 200, {3: (21, 22), 4: (178, 178)})
    assert _missed(one, False).endswith("the one it got wrong is of length 3.")
    same = HeldOut(197, 200, {5: (19, 22), 4: (178, 178)})
    assert _missed(same, False).endswith("the 3 it got wrong are all of length 5.")
    several = HeldOut(196, 200, {5: (20, 22), 7: (20, 22), 4: (156, 156)})
    assert _missed(several, False).endswith("the 4 it got wrong are of lengths 5, 7.")


def test_one_word_left_out_and_one_unknown_character():
    many = " ".join(f"w{i}" for i in range(21))  # 21 different words: the task keeps 20
    at = app("train", tr_symbols="words", source=many)
    assert not at.exception
    assert any(c.value.startswith("1 word of your sentence is left out: it is not")
               for c in at.caption)
    at = app("train", tr_task="dates", tr_date="Nov 23, 2026 ☃")
    assert not at.exception
    assert any(c.value.startswith("1 character of this text never occurs") for c in at.caption)


def test_the_experiment_table_writes_shares_as_its_sentences_do():
    import numpy as np

    from explorer.sections.experiment import _column
    from explorer.training.experiments import ArmResult

    r = ArmResult(0.1, 1.0, 0.995, 1.5, 300, (), np.zeros((1, 1)), np.zeros((1, 1)))
    assert _column(r)[1:3] == ["100%", "99.5%"]


def _headers(at) -> list[str]:
    return [h.value.split(".")[0] for h in at.header]


SECTIONS = ["1", "2", "3", "4", "5", "6", "7"]


@pytest.mark.parametrize("state", [{}, {"tr_model": "sidebar", **PAPER_BASE},
                                   {"tr_task": "dates", "tr_date": ""}, {"lang": "zh"}])
def test_sections_are_numbered_one_to_seven_whatever_is_shown(state):
    at = app("train", **state)
    assert not at.exception
    assert _headers(at) == SECTIONS


def test_sections_keep_their_numbers_once_trained():
    at = app("train", tr_steps=50)
    at.button(key="tr_train").click().run()
    assert not at.exception
    assert _headers(at) == SECTIONS


def test_an_experiment_stopped_before_the_broken_model_started_says_just_that():
    from explorer.training.experiments import parse_plan, run_experiment, start_experiment
    from explorer.training.settings import TrainSettings
    from explorer.training.task import film_probe

    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings()), task)
    plan, _ = parse_plan(["residual"], 0.1, 300)
    exp = start_experiment(key, TrainSettings().train_config(0), plan, film_probe(task, ""))
    run_experiment(exp, lambda arm, info: info.step == 22)  # Stop during the correct model
    exp.correct.stop_reason = "stop_button"
    at = app("train", exp_state=exp)
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert warnings == ["The correct model: training stopped at step 22 of 300 "
                        "(the Stop button)."]
    assert [i.value for i in at.info if "experiment" in i.value] == [
        "The experiment was stopped before the broken model had trained a single step, so "
        "there is nothing to compare; press **Train both** again."]


# ---- 6. a reload loses the model: said beside the download ---------------------------------


def test_the_download_says_a_reload_loses_the_model():
    at = app("train", tr_steps=50)
    at.button(key="tr_train").click().run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Your trained model lives only in this browser tab: reloading "
                            "the page or closing the tab loses it.") for c in captions)


@pytest.fixture(autouse=True)
def _english():
    set_lang("en")
    yield
    set_lang("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_date_task_counts_languages_and_locales_apart(lang):
    from apptest_helpers import app_in

    from transformer import dates as D

    with app_in(lang, "train", tr_task="dates") as at:
        assert not at.exception
        text = "\n".join(m.value for m in at.markdown)
    languages, locales = len(D.LANGUAGES), len(D.LOCALES)
    assert languages < locales  # simplified and traditional Chinese, US and UK English
    if lang == "en":
        assert f"one of {languages} languages ({locales} locales" in text
    else:
        assert f"用 {languages} 种语言之一（{locales} 种区域写法" in text


# ---- what an evaluation decodes: held out only when the task holds any out ------------------

EVALUATED = ("ko.acc_caption", "exp.measured", "exp.trained", "class.race_caption",
             "train.metric_accuracy_help")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_evaluation_is_called_held_out_only_for_a_task_that_holds_some_out(lang):
    """Two words make 62 sequences of lengths 1 to 5: none held out, so the evaluation's
    sequences are training's, and no text may say they never appear in a batch."""
    from explorer.text.i18n import TABLES
    from explorer.training.task import evaluated_text
    from transformer.tasks import Task

    two_words = Task("reverse", ("a", "b"), 1, 5)
    digits = Task("copy", tuple("0123456789"), 1, 9)
    assert two_words.held_lengths == () and digits.held_lengths
    set_lang(lang)
    try:
        assert evaluated_text(two_words) == TABLES[lang]["eval.not_held"]
        assert evaluated_text(digits) == TABLES[lang]["eval.held"]
        assert evaluated_text(D.DateTask()) == TABLES[lang]["eval.held"]
    finally:
        set_lang("en")
    never = "never" if lang == "en" else "从不"
    for key in EVALUATED:  # the claim is made once, in eval.held, and never for all tasks
        assert "{sequences}" in TABLES[lang][key] and never not in TABLES[lang][key], key
    assert never in TABLES[lang]["eval.held"] and never not in TABLES[lang]["eval.not_held"]


# ---- the waits the page quotes are bench/results.md's -----------------------------------------


def _results_rows(prefix: str) -> list[list[str]]:
    """The cells of bench/results.md's table rows that start with `prefix`."""
    lines = (ROOT / "bench" / "results.md").read_text(encoding="utf-8").splitlines()
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in lines if line.startswith(f"| {prefix}")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_quoted_training_times_are_the_benchmarks(lang):
    from explorer.text.i18n import TABLES

    intro, recipe = TABLES[lang]["train.intro"], TABLES[lang]["train.model_recipe"]
    one_thread = {row[0].rsplit(" ", 1)[-1]: (float(row[1]), float(row[2]))
                  for row in _results_rows("(a) in the process, one thread:")}
    assert set(one_thread) == {"copy", "reverse", "sort", "words"}
    for median, _ in one_thread.values():
        assert f"{median:.1f}" in intro
    assert f"{max(worst for _, worst in one_thread.values()):.1f}" in intro
    assert f"{one_thread['copy'][0]:.1f}" in recipe and f"{one_thread['copy'][1]:.1f}" in recipe
    button = [int(r[1].removesuffix(" s")) for seed in "012" for r in _results_rows(seed)
              if len(r) == 5]  # 8b (b): seed, wall time, steps, held-out exact, stopped early
    median = re.search(r"Median wall time: (\d+) s", (ROOT / "bench" / "results.md").read_text())
    assert len(button) == 3 and median is not None
    assert f"{median.group(1)} s" in intro.replace(" 秒", " s")
    assert f"{max(button)} s" in intro.replace(" 秒", " s")
    class_worst = next(float(r[4]) for r in _results_rows("(c) 10 learners, different seeds: "
                                                           "results seen"))
    assert f"{class_worst:.1f}" in intro
