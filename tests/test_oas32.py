"""S26: OpenAPI 3.2 documents — read with every 3.1 rule (S26.1), and their `query`
operations (S26.2). Each rule from a small inline document."""

from __future__ import annotations

import io
import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from toolshape import (
    ArgumentError,
    DocumentError,
    Options,
    Select,
    dump_plans,
    load_plans,
    plan_document,
)
from toolshape.cli import main
from toolshape.server import Api, build_server, search
from toolshape.server._prepare import prepare
from toolshape.server._settings import ApiSettings

FILTER = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["text"],
}


def document(version: str = "3.2.0", **item: Any) -> dict[str, Any]:
    """A document whose path `/things` has a `query` operation (and `item`'s others)."""
    query = {
        "operationId": "findThings",
        "summary": "Find things",
        "requestBody": {"required": True, "content": {"application/json": {"schema": FILTER}}},
    }
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"query": query, **item}},
    }


def test_a_3_2_document_is_read_as_3_1_is() -> None:
    """S26.1: `openapi: 3.2.x` is read (it was refused), its schemas in 3.1's dialect; a
    version past 3.2 is still refused, naming what toolshape reads."""
    get = {"operationId": "listThings", "responses": {"200": {"description": "ok"}}}
    result = plan_document(document(get=get), style="flat")
    assert result.errors == ()
    assert [t.name for t in result.tools] == ["findThings", "listThings"]
    with pytest.raises(DocumentError, match=r"not 3\.0\.x, 3\.1\.x or 3\.2\.x"):
        plan_document(document("3.3.0"))


