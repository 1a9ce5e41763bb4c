"""S12.1, S12.2, S14.2: nothing lost — every argument reaches the request in a shape the server
reads back as sent, or the call (or the plan) is refused, naming what and where."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest

from toolshape import ArgumentError, DocumentError, Plan, PlanError, plan_document, plan_operation


def doc(
    path: str, parameters: list[dict[str, Any]], method: str = "get", **op: Any
) -> dict[str, Any]:
    for p in parameters:
        p.setdefault("schema", {})
        if p["in"] == "path":
            p["required"] = True
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {path: {method: {"operationId": "op", "parameters": parameters, **op}}},
    }


def tool(path: str, parameters: list[dict[str, Any]], method: str = "get") -> Plan:
    (plan,) = plan_operation(doc(path, parameters, method), path, method, style="flat")
    return plan


def refusal(plan: Plan, arguments: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(ArgumentError) as caught:
        plan.call(arguments)
    (issue,) = caught.value.errors
    return issue.path, issue.message


def accepted(plan: Plan, arguments: Any) -> Any:
    """The request for `arguments`, or None when they are refused."""
    try:
        return plan.call(arguments)
    except ArgumentError:
        return None


def planning_error(document: dict[str, Any]) -> PlanError:
    (error,) = plan_document(document).errors
    return error


# -- path templates and path parameters ------------------------------------------------------


def test_a_path_parameter_without_its_variable_is_a_planning_error() -> None:
    """S12.1: a declared path parameter the template does not hold would swallow its argument."""
    error = planning_error(doc("/zones", [{"name": "id", "in": "path"}]))
    assert (error.kind, error.rule) == ("parameter", "S12.1")
    assert "the path parameter `id` has no `{id}` in the path `/zones`" in error.message


def test_a_variable_without_a_parameter_is_a_planning_error() -> None:
    """S12.1: a `{variable}` no parameter fills would be sent literally."""
    error = planning_error(doc("/zones/{id}", []))
    assert (error.kind, error.rule) == ("parameter", "S12.1")
    assert "has `{id}`, but no path parameter `id` fills it" in error.message


@pytest.mark.parametrize("value", ["", [], {}, None])
@pytest.mark.parametrize("method", ["get", "delete"])
def test_an_empty_path_value_is_an_argument_error(value: Any, method: str) -> None:
    """S12.1: `//` or `/zones/` would be another resource, so an empty path value is refused."""
    plan = tool("/zones/{id}", [{"name": "id", "in": "path"}], method)
    assert refusal(plan, {"id": value}) == (
        "id",
        "a path parameter can't be empty: the request's path would lose a segment",
    )


@pytest.mark.parametrize("key", ["zones/{id}", "https://evil.example/{id}", "{id}"])
def test_a_path_key_that_is_not_a_path_is_a_document_error(key: str) -> None:
    """S1.6: a path key must start with `/`; an absolute URL would send the request elsewhere."""
    error = planning_error(doc(key, [{"name": "id", "in": "path"}]))
    assert (error.kind, error.rule) == ("document", "S1.6")
    assert f"the path key `{key}` does not start with `/`" in error.message


def test_a_path_key_or_base_path_naming_another_host_is_refused() -> None:
    """S20.3: `//evil.example/x` is a network-path reference (`urljoin` sends it to another
    host): a path key starting with `//` is the operation's error, a Swagger 2.0 `basePath`
    starting with `//` the document's."""
    error = planning_error(doc("//evil.example/{id}", [{"name": "id", "in": "path"}]))
    assert (error.kind, error.rule) == ("document", "S20.3")
    assert "starts with `//`, which names another host" in error.message
    swagger = {
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "basePath": "//evil.example",
        "paths": {"/x": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
    with pytest.raises(DocumentError, match=r"`basePath` `//evil\.example` starts with `//`"):
        plan_document(swagger)


# -- query values ----------------------------------------------------------------------------

QUERY_ROWS = [
    # (style, explode, value, the query text on the wire)
    ("form", False, ["a,b", "c"], "q=a%2Cb,c"),
    ("form", False, ["a", "b", "c"], "q=a,b,c"),
    ("form", True, ["a,b", "c"], "q=a,b&q=c"),
    ("pipeDelimited", False, ["a|b", "c"], "q=a%7Cb|c"),
    ("pipeDelimited", False, {"R": 100, "G": 200}, "q=R|100|G|200"),
    ("spaceDelimited", False, ["a", "b"], "q=a%20b"),
    ("spaceDelimited", False, {"R": 100, "G": 200}, "q=R%20100%20G%20200"),
    ("form", False, {"a,b": "c"}, "q=a%2Cb,c"),
    ("deepObject", True, {"user": {"role": "admin"}}, "q[user][role]=admin"),
    ("deepObject", True, {"ids": [1, 2]}, "q[ids][0]=1&q[ids][1]=2"),
    ("form", True, None, ""),  # S12.1: null, [] and {} are left out
    ("form", True, [], ""),
    ("form", False, {}, ""),
]


@pytest.mark.parametrize(("style", "explode", "value", "wire"), QUERY_ROWS)
def test_query_styles_keep_every_item_apart(
    style: str, explode: bool, value: Any, wire: str
) -> None:
    """S12.1: a delimiter inside an item is percent-encoded, objects of pipe/space styles join
    with their delimiter, deepObject nests and indexes, undefined values are not sent."""
    plan = tool("/t", [{"name": "q", "in": "query", "style": style, "explode": explode}])
    url = plan.call({"q": value}).url
    assert url == (f"/t?{wire}" if wire else "/t")


def test_an_item_holding_the_space_delimiter_is_refused() -> None:
    """S12.1: a space can't be told from a spaceDelimited delimiter once decoded."""
    plan = tool("/t", [{"name": "q", "in": "query", "style": "spaceDelimited", "explode": False}])
    path, message = refusal(plan, {"q": ["a b", "c"]})
    assert path == "q"
    assert "also the delimiter of a spaceDelimited value" in message


@pytest.mark.parametrize(
    ("value", "wire"),
    [("a%20b", "a%20b"), ("50%", "50%25"), ("a/b?c", "a/b?c"), ("a&b=c", "a%26b%3Dc")],
)
def test_allow_reserved_passes_percent_triples_through(value: str, wire: str) -> None:
    """S12.1: `allowReserved` sends `%XX` triples unchanged (never `%2520`); `&`, `=` stay
    encoded so the value stays one value; a lone `%` is encoded."""
    plan = tool("/t", [{"name": "q", "in": "query", "allowReserved": True}])
    assert plan.call({"q": value}).url == f"/t?q={wire}"


def test_a_path_keys_own_query_is_sent_as_written() -> None:
    """S1.6: `/responses?beta` keeps its valueless `beta` (it was sent as `beta=`)."""
    plan = tool("/responses?beta", [{"name": "q", "in": "query"}])
    assert plan.call({"q": "x"}).url == "/responses?beta&q=x"
    assert plan.call({}).url == "/responses?beta"


@pytest.mark.parametrize("key", ["user][role", "a[b", "]"])
def test_deep_object_keys_with_brackets_are_refused(key: str) -> None:
    """S12.1: a bracket in a deepObject key would forge another structure on the server."""
    plan = tool("/t", [{"name": "q", "in": "query", "style": "deepObject", "explode": True}])
    path, message = refusal(plan, {"q": {key: "x"}})
    assert path == "q"
    assert f"the key `{key}` holds a bracket" in message


def test_an_exploded_object_can_not_forge_another_query_parameter() -> None:
    """S12.1, S14.2: `{"limit": 5}` exploded would set the declared `limit` parameter."""
    plan = tool(
        "/t",
        [
            {"name": "filter", "in": "query", "schema": {"type": "object"}},
            {"name": "limit", "in": "query"},
        ],
    )
    assert plan.call({"filter": {"color": "red"}}).url == "/t?color=red"
    path, message = refusal(plan, {"filter": {"limit": 5}})
    assert path == "filter"
    assert "the key `limit` would be sent as `limit`, which this operation declares" in message


def test_two_exploded_objects_can_not_share_a_key() -> None:
    """S12.1: two values for one name would be read as one array, or the last one."""
    plan = tool(
        "/t",
        [
            {"name": "a", "in": "query", "schema": {"type": "object"}},
            {"name": "b", "in": "query", "schema": {"type": "object"}},
        ],
    )
    path, message = refusal(plan, {"a": {"x": 1}, "b": {"x": 2}})
    assert path == "b"
    assert "also a key of another exploded object" in message


# -- headers and cookies ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["X Tenant", "x-tenant:", "tenant\r\nx", "é"])
def test_a_header_name_that_is_not_a_token_is_a_planning_error(name: str) -> None:
    """S12.2: a header name outside RFC 9110's token characters can't be sent."""
    error = planning_error(doc("/t", [{"name": name, "in": "header"}]))
    assert (error.kind, error.rule) == ("parameter", "S12.2")
    assert "is not a valid HTTP header name" in error.message


@pytest.mark.parametrize(
    "name",
    [
        "Host",
        "Content-Length",
        "Transfer-Encoding",
        "Connection",
        "Keep-Alive",
        "TE",
        "Trailer",
        "Upgrade",
        "Proxy-Authorization",
    ],
)
def test_framing_headers_are_the_clients(name: str) -> None:
    """S1.5: a header parameter naming a header that frames or routes the request is left
    out like `Accept`, with an info diagnostic; the tool still plans (a required
    `Content-Length` must not lose a working tool), and an argument of that name is refused."""
    document = doc(
        "/t", [{"name": name, "in": "header", "required": True}, {"name": "q", "in": "query"}]
    )
    result = plan_document(document, style="flat")
    assert result.errors == ()
    (tool,) = result.tools
    assert list(tool.input_schema["properties"]) == ["q"]
    (note,) = tool.diagnostics
    assert note.level == "info"
    assert f"the HTTP client owns `{name}`" in note.message
    assert accepted(tool, {}) is not None
    assert accepted(tool, {name.lower(): "1"}) is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a\tb", None),
        ("naïve", None),  # Latin-1
        ("a\x01b", "can't contain CR, LF, NUL or other control characters"),
        ("a\x7fb", "can't contain CR, LF, NUL or other control characters"),
        ("a\r\nX-Evil: 1", "can't contain CR, LF, NUL or other control characters"),
        ("日本", "text outside Latin-1"),
        (" padded", "can't start or end with a space or tab"),
        ("padded\t", "can't start or end with a space or tab"),
    ],
)
def test_header_values_an_http_client_would_refuse_are_refused_now(
    value: str, message: str | None
) -> None:
    """S12.2: refused here, naming the argument, not later by the HTTP client."""
    plan = tool("/t", [{"name": "X-Tenant", "in": "header"}])
    if message is None:
        assert ("x-tenant", value) in plan.call({"x-tenant": value}).headers
    else:
        path, text = refusal(plan, {"x-tenant": value})
        assert path == "x-tenant"
        assert message in text


