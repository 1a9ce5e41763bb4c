"""S2 (style), S8 (tools and names), S9 (errors), S15 (plans as data)."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from tests.conftest import LOCATION, SOURCE, STORE_BODY, make_document, only_path, spec_error
from toolshape import Options, Plan, PlanError, plan_document, plan_operation

PATH = "/stores/{storeId}/search"


def with_body_property(name: str) -> dict[str, Any]:
    return make_document({"type": "object", "properties": {name: {"type": "integer"}}})


# -- S2 ------------------------------------------------------------------------------------


def test_default_style_is_nested(store: dict[str, Any]) -> None:
    """S2.1: with no setting anywhere a tool is nested."""
    (tool,) = plan_document(store).tools
    assert tool.style == "nested"


@pytest.mark.parametrize(
    ("extension", "server", "expected"),
    [
        ({"x-zuplo-route": {"mcp": {"toolInputStyle": "flat"}}}, "nested", "flat"),
        ({"x-zuplo-route": {"mcp": {"toolInputStyle": "nested"}}}, "flat", "nested"),
        ({"x-zuplo-mcp-tool": {"toolInputStyle": "flat"}}, "nested", "flat"),
        ({}, "flat", "flat"),
    ],
)
def test_tool_setting_wins_over_server(
    extension: dict[str, Any], server: str, expected: str
) -> None:
    """S2.1, S2.2: the tool's own setting, then the server-wide one, then nested."""
    doc = make_document(STORE_BODY, operation=extension)
    (tool,) = plan_document(doc, style=server).tools
    assert tool.style == expected


def test_caller_style_by_operation_id_wins() -> None:
    """S2.2: a per-operation style from the caller comes first."""
    doc = make_document(
        STORE_BODY, operation={"x-zuplo-route": {"mcp": {"toolInputStyle": "nested"}}}
    )
    (tool,) = plan_document(doc, styles={"searchProducts": "flat"}).tools
    assert tool.style == "flat"


def test_invalid_server_style_is_nested_with_warning(store: dict[str, Any]) -> None:
    """S2.3: a server-wide value other than flat/nested is nested, with a warning naming it."""
    result = plan_document(store, style="Flat")
    assert [t.style for t in result.tools] == ["nested"]
    assert result.errors == ()
    (note,) = result.diagnostics
    assert note.level == "warning"
    assert '"Flat"' in note.message


def test_invalid_tool_style_is_the_exact_configuration_error() -> None:
    """S2.3: a tool-level value other than flat/nested is an error with the exact text."""
    doc = make_document(STORE_BODY, operation={"x-zuplo-mcp-tool": {"toolInputStyle": "Flat"}})
    (error,) = plan_document(doc).errors
    assert str(error) == spec_error("invalidToolStyle")
    assert error.kind == "configuration"


@pytest.mark.parametrize("where", ["server", "tool"])
def test_env_style_is_the_exact_error_under_2026(where: str) -> None:
    """S2.4: $env(...) fails with the exact message naming the route."""
    expected = spec_error("envStyle")
    if where == "server":
        with pytest.raises(PlanError) as caught:
            plan_document(make_document(STORE_BODY), style="$env(STYLE)")
        assert str(caught.value) == expected
    else:
        doc = make_document(
            STORE_BODY, operation={"x-zuplo-route": {"mcp": {"toolInputStyle": "$env(STYLE)"}}}
        )
        (error,) = plan_document(doc).errors
        assert str(error) == expected
        other = plan_document(doc, route="/tools").errors[0]
        assert 'on route "/tools"' in str(other)


def test_env_style_resolves_from_caller_mapping_when_switched() -> None:
    """S2.4: with env_in_style="resolve" the value comes from the mapping the caller passes."""
    options = Options.preset(env_in_style="resolve")
    (tool,) = plan_document(
        make_document(STORE_BODY), style="$env(STYLE)", options=options, env={"STYLE": "flat"}
    ).tools
    assert tool.style == "flat"


# -- S8 ------------------------------------------------------------------------------------


