"""Shared helpers of the bench scripts: presets, fresh sentences, tables, machine facts."""

from __future__ import annotations

import contextlib
import datetime as _dt
import math
import os
import platform
import statistics
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/x.py` as well as `python -m bench.x`
    sys.path.insert(0, str(ROOT))

# The app served on a free port, Debian's Chromium, quiet AppTest logs: the test harness
# (tests/serve.py), re-exported here for the bench scripts.
from tests.serve import (  # noqa: E402,F401
    CHROMIUM,
    free_port,
    have_chromium,
    quiet_streamlit,
    serve,
)

PAGES = ["model", "embeddings", "masks", "attention", "shapes", "train"]
PRESET_NAMES = ["tiny", "paper base"]

# Words for fresh sentences: every sentence has a word no earlier sentence had, so the
# per-text caches (forward pass, embedding tables) miss, as when a learner types.
_NOUNS = ("cat dog bird fox owl bear wolf frog duck goat lion mole hare crow seal swan "
          "moth wasp deer lamb mink newt pike rook toad vole wren yak eel ant bee").split()
_PLACES = ("mat rug roof hill tree lake road wall desk boat sand snow moon shed pond "
           "field barn dock farm park cave nest").split()
_VERBS = "sat ran slept hid stood jumped looked waited sang danced".split()
_UNIQUE = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
           "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee "
           "zulu amber beryl cobalt dune ember fjord garnet helix iris jade karma lotus "
           "mango nectar onyx pearl quartz ruby sable topaz umber velvet willow xenon yarrow "
           "zinnia azure birch cedar dahlia elm fennel ginger hazel ivy juniper kelp "
           "laurel").split()


def sentence(i: int, salt: int = 0) -> str:
    """The i-th fresh sentence (7 words); different for every (i < 1000, salt) pair."""
    k = i + 1000 * salt
    word = _UNIQUE[k % len(_UNIQUE)] + ("" if k < len(_UNIQUE) else _letters(k // len(_UNIQUE)))
    return (f"the {_NOUNS[k % len(_NOUNS)]} {word} {_VERBS[k % len(_VERBS)]} on the "
            f"{_PLACES[k % len(_PLACES)]}")


def _letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def long_sentence(i: int = 0, tokens: int = 64) -> str:
    """A sentence of `tokens` distinct words (the tokenizer's limit is 64)."""
    words = [f"{_UNIQUE[(i + j) % len(_UNIQUE)]}{_letters(j // len(_UNIQUE) + i + 1)}"
             for j in range(tokens)]
    return " ".join(words)


def preset_state(name: str) -> dict[str, object]:
    """Session-state values that select a size preset (as the sidebar's selectbox does)."""
    from explorer.core.settings import PRESETS

    return {"preset": name, **asdict(PRESETS[name])}


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def p90(xs: Sequence[float]) -> float:
    """90th percentile by nearest rank (the largest value for fewer than 10 runs)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(0.9 * len(s)) - 1)]


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A markdown table."""
    def cell(v: object) -> str:
        if isinstance(v, float):
            return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.1f}"
        return str(v)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def met(value: float, limit: float) -> str:
    return "yes" if value <= limit else f"NO (x{value / limit:.1f})"


def _git_state() -> str:
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, timeout=10,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, timeout=10, capture_output=True, text=True).stdout
    except (OSError, subprocess.SubprocessError):
        return "git ?"
    n = len(dirty.splitlines())
    return f"git {head or '?'}" + (f" + {n} modified files" if n else "")


def machine_facts() -> str:
    """One line: date, cores, load, versions, git state (printed above every table)."""
    import plotly
    import streamlit
    import torch

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"date {_dt.datetime.now().isoformat(timespec='minutes')} · nproc {os.cpu_count()} · "
            f"load {load} · python {platform.python_version()} · torch {torch.__version__} · "
            f"streamlit {streamlit.__version__} · "
            f"plotly {plotly.__version__} · {_git_state()}")


# ---- Processes (only our own children; read-only /proc) -----------------------------------


def child_pid(port: int) -> int | None:
    """The pid of our own child process serving `port` (started by tests.serve.serve)."""
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid != me:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if b"streamlit" in b" ".join(argv) and str(port).encode() in argv:
            return int(entry.name)
    return None


@contextlib.contextmanager
def served_app() -> Iterator[tuple[str, int]]:
    """`streamlit run app.py` on 127.0.0.1 and a free port: (its URL, its pid), stopped after."""
    port = free_port()
    with serve(port) as url:
        pid = child_pid(port)
        if pid is None:
            raise RuntimeError(f"no server process of ours on port {port}")
        yield url, pid


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS (now) and VmHWM (peak resident so far) of `pid`, in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out
