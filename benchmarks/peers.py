"""What other in-process OpenAPI-to-MCP converters advertise and send for the operations of
docs/comparison.md (the second table there).

Run in its own environment (the converters pin other `mcp` / `fastmcp` versions than the
benchmark environment; never dependencies of toolshape):
    python3 -m venv .venv-peers
    .venv-peers/bin/pip install -e . -r benchmarks/peers-requirements.txt
    .venv-peers/bin/python -m benchmarks.peers

Facts only, as in benchmarks/features.py: each operation is planned by each converter, and the
same flat call (built from toolshape's flat schema where toolshape plans the operation) is sent
where the converter can build a request without a network (an `httpx.MockTransport` records it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from functools import partial
from importlib.metadata import version
from queue import Empty
from typing import Any

import httpx

import toolshape
from benchmarks.operations import OPERATIONS, document, flat_call, order, policy

BASE_URL = "http://api.example"


def the_call(doc: Any, method: str, path: str) -> dict[str, Any] | None:
    """toolshape's flat call for the operation (as benchmarks/features.py builds it)."""
    result = toolshape.plan_document(doc, style="flat")
    mine = [t for t in result.tools if (t.method, t.path) == (method.upper(), path)]
    return flat_call(mine[0].input_schema) if mine else None


def bridge_row(doc: Any, method: str, path: str, call: dict[str, Any] | None) -> tuple[str, ...]:
    """openapi-mcp-bridge: its tool's schema, and the request its ApiProxy sends."""
    from openapi_mcp_bridge.config import Config
    from openapi_mcp_bridge.http_client import ApiProxy
    from openapi_mcp_bridge.spec_loader import resolve_refs
    from openapi_mcp_bridge.tool_generator import generate_tool_defs, parse_spec

    spec = parse_spec(resolve_refs(doc), base_url_override=BASE_URL)
    (tool,) = [
        d
        for d in generate_tool_defs(spec)
        if (d.operation.method.upper(), d.operation.path) == (method.upper(), path)
    ]
    schema = tool.input_schema
    call = call if call is not None else flat_call(schema)
    sent: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={})

    async def run() -> None:
        client = httpx.AsyncClient(transport=httpx.MockTransport(record))
        async with ApiProxy(spec, Config(base_url=BASE_URL), client=client) as proxy:
            await proxy.call(tool.operation, call)

    try:
        asyncio.run(run())
        request = sent[0]
        body = request.content.decode(errors="replace")[:100] or "-"
        shown = f"`{request.method} {request.url.raw_path.decode()}` body `{body}`"
    except Exception as error:  # a refusal is a fact to record
        shown = f"failed: {type(error).__name__}: {str(error)[:100]}"
    return outcome(schema, doc, method, path, wraps=True), *facts(schema), shown


def proxy_row(doc: Any, method: str, path: str) -> tuple[str, ...]:
    """mcp-openapi-proxy: its tool's schema (its dispatcher needs the process-wide spec and a
    live network, so no request is shown)."""
    from mcp_openapi_proxy import openapi as proxy_openapi

    tools = proxy_openapi.register_functions(doc)
    registered = proxy_openapi._REGISTERED_OPERATIONS
    named = [
        name
        for name, op in registered.items()
        if (op["method"].upper(), op["original_path"]) == (method.upper(), path)
    ]
    if not named:
        return ("no tool", "-", "-", "-", "-")
    (tool,) = [t for t in tools if t.name == named[0]]
    schema = tool.inputSchema
    return outcome(schema, doc, method, path, wraps=False), *facts(schema), "-"


def parameter_names(doc: Any, method: str, path: str) -> set[str]:
    item = doc["paths"][path]
    params = [*item.get("parameters", []), *item[method].get("parameters", [])]
    return {str(resolved(doc, p).get("name")) for p in params if isinstance(p, dict)}


