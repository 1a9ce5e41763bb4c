"""S23.2: running a server — over stdio, or MCP streamable HTTP at `/mcp` (stateless, so
several worker processes can serve one plans file behind any load balancer).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import socket
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server
from starlette.applications import Starlette

from toolshape.model._version import __version__
from toolshape.server._build import build_server
from toolshape.server._limits import PAGE_BYTES, PAGE_SIZE
from toolshape.server._prepare import prepare
from toolshape.server._settings import ApiSettings
from toolshape.server._upstream import Api

#: S27.6: seconds an idle HTTP connection is kept (a client compiling a long listing comes
#: back after uvicorn's 5 s, and its next call failed).
KEEP_ALIVE = 65
#: Where a worker process finds what to serve (`--workers`): the settings as JSON.
WORKER_SETTINGS = "TOOLSHAPE_SERVE_SETTINGS"


@dataclass(frozen=True, slots=True)
class Serving:
    """How the APIs are served (S23.2)."""

    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    page_size: int | None = PAGE_SIZE
    page_bytes: int = PAGE_BYTES
    discovery: bool = False
    log_level: str = "info"
    client_profile: str = "auto"
    """S25.4: how tools are listed to each client (`auto`: by the name it sends)."""
    name_budget: int | None = None
    """S25.4: the longest tool name any client is given."""


def run(settings: Sequence[ApiSettings], serving: Serving, source: str) -> None:
    """Serve the APIs `settings` describe until stopped (or, over stdio, until the client
    leaves).

    Raises:
        SettingsError: every problem with `settings` (`source` names them), before anything
            starts.
    """
    configure_logging(serving.log_level)
    apis = prepare(settings, source, os.environ, _report)
    _report(serving_line(apis, serving), prefix=False)
    if serving.transport == "stdio":
        # S27.9: on uvloop where the extra installed it, as uvicorn runs the HTTP transport
        uvloop = importlib.util.find_spec("uvloop") is not None
        anyio.run(_stdio, _server(apis, serving), backend_options={"use_uvloop": uvloop})
        return
    import uvicorn

    if serving.workers > 1:
        os.environ[WORKER_SETTINGS] = json.dumps(
            {
                "settings": [s.to_data() for s in settings],
                "serving": asdict(serving),
                "source": source,
            }
        )
        from uvicorn.supervisors import Multiprocess

        config = uvicorn.Config(
            "toolshape.server._run:worker_app",
            factory=True,
            host=serving.host,
            port=serving.port,
            workers=serving.workers,
            log_level="warning",
            access_log=False,
            timeout_keep_alive=KEEP_ALIVE,
        )
        Multiprocess(config, sockets=[listening(serving.host, serving.port)]).run()
        return
    app = http_app(_server(apis, serving), serving)
    uvicorn.run(
        app,
        host=serving.host,
        port=serving.port,
        log_level="warning",
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE,
    )


def listening(host: str, port: int) -> socket.socket:
    """S27.9: the socket `--workers` share, made as TCP (`IPPROTO_TCP`): asyncio sets
    `TCP_NODELAY` only on connections accepted from such a socket, and uvicorn's own (protocol
    0) left Nagle's algorithm on, which with delayed ACKs added about 45 ms to every call."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def worker_app() -> Starlette:
    """One worker's app (`--workers N`): the settings the parent checked, prepared again in
    this process."""
    given = json.loads(os.environ[WORKER_SETTINGS])
    serving = Serving(**given["serving"])
    configure_logging(serving.log_level)
    settings = [ApiSettings.from_data(data) for data in given["settings"]]
    apis = prepare(settings, given["source"], os.environ, lambda _: None)
    return http_app(_server(apis, serving), serving)


def http_app(server: Server[Any], serving: Serving) -> Starlette:
    """MCP streamable HTTP at `/mcp`, stateless, answering with JSON (a `GET` there is 405);
    `GET /healthz` answers 200 (S27.6: the plans are loaded before the app exists)."""
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    app = server.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, host=serving.host
    )

    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok\n")

    async def no_stream(request: Request) -> PlainTextResponse:
        """A stateless server sends nothing unasked: a `GET` gets 405, never a stream that
        stays open with nothing in it."""
        text = "toolshape serve answers MCP over POST at /mcp (stateless: no stream to GET)\n"
        return PlainTextResponse(text, status_code=405, headers={"allow": "POST"})

    app.router.routes.insert(0, Route("/mcp", no_stream, methods=["GET"]))
    app.router.routes.append(Route("/healthz", healthz, methods=["GET"]))
    return app


def serving_line(apis: Sequence[Api], serving: Serving) -> str:
    """S27.1: what the server serves and where, in one line for stderr."""
    served = ", ".join(f"{len(api.plans)} tools of {api.label}" for api in apis) or "no tools"
    where = (
        "over stdio"
        if serving.transport == "stdio"
        else f"at http://{serving.host}:{serving.port}/mcp"
    )
    return f"toolshape serve {__version__}: {served} {where}"


def _server(apis: Sequence[Api], serving: Serving) -> Server[Any]:
    return build_server(
        apis,
        page_size=serving.page_size,
        page_bytes=serving.page_bytes,
        discovery=serving.discovery,
        client_profile=serving.client_profile,
        name_budget=serving.name_budget,
    )


async def _stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def configure_logging(level: str) -> None:
    """S23.8: one line per call on stderr, at `info` (stdout may be the MCP stream)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("toolshape.server")
    log.handlers[:] = [handler]
    log.setLevel(level.upper())
    log.propagate = False


def _report(line: str, *, prefix: bool = True) -> None:
    print(f"toolshape: {line}" if prefix else line, file=sys.stderr, flush=True)
