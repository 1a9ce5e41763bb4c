"""Shared fixtures: the SPEC's worked example and the paths of the shared material."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from toolshape import ArgumentError, Plan, PlanResult, plan_document

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
JSTS = SHARED / "jsts"
ZUPLO = SHARED / "spec" / "zuplo-mcp-flat-tool-input.md"
SOURCE = "config/routes.oas.json"
LOCATION = "config/routes.oas.json#/paths/~1stores~1{storeId}~1search/post"


@cache
def corpus_document(path: Path) -> Any:
    """A corpus document, read once per test process (callers must not change it)."""
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def corpus_plans(path: Path, style: str) -> PlanResult:
    """A corpus document planned with the default profile, once per test process and style
    (plans are immutable values, S15.2, so the corpus-wide tests can share them)."""
    return plan_document(corpus_document(path), style=style, source=path.name)


STORE_PARAMETERS: list[dict[str, Any]] = [
    {"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}},
    {"name": "limit", "in": "query", "schema": {"type": "integer"}},
    {"name": "x-tenant", "in": "header", "required": True, "schema": {"type": "string"}},
]
STORE_BODY: dict[str, Any] = {
    "type": "object",
    "required": ["query"],
    "properties": {"query": {"type": "string"}, "sort": {"enum": ["price", "name"]}},
    "additionalProperties": False,
}


def spec_example(title: str) -> Any:
    """The JSON block of the reference document with this title (e.g. "Flat inputSchema")."""
    text = ZUPLO.read_text(encoding="utf-8")
    match = re.search(r'```json title="' + re.escape(title) + r'"\n(.*?)```', text, re.S)
    assert match, title
    return json.loads(match.group(1))


def spec_error(start: str) -> str:
    """The message that starts with `start`, as a text block of the reference document or
    quoted in backticks in SPEC.md."""
    text = ZUPLO.read_text(encoding="utf-8")
    match = re.search(r"```text\n(" + re.escape(start) + r".*?)\n```", text, re.S)
    if match is None:
        match = re.search(
            r"`(" + re.escape(start) + r"[^`]*)`", (SHARED / "SPEC.md").read_text(encoding="utf-8")
        )
    assert match, start
    return match.group(1)


def make_document(
    body: Any = None,
    parameters: list[dict[str, Any]] | None = None,
    *,
    openapi: str = "3.1.0",
    content_type: str = "application/json",
    operation: dict[str, Any] | None = None,
    components: dict[str, Any] | None = None,
    path: str | None = None,
    method: str = "post",
    body_required: bool | None = None,
) -> dict[str, Any]:
    """A one-operation document in the shape of the worked example (`searchProducts`).

    The path is the worked example's, unless `parameters` declare other path parameters: then
    it is `/search` with one `{variable}` per path parameter (S12.1: template and parameters
    must agree).
    """
    op: dict[str, Any] = {"operationId": "searchProducts"}
    op["parameters"] = copy.deepcopy(STORE_PARAMETERS if parameters is None else parameters)
    if path is None:
        well_formed = all(isinstance(p, dict) and "name" in p for p in op["parameters"])
        names = [p["name"] for p in op["parameters"] if well_formed and p.get("in") == "path"]
        path = (
            "/search" + "".join(f"/{{{name}}}" for name in names)
            if well_formed and names != ["storeId"]
            else "/stores/{storeId}/search"
        )
    if body is not None:
        media = {} if body == "no-schema" else {"schema": copy.deepcopy(body)}
        op["requestBody"] = {"content": {content_type: media}}
        if body_required is not None:
            op["requestBody"]["required"] = body_required
    op.update(operation or {})
    doc: dict[str, Any] = {
        "openapi": openapi,
        "info": {"title": "t", "version": "1"},
        "paths": {path: {method: op}},
    }
    if components:
        doc["components"] = components
    return doc


def only_path(doc: dict[str, Any]) -> str:
    """The path key of a one-operation document."""
    (path,) = doc["paths"]
    return str(path)


def accepts(plan: Plan, arguments: Any) -> bool:
    """Whether `plan` accepts a call with `arguments` (a Request, not an ArgumentError)."""
    try:
        plan.call(arguments)
    except ArgumentError:
        return False
    return True


@pytest.fixture
def store() -> dict[str, Any]:
    """The worked example operation (SPEC S3.3, S4.8)."""
    return make_document(STORE_BODY)
