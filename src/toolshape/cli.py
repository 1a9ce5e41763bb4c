"""The `toolshape` command: `toolshape plan` (and `python -m toolshape`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from toolshape._load import Unset, from_environment, is_env, load_operations, parse_json, read_spec
from toolshape._printed import Stream, as_json, encoded, masked, print_table, switch_hint
from toolshape.call._mcp import error_result
from toolshape.model._errors import (
    ArgumentError,
    CredentialError,
    DocumentError,
    PlanError,
    SettingsError,
    ViewError,
)
from toolshape.model._options import PROFILES, Options, option_kinds
from toolshape.model._types import Json, Unchecked
from toolshape.model._version import __version__
from toolshape.planner._api import plan_document
from toolshape.planner._settings import SERVED, PlanSettings
from toolshape.plansfile._file import PLANS_FORMAT, dump_plans
from toolshape.server._limits import (
    MAX_DOWNLOAD_BYTES,
    MAX_RESPONSE_BYTES,
    MAX_RETRY_WAIT,
    PAGE_BYTES,
    RETRIES,
    TIMEOUT,
)
from toolshape.views._table import schema_views

#: S24.4: control characters a document may hold (C0 but tab and newline, DEL, C1), which a
#: terminal would act on: written as `\u00XX` escapes (valid inside JSON strings too).
_CONTROL = {c: f"\\u{c:04x}" for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]}


class Escaped:
    """A text stream that writes control characters as escapes (S24.4): document text never
    reaches a terminal as ESC sequences."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def write(self, text: str) -> object:
        return self.stream.write(text.translate(_CONTROL))

    def flush(self) -> None:
        flush = getattr(self.stream, "flush", None)
        if flush is not None:
            flush()


class DocumentUnreadable(Exception):
    """A document that can't be read (not a file, neither JSON nor YAML), or a malformed flag:
    exit 2, with the message."""


def credentials_from(
    items: Sequence[str], environ: Mapping[str, str], schemes: Sequence[str]
) -> dict[str, str]:
    """`--credential SCHEME=env:VAR` flags as `Plan.call` credentials (S18.2): each value is
    read from the environment variable it names, never given in clear on the command line.

    Raises:
        ValueError: a flag that is not `SCHEME=env:VAR`, a scheme the document does not define
            (`schemes`), or a variable that is not set; the message says which.
    """
    out: dict[str, str] = {}
    for item in items:
        name, sep, source = item.partition("=")
        if not sep or not name or not is_env(source):
            raise ValueError(
                f"--credential {name or item!r}: give SCHEME=env:VAR (credentials are read "
                "from the environment, never given in clear on the command line)"
            )
        if name not in schemes:
            known = ", ".join(schemes) or "none"
            raise ValueError(
                f"--credential {name}: the document defines no security scheme `{name}` "
                f"(it defines: {known})"
            )
        value = from_environment(source, environ)
        if isinstance(value, Unset):
            raise ValueError(f"--credential {name}: {value.why}")
        out[name] = value
    return out


def fixed_from(items: Sequence[str]) -> dict[str, Json]:
    """`--fixed NAME=JSON` flags as the `fixed` planning keyword (S18.4).

    Raises:
        ValueError: a flag that is not NAME=JSON.
    """
    out: dict[str, Json] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--fixed {item!r} is not NAME=JSON (no `=`)")
        try:
            out[name] = parse_json(text, "the value")
        except DocumentError as error:
            reason = error.reason.removeprefix("can't read the value: ")
            raise ValueError(f"--fixed {item[:80]!r} is not NAME=JSON ({reason})") from None
    return out


def read_document(path: str | None) -> tuple[Unchecked, str, str]:
    """The document at `path` (`-`: standard input; None: the bundled example), how messages
    name it, and the hex SHA-256 of its bytes (`_load.read_spec`, the one loader).

    Raises:
        DocumentUnreadable: the file can't be read or holds no document.
    """
    try:
        return read_spec(path)
    except DocumentError as error:
        raise DocumentUnreadable(error.reason) from None


