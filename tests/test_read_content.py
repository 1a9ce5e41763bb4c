"""The parts of one operation, each read by a function, as tables: where the operations are
(S1.6, S26.3), one parameter entry (S1.1, S1.5, S12.2, S26.4), the request bodies (S1.3, S8.2,
S26.6) and the answer's schema (S16.3)."""

from __future__ import annotations

from typing import Any

import pytest

from toolshape.model._dialects import DRAFT2020_12
from toolshape.model._types import Body, Parameter
from toolshape.read._bundle import Bundler
from toolshape.read._content import (
    ParameterRead,
    read_bodies,
    read_output,
    read_parameter,
)
from toolshape.read._convert import Found
from toolshape.read._index import DocumentIndex, index_document
from toolshape.read._paths import operations
from toolshape.read._problem import Problem
from toolshape.schema._views import View

PET = {"type": "object", "properties": {"id": {"type": "integer"}}}


def _reading(version: str = "3.1.0", **more: Any) -> tuple[DocumentIndex, Bundler]:
    index = index_document(
        {"openapi": version, "paths": {}, "components": {"schemas": {"Pet": PET}}, **more}, "t"
    )
    bundler = Bundler(index.document, is_30=index.is_30, dialect=index.default_dialect)
    return index, bundler


def _parameter(node: Any, version: str = "3.1.0") -> tuple[ParameterRead, list[str], Found]:
    index, bundler = _reading(version)
    refs: list[str] = []
    found = Found()
    return read_parameter(node, "/p", index, bundler, refs, found), refs, found


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (
            {"name": "id", "in": "path", "schema": {"type": "string"}},
            # S1.1: a path parameter is required; S12.1: its style defaults to simple.
            Parameter("id", "path", {"type": "string"}, required=True, style="simple"),
        ),
        (
            {"name": "q", "in": "query", "required": True, "description": "words"},
            Parameter("q", "query", {}, required=True, description="words", style="form"),
        ),
        (
            {"name": "tags", "in": "query", "style": "pipeDelimited", "explode": False},
            Parameter("tags", "query", {}, required=False, style="pipeDelimited", explode=False),
        ),
        (
            {
                "name": "f",
                "in": "query",
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            Parameter(
                "f",
                "query",
                {"type": "object"},
                required=False,
                style="form",
                content_type="application/json",
            ),
        ),
        ({"name": "Accept", "in": "header"}, None),  # S1.5: ignored by OpenAPI
        ({"name": "Content-Length", "in": "header"}, "Content-Length"),  # the client's own
        ({"name": "Proxy-Foo", "in": "header"}, "Proxy-Foo"),
    ],
)
def test_a_parameter_entry_is_read(node: Any, expected: ParameterRead) -> None:
    read, refs, found = _parameter(node)
    assert read == expected
    assert (refs, found) == ([], Found())


def test_a_parameter_returns_the_references_its_schema_makes() -> None:
    read, refs, _ = _parameter(
        {"name": "pet", "in": "query", "schema": {"$ref": "#/components/schemas/Pet"}}
    )
    assert isinstance(read, Parameter)
    assert read.schema == {"$ref": "#/$defs/Pet"}
    assert refs == ["Pet"]


def test_a_form_querystring_is_its_members() -> None:
    """S26.4: a form object's members are query parameters, styled by `encoding`."""
    node = {
        "name": "qs",
        "in": "querystring",
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "array"}},
                    "required": ["a"],
                },
                "encoding": {"b": {"style": "pipeDelimited", "explode": False}},
            }
        },
    }
    read, _, _ = _parameter(node, "3.2.0")
    assert read == (
        Parameter("a", "query", {"type": "string"}, required=True, style="form", explode=True),
        Parameter(
            "b", "query", {"type": "array"}, required=False, style="pipeDelimited", explode=False
        ),
    )


@pytest.mark.parametrize(
    ("node", "reason"),
    [
        ("x", "the parameter at `/p` is a string, not a mapping"),
        ({"in": "query"}, "the parameter at `/p` has no `name`"),
        ({"name": "a"}, "the parameter `a` at `/p` has no `in`"),
        (
            {"name": "a", "in": "body"},
            "the parameter `a` at `/p` has `in` 'body', which is not path, query, header or cookie",
        ),
        (
            {"name": "a", "in": "querystring"},  # a 3.1 document has no querystring
            "the parameter `a` at `/p` has `in` 'querystring', which is not path, query, header "
            "or cookie",
        ),
    ],
)
def test_a_parameter_that_is_not_one_is_refused(node: Any, reason: str) -> None:
    with pytest.raises(Problem) as caught:
        _parameter(node)
    assert (caught.value.kind, caught.value.reason) == ("parameter", reason)


