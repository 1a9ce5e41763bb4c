"""The planner: one tool of one operation (`plan_tool`), and every tool of one operation
(`plan_operation_tools`) — S2 styles, S8 names, S9 errors, tied to the steps' results.

Errors are values until the edge: the steps return `Wrapped`, `Collision` and `Problem`s;
`plan_tool` turns them into a `Plan` or a `PlanError` (or a diagnostic), because only here are
the options (S10) known. Nothing here raises for a document's content.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from toolshape.flatten._aliases import Aliases, collision_renames, portable_aliases, unique
from toolshape.flatten._collide import Collision, detect_collision
from toolshape.flatten._hoist import hoist_body
from toolshape.flatten._policy import apply_key_policy
from toolshape.flatten._schemas import (
    argument_name,
    flat_parts,
    nested_schema,
    object_schema,
    order_body,
    reachable_defs,
)
from toolshape.flatten._union import describe
from toolshape.model._errors import PlanError, PlanErrorKind
from toolshape.model._http import is_binary_media
from toolshape.model._json import Unchecked, is_map
from toolshape.model._options import Options
from toolshape.model._types import (
    Body,
    BodyShape,
    Channel,
    Diagnostic,
    Hoisted,
    Level,
    Operation,
    Parameter,
    Schema,
    Style,
    Wrapped,
)
from toolshape.planner._tool import description as describe_tool
from toolshape.planner._tool import output_schema, title, tool_annotations, wire_body
from toolshape.planner._tool_names import derive_name, tool_name
from toolshape.plans._plan import FixedArgument, ParameterRoute, Plan
from toolshape.read._bundle import Problem
from toolshape.read._deep_names import DeepNames
from toolshape.read._document import DocumentReader, RawOperation
from toolshape.schema._dialects import DIALECTS, DRAFT2020_12, OPENAPI30
from toolshape.schema._pointers import follow
from toolshape.schema._validate import check, compile_schema

_ENV = re.compile(r"\$env\(([^)]*)\)")
#: S17.5: the advertised schema of a whole binary body without a schema of its own.
BASE64_BODY: Mapping[str, str] = {"type": "string", "contentEncoding": "base64"}
_UNSET = object()


# -- settings --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What applies to every tool of a document (S2, S9.3, S10)."""

    options: Options
    style: Style
    """The server-wide `toolInputStyle`, resolved (S2.3)."""
    source: str
    """The document's name in every location (S9.3)."""
    route: str
    """The MCP route the S2.4 message names."""
    env: Mapping[str, str]
    """What resolves `$env(...)` under `env_in_style="resolve"` (S2.4)."""
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """S18.4: arguments the gateway supplies for every operation that declares them."""


@dataclass(frozen=True, slots=True)
class ToolSettings:
    """The caller's per-operation settings, each keyed by operationId (or, for an operation
    without one, its derived name): a new per-tool feature is one more field here."""

    styles: Mapping[str, str] = field(default_factory=dict)
    """S2.2: a tool's own `toolInputStyle`."""
    names: Mapping[str, str] = field(default_factory=dict)
    """S8.1: a tool's name."""
    annotations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """S16.2: hints that override the method's, per tool."""
    fixed: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """S18.4: `fixed_per_operation`: arguments the gateway supplies, per tool (over `fixed`)."""

    def mappings(self) -> dict[str, Mapping[str, Any]]:
        """Every per-operation mapping by its keyword, for the unknown-key warning."""
        return {
            "styles": self.styles,
            "names": self.names,
            "annotations": self.annotations,
            "fixed_per_operation": self.fixed,
        }


def env_error(route: str) -> PlanError:
    """S2.4: the exact configuration error for `$env(...)` in a style."""
    return PlanError(
        "configuration",
        f'MCP handler option "toolInputStyle" on route "{route}" can\'t use $env(...): the build '
        'uses it to generate tool schemas. Use "flat" or "nested".',
        rule="S2.4",
    )


def _expand_env(
    value: str, options: Options, env: Mapping[str, str], route: str
) -> str | PlanError:
    if "$env(" not in value:
        return value
    if options.env_in_style == "error":
        return env_error(route)  # S2.4
    return _ENV.sub(lambda m: env.get(m.group(1).strip(), ""), value)


