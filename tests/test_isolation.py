"""Isolation between learners: what one session does never changes what another sees.

Rerun: `.venv/bin/python -m pytest tests/test_isolation.py -q`.

(1) Two AppTest sessions in one process share the server's caches, as two browser tabs
    do. While A trains (paused in the middle of its training loop, so B's runs really happen
    while A's model is in train mode with its optimiser live) and after A changed its
    sidebar model (preset, d_model, h), B's shared model (hash of its state_dict), its
    forward pass (hash of every captured array), its attention figures (the plotly JSON of
    the attention page), its own trained model and its Train page results stay exactly the
    same.
(2) Two browser contexts against one real server (127.0.0.1, a free port, stopped after
    the tests): A trains in the browser; B's attention grid (tick labels and heatmap data)
    is the same after A's training as before, and A's accuracy metric never appears in B.
    Skipped without Chromium unless CI is set (then it fails), as tests/test_e2e_browser.py.
Everything is seeded (the sidebar's seed 0, dropout 0), so the comparisons are exact.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading

import torch
from apptest_helpers import app, figure_list
from browser_support import need_browser
from serve import CHROMIUM, CHROMIUM_ARGS, free_port, quiet_streamlit, serve, set_text, wait_idle
from streamlit.runtime import Runtime

from explorer.app.context import build_context
from explorer.core.settings import parse_settings
from explorer.sections import train as train_view
from explorer.training import run as training

SENTENCE = "the cat sat on the mat"
SIDEBAR_KEYS = ("source", "target", "token_mode", "seed", "norm_placement", "layer_norm",
                "scale_embedding", "tie_weights", "train_mode", "N", "d_model", "h", "d_ff",
                "dropout")
ACCURACY = "Exact-sequence accuracy"


# ---- (1) Two AppTest sessions in one process --------------------------------------------------


def state_hash(model: torch.nn.Module) -> str:
    h = hashlib.sha256()
    for name, tensor in model.state_dict().items():
        h.update(name.encode())
        h.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return h.hexdigest()


def run_hash(run) -> str:
    h = hashlib.sha256()
    for name in sorted(run.cache):
        h.update(name.encode())
        h.update(run.cache[name].tobytes())
    return h.hexdigest()


def shared(at) -> tuple[str, str]:
    """Hashes of the shared (cached) model and forward pass this session's settings use."""
    raw = {k: at.session_state[k] for k in SIDEBAR_KEYS if k in at.session_state}
    ctx = build_context(parse_settings(raw))
    assert ctx.ok
    return state_hash(ctx.model()), run_hash(ctx.run())


def results(at) -> dict[str, object]:
    """What the Train page shows: metrics (but the wall-clock time) and every figure."""
    metrics = {m.label: m.value for m in at.metric if m.label != "Training time"}
    return {"metrics": metrics, "figures": figure_list(at)}


WIDGET_KINDS = ("text_input", "number_input", "slider", "checkbox", "toggle", "radio",
                "selectbox")


def set_widget(at, key: str, value: object) -> None:
    """Set the widget whose key is `key` to `value` (as a learner would), if it differs."""
    for kind in WIDGET_KINDS:
        try:
            widget = getattr(at, kind)(key=key)
        except KeyError:
            continue
        if widget.value != value:
            widget.set_value(value)
        return
    raise KeyError(f"no widget with key {key!r}")


def goto(at, page: str, sidebar: dict[str, object]) -> None:
    """Switch page and run, with the sidebar as `sidebar` says.

    A browser sends every sidebar value along when it switches pages, so they carry over;
    AppTest's switch_page does not (every widget falls back to its default: numbers to
    their minimum, a checkbox to off), so set them again through their widgets.
    """
    at.switch_page(f"pages/{page}.py")
    at.run()
    for key, value in sidebar.items():
        try:
            set_widget(at, key, value)
        except KeyError:  # not drawn (the teaching options, while closed): its value as kept
            at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    assert {k: at.session_state[k] for k in sidebar} == sidebar


def snapshot(b, sidebar: dict[str, object]) -> dict[str, object]:
    """B's view: its attention page, its shared model and run, its Train page and model."""
    goto(b, "attention", sidebar)
    attention = figure_list(b)
    model, run = shared(b)
    goto(b, "train", sidebar)
    trained = b.session_state["train_state"]
    return {"attention": attention, "model": model, "run": run, "train": results(b),
            "trained": state_hash(trained.model), "steps": trained.step}