def test_name_sources_in_order() -> None:
    """S8.1: the caller's name, else operationId, else one derived from method and path."""
    doc = make_document(STORE_BODY)
    assert plan_document(doc, names={"searchProducts": "find"}).tools[0].name == "find"
    assert plan_document(doc).tools[0].name == "searchProducts"
    del doc["paths"][PATH]["post"]["operationId"]
    assert plan_document(doc).tools[0].name == "post_stores_storeId_search"


@pytest.mark.parametrize(
    ("operation_id", "name"),
    [
        ("meta/root", "meta_root"),
        ("a b:c", "a_b_c"),
        ("x" * 200, "x" * 128),
        ("ok.name-1", "ok.name-1"),
    ],
)
def test_invalid_names_are_sanitized_and_cut(operation_id: str, name: str) -> None:
    """S8.1: characters outside [A-Za-z0-9_.-] become _, and the name is cut to 128."""
    doc = make_document(STORE_BODY, operation={"operationId": operation_id})
    assert plan_document(doc).tools[0].name == name


def test_name_clash_after_sanitizing_is_an_error_naming_both() -> None:
    """S8.1: only a clash after sanitizing is an error, and it names both operations."""
    doc = make_document(STORE_BODY, operation={"operationId": "a/b"})
    doc["paths"]["/other"] = {"get": {"operationId": "a_b"}}
    result = plan_document(doc)
    assert [t.name for t in result.tools] == ["a_b"]
    (error,) = result.errors
    assert error.kind == "name"
    assert "operation a/b" in error.message
    assert "operation a_b" in error.message
    assert error.message.endswith("(openapi.json#/paths/~1other/get)")


def test_one_tool_per_content_type_with_suffixed_names() -> None:
    """S8.2, S8.3: one tool per content type; a text/plain string body can't flatten."""
    doc = make_document(STORE_BODY)
    doc["paths"][PATH]["post"]["requestBody"]["content"]["text/plain"] = {
        "schema": {"type": "string"}
    }
    doc["paths"][PATH]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"] = {
        "schema": STORE_BODY
    }
    result = plan_document(doc, style="flat")
    assert [t.name for t in result.tools] == [
        "searchProducts_application_json",
        "searchProducts_application_x-www-form-urlencoded",
    ]
    assert [t.content_type for t in result.tools] == [
        "application/json",
        "application/x-www-form-urlencoded",
    ]
    assert result.tools[0].input_schema == result.tools[1].input_schema
    (error,) = result.errors
    assert (error.tool, error.kind) == ("searchProducts_text_plain", "unflattenable")


def test_tool_level_nested_applies_to_every_tool_of_the_operation() -> None:
    """S8.2: a tool-level nested applies to all the operation's tools."""
    doc = make_document(
        STORE_BODY, operation={"x-zuplo-route": {"mcp": {"toolInputStyle": "nested"}}}
    )
    doc["paths"][PATH]["post"]["requestBody"]["content"]["text/plain"] = {
        "schema": {"type": "string"}
    }
    result = plan_document(doc, style="flat")
    assert [t.style for t in result.tools] == ["nested", "nested"]
    assert result.errors == ()


# -- S9 ------------------------------------------------------------------------------------


def test_collision_message_is_the_reference_text() -> None:
    """S9.1: the query/body collision error, byte for byte, with typed fields."""
    params = [
        *make_document(None)["paths"][PATH]["post"]["parameters"],
        {"name": "id", "in": "query", "schema": {"type": "string"}},
    ]
    doc = make_document({"type": "object", "properties": {"id": {"type": "integer"}}}, params)
    with pytest.raises(PlanError) as caught:
        plan_operation(doc, only_path(doc), "post", style="flat", source=SOURCE)
    error = caught.value
    assert str(error) == spec_error("collision")
    assert (error.kind, error.property, error.channels, error.location) == (
        "collision",
        "id",
        ("queryParams", "body"),
        LOCATION,
    )


