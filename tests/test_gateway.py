"""End to end: the MCP SDK's own client, `toolshape.server` (and `toolshape serve`), and a real
HTTP upstream.

A small HTTP server on 127.0.0.1 (a free port) records what it receives and echoes it; the SDK's
`Client` (over its `ClientSession`) talks to `build_server`'s server in memory, or to
`toolshape serve` over stdio.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import SLICE
from tests.schemacheck import assert_valid_under_its_dialect
from toolshape import Options, Plan, plan_document
from toolshape.server import Api, build_server

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "src" / "toolshape" / "data" / "example.openapi.json"
)
T = TypeVar("T")
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


class Upstream(ThreadingHTTPServer):
    """Records every request: (method, path with query, lower-case headers, body bytes)."""

    seen: list[tuple[str, str, dict[str, str], bytes]]


class Echo(BaseHTTPRequestHandler):
    server: Upstream

    def _handle(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.seen.append((self.command, self.path, headers, body))
        reply = json.dumps(
            {"method": self.command, "path": self.path, "body": body.decode(), "results": []}
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    server = Upstream(("127.0.0.1", 0), Echo)
    server.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@cache
def document(name: str) -> Any:
    path = EXAMPLE if name == "example" else SLICE / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def plans(name: str, *ops: str, **kwargs: Any) -> list[Plan]:
    """Flat plans of a document; without output schemas (S16.3) unless `options` says so, since
    the echo upstream's answers are not what the documents' responses describe."""
    if "options" not in kwargs:
        kwargs["options"] = Options.preset(
            kwargs.pop("profile", "2026-11-06"), output_schemas=False
        )
    result = plan_document(document(name), style="flat", **kwargs)
    return [t for t in result.tools if not ops or t.operation_id in ops]


def session(
    upstream: Upstream,
    tools: list[Plan],
    work: Callable[[Client], Awaitable[T]],
    headers: dict[str, str] | None = None,
    mode: str = "legacy",
    credentials: dict[str, Any] | None = None,
) -> T:
    """Run `work` with an SDK client connected in memory to the gateway serving `tools`."""
    base = f"http://127.0.0.1:{upstream.server_address[1]}"

    async def run() -> T:
        async with httpx.AsyncClient() as http:
            api = Api(
                tuple(tools), base_url=base, headers=headers or {}, credentials=credentials or {}
            )
            server = build_server([api], http=http)
            async with Client(server, mode=mode) as client:
                return await work(client)

    return anyio.run(run)


def call(
    upstream: Upstream, tools: list[Plan], name: str, arguments: Any, **kw: Any
) -> tuple[types.CallToolResult, list[Any]]:
    """One tool call; returns the result and what the upstream received for it."""
    before = len(upstream.seen)
    result = session(upstream, tools, lambda c: c.call_tool(name, arguments), **kw)
    assert isinstance(result, types.CallToolResult)
    return result, upstream.seen[before:]


def refused(upstream: Upstream, tools: list[Plan], name: str, arguments: Any, **kw: Any) -> str:
    """A call the gateway must refuse: its isError text; the upstream saw nothing (S13.6)."""
    result, seen = call(upstream, tools, name, arguments, **kw)
    assert result.is_error
    assert seen == []
    return text(result)


def text(result: types.CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, types.TextContent)
    return content.text


# (id, document, operationId, flat call, its nested twin, what the upstream must see)
CASES: list[
    tuple[str, str, str, dict[str, Any], dict[str, Any], tuple[str, str, dict[str, str], Any]]
] = [
    (
        "worked example",
        "example",
        "searchProducts",
        {"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"},
        {
            "pathParams": {"storeId": "s1"},
            "queryParams": {"limit": 10},
            "body": {"query": "hoodie"},
            "headers": {"x-tenant": "acme"},
        },
        (
            "POST",
            "/stores/s1/search?limit=10",
            {"x-tenant": "acme", "content-type": "application/json"},
            {"query": "hoodie"},
        ),
    ),
    (
        "GitHub body property named body",
        "github",
        "issues/create",
        {"owner": "octo", "repo": "hello", "title": "Bug", "body": "It breaks", "labels": ["bug"]},
        {
            "pathParams": {"owner": "octo", "repo": "hello"},
            "body": {"title": "Bug", "body": "It breaks", "labels": ["bug"]},
        },
        (
            "POST",
            "/repos/octo/hello/issues",
            {"content-type": "application/json"},
            {"title": "Bug", "body": "It breaks", "labels": ["bug"]},
        ),
    ),
    (
        "Stripe form body",
        "stripe",
        "PostCustomers",
        {"email": "ada@example.com", "name": "Ada", "metadata": {"plan": "pro"}},
        {"body": {"email": "ada@example.com", "name": "Ada", "metadata": {"plan": "pro"}}},
        (
            "POST",
            "/v1/customers",
            {"content-type": "application/x-www-form-urlencoded"},
            # S17.3: Stripe's encoding map declares metadata `deepObject`; the pairs as parsed.
            [("email", "ada@example.com"), ("name", "Ada"), ("metadata[plan]", "pro")],
        ),
    ),
]


@pytest.mark.parametrize(
    ("doc", "op", "flat", "nested", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_flat_and_nested_calls_reach_upstream_identically(
    upstream: Upstream,
    doc: str,
    op: str,
    flat: dict[str, Any],
    nested: dict[str, Any],
    expected: Any,
) -> None:
    """Case 1 (S12, S13.1): the flat and the nested call send byte-identical requests."""
    tools = plans(doc, op)
    name = tools[0].name
    flat_result, flat_seen = call(upstream, tools, name, flat)
    nested_result, nested_seen = call(upstream, tools, name, nested)
    assert not flat_result.is_error, text(flat_result)
    assert not nested_result.is_error, text(nested_result)
    assert flat_seen == nested_seen
    ((method, path, headers, body),) = flat_seen
    want_method, want_path, want_headers, want_body = expected
    assert (method, path) == (want_method, want_path)
    if isinstance(want_body, list):  # a form body, read by the standard library's parser
        assert parse_qsl(body.decode("ascii"), keep_blank_values=True, strict_parsing=True) == (
            want_body
        )
    else:
        assert json.loads(body) == want_body
    for key, value in want_headers.items():
        assert headers[key] == value


def test_kubernetes_collision_planned_nested_routes_both_dry_runs(upstream: Upstream) -> None:
    """Case 1 (S9.1): a query/body collision planned nested keeps `dryRun` in both channels."""
    tools = plans(
        "kubernetes-core-v1",
        "deleteCoreV1Namespace",
        styles={"deleteCoreV1Namespace": "nested"},
    )
    (tool,) = tools
    assert tool.style == "nested"
    nested = {
        "pathParams": {"name": "prod"},
        "queryParams": {"dryRun": "All"},
        "body": {"dryRun": ["All"], "gracePeriodSeconds": 0},
    }
    result, seen = call(upstream, tools, tool.name, nested)
    assert not result.is_error, text(result)
    ((method, path, _, body),) = seen
    assert (method, path) == ("DELETE", "/api/v1/namespaces/prod?dryRun=All")
    assert json.loads(body) == {"dryRun": ["All"], "gracePeriodSeconds": 0}


def test_undeclared_argument_closed_body_rejected_before_upstream(upstream: Upstream) -> None:
    """Case 2 (S7): against a closed body an undeclared argument is an error; upstream sees nothing."""
    tools = plans("example", "searchProducts")
    answer = refused(
        upstream,
        tools,
        "searchProducts",
        {"storeId": "s1", "query": "q", "x-tenant": "a", "color": "red"},
    )
    assert answer.startswith("Invalid arguments for tool 'searchProducts'")


@pytest.mark.parametrize("name", ["color", "authorization", "headers"])
def test_undeclared_argument_open_body_arrives_in_body_never_header(
    upstream: Upstream, name: str
) -> None:
    """Case 2 (S7): against an open body it arrives in the upstream body, never as a header."""
    tools = plans("github", "issues/create")
    result, seen = call(
        upstream, tools, tools[0].name, {"owner": "o", "repo": "r", "title": "t", name: "v"}
    )
    assert not result.is_error, text(result)
    ((_, _, headers, body),) = seen
    assert json.loads(body) == {"title": "t", name: "v"}
    assert headers.get(name) != "v"


def test_header_argument_replaces_inbound_header(upstream: Upstream) -> None:
    """Case 3 (S12.2): a header argument replaces the gateway's header of the same name."""
    tools = plans("example", "searchProducts")
    result, seen = call(
        upstream,
        tools,
        "searchProducts",
        {"storeId": "s1", "query": "q", "x-tenant": "from-model"},
        headers={"X-Tenant": "gateway-default", "x-trace": "t1"},
    )
    assert not result.is_error
    ((_, _, headers, _),) = seen
    assert headers["x-tenant"] == "from-model"
    assert headers["x-trace"] == "t1"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_validation_error_is_is_error_text_and_upstream_sees_nothing(
    upstream: Upstream, mode: str
) -> None:
    """Case 4 (S13.4, S13.6): isError text starting `Invalid arguments for tool '`; no upstream call."""
    tools = plans("example", "searchProducts")
    answer = refused(
        upstream,
        tools,
        "searchProducts",
        {"storeId": "s1", "query": "q", "x-tenant": "a", "sort": "size"},
        mode=mode,
    )
    assert (
        answer
        == 'Invalid arguments for tool \'searchProducts\': sort: "size" is not one of ["price", "name"]'
    )


