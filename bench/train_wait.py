"""The Train button's whole wait: from the click to the trained model's results (issue 15, 13).

Rerun: `.venv/bin/python -m bench.train_wait` (options: --seeds 5,
--tasks copy,reverse,sort,words, --browser-task copy, --quiet-wait 120 (s), --no-browser,
--smoke). The browser part needs Debian's Chromium at /usr/bin/chromium and the playwright
package.

What the Train page's recipe label ("learns copy in about ...") must state. Fast recipe,
digits, the page's defaults (TrainSettings(): "Stop when learned" on), seeds 0 .. --seeds-1
(the sidebar's seed; 0 is the default):
(a) In the process, the Train button's own code path: start_training + run_training(state):
    training, the stop checks (explorer/training.py check_due: 200 fresh sequences, all must
    be right, scored in one teacher-forced pass) and the held-out evaluation. torch 1
    thread, as in the app, after `warm_up()` as the app's worker processes do. Wall time,
    the thread's CPU time (about the wall time on an idle core) and the held-out accuracy
    the page then shows. Tasks: copy, reverse and sort on digits; words = reverse on the
    words of the default sentence (SENTENCE).
(b) In headless Chromium against `streamlit run app.py` (127.0.0.1, a free port, stopped at
    the end): from the click on Train (page opened with ?seed=N) until the page is idle with
    the training metrics drawn and no progress bar: what a learner waits, including the
    progress bar and live loss chart the page draws while training. Also the server
    process's CPU time over that wait (its own work; the rest is waiting for a core, or the
    browser drawing on the same two cores). The first click only warms the server up.
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
  const progress = document.querySelector("[data-testid='stProgress']") !== null;
  return idle && metrics.length >= 4 && !progress;
}"""
STARTED = """() => document.querySelector("[data-testid='stProgress']") !== null
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


def in_process(name: str, seed: int, steps: int | None = None) -> dict[str, float]:
    from dataclasses import replace

    from explorer import training
    from explorer.settings import Settings
    from explorer.train_settings import TrainSettings
    from explorer.train_task import task_for
    from explorer.training import ModelKey, run_training, start_training

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
        t0, c0 = time.perf_counter(), time.thread_time()
        state = start_training(key, ts.train_config(seed), early_stop=True)
        run_training(state)
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    finally:
        for name, (real, _) in patched.items():
            setattr(training, name, real)
    return {"wall": wall, "cpu": cpu, "steps": state.step, "learned": state.learned,
            "acc": state.accuracy or 0.0, "checks": spent["learned"],
            "held_out": spent["held_out"], "train": state.seconds - spent["learned"]}


def in_browser(task_name: str, seeds: Sequence[int], quiet: float,
               steps: int | None = None) -> list[dict[str, object]]:
    from playwright.sync_api import sync_playwright

    from bench.load import cpu_seconds
    from tools.screenshots import CHROMIUM_ARGS, free_port, serve, wait_idle

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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--tasks", default=",".join(TASKS), help="tasks timed in the process")
    ap.add_argument("--browser-task", default="copy")
    ap.add_argument("--quiet-wait", type=float, default=120.0)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="1 seed, 50 steps, seconds")
    args = ap.parse_args(argv)
    seeds = range(1 if args.smoke else max(1, args.seeds))
    steps = 50 if args.smoke else None
    quiet = 0.0 if args.smoke else args.quiet_wait

    import torch

    from explorer.training import warm_up

    torch.set_num_threads(1)
    warm_up()  # as each worker process does when it starts
    print(machine_facts() + "\n")
    rows, split = [], []
    for name in [n for n in args.tasks.split(",") if n]:
        runs = []
        for seed in seeds:
            share = wait_quiet(quiet)
            runs.append(in_process(name, seed, steps))
            print(f"  {name} seed {seed}: {runs[-1]['wall']:.2f} s (CPU {runs[-1]['cpu']:.2f} "
                  f"s; {runs[-1]['steps']} steps; idle before {share:.0%})", file=sys.stderr,
                  flush=True)
        wall, cpu = [r["wall"] for r in runs], [r["cpu"] for r in runs]
        rows.append([f"(a) in the process: {name}", f"{median(wall):.2f}", f"{max(wall):.2f}",
                     f"{median(cpu):.2f}", f"{max(cpu):.2f}",
                     " ".join(str(r["steps"]) for r in runs),
                     f"{sum(bool(r['learned']) for r in runs)}/{len(runs)}",
                     f"{median([r['acc'] for r in runs]):.1%}",
                     f"{min(r['acc'] for r in runs):.1%}"])
        total = sum(r["wall"] for r in runs)
        per_step = 1000 * sum(r["train"] for r in runs) / max(sum(r["steps"] for r in runs), 1)
        shares = [sum(r[k] for r in runs) / total for k in ("train", "checks", "held_out")]
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
                         "-", "-", "-"])
    print(f"Fast recipe, \"Stop when learned\" on, seeds 0-{len(seeds) - 1}\n")
    print(table(["wait", "median s", "worst s", "median CPU s", "worst CPU s", "steps per seed",
                 "learned", "held-out median", "held-out lowest"], rows))
    print("\n(CPU: the training thread's (a) or the server process's (b); the wall time on an "
          "idle machine is about the CPU time, plus the browser drawing for (b))")
    if split:
        print("\nWhere (a)'s wait goes, all seeds together: the training steps (forward, "
              "backward, optimiser: bench/step_cost.py splits one step), the stop checks "
              "(200 fresh sequences in one teacher-forced pass, after a step whose own batch "
              "was at least 95% right), the held-out evaluation (greedy decoding of 200) and "
              "the rest "
              "(building the model, the step's bookkeeping)\n")
        print(table(["task", "steps", "ms per step", "stop checks", "held-out evaluation",
                     "rest"], split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
