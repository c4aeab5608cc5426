"""The model a page looks at: the shipped date translator, your trained model, an import.

The shipped file is checked here too: it loads safely, agrees with the recipe and the task
that made it, and translates held-out dates (days it never saw) in every locale.
"""

from __future__ import annotations

import pytest
import torch
from apptest_helpers import app, errors, figure_list
from shared_inputs import bad_input_texts

from explorer.app.context import build_context
from explorer.app.sources import SHIPPED_DATES, answer_tokens, resolve_source, shipped_dates
from explorer.core.checkpoint import load_checkpoint
from explorer.core.exports import checkpoint_bytes
from explorer.core.settings import Settings
from explorer.state.urlstate import params_to_state, settings_to_params
from explorer.text.i18n import percent
from tools.train_dates import MAX_LEN, SEED
from transformer import dates as D
from transformer.recipes import DATES


def page_text(at) -> str:
    """The page's markdown, info, caption and warning texts."""
    parts = [el.value for kind in ("markdown", "info", "caption", "warning")
             for el in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]
A_DATE = "Montag, 23. November 2026"


# ---- The shipped file ---------------------------------------------------------------------


def test_the_shipped_file_is_small_and_loads_with_weights_only():
    assert SHIPPED_DATES.stat().st_size <= 2_000_000
    payload = torch.load(SHIPPED_DATES, weights_only=True)
    assert payload["meta"]["task"] == "dates"


def test_the_shipped_file_agrees_with_the_training_script():
    loaded = shipped_dates()
    cfg = loaded.config
    assert (cfg.N, cfg.d_model, cfg.h, cfg.d_ff, cfg.dropout) == (
        DATES.N, DATES.d_model, DATES.h, DATES.d_ff, DATES.dropout)
    assert cfg.max_len >= MAX_LEN
    assert loaded.src_vocab == loaded.tgt_vocab == tuple(D.vocab().itos)
    meta = loaded.meta
    assert meta["recipe"] == DATES.name and meta["seed"] == SEED
    assert meta["held_out_exact"] >= 0.99 and meta["held_out_n"] == 2000
    assert set(meta["per_locale"]) == set(D.LOCALES)


def test_the_shipped_model_translates_held_out_dates_in_every_locale():
    examples = D.held_out_examples(300, seed=7)  # other days' renderings than the file's
    right = D.exact_matches(shipped_dates().model, examples)
    assert sum(right) / len(right) >= 0.99
    per = D.accuracy_by(examples, right)
    assert set(per) == set(D.LOCALES)
    assert all(r / n >= 0.9 for r, n in per.values())


def test_the_shipped_model_attends_to_the_field_each_digit_comes_from():
    align = D.alignment(shipped_dates().model, D.held_out_examples(300, seed=3))
    for field, target in D.ALIGNMENT_TARGETS.items():
        assert align.shares[field] >= target, field


def test_the_shipped_model_is_frozen():
    assert not any(p.requires_grad for p in shipped_dates().model.parameters())
    assert not shipped_dates().model.training


# ---- Choosing a source --------------------------------------------------------------------


def test_an_unavailable_source_falls_back_with_a_reason():
    assert resolve_source("yours", None, None)[::2] == ("untrained", "source.yours_missing")
    assert resolve_source("imported", None, None)[::2] == ("untrained",
                                                           "source.imported_missing")
    assert resolve_source("<script>", None, None) == ("untrained", None, None)
    source, loaded, why = resolve_source("dates", None, None)
    assert source == "dates" and loaded is shipped_dates() and why is None


def test_a_date_is_read_in_characters_with_the_models_answer_as_target():
    loaded = shipped_dates()
    settings = Settings(source=A_DATE, target="", token_mode="word")
    ctx = build_context(settings, loaded, source="dates",
                        answer=lambda src: answer_tokens(loaded, src))
    assert ctx.ok and ctx.answered
    assert ctx.tokens.src_tokens == (*D.source_tokens(A_DATE), "</s>")
    assert "".join(ctx.tokens.tgt_tokens) == "2026-11-23"
    assert ctx.cfg == loaded.config