def test_composed_body_violating_original_schema_reports_body_path(upstream: Upstream) -> None:
    """Case 5 (S6.3): an allOf body missing a branch's required property: a `body: ...` error."""
    tools = plans("example", "createOrder")
    answer = refused(
        upstream, tools, "createOrder", {"pathParams": {"storeId": "s1"}, "body": {"sku": "a"}}
    )
    assert (
        answer == "Invalid arguments for tool 'createOrder': body: \"note\" is a required property"
    )
    result, seen = call(
        upstream, tools, "createOrder", {"storeId": "s1", "sku": "a", "note": "n", "quantity": 2}
    )
    assert not result.is_error
    assert json.loads(seen[0][3]) == {"sku": "a", "note": "n", "quantity": 2}


@pytest.mark.parametrize("doc", ["example", "github", "stripe", "kubernetes-core-v1"])
def test_every_listed_schema_survives_the_sdk_and_is_valid_2020_12(
    upstream: Upstream, doc: str
) -> None:
    """Case 6: the SDK's tool model accepts every inputSchema unchanged (up to key order), and each
    is valid JSON Schema 2020-12."""
    tools = plans(doc, profile="legacy")
    listed = session(upstream, tools, lambda c: c.list_tools())
    assert [t.name for t in listed.tools] == [t.name for t in tools]
    for tool, plan in zip(listed.tools, tools, strict=True):
        assert tool.input_schema == plan.input_schema
        assert tool.input_schema.get("$schema", DRAFT_2020_12) == DRAFT_2020_12
        assert_valid_under_its_dialect(tool.input_schema)


