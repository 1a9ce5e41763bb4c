"""An MCP gateway built on toolshape and the official `mcp` SDK (install `toolshape[mcp]`).

It plans an OpenAPI document once, lists every tool as the MCP `Tool` its plan describes
(`Plan.to_mcp_tool()`: title, description, input and output schemas, annotations), and for each
call runs `Plan.call`, sends the `Request` upstream with httpx and answers with
`Plan.result(...)`: the upstream response as MCP content, with `structuredContent` where the
tool's output schema holds. Argument errors become the S13.6 answer for the client's protocol
version, and the upstream is never called for them. Credentials come from the gateway's
environment and are applied per the operation's security (S18.2); the model never sees them.

Run (MCP over stdio):
    python -m examples.gateway (SPEC | --plans FILE) --base-url URL [--style flat|nested]
        [--profile 2026-11-06|legacy] [--<every Options switch> ...] [--header NAME:VALUE ...]
        [--credential SCHEME=env:VAR ...] [--fixed NAME=JSON ...]
(`--help` lists every switch with its default.)
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import httpx
import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

import toolshape
from toolshape import ArgumentError, CredentialError, EncodeError, Plan, error_result
from toolshape.cli import (
    DocumentUnreadable,
    add_credentials,
    add_fixed,
    add_operations,
    add_options,
    add_select,
    add_style,
    credentials_from,
    fixed_from,
    load_document,
    load_plans_file,
    operations_from,
    options_from,
    select_from,
)


def build_server(
    plans: Sequence[Plan],
    *,
    base_url: str,
    http: httpx.AsyncClient,
    headers: Mapping[str, str] | None = None,
    credentials: Mapping[str, Any] | None = None,
    name: str = "toolshape-gateway",
) -> Server[Any]:
    """An MCP server whose tools are `plans`, sending each accepted call to `base_url`.

    `headers` are the gateway's own outbound headers (tenant defaults); they are the inbound
    headers of `Plan.call`, so a header argument replaces one of the same name (S12.2).
    `credentials` map security scheme names to values, applied per operation (S18.2).
    """
    by_name = {plan.name: plan for plan in plans}
    # S16.5: every tool as the MCP Tool object the plan describes (title, description,
    # input and output schemas, annotations).
    tools = [types.Tool.model_validate(plan.to_mcp_tool()) for plan in plans]
    gateway_headers = dict(headers or {})

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        plan = by_name.get(params.name)
        if plan is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        arguments = params.arguments if params.arguments is not None else {}
        try:
            request = plan.call(arguments, headers=gateway_headers, credentials=credentials)
        except CredentialError as error:
            # S18.2: the gateway's configuration, not the model's call; the upstream is not called.
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"gateway error: {error.message}")],
                is_error=True,
            )
        except ArgumentError as error:
            answer = error_result(error, ctx.protocol_version)
            if "isError" in answer:
                return types.CallToolResult(
                    content=[types.TextContent(type="text", text=error.message)], is_error=True
                )
            raise MCPError(
                code=answer["code"], message=answer["message"], data=answer["data"]
            ) from None
        try:
            # S17: the exact bytes the body's content type needs (form, multipart, ...).
            outbound, content = request.encode()
        except EncodeError as error:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=error.message)], is_error=True
            )
        response = await http.request(
            request.method,
            base_url.rstrip("/") + request.url,
            headers=list(outbound),
            content=content,
        )
        # S16.4: the answer by media type, with structuredContent where the output schema holds.
        answer = plan.result(response.status_code, list(response.headers.items()), response.content)
        return types.CallToolResult.model_validate(answer)

    return Server(name, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def plan_tools(
    document: Any,
    *,
    style: str,
    options: toolshape.Options,
    source: str,
    fixed: Mapping[str, Any] | None = None,
    select: toolshape.Select | None = None,
    **per_operation: Any,
) -> toolshape.PlanResult:
    """Every tool that plans; planning errors and warnings are written to stderr (stdout is
    the MCP stream). `per_operation`: `styles`, `names`, `annotations`,
    `fixed_per_operation` (S24.7)."""
    result = toolshape.plan_document(
        document,
        style=style,
        options=options,
        source=source,
        fixed=fixed,
        select=select,
        **per_operation,
    )
    report(result)
    return result


def report(result: toolshape.PlanResult) -> None:
    """Planning errors and document warnings to stderr (stdout is the MCP stream)."""
    for error in result.errors:
        print(f"toolshape: {error.message}", file=sys.stderr)
    for note in result.diagnostics:
        if note.level == "warning" and note.tool is None:
            print(f"toolshape: warning: {note.message}", file=sys.stderr)


async def serve(server: Server[Any]) -> None:
    """Serve `server` over stdio until the client closes it."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def arguments() -> argparse.ArgumentParser:
    """The gateway's command line: the document, the upstream, and every planning switch
    `toolshape` has (S21.2), with the same defaults."""
    parser = argparse.ArgumentParser(
        prog="python -m examples.gateway", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "spec", nargs="?", help="an OpenAPI 3.x (or Swagger 2.0) document, JSON or YAML"
    )
    parser.add_argument(
        "--plans",
        metavar="FILE",
        help="serve exactly the tools of a plans file (`toolshape plan SPEC --out FILE`) "
        "instead of planning a document; the planning switches below don't apply",
    )
    parser.add_argument("--base-url", required=True, help="where the API is served")
    add_style(parser)
    add_options(parser)  # every Options switch, as `toolshape` has them (S21.2)
    add_select(parser)
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME:VALUE",
        help="an outbound header of the gateway's own (repeatable)",
    )
    add_credentials(parser)
    add_fixed(parser)
    add_operations(parser)
    return parser