def test_a_query_operation_is_planned_like_one_with_a_body() -> None:
    """S26.2: a path item's `query` is an operation with method `QUERY`, its body flattened,
    read-only and idempotent and not destructive; derived names use `query`; `Select`
    takes it; in a 3.1 document `query` is no operation."""
    (tool,) = plan_document(document(), style="flat").tools
    assert tool.method == "QUERY"
    assert tool.input_schema["properties"] == FILTER["properties"]
    assert tool.annotations == {
        "title": "Find things",
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    request = tool.call({"text": "x", "limit": 2})
    assert (request.method, request.url, request.body) == (
        "QUERY",
        "/things",
        {"text": "x", "limit": 2},
    )
    unnamed = document()
    del unnamed["paths"]["/things"]["query"]["operationId"]
    assert [t.name for t in plan_document(unnamed).tools] == ["query_things"]
    kept = plan_document(document(), select=Select(methods=["QUERY"])).tools
    assert [t.name for t in kept] == ["findThings"]
    assert plan_document(document("3.1.0")).tools == ()


def test_a_query_call_is_sent_as_query_and_may_be_tried_again() -> None:
    """S26.2, S27.4: through `toolshape.server`, a `QUERY` call reaches the API with its
    method and body, and (safe and idempotent) is tried again on a 503."""
    (tool,) = plan_document(document(), style="flat").tools
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        status = 503 if len(seen) == 1 else 200
        return httpx.Response(status, json={"found": 1}, headers={"retry-after": "0"})

    async def run() -> Any:
        async with (
            httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
            Client(
                build_server([Api((tool,), base_url="http://api.test")], http=http), mode="legacy"
            ) as client,
        ):
            return await client.call_tool("findThings", {"text": "x"})

    result = anyio.run(run)
    assert result.is_error is False
    assert [r.method for r in seen] == ["QUERY", "QUERY"]
    assert json.loads(seen[-1].content) == {"text": "x"}


@pytest.mark.integration
def test_a_query_call_reaches_a_real_upstream() -> None:
    """S26.2 end to end: a `QUERY` call through `toolshape.server` reaches a real HTTP
    upstream (Starlette under uvicorn) as `QUERY /things` with its JSON body."""
    from contextlib import contextmanager

    from tests import upstream as up

    with contextmanager(up.running)() as upstream:
        (tool,) = plan_document(document(), style="flat").tools
        api = Api((tool,), base_url=upstream.base_url)

        async def run() -> Any:
            async with Client(build_server([api]), mode="legacy") as client:
                return await client.call_tool("findThings", {"text": "x", "limit": 1})

        result = anyio.run(run)
        (seen,) = upstream.seen
    assert (seen.method, seen.path) == ("QUERY", "/things")
    assert json.loads(seen.body) == {"text": "x", "limit": 1}
    assert result.is_error is False


def test_additional_operations_are_sent_with_their_key() -> None:
    """S26.3: each entry of a 3.2 path item's `additionalOperations` is an operation whose
    method is its key, sent verbatim, annotated as POST is (unless `x-mcp-annotations` says
    otherwise), its derived name using the key in lower case; a key that is a method the path
    item has a field for is a document error naming it; plans keep the method through plan
    data."""
    from toolshape import Plan

    link = {"operationId": "linkThings", "x-mcp-annotations": {"idempotentHint": True}}
    item: dict[str, Any] = {"additionalOperations": {"LINK": link, "PURGE": {}, "Get": {}}}
    result = plan_document(document(**item), style="flat")
    by_method = {t.method: t for t in result.tools}
    assert set(by_method) == {"QUERY", "LINK", "PURGE"}
    assert by_method["LINK"].call({}).method == "LINK"
    assert by_method["LINK"].annotations == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    assert by_method["PURGE"].name == "purge_things"
    from toolshape import plan_operation  # one operation, by its key as written

    (purge,) = plan_operation(document(**item), "/things", "PURGE", style="flat")
    assert purge == by_method["PURGE"]
    (query,) = plan_operation(document(**item), "/things", "QUERY", style="flat")
    assert query == by_method["QUERY"]
    (refused,) = result.errors
    assert "`additionalOperations` names `Get`, which is the path item's own `get`" in str(refused)
    again = Plan.from_dict(by_method["LINK"].to_dict())
    assert again.method == "LINK"
    assert plan_document(document("3.1.0", **item)).tools == ()


@pytest.mark.integration
def test_a_link_call_reaches_a_real_upstream() -> None:
    """S26.3 end to end: a `LINK` call from `additionalOperations` reaches a real upstream as
    `LINK /things`."""
    from contextlib import contextmanager

    from tests import upstream as up

    item: dict[str, Any] = {"additionalOperations": {"LINK": {"operationId": "linkThings"}}}
    with contextmanager(up.running)() as upstream:
        tools = plan_document(document(**item), style="flat").tools
        api = Api(tools, base_url=upstream.base_url)

        async def run() -> Any:
            async with Client(build_server([api]), mode="legacy") as client:
                return await client.call_tool("linkThings", {})

        result = anyio.run(run)
        (seen,) = upstream.seen
    assert (seen.method, seen.path) == ("LINK", "/things")
    assert result.is_error is False


def cookie_tool(version: str, explode: bool | None = None) -> Any:
    """A 3.x tool with one cookie parameter `prefs` of `style: cookie`."""
    parameter: dict[str, Any] = {"name": "prefs", "in": "cookie", "style": "cookie", "schema": {}}
    if explode is not None:
        parameter["explode"] = explode
    get = {"operationId": "getThings", "parameters": [parameter]}
    return plan_document(
        {
            "openapi": version,
            "info": {"title": "t", "version": "1"},
            "paths": {"/things": {"get": get}},
        },
        style="flat",
    )


@pytest.mark.parametrize(
    ("explode", "value", "cookie"),
    [
        (None, "abc", "prefs=abc"),
        (None, {"theme": "dark", "lang": "en"}, "theme=dark; lang=en"),  # explode: true
        (None, ["a", "b"], "prefs=a; prefs=b"),
        (False, {"theme": "dark", "lang": "en"}, "prefs=theme,dark,lang,en"),
        (False, ["a", "b"], "prefs=a,b"),
        (None, "a%20b", "prefs=a%20b"),  # as given: nothing escaped
    ],
)
def test_a_cookie_style_parameter_is_sent_as_cookie_text(
    explode: bool | None, value: Any, cookie: str
) -> None:
    """S26.5: `style: cookie`: name=value pairs joined by `; `, exploded by default; a
    non-exploded object or array is `name=a,b`; values are sent as given (nothing escaped)."""
    (tool,) = cookie_tool("3.2.0", explode).tools
    request = tool.call({"prefs": value})
    assert dict(request.headers)["cookie"] == cookie


def test_a_cookie_style_value_that_is_not_cookie_text_is_refused() -> None:
    """S26.5: a value the cookie style would have to escape (a space, `;`, `,`) is an argument
    error; in a 3.1 document `style: cookie` is no style (a planning error)."""
    from toolshape import ArgumentError

    (tool,) = cookie_tool("3.2.0").tools
    with pytest.raises(ArgumentError, match="can't be sent as cookie text"):
        tool.call({"prefs": "a; admin=1"})
    (refused,) = cookie_tool("3.1.0").errors
    assert "has style 'cookie', which cookie parameters can't use (form)" in str(refused)


FORM_QUERY = {
    "type": "object",
    "properties": {
        "term": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["term"],
}


def querystring(media: str, schema: Any, version: str = "3.2.0", **more: Any) -> Any:
    """A tool `searchThings` (GET /things) whose one parameter `q` is the whole query string."""
    content: dict[str, Any] = {media: {"schema": schema, **more}}
    parameter = {"name": "q", "in": "querystring", "required": True, "content": content}
    get = {"operationId": "searchThings", "parameters": [parameter]}
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"get": get}},
        "components": {"schemas": {"Query": FORM_QUERY}},
    }


FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize(
    ("doc", "arguments", "url"),
    [
        (
            querystring(FORM, {"$ref": "#/components/schemas/Query"}),
            {"term": "a b&c", "tags": ["x", "y"]},
            "/things?term=a%20b%26c&tags=x&tags=y",
        ),
        (
            querystring(FORM, FORM_QUERY, encoding={"tags": {"explode": False}}),
            {"term": "t", "tags": ["x", "y"]},
            "/things?term=t&tags=x,y",
        ),
        (
            querystring("application/json", {"type": "object"}),
            {"q": {"a": [1, "b c"]}},
            "/things?%7B%22a%22%3A%5B1%2C%22b%20c%22%5D%7D",
        ),
        (querystring("text/plain", {"type": "string"}), {"q": "x=1&y"}, "/things?x%3D1%26y"),
    ],
    ids=["form", "form-encoding", "json", "text"],
)
def test_a_querystring_parameter_is_the_whole_query(
    doc: dict[str, Any], arguments: dict[str, Any], url: str
) -> None:
    """S26.4: a form querystring's members are flat arguments, sent as form pairs (styled by
    the media type's `encoding`); another media type is one argument, serialized (JSON text
    for JSON) and percent-encoded as the whole query string."""
    (tool,) = plan_document(doc, style="flat").tools
    assert tool.call(arguments).url == url


def test_a_form_querystring_is_a_query_channel_of_its_members() -> None:
    """S26.4: nested, the form object's members are the `queryParams` channel, its `required`
    kept; a member the object does not declare is refused."""
    (tool,) = plan_document(querystring(FORM, FORM_QUERY), style="nested").tools
    channel = tool.input_schema["properties"]["queryParams"]
    assert set(channel["properties"]) == {"term", "tags"}
    assert channel["required"] == ["term"]
    assert tool.call({"queryParams": {"term": "t"}}).url == "/things?term=t"
    with pytest.raises(ArgumentError):
        tool.call({"queryParams": {"term": "t", "other": 1}})


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            querystring(FORM, {"oneOf": [FORM_QUERY]}),
            "the querystring parameter `q` at `/paths/~1things/get/parameters/0` has a form "
            "schema with `oneOf`, so its members can't each be an argument",
        ),
        (
            querystring(FORM, {"type": "string"}),
            "has a form schema that is not an object of `properties`",
        ),
        (
            querystring("text/plain", {}, extra={"name": "x", "in": "query"}),
            "is the whole query string, beside the query parameter `x`; declare one or the other",
        ),
        (
            querystring(
                "text/plain",
                {},
                extra={"name": "r", "in": "querystring", "content": {"text/plain": {}}},
            ),
            "the operation has two querystring parameters",
        ),
        (
            querystring("text/plain", {}, version="3.1.0"),
            "has `in` 'querystring', which is not path, query, header or cookie",
        ),
    ],
    ids=["union", "not-an-object", "beside-query", "two", "3.1"],
)
def test_a_querystring_that_cant_be_the_query_is_refused(doc: dict[str, Any], message: str) -> None:
    """S26.4: a form schema whose members can't each be an argument, a querystring beside
    query parameters or beside another, and (in 3.1) `in: querystring` are planning errors."""
    get = doc["paths"]["/things"]["get"]
    extra = get["parameters"][0]["content"][next(iter(get["parameters"][0]["content"]))].pop(
        "extra", None
    )
    if extra is not None:
        get["parameters"].append(extra)
    (error,) = plan_document(doc).errors
    assert message in str(error)


