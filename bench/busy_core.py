"""Busy core: a Train button's whole wait, idle and with the other core busy, per thread policy.

Rerun: `.venv/bin/python -m bench.busy_core` (11-14 min on 2 cores; options: --tasks
reverse,dates, --runs N, --policies app,no-look,1,2, --conditions idle,busy[,late],
--settle S, --quiet-wait S, --smoke).

The question (a teacher on a busy shared host saw a date training take 5x as long, where
the load explains 2-3x): does the training worker's choice of torch threads
(explorer/training/worker.py `Threads`, with `SpareCores`) misbehave when the other core is
busy?

For each task, the Train button's default request (explorer/sections/train.py
`training_request`: the task's recipe values as the page's widgets take them, digits,
"Stop when learned" on, the sidebar's seed 0 and default sentence) is trained through the
app's own path: `Hub.join` -> `ProcessRunner` -> a spawned worker process running
`train_worker.worker_main`, which relays every step back; a fresh hub per training (so
nothing is reused), two slots as on this machine (a training alone may use both cores).
The time is what a learner waits: from `Hub.join` until the hub's job is done (the model
built, trained, checked, evaluated and sent back; the app's 120 s time limit applies).

Conditions, each training after waiting (at most --quiet-wait s) for the machine to be 85%
idle: idle: nothing else of ours runs; busy: a spawned process spinning in Python
(`bench.threads._spin`), started before the training and stopped after it, keeps the other
core busy; late (not in the default run): the spinner starts at step 20, once the first
round has chosen its threads. The worker's SpareCores takes a look --settle s before the
training, in the condition (the look a training's first round makes covers the time since
the last: on a host that stays busy, busy time, not this bench's other trainings).

Thread policies, each in a worker process of its own (started and warmed once; the only
change from the app's worker is the class `worker_main` builds, swapped in the child before
it starts, explorer/training/worker.py itself unchanged):
  app      the app's: Threads(most=2) with SpareCores (times 2 threads in a round only if a
           core went spare since its last look)
  no-look  Threads(most=2) without SpareCores (times both counts every round)
  1        one thread throughout
  2        two threads throughout
Per row: the wait, steps, the wait per step, the mean of the steps' own time on one and on
two threads, the share of steps that ran on two threads (in brackets: of those, the steps
that timed two threads and the seconds they took), the worker's CPU seconds, the spinner's
share of a core, the machine's idle share just before, and the other processes' load on
the machine during the training (cores; this host is shared: a noisy row shows there).

Measured 2026-11-26 (five default runs and reruns; seed 0; reverse 375 steps, dates 1043):
- With one core kept busy, the app's policy never ran a step on two threads (0% in every
  busy row) and took what one thread takes: on a quiet host reverse 5.4 s vs one thread
  5.0 s, dates 40.4 s vs 48.2 s (a rerun: the first run's 76.3 s had other processes
  using 0.84 of a core, its one-thread steps 68 ms instead of 34). Its wait with one busy
  core is its idle wait (reverse 0.91x, dates ~1.0x across runs): a one-thread training
  does not notice one busy core of two.
- Two threads throughout with one busy core: reverse 20.3 s (50 ms a step, one thread 12),
  dates stopped by the 120 s time limit at 880 steps (130 ms a step, one thread 34); with
  other processes busy as well, up to 2.6 s a step (75x a quiet one-thread step).
- Without SpareCores, a busy core costs the rounds' two-thread timing steps: 0.4-1.8 s a
  training on a quiet host, 1.6-32 s when other processes were busy too (0.35-2.5 s each).
- What the app stays exposed to: a round that chose two threads keeps them for 100 steps
  whatever happens after (SpareCores only guards a round's start). Load arriving inside
  such a round cost a no-look reverse training 73.7 s (587 ms two-thread steps) against
  5.6-7.8 s; the app runs that same path after choosing two threads (for dates it chose
  them for a round in two of five idle runs). With the spinner from step 20 and other
  processes using about one core, the app's date training took 94.9 s vs one thread's
  103.0 s (both on one thread), 2.4x its quiet 40 s: the load alone explains that.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import machine_facts, table

TASKS = ("reverse", "dates")
POLICIES = {"app": "app (Threads + SpareCores)", "no-look": "Threads, no SpareCores",
            "1": "1 thread", "2": "2 threads"}
CONDITIONS = ("idle", "busy", "late")  # the default run: the first two
LATE_STEP = 20  # `late`: the spinner starts once the hub has seen this step
SEED = 0
# the shared counters a worker fills per training: steps on 1 and on 2 threads, their
# seconds, and the steps (and seconds) on 2 threads that were timing them (Threads' probe)
N1, N2, S1, S2, P2, PS2 = range(6)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# the Train page's widgets that take the task's recipe values (train_view.WIDGETS fields
# that TrainConfig has: train_view._recipe_widgets)
RECIPE_WIDGETS = ("steps", "batch_size", "schedule", "lr", "warmup", "factor", "smoothing")


# ---- The worker process: the app's worker_main with the policy's Threads ----------------------


def _policy_worker(conn: Any, policy: str, counts: Any) -> None:
    """A training worker process (train_worker.worker_main) whose `Threads` is `policy`'s,
    counting the steps it runs on each number of threads into `counts`."""
    from explorer.training import worker as tw

    class Counted(tw.Threads):
        def step(self, seconds: float) -> int:
            two = self.n > 1
            counts[N2 if two else N1] += 1
            counts[S2 if two else S1] += seconds
            if two and self._plan:  # a step that timed two threads (a probe)
                counts[P2] += 1
                counts[PS2] += seconds
            return super().step(seconds)

    class Fixed(Counted):
        fixed = 1

        def allow(self, most: int) -> None:  # whatever the hub's share: the fixed count
            self.most = self.fixed
            self._plan, self._times, self._left = [], {}, 0
            self._set(self.fixed)

    class Two(Fixed):
        fixed = 2

    def threads(most: int, apply: Callable[[int], None] | None = None,
                spare: Callable[[], float | None] | None = None) -> tw.Threads:
        if policy == "app":
            return Counted(most, apply=apply, spare=spare)
        if policy == "no-look":
            return Counted(most, apply=apply)
        return (Two if policy == "2" else Fixed)(most, apply=apply)

    looks: list[tw.SpareCores] = []

    class Looked(tw.SpareCores):
        def __init__(self) -> None:
            super().__init__()
            looks.append(self)

    class Conn:
        """The pipe, where ("look",) from the bench makes SpareCores look now (and is not
        passed on): the training's first look then covers only the seconds since."""

        def __init__(self, conn: Any) -> None:
            self._conn = conn

        def recv(self) -> Any:
            while True:
                message = self._conn.recv()
                if message[0] != "look":
                    return message
                for look in looks:
                    look()

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

    # worker_main looks these names up when it starts and when a training arrives
    tw.Threads, tw.SpareCores = threads, Looked
    tw.worker_main(Conn(conn))


