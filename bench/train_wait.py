"""The Train button's whole wait: from the click to the trained model's results.

Rerun: `.venv/bin/python -m bench.train_wait` (options: --seeds 5,
--tasks copy,reverse,sort,words, --browser-task copy, --quiet-wait 120 (s), --threads N,
--no-browser, --smoke). The browser part needs Debian's Chromium at /usr/bin/chromium and
the playwright package.

What the Train page's recipe label ("learns copy in about ...") must state. Fast recipe,
digits, the page's defaults (TrainSettings(): "Stop when learned" on), seeds 0 .. --seeds-1
(the sidebar's seed; 0 is the default):
(a) In the process, the Train button's own code path: start_training + run_training(state):
    training, the stop checks (explorer/training/run.py check_due: 200 fresh sequences, all must
    be right, scored in one teacher-forced pass) and the held-out evaluation, after
    `warm_up()` as the app's worker processes do. torch threads as a worker process sets
    them for a training that runs alone (explorer/training/worker.py `Threads`: up to --threads,
    by default the machine's cores, while that makes steps shorter). Wall time, the
    process's CPU time (with two threads up to twice the wall time), the share of steps
    that ran on more than one thread, and the held-out accuracy the page then shows. Tasks:
    copy, reverse and sort on digits; words = reverse on the words of the default sentence
    (SENTENCE).
(b) In headless Chromium against `streamlit run app.py` (127.0.0.1, a free port, stopped at
    the end): from the click on Train (page opened with ?seed=N) until the page is idle with
    the training metrics drawn and no progress bar: what a learner waits, including the
    progress bar and live loss chart the page draws while training. Also the server
    process's CPU time over that wait (its own work; the rest is waiting for a core, or the
    browser drawing on the same two cores). The first click only warms the server up.
(c) The same clicks from a protocol client that speaks Streamlit's websocket protocol as the
    browser does and draws nothing (bench/load.py `Learner`, as bench/class_train.py uses):
    a learner whose browser runs on another machine, as on a deployed server, where the
    training's cores are not also drawing the page. From the click until the trained
    model's results arrive (the metrics, drawn first once the training has ended), on a
    server of its own (so nothing is shared with (b)); copy only (the page's default task).
    --no-browser skips (b) and (c).
Before every sample it waits (at most --quiet-wait s) until the machine is at least 85% idle
over one second, and prints that share: other work on the cores lengthens the wait.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from bench.common import CHROMIUM, child_pid, have_chromium, machine_facts, median, table

SENTENCE = "the quick brown fox jumps over the lazy dog"
# --tasks names: (the Train page's task, its symbols)
TASKS = {"copy": ("copy", "digits"), "reverse": ("reverse", "digits"),
         "sort": ("sort", "digits"), "words": ("reverse", "words")}

DONE = """() => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const metrics = document.querySelectorAll("[data-testid='stMain'] [data-testid='stMetric']");
  const progress = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']")
    !== null;
  return idle && metrics.length >= 4 && !progress;
}"""
STARTED = """() =>
  document.querySelector("[data-testid='stMain'] [data-testid='stProgress']") !== null
  || document.querySelectorAll("[data-testid='stMain'] [data-testid='stMetric']").length >= 4"""
STEPS = """() => [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stMetric']")]
  .map(m => m.innerText).find(s => / \\/ \\d+/.test(s)) || ''"""


def idle_share(interval: float = 1.0) -> float:
    """Share of the machine's CPU time that was idle over `interval` seconds (/proc/stat)."""
    def read() -> tuple[int, int]:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)

    i0, t0 = read()
    time.sleep(interval)
    i1, t1 = read()
    return (i1 - i0) / max(t1 - t0, 1)


def wait_quiet(limit: float) -> float:
    end = time.time() + limit
    share = idle_share()
    while share < 0.85 and time.time() < end:
        share = idle_share()
    return share