@pytest.mark.integration
def test_a_querystring_call_reaches_a_real_upstream() -> None:
    """S26.4 end to end: through `toolshape.server`, a JSON querystring reaches the test
    upstream (in memory) as the whole query string, and a form one as form pairs."""
    from tests import upstream as up

    json_doc = querystring("application/json", {"type": "object"})
    form_doc = querystring(FORM, FORM_QUERY)
    form_doc["paths"]["/things"]["get"]["operationId"] = "searchForm"
    upstream = up.in_memory()
    tools = (
        *plan_document(json_doc, style="flat").tools,
        *plan_document(form_doc, style="flat").tools,
    )
    api = Api(tools, base_url=upstream.base_url)

    async def run() -> Any:
        async with (
            up.client(upstream) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return [
                await client.call_tool("searchThings", {"q": {"a": "b c"}}),
                await client.call_tool("searchForm", {"term": "a&b", "tags": ["x"]}),
            ]

    results = anyio.run(run)
    whole, form = upstream.seen
    assert [r.is_error for r in results] == [False, False]
    assert (whole.method, whole.path, whole.query) == (
        "GET",
        "/things",
        "%7B%22a%22%3A%22b%20c%22%7D",
    )
    assert form.query == "term=a%26b&tags=x"


PETS = {
    "Cat": {
        "type": "object",
        "properties": {"kind": {"type": "string", "const": "cat"}, "meow": {"type": "boolean"}},
        "required": ["kind"],
    },
    "Dog": {
        "type": "object",
        "properties": {"kind": {"type": "string", "const": "dog"}, "bark": {"type": "boolean"}},
        "required": ["kind"],
    },
    "Pet": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
}


def pets(discriminator: dict[str, Any]) -> Any:
    """A flat tool whose body is a union of `Cat` and `Dog` with `discriminator`, flattened."""
    body = {
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", **discriminator},
    }
    doc = {
        "openapi": "3.2.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/pets": {
                "post": {
                    "operationId": "addPet",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": body}},
                    },
                }
            }
        },
        "components": {"schemas": PETS},
    }
    result = plan_document(doc, style="flat", options=Options.preset(flatten_unions=True))
    assert result.errors == ()
    (tool,) = result.tools
    return tool


@pytest.mark.parametrize(
    ("arguments", "accepted"),
    [
        ({"kind": "cat", "meow": True}, True),  # mapped: the union judges it
        ({"kind": "cat", "meow": "x"}, False),
        ({"kind": "Dog", "bark": True}, False),  # the explicit mapping names Dog `dog` only
        ({"name": "rex"}, True),  # absent: the default branch
        ({"kind": "bird", "name": "tweety"}, True),  # unmapped: the default branch
        ({"kind": "bird"}, False),  # ... which requires `name`
        ({"meow": True}, False),
    ],
)
def test_a_discriminator_default_mapping_judges_what_no_mapping_names(
    arguments: dict[str, Any], accepted: bool
) -> None:
    """S26.8, S11: a flattened union whose discriminator has a `defaultMapping` reads a value
    whose discriminator is absent or unmapped as the default branch: the flat schema takes
    the default's members and no longer requires or enumerates the discriminator."""
    tool = pets(
        {"mapping": {"cat": "#/components/schemas/Cat", "dog": "Dog"}, "defaultMapping": "Pet"}
    )
    properties = tool.input_schema["properties"]
    assert properties["kind"] == {"type": "string"}
    assert "name" in properties
    assert tool.input_schema.get("required", []) == []
    if accepted:
        assert tool.call(arguments).body == arguments
    else:
        with pytest.raises(ArgumentError):
            tool.call(arguments)


