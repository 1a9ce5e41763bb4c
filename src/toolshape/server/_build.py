"""S23: the MCP server of one or more APIs, on the official `mcp` SDK.

`build_server(apis)` lists every tool as its plan describes it (`Plan.to_mcp_tool()`, one page
at a time, S23.2), runs `Plan.call` on each call and sends the request upstream (S23.5), or —
with `discovery` — lists three tools that find, describe and call the others (S23.7). Argument
errors are the S13.6 answer and never reach the upstream; each call writes one log line with
no value in it (S23.8).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeAlias

import httpx
import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from toolshape.call._mcp import error_result
from toolshape.call._request import Request
from toolshape.model._errors import ArgumentError, CredentialError, EncodeError
from toolshape.model._types import SecurityScheme
from toolshape.model._version import __version__
from toolshape.plans._plan import Plan
from toolshape.server._limits import PAGE_BYTES, PAGE_SIZE
from toolshape.server._oauth import ClientCredentials, TokenError
from toolshape.server._profiles import CLIENT_PROFILES, ClientProfile, budgeted, profile_for
from toolshape.server._search import Index, indexed, query_problem, ranked
from toolshape.server._upstream import Api, error_text, failure, forward
from toolshape.views._read import SAME
from toolshape.views._table import inline_tool, view_of
from toolshape.views._tool import ModelTool

LOG = logging.getLogger("toolshape.server")
#: S25.4: one line at each client's first request, naming it and its profile.
CLIENTS = logging.getLogger("toolshape.server.clients")


@dataclass(frozen=True)
class Entry:
    """One tool the server lists: its name there, its API and its plan."""

    name: str
    api: Api
    plan: Plan

    @functools.cached_property
    def model(self) -> ModelTool | None:
        """S22.6: the model view the API advertises (made on first use), or None for `mcp`."""
        view = view_of(self.api.schema_view, inline=self.api.inline_refs)
        if view is None:
            return None
        tool = view.make(self.plan)
        return inline_tool(tool) if self.api.inline_refs and tool.inlined is SAME else tool

    @functools.cached_property
    def tool(self) -> dict[str, Any]:
        """The MCP `Tool` the server lists, as data (made on first use, then kept)."""
        return definition(self)

    @functools.cached_property
    def listed(self) -> tuple[types.Tool, int]:
        """The `Tool` the server lists, and its size as compact JSON (S25.2)."""
        size = len(json.dumps(self.tool, separators=(",", ":"), ensure_ascii=False).encode())
        return types.Tool.model_validate(self.tool), size

    @property
    def input_schema(self) -> dict[str, Any]:
        """The input schema the tool is listed with."""
        schema: dict[str, Any] = self.tool["inputSchema"]
        return schema


class Catalog:
    """Every tool of every API, by name, and the pages of `tools/list` (each tool made once,
    when a client first lists it: a large API starts serving before its whole listing
    exists)."""

    def __init__(
        self,
        apis: Sequence[Api],
        page_size: int | None,
        page_bytes: int,
        name_budget: int | None = None,
    ) -> None:
        pairs = [(api, plan) for api in apis for plan in api.plans]
        names = budgeted([api.tool_name(plan) for api, plan in pairs], name_budget)
        self.entries = [
            Entry(name, api, plan) for name, (api, plan) in zip(names, pairs, strict=True)
        ]
        self.by_name = {entry.name: entry for entry in self.entries}
        self.names = {id(entry.plan): entry.name for entry in self.entries}
        """Each plan's tool name, by the plan's identity."""
        self.pass_through = any(api.pass_through is not None for api in apis)
        """Whether callers bring their own credentials (S23.6): then discovery needs one too."""
        if len(self.by_name) != len(self.entries):
            twice = duplicates([entry.name for entry in self.entries])
            raise ValueError(f"two tools are named {twice[0]!r}; give each API its own `name`")
        if page_size is not None and page_size < 1:
            raise ValueError(f"page_size must be at least 1, not {page_size}")
        if page_bytes < 1:
            raise ValueError(f"page_bytes must be at least 1, not {page_bytes}")
        self.page_size = page_size or len(self.entries) or 1
        self.page_bytes = page_bytes

    @functools.cached_property
    def words(self) -> Index:
        """What `search_operations` ranks: every plan's words, read on the first search."""
        return indexed((entry.plan, entry.api.tag_titles) for entry in self.entries)

    def page(self, cursor: str | None) -> types.ListToolsResult:
        """The page a `tools/list` cursor names (None: the first): whole tools in document
        order, up to `page_bytes` of them serialized (a larger tool is a page of its own) and
        at most `page_size` (S25.2); each tool made once, when first listed.

        Raises:
            MCPError: a cursor this server did not give.
        """
        start = 0 if cursor is None else _offset(cursor, len(self.entries))
        tools: list[types.Tool] = []
        used = 0
        end = start
        while end < len(self.entries) and len(tools) < self.page_size:
            tool, size = self.entries[end].listed
            if tools and used + size > self.page_bytes:
                break
            tools.append(tool)
            used += size
            end += 1
        return types.ListToolsResult(
            tools=tools, next_cursor=str(end) if end < len(self.entries) else None
        )