def _worker_class() -> type:
    from explorer.training import worker as tw

    class PolicyWorker(tw.Worker):
        """train_worker.Worker, started on `_policy_worker` instead of `worker_main`."""

        def __init__(self, policy: str) -> None:
            # by its module's name, also when this file runs as __main__ (the child does
            # not run the main script: _without_main_script, as the app's workers)
            from bench.busy_core import _policy_worker

            ctx = mp.get_context("spawn")
            self.counts = ctx.Array("d", 6, lock=False)
            self.conn, child = ctx.Pipe()
            self.process = ctx.Process(target=_policy_worker,
                                       args=(child, policy, self.counts), daemon=True,
                                       name=f"busy-core-{policy}")
            with tw._without_main_script():
                self.process.start()
            child.close()

    return PolicyWorker


def _runner(worker: Any) -> Any:
    """The app's ProcessRunner, with `worker` as its one (kept) worker process."""
    from explorer.training import worker as tw

    class OneWorker(tw.ProcessRunner):
        def _take(self) -> Any:
            if not worker.alive():
                raise RuntimeError("the bench's worker process has ended")
            return worker

        def _give_back(self, _: Any) -> None:
            pass  # kept for the next training (closed by the bench at the end)

    return OneWorker(keep=1)


# ---- The Train button's default request --------------------------------------------------------


