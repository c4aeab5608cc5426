"""Smoke runs of bench.load and bench.faults (smoke sizes, well under a minute each).

Rerun: `.venv/bin/python -m pytest tests/test_load_smoke.py -q`. No timing asserts (the
full runs report against the targets); these check that the scripts keep working: every
page update arrives without errors, the browser shows what the protocol clients received,
and training ends when its browser goes away or Stop is pressed. Both start their own
server on 127.0.0.1 and stop it. Without Chromium they are skipped with a message, except
under CI (CI=true), where a missing browser is a failure, as in tests/test_e2e_browser.py.
"""

from __future__ import annotations

import os

import pytest
from serve import CHROMIUM, have_chromium

from bench import faults, load


def _need_browser() -> None:
    if have_chromium():
        return
    message = (f"No Chromium at {CHROMIUM}: the load and fault benches need Debian's chromium "
               "(`apt-get install -y chromium`, which `make test` does when run as root).")
    if os.environ.get("CI"):
        pytest.fail("CI must run the browser benches. " + message)
    pytest.skip(message)


@pytest.mark.timeout(120)
def test_load_smoke(capsys):
    _need_browser()
    assert load.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert ("| phase | sessions | errors | p50 s | p95 s | max s | grid p50 s | KB per session "
            "| target | met? |") in out
    for phase in ("open the page (all at once)", "new sentence, all at once (burst)",
                  "new sentence, within 2 s (spread)"):
        assert f"| {phase} | 3 | 0 |" in out, phase  # 3 sessions, no errors
    assert "| phase | RSS MB |" in out
    assert "| VmHWM (peak since start) |" in out
    assert "Browser check (Chromium typed session 0's last sentence): same page" in out


@pytest.mark.timeout(120)
def test_faults_smoke(capsys):
    _need_browser()
    assert faults.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "| fault | steps set | training CPU | B loads page (during) |" in out
    assert "| fault | RSS before Train | RSS training | RSS after (quiet) |" in out
    rows = [line for line in out.splitlines() if line.startswith(("| close", "| click"))]
    assert len(rows) == 4, rows  # close and Stop, in both tables
    assert "(NOT)" not in out  # training ended and the server went quiet within the wait
    assert "training had already ended before the fault" not in out
