"""The shipped date translator: load time, the Attention page with it, accuracy, alignment.

Rerun: `.venv/bin/python -m bench.dates` (options: --runs N, --held-out N, --smoke).

(a) Load: `load_checkpoint(models/dates.pt)` as the app's shared cache does (torch.load
    with weights_only=True, config inference, strict load), median of --runs; and the
    first load in a fresh process (what a server's first visitor waits for, imports
    excluded), median of 3 processes. Target ≤ 0.3 s.
(b) Attention page: server-side rerun (AppTest, the whole app) after a NEW date is typed,
    with "Model to look at" on the date translator (the rerun includes the model's greedy
    answer, used as the decoder's input), beside the same page with the default untrained
    tiny model and a new sentence, measured alternately in one run. Target ≤ 100 ms median,
    as for the tiny model.
(c) Accuracy on held-out dates (days never used in training) by cell: every variant
    (locale x style x case) on every day of the month and in every month, --per-cell dates
    for each variant and calendar day (`dates.cell_examples`); the worst cell named, every
    cell under the target listed (target: every cell ≥ 99% exact). An average hides a dead
    cell: every day 30 of one numeric format is under 0.1% of the dates. Then the same
    dates by locale and style, and the share of output digits whose head-averaged
    cross-attention argmax falls inside the field they come from (targets: year and day
    ≥ 95%, a month written as a word ≥ 90%).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

import torch

from bench.common import ROOT, machine_facts, met, p90, quiet_streamlit, sentence, table
from explorer.app.sources import SHIPPED_DATES
from explorer.core.checkpoint import load_checkpoint
from transformer import dates as D

SMOKE_VARIANTS = ("de/medium", "ja/medium", "en_GB/medium", "de/full-lower")  # day 30 failed


def at_least(value: float, target: float) -> str:
    """Whether a share met a lower bound."""
    return "yes" if value >= target else "NO"


def _date_text(i: int) -> str:
    """A different date for every run, written as a learner might (German, full style)."""
    date = dt.date(2026, 1, 1) + dt.timedelta(days=37 * i)
    return D.render(date, D.Variant("de", "full")).text


def load_times(runs: int) -> list[float]:
    data = SHIPPED_DATES.read_bytes()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        load_checkpoint(data, None, None)
        out.append(time.perf_counter() - t0)
    return out


_FIRST_LOAD = """
import time, torch
from explorer.core.checkpoint import load_checkpoint
from explorer.app.sources import SHIPPED_DATES
data = SHIPPED_DATES.read_bytes()
t0 = time.perf_counter()
load_checkpoint(data, None, None)
print(time.perf_counter() - t0)
"""


def first_load_times(runs: int) -> list[float]:
    """The load on a fresh server's first visit: a new process each time (imports done
    before the clock starts, as the app has done them by then)."""
    return [float(subprocess.run([sys.executable, "-c", _FIRST_LOAD], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split()[-1])
            for _ in range(runs)]


def page_times(runs: int) -> dict[str, list[float]]:
    """Attention-page reruns after a text change: the date model and the untrained tiny one."""
    from streamlit.testing.v1 import AppTest

    quiet_streamlit()
    apps = {}
    for name, state in (("date translator", {"model_source": "dates", "target": ""}),
                        ("untrained tiny", {})):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        for k, v in state.items():
            at.session_state[k] = v
        at.switch_page("pages/attention.py")
        at.run()  # warm: imports, the shared model, the alignment measure
        apps[name] = at
    times: dict[str, list[float]] = {name: [] for name in apps}
    for i in range(runs):
        for name, at in apps.items():
            text = _date_text(i + 1) if name == "date translator" else sentence(i + 1)
            at.sidebar.text_input(key="source").set_value(text)
            t0 = time.perf_counter()
            at.run()
            times[name].append(time.perf_counter() - t0)
            if at.exception:
                raise RuntimeError(f"{name}: {at.exception[0].message}")
    return times


def variant_rows(cells: D.CellReport) -> list[list[object]]:
    """Per variant: its dates, their exact share, and its worst day and month cells."""
    by_variant: dict[str, list[D.Cell]] = {}
    for c in cells.cells:
        by_variant.setdefault(c.variant, []).append(c)
    rows: list[list[object]] = []
    for name, cs in by_variant.items():
        days = [c for c in cs if c.field == "day"]
        months = [c for c in cs if c.field == "month"]
        wd = min(days, key=lambda c: (c.accuracy, c.total))  # as CellReport.worst ranks
        wm = min(months, key=lambda c: (c.accuracy, c.total))
        total = sum(c.total for c in days)
        rows.append([name, total, f"{sum(c.right for c in days) / total:.2%}",
                     f"{wd.value}: {wd.right}/{wd.total}", f"{wm.value}: {wm.right}/{wm.total}"])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--per-cell", type=int, default=2,
                    help="held-out dates per variant and calendar day")
    ap.add_argument("--smoke", action="store_true", help="a few runs, to check the script")
    args = ap.parse_args(argv)
    among = None  # every variant
    if args.smoke:  # four variants, one date per calendar day
        args.runs, args.per_cell = 2, 1
        among = [v for v in D.variants() if v.name in SMOKE_VARIANTS]
    torch.set_num_threads(1)
    print(f"Machine: {machine_facts()}\n")

    loads = load_times(args.runs)
    firsts = first_load_times(min(args.runs, 3))
    pages = page_times(args.runs)
    rows = [["load models/dates.pt (weights_only)", f"{statistics.median(loads) * 1000:.0f} ms",
             "≤ 300 ms", met(statistics.median(loads), 0.3)],
            ["the same, first load in a fresh process",
             f"{statistics.median(firsts) * 1000:.0f} ms", "≤ 300 ms",
             met(statistics.median(firsts), 0.3)]]
    for name, xs in pages.items():
        rows.append([f"Attention page rerun, new text, {name}",
                     f"{statistics.median(xs) * 1000:.0f} ms (p90 {p90(xs) * 1000:.0f})",
                     "≤ 100 ms", met(statistics.median(xs), 0.1)])
    print(table(["what", "median", "target", "met?"], rows))

    model = load_checkpoint(SHIPPED_DATES.read_bytes(), None, None).model
    examples = D.cell_examples("held_out", args.per_cell, among=among)
    right = D.exact_matches(model, examples)
    cells = D.cells_of(examples, right)
    worst = cells.worst
    below = cells.below(D.CELL_TARGET)
    n_variants = len({c.variant for c in cells.cells})
    print(f"\nHeld-out cells: {len(cells.cells)} ({n_variants} variants x each day of the "
          f"month, and x each month) on {cells.total} dates ({args.per_cell} per variant and "
          f"calendar day)\n\nWorst cell: {worst.name}: {worst.right}/{worst.total} "
          f"({worst.accuracy:.1%}); every cell ≥ {D.CELL_TARGET:.0%}: "
          f"{at_least(worst.accuracy, D.CELL_TARGET)}"
          + (" (every cell is 100%: of those, the one on the fewest dates)"
             if worst.right == worst.total else "") + "\n")
    print(table(["variant", "dates", "exact", "worst day: right", "worst month: right"],
                variant_rows(cells)))
    print(f"\nCells under {D.CELL_TARGET:.0%}: {len(below)}"
          + "".join(f"\n- {c.name}: {c.right}/{c.total}" for c in below[:30]) + "\n")
    print(f"All cells' dates together: {cells.exact:.2%} of {cells.total} (an average, shown "
          "last: it hides a dead cell)\n")
    per = D.accuracy_by(examples, right)
    print(table(["locale", "exact", "dates"],
                [[k, f"{r / n:.1%}", n] for k, (r, n) in per.items()]))
    per_style = D.accuracy_by(examples, right, "style")
    print()
    print(table(["style", "exact", "dates"],
                [[k, f"{r / n:.1%}", n] for k, (r, n) in per_style.items()]))
    examples = D.held_out_examples(2000 if not args.smoke else 100)  # as tools/train_dates
    align = D.alignment(model, examples)
    targets = {"year": 0.95, "day": 0.95, "month_word": 0.90}
    print(f"\nCross-attention alignment, decoder layer {align.layer}, heads averaged:\n")
    print(table(["field", "digits inside the field", "digits", "target", "met?"],
                [[k, f"{v:.1%}", align.counts[k],
                  f"≥ {targets[k]:.0%}" if k in targets else "",
                  at_least(v, targets[k]) if k in targets else ""]
                 for k, v in align.shares.items()]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