def test_header_array_items_keep_their_commas_apart() -> None:
    """S12.1: inside a simple array header, `,` and `%` in an item are percent-encoded."""
    plan = tool("/t", [{"name": "X-Ids", "in": "header", "schema": {"type": "array"}}])
    assert ("x-ids", "a%2Cb,c,50%25") in plan.call({"x-ids": ["a,b", "c", "50%"]}).headers


def test_cookie_array_delimiters_stay_raw_and_items_encoded() -> None:
    """S12.1: a non-exploded cookie array sends `a%2Cb,c`, not one item `a,b,c`."""
    plan = tool("/t", [{"name": "ids", "in": "cookie", "explode": False}])
    assert ("cookie", "ids=a%2Cb,c") in plan.call({"ids": ["a,b", "c"]}).headers


@pytest.mark.parametrize("channel", ["header", "cookie"])
def test_undefined_header_and_cookie_values_are_not_sent(channel: str) -> None:
    """S12.1: null, [] and {} are left out of headers and cookies too."""
    plan = tool("/t", [{"name": "v", "in": channel}])
    values: list[Any] = [None, [], {}]
    for value in values:
        assert plan.call({"v": value}).headers == ()


def test_a_cookie_header_beside_cookie_parameters_is_a_planning_error() -> None:
    """S12.2: both would be sent as `cookie` headers."""
    error = planning_error(
        doc("/t", [{"name": "Cookie", "in": "header"}, {"name": "s", "in": "cookie"}])
    )
    assert (error.kind, error.rule) == ("parameter", "S12.2")
    assert "would send two `cookie` headers" in error.message


# -- bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["examples", "json", "application", "*"])
def test_a_content_key_that_is_not_a_media_type_is_not_a_tool(key: str) -> None:
    """S8.2: `content: {"examples": ...}` was planned as a tool with content type `examples`."""
    document = doc("/t", [], "post", requestBody={"content": {key: {"schema": {"type": "object"}}}})
    error = planning_error(document)
    assert (error.kind, error.rule) == ("document", "S8.2")
    assert f"content key `{key}`" in error.message


def test_every_query_item_round_trips_through_a_server_that_splits_before_decoding() -> None:
    """S14.2: split on the raw delimiter, then decode: exactly the items sent come back."""
    plan = tool("/t", [{"name": "q", "in": "query", "explode": False}])
    items = ["a,b", "c%d", "e&f", "g=h", "i j", "k+l", ""]
    url = plan.call({"q": items}).url
    raw = url.split("?", 1)[1].split("=", 1)[1]
    assert [unquote(part) for part in raw.split(",")] == items