def test_without_an_explicit_mapping_a_branch_is_named_by_its_definition() -> None:
    """S26.8: implicit mapping: `Cat` names the `Cat` branch, so a value of `Cat` is judged by
    the union (and fails its `const`); `cat` is mapped to nothing, so the default judges it."""
    tool = pets({"defaultMapping": "#/components/schemas/Pet"})
    with pytest.raises(ArgumentError, match="is not valid under any of the given schemas"):
        tool.call({"kind": "Cat", "name": "x"})
    assert tool.call({"kind": "cat", "name": "x"}).body == {"kind": "cat", "name": "x"}


def test_a_tag_selects_the_operations_of_its_children() -> None:
    """S26.9: `Select(tags=[T])` keeps operations tagged with a tag whose `parent` chain
    reaches `T` (and `exclude_tags` leaves them out alike)."""
    doc = document(
        get={"operationId": "listThings", "tags": ["cats"]},
        put={"operationId": "putThings", "tags": ["things"]},
    )
    doc["paths"]["/things"]["query"]["tags"] = ["kittens"]
    doc["tags"] = [
        {"name": "pets", "kind": "nav", "summary": "Pets"},
        {"name": "cats", "parent": "pets"},
        {"name": "kittens", "parent": "cats"},
        {"name": "loop", "parent": "loop"},
    ]
    kept = plan_document(doc, select=Select(tags=["pets"])).tools
    assert sorted(t.name for t in kept) == ["findThings", "listThings"]
    left = plan_document(doc, select=Select(exclude_tags=["cats"])).tools
    assert [t.name for t in left] == ["putThings"]


def test_a_tag_summary_is_its_title_in_discovery_search(tmp_path: Path) -> None:
    """S26.9: a tag's `summary` is its title: `search_operations` finds the tools of a tag by
    its title's words (which appear nowhere else), in a document's served API."""
    doc = document(get={"operationId": "listThings", "tags": ["hw"]})
    doc["tags"] = [{"name": "hw", "summary": "Hardware inventory"}, {"name": "x", "summary": 3}]
    result = plan_document(doc)
    assert result.tag_titles == {"hw": "Hardware inventory"}
    assert hash(result) == hash(plan_document(doc))  # a result still hashes by value (S15.2)
    assert [p.name for p in search(result.tools, "inventory")] == []
    found = search(result.tools, "inventory", tag_titles=result.tag_titles)
    assert [p.name for p in found] == ["listThings"]
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(doc), encoding="utf-8")
    settings = ApiSettings(document=str(spec), base_url="http://api.test")
    (api,) = prepare([settings], "toolshape serve", {}, lambda line: None)
    assert api.tag_titles == {"hw": "Hardware inventory"}
    plans = tmp_path / "plans.json"  # a plans file keeps the titles
    plans.write_text(json.dumps(dump_plans(result)), encoding="utf-8")
    assert load_plans(plans.read_text(encoding="utf-8")).tag_titles == {"hw": "Hardware inventory"}
    from_file = ApiSettings(plans=str(plans), base_url="http://api.test")
    (served,) = prepare([from_file], "toolshape serve", {}, lambda line: None)
    assert served.tag_titles == {"hw": "Hardware inventory"}

    async def run() -> Any:
        async with Client(build_server([api], discovery=True), mode="legacy") as client:
            return await client.call_tool("search_operations", {"query": "hardware"})

    answer = anyio.run(run)
    assert [row["name"] for row in json.loads(answer.content[0].text)["operations"]] == [
        "listThings"
    ]


