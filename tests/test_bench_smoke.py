"""Smoke runs of the bench scripts (tiny sizes, seconds): they keep working. No timing asserts.

The browser-based scripts are skipped with a message when Chromium is missing.
"""

from __future__ import annotations

import pytest

from bench import browser, figure_size, held_out, memory, page_response
from bench.common import CHROMIUM, have_chromium

needs_chromium = pytest.mark.skipif(
    not have_chromium(),
    reason=f"No Chromium at {CHROMIUM}: the browser benches need Debian's chromium "
           "(apt-get install -y chromium).",
)


def _run(module, capsys) -> str:
    assert module.main(["--smoke"]) == 0
    return capsys.readouterr().out


def test_page_response_smoke(capsys):
    out = _run(page_response, capsys)
    assert "| page | preset | median ms |" in out
    assert "| attention | tiny |" in out
    assert "| page | preset | explorer.figures |" in out  # the sampled breakdown


def test_figure_size_smoke(capsys):
    out = _run(figure_size, capsys)
    assert "| page | preset | text | charts | figure JSON MB |" in out
    assert "| attention | tiny |" in out


@needs_chromium
def test_browser_smoke(capsys):
    out = _run(browser, capsys)
    assert "| median s | max s |" in out
    assert "| preset | grid median ms |" in out


@needs_chromium
def test_memory_smoke(capsys):
    out = _run(memory, capsys)
    assert "| preset | phase | sessions | RSS MB | peak MB |" in out
    assert "| tiny | 1 session | 1 |" in out


def test_time_to_learn_smoke(capsys):
    from bench import time_to_learn

    out = _run(time_to_learn, capsys)
    assert "| run | reached | median train s | worst seed s |" in out
    assert "| fast recipe → 99% |" in out and "| fast: reverse words |" in out
    assert "Ratio (Annotated time to 90%)" in out


def test_train_wait_smoke(capsys):
    from bench import train_wait

    assert train_wait.main(["--smoke", "--no-browser", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    assert "| wait | median s | worst s |" in out
    assert "(a) in the process, one thread: copy" in out
    assert "(a) in the process, up to 2 threads (the app's worker): copy" in out
    assert "| task | steps | ms per step | stop checks | held-out evaluation | rest |" in out


def test_dates_smoke(capsys):
    from bench import dates

    assert dates.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "load models/dates.pt" in out and "Held-out exact match" in out
    assert "Cross-attention alignment" in out


def test_dates_train_smoke(capsys):
    from bench import dates_train

    assert dates_train.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "| seed | 95% | 99% |" in out and "95% within 60 s" in out


def test_film_smoke(capsys):
    from bench import film

    assert film.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "| task | without film | with film |" in out and "| dates (DATES recipe) |" in out


def test_run_all_writes_every_section(tmp_path, monkeypatch, capsys):
    from bench import run_all

    calls = []
    for name in run_all.SCRIPTS:
        module = __import__(f"bench.{name}", fromlist=["main"])
        monkeypatch.setattr(module, "main",
                            lambda argv, n=name: calls.append(n) or print(f"| {n} |") or 0)
    out = tmp_path / "results.md"
    assert run_all.main(["--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert calls == list(run_all.SCRIPTS)
    assert "nproc" in text and "torch" in text
    assert all(f"| {n} |" in text for n in run_all.SCRIPTS)


def test_threads_smoke(capsys):
    from bench import threads

    out = _run(threads, capsys)
    assert "| model | 1 thread, idle | 2 threads, idle |" in out and "| tiny |" in out
    assert "One training step of the fast recipe (copy, batch 128), 3 steps" in out


def test_breaks_smoke(capsys):
    from bench import breaks

    out = _run(breaks, capsys)
    assert "| copy | fast recipe | decoder_mask.none |" in out


def test_step_cost_smoke(capsys):
    from bench import step_cost

    out = _run(step_cost, capsys)
    assert "| ours |" in out and "| peer |" in out and "nn.Transformer" in out


def test_recipe_sweep_smoke(capsys):
    from bench import recipe_sweep

    out = _run(recipe_sweep, capsys)
    assert "| candidate | d_model/d_ff/h | batch | lr | task | learned |" in out
    assert "| fast | 32/64/h2 | 128 | 0.01 | copy | 1/1 |" in out


@needs_chromium
def test_class_train_smoke(capsys):
    from bench import class_train

    out = _run(class_train, capsys)
    assert "| (b) 3 learners, same settings: results seen | 3 | 0 |" in out
    assert "| (c) 2 learners, different seeds: run ended | 2 | 0 |" in out
    assert "a learner typing on the Attention page" in out


def test_class_floor_smoke(capsys):
    from bench import class_floor

    out = _run(class_floor, capsys)
    assert "| K | step ms | x the K=1 step | per model |" in out
    assert "| one training per slot, in turn (the hub) | each learner, the first slot free |" in out
    assert "(c) §12 (c)'s trainings (copy, seeds 100-102)" in out


def test_class_floor_schedules():
    """The floor's arithmetic: ten equal trainings on two slots, one at a time, end after
    1, 1, 2, 2, ... 5, 5 trainings' time; a shared step that costs no more than one (an
    impossible best case) lets all ten end together."""
    from bench.class_floor import best_schedules, compositions, ratios

    assert len(compositions(4)) == 8  # 2 ** (n - 1) ordered splits
    assert ratios(((1, 1), (1, 1)), {1: 1.0}, [1.0, 1.0, 1.0, 1.0]) == [1, 1, 2, 2]
    # a group steps at the shared step's cost until its first member has learned, then
    # the other goes on alone: 1 x 1.5, then 1 more x 1.0
    assert ratios(((2,),), {1: 1.0, 2: 1.5}, [2.0, 1.0]) == [1.25, 1.5]
    found = best_schedules(2, {1: 1.0}, [1.0] * 10)  # groups of one only
    assert found["fifo"][:2] == (3.0, 5.0)
    assert found["median"][:2] == (3.0, 5.0)
    free = {k: 1.0 for k in range(1, 11)}
    assert best_schedules(2, free, [1.0] * 10)["worst"][:2] == (1.0, 1.0)


def test_held_out_smoke(capsys):
    out = _run(held_out, capsys)
    assert "| task | held-out lengths | learned (stop rule) |" in out
    assert "| copy (digits) | 2–9 |" in out  # length 1: all ten digits are needed in training
