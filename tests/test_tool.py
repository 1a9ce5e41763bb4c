"""S16.1-S16.3, S16.5, S16.6: the whole MCP tool — text, annotations, output schema, views."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolshape import ArgumentError, Options, Plan, plan_document, plan_operation

#: S16.7: the output schema as S16.3 reads it.
EXACT = Options.preset(output_schemas="exact")


def doc(
    operation: dict[str, Any] | None = None,
    *,
    method: str = "get",
    path: str = "/things",
    openapi: str = "3.1.0",
    components: dict[str, Any] | None = None,
) -> dict[str, Any]:
    op = {"operationId": "op", **(operation or {})}
    document: dict[str, Any] = {"openapi": openapi, "info": {"title": "t", "version": "1"}}
    document["paths"] = {path: {method: op}}
    if components:
        document["components"] = components
    return document


def one(document: dict[str, Any], **kw: Any) -> Plan:
    (path,) = document["paths"]
    (method,) = document["paths"][path]
    (plan,) = plan_operation(document, path, method, **kw)
    return plan


def json_response(
    schema: Any, status: str = "200", media: str = "application/json"
) -> dict[str, Any]:
    return {"responses": {status: {"description": "d", "content": {media: {"schema": schema}}}}}


# -- S16.1 text ------------------------------------------------------------------------------

TEXT_ROWS: list[tuple[str, dict[str, Any], str | None, str]] = [
    (
        "summary and description",
        {"summary": "List things", "description": "All of them."},
        "List things",
        "List things\n\nAll of them.",
    ),
    ("summary alone", {"summary": "List things"}, "List things", "List things"),
    ("description alone", {"description": "All of them."}, None, "All of them."),
    ("neither", {}, None, "GET /things"),
    (
        "description starts with the summary",
        {"summary": "List things", "description": "List things, all of them."},
        "List things",
        "List things, all of them.",
    ),
    ("deprecated", {"summary": "Old", "deprecated": True}, "Old", "Deprecated. Old"),
    ("deprecated, neither", {"deprecated": True}, None, "Deprecated. GET /things"),
]


@pytest.mark.parametrize(
    ("operation", "title", "description"), [r[1:] for r in TEXT_ROWS], ids=[r[0] for r in TEXT_ROWS]
)
def test_title_and_description(
    operation: dict[str, Any], title: str | None, description: str
) -> None:
    """S16.1: title is the summary; description joins summary and description, else names
    method and path; a deprecated operation's starts with `Deprecated. `."""
    plan = one(doc(operation))
    assert (plan.title, plan.description) == (title, description)


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (None, "Search the catalogue for products"),
        (100, "Search the catalogue for products"),
        (20, "Search the…"),
        (22, "Search the catalogue…"),
        (7, "Search…"),
        (4, "Sea…"),
        (1, "…"),
    ],
)
def test_description_limit_cuts_at_a_word(limit: int | None, expected: str) -> None:
    """S16.1: `description_limit` cuts at a word boundary and ends with `…`, within the limit."""
    plan = one(
        doc({"summary": "Search the catalogue for products"}),
        options=Options.preset(description_limit=limit),
    )
    assert plan.description == expected
    assert limit is None or len(plan.description) <= limit


# -- S16.2 annotations -----------------------------------------------------------------------

ANNOTATION_ROWS = [
    ("get", {"readOnlyHint": True, "openWorldHint": True}),
    ("head", {"readOnlyHint": True, "openWorldHint": True}),
    ("options", {"readOnlyHint": True, "openWorldHint": True}),
    (
        "put",
        {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": True,
            "openWorldHint": True,
        },
    ),
    (
        "delete",
        {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": True,
            "openWorldHint": True,
        },
    ),
    (
        "post",
        {
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": False,
            "openWorldHint": True,
        },
    ),
    (
        "patch",
        {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": False,
            "openWorldHint": True,
        },
    ),
]


@pytest.mark.parametrize(("method", "hints"), ANNOTATION_ROWS)
def test_annotations_follow_the_method(method: str, hints: dict[str, bool]) -> None:
    """S16.2: each method's hints, `openWorldHint` on every tool, in the MCP schema's order."""
    plan = one(doc({"summary": "S"}, method=method))
    assert plan.annotations == {"title": "S", **hints}
    assert list(plan.annotations) == ["title", *hints]


