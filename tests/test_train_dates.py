"""The date task on the Train & decode page: settings, training,
evaluation on held-out days, decoding typed dates, and the trained model on other pages."""

from __future__ import annotations

from dataclasses import replace

import pytest
from apptest_helpers import app, app_in
from shared_inputs import bad_input_texts

from explorer.app.sources import expected_date
from explorer.core.settings import Settings
from explorer.state.urlstate import params_to_state
from explorer.training.run import (
    DATE_STOP_SHARE,
    ModelKey,
    check_every,
    held_out,
    run_training,
    start_training,
    stop_share,
    task_meta,
)
from explorer.training.settings import TRAIN_TASKS, TrainSettings, parse_train_settings, recipe_for
from explorer.training.task import date_probe_example, film_probe, parse_date_input, task_for
from transformer import dates as D
from transformer.recipes import DATES_LIVE, FAST


def test_the_date_task_is_a_train_task_with_its_own_recipe():
    assert "dates" in TRAIN_TASKS
    ts = parse_train_settings({"task": "dates"})
    assert ts.task == "dates" and not ts.errors
    assert recipe_for("dates") is DATES_LIVE and recipe_for("copy") is FAST
    ms = ts.model_settings(Settings())
    assert (ms.N, ms.d_model, ms.h, ms.d_ff) == (DATES_LIVE.N, DATES_LIVE.d_model,
                                                 DATES_LIVE.h, DATES_LIVE.d_ff)
    task, note = task_for("dates", "words", "the cat")
    assert isinstance(task, D.DateTask) and note is None
    key = ModelKey.of(ms, task)
    assert isinstance(key.task_obj, D.DateTask) and key.config.max_len == task.max_len + 2
    assert key.config.src_vocab == len(D.vocab())
    assert "dates" in key.describe()
    assert check_every(task) > check_every(task_for("copy", "digits", "")[0])
    assert stop_share(task) == DATE_STOP_SHARE < 1.0
    assert task_meta(task)["token_mode"] == "char"
    assert "token_mode" not in task_meta(task_for("copy", "digits", "")[0])


def test_typed_dates_are_read_as_characters_and_hostile_text_never_raises():
    task = D.DateTask()
    tokens, error = parse_date_input("Montag, 23. November 2026", task)
    assert error is None and tokens == D.source_tokens("Montag, 23. November 2026")
    for bad in (None, 7, "", "   ", "x" * (task.max_len + 1), "x" * 500):
        tokens, error = parse_date_input(bad, task)
        assert tokens is None and error
    for text in bad_input_texts():
        tokens, error = parse_date_input(text, task)
        assert (tokens is None) != (error is None)
        if tokens is not None:
            assert 1 <= len(tokens) <= task.max_len


def test_the_expected_answer_is_known_only_for_dates_written_as_the_task_writes_them():
    example = date_probe_example()
    assert expected_date(list(example.tokens)) == list(example.iso)
    assert expected_date(D.source_tokens("hello world")) is None
    assert expected_date(D.source_tokens("30. Februar 2026")) is None


def test_a_short_date_run_records_its_film_and_is_evaluated_on_held_out_days():
    task = D.DateTask()
    ts = TrainSettings(task="dates")
    key = ModelKey.of(ts.model_settings(Settings()), task)
    state = start_training(key, replace(ts.train_config(0), steps=4), early_stop=True,
                           probe=film_probe(task, ""))
    run_training(state)
    assert state.step == 4 and not state.running
    assert state.film is not None and state.film.steps == [0, 2, 4]
    assert state.held_out is not None and state.held_out.total == 200
    assert 0.0 <= state.accuracy <= 1.0
    few = held_out(state.model, task, n=20)
    assert few.total == 20 and sum(t for _, t in few.by_length.values()) == 20


def test_a_link_may_open_the_train_page_on_the_date_task():
    state, problems = params_to_state({"task": "dates"})
    assert state["tr_task"] == "dates" and not problems


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_trains_and_decodes_dates(lang):
    with app_in(lang, "train") as at:
        _train_and_decode_dates(at)


def _train_and_decode_dates(at) -> None:
    at.radio(key="tr_task").set_value("dates").run()
    assert not at.exception
    train = DATES_LIVE.train
    assert (at.session_state["tr_lr"], at.session_state["tr_warmup"]) == (train.lr, train.warmup)
    at.session_state["tr_steps"] = 50
    at.run()
    at.button(key="tr_train").click().run(timeout=300)
    assert not at.exception
    assert at.text_input(key="tr_date").value == date_probe_example().text
    assert any("tr_film_cross" in el.proto.id for el in at.get("plotly_chart"))
    for text in [*bad_input_texts(6), "30. Februar 2026", "x" * 40]:
        at.text_input(key="tr_date").set_value(text).run()
        assert not at.exception, text
    at.radio(key="tr_task").set_value("copy").run()  # back to the fast recipe's values
    assert (at.session_state["tr_lr"], at.session_state["tr_warmup"]) == (FAST.train.lr,
                                                                          FAST.train.warmup)


def test_a_link_to_the_date_task_starts_from_its_recipe():
    state, _ = params_to_state({"task": "dates"})
    at = app("train", **{k: v for k, v in state.items() if k.startswith("tr_")})
    assert not at.exception
    train = DATES_LIVE.train
    assert (at.session_state["tr_lr"], at.session_state["tr_batch"],
            at.session_state["tr_warmup"]) == (train.lr, train.batch_size, train.warmup)


def test_a_trained_date_model_is_shown_on_other_pages_as_your_model():
    at = app("train", tr_task="dates")
    at.session_state["tr_steps"] = 50  # after the first run has set the recipe's values
    at.run()
    assert at.radio(key="tr_which_shown").value == "untrained"  # before training: no trained one
    at.button(key="tr_train").click().run(timeout=300)
    assert not at.exception
    assert at.radio(key="tr_which_shown").value == "trained"  # the model just trained
    at.sidebar.radio(key="model_source").set_value("yours").run()
    assert not at.exception
    at.switch_page("pages/attention.py").run()
    # AppTest's switch_page resets widgets to their defaults (test_isolation.py): choose again
    at.sidebar.radio(key="model_source").set_value("yours").run()
    assert not at.exception
    assert at.session_state["model_source"] == "yours"
    fixed = [r for r in at.sidebar.radio if r.disabled and r.value == "char"]
    assert fixed  # the token mode is fixed by the model: characters


def test_dates_decode_with_the_shipped_translator_too():
    at = app("train", tr_task="dates", model_source="dates")
    assert not at.exception
    which = at.radio(key="tr_which_shown")
    assert which.options == ["untrained", "the shipped date translator"]
    assert which.value == "shipped"  # the sidebar shows the shipped model: so does decoding
    assert any(":green[**right**]" in m.value for m in at.markdown)
    which.set_value("untrained").run()
    assert not at.exception