def default_request(task_name: str, seed: int = SEED, steps: int | None = None,
                    early_stop: bool = True) -> Any:
    """The hub's Request for the Train button on `task_name` with the page's defaults, as
    explorer/sections/train.training_request builds it (without Streamlit): the widgets hold
    the task's recipe values (train_view._recipe_widgets), digits, "Stop when learned" on,
    the sidebar's default sentence; the values pass parse_train_settings as the page's do.
    `steps`, `early_stop`: other widget values (the smoke run, the workers' warm-up)."""
    from explorer.core.settings import Settings
    from explorer.training.hub import Request
    from explorer.training.run import ModelKey
    from explorer.training.settings import parse_train_settings, recipe_for
    from explorer.training.task import film_probe, task_for

    train = recipe_for(task_name).train
    raw: dict[str, Any] = {name: getattr(train, name) for name in RECIPE_WIDGETS}
    raw.update(task=task_name, early_stop=early_stop, **({"steps": steps} if steps else {}))
    ts = parse_train_settings(raw)
    if ts.errors:
        raise ValueError(f"{task_name}: {ts.errors}")
    settings = Settings(seed=seed)
    task, _ = task_for(ts.task, ts.symbols, settings.source)
    key = ModelKey.of(ts.model_settings(settings), task)
    return Request(key, ts.train_config(seed), ts.early_stop,
                   film_probe(key.task_obj, settings.source))


# ---- One training, and what it took ------------------------------------------------------------


def _machine_cpu() -> tuple[float, float]:
    """(busy CPU seconds of the whole machine, wall seconds), from /proc/stat."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]
    busy = sum(ticks[:8]) - idle  # user nice system idle iowait irq softirq steal
    return busy / CLOCK_TICKS, time.monotonic()


def _cpu(pid: int) -> float:
    """utime + stime of a process of ours (bench/load.py cpu_seconds)."""
    from bench.load import cpu_seconds

    return cpu_seconds(pid)


class Spinner:
    """A spawned process spinning in Python (bench.threads._spin): one core kept busy."""

    def __init__(self) -> None:
        self.process: Any = None
        self.cpu = 0.0  # its CPU seconds, once stopped

    def start(self) -> None:
        from bench.threads import _spin
        from explorer.training.worker import _without_main_script

        ctx = mp.get_context("spawn")
        self._stop = ctx.Event()
        self.process = ctx.Process(target=_spin, args=(self._stop,), daemon=True,
                                   name="busy-core-spin")
        with _without_main_script():
            self.process.start()

    def cpu_now(self) -> float:
        if self.process is None:
            return 0.0
        try:
            return _cpu(self.process.pid)
        except OSError:  # ended
            return self.cpu

    def stop(self) -> None:
        if self.process is None:
            return
        self.cpu = self.cpu_now()
        self._stop.set()
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()


@contextlib.contextmanager
def _condition(name: str, settle: float, worker: Any) -> Iterator[Spinner]:
    """The condition's spinner while the block runs: `busy` starts it now, `late` leaves it
    to be started during the training (`measure`), `idle` never starts it. Then the
    worker's SpareCores looks, `settle` seconds before the block: the app's first look in a
    training covers the time since its last, which on a host that stays busy (or idle) is
    spent in that condition, not in this bench's other trainings."""
    spinner = Spinner()
    try:
        if name == "busy":
            spinner.start()
            time.sleep(0.3)  # a spawn takes ~0.1 s: it is spinning from here on
        worker.conn.send(("look",))
        time.sleep(settle)
        yield spinner
    finally:
        spinner.stop()


@dataclass
class Row:
    task: str
    condition: str
    policy: str
    wait: float  # s, Hub.join until the job is done
    steps: int
    step_ms: dict[int, float]  # mean of the steps' own times on 1 and on 2 threads
    on_two: float  # share of steps on two threads
    probe_steps: int  # of those, steps that timed two threads
    probe_s: float  # ... and their seconds
    worker_cpu: float  # s
    spin: float  # the spinner's share of a core over the training (0 without one)
    others: float  # cores' worth used by processes not ours during the training
    end: str  # "learned" or why it stopped
    quiet: float = 1.0  # the machine's idle share over the second before (bench.train_wait)


