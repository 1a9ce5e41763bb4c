"""S25.7: fields on request — an optional `fields` argument of dotted paths into the answer,
checked against the output schema, never sent to the API, and the answer kept to them."""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from tests import upstream as up
from toolshape import (
    ArgumentError,
    Options,
    Plan,
    PlanDataError,
    dump_plans,
    load_plans,
    model_tool,
    plan_document,
)
from toolshape.call._response_fields import keep_fields
from toolshape.server import Api, build_server

ON = Options.preset(response_fields=True)
JSON = {"content-type": "application/json"}

ITEM = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
PAGE = {
    "type": "object",
    "properties": {
        "data": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
        "has_more": {"type": "boolean"},
        "owner": {"anyOf": [{"$ref": "#/components/schemas/Item"}, {"type": "null"}]},
        "extra": {"type": "object"},
    },
    "required": ["data", "has_more"],
}


def document(
    answer: Any = None, parameters: tuple[str, ...] = (), body: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One operation `listItems` answering `answer` (a page of items by default), with query
    parameters and JSON body properties of the given names."""
    operation: dict[str, Any] = {
        "operationId": "listItems",
        "parameters": [
            {"name": n, "in": "query", "schema": {"type": "string"}} for n in parameters
        ],
        "responses": {
            "200": {
                "description": "a page",
                "content": {
                    "application/json": {"schema": answer or {"$ref": "#/components/schemas/Page"}}
                },
            }
        },
    }
    if body:
        properties = {n: {"type": "string"} for n in body}
        operation["requestBody"] = {
            "content": {
                "application/json": {"schema": {"type": "object", "properties": properties}}
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Items", "version": "1"},
        "paths": {"/items": {"post": operation}},
        "components": {"schemas": {"Page": PAGE, "Item": ITEM}},
    }


def tool(doc: dict[str, Any], options: Options = ON, style: str = "flat") -> Plan:
    result = plan_document(doc, style=style, options=options)
    assert result.errors == ()
    (plan,) = result.tools
    return plan


# -- which tools take the argument, and under which name ----------------------------------


@pytest.mark.parametrize(
    ("doc", "options", "name"),
    [
        (document(), Options(), None),  # off by default
        (document(), ON, "fields"),
        (document(parameters=("fields",)), ON, "_fields"),
        (document(parameters=("fields",), body=("_fields",)), ON, "__fields"),
        (document({"type": "array", "items": ITEM}), ON, None),  # wrapped under `result`
        (document(), Options.preset(response_fields=True, output_schemas="exact"), None),
        (document(), Options.preset(response_fields=True, output_schemas="off"), None),
    ],
    ids=["off", "on", "fields-taken", "both-taken", "not-an-object", "exact", "no-output"],
)
def test_the_argument_is_offered_to_object_answers_with_a_shape_output_schema(
    doc: dict[str, Any], options: Options, name: str | None
) -> None:
    """S25.7: only tools whose answer is a JSON object with a shape output schema take it,
    named `fields`, or `_fields` when the tool already has a `fields` argument."""
    plan = tool(doc, options)
    assert plan.response_fields == name
    properties = plan.input_schema.get("properties", {})
    if name is None:
        assert properties == {}  # the documents' tools have no argument of their own
        return
    assert properties[name] == {
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "description": (
            "Only these members of the answer, as dotted paths (`data.id`; an array's items are "
            "entered implicitly); leave out for the whole answer. Never sent to the API."
        ),
    }
    assert name not in plan.input_schema.get("required", [])


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_fields_are_never_sent_and_travel_with_the_request(style: str) -> None:
    """S25.7: the argument is taken out of the call before it is judged and routed; the
    request carries the paths (`Request.fields`), its URL and body do not."""
    plan = tool(document(parameters=("q",), body=("name",)), style=style)
    arguments: dict[str, Any] = (
        {"q": "x", "name": "n"}
        if style == "flat"
        else {"queryParams": {"q": "x"}, "body": {"name": "n"}}
    )
    request = plan.call({**arguments, "fields": ["data.id", "has_more"]})
    assert request.url == "/items?q=x"
    assert request.body == {"name": "n"}
    assert request.fields == ("data.id", "has_more")
    assert request.to_dict()["fields"] == ["data.id", "has_more"]
    assert plan.call(arguments).fields is None
    assert "fields" not in plan.call(arguments).to_dict()


def test_an_open_body_does_not_take_fields() -> None:
    """S25.7, S7: a flat tool whose undeclared arguments go into the body sends no `fields`
    there."""
    doc = document(body=("name",))
    doc["paths"]["/items"]["post"]["requestBody"]["content"]["application/json"]["schema"][
        "additionalProperties"
    ] = True
    plan = tool(doc)
    assert plan.undeclared == "body"
    request = plan.call({"name": "n", "other": 1, "fields": ["has_more"]})
    assert request.body == {"name": "n", "other": 1}
    assert request.fields == ("has_more",)


@pytest.mark.parametrize(
    ("given", "issues"),
    [
        (["data", "data.id", "data.name", "has_more"], []),
        (["owner.id"], []),  # through anyOf and $ref
        (["extra.anything.below"], []),  # a level that declares no names takes any
        (
            ["data.idd"],
            ['fields.0: "data.idd" is not in the output schema: "data" has "id", "name"'],
        ),
        (
            ["has_more", "nope"],
            [
                'fields.1: "nope" is not in the output schema: the answer has "data", '
                '"has_more", "owner", "extra"'
            ],
        ),
        (["a..b"], ['fields.0: "a..b" is not a dotted path of names (`data.id`)']),
        ([""], ['fields.0: "" is not a dotted path of names (`data.id`)']),
        ("data", ["fields: must be an array of dotted paths (strings)"]),
        ([1], ["fields: must be an array of dotted paths (strings)"]),
    ],
)
def test_paths_are_checked_against_the_output_schema(given: Any, issues: list[str]) -> None:
    """S25.7: a path the output schema does not have is an argument error listing the names
    it has at that level."""
    plan = tool(document())
    if not issues:
        assert plan.call({"fields": given}).fields == tuple(given)
        return
    with pytest.raises(ArgumentError) as raised:
        plan.call({"fields": given})
    assert [issue.render() for issue in raised.value.errors] == issues


def test_a_bad_path_is_reported_beside_the_other_arguments_problems() -> None:
    """S13.4, S25.7: every problem of the call at once."""
    plan = tool(document(parameters=("q",)))
    with pytest.raises(ArgumentError) as raised:
        plan.call({"q": 1, "fields": ["nope"]})
    assert [issue.path for issue in raised.value.errors] == ["q", "fields.0"]


def test_a_long_list_of_bad_paths_is_counted_not_listed() -> None:
    """S25.7, S14.4: at most ten bad paths are each an issue; the others are counted."""
    plan = tool(document())
    with pytest.raises(ArgumentError) as raised:
        plan.call({"fields": ["has_more", *(f"nope{i}" for i in range(20_000))]})
    issues = raised.value.errors
    assert [issue.path for issue in issues] == [*(f"fields.{i}" for i in range(1, 11)), "fields"]
    assert issues[-1].message == "19990 more paths are not in the output schema either"
    assert len(raised.value.message) < 5_000


def test_a_long_list_of_names_is_cut() -> None:
    """S25.7: the error lists at most 40 names, then how many more."""
    answer = {"type": "object", "properties": {f"m{i}": {"type": "string"} for i in range(45)}}
    plan = tool(document(answer))
    with pytest.raises(ArgumentError) as raised:
        plan.call({"fields": ["x"]})
    (issue,) = raised.value.errors
    assert issue.message.endswith('"m38", "m39" and 5 more')


# -- the answer kept --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "paths", "kept"),
    [
        ({"a": 1, "b": 2}, ("a",), {"a": 1}),
        (
            {"data": [{"id": 1, "x": 2}, {"id": 3}], "more": True},
            ("data.id",),
            {"data": [{"id": 1}, {"id": 3}]},
        ),
        ({"data": [[{"id": 1, "x": 2}]]}, ("data.id",), {"data": [[{"id": 1}]]}),
        ({"a": {"b": 1, "c": 2}}, ("a.b", "a"), {"a": {"b": 1, "c": 2}}),  # the whole wins
        ({"a": {"b": 1, "c": 2}}, ("a", "a.b"), {"a": {"b": 1, "c": 2}}),
        ({"a": "text"}, ("a.b",), {"a": "text"}),  # what is there is kept as it is
        ({"a": 1}, ("z",), {}),
        ({"b": 1, "a": 2}, ("a", "b"), {"b": 1, "a": 2}),  # the answer's order
    ],
)
def test_the_answer_keeps_the_members_on_the_paths(
    value: Any, paths: tuple[str, ...], kept: Any
) -> None:
    """S25.7: only the members on the paths and their parents; arrays entered."""
    assert keep_fields(value, paths) == kept


def test_keeping_fields_takes_any_depth() -> None:
    """S14.4: an answer nested deeper than Python recurses is kept without recursion."""
    deep: Any = {"id": 1, "x": 2}
    for _ in range(5000):
        deep = [deep]
    kept = keep_fields({"data": deep}, ("data.id",))
    for _ in range(5001):
        assert isinstance(kept, (dict, list))
        kept = kept["data"] if isinstance(kept, dict) else kept[0]
    assert kept == {"id": 1}


def test_a_structured_answer_is_kept_in_its_structure_and_its_text() -> None:
    """S25.7: `structuredContent` and the text hold only what was asked for; an error answer
    is shown whole."""
    plan = tool(document())
    page = {"data": [{"id": "a", "name": "x"}], "has_more": True, "owner": None}
    result = plan.result(200, JSON, json.dumps(page), fields=("data.id",))
    assert result == {
        "content": [{"type": "text", "text": '{"data":[{"id":"a"}]}'}],
        "structuredContent": {"data": [{"id": "a"}]},
        "isError": False,
    }
    failed = plan.result(404, JSON, '{"error": "gone"}', fields=("data.id",))
    assert failed == {
        "content": [{"type": "text", "text": 'HTTP 404: {"error": "gone"}'}],
        "isError": True,
    }


@pytest.mark.parametrize("api", ["openai", "gemini", "inline"])
def test_every_model_view_carries_the_argument(api: str) -> None:
    """S22.1, S25.7: each view advertises the argument, and reads it back into the plan's."""
    plan = tool(document(parameters=("q",)))
    view = model_tool(plan, api)
    assert "fields" in view.parameters["properties"]
    arguments: dict[str, Any] = {"q": "x", "fields": ["data.id"]}
    if view.strict:
        assert view.call({"q": "x", "fields": None}).fields is None
    assert view.call(arguments).fields == ("data.id",)


# -- plan data and plans files --------------------------------------------------------------


def test_plan_data_and_plans_files_keep_the_argument() -> None:
    """S15.1, S25.7: plan data and plans files carry `responseFields`; a loaded plan takes
    and checks `fields` as the planned one does."""
    result = plan_document(document(parameters=("fields",)), style="flat", options=ON)
    (plan,) = result.tools
    data = plan.to_dict()
    assert data["format"] == "toolshape.plan/4"
    assert data["responseFields"] == "_fields"
    assert Plan.from_dict(data) == plan
    (loaded,) = load_plans(json.dumps(dump_plans(result))).tools
    assert loaded.response_fields == "_fields"
    assert loaded.call({"fields": "x", "_fields": ["has_more"]}).fields == ("has_more",)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {"responseFields": "fields", "outputView": "exact"},
            "is 'fields', but the tool has no shape output schema of an object",
        ),
        ({"responseFields": "other"}, "is 'other', which the input schema has no property for"),
        ({"responseFields": "q"}, "is 'q', which is also an argument sent to the API"),
    ],
)
def test_plan_data_with_a_field_argument_it_cant_serve_is_refused(
    change: dict[str, Any], reason: str
) -> None:
    """S15.1, S25.7: loaded plan data whose `responseFields` would take an argument meant for
    the API, or has no output schema to check paths against, is refused naming the field."""
    data = tool(document(parameters=("q",))).to_dict()
    data.update(change)
    with pytest.raises(PlanDataError) as raised:
        Plan.from_dict(data)
    assert raised.value.field == "responseFields"
    assert str(raised.value) == f"not a toolshape plan: `responseFields` {reason}"


