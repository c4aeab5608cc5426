"""Page response: server-side time of one rerun of each page after the source text changes.

Rerun: `.venv/bin/python -m bench.page_response` (options: --runs N, --pages attention,model,
--presets "tiny,paper base", --no-profile, --smoke, --trained: see below).

`--trained` measures instead the Attention page shown on a trained copy (a copy task, 30
steps, as tests/test_sources.py trains it): a rerun with nothing changed (a click elsewhere
on the page) in the session that trained it, and the first run of a second session showing
a copy of the same training (a class whose students train one recipe). Its results are
kept by the model's content (`LoadedCheckpoint.content`); where they were not, every rerun
built its figures again.

Each page runs in `streamlit.testing.v1.AppTest` (the whole app: sidebar, navigation, page).
The model body is warmed first; every measured run then types a NEW sentence into the
sidebar, so the per-text caches (embedding tables, forward pass) miss, as for a learner
typing. The median is the time of the script thread (the server-side rerun; scripts are
compiled once, as in the server); it is split into the shared sidebar
(`explorer.app.sidebar.render_sidebar`: widgets, tokenizing, the token tables), the forward pass +
capture (`explorer.core.runs.forward`), assembling the embedding tables for the new vocabulary
(`explorer.core.runs.assemble`), building figures (public functions of `explorer.figures.*` that
return a figure), `st.plotly_chart` (JSON serialisation, element id hashing, protobuf) and
the rest (page code, other Streamlit calls, cache lookups).
The component columns are medians over runs, so they need not add up to the median exactly.
With profiling on (default), 3 more runs per row are sampled every millisecond: the script
thread's innermost Python frame is counted by package (time in C code goes to its Python
caller), and the script time is shared out in proportion; the top functions are listed too.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from bench.common import (
    PAGES,
    PRESET_NAMES,
    ROOT,
    machine_facts,
    median,
    met,
    p90,
    preset_state,
    quiet_streamlit,
    sentence,
    table,
)

TARGET_MS = {"tiny": 100.0, "paper base": 1000.0}
FIGURE_MODULES = ("attention", "common", "embeddings", "masks", "model", "shapes", "train")
COMPONENTS = ("sidebar", "forward", "assemble", "figures", "chart")


class Probe:
    """Inclusive wall time per category; nested calls of the same category count once."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self._depth: dict[str, int] = defaultdict(int)
        self.sampler: Sampler | None = None  # set: sample the script thread

    def reset(self) -> None:
        self.totals.clear()

    def wrap(self, name: str, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if self._depth[name]:
                return fn(*args, **kwargs)
            self._depth[name] += 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.totals[name] += time.perf_counter() - t0
                self._depth[name] -= 1

        timed.__wrapped_by_bench__ = True  # type: ignore[attr-defined]
        return timed


def _figure_functions(module) -> Iterator[tuple[str, Callable]]:
    for name, obj in vars(module).items():
        if (inspect.isfunction(obj) and obj.__module__ == module.__name__
                and not name.startswith("_")
                and "Figure" in str(inspect.signature(obj).return_annotation)):
            yield name, obj


@contextmanager
def instrument(probe: Probe) -> Iterator[Probe]:
    """Patch timers into explorer, streamlit and AppTest's script thread; undo on exit."""
    import importlib

    import streamlit
    from streamlit.delta_generator import DeltaGenerator
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import local_script_runner
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    import explorer.app.cache
    import explorer.app.sidebar

    saved: list[tuple[object, str, object]] = []

    def patch(owner: object, name: str, new: object) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, new)

    def timed(owner: object, name: str, category: str) -> None:
        if callable(getattr(owner, name, None)):
            patch(owner, name, probe.wrap(category, getattr(owner, name)))
        else:  # the app changed: say so instead of failing (its column stays at 0)
            print(f"warning: {getattr(owner, '__name__', owner)}.{name} not found; "
                  f"'{category}' is not timed", file=sys.stderr)

    timed(explorer.app.sidebar, "render_sidebar", "sidebar")
    timed(explorer.app.cache, "forward", "forward")
    timed(explorer.app.cache, "assemble", "assemble")
    for short in FIGURE_MODULES:
        module = importlib.import_module(f"explorer.figures.{short}")
        for name, fn in list(_figure_functions(module)):
            patch(module, name, probe.wrap("figures", fn))
    patch(streamlit, "plotly_chart", probe.wrap("chart", streamlit.plotly_chart))
    patch(DeltaGenerator, "plotly_chart", probe.wrap("chart", DeltaGenerator.plotly_chart))

    # AppTest compiles the scripts again for every run (a new ScriptCache each time); the
    # server compiles them once. Share one cache, as the server does.
    shared_cache = ScriptCache()
    patch(local_script_runner, "ScriptCache", lambda: shared_cache)

    original_thread = LocalScriptRunner._run_script_thread

    def script_thread(runner) -> None:
        sampler = probe.sampler
        t0 = time.perf_counter()
        if sampler is not None:
            sampler.target = threading.get_ident()
        try:
            original_thread(runner)
        finally:
            if sampler is not None:
                sampler.target = None
            probe.totals["script"] += time.perf_counter() - t0

    patch(LocalScriptRunner, "_run_script_thread", script_thread)
    try:
        yield probe
    finally:
        for owner, name, old in reversed(saved):
            setattr(owner, name, old)