def train_once(worker: Any, request: Any, slots: int,
               at_step: tuple[int, Callable[[], None]] | None = None) -> tuple[Any, float]:
    """`request` through a fresh Hub with `worker` behind its ProcessRunner: (the hub's
    finished job, seconds from join until it was done). `at_step` (n, fn): fn() once the
    hub has seen step n (the `late` condition's spinner)."""
    from explorer.training.hub import Hub

    hub = Hub(slots=slots, runner=_runner(worker))
    t0 = time.perf_counter()
    ticket = hub.join(request)
    if at_step is not None:
        while not ticket.job.done.is_set() and ticket.job.state.step < at_step[0]:
            time.sleep(0.002)
        if not ticket.job.done.is_set():
            at_step[1]()
    ticket.job.done.wait()
    wait = time.perf_counter() - t0
    if ticket.job.error is not None:
        raise RuntimeError(f"training failed: {ticket.job.error}")
    return ticket.job, wait


def measure(task: str, condition: str, policy: str, worker: Any, request: Any, slots: int,
            settle: float, quiet_wait: float = 0.0, late_step: int = 0) -> Row:
    from bench.train_wait import idle_share, wait_quiet

    quiet = wait_quiet(quiet_wait) if quiet_wait > 0 else idle_share(0.5)
    pid = worker.process.pid
    with _condition(condition, settle, worker) as spinner:
        worker.counts[:] = [0.0] * 6
        ours0 = _cpu(os.getpid()) + _cpu(pid) + spinner.cpu_now()
        spin0 = spinner.cpu_now()
        busy0, t0 = _machine_cpu()
        w0 = _cpu(pid)
        at = (late_step, spinner.start) if condition == "late" else None
        job, wait = train_once(worker, request, slots, at)
        busy1, t1 = _machine_cpu()
        spin = spinner.cpu_now() - spin0
        ours1 = _cpu(os.getpid()) + _cpu(pid) + spinner.cpu_now()
        worker_cpu = _cpu(pid) - w0
    c = list(worker.counts)
    state = job.state
    counted = c[N1] + c[N2]
    end = "learned" if state.learned else (state.stop_reason or "all steps")
    return Row(task, condition, policy, wait, state.step,
               {1: 1000 * c[S1] / c[N1] if c[N1] else float("nan"),
                2: 1000 * c[S2] / c[N2] if c[N2] else float("nan")},
               c[N2] / counted if counted else 0.0, int(c[P2]), c[PS2], worker_cpu,
               spin / (t1 - t0), max(0.0, ((busy1 - busy0) - (ours1 - ours0)) / (t1 - t0)),
               end, quiet)


def _ms(x: float) -> str:
    return "-" if x != x else f"{x:.1f}"


def row_cells(r: Row) -> list[object]:
    two = f"{r.on_two:.0%}"
    if r.probe_steps:
        two += f" ({r.probe_steps} timing, {r.probe_s:.1f} s)"
    return [r.task, r.condition, POLICIES[r.policy], f"{r.wait:.1f}", r.steps,
            f"{1000 * r.wait / max(r.steps, 1):.1f}", _ms(r.step_ms[1]), _ms(r.step_ms[2]), two,
            f"{r.worker_cpu:.1f}", f"{r.spin:.2f}" if r.condition != "idle" else "-",
            f"{r.quiet:.0%}", f"{r.others:.2f}", r.end]


HEADERS = ["task", "condition", "policy", "wait s", "steps", "wait ms per step",
           "step ms, 1 thread", "step ms, 2 threads", "steps on 2 threads (timing them)",
           "worker CPU s", "spinner cores", "idle before", "others' load (cores)", "end"]


