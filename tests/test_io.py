"""S1.2, S14.1: no I/O, ever — no document, plan or argument can make toolshape fetch or read.

The proof at the end plans every corpus document and runs the whole JSON-Schema-Test-Suite
(`refRemote` and `optional/` included) through flat tools with every way out of the process
patched to fail and count: zero touches.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import socket
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_documents, jsts_paths, make_document
from tests.test_oracle import embed
from toolshape import (
    ArgumentError,
    Plan,
    PlanDataError,
    PlanError,
    ToolshapeError,
    plan_document,
    plan_operation,
)
from toolshape.schema._validate import Judge

REMOTE = ["http://127.0.0.1:9/schema.json", "file:///etc/passwd", "https://example.invalid/x#/a"]


@contextmanager
def no_way_out() -> Iterator[list[str]]:
    """Every file open, socket connection and URL fetch fails and is recorded."""
    touches: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            touches.append(f"{name}{args[:2]!r}")
            raise OSError(f"toolshape tried {name}")

        return blocked

    saved = (
        builtins.open,
        io.open,
        os.open,
        socket.socket.connect,
        socket.create_connection,
        urllib.request.urlopen,
    )
    builtins.open = io.open = refuse("open")
    os.open = refuse("os.open")
    socket.socket.connect = refuse("connect")  # type: ignore[method-assign]
    socket.create_connection = refuse("create_connection")
    urllib.request.urlopen = refuse("urlopen")
    try:
        yield touches
    finally:
        builtins.open, io.open, os.open = saved[:3]
        socket.socket.connect = saved[3]  # type: ignore[method-assign]
        socket.create_connection, urllib.request.urlopen = saved[4:]


def body_with(prop: Any, components: dict[str, Any] | None = None) -> dict[str, Any]:
    return make_document({"type": "object", "properties": {"v": prop}}, [], components=components)


def outcome(plan: Plan, arguments: Any) -> str:
    try:
        plan.call(arguments)
    except ArgumentError as error:
        return error.message
    return "accepted"


@pytest.mark.parametrize("uri", REMOTE)
@pytest.mark.parametrize(
    "where",
    [
        lambda uri: {"$ref": uri},
        lambda uri: {"$dynamicRef": uri},
        lambda uri: {"extends": {"$ref": uri}},  # draft-03, an annotation in 2020-12
        lambda uri: {"x-anyOf": [{"$ref": uri}]},
        lambda uri: {"oneOf": [{"type": "string"}], "discriminator": {"mapping": {"a": uri}}},
    ],
    ids=["$ref", "$dynamicRef", "extends", "x-anyOf", "mapping"],
)
def test_a_reference_out_of_the_document_is_a_planning_error(
    where: Callable[[str], Any], uri: str
) -> None:
    """S1.2: every reference that does not point into the document is refused at planning."""
    with no_way_out() as touches:
        result = plan_document(body_with(where(uri)), style="flat")
    assert touches == []
    (error,) = result.errors
    assert (error.kind, error.rule) == ("reference", "S1.2")
    assert uri in error.message


@pytest.mark.parametrize(
    "schema",
    [
        {"$id": "http://127.0.0.1:9/", "$dynamicRef": "other.json#x"},
        {"type": [{"$ref": "http://127.0.0.1:9/s"}]},
        {
            "$schema": "http://json-schema.org/draft-03/schema#",
            "extends": {"$ref": "file:///etc/passwd"},
        },
        {"$schema": "http://json-schema.org/draft-04/schema#", "disallow": "string"},
    ],
    ids=["relative-dynamicRef-under-$id", "draft-03-type-list", "draft-03-extends", "draft-04"],
)
def test_documents_that_used_to_fetch_are_refused(schema: Any) -> None:
    """S1.2, S1.4, S1.7: the shapes that made calls fetch are planning errors, with no touch."""
    with no_way_out() as touches:
        result = plan_document(body_with(schema), style="flat")
    assert touches == []
    (error,) = result.errors
    assert error.kind in ("reference", "schema")


@pytest.mark.parametrize("uri", REMOTE)
def test_a_tampered_plan_with_a_remote_reference_is_not_loaded(uri: str) -> None:
    """S15.1: a plan whose schema references outside itself is refused by `Plan.from_dict`."""
    (plan,) = plan_operation(body_with({"type": "string"}), "/search", "post", style="flat")
    data = plan.to_dict()
    data["inputSchema"]["properties"]["v"] = {"$ref": uri}
    with no_way_out() as touches, pytest.raises(PlanDataError) as caught:
        Plan.from_dict(data)
    assert touches == []
    assert caught.value.field == "inputSchema"
    assert uri in caught.value.message


@pytest.mark.parametrize("uri", REMOTE)
def test_a_validator_built_on_any_schema_never_retrieves(uri: str) -> None:
    """S14.1: even a schema that skipped planning is judged without a fetch; the call fails."""
    judge = Judge({"properties": {"v": {"$ref": uri}}})
    with no_way_out() as touches:
        problems = judge.problems({"v": 1})
    assert touches == []
    assert [p.keyword for p in problems] == ["schema"]
    assert "can't be evaluated here" in problems[0].message


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_documents())
def test_no_io_planning_the_corpus(path: Path) -> None:
    """S14.1: planning a real document, in both styles, touches no file or socket."""
    document = json.loads(path.read_text(encoding="utf-8"))
    planned = 0
    with no_way_out() as touches:
        for style in ("flat", "nested"):
            planned += len(plan_document(document, style=style).tools)
    assert touches == []
    assert planned > 0  # the run really planned the document's tools


@pytest.mark.corpus
def test_no_io_over_the_whole_suite() -> None:
    """S14.1: every suite group (refRemote, optional/) as a flat tool's property, planned and
    called with every instance, touches no file or socket."""
    paths = jsts_paths("draft2020-12", "draft7", recursive=True)
    if not paths:
        pytest.skip(
            "set TOOLSHAPE_JSTS to the JSON-Schema-Test-Suite to run this (tests/data/SOURCES.md)"
        )
    groups = [(path, group) for path in paths for group in json.loads(path.read_text("utf-8"))]
    planned = called = 0
    with no_way_out() as touches:
        for path, group in groups:
            schema = embed(group["schema"], "#/components/schemas/Body/properties/v")
            if "draft7" in path.parts and isinstance(schema, dict):
                schema = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
            doc = make_document(
                {"$ref": "#/components/schemas/Body"},
                [],
                components={
                    "schemas": {
                        "Body": {"type": "object", "properties": {"v": schema}, "required": ["v"]}
                    }
                },
            )
            try:
                (plan,) = plan_operation(doc, "/search", "post", style="flat")
            except PlanError:
                continue
            planned += 1
            for test in group["tests"]:
                with suppress(ToolshapeError):
                    plan.call({"v": test["data"]})
                called += 1
    assert touches == []
    assert planned > 0.8 * len(groups)  # the run really exercised plans (676 of 782) ...
    assert called > 1500  # ... and calls