# ---- Sampling profile by package ---------------------------------------------------------

GROUPS = ("explorer.figures", "plotly", "streamlit", "torch", "numpy", "explorer+pages",
          "transformer", "python/other")


def _group(filename: str) -> str:
    f = filename.replace("\\", "/")
    if "/explorer/figures/" in f:
        return "explorer.figures"
    if "/plotly/" in f or "/_plotly_utils/" in f:
        return "plotly"
    if "/streamlit/" in f or "/google/protobuf/" in f or "/blinker/" in f:
        return "streamlit"
    if "/torch/" in f:
        return "torch"
    if "/numpy/" in f:
        return "numpy"
    root = str(ROOT)
    if f.startswith(f"{root}/transformer/"):
        return "transformer"
    if f.startswith((f"{root}/explorer/", f"{root}/pages/", f"{root}/app.py")):
        return "explorer+pages"
    return "python/other"


def _short(filename: str) -> str:
    f = filename.replace("\\", "/")
    for marker in ("/site-packages/", f"{ROOT}/"):
        if marker in f:
            return f.split(marker, 1)[1]
    return re.sub(r"^.*/lib/python3\.\d+/", "", f)


class Sampler(threading.Thread):
    """Every `interval` s, note the innermost Python frame of the script thread.

    Time in C code (torch kernels, json, builtins) is charged to the Python function that
    called it. Low overhead, unlike cProfile, whose per-call cost inflates plotly's many
    small calls.
    """

    def __init__(self, interval: float = 0.001) -> None:
        super().__init__(daemon=True, name="bench-sampler")
        self.interval = interval
        self.target: int | None = None  # thread ident to sample
        self.groups: Counter[str] = Counter()
        self.funcs: Counter[str] = Counter()
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.interval):
            ident = self.target
            frame = sys._current_frames().get(ident) if ident is not None else None
            if frame is None:
                continue
            code = frame.f_code
            self.groups[_group(code.co_filename)] += 1
            self.funcs[f"{_short(code.co_filename)}:{code.co_name}"] += 1

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)


# ---- The measurement -----------------------------------------------------------------------


def measure(page: str, preset: str, runs: int, probe: Probe, profile_runs: int,
            salt: int) -> dict[str, object]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    for key, value in preset_state(preset).items():
        at.session_state[key] = value
    at.switch_page(f"pages/{page}.py")
    at.run()  # builds (or finds) the model body
    _check(at, page, preset)
    at.text_input(key="source").input(sentence(0, salt)).run()  # warm code paths
    samples: dict[str, list[float]] = defaultdict(list)
    for i in range(1, runs + 1):
        at.text_input(key="source").input(sentence(i, salt))
        probe.reset()
        t0 = time.perf_counter()
        at.run()
        wall = time.perf_counter() - t0
        _check(at, page, preset)
        tot = dict(probe.totals)
        samples["wall"].append(wall * 1000)
        samples["script"].append(tot.get("script", 0.0) * 1000)
        for c in COMPONENTS:
            samples[c].append(tot.get(c, 0.0) * 1000)
        samples["other"].append(
            (tot.get("script", 0.0) - sum(tot.get(c, 0.0) for c in COMPONENTS)) * 1000)
    row: dict[str, object] = {"page": page, "preset": preset, "samples": samples}
    if profile_runs:
        sampler = Sampler()
        sampler.start()
        probe.sampler = sampler
        probe.reset()
        switch = sys.getswitchinterval()
        sys.setswitchinterval(0.0002)  # else pure-Python code is sampled only every 5 ms
        try:
            for i in range(runs + 1, runs + 1 + profile_runs):
                at.text_input(key="source").input(sentence(i, salt)).run()
        finally:
            sys.setswitchinterval(switch)
            probe.sampler = None
            sampler.stop()
        script_ms = probe.totals.get("script", 0.0) * 1000 / profile_runs
        n = sum(sampler.groups.values()) or 1
        row["profile"] = {g: script_ms * c / n for g, c in sampler.groups.items()}
        row["top"] = [(f, script_ms * c / n) for f, c in sampler.funcs.most_common(8)]
    return row


