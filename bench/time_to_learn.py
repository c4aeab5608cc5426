"""Time to learn: training wall time until greedy decoding gets the toy tasks right.

Rerun: `.venv/bin/python -m bench.time_to_learn` (options: --seeds 3, --annotated-seeds 1,
--annotated-cap 400 (s), --smoke).

(a) The copy task as The Annotated Transformer frames it (vocabulary 11, length 10, first
    token 1): the app's fast recipe (transformer/recipes.py FAST, the Train button's
    default) until at least 99% of 500 fresh random sequences are copied exactly by greedy
    decoding; then The Annotated Transformer's own recipe (ANNOTATED) on the same model
    code: its accuracy after the fast recipe's median time, and its time to 90%.
(b) The app's tasks (source 1-9 symbols, target `<s> answer </s>`, padding) with the fast
    recipe: copy, reverse and sort on digits, and reverse on the words of a typed sentence;
    and the "small" preset of the sidebar (N=2, d_model=128, h=8, d_ff=512, dropout 0.1)
    trained the same way, so the page can say how long it takes.
Accuracy is checked every 10 steps (20 for the Annotated recipe: once an "epoch"); the
clock stops while it is checked: training time excludes evaluation, reported beside it.
Median over seeds and the worst seed. torch uses 1 thread, as in the app (README).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bench.common import machine_facts, median, met, table

COPY_TARGET_S = 3.0
TASK_TARGET_S = 5.0
SENTENCE = "the quick brown fox jumps over the lazy dog"


@dataclass
class Outcome:
    """One training run until a target accuracy (or a cap)."""

    reached: bool  # the target accuracy was reached
    seconds: float  # training time until then (or until the cap), evaluation excluded
    steps: int  # optimiser steps done
    accuracy: float  # the last accuracy measured
    eval_seconds: float  # time spent evaluating
    at_time: float | None = None  # accuracy when training time first passed `probe_s`


def run_until(model, task, cfg, accuracy: Callable[[], float], target: float, every: int,
              cap_s: float, probe_s: float | None = None) -> Outcome:
    """Train until `accuracy()` >= target (checked every `every` steps) or `cap_s` seconds."""
    from transformer.train import train

    state = {"eval": 0.0, "acc": 0.0, "reached": False, "train": 0.0, "probe": None}

    def callback(info) -> bool:
        state["train"] = info.elapsed - state["eval"]
        probe_due = (probe_s is not None and state["probe"] is None
                     and state["train"] >= probe_s)
        if info.step % every and not probe_due and info.step != info.steps:
            return state["train"] >= cap_s
        t0 = time.perf_counter()
        acc = accuracy()
        state["eval"] += time.perf_counter() - t0
        state["acc"] = acc
        if probe_due:
            state["probe"] = acc
        if acc >= target:
            state["reached"] = True
            return True
        return state["train"] >= cap_s

    history = train(model, task, cfg, callback)
    return Outcome(state["reached"], state["train"], len(history), state["acc"], state["eval"],
                   state["probe"])


def fast_copy(seed: int, cap_s: float, smoke: bool) -> Outcome:
    from transformer.recipes import FAST, AnnotatedCopy, copy_accuracy

    task = AnnotatedCopy()
    model = FAST.build(task.vocab_size, seed=seed)
    cfg = replace(FAST.train, seed=seed, steps=30 if smoke else 2000)
    return run_until(model, task, cfg, lambda: copy_accuracy(model, task, 100 if smoke else 500),
                     0.99, 10, cap_s)


def annotated_copy(seed: int, cap_s: float, probe_s: float, smoke: bool) -> Outcome:
    from transformer.recipes import ANNOTATED, AnnotatedCopy, copy_accuracy

    task = AnnotatedCopy()
    recipe = ANNOTATED
    if smoke:
        recipe = replace(recipe, N=1, d_model=32, h=2, d_ff=64)
    model = recipe.build(task.vocab_size, seed=seed)
    cfg = replace(recipe.train, seed=seed, steps=20 if smoke else recipe.train.steps)
    return run_until(model, task, cfg, lambda: copy_accuracy(model, task, 100 if smoke else 500),
                     0.90, 20, cap_s, probe_s=probe_s)


def app_task(name: str, symbols: str, seed: int, cap_s: float, smoke: bool,
             size: dict | None = None) -> Outcome:
    from explorer.training.task import task_for
    from transformer.recipes import FAST
    from transformer.train import sequence_accuracy

    task, _ = task_for(name, symbols, SENTENCE)
    recipe = replace(FAST, **(size or {}))
    model = recipe.build(task.vocab_size, seed=seed, max_len=task.max_len + 2)
    cfg = replace(FAST.train, seed=seed, steps=30 if smoke else 3000)
    n = 100 if smoke else 500
    return run_until(model, task, cfg, lambda: sequence_accuracy(model, task, n=n), 0.99, 10,
                     cap_s)


def summary(label: str, outcomes: list[Outcome], target_s: float | None) -> list[object]:
    times = [o.seconds for o in outcomes]
    worst = max(outcomes, key=lambda o: (not o.reached, o.seconds))
    reached = sum(o.reached for o in outcomes)
    return [label, f"{reached}/{len(outcomes)}", f"{median(times):.2f}",
            f"{worst.seconds:.2f}" + ("" if worst.reached else " (not reached)"),
            f"{median([o.steps for o in outcomes]):.0f}",
            f"{median([o.eval_seconds for o in outcomes]):.2f}",
            f"≤ {target_s:g}" if target_s else "report",
            met(median(times), target_s) if target_s and reached == len(outcomes) else
            ("NO" if target_s else "-")]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--annotated-seeds", type=int, default=1)
    ap.add_argument("--annotated-cap", type=float, default=400.0,
                    help="seconds of training at most for the Annotated recipe")
    ap.add_argument("--small-cap", type=float, default=120.0)
    ap.add_argument("--smoke", action="store_true", help="a few steps of each, seconds")
    args = ap.parse_args(argv)
    seeds = range(1 if args.smoke else args.seeds)
    cap = 1.0 if args.smoke else 60.0

    import torch

    torch.set_num_threads(1)
    print(machine_facts() + "\n")
    headers = ["run", "reached", "median train s", "worst seed s", "median steps",
               "median eval s", "target", "met?"]

    fast = [fast_copy(s, cap, args.smoke) for s in seeds]
    probe = median([o.seconds for o in fast])
    rows = [summary("fast recipe → 99%", fast, COPY_TARGET_S)]
    ann = [annotated_copy(s, 1.0 if args.smoke else args.annotated_cap, probe, args.smoke)
           for s in range(1 if args.smoke else args.annotated_seeds)]
    rows.append(summary("Annotated recipe → 90%", ann, None))
    print("(a) Copy task as The Annotated Transformer frames it (V=11, L=10, first token 1)\n")
    print(table(headers, rows))
    ann_t = median([o.seconds for o in ann])
    probe_acc = [o.at_time for o in ann if o.at_time is not None]
    print(f"\nAnnotated recipe after the fast recipe's median time ({probe:.2f} s): "
          f"{median(probe_acc) if probe_acc else float('nan'):.1%} exact; "
          f"{'reached' if all(o.reached for o in ann) else 'did NOT reach'} 90% after "
          f"{ann_t:.1f} s of training ({median([o.steps for o in ann]):.0f} steps). "
          f"Ratio (Annotated time to 90%) / (fast time to 99%): {ann_t / probe:.0f}x"
          + ("" if all(o.reached for o in ann) else " (a lower bound)") + ".\n")

    rows = []
    for name, symbols in (("copy", "digits"), ("reverse", "digits"), ("sort", "digits"),
                          ("reverse", "words")):
        outcomes = [app_task(name, symbols, s, cap, args.smoke) for s in seeds]
        rows.append(summary(f"fast: {name} {symbols}", outcomes, TASK_TARGET_S))
        print(f"  measured {name} {symbols}", file=sys.stderr, flush=True)
    small = {"N": 2, "d_model": 128, "h": 8, "d_ff": 512, "dropout": 0.1}
    outcomes = [app_task("copy", "digits", s, 1.0 if args.smoke else args.small_cap,
                         args.smoke, small) for s in seeds]
    rows.append(summary("small preset: copy digits", outcomes, None))
    print("(b) The app's tasks (1-9 symbols, `<s> answer </s>`), until 99% exact on 500 fresh "
          f"sequences; words = {SENTENCE!r}\n")
    print(table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