def test_training_and_model_changes_in_one_session_leave_the_other_untouched(monkeypatch):
    quiet_streamlit()  # the hashes are read from the test's thread, outside a script run
    b = app("attention", source=SENTENCE, tr_steps=60)
    assert not b.exception, b.exception
    sidebar = {k: b.session_state[k] for k in SIDEBAR_KEYS if k in b.session_state}
    goto(b, "train", sidebar)
    b.button(key="tr_train").click().run()
    assert not b.exception, b.exception
    before = snapshot(b, sidebar)
    assert before["steps"] > 0 and ACCURACY in before["train"]["metrics"]
    assert len(before["attention"]) >= 2

    # A trains the same task and architecture (the same shared untrained model, the same
    # seed) with more steps; its training loop waits at step 5 until B has looked.
    reached, resume = threading.Event(), threading.Event()
    mock_runtime: list[object] = []
    real_record = training.record_step

    def record_step(state, info):
        stop = real_record(state, info)
        if info.step == 5 and not reached.is_set():
            mock_runtime.append(Runtime._instance)  # A's AppTest runtime (a global in AppTest)
            reached.set()
            resume.wait(timeout=120)
        return stop

    monkeypatch.setattr(training, "record_step", record_step)
    # A's Train click waits for its training however long B looks (a longer one would go on
    # in the background, and A's run would end first)
    monkeypatch.setattr(train_view, "INLINE_WAIT", math.inf)
    a = app("train", source=SENTENCE, tr_steps=200, tr_early=False)
    assert not a.exception, a.exception
    a.button(key="tr_train").click()
    trainer = threading.Thread(target=a.run, daemon=True)
    trainer.start()
    try:
        assert reached.wait(timeout=120), "A's training did not start"
        during = snapshot(b, sidebar)  # B's runs while A's model is half-trained, in train mode
    finally:
        Runtime._instance = mock_runtime[0] if mock_runtime else None  # B's runs reset it
        resume.set()
        trainer.join(timeout=120)
    assert not trainer.is_alive()
    assert not a.exception, a.exception
    a_state = a.session_state["train_state"]
    assert a_state.step > 5 and a_state.model is not b.session_state["train_state"].model
    assert ACCURACY in {m.label for m in a.metric}
    assert during == before

    # A changes its model in the sidebar (a preset, then its own sizes) on the attention page.
    goto(a, "attention", sidebar)
    a.selectbox(key="preset").select("small").run()
    a.number_input(key="d_model").set_value(64).run()
    a.number_input(key="h").set_value(2).run()
    assert not a.exception, a.exception
    assert (a.session_state["d_model"], a.session_state["h"]) == (64, 2)
    assert figure_list(a) != before["attention"]  # A really sees another model
    assert snapshot(b, sidebar) == before


# ---- (2) Two browser contexts against one server --------------------------------------------


GRID_DRAWN = """() => {
  const g = document.querySelector('.st-key-attn_grid .js-plotly-plot');
  return document.querySelector("[data-test-script-state='notRunning']") !== null
    && g !== null && Array.isArray(g._fullData) && g._fullData.length > 0
    && g.querySelectorAll('g.hm').length === g._fullData.length;
}"""
# The heatmaps' values as plotly drew them (typed-array rows made plain lists).
GRID_DATA = """() => {
  const g = document.querySelector('.st-key-attn_grid .js-plotly-plot');
  return JSON.stringify(g._fullData.map(t => [t.type, Array.from(t.z, r => Array.from(r))]));
}"""


def grid(page) -> tuple[list[str], list[str], list]:
    """B's attention grid: y tick labels, x tick labels, every heatmap's values."""
    page.wait_for_function(GRID_DRAWN, polling=100, timeout=60_000)
    chart = page.locator(".st-key-attn_grid .js-plotly-plot").first
    yticks = [t.text_content() for t in chart.locator("g.yaxislayer-above text").all()]
    xticks = [t.text_content() for t in chart.locator("g.xaxislayer-above text").all()]
    data = json.loads(page.evaluate(GRID_DATA))
    assert data and all(kind == "heatmap" and z and z[0] for kind, z in data), data
    return yticks, xticks, data


HEATMAPS = """() => document.querySelectorAll('.st-key-attn_grid g.hm').length"""
IDLE_WITH = """n => document.querySelector("[data-test-script-state='notRunning']") !== null
  && document.querySelectorAll('.st-key-attn_grid g.hm').length === n"""
IDLE_WITHOUT = IDLE_WITH.replace("=== n", "!== n")


def rerun_b(page) -> None:
    """Two reruns of B's page that end on the same view: the heads' mean on, then off."""
    per_head = page.evaluate(HEATMAPS)
    toggle = page.locator(".st-key-attn_average label").first
    toggle.click()
    page.wait_for_function(IDLE_WITHOUT, arg=per_head, polling=100, timeout=60_000)
    toggle.click()
    page.wait_for_function(IDLE_WITH, arg=per_head, polling=100, timeout=60_000)


def metric_labels(page) -> list[str]:
    return [e.inner_text() for e in page.locator("[data-testid='stMetricLabel']").all()]


def test_training_in_one_browser_leaves_the_other_browser_unchanged():
    need_browser()
    from playwright.sync_api import sync_playwright

    with serve(free_port()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            viewport = {"width": 1400, "height": 1000}
            a = browser.new_context(viewport=viewport).new_page()
            b = browser.new_context(viewport=viewport).new_page()
            b.goto(f"{url}/attention")
            b.wait_for_selector(".st-key-attn_grid", timeout=120_000)
            wait_idle(b)
            set_text(b, "source", "a dog saw a cat")  # B's own sentence
            before = grid(b)
            assert before[0][:5] == ["0:a", "1:dog", "2:saw", "3:a", "4:cat"]

            a.goto(f"{url}/train")
            a.wait_for_selector(".st-key-tr_train", timeout=120_000)
            wait_idle(a)
            a.locator(".st-key-tr_train button").first.click()
            rerun_b(b)  # most likely while A trains; compared below either way
            assert grid(b) == before
            a.locator("[data-testid='stMetricLabel']", has_text=ACCURACY).first.wait_for(
                timeout=120_000)
            wait_idle(a)
            assert ACCURACY in metric_labels(a)  # A trained

            rerun_b(b)
            assert grid(b) == before
            assert ACCURACY not in metric_labels(b)
            b.locator(".st-key-nav a[href^='train'], .st-key-nav a[href$='train']").first.click()
            b.locator(".st-key-tr_train button").first.wait_for(timeout=120_000)
            wait_idle(b)
            assert b.locator("[data-testid='stException']").count() == 0
            assert ACCURACY not in metric_labels(b)  # A's trained model is A's alone
            assert ACCURACY not in b.inner_text("[data-testid='stMain']")
        finally:
            browser.close()
