"""S1: reading the document (parameters, references, conversion, ignored headers, path keys)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import make_document, only_path
from toolshape import PlanError, plan_document, plan_operation


def one(
    doc: dict[str, Any],
    style: str = "flat",
    path: str | None = None,
    method: str = "post",
) -> Any:
    (only,) = plan_operation(doc, path or only_path(doc), method, style=style)
    return only


def test_path_item_parameters_merge_and_operation_wins() -> None:
    """S1.1: path-item parameters are merged; the operation's entry wins for (name, in)."""
    doc = make_document(
        None,
        [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
        path="/stores/{storeId}/search",
    )
    doc["paths"]["/stores/{storeId}/search"]["parameters"] = [
        {"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}},
        {"name": "limit", "in": "query", "schema": {"type": "string"}},
    ]
    schema = one(doc).input_schema
    assert schema["properties"] == {"storeId": {"type": "string"}, "limit": {"type": "integer"}}


def test_a_shared_parameter_is_read_alike_for_every_operation() -> None:
    """S1.1: a parameter component and a path's parameters, shared by several operations,
    give each operation the same parameter as planning it alone does; a broken component is
    an error of every operation that uses it, not only of the first."""
    page = {"$ref": "#/components/parameters/Page"}
    broken = {"$ref": "#/components/parameters/Broken"}
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "get": {"operationId": "getA", "parameters": [page]},
                "delete": {"operationId": "deleteA", "parameters": [page]},
            },
            "/b": {
                "get": {"operationId": "getB", "parameters": [page, broken]},
                "put": {"operationId": "putB", "parameters": [broken]},
            },
        },
        "components": {
            "parameters": {
                "Page": {
                    "name": "page",
                    "in": "query",
                    "description": "Which page",
                    "schema": {"$ref": "#/components/schemas/Count", "nullable": True},
                },
                "Broken": {"name": "x", "in": "body", "schema": {"type": "string"}},
            },
            "schemas": {"Count": {"type": "integer", "minimum": 1}},
        },
    }
    result = plan_document(document, style="flat")
    assert sorted(plan.name for plan in result.tools) == ["deleteA", "getA"]
    assert sorted(error.tool or "" for error in result.errors) == ["getB", "putB"]
    assert all("`in` 'body'" in error.message for error in result.errors)
    for plan in result.tools:
        path = "/a/{id}"
        (alone,) = plan_operation(document, path, plan.method.lower(), style="flat")
        assert plan == alone
        assert plan.input_schema["properties"]["page"]["description"] == "Which page"
        assert "Count" in plan.input_schema["$defs"]


def test_ref_parameters_and_request_bodies_are_resolved() -> None:
    """S1.1, S1.3: $ref parameters and request bodies resolve; a $ref-only body is its target."""
    doc = make_document(None, [{"$ref": "#/components/parameters/Store"}])
    doc["paths"]["/stores/{storeId}/search"]["post"]["requestBody"] = {
        "$ref": "#/components/requestBodies/Search"
    }
    doc["components"] = {
        "parameters": {
            "Store": {
                "name": "storeId",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
            }
        },
        "requestBodies": {
            "Search": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Alias"}}}
            }
        },
        "schemas": {
            "Alias": {"$ref": "#/components/schemas/Search"},
            "Search": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
    }
    schema = one(doc).input_schema
    assert schema["properties"] == {"storeId": {"type": "string"}, "q": {"type": "string"}}
    assert "$defs" not in schema


@pytest.mark.parametrize(
    ("parameter", "needle"),
    [
        ({"in": "query", "schema": {}}, "has no `name`"),
        ({"name": "x", "schema": {}}, "has no `in`"),
        (
            {"name": "x", "in": "body", "schema": {}},
            "`in` 'body', which is not path, query, header or cookie",
        ),
        ("oops", "is a string, not a mapping"),
    ],
)
def test_malformed_parameter_is_a_planning_error(parameter: Any, needle: str) -> None:
    """S1.1: a parameter without name or in, or with an unknown in, is an error of its operation."""
    doc = make_document(None, [parameter], path="/stores/{storeId}/search")
    with pytest.raises(PlanError) as caught:
        one(doc)
    assert caught.value.kind == "parameter"
    assert needle in caught.value.message
    assert caught.value.message.endswith("(openapi.json#/paths/~1stores~1{storeId}~1search/post)")


@pytest.mark.parametrize(
    ("ref", "needle"),
    [
        (
            "https://example.com/schemas/x.json",
            "is not local to the document; toolshape never retrieves anything",
        ),
        ("other.json#/components/schemas/X", "is not local to the document"),
        ("#/components/schemas/Missing", "points to nothing in the document"),
        ("#", "points at the document root"),
    ],
)
def test_remote_or_missing_reference_is_an_error_naming_it(ref: str, needle: str) -> None:
    """S1.2: remote or missing references are planning errors naming the reference; nothing is fetched."""
    doc = make_document({"type": "object", "properties": {"a": {"$ref": ref}}})
    with pytest.raises(PlanError) as caught:
        one(doc)
    assert caught.value.kind == "reference"
    assert f"`{ref}`" in caught.value.message
    assert needle in caught.value.message
    assert caught.value.location == "openapi.json#/paths/~1stores~1{storeId}~1search/post"