def resolved(doc: Any, node: dict[str, Any]) -> dict[str, Any]:
    """`node`, its local `$ref` followed (`#/components/parameters/...`)."""
    while isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target: Any = doc
        for part in node["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {})
        node = target if isinstance(target, dict) else {}
    return node


def has_body(doc: Any, method: str, path: str) -> bool:
    return "requestBody" in doc["paths"][path][method]


def awslabs_row(doc: Any, name: str, method: str, path: str) -> tuple[str, ...]:
    """awslabs.openapi-mcp-server: the tool its server lists (it reads the document from a
    file; its requests go through FastMCP 3's client, so none is shown)."""
    import tempfile

    from awslabs.openapi_mcp_server.api.config import Config
    from awslabs.openapi_mcp_server.server import create_mcp_server_async

    async def run() -> Any:
        with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
            json.dump(doc, file)
            file.flush()
            config = Config(api_spec_path=file.name, api_base_url=BASE_URL)
            server = await create_mcp_server_async(config)
        return await server.list_tools()

    tools = asyncio.run(run())
    template = doc["paths"][path][method]
    wanted = template.get("operationId")

    def plain(text: str) -> str:
        return "".join(c if c.isalnum() else "_" for c in text)[:40]

    found = [t for t in tools if wanted and plain(t.name) == plain(str(wanted))]
    if not found:
        return ("no tool", "-", "-", "-", "-")
    schema = found[0].parameters
    wraps = "body" in schema.get("properties", {}) and "body" not in body_names(doc, method, path)
    return outcome(schema, doc, method, path, wraps=wraps), *facts(schema), "-"


def gaddam_row(doc: Any, method: str, path: str, call: dict[str, Any] | None) -> tuple[str, ...]:
    """openapi-mcp-server: it writes Python source for each tool from the document (its names,
    path and text) and `exec`s it in its own module, the body one `body` argument modelled on a
    sample request; it reads the document from a file its process-wide settings name, and its
    requests go through `requests.request`, replaced here by a recorder."""
    import tempfile

    from openapi_mcp_server import __main__ as server

    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump(doc, file)
        file.flush()
        server.logger = logging.getLogger("peers.openapi-mcp-server")
        server.logger.disabled = True  # it logs every generated function, to stdout
        server.OPENAPI_SPEC_PATH = file.name
        server.API_BASE_URL = BASE_URL
        server.create_dynamic_tools()
    wanted = doc["paths"][path][method].get("operationId")
    found = [t for t in asyncio.run(server.mcp.list_tools()) if t.name == wanted]
    if not found:
        names = [str(wanted), *parameter_names(doc, method, path)]
        why = " (a name is no Python identifier: its source does not compile)"
        return ("no tool" + ("" if all(n.isidentifier() for n in names) else why),) + ("-",) * 4
    schema = found[0].inputSchema
    sent: list[tuple[str, str, Any, Any]] = []

    class Answer:
        status_code = 200

        def raise_for_status(self) -> None:
            return None

        def json(self) -> Any:
            return {}

    def record(verb: str, url: str, **kw: Any) -> Answer:
        sent.append((verb, url, kw.get("params"), kw.get("json")))
        return Answer()

    server.request = record
    call = call if call is not None else flat_call(schema)
    try:
        asyncio.run(server.mcp.call_tool(found[0].name, call))
        verb, url, params, body = sent[0]
        query = "&".join(f"{k}={v}" for k, v in (params or {}).items())
        target = url.removeprefix(BASE_URL) + (f"?{query}" if query else "")
        shown = f"`{verb} {target}` body `{json.dumps(body)[:100] if body else '-'}`"
    except Exception as error:  # a refusal is a fact to record
        shown = f"failed: {type(error).__name__}: {str(error)[:100]}"
    wraps = "body" in schema.get("properties", {})
    return outcome(schema, doc, method, path, wraps=wraps), *facts(schema), shown


def body_names(doc: Any, method: str, path: str) -> set[str]:
    """The top-level property names of the operation's JSON body (one `$ref` followed)."""
    body = resolved(doc, doc["paths"][path][method].get("requestBody", {}))
    media = body.get("content", {}).get("application/json", {})
    schema = resolved(doc, media.get("schema", {})) if isinstance(media, dict) else {}
    properties = schema.get("properties", {})
    return set(properties) if isinstance(properties, dict) else set()


def outcome(schema: dict[str, Any], doc: Any, method: str, path: str, wraps: bool) -> str:
    """How the converter advertises the request body: wrapped under one `body` argument, its
    properties flat beside the parameters, or no argument for it at all."""
    if not has_body(doc, method, path):
        return "no body"
    if wraps:
        return "body wrapped under `body`"
    extra = set(schema.get("properties", {})) - parameter_names(doc, method, path)
    return "flat" if extra else "body dropped (no argument for it)"


def facts(schema: dict[str, Any]) -> tuple[str, str, str]:
    return (
        str(schema.get("required", [])),
        policy(schema),
        order(list(schema.get("properties", {}))),
    )


#: Seconds a converter gets for one operation (openapi-mcp-bridge inlines every reference of
#: a document before planning: Stripe's grows past 5 GB).
LIMIT = 60


def _child(row: Any, queue: Any) -> None:
    logging.disable(logging.WARNING)
    try:
        queue.put(row())
    except BaseException as error:  # a converter that refuses (or exits): a fact to record
        if isinstance(error, SystemExit) and error.__context__ is not None:
            error = error.__context__  # it logged why, then exited: the why
        reason = str(error).replace("|", "/").replace("\n", " ")[:110]
        queue.put((f"refused: {type(error).__name__}: {reason}",) + ("-",) * 4)


def bounded(row: Any) -> tuple[str, ...]:
    """`row()` in a child process, given `LIMIT` seconds."""
    context = multiprocessing.get_context("spawn")  # a forked child can inherit held locks
    queue: Any = context.Queue()
    child = context.Process(target=_child, args=(row, queue))
    child.start()
    try:
        cells: tuple[str, ...] = queue.get(timeout=LIMIT)
    except Empty:
        cells = (f"did not plan it within {LIMIT} s",) + ("-",) * 4
    child.kill()
    child.join()
    return cells


def main() -> None:
    logging.disable(logging.WARNING)
    print(
        f"openapi-mcp-bridge {version('openapi-mcp-bridge')}, "
        f"mcp-openapi-proxy {version('mcp-openapi-proxy')}, "
        f"awslabs.openapi-mcp-server {version('awslabs.openapi-mcp-server')} "
        f"(FastMCP {version('fastmcp')}), openapi-mcp-server {version('openapi-mcp-server')}\n"
    )
    print(
        "| operation | library | outcome | required | additionalProperties "
        "| properties (order) | request for the same flat call |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, name, method, path in OPERATIONS:
        doc = document(name)
        call = the_call(doc, method, path)
        for library, row in (
            ("openapi-mcp-bridge", partial(bridge_row, doc, method, path, call)),
            ("mcp-openapi-proxy", partial(proxy_row, doc, method, path)),
            ("awslabs.openapi-mcp-server", partial(awslabs_row, doc, name, method, path)),
            ("openapi-mcp-server", partial(gaddam_row, doc, method, path, call)),
        ):
            cells = bounded(row)
            print(f"| {label} | {library} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
