"""The test-fast lists of tests/conftest.py name tests that exist (a renamed test would
otherwise slip back into the inner loop, or out of it, without a word)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import conftest
import pytest

HERE = Path(__file__).resolve().parent
# A test function at the top of a module, with the decorators above it (their continuation
# lines start with a space or a closing bracket).
TEST = re.compile(r"((?:^@.*\n(?:^[ )\]].*\n)*)*)^def (test_\w+)\(", re.M)


@cache
def _test_functions(module: str) -> dict[str, bool]:
    """Each test function of tests/<module>.py: whether it is parametrized."""
    source = (HERE / f"{module}.py").read_text(encoding="utf-8")
    return {m.group(2): "parametrize" in m.group(1) for m in TEST.finditer(source)}


@pytest.mark.parametrize("listing", ["SLOW", "FIRST_CASE_ONLY"])
def test_every_listed_test_exists(listing):
    for module, names in getattr(conftest, listing).items():
        tests = _test_functions(module)
        assert names <= tests.keys(), (module, names - tests.keys())
        if listing == "FIRST_CASE_ONLY":
            assert all(tests[name] for name in names), module  # one case of several
