"""The server's heap: the imported libraries leave the cyclic garbage collector's scans.

Python's collector goes through every tracked object in a full (oldest-generation)
collection. After torch, plotly, pandas and the app are imported, that is some 300,000
objects which will never be garbage, and a full collection took about 250 ms of the
interpreter, every few seconds while a class of thirty ran its pages; whatever page runs
then waited for it (bench/classroom.py (a)). `gc.freeze()` moves every object tracked now
into a permanent generation that collections skip (Python's docs: gc.freeze); full
collections then took 35-105 ms. The cost: an object alive at a freeze that later becomes
part of a reference cycle is never freed; freezes come only after runs that imported
modules (six in a walk through every page: a server's first run, then each page's first).
"""

from __future__ import annotations

import gc
import sys

_frozen_with = 0  # how many modules were imported at the last freeze


def freeze_imports() -> None:
    """After a run: if modules were imported since the last freeze (a server's first runs,
    a page's first visit), collect once and freeze what is left. A few times per process;
    a no-op on every other run."""
    global _frozen_with
    imported = len(sys.modules)
    if imported == _frozen_with:
        return
    _frozen_with = imported
    gc.collect()  # the garbage so far is freed, not frozen with the rest
    gc.freeze()