def test_oauth2_of_3_2_is_a_bearer_token_and_a_deprecated_scheme_is_warned() -> None:
    """S26.10: a scheme with `oauth2MetadataUrl` or a `deviceAuthorization` flow is OAuth2 (a
    bearer credential); a `deprecated: true` scheme an operation accepts gives a warning."""
    doc = document()
    doc["components"] = {
        "securitySchemes": {
            "device": {
                "type": "oauth2",
                "oauth2MetadataUrl": "https://auth.example/.well-known/oauth-authorization-server",
                "flows": {
                    "deviceAuthorization": {
                        "deviceAuthorizationUrl": "https://auth.example/device",
                        "tokenUrl": "https://auth.example/token",
                        "scopes": {},
                    }
                },
                "deprecated": True,
            }
        }
    }
    doc["security"] = [{"device": []}]
    result = plan_document(doc, style="flat")
    (tool,) = result.tools
    request = tool.call({"text": "x"}, credentials={"device": "t0ken"})
    assert dict(request.headers)["authorization"] == "Bearer t0ken"
    (warning,) = [d for d in result.diagnostics if "deprecated" in d.message]
    assert warning.level == "warning"
    assert "accepts the security scheme `device`, which the document marks deprecated" in (
        warning.message
    )


def run_cli(*argv: str) -> tuple[int, str]:
    """`toolshape` with `argv`: its exit status and what it wrote on stderr."""
    err = io.StringIO()
    code = main(list(argv), io.StringIO(), err)
    return code, err.getvalue()


def named_servers(base_url: str) -> dict[str, Any]:
    """A 3.2 document whose first server is unreachable and whose server `local` is
    `base_url` (its port a variable with a default), beside one named twice."""
    doc = document()
    host, port = base_url.rsplit(":", 1)
    doc["servers"] = [
        {"url": "https://prod.example/v1", "name": "prod"},
        {"url": host + ":{port}", "name": "local", "variables": {"port": {"default": port}}},
        {"url": "https://later.example", "name": "prod"},
        {"url": "relative/v1", "name": "near"},
    ]
    return doc


def test_a_server_name_picks_the_base_url(tmp_path: Path) -> None:
    """S26.11: `--server NAME` (config `server`) serves the document's server of that name,
    its variables at their defaults (the first of a name given twice); a name the document
    does not give, a relative URL, or both `--server` and `--base-url` are refused naming
    the setting; a plans file keeps the names."""
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(named_servers("http://127.0.0.1:9")), encoding="utf-8")

    def base(**given: Any) -> str:
        settings = ApiSettings(document=str(spec), **given)
        (api,) = prepare([settings], "toolshape serve", {}, lambda line: None)
        return api.base_url

    assert base() == "https://prod.example/v1"
    assert base(server="local") == "http://127.0.0.1:9"
    assert base(server="prod") == "https://prod.example/v1"
    said = "toolshape: toolshape serve: "
    assert run_cli("serve", str(spec), "--server", "staging") == (
        2,
        f"{said}--server: no server is named 'staging' (the document's named servers are: "
        "'prod', 'local', 'near')\n",
    )
    assert run_cli("serve", str(spec), "--server", "near") == (
        2,
        f"{said}--server: the server 'near' `relative/v1` is relative; give the API's base URL\n",
    )
    both = run_cli("serve", str(spec), "--server", "local", "--base-url", "http://a.test")
    assert both == (2, f"{said}--base-url, --server: give one of them, not both\n")
    plans = tmp_path / "plans.json"
    assert run_cli("plan", str(spec), "--out", str(plans))[0] == 0
    from_file = ApiSettings(plans=str(plans), server="local")
    (api,) = prepare([from_file], "toolshape serve", {}, lambda line: None)
    assert api.base_url == "http://127.0.0.1:9"
    assert run_cli("serve", "--plans", str(plans), "--server", "staging") == (
        2,
        f"{said}--server: no server is named 'staging' (the document's named servers are: "
        "'prod', 'local', 'near')\n",
    )