def _as_style(value: object) -> Style | None:
    if value == "flat":
        return "flat"
    if value == "nested":
        return "nested"
    return None


def server_style(
    value: object, options: Options, env: Mapping[str, str], route: str
) -> tuple[Style, list[Diagnostic]] | PlanError:
    """S2.3: a server-wide value other than flat/nested is read as nested, with a warning;
    S2.4: `$env(...)` is an error under `2026-11-06`."""
    text = _expand_env(value, options, env, route) if isinstance(value, str) else value
    if isinstance(text, PlanError):
        return text
    style = _as_style(text)
    if style is not None:
        return style, []
    return "nested", [
        Diagnostic(
            "warning",
            f'toolInputStyle {json.dumps(text)} is not "flat" or "nested", so tools without '
            'their own toolInputStyle are nested. Use "flat" or "nested".',
        )
    ]


def _tool_setting(raw: RawOperation, key: str, tools: ToolSettings) -> object:
    """S2.2: the tool's own setting: the caller's, then `x-zuplo-route.mcp`, then
    `x-zuplo-mcp-tool`; `_UNSET` when none is given (a `null` is a setting, S2.3)."""
    if key in tools.styles:
        return tools.styles[key]
    node = raw.node if is_map(raw.node) else {}
    route = node.get("x-zuplo-route")
    mcp = route.get("mcp") if is_map(route) else None
    tool = node.get("x-zuplo-mcp-tool")
    for holder in (mcp, tool):
        if is_map(holder) and "toolInputStyle" in holder:
            setting: object = holder["toolInputStyle"]
            return setting
    return _UNSET


def tool_style(
    raw: RawOperation, key: str, label: str, server: ServerSettings, tools: ToolSettings
) -> Style | PlanError:
    """S2.1-S2.4: the tool's own style, else the server's; an invalid own style is an error."""
    setting = _tool_setting(raw, key, tools)
    if setting is _UNSET:
        return server.style
    value = (
        _expand_env(setting, server.options, server.env, server.route)
        if isinstance(setting, str)
        else setting
    )
    if isinstance(value, PlanError):
        return value
    style = _as_style(value)
    if style is not None:
        return style
    shown = json.dumps(setting) if not isinstance(setting, str) else f'"{setting}"'
    return PlanError(  # S2.3
        "configuration",
        f'MCP tool configuration error: invalid toolInputStyle {shown} on operation "{label}". '
        'Use "flat" or "nested".',
        rule="S2.3",
    )


# -- one tool --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Where a tool is, as every message about it names it (S9.3)."""

    tool: str
    operation: str
    location: str

    def error(self, kind: PlanErrorKind, reason: str, **fields: Any) -> PlanError:
        return PlanError(
            kind, reason, tool=self.tool, operation=self.operation, location=self.location, **fields
        )

    def collision(self, collision: Collision) -> PlanError:
        """The S9.1 planning error of `collision`."""
        return self.error(
            "collision",
            collision.reason,
            property=collision.name,
            channels=collision.channels,
            fix=collision.fix,
            rule="S9.1",
        )

    def warn(self, error: PlanError) -> Diagnostic:
        """`error`'s message as a warning diagnostic (S21.1)."""
        return Diagnostic(
            "warning",
            error.message,
            tool=self.tool,
            operation=self.operation,
            location=self.location,
        )

    def note(self, level: Level, title: str, reason: str) -> Diagnostic:
        return Diagnostic(
            level,
            f"{title} for tool '{self.tool}' (operation {self.operation}): {reason} "
            f"({self.location})",
            tool=self.tool,
            operation=self.operation,
            location=self.location,
        )


def _as_2020(dialect: str) -> str:
    """S1.7: after the S1.4 conversion a 3.0 schema counts as 2020-12."""
    return DRAFT2020_12 if dialect == OPENAPI30 else dialect


