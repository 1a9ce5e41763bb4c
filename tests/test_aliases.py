"""S19: aliases (portable names, collisions renamed) and S21: a tool for every operation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toolshape import ArgumentError, Options, Plan, Request, plan_document, plan_operation
from toolshape.flatten._aliases import collision_renames, portable, portable_aliases
from toolshape.planner._tool_names import tool_name

KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
TOOL = re.compile(r"[A-Za-z0-9_-]{1,64}")
PORTABLE = Options.preset(portable_names=True)
RENAME = Options.preset(on_collision="rename")
BOTH = Options.preset(portable_names=True, on_collision="rename")


def document(
    parameters: list[dict[str, Any]],
    body: dict[str, Any] | None = None,
    *,
    path: str | None = None,
    operation_id: str = "op",
    required: bool = False,
) -> dict[str, Any]:
    operation: dict[str, Any] = {"operationId": operation_id, "parameters": parameters}
    if body is not None:
        media = {"application/json": {"schema": body}}
        operation["requestBody"] = {"required": required, "content": media}
    template = path or "/t" + "".join(f"/{{{p['name']}}}" for p in parameters if p["in"] == "path")
    return {"openapi": "3.1.0", "paths": {template: {"post": operation}}}


def param(name: str, where: str = "query", schema: Any = None, **more: Any) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "schema": schema or {"type": "string"},
        **more,
    }


def tool(doc: dict[str, Any], style: str = "flat", options: Options = BOTH) -> Plan:
    path = next(iter(doc["paths"]))
    (plan,) = plan_operation(doc, path, "post", style=style, options=options)
    return plan


def rejected(plan: Plan, arguments: Any) -> ArgumentError:
    with pytest.raises(ArgumentError) as caught:
        plan.call(arguments)
    return caught.value


# -- S19.2 the alias rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "alias"),
    [
        ("include[]", "include"),  # PagerDuty
        ("StartTime<", "StartTime"),  # Twilio
        ("project_ids[]", "project_ids"),  # OpenAI
        ("$top", "top"),  # OData
        ("a b  c", "a_b_c"),  # each run becomes one `_`
        ("__x__[]", "x"),  # leading and trailing `_` trimmed
        ("[]", "arg"),  # nothing left
        ("ü", "arg"),
        ("x" * 70 + "[]", "x" * 64),  # cut to 64
        ("a.b-c_d", "a.b-c_d"),  # `.` and `-` are kept in argument names
    ],
)
def test_an_argument_name_made_portable(name: str, alias: str) -> None:
    """S19.2: runs of other characters become `_`, trimmed, cut to 64; empty is `arg`."""
    assert portable(name) == alias
    assert KEY.fullmatch(alias)


def test_clashes_take_suffixes_in_declaration_order() -> None:
    """S19.2: a clash with another argument or an earlier alias appends `_2`, `_3`, … (cut to
    fit 64); names that are already portable keep theirs."""
    names: list[tuple[Any, str]] = [
        ("query", "include[]"),
        ("query", "include"),
        ("query", "include<>"),
        ("header", "[]"),
        ("cookie", "$"),
        ("body", "y" * 64 + "!"),
        ("body", "y" * 64 + "?"),
    ]
    assert portable_aliases(names) == {
        ("query", "include[]"): "include_2",
        ("query", "include<>"): "include_3",
        ("header", "[]"): "arg",
        ("cookie", "$"): "arg_2",
        ("body", "y" * 64 + "!"): "y" * 64,
        ("body", "y" * 64 + "?"): "y" * 62 + "_2",
    }


@pytest.mark.parametrize(
    ("base", "content_type", "name"),
    [
        ("files.upload", None, "files_upload"),  # `.` is not in a portable tool name
        ("get /users/{id}", None, "get_users_id"),
        ("x" * 80, None, "x" * 64),
        ("x" * 80, "application/json", "x" * 47 + "_application_json"),  # never cut the suffix
        ("???", None, "arg"),
    ],
)
def test_a_tool_name_made_portable(base: str, content_type: str | None, name: str) -> None:
    """S19.2, S8.1: `^[A-Za-z0-9_-]{1,64}$`, cut from the base, never from the suffix."""
    assert tool_name(base, content_type, portable=True) == name
    assert TOOL.fullmatch(name)


def test_portable_tool_names_that_clash_take_suffixes_in_document_order() -> None:
    """S19.2: tool names clash only after the rewrite: `_2` for the second (no S8.1 error)."""
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "paths": {
            "/a": {"get": {"operationId": "list.items"}},
            "/b": {"get": {"operationId": "list_items"}},
            "/c": {"get": {"operationId": "list:items"}},
        },
    }
    result = plan_document(doc, options=PORTABLE)
    assert [t.name for t in result.tools] == ["list_items", "list_items_2", "list_items_3"]
    assert result.errors == ()
    default = plan_document(doc)
    assert [t.name for t in default.tools] == ["list.items", "list_items"]  # S8.1 as before
    assert [e.kind for e in default.errors] == ["name"]


def test_aliases_route_back_to_the_wire_names() -> None:
    """S19.1: the plan routes each alias to its channel and wire name; the request carries the
    wire names (`include[]`, `$top`, a body's `StartTime<`)."""
    doc = document(
        [param("include[]", schema={"type": "array", "items": {"type": "string"}}), param("$top")],
        {"type": "object", "properties": {"StartTime<": {"type": "string"}, "ok": {}}},
    )
    plan = tool(doc, options=PORTABLE)
    assert list(plan.input_schema["properties"]) == ["include", "top", "StartTime", "ok"]
    request = plan.call({"include": ["a", "b"], "top": "5", "StartTime": "t", "ok": 1})
    assert request.query == (("include[]", "a"), ("include[]", "b"), ("$top", "5"))
    assert request.body == {"StartTime<": "t", "ok": 1}
    assert plan.body_aliases == {"StartTime": "StartTime<"}
    assert [(r.argument, r.alias) for r in plan.parameters] == [
        ("include[]", "include"),
        ("$top", "top"),
    ]


def test_error_paths_use_the_aliases() -> None:
    """S19.1: an argument error names the advertised argument."""
    doc = document([param("$top", schema={"type": "integer"})])
    error = rejected(tool(doc, options=PORTABLE), {"top": "five"})
    assert [issue.path for issue in error.errors] == ["top"]


def test_the_wire_name_of_an_aliased_argument_is_told_the_alias() -> None:
    """S19.1, S7: `include[]` sent to a tool that advertises `include` is an argument error
    naming the alias — even where an open body would have taken it as a body field."""
    doc = document([param("include[]")], {"type": "object", "properties": {"a": {}}})
    plan = tool(doc, options=PORTABLE)
    assert "additionalProperties" not in plan.input_schema  # the body is open
    error = rejected(plan, {"include[]": "x"})
    assert [(e.path, e.message) for e in error.errors] == [("include[]", "is `include` here")]


def test_a_flat_tools_nested_reading_keeps_the_wire_names() -> None:
    """S19.1: the nested form a flat tool also reads uses the (S4.5) argument names."""
    doc = document([param("include[]"), param("X-Key*", "header")])
    plan = tool(doc, options=PORTABLE)
    nested = {"queryParams": {"include[]": "a"}, "headers": {"x-key*": "k"}}
    assert plan.call(nested) == plan.call({"include": "a", "x-key": "k"})


def test_a_nested_tool_aliases_its_channel_members() -> None:
    """S19.2: in nested tools the members of each parameter channel get the same aliases;
    body members are left as they are, with a warning naming them."""
    body = {"type": "object", "properties": {"a[]": {"type": "object", "properties": {"b c": {}}}}}
    doc = document([param("include[]"), param("$top", "header")], body)
    plan = tool(doc, "nested", options=PORTABLE)
    channels = plan.input_schema["properties"]
    assert list(channels["queryParams"]["properties"]) == ["include"]
    assert list(channels["headers"]["properties"]) == ["top"]
    assert list(channels["body"]["properties"]) == ["a[]"]
    request = plan.call(
        {"queryParams": {"include": "i"}, "body": {"a[]": {}}, "headers": {"top": "1"}}
    )
    assert request.query == (("include[]", "i"),)
    assert dict(request.headers)["$top"] == "1"
    warnings = [d.message for d in plan.diagnostics if d.level == "warning"]
    assert any("`a[]`, `b c`" in m and "S19.2" in m for m in warnings)


def test_names_deeper_in_a_flat_body_are_listed_not_rewritten() -> None:
    """S19.2: a warning lists the names inside body objects (through references too)."""
    doc = document(
        [],
        {
            "type": "object",
            "properties": {"meta": {"$ref": "#/components/schemas/Meta"}, "x y": {}},
        },
    )
    doc["components"] = {"schemas": {"Meta": {"type": "object", "properties": {"@time": {}}}}}
    plan = tool(doc, options=PORTABLE)
    assert list(plan.input_schema["properties"]) == ["meta", "x_y"]
    (warning,) = [d for d in plan.diagnostics if d.level == "warning"]
    assert "`@time`" in warning.message
    assert "`x y`" not in warning.message  # that one has an alias


def test_aliases_survive_plan_data() -> None:
    """S19.4: aliases round-trip through plan data and route the same."""
    doc = document(
        [param("include[]"), param("id", "path"), param("id")],
        {"type": "object", "properties": {"$b": {}}},
    )
    plan = tool(doc)
    again = Plan.from_dict(plan.to_dict())
    assert again == plan
    call = {"include": "x", "id__path": "1", "id__query": "2", "b": 3}
    assert again.call(call) == plan.call(call)


def test_caller_mappings_use_the_documents_names() -> None:
    """S19.2: `names`, `styles` and `fixed` key by operationId and wire names, never aliases."""
    doc = document([param("$top"), param("api-version[]")], operation_id="get.items")
    (plan,) = plan_document(
        doc,
        options=PORTABLE,
        style="flat",
        names={"get.items": "fetch.items"},
        fixed={"api-version[]": "1"},
    ).tools
    assert plan.name == "fetch_items"
    assert list(plan.input_schema["properties"]) == ["top"]
    assert plan.call({"top": "2"}).query == (("$top", "2"), ("api-version[]", "1"))


# -- S19.3 collisions renamed -----------------------------------------------------------------

OBJECT = {"type": "object", "properties": {"id": {"type": "string"}, "n": {}}}


@pytest.mark.parametrize(
    ("parameters", "body", "advertised", "call", "expected"),
    [
        (  # query/body: the parameter is renamed, the body property keeps its name
            [param("id")], OBJECT, ["id__query", "id", "n"],
            {"id__query": "q", "id": "b"}, ("/t", (("id", "q"),), {"id": "b"}),
        ),
        (  # path/query: both parameters renamed
            [param("path", "path"), param("path")], None, ["path__path", "path__query"],
            {"path__path": "p", "path__query": "q"}, ("/t/p", (("path", "q"),), None),
        ),
        (  # path/body
            [param("id", "path")], OBJECT, ["id__path", "id", "n"],
            {"id__path": "p", "id": "b"}, ("/t/p", (), {"id": "b"}),
        ),
        (  # header/query, header names after S4.5
            [param("X-Tenant", "header"), param("x-tenant")], None, ["x-tenant__query", "x-tenant__header"],
            {"x-tenant__header": "h", "x-tenant__query": "q"}, ("/t", (("x-tenant", "q"),), None),
        ),
        (  # header/body
            [param("n", "header")], OBJECT, ["id", "n", "n__header"],
            {"n": 1, "n__header": "h"}, ("/t", (), {"n": 1}),
        ),
        (  # a parameter named `body` beside a body that stays wrapped
            [param("body")], {"type": "array"}, ["body__query", "body"],
            {"body__query": "q", "body": [1]}, ("/t", (("body", "q"),), [1]),
        ),
        (  # a merged allOf property beside a parameter
            [param("id")], {"allOf": [OBJECT, {"type": "object", "properties": {"m": {}}}]},
            ["id__query", "id", "n", "m"],
            {"id__query": "q", "id": "b", "m": 2}, ("/t", (("id", "q"),), {"id": "b", "m": 2}),
        ),
    ],
    ids=["query/body", "path/query", "path/body", "header/query", "header/body", "wrapped body", "allOf"],
)  # fmt: skip
def test_every_colliding_parameter_is_renamed(
    parameters: list[dict[str, Any]],
    body: dict[str, Any] | None,
    advertised: list[str],
    call: dict[str, Any],
    expected: tuple[str, tuple[tuple[str, str], ...], Any],
) -> None:
    """S19.3: every S9.1 pair: each colliding parameter as `<name>__<in>`, a body property
    keeping its name; renamed arguments route back to their parameters; an info diagnostic
    lists each rename. Under the default, the same operation is the S9.1 error."""
    doc = document(parameters, body)
    options = Options.preset(on_collision="rename", on_unflattenable="wrap")
    plan = tool(doc, options=options)
    assert plan.style == "flat"
    assert list(plan.input_schema["properties"]) == advertised
    request = plan.call(call)
    headers = dict(request.headers)
    assert (request.path, request.query) == expected[:2]
    if expected[2] is not None:
        assert request.body == expected[2]
    if "x-tenant__header" in call:
        assert headers["x-tenant"] == "h"
    if "n__header" in call:
        assert headers["n"] == "h"
    renames = [d.message for d in plan.diagnostics if "renamed" in d.message]
    assert len(renames) == 1
    for name in advertised:
        if "__" in name:
            assert f"as `{name}`" in renames[0]
    failed = plan_document(doc, style="flat", options=Options.preset(on_unflattenable="wrap"))
    assert [e.kind for e in failed.errors] == ["collision"]


def test_collision_renames_name_every_colliding_parameter() -> None:
    """S19.3 as a function of the names per channel."""
    channels: list[tuple[Any, list[str]]] = [
        ("path", ["id", "a"]),
        ("query", ["id", "b"]),
        ("body", ["id", "b"]),
        ("header", ["b"]),
    ]
    assert collision_renames(channels) == {
        ("path", "id"): "id__path",
        ("query", "id"): "id__query",
        ("query", "b"): "b__query",
        ("header", "b"): "b__header",
    }


# -- S21.1 a tool for every operation ---------------------------------------------------------


def test_a_body_that_cant_flatten_is_planned_nested_with_the_s92_message() -> None:
    """S21.1: `on_unflattenable="nested"`: the tool is nested, the S9.2 message a warning."""
    doc = document([param("q")], {"type": "array", "items": {}})
    error = plan_document(doc, style="flat").errors[0]
    plan = tool(doc, options=Options.preset(on_unflattenable="nested"))
    assert plan.style == "nested"
    assert plan.body == "wrapped"
    warnings = [d for d in plan.diagnostics if d.level == "warning"]
    assert [w.message for w in warnings] == [error.message]
    assert plan.call({"queryParams": {"q": "x"}, "body": [1]}).body == [1]


# -- the laws, with aliases -------------------------------------------------------------------

ODD = ["include[]", "$top", "id", "StartTime<", "x.y", "body", "a b", "[]"]
VALUES = st.one_of(st.text(alphabet="ab&=[]", max_size=3), st.integers(-2, 2), st.none())


@st.composite
def aliased_operations(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """Operations whose names need aliases, the same name in several channels included."""
    params: list[dict[str, Any]] = []
    properties: list[str] = []
    for name in draw(st.lists(st.sampled_from(ODD), min_size=1, max_size=6)):
        where = draw(st.sampled_from(["path", "query", "header", "cookie", "body"]))
        if where == "body":
            # A body property `body` makes `{"body": {...}}` two calls at once (S13.1): not here.
            if name not in properties and name != "body":
                properties.append(name)
        elif not any(p["name"] == name and p["in"] == where for p in params):
            if where == "header" and not re.fullmatch(r"[A-Za-z0-9_.$-]+", name):
                continue  # a header name must be an HTTP token (S12.2)
            if where == "cookie" and not re.fullmatch(r"[A-Za-z0-9_.$-]+", name):
                continue
            params.append(param(name, where, required=where == "path" or draw(st.booleans())))
    path = "/t" + "".join(f"/{{{p['name']}}}" for p in params if p["in"] == "path")
    body = {"type": "object", "properties": {n: {} for n in properties}}
    return document(params, body, path=path, required=True), params, properties


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aliased_operations(), st.data())
def test_flat_and_nested_agree_with_aliases(
    case: tuple[dict[str, Any], list[dict[str, Any]], list[str]], data: st.DataObject
) -> None:
    """S14 with `portable_names` and `on_collision="rename"`: every advertised name is
    portable; a flat call, its nested twin (wire names) and the nested tool's call (channel
    aliases) give one request, every value exactly once at its wire name, or are all
    rejected."""
    doc, _, _ = case
    path = next(iter(doc["paths"]))
    try:
        (flat,) = plan_operation(doc, path, "post", style="flat", options=BOTH)
        (nested,) = plan_operation(doc, path, "post", style="nested", options=BOTH)
    except Exception as error:  # a template the generator made unplannable
        event(f"not planned: {type(error).__name__}")
        return
    assert all(KEY.fullmatch(name) for name in flat.input_schema["properties"])
    for channel, schema in nested.input_schema["properties"].items():
        if channel != "body":
            assert all(KEY.fullmatch(name) for name in schema["properties"])
    call: dict[str, Any] = {}
    twin: dict[str, Any] = {"body": {}}
    nested_call: dict[str, Any] = {"body": {}}
    channel_of = {"path": "pathParams", "query": "queryParams", "header": "headers", "cookie": "cookies"}  # fmt: skip
    nested_routes = {(r.channel, r.argument): r.advertised for r in nested.parameters}
    for route in flat.parameters:
        twin.setdefault(channel_of[route.channel], {})
        nested_call.setdefault(channel_of[route.channel], {})
        if route.channel == "path" or data.draw(st.booleans()):
            text = data.draw(st.text(alphabet="ab", min_size=1, max_size=3))
            call[route.advertised] = text
            twin[channel_of[route.channel]][route.argument] = text
            nested_call[channel_of[route.channel]][nested_routes[route.channel, route.argument]] = text  # fmt: skip
    for name in flat.body_properties:
        advertised = next((a for a, w in flat.body_aliases.items() if w == name), name)
        if data.draw(st.booleans()):
            value = data.draw(VALUES)
            call[advertised] = value
            twin["body"][name] = value
            nested_call["body"][name] = value
    outcomes: list[Request | None] = []
    for plan, arguments in ((flat, call), (flat, twin), (nested, nested_call)):
        try:
            outcomes.append(plan.call(arguments))
        except ArgumentError:
            outcomes.append(None)
    event("accepted" if outcomes[0] is not None else "rejected")
    assert outcomes[0] == outcomes[1] == outcomes[2]
    request = outcomes[0]
    if request is None:
        return
    assert isinstance(request, Request)
    for route in flat.parameters:
        if route.advertised in call and route.channel == "query":
            assert [v for k, v in request.query if k == route.name] == [call[route.advertised]]
        if route.advertised in call and route.channel == "header":
            assert dict(request.headers)[route.name.lower()] == call[route.advertised]
    for name in flat.body_properties:
        if name in twin["body"]:
            assert request.body[name] == twin["body"][name]


# -- the corpus ------------------------------------------------------------------------------
