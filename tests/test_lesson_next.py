"""A lesson's "which token comes next?" question: its file form, its options and answer read
from the live model (checked against a decoder run on the prefix alone), and a learner
answering it as a self-check in both languages."""

from __future__ import annotations

import json

import pytest
import torch
from apptest_helpers import ROOT  # noqa: F401
from streamlit.testing.v1 import AppTest

from explorer.app.context import Context, build_context
from explorer.app.sources import answer_tokens, resolve_source
from explorer.core.exports import model_vocabs
from explorer.core.settings import SETTING_NAMES, parse_settings
from explorer.sections.lesson import step_fields
from explorer.sections.lesson_questions import NEXT_OPTIONS, next_question, step_asked
from explorer.state.lesson import (
    MAX_QUERY,
    Lesson,
    LessonError,
    Question,
    Step,
    dumps,
    from_link,
    parse_lesson,
    to_json,
    to_link,
)
from explorer.state.urlstate import params_to_state
from explorer.state.view import MODEL_SOURCE_KEY
from explorer.text.i18n import percent, set_lang
from transformer.model import subsequent_mask

DATES = {"model": "dates", "src": "Nov 23, 2026"}  # the date translator answers the target
UNTRAINED = {"src": "the cat sat on the mat", "tgt": "die katze sass auf der matte"}
NEXT = Step("model", DATES, {"en": "What next?"},
            Question("next", {}, (), None, {"en": "Digits come one at a time.", "zh": "逐位写出。"},
                     query=3))
LESSON = Lesson({"en": "Next tokens", "zh": "下一个 token"}, (NEXT,))


def context_of(view: dict[str, str]) -> Context:
    """The context a page builds for a step's view, as the sidebar does."""
    state, _ = params_to_state(view)
    settings = parse_settings({k: state[k] for k in SETTING_NAMES})
    source, loaded, _ = resolve_source(state.get(MODEL_SOURCE_KEY), None, None)
    answer = (lambda src: answer_tokens(loaded, src)) if source == "dates" else None
    return build_context(settings, loaded, source=source, answer=answer)


def prefix_probs(ctx: Context, query: int) -> torch.Tensor:
    """The next-token distribution after the decoder input's first `query + 1` tokens, from
    a decoder run on that prefix alone (as greedy decoding runs it), not from the page's
    teacher-forced run of the whole target."""
    model, tokens = ctx.model(), ctx.tokens
    src = torch.tensor([tokens.src_ids])
    tgt = torch.tensor([tokens.tgt_in_ids[:query + 1]])
    src_mask = torch.ones(1, 1, src.size(1), dtype=torch.bool)
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        out = model.decode(memory, src_mask, tgt, subsequent_mask(tgt.size(1)))
        return model.generator(out[:, -1])[0].exp().double()


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_lang("en")


# ---- the file form -----------------------------------------------------------------------


def test_a_next_question_comes_back_the_same_from_its_file_and_link():
    assert parse_lesson(dumps(LESSON)) == LESSON
    assert from_link(to_link(LESSON)) == LESSON
    question = to_json(LESSON)["steps"][0]["question"]
    assert question == {"kind": "next", "query": 3,
                        "explain": {"en": "Digits come one at a time.", "zh": "逐位写出。"}}


@pytest.mark.parametrize("query", [-1, MAX_QUERY + 1, 1.5, "2", True, None])
def test_a_next_question_with_a_position_that_is_no_position_is_refused(query):
    data = to_json(LESSON)
    data["steps"][0]["question"]["query"] = query
    with pytest.raises(LessonError) as caught:
        parse_lesson(json.dumps(data))
    assert caught.value.key == "lesson.err_query"


def test_the_editor_keeps_a_next_questions_position_and_drops_options():
    note, data = step_fields({"kind": "next", "query": 4, "options_en": "a\nb"})
    assert data == {"kind": "next", "prompt": {"en": "", "zh": ""},
                    "explain": {"en": "", "zh": ""}, "query": 4}