def tool_dialect(op: Operation, body: Body | None, default: str) -> str | Wrapped:
    """S4.7: the one dialect of a tool's schemas, or why there is none."""
    found: dict[str, str] = {}
    for param in op.parameters:
        found.setdefault(_as_2020(param.dialect), f"the parameter `{param.name}`")
    if body is not None and body.schema is not None:
        found.setdefault(_as_2020(body.dialect), "the body")
    if not found:
        return _as_2020(default)
    if len(found) > 1:
        (one, first), (two, second) = list(found.items())[:2]
        return Wrapped(
            f"its schemas are not all in one dialect: {first} is `{one}` and {second} is "
            f"`{two}`, so no one root schema can read both correctly. Declare every schema "
            "of the operation in one dialect",
            "S4.7",
        )
    return next(iter(found))


def _pattern_notes(op: Operation, place: Place) -> list[Diagnostic]:
    """S13.3: patterns Python can't evaluate, and patterns that can backtrack catastrophically."""
    notes = [
        place.note(
            "warning",
            "MCP tool schema has a pattern Python can't evaluate",
            f"`{pattern}` is not a Python regular expression (ECMA-262 only), so a call whose "
            "value reaches it is rejected with an argument error, never accepted unchecked",
        )
        for pattern in op.foreign_patterns
    ]
    notes.extend(
        place.note(
            "warning",
            "MCP tool schema has a pattern that can backtrack catastrophically",
            f"`{pattern}` repeats a repeated group (nested quantifiers), so a long value that "
            "almost matches can take exponential time to check; it is checked once per call. "
            "Rewrite the pattern without nested quantifiers",
        )
        for pattern in op.slow_patterns
    )
    return notes


def _invalid_defaults(nested: Mapping[str, Unchecked], place: Place) -> list[Diagnostic]:
    """S13.5 (legacy): a `default` its own schema rejects is never inserted; say so."""
    notes = []
    root = {k: nested[k] for k in ("$schema", "$defs") if k in nested}
    for channel, schema in nested["properties"].items():
        properties = schema.get("properties") if is_map(schema) else None
        for name, prop in (properties or {}).items():
            if not is_map(prop) or "default" not in prop:
                continue
            if check(compile_schema({**root, "allOf": [prop]}), prop["default"]):
                notes.append(
                    place.note(
                        "warning",
                        "MCP tool default left out",
                        f"the `default` {json.dumps(prop['default'])} of `{channel}.{name}` "
                        "does not match its own schema, so it is never inserted into a call. "
                        "Fix the default",
                    )
                )
    return notes


def _route(p: Parameter, options: Options, aliases: Aliases) -> ParameterRoute:
    argument = argument_name(p, options.header_names)
    return ParameterRoute(
        argument=argument,
        alias=aliases.get((p.channel, argument)),
        name=p.name,
        channel=p.channel,
        style=p.style or "simple",
        explode=p.explode if p.explode is not None else p.style == "form",
        allow_reserved=p.allow_reserved,
        content_type=p.content_type,
        required=p.required,
    )


# -- aliases (S19) ---------------------------------------------------------------------------


def _alias_notes(aliases: Aliases, notes: list[Diagnostic], place: Place) -> None:
    """An info diagnostic listing a tool's portable aliases (S19.2)."""
    if aliases:
        shown = ", ".join(f"`{name}` as `{alias}`" for (_, name), alias in aliases.items())
        notes.append(place.note("info", "MCP tool argument aliases", f"{shown} (S19.2)"))


def _deep_name_notes(found: list[str], notes: list[Diagnostic], place: Place) -> None:
    """S19.2: a warning listing the names inside a body that no alias reaches."""
    if found:
        shown = ", ".join(f"`{name}`" for name in found[:10])
        more = f" and {len(found) - 10} more" if len(found) > 10 else ""
        notes.append(
            place.note(
                "warning",
                "MCP tool argument names left as they are",
                f"names inside the request body don't match `^[A-Za-z0-9_.-]{{1,64}}$` and "
                f"are sent as they are: {shown}{more} (S19.2)",
            )
        )