# -- served, through the MCP SDK's client and the test upstream's app, in memory -------------


def test_a_served_call_gets_the_fields_it_asks_for() -> None:
    """S25.7, S25.8: through the `mcp` SDK's client (which checks `structuredContent` against
    the output schema): the answer kept to `fields`, the upstream never sees them; a large
    answer kept to a few fields fits without a cut; a bad path is an `isError` without
    structured content."""
    upstream = up.in_memory()
    doc = up.items_document(upstream.base_url)
    (plan,) = plan_document(doc, style="flat", options=ON).tools
    api = Api((plan,), base_url=upstream.base_url)

    async def work() -> tuple[list[types.Tool], list[types.CallToolResult]]:
        async with (
            up.client(upstream) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            listed = await client.list_tools()
            return listed.tools, [
                await client.call_tool("listItems", {"count": 2, "fields": ["data.id"]}),
                await client.call_tool("listItems", {"count": 150_000, "fields": ["total"]}),
                await client.call_tool("listItems", {"count": 2, "fields": ["data.idd"]}),
            ]

    before = len(upstream.seen)
    (listed,), (kept, large, bad) = anyio.run(work)
    assert listed.input_schema["properties"]["fields"]["type"] == "array"
    assert kept.is_error is False
    assert kept.structured_content == {"data": [{"id": 0}, {"id": 1}]}
    assert large.is_error is False
    assert large.structured_content == {"total": 150_000}
    assert large.meta is None
    assert bad.is_error is True
    assert bad.structured_content is None
    content = bad.content[0]
    assert isinstance(content, types.TextContent)
    assert content.text == (
        "Invalid arguments for tool 'listItems': fields.0: \"data.idd\" is not in the output "
        'schema: "data" has "id", "name"'
    )
    assert [seen.query for seen in upstream.since(before)] == ["count=2", "count=150000"]