# ---- what the live model answers ---------------------------------------------------------


@pytest.mark.parametrize("view", [DATES, UNTRAINED], ids=["dates", "untrained"])
def test_each_positions_answer_is_the_decoders_most_likely_next_token(view):
    ctx = context_of(view)
    _, itos = model_vocabs(ctx.tokens)
    set_lang("en")
    for query in range(len(ctx.tokens.tgt_in_tokens)):
        asked = next_question(ctx, Question("next", query=query), "en")
        probs = prefix_probs(ctx, query)
        top = int(probs.argmax())
        likely = set(torch.topk(probs, NEXT_OPTIONS).indices.tolist())
        shown = [i for i, tok in enumerate(itos) if i in likely]  # vocabulary order
        assert asked.options == tuple(itos[i] if itos[i].strip() else "\u2423" for i in shown)
        assert asked.options[asked.truth] == itos[top]
        assert percent(float(probs[top])) in asked.explain
        assert len(asked.options) == min(NEXT_OPTIONS, len(itos))


def test_the_date_translator_writes_the_date_it_reads_digit_by_digit():
    ctx = context_of(DATES)
    target = ctx.tokens.tgt_tokens  # the translator's own answer: 2026-11-23
    assert "".join(target) == "2026-11-23"
    for query, token in enumerate(target):
        assert next_question(ctx, Question("next", query=query), "en").options[
            next_question(ctx, Question("next", query=query), "en").truth] == token


def test_the_prompt_says_what_the_decoder_has_read_and_the_teachers_own_words_win():
    ctx = context_of(DATES)
    set_lang("en")
    asked = next_question(ctx, Question("next", query=3), "en")
    assert '"<s>202"' in asked.prompt and "first 4 target positions" in asked.prompt
    set_lang("zh")
    asked = next_question(ctx, Question("next", query=3), "zh")
    assert "“<s>202”" in asked.prompt and "前 4 个位置" in asked.prompt
    own = Question("next", {"en": "Which digit?"}, query=3)
    assert next_question(ctx, own, "en").prompt == "Which digit?"


def test_a_position_past_the_target_or_off_the_steps_view_is_not_asked():
    ctx = context_of(DATES)
    past = Question("next", query=len(ctx.tokens.tgt_in_tokens))
    assert next_question(ctx, past, "en") is None
    assert step_asked(ctx, Question("next", query=0), DATES, "en", on_step=False) is None
    assert step_asked(ctx, Question("next", query=0), DATES, "en", on_step=True) is not None


# ---- a learner answers it -----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_learner_answers_a_next_question_wrong_then_right(lang):
    set_lang(lang)  # AppTest formats the widgets' options in the test's own language
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(lesson=to_link(LESSON), lstep="1", lang=lang)
    at.run()
    assert not at.exception
    ctx = context_of(DATES)
    _, itos = model_vocabs(ctx.tokens)
    probs = prefix_probs(ctx, 3)
    truth = itos[int(probs.argmax())]  # "6": 2026's last digit
    picker = next(r for r in at.radio if str(r.key).startswith("lesson_pick"))
    labels = list(picker.options)
    assert truth in labels and len(labels) == NEXT_OPTIONS
    picker.set_value((labels.index(truth) + 1) % len(labels)).run()
    at.button(key="lesson_check_0").click().run()
    assert len(at.error) == 1 and not at.success
    at.button(key="lesson_again_0").click().run()
    picker = next(r for r in at.radio if str(r.key).startswith("lesson_pick"))
    picker.set_value(labels.index(truth)).run()
    at.button(key="lesson_check_0").click().run()
    assert not at.exception and len(at.success) == 1 and not at.error
    texts = " ".join(str(m.value) for m in at.markdown)
    said = {"en": "the highest probability", "zh": "的概率最高"}[lang]
    assert said in texts and {"en": "Digits come", "zh": "逐位写出"}[lang] in texts