def test_a_target_typed_by_the_learner_is_kept():
    loaded = shipped_dates()
    ctx = build_context(Settings(source=A_DATE, target="2026-11-24"), loaded, source="dates",
                        answer=lambda src: answer_tokens(loaded, src))
    assert not ctx.answered and "".join(ctx.tokens.tgt_tokens) == "2026-11-24"


def test_written_as_trained_tells_training_kind_inputs_apart():
    assert D.written_as_trained(D.source_tokens(A_DATE), "2026-11-23")
    assert D.written_as_trained(D.source_tokens("2026年11月23日星期一"), "2026-11-23")
    assert not D.written_as_trained(D.source_tokens("Dienstag, 23. November 2026"),
                                    "2026-11-23")  # the wrong weekday
    assert not D.written_as_trained(D.source_tokens("30. Februar 2026"), "2026-02-30")
    assert not D.written_as_trained(D.source_tokens("23 November 1850"), "1850-11-23")
    assert not D.written_as_trained(["x"], "hello")


def test_the_link_carries_the_source():
    params = settings_to_params(Settings(), {"model": "dates"})
    assert params == {"model": "dates"}
    state, notices = params_to_state(params)
    assert state["model_source"] == "dates" and not notices
    state, notices = params_to_state({"model": "<b>x</b>"})
    assert "model_source" not in state and len(notices) == 1 and "<b>" not in notices[0]


# ---- Every page, in both languages --------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_the_date_translator(page, lang):
    at = app(page, model_source="dates", source=A_DATE, target="", lang=lang)
    assert not at.exception and not errors(at)
    if page == "attention":
        text = page_text(at)
        assert "2026-11-23" in text
        grid = figure_list(at)[0]
        ticks = grid["layout"]["yaxis"]["ticktext"]  # queries: the source, then </s>
        assert ticks[0] == "0:M" and ticks[-1].endswith("&lt;/s&gt;")


def test_the_attention_page_says_when_a_date_is_outside_the_training_data():
    at = app("attention", model_source="dates", source="hello world", target="")
    assert not at.exception
    assert any("does not look like a date" in w.value for w in at.warning)
    at = app("attention", model_source="dates", source=A_DATE, target="")
    assert not any("does not look like a date" in w.value for w in at.warning)


def test_your_trained_model_is_asked_for_before_there_is_one():
    at = app("attention", model_source="yours")
    assert not at.exception and not errors(at)
    assert any("not trained a model" in i.value for i in at.sidebar.info)
    assert at.session_state["model_source"] == "yours"  # kept for when there is one


@pytest.mark.parametrize("text", bad_input_texts())
def test_hostile_text_through_the_date_translator(text):
    at = app("attention", model_source="dates", source=text, target="")
    assert not at.exception


# ---- Your trained model -------------------------------------------------------------------


def _trained_state():

    from explorer.training.run import ModelKey, run_training, start_training
    from transformer.tasks import DIGITS, Task
    from transformer.train import TrainConfig

    key = ModelKey.of(Settings(), Task("copy", DIGITS, 1, 9))
    state = start_training(key, TrainConfig(steps=30, batch_size=16, lr=3e-3))
    run_training(state)
    return state


def test_your_trained_model_is_shown_as_a_copy_with_a_longer_table():
    state = _trained_state()
    at = app("attention", model_source="yours", train_state=state,
             source="3 1 4 1 5 9 2 6 5 3 5 8", target="")  # longer than the task's 9
    assert not at.exception and not errors(at)
    text = page_text(at)
    assert "Your trained model" in text and "30 steps" in text
    grid = figure_list(at)[0]
    assert grid["layout"]["yaxis"]["ticktext"][-1].endswith("&lt;/s&gt;")
    from explorer.app.memo import SESSION_KEY
    from explorer.app.sources import YOURS

    (shown,) = at.session_state[SESSION_KEY][YOURS.name].values()
    assert shown.model is not state.model and shown.config.max_len >= 66
    for (name, p), q in zip(shown.model.state_dict().items(),
                            state.model.state_dict().values(), strict=True):
        if not name.endswith(".pe"):
            assert torch.equal(p, q), name


