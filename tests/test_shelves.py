"""Every shelf of kept results is declared in explorer/app/shelves.py, and
docs/architecture.md's table of shelves says the same: names, shared or not, entries."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.app import shelves
from explorer.app.memo import Shelf

ROOT = Path(__file__).resolve().parents[1]


def _table() -> dict[str, tuple[bool, int, int]]:
    """The docs' rows: shelf -> (shared, entries, large)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("| shelf (app/shelves.py) |")
    rows = text[start:text.index("\n\n", start)].splitlines()[2:]
    found = {}
    for row in rows:
        names, _, shared, entries = (c.strip() for c in row.strip("|").split("|")[:4])
        names = re.findall(r"`([^`]+)`", names)
        shared_of = [part.strip() == "yes" for part in shared.split("/")]
        counts = [part.strip() for part in entries.split(",")]
        for i, name in enumerate(names):
            if name.endswith("[kind]"):  # one shelf per kind: "256/128/8/8"
                sizes = counts[i].split("/")
                for kind, size in zip(shelves._KNOCKOUT_KINDS, sizes, strict=True):
                    found[name.replace("kind", kind)] = (shared_of[i], int(size), 0)
                continue
            m = re.fullmatch(r"(\d+)(?: \((\d+)\))?", counts[i])
            found[name] = (shared_of[min(i, len(shared_of) - 1)], int(m[1]), int(m[2] or 0))
    return found


def test_the_docs_table_lists_every_shelf_as_declared():
    declared = {name: (s.shared, s.entries, s.large) for name, s in shelves.ALL.items()}
    assert _table() == declared


def test_no_module_but_the_registry_declares_a_shelf():
    files = sorted((ROOT / "explorer").rglob("*.py")) + sorted((ROOT / "pages").glob("*.py"))
    found = [str(f.relative_to(ROOT)) for f in files
             if f.name not in ("shelves.py", "memo.py") and "Shelf(" in f.read_text("utf-8")]
    assert not found, found


def test_shelf_names_are_unique():
    names = [s.name for s in shelves.ALL.values()]
    assert all(isinstance(s, Shelf) for s in shelves.ALL.values())
    assert len(names) == len(set(names))
