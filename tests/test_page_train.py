"""The Train & decode page: its session logic, its figures, and the page through AppTest."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from apptest_helpers import PAPER_BASE, all_text, app, errors, figure_list

from explorer.core.settings import Settings
from explorer.figures.train import (
    attention_figure,
    loss_figure,
    next_token_figure,
    noam_figure,
    smoothing_example,
    smoothing_figure,
)
from explorer.text.i18n import percent
from explorer.training.decoding import (
    attention_pattern,
    decode_input,
    teacher_forcing_rows,
    top_tokens,
)
from explorer.training.run import (
    ModelKey,
    TrainedState,
    build_model_for,
    finish,
    run_training,
    start_training,
)
from explorer.training.settings import TrainSettings, parse_train_settings
from explorer.training.task import DEFAULT_DIGITS, answer, parse_sequence, task_for
from transformer.train import StepInfo, TrainConfig, greedy_decode, rate

TAGS = ("<b>", "<a ", "<span", "<script", "<i>")


def _key(task_name: str = "copy", symbols: str = "digits", text: str = "") -> ModelKey:
    task, _ = task_for(task_name, symbols, text)
    return ModelKey.of(Settings(), task)


# ---- Validation ------------------------------------------------------------------------------


def test_train_settings_defaults_and_hostile_values():
    assert parse_train_settings({}) == TrainSettings() and not TrainSettings().errors
    bad = parse_train_settings({
        "task": "<b>x</b>", "symbols": None, "steps": 10**9, "batch_size": 7, "lr": float("nan"),
        "warmup": 2.5, "factor": "1e9", "smoothing": -1, "schedule": "adam",
        "model": "<script>", "early_stop": "yes",
    })
    assert bad == TrainSettings()  # every field fell back to its default
    assert len(bad.errors) == 11
    assert all("<b>" not in e for e in bad.errors)
    ok = parse_train_settings({"steps": 50.0, "lr": 1e-2, "smoothing": 0.5, "batch_size": 16,
                               "schedule": "noam", "warmup": 4000, "factor": 0.1})
    assert not ok.errors and ok.steps == 50 and isinstance(ok.steps, int)
    cfg = ok.train_config(seed=3)
    assert cfg.schedule == "noam" and cfg.warmup == 4000 and cfg.seed == 3


def test_task_for_words_falls_back_to_digits_with_a_reason():
    task, note = task_for("sort", "words", "the cat sat on the mat")
    assert note is None
    assert task.symbols == ("cat", "mat", "on", "sat", "the")  # distinct, in sorted order
    assert task.max_len == 6
    for text in ("the the the", "", "   ", "! !"):
        task, note = task_for("copy", "words", text)
        assert task.symbols == tuple("0123456789") and note and "digits" in note
    task, note = task_for("copy", "words", " ".join(f"w{i}" for i in range(40)))
    assert len(task.symbols) == 20 and note and "20" in note
    assert task_for("reverse", "digits", "the cat")[0].symbols == tuple("0123456789")


@pytest.mark.parametrize("text", [
    "<b>1</b>", "", "   ", "1 2 x", "1 2 3 4 5 6 7 8 9 0", "12 3", "١٢٣", "1" * 5000, None, 42,
    "[1](javascript:alert(1))", "$1$",
])
def test_parse_sequence_refuses_hostile_input_without_echoing_it(text):
    task, _ = task_for("copy", "digits", "")
    tokens, error = parse_sequence(text, task)
    assert tokens is None and error and len(error) > 20
    for bad in ("<b>", "javascript", "$1$", "١"):
        assert bad not in error


def test_parse_sequence_accepts_digits_with_or_without_spaces():
    task, _ = task_for("copy", "digits", "")
    assert parse_sequence(DEFAULT_DIGITS, task) == (list("3141592"), None)
    assert parse_sequence(" 31415 ", task) == (list("31415"), None)
    words, _ = task_for("copy", "words", "the cat sat")
    assert parse_sequence("cat the", words) == (["cat", "the"], None)
    assert parse_sequence("dog", words)[0] is None


# ---- Training ---------------------------------------------------------------------------------


def test_fresh_model_is_deterministic_and_session_owned():
    key = _key()
    a, b = build_model_for(key), build_model_for(key)
    assert a is not b and not a.training
    for (name, p), q in zip(a.state_dict().items(), b.state_dict().values(), strict=True):
        assert torch.equal(p, q), name
    assert a.src_embed[0].lut.weight.shape == (14, 32)  # 4 specials + 10 digits, tiny preset


def test_training_copy_learns_and_keeps_history():
    state = start_training(_key(), TrainConfig(steps=80, batch_size=32, lr=3e-3))
    updates: list[int] = []
    run_training(state, lambda info: updates.append(info.step) and False)
    assert isinstance(state, TrainedState) and not state.running and not state.stopped
    assert [h.step for h in state.history] == list(range(1, 81)) == updates
    first = np.mean([h.loss for h in state.history[:10]])
    last = np.mean([h.loss for h in state.history[-10:]])
    assert last < 0.7 * first
    assert state.accuracy is not None and 0.0 <= state.accuracy <= 1.0
    assert state.seconds > 0 and not state.model.training


def test_callback_can_stop_training():
    state = start_training(_key(), TrainConfig(steps=100, batch_size=16))
    run_training(state, lambda info: info.step >= 5)
    assert state.step == 5 and state.stopped and state.stop_reason
    assert state.accuracy is not None


def test_interrupted_training_keeps_what_it_learned():
    """Streamlit interrupts a run by raising from an st.* call inside the callback."""

    class FakeRerunError(Exception):
        pass

    def on_step(info: StepInfo) -> bool:
        if info.step == 7:
            raise FakeRerunError
        return False

    state = start_training(_key(), TrainConfig(steps=50, batch_size=16))
    with pytest.raises(FakeRerunError):
        run_training(state, on_step)
    assert state.running and state.step == 7 and len(state.history) == 7
    finish(state, "the Stop button")  # what the next script run does
    assert not state.running and state.stopped and state.stop_reason == "the Stop button"
    assert state.accuracy is not None and not state.model.training
    fresh = build_model_for(state.key)
    assert not torch.equal(fresh.generator.proj.weight, state.model.generator.proj.weight)


# ---- Decoding and attention ------------------------------------------------------------------


def test_decode_steps_shapes_and_greedy_agreement():
    key = _key()
    task, model = key.task_obj, build_model_for(key)
    tokens = ["3", "1", "4"]
    dec = decode_input(model, task, tokens)
    assert 1 <= len(dec.steps) <= task.max_len + 1
    assert dec.src == ("3", "1", "4", "</s>")  # the encoder reads the input, then </s>
    assert dec.enc_attn.shape == (2, 4, 4, 4)
    for k, view in enumerate(dec.steps, start=1):
        assert len(view.prefix) == k and view.prefix[0] == "<s>"
        assert view.self_attn.shape == (2, 4, k, k)
        assert view.cross_attn.shape == (2, 4, k, 4)
        assert view.probs.shape == (len(task.vocab),) and abs(view.probs.sum() - 1) < 1e-4
        assert np.allclose(np.triu(view.self_attn[0, 0], 1), 0, atol=1e-6)  # causal
    src = torch.tensor([task.vocab.encode([*tokens, "</s>"])])
    ys = greedy_decode(model, src, src != 0, task.max_len + 2)[0, 1:].tolist()
    assert list(dec.output) == task.vocab.decode(ys)[: len(dec.output)]
    top = top_tokens(dec.steps[0].probs, dec.itos, 10)
    assert len(top) == 10 and top[0][0] == dec.steps[0].next_token
    assert [p for _, p in top] == sorted((p for _, p in top), reverse=True)


def test_attention_pattern_before_after_shapes():
    key = _key("reverse")
    model = build_model_for(key)
    tokens = ["1", "2", "3", "4"]
    cross, q, k = attention_pattern(model, key.task_obj, tokens, "cross")
    assert cross.shape == (5, 5) and q == ["<s>", "4", "3", "2", "1"] and k == [*tokens, "</s>"]
    assert np.allclose(cross.sum(-1), 1, atol=1e-5)
    enc, q, k = attention_pattern(model, key.task_obj, tokens, "enc")
    assert enc.shape == (5, 5) and q == k == [*tokens, "</s>"]
    assert answer(key.task_obj, tokens) == ["4", "3", "2", "1"]
    rows = teacher_forcing_rows(key.task_obj, tokens)
    assert rows["decoder input (tgt)"] == ["<s>", "4", "3", "2", "1"]
    assert rows["label to predict (tgt_y)"] == ["4", "3", "2", "1", "</s>"]


# ---- Figures ---------------------------------------------------------------------------------


def _text(fig: go.Figure) -> str:
    return all_text(json.loads(fig.to_json()))


def _history(n: int = 30) -> list[StepInfo]:
    return [StepInfo(i, n, 2.5 / i, min(1.0, i / n), 1e-3, i * 0.01) for i in range(1, n + 1)]


def test_figures_are_plotly_and_escape_labels():
    fig = loss_figure(_history(), total_steps=50, lang="en")
    assert isinstance(fig, go.Figure) and len(fig.data) == 2
    assert fig.layout.xaxis.range == (0, 50)
    assert isinstance(loss_figure([], lang="en"), go.Figure)
    hostile = [("<b>x</b>", 0.5), ("<script>", 0.3), ('<a href="y">', 0.2)]
    fig = next_token_figure(hostile, chosen="<b>x</b>", lang="en")
    dumped = _text(fig)
    assert not any(tag in dumped for tag in TAGS) and "&lt;b&gt;x&lt;/b&gt;" in dumped
    assert fig.data[0].marker.color[0] != fig.data[0].marker.color[1]  # the choice stands out
    fig = attention_figure(np.full((2, 3), 1 / 3), ["<s>", "<i>a"], ["<b>", "c", "d"], "t<b>",
                           q_title="q", k_title="k", lang="en")
    assert not any(tag in _text(fig) for tag in TAGS)


def test_noam_figure_peaks_at_warmup():
    fig = noam_figure(512, 1.0, 4000, lang="en")
    assert len(fig.data) == 4 and "(yours)" in fig.data[0].name
    x, y = np.asarray(fig.data[0].x), np.asarray(fig.data[0].y)
    assert abs(x[int(np.argmax(y))] - 4000) < 100
    assert max(y) == pytest.approx(rate(4000, 512, 1.0, 4000), rel=1e-3)


def test_smoothing_example_and_figure():
    dist, rows, cols = smoothing_example(0.3, size=7, lang="en")
    assert dist.shape == (4, 7) and cols[0] == "<pad>"
    assert np.allclose(dist[:, 0], 0)  # the <pad> column
    assert np.allclose(dist[-1], 0)  # a <pad> label: no target at all
    assert np.allclose(dist[:3].sum(1), 1) and dist[0].max() == pytest.approx(0.7)
    fig = smoothing_figure(dist, rows, cols, 0.3, lang="en")
    assert isinstance(fig, go.Figure)
    assert "&lt;pad&gt;" in _text(fig)
    assert np.allclose(smoothing_example(float("nan"), lang="en")[0][0].max(), 1.0)


# ---- The page ---------------------------------------------------------------------------------


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_page_renders_defaults_and_decodes_untrained():
    at = app("train")
    assert not at.exception and not errors(at)
    assert not at.button(key="tr_train").disabled
    assert "train_state" not in at.session_state
    closed = len(figure_list(at))  # the schedule's expanders are closed: no charts inside
    at.session_state["tr_noam_open"] = True
    at.session_state["tr_smoothing_open"] = True
    at.run()
    figs = figure_list(at)
    assert len(figs) >= 6  # next token, self, cross, before, noam, smoothing
    assert len(figs) == closed + 4  # opened: noam, smoothing, AT's smoothing, confidence
    assert at.slider(key="tr_step_shown").max >= 1
    at.slider(key="tr_step_shown").set_value(3).run()
    assert not at.exception
    assert any(c.value.startswith("<s> ") and len(c.value.split()) == 3 for c in at.code)


def test_page_refuses_to_train_paper_base():
    at = app("train", **PAPER_BASE)
    assert not at.exception
    assert not at.button(key="tr_train").disabled  # the fast recipe's size is trained
    at = app("train", tr_model="sidebar", **PAPER_BASE)
    assert not at.exception
    assert at.button(key="tr_train").disabled
    msgs = " ".join(errors(at))
    assert "too big to train" in msgs and "3M" in msgs


def test_page_validates_the_digit_input_and_words():
    at = app("train", tr_digits="<b>1</b> 2")
    assert not at.exception
    assert any("digits 0 to 9" in e for e in errors(at))
    at = app("train", tr_symbols="words", tr_task="reverse",
             source="<b>bold</b> <script>x</script> [a](javascript:alert(1))")
    assert not at.exception
    for fig in figure_list(at):
        assert not any(tag in all_text(fig) for tag in TAGS)
    at = app("train", tr_symbols="words", source="same same")
    assert not at.exception
    assert any("digits are used instead" in i.value for i in at.info)


def test_default_settings_are_the_fast_recipe():
    from transformer.recipes import FAST

    ts = TrainSettings()
    cfg = ts.train_config(seed=0)
    assert (cfg.schedule, cfg.lr, cfg.warmup, cfg.batch_size, cfg.smoothing) == (
        FAST.train.schedule, FAST.train.lr, FAST.train.warmup, FAST.train.batch_size,
        FAST.train.smoothing)
    ms = ts.model_settings(Settings(N=6, d_model=512, h=8, d_ff=2048, dropout=0.1, seed=5,
                                    norm_placement="post"))
    assert (ms.N, ms.d_model, ms.h, ms.d_ff, ms.dropout) == (1, 32, 2, 64, 0.0)
    assert ms.seed == 5 and ms.norm_placement == "post"  # teaching options are kept
    sidebar = Settings(N=3)
    assert TrainSettings(model="sidebar").model_settings(sidebar) is sidebar


def test_early_stop_ends_training_once_learned():
    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings()), task)
    state = start_training(key, TrainSettings().train_config(seed=0), early_stop=True)
    run_training(state)
    assert state.learned and not state.stopped and not state.running
    assert state.step < state.config.steps
    assert state.history[-1].exact >= 0.95  # the check followed a batch nearly all right
    assert state.accuracy is not None and state.accuracy >= 0.97


def test_train_button_trains_in_this_session_only():
    at = app("train", tr_steps=50, tr_batch=16)
    at.button(key="tr_train").click().run()
    assert not at.exception, at.exception
    metrics = _metrics(at)
    assert metrics["Steps"] == "50 / 50"
    assert metrics["Exact-sequence accuracy"].endswith("%")
    assert any(el.proto.id.endswith("tr_loss") for el in at.get("plotly_chart"))
    state = at.session_state["train_state"]
    assert isinstance(state, TrainedState) and state.step == 50 and not state.running
    assert at.radio(key="tr_which_shown").value == "trained"
    # another learner (a second session in the same process) sees nothing of it
    other = app("train")
    assert not other.exception
    assert "train_state" not in other.session_state
    assert "Exact-sequence accuracy" not in _metrics(other)
    # the first learner's model survives their next interaction
    at.radio(key="tr_kind").set_value("enc").run()
    assert not at.exception and at.session_state["train_state"] is state


# ---- Issue 15: two checks named apart, the learner's sentence against the training data ----


def _trained(task_name: str = "copy", symbols: str = "digits", text: str = "",
             steps: int = 30) -> TrainedState:
    task, _ = task_for(task_name, symbols, text)
    key = ModelKey.of(TrainSettings().model_settings(Settings()), task)
    state = start_training(key, TrainConfig(steps=steps, batch_size=32, seed=0))
    run_training(state)
    return state


def test_the_stop_check_and_the_held_out_evaluation_are_named_apart():
    """Issue 15, item 6: "98%" beside "got every one right" read as a contradiction."""
    state = _trained()
    state.learned = True  # as if the stop check at this step had passed
    held = state.held_out
    assert held is not None and held.right < held.total
    at = app("train", train_state=state)
    assert not at.exception, at.exception
    assert percent(held.accuracy) == _metrics(at)["Exact-sequence accuracy"]
    text = " ".join(s.value for s in at.success)
    assert f"the stop check at step {state.step} looked at 200 fresh sequences" in text
    assert (f"The “Exact-sequence accuracy” beside it is a second, separate test, the "
            f"held-out evaluation: {held.right} of {held.total} other sequences right") in text
    assert ", ".join(map(str, held.wrong_lengths())) in text
    zh = app("train", lang="zh", train_state=state)
    assert not zh.exception
    text = " ".join(s.value for s in zh.success)
    assert f"第 {state.step} 步的停止检验" in text and "旁边的“整序列准确率”来自" in text


def test_a_cut_sentence_says_why_and_a_wrong_answer_is_explained():
    words = ("one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen")
    state = _trained("copy", "words", words)
    right, total = state.held_out.by_length[12]
    at = app("train", tr_symbols="words", source=words, train_state=state)
    assert not at.exception, at.exception
    assert at.radio(key="tr_which_shown").value == "trained"
    captions = " ".join(c.value for c in at.caption)
    assert "Your sentence has 15 words, but only the first 12 are decoded" in captions
    assert "sequences of 1 to 12 words" in captions and "covers only 14 positions" in captions
    assert "This input is like the training sequences: its length, 12," in captions
    assert any(m.value.endswith("**wrong**]") for m in at.markdown)  # 30 steps: not learned
    assert f"it got {right} of {total} sequences of length 12 right" in captions
    # words beyond the task's 20 symbols are left out, and the page says so
    many = " ".join(f"w{i}" for i in range(22))
    at = app("train", tr_symbols="words", source=many)
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "2 words of your sentence are left out" in captions
    assert "Your sentence has 22 words, but only the first 12 are decoded" in captions


def test_input_fit_and_sentence_fit():
    from explorer.training.task import input_fit, sentence_fit

    task, _ = task_for("copy", "digits", "")
    assert input_fit(task, list("3141")).inside
    fit = input_fit(task, ["1"] * 10)
    assert not fit.inside and fit.length == 10 and fit.max_len == 9
    assert input_fit(task, ["1", "x", "2", "y"]).unknown == (2, 4)
    assert not input_fit(task, []).inside
    words, _ = task_for("copy", "words", "a b c")
    assert sentence_fit(words, "a b c") == sentence_fit(words, "a b c")
    assert not sentence_fit(words, "a b c").cut and sentence_fit(words, "a b c").dropped == 0
    assert sentence_fit(words, "a b z c").dropped == 1


def test_train_page_uses_material_icons_only():
    """Debian's Chromium draws emoji icons as empty boxes: every icon is a material one."""
    import re

    from apptest_helpers import ROOT

    source = "".join((ROOT / path).read_text(encoding="utf-8") for path in (
        "pages/train.py", "explorer/sections/train.py", "explorer/sections/decode.py",
        "explorer/sections/schedule.py",
        "explorer/app/train_state.py"))
    icons = re.findall(r"icon=([^,)\n]+)", source)
    assert icons and all(i.startswith('":material/') for i in icons), icons
    assert not re.search("[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]", source)


