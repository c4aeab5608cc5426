"""The hostile texts every input test uses, from `../shared/bad_inputs.json`, in one place.

The file sits beside the repository (the project's shared material). Without it a test
run would silently test less: under CI (CI set) that is a failure with a message that
says what is missing; on a developer's machine the shared cases are skipped, with the
same message.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

BAD_INPUTS = Path(__file__).resolve().parents[1].parent / "shared" / "bad_inputs.json"
MISSING = (f"{BAD_INPUTS} is missing: the project's shared hostile texts (../shared/) must "
           "sit beside the repository for the input tests.")


def bad_input_items() -> list[dict]:
    """Every shared hostile input ({"name", "text", ...}); none when the file is absent."""
    if BAD_INPUTS.is_file():
        return json.loads(BAD_INPUTS.read_text(encoding="utf-8"))
    if os.environ.get("CI"):
        pytest.fail(MISSING, pytrace=False)  # at collection: the run stops and says why
    return []


def bad_input_texts(limit: int | None = None) -> list[str]:
    """The shared hostile texts (the first `limit` of them)."""
    return [item["text"] for item in bad_input_items()][:limit]


def bad_input_params() -> list:
    """The shared hostile texts as test parameters, or one skipped case saying why none."""
    items = bad_input_items()
    if not items:
        return [pytest.param("", id="shared-absent", marks=pytest.mark.skip(MISSING))]
    return [pytest.param(item["text"], id=f"shared-{item['name']}") for item in items]