def _bodies(request_body: Any, version: str = "3.1.0") -> tuple[Body, ...]:
    index, bundler = _reading(version)
    return read_bodies({"requestBody": request_body}, "/o", index, bundler, [], Found())


def test_each_content_type_is_a_body() -> None:
    """S8.2: one body per media type, in document order; S1.3: a `$ref` root is its target."""
    bodies = _bodies(
        {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                "text/plain": {},
            },
        }
    )
    assert bodies == (
        Body("application/json", PET, required=True, dialect=DRAFT2020_12),
        Body("text/plain", None, required=True, dialect=DRAFT2020_12),
    )


def test_a_sequential_body_is_an_array_of_its_items() -> None:
    """S26.6: a 3.2 JSON Lines body with an `itemSchema` is sent as an array, one item a line."""
    (body,) = _bodies(
        {"content": {"application/jsonl": {"itemSchema": {"type": "integer"}}}}, "3.2.0"
    )
    assert body.schema == {"type": "array", "items": {"type": "integer"}}


@pytest.mark.parametrize(
    ("request_body", "reason"),
    [
        ([], "the request body at `/o/requestBody` is a list, not a mapping"),
        ({}, "the request body at `/o/requestBody` has no `content` mapping"),
        (
            {"content": {"json": {}}},
            "the request body's content key `json` at `/o/requestBody/content/json` is not a "
            "media type (`type/subtype`), so it can't be a tool's content type",
        ),
        (
            {"content": {"application/json": 3}},
            "the media type at `/o/requestBody/content/application~1json` is not a mapping",
        ),
    ],
)
def test_a_body_that_is_not_one_is_refused(request_body: Any, reason: str) -> None:
    with pytest.raises(Problem) as caught:
        _bodies(request_body)
    assert (caught.value.kind, caught.value.reason) == ("document", reason)


@pytest.mark.parametrize(
    ("responses", "code", "media_type"),
    [
        ({"200": {"content": {"application/json": {"schema": PET}}}}, "200", "application/json"),
        # S16.3: the first success code in order, whatever order the document lists them in.
        (
            {
                "404": {"content": {"application/json": {"schema": {}}}},
                "201": {"content": {"application/problem+json": {"schema": PET}}},
                "200": {"description": "no content"},  # no JSON: the next code's
            },
            "201",
            "application/problem+json",
        ),
        (
            {
                "201": {"content": {"application/json": {"schema": {"type": "string"}}}},
                "200": {"content": {"application/json": {"schema": PET}}},
            },
            "200",
            "application/json",
        ),
        ({"2XX": {"content": {"application/json": {"schema": PET}}}}, "2XX", "application/json"),
    ],
)
def test_the_answer_is_the_first_json_success_response(
    responses: Any, code: str, media_type: str
) -> None:
    index, bundler = _reading()
    output, problem = read_output(
        {"responses": responses}, "/o", index, bundler, View("writeOnly"), {}
    )
    assert problem is None
    assert output is not None
    assert (output.schema, output.status, output.content_type) == (PET, code, media_type)


def test_an_answer_without_json_has_no_output() -> None:
    index, bundler = _reading()
    answer = {"200": {"content": {"text/html": {"schema": {"type": "string"}}}}}
    assert read_output({"responses": answer}, "/o", index, bundler, View("writeOnly"), {}) == (
        None,
        None,
    )


def test_operations_are_where_the_paths_say() -> None:
    """S1.6: path items in document order, each method of the path item; S26.3: a 3.2 path
    item's `additionalOperations` by their keys, a key naming a fixed method refused."""
    index = index_document(
        {
            "openapi": "3.2.0",
            "paths": {
                "/b": {"get": {}, "post": {}, "parameters": []},
                "/a": {
                    "query": {},
                    "additionalOperations": {"LINK": {}, "Get": {}},
                },
                "b": {"get": {}},
            },
        },
        "t",
    )
    bundler = Bundler(index.document, is_30=False, dialect=DRAFT2020_12)
    found = [
        (raw.path, raw.method, raw.pointer, raw.problem and raw.problem.reason)
        for raw in operations(index, bundler.references)
    ]
    assert found == [
        ("/b", "get", "/paths/~1b/get", None),
        ("/b", "post", "/paths/~1b/post", None),
        ("/a", "query", "/paths/~1a/query", None),
        ("/a", "LINK", "/paths/~1a/additionalOperations/LINK", None),
        (
            "/a",
            "Get",
            "/paths/~1a/additionalOperations/Get",
            "`additionalOperations` names `Get`, which is the path item's own `get`: write it "
            "there",
        ),
        (
            "b",
            "get",
            "/paths/b/get",
            "the path key `b` does not start with `/`, so it is not a path template (an "
            "absolute URL or a bare name would send the request elsewhere)",
        ),
    ]