def duplicates(names: Sequence[str]) -> list[str]:
    """The names that occur more than once, each once, in order."""
    seen: set[str] = set()
    twice: dict[str, None] = {}
    for name in names:
        if name in seen:
            twice[name] = None
        seen.add(name)
    return list(twice)


def _offset(cursor: str, size: int) -> int:
    """The offset a cursor this server gave names (ASCII digits, below the tool count: `²`
    is a digit to `isdigit`, and 5,000 digits are past `int`'s limit)."""
    if cursor.isascii() and cursor.isdecimal() and len(cursor) <= 9 and int(cursor) < size:
        return int(cursor)
    raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {cursor[:40]!r}")


def definition(entry: Entry) -> dict[str, Any]:
    """The MCP `Tool` the server lists for `entry`: the plan's, under the server's name for
    it, its input schema the model view's when the API has one (S22.6)."""
    tool = entry.plan.to_mcp_tool()
    tool["name"] = entry.name
    if entry.model is not None:  # read back on each call (S22.3)
        tool["inputSchema"] = entry.model.parameters
        if entry.model.output_schema is not None:  # S25.3: inlined too
            tool["outputSchema"] = entry.model.output_schema
    return tool


def build_server(
    apis: Sequence[Api],
    *,
    http: httpx.AsyncClient | None = None,
    page_size: int | None = PAGE_SIZE,
    page_bytes: int = PAGE_BYTES,
    discovery: bool = False,
    name: str = "toolshape",
    client_profile: str = "auto",
    name_budget: int | None = None,
) -> Server[Any]:
    """An MCP server (the `mcp` SDK's) serving every tool of `apis` (S23.1).

    `http` sends the upstream requests (one is made for the server's lifetime when not given:
    no redirects followed, no timeout but each API's own). A `tools/list` page holds whole
    tools up to `page_bytes` of them serialized and at most `page_size` (S25.2); with
    `discovery`, the server lists `search_operations`, `describe_operation` and
    `call_operation` instead of one tool per operation (S23.7). `client_profile` is how tools
    are listed to each client (S25.4: `auto` chooses by the client's name among
    `CLIENT_PROFILES`); `name_budget` caps every tool name's length.

    Raises:
        ValueError: two tools would have one name, `page_size` or `page_bytes` is below 1, or
            `client_profile` is neither `auto` nor a profile.
    """
    if client_profile != "auto" and client_profile not in CLIENT_PROFILES:
        known = ", ".join(("auto", *CLIENT_PROFILES))
        raise ValueError(f"client_profile can't be {client_profile!r}; use one of {known}")
    catalogs: dict[str, Catalog] = {}
    seen: set[str] = set()

    def catalog_of(profile: ClientProfile) -> Catalog:
        """The tools as `profile` lists them, made when a client of it first asks."""
        found = catalogs.get(profile.name)
        if found is None:
            budget = min(filter(None, (profile.name_budget, name_budget)), default=None)
            found = catalogs[profile.name] = Catalog(
                [profile.api(api) for api in apis], page_size, page_bytes, budget
            )
        return found

    catalog = catalog_of(profile_for(None, client_profile))  # checked now: names, sizes

    def client_catalog(ctx: ServerRequestContext[Any]) -> Catalog:
        """S25.4: the catalog of the client `ctx` comes from (its profile logged once)."""
        params = ctx.session.client_params
        client = params.client_info.name if params is not None else None
        profile = profile_for(client, client_profile)
        if (client or "") not in seen:
            seen.add(client or "")
            CLIENTS.info("toolshape: client %s: profile %s", client or "(unnamed)", profile.name)
        return catalog_of(profile)

    @asynccontextmanager
    async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        if http is not None:
            yield {"http": http}
            return
        async with httpx.AsyncClient(follow_redirects=False, timeout=None) as own:
            yield {"http": own}

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if discovery:
            return types.ListToolsResult(tools=DISCOVERY_TOOLS)
        return client_catalog(ctx).page(params.cursor if params is not None else None)

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = params.arguments if params.arguments is not None else {}
        if discovery:
            answer = await _discover(ctx, catalog, params.name, arguments)
        else:
            entry = client_catalog(ctx).by_name.get(params.name)
            if entry is None:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
            answer = await call(ctx, entry, arguments)
        return types.CallToolResult.model_validate(answer)

    def input_schema(tool: str) -> dict[str, Any] | None:
        """S27.9: one tool's input schema, so the SDK never runs `tools/list` to find it."""
        if discovery:
            return next((t.input_schema for t in DISCOVERY_TOOLS if t.name == tool), None)
        for known in catalogs.values():  # no client known here: the first catalog naming it
            entry = known.by_name.get(tool)
            if entry is not None:
                return entry.input_schema
        return None

    return Server(
        name,
        version=__version__,
        lifespan=lifespan,
        get_tool_input_schema=input_schema,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def call(ctx: ServerRequestContext[Any], entry: Entry, arguments: Any) -> dict[str, Any]:
    """One tool call, answered (S13.6, S16.4, S18.2, S23.5, S23.6), and its log line (S23.8).

    Raises:
        MCPError: an argument error for a client of a protocol before `2025-11-25` (S13.6).
    """
    started = time.perf_counter()
    status = "failed"
    try:
        answer, status = await _answer(ctx, entry, arguments)
        return answer
    finally:
        elapsed = (time.perf_counter() - started) * 1000
        LOG.info("toolshape[%d] %s %s %.0f ms", os.getpid(), entry.name, status, elapsed)


async def _answer(
    ctx: ServerRequestContext[Any], entry: Entry, arguments: Any
) -> tuple[dict[str, Any], str]:
    """The call's answer and the status its log line shows."""
    api, plan = entry.api, entry.plan
    credentials = {k: v for k, v in api.credentials.items() if not isinstance(v, ClientCredentials)}
    if api.pass_through is not None:
        try:
            credentials[api.pass_through] = _passed_credential(ctx, api.pass_through, plan)
        except _NoCredential as missing:
            return error_text(f"gateway error: {missing}"), "no-credential"
    needed = _client_credentials(api, plan)
    cached = {name: source.cached(scopes) for name, (source, scopes) in needed.items()}
    tokens = {name: token for name, token in cached.items() if token is not None}
    if len(tokens) < len(needed):  # a token to fetch: the arguments are judged first (S13)
        judged = _request(ctx, entry, arguments, {})
        if not isinstance(judged, Request):
            return judged
    http = ctx.lifespan_context["http"]
    try:
        if len(tokens) < len(needed):
            tokens = await _tokens(http, api, needed, fresh=False)
        answer, word = await _sent(ctx, entry, arguments, {**credentials, **tokens})
        if tokens and word.partition(" ")[0] == "401":  # S27.5: refused: a new token, once
            tokens = await _tokens(http, api, needed, fresh=True)
            answer, word = await _sent(ctx, entry, arguments, {**credentials, **tokens})
    except TokenError as error:
        return error_text(f"gateway error: {api.label}: no OAuth2 token: {error}"), "no-token"
    return answer, word


Needed: TypeAlias = dict[str, tuple[ClientCredentials, tuple[str, ...]]]
"""S27.5: each client-credentials scheme a plan's alternatives name, by name: its credentials
and the scopes they require of it."""


def _client_credentials(api: Api, plan: Plan) -> Needed:
    """S27.5: the client-credentials schemes `plan` may need a token of."""
    needed: Needed = {}
    for name, source in api.credentials.items():
        scopes = [s.scopes for alternative in plan.security for s in alternative if s.name == name]
        if isinstance(source, ClientCredentials) and scopes:
            needed[name] = (source, tuple(scope for group in scopes for scope in group))
    return needed


async def _tokens(
    http: httpx.AsyncClient, api: Api, needed: Needed, *, fresh: bool
) -> dict[str, str]:
    """S27.5: a token for each scheme `needed` names (`fresh`: new ones, the API refused the
    last).

    Raises:
        TokenError: the token endpoint gave none.
    """
    return {
        name: await source.token(http, scopes, api.timeout, fresh=fresh)
        for name, (source, scopes) in needed.items()
    }


def _request(
    ctx: ServerRequestContext[Any], entry: Entry, arguments: Any, credentials: dict[str, Any]
) -> Request | tuple[dict[str, Any], str]:
    """The request of the call made with `credentials`, or the answer refusing it and its log
    word.

    Raises:
        MCPError: an argument error for a client of a protocol before `2025-11-25` (S13.6).
    """
    try:
        caller = entry.model.call if entry.model is not None else entry.plan.call
        return caller(arguments, headers=entry.api.headers, credentials=credentials or None)
    except CredentialError as error:  # the server's configuration, not the model's call (S18.2)
        return error_text(f"gateway error: {error.message}"), "credential-error"
    except ArgumentError as error:
        answer = error_result(error, ctx.protocol_version)
        if "isError" not in answer:
            refusal = MCPError(code=answer["code"], message=answer["message"], data=answer["data"])
            raise refusal from None
        return answer, "refused"


async def _sent(
    ctx: ServerRequestContext[Any], entry: Entry, arguments: Any, credentials: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """The call made with `credentials`, sent: its answer and its log word."""
    request = _request(ctx, entry, arguments, credentials)
    if not isinstance(request, Request):
        return request
    api, plan = entry.api, entry.plan
    try:
        return await forward(ctx.lifespan_context["http"], api, plan, request)
    except EncodeError as error:
        return failure(api, request, error.message), "unencodable"


# -- pass-through credentials (S23.6) ----------------------------------------------------------


class _NoCredential(Exception):
    """The MCP request brings no credential for the pass-through scheme (the text says why)."""


def _passed_credential(ctx: ServerRequestContext[Any], scheme_name: str, plan: Plan) -> str:
    """The credential for `scheme_name` the MCP request's own `Authorization` header carries.

    Raises:
        _NoCredential: the request has no such header, or it is not of the scheme's kind.
    """
    header = _authorization(ctx, scheme_name)
    scheme = next(
        (s for alternative in plan.security for s in alternative if s.name == scheme_name), None
    )
    value = credential_of(header, scheme)
    if value is None:
        raise _NoCredential(f"the Authorization header is not a `{scheme_name}` credential")
    return value


def _authorization(ctx: ServerRequestContext[Any], scheme_name: str | None) -> str:
    """The MCP request's own `Authorization` header.

    Raises:
        _NoCredential: the request has none (the message names the scheme, when one is given).
    """
    headers = getattr(ctx.request, "headers", None)
    header = headers.get("authorization") if headers is not None else None
    if not header:
        which = f"`{scheme_name}` " if scheme_name else ""
        raise _NoCredential(
            f"this server passes each caller's own {which}credential to the API, and "
            "this MCP request has no Authorization header"
        )
    return str(header)


def credential_of(header: str, scheme: SecurityScheme | None) -> str | None:
    """The credential an `Authorization` header value carries for `scheme`: `Basic` decoded to
    `user:password`, the token of `Bearer` (or the scheme's own word), an API key as it is
    (without a `Bearer ` in front); None when the header is not of that kind."""
    word, _, rest = header.strip().partition(" ")
    if scheme is not None and scheme.kind == "apiKey":
        return rest.strip() if word.lower() == "bearer" and rest.strip() else header.strip()
    wanted = scheme.scheme if scheme is not None and scheme.scheme else "bearer"
    if word.lower() != wanted or not rest.strip():
        return None
    if wanted != "basic":
        return rest.strip()
    try:
        return base64.b64decode(rest.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


# -- discovery (S23.7) ---------------------------------------------------------------------------

_OBJECT = {"type": "object"}
DISCOVERY_TOOLS = [
    types.Tool.model_validate(tool)
    for tool in (
        {
            "name": "search_operations",
            "description": "Find the API operations that match some words (in their name, "
            "title, tags, path and description), best first. Then describe one to see its "
            "arguments, and call it with call_operation.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "words to look for"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        },
        {
            "name": "describe_operation",
            "description": "The full definition of one operation: its description and the "
            "JSON Schema of its arguments (its inputSchema) and of its answer.",
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        },
        {
            "name": "call_operation",
            "description": "Call one operation with arguments that match its inputSchema "
            "(see describe_operation).",
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "arguments": _OBJECT},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            },
            "annotations": {"openWorldHint": True},
        },
    )
]


async def _discover(
    ctx: ServerRequestContext[Any], catalog: Catalog, tool: str, arguments: Any
) -> dict[str, Any]:
    """The answer of one of the three discovery tools."""
    if tool in ("search_operations", "describe_operation") and catalog.pass_through:
        try:  # S23.6: what an API's tools are is its callers' business, like the tools
            _authorization(ctx, None)
        except _NoCredential as missing:
            return error_text(f"gateway error: {missing}")
    if tool == "search_operations":
        query, limit = arguments.get("query"), arguments.get("limit", 10)
        if not isinstance(query, str) or isinstance(limit, bool) or not isinstance(limit, int):
            return error_text("search_operations takes `query` (text) and `limit` (1-50)")
        problem = query_problem(query)
        if problem is not None:  # S27.7: a search costs its words
            return error_text(f"Invalid arguments for tool 'search_operations': query: {problem}")
        found = ranked(catalog.words, query, max(1, min(limit, 50)))
        rows = [
            {"name": catalog.names[id(p)], "title": p.title, "description": p.description[:300]}
            for p in found
        ]
        return _text({"operations": rows})
    if tool not in ("describe_operation", "call_operation"):
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {tool}")
    entry = catalog.by_name.get(str(arguments.get("name")))
    if entry is None:
        return error_text(
            f"no operation is named {arguments.get('name')!r}; search_operations finds them"
        )
    if tool == "describe_operation":
        return _text(definition(entry))
    inner = arguments.get("arguments")
    if not isinstance(inner, dict):
        return error_text(
            "call_operation takes `arguments`: an object for the operation's inputSchema"
        )
    return await call(ctx, entry, inner)


def _text(value: Any) -> dict[str, Any]:
    return {
        "content": [{"type": "text", "text": json.dumps(value, ensure_ascii=False)}],
        "isError": False,
    }