def test_a_response_with_a_summary_and_no_description_is_read() -> None:
    """S26.11: a 3.2 response may have a `summary` and no `description`; it is read as any
    response (its output schema from its content)."""
    doc = document(
        get={
            "operationId": "listThings",
            "responses": {
                "200": {
                    "summary": "The things",
                    "content": {"application/json": {"schema": {"type": "array"}}},
                }
            },
        }
    )
    tool = plan_document(doc, style="flat").tools[1]
    assert tool.name == "listThings"
    assert "array" in tool.to_mcp_tool()["outputSchema"]["properties"]["result"]["type"]


@pytest.mark.integration
def test_a_named_server_is_where_calls_go() -> None:
    """S26.11 end to end: `serve --server local` sends a call to that server (the test
    upstream, in memory), not to the document's first."""
    from tests import upstream as up

    upstream = up.in_memory()
    with TemporaryDirectory() as folder:
        spec = Path(folder) / "openapi.json"
        spec.write_text(json.dumps(named_servers(upstream.base_url)), encoding="utf-8")
        settings = ApiSettings(document=str(spec), server="local", planning={"style": "flat"})
        (api,) = prepare([settings], "toolshape serve", {}, lambda line: None)
    assert api.base_url == upstream.base_url

    async def run() -> Any:
        async with (
            up.client(upstream) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return await client.call_tool("findThings", {"text": "x"})

    result = anyio.run(run)
    (seen,) = upstream.seen
    assert (seen.method, seen.path) == ("QUERY", "/things")
    assert result.is_error is False


THING = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}