def test_extension_then_caller_override_single_hints() -> None:
    """S16.2: `x-mcp-annotations` overrides the method's hints; the caller's mapping overrides
    both, one hint at a time."""
    document = doc(
        {"x-mcp-annotations": {"destructiveHint": False, "openWorldHint": False}}, method="delete"
    )
    plan = one(document, annotations={"op": {"openWorldHint": True, "title": "Remove"}})
    assert plan.annotations == {
        "title": "Remove",
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }


def test_an_override_that_is_not_a_hint_is_left_out_with_a_warning() -> None:
    """S16.2: nothing silently dropped: a wrong hint is a warning diagnostic naming it."""
    plan = one(doc({"x-mcp-annotations": {"readOnlyHint": "yes", "colour": True}}))
    assert plan.annotations == {"readOnlyHint": True, "openWorldHint": True}
    messages = [d.message for d in plan.diagnostics]
    assert any('sets `readOnlyHint` to "yes"' in m for m in messages)  # JSON words
    assert any("sets `colour` to true" in m for m in messages)


# -- S16.3 output schema ---------------------------------------------------------------------

THING = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}


@pytest.mark.parametrize(
    ("responses", "expected", "wrapped"),
    [
        (json_response(THING), THING, False),
        (
            json_response({"properties": {"id": {}}}),
            {"type": "object", "properties": {"id": {}}},
            False,
        ),
        (
            json_response({"type": "array", "items": {"type": "string"}}),
            {
                "type": "object",
                "properties": {"result": {"type": "array", "items": {"type": "string"}}},
                "required": ["result"],
            },
            True,
        ),
        (
            json_response({"type": "string"}, media="application/problem+json"),
            {
                "type": "object",
                "properties": {"result": {"type": "string"}},
                "required": ["result"],
            },
            True,
        ),
        (json_response(THING, status="2XX"), THING, False),
        (json_response(THING, media="application/json; charset=utf-8"), THING, False),
        (json_response(THING, media="text/csv"), None, False),
        ({"responses": {"204": {"description": "no content"}}}, None, False),
        (
            {
                "responses": {
                    "404": {"description": "d", "content": {"application/json": {"schema": THING}}}
                }
            },
            None,
            False,
        ),
    ],
    ids=[
        "object",
        "properties-without-type",
        "array-wrapped",
        "+json-primitive-wrapped",
        "2XX",
        "charset",
        "text-csv",
        "204",
        "only-an-error",
    ],
)
def test_output_schema_from_the_first_json_success(
    responses: dict[str, Any], expected: Any, wrapped: bool
) -> None:
    """S16.3: the first JSON success response's schema; objects as they are, anything else
    wrapped under `result` (and the plan records it); no such response, no output schema.
    (The exact view: S16.3's schema as it reads it, S16.7.)"""
    plan = one(doc(responses), options=EXACT)
    assert plan.output_schema == expected
    assert plan.output_wrapped is wrapped


def test_success_codes_in_ascending_order_then_2xx() -> None:
    """S16.3: 201 before 202 before 2XX, whatever the document's order."""
    responses = {
        "2XX": {
            "description": "d",
            "content": {"application/json": {"schema": {"type": "object", "title": "range"}}},
        },
        "202": {
            "description": "d",
            "content": {"application/json": {"schema": {"type": "object", "title": "202"}}},
        },
        "201": {"description": "d", "content": {"text/plain": {"schema": {"type": "string"}}}},
        "200x": {"description": "not a status"},
    }
    assert one(doc({"responses": responses})).output_schema == {"type": "object", "title": "202"}


def test_output_schemas_are_bundled_converted_and_self_contained() -> None:
    """S16.3: read like input schemas: 3.0 converted, references bundled into root `$defs`."""
    components = {
        "schemas": {
            "Thing": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "nullable": True},
                    "next": {"$ref": "#/components/schemas/Thing"},
                },
            }
        }
    }
    plan = one(
        doc(
            json_response({"$ref": "#/components/schemas/Thing"}),
            openapi="3.0.3",
            components=components,
        )
    )
    schema = plan.output_schema
    assert schema is not None
    assert schema["properties"]["n"] == {"type": ["integer", "null"]}
    assert schema["properties"]["next"] == {"$ref": "#/$defs/Thing"}
    assert "Thing" in schema["$defs"]
    Draft202012Validator.check_schema(schema)
    assert Draft202012Validator(schema).is_valid({"n": None, "next": {"n": 1}})