# -- credentials and fixed arguments (S18) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Withheld:
    """What S18 takes out of a tool's schemas: credential parameters and fixed arguments."""

    op: Operation
    """The operation without them."""
    credentials: tuple[str, ...]
    """The parameters a credential fills (S18.3), as declared."""
    fixed: tuple[FixedArgument, ...]
    """The fixed parameters, routed (S18.4); body properties come later."""
    schemas: Mapping[str, Schema]
    """Each fixed parameter's schema, which its value must match."""
    body_names: frozenset[str]
    """The fixed names no parameter declares: body properties, if the body has them."""


def _withhold(op: Operation, fixed: Mapping[str, Any], options: Options) -> _Withheld:
    """S18.3, S18.4: the operation without the parameters a credential fills or the gateway
    fixes."""
    carried = {
        (s.location, s.parameter)
        for alternative in op.security
        for s in alternative
        if s.kind == "apiKey"
    }
    kept: list[Parameter] = []
    credentials: list[str] = []
    routes: list[FixedArgument] = []
    schemas: dict[str, Schema] = {}
    for p in op.parameters:
        if (p.channel, p.name.lower() if p.channel == "header" else p.name) in carried:
            credentials.append(p.name)
            continue
        name = argument_name(p, options.header_names)
        if name in fixed:
            routes.append(FixedArgument(name, fixed[name], _route(p, options, {})))
            schemas[name] = p.schema
            continue
        kept.append(p)
    if not credentials and not routes:
        return _Withheld(op, (), (), {}, frozenset(fixed))
    return _Withheld(
        dataclasses.replace(op, parameters=tuple(kept)),
        tuple(credentials),
        tuple(routes),
        schemas,
        frozenset(fixed) - set(schemas),
    )


def _rooted(schema: Schema, defs: Mapping[str, Schema], declare: str | None) -> Schema:
    """`schema` made self-contained: its dialect declared and the operation's `$defs`."""
    root: dict[str, Unchecked] = {"$schema": declare} if declare else {}
    if defs:
        root["$defs"] = dict(defs)
    root["allOf"] = [schema]
    return root


def _check_fixed(
    name: str, value: Any, schema: Schema, defs: Mapping[str, Schema], declare: str | None
) -> str | None:
    """S18.4: why a fixed value can't be sent (not JSON, or its schema rejects it), or None."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        return f"the fixed value of `{name}` is not a JSON value ({error})"
    problems = check(compile_schema(_rooted(schema, defs, declare)), value)
    if problems:
        return (
            f"the fixed value {json.dumps(value)[:200]} of `{name}` does not match its schema: "
            f"{problems[0].render()}"
        )
    return None


def _fix_body(hoisted: Hoisted, names: frozenset[str]) -> Hoisted:
    """S18.4: a hoisted body without the fixed properties `names`: out of `properties` and
    `required`; a fixed property's `dependentRequired` (always present now) joins `required`.
    The original body judges the routed body, fixed values set (S6.3)."""
    dependent = hoisted.dependent_required or {}
    required = [r for r in hoisted.required if r not in names]
    for name in names:
        required.extend(r for r in dependent.get(name, ()) if r not in required and r not in names)
    kept = {
        key: tuple(r for r in needs if r not in names)
        for key, needs in dependent.items()
        if key not in names
    }
    return dataclasses.replace(
        hoisted,
        properties={k: v for k, v in hoisted.properties.items() if k not in names},
        required=tuple(required),
        dependent_required={k: v for k, v in kept.items() if v} or None,
        composed=True,
    )


def _with_defs(schema: Schema, defs: Mapping[str, Schema], declare: str | None) -> Schema:
    """The original body schema, made self-contained for the S6.3 second check."""
    if not is_map(schema):
        return schema
    out: dict[str, Unchecked] = {"$schema": declare} if declare else {}
    out.update(schema)
    if defs:
        out["$defs"] = {**(schema.get("$defs") or {}), **defs}
    return out


@dataclass(frozen=True, slots=True)
class _FlatBody:
    """The body's part of a flat tool: what was hoisted (or why not), as properties."""

    hoisted: Hoisted | Wrapped | None
    properties: Mapping[str, Schema]
    required: Sequence[str]