def media_refs(version: str = "3.2.0") -> dict[str, Any]:
    """A document whose body, parameter and response content entries are `$ref`s to
    `components.mediaTypes`."""
    doc = document(version)
    doc["paths"]["/things"]["post"] = {
        "operationId": "makeThing",
        "parameters": [
            {
                "name": "filter",
                "in": "query",
                "content": {"application/json": {"$ref": "#/components/mediaTypes/Filter"}},
            }
        ],
        "requestBody": {"content": {"application/json": {"$ref": "#/components/mediaTypes/Thing"}}},
        "responses": {
            "201": {"content": {"application/json": {"$ref": "#/components/mediaTypes/Thing"}}}
        },
    }
    doc["components"] = {
        "mediaTypes": {
            "Thing": {"schema": THING},
            "Filter": {"schema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        }
    }
    return doc


def test_a_content_entry_may_be_a_reference_to_a_media_type() -> None:
    """S26.7: a `$ref` in a `content` entry (a body's, a parameter's, a response's) resolves
    inside the document, `components.mediaTypes` included; in a 3.1 document it is not a
    Media Type Object's field, so it is read as before (no schema)."""
    result = plan_document(media_refs(), style="nested")
    assert result.errors == ()
    tool = next(t for t in result.tools if t.name == "makeThing")
    properties = tool.input_schema["properties"]
    assert properties["body"] == THING
    assert properties["queryParams"]["properties"]["filter"] == {
        "type": "object",
        "properties": {"q": {"type": "string"}},
    }
    assert list(tool.to_mcp_tool()["outputSchema"]["properties"]) == ["id"]  # THING's
    broken = media_refs()
    del broken["components"]["mediaTypes"]["Thing"]
    (refused,) = plan_document(broken).errors
    assert (refused.kind, refused.operation) == ("reference", "makeThing")
    assert refused.reason == (
        "reference `#/components/mediaTypes/Thing` points to nothing in the document"
    )
    old = plan_document(media_refs("3.1.0"), style="nested")
    before = next(t for t in old.tools if t.name == "makeThing")
    assert "outputSchema" not in before.to_mcp_tool()
    assert before.input_schema["properties"]["body"] != THING


def self_document(ref: str, version: str = "3.2.0") -> dict[str, Any]:
    """A document whose `$self` is `https://api.example/specs/openapi.json` and whose
    `makeThing` body schema is `{"$ref": ref}`."""
    doc = document(version)
    doc["$self"] = "https://api.example/specs/openapi.json"
    content = {"application/json": {"schema": {"$ref": ref}}}
    doc["paths"]["/things"]["post"] = {
        "operationId": "makeThing",
        "requestBody": {"required": True, "content": content},
    }
    doc["components"] = {"schemas": {"Thing": THING}}
    return doc


@pytest.mark.parametrize(
    "ref",
    [
        "https://api.example/specs/openapi.json#/components/schemas/Thing",
        "openapi.json#/components/schemas/Thing",
        "../specs/openapi.json#/components/schemas/Thing",
    ],
    ids=["absolute", "relative", "relative-up"],
)
def test_a_reference_to_the_documents_own_uri_is_local(ref: str) -> None:
    """S26.7: `$self` is the document's base URI: a reference that resolves to it, written
    absolute or relative to it, names a place inside the document."""
    result = plan_document(self_document(ref), style="nested")
    assert result.errors == ()
    (tool,) = [t for t in result.tools if t.name == "makeThing"]
    assert tool.input_schema["properties"]["body"] == THING


@pytest.mark.parametrize(
    ("ref", "version"),
    [
        ("https://api.example/specs/other.json#/components/schemas/Thing", "3.2.0"),
        ("https://api.example/specs/openapi.json#/components/schemas/Thing", "3.1.0"),
    ],
    ids=["another-document", "3.1-has-no-self"],
)
def test_any_other_uri_stays_a_reference_error(ref: str, version: str) -> None:
    """S26.7, S1.2: a reference to any other document is refused (nothing is ever fetched),
    naming the document's `$self` when it has one; `$self` is a 3.2 field."""
    (refused,) = plan_document(self_document(ref, version)).errors
    within = (
        " (its `$self` is `https://api.example/specs/openapi.json`)" if version == "3.2.0" else ""
    )
    assert refused.kind == "reference"
    assert refused.reason == (
        f"reference `{ref}` is not local to the document{within}; toolshape never retrieves "
        "anything, so bundle it into the document"
    )


def openai_documents() -> list[Any]:
    """The 3.1 corpus document (OpenAI's): the repository's slice, and the whole one when
    `TOOLSHAPE_CORPUS` names it."""
    from tests.conftest import SLICE, whole_corpus

    found = [pytest.param(SLICE / "openai.json", id="slice-openai")]
    found += [pytest.param(p, id=p.stem) for p in whole_corpus() if p.name == "openai.json"]
    return found


@pytest.mark.parametrize("path", openai_documents())
def test_a_corpus_document_converted_to_3_2_plans_the_same_tools_and_its_new_ones(
    path: Path,
) -> None:
    """S26.1: a 3.1 corpus document made 3.2 — its version changed, a `query` operation and a
    streaming answer added — plans every tool of the original exactly as before (the same
    plan data), plus the two new ones: a `QUERY` tool and one answering items (S26.2, S26.6)."""
    import copy

    original = json.loads(path.read_text(encoding="utf-8"))
    assert original["openapi"].startswith("3.1")
    converted = copy.deepcopy(original)
    converted["openapi"] = "3.2.0"
    first = next(iter(converted["paths"]))
    converted["paths"][first]["query"] = {
        "operationId": "searchConverted",
        "requestBody": {"required": True, "content": {"application/json": {"schema": FILTER}}},
    }
    event = {"type": "object", "properties": {"data": {"type": "string"}}}
    stream = {"description": "events", "content": {"text/event-stream": {"itemSchema": event}}}
    converted["paths"]["/converted/events"] = {
        "get": {"operationId": "streamConverted", "responses": {"200": stream}}
    }
    before = plan_document(original, style="flat")
    after = plan_document(converted, style="flat")
    assert len(after.errors) == len(before.errors)
    old = {tool.name: tool.to_dict() for tool in before.tools}
    new = {tool.name: tool.to_dict() for tool in after.tools}
    assert set(new) == set(old) | {"searchConverted", "streamConverted"}
    assert {name: new[name] for name in old} == old
    assert new["searchConverted"]["method"] == "QUERY"
    assert new["streamConverted"]["outputItems"] is True
