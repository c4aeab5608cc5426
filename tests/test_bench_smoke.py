"""Smoke runs of the bench scripts (tiny sizes, seconds): they keep working, and each one's
output holds one property the full run relies on (rows for what was measured, numbers that
agree with each other). No timing asserts.

The browser-based scripts are skipped with a message when Chromium is missing.
"""

from __future__ import annotations

import math
import re

import pytest
from serve import CHROMIUM, have_chromium

from bench import browser, busy_core, figure_size, held_out, memory, page_response

needs_chromium = pytest.mark.skipif(
    not have_chromium(),
    reason=f"No Chromium at {CHROMIUM}: the browser benches need Debian's chromium "
           "(apt-get install -y chromium).",
)


def _run(module, capsys, *args: str) -> str:
    assert module.main(["--smoke", *args]) == 0
    return capsys.readouterr().out


def _table(out: str, header: str) -> list[dict[str, str]]:
    """The rows of the first markdown table whose header row starts with `header`, each a
    dict by column name."""
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(header))
    names = [c.strip() for c in lines[i].strip().strip("|").split("|")]
    rows = []
    for line in lines[i + 2:]:  # after the |---| row
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(dict(zip(names, cells, strict=True)))
    assert rows, header
    return rows


def _num(cell: str) -> float:
    """The first number in a cell: "1,178" -> 1178, "56%" -> 56, "> 2 s" -> 2, "0.95x" -> 0.95."""
    found = re.search(r"-?\d[\d,]*(?:\.\d+)?|nan", cell)
    assert found, cell
    return float(found.group(0).replace(",", ""))


def test_page_response_smoke(capsys):
    out = _run(page_response, capsys)
    (row,) = _table(out, "| page | preset | median ms |")  # the smoke measures one page
    assert (row["page"], row["preset"]) == ("attention", "tiny")
    assert 0 < _num(row["median ms"]) <= _num(row["p90 ms"])
    # the sampled breakdown adds up to its total (each cell rounded to 0.1 ms)
    (parts,) = _table(out, "| page | preset | explorer.figures |")
    spent = [_num(v) for k, v in parts.items() if k not in ("page", "preset", "total")]
    assert min(spent) >= 0 and math.isclose(sum(spent), _num(parts["total"]), abs_tol=1.0)


def test_figure_size_smoke(capsys):
    out = _run(figure_size, capsys)
    (row,) = _table(out, "| page | preset | text | charts | figure JSON MB |")
    assert (row["page"], row["preset"]) == ("attention", "tiny") and _num(row["charts"]) >= 1
    # the largest chart is part of the figures, which are part of the page's messages
    assert (0 < _num(row["largest chart MB"]) <= _num(row["figure JSON MB"])
            <= _num(row["page messages MB"]))


@needs_chromium
def test_browser_smoke(capsys):
    out = _run(browser, capsys)
    (start,) = _table(out, "| median s | max s |")
    assert 0 < _num(start["server ready s"]) < _num(start["median s"]) <= _num(start["max s"])
    (typing,) = _table(out, "| preset | grid median ms |")
    assert typing["preset"] == "tiny"
    assert 0 < _num(typing["grid median ms"]) <= _num(typing["grid p90 ms"])


@needs_chromium
def test_memory_smoke(capsys):
    out = _run(memory, capsys)
    rows = _table(out, "| preset | phase | sessions | RSS MB | peak MB |")
    assert [(r["preset"], r["sessions"]) for r in rows] == [
        ("tiny", "0"), ("tiny", "1"), ("tiny", "2"), ("tiny", "0")]
    peaks = [_num(r["peak MB"]) for r in rows]
    assert peaks == sorted(peaks)  # VmHWM: the most resident so far never goes down
    assert all(0 < _num(r["RSS MB"]) <= _num(r["peak MB"]) for r in rows)


def test_time_to_learn_smoke(capsys):
    from bench import time_to_learn

    out = _run(time_to_learn, capsys)
    assert "Ratio (Annotated time to 90%)" in out
    rows = _table(out, "| run | reached | median train s | worst seed s |")  # (a)
    rows += _table(out.split("(b) ", 1)[1], "| run | reached |")
    assert [r["run"] for r in rows] == [
        "fast recipe → 99%", "Annotated recipe → 90%", "fast: copy digits",
        "fast: reverse digits", "fast: sort digits", "fast: reverse words",
        "small preset: copy digits"]
    for r in rows:  # one seed each in the smoke run
        assert r["reached"] in ("0/1", "1/1"), r
        assert 0 < _num(r["median train s"]) <= _num(r["worst seed s"]), r