def test_sdk_does_not_validate_arguments_itself(upstream: Upstream) -> None:
    """The SDK (mcp 2.x low-level server and client) passes arguments through unvalidated, so
    toolshape's validation is the only one: a wrong type reaches the gateway and is refused there."""
    tools = plans("example", "searchProducts")
    answer = refused(
        upstream, tools, "searchProducts", {"storeId": 5, "query": "q", "x-tenant": "a"}
    )
    assert (
        answer
        == "Invalid arguments for tool 'searchProducts': storeId: 5 is not of type \"string\""
    )


def test_gateway_runs_over_stdio_from_the_repository_root(upstream: Upstream) -> None:
    """`toolshape serve SPEC --base-url URL` serves MCP over stdio."""
    root = Path(__file__).resolve().parents[1]
    base = f"http://127.0.0.1:{upstream.server_address[1]}"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "toolshape", "serve", str(EXAMPLE), "--base-url", base, "--style", "flat"],
        cwd=str(root),
    )

    async def run() -> tuple[list[str], str]:
        async with Client(params) as client:
            listed = await client.list_tools()
            result = await client.call_tool(
                "searchProducts", {"storeId": "s9", "query": "q", "x-tenant": "t"}
            )
            return [t.name for t in listed.tools], text(result)

    names, answer = anyio.run(run)
    assert names == ["searchProducts", "createOrder", "updateItem", "replaceTags", "getStore"]
    assert json.loads(answer)["path"] == "/stores/s9/search"


