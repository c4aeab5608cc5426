"""Break a part and retrain: what each break switch does to a model, in the same budget.

Rerun: `.venv/bin/python -m bench.breaks` (options: --seeds 0,1 --steps 300, --smoke).

Each row trains the correct model and a broken one the way the Train page's experiment
does (`explorer.training.experiments`: the same initial weights, task, seed, batches and steps,
early stop off) and measures both on the same 200 held-out sequences: teacher-forced
token accuracy (the answer fed in, as in training) and greedy exact-sequence accuracy (the
model on its own). The default rows use the Train button's model (the fast recipe: N=1,
d_model 32, h 2); the rows marked "larger" use a size where a switch that shows nothing at
the default size shows something (d_k 128 for the scaling, N = 4 for the residual path).
Expected: no mask or an inverted one -> teacher-forced ~100%, greedy ~0%; no positional
encoding -> copy and reverse fail, sort (whose answer does not depend on the source's order)
much less.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

import torch

from bench.common import machine_facts, table
from explorer.core.settings import Settings
from explorer.training.experiments import (
    BREAK_CHOICES,
    SMOOTHING,
    parse_plan,
    run_experiment,
    start_experiment,
)
from explorer.training.run import ModelKey
from explorer.training.settings import TrainSettings
from explorer.training.task import film_probe, task_for

# (label, sidebar size or None for the Train button's recipe, break choices to run)
SIZES: tuple[tuple[str, dict[str, object] | None, tuple[str, ...]], ...] = (
    ("fast recipe", None, BREAK_CHOICES),
    ("larger: d_k 128", dict(N=1, d_model=128, h=1, d_ff=128, dropout=0.0), ("scale_scores",)),
    ("larger: N 4", dict(N=4, d_model=32, h=2, d_ff=64, dropout=0.0), ("residual",)),
)


def one(task_name: str, size: dict[str, object] | None, choice: str, seed: int,
        steps: int) -> tuple[list[float], float]:
    """(correct tf, correct greedy, broken tf, broken greedy), seconds for both."""
    ts = TrainSettings(task=task_name, model="sidebar" if size else "recipe")
    settings = Settings(**size) if size else Settings()  # type: ignore[arg-type]
    task, _ = task_for(task_name, "digits", settings.source)
    key = ModelKey.of(ts.model_settings(settings), task)
    plan, bad = parse_plan([choice], 0.3, steps)
    assert not bad, bad
    t0 = time.perf_counter()
    exp = run_experiment(start_experiment(key, ts.train_config(seed), plan,
                                          film_probe(task, settings.source)))
    assert exp.results is not None
    a, b = exp.results
    return [a.teacher_forced, a.greedy, b.teacher_forced, b.greedy], time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--tasks", default="copy,reverse,sort")
    ap.add_argument("--smoke", action="store_true", help="one seed, 40 steps, copy only")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # as the app trains
    seeds = [0] if args.smoke else [int(s) for s in args.seeds.split(",")]
    steps = 40 if args.smoke else args.steps
    tasks = ["copy"] if args.smoke else args.tasks.split(",")
    print(f"Machine: {machine_facts()}. {steps} steps per model, seeds {seeds}, smoothing "
          "break at epsilon 0.3; accuracies on 200 held-out sequences (median over seeds).\n")
    rows = []
    for task_name in tasks:
        for label, size, choices in SIZES:
            for choice in choices:
                got = [one(task_name, size, choice, seed, steps) for seed in seeds]
                med = [statistics.median(g[0][i] for g in got) for i in range(4)]
                secs = statistics.median(g[1] for g in got)
                name = f"{choice} (eps 0.3)" if choice == SMOOTHING else choice
                rows.append([task_name, label, name, f"{med[0]:.0%}", f"{med[1]:.0%}",
                             f"{med[2]:.0%}", f"{med[3]:.0%}", f"{secs:.1f}"])
                print(" | ".join(rows[-1]), file=sys.stderr, flush=True)  # progress
    print()
    print(table(["task", "model", "break", "correct: teacher-forced", "correct: greedy",
                 "broken: teacher-forced", "broken: greedy", "seconds (both)"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