def in_process(name: str, seed: int, most: int, steps: int | None = None) -> dict[str, float]:
    from dataclasses import replace

    import torch

    from explorer.core.settings import Settings
    from explorer.training import run as training
    from explorer.training.run import ModelKey, run_training, start_training
    from explorer.training.settings import TrainSettings
    from explorer.training.task import task_for
    from explorer.training.worker import Threads
    from transformer.train import StepInfo

    task_name, symbols = TASKS[name]
    ts = TrainSettings(task=task_name, symbols=symbols)
    if steps is not None:
        ts = replace(ts, steps=steps)
    task, _ = task_for(task_name, symbols, SENTENCE)
    key = ModelKey.of(ts.model_settings(Settings(seed=seed)), task)
    spent = {"learned": 0.0, "held_out": 0.0}  # seconds in the stop checks, the evaluation

    def timed(name: str):
        real = getattr(training, name)

        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - t
        return real, wrapper

    patched = {name: timed(name) for name in spent}
    for name, (_, wrapper) in patched.items():
        setattr(training, name, wrapper)  # run_training looks them up in its module
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        threads = Threads(most, apply=torch.set_num_threads)  # as the worker process does
        counts: list[int] = []

        def on_step(info: StepInfo) -> None:
            counts.append(threads.n)
            threads.step(info.seconds)

        state = start_training(key, ts.train_config(seed), early_stop=True)
        run_training(state, on_step)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        for name, (real, _) in patched.items():
            setattr(training, name, real)
        torch.set_num_threads(1)
    return {"wall": wall, "cpu": cpu, "steps": state.step, "learned": state.learned,
            "multi": sum(n > 1 for n in counts) / max(len(counts), 1),
            "acc": state.accuracy or 0.0, "checks": spent["learned"],
            "held_out": spent["held_out"], "train": state.seconds - spent["learned"]}


def in_browser(task_name: str, seeds: Sequence[int], quiet: float,
               steps: int | None = None) -> list[dict[str, object]]:
    from playwright.sync_api import sync_playwright

    from bench.load import cpu_seconds
    from tests.serve import CHROMIUM_ARGS, free_port, serve, wait_idle

    out: list[dict[str, object]] = []
    port = free_port()
    with serve(port) as url, sync_playwright() as pw:
        pid = child_pid(port)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for i, seed in enumerate([seeds[0], *seeds]):  # run 0 warms the server up
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.goto(f"{url}/train?seed={seed}")
                wait_idle(page, 1.0)
                if task_name != "copy":
                    from transformer.tasks import TASKS
                    page.locator(".st-key-tr_task label").nth(
                        1 + TASKS.index(task_name)).click()
                    page.wait_for_timeout(300)
                    wait_idle(page, 0.3)
                if steps is not None:
                    box = page.locator(".st-key-tr_steps input[type='range']").first
                    box.focus()
                    box.press("Home")  # the slider's lowest value (smoke runs)
                    page.wait_for_timeout(300)
                    wait_idle(page, 0.3)
                share = wait_quiet(quiet) if i else 1.0
                c0 = cpu_seconds(pid) if pid else 0.0
                t0 = time.perf_counter()
                page.locator(".st-key-tr_train button").first.click()
                page.wait_for_function(STARTED, polling=20, timeout=300_000)
                page.wait_for_function(DONE, polling=20, timeout=300_000)
                wait = time.perf_counter() - t0
                cpu = (cpu_seconds(pid) - c0) if pid else float("nan")
                shown = page.evaluate(STEPS).replace("\n", " ")
                context.close()
                if i:
                    out.append({"seed": seed, "wait": wait, "cpu": cpu, "idle": share,
                                "steps": shown})
                    print(f"  browser {task_name} seed {seed}: {wait:.2f} s (server CPU "
                          f"{cpu:.2f} s; idle before {share:.0%}; {shown})", file=sys.stderr,
                          flush=True)
        finally:
            browser.close()
    return out


