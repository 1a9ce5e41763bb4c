"""S12 (routing), S13 (reading and validating), S7 at call time: Plan.call."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import make_document, only_path
from toolshape import (
    NO_BODY,
    ArgumentError,
    HeaderError,
    Plan,
    Request,
    Router,
    ToolshapeError,
    pick_reading,
    plan_operation,
    route_args,
)

PATH = "/stores/{storeId}/search"
FLAT_CALL = {"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"}
NESTED_CALL = {
    "pathParams": {"storeId": "s1"},
    "queryParams": {"limit": 10},
    "body": {"query": "hoodie"},
    "headers": {"x-tenant": "acme"},
}


def tool(
    doc: dict[str, Any],
    style: str = "flat",
    path: str | None = None,
    method: str = "post",
    **kw: Any,
) -> Plan:
    (only,) = plan_operation(doc, path or only_path(doc), method, style=style, **kw)
    return only


def rejected(plan: Plan, arguments: Any, **kw: Any) -> ArgumentError:
    with pytest.raises(ArgumentError) as caught:
        plan.call(arguments, **kw)
    return caught.value


# -- the worked example --------------------------------------------------------------------


def test_worked_example_flat_and_nested_calls_send_the_same_request(store: dict[str, Any]) -> None:
    """S12, worked example: POST /stores/s1/search?limit=10, x-tenant: acme, {"query": "hoodie"}."""
    flat = tool(store).call(FLAT_CALL)
    nested = tool(store).call(NESTED_CALL)
    from_nested_tool = tool(store, "nested").call(NESTED_CALL)
    assert flat == nested == from_nested_tool
    assert flat == Request(
        method="POST",
        path="/stores/s1/search",
        query=(("limit", "10"),),
        headers=(("x-tenant", "acme"), ("content-type", "application/json")),
        body={"query": "hoodie"},
        content_type="application/json",
        url="/stores/s1/search?limit=10",
        content=b'{"query":"hoodie"}',  # S17.2: UTF-8, compact separators
        sent_type="application/json",
    )


# -- S13.1 reading order -------------------------------------------------------------------

#: The channel names of the worked example's nested form, and its flat properties.
CHANNELS = frozenset({"pathParams", "queryParams", "body", "headers"})
STORE = frozenset({"storeId", "limit", "query", "sort", "x-tenant"})


@pytest.mark.parametrize(
    ("arguments", "readings"),
    [
        (NESTED_CALL, ("nested", "flat")),
        ({"body": {}}, ("nested", "flat")),
        (FLAT_CALL, ("flat",)),
        ({}, ("flat",)),
        ({"storeId": "s1", "body": {"query": "hoodie"}}, ("flat",)),
        ({"cookies": {}}, ("flat",)),
        ([], ("flat",)),
    ],
)
def test_pick_reading(arguments: Any, readings: tuple[str, ...]) -> None:
    """S13.1: only channel names → nested first; anything else (and {}) → flat first."""
    assert (
        pick_reading(arguments, style="flat", channels=CHANNELS, flat_properties=STORE) == readings
    )


def test_nested_tool_reads_nested_only(store: dict[str, Any]) -> None:
    """S13.2: a nested tool reads nested only."""
    plan = tool(store, "nested")
    assert pick_reading(FLAT_CALL, style="nested", channels=CHANNELS, flat_properties=STORE) == (
        "nested",
    )
    error = rejected(plan, FLAT_CALL)
    assert "Additional properties are not allowed" in error.message


def test_half_flat_half_nested_is_read_flat_and_fails(store: dict[str, Any]) -> None:
    """S13.1: never half and half; the reference example fails flat with flat errors."""
    error = rejected(tool(store), {"storeId": "s1", "body": {"query": "hoodie"}})
    paths = [issue.path for issue in error.errors]
    messages = " ".join(issue.message for issue in error.errors)
    assert '"query" is a required property' in messages
    assert '"body" was unexpected' in messages
    assert all(not p.startswith("body.") for p in paths)


def test_both_readings_fail_nested_errors_reported(store: dict[str, Any]) -> None:
    """S13.1: only channel names and both fail → the nested errors are reported."""
    error = rejected(tool(store), {"body": {"query": 5}})
    assert any(issue.path == "body.query" for issue in error.errors)


def test_channel_name_that_is_a_flat_property_reads_flat() -> None:
    """S13.1: with a body property `body`, {"body": {"body": {}}} sends body {"body": {"body": {}}}."""
    doc = make_document({"type": "object", "properties": {"body": {"type": "object"}}}, [])
    plan = tool(doc)
    assert pick_reading(
        {"body": {"body": {}}}, style="flat", channels=CHANNELS, flat_properties={"body"}
    ) == ("flat", "nested")
    assert plan.call({"body": {"body": {}}}).body == {"body": {"body": {}}}


def test_empty_call_of_all_optional_tool_is_accepted() -> None:
    """S4.2, S13.1: a tool whose inputs are all optional accepts {}; optional body not sent."""
    doc = make_document(
        {"type": "object", "properties": {"a": {}}},
        [{"name": "q", "in": "query", "schema": {}}],
        path="/x",
    )
    request = tool(doc, path="/x").call({})
    assert request.body is NO_BODY
    assert request.content_type is None
    assert (request.url, request.headers) == ("/x", ())


# -- S13.3 / S13.4 validation --------------------------------------------------------------


def test_flat_error_path_is_flat(store: dict[str, Any]) -> None:
    """S13.4: a bad `sort` reports `sort`, not `body.sort`."""
    error = rejected(tool(store), {**FLAT_CALL, "sort": "size"})
    assert (
        error.message
        == 'Invalid arguments for tool \'searchProducts\': sort: "size" is not one of ["price", "name"]'
    )
    assert str(error) == error.message
    (issue,) = error.errors
    assert (issue.path, issue.keyword) == ("sort", "enum")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": None}, 'query: null is not of type "string"'),
        ({"query": True}, 'query: true is not of type "string"'),
        ({"query": {"a": [False, None]}}, 'query: {"a": [false, null]} is not of type "string"'),
        ({"query": "q", "sort": None}, 'sort: null is not one of ["price", "name"]'),
        ({"query": "q", "sort": "it's"}, 'sort: "it\'s" is not one of ["price", "name"]'),
        (
            {"query": "q", "sort": 'say "x"\n'},
            'sort: "say \\"x\\"\\n" is not one of ["price", "name"]',
        ),
        ({"query": "q", "sort": "caf\u00e9"}, 'sort: "caf\u00e9" is not one of ["price", "name"]'),
        ({"query": "q", "sort": "\ud800"}, 'sort: "\\ud800" is not one of ["price", "name"]'),
        ({"query": 1}, 'query: 1 is not of type "string"'),
        (
            {"query": "q", "color": 1},
            'Additional properties are not allowed ("color" was unexpected)',
        ),
    ],
)
def test_messages_write_values_as_json(
    store: dict[str, Any], arguments: dict[str, Any], message: str
) -> None:
    """S13.4, S25.9: a message a model reads writes values as JSON does: `null`, `true`,
    `false` and `"text"` (it said `None is not of type 'string'`), a lone surrogate escaped."""
    error = rejected(tool(store), {**FLAT_CALL, **arguments})
    assert error.message == f"Invalid arguments for tool 'searchProducts': {message}"


def test_nested_error_path_is_nested(store: dict[str, Any]) -> None:
    """S13.4: a nested call's error path is `body.sort`."""
    error = rejected(tool(store, "nested"), {**NESTED_CALL, "body": {"query": "q", "sort": 1}})
    assert [issue.path for issue in error.errors] == ["body.sort"]


