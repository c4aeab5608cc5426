"""The attention film's cost: training time with and without recording, frames and bytes.

Rerun: `.venv/bin/python -m bench.film` (options: --runs N, --steps N, --smoke).

What the learner waits for is the Train button's run (`explorer.training.run.run_training`,
the page's own path, early stop off so every run has the same length), with the film of
the page's probe input (`explorer.training.task.film_probe`) or without it. The two are
timed alternately in one process, --runs times each, so the shared machine's drift hits
both alike. The overhead is the ratio of the medians; "recording" is the time spent inside
the film's own calls, summed, as a share of the filmed run (less noisy). Target: ≤ 10%.
The date translator's recipe (transformer.recipes.DATES, the shipped model's) is timed
for fewer steps: its steps are ~15x longer, so recording weighs less there.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace

import torch

from bench.common import machine_facts, table
from explorer.core.settings import Settings
from explorer.training.run import ModelKey, TrainedState, run_training, start_training
from explorer.training.settings import TrainSettings
from explorer.training.task import film_probe
from transformer import dates as D
from transformer.film import MAX_FRAMES, Film
from transformer.recipes import DATES
from transformer.tasks import make_task
from transformer.train import TrainConfig, train

TARGET = 0.10  # recording may add at most this share to the training time


class TimedFilm(Film):
    """A film that sums the time spent in its own calls."""

    spent: float = 0.0

    def record(self, model, step):  # type: ignore[override]
        t0 = time.perf_counter()
        super().record(model, step)
        self.spent += time.perf_counter() - t0


def page_run(task_name: str, steps: int, film: bool) -> tuple[float, TrainedState]:
    """One Train-button run of the fast recipe (early stop off): (seconds, state)."""
    task = make_task(task_name)
    ts = TrainSettings(task=task_name, steps=steps, early_stop=False)
    key = ModelKey.of(ts.model_settings(Settings()), task)
    state = start_training(key, ts.train_config(0))
    if film:
        state.film = TimedFilm(film_probe(task, ""))
    t0 = time.perf_counter()
    run_training(state)
    return time.perf_counter() - t0, state


def dates_run(steps: int, film: bool) -> tuple[float, Film | None]:
    """`steps` steps of the date translator's recipe, with or without a film."""
    task = D.DateTask()
    model = DATES.build(len(D.vocab()), seed=0, max_len=64)
    cfg: TrainConfig = replace(DATES.train, steps=steps)
    rec = TimedFilm(D.film_probe(D.held_out_examples(1)[0])) if film else None
    t0 = time.perf_counter()
    if rec is not None:
        rec.record(model, 0)
    train(model, task, cfg, (lambda info: rec.maybe_record(model, info.step)) if rec else None)
    if rec is not None:
        rec.record(model, steps)
    return time.perf_counter() - t0, rec


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=400, help="steps of each fast-recipe run")
    ap.add_argument("--date-steps", type=int, default=200)
    ap.add_argument("--smoke", action="store_true", help="a few short runs, to check it")
    args = ap.parse_args(argv)
    if args.smoke:
        args.runs, args.steps, args.date_steps = 1, 30, 6
    torch.set_num_threads(1)  # as the app runs
    print(f"Machine: {machine_facts()}\n")
    rows = []
    worst = 0.0
    cases = [(name, lambda film, name=name: page_run(name, args.steps, film))
             for name in ("copy", "reverse", "sort")]
    cases.append(("dates (DATES recipe)", lambda film: dates_run(args.date_steps, film)))
    for name, run in cases:
        plain, filmed, spent, frames, nbytes = [], [], [], 0, 0
        for _ in range(args.runs):
            plain.append(run(False)[0])
            seconds, out = run(True)
            rec = out.film if isinstance(out, TrainedState) else out
            filmed.append(seconds)
            spent.append(rec.spent / seconds)
            frames, nbytes = len(rec.steps), rec.nbytes
        a, b = statistics.median(plain), statistics.median(filmed)
        overhead = b / a - 1
        share = statistics.median(spent)
        worst = max(worst, share)
        rows.append([name, f"{a:.2f} s", f"{b:.2f} s", f"{overhead:+.1%}", f"{share:.1%}",
                     frames, f"{nbytes / 1024:.0f} KB", "yes" if share <= TARGET else "NO"])
    steps = f"{args.steps} steps (fast recipe), {args.date_steps} steps (dates)"
    print(f"{steps}; median of {args.runs} alternating runs each; at most {MAX_FRAMES} frames "
          "(+ the last step)\n")
    print(table(["task", "without film", "with film", "difference of medians",
                 "recording (share of the filmed run)", "frames", "film size",
                 f"≤ {TARGET:.0%}?"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