def test_a_train_click_starts_one_training_before_the_page_is_drawn():
    import explorer.training.hub as H
    from explorer.app.train_state import TICKETS_KEY

    at = app("train", tr_steps=50, seed=41)
    at.button(key="tr_train").click().run()
    assert not at.exception
    assert H.hub().trainings == 1  # start_early's ticket was taken over, not joined again
    assert at.session_state[TICKETS_KEY] == {}  # taken over, then forgotten once kept
    assert at.session_state["train_state"].step == 50


def test_an_early_ticket_left_behind_by_an_interrupted_run_goes_on_until_stop():
    """A click interrupted the Train click's run before it took its ticket over: that
    training is the learner's all the same, and goes on (only Stop ends it)."""
    import explorer.training.hub as H
    from explorer.app.train_state import EARLY, TICKETS_KEY
    from explorer.app.train_state import WAIT as WAITING

    at = app("train", tr_steps=50, seed=42)
    gate = threading.Event()
    hub = H.Hub(slots=1, runner=lambda request, state, on_step, wants, threads: gate.wait(WAIT))
    H._HUB = hub  # noqa: SLF001 -- a hub whose one slot is taken
    busy = hub.join(_hub_request(43))
    orphan = hub.join(_hub_request(42))  # queued, as a click's run left it
    at.session_state[TICKETS_KEY] = {EARLY: orphan}
    at.run()  # a run without a click on Train
    assert not at.exception
    assert not orphan.left and orphan.job.status == "queued"
    assert at.session_state[TICKETS_KEY] == {WAITING: orphan}
    assert not at.button(key="tr_stop").disabled
    at.button(key="tr_stop").click().run()
    assert not at.exception
    assert orphan.left and orphan.job.status == "dropped"
    assert any("You left the queue" in i.value for i in at.info)
    gate.set()
    assert busy.job.done.wait(WAIT)