@pytest.mark.parametrize(
    ("params", "body", "name", "channels"),
    [
        (
            [{"name": "id", "in": "path", "required": True}, {"name": "id", "in": "query"}],
            None,
            "id",
            ("pathParams", "queryParams"),
        ),
        (
            [{"name": "storeId", "in": "path", "required": True}],
            {"storeId": {}},
            "storeId",
            ("pathParams", "body"),
        ),
        ([{"name": "X-Tenant", "in": "header"}], {"x-tenant": {}}, "x-tenant", ("body", "headers")),
        (
            [{"name": "a", "in": "cookie"}, {"name": "a", "in": "query"}],
            None,
            "a",
            ("queryParams", "cookies"),
        ),
    ],
)
def test_collision_pairs(
    params: list[dict[str, Any]], body: dict[str, Any] | None, name: str, channels: tuple[str, str]
) -> None:
    """S9.1: path/query, path/body, header/any (after lowercasing) collide and name both channels."""
    for p in params:
        p.setdefault("schema", {"type": "string"})
    doc = make_document(
        {"type": "object", "properties": body} if body is not None else None, params
    )
    with pytest.raises(PlanError) as caught:
        plan_operation(doc, only_path(doc), "post", style="flat")
    assert (caught.value.property, caught.value.channels) == (name, channels)
    assert f"`{name}` is declared by both `{channels[0]}` and `{channels[1]}`" in str(caught.value)


def test_nested_tools_never_collide() -> None:
    """S9.1: a collision only matters for a flat tool."""
    params = [{"name": "storeId", "in": "path", "required": True, "schema": {}}]
    (tool,) = plan_operation(
        make_document({"type": "object", "properties": {"storeId": {}}}, params), PATH, "post"
    )
    assert tool.style == "nested"


def test_collision_falls_back_to_nested_under_legacy() -> None:
    """S9.1 (legacy): the whole tool stays nested with a warning naming property and channels."""
    params = [{"name": "storeId", "in": "path", "required": True, "schema": {}}]
    doc = make_document({"type": "object", "properties": {"storeId": {}}}, params)
    (tool,) = plan_operation(
        doc, only_path(doc), "post", style="flat", profile="legacy", source=SOURCE
    )
    assert tool.style == "nested"
    (note,) = tool.diagnostics
    assert note.level == "warning"
    assert note.message.startswith("MCP tool input schema left nested")
    assert "`storeId` is declared by both `pathParams` and `body`" in note.message
    assert note.message.endswith(f"({LOCATION})")


def test_parameter_named_body_beside_wrapped_body_collides_under_legacy() -> None:
    """S9.1: a parameter named `body` beside a wrapped body is a collision (legacy)."""
    params = [{"name": "body", "in": "query", "schema": {}}]
    doc = make_document({"type": "array"}, params)
    (tool,) = plan_operation(doc, only_path(doc), "post", style="flat", profile="legacy")
    assert tool.style == "nested"
    assert (
        "`body` is declared as a parameter by `queryParams` and is also where this operation's request body has to go"
        in tool.diagnostics[-1].message
    )


def test_wrapped_body_under_legacy_matches_reference_schema() -> None:
    """S5 (legacy): the array body stays under a required `body`, parameters still flat."""
    doc = make_document({"type": "array", "items": {"type": "string"}})
    (tool,) = plan_operation(doc, only_path(doc), "post", style="flat", profile="legacy")
    expected = {
        "type": "object",
        "properties": {
            "storeId": {"type": "string"},
            "limit": {"type": "integer"},
            "body": {"type": "array", "items": {"type": "string"}},
            "X-Tenant": {"type": "string"},
        },
        "required": ["storeId", "body", "X-Tenant"],
        "additionalProperties": False,
    }
    doc2 = copy.deepcopy(doc)
    doc2["paths"][PATH]["post"]["parameters"][2]["name"] = "X-Tenant"
    (tool2,) = plan_operation(doc2, PATH, "post", style="flat", profile="legacy")
    assert tool2.input_schema == expected
    assert tool.body == "wrapped"
    assert any(
        d.level == "debug" and d.message.startswith("MCP tool request body left nested")
        for d in tool.diagnostics
    )