def _switches() -> dict[str, tuple[str, ...]]:
    """Every `Options` switch with the words it takes: a `Literal`'s values, `true` / `false`
    for a boolean (`output_schemas` takes both), `()` for a number."""
    out: dict[str, tuple[str, ...]] = {}
    for name, kinds in option_kinds().items():
        if int in kinds:
            out[name] = ()
            continue
        words = [kind for kind in kinds if isinstance(kind, str)]
        out[name] = (*words, "true", "false") if bool in kinds else tuple(words)
    return out


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def add_options(parser: argparse.ArgumentParser) -> None:
    """`--profile` and one flag per `Options` switch, each with its default in `--help` (S21.2);
    the example gateway shares them."""
    parser.add_argument(
        "--profile",
        default=None,
        choices=PROFILES,
        help="behaviour profile (S10; default 2026-11-06)",
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


def planning_of(args: argparse.Namespace) -> dict[str, Any]:
    """The planning settings the flags give, by the keys `PlanSettings.from_mapping` reads
    (those given only): `style`, `profile`, every switch, `select` and `fixed`.

    Raises:
        ValueError: a `--fixed` that is not NAME=JSON.
    """
    given: dict[str, Any] = {
        name: value == "true" if value in ("true", "false") else value
        for name in ("style", "profile", *_switches())
        if (value := getattr(args, name)) is not None
    }
    select = {
        key: value
        for key, value in {
            "tags": args.tag,
            "operations": args.operation,
            "methods": args.method,
            "paths": args.path,
            "exclude_tags": args.exclude_tag or None,
            "exclude_operations": args.exclude_operation or None,
            "deprecated": False if args.no_deprecated else None,
            "content_types": None if args.content_types == "all" else args.content_types,
        }.items()
        if value is not None
    }
    if select:
        given["select"] = select
    if args.fixed:
        given["fixed"] = fixed_from(args.fixed)
    return given


def plan_settings(
    args: argparse.Namespace, document: Mapping[str, Any], preset: Mapping[str, Any]
) -> PlanSettings:
    """What `plan` and `call` plan with: the flags given over `preset`, and the operations
    file's settings (S24.7).

    Raises:
        DocumentUnreadable: a malformed `--fixed`.
        SettingsError: the operations file can't be read, or names what is not there.
    """
    try:
        given = planning_of(args)
    except ValueError as error:
        raise DocumentUnreadable(str(error)) from None
    settings = PlanSettings.from_mapping({**preset, **given}, name=f"toolshape {args.command}")
    if args.operations is None:
        return settings
    return dataclasses.replace(settings, **load_operations(args.operations, document))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolshape",
        description="Turn OpenAPI operations into MCP tool input schemas, nested or flat.",
    )
    parser.add_argument("--version", action="version", version=f"toolshape {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    plan = commands.add_parser("plan", help="plan every operation of a document as MCP tools")
    plan.add_argument(
        "spec", nargs="?", help="an OpenAPI 3.x JSON document (default: the bundled example)"
    )
    add_style(plan)
    add_options(plan)
    add_select(plan)
    add_fixed(plan)
    add_operations(plan)
    add_schema_view(plan)
    plan.add_argument("--source", help="the name locations use for the document (default: SPEC)")
    plan.add_argument("--json", action="store_true", help="print the result as JSON")
    plan.add_argument(
        "--out",
        metavar="FILE",
        help="also write every plan, error and diagnostic as a plans file (toolshape.plans/4) "
        "that `load_plans` and the example gateway's --plans serve without the document",
    )
    call = commands.add_parser("call", help="turn one tool call into the HTTP request it describes")
    call.add_argument("spec", help="an OpenAPI 3.x JSON document")
    call.add_argument("tool", help="the tool's name (as `toolshape plan` lists it)")
    call.add_argument("arguments", help="the call's arguments as JSON text")
    add_style(call)
    add_options(call)
    add_select(call)
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
    add_fixed(call)
    add_operations(call)
    add_credentials(call, "; its values are masked in the printed request")
    add_serve(commands.add_parser("serve", help="serve an API's operations as MCP tools"))
    return parser


def add_style(parser: argparse.ArgumentParser, default: str = "nested") -> None:
    """`--style`, the server-wide `toolInputStyle` (S2): `nested` by default (`serve`, and
    `plan --out` without planning flags: flat, S23.2, S27.2); None when not given."""
    parser.add_argument(
        "--style",
        default=None,
        choices=("flat", "nested"),
        help=f"the server-wide toolInputStyle (default: {default})",
    )


def planning_flags(args: argparse.Namespace) -> list[str]:
    """S27.2: the planning flags given (style, profile, switches, selection, fixed arguments,
    operations file), as they are spelled."""
    planning = argparse.ArgumentParser(add_help=False)
    for add in (add_style, add_options, add_select, add_fixed, add_operations):
        add(planning)
    defaults = vars(planning.parse_args([]))
    return [
        "--" + name.replace("_", "-")
        for name, default in defaults.items()
        if getattr(args, name, default) != default
    ]


def add_select(parser: argparse.ArgumentParser) -> None:
    """The S20.1 filters, read with `select_from`."""
    group = parser.add_argument_group("choosing operations", "S20.1; repeat a flag for more")
    group.add_argument("--tag", action="append", metavar="TAG", help="keep operations tagged so")
    group.add_argument(
        "--exclude-tag", action="append", default=[], metavar="TAG", help="leave them out"
    )
    group.add_argument(
        "--operation", action="append", metavar="ID", help="keep this operationId (or name)"
    )
    group.add_argument(
        "--exclude-operation", action="append", default=[], metavar="ID", help="leave it out"
    )
    group.add_argument("--method", action="append", metavar="METHOD", help="keep this method")
    group.add_argument(
        "--path", action="append", metavar="GLOB", help="keep path keys matching the glob"
    )
    group.add_argument(
        "--no-deprecated", action="store_true", help="leave deprecated operations out"
    )
    group.add_argument(
        "--content-types",
        default="all",
        choices=("all", "preferred"),
        help="a tool per request content type (all, the default), or one per operation for "
        "the type sent best: JSON, then form, then multipart (preferred)",
    )


def add_operations(parser: argparse.ArgumentParser) -> None:
    """`--operations FILE` (S24.7), read with `operations_from`."""
    parser.add_argument(
        "--operations",
        metavar="FILE",
        help="per-operation settings by operationId (or derived name), JSON or TOML (a name "
        "ending .toml): style, name, annotations, fixed",
    )


def add_fixed(parser: argparse.ArgumentParser) -> None:
    """`--fixed NAME=JSON` (S18.4), read with `fixed_from`."""
    parser.add_argument(
        "--fixed",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="an argument the gateway supplies on every call that declares it, out of the "
        "schemas (repeatable, S18.4)",
    )


def add_credentials(parser: argparse.ArgumentParser, more: str = "") -> None:
    """`--credential SCHEME=env:VAR` (S18.2), read with `credentials_from`."""
    parser.add_argument(
        "--credential",
        action="append",
        default=[],
        metavar="SCHEME=env:VAR",
        help="a credential for a security scheme, read from the environment variable VAR "
        f"(repeatable, S18.2){more}",
    )


def main(
    argv: Sequence[str] | None = None, out: Stream | None = None, err: Stream | None = None
) -> int:
    """Run the command line; returns the exit status (0 ok, 1 planning errors, 2 unusable input)."""
    terminal = out is None
    escaped_out, escaped_err = Escaped(out or sys.stdout), Escaped(err or sys.stderr)
    try:
        return _run(_parser().parse_args(argv), escaped_out, escaped_err)
    except BrokenPipeError:  # S24.4: `toolshape plan --json | head` ends quietly
        if terminal:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush goes nowhere
        return 0


def _run(args: argparse.Namespace, out: Stream, err: Stream) -> int:
    """The command `args` name, its output on `out`, its messages on `err`."""
    if args.command == "call":
        return _call(args, out, err)
    if args.command == "serve":
        return _serve(args, err)
    served = args.out is not None and not planning_flags(args)  # S27.2: what serve plans
    try:
        document, source, digest = read_document(args.spec)
        settings = plan_settings(args, document, SERVED if served else {})
        result = plan_document(
            document, dataclasses.replace(settings, source=args.source or source)
        )
    except (DocumentUnreadable, DocumentError, SettingsError) as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except PlanError as error:
        err.write(f"toolshape: {error}\n")
        return 1
    if args.out:
        text = json.dumps(dump_plans(result, sha256=digest), ensure_ascii=False)
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            err.write(f"toolshape: can't write {args.out}: {error.strerror or error}\n")
            return 2
        err.write(
            f"toolshape: wrote {args.out} ({PLANS_FORMAT}): {len(result.tools)} tools, "
            f"{len(result.errors)} errors\n"
        )
    if args.json:
        try:
            shown = as_json(result, args.schema_view, args.inline_refs)
        except ViewError as error:
            err.write(f"toolshape: {error}\n")
            return 2
        json.dump(shown, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print_table(result, out)
    return 1 if result.errors else 0


def _call(args: argparse.Namespace, out: Stream, err: Stream) -> int:
    """`toolshape call`: print the request (exit 0) or the MCP error answer (exit 1)."""
    try:
        document, source, _ = read_document(args.spec)
        arguments = parse_json(args.arguments, "ARGS_JSON")
    except DocumentUnreadable as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except DocumentError as error:
        reason = error.reason.removeprefix("can't read ARGS_JSON: ")
        err.write(f"toolshape: ARGS_JSON is not JSON: {reason}\n")
        return 2
    headers = []
    for header in args.header:
        name, sep, value = header.partition(":")
        if not sep or not name.strip():
            err.write(f"toolshape: --header {header!r} is not NAME:VALUE\n")
            return 2
        headers.append((name.strip(), value.strip()))
    try:
        settings = plan_settings(args, document, {})
        result = plan_document(document, dataclasses.replace(settings, source=source))
        credentials = credentials_from(args.credential, os.environ, result.security_schemes)
    except (DocumentUnreadable, SettingsError) as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except ValueError as error:
        err.write(f"toolshape: {error}\n")
        return 2
    except PlanError as error:
        err.write(f"toolshape: {error}\n")
        return 2 if isinstance(error, DocumentError) else 1
    tools = {tool.name: tool for tool in result.tools}
    if args.tool not in tools:
        failed = [e for e in result.errors if e.tool == args.tool]
        if failed:
            err.write(f"toolshape: {failed[0]}\n")
            hint = switch_hint(failed[0])
            if hint is not None:
                err.write(f"hint: {hint}\n")
            return 1
        err.write(
            f"toolshape: no tool named {args.tool!r}; the tools are: {', '.join(tools) or '(none)'}\n"
        )
        return 2
    plan = tools[args.tool]
    try:
        request = plan.call(arguments, headers=headers, credentials=credentials or None)
    except ArgumentError as error:
        json.dump(error_result(error, args.protocol_version), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 1
    except CredentialError as error:
        err.write(f"toolshape: {error}\n")
        return 2
    shown = masked(request, plan) if credentials else request.to_dict()
    shown["encoded"] = encoded(request)
    json.dump(shown, out, indent=2, ensure_ascii=False)
    out.write("\n")
    return 0


# -- toolshape serve (S23) ---------------------------------------------------------------------


def add_schema_view(parser: argparse.ArgumentParser) -> None:
    """`--schema-view` (S22.6) and `--inline-refs` (S25.3): the input schema tools advertise."""
    parser.add_argument(
        "--schema-view",
        choices=schema_views(),
        default="mcp",
        help="the tools' input schemas: the plan's (mcp, the default), the OpenAI strict or "
        "Gemini view, or the plan's inlined (inline), calls read back from it",
    )
    parser.add_argument(
        "--inline-refs",
        action="store_true",
        help="no $ref and no $defs in any schema: every reference inlined, recursion cut",
    )


def add_serve(parser: argparse.ArgumentParser) -> None:
    """`toolshape serve`'s flags (S23.2): what to serve, how, and every planning switch."""
    parser.add_argument(
        "spec", nargs="?", help="an OpenAPI document (3.x or Swagger 2.0), JSON or YAML"
    )
    parser.add_argument("--plans", metavar="FILE", help="serve a plans file (toolshape plan --out)")
    parser.add_argument(
        "--config", metavar="FILE", help="serve several APIs, as a TOML file lists them"
    )
    parser.add_argument("--name", help="a prefix for the tool names: <name>_<tool>")
    parser.add_argument(
        "--base-url", help="where the API is (default: the document's first server)"
    )
    parser.add_argument(
        "--server", metavar="NAME", help="the document's server of this name is where the API is"
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="(http) default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="(http) default: 8000")
    parser.add_argument("--workers", type=int, default=1, help="(http) worker processes")
    parser.add_argument(
        "--page-size", type=int, default=None, help="at most this many tools per tools/list page"
    )
    parser.add_argument(
        "--page-bytes",
        type=int,
        default=PAGE_BYTES,
        help="at most this many bytes of tools per tools/list page (default 4 MiB)",
    )
    parser.add_argument(
        "--discovery", action="store_true", help="list search, describe and call tools only"
    )
    parser.add_argument(
        "--client-profile",
        default="auto",
        help="how tools are listed to each client: auto (by the name it sends, the default), "
        "mcp, inline, openai-strict, gemini, openai-agents or cursor",
    )
    parser.add_argument(
        "--name-budget", type=int, default=None, help="the longest tool name given to any client"
    )
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="info",
        help="stderr: info logs one line per call (tool, status, ms) and each client's profile; "
        "warning only problems (default info)",
    )
    parser.add_argument(
        "--timeout", type=float, default=TIMEOUT, help="seconds per call (default 30)"
    )
    parser.add_argument(
        "--max-response-bytes",
        type=int,
        default=MAX_RESPONSE_BYTES,
        help="the most a result carries (default 1 MiB): a larger JSON answer is cut to fit",
    )
    parser.add_argument(
        "--max-download-bytes",
        type=int,
        default=MAX_DOWNLOAD_BYTES,
        help="the most read from the API, after decompression (default 16 MiB)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=RETRIES,
        help="tries more for GET, HEAD, OPTIONS, PUT, DELETE, QUERY on no connection, 429, 503",
    )
    parser.add_argument(
        "--max-retry-wait",
        type=float,
        default=MAX_RETRY_WAIT,
        help="the longest wait (seconds) before a try again; a longer Retry-After: no try",
    )
    parser.add_argument(
        "--on-large-response",
        choices=("cut", "error"),
        default="cut",
        help="a JSON answer past --max-response-bytes: cut its arrays to fit (default), or an error",
    )
    parser.add_argument(
        "--pass-through-auth",
        metavar="SCHEME",
        help="(http) each caller's own Authorization header is the credential for SCHEME",
    )
    parser.add_argument(
        "--header", action="append", default=[], metavar="'NAME: VALUE'", help="an outbound header"
    )
    add_schema_view(parser)
    add_style(parser, default="flat")
    add_options(parser)
    add_select(parser)
    add_credentials(parser)
    add_fixed(parser)
    add_operations(parser)


#: The flags that say how to serve, not what: the only ones `--config` takes beside it.
_HOW = (
    "transport", "host", "port", "workers", "page_size", "page_bytes", "discovery", "log_level",
    "client_profile", "name_budget",
)  # fmt: skip


def _serve(args: argparse.Namespace, err: Stream) -> int:
    """`toolshape serve`: check everything, then serve until stopped (exit 2 for settings it
    can't use, each problem on a line)."""
    try:
        from toolshape.server._run import Serving, run
        from toolshape.server._settings import read_config
    except ModuleNotFoundError as error:
        err.write(f"toolshape: serve needs the extra: pip install 'toolshape[serve]' ({error})\n")
        return 2
    from toolshape.server._profiles import CLIENT_PROFILES

    problems = _serve_flag_problems(args)
    if args.client_profile != "auto" and args.client_profile not in CLIENT_PROFILES:
        known = ", ".join(("auto", *CLIENT_PROFILES))
        problems.append(f"--client-profile can't be {args.client_profile!r}; use one of {known}")
    if problems:
        err.write("".join(f"toolshape serve: {problem}\n" for problem in problems))
        return 2
    serving = Serving(**{name: getattr(args, name) for name in _HOW})
    try:
        if args.config is not None:
            settings, source = read_config(args.config), args.config
        else:
            settings, source = (_api_settings(args),), "toolshape serve"
        if args.client_profile == "openai-agents":  # its MCP path takes portable names only
            settings = tuple(
                dataclasses.replace(s, planning={"portable_names": True, **s.planning})
                if s.plans is None
                else s
                for s in settings
            )
        run(settings, serving, source)
    except SettingsError as error:
        err.write("".join(f"toolshape: {error.source}: {p}\n" for p in error.problems))
        return 2
    except ValueError as error:
        err.write(f"toolshape serve: {error}\n")
        return 2
    return 0


def _serve_flag_problems(args: argparse.Namespace) -> list[str]:
    """What the flags given can't mean together."""
    problems = []
    given = [args.spec is not None, args.plans is not None, args.config is not None]
    if sum(given) != 1:
        problems.append("give one of SPEC, --plans FILE and --config FILE")
    if args.config is not None:
        defaults = _parser().parse_args(["serve", "x"])
        other = [
            name
            for name, value in vars(args).items()
            if name not in (*_HOW, "config", "spec", "command") and value != getattr(defaults, name)
        ]
        if other:
            shown = ", ".join("--" + name.replace("_", "-") for name in other)
            problems.append(f"{shown}: with --config, each API's settings are in the file")
    flags = planning_flags(args) if args.plans is not None else []
    if flags:  # S27.2: every planning flag alike
        problems.append(
            f"{', '.join(flags)}: a plans file is served as it was planned (plan it again "
            "with these flags: toolshape plan SPEC ... --out FILE)"
        )
    if args.transport == "stdio" and args.pass_through_auth is not None:
        problems.append("--pass-through-auth needs --transport http (stdio carries no headers)")
    if args.transport == "stdio" and args.workers != 1:
        problems.append("--workers needs --transport http")
    for name in ("workers", "page_size", "page_bytes", "port", "name_budget"):
        value = getattr(args, name)
        if value is not None and value < (0 if name == "port" else 1):
            problems.append(f"--{name.replace('_', '-')} can't be {value}")
    return problems


def _api_settings(args: argparse.Namespace) -> Any:
    """The one API the flags describe.

    Raises:
        SettingsError: a malformed `--credential`, `--header` or `--fixed`.
    """
    from toolshape.server._settings import ApiSettings

    problems: list[str] = []
    credentials: dict[str, str] = {}
    for item in args.credential:
        scheme, sep, source = item.partition("=")
        if not sep or not scheme:
            problems.append(f"--credential {item!r}: give SCHEME=env:VAR")
        credentials[scheme] = source
    headers: dict[str, str] = {}
    for header in args.header:
        name, sep, value = header.partition(":")
        if not sep or not name.strip():
            problems.append(f"--header {header!r} is not 'NAME: VALUE'")
        headers[name.strip()] = value.strip()  # as curl reads `Name: value` (S23.5)
    try:
        planning = planning_of(args)
    except ValueError as error:
        problems.append(str(error))
    if problems:
        raise SettingsError("toolshape serve", problems)
    return ApiSettings(
        name=args.name,
        document=args.spec,
        plans=args.plans,
        base_url=args.base_url,
        server=args.server,
        planning=planning,
        credentials=credentials,
        headers=headers,
        operations=args.operations,
        timeout=args.timeout,
        max_response_bytes=args.max_response_bytes,
        max_download_bytes=args.max_download_bytes,
        on_large_response=args.on_large_response,
        retries=args.retries,
        max_retry_wait=args.max_retry_wait,
        pass_through_auth=args.pass_through_auth,
        schema_view=args.schema_view,
        inline_refs=args.inline_refs,
    )