def test_output_schemas_can_be_turned_off() -> None:
    """S16.4: `output_schemas=False` gives no tool an output schema."""
    plan = one(doc(json_response(THING)), options=Options.preset(output_schemas=False))
    assert plan.output_schema is None
    assert "outputSchema" not in plan.to_mcp_tool()


def test_an_unreadable_response_schema_leaves_the_tool_without_one() -> None:
    """S16.3: a response schema that can't be read costs the output schema, with a warning,
    not the tool."""
    plan = one(doc(json_response({"$ref": "#/components/schemas/Missing"})))
    assert plan.output_schema is None
    (note,) = plan.diagnostics
    assert note.level == "warning"
    assert "MCP tool output schema left out" in note.message
    assert "`#/components/schemas/Missing` points to nothing" in note.message


# -- S16.5 the MCP Tool ----------------------------------------------------------------------


def test_to_mcp_tool_has_the_spec_key_order() -> None:
    """S16.5: name, title, description, inputSchema, outputSchema, annotations."""
    plan = one(doc({"summary": "List", **json_response(THING)}))
    tool = plan.to_mcp_tool()
    assert list(tool) == [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ]
    assert json.loads(json.dumps(tool)) == tool
    bare = one(doc()).to_mcp_tool()
    assert list(bare) == ["name", "description", "inputSchema", "annotations"]


def test_tool_data_round_trips_through_plan_data() -> None:
    """S15, S16: title, description, annotations and the output schema are plan data."""
    plan = one(doc({"summary": "List", "deprecated": True, **json_response({"type": "array"})}))
    loaded = Plan.from_dict(json.loads(json.dumps(plan.to_dict())))
    assert loaded == plan
    assert loaded.to_mcp_tool() == plan.to_mcp_tool()
    assert loaded.output_wrapped


# -- S16.6 views -----------------------------------------------------------------------------

ITEM = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "readOnly": True},
        "name": {"type": "string"},
        "secret": {"type": "string", "writeOnly": True},
        "owner": {"$ref": "#/components/schemas/Owner"},
    },
    "required": ["id", "name", "secret"],
    "additionalProperties": False,
}
OWNER = {
    "type": "object",
    "properties": {"uid": {"$ref": "#/components/schemas/Uid"}, "email": {"type": "string"}},
    "required": ["uid"],
}
UID = {"type": "string", "readOnly": True}


def view_doc() -> dict[str, Any]:
    body = {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}},
        }
    }
    return doc(
        {**body, **json_response({"$ref": "#/components/schemas/Item"}, status="201")},
        method="post",
        components={"schemas": {"Item": ITEM, "Owner": OWNER, "Uid": UID}},
    )


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_read_only_leaves_request_schemas_at_every_depth(style: str) -> None:
    """S16.6: `readOnly` properties leave `properties` and `required` of request schemas, also
    through `$ref` into `$defs`; a closed object then rejects them."""
    plan = one(view_doc(), style=style)
    schema = plan.input_schema
    body = schema if style == "flat" else schema["properties"]["body"]
    item = (
        body if "properties" in body and "name" in body["properties"] else schema["$defs"]["Item"]
    )
    assert "id" not in item["properties"]
    assert "id" not in item["required"]
    assert "secret" in item["properties"]
    owner = schema["$defs"]["Owner"]
    assert "uid" not in owner["properties"]
    assert owner.get("required") == []
    call = (
        {"name": "n", "secret": "s"} if style == "flat" else {"body": {"name": "n", "secret": "s"}}
    )
    assert plan.call(call).body == {"name": "n", "secret": "s"}
    bad = (
        {**call, "id": "1"}
        if style == "flat"
        else {"body": {"name": "n", "secret": "s", "id": "1"}}
    )
    with pytest.raises(ArgumentError):
        plan.call(bad)
    (note,) = [d for d in plan.diagnostics if "request view" in d.message]
    assert "`id`, `uid`" in note.message