def test_document_planning_collects_every_error() -> None:
    """S9.4: planning a document returns the tools that planned beside every error."""
    doc = make_document(STORE_BODY)
    doc["paths"]["/a"] = {
        "post": {
            "operationId": "arr",
            "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
        }
    }
    doc["paths"]["/b/{id}"] = {
        "post": {
            "operationId": "col",
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {}}],
            "requestBody": {
                "content": {
                    "application/json": {"schema": {"type": "object", "properties": {"id": {}}}}
                }
            },
        }
    }
    doc["paths"]["/c"] = {"get": {"operationId": "bad", "parameters": [{"in": "query"}]}}
    result = plan_document(doc, style="flat")
    assert [t.name for t in result.tools] == ["searchProducts"]
    assert [(e.tool, e.kind) for e in result.errors] == [
        ("arr", "unflattenable"),
        ("col", "collision"),
        ("bad", "parameter"),
    ]
    for error in result.errors:
        assert error.message.endswith(f"({error.location})")
        assert str(error.location).startswith("openapi.json#/paths/")


# -- S15 -----------------------------------------------------------------------------------


def test_plan_round_trips_through_plain_data(store: dict[str, Any]) -> None:
    """S15.1: a plan converts to JSON data and back to an equal plan."""
    (tool,) = plan_operation(store, PATH, "post", style="flat")
    data = json.loads(json.dumps(tool.to_dict()))
    loaded = Plan.from_dict(data)
    assert loaded == tool
    assert hash(loaded) == hash(tool)
    assert loaded.input_schema == tool.input_schema
    assert pickle.loads(pickle.dumps(tool)) == tool


def test_plans_compare_by_value(store: dict[str, Any]) -> None:
    """S15.2: plans compare and hash by value; different plans differ."""
    (a,) = plan_operation(store, PATH, "post", style="flat")
    (b,) = plan_operation(copy.deepcopy(store), PATH, "post", style="flat")
    (c,) = plan_operation(store, PATH, "post", style="nested")
    assert a == b
    assert hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2


@pytest.mark.parametrize("data", [{}, {"format": "other/9"}, {"format": "toolshape.plan/1"}, []])
def test_from_dict_refuses_what_is_not_a_plan(data: Any) -> None:
    """S15.1: loading anything else is a PlanError naming the problem."""
    with pytest.raises(PlanError, match="not a toolshape plan"):
        Plan.from_dict(data)


def test_planning_is_deterministic(store: dict[str, Any]) -> None:
    """S14.1: the same input gives byte-identical plans."""
    first = plan_document(store, style="flat")
    second = plan_document(copy.deepcopy(store), style="flat")
    assert [json.dumps(t.to_dict()) for t in first.tools] == [
        json.dumps(t.to_dict()) for t in second.tools
    ]


def test_planning_does_not_mutate_the_document(store: dict[str, Any]) -> None:
    """STYLE: never mutate an input."""
    snapshot = json.dumps(store)
    plan_document(store, style="flat")
    assert json.dumps(store) == snapshot


def test_locations_are_source_and_escaped_pointer() -> None:
    """S9.3: an operation's error ends with `(<source>#<pointer>)`, `/` escaped as `~1`, `~` as
    `~0`; the configuration messages of S2.3 and S2.4 carry no location."""
    doc = make_document({"type": "array"})
    doc["paths"] = {
        "/a~b/{id}": {
            "post": {
                "operationId": "x",
                "parameters": [{"name": "id", "in": "path", "required": True}],
                "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
            }
        }
    }
    (error,) = plan_document(doc, style="flat", source="cfg/routes.json").errors
    assert error.message.endswith("(cfg/routes.json#/paths/~1a~0b~1{id}/post)")
    doc["paths"]["/a~b/{id}"]["post"]["x-zuplo-mcp-tool"] = {"toolInputStyle": "FLAT"}
    (config,) = plan_document(doc, style="flat", source="cfg/routes.json").errors
    assert config.location is None
    assert "#/" not in config.message
