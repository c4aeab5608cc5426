"""Smoke runs of bench.classroom (3 students, 1 change, 5 s idle windows), bench.class_lesson
(3 students, 4 steps) and bench.class_paced (3 students, 4 steps, each on their own); each
under a minute. No timing asserts.

Rerun: `.venv/bin/python -m pytest tests/test_bench_classroom.py -q`. It starts its own
server on 127.0.0.1 (its class store a SQLite file in a temporary folder) and stops it; it
checks that the protocol clients still follow a class: every student's page showed every
sentence the teacher sent, the students' `_watch` fragments were rerun by their timers
and answered, every student saw the teacher's question, answered it and saw the reveal,
and nothing failed.
"""

from __future__ import annotations

import re

import pytest

from bench import class_lesson, class_paced, classroom


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


@pytest.mark.timeout(180)
def test_classroom_smoke(capsys):
    assert classroom.main(["--smoke"]) == 0
    out = capsys.readouterr().out

    # (a) every student saw every change, each run showing the new word in its grid
    changes = re.findall(r"^\| change \d+ \|.*$", out, re.M)
    assert len(changes) == 1, out
    for row in changes:
        assert _cells(row)[1] == "3 / 3", row
    total = re.search(r"^\| all \(1 changes\) \|.*$", out, re.M)
    assert total is not None, out
    assert _cells(total.group(0))[1] == "3 / 3"

    # (b) the students' polls ran; the sessions without a class have no timers
    idle = {_cells(m.group(0))[0]: _cells(m.group(0)) for m in
            re.finditer(r"^\| (the server alone|P: |P and the class).*$", out, re.M)}
    assert len(idle) == 3, out
    plain = next(v for k, v in idle.items() if k.startswith("P: "))
    with_class = next(v for k, v in idle.items() if k.startswith("P and the class"))
    assert float(plain[4]) == 0.0  # fragment runs /s without a class
    assert float(with_class[4]) > 0.0  # the students' `_watch` (and the teacher's roster)
    assert "Fragment timers: P 0, the teacher 1 (" in out
    assert "the students 3 (" in out
    assert "| the class adds (third row - second) |" in out

    # (c) every group's memory was read
    assert len(re.findall(r"^\| \+ (P|C|P2): .*$", out, re.M)) == 3, out
    assert "| the class adds: C's growth - P's |" in out

    # (d) a question reached every student, every answer counted, the reveal shown to all
    steps = re.findall(r"^\| (?:Ask|the last answer|Reveal)\b.*$", out, re.M)
    assert len(steps) == 3, out
    assert all(_cells(row)[1] == "3 / 3" for row in steps), steps

    assert "to their page (now /attention)" in out  # the join link switched them to it
    assert "Errors" not in out


@pytest.mark.timeout(180)
def test_class_lesson_smoke(capsys):
    """bench.class_lesson --smoke (3 students, a lesson of 4 steps, one question): every
    step reached every page, every answer was kept once and counted in the export."""
    assert class_lesson.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    steps = re.findall(r"^\| step \d+ \| \d+ / \d+ \|.*$", out, re.M)
    assert [_cells(row)[1] for row in steps] == ["3 / 3"] * 4, out  # 3 steps + 1 question
    assert "| all (3 steps) | 9 / 9 |" in out
    assert "Answers lost: 0, duplicated: 0" in out
    assert "the export's counts equal what was sent: yes" in out
    assert "| the class with its lesson adds (C's growth - P's) |" in out
    assert "Errors (0; first 5): none" in out


@pytest.mark.timeout(180)
def test_class_paced_smoke(capsys):
    """bench.class_paced --smoke (3 students moving alone through 4 steps): every Next drew
    its step and was counted by the teacher's roster, which ends equal to the truth."""
    assert class_paced.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    drawn = re.search(r"^\| \(a\) .*$", out, re.M)
    counted = re.search(r"^\| \(b\) .*$", out, re.M)
    assert drawn is not None and counted is not None, out
    assert _cells(drawn.group(0))[1] == _cells(counted.group(0))[1] == "9 / 9", out
    assert "the truth {4: 3}: equal" in out
    assert "Errors (0; first 5): none" in out
