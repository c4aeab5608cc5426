"""The Python code blocks of README.md and docs/ run as written, in a fresh namespace."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks() -> list[tuple[str, str]]:
    """(where, code) of every ```python block in the docs."""
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            out.append((f"{doc.name}:{line}", match.group(1)))
    return out


def test_readme_has_a_python_block():
    assert any(where.startswith("README.md") for where, _ in python_blocks())


@pytest.mark.parametrize(("where", "code"), python_blocks(), ids=[w for w, _ in python_blocks()])
def test_doc_code_block_runs_as_written(where, code):
    tree = ast.parse(code, filename=where)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    namespace: dict[str, object] = {"__name__": "__doc_block__"}
    body = tree.body[:-1] if last is not None else tree.body
    exec(compile(ast.Module(body, []), where, "exec"), namespace)  # noqa: S102
    if last is not None:  # the block's last expression is what the reader is shown
        shown = eval(compile(ast.Expression(last.value), where, "eval"), namespace)  # noqa: S307
        comment = code.rstrip().splitlines()[-1].partition("#")[2]
        dims = re.fullmatch(r"\s*\(([^)]*)\)", comment)
        if dims is not None and hasattr(shown, "dim"):  # "# (batch, h, src_len, src_len)"
            assert shown.dim() == len(dims.group(1).split(",")), (where, tuple(shown.shape))
