"""Knocking out a head: the pure compute in explorer/training/knockout.py, the Attention
page's section in both languages, and isolation (the shared shipped model is never changed,
and a knock-out in one thread or session is invisible to another).

Rerun: `.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_knockout.py`.
Everything is seeded (model seeds, the fresh inputs' seed), so every comparison is exact.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import replace

import numpy as np
import pytest
import torch
from apptest_helpers import app, app_in, array, errors, figures
from shared_inputs import bad_input_texts

from explorer.app.shelves import KNOCKOUTS_OWN, KNOCKOUTS_SHARED
from explorer.app.sources import shipped_dates
from explorer.sections.knockout import WHOLE
from explorer.text.i18n import TABLES, percent
from explorer.training import knockout as K
from transformer import dates as D
from transformer.hook_paths import SUBLAYERS, attention_hook, sublayer_hook
from transformer.hooks import hook_names
from transformer.model import TransformerConfig, build_model
from transformer.tasks import DIGITS, Task
from transformer.tokenize import BOS, EOS

CFG = TransformerConfig(src_vocab=14, tgt_vocab=14, N=2, d_model=16, d_ff=32, h=4,
                        dropout=0.0)
SRC = (5, 6, 7, 8, 9, EOS)
A_DATE = "Montag, 23. November 2026"


def _digest(model: torch.nn.Module) -> str:
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().contiguous().numpy().tobytes())
    return h.hexdigest()


def _model(seed: int = 0):
    return build_model(CFG, seed=seed).eval()


def _answer(model, edits=None) -> tuple[int, ...]:
    return K.answer_ids(model, SRC, bos=BOS, eos=EOS, max_len=10, edits=edits)


# ---- the units and their edits ----------------------------------------------------------------


def test_every_head_and_every_sublayer_is_a_unit_with_a_real_hook_point():
    model = _model()
    names = set(hook_names(model))
    units = K.units(CFG)
    heads = [u for u in units if u.head is not None]
    wholes = [u for u in units if u.head is None]
    assert len(heads) == len(K.ATTENTION_PARTS) * CFG.N * CFG.h == 24
    assert len(wholes) == sum(len(m) for m in SUBLAYERS.values()) * CFG.N == 10
    assert len(set(units)) == len(units)
    for unit in units:
        assert unit.hook() in names
        assert K.is_unit_of(unit, CFG)
    for unit in heads:  # a head is knocked out at its hook_z, by name from attention_hook
        assert unit.hook() == attention_hook(unit.stack, unit.layer, unit.module, "hook_z")
    for unit in wholes:
        index = SUBLAYERS[unit.stack].index(unit.module)
        assert unit.hook() == sublayer_hook(unit.stack, unit.layer, index, "hook_sublayer_out")


def test_the_edits_target_hook_z_and_zero_only_the_chosen_heads():
    z = attention_hook("decoder", 1, "src_attn", "hook_z")
    edits = K.edits_for([K.Unit("cross", 1, 3), K.Unit("cross", 1, 0)])
    assert list(edits) == [z]
    x = torch.ones(2, CFG.h, 5, CFG.d_model // CFG.h)
    out = edits[z](x)
    assert torch.all(out[:, [0, 3]] == 0) and torch.all(out[:, [1, 2]] == 1)
    assert torch.all(x == 1)  # the edit returns a new tensor
    whole = K.edits_for([K.Unit("cross", 1, 3), K.Unit("cross", 1)])
    assert set(whole) == {z, sublayer_hook("decoder", 1, 1, "hook_sublayer_out")}


@pytest.mark.parametrize("unit", [
    K.Unit("enc", 2, 0), K.Unit("enc", 0, 4), K.Unit("enc", -1, 0), K.Unit("enc", 0, -1),
    K.Unit("encoder_feed_forward", 0, 1), K.Unit("<b>x</b>", 0), K.Unit("enc", True, 0),
    K.Unit("enc", "0", 0), K.Unit("enc", 0.0, 0), ("enc", 0, 0), None])
def test_forged_units_are_refused(unit):
    assert not K.is_unit_of(unit, CFG)


@pytest.mark.parametrize("part", K.ATTENTION_PARTS)
def test_knocking_out_every_head_of_a_kind_changes_the_answer(part):
    model = _model(seed=0)
    before = _digest(model)
    intact = _answer(model)
    every = [K.Unit(part, layer, head) for layer in range(CFG.N) for head in range(CFG.h)]
    assert _answer(model, K.edits_for(every)) != intact
    assert _answer(model) == intact  # nothing outlives the knock-out
    assert _digest(model) == before


# ---- the task and the accuracy ------------------------------------------------------------------


def test_the_task_is_found_or_its_absence_explained():
    digits = Task("copy", DIGITS, 1, 9)
    itos = tuple(digits.vocab.itos)
    assert K.task_of(None, itos, itos) == (None, "ko.no_task_untrained")
    assert K.task_of({}, itos, itos) == (None, "ko.no_task_file")
    assert K.task_of({"task": "<script>"}, itos, itos) == (None, "ko.no_task_file")
    task, why = K.task_of({"task": "copy"}, itos, itos, max_len=66)
    held = replace(digits, split="held_out")  # measured on sequences training never sees
    assert why == "" and task == held
    assert K.task_of({"task": "sort", "symbols": ["a", "b"]}, itos, itos)[1] == "ko.no_task_vocab"
    assert K.task_of({"task": "copy"}, itos, itos, max_len=8)[1] == "ko.no_task_long"
    assert K.task_of(None, itos, itos, trained=digits) == (held, "")
    dates = shipped_dates()
    task, why = K.task_of(dates.meta, dates.src_vocab, dates.tgt_vocab,
                          max_len=dates.config.max_len)
    assert why == "" and isinstance(task, D.DateTask) and task.split == "held_out"
    for key in ("ko.no_task_untrained", "ko.no_task_file", "ko.no_task_vocab",
                "ko.no_task_long", "ko.part_encoder_feed_forward",
                "ko.part_decoder_feed_forward"):
        assert key in TABLES["en"] and key in TABLES["zh"]


def test_accuracy_reads_an_eval_model_only():
    model = build_model(CFG, seed=0)  # train mode: dropout would draw
    fresh = K.fresh_inputs(Task("copy", DIGITS, 1, 4), n=8)
    with pytest.raises(ValueError, match="eval mode"):
        K.accuracy(model, fresh)
    assert model.training  # and it was not switched


def test_the_fresh_inputs_are_the_same_every_time():
    task = Task("reverse", DIGITS, 1, 9)
    a, b = K.fresh_inputs(task, n=20), K.fresh_inputs(task, n=20)
    assert torch.equal(a.src, b.src) and torch.equal(a.tgt, b.tgt) and a.n == 20


def test_the_grid_has_a_layer_by_head_panel_per_attention_with_progress():
    task = Task("copy", DIGITS, 1, 6)
    model = _model(seed=1)
    fresh = K.fresh_inputs(task, n=16)
    seen: list[tuple[int, int]] = []
    grid = K.head_grid(model, fresh, CFG, lambda done, total: seen.append((done, total)))
    assert list(grid.lost) == list(K.ATTENTION_PARTS) == ["enc", "dec", "cross"]
    for lost in grid.lost.values():
        assert lost.shape == (CFG.N, CFG.h)
        assert np.all((lost >= -1) & (lost <= 1))
    total = 1 + 3 * CFG.N * CFG.h
    assert seen == [(i, total) for i in range(1, total + 1)]
    assert grid.n == 16 and grid.seconds > 0


def test_the_shipped_model_loses_accuracy_without_heads_and_is_never_changed():
    loaded = shipped_dates()
    model, before = loaded.model, _digest(loaded.model)
    task, _ = K.task_of(loaded.meta, loaded.src_vocab, loaded.tgt_vocab)
    fresh = K.fresh_inputs(task, n=60)
    grid = K.head_grid(model, fresh, loaded.config)
    assert grid.intact >= 0.95
    for lost in grid.lost.values():
        assert lost.shape == (loaded.config.N, loaded.config.h)
        assert np.all((lost >= -1) & (lost <= 1))
    unit, lost = grid.most_important()
    assert lost == pytest.approx(grid.intact - K.accuracy(model, fresh, K.edits_for([unit])))
    assert lost > 0.05  # some head matters to the date translator
    whole = K.accuracy(model, fresh, K.edits_for([K.Unit("cross", 0)]))
    assert whole < grid.intact - 0.1
    assert _digest(model) == before
    assert not model.training and not any(p.requires_grad for p in model.parameters())


# ---- isolation --------------------------------------------------------------------------------


def test_a_knock_out_in_one_thread_is_invisible_in_another():
    model = _model(seed=0)
    intact = _answer(model)
    every = K.edits_for([K.Unit("cross", layer, head) for layer in range(CFG.N)
                         for head in range(CFG.h)])
    inside, release, seen = threading.Event(), threading.Event(), {}

    def paused(edit):  # holds thread A inside its knock-out until B has decoded
        def run(x: torch.Tensor) -> torch.Tensor:
            inside.set()
            release.wait(timeout=30)
            return edit(x)
        return run

    def knocked() -> None:
        seen["a"] = _answer(model, {name: paused(edit) for name, edit in every.items()})

    thread = threading.Thread(target=knocked)
    thread.start()
    assert inside.wait(timeout=30)
    seen["b"] = _answer(model)  # while A's knock-out is active
    release.set()
    thread.join(timeout=60)
    assert seen["b"] == intact and seen["a"] != intact


def _section(at) -> dict[str, object]:
    """What the knock-out section shows: its answers and its accuracies."""
    return {"code": [c.value for c in at.main.code], "metric": [m.value for m in at.metric]}


def test_a_knock_out_in_one_session_leaves_another_and_the_shared_model_alone():
    before = _digest(shipped_dates().model)
    b = app("attention", ko_open=True, model_source="dates", source=A_DATE, target="")
    seen = _section(b)
    a = app("attention", ko_open=True, model_source="dates", source=A_DATE, target="",
            ko_part="cross", ko_layer=0, ko_head=WHOLE)
    assert not a.exception and _section(a)["metric"][1] != seen["metric"][1]
    b.run()
    assert _section(b) == seen
    assert _digest(shipped_dates().model) == before


# ---- the page ------------------------------------------------------------------------------


def _texts(at) -> str:
    return "\n".join(str(el.value) for kind in ("header", "markdown", "caption", "info",
                                                 "warning") for el in getattr(at, kind))


def test_the_experiment_is_drawn_only_while_open_and_the_link_says_whether_it_is():
    at = app("attention", model_source="dates", source=A_DATE, target="")
    assert not at.exception and not errors(at)
    assert TABLES["en"]["ko.header"] in _texts(at)  # the title and what it does: always
    assert TABLES["en"]["ko.open"] in [e.label for e in at.main.expander]
    assert not [w for w in at.selectbox if w.key in ("ko_part", "ko_layer", "ko_head")]
    assert "kon" not in at.query_params
    at.session_state["ko_open"] = True  # the learner opens it
    at.run()
    assert at.selectbox(key="ko_part").value is not None
    assert at.main.code[0].value == "2026-11-23 </s>"  # the whole model's answer
    assert at.query_params["kon"] in ("1", ["1"])
    for forged in ("<script>", 2, None):
        at.session_state["ko_open"] = forged
        at.run()
        assert not at.exception and at.session_state["ko_open"] is False, forged


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_section_with_the_date_translator(lang):
    with app_in(lang, "attention", ko_open=True, model_source="dates", source=A_DATE,
                target="") as at:
        assert not at.exception and not errors(at)
        text = _texts(at)
        assert TABLES[lang]["ko.header"] in text
        assert attention_hook("encoder", 0, "self_attn", "hook_z") in text
        labels = [m.label for m in at.metric]
        assert TABLES[lang]["ko.acc_intact"].format(n=K.FRESH) in labels
        assert at.main.code[0].value == "2026-11-23 </s>"  # the whole model's answer
        assert any(b.key == "ko_measure" for b in at.button)
        if lang == "zh":
            return
        at.button(key="ko_measure").click().run()
        assert not at.exception and not errors(at)
        heat = [f for f in figures(at).values()
                if len(f["data"]) == 3 and all(d["type"] == "heatmap" for d in f["data"])]
        assert heat, "the grid of accuracy lost is drawn"
        for trace in heat[0]["data"]:
            z = array(trace["z"])
            assert z.shape == (2, 4) and np.all((z >= -1) & (z <= 1))
        assert "measured in" in _texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_section_with_the_untrained_model(lang):
    with app_in(lang, "attention", ko_open=True, model_source="untrained") as at:
        assert not at.exception and not errors(at)
        assert TABLES[lang]["ko.no_task_untrained"] in [i.value for i in at.info]
        assert not any(b.key == "ko_measure" for b in at.button)
        assert TABLES[lang]["ko.acc_intact"].format(n=K.FRESH) not in [m.label for m in at.metric]


@pytest.mark.parametrize("state", [
    {"ko_layer": 99}, {"ko_head": 40}, {"ko_head": "<b>0</b>"}, {"ko_part": "<script>"},
    {"ko_layer": -3, "ko_head": 1.5}])
def test_forged_widget_values_are_refused_with_a_warning(state):
    at = app("attention", ko_open=True, model_source="dates", source=A_DATE, target="", **state)
    assert not at.exception and not errors(at)
    assert TABLES["en"]["ko.refused"] in [w.value for w in at.warning]
    assert at.main.code[0].value == "2026-11-23 </s>"


def test_a_head_left_over_becomes_the_whole_feed_forward_network():
    at = app("attention", ko_open=True, model_source="dates", source=A_DATE, target="",
             ko_part="encoder_feed_forward", ko_head=2)
    assert not at.exception and not at.warning
    assert at.session_state["ko_head"] == WHOLE
    assert TABLES["en"]["ko.no_pattern"] in _texts(at)


def test_hostile_texts_give_no_exception():
    at = app("attention", ko_open=True, model_source="untrained")
    for text in bad_input_texts():
        at.session_state["source"] = text
        at.run()
        assert not at.exception, text


def test_results_of_shared_models_are_measured_once_and_an_uploads_kept_in_its_session():
    from explorer.app import memo
    from explorer.sections import knockout as knockout_view

    calls = []

    def compute():
        calls.append(1)
        return (0.5, 0.1)

    shipped = {"shared": True}
    key = (("dates",), ())
    memo.forget(KNOCKOUTS_SHARED["accuracy"], key)
    assert knockout_view._remember("accuracy", shipped, key, compute) == (0.5, 0.1)
    assert knockout_view._remember("accuracy", shipped, key, compute) == (0.5, 0.1)
    assert knockout_view._known("accuracy", shipped, key) == (0.5, 0.1) and len(calls) == 1
    assert key in memo.held(KNOCKOUTS_SHARED["accuracy"])
    assert all(shelf.shared for shelf in KNOCKOUTS_SHARED.values())
    assert not any(shelf.shared for shelf in KNOCKOUTS_OWN.values())


@pytest.mark.parametrize("seed", range(3))
def test_answer_pair_decodes_both_in_one_batch(seed):
    model = _model(seed)
    unit = next(u for u in K.units(CFG) if u.head == 1)
    edits = K.edits_for([unit])
    pair = K.answer_pair(model, SRC, bos=BOS, eos=EOS, max_len=10, edits=edits)
    assert pair == (_answer(model), _answer(model, edits))


def test_the_change_in_points_adds_up_from_the_shown_percentages():
    from explorer.sections.knockout import points

    assert points("99.3%", "93.7%") == "-5.6"  # not -5.7 from the unrounded shares
    assert points("97%", "100%") == "+3.0"
    assert points("50%", "50%") == "0.0"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sections_sentences_agree_with_each_other(lang):
    """No "did not change" beside "would still change"; the model's owner said right; the
    knock-out's accuracy and the box's at the top each say what they were measured on."""
    table = TABLES[lang]
    for key in ("ko.no_task_untrained", "ko.no_task_file", "ko.no_task_vocab",
                "ko.no_task_long"):
        assert "still change" not in table[key] and "仍会改变" not in table[key]
    with app_in(lang, "attention", ko_open=True, model_source="untrained") as at:
        assert table["ko.whose_shared"] in _texts(at)
    with app_in(lang, "attention", ko_open=True, model_source="dates", source=A_DATE,
                target="") as at:
        text = _texts(at)
        assert table["ko.whose_shared"] in text
        made = shipped_dates().meta
        assert table["ko.acc_vs_made"].format(made_n=made["held_out_n"],
                                              made=percent(made["held_out_exact"])) in text