def test_reference_cycle_that_never_reaches_a_schema() -> None:
    """S1.2: an alias cycle is an error naming the chain."""
    doc = make_document(
        {"$ref": "#/components/schemas/A"},
        components={
            "schemas": {
                "A": {"$ref": "#/components/schemas/B"},
                "B": {"$ref": "#/components/schemas/A"},
            }
        },
    )
    with pytest.raises(
        PlanError,
        match=r"reference cycle `#/components/schemas/A` → `#/components/schemas/B` → `#/components/schemas/A`",
    ):
        one(doc)


def test_alias_cycle_inside_a_property_is_an_error_too() -> None:
    """S1.2: a cycle reached through a property never reaches a schema either."""
    doc = make_document(
        {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}},
        components={"schemas": {"A": {"$ref": "#/components/schemas/A"}}},
    )
    with pytest.raises(PlanError, match="reference cycle"):
        one(doc)


def test_pointer_through_a_ref_is_followed() -> None:
    """S1.2 (docs/decisions.md): a pointer that passes through a $ref on its way resolves."""
    components = {
        "schemas": {
            "Outer": {"$ref": "#/components/schemas/Inner"},
            "Inner": {"type": "object", "properties": {"x": {"type": "integer"}}},
        }
    }
    doc = make_document(
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/components/schemas/Outer/properties/x"}},
        },
        components=components,
    )
    schema = one(doc).input_schema
    (name,) = schema["$defs"]
    assert schema["$defs"][name] == {"type": "integer"}


@pytest.mark.parametrize("name", ["Accept", "content-type", "AUTHORIZATION"])
def test_reserved_headers_are_ignored(name: str) -> None:
    """S1.5: Accept, Content-Type and Authorization header parameters are ignored."""
    doc = make_document(
        None, [{"name": name, "in": "header", "required": True, "schema": {"type": "string"}}]
    )
    assert one(doc).input_schema["properties"] == {}


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/Accounts/{Sid}.json", "get_Accounts_Sid.json"),
        ("/files/{id}/thumbnail.{extension}", "get_files_id_thumbnail.extension"),
        ("/responses?beta=true", "get_responses_beta_true"),
        ("/oauth2/token#refresh", "get_oauth2_token_refresh"),
    ],
)
def test_odd_path_keys_are_kept_as_written(path: str, name: str) -> None:
    """S1.6, S8.1: path keys with literal text, queries or fragments plan; names derive from them."""
    variables = re.findall(r"\{(\w+)\}", path)
    parameters = [{"name": v, "in": "path", "required": True} for v in variables]
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {path: {"get": {"parameters": parameters}}},
    }
    (tool,) = plan_operation(doc, path, "get")
    assert tool.path == path
    assert tool.name == name