#: The flags that only serve planning a document: with --plans the file decides all of them.
_SERVING = frozenset({"spec", "plans", "base_url", "header", "credential"})


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments()
    args = parser.parse_args(argv)
    headers: dict[str, str] = {}
    for header in args.header:
        name, sep, value = header.partition(":")
        if not sep or not name.strip():
            print(f"toolshape: --header {header!r} is not NAME: VALUE", file=sys.stderr)
            return 2
        headers[name.strip()] = value.strip()  # as curl reads `Name: value`
    if (args.spec is None) == (args.plans is None):
        parser.error("give either a document (SPEC) or --plans FILE")
    if args.plans is not None:
        planning = sorted(
            name
            for name, value in vars(args).items()
            if name not in _SERVING and value != parser.get_default(name)
        )
        if planning:
            shown = ", ".join(f"--{name.replace('_', '-')}" for name in planning)
            parser.error(f"{shown}: --plans serves the file as it was planned")
    try:
        if args.plans is not None:
            result = load_plans_file(args.plans)  # checked as S15.1 checks plan data
            report(result)
        else:
            document, _ = load_document(args.spec)  # JSON, or YAML with toolshape[yaml] (S20.2)
            result = plan_tools(
                document,
                style=args.style,
                options=options_from(args),
                source=args.spec,
                fixed=fixed_from(args.fixed),
                select=select_from(args),
                **operations_from(args.operations, document),
            )
        credentials = credentials_from(args.credential, os.environ, result.security_schemes)
    except (ValueError, DocumentUnreadable, toolshape.SettingsError) as error:
        print(f"toolshape: {error}", file=sys.stderr)
        return 2
    unmatched = [e for e in result.errors if e.rule == "S20.1"]
    if unmatched:  # a typo in a selection flag must not start an empty server (S20.1)
        return 2
    plans = list(result.tools)

    async def run() -> None:
        async with httpx.AsyncClient() as http:
            server = build_server(
                plans,
                base_url=args.base_url,
                http=http,
                headers=headers,
                credentials=credentials or None,
            )
            await serve(server)

    anyio.run(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