def test_array_indices_are_in_error_paths() -> None:
    """S13.4: `items.0.name` style paths."""
    body = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string"}}},
            }
        },
    }
    error = rejected(tool(make_document(body, [])), {"items": [{"name": 1}]})
    assert (
        error.message
        == "Invalid arguments for tool 'searchProducts': items.0.name: 1 is not of type \"string\""
    )


def test_root_error_has_no_path_and_several_are_joined(store: dict[str, Any]) -> None:
    """S13.4: a root error leaves out the path and colon; several join with '; '."""
    error = rejected(tool(store), {"storeId": "s1"})
    assert error.message == (
        'Invalid arguments for tool \'searchProducts\': "query" is a required property; "x-tenant" is a required property'
    )


def test_format_is_an_annotation_only() -> None:
    """S13.3: `format` never rejects a call."""
    body = {"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}}
    assert tool(make_document(body, [])).call({"when": "not a date"}).body == {"when": "not a date"}


def test_composed_body_second_check_reports_body_paths() -> None:
    """S6.3: the routed body is judged by the original allOf schema; errors carry body paths."""
    branch = {
        "type": "object",
        "properties": {"card": {"type": "string"}, "zip": {"type": "string"}},
    }
    body = {
        "allOf": [branch, {"type": "object", "properties": {"n": {"type": "integer"}}}],
        "unevaluatedProperties": False,
    }
    plan = tool(make_document(body, []))
    assert plan.call({"card": "4242", "n": 1}).body == {"card": "4242", "n": 1}
    body_with_dependent = {
        "type": "object",
        "properties": {"card": {"type": "string"}, "billingZip": {"type": "string"}},
        "dependentRequired": {"card": ["billingZip"]},
    }
    dependent = tool(
        make_document(
            body_with_dependent,
            [{"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}}],
        )
    )
    assert dependent.call({"storeId": "s1", "card": "4242", "billingZip": "94103"}).body == {
        "card": "4242",
        "billingZip": "94103",
    }
    error = rejected(dependent, {"storeId": "s1", "card": "4242"})
    assert "billingZip" in error.message


def test_second_check_catches_what_the_flat_schema_cannot() -> None:
    """S6.3: the flat tool never accepts a body the document rejects (error path `body`)."""
    components = {
        "schemas": {
            "Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
        }
    }
    body = {
        "allOf": [
            {"$ref": "#/components/schemas/Base"},
            {"type": "object", "properties": {"note": {"type": "string"}}},
        ],
        "unevaluatedProperties": False,
    }
    plan = tool(make_document(body, [], components=components))
    assert plan.body_check is not None
    error = rejected(plan, {"id": 1})
    assert [issue.path for issue in error.errors] == ["id"]


# -- S7 at call time -----------------------------------------------------------------------


def test_undeclared_argument_against_closed_body_is_rejected(store: dict[str, Any]) -> None:
    """S7: additionalProperties false → an undeclared argument is an argument error."""
    error = rejected(tool(store), {**FLAT_CALL, "color": "red"})
    assert '("color" was unexpected)' in error.message


@pytest.mark.parametrize("name", ["color", "authorization", "headers", "X-Api-Key"])
def test_undeclared_argument_against_open_body_goes_into_body(name: str) -> None:
    """S7: with an open body an undeclared argument is a body field, never a header."""
    doc = make_document({"type": "object", "properties": {"query": {"type": "string"}}})
    request = tool(doc).call({"storeId": "s", "x-tenant": "t", "query": "q", name: "v"})
    assert request.body == {"query": "q", name: "v"}
    assert name.lower() not in {h for h, _ in request.headers}


def test_undeclared_argument_against_typed_additional_properties_is_validated() -> None:
    """S7: additionalProperties schema → validated, then sent in the body."""
    doc = make_document(
        {"type": "object", "properties": {}, "additionalProperties": {"type": "integer"}}, []
    )
    assert tool(doc).call({"n": 1}).body == {"n": 1}
    assert '"x" is not of type "integer"' in rejected(tool(doc), {"n": "x"}).message


def test_no_body_tool_rejects_undeclared_arguments() -> None:
    """S7: no body → undeclared arguments are rejected."""
    doc = make_document(
        None, [{"name": "q", "in": "query", "schema": {"type": "string"}}], method="get"
    )
    assert "was unexpected" in rejected(tool(doc, method="get"), {"q": "x", "zzz": 1}).message


# -- S12 routing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "segment"),
    [
        ("../admin", "..%2Fadmin"),
        ("a/b", "a%2Fb"),
        ("x?y#z", "x%3Fy%23z"),
        ("%2e%2e", "%252e%252e"),
        (".", "%2E"),
        ("..", "%2E%2E"),
        ("a b", "a%20b"),
        ("ü", "%C3%BC"),
    ],
)
def test_path_values_can_never_change_segments(value: str, segment: str) -> None:
    """S12.1: /, ?, #, .. and %-escapes in a path argument stay inside one segment."""
    doc = make_document(
        None, [{"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}}]
    )
    request = tool(doc).call({"storeId": value})
    assert request.path == f"/stores/{segment}/search"
    assert request.path.count("/") == 3


ARRAY: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
OBJECT: dict[str, Any] = {"type": "object"}


@pytest.mark.parametrize(
    ("style", "explode", "schema", "value", "expected"),
    [
        ("simple", False, {}, 5, "5"),
        ("simple", False, ARRAY, ["a", "b"], "a,b"),
        ("simple", False, OBJECT, {"r": 1, "g": 2}, "r,1,g,2"),
        ("simple", True, OBJECT, {"r": 1, "g": 2}, "r=1,g=2"),
        ("label", False, {}, "x", ".x"),
        ("label", False, ARRAY, ["a", "b"], ".a,b"),
        ("label", True, ARRAY, ["a", "b"], ".a.b"),
        ("label", True, OBJECT, {"r": 1}, ".r=1"),
        ("matrix", False, {}, "x", ";id=x"),
        ("matrix", False, ARRAY, ["a", "b"], ";id=a,b"),
        ("matrix", True, ARRAY, ["a", "b"], ";id=a;id=b"),
        ("matrix", True, OBJECT, {"r": 1, "g": 2}, ";r=1;g=2"),
        ("matrix", False, OBJECT, {"r": 1}, ";id=r,1"),
        ("simple", False, {}, True, "true"),
    ],
)
def test_path_styles(
    style: str, explode: bool, schema: dict[str, Any], value: Any, expected: str
) -> None:
    """S12.1: path simple, label and matrix styles per OpenAPI."""
    doc = make_document(
        None,
        [
            {
                "name": "id",
                "in": "path",
                "required": True,
                "style": style,
                "explode": explode,
                "schema": schema,
            }
        ],
        path="/x/{id}",
    )
    assert tool(doc, path="/x/{id}").call({"id": value}).path == f"/x/{expected}"


@pytest.mark.parametrize(
    ("style", "explode", "value", "pairs", "url"),
    [
        ("form", None, "a b&c=d", [("q", "a b&c=d")], "q=a%20b%26c%3Dd"),
        ("form", None, ["a", "b"], [("q", "a"), ("q", "b")], "q=a&q=b"),
        ("form", False, ["a", "b"], [("q", "a,b")], "q=a,b"),
        ("form", None, {"r": 1, "g": 2}, [("r", "1"), ("g", "2")], "r=1&g=2"),
        ("form", False, {"r": 1, "g": 2}, [("q", "r,1,g,2")], "q=r,1,g,2"),
        ("spaceDelimited", False, ["a", "b"], [("q", "a b")], "q=a%20b"),
        ("pipeDelimited", False, ["a", "b"], [("q", "a|b")], "q=a|b"),
        (
            "deepObject",
            True,
            {"r": 1, "g": {"x": "y"}},
            [("q[r]", "1"), ("q[g][x]", "y")],
            "q[r]=1&q[g][x]=y",
        ),
        ("form", None, False, [("q", "false")], "q=false"),
    ],
)
def test_query_styles(
    style: str, explode: bool | None, value: Any, pairs: list[tuple[str, str]], url: str
) -> None:
    """S12.1: query form (exploded and not), spaceDelimited, pipeDelimited, deepObject."""
    param: dict[str, Any] = {"name": "q", "in": "query", "style": style, "schema": {}}
    if explode is not None:
        param["explode"] = explode
    request = tool(make_document(None, [param], path="/x"), path="/x").call({"q": value})
    assert request.query == tuple(pairs)
    assert request.url == f"/x?{url}"


def test_headers_lowercased_and_replace_inbound_case_insensitively() -> None:
    """S12.2: a header argument replaces an inbound header of the same name; others stay."""
    doc = make_document(
        None, [{"name": "X-Tenant", "in": "header", "schema": {"type": "string"}}], path="/x"
    )
    plan = tool(doc, path="/x")
    for inbound in ({"X-TENANT": "old", "X-Trace": "t"}, [("x-tenant", "old"), ("X-Trace", "t")]):
        request = plan.call({"x-tenant": "new"}, headers=inbound)
        assert request.headers == (("x-trace", "t"), ("x-tenant", "new"))


@pytest.mark.parametrize("bad", ["a\r\nb", "a\nb", "a\x00b", "a\rb"])
def test_header_value_with_cr_lf_nul_is_an_argument_error(bad: str) -> None:
    """S12.2: CR, LF or NUL in a header value is an argument error and no request."""
    doc = make_document(
        None, [{"name": "x-a", "in": "header", "schema": {"type": "string"}}], path="/x"
    )
    error = rejected(tool(doc, path="/x"), {"x-a": bad})
    assert error.errors[0].path == "x-a"


def test_header_array_and_object_simple_style() -> None:
    """S12.1: header values per simple style."""
    params: list[dict[str, Any]] = [
        {"name": "x-l", "in": "header", "schema": ARRAY},
        {"name": "x-o", "in": "header", "explode": True, "schema": OBJECT},
    ]
    request = tool(make_document(None, params, path="/x"), path="/x").call(
        {"x-l": ["a", "b"], "x-o": {"k": "v"}}
    )
    assert request.headers == (("x-l", "a,b"), ("x-o", "k=v"))


def test_cookies_become_one_cookie_header_merged_with_inbound() -> None:
    """S12.1: cookie parameters form a Cookie header; other inbound cookies are kept."""
    params = [
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
        {"name": "theme", "in": "cookie", "schema": {"type": "string"}},
    ]
    plan = tool(make_document(None, params, path="/x"), path="/x")
    request = plan.call(
        {"session": "a b", "theme": "dark"}, headers={"Cookie": "session=old; other=1"}
    )
    assert request.headers == (("cookie", "other=1; session=a%20b; theme=dark"),)
    assert plan.call({"cookies": {"theme": "x"}}).headers == (("cookie", "theme=x"),)


@pytest.mark.parametrize(
    ("key", "path", "url"),
    [
        ("/responses?beta=true", "/responses", "/responses?beta=true&q=1"),
        ("/oauth2/token#refresh", "/oauth2/token", "/oauth2/token?q=1"),
        ("/a/{id}.json?x=1#frag", "/a/7.json", "/a/7.json?x=1&q=1"),
    ],
)
def test_path_keys_with_query_and_fragment(key: str, path: str, url: str) -> None:
    """S1.6: a query in the key is kept; a fragment is never sent."""
    params: list[dict[str, Any]] = [{"name": "q", "in": "query", "schema": {}}]
    if "{id}" in key:
        params.append({"name": "id", "in": "path", "required": True, "schema": {}})
    plan = tool(make_document(None, params, path=key, method="get"), path=key, method="get")
    request = plan.call({"q": 1, **({"id": 7} if "{id}" in key else {})})
    assert (request.path, request.url) == (path, url)


def test_required_empty_body_is_sent_as_empty_object() -> None:
    """S12.3: `{}` when the body is required and no body argument was given."""
    doc = make_document({"type": "object", "properties": {"a": {}}}, [], body_required=True)
    request = tool(doc).call({})
    assert request.body == {}
    assert request.content_type == "application/json"


def test_optional_empty_body_is_not_sent() -> None:
    """S12.3: no body when the body is optional and no body argument was given."""
    request = tool(make_document({"type": "object", "properties": {"a": {}}}, [])).call({})
    assert request.body is NO_BODY
    assert request.content_type is None


def test_body_is_json_value_with_the_tools_content_type() -> None:
    """S12.3: a form-encoded tool keeps the JSON value as its body, with its own content type;
    S17.3: the bytes sent are the form (an exploded array repeats its name)."""
    doc = make_document(
        {"type": "object", "properties": {"a": {}}},
        [],
        content_type="application/x-www-form-urlencoded",
    )
    request = tool(doc).call({"a": [1]})
    assert request.body == {"a": [1]}
    assert ("content-type", "application/x-www-form-urlencoded") in request.headers
    assert request.encode()[1] == b"a=1"


def test_wrapped_body_routes_the_body_argument() -> None:
    """S5 (legacy): a wrapped body is the `body` argument's value."""
    doc = make_document({"type": "array", "items": {"type": "string"}})
    plan = tool(doc, profile="legacy")
    request = plan.call({"storeId": "s1", "x-tenant": "acme", "body": ["hoodie", "scarf"]})
    assert request.body == ["hoodie", "scarf"]


def test_route_args_primitive_is_public(store: dict[str, Any]) -> None:
    """S12: route_args routes an already-validated reading."""
    plan = tool(store)
    assert route_args(FLAT_CALL, Router.of(plan), "flat") == plan.call(FLAT_CALL)


def test_returned_request_cannot_change_the_plan(store: dict[str, Any]) -> None:
    """S15.2: editing a returned request's body never changes later requests."""
    plan = tool(store)
    first = plan.call(FLAT_CALL)
    first.body["query"] = "changed"
    assert plan.call(FLAT_CALL).body == {"query": "hoodie"}


def test_loaded_plan_routes_like_the_original(store: dict[str, Any]) -> None:
    """S15.1: a plan loaded from data validates and routes exactly like the original."""
    plan = tool(store)
    loaded = Plan.from_dict(plan.to_dict())
    assert loaded.call(FLAT_CALL) == plan.call(FLAT_CALL)
    assert rejected(loaded, {"storeId": 1}).message == rejected(plan, {"storeId": 1}).message


def test_request_is_plain_immutable_data(store: dict[str, Any]) -> None:
    """S12.4: the request is a frozen description any HTTP client can send, as plain JSON data."""
    import dataclasses
    import json

    request = tool(store).call(FLAT_CALL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.url = "/elsewhere"  # type: ignore[misc]
    assert json.loads(json.dumps(request.to_dict())) == {
        "method": "POST",
        "url": "/stores/s1/search?limit=10",
        "headers": [["x-tenant", "acme"], ["content-type", "application/json"]],
        "body": {"query": "hoodie"},
        "contentType": "application/json",
    }


def test_a_plan_that_has_served_calls_still_pickles(store: dict[str, Any]) -> None:
    """S15.1: a plan that has compiled its validators pickles as data and serves the same."""
    import pickle

    plan = tool(store)
    request = plan.call(FLAT_CALL)
    loaded = pickle.loads(pickle.dumps(plan))
    assert loaded == plan
    assert loaded.call(FLAT_CALL) == request


def test_pattern_python_cannot_compile_warns_at_plan_time_and_rejects_at_call_time() -> None:
    """S13.3, S14.3: an ECMA-only pattern is a planning warning; a value reaching it is refused,
    never accepted unchecked; a call that doesn't reach it is served."""
    body = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "pattern": "^\\p{L}+$"},
            "n": {"type": "integer"},
        },
    }
    plan = tool(make_document(body, []))
    (note,) = plan.diagnostics
    assert note.level == "warning"
    assert "`^\\p{L}+$` is not a Python regular expression" in note.message
    error = rejected(plan, {"name": "abc"})
    assert "can't be evaluated" in error.message
    assert plan.call({"n": 1}).body == {"n": 1}


@pytest.mark.parametrize(
    "name",
    [
        "Host",
        "Content-Length",
        "Transfer-Encoding",
        "Connection",
        "Keep-Alive",
        "Proxy-Authorization",
    ],
)
def test_inbound_framing_headers_are_never_forwarded(store: dict[str, Any], name: str) -> None:
    """S1.5, S12.2: an inbound header the HTTP client owns is left out of the request."""
    plan = tool(store)
    request = plan.call(FLAT_CALL, headers={name: "1", "X-Trace": "t"})
    assert name.lower() not in dict(request.headers)
    assert dict(request.headers)["x-trace"] == "t"


@pytest.mark.parametrize(
    ("headers", "header", "reason"),
    [
        ({"X-Trace": "a\r\nX-Evil: 1"}, "x-trace", "can't contain CR, LF, NUL"),
        ({"X-Trace": "日本"}, "x-trace", "text outside Latin-1"),
        ({"X-Trace": 5}, "x-trace", "its value is a int, not text"),
        ([("X-Trace",)], None, "they must be a mapping or (name, value) pairs"),
    ],
    ids=["a line break", "not Latin-1", "not text", "not pairs"],
)
def test_an_inbound_header_http_cant_carry_is_the_gateways_error(
    store: dict[str, Any], headers: Any, header: str | None, reason: str
) -> None:
    """S12.2: an inbound header value with CR, LF, NUL or text outside Latin-1 (or headers
    that are no mapping or pairs) raises a `HeaderError` — a `ToolshapeError` that is not an
    `ArgumentError`: the gateway's input, not the model's — naming the header, not its value."""
    with pytest.raises(HeaderError) as caught:
        tool(store).call(FLAT_CALL, headers=headers)
    error = caught.value
    assert not isinstance(error, ArgumentError)
    assert (error.header, error.tool) == (header, "searchProducts")
    assert reason in error.message
    assert "X-Evil" not in error.message
    assert ToolshapeError.from_dict(error.to_dict()).to_dict() == error.to_dict()


# -- S25.5 JSON text where a value is declared --------------------------------------------------

JSON_TEXT_BODY = {
    "type": "object",
    "properties": {
        "filter": {"type": "object", "properties": {"q": {"type": "string"}}},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "either": {"anyOf": [{"type": "object"}, {"type": "null"}]},
        "label": {"type": "string"},
        "mixed": {"anyOf": [{"type": "object"}, {"type": "string"}]},
        "count": {"type": "integer"},
        "deep": {"type": "object", "properties": {"inner": {"type": "array"}}},
    },
}

JSON_TEXT_ROWS: list[tuple[str, dict[str, Any], Any, tuple[str, ...]]] = [
    ("an object as its text", {"filter": '{"q": "x"}'}, {"filter": {"q": "x"}}, ("filter",)),
    ("an array as its text", {"ids": "[1, 2]"}, {"ids": [1, 2]}, ("ids",)),
    ("a union of object and null", {"either": "{}"}, {"either": {}}, ("either",)),
    (
        "deeper in the call",
        {"deep": {"inner": "[true]"}},
        {"deep": {"inner": [True]}},
        ("deep.inner",),
    ),
    ("text the schema takes stays text", {"label": '{"a": 1}'}, {"label": '{"a": 1}'}, ()),
    ("a union that takes text stays text", {"mixed": "{}"}, {"mixed": "{}"}, ()),
    ("as it should be, nothing read", {"ids": [1]}, {"ids": [1]}, ()),
]


@pytest.mark.parametrize(
    ("arguments", "body", "read"),
    [row[1:] for row in JSON_TEXT_ROWS],
    ids=[row[0] for row in JSON_TEXT_ROWS],
)
def test_json_text_is_read_where_the_schema_takes_no_text(
    arguments: dict[str, Any], body: Any, read: tuple[str, ...]
) -> None:
    """S25.5: a string where the schema admits no string is read as the JSON it spells when
    that is of a kind the schema admits there, and the request says which arguments were; a
    string the schema admits is never read."""
    (plan,) = plan_operation(
        make_document(JSON_TEXT_BODY), "/stores/{storeId}/search", "post", style="flat"
    )
    request = plan.call({"storeId": "s", "x-tenant": "t", **arguments})
    assert request.body == body
    assert request.read_as_json == read


@pytest.mark.parametrize(
    "arguments",
    [{"filter": "[1]"}, {"filter": "{not json"}, {"ids": '"text"'}, {"count": "3"}],
    ids=["another kind", "not JSON", "JSON text of text", "a number stays text"],
)
def test_json_text_of_a_kind_not_admitted_is_still_refused(arguments: dict[str, Any]) -> None:
    """S25.5: text that is not JSON, spells a kind the schema does not admit there, or spells
    a number (`"3"` is not an integer, as the JSON-Schema-Test-Suite holds), is refused as it
    was given (never looser than the document)."""
    (plan,) = plan_operation(
        make_document(JSON_TEXT_BODY), "/stores/{storeId}/search", "post", style="flat"
    )
    with pytest.raises(ArgumentError, match="is not of type"):
        plan.call({"storeId": "s", "x-tenant": "t", **arguments})
