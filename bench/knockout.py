"""Knocking out heads: how long the Attention page's "Measure every head" takes.

Rerun: `.venv/bin/python -m bench.knockout` (options: --runs N, --n N, --smoke).

The full grid (`explorer.training.knockout.head_grid`): the exact accuracy of greedy decoding on
--n fresh task inputs (the page's FRESH by default), once for the whole model and once
without each head of each attention (3·N·h more), torch on one thread as in the app.
Models: the shipped date translator (held-out days) and the default tiny model (the
sidebar's default architecture built for the Train page's default task, copy over digits,
untrained: the same size and decoding lengths as a tiny model trained there, so the same
time; its accuracy is 0, so its losses are too). Median of --runs. The time does not
include drawing the fresh inputs (once per model and session). Target: ≤ 30 s, what a
learner waits for with a progress bar.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import torch

from bench.common import machine_facts, met, table
from explorer.app.sources import shipped_dates
from explorer.core.settings import Settings
from explorer.training.knockout import ATTENTION_PARTS, FRESH, fresh_inputs, head_grid, task_of
from explorer.training.run import ModelKey, build_model_for
from transformer.tasks import make_task

TARGET = 30.0  # seconds


def models() -> dict[str, tuple]:
    """(model, its config, its task) of each benchmarked model, by name."""
    loaded = shipped_dates()
    dates, _ = task_of(loaded.meta, loaded.src_vocab, loaded.tgt_vocab,
                       max_len=loaded.config.max_len)
    copy = make_task("copy")
    key = ModelKey.of(Settings(), copy)
    return {"shipped date translator": (loaded.model, loaded.config, dates),
            "default tiny model (copy, untrained)": (build_model_for(key), key.config, copy)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--n", type=int, default=FRESH, help="fresh inputs per accuracy")
    ap.add_argument("--smoke", action="store_true", help="one run on 30 inputs")
    args = ap.parse_args(argv)
    runs, n = (1, 30) if args.smoke else (args.runs, args.n)
    torch.set_num_threads(1)
    print(f"Machine: {machine_facts()}\n")
    rows = []
    for name, (model, cfg, task) in models().items():
        fresh = fresh_inputs(task, n=n)
        times, grid = [], None
        for _ in range(runs):
            t0 = time.perf_counter()
            grid = head_grid(model, fresh, cfg)
            times.append(time.perf_counter() - t0)
        median = statistics.median(times)
        count = len(ATTENTION_PARTS) * cfg.N * cfg.h
        unit, lost = grid.most_important()
        rows.append([name, f"N={cfg.N}, h={cfg.h}, d_model={cfg.d_model}", count + 1, n,
                     f"{grid.intact:.1%}", f"{unit.part} L{unit.layer} H{unit.head}: {lost:.1%}",
                     f"{median:.1f} s ({median / (count + 1) * 1000:.0f} ms each)",
                     f"≤ {TARGET:.0f} s", met(median, TARGET)])
    print(table(["model", "size", "accuracies", "inputs each", "intact", "most lost",
                 "full grid (median)", "target", "met?"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