def test_write_only_leaves_response_schemas() -> None:
    """S16.6: `writeOnly` properties leave the output schema (and `readOnly` ones stay)."""
    schema = one(view_doc(), style="flat", options=EXACT).output_schema
    assert schema is not None
    item = schema["$defs"]["Item"] if "$defs" in schema and "Item" in schema["$defs"] else schema
    assert "secret" not in item["properties"]
    assert item["required"] == ["id", "name"]
    assert "id" in item["properties"]


@pytest.mark.parametrize(
    ("flag", "in_request", "in_response"),
    [("readOnly", False, True), ("writeOnly", True, False), (None, True, True)],
)
def test_each_flag_alone_changes_only_its_own_view(
    flag: str | None, in_request: bool, in_response: bool
) -> None:
    """S16.6: a document with only `readOnly` (or only `writeOnly`, or neither) leaves that
    property out of the request (response) schemas only; the other view keeps it as written."""
    marked = {"type": "string", **({flag: True} if flag else {})}
    thing = {
        "type": "object",
        "properties": {"marked": marked, "name": {"type": "string"}},
        "required": ["marked", "name"],
    }
    body = {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}},
        }
    }
    document = doc(
        {**body, **json_response({"$ref": "#/components/schemas/Thing"}, status="200")},
        method="post",
        components={"schemas": {"Thing": thing}},
    )
    plan = one(document, style="flat", options=EXACT)
    assert ("marked" in plan.input_schema["properties"]) is in_request
    assert ("marked" in plan.input_schema.get("required", [])) is in_request
    output = plan.output_schema
    assert output is not None
    shown = output["$defs"]["Thing"] if "Thing" in output.get("$defs", {}) else output
    assert ("marked" in shown["properties"]) is in_response
    assert ("marked" in shown["required"]) is in_response
    assert shown["properties"]["name"] == {"type": "string"}


def test_operations_sharing_components_each_get_their_own_view() -> None:
    """S16.6: in one document, an operation that reaches no `readOnly` property keeps its
    definitions as written, one that does loses them, and one reaching both loses them too;
    planned together or each alone, every tool is the same."""
    plain = {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]}

    def operation(name: str, *refs: str) -> dict[str, Any]:
        properties = {ref.lower(): {"$ref": f"#/components/schemas/{ref}"} for ref in refs}
        body = {"type": "object", "properties": properties}
        return {
            "operationId": name,
            "requestBody": {"content": {"application/json": {"schema": body}}},
            **json_response({"$ref": f"#/components/schemas/{refs[-1]}"}),
        }

    document = doc(components={"schemas": {"Item": ITEM, "Owner": OWNER, "Uid": UID}})
    document["components"]["schemas"]["Plain"] = plain
    document["paths"] = {
        "/a": {"post": operation("plainOnly", "Plain")},
        "/b": {"post": operation("itemOnly", "Item")},
        "/c": {"post": operation("both", "Plain", "Item")},
    }
    together = {tool.name: tool for tool in plan_document(document, style="flat").tools}
    for path, name in (("/a", "plainOnly"), ("/b", "itemOnly"), ("/c", "both")):
        (alone,) = plan_operation(document, path, "post", style="flat")
        assert together[name] == alone, name
    assert together["plainOnly"].input_schema["$defs"]["Plain"] == plain
    for name in ("itemOnly", "both"):
        defs = together[name].input_schema["$defs"]
        assert "id" not in defs["Item"]["properties"], name
        assert "uid" not in defs["Owner"]["properties"], name
        assert defs.get("Plain", plain) == plain, name
        (note,) = [d for d in together[name].diagnostics if "request view" in d.message]
        assert "`id`, `uid`" in note.message
    assert not [d for d in together["plainOnly"].diagnostics if "request view" in d.message]
    output = together["itemOnly"].output_schema
    assert output is not None
    item = output["$defs"]["Item"] if "Item" in output.get("$defs", {}) else output
    assert "secret" not in item["properties"]
    assert "id" in item["properties"]