def test_train_wait_smoke(capsys):
    from bench import train_wait

    assert train_wait.main(["--smoke", "--no-browser", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    rows = _table(out, "| wait | median s | worst s |")
    tasks = ("copy", "reverse", "sort", "words")
    assert [r["wait"] for r in rows] == [
        f"(a) in the process, {how}: {task}"
        for task in tasks for how in ("one thread", "up to 2 threads (the app's worker)")]
    assert all(0 < _num(r["median s"]) <= _num(r["worst s"]) for r in rows)
    # where the wait goes: the shares of each task's wait add up to all of it
    shares = _table(out, "| task | steps | ms per step | stop checks |")
    assert [r["task"] for r in shares] == list(tasks)
    for r in shares:
        parts = [_num(r[k]) for k in ("steps", "stop checks", "held-out evaluation", "rest")]
        assert abs(sum(parts) - 100) <= 3, r  # each share rounded to 1%


def test_dates_smoke(capsys):
    from bench import dates

    assert dates.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "load models/dates.pt" in out and "Cross-attention alignment" in out
    cells, variants, held_out_n = map(int, re.search(
        r"Held-out cells: (\d+) \((\d+) variants .* on (\d+) dates", out).groups())
    assert cells == variants * (31 + 12)
    assert re.search(r"Worst cell: \S+, (day|month) \d+: \d+/\d+", out)
    # every held-out date is counted once by variant, once by locale and once by style
    rows = _table(out, "| variant | dates | exact |")
    assert len(rows) == variants and sum(int(r["dates"]) for r in rows) == held_out_n
    for header in ("| locale | exact | dates |", "| style | exact | dates |"):
        rows = _table(out, header)
        assert sum(int(r["dates"]) for r in rows) == held_out_n, header
        assert all(0 <= _num(r["exact"]) <= 100 for r in rows)


def test_dates_train_smoke(capsys):
    from bench import dates_train

    assert dates_train.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "95% within 60 s" in out
    rows = _table(out, "| seed | 95% | 99% |")
    assert [r["seed"] for r in rows] == ["0"]  # the smoke run's one seed
    assert all(_num(r["95%"]) <= _num(r["99%"]) for r in rows)  # 99% is never reached first


def test_film_smoke(capsys):
    from bench import film

    assert film.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    rows = _table(out, "| task | without film | with film |")
    assert [r["task"] for r in rows] == ["copy", "reverse", "sort", "dates (DATES recipe)"]
    for r in rows:  # at most 40 frames and the last step; the recording is part of the run
        assert 1 <= _num(r["frames"]) <= 41 and 0 <= _num(r["recording (share of the filmed "
                                                           "run)"]) <= 100, r


@needs_chromium
def test_accessibility_smoke(capsys):
    from bench import accessibility

    out = _run(accessibility, capsys)
    rows = _table(out, "| impact")
    assert [r["impact"] for r in rows] == ["critical", "serious", "moderate", "minor"]
    assert all(r["met"] == "yes" for r in rows if r["impact"] in ("critical", "serious"))
    assert "At 200% zoom (640 x 360): 1 of 1 laptop views need no sideways swipe." in out


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
    (forward,) = _table(out, "| model | 1 thread, idle | 2 threads, idle |")
    assert forward["model"] == "tiny"
    assert all(_num(v) > 0 for k, v in forward.items() if "thread" in k)
    assert "One training step of the fast recipe (copy, batch 128), 3 steps" in out
    (step,) = _table(out, "| 1 thread, idle | 2 threads, idle |")
    for cell in step.values():  # "median (slowest)"
        median, slowest = (float(x) for x in re.findall(r"[\d.]+", cell))
        assert 0 < median <= slowest, cell


def test_breaks_smoke(capsys):
    from bench import breaks

    out = _run(breaks, capsys)
    rows = _table(out, "| task | model | break |")
    assert ("copy", "fast recipe", "decoder_mask.none") in {
        (r["task"], r["model"], r["break"]) for r in rows}
    # each row trains the correct model again from the same weights, seed and batches: the
    # same numbers for every break of one model
    for model in {r["model"] for r in rows}:
        correct = {(r["correct: teacher-forced"], r["correct: greedy"])
                   for r in rows if r["model"] == model}
        assert len(correct) == 1, (model, correct)
    assert all(0 <= _num(v) <= 100 for r in rows for k, v in r.items() if "%" in v)


def test_step_cost_smoke(capsys):
    from bench import step_cost

    out = _run(step_cost, capsys)
    assert "nn.Transformer" in out
    rows = {r["model"]: r for r in _table(out, "| model | parameters |")}
    assert {"ours", "peer"} <= set(rows)
    assert len({r["parameters"] for r in rows.values()}) == 1  # the same model, twice
    (ratio,) = _table(out, "| ours / nn.Transformer (step) |")
    want = _num(rows["ours"]["step ms"]) / _num(rows["peer"]["step ms"])
    assert math.isclose(_num(ratio["ours / nn.Transformer (step)"]), want, abs_tol=0.01)


def test_recipe_sweep_smoke(capsys):
    from bench import recipe_sweep

    out = _run(recipe_sweep, capsys)
    assert "| fast | 32/64/h2 | 128 | 0.01 | copy | 1/1 |" in out
    for r in _table(out, "| candidate | d_model/d_ff/h | batch | lr | task | learned |"):
        assert 0 < _num(r["median s"]) <= _num(r["worst s"]), r
        assert 0 < _num(r["median steps"]) <= _num(r["worst steps"]), r


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
    assert "(c) bench.class_train (c)'s trainings (copy, seeds 100-102)" in out
    steps = _table(out, "| K | step ms | x the K=1 step | per model |")
    assert [int(r["K"]) for r in steps] == [1, 2, 3] and steps[0]["x the K=1 step"] == "1.00"
    for r in steps:  # a step on K models' batches, shared by K models
        assert math.isclose(_num(r["per model"]), _num(r["x the K=1 step"]) / int(r["K"]),
                            abs_tol=0.01), r
    for part in ("(b) ", "(c) bench.class_train"):
        rows = _table(out.split(part, 1)[1], "| schedule | plan | median | worst |")
        assert rows[0]["schedule"] == "one training per slot, in turn (the hub)"
        assert all(0 < _num(r["median"]) <= _num(r["worst"]) for r in rows), part


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
    (row,) = _table(out, "| task | held-out lengths | learned (stop rule) |")
    assert row["task"] == "copy (digits)"
    assert row["held-out lengths"] == "2–9"  # length 1: all ten digits are needed in training
    assert row["stopped at or after it"].endswith(" of 1")  # the smoke run's one seed
    assert all(0 <= _num(row[k]) <= 100 for k in ("held-out (median)", "training (median)"))


def test_knockout_smoke(capsys):
    from bench import knockout

    out = _run(knockout, capsys)
    assert "| shipped date translator | N=2, h=4" in out and "| 25 | 30 |" in out
    for r in _table(out, "| model | size | accuracies |"):
        # one accuracy intact and one per head knocked out, in each of the three attentions
        N, h = (int(x) for x in re.findall(r"[Nh]=(\d+)", r["size"]))
        assert int(r["accuracies"]) == 3 * N * h + 1, r
        assert 0 <= _num(r["most lost"].rsplit(":", 1)[1]) <= 100, r


def test_busy_core_smoke(capsys):
    out = _run(busy_core, capsys)
    rows = _table(out, "| task | condition | policy | wait s |")
    policies = ("app (Threads + SpareCores)", "1 thread")
    assert [(r["task"], r["condition"], r["policy"]) for r in rows] == [
        ("reverse", condition, policy) for condition in ("idle", "busy") for policy in policies]
    assert all(r["end"] == "all steps" and _num(r["wait s"]) > 0 for r in rows)
    summary = _table(out, "| task | policy | idle s | busy s | busy / idle |")
    assert [r["policy"] for r in summary] == list(policies)


def test_the_results_file_has_a_section_under_every_benchmarks_title():
    """`run_all --only` keeps the other sections by their titles: a section whose title
    differs from the script's would be dropped by the next partial run."""
    from bench import run_all
    from bench.common import ROOT

    titles = re.findall(r"^## (.+)$", (ROOT / "bench" / "results.md").read_text("utf-8"), re.M)
    assert titles == list(run_all.SCRIPTS.values())
