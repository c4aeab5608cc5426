"""Threads: why the app runs torch with one intra-op thread on a 2-core server.

Rerun: `.venv/bin/python -m bench.threads` (options: --runs N, --smoke).

One forward pass with capture (what a page rerun computes) of the tiny and the paper-base
model on an 8-token sentence, with torch.set_num_threads(1) and (2): on an idle machine,
and with the other core busy (a second process spinning, as another session's request
would keep it). Median of --runs passes, in ms.

Then the same four cases for one training step of the Train button's fast recipe (copy,
batch 128, forward, loss, backward and Adam), which a training worker may run on two
threads while it trains alone (explorer/training/worker.py Threads): median and slowest of
--steps steps, in ms.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from bench.common import machine_facts, median, table

T = TypeVar("T")
SIZES = {"tiny": (2, 32, 64, 4), "paper base": (6, 512, 2048, 8)}


def _spin(stop) -> None:
    while not stop.is_set():
        sum(range(10_000))


def _forward_ms(model, runs: int, threads: int) -> float:
    import torch

    from transformer import subsequent_mask

    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    src = torch.randint(4, 20, (1, 8), generator=gen)
    tgt = torch.randint(4, 20, (1, 8), generator=gen)
    src_mask, tgt_mask = torch.ones(1, 1, 8, dtype=torch.bool), subsequent_mask(8)
    times = []
    with torch.no_grad():
        for i in range(runs + 2):
            t0 = time.perf_counter()
            model.run_with_cache(src, tgt, src_mask, tgt_mask)
            if i >= 2:  # two warm-up passes
                times.append((time.perf_counter() - t0) * 1000)
    torch.set_num_threads(1)
    return median(times)


def _step_ms(steps: int, threads: int) -> tuple[float, float]:
    """Median and slowest ms of `steps` fast-recipe training steps on `threads` threads
    (after three warm-up steps), timed as bench/step_cost.py times them; each batch is
    drawn just before its step, as a training draws it."""
    import torch

    from bench.step_cost import _ours, timed_steps
    from transformer import make_model
    from transformer.recipes import FAST
    from transformer.tasks import make_task
    from transformer.train import Batch

    torch.set_num_threads(threads)
    task = make_task("copy")
    vocab = len(task.vocab)
    gen = torch.Generator().manual_seed(0)
    model = make_model(vocab, vocab, FAST.N, FAST.d_model, FAST.d_ff, FAST.h, 0.0, seed=0)

    def batches(n: int):
        return (Batch(*task.sample(FAST.train.batch_size, gen)) for _ in range(n))

    timed_steps(model, _ours(model), list(batches(3)), vocab)  # warm-up
    ms = timed_steps(model, _ours(model), batches(steps), vocab)
    torch.set_num_threads(1)
    return ms["step"], ms["slowest"]


def _per_threads(fn: Callable[[int], T]) -> dict[int, T]:
    """fn(threads) on one thread and on two."""
    return {th: fn(th) for th in (1, 2)}


def _with_spinner(fn: Callable[[], T]) -> T:
    """fn() while a second process keeps the other core busy."""
    stop = mp.Event()
    spinner = mp.Process(target=_spin, args=(stop,), daemon=True)
    spinner.start()
    try:
        time.sleep(0.2)
        return fn()
    finally:
        stop.set()
        spinner.join(5)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args(argv)
    runs, steps = (2, 3) if args.smoke else (args.runs, args.steps)
    sizes = {"tiny": SIZES["tiny"]} if args.smoke else SIZES

    from transformer import make_model

    print(machine_facts() + "\n")
    rows = []
    for name, (N, d, ff, h) in sizes.items():
        model = make_model(20, 20, N, d, ff, h, 0.0, seed=0).eval()
        forward = functools.partial(_forward_ms, model, runs)
        idle = _per_threads(forward)
        busy = _with_spinner(functools.partial(_per_threads, forward))
        rows.append([name, f"{idle[1]:.1f}", f"{idle[2]:.1f}", f"{busy[1]:.1f}",
                     f"{busy[2]:.1f}", "1" if busy[1] <= busy[2] else "2"])
    print("Forward pass + capture, 8 tokens, median ms (lower is better)\n")
    print(table(["model", "1 thread, idle", "2 threads, idle", "1 thread, other core busy",
                 "2 threads, other core busy", "better under load"], rows))
    step = functools.partial(_step_ms, steps)
    idle_steps = _per_threads(step)
    busy_steps = _with_spinner(functools.partial(_per_threads, step))
    print(f"\nOne training step of the fast recipe (copy, batch 128), {steps} steps: median ms "
          "(slowest)\n")
    cell = "{:.1f} ({:.1f})".format
    print(table(["1 thread, idle", "2 threads, idle", "1 thread, other core busy",
                 "2 threads, other core busy"],
                [[cell(*idle_steps[1]), cell(*idle_steps[2]), cell(*busy_steps[1]),
                  cell(*busy_steps[2])]]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
