"""The `toolshape` command: `toolshape plan` (and `python -m toolshape`)."""

from __future__ import annotations

import argparse
import base64
import dataclasses
import json
import sys
import typing
from collections.abc import Sequence
from importlib import resources
from typing import TextIO

from toolshape._api import plan_document
from toolshape._errors import ArgumentError, DocumentError, EncodeError, PlanError
from toolshape._mcp import error_result
from toolshape._model import PlanResult
from toolshape._options import PROFILES, Options
from toolshape._types import Json, Request, Unchecked

EXAMPLE = "example.openapi.json"
"""The bundled example document `toolshape plan` reads when no SPEC is given."""


class _Usage(Exception):
    """A file that can't be read or is not JSON (exit 2)."""


def load_document(path: str | None) -> tuple[Unchecked, str]:
    """The parsed document and its default source name; the bundled example when `path` is None.

    Raises:
        _Usage: the file can't be read or is not JSON.
    """
    if path is None:
        text = (
            resources.files("toolshape")
            .joinpath("data")
            .joinpath(EXAMPLE)
            .read_text(encoding="utf-8")
        )
        return json.loads(text), EXAMPLE
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise _Usage(f"can't read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise _Usage(f"can't read {path}: it is not UTF-8 text") from None
    try:
        return json.loads(text), path
    except (json.JSONDecodeError, RecursionError) as error:
        raise _Usage(
            f"can't read {path}: it is not JSON ({error}); toolshape reads JSON documents, "
            "so convert a YAML document to JSON first"
        ) from None


def _switches() -> dict[str, tuple[str, ...]]:
    """Every `Options` switch with the values it takes: a `Literal`'s values, `true` / `false`
    for a boolean, `()` for a number."""
    hints = typing.get_type_hints(Options)
    out: dict[str, tuple[str, ...]] = {}
    for option in dataclasses.fields(Options):
        values = typing.get_args(hints[option.name])
        if hints[option.name] is bool:
            out[option.name] = ("true", "false")
        elif int in values:
            out[option.name] = ()
        else:
            out[option.name] = tuple(values)
    return out


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _add_profile(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", default="2026-11-06", choices=PROFILES, help="behaviour profile (S10)"
    )
    group = parser.add_argument_group(
        "switches", "override one switch of the profile (S10); defaults: 2026-11-06 (legacy)"
    )
    modern, legacy = Options.preset("2026-11-06"), Options.preset("legacy")
    for name, values in _switches().items():
        flag = "--" + name.replace("_", "-")
        default = _shown(getattr(modern, name))
        if getattr(legacy, name) != getattr(modern, name):
            default += f" ({_shown(getattr(legacy, name))})"
        if values == ("true", "false"):  # `--flatten-unions` alone means true
            group.add_argument(
                flag,
                dest=name,
                choices=values,
                nargs="?",
                const="true",
                default=None,
                help=f"default: {default}",
            )
        elif not values:
            group.add_argument(
                flag, dest=name, type=int, metavar="N", default=None, help=f"default: {default}"
            )
        else:
            group.add_argument(
                flag, dest=name, choices=values, default=None, help=f"default: {default}"
            )


def _options(args: argparse.Namespace) -> Options:
    """The profile's preset with every switch given on the command line replacing its value."""
    overrides: dict[str, object] = {}
    for name, values in _switches().items():
        value = getattr(args, name)
        if value is not None:
            overrides[name] = value == "true" if values == ("true", "false") else value
    return Options.preset(args.profile, **overrides)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolshape",
        description="Turn OpenAPI operations into MCP tool input schemas, nested or flat.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    plan = commands.add_parser("plan", help="plan every operation of a document as MCP tools")
    plan.add_argument(
        "spec", nargs="?", help="an OpenAPI 3.x JSON document (default: the bundled example)"
    )
    plan.add_argument(
        "--style", default="nested", help="the server-wide toolInputStyle: flat or nested"
    )
    _add_profile(plan)
    plan.add_argument("--source", help="the name locations use for the document (default: SPEC)")
    plan.add_argument("--json", action="store_true", help="print the result as JSON")
    call = commands.add_parser("call", help="turn one tool call into the HTTP request it describes")
    call.add_argument("spec", help="an OpenAPI 3.x JSON document")
    call.add_argument("tool", help="the tool's name (as `toolshape plan` lists it)")
    call.add_argument("arguments", help="the call's arguments as JSON text")
    call.add_argument(
        "--style", default="nested", help="the server-wide toolInputStyle: flat or nested"
    )
    _add_profile(call)
    call.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME:VALUE",
        help="an inbound header (repeatable)",
    )
    call.add_argument(
        "--protocol-version", default="2025-11-25", help="MCP protocol version for error answers"
    )
    return parser


def _print_table(result: PlanResult, out: TextIO) -> None:
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
    for note in result.diagnostics:
        if note.level in ("error", "warning"):
            out.write(f"{note.level}: {note.message}\n")


def _as_json(result: PlanResult) -> dict[str, Json]:
    """`--json`: the MCP `Tool` objects (S16.5), how each routes, errors and diagnostics."""
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
            }
            for tool in result.tools
        ],
        "errors": [error.to_dict() for error in result.errors],
        "diagnostics": [note.to_dict() for note in result.diagnostics],
    }


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status (0 ok, 1 planning errors, 2 unusable input)."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = _parser().parse_args(argv)
    if args.command == "call":
        return _call(args, out, err)
    try:
        document, source = load_document(args.spec)
        result = plan_document(
            document,
            style=args.style,
            source=args.source or source,
            options=_options(args),
        )
    except (_Usage, DocumentError) as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except PlanError as error:
        err.write(f"toolshape: {error}\n")
        return 1
    if args.json:
        json.dump(_as_json(result), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        _print_table(result, out)
    return 1 if result.errors else 0


def _call(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`toolshape call`: print the request (exit 0) or the MCP error answer (exit 1)."""
    try:
        document, source = load_document(args.spec)
        arguments = json.loads(args.arguments)
    except _Usage as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except json.JSONDecodeError as error:
        err.write(f"toolshape: ARGS_JSON is not JSON: {error}\n")
        return 2
    headers = []
    for header in args.header:
        name, sep, value = header.partition(":")
        if not sep or not name.strip():
            err.write(f"toolshape: --header {header!r} is not NAME:VALUE\n")
            return 2
        headers.append((name.strip(), value.strip()))
    try:
        result = plan_document(document, style=args.style, source=source, options=_options(args))
    except PlanError as error:
        err.write(f"toolshape: {error}\n")
        return 2 if isinstance(error, DocumentError) else 1
    tools = {tool.name: tool for tool in result.tools}
    if args.tool not in tools:
        failed = [e for e in result.errors if e.tool == args.tool]
        if failed:
            err.write(f"toolshape: {failed[0]}\n")
            return 1
        err.write(
            f"toolshape: no tool named {args.tool!r}; the tools are: {', '.join(tools) or '(none)'}\n"
        )
        return 2
    try:
        request = tools[args.tool].call(arguments, headers=headers)
    except ArgumentError as error:
        json.dump(error_result(error, args.protocol_version), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 1
    shown = request.to_dict()
    shown["encoded"] = _encoded(request)
    json.dump(shown, out, indent=2, ensure_ascii=False)
    out.write("\n")
    return 0


def _encoded(request: Request) -> Json:
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
