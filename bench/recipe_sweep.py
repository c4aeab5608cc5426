"""Which recipe learns the toy tasks in the fewest seconds, as the Train button runs it.

Rerun: `.venv/bin/python -m bench.recipe_sweep` (options: --seeds 5, --workers 2,
--candidates fast,b128,... , --tasks copy,reverse,sort,words, --smoke).

Each candidate is a model size and a training config; each run is the Train button's own code
path (`start_training` + `run_training` with "Stop when learned": training, the stop checks
and the held-out evaluation), on the four tasks the fast recipe must learn (copy, reverse
and sort on digits; reverse on the words of the default sentence), seeds 0 .. --seeds-1.
Runs are spread over --workers processes with one torch thread each, so the seconds are each
run's own CPU time (its thread's), which does not depend on what shares the machine; on an
idle core a learner's wait is about that. Steps are exact. The table lists, per candidate
and task, the median and worst seconds and steps; the candidate chosen is the one with the
lowest worst-task median whose every run learned.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.common import machine_facts, median, table
from transformer.recipes import FAST

SENTENCE = "the quick brown fox jumps over the lazy dog"
TASKS = {"copy": ("copy", "digits"), "reverse": ("reverse", "digits"),
         "sort": ("sort", "digits"), "words": ("reverse", "words")}


@dataclass(frozen=True)
class Candidate:
    """A model size and how to train it; unnamed fields are the fast recipe's (FAST)."""

    name: str
    d_model: int = FAST.d_model
    d_ff: int = FAST.d_ff
    h: int = FAST.h
    batch_size: int = FAST.train.batch_size
    lr: float = FAST.train.lr
    warmup: int = FAST.train.warmup


CANDIDATES = {c.name: c for c in (
    Candidate("fast"),  # the recipe the app ships: batch 128, lr 1e-2 (chosen by this sweep)
    Candidate("b64", batch_size=64, lr=7e-3),  # the fast recipe before the sweep
    Candidate("lr1e-2", batch_size=64, lr=1e-2),
    Candidate("lr1.5e-2", batch_size=64, lr=1.5e-2),
    Candidate("b32", batch_size=32, lr=5e-3),
    Candidate("d64", d_model=64, d_ff=128, batch_size=64, lr=5e-3),
    Candidate("d64-lr1e-2", d_model=64, d_ff=128, batch_size=64, lr=1e-2),
    Candidate("d64-h4", d_model=64, d_ff=128, h=4, batch_size=64, lr=7e-3),
    Candidate("d48", d_model=48, d_ff=96, batch_size=64, lr=7e-3),
    Candidate("b128-lr1.5e-2", lr=1.5e-2),
    Candidate("b128-lr2e-2", lr=2e-2),
    Candidate("b128-w10", warmup=10),
    Candidate("b128-h4", h=4),
    Candidate("b256", batch_size=256),
)}


def one_run(candidate: Candidate, task_label: str, seed: int) -> dict[str, object]:
    """The Train button's run of `candidate` on one task and seed: steps and CPU seconds."""
    import torch

    torch.set_num_threads(1)
    from dataclasses import replace

    from explorer.core.settings import Settings
    from explorer.training.run import ModelKey, run_training, start_training
    from explorer.training.settings import TrainSettings
    from explorer.training.task import task_for

    name, symbols = TASKS[task_label]
    ts = replace(TrainSettings(task=name, symbols=symbols), batch_size=candidate.batch_size,
                 lr=candidate.lr, warmup=candidate.warmup)
    task, _ = task_for(name, symbols, SENTENCE)
    settings = replace(ts.model_settings(Settings(seed=seed)), d_model=candidate.d_model,
                       d_ff=candidate.d_ff, h=candidate.h)
    key = ModelKey.of(settings, task)
    c0, t0 = time.thread_time(), time.perf_counter()
    state = start_training(key, ts.train_config(seed), early_stop=True)
    run_training(state)
    return {"candidate": candidate.name, "task": task_label, "seed": seed,
            "cpu": time.thread_time() - c0, "wall": time.perf_counter() - t0,
            "steps": state.step, "learned": state.learned, "acc": state.accuracy or 0.0}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--candidates", default=",".join(CANDIDATES))
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--smoke", action="store_true", help="1 seed, the fast recipe, copy")
    args = ap.parse_args(argv)
    if args.smoke:
        args.seeds, args.workers, args.candidates, args.tasks = 1, 1, "fast", "copy"
    cands = [CANDIDATES[c] for c in args.candidates.split(",")]
    tasks = args.tasks.split(",")
    jobs = [(c, tk, s) for c in cands for tk in tasks for s in range(args.seeds)]
    print(machine_facts())
    print(f"\n{args.seeds} seeds, {args.workers} worker processes (1 torch thread each); "
          "seconds are each run's CPU time (training, checks, held-out evaluation)\n")
    results: list[dict[str, object]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for r in pool.map(one_run, *zip(*jobs, strict=True)):
            results.append(r)
            print(f"  {r['candidate']} {r['task']} seed {r['seed']}: {r['cpu']:.2f} s, "
                  f"{r['steps']} steps, learned {r['learned']}", file=sys.stderr, flush=True)
    rows = []
    score: dict[str, float] = {}
    for c in cands:
        worst_median = 0.0
        all_learned = True
        for tk in tasks:
            rs = [r for r in results if r["candidate"] == c.name and r["task"] == tk]
            secs = [float(r["cpu"]) for r in rs]
            steps = [int(r["steps"]) for r in rs]  # type: ignore[arg-type]
            learned = sum(bool(r["learned"]) for r in rs)
            all_learned &= learned == len(rs)
            worst_median = max(worst_median, median(secs))
            rows.append([c.name, f"{c.d_model}/{c.d_ff}/h{c.h}", c.batch_size, f"{c.lr:g}",
                         tk, f"{learned}/{len(rs)}", f"{median(secs):.2f}", f"{max(secs):.2f}",
                         f"{median(steps):.0f}", max(steps)])
        if all_learned:
            score[c.name] = worst_median
    print(table(["candidate", "d_model/d_ff/h", "batch", "lr", "task", "learned",
                 "median s", "worst s", "median steps", "worst steps"], rows))
    if score:
        best = min(score, key=score.__getitem__)
        print(f"\nLowest worst-task median with every run learned: {best} "
              f"({score[best]:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
