"""Break a part and retrain: the plan, the two arms, the measured lesson
of the missing mask, and the Train page's section through AppTest in both languages."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import fields

import numpy as np
import pytest
import torch
from apptest_helpers import all_text, app_in, errors, figures
from shared_inputs import bad_input_texts
from step_gate import StepGate

from explorer.core.settings import Settings
from explorer.training.experiments import (
    BREAK_CHOICES,
    BREAKS,
    DEFAULT_BUDGET,
    RACE_CHOICES,
    SMOOTHING,
    ArmResult,
    arms,
    hurt_most,
    parse_plan,
    run_experiment,
    start_experiment,
    start_race,
    teacher_forced_accuracy,
)
from explorer.training.run import ModelKey, build_model_for
from explorer.training.settings import TrainSettings
from explorer.training.task import film_probe, task_for
from transformer.config import BREAK_SWITCHES
from transformer.model import TransformerConfig

TS = TrainSettings()  # the Train button's recipe: copy on digits


def _key(task_name: str = "copy") -> tuple[ModelKey, object]:
    task, _ = task_for(task_name, "digits", "")
    return ModelKey.of(TS.model_settings(Settings()), task), task


def test_every_switch_is_offered_once_with_each_non_default_value():
    assert BREAK_SWITCHES == tuple(f for f in BREAK_SWITCHES
                                   if f in {x.name for x in fields(TransformerConfig)})
    assert BREAKS == {
        "decoder_mask.none": ("decoder_mask", "none"),
        "decoder_mask.inverted": ("decoder_mask", "inverted"),
        "positional_encoding": ("positional_encoding", False),
        "scale_scores": ("scale_scores", False),
        "residual": ("residual", False),
    }
    assert BREAK_CHOICES[-1] == SMOOTHING


@pytest.mark.parametrize("raw", [
    (["<b>x</b>"], 0.1, 300), ("<b>x</b>", 0.1, 300), (["residual"], 0.1, 10**9),
    (["residual"], 0.1, 2.5), (["residual"], 0.1, True), (None, None, None),
    ([SMOOTHING], float("nan"), 300), ([SMOOTHING], 0.9, 300), ([SMOOTHING], "0.2", 300),
    (["residual", 7], 0.1, 300), ([], 0.1, 300), ({"residual": 1}, 0.1, 300),
])
def test_forged_panel_values_fall_back_and_are_named(raw):
    plan, bad = parse_plan(*raw)
    assert bad
    assert plan.choices and set(plan.choices) <= set(BREAK_CHOICES)
    assert 20 <= plan.steps <= 2000 and 0.05 <= plan.smoothing <= 0.5


def test_several_parts_and_their_order():
    plan, bad = parse_plan([SMOOTHING, "residual", "residual"], 0.2, 100)
    assert not bad and plan.choices == ("residual", SMOOTHING) and plan.single is None
    assert parse_plan([], 0.1, 100)[1] == ["none"]
    plan, bad = parse_plan(["decoder_mask.inverted", "decoder_mask.none", "residual"], 0.1, 100)
    assert bad == ["one_mask"] and plan.choices == ("decoder_mask.none", "residual")


@pytest.mark.parametrize("choice", BREAK_CHOICES)
def test_the_two_arms_differ_in_exactly_the_chosen_part(choice):
    key, _ = _key()
    plan, bad = parse_plan([choice], 0.2, 50)
    assert not bad
    (k1, c1), (k2, c2) = arms(key, TS.train_config(0), plan)
    assert c1.steps == c2.steps == 50
    if choice == SMOOTHING:
        assert k1 == k2 and (c1.smoothing, c2.smoothing) == (0.0, 0.2)
        return
    assert c1 == c2
    name, value = BREAKS[choice]
    diff = [f.name for f in fields(TransformerConfig)
            if getattr(k1.config, f.name) != getattr(k2.config, f.name)]
    assert diff == [name] and getattr(k2.config, name) == value
    a, b = build_model_for(k1), build_model_for(k2)
    for (n1, p1), (n2, p2) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert n1 == n2 and torch.equal(p1, p2)  # the same initial weights


def test_a_missing_mask_trains_perfectly_and_decodes_nothing():
    key, task = _key()
    plan, _ = parse_plan(["decoder_mask.none"], 0.1, 200)
    exp = run_experiment(start_experiment(key, TS.train_config(0), plan,
                                          film_probe(task, "")))
    ok, bad = exp.results
    assert bad.teacher_forced >= 0.95 and bad.loss < ok.loss
    assert bad.greedy <= 0.05 < ok.greedy
    assert ok.steps == bad.steps == 200
    assert ok.self_attn.shape == bad.self_attn.shape
    # the correct model never looks ahead; the broken one does
    future = torch.triu(torch.ones(ok.self_attn.shape, dtype=torch.bool), diagonal=1).numpy()
    assert ok.self_attn[future].max() < 1e-6
    assert bad.self_attn[future].sum() > 1.0


def test_a_race_trains_the_correct_model_once_and_each_break_as_its_own_experiment_would():
    key, task = _key()
    config = TS.train_config(0)
    race = start_race(key, config, RACE_CHOICES, 0.2, 30, film_probe(task, ""))
    assert race.choices == RACE_CHOICES == (
        "decoder_mask.none", "positional_encoding", "scale_scores", "residual", SMOOTHING)
    assert len(race.states) == len(RACE_CHOICES) + 1 and race.states[0] is race.correct
    for choice, state in zip(RACE_CHOICES, race.broken, strict=True):
        _, (k2, c2) = arms(key, config, parse_plan([choice], 0.2, 30)[0])
        assert (state.key, state.config) == (k2, c2)  # as "Train both" of this break alone
    assert (race.correct.key, race.correct.config.steps) == (key, 30)
    seen: list[int] = []
    run_experiment(race, lambda arm, info: seen.append(arm) and None)
    assert sorted(set(seen)) == list(range(len(race.states)))  # one after the other
    assert seen == sorted(seen)
    assert len(race.results) == len(race.states) and not race.running
    assert race.hurt_most() == hurt_most(race.results[1:])


def test_a_stop_in_a_race_ends_the_models_after_it():
    key, task = _key()
    race = start_race(key, TS.train_config(0), RACE_CHOICES[:3], 0.1, 40, film_probe(task, ""))
    run_experiment(race, lambda arm, info: arm == 1 and info.step == 5)
    assert race.broken[0].step == 5 and all(s.step == 0 for s in race.broken[1:])
    assert race.results is None and race.hurt_most() is None and not race.running


def _arm(greedy: float, tf: float, loss: float) -> ArmResult:
    empty = np.zeros((1, 1))
    return ArmResult(loss=loss, teacher_forced=tf, greedy=greedy, seconds=1.0, steps=1,
                     probe_answer=(), self_attn=empty, cross_attn=empty)


def test_the_break_that_hurt_most_decodes_worst_and_a_tie_goes_to_teacher_forcing_then_loss():
    assert hurt_most((_arm(0.5, 1, 0.1), _arm(0.0, 1, 0.1), _arm(0.2, 0.2, 3))) == 1
    assert hurt_most((_arm(0.0, 1.0, 0.1), _arm(0.0, 0.6, 0.1))) == 1  # both decode nothing
    assert hurt_most((_arm(0.0, 1.0, 0.1), _arm(0.0, 1.0, 0.4))) == 1
    assert hurt_most((_arm(0.3, 0.9, 0.2), _arm(0.3, 0.9, 0.2))) == 0


def test_teacher_forced_accuracy_matches_training_accuracy_definition():
    key, task = _key()
    model = build_model_for(key)
    acc = teacher_forced_accuracy(model, task, n=50)
    assert 0.0 <= acc <= 1.0 and not math.isnan(acc)


WAIT = 120.0  # seconds: a generous bound on a busy machine; never reached normally


def _run_section(at, choice="decoder_mask.none", steps=40):
    """Choose, press Train both, and draw the page again once both models are measured
    (they train in the background: on a slow machine the click's run may end first)."""
    at.session_state["exp_breaks"] = [choice] if isinstance(choice, str) else list(choice)
    at.session_state["exp_steps"] = steps
    at.run()
    at.button(key="exp_run").click().run()
    exp = at.session_state["exp_state"]
    if exp.busy:
        _wait_until_measured(exp)
        at.run()
    return at


def _wait_until_measured(exp) -> None:
    exp.idle.wait(WAIT)
    assert not exp.running, "the experiment did not end"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_section_trains_both_and_explains_the_result(lang):
    with app_in(lang, "train") as at:
        assert not at.exception and not errors(at)
        _run_section(at)
        assert not at.exception and not errors(at)
        text = " ".join(m.value for m in at.markdown)
        teacher = "Measured" if lang == "en" else "测量结果"
        assert teacher in text
        assert sum(key.endswith(("exp_curves", "_ok", "_bad")) for key in figures(at)) == 5
        table = [d for d in at.dataframe if len(d.value.columns) == 3]
        assert table, "the side-by-side table"
        assert at.session_state["exp_state"].results is not None


def test_forged_values_get_a_message_not_a_traceback():
    with app_in("en", "train", exp_breaks=["<script>"], exp_steps=10**9,
                exp_eps=float("nan")) as at:
        assert not at.exception
        warnings = " ".join(w.value for w in at.warning)
        assert "Only the parts listed" in warnings and "whole number" in warnings
        assert "<script>" not in warnings
    with app_in("en", "train", exp_breaks=[]) as at:
        assert not at.exception
        assert any("at least one part" in w.value for w in at.warning)
        assert at.button(key="exp_run").disabled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_part_broken_at_once_trains_anyway_and_says_so(lang):
    with app_in(lang, "train") as at:
        _run_section(at, BREAK_CHOICES, 30)
        assert not at.exception and not errors(at)
        exp = at.session_state["exp_state"]
        # the mask is left out or inverted, not both: the first is kept, with a message
        kept = tuple(c for c in BREAK_CHOICES if c != "decoder_mask.inverted")
        assert exp.results is not None and exp.plan.choices == kept
        assert exp.broken.key.config.decoder_mask == "none"
        assert any(("not both" if lang == "en" else "不能同时") in w.value for w in at.warning)
        text = " ".join(m.value for m in at.markdown)
        assert ("5 parts broken at once" if lang == "en" else "同时破坏了 5 个部件") in text


def test_smoothing_break_shows_its_epsilon():
    with app_in("en", "train") as at:
        at.session_state["exp_eps"] = 0.3
        _run_section(at, SMOOTHING, 30)
        assert not at.exception
        text = " ".join(m.value for m in at.markdown)
        assert "ε = 0.3" in text and "0.7" in text


@pytest.mark.parametrize("text", bad_input_texts(limit=6))
def test_hostile_sentences_in_the_words_task(text):
    with app_in("en", "train", source=text, tr_task="copy", tr_symbols="words") as at:
        _run_section(at, "positional_encoding", 20)
        assert not at.exception
        for spec in figures(at).values():
            assert "<script" not in all_text(spec).lower()


def test_default_budget_is_in_range():
    assert 20 <= DEFAULT_BUDGET <= 2000


def test_a_stop_ends_the_experiment_and_keeps_what_was_trained():
    key, task = _key()
    plan, _ = parse_plan(["residual"], 0.1, 500)
    exp = start_experiment(key, TS.train_config(0), plan, film_probe(task, ""))
    seen = []

    def on_step(arm, info):
        seen.append((arm, info.step))
        return info.step == 12  # the learner pressed Stop during the correct model's run

    run_experiment(exp, on_step)
    assert exp.correct.step == 12 and exp.correct.stopped and not exp.correct.running
    assert exp.broken.step == 0 and exp.results is None  # nothing to compare: said so
    assert not exp.running
    assert {arm for arm, _ in seen} == {0}


def test_each_model_has_half_the_time_limit():
    from explorer.training.experiments import ARM_TIME_LIMIT
    from explorer.training.run import TIME_LIMIT

    key, task = _key()
    plan, _ = parse_plan(["residual"], 0.1, 50)
    exp = start_experiment(key, TS.train_config(0), plan, film_probe(task, ""))
    assert all(s.time_limit == ARM_TIME_LIMIT == TIME_LIMIT / 2 for s in exp.states)


@pytest.mark.parametrize(("ok", "bad", "verdict"), [
    ((0.99, 0.98), (1.0, 0.0), "lesson is the gap"),  # read the answer in training
    ((0.64, 0.24), (0.44, 0.12), "clearly worse"),  # worse at both: not that signature
    ((0.64, 0.24), (0.64, 0.30), "no clear difference"),
    ((0.64, 0.24), (0.70, 0.45), "did better"),
])
def test_the_verdict_follows_the_numbers(ok, bad, verdict):
    from explorer.sections.experiment import _explanation
    from explorer.training.experiments import ArmResult, BreakPlan

    def arm(tf, greedy):
        return ArmResult(1.0, tf, greedy, 1.0, 10, (), None, None)

    text = _explanation(BreakPlan(("scale_scores",)), arm(*ok), arm(*bad), 16,
                        "held-out sequences (never in a training batch)")
    assert verdict in text and "the same 200 held-out sequences (never in" in text


# ---- the experiment goes on in the background -------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_train_both_goes_on_through_other_clicks_and_ends_on_stop(monkeypatch, lang):
    from explorer.sections import experiment as experiment_view

    monkeypatch.setattr(experiment_view, "INLINE_WAIT", 0.0)  # the page draws at once
    gate = StepGate(monkeypatch)
    with app_in(lang, "train") as at:
        at.session_state["exp_breaks"] = ["residual"]
        at.session_state["exp_steps"] = 300
        at.run()
        at.button(key="exp_run").click().run()
        assert not at.exception, at.exception
        exp = at.session_state["exp_state"]
        gate.allow(exp.correct, 5)
        at.run()  # any next run: the sidebar shows it, with its own Stop, on every page
        assert exp.running and at.sidebar.button(key="exp_stop_status")
        # a click on another widget of the page: it goes on
        at.radio(key="tr_kind").set_value("enc").run()
        assert not at.exception, at.exception
        assert exp.running and not exp.correct.stop_request.is_set()
        gate.allow(exp.correct, 5)
        assert not at.button(key="exp_stop").disabled  # Stop is on while it trains
        progress = [p.proto.text for p in at.get("progress")]
        step = "step " if lang == "en" else "第 "
        assert any(step in text for text in progress), progress
        at.button(key="exp_stop").click().run()  # Stop: it ends, keeping what it trained
        assert not at.exception, at.exception
        _wait_until_measured(exp)
        assert exp.correct.stopped and exp.correct.stop_reason == "stop_button"
        assert 10 <= exp.correct.step < 300 and exp.broken.step == 0 and exp.results is None
        at.run()
        assert not at.exception and not errors(at)
        assert not at.sidebar.get("progress")  # nothing trains any more


def test_train_both_waits_its_turn_in_the_servers_queue_and_can_leave_it(monkeypatch):
    from explorer.sections import experiment as experiment_view
    from explorer.training import hub as H

    monkeypatch.setattr(experiment_view, "INLINE_WAIT", 0.0)
    gate = threading.Event()
    hub = H.Hub(slots=1, runner=lambda request, state, on_step, wants, threads: gate.wait(WAIT))
    H._HUB = hub  # noqa: SLF001 -- the server's hub, as the pages find it
    key, task = _key()
    classmate = hub.join(H.Request(key, TS.train_config(0), False, None))  # holds the slot
    try:
        with app_in("en", "train") as at:
            _ = at.session_state  # the page as it was
            at.button(key="exp_run").click().run()
            exp = at.session_state["exp_state"]
            deadline = time.monotonic() + WAIT
            while not exp.queued and time.monotonic() < deadline:
                time.sleep(0.01)
            at.run()
            assert not at.exception, at.exception
            texts = [p.proto.text for p in at.get("progress")]
            assert any(text.startswith("Waiting for a free core") for text in texts), texts
            assert "Break a part: waiting for a free core (0 ahead)" in [
                p.proto.text for p in at.sidebar.get("progress")]
            at.sidebar.button(key="exp_stop_status").click().run()  # leaves the queue
            _wait_until_measured(exp)
            assert exp.correct.step == exp.broken.step == 0 and exp.results is None
            assert classmate.job.status == "running"  # the classmate's training is untouched
    finally:
        gate.set()


def test_a_failed_experiment_says_so_and_ends(monkeypatch):
    from explorer.training import experiments

    def broken(exp, on_step=None):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(experiments, "run_experiment", broken)
    with app_in("en", "train") as at:
        at.button(key="exp_run").click().run()
        exp = at.session_state["exp_state"]
        _wait_until_measured(exp)
        at.run()
        assert not at.exception
        assert any("The experiment failed: RuntimeError: out of memory." in e.value
                   for e in at.error)
        assert not at.sidebar.get("progress")
