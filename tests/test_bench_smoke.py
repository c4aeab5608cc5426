"""Smoke runs of the bench scripts (tiny sizes, seconds): they keep working. No timing asserts.

The browser-based scripts are skipped with a message when Chromium is missing.
"""

from __future__ import annotations

import pytest

from bench import browser, figure_size, memory, page_response
from bench.common import CHROMIUM, have_chromium

needs_chromium = pytest.mark.skipif(
    not have_chromium(),
    reason=f"No Chromium at {CHROMIUM}: the browser benches need Debian's chromium "
           "(apt-get install -y chromium).",
)


def _run(module, capsys) -> str:
    assert module.main(["--smoke"]) == 0
    return capsys.readouterr().out


def test_page_response_smoke(capsys):
    out = _run(page_response, capsys)
    assert "| page | preset | median ms |" in out
    assert "| attention | tiny |" in out
    assert "| page | preset | explorer.figures |" in out  # the sampled breakdown


def test_figure_size_smoke(capsys):
    out = _run(figure_size, capsys)
    assert "| page | preset | text | charts | figure JSON MB |" in out
    assert "| attention | tiny |" in out


@needs_chromium
def test_browser_smoke(capsys):
    out = _run(browser, capsys)
    assert "| median s | max s |" in out
    assert "| preset | grid median ms |" in out


@needs_chromium
def test_memory_smoke(capsys):
    out = _run(memory, capsys)
    assert "| preset | phase | sessions | RSS MB | peak MB |" in out
    assert "| tiny | 1 session | 1 |" in out
