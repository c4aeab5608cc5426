"""Run every benchmark and write their tables to bench/results.md (what `make bench` does).

Rerun: `.venv/bin/python -m bench.run_all` (options: --only time_to_learn,memory; --out PATH).
Each script's printed output goes into its own section, in order; the file is rewritten
after every script, so an interrupted run keeps what it measured. With --only, the other
scripts' sections already in the file are kept (each section says when it was measured).
Run it on an otherwise idle machine: the figures are wall-clock times on this machine's cores.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import ROOT, machine_facts

SCRIPTS: dict[str, str] = {
    "time_to_learn": "1. Time to learn (toy tasks, the Train button's recipe)",
    "train_wait": "1b. The Train button's whole wait (training, stop checks, page)",
    "step_cost": "1c. One training step beside torch.nn.Transformer (same size, same batches)",
    "recipe_sweep": "1d. Which recipe learns the toy tasks fastest (a sweep)",
    "held_out": "1e. Held out: the toy tasks' accuracy on unseen sequences, and the stop rule",
    "page_response": "2. Page response (server-side rerun after a text change)",
    "browser": "3. In the browser (typing to heatmaps; server start to first page)",
    "figure_size": "4. Size (bytes of figure data sent)",
    "threads": "4b. Threads (why torch runs with one thread per pass)",
    "busy_core": "4c. A training's wait with the other core busy, per thread policy",
    "memory": "5. Memory (one session; 30 sessions)",
    "load": "6. A class at once (30 concurrent sessions)",
    "faults": "7. Faults (closing or reloading during training; the Stop button)",
    "dates": "8. The shipped date translator (load, Attention page, accuracy by cell, alignment)",
    "dates_train": "8b. The date task on the Train page (time to 95% and 99%, the Train button)",
    "film": "9. The attention film (recording's share of training time, frames, bytes)",
    "breaks": "10. Break a part (each break switch against the correct model, same budget)",
    "knockout": "11. Knocking out heads (the full grid: the date model, the default tiny model)",
    "class_train": "12. A class presses Train at once (same settings, different settings, memory)",
    "class_floor": "12b. The floor under 12 (c): ten different trainings on two cores, at best",
    "class_background": "12c. A class while a training goes on in the background (1 s redraws)",
    "classroom": "13. A class following its teacher (30 students: changes, questions, idle)",
    "class_lesson": ("13b. A lesson taught live (10 steps, 30 students + 5 browsers: steps, "
                     "answers, memory)"),
    "class_paced": "13c. A student-paced lesson (10 steps, 30 students: the teacher's roster)",
    "accessibility": ("14. Accessibility (axe-core, WCAG 2.2 A and AA: every page, both "
                      "languages, laptop, presenter, phone; 200% zoom)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(SCRIPTS))
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.md")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = sorted(set(names) - set(SCRIPTS))
    if unknown:
        ap.error(f"unknown benchmark: {', '.join(unknown)}")
    sections = [
        "# Benchmark results\n",
        "Written by `make bench` (`python -m bench.run_all`); each section is the output of "
        "one script under `bench/`, whose docstring says what it measures and how to rerun "
        "it alone. Targets and whether they were met are in the tables' last columns.\n",
        f"Machine: {machine_facts()}\n",
    ]
    kept = _sections(args.out) if set(names) != set(SCRIPTS) else {}
    done: dict[str, str] = {}

    def write() -> None:
        body = [done.get(n) or kept.get(n) for n in SCRIPTS]
        args.out.write_text("\n".join(sections + [b for b in body if b]), encoding="utf-8")

    status = 0
    for name in names:
        print(f"== {name}", file=sys.stderr, flush=True)
        module = importlib.import_module(f"bench.{name}")
        out = io.StringIO()
        t0 = time.perf_counter()
        try:
            with contextlib.redirect_stdout(out):
                rc = module.main([])
        except Exception as exc:  # keep the other benchmarks' results
            rc = 1
            out.write(f"\nFAILED: {type(exc).__name__}: {exc}\n")
        status = status or rc
        done[name] = (f"## {SCRIPTS[name]}\n\n`python -m bench.{name}` "
                      f"({time.perf_counter() - t0:.0f} s)\n\n{out.getvalue().strip()}\n")
        write()
        print(out.getvalue(), file=sys.stderr)
    return status


def _sections(path: Path) -> dict[str, str]:
    """The sections of an existing results file, by script name."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    out = {}
    for name, title in SCRIPTS.items():
        start = text.find(f"## {title}\n")
        if start < 0:
            continue
        end = text.find("\n## ", start + 1)
        # without the blank lines between sections: write() puts one back
        out[name] = (text[start:] if end < 0 else text[start:end]).rstrip() + "\n"
    return out


if __name__ == "__main__":
    raise SystemExit(main())
