"""Threads: why the app runs torch with one intra-op thread on a 2-core server.

Rerun: `.venv/bin/python -m bench.threads` (options: --runs N, --smoke).

One forward pass with capture (what a page rerun computes) of the tiny and the paper-base
model on an 8-token sentence, with torch.set_num_threads(1) and (2): on an idle machine,
and with the other core busy (a second process spinning, as another session's request
would keep it). Median of --runs passes, in ms.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from collections.abc import Sequence

from bench.common import machine_facts, median, table

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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args(argv)
    runs = 2 if args.smoke else args.runs
    sizes = {"tiny": SIZES["tiny"]} if args.smoke else SIZES

    from transformer import make_model

    print(machine_facts() + "\n")
    rows = []
    for name, (N, d, ff, h) in sizes.items():
        model = make_model(20, 20, N, d, ff, h, 0.0, seed=0).eval()
        idle = {th: _forward_ms(model, runs, th) for th in (1, 2)}
        stop = mp.Event()
        spinner = mp.Process(target=_spin, args=(stop,), daemon=True)
        spinner.start()
        try:
            time.sleep(0.2)
            busy = {th: _forward_ms(model, runs, th) for th in (1, 2)}
        finally:
            stop.set()
            spinner.join(5)
        rows.append([name, f"{idle[1]:.1f}", f"{idle[2]:.1f}", f"{busy[1]:.1f}",
                     f"{busy[2]:.1f}", "1" if busy[1] <= busy[2] else "2"])
    print("Forward pass + capture, 8 tokens, median ms (lower is better)\n")
    print(table(["model", "1 thread, idle", "2 threads, idle", "1 thread, other core busy",
                 "2 threads, other core busy", "better under load"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