WAIT = 60.0  # seconds: a generous bound on a busy machine; never reached normally


def _hub_request(seed: int):
    from explorer.training.hub import Request

    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(TrainSettings().model_settings(Settings(seed=seed)), task)
    return Request(key, replace(TrainSettings().train_config(seed), steps=50), True, None)


def test_copies_of_one_training_share_their_decodings_and_figures():
    """Thirty learners with the same settings get copies of one training; what
    the page computes from the trained model is computed once and read by all of them."""
    import explorer.training.hub as H
    from explorer.app import memo
    from explorer.app.shelves import TRAINED_RESULTS

    memo.forget(TRAINED_RESULTS)
    a = app("train", tr_steps=50, seed=43)
    a.button(key="tr_train").click().run()
    after_a = memo.held(TRAINED_RESULTS)
    b = app("train", tr_steps=50, seed=43)
    b.button(key="tr_train").click().run()
    assert not a.exception and not b.exception
    assert H.hub().trainings == 1
    mine, theirs = (at.session_state["train_state"] for at in (a, b))
    assert mine.model is not theirs.model  # each learner's own copy ...
    kinds = {"trained", "film", "closeness", "after", "loss"}
    shared = [name for name in after_a if name[0] in kinds]
    assert {name[0] for name in shared} == kinds
    charts = {name[name.index("step") + 2] for name in shared if "step" in name}
    assert charts == {"next", "self", "cross"}  # the decoding step's three charts
    after_b = memo.held(TRAINED_RESULTS)
    for name in shared:  # ... and one decoding, film and figure for both: b computed none
        assert after_b[name] is after_a[name], name[0]
    assert set(after_b) == set(after_a)
    # shared by what fixes the weights, so a kept copy is read-only: nobody changes it
    assert not any(p.requires_grad for m in (mine, theirs) for p in m.model.parameters())
    assert not mine.model.training and not theirs.model.training