def test_copies_of_one_training_in_two_sessions_share_the_attention_page_s_results():
    """A trained copy is named by what fixes its weights (`content_id`), as the untrained
    model and the shipped translator are: the second session reads the first's pass and
    figures instead of computing them again (two trainings of one request are alike)."""
    from explorer.app.cache import RUNS
    from explorer.app.context import SHARED_RESULTS
    from explorer.app.memo import forget, held
    from explorer.training.run import content_id

    forget(SHARED_RESULTS)
    first, twin = _trained_state(), _trained_state()
    assert content_id(first) == content_id(twin) and first.model is not twin.model
    one = app("attention", model_source="yours", train_state=first, source="3 1 4 1 5")
    named = set(held(SHARED_RESULTS))
    mine = ("trained", *content_id(first))
    assert any(name[0] == "run" and name[1][:len(mine)] == mine for name in named)
    two = app("attention", model_source="yours", train_state=twin, source="3 1 4 1 5")
    assert set(held(SHARED_RESULTS)) == named  # nothing new was built
    assert figure_list(one) == figure_list(two)
    assert any(key[0] == mine for key in held(RUNS))


def test_a_checkpoint_is_named_by_its_file_and_how_it_was_read(trained_state):
    data = checkpoint_bytes(trained_state.model, list(trained_state.task.vocab.itos), {})
    a, b = load_checkpoint(data, None, None), load_checkpoint(data, None, None)
    assert a.content == b.content and a.content[0] == "file" and a.model is not b.model
    vocab = "\n".join(trained_state.task.vocab.itos)
    assert load_checkpoint(data, None, vocab).content != a.content


@pytest.fixture(scope="module")
def trained_state():
    return _trained_state()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_your_trained_model(page, lang, trained_state):
    at = app(page, model_source="yours", train_state=trained_state, source="3 1 4 1 5",
             target="", lang=lang)
    assert not at.exception and not errors(at)
    assert at.session_state["model_source"] == "yours"
    if page == "attention":  # the blank target became the trained model's answer
        grid = figure_list(at)[0]
        assert grid["layout"]["yaxis"]["ticktext"][0] == "0:3"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_an_imported_checkpoint(page, lang, trained_state):
    loaded = load_checkpoint(checkpoint_bytes(trained_state.model,
                                              list(trained_state.task.vocab.itos),
                                              {"task": "copy"}), None, None)
    at = app(page, imported_checkpoint=loaded, source="3 1 4 cat", lang=lang)
    assert not at.exception and not errors(at)
    assert at.session_state["model_source"] == "imported"
    if page == "attention":  # a word the checkpoint does not know is read as <unk>
        grid = figure_list(at)[0]
        assert "3:&lt;unk&gt;" in grid["layout"]["yaxis"]["ticktext"]


def test_your_model_is_not_shown_while_a_thread_trains_it():
    state = _trained_state()
    with state.lock:  # as run_training holds it
        source, loaded, why = resolve_source("yours", None, state)
    assert (source, loaded, why) == ("untrained", None, "source.yours_running")


def test_an_example_date_becomes_the_source_in_one_click():
    at = app("attention", model_source="dates", source="hello", target="x")
    at.button_group(key="date_example").set_value("2026年11月23日星期一").run()
    assert at.session_state["source"] == "2026年11月23日星期一"
    assert at.session_state["target"] == "" and at.session_state["date_example"] is None
    assert "2026-11-23" in page_text(at)
    assert not any("does not look like a date" in w.value for w in at.warning)


def test_the_alignment_sentence_is_measured_on_the_live_model():
    from explorer.app.sources import ALIGNMENT_DATES

    at = app("attention", model_source="dates", source=A_DATE, target="")
    align = D.alignment(shipped_dates().model, D.held_out_examples(ALIGNMENT_DATES, seed=11))
    text = page_text(at)
    assert f"decoder layer {align.layer}" in text
    assert f"**{percent(align.shares['year'])}** of year digits" in text


def test_every_source_and_reason_has_text_in_both_languages():
    from explorer.core.settings import SOURCES
    from explorer.text.locales import en, zh

    keys = [f"source.{s}" for s in SOURCES]
    keys += [f"source.{s}_missing" for s in ("dates", "yours", "imported")]
    keys += ["source.yours_running"]
    for table in (en.TEXT, zh.TEXT):
        assert not [k for k in keys if k not in table]


def test_the_files_alignment_is_the_scripts_measure_of_its_weights():
    meta = shipped_dates().meta
    align = D.alignment(shipped_dates().model, D.held_out_examples(meta["held_out_n"]))
    assert align.layer == meta["alignment_layer"]
    assert dict(align.shares) == pytest.approx(meta["alignment"], abs=1e-9)


