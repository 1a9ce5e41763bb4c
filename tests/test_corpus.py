"""Every operation of every real document (the slice in tests/data/corpus, and the whole
documents `TOOLSHAPE_CORPUS` names), in both styles."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_documents, corpus_plans
from tests.schemacheck import assert_valid_under_its_dialect
from toolshape import Options, Plan, plan_document
from toolshape._load import parse_document
from toolshape.model._types import CHANNEL_ARGUMENT

DOCUMENTS = corpus_documents()

pytestmark = [pytest.mark.slow, pytest.mark.corpus]


@cache
def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", DOCUMENTS)
@pytest.mark.parametrize("profile", ["2026-11-06", "legacy"])
@pytest.mark.parametrize("style", ["flat", "nested"])
def test_corpus_document_plans(path: Path, style: str, profile: str) -> None:
    """S14.4, S4.4: only PlanErrors; every schema a plan holds (advertised, nested, the second
    check's) valid under its dialect and self-contained, in both styles and profiles."""
    result = plan_document(load(path), style=style, source=path.name, profile=profile)  # type: ignore[arg-type]
    assert result.tools, path.name
    for index, tool in enumerate(result.tools):
        # The plan's own schemas (copies would defeat the per-object memo above). The nested
        # schema and the output schema (S16.3) don't depend on the style, nor the output
        # schema on the profile: each is checked in the run where it first appears.
        schemas = [tool._input, tool._check]
        if style == "nested":
            schemas.append(tool._nested)
            if profile == "2026-11-06":
                schemas.append(tool._output)
        for schema in schemas:
            if isinstance(schema, dict):
                assert_valid_under_its_dialect(schema)
        assert tool.description  # S16.1: every tool is described
        assert "openWorldHint" in tool.annotations  # S16.2: every tool is annotated
        if index % 25 == 0:  # S15.1 for a sample here; tests/test_plan_data.py checks the rule
            assert Plan.from_dict(json.loads(json.dumps(tool.to_dict()))) == tool
    for error in result.errors:
        assert error.tool, error.message
        assert error.operation, error.message
        assert f"(operation {error.operation})" in error.message
        assert error.message.endswith(f"({error.location})")
        assert str(error.location).startswith(f"{path.name}#/paths/")


@pytest.mark.parametrize("path", DOCUMENTS)
def test_corpus_plans_flat_without_errors_under_legacy(path: Path) -> None:
    """S10 (legacy): every collision falls back to nested, every odd body wraps: zero errors."""
    document = load(path)
    result = plan_document(document, style="flat", profile="legacy", source=path.name)
    assert result.errors == ()
    assert len(result.tools) == len(plan_document(document, style="nested", source=path.name).tools)


@pytest.mark.parametrize("path", DOCUMENTS)
def test_corpus_credentials_are_never_advertised(path: Path) -> None:
    """S18.1, S18.3: every tool records its security alternatives, and no parameter a
    credential carries is advertised or routed from an argument, flat or nested."""
    document = load(path)
    result = corpus_plans(path, "flat")
    components = document.get("components", {}).get("securitySchemes", {})
    assert result.security_schemes == tuple(components)
    for tool in result.tools:
        assert tool.security, tool.name
        named = {s.name for alternative in tool.security for s in alternative}
        assert named <= set(components), tool.name
        carried = {
            (s.location, s.parameter.lower() if s.location == "header" else s.parameter)
            for alternative in tool.security
            for s in alternative
            if s.location is not None and s.parameter is not None
        }
        routes = {
            (r.channel, r.name.lower() if r.channel == "header" else r.name)
            for r in tool.parameters
        }
        assert not routes & carried, tool.name
        nested = tool.nested_schema["properties"]
        for channel, name in carried:
            holder = nested.get(CHANNEL_ARGUMENT[channel], {}).get("properties", {})
            assert name not in {k.lower() for k in holder}, (tool.name, name)


#: The plain scalars YAML 1.2's core schema reads as something other than text (its spec).
YAML12_NOT_TEXT = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
    r"|true|True|TRUE|false|False|FALSE|null|Null|NULL|~|"
)
PORTABLE_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
PORTABLE_TOOL = re.compile(r"[A-Za-z0-9_-]{1,64}")
COVER = Options.preset(portable_names=True, on_collision="rename", on_unflattenable="nested")


@pytest.mark.parametrize("path", DOCUMENTS)
@pytest.mark.parametrize("style", ["flat", "nested"])
def test_corpus_every_operation_is_a_tool_with_portable_names(path: Path, style: str) -> None:
    """S19, S21.1: with `portable_names`, `on_collision="rename"` and
    `on_unflattenable="nested"`, every operation of the document yields a tool, with zero
    errors; every tool name and advertised property key matches the strictest model APIs'
    patterns (channel members of nested tools included)."""
    document = load(path)
    result = plan_document(document, style=style, options=COVER, source=path.name)
    assert result.errors == ()
    operations = {
        (route, method)
        for route, item in document["paths"].items()
        for method in item
        if method in ("get", "put", "post", "delete", "options", "head", "patch", "trace")
    }
    assert {(t.path, t.method.lower()) for t in result.tools} == operations
    for tool in result.tools:
        assert PORTABLE_TOOL.fullmatch(tool.name), tool.name
        schema = tool.input_schema
        keys = list(schema["properties"])
        if tool.style == "nested":
            for channel, member in schema["properties"].items():
                if channel != "body":
                    keys += list(member["properties"])
        assert all(PORTABLE_KEY.fullmatch(key) for key in keys), (tool.name, keys)


@pytest.mark.parametrize("path", DOCUMENTS)
def test_corpus_documents_read_as_yaml_plan_as_their_json(path: Path) -> None:
    """S20.2: each document written out as YAML (by PyYAML, here) reads back as exactly its
    JSON data — same values, same types, same key order — so it plans identically; for the
    two smallest the plans themselves are compared."""
    yaml = pytest.importorskip("yaml", reason="the yaml extra is part of the test extra")
    document = load(path)

    class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
        """PyYAML writes YAML 1.1, which leaves `012345678912345678` plain (1.1 has no such
        integer); a 1.2 reader takes it for a number. Quote what YAML 1.2 would read so."""

    def text_scalar(dumper: Any, value: str) -> Any:
        style = "'" if YAML12_NOT_TEXT.fullmatch(value) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text_scalar)
    text = yaml.dump(document, Dumper=Dumper, sort_keys=False, allow_unicode=True)
    read = parse_document(text, path.name)
    assert json.dumps(read) == json.dumps(document)
    if path.stem in ("twilio-api-v2010", "box"):
        from_yaml = plan_document(read, style="flat", source=path.name)
        from_json = plan_document(document, style="flat", source=path.name)
        assert [t.to_dict() for t in from_yaml.tools] == [t.to_dict() for t in from_json.tools]
        assert [e.to_dict() for e in from_yaml.errors] == [e.to_dict() for e in from_json.errors]
