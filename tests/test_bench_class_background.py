"""Smoke run of bench.class_background (3 learners, a minute at most). No timing asserts.

Rerun: `.venv/bin/python -m pytest tests/test_bench_class_background.py -q`. It starts its
own server on 127.0.0.1 and stops it; it checks that the protocol clients keep working:
every sentence typed is drawn without errors in each window, and the fragments that
the server announced with run_every are rerun by the clients' timers and served.
"""

from __future__ import annotations

import re

import pytest

from bench import class_background


@pytest.mark.timeout(180)
def test_class_background_smoke(capsys):
    assert class_background.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "| window | seconds | sentences | errors | wait median s |" in out
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (\([a-d]\)) \|.*$", out, re.M)}
    assert {"(a)", "(b)", "(c)"} <= set(rows)  # (d) too, unless the training ended first
    for name, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert int(cells[2]) > 0 and cells[3] == "0", (name, row)  # sentences, no errors
    asked = {name: float(row.strip("|").split("|")[10]) for name, row in rows.items()}
    sent = {name: float(row.strip("|").split("|")[12]) for name, row in rows.items()}
    assert asked["(a)"] == asked["(c)"] == 0 and sent["(a)"] == 0  # nothing trains; silenced
    assert sent["(b)"] > 0  # the clients' timers reran the fragments, and were answered
    assert "| (p) |" in out
    assert "| all 3 press Train (the clicks' runs) |" in out
    assert "Errors" not in out