def flat_body(op: Operation, body: Body | None, has_body: bool, options: Options) -> _FlatBody:
    """S5, S6, S11: the body's flat properties: hoisted, wrapped under `body`, or none."""
    if not has_body or body is None:
        return _FlatBody(None, {}, [])
    hoisted = hoist_body(body.schema, op.defs, dialect=body.dialect, options=options)
    if isinstance(hoisted, Hoisted):
        return _FlatBody(hoisted, hoisted.properties, hoisted.required)
    wrapped = {"body": order_body({} if body.schema is None else body.schema)}
    return _FlatBody(hoisted, wrapped, ["body"])  # a wrapped body is always required


def plan_tool(
    op: Operation,
    body: Body | None,
    place: Place,
    style: Style,
    options: Options,
    default_dialect: str,
    hints: Mapping[str, Any] | None = None,
    fixed: Mapping[str, Any] | None = None,
    own_fixed: frozenset[str] = frozenset(),
    deep: DeepNames | None = None,
) -> Plan | PlanError:
    """One tool of one operation for one content type (S3-S9, S16, S18): a `Plan`, or the
    `PlanError` that refuses it. `hints` are the caller's annotations for it (S16.2); `fixed`
    the arguments the gateway supplies, of which `own_fixed` were named for this operation
    (each of those it doesn't declare is a warning, S18.4)."""
    if (
        body is not None
        and body.schema is None
        and is_binary_media(body.content_type)
        and options.schemaless_body == "unflattenable"
    ):
        body = dataclasses.replace(body, schema=dict(BASE64_BODY))  # S17.5: one base64 argument
    dialect = tool_dialect(op, body, default_dialect)
    if isinstance(dialect, Wrapped):
        return place.error("schema", dialect.reason, rule=dialect.rule)
    declare = DIALECTS[dialect].declare
    notes = _pattern_notes(op, place)
    fixed = fixed or {}
    deep = deep or DeepNames(lambda: True)
    withheld = _withhold(op, fixed, options)
    op = withheld.op
    fixed_arguments = list(withheld.fixed)
    for item in withheld.fixed:
        problem = _check_fixed(item.name, item.value, withheld.schemas[item.name], op.defs, declare)
        if problem is not None:
            return place.error("configuration", problem, property=item.name, rule="S18.4")
    tool_hints, hint_problems = tool_annotations(op, hints)
    notes.extend(place.note("warning", "MCP tool annotation left out", p) for p in hint_problems)
    output, wrapped = None, False
    if options.output_schemas and op.output is not None:
        output, wrapped = output_schema(op.output)
    elif options.output_schemas and op.output_problem is not None:
        notes.append(
            place.note(
                "warning",
                "MCP tool output schema left out",
                f"its success response's schema can't be read: {op.output_problem}, so the "
                "tool answers with text only",
            )
        )
    kind, binary = wire_body(body, op.defs)
    if kind == "unsupported" and body is not None:
        notes.append(
            place.note(
                "warning",
                "MCP tool body can't be encoded",
                f"toolshape can't encode a `{body.content_type}` body, so `Request.encode()` "
                "raises EncodeError for this tool; encode `Request.body` yourself (S17.7)",
            )
        )
    if op.read_only:
        shown = ", ".join(f"`{name}`" for name in op.read_only)
        notes.append(
            place.note(
                "info",
                "MCP tool request view",
                f"readOnly properties left out of the request schemas: {shown} (S16.6)",
            )
        )
    has_body = body is not None and not (
        body.schema is None and options.schemaless_body == "no-body"
    )
    part: _FlatBody | None = None
    nested_body = body.schema if body else None
    fixed_check: Schema | None = None
    if withheld.body_names and has_body and body is not None:
        part = flat_body(op, body, has_body, options)
        fixed_body = _fixed_body(part, body, withheld.body_names, op.defs, place)
        if isinstance(fixed_body, PlanError):
            return fixed_body
        if fixed_body is not None:
            hoisted_part, fixed_names = fixed_body
            for name in fixed_names:
                problem = _check_fixed(name, fixed[name], part.properties[name], op.defs, declare)
                if problem is not None:
                    return place.error("configuration", problem, property=name, rule="S18.4")
            fixed_arguments += [FixedArgument(n, fixed[n], None) for n in fixed_names]
            part = _FlatBody(hoisted_part, hoisted_part.properties, hoisted_part.required)
            nested_body = object_schema(
                hoisted_part.properties,
                hoisted_part.required,
                hoisted_part.additional_properties,
                dependent_required=hoisted_part.dependent_required,
            )
            fixed_check = _with_defs(body.schema, op.defs, declare)
    unmatched = sorted(own_fixed - {item.name for item in fixed_arguments})
    if unmatched:
        notes.append(
            place.note(
                "warning",
                "MCP tool fixed argument unused",
                f"`fixed_per_operation` names {', '.join(f'`{n}`' for n in unmatched)}, which "
                "this operation does not declare (as a parameter, or a property of a body "
                "that flattens), so it changes nothing",
            )
        )
    if withheld.credentials or fixed_arguments:
        shown = ", ".join(
            [*(f"`{n}` (a credential)" for n in withheld.credentials)]
            + [f"`{item.name}` (fixed)" for item in fixed_arguments]
        )
        notes.append(
            place.note(
                "info",
                "MCP tool arguments the gateway supplies",
                f"left out of the input schemas: {shown} (S18.3, S18.4)",
            )
        )
    nested = nested_schema(
        op.parameters,
        nested_body,
        has_body=has_body,
        header_names=options.header_names,
        declare=declare,
        defs=op.defs,
    )
    if options.validation == "per-channel":
        notes.extend(_invalid_defaults(nested, place))

    def finish(
        style: Style,
        advertised: dict[str, Unchecked],
        shape: BodyShape,
        body_properties: tuple[str, ...] = (),
        undeclared: Literal["reject", "body"] = "reject",
        check: Schema | None = None,
        aliases: Aliases | None = None,
    ) -> Plan:
        aliases = aliases or {}
        return Plan(
            name=place.tool,
            operation_id=op.operation_id,
            method=op.method.upper(),
            path=op.path,
            content_type=body.content_type if body else None,
            style=style,
            location=place.location,
            diagnostics=tuple(notes),
            body=shape,
            parameters=tuple(_route(p, options, aliases) for p in op.parameters),
            body_properties=body_properties,
            body_required=bool(body and body.required) or (shape == "wrapped" and style == "flat"),
            undeclared=undeclared,
            validation=options.validation,
            _input=advertised,
            # A nested tool reads what it advertises (aliased members, S19.2); a flat tool's
            # nested reading keeps the argument names (S19.1).
            _nested=advertised if style == "nested" else nested,
            _check=check,
            title=title(op),
            description=describe_tool(op, options.description_limit),
            annotations=tool_hints,
            _output=output,
            output_wrapped=wrapped,
            body_encoding=kind if body is not None else None,
            encoding=body.encoding if body is not None else {},
            binary=binary,
            security=op.security,
            # A plain JSON copy: the caller's value can't change the plan later (S15).
            fixed=tuple(
                dataclasses.replace(f, value=json.loads(json.dumps(f.value)))
                for f in fixed_arguments
            ),
            body_aliases={
                alias: name for (channel, name), alias in aliases.items() if channel == "body"
            },
        )

    nested_shape: BodyShape = "wrapped" if has_body else "none"

    def finish_nested() -> Plan:
        """The nested tool (S3), its channel members by portable names (S19.2)."""
        if not options.portable_names:
            return finish("nested", nested, nested_shape, check=fixed_check)
        aliases = portable_aliases(
            [(p.channel, argument_name(p, options.header_names)) for p in op.parameters]
        )
        _alias_notes(aliases, notes, place)
        if body is not None and body.schema is not None and deep.wanted:
            _deep_name_notes(deep.find([body.schema], op.defs), notes, place)
        advertised = (
            nested_schema(
                op.parameters,
                nested_body,
                has_body=has_body,
                header_names=options.header_names,
                declare=declare,
                defs=op.defs,
                aliases=aliases,
            )
            if aliases
            else nested
        )
        return finish("nested", advertised, nested_shape, check=fixed_check, aliases=aliases)

    if style == "nested":
        return finish_nested()
    if part is None:
        part = flat_body(op, body, has_body, options)
    hoisted = part.hoisted
    if isinstance(hoisted, Wrapped):
        if options.on_unflattenable == "error":  # S9.2
            return place.error("unflattenable", hoisted.reason, property="body", rule=hoisted.rule)
        if options.on_unflattenable == "nested":  # S21.1: the S9.2 message, as a warning
            error = place.error("unflattenable", hoisted.reason, property="body", rule=hoisted.rule)
            notes.append(place.warn(error))
            return finish_nested()
        notes.append(place.note("debug", "MCP tool request body left nested", hoisted.reason))
    properties, required, names = flat_parts(
        op.parameters, part.properties, part.required, options.header_names
    )
    wrapped_body = isinstance(hoisted, Wrapped)
    collision = detect_collision(names, wrapped_body=wrapped_body)
    aliases: dict[tuple[Channel, str], str] = {}
    if collision is not None and options.on_collision == "rename":  # S19.3
        aliases = collision_renames(names)
        shown = ", ".join(f"`{n}` ({c}) as `{a}`" for (c, n), a in aliases.items())
        notes.append(place.note("info", "MCP tool arguments renamed", f"{shown} (S19.3)"))
        collision = None
    if collision is not None:
        if options.on_collision == "error":  # S9.1
            return place.collision(collision)
        notes.append(
            place.note("warning", "MCP tool input schema left nested", collision.reason + ".")
        )
        return finish_nested()
    if options.portable_names:  # S19.2, after the renames
        advertised_names = [(c, aliases.get((c, n), n)) for c, ns in names for n in ns]
        portable = portable_aliases(advertised_names)
        _alias_notes(portable, notes, place)
        for channel, listed in names:
            for name in listed:
                final = portable.get((channel, aliases.get((channel, name), name)))
                if final is not None:
                    aliases[channel, name] = final
        # Hoisted: what is inside each top-level property; wrapped: all inside `body`.
        if deep.wanted:
            _deep_name_notes(deep.find(part.properties.values(), op.defs), notes, place)
    if aliases:
        properties, required, names = flat_parts(
            op.parameters, part.properties, part.required, options.header_names, aliases
        )
        clash = detect_collision(names, wrapped_body=wrapped_body)
        if clash is not None:  # a rename met a name of its own: S9.1 after all
            return place.collision(clash)
    if isinstance(hoisted, Hoisted) and hoisted.widened is not None:
        notes.append(
            place.note(
                "info",
                "MCP tool union body flattened",
                f"the body's variants were merged into one flat object; widened: "
                f"{describe(hoisted.widened)}; the original union still judges every call",
            )
        )
    policy = apply_key_policy(hoisted, open_body_root=options.open_body_root)
    composed = isinstance(hoisted, Hoisted) and hoisted.composed
    defs = op.defs
    if composed and defs:
        # A merged allOf no longer references its branches: bundle only what is still used.
        defs = reachable_defs([*properties.values(), policy.additional_properties], defs)
    dependent = hoisted.dependent_required if isinstance(hoisted, Hoisted) else None
    if dependent and aliases:

        def named(name: str) -> str:
            return aliases.get(("body", name), name)

        dependent = {named(k): tuple(named(n) for n in v) for k, v in dependent.items()}
    flat = object_schema(
        properties,
        required,
        policy.additional_properties,
        dependent_required=dependent,
        declare=declare,
        defs=defs,
    )
    if isinstance(hoisted, Hoisted):
        check = _with_defs(body.schema, op.defs, declare) if composed and body else None
        return finish(
            "flat", flat, "hoisted", tuple(part.properties), policy.undeclared, check, aliases
        )
    return finish("flat", flat, nested_shape, (), policy.undeclared, aliases=aliases)