def summary(rows: Sequence[Row], tasks: Sequence[str], policies: Sequence[str],
            conditions: Sequence[str]) -> str:
    """Median wait per task, policy and condition; each condition's over idle's, and each
    policy's over one thread's in the same condition."""
    def med(t: str, c: str, p: str) -> float:
        return statistics.median(r.wait for r in rows if (r.task, r.condition, r.policy)
                                 == (t, c, p))

    headers = ["task", "policy", *(f"{c} s" for c in conditions)]
    headers += [f"{c} / idle" for c in conditions if c != "idle" and "idle" in conditions]
    headers += [f"{c} vs 1 thread" for c in conditions if "1" in policies]
    out = []
    for t in tasks:
        for p in policies:
            row: list[object] = [t, POLICIES[p], *(f"{med(t, c, p):.1f}" for c in conditions)]
            row += [f"{med(t, c, p) / med(t, 'idle', p):.2f}x" for c in conditions
                    if c != "idle" and "idle" in conditions]
            row += [f"{med(t, c, p) / med(t, c, '1'):.2f}x" for c in conditions
                    if "1" in policies]
            out.append(row)
    return ("\nMedian wait per task and policy: over idle's, and over one thread's in the same "
            "condition\n\n" + table(headers, out))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--runs", type=int, default=1, help="trainings per task, condition, policy")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--settle", type=float, default=2.0,
                    help="seconds in the condition (idle, or the spinner running) between "
                         "the worker's look at its spare cores and the training's start")
    ap.add_argument("--quiet-wait", type=float, default=30.0,
                    help="at most this many seconds before each training waiting for the "
                         "machine to be 85%% idle over a second (bench.train_wait.wait_quiet)")
    ap.add_argument("--conditions", default="idle,busy",
                    help=f"of {','.join(CONDITIONS)} (late: the spinner starts at step "
                         f"{LATE_STEP}, after the first round has chosen its threads)")
    ap.add_argument("--smoke", action="store_true",
                    help="reverse, 50 steps, the app's policy and one thread (seconds)")
    args = ap.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t]
    policies = [p for p in args.policies.split(",") if p]
    conditions = [c for c in args.conditions.split(",") if c]
    steps = None
    if args.smoke:
        tasks, policies, steps, args.runs, args.settle = ["reverse"], ["app", "1"], 50, 1, 0.5
        args.quiet_wait = 0.0
    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        ap.error(f"unknown policies {unknown}: choose from {list(POLICIES)}")
    if not set(conditions) <= set(CONDITIONS) or not conditions:
        ap.error(f"conditions: choose from {list(CONDITIONS)}")

    from explorer.training.cores import cores, slots_for

    slots = slots_for(cores())
    started = time.perf_counter()
    print(machine_facts())
    print(f"slots {slots} (a training alone may use {slots} threads) · tasks {','.join(tasks)} "
          f"· conditions {','.join(conditions)} · runs {args.runs} · seed {SEED} · settle "
          f"{args.settle:.1f} s · quiet wait {args.quiet_wait:.0f} s\n")
    requests = {t: default_request(t, steps=steps) for t in tasks}
    workers = {p: _worker_class()(p) for p in policies}
    rows: list[Row] = []
    try:
        for worker in workers.values():  # untimed: each task's first training
            for t in tasks:
                train_once(worker, default_request(t, seed=99, steps=50, early_stop=False),
                           slots)
        for t in tasks:
            for run in range(args.runs):
                for condition in conditions:
                    for policy, worker in workers.items():
                        r = measure(t, condition, policy, worker, requests[t], slots,
                                    args.settle, args.quiet_wait, LATE_STEP)
                        rows.append(r)
                        print(f"  {t} run {run + 1} {condition} {policy}: {r.wait:.1f} s, "
                              f"{r.steps} steps, {r.on_two:.0%} on 2 threads, idle before "
                              f"{r.quiet:.0%}, others {r.others:.2f} cores", file=sys.stderr,
                              flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    print(f"The Train button's default request, \"Stop when learned\", seed {SEED}, through "
          "Hub -> ProcessRunner -> worker process; wait = Hub.join until done\n")
    print(table(HEADERS, [row_cells(r) for r in rows]))
    print(summary(rows, tasks, policies, conditions))
    print(f"\nWhole run: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
