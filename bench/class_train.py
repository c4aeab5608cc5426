"""A class presses Train at once: the waits, the other learners' pages, memory.

Rerun: `.venv/bin/python -m bench.class_train` (options: --same 30, --different 10,
--timeout 300, --no-engines, --smoke).

One `streamlit run app.py` (127.0.0.1, a free port, stopped at the end) serves protocol
clients that speak Streamlit's websocket protocol as the browser does (bench/load.py's
`Learner`): each opens the Train page, may set the sidebar's seed, and clicks Train. Two
waits from the click: until the trained model's results arrive (the metrics, which the run
draws first once the training it asked for has ended: what "sees a trained model" means
here), and until that script run has ended (the rest of the page: decoding, the film, the
schedule, the experiment section).

(a) One learner alone: the Train button on copy (fast recipe, "Stop when learned"), seed 0,
    the steps ceiling at 990 (not 1000) so that (b) cannot share it: the same training.
(b) --same learners (30) with the default settings click Train at the same moment: the hub
    runs one training and every learner gets a copy. Target: every learner sees its trained
    model within 5 s.
(c) --different learners (10), seeds 100.., click Train at the same moment: ten trainings, at
    most one per core at a time, the rest queued. Each of those trainings is first run alone
    (one after the other, steps ceiling 990 so it is not shared): the targets compare each
    learner's wait with its own training's wait alone. Meanwhile one more learner, on the
    Attention page, sends a new sentence every 0.5 s: its server-side rerun times. Targets:
    median of those ratios <= 2.5x, worst <= 5.5x; the typing learner's p95 <= 1 s.
(d) Memory: the VmRSS of the server and its training worker processes, before (b), once
    the --same learners hold their models (per session), and after (c). Target: 30 sessions
    with trained models <= 1.5 GB.
(e) Threads or processes (--no-engines skips it): the same ten trainings (run_training,
    seeds 100..) two at a time in two threads of one process, and in two worker processes
    (spawn, one torch thread each): the whole time and each training's. The served app's
    hub trains in worker processes (explorer/training/hub.py ENGINE) because they were faster.
A warm-up learner (seed 99) trains once first: a fresh server's first run imports torch.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence

from bench.common import machine_facts, median, memory_mb, served_app, table
from bench.load import Learner, p95

TYPED = "the {w} cat sat on the mat"
STEPS_LABEL = "Steps"  # the label of the results' steps metric (English, the default)
TIME_LABEL = "Training time"  # ... and of its training-time metric
SOLO_STEPS = 990  # (a)'s steps ceiling: any value but the default keeps it from being shared
FRAGMENT_EVERY = 1.0  # explorer/sections/train.py PROGRESS_EVERY: how often section 2 looks


class TrainLearner(Learner):
    """A learner on the Train page. Its learning-rate select_slider is not sent back: the
    protocol client cannot yet write that widget's state as the browser does, and the server
    keeps the session's value (the fast recipe's) when it is left out."""

    NOT_SENT = ("tr_lr",)



async def _train_page(url: str, seed: int | None, timeout: float) -> Learner:
    learner = TrainLearner(url, page="train", timeout=timeout)
    result = await learner.open()
    if result.error:
        raise RuntimeError(f"opening the Train page: {result.error}")
    if seed is not None:
        result = await learner.run(learner.value("seed", int_value=seed))
        if result.error:
            raise RuntimeError(f"setting the seed: {result.error}")
    return learner


async def _press(learner: Learner) -> tuple[float, str, float]:
    """Click Train; (seconds to the end of the run, error, seconds until the trained model's
    results arrived: its metrics, drawn first once the training has ended). A training
    still going when the click's run ends (explorer/sections/train.py INLINE_WAIT) shows its
    results in a later run: the one its progress fragment asks for once it has ended, which
    this client stands in for by asking for a run every FRAGMENT_EVERY seconds."""
    t0 = await learner.send(learner.value("tr_train", trigger_value=True))
    seen, problems = await _read_run(learner, t0)
    ended = time.perf_counter() - t0
    deadline = t0 + learner.timeout
    while seen != seen and not problems and time.perf_counter() < deadline:
        await asyncio.sleep(FRAGMENT_EVERY)
        await learner.send({})
        seen, problems = await _read_run(learner, t0)
    if seen != seen and not problems:
        problems.append("no results shown")
    return ended, "; ".join(problems), seen


async def _read_run(learner: Learner, t0: float) -> tuple[float, list[str]]:
    """Read one script run's messages: (seconds from t0 to the trained model's metrics, or
    nan if it drew none; what went wrong)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    seen, problems = float("nan"), []
    try:
        while True:
            msg = await learner.receive()
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el_kind = msg.delta.new_element.WhichOneof("type")
                el = getattr(msg.delta.new_element, el_kind)
                if el_kind == "metric" and el.label == STEPS_LABEL and seen != seen:
                    seen = time.perf_counter() - t0
                elif el_kind == "metric" and el.label == TIME_LABEL:
                    learner.trained_seconds = float(el.body.split()[0])
                elif el_kind == "exception":
                    problems.append("exception")
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue
                if msg.script_finished not in (ForwardMsg.FINISHED_SUCCESSFULLY,
                                               ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                    problems.append(f"script finished with status {msg.script_finished}")
                    break
                if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    break
    except Exception as exc:  # a timeout, a closed connection: count it, go on
        problems.append(f"{type(exc).__name__}: {exc}"[:120])
    return seen, problems


async def _typing(url: str, stop: asyncio.Event, timeout: float) -> list[float]:
    """A learner on the Attention page sending a new sentence every 0.5 s until `stop`."""
    learner = Learner(url, timeout=timeout)
    await learner.open()
    times: list[float] = []
    i = 0
    while not stop.is_set():
        r = await learner.set_widget("source", TYPED.format(w=f"w{i}"))
        if not r.error:
            times.append(r.seconds)
        i += 1
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except TimeoutError:
            pass
    await learner.close()
    return times


def children(pid: int) -> list[int]:
    """The child processes of `pid` (the hub's training workers, multiprocessing's resource
    tracker), from every thread's /proc children list."""
    from pathlib import Path

    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            continue
    return out


def tree_mb(pid: int) -> float:
    """VmRSS of `pid` and of its child processes (the hub's training workers), in MB."""
    total = memory_mb(pid)["VmRSS"]
    for child in children(pid):
        try:
            total += memory_mb(child)["VmRSS"]
        except (FileNotFoundError, KeyError):
            pass
    return total


def children_pss_mb(pid: int) -> list[float]:
    """Proportional set size of each child process of `pid` (the training workers, and
    multiprocessing's small resource tracker), in MB: what each adds to a container's
    memory, its shared libraries counted once across them all."""
    from pathlib import Path

    out = []
    for child in children(pid):
        try:
            text = Path(f"/proc/{child}/smaps_rollup").read_text()
        except OSError:  # it ended meanwhile
            continue
        kb = next((int(line.split()[1]) for line in text.splitlines()
                   if line.startswith("Pss:")), 0)
        out.append(kb / 1024)
    return sorted(out)


async def run_class(url: str, pid: int, same: int, different: int,
                    timeout: float) -> dict[str, object]:
    out: dict[str, object] = {}
    warm = await _train_page(url, 99, timeout)
    await _press(warm)
    await warm.close()

    # the same training as (b)'s (seed 0), but with a steps ceiling of 990 instead of 1000, so
    # the server does not share it with (b): early stopping ends both at the same step
    solo = await _train_page(url, None, timeout)
    result = await solo.run(solo.value("tr_steps", double_array_value=[SOLO_STEPS]))
    if result.error:
        raise RuntimeError(f"setting the steps: {result.error}")
    out["solo"] = await _press(solo)
    out["solo_trained"] = getattr(solo, "trained_seconds", float("nan"))
    await solo.close()

    rss0 = tree_mb(pid)
    learners = await asyncio.gather(*[_train_page(url, None, timeout) for _ in range(same)])
    out["same"] = await asyncio.gather(*[_press(learner) for learner in learners])
    out["rss_before"], out["rss_same"] = rss0, tree_mb(pid)
    out["same_trained"] = [getattr(x, "trained_seconds", float("nan")) for x in learners]

    # each of (c)'s trainings alone first (steps ceiling 990: not shared with (c))
    alone = []
    for i in range(different):
        learner = await _train_page(url, 100 + i, timeout)
        await learner.run(learner.value("tr_steps", double_array_value=[SOLO_STEPS]))
        alone.append(await _press(learner))
        await learner.close()
    out["alone"] = alone
    others = await asyncio.gather(*[_train_page(url, 100 + i, timeout)
                                    for i in range(different)])
    stop = asyncio.Event()
    typing = asyncio.create_task(_typing(url, stop, timeout))
    await asyncio.sleep(1.0)  # the typing learner's page is open and typing
    out["different"] = await asyncio.gather(*[_press(learner) for learner in others])
    stop.set()
    out["typing"] = await typing
    out["different_trained"] = [getattr(x, "trained_seconds", float("nan")) for x in others]
    out["rss_different"] = tree_mb(pid)
    out["worker_pss"] = children_pss_mb(pid)
    for learner in [*learners, *others]:
        await learner.close()
    return out


def _one_training(seed: int) -> float:
    """One training as the hub runs it (Train button's defaults, seed `seed`): wall seconds."""
    import torch

    torch.set_num_threads(1)
    from explorer.core.settings import Settings
    from explorer.training.run import ModelKey, run_training, start_training
    from explorer.training.settings import TrainSettings
    from explorer.training.task import task_for

    ts = TrainSettings()
    task, _ = task_for("copy", "digits", "")
    key = ModelKey.of(ts.model_settings(Settings(seed=seed)), task)
    t0 = time.perf_counter()
    run_training(start_training(key, ts.train_config(seed), early_stop=True))
    return time.perf_counter() - t0


def engines(n: int) -> list[list[object]]:
    """n trainings two at a time: in two threads, and in two spawned worker processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    import torch

    torch.set_num_threads(1)
    seeds = [100 + i for i in range(n)]
    rows = []
    _one_training(99)  # imports and first-call costs, outside the timing
    for name, make in (
        ("threads (one process)", lambda: ThreadPoolExecutor(2)),
        ("worker processes (spawn)", lambda: ProcessPoolExecutor(
            2, mp_context=multiprocessing.get_context("spawn"))),
    ):
        with make() as pool:
            list(pool.map(_one_training, [99, 98]))  # each worker imports torch first
            t0 = time.perf_counter()
            each = list(pool.map(_one_training, seeds))
            whole = time.perf_counter() - t0
        rows.append([name, n, f"{whole:.1f}", f"{statistics.median(each):.2f}",
                     f"{max(each):.2f}"])
    alone = [_one_training(s) for s in seeds[:3]]
    rows.append(["one at a time, alone (3 of them)", 3, f"{sum(alone):.1f}",
                 f"{statistics.median(alone):.2f}", f"{max(alone):.2f}"])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--same", type=int, default=30)
    ap.add_argument("--different", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--no-engines", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="3 and 2 learners, no engines")
    args = ap.parse_args(argv)
    same, different = (3, 2) if args.smoke else (args.same, args.different)

    print(machine_facts() + "\n")
    with served_app() as (url, pid):
        out = asyncio.run(run_class(url, pid, same, different, args.timeout))

    solo, _, solo_seen = out["solo"]
    same_waits = [s for s, e, _ in out["same"] if not e]
    same_seen = [v for _, e, v in out["same"] if not e]
    diff_waits = [s for s, e, _ in out["different"] if not e]
    diff_seen = [v for _, e, v in out["different"] if not e]
    errors = [e for s, e, _ in [*out["same"], *out["different"]] if e]
    typing = out["typing"]
    def row(who: str, n: int, waits: list[float], base: float, target: str,
            met: bool | None) -> list[object]:
        worst = max(waits, default=float("nan"))
        return [who, n, n - len(waits), f"{median(waits):.2f}", f"{worst:.2f}",
                f"{median(waits) / base:.1f}x", f"{worst / base:.1f}x", target,
                "-" if met is None else "yes" if met and len(waits) == n else "NO"]

    rows = [
        row("(a) one learner alone: results seen", 1, [solo_seen], solo_seen, "report", None),
        row("(a) one learner alone: run ended", 1, [solo], solo, "report", None),
        row(f"(b) {same} learners, same settings: results seen", same, same_seen, solo_seen,
            "every one <= 5 s", bool(same_seen) and max(same_seen) <= 5),
        row(f"(b) {same} learners, same settings: run ended", same, same_waits, solo,
            "every one <= 5 s", bool(same_waits) and max(same_waits) <= 5),
        row(f"(c) {different} learners, different seeds: results seen", different, diff_seen,
            solo_seen, "report", None),
        row(f"(c) {different} learners, different seeds: run ended", different, diff_waits,
            solo, "report", None),
    ]
    # (c) against each learner's own training alone (the same seed, run alone before)
    pairs = [(w, a) for (w, e, _), (a, ea, _) in zip(out["different"], out["alone"],
                                                      strict=True) if not e and not ea]
    ratios = sorted(w / a for w, a in pairs)
    met = bool(ratios) and len(ratios) == different and median(ratios) <= 2.5 \
        and ratios[-1] <= 5.5
    rows.append([f"(c) each learner's wait / its own training alone ({len(pairs)} pairs; "
                 f"alone: median {median([a for _, a in pairs]):.2f} s)", different,
                 different - len(pairs), "-", "-", f"{median(ratios):.1f}x",
                 f"{max(ratios, default=float('nan')):.1f}x", "median <= 2.5x, worst <= 5.5x",
                 "yes" if met else "NO"])
    print("Train button on copy (fast recipe, \"Stop when learned\"), from the click: until the "
          "trained model's results arrive (its metrics, drawn first once training has ended), "
          "and until the script run that draws the whole page has ended. Ratios are to (a)'s "
          "same measure.\n")
    print(table(["who", "learners", "errors", "median s", "worst s", "median / (a)",
                 "worst / (a)", "target", "met?"], rows))
    if errors:
        print("\nErrors (first 3): " + " | ".join(errors[:3]))
    print(f"\nThe trainings' own time (the results' training-time metric, queueing excluded): "
          f"(a) {out['solo_trained']:.1f} s; (b) {median(out['same_trained']):.1f} s (one "
          f"training, shared); (c) median {median(out['different_trained']):.1f} s, worst "
          f"{max(out['different_trained'], default=float('nan')):.1f} s")
    print(f"\nWhile (c) trained: a learner typing on the Attention page, {len(typing)} "
          f"reruns: median {median(typing):.2f} s, p95 {p95(typing):.2f} s, max "
          f"{max(typing, default=float('nan')):.2f} s (target p95 <= 1 s: "
          f"{'yes' if typing and p95(typing) <= 1.0 else 'NO'})")
    per = (out["rss_same"] - out["rss_before"]) / max(same, 1)
    print(f"\nMemory (the server and its training workers, VmRSS): "
          f"{out['rss_before']:.0f} MB before (b); {out['rss_same']:.0f} MB "
          f"with {same} more sessions holding a trained model ({per:.1f} MB per session); "
          f"{out['rss_different']:.0f} MB after (c). Target: 30 sessions with trained models "
          f"<= 1.5 GB: {'yes' if out['rss_same'] <= 1536 else 'NO'}")
    print("The server's child processes after (c), proportional set size (each one's share, "
          "shared libraries counted once): "
          + ", ".join(f"{mb:.0f} MB" for mb in out["worker_pss"]))
    if not (args.no_engines or args.smoke):
        print("\n(e) Ten trainings two at a time, threads or processes (wall seconds)\n")
        print(table(["engine", "trainings", "whole s", "median each s", "worst each s"],
                    engines(different)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