def test_dialect_comes_from_document_json_schema_dialect() -> None:
    """S1.7: the document's jsonSchemaDialect decides a 3.1 body's dialect."""
    doc = make_document({"type": "object", "properties": {}})
    doc["jsonSchemaDialect"] = "http://json-schema.org/draft-07/schema#"
    assert one(doc).input_schema["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_openapi_30_dialect_has_no_dependent_required() -> None:
    """S1.7: in a 3.0 body dependentRequired is not a keyword, so it is not copied."""
    body = {"type": "object", "properties": {"a": {}, "b": {}}, "dependentRequired": {"a": ["b"]}}
    schema = one(make_document(body, openapi="3.0.3")).input_schema
    assert "dependentRequired" not in schema


def test_openapi_30_nullable_ref_becomes_any_of_null() -> None:
    """S1.4: a nullable schema without type is widened with an anyOf null branch."""
    components = {"schemas": {"X": {"type": "string"}}}
    body = {
        "type": "object",
        "properties": {"x": {"allOf": [{"$ref": "#/components/schemas/X"}], "nullable": True}},
    }
    schema = one(make_document(body, openapi="3.0.3", components=components)).input_schema
    assert schema["properties"]["x"] == {
        "anyOf": [{"allOf": [{"$ref": "#/$defs/X"}]}, {"type": "null"}]
    }


def test_nothing_is_ever_retrieved(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1.2, S14.1: planning opens no socket and no file."""
    import builtins
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("I/O attempted")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(builtins, "open", refuse)
    doc = make_document(
        {"type": "object", "properties": {"a": {"$ref": "https://example.com/x.json"}}}
    )
    result = plan_document(doc, style="flat")
    assert [e.kind for e in result.errors] == ["reference"]


@pytest.mark.parametrize(
    ("pointer", "walked"),
    [
        ("/components/schemas/A", True),
        ("/components/schemas/a~1b", True),
        ("/components/schemas/t~0n", True),
        ("/components/schemas/t~01", True),
        ("/components/schemas/", True),
        ("/components/schemas/List/items/1", True),
        ("/components/schemas/List/items/01", True),
        ("/components/schemas/Null", True),
        ("/components/schemas/List/items/-1", False),  # the resolver's own reading
        ("/components/schemas/List/items/9", False),
        ("/components/schemas/pct%25", False),  # the resolver decodes `%` once more
        ("/components/schemas/missing", False),
        ("/components/schemas/A/type/0", False),  # text indexed as a sequence
    ],
)
def test_the_plain_pointer_walk_finds_what_the_resolver_finds(pointer: str, walked: bool) -> None:
    """S1.2: where the bundler walks a pointer itself it finds exactly what `referencing`
    finds in the same document; anything else is left to the resolver."""
    from referencing import Registry, Resource
    from referencing.exceptions import PointerToNowhere, Unresolvable

    from toolshape.read._refs import NOWHERE, plain_target

    schemas = {
        "A": {"type": "string"},
        "a/b": {"type": "integer"},
        "t~n": {"type": "boolean"},
        "t~1": {"type": "null"},
        "": {"type": "number"},
        "List": {"items": [{"type": "string"}, {"type": "integer"}]},
        "Null": None,
        "pct%": {"type": "object"},
        "pct%25": {"type": "array"},
    }
    document = {"openapi": "3.1.0", "components": {"schemas": schemas}}
    found = plain_target(document, pointer)
    resolver = Registry().with_resource("urn:x", Resource.opaque(document)).resolver("urn:x")
    try:
        expected = resolver.lookup("#" + pointer).contents
    except (PointerToNowhere, Unresolvable, ValueError, LookupError):
        expected = NOWHERE
    assert found is (expected if walked else NOWHERE), (found, expected)


def test_a_definition_inside_a_draft07_schema_is_read_as_draft07() -> None:
    """S1.7: a definition reached inside a schema that declares draft-07 is read under
    draft-07's rules (an array `items` is a tuple there), each definition beside it too, while
    the same shape elsewhere in the 3.1 document is refused under 2020-12's rules (S1.4)."""
    tuple_items = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}
    draft07 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"Pair": tuple_items, "Other": dict(tuple_items)},
    }

    def body(ref: str) -> dict[str, Any]:
        schema = {"type": "object", "properties": {"p": {"$ref": ref}}}
        return {"requestBody": {"content": {"application/json": {"schema": schema}}}}

    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "post": {"operationId": "a", **body("#/components/schemas/Old/definitions/Pair")}
            },
            "/b": {
                "post": {"operationId": "b", **body("#/components/schemas/Old/definitions/Other")}
            },
            "/c": {"post": {"operationId": "c", **body("#/components/schemas/New/$defs/Pair")}},
        },
        "components": {"schemas": {"Old": draft07, "New": {"$defs": {"Pair": dict(tuple_items)}}}},
    }
    result = plan_document(document, style="flat")
    assert sorted(plan.name for plan in result.tools) == ["a", "b"]
    (error,) = result.errors
    assert error.tool == "c"
    assert "`items`" in error.message


@pytest.mark.parametrize(
    ("schemas", "shown"),
    [
        (
            {"A": {"anyOf": [{"$ref": "#/components/schemas/A"}]}},
            "`#/components/schemas/A` → `#/components/schemas/A`",
        ),
        (
            {
                "A": {"allOf": [{"$ref": "#/components/schemas/B"}]},
                "B": {"oneOf": [{"type": "string"}, {"not": {"$ref": "#/components/schemas/A"}}]},
            },
            "`#/components/schemas/A` → `#/components/schemas/B` → `#/components/schemas/A`",
        ),
        (
            {"A": {"if": {"$ref": "#/components/schemas/A"}}},
            "`#/components/schemas/A` → `#/components/schemas/A`",
        ),
    ],
    ids=["anyOf itself", "through another", "if itself"],
)
def test_a_schema_reaching_itself_in_place_is_a_reference_error(
    schemas: dict[str, Any], shown: str
) -> None:
    """S1.2: a schema that reaches itself through applicators that stay at the same value
    (`$ref`, `allOf`/`anyOf`/`oneOf`, `not`, `if`/`then`/`else`) can judge nothing: a planning
    error of kind `reference` naming it — not a tool every call of which is refused."""
    doc = make_document(
        {"type": "object", "properties": {"x": {"$ref": "#/components/schemas/A"}}},
        components={"schemas": schemas},
    )
    result = plan_document(doc, style="flat")
    assert result.tools == ()
    (error,) = result.errors
    assert (error.kind, error.rule) == ("reference", "S1.2")
    assert "the schema `#/components/schemas/A` reaches itself without descending" in error.message
    assert shown in error.message


def test_a_recursive_schema_that_descends_plans() -> None:
    """S1.2, S4.4: recursion through `properties` or `items` descends into the value: fine."""
    tree = {
        "type": "object",
        "properties": {
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}},
            "parent": {"anyOf": [{"$ref": "#/components/schemas/Tree"}, {"type": "null"}]},
        },
    }
    doc = make_document(
        {"$ref": "#/components/schemas/Tree"}, components={"schemas": {"Tree": tree}}
    )
    (tool,) = plan_document(doc, style="flat").tools
    assert tool.call({"storeId": "s", "x-tenant": "t", "children": [{"children": []}]}).body == {
        "children": [{"children": []}]
    }