def _trained_state():
    """A copy task trained 30 steps (deterministic: two calls give the same weights)."""
    from explorer.core.settings import Settings
    from explorer.training.run import ModelKey, run_training, start_training
    from transformer.tasks import DIGITS, Task
    from transformer.train import TrainConfig

    state = start_training(ModelKey.of(Settings(), Task("copy", DIGITS, 1, 9)),
                           TrainConfig(steps=30, batch_size=16, lr=3e-3))
    run_training(state)
    return state


def measure_trained(runs: int) -> list[list[object]]:
    """The Attention page on a trained copy: reruns with nothing changed, and a second
    session's first run (`--trained`)."""
    from streamlit.testing.v1 import AppTest

    def session(state) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
        at.session_state["model_source"] = "yours"
        at.session_state["train_state"] = state
        at.session_state["source"] = "3 1 4 1 5 9 2 6"
        at.switch_page("pages/attention.py")
        return at

    def timed(at: AppTest) -> float:
        t0 = time.perf_counter()
        at.run()
        _check(at, "attention", "trained")
        return (time.perf_counter() - t0) * 1000

    first = session(_trained_state())
    opened = timed(first)
    again = [timed(first) for _ in range(runs)]
    seconds = [timed(session(_trained_state())) for _ in range(runs)]
    return [["first session, first run", opened, opened],
            ["first session, rerun with nothing changed", median(again), p90(again)],
            ["another session with a copy, first run", median(seconds), p90(seconds)]]


def _check(at, page: str, preset: str) -> None:
    if at.exception:
        raise RuntimeError(f"{page} ({preset}) raised: {at.exception[0].value}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="measured runs per page and preset")
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--presets", default=",".join(PRESET_NAMES))
    ap.add_argument("--profile", action=argparse.BooleanOptionalAction, default=True,
                    help="also sample 3 more runs per row by package (default: on)")
    ap.add_argument("--smoke", action="store_true", help="tiny preset, 1 page, 2 runs")
    ap.add_argument("--trained", action="store_true",
                    help="the Attention page on a trained copy: reruns, a second session")
    args = ap.parse_args(argv)
    pages = [p for p in args.pages.split(",") if p]
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    runs = max(1, args.runs)
    if args.smoke:
        pages, presets, runs = ["attention"], ["tiny"], 2
    unknown = sorted(set(pages) - set(PAGES)) + sorted(set(presets) - set(PRESET_NAMES))
    if unknown:
        ap.error(f"unknown page or preset: {', '.join(unknown)}")

    import torch

    torch.set_num_threads(1)  # as app.py does
    quiet_streamlit()
    print(machine_facts())
    if args.trained:
        print("AppTest wall time of the Attention page on a trained copy (ms), "
              f"{runs} runs per row\n")
        print(table(["run", "median ms", "p90 ms"], measure_trained(runs)))
        return 0
    print(f"runs per row: {runs} (each with a new sentence), after a warm-up run\n", flush=True)
    probe = Probe()
    rows = []
    with instrument(probe):
        for preset in presets:
            for page in pages:  # salt: sentences never repeat between rows
                rows.append(measure(page, preset, runs, probe, 3 if args.profile else 0,
                                    salt=len(rows)))
                print(f"  measured {page} / {preset}", file=sys.stderr, flush=True)

    print("Server-side time of one rerun after the text changes (ms)\n")
    out = []
    for r in rows:
        s = r["samples"]
        target = TARGET_MS[r["preset"]]
        med = median(s["script"])
        out.append([r["page"], r["preset"], med, p90(s["script"]),
                    *(median(s[c]) for c in (*COMPONENTS, "other")), median(s["wall"]),
                    f"≤ {target:,.0f}", met(med, target)])
    print(table(["page", "preset", "median ms", "p90 ms", "sidebar ms", "forward ms",
                 "assemble ms", "figures ms", "plotly_chart ms", "other ms", "AppTest wall ms",
                 "target", "met?"], out))
    if args.profile:
        print("\nWhere the time goes: self time by package, sampled every 1 ms over 3 more "
              "runs (ms per run)\n")
        prow = []
        for r in rows:
            g = r["profile"]
            prow.append([r["page"], r["preset"], *(g.get(k, 0.0) for k in GROUPS),
                         sum(g.values())])
        print(table(["page", "preset", *GROUPS, "total"], prow))
        print("\nTop functions by self time (ms per run, sampled)\n")
        print(table(["page", "preset", "functions"],
                    [[r["page"], r["preset"],
                      "<br>".join(f"{f} {ms:.0f}" for f, ms in r["top"])] for r in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
