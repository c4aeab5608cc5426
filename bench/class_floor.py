"""What two cores allow ten different trainings at best: the floor under the class-wait target (c).

Rerun: `.venv/bin/python -m bench.class_floor` (options: --steps N, --rounds N, --learners N,
--cores N, --smoke).

The class-wait target (bench/class_train.py (c)) asks that ten learners with ten different
settings, pressing Train at once on two cores, wait a median of at most 2.5x (worst 5.5x)
what each would wait alone. This script
asks what ways of running those ten trainings could reach, with optimistic assumptions
(nothing else runs, no time is lost between trainings), in two designs: the hub's, one
training per core at a time, and one that trains several learners' models in one step.

(a) The cost of sharing a step. Ten trainings of one shape could be stacked and trained K
    at a time in one step (the same arithmetic on K models' weights). Such a step does at
    least the work of one model's step on a batch K times as large (the same operations,
    K times the rows; a stacked model's optimiser even has K times the weights), so we
    time that: the fast recipe's model (N=1, d_model 32, h 2, d_ff 64) on copy batches of
    128 x K, forward, loss, backward and Adam, one thread; the median over --rounds rounds
    of each round's median step (--steps steps). "Per model" is that step / K / the K=1
    step: below 1 means sharing saves.
(b) The best schedule. --learners equal trainings of T seconds each (T: one training on one
    thread, as the hub's slots run them), --cores slots. A slot runs groups one after
    another; a group of K trains together for (a)'s K step / K=1 step x T. Every split of
    the learners into groups and slots is tried: the lowest median finish (the mean of the
    two middle ones for an even count) and the lowest worst finish, in units of T.
(c) The same search for bench.class_train (c)'s own trainings (copy, seeds 100.., the Train button's
    recipe with "Stop when learned", each first trained alone on one thread: its T). The
    learners arrive in seed order and take the groups in the order they start (a scheduler
    cannot know which training will learn sooner). In a group, each member leaves once it
    has learned (after its own T's worth of steps) and the others go on with the cheaper
    step of the members left, (a)'s factors applied to the whole of T (setup and checks
    too). Each learner's ratio is its finish over its own T, as bench.class_train (c) counts it. A
    learner alone may use both cores (explorer/training/worker.py Threads), so its real wait
    alone is at most T: the true ratios are at least these.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence

import torch

from bench.class_train import _one_training
from bench.common import machine_facts, table
from bench.step_cost import _ours, timed_steps
from transformer.model import make_model
from transformer.recipes import FAST
from transformer.tasks import make_task
from transformer.train import Batch

MEDIAN_TARGET = 2.5  # (c): median wait / the learner's own wait alone
WORST_TARGET = 5.5


def step_ms(ks: Sequence[int], steps: int, rounds: int) -> dict[int, float]:
    """(a): median ms of one training step of the fast recipe's model, batch 128 x K."""
    task = make_task("copy")
    vocab = len(task.vocab)
    gen = torch.Generator().manual_seed(0)
    batch = FAST.train.batch_size
    batches = {k: [Batch(*task.sample(batch * k, gen)) for _ in range(steps)] for k in ks}
    model = make_model(vocab, vocab, FAST.N, FAST.d_model, FAST.d_ff, FAST.h, 0.0, seed=0)
    runs: dict[int, list[float]] = {k: [] for k in ks}
    for _ in range(rounds):  # alternate the sizes, so the shared machine's drift hits all
        for k in ks:
            runs[k].append(timed_steps(model, _ours(model), batches[k], vocab)["step"])
    return {k: statistics.median(v) for k, v in runs.items()}


def compositions(n: int) -> list[tuple[int, ...]]:
    """Every ordered split of n learners into groups (a slot's groups, in turn)."""
    if n == 0:
        return [()]
    return [(k, *rest) for k in range(1, n + 1) for rest in compositions(n - k)]


