"""S14.4: any document ends in a result or one of the library's own errors, naming the place."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_document
from toolshape import DocumentError, PlanError, ToolshapeError, plan_document


@pytest.mark.parametrize(
    ("document", "needle", "where"),
    [
        ([], "the document is a list, not a mapping", "openapi.json#"),
        ("openapi: 3.1.0", "the document is a string, not a mapping", "openapi.json#"),
        ({"swagger": "1.2", "paths": {}}, "Swagger 1.2", "openapi.json#/swagger"),
        ({"paths": {}}, "`openapi` is None", "openapi.json#/openapi"),
        ({"openapi": "4.0.0", "paths": {}}, "not 3.0.x, 3.1.x or 3.2.x", "openapi.json#/openapi"),
        (
            {"openapi": "3.1.0", "paths": []},
            "`paths` is a list, not a mapping",
            "openapi.json#/paths",
        ),
    ],
)
def test_not_an_openapi_document(document: Any, needle: str, where: str) -> None:
    """A document that is not OpenAPI 3.x raises DocumentError naming what and where."""
    with pytest.raises(DocumentError) as caught:
        plan_document(document)
    assert needle in caught.value.message
    assert caught.value.location == where


def test_missing_paths_is_a_diagnostic() -> None:
    """A 3.1 document without paths has no tools and says so."""
    result = plan_document({"openapi": "3.1.0", "info": {}})
    assert result.tools == ()
    assert result.errors == ()
    assert "no `paths`" in result.diagnostics[0].message


@pytest.mark.parametrize(
    ("mutate", "kind", "needle"),
    [
        (
            lambda op: op.update(parameters={"a": 1}),
            "parameter",
            "`parameters` at `/paths/~1stores~1{storeId}~1search/post/parameters` is a mapping",
        ),
        (
            lambda op: op.update(requestBody=[]),
            "document",
            "request body at `/paths/~1stores~1{storeId}~1search/post/requestBody` is a list",
        ),
        (lambda op: op.update(requestBody={"content": 3}), "document", "has no `content` mapping"),
        (
            lambda op: op["requestBody"]["content"].update({"application/json": []}),
            "document",
            "media type at",
        ),
        (
            lambda op: op["requestBody"]["content"]["application/json"].update(schema=[1]),
            "schema",
            "expected a schema at `/paths/~1stores~1{storeId}~1search/post/requestBody/content/application~1json/schema`, found a list",
        ),
        (
            lambda op: op["requestBody"]["content"]["application/json"]["schema"][
                "properties"
            ].update(a=3),
            "schema",
            "found a number",
        ),
        (lambda op: op["parameters"][0].update(schema="string"), "schema", "found a string"),
    ],
)
def test_malformed_operation_parts_are_errors_with_locations(
    mutate: Any, kind: str, needle: str
) -> None:
    """Malformed operations end in a PlanError naming the part and the operation's location."""
    doc = make_document({"type": "object", "properties": {}})
    mutate(doc["paths"]["/stores/{storeId}/search"]["post"])
    (error,) = plan_document(doc, style="flat").errors
    assert error.kind == kind
    assert needle in error.message
    assert error.message.endswith("(openapi.json#/paths/~1stores~1{storeId}~1search/post)")


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_ten_thousand_deep_schema_is_an_error_not_a_crash(style: str) -> None:
    """A 10,000-deep schema is a PlanError, never a RecursionError."""
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(10_000):
        deep = {"type": "object", "properties": {"x": deep}}
    doc = make_document({"type": "object", "properties": {}})
    doc["paths"]["/stores/{storeId}/search"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]["properties"]["deep"] = deep
    (error,) = plan_document(doc, style=style).errors
    assert error.kind == "schema"
    assert "nested too deeply" in error.message


def test_path_item_that_is_not_a_mapping() -> None:
    """A path item that is not a mapping is an error of that path."""
    doc = {"openapi": "3.1.0", "paths": {"/a": [1, 2]}}
    (error,) = plan_document(doc).errors
    assert "path item `/a` is a list, not a mapping" in error.message


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "$ref",
        "allOf",
        "oneOf",
        "additionalProperties",
        "items",
        "nullable",
        "enum",
    ]
)
SCHEMAISH = st.recursive(
    JSON,
    lambda inner: (
        st.dictionaries(KEYS, inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3).map(
            lambda d: {"type": "object", "properties": d}
        )
        | st.sampled_from(["#/components/schemas/A", "#/nowhere", "http://x", "#"]).map(
            lambda r: {"$ref": r}
        )
    ),
    max_leaves=15,
)
PARAM = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(["a", "b", "body", "X-A", 3]),
        "in": st.sampled_from(["path", "query", "header", "cookie", "body", None]),
        "schema": SCHEMAISH,
        "required": st.booleans(),
        "style": JSON,
    },
)


@st.composite
def documents(draw: st.DrawFn) -> Any:
    op = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "operationId": st.text(max_size=8) | JSON,
                "parameters": st.lists(PARAM | JSON, max_size=4) | JSON,
                "requestBody": st.fixed_dictionaries(
                    {
                        "content": st.dictionaries(
                            st.sampled_from(["application/json", "text/plain"]),
                            st.fixed_dictionaries({}, optional={"schema": SCHEMAISH}) | JSON,
                            max_size=2,
                        )
                    }
                )
                | JSON,
                "x-zuplo-route": JSON,
            },
        )
    )
    return {
        "openapi": draw(st.sampled_from(["3.0.3", "3.1.0"])),
        "paths": {
            draw(st.sampled_from(["/a/{a}", "/b", "/c#x"])): {
                draw(st.sampled_from(["get", "post"])): op
            }
        },
        "components": {
            "schemas": draw(st.dictionaries(st.sampled_from(["A", "B"]), SCHEMAISH, max_size=2))
        },
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(["flat", "nested"]), st.sampled_from(["2026-11-06", "legacy"]))
def test_any_document_ends_in_result_or_own_error(document: Any, style: str, profile: Any) -> None:
    """S14.4: generated documents plan or fail with PlanError; every error names a location."""
    try:
        result = plan_document(document, style=style, profile=profile)
    except ToolshapeError:
        return
    for error in result.errors:
        assert isinstance(error, PlanError)
        assert error.kind == "configuration" or "openapi.json#" in error.message
    for tool in result.tools:
        assert isinstance(tool.input_schema, dict)


def test_path_item_reference_that_points_nowhere() -> None:
    """S1.2: a path item `$ref` that resolves to nothing is an error naming the reference."""
    doc = {"openapi": "3.1.0", "paths": {"/a": {"$ref": "#/components/pathItems/Missing"}}}
    (error,) = plan_document(doc).errors
    assert error.kind == "reference"
    assert "`#/components/pathItems/Missing` points to nothing" in error.message
