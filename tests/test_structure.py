"""The code's shape as the project holds it (STYLE.md): stage packages under
`src/toolshape/`, and no function too long to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "toolshape"
LONGEST = 120


def test_no_function_is_longer_than_120_lines() -> None:
    long = [
        f"{path.relative_to(SOURCE)}:{node.lineno} {node.name} ({length} lines)"
        for path in sorted(SOURCE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > LONGEST
    ]
    assert long == []


def test_the_pipeline_is_stage_packages() -> None:
    packages = {path.parent.name for path in SOURCE.glob("*/__init__.py")}
    assert {"read", "flatten", "planner", "call", "plans", "schema", "model"} <= packages