def _fixed_body(
    part: _FlatBody,
    body: Body,
    names: frozenset[str],
    defs: Mapping[str, Schema],
    place: Place,
) -> tuple[Hoisted, list[str]] | PlanError | None:
    """S18.4: the hoisted body without the fixed properties among `names` (and those, in
    declaration order); None when the body declares none of them; a `configuration` error
    when it declares one but can't flatten (one property of a whole can't be set apart)."""
    hoisted = part.hoisted
    if isinstance(hoisted, Hoisted):
        found = [name for name in hoisted.properties if name in names]
        return (_fix_body(hoisted, frozenset(found)), found) if found else None
    schema = follow(body.schema, defs).schema
    properties = schema.get("properties") if is_map(schema) else None
    clash = sorted(names & set(properties or {}))
    if not clash or not isinstance(hoisted, Wrapped):
        return None
    return place.error(
        "configuration",
        f"`fixed` sets the body property `{clash[0]}`, but the body can't be flattened "
        f"({hoisted.reason}), so the gateway can't set one property of it apart",
        property=clash[0],
        rule="S18.4",
    )


# -- every tool of one operation -------------------------------------------------------------


def operation_key(raw: RawOperation) -> tuple[str, str]:
    """`(key, label)`: the operationId (or derived name) that keys the caller's mappings, and
    how messages name the operation (S8.1)."""
    operation_id = raw.node.get("operationId") if is_map(raw.node) else None
    if isinstance(operation_id, str):
        return operation_id, operation_id
    return derive_name(raw.method or "any", raw.path), f"{raw.method.upper()} {raw.path}"


