"""Every operation of every real document in ../shared/corpus, in both styles (slow)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import validators

from tests.conftest import CORPUS
from toolshape import Plan, plan_document

DOCUMENTS = sorted(CORPUS.glob("*.json"))

pytestmark = pytest.mark.slow


@cache
def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


#: Keywords whose values are data, not schemas: a `$ref` inside them is not a reference.
DATA_KEYWORDS = frozenset({"examples", "example", "default", "enum", "const"})


def refs(node: Any) -> Iterator[str]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                yield item["$ref"]
            stack.extend(v for k, v in item.items() if k not in DATA_KEYWORDS)
        elif isinstance(item, list):
            stack.extend(item)


def assert_self_contained(schema: dict[str, Any]) -> None:
    defs = schema.get("$defs", {})
    for ref in refs(schema):
        assert ref.startswith("#/$defs/"), ref
        assert ref[len("#/$defs/") :] in defs, ref


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.stem for p in DOCUMENTS])
@pytest.mark.parametrize("style", ["flat", "nested"])
def test_corpus_document_plans(path: Path, style: str) -> None:
    """S14.4, S4.4: only PlanErrors; every schema valid under its dialect and self-contained."""
    result = plan_document(load(path), style=style, source=path.name)
    assert result.tools, path.name
    checked: dict[str, Any] = {}
    for tool in result.tools:
        schema = tool.input_schema
        assert_self_contained(schema)
        cls = validators.validator_for(schema)
        # Each distinct schema text is checked once: many tools share the same shape.
        text = json.dumps(schema, sort_keys=True)
        if text not in checked:
            cls.check_schema(schema)
            checked[text] = True
        assert Plan.from_dict(json.loads(json.dumps(tool.to_dict()))) == tool
    for error in result.errors:
        assert error.tool, error.message
        assert error.operation, error.message
        assert f"(operation {error.operation})" in error.message
        assert error.message.endswith(f"({error.location})")
        assert str(error.location).startswith(f"{path.name}#/paths/")


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.stem for p in DOCUMENTS])
def test_corpus_plans_flat_without_errors_under_legacy(path: Path) -> None:
    """S10 (legacy): every collision falls back to nested, every odd body wraps: zero errors."""
    document = load(path)
    result = plan_document(document, style="flat", profile="legacy", source=path.name)
    assert result.errors == ()
    assert len(result.tools) == len(plan_document(document, style="nested", source=path.name).tools)
