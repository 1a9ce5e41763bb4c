"""A real HTTP upstream on the loopback interface (Starlette under uvicorn, in a thread): it
records every request and answers JSON, an image, a 404, a slow answer, a dropped connection and
a large answer — and the OpenAPI document that describes it (S23's end-to-end tests)."""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"


@dataclass
class Seen:
    """One request the upstream received."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Upstream:
    """The running upstream: its base URL and what it received, in order."""

    base_url: str
    seen: list[Seen] = field(default_factory=list)
    issued: list[str] = field(default_factory=list)
    """S27.5: the tokens `/token` gave, in order."""
    refused: set[str] = field(default_factory=set)
    """S27.5: tokens `/secure` answers 401 to (as if revoked)."""
    lifetime: int = 3600
    """S27.5: the `expires_in` of the tokens `/token` gives."""

    def since(self, count: int) -> list[Seen]:
        return self.seen[count:]


def _app(upstream: Upstream) -> Starlette:
    async def record(request: Request) -> Seen:
        seen = Seen(
            request.method,
            request.url.path,
            request.url.query,
            {k.lower(): v for k, v in request.headers.items()},
            await request.body(),
        )
        upstream.seen.append(seen)
        return seen

    async def echo(request: Request) -> Response:
        seen = await record(request)
        return JSONResponse(
            {
                "method": seen.method,
                "path": seen.path,
                "query": seen.query,
                "body": seen.body.decode("utf-8", "replace"),
            }
        )

    async def image(request: Request) -> Response:
        await record(request)
        return Response(PNG, media_type="image/png")

    async def missing(request: Request) -> Response:
        await record(request)
        return JSONResponse({"error": "no such thing"}, status_code=404)

    async def slow(request: Request) -> Response:
        await record(request)
        await asyncio.sleep(3)
        return JSONResponse({"late": True})

    async def drop(request: Request) -> Response:
        await record(request)

        async def broken() -> AsyncIterator[bytes]:
            yield b'{"started": '
            raise ConnectionResetError("the upstream drops the connection")

        return StreamingResponse(broken(), media_type="application/json")

    async def moved(request: Request) -> Response:
        await record(request)
        return Response(status_code=302, headers={"location": "http://elsewhere.invalid/x"})

    async def big(request: Request) -> Response:
        await record(request)
        size = int(request.query_params.get("size", "1000"))
        return Response(b'"' + b"x" * size + b'"', media_type="application/json")

    async def items(request: Request) -> Response:
        """`count` items as a JSON page (S25.6: a large JSON answer to cut), gzipped when the
        query says `gzip=1` (the body inflating past the download cap)."""
        await record(request)
        count = int(request.query_params.get("count", "10"))
        page = {"data": [{"id": i, "name": f"item {i}"} for i in range(count)], "total": count}
        body = json.dumps(page).encode()
        if request.query_params.get("gzip") == "1":
            headers = {"content-encoding": "gzip"}
            return Response(gzip.compress(body), media_type="application/json", headers=headers)
        return Response(body, media_type="application/json")

    async def lines(request: Request) -> Response:
        """`count` items as JSON Lines, or as server-sent events when the query says
        `events=1` (S26.6: a sequential answer, read item by item)."""
        await record(request)
        count = int(request.query_params.get("count", "3"))
        if request.query_params.get("events") == "1":
            text = "".join(f"event: tick\nid: {i}\ndata: item {i}\n\n" for i in range(count))
            return Response(text, media_type="text/event-stream")
        text = "".join(json.dumps({"id": i, "name": f"item {i}"}) + "\n" for i in range(count))
        return Response(text, media_type="application/jsonl")

    async def token(request: Request) -> Response:
        """S27.5: an OAuth2 token endpoint for client `cid` with secret `s3cret`."""
        seen = await record(request)
        expected = "Basic " + base64.b64encode(b"cid:s3cret").decode()
        if seen.headers.get("authorization") != expected:
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        if b"grant_type=client_credentials" not in seen.body:
            return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
        upstream.issued.append(f"tok{len(upstream.issued) + 1}")
        answer = {"access_token": upstream.issued[-1], "token_type": "Bearer"}
        return JSONResponse({**answer, "expires_in": upstream.lifetime})

    async def secure(request: Request) -> Response:
        """S27.5: 200 for the last token given (unless refused), else 401."""
        seen = await record(request)
        given = seen.headers.get("authorization", "").removeprefix("Bearer ")
        if not upstream.issued or given != upstream.issued[-1] or given in upstream.refused:
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        return JSONResponse({"ok": True})

    routes = [
        Route("/token", token, methods=["POST"]),
        Route("/secure", secure),
        Route("/items", items),
        Route("/lines", lines, methods=["GET", "POST"]),
        Route("/events", lines),  # `events=1` in its query: server-sent events
        Route("/things/{id}", echo, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        Route("/things", echo, methods=["GET", "POST", "QUERY", "LINK"]),
        Route("/me", echo, methods=["GET"]),
        Route("/image", image),
        Route("/missing", missing),
        Route("/slow", slow),
        Route("/drop", drop),
        Route("/big", big),
        Route("/moved", moved),
    ]
    return Starlette(routes=routes)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The base URL of an in-memory upstream (`in_memory`): loopback, so a token URL on it passes
#: S27.5's check; nothing listens there, the transport answers.
MEMORY_URL = "http://127.0.0.1:9"


def in_memory() -> Upstream:
    """An upstream answered in memory: `client(upstream)` sends requests to its app."""
    return Upstream(MEMORY_URL)


def client(upstream: Upstream) -> Any:
    """An httpx client whose requests `upstream`'s app answers in memory (httpx's
    `ASGITransport`), for `build_server(..., http=...)`; one per event loop."""
    import httpx

    return httpx.AsyncClient(transport=httpx.ASGITransport(app=_app(upstream)), timeout=None)


def running() -> Iterator[Upstream]:
    """Run an upstream until the generator is closed (a pytest fixture's body)."""
    port = free_port()
    upstream = Upstream(f"http://127.0.0.1:{port}")
    config = uvicorn.Config(_app(upstream), host="127.0.0.1", port=port, log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:  # pragma: no cover - a machine too busy to start it
            raise RuntimeError("the upstream did not start")
        time.sleep(0.01)
    yield upstream
    server.should_exit = True
    thread.join(timeout=10)


def document(base_url: str | None = None) -> dict[str, Any]:
    """The OpenAPI document that describes the upstream (its server at `base_url`)."""
    thing = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "size": {"type": "integer", "minimum": 0},
        },
        "required": ["name"],
    }
    echo = {
        "description": "what the upstream saw",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "method": {"type": "string"},
                        "path": {"type": "string"},
                        "query": {"type": "string"},
                        "body": {"type": "string"},
                    },
                    "required": ["method", "path"],
                }
            }
        },
    }
    identifier = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    out: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Echo", "version": "1"},
        "paths": {
            "/things/{id}": {
                "post": {
                    "operationId": "createThing",
                    "summary": "Create a thing",
                    "tags": ["things"],
                    "parameters": [
                        identifier,
                        {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
                        {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": thing}},
                    },
                    "responses": {"200": echo},
                },
                "get": {
                    "operationId": "getThing",
                    "summary": "Get a thing",
                    "tags": ["things"],
                    "parameters": [identifier],
                    "responses": {"200": echo},
                },
            },
            "/things": {
                "get": {
                    "operationId": "listThings",
                    "summary": "List things",
                    "tags": ["things"],
                    "parameters": [
                        {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                        {
                            "name": "tag",
                            "in": "query",
                            "schema": {"type": "array", "items": {"type": "string"}},
                        },
                    ],
                    "responses": {"200": echo},
                }
            },
            "/me": {
                "get": {
                    "operationId": "whoAmI",
                    "summary": "The caller",
                    "security": [{"bearerAuth": []}],
                    "responses": {"200": echo},
                }
            },
            "/image": {
                "get": {
                    "operationId": "getImage",
                    "responses": {
                        "200": {"description": "a picture", "content": {"image/png": {}}}
                    },
                }
            },
            "/missing": {"get": {"operationId": "getMissing", "responses": {"200": echo}}},
            "/slow": {"get": {"operationId": "getSlow", "responses": {"200": echo}}},
            "/drop": {"get": {"operationId": "getDropped", "responses": {"200": echo}}},
            "/moved": {
                "get": {"operationId": "getMoved", "responses": {"302": {"description": "moved"}}}
            },
            "/big": {
                "get": {
                    "operationId": "getBig",
                    "parameters": [{"name": "size", "in": "query", "schema": {"type": "integer"}}],
                    "responses": {"200": {"description": "text"}},
                }
            },
        },
        "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
    }
    if base_url is not None:
        out["servers"] = [{"url": base_url}]
    return out


def items_document(base_url: str) -> dict[str, Any]:
    """One operation, `listItems`, whose answer is a page of items (S25.6's tests)."""
    item = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
    page = {
        "type": "object",
        "properties": {"data": {"type": "array", "items": item}, "total": {"type": "integer"}},
        "required": ["data", "total"],
    }
    parameters = [
        {"name": "count", "in": "query", "schema": {"type": "integer"}},
        {"name": "gzip", "in": "query", "schema": {"type": "integer"}},
    ]
    answer = {"description": "a page", "content": {"application/json": {"schema": page}}}
    operation = {"operationId": "listItems", "parameters": parameters, "responses": {"200": answer}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Items", "version": "1"},
        "servers": [{"url": base_url}],
        "paths": {"/items": {"get": operation}},
    }