def plan_operation_tools(
    reader: DocumentReader,
    raw: RawOperation,
    server: ServerSettings,
    tools: ToolSettings,
    taken: set[str] | None = None,
) -> tuple[list[Plan], list[PlanError]]:
    """Every tool of one operation (one per content type, S8.2): plans and errors.

    With `portable_names` (S19.2), tool names are portable and `taken` holds the names given
    so far in the document: a clash gets `_2`, `_3`, … in declaration order."""
    portable = server.options.portable_names
    taken = taken if taken is not None else set()
    key, label = operation_key(raw)
    base = tools.names.get(key, key)
    location = reader.location(raw.pointer)

    def named(content_type: str | None) -> str:
        name = tool_name(base, content_type, portable=portable)
        if portable:
            name = unique(name, taken)
            taken.add(name)
        return name

    style = tool_style(raw, key, label, server, tools)
    if isinstance(style, PlanError):
        return [], [style]
    try:
        op = reader.read(raw)
    except Problem as problem:
        error = PlanError(
            problem.kind,
            reader.origin(problem.reason),  # S20.3: pointers into a 2.0 document as written
            tool=named(None),
            operation=label,
            location=location,
            rule=problem.rule,
        )
        return [], [error]
    plans: list[Plan] = []
    errors: list[PlanError] = []
    bodies: Sequence[Body | None] = op.bodies or (None,)
    for body in bodies:
        name = named(body.content_type if body and len(op.bodies) > 1 else None)
        place = Place(name, label, location)
        try:
            outcome = plan_tool(
                op,
                body,
                place,
                style,
                server.options,
                reader.default_dialect,
                tools.annotations.get(key),
                {**server.fixed, **tools.fixed.get(key, {})},
                frozenset(tools.fixed.get(key, {})),
                reader.deep_names,
            )
        except RecursionError:
            outcome = place.error(
                "schema", "a schema of this operation is nested too deeply to plan"
            )
        if isinstance(outcome, PlanError):
            errors.append(outcome)
        else:
            plans.append(outcome)
    if reader.converted is not None:  # S20.3: requests under `basePath`, pointers into 2.0
        plans = [_from_swagger(plan, reader) for plan in plans]
        errors = [_error_from_swagger(error, reader) for error in errors]
    return plans, errors


def _from_swagger(plan: Plan, reader: DocumentReader) -> Plan:
    notes = tuple(
        dataclasses.replace(note, message=reader.origin(note.message)) for note in plan.diagnostics
    )
    return dataclasses.replace(plan, base_path=reader.base_path, diagnostics=notes)


def _error_from_swagger(error: PlanError, reader: DocumentReader) -> PlanError:
    return PlanError(
        error.kind,
        reader.origin(error.reason),
        tool=error.tool,
        operation=error.operation,
        property=error.property,
        channels=error.channels,
        location=error.location,
        fix=error.fix,
        rule=error.rule,
    )