# ---- The Model page's first look ----------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_page_shows_trained_attention_on_an_editable_date(lang):
    at = app(lang=lang)  # a first visit: the home page, the untrained sidebar model
    assert not at.exception and not errors(at)
    box = at.text_input(key="preview_date")
    assert D.written_as_trained(D.source_tokens(box.value), "2026-11-23")
    assert "2026-11-23" in page_text(at)
    chart = figure_list(at)[0]
    assert chart["data"][0]["type"] == "heatmap"
    if lang == "zh":
        return  # AppTest re-reads the Chinese page's selectboxes by English labels on a rerun
    box.set_value("lunes, 2 de marzo de 1987").run()
    assert "1987-03-02" in page_text(at)
    at.button(key="preview_open").click().run()
    assert at.session_state["model_source"] == "dates"
    assert at.session_state["source"] == "lunes, 2 de marzo de 1987"


@pytest.mark.parametrize("text", ["", "x" * 61, "<b>hi</b>", "2026年13月45日"])
def test_the_preview_takes_any_text(text):
    at = app()
    at.text_input(key="preview_date").set_value(text).run()
    assert not at.exception
    assert "<b>" not in "".join(m.value for m in at.markdown if "hi" in m.value)


def test_the_preview_stays_away_when_a_trained_model_is_shown():
    at = app(model_source="dates", source=A_DATE)
    assert not at.exception
    assert not [w for w in at.text_input if w.key == "preview_date"]


def test_the_train_page_says_whose_settings_it_trains_while_another_model_is_shown():
    at = app("train", model_source="dates", source=A_DATE)
    assert not at.exception and not errors(at)
    assert any("Training here always starts from a fresh" in c.value for c in at.caption)
    at = app("train")
    assert not any("Training here always starts" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("text", ["明天", "2026年2月30日", "hello world",
                                  "[click](javascript:alert(1))"])
def test_the_preview_says_when_the_text_is_not_a_date_it_was_trained_on(text, lang):
    from explorer.text.i18n import TABLES

    at = app(lang=lang, preview_date=text)  # set before the run: see the test above on zh
    assert not at.exception and at.text_input(key="preview_date").value == text
    assert TABLES[lang]["source.dates_outside"] in [w.value for w in at.warning]


def test_the_preview_of_a_date_as_the_task_writes_it_has_no_caveat():
    at = app()
    at.text_input(key="preview_date").set_value("lunes, 2 de marzo de 1987").run()
    assert not at.warning and "1987-03-02" in page_text(at)


def test_the_same_rule_marks_every_date_models_answers():
    from explorer.app.sources import answers_dates, check_date_answer

    assert answers_dates("dates", {}) and answers_dates("yours", {"task": "dates"})
    assert not answers_dates("yours", {"task": "copy"}) and not answers_dates("untrained", {})
    typed = D.source_tokens("Montag, 23. November 2026")
    right = check_date_answer(typed, "2026-11-23", unknown=False)
    assert not right.outside and not right.wrong
    wrong = check_date_answer(typed, "2026-11-24", unknown=False)  # the model's mistake
    assert wrong.wrong and not wrong.outside and wrong.expected == "2026-11-23"
    assert check_date_answer(typed, "2026-11-23", unknown=True).outside  # a character unknown
    assert check_date_answer(tuple("hello world"), "0000-04-00", unknown=False).outside


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_target_left_in_the_box_is_named_and_cleared_in_one_click(lang):
    from explorer.text.i18n import TABLES

    at = app("attention", lang=lang, model_source="dates", source=A_DATE,
             target="I love natural language processing")
    assert not at.exception
    name = TABLES[lang]["source.dates"]
    assert TABLES[lang]["source.reads_target"].format(name=name) in [i.value for i in at.info]
    if lang == "zh":
        return  # AppTest re-reads the Chinese page's selectboxes by English labels on a rerun
    at.button(key="clear_target").click().run()
    assert not at.exception and at.session_state["target"] == ""
    assert not [b for b in at.button if b.key == "clear_target"]
    assert "2026-11-23" in page_text(at)  # the decoder now reads the model's own answer