# -- S16: the whole tool and the answer back, end to end --------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRtoolshape"
STORE_API: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "answers", "version": "1"},
    "paths": {
        "/stores/{storeId}": {
            "get": {
                "operationId": "getStore",
                "summary": "Get a store",
                "description": "One store by id.",
                "parameters": [
                    {
                        "name": "storeId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The store",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "string"},
                                        "name": {"type": "string"},
                                    },
                                    "required": ["id", "name"],
                                }
                            }
                        },
                    }
                },
            }
        },
        "/stores/{storeId}/tags": {
            "get": {
                "operationId": "listTags",
                "summary": "List a store's tags",
                "parameters": [
                    {
                        "name": "storeId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": {
                        "description": "Tags",
                        "content": {
                            "application/json": {
                                "schema": {"type": "array", "items": {"type": "string"}}
                            }
                        },
                    }
                },
            }
        },
        "/stores/{storeId}/logo": {
            "delete": {
                "operationId": "dropLogo",
                "summary": "Remove a store's logo",
                "deprecated": True,
                "x-mcp-annotations": {"destructiveHint": False},
                "parameters": [
                    {
                        "name": "storeId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
            },
            "get": {
                "operationId": "getLogo",
                "summary": "A store's logo",
                "parameters": [
                    {
                        "name": "storeId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {"200": {"description": "PNG", "content": {"image/png": {}}}},
            },
        },
    },
}


class Answers(BaseHTTPRequestHandler):
    """Answers like the API STORE_API describes: JSON, an image, and a 404 for `missing`."""

    def do_GET(self) -> None:
        if self.path == "/stores/missing":
            self._send(404, "application/json", b'{"error": "no such store"}')
        elif self.path.endswith("/logo"):
            self._send(200, "image/png", PNG)
        elif self.path.endswith("/tags"):
            self._send(200, "application/json", b'["new", "sale"]')
        else:
            self._send(200, "application/json; charset=utf-8", b'{"id": "s1", "name": "Shop"}')

    def do_DELETE(self) -> None:
        self._send(204, "text/plain", b"")

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


def test_the_whole_tool_and_its_answers_through_the_sdk() -> None:
    """S16 end to end: the SDK's client lists titles, descriptions, annotations and output
    schemas as planned, and accepts every answer — structured JSON (validated against the
    output schema on its own side), a wrapped array, an image, an error — through the
    example gateway and a real HTTP upstream on 127.0.0.1."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    tools = list(plan_document(STORE_API, style="flat").tools)

    async def run() -> tuple[Any, ...]:
        async with httpx.AsyncClient() as http:
            gateway = build_server([Api(tuple(tools), base_url=base)], http=http)
            async with Client(gateway, mode="legacy") as client:
                listed = await client.list_tools()
                return (
                    listed,
                    await client.call_tool("getStore", {"storeId": "s1"}),
                    await client.call_tool("listTags", {"storeId": "s1"}),
                    await client.call_tool("getLogo", {"storeId": "s1"}),
                    await client.call_tool("getStore", {"storeId": "missing"}),
                    await client.call_tool("dropLogo", {"storeId": "s1"}),
                )

    try:
        listed, store, tags, logo, missing, dropped = anyio.run(run)
    finally:
        server.shutdown()
        server.server_close()
    by_name = {tool.name: tool for tool in listed.tools}
    for plan in tools:
        sent = by_name[plan.name].model_dump(by_alias=True, exclude_none=True)
        planned = plan.to_mcp_tool()
        assert (sent.get("title"), sent["description"]) == (
            planned.get("title"),
            planned["description"],
        )
        assert sent["annotations"] == planned["annotations"]
        assert sent.get("outputSchema") == planned.get("outputSchema")
    assert by_name["dropLogo"].description == "Deprecated. Remove a store's logo"
    assert by_name["dropLogo"].annotations is not None
    assert by_name["dropLogo"].annotations.destructive_hint is False
    assert (store.is_error, store.structured_content) == (False, {"id": "s1", "name": "Shop"})
    assert (tags.is_error, tags.structured_content) == (False, {"result": ["new", "sale"]})
    (image,) = logo.content
    assert isinstance(image, types.ImageContent)
    assert (logo.is_error, image.mime_type, image.data) == (
        False,
        "image/png",
        base64.b64encode(PNG).decode(),
    )
    assert missing.is_error
    assert text(missing) == 'HTTP 404: {"error": "no such store"}'
    assert (dropped.is_error, text(dropped)) == (False, "")


# -- S17: form and multipart bodies reach a real parser ---------------------------------------

FORMS_API: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "forms", "version": "1"},
    "paths": {
        "/customers": {
            "post": {
                "operationId": "createCustomer",
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "email": {"type": "string"},
                                    "metadata": {"type": "object"},
                                    "expand": {"type": "array", "items": {"type": "string"}},
                                },
                            },
                            "encoding": {
                                "metadata": {"style": "deepObject", "explode": True},
                                "expand": {"style": "deepObject", "explode": True},
                            },
                        }
                    }
                },
            }
        },
        "/files": {
            "post": {
                "operationId": "uploadFile",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "file": {"type": "string", "contentMediaType": "image/png"},
                                    "purpose": {"type": "string"},
                                    "tags": {"type": "array", "items": {"type": "string"}},
                                },
                                "required": ["file"],
                            }
                        }
                    },
                },
            }
        },
    },
}


async def parsed_form(request: Any) -> Any:
    """The upstream: Starlette parses the body with its own parser (python-multipart) and echoes
    what it understood: text fields as text, files as name, type and base64 bytes."""
    from starlette.datastructures import UploadFile
    from starlette.responses import JSONResponse

    form = await request.form()
    fields: list[Any] = []
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            data = await value.read()
            fields.append(
                [
                    key,
                    {
                        "filename": value.filename,
                        "type": value.content_type,
                        "base64": base64.b64encode(data).decode(),
                    },
                ]
            )
        else:
            fields.append([key, value])
    await form.close()  # the upload's spooled file
    return JSONResponse(
        {"contentType": request.headers["content-type"].split(";")[0], "fields": fields}
    )


def test_form_and_multipart_bodies_arrive_exactly_through_the_sdk() -> None:
    """S17 end to end: the SDK's client → the example gateway → a Starlette app run by uvicorn
    on 127.0.0.1, parsing with its own parser: a form with nested metadata and an indexed array,
    and a multipart upload of bytes that are not UTF-8, arrive exactly."""
    import socket
    import time

    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Route

    app = Starlette(routes=[Route("/{rest:path}", parsed_form, methods=["POST"])])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    tools = list(
        plan_document(FORMS_API, style="flat", options=Options.preset(output_schemas=False)).tools
    )
    image = b"\x89PNG\r\n\x1a\n\x00\xff\xfe binary, not UTF-8 \x80\x81"
    base = f"http://127.0.0.1:{port}"

    async def run() -> tuple[Any, Any]:
        async with httpx.AsyncClient() as http:
            gateway = build_server([Api(tuple(tools), base_url=base)], http=http)
            async with Client(gateway, mode="legacy") as client:
                form = await client.call_tool(
                    "createCustomer",
                    {
                        "email": "ada+1@example.com",
                        "metadata": {"plan": "pro", "a&b": "c=d"},
                        "expand": ["customer"],
                    },
                )
                upload = await client.call_tool(
                    "uploadFile",
                    {
                        "file": base64.b64encode(image).decode(),
                        "purpose": "dispute evidence",
                        "tags": ["a", "b"],
                    },
                )
                return form, upload

    try:
        form, upload = anyio.run(run)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert not form.is_error, text(form)
    assert json.loads(text(form)) == {
        "contentType": "application/x-www-form-urlencoded",
        "fields": [
            ["email", "ada+1@example.com"],
            ["metadata[plan]", "pro"],
            ["metadata[a&b]", "c=d"],
            ["expand[0]", "customer"],
        ],
    }
    assert not upload.is_error, text(upload)
    assert json.loads(text(upload)) == {
        "contentType": "multipart/form-data",
        "fields": [
            [
                "file",
                {
                    "filename": "file",
                    "type": "image/png",
                    "base64": base64.b64encode(image).decode(),
                },
            ],
            ["purpose", "dispute evidence"],
            ["tags", '["a", "b"]'],
        ],
    }


# -- S18: credentials and fixed arguments, end to end -----------------------------------------

SECURE_API: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "reports", "version": "1"},
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
    "security": [{"bearerAuth": []}],
    "paths": {
        "/reports": {
            "get": {
                "operationId": "listReports",
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {
                        "name": "api-version",
                        "in": "query",
                        "required": True,
                        "schema": {"enum": ["2024-01", "2025-01"]},
                    },
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


class Guarded(Echo):
    """An upstream that checks the `Authorization` header: 401 unless it is the token."""

    server: GuardedUpstream

    def _handle(self) -> None:
        if self.headers.get("authorization") == f"Bearer {self.server.token}":
            super()._handle()
            return
        self.server.seen.append((self.command, self.path, {}, b"refused"))
        reply = b'{"error": "unauthorized"}'
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = _handle


class GuardedUpstream(Upstream):
    token: str


def test_credentials_from_the_environment_and_fixed_arguments_over_stdio(tmp_path: Path) -> None:
    """S18 end to end: the SDK's client → `toolshape serve --credential
    bearerAuth=env:REPORTS_TOKEN --fixed api-version=...` over stdio → an upstream that checks
    the bearer token. The token comes from the gateway's environment and never appears in the
    tools; the fixed query parameter arrives on every call; a model argument naming it gets the
    S13.6 error answer and the upstream is not called."""
    server = GuardedUpstream(("127.0.0.1", 0), Guarded)
    server.seen = []
    server.token = "s3cret-token"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    spec = tmp_path / "reports.json"
    spec.write_text(json.dumps(SECURE_API), encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "toolshape",
            "serve",
            str(spec),
            "--base-url",
            f"http://127.0.0.1:{server.server_address[1]}",
            "--style",
            "flat",
            "--credential",
            "bearerAuth=env:REPORTS_TOKEN",
            "--fixed",
            'api-version="2025-01"',
        ],
        cwd=str(Path(__file__).resolve().parents[1]),
        env={"REPORTS_TOKEN": "s3cret-token"},
    )

    async def run() -> tuple[Any, list[types.CallToolResult]]:
        async with Client(params) as client:
            listed = await client.list_tools()
            results = [
                await client.call_tool("listReports", {"q": "sales"}),
                await client.call_tool("listReports", {}),
                await client.call_tool("listReports", {"q": "x", "api-version": "2024-01"}),
            ]
            return listed, results

    try:
        listed, (first, second, forged) = anyio.run(run)
    finally:
        server.shutdown()
        server.server_close()
    (tool,) = listed.tools
    assert set(tool.input_schema["properties"]) == {"q"}
    assert "s3cret" not in json.dumps(tool.model_dump(mode="json"))
    assert not first.is_error, text(first)
    assert not second.is_error, text(second)
    assert [(method, path) for method, path, _, _ in server.seen] == [
        ("GET", "/reports?q=sales&api-version=2025-01"),
        ("GET", "/reports?api-version=2025-01"),
    ]
    assert all(
        headers["authorization"] == "Bearer s3cret-token" for _, _, headers, _ in server.seen
    )
    assert forged.is_error
    assert "api-version: `api-version` is set by the gateway" in text(forged)


def test_credentials_no_alternative_accepts_are_a_gateway_error(upstream: Upstream) -> None:
    """S18.2: the gateway's configuration at fault: an error answer that says so, and the
    upstream is not called."""
    tools = list(plan_document(SECURE_API, style="flat", fixed={"api-version": "2025-01"}).tools)
    answer = refused(upstream, tools, "listReports", {}, credentials={"basicAuth": "u:p"})
    assert answer.startswith("gateway error: Credentials for tool 'listReports' satisfy none")


# -- S19: aliases and renames, end to end -----------------------------------------------------

ALIASED_API: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "aliases", "version": "1"},
    "paths": {
        "/incidents": {  # PagerDuty-like: `include[]`
            "get": {
                "operationId": "listIncidents",
                "parameters": [
                    {
                        "name": "include[]",
                        "in": "query",
                        "explode": True,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    }
                ],
            }
        },
        "/Accounts/{AccountSid}/Calls.json": {  # Twilio-like: `AccountSid` in path and body
            "post": {
                "operationId": "CreateCall",
                "parameters": [
                    {"name": "AccountSid", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "AccountSid": {"type": "string"},
                                    "To": {"type": "string"},
                                    "StartTime<": {"type": "string"},
                                },
                            }
                        }
                    }
                },
            }
        },
    },
}  # fmt: skip


def test_aliases_and_renames_reach_the_upstream_as_wire_names(upstream: Upstream) -> None:
    """S19 end to end: the SDK's client calls an aliased `include` (`include[]`) and a renamed
    `AccountSid__path` through the example gateway; the upstream receives the wire names."""
    options = Options.preset(portable_names=True, on_collision="rename", output_schemas=False)
    tools = list(plan_document(ALIASED_API, style="flat", options=options).tools)
    listed = session(upstream, tools, lambda c: c.list_tools())
    assert {t.name: sorted(t.input_schema["properties"]) for t in listed.tools} == {
        "listIncidents": ["include"],
        "CreateCall": ["AccountSid", "AccountSid__path", "StartTime", "To"],
    }
    incidents, seen = call(upstream, tools, "listIncidents", {"include": ["assignees", "teams"]})
    assert not incidents.is_error, text(incidents)
    assert [(m, p) for m, p, _, _ in seen] == [
        ("GET", "/incidents?include[]=assignees&include[]=teams")
    ]
    arguments = {"AccountSid__path": "AC1", "AccountSid": "AC2", "To": "+1", "StartTime": "t0"}
    created, seen = call(upstream, tools, "CreateCall", arguments)
    assert not created.is_error, text(created)
    ((method, path, headers, body),) = seen
    assert (method, path) == ("POST", "/Accounts/AC1/Calls.json")
    assert headers["content-type"] == "application/x-www-form-urlencoded"
    assert parse_qsl(body.decode("ascii"), strict_parsing=True) == [
        ("AccountSid", "AC2"),
        ("To", "+1"),
        ("StartTime<", "t0"),
    ]


# -- S20: a YAML (Swagger 2.0) document as the gateway's input -------------------------------


def test_the_gateway_serves_a_yaml_swagger_20_document(upstream: Upstream) -> None:
    """S20.2, S20.3 end to end: `toolshape serve shop.swagger.yaml` over stdio reads
    YAML, converts Swagger 2.0, keeps only `--tag orders`, and sends requests under the
    document's `basePath`."""
    root = Path(__file__).resolve().parents[1]
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "toolshape",
            "serve",
            str(root / "tests" / "data" / "shop.swagger.yaml"),
            "--base-url",
            f"http://127.0.0.1:{upstream.server_address[1]}",
            "--style",
            "flat",
            "--tag",
            "orders",
            "--no-deprecated",
        ],
        cwd=str(root),
    )

    async def run() -> tuple[list[str], types.CallToolResult]:
        async with Client(params) as client:
            listed = await client.list_tools()
            answer = await client.call_tool("payOrder", {"orderId": "o1", "amount": 5, "idempotency-key": "k"})  # fmt: skip
            return sorted(t.name for t in listed.tools), answer

    before = len(upstream.seen)
    names, answer = anyio.run(run)
    assert names == ["createOrder", "getOrder", "listOrders", "payOrder", "setOrderLine"]
    assert not answer.is_error, text(answer)
    ((method, path, headers, _),) = upstream.seen[before:]
    assert (method, path, headers["idempotency-key"]) == (
        "POST",
        "/api/v1/orders/o1/pay?amount=5",
        "k",
    )


# -- Issue 17: the gateway started from a plans file -------------------------------------------


@pytest.mark.parametrize(
    ("document", "flags", "calls"),
    [
        (
            EXAMPLE,
            [],
            [
                ("searchProducts", {"storeId": "s9", "query": "q", "x-tenant": "t"}),
                ("searchProducts", {"storeId": 5, "query": "q", "x-tenant": "t"}),
                ("getStore", {"storeId": "a b"}),
            ],
        ),
        (
            Path(__file__).parent / "data" / "shop.swagger.yaml",
            ["--tag", "orders"],
            [
                ("payOrder", {"orderId": "o1", "amount": 5, "idempotency-key": "k"}),
                ("payOrder", {"orderId": "o1", "amount": "five", "idempotency-key": "k"}),
                ("listOrders", {}),
            ],
        ),
    ],
    ids=["example", "shop-swagger-yaml"],
)
def test_a_gateway_from_plans_serves_exactly_what_one_from_the_document_does(
    upstream: Upstream,
    tmp_path: Path,
    document: Path,
    flags: list[str],
    calls: list[tuple[str, dict[str, Any]]],
) -> None:
    """Issue 17 end to end: `toolshape plan SPEC --out plans.json`, then `python -m
    toolshape serve --plans plans.json` run where no document is on disk: the MCP SDK's client
    lists the same tools (every field) and gets the same answers, and the upstream the same
    requests, as from the gateway that plans the document itself."""
    from toolshape.cli import main as toolshape_main

    root = Path(__file__).resolve().parents[1]
    plans_file = tmp_path / "plans.json"
    serve_preset = ["--on-collision", "rename", "--on-unflattenable", "nested"]
    status = toolshape_main(
        ["plan", str(document), "--style", "flat", *serve_preset, *flags, "--out", str(plans_file)],
        out=io.StringIO(),
        err=io.StringIO(),
    )
    assert status in (0, 1)
    base = ["--base-url", f"http://127.0.0.1:{upstream.server_address[1]}"]
    runs = {
        "document": (
            ["-m", "toolshape", "serve", str(document), *base, "--style", "flat", *flags],
            root,
        ),
        "plans": (["-m", "toolshape", "serve", "--plans", "plans.json", *base], tmp_path),
    }

    def served(args: list[str], cwd: Path) -> tuple[Any, Any, Any]:
        params = StdioServerParameters(
            command=sys.executable,
            args=args,
            cwd=str(cwd),
            env={**os.environ, "PYTHONPATH": str(root)},
        )

        async def run() -> tuple[Any, Any]:
            async with Client(params) as client:
                listed = await client.list_tools()
                answers = [await client.call_tool(name, arguments) for name, arguments in calls]
                return (
                    [tool.model_dump() for tool in listed.tools],
                    [answer.model_dump() for answer in answers],
                )

        before = len(upstream.seen)
        listed, answers = anyio.run(run)
        return listed, answers, upstream.seen[before:]

    from_document = served(*runs["document"])
    from_plans = served(*runs["plans"])
    assert [p.name for p in tmp_path.iterdir()] == ["plans.json"]  # no document on disk
    assert from_plans == from_document
    listed, answers, seen = from_plans
    assert len(listed) >= 3
    assert any(answer["is_error"] for answer in answers)  # a refusal, the same from both
    assert len(seen) == len(calls) - 1  # ... and every accepted call reached the upstream


def test_serve_refuses_a_plans_file_of_another_version_saying_how_to_rebuild(
    tmp_path: Path,
) -> None:
    from toolshape.cli import main

    old = tmp_path / "plans.json"
    old.write_text(json.dumps({"format": "toolshape.plans/0", "tools": []}), encoding="utf-8")
    err = io.StringIO()
    assert (
        main(["serve", "--plans", str(old), "--base-url", "http://127.0.0.1:9"], io.StringIO(), err)
        == 2
    )
    assert err.getvalue() == (
        f"toolshape: toolshape serve: --plans: can't serve {old}: not a toolshape plans file: "
        "format is 'toolshape.plans/0', expected 'toolshape.plans/4'; plan the document again "
        "with this version: `toolshape plan SPEC --out FILE`\n"
    )
    err = io.StringIO()  # planning switches don't apply to a plans file
    main(
        ["serve", "--plans", str(old), "--base-url", "http://x", "--style", "nested"],
        io.StringIO(),
        err,
    )
    assert "--style: a plans file is served as it was planned" in err.getvalue()