@pytest.mark.parametrize("openapi", ["3.0.3", "3.1.0"])
def test_read_only_leaves_shared_sub_objects_wherever_they_are(openapi: str) -> None:
    """S16.6, S14.4: one sub-object written in two places (as a YAML anchor gives it) loses its
    `readOnly` property in both, also where it is the only flagged thing in its parent."""
    shared = {
        "type": "object",
        "properties": {"id": {"type": "string", "readOnly": True}, "x": {"type": "string"}},
        "required": ["id", "x"],
    }
    body: dict[str, Any] = {
        "type": "object",
        "properties": {
            "first": shared,
            "second": {"type": "object", "properties": {"inner": shared, "n": {"type": "integer"}}},
            "plain": {"type": "object", "properties": {"y": {"type": "string"}}},
        },
    }
    document = doc(
        {"requestBody": {"content": {"application/json": {"schema": body}}}},
        method="post",
        openapi=openapi,
    )
    schema = one(document, style="flat").input_schema
    for item in (
        schema["properties"]["first"],
        schema["properties"]["second"]["properties"]["inner"],
    ):
        assert list(item["properties"]) == ["x"]
        assert item["required"] == ["x"]
    assert schema["properties"]["plain"] == body["properties"]["plain"]


def test_the_second_check_uses_the_request_view() -> None:
    """S16.6, S6.3: an allOf body whose branch requires a readOnly `id` accepts calls without it."""
    body = {
        "allOf": [
            {"$ref": "#/components/schemas/Base"},
            {"type": "object", "properties": {"note": {"type": "string"}}},
        ]
    }
    base = {
        "type": "object",
        "properties": {"id": {"type": "string", "readOnly": True}, "sku": {"type": "string"}},
        "required": ["id", "sku"],
    }
    document = doc(
        {"requestBody": {"required": True, "content": {"application/json": {"schema": body}}}},
        method="post",
        components={"schemas": {"Base": base}},
    )
    plan = one(document, style="flat")
    assert plan.body_check is not None
    assert plan.call({"sku": "a", "note": "n"}).body == {"sku": "a", "note": "n"}


def test_views_count_in_the_corpus_report_form() -> None:
    """S16.6: what the request view left out is listed once per tool in an info diagnostic."""
    result = plan_document(view_doc(), style="flat")
    infos = [d for d in result.diagnostics if d.level == "info"]
    assert len(infos) == 1
    assert infos[0].message.startswith("MCP tool request view for tool 'op'")


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_a_name_read_only_in_one_allof_branch_leaves_every_branchs_required(style: str) -> None:
    """S16.6 (PagerDuty): `id` is `readOnly` in one branch of an `allOf` and required by a
    sibling branch (a shared definition): it leaves that branch's `required` too, so a call
    without `id` is valid, in either style; the shared definition itself is unchanged."""
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/things": {
                "post": {
                    "operationId": "makeThing",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}
                        },
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "Thing": {
                    "allOf": [
                        {"$ref": "#/components/schemas/Base"},
                        {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string", "readOnly": True},
                                "name": {"type": "string"},
                            },
                        },
                    ]
                },
                "Base": {
                    "type": "object",
                    "properties": {"kind": {"type": "string"}},
                    "required": ["id", "kind"],
                },
            }
        },
    }
    (plan,) = plan_document(document, style=style).tools
    call = {"kind": "k"} if style == "flat" else {"body": {"kind": "k"}}
    assert plan.call(call).body == {"kind": "k"}
    assert "id" not in json.dumps(plan.input_schema["properties"])
    assert plan.input_schema.get("$defs", {}).get("Base", {}).get("required", ["id", "kind"]) == [
        "id",
        "kind",
    ]


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_a_read_only_property_of_a_referenced_allof_branch_leaves_properties_too(
    style: str,
) -> None:
    """S16.6 (a regression): `allOf: [{$ref: Base}, {...}]` where `Base` requires a `readOnly`
    `id`: `id` leaves the request schema's `properties` as well as its `required` (it stayed
    in `properties`, so a flat call could send it)."""
    base = {
        "type": "object",
        "properties": {"id": {"type": "string", "readOnly": True}, "name": {"type": "string"}},
        "required": ["id", "name"],
    }
    body = {
        "allOf": [
            {"$ref": "#/components/schemas/Base"},
            {"type": "object", "properties": {"note": {"type": "string"}}},
        ]
    }
    document = {
        "openapi": "3.1.0",
        "paths": {
            "/things": {
                "post": {
                    "operationId": "makeThing",
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                }
            }
        },
        "components": {"schemas": {"Base": base}},
    }
    (plan,) = plan_document(document, style=style).tools
    assert "id" not in json.dumps(plan.input_schema)
    call = {"name": "n"} if style == "flat" else {"body": {"name": "n"}}
    assert plan.call(call).body == {"name": "n"}