def plans(n: int, slots: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to split n learners into groups and the groups among `slots` slots."""
    if slots == 1:
        return [(c,) for c in compositions(n)]
    return [(c, *rest) for first in range(n + 1) for c in compositions(first)
            for rest in plans(n - first, slots - 1)]


def ratios(plan: tuple[tuple[int, ...], ...], cost: dict[int, float],
           alone: Sequence[float]) -> list[float]:
    """Each learner's finish / its own time alone, when the slots run `plan`'s groups and
    the learners (in arrival order) take the groups in the order they start. In a group,
    each member leaves once it has learned; the rest go on at the cost of those left."""
    ends = [0.0] * len(plan)
    left = [list(groups) for groups in plan]
    out: list[float] = []
    learner = 0
    while learner < len(alone):
        slot = min((s for s in range(len(plan)) if left[s]), key=lambda s: (ends[s], s))
        k = left[slot].pop(0)
        members = alone[learner:learner + k]
        t, trained = ends[slot], 0.0  # the clock; each member's own seconds trained so far
        finish = [0.0] * k
        for gone, i in enumerate(sorted(range(k), key=lambda i: members[i])):
            t += (members[i] - trained) * cost[k - gone]
            trained = members[i]
            finish[i] = t
        ends[slot] = t
        out += [f / own for f, own in zip(finish, members, strict=True)]
        learner += k
    return out


def best_schedules(cores: int, cost: dict[int, float], alone: Sequence[float]
                   ) -> dict[str, tuple[float, float, str]]:
    """(median, worst, plan) of the hub's one-at-a-time plan, of the plan with the lowest
    median ratio and of the one with the lowest worst ratio."""
    found: dict[str, tuple[float, float, str]] = {}
    ends = [0.0] * cores  # the hub: each learner, in turn, takes the slot that frees first
    fifo = []
    for own in alone:
        slot = min(range(cores), key=lambda s: (ends[s], s))
        ends[slot] += own
        fifo.append(ends[slot] / own)
    found["fifo"] = (statistics.median(fifo), max(fifo), "each learner, the first slot free")
    for plan in plans(len(alone), cores):
        if any(k > max(cost) for groups in plan for k in groups):
            continue
        r = ratios(plan, cost, alone)
        med, worst = statistics.median(r), max(r)
        text = " / ".join("+".join(map(str, g)) or "-" for g in plan)
        if "median" not in found or (med, worst) < found["median"][:2]:
            found["median"] = (med, worst, text)
        if "worst" not in found or (worst, med) < (found["worst"][1], found["worst"][0]):
            found["worst"] = (med, worst, text)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--learners", type=int, default=10)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args(argv)
    if min(args.steps, args.rounds, args.learners, args.cores) < 1:
        ap.error("--steps, --rounds, --learners and --cores must be at least 1")
    learners, steps, rounds = ((3, 3, 1) if args.smoke else
                               (args.learners, args.steps, args.rounds))
    torch.set_num_threads(1)
    ks = list(range(1, learners + 1))
    ms = step_ms(ks, steps, rounds)
    cost = {k: ms[k] / ms[1] for k in ks}
    print(f"Machine: {machine_facts()}. Fast recipe size (N={FAST.N}, d_model {FAST.d_model}, "
          f"h {FAST.h}, d_ff {FAST.d_ff}), copy; median of {rounds} rounds x {steps} steps, "
          "1 thread.\n")
    print("(a) One step on K learners' batches at once (batch "
          f"{FAST.train.batch_size} x K): the least a step shared by K models could cost\n")
    print(table(["K", "step ms", "x the K=1 step", "per model"],
                [[k, f"{ms[k]:.2f}", f"{cost[k]:.2f}", f"{cost[k] / k:.2f}"] for k in ks]))
    print(f"\n(b) {learners} equal trainings, {args.cores} slots: finish times in units of "
          "one training alone on one thread (plan: each slot's groups in turn)\n")
    print(_schedule_table(best_schedules(args.cores, cost, [1.0] * learners)))
    seeds = [100 + i for i in range(learners)]
    _one_training(99)  # first-call costs, outside the timing
    alone = [_one_training(seed) for seed in seeds]
    print(f"\n(c) bench.class_train (c)'s trainings (copy, seeds {seeds[0]}-{seeds[-1]}), "
          f"each alone on one thread first: {', '.join(f'{x:.2f}' for x in alone)} s; "
          "each learner's finish over its own time alone\n")
    print(_schedule_table(best_schedules(args.cores, cost, alone)))
    return 0


def _schedule_table(found: dict[str, tuple[float, float, str]]) -> str:
    rows = []
    for key, name in (("fifo", "one training per slot, in turn (the hub)"),
                      ("median", "groups, lowest median"), ("worst", "groups, lowest worst")):
        med, worst, plan = found[key]
        rows.append([name, plan, f"{med:.2f}x", f"{worst:.2f}x",
                     f"median <= {MEDIAN_TARGET}x, worst <= {WORST_TARGET}x",
                     "yes" if med <= MEDIAN_TARGET and worst <= WORST_TARGET else "NO"])
    return table(["schedule", "plan", "median", "worst", "target (c)",
                  "within it?"], rows)


if __name__ == "__main__":
    raise SystemExit(main())
