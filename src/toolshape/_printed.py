"""What `toolshape plan` and `toolshape call` print: the table of tools and errors, the plan
as JSON (`--json`, with a model view's definitions), and a request with its credentials masked
and its bytes (S17). The command line parses and dispatches; this module writes."""

from __future__ import annotations

import base64
from typing import Protocol
from urllib.parse import unquote

from toolshape.call._request import Request
from toolshape.model._errors import EncodeError, PlanError
from toolshape.model._json import Json, JsonObject
from toolshape.model._options import fixes
from toolshape.plans._plan import Plan, PlanResult
from toolshape.views._model_tool import model_tool
from toolshape.views._table import view_of


class Stream(Protocol):
    """Where the command line writes: a text stream, or one that escapes (`cli.Escaped`)."""

    def write(self, text: str, /) -> object: ...


def print_table(result: PlanResult, out: Stream) -> None:
    rows = [("tool", "style", "args", "body", "title")]
    for tool in result.tools:
        arguments = str(len(tool.input_schema.get("properties", {})))
        rows.append((tool.name, tool.style, arguments, tool.body, tool.title or ""))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        out.write(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            + "\n"
        )
    out.write(f"\n{len(result.tools)} tools, {len(result.errors)} errors\n")
    for error in result.errors:
        out.write(f"error: {error.message}\n")
        hint = switch_hint(error)
        if hint is not None:
            out.write(f"hint: {hint}\n")
    for note in result.diagnostics:
        if note.level in ("error", "warning"):
            out.write(f"{note.level}: {note.message}\n")


def switch_hint(error: PlanError) -> str | None:
    """S24.3: the switch that would plan the tool anyway, as one line (the S9 message itself
    stays exact), or None when no switch would."""
    found = fixes(error.kind, error.rule, error.reason)
    return "; ".join(f"`{fix.flag}` {fix.effect}" for fix in found) or None


def as_json(result: PlanResult, view: str = "mcp", inline: bool = False) -> dict[str, Json]:
    """`--json`: the MCP `Tool` objects (S16.5), how each routes, errors and diagnostics; with
    a model view (S22.6), each tool's input schema is the view's, and `modelTools` holds the
    model API's own definitions with whether each is strict and why not.

    Raises:
        ViewError: a name the model API refuses.
    """
    shown: dict[str, Json] = plain_json(result)
    chosen = view_of(view, inline=inline)
    if chosen is None:
        return shown
    models = [model_tool(plan, chosen.api, inline_refs=inline) for plan in result.tools]
    tools: list[JsonObject] = [plan.to_mcp_tool() for plan in result.tools]
    for tool, model in zip(tools, models, strict=True):
        tool["inputSchema"] = model.parameters
        if model.output_schema is not None:
            tool["outputSchema"] = model.output_schema
    shown["tools"] = list(tools)
    shown["modelTools"] = [
        {"definition": m.definition, "strict": m.strict, "reasons": list(m.reasons)} for m in models
    ]
    return shown


def plain_json(result: PlanResult) -> dict[str, Json]:
    return {
        "tools": [tool.to_mcp_tool() for tool in result.tools],
        "routes": [
            {
                "name": tool.name,
                "operation": tool.operation_id,
                "method": tool.method,
                "path": tool.path,
                "contentType": tool.content_type,
                "style": tool.style,
                "body": tool.body,
                "security": [[s.to_dict() for s in alternative] for alternative in tool.security],
                "fixed": [f.to_dict() for f in tool.fixed],
            }
            for tool in result.tools
        ],
        "errors": [error.to_dict() for error in result.errors],
        "diagnostics": [note.to_dict() for note in result.diagnostics],
    }


def masked(request: Request, plan: Plan) -> dict[str, Json]:
    """The printed request with every credential's value replaced by `<credential>`: the
    headers, query parameters and cookies the operation's schemes name (S18.1)."""
    places = {
        (s.location, s.parameter)
        for alternative in plan.security
        for s in alternative
        if s.location
    }
    headers = {p for where, p in places if where == "header"}
    query = {p for where, p in places if where == "query"}
    cookies = {p for where, p in places if where == "cookie"}
    masked = "<credential>"

    def cookie(value: str) -> str:
        pieces = [piece.strip().partition("=") for piece in value.split(";")]
        return "; ".join(
            f"{k}={masked}" if unquote(k) in cookies else f"{k}{sep}{v}" for k, sep, v in pieces
        )

    shown = request.to_dict()
    shown["headers"] = [
        [name, masked if name in headers else cookie(value) if name == "cookie" else value]
        for name, value in request.headers
    ]
    url, sep, text = request.url.partition("?")
    if sep:
        pairs = [pair.partition("=") for pair in text.split("&")]
        text = "&".join(
            f"{k}={masked}" if unquote(k) in query else f"{k}{s}{v}" for k, s, v in pairs
        )
        shown["url"] = f"{url}?{text}"
    return shown


def encoded(request: Request) -> Json:
    """S17: the bytes `Request.encode()` gives, as text (or base64 when they are not UTF-8
    text), with the completed content type; or why they can't be made."""
    try:
        headers, content = request.encode()
    except EncodeError as error:
        return {"error": error.message}
    if content is None:
        return None
    sent = dict(headers).get("content-type")
    try:
        return {"contentType": sent, "text": content.decode("utf-8")}
    except UnicodeDecodeError:
        return {"contentType": sent, "base64": base64.b64encode(content).decode("ascii")}
