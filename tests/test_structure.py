"""The code's shape as the project holds it (STYLE.md): stage packages under
`src/toolshape/`, and no function too long to read at once."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_the_keyword_tables_are_referencings() -> None:
    """S4.4: the literal tables of keywords holding one schema, a list or a map of them are
    what `referencing`'s own `subresources_of` says for 2020-12, 2019-09, draft-07 and
    draft-06 (they are literals so that reading a schema loads no third-party package)."""
    import referencing.jsonschema as specs
    from jsonschema import (
        Draft6Validator,
        Draft7Validator,
        Draft201909Validator,
        Draft202012Validator,
    )

    from toolshape.model._pointers import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_VALUE

    known: dict[str, None] = {}
    for cls in (Draft202012Validator, Draft201909Validator, Draft7Validator, Draft6Validator):
        known.update(dict.fromkeys(sorted(cls.VALIDATORS)))
    # `then`/`else` live inside jsonschema's `if`; `$defs`/`definitions` hold no assertion.
    candidates = (*known, "then", "else", "$defs", "definitions", "contentSchema")
    found: tuple[dict[str, None], ...] = ({}, {}, {})
    for spec in (specs.DRAFT202012, specs.DRAFT201909, specs.DRAFT7, specs.DRAFT6):
        for keyword in candidates:
            marker: dict[str, Any] = {"$comment": keyword}
            for shape, into in zip((marker, [marker], {"k": marker}), found, strict=True):
                try:
                    subs = list(spec.subresources_of({keyword: shape}))
                except (AttributeError, TypeError):  # the table expects another shape here
                    continue
                if any(sub is marker for sub in subs):
                    into[keyword] = None
    assert tuple(tuple(f) for f in found) == (SCHEMA_VALUE, SCHEMA_LIST, SCHEMA_MAP)


CLOSURE = """
import json, sys
before = set(sys.modules)
{statement}
new = set(sys.modules) - before
own = sorted(m for m in new if m.startswith("toolshape"))
third = sorted({{
    m.split(".")[0] for m in new
    if "site-packages" in (getattr(sys.modules[m], "__file__", None) or "")
    and not m.startswith("toolshape")
}})
validators = sorted(m for m in own if m.split(".")[-1] in ("_validate", "_fastcheck", "_regex"))
print(json.dumps([len(own), third, validators]))
"""


def closure(statement: str) -> tuple[int, list[str], list[str]]:
    """The toolshape modules, the third-party packages and the validators `statement` loads
    in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", CLOSURE.format(statement=statement)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    count, third, validators = json.loads(done.stdout)
    return count, third, validators


def design_rows() -> list[tuple[str, int, str, str]]:
    """The import-closure table of docs/design.md: statement, modules, third-party, validator."""
    text = (SOURCE.parent.parent / "docs" / "design.md").read_text(encoding="utf-8")
    table = text.split("<!-- closures -->", 2)[1]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows.append((cells[0].strip("`"), int(cells[1]), cells[2], cells[3]))
    return rows


def test_the_import_closures_are_as_docs_design_says() -> None:
    """The card's core can be lifted out (DESIGN turn 4): importing the typed `Plan`, each
    public primitive's stage or the root loads what docs/design.md's table says — no
    validator, no third-party package (not even typing-extensions)."""
    rows = design_rows()
    assert len(rows) >= 4
    for statement, modules, third, validator in rows:
        count, packages, validators = closure(statement)
        assert (count, ", ".join(packages) or "none", ", ".join(validators) or "none") == (
            modules,
            third,
            validator,
        ), statement


def test_flatten_can_be_vendored(tmp_path: Path) -> None:
    """`flatten/` with the model files it imports, copied into another folder as a package of
    its own (no root `__init__` of toolshape's, nothing installed beside it used), runs its
    primitives' documented examples."""
    vendored = tmp_path / "toolshape"
    shutil.copytree(SOURCE / "flatten", vendored / "flatten")
    (vendored / "model").mkdir()
    (vendored / "__init__.py").write_text("", encoding="utf-8")
    (vendored / "model" / "__init__.py").write_text("", encoding="utf-8")
    for name in ("_json", "_types", "_errors", "_pointers", "_dialects", "_names"):
        shutil.copy(SOURCE / "model" / f"{name}.py", vendored / "model" / f"{name}.py")
    script = (
        "import doctest, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import toolshape.flatten\n"
        f"assert toolshape.flatten.__file__.startswith({str(tmp_path)!r})\n"
        "failed = 0\n"
        "for name in ('_allof', '_collide', '_hoist', '_policy'):\n"
        "    module = __import__(f'toolshape.flatten.{name}', fromlist=['x'])\n"
        "    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)\n"
        "    assert result.attempted, name\n"
        "    failed += result.failed\n"
        "print(failed)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0", done.stdout
