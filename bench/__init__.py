"""Benchmarks of the explorer against the performance targets; each module prints a table.

Run one with `.venv/bin/python -m bench.<name>` from the repository root (see each module's
docstring); `--smoke` runs a tiny version in seconds (tests/test_bench_smoke.py does).
"""