def by_protocol(seeds: Sequence[int], quiet: float) -> list[float]:
    """(c): seconds from each click on Train (the page's defaults: copy) to the trained
    model's results, per seed."""
    import asyncio

    from bench.class_train import _press, _train_page
    from bench.common import served_app

    async def clicks(url: str) -> list[float]:
        warm = await _train_page(url, 99, 300.0)  # a fresh server's first run imports torch
        await _press(warm)
        await warm.close()
        seen = []
        for seed in seeds:
            wait_quiet(quiet)
            learner = await _train_page(url, seed, 300.0)
            _, error, results = await _press(learner)
            await learner.close()
            if error:
                raise RuntimeError(f"seed {seed}: {error}")
            seen.append(results)
            print(f"  protocol client copy seed {seed}: {results:.2f} s",
                  file=sys.stderr, flush=True)
        return seen

    with served_app() as (url, _):
        return asyncio.run(clicks(url))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--tasks", default=",".join(TASKS), help="tasks timed in the process")
    ap.add_argument("--browser-task", default="copy")
    ap.add_argument("--quiet-wait", type=float, default=120.0)
    ap.add_argument("--threads", type=int, default=0,
                    help="the most torch threads in (a); 0: the machine's cores, as the hub "
                         "gives a training that runs alone; 1: one thread throughout")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="1 seed, 50 steps, seconds")
    args = ap.parse_args(argv)
    seeds = range(1 if args.smoke else max(1, args.seeds))
    steps = 50 if args.smoke else None
    quiet = 0.0 if args.smoke else args.quiet_wait

    import torch

    from explorer.training.cores import cores
    from explorer.training.run import warm_up

    threads = args.threads if args.threads > 0 else cores()
    torch.set_num_threads(1)
    warm_up()  # as each worker process does when it starts, on one thread
    print(machine_facts() + "\n")
    rows, split = [], []
    # each seed on one thread and as the worker chooses, one after the other (the machine's
    # drift hits both alike); the split of the wait is the worker's
    limits = [1, threads] if threads > 1 else [1]
    for name in [n for n in args.tasks.split(",") if n]:
        runs: dict[int, list[dict[str, float]]] = {n: [] for n in limits}
        for seed in seeds:
            for most in limits:
                share = wait_quiet(quiet)
                r = in_process(name, seed, most, steps)
                runs[most].append(r)
                print(f"  {name} seed {seed}, up to {most} thread(s): {r['wall']:.2f} s (CPU "
                      f"{r['cpu']:.2f} s; {r['steps']} steps; idle before {share:.0%})",
                      file=sys.stderr, flush=True)
        for most in limits:
            done = runs[most]
            wall, cpu = [r["wall"] for r in done], [r["cpu"] for r in done]
            steps_done = max(sum(r["steps"] for r in done), 1)
            multi = sum(r["multi"] * r["steps"] for r in done) / steps_done
            label = "one thread" if most == 1 else f"up to {most} threads (the app's worker)"
            rows.append([f"(a) in the process, {label}: {name}", f"{median(wall):.2f}",
                         f"{max(wall):.2f}", f"{median(cpu):.2f}", f"{max(cpu):.2f}",
                         " ".join(str(r["steps"]) for r in done),
                         f"{sum(bool(r['learned']) for r in done)}/{len(done)}",
                         f"{median([r['acc'] for r in done]):.1%}",
                         f"{min(r['acc'] for r in done):.1%}", f"{multi:.0%}"])
        done = runs[limits[-1]]
        total = sum(r["wall"] for r in done)
        per_step = 1000 * sum(r["train"] for r in done) / max(sum(r["steps"] for r in done), 1)
        shares = [sum(r[k] for r in done) / total for k in ("train", "checks", "held_out")]
        split.append([name, f"{shares[0]:.0%}", f"{per_step:.1f}", f"{shares[1]:.0%}",
                      f"{shares[2]:.0%}", f"{1 - sum(shares):.0%}"])
    if not args.no_browser:
        if not have_chromium():
            print(f"SKIP (b): no Chromium at {CHROMIUM}")
        else:
            runs = in_browser(args.browser_task, list(seeds), quiet, steps)
            wait, cpu = [r["wait"] for r in runs], [r["cpu"] for r in runs]
            rows.append([f"(b) browser, click to results: {args.browser_task}",
                         f"{median(wait):.2f}", f"{max(wait):.2f}", f"{median(cpu):.2f}",
                         f"{max(cpu):.2f}",
                         " ".join(str(r["steps"]).split("/")[0].split()[-1] for r in runs),
                         "-", "-", "-", "-"])
        if args.browser_task == "copy":  # the page's default task, which (c) trains
            seen = by_protocol(list(seeds), quiet)
            rows.append(["(c) protocol client, click to results: copy",
                         f"{median(seen):.2f}", f"{max(seen):.2f}", "-", "-", "-", "-", "-",
                         "-", "-"])
    print(f"Fast recipe, \"Stop when learned\" on, seeds 0-{len(seeds) - 1}; (a) each seed on "
          f"one torch thread, then on up to {threads} chosen step by step as the app's worker "
          "process chooses them (explorer/training/worker.py Threads)\n")
    print(table(["wait", "median s", "worst s", "median CPU s", "worst CPU s", "steps per seed",
                 "learned", "held-out median", "held-out lowest", "steps on >1 thread"], rows))
    print("\n(CPU: the process's in (a), the server process's in (b), whose training runs in a "
          "worker process. (b)'s Chromium draws on the same two cores as the training: a "
          "learner's browser, on a deployed server, does not)")
    if split:
        print(f"\nWhere (a)'s wait goes (up to {threads} threads), all seeds together: the "
              "training steps (forward, backward, optimiser: bench/step_cost.py splits one "
              "step), the stop checks (200 fresh sequences in one teacher-forced pass, after a "
              "step whose own batch was at least 95% right), the held-out evaluation (greedy "
              "decoding of 200) and the rest (building the model, the step's bookkeeping)\n")
        print(table(["task", "steps", "ms per step", "stop checks", "held-out evaluation",
                     "rest"], split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
