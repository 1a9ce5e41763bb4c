"""Tying the steps together: `Plan`, `plan_operation`, `plan_document` (S2, S8, S9, S15)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from toolshape._bundle import Problem
from toolshape._call import call
from toolshape._collide import detect_collision
from toolshape._dialects import DIALECTS, DRAFT2020_12, OPENAPI30
from toolshape._document import DocumentReader, RawOperation
from toolshape._errors import DocumentError, PlanError, PlanErrorKind
from toolshape._hoist import hoist_body
from toolshape._names import derive_name, tool_name
from toolshape._options import Options, Profile
from toolshape._plan_format import PLAN_FORMAT, check_plan_data
from toolshape._policy import apply_key_policy
from toolshape._route import Inbound
from toolshape._schemas import (
    argument_name,
    flat_parts,
    nested_schema,
    object_schema,
    order_body,
    reachable_defs,
)
from toolshape._types import (
    Body,
    BodyShape,
    Channel,
    Diagnostic,
    Hoisted,
    Json,
    Operation,
    Request,
    Schema,
    Style,
    Wrapped,
    thaw,
)
from toolshape._union import describe
from toolshape._validate import check, compile_schema

_ENV = re.compile(r"\$env\(([^)]*)\)")


@dataclass(frozen=True, slots=True)
class ParameterRoute:
    """How one parameter argument goes back into the request (S12.1)."""

    argument: str
    """The argument name (header names after S4.5)."""
    name: str
    """The parameter's name on the wire, as declared."""
    channel: Channel
    style: str
    explode: bool
    allow_reserved: bool = False
    content_type: str | None = None
    """Set for a parameter described by `content`: its value is sent as JSON text."""
    required: bool = False

    def to_dict(self) -> dict[str, Json]:
        """The route as plain data."""
        return {
            "argument": self.argument,
            "name": self.name,
            "in": self.channel,
            "style": self.style,
            "explode": self.explode,
            "allowReserved": self.allow_reserved,
            "contentType": self.content_type,
            "required": self.required,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> ParameterRoute:
        """Load a route written by `to_dict`."""
        return cls(
            argument=data["argument"],
            name=data["name"],
            channel=data["in"],
            style=data["style"],
            explode=data["explode"],
            allow_reserved=data.get("allowReserved", False),
            content_type=data.get("contentType"),
            required=data.get("required", False),
        )


@dataclass(frozen=True, slots=True, eq=False)
class Plan:
    """One planned tool: its advertised schema, how arguments route back, its diagnostics.

    Plans are immutable values (S15): they compare and hash by value, convert to plain data
    with `to_dict()` and back with `Plan.from_dict()`, and every schema they hand out is a
    fresh copy, so nothing a caller does to it can change the plan.
    """

    name: str
    operation_id: str | None
    method: str
    """The HTTP method, upper case."""
    path: str
    """The path key as written in the document (S1.6)."""
    content_type: str | None
    """The request content type of this tool (S8.2); None when the operation has no body."""
    style: Style
    """The effective style: `nested` for a flat tool that fell back (S9.1, `legacy`)."""
    location: str
    diagnostics: tuple[Diagnostic, ...]
    body: BodyShape
    parameters: tuple[ParameterRoute, ...]
    body_properties: tuple[str, ...]
    """The hoisted body's property names (S4.1), empty unless `body == "hoisted"`."""
    body_required: bool
    undeclared: Literal["reject", "body"]
    """S7: what a flat call's undeclared argument does."""
    validation: Literal["whole", "per-channel"]
    _input: Mapping[str, Json] = field(repr=False)
    _nested: Mapping[str, Json] = field(repr=False)
    _check: Schema | None = field(default=None, repr=False)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def call(self, arguments: Json, *, headers: Inbound = None) -> Request:
        """The HTTP request a tool call's `arguments` describe (S12, S13).

        `headers` are the inbound headers the MCP client sent (a mapping or `(name, value)`
        pairs); a header argument replaces the inbound header of the same name (S12.2).

        Raises:
            ArgumentError: the arguments are rejected; no request is made (S13.4, S14.2).
        """
        return call(self, arguments, headers)

    @property
    def input_schema(self) -> dict[str, Json]:
        """The advertised MCP `inputSchema` (a fresh copy on every access)."""
        return thaw(self._input)  # type: ignore[no-any-return]

    @property
    def nested_schema(self) -> dict[str, Json]:
        """The nested schema (S3), which a flat tool also reads (S13.1); a fresh copy."""
        return thaw(self._nested)  # type: ignore[no-any-return]

    @property
    def body_check(self) -> Schema | None:
        """S6.3: the original body schema (with `$defs`) that judges the routed body again,
        or None; a fresh copy."""
        return thaw(self._check)

    def to_dict(self) -> dict[str, Json]:
        """The plan as plain JSON-compatible data (S15.1), loadable with `Plan.from_dict`."""
        return {
            "format": PLAN_FORMAT,
            "name": self.name,
            "operationId": self.operation_id,
            "method": self.method,
            "path": self.path,
            "contentType": self.content_type,
            "style": self.style,
            "location": self.location,
            "body": self.body,
            "bodyProperties": list(self.body_properties),
            "bodyRequired": self.body_required,
            "undeclared": self.undeclared,
            "validation": self.validation,
            "parameters": [p.to_dict() for p in self.parameters],
            "inputSchema": thaw(self._input),
            "nestedSchema": thaw(self._nested),
            "bodyCheck": thaw(self._check),
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Plan:
        """Load a plan written by `to_dict` (S15.1); it routes exactly like the original.

        The data is checked first as untrusted input: against the `toolshape.plan/1` JSON
        Schema (`PLAN_SCHEMA`), and every schema in it as planning would check it.

        Raises:
            PlanDataError: `data` is not a plan this version can serve; `field` names where.
        """
        check_plan_data(data)
        return cls(
            name=data["name"],
            operation_id=data["operationId"],
            method=data["method"],
            path=data["path"],
            content_type=data["contentType"],
            style=data["style"],
            location=data["location"],
            diagnostics=tuple(Diagnostic.from_dict(d) for d in data["diagnostics"]),
            body=data["body"],
            parameters=tuple(ParameterRoute.from_dict(p) for p in data["parameters"]),
            body_properties=tuple(data["bodyProperties"]),
            body_required=data["bodyRequired"],
            undeclared=data["undeclared"],
            validation=data["validation"],
            _input=thaw(data["inputSchema"]),
            _nested=thaw(data["nestedSchema"]),
            _check=thaw(data["bodyCheck"]),
        )

    def _canonical(self) -> str:
        text = self._cache.get("canonical")
        if text is None:
            text = json.dumps(
                self.to_dict(), separators=(",", ":"), ensure_ascii=False, default=repr
            )
            self._cache["canonical"] = text
        return str(text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return self is other or self._canonical() == other._canonical()

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __reduce__(self) -> tuple[object, ...]:
        # Pickles as its plain data; the compiled router and validators are rebuilt on use.
        return (Plan.from_dict, (self.to_dict(),))


@dataclass(frozen=True, slots=True)
class PlanResult:
    """What `plan_document` returns: every tool that planned, every error, every diagnostic."""

    tools: tuple[Plan, ...]
    errors: tuple[PlanError, ...]
    diagnostics: tuple[Diagnostic, ...]
    """Document-level diagnostics followed by every tool's own (S9.4)."""


@dataclass(frozen=True, slots=True)
class _Context:
    options: Options
    route: str
    env: Mapping[str, str]
    server_style: Style
    styles: Mapping[str, str]
    names: Mapping[str, str]
    seen: set[str] = field(default_factory=set)
    """The operationIds (and derived names) met, to name unknown `styles`/`names` keys."""


def _env_error(route: str) -> PlanError:
    return PlanError(
        "configuration",
        f'MCP handler option "toolInputStyle" on route "{route}" can\'t use $env(...): the build '
        'uses it to generate tool schemas. Use "flat" or "nested".',
        rule="S2.4",
    )


def _expand_env(value: str, ctx_options: Options, env: Mapping[str, str], route: str) -> str:
    if "$env(" not in value:
        return value
    if ctx_options.env_in_style == "error":
        raise _env_error(route)  # S2.4
    return _ENV.sub(lambda m: env.get(m.group(1).strip(), ""), value)


def _server_style(
    value: object, options: Options, env: Mapping[str, str], route: str
) -> tuple[Style, list[Diagnostic]]:
    """S2.3: a server-wide value other than flat/nested is read as nested, with a warning."""
    text = _expand_env(value, options, env, route) if isinstance(value, str) else value
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


def _as_style(value: object) -> Style | None:
    if value == "flat":
        return "flat"
    if value == "nested":
        return "nested"
    return None


_UNSET = object()


def _tool_setting(raw: RawOperation, key: str, ctx: _Context) -> object:
    """S2.2: the tool's own setting: the caller's, then `x-zuplo-route.mcp`, then
    `x-zuplo-mcp-tool`; `_UNSET` when none is given (a `null` is a setting, S2.3)."""
    if key in ctx.styles:
        return ctx.styles[key]
    node = raw.node if isinstance(raw.node, Mapping) else {}
    route = node.get("x-zuplo-route")
    mcp = route.get("mcp") if isinstance(route, Mapping) else None
    tool = node.get("x-zuplo-mcp-tool")
    for holder in (mcp, tool):
        if isinstance(holder, Mapping) and "toolInputStyle" in holder:
            setting: object = holder["toolInputStyle"]
            return setting
    return _UNSET


def _tool_style(raw: RawOperation, key: str, label: str, ctx: _Context) -> Style:
    setting = _tool_setting(raw, key, ctx)
    if setting is _UNSET:
        return ctx.server_style
    value = (
        _expand_env(setting, ctx.options, ctx.env, ctx.route)
        if isinstance(setting, str)
        else setting
    )
    style = _as_style(value)
    if style is not None:
        return style
    shown = json.dumps(setting) if not isinstance(setting, str) else f'"{setting}"'
    raise PlanError(  # S2.3
        "configuration",
        f'MCP tool configuration error: invalid toolInputStyle {shown} on operation "{label}". '
        'Use "flat" or "nested".',
        rule="S2.3",
    )


def _as_2020(dialect: str) -> str:
    """S1.7: after the S1.4 conversion a 3.0 schema counts as 2020-12."""
    return DRAFT2020_12 if dialect == OPENAPI30 else dialect


def _default_explode(style: str) -> bool:
    return style == "form"


def _routes(op: Operation, options: Options) -> tuple[ParameterRoute, ...]:
    return tuple(
        ParameterRoute(
            argument=argument_name(p, options.header_names),
            name=p.name,
            channel=p.channel,
            style=p.style or "simple",
            explode=p.explode if p.explode is not None else _default_explode(p.style or ""),
            allow_reserved=p.allow_reserved,
            content_type=p.content_type,
            required=p.required,
        )
        for p in op.parameters
    )


def _with_defs(schema: Schema, defs: Mapping[str, Schema], declare: str | None) -> Schema:
    """The original body schema, made self-contained for the S6.3 second check."""
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Json] = {"$schema": declare} if declare else {}
    out.update(schema)
    if defs:
        out["$defs"] = {**(schema.get("$defs") or {}), **defs}
    return out


class _Tool:
    """Plans one tool of one operation (one content type), raising PlanError."""

    def __init__(
        self,
        op: Operation,
        body: Body | None,
        name: str,
        label: str,
        location: str,
        style: Style,
        ctx: _Context,
        dialect: str,
    ) -> None:
        self.op, self.body, self.name, self.label = op, body, name, label
        self.location, self.style, self.ctx = location, style, ctx
        self.reader_dialect = dialect
        self.options = ctx.options
        self.declare = DIALECTS[self.dialect()].declare
        self.diagnostics: list[Diagnostic] = []
        for pattern in op.foreign_patterns:
            self.note(
                "warning",
                "MCP tool schema has a pattern Python can't evaluate",
                f"`{pattern}` is not a Python regular expression (ECMA-262 only), so a call whose "
                "value reaches it is rejected with an argument error, never accepted unchecked",
            )
        for pattern in op.slow_patterns:
            self.note(
                "warning",
                "MCP tool schema has a pattern that can backtrack catastrophically",
                f"`{pattern}` repeats a repeated group (nested quantifiers), so a long value that "
                "almost matches can take exponential time to check; it is checked once per call. "
                "Rewrite the pattern without nested quantifiers",
            )

    def dialect(self) -> str:
        """S4.7: the one dialect of the tool's schemas, declared by its root.

        Raises:
            PlanError: the body and the parameters are in different dialects.
        """
        found: dict[str, str] = {}
        for param in self.op.parameters:
            found.setdefault(_as_2020(param.dialect), f"the parameter `{param.name}`")
        if self.body is not None and self.body.schema is not None:
            found.setdefault(_as_2020(self.body.dialect), "the body")
        if not found:
            return _as_2020(self.reader_dialect)
        if len(found) > 1:
            (one, first), (two, second) = list(found.items())[:2]
            raise self.fail(
                "schema",
                f"its schemas are not all in one dialect: {first} is `{one}` and {second} is "
                f"`{two}`, so no one root schema can read both correctly. Declare every schema "
                "of the operation in one dialect",
                rule="S4.7",
            )
        return next(iter(found))

    def fail(self, kind: PlanErrorKind, reason: str, **fields: Any) -> PlanError:
        return PlanError(
            kind, reason, tool=self.name, operation=self.label, location=self.location, **fields
        )

    def note(self, level: Literal["warning", "info", "debug"], title: str, reason: str) -> None:
        self.diagnostics.append(
            Diagnostic(
                level,
                f"{title} for tool '{self.name}' (operation {self.label}): {reason} ({self.location})",
                tool=self.name,
                operation=self.label,
                location=self.location,
            )
        )

    def plan(self) -> Plan:
        op, body, options = self.op, self.body, self.options
        has_body = body is not None and not (
            body.schema is None and options.schemaless_body == "no-body"
        )
        nested = nested_schema(
            op.parameters,
            body.schema if body else None,
            has_body=has_body,
            header_names=options.header_names,
            declare=self.declare,
            defs=op.defs,
        )
        if options.validation == "per-channel":
            self._note_invalid_defaults(nested)
        if self.style == "nested":
            return self._finish(
                "nested", nested, nested, "wrapped" if has_body else "none", (), "reject"
            )
        hoisted: Hoisted | Wrapped | None = None
        if has_body and body is not None:
            hoisted = hoist_body(body.schema, op.defs, dialect=body.dialect, options=options)
            if isinstance(hoisted, Wrapped):
                if options.on_unflattenable == "error":
                    raise self.fail(
                        "unflattenable", hoisted.reason, property="body", rule=hoisted.rule
                    )  # S9.2
                self.note("debug", "MCP tool request body left nested", hoisted.reason)
        if isinstance(hoisted, Hoisted):
            body_props: Mapping[str, Schema] = hoisted.properties
            body_required: Sequence[str] = hoisted.required
        elif has_body and body is not None:
            body_props = {"body": order_body({} if body.schema is None else body.schema)}
            body_required = ["body"]  # a wrapped body is always required
        else:
            body_props, body_required = {}, []
        properties, required, names = flat_parts(
            op.parameters, body_props, body_required, options.header_names
        )
        collision = detect_collision(names, wrapped_body=isinstance(hoisted, Wrapped))
        if collision is not None:
            if options.on_collision == "error":
                raise self.fail(  # S9.1
                    "collision",
                    collision.reason,
                    property=collision.name,
                    channels=collision.channels,
                    fix=collision.fix,
                    rule="S9.1",
                )
            self.note("warning", "MCP tool input schema left nested", collision.reason + ".")
            return self._finish(
                "nested", nested, nested, "wrapped" if has_body else "none", (), "reject"
            )
        if isinstance(hoisted, Hoisted) and hoisted.widened is not None:
            self.note(
                "info",
                "MCP tool union body flattened",
                f"the body's variants were merged into one flat object; widened: "
                f"{describe(hoisted.widened)}; the original union still judges every call",
            )
        policy = apply_key_policy(hoisted, open_body_root=options.open_body_root)
        defs = op.defs
        if isinstance(hoisted, Hoisted) and hoisted.composed and defs:
            # A merged allOf no longer references its branches: bundle only what is still used.
            defs = reachable_defs([*properties.values(), policy.additional_properties], defs)
        flat = object_schema(
            properties,
            required,
            policy.additional_properties,
            dependent_required=hoisted.dependent_required if isinstance(hoisted, Hoisted) else None,
            declare=self.declare,
            defs=defs,
        )
        check = None
        if isinstance(hoisted, Hoisted) and hoisted.composed and body is not None:
            check = _with_defs(body.schema, op.defs, self.declare)
        shape: BodyShape = (
            "hoisted" if isinstance(hoisted, Hoisted) else ("wrapped" if has_body else "none")
        )
        return self._finish(
            "flat",
            flat,
            nested,
            shape,
            tuple(body_props) if shape == "hoisted" else (),
            policy.undeclared,
            check,
        )

    def _note_invalid_defaults(self, nested: Mapping[str, Json]) -> None:
        """S13.5 (legacy): a `default` its own schema rejects is never inserted; say so."""
        root = {k: nested[k] for k in ("$schema", "$defs") if k in nested}
        for channel, schema in nested["properties"].items():
            properties = schema.get("properties") if isinstance(schema, Mapping) else None
            for name, prop in (properties or {}).items():
                if not isinstance(prop, Mapping) or "default" not in prop:
                    continue
                if check(compile_schema({**root, "allOf": [prop]}), prop["default"]):
                    self.note(
                        "warning",
                        "MCP tool default left out",
                        f"the `default` {json.dumps(prop['default'])} of `{channel}.{name}` does "
                        "not match its own schema, so it is never inserted into a call. Fix "
                        "the default",
                    )

    def _finish(
        self,
        style: Style,
        advertised: dict[str, Json],
        nested: dict[str, Json],
        shape: BodyShape,
        body_properties: tuple[str, ...],
        undeclared: Literal["reject", "body"],
        check: Schema | None = None,
    ) -> Plan:
        op = self.op
        return Plan(
            name=self.name,
            operation_id=op.operation_id,
            method=op.method.upper(),
            path=op.path,
            content_type=self.body.content_type if self.body else None,
            style=style,
            location=self.location,
            diagnostics=tuple(self.diagnostics),
            body=shape,
            parameters=_routes(op, self.options),
            body_properties=body_properties,
            body_required=bool(self.body and self.body.required)
            or (shape == "wrapped" and style == "flat"),
            undeclared=undeclared,
            validation=self.options.validation,
            _input=advertised,
            _nested=nested,
            _check=check,
        )


def _plan_raw(
    reader: DocumentReader, raw: RawOperation, ctx: _Context
) -> tuple[list[Plan], list[PlanError]]:
    """Every tool of one operation: plans that worked, errors of those that did not."""
    operation_id = raw.node.get("operationId") if isinstance(raw.node, Mapping) else None
    ctx.seen.add(
        operation_id
        if isinstance(operation_id, str)
        else derive_name(raw.method or "any", raw.path)
    )
    derived = derive_name(raw.method or "any", raw.path)
    key = operation_id if isinstance(operation_id, str) else derived
    base = ctx.names.get(key, key)
    label = key if isinstance(operation_id, str) else f"{raw.method.upper()} {raw.path}"
    location = reader.location(raw.pointer)
    try:
        style = _tool_style(raw, key, label, ctx)
    except PlanError as error:
        return [], [error]
    try:
        op = reader.read(raw)
    except Problem as problem:
        return [], [
            PlanError(
                problem.kind,
                problem.reason,
                tool=tool_name(base),
                operation=label,
                location=location,
                rule=problem.rule,
            )
        ]
    bodies: Sequence[Body | None] = op.bodies or (None,)
    plans: list[Plan] = []
    errors: list[PlanError] = []
    for body in bodies:
        name = tool_name(base, body.content_type if body and len(op.bodies) > 1 else None)
        try:
            plans.append(
                _Tool(op, body, name, label, location, style, ctx, reader.default_dialect).plan()
            )
        except PlanError as error:
            errors.append(error)
        except RecursionError:
            errors.append(
                PlanError(
                    "schema",
                    "a schema of this operation is nested too deeply to plan",
                    tool=name,
                    operation=label,
                    location=location,
                )
            )
    return plans, errors


def _context(
    style: str,
    profile: Profile,
    options: Options | None,
    styles: Mapping[str, str] | None,
    names: Mapping[str, str] | None,
    route: str,
    env: Mapping[str, str] | None,
) -> tuple[_Context, list[Diagnostic]]:
    resolved = options if options is not None else Options.preset(profile)
    server, notes = _server_style(style, resolved, env or {}, route)
    return _Context(
        resolved, route, env or {}, server, dict(styles or {}), dict(names or {})
    ), notes


def plan_document(
    document: Mapping[str, Json],
    *,
    style: str = "nested",
    source: str = "openapi.json",
    profile: Profile = "2026-11-06",
    options: Options | None = None,
    styles: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    route: str = "/mcp",
    env: Mapping[str, str] | None = None,
) -> PlanResult:
    """Plan every operation of `document` as MCP tools, collecting every error (S9.4).

    `style` is the server-wide `toolInputStyle` (S2); `styles` and `names` give per-tool
    styles and names by operationId (or the derived name of an operation without one);
    `source` names the document in locations (S9.3); `profile` picks the preset of
    `options` unless `options` is given (S10); `route` is the MCP route named by the S2.4
    message; `env` resolves `$env(...)` when `options.env_in_style == "resolve"`.

    Raises:
        DocumentError: `document` is not an OpenAPI 3.x document at all.
        PlanError: the server-wide `toolInputStyle` uses `$env(...)` under `2026-11-06` (S2.4).
    """
    reader = DocumentReader(document, source)
    ctx, notes = _context(style, profile, options, styles, names, route, env)
    tools: list[Plan] = []
    errors: list[PlanError] = []
    diagnostics: list[Diagnostic] = list(notes)
    if "paths" not in document:
        diagnostics.append(
            Diagnostic(
                "warning",
                f"the document has no `paths`, so it has no tools ({source}#/paths)",
                location=f"{source}#/paths",
            )
        )
    taken: dict[str, Plan] = {}
    for raw in reader.operations():
        plans, failures = _plan_raw(reader, raw, ctx)
        errors.extend(failures)
        for plan in plans:
            first = taken.get(plan.name)
            if first is not None:  # S8.1: only a clash after sanitizing is an error
                errors.append(
                    PlanError(
                        "name",
                        f"the tool name '{plan.name}' is also the name of operation "
                        f"{first.operation_id or first.method + ' ' + first.path} ({first.location}), "
                        "so one of the two tools would be unreachable. Give one of them another name",
                        tool=plan.name,
                        operation=plan.operation_id or f"{plan.method} {plan.path}",
                        location=plan.location,
                    )
                )
                continue
            taken[plan.name] = plan
            tools.append(plan)
            diagnostics.extend(plan.diagnostics)
    diagnostics.extend(_unknown_keys(ctx, source))
    return PlanResult(tuple(tools), tuple(errors), tuple(diagnostics))


def _unknown_keys(ctx: _Context, source: str) -> list[Diagnostic]:
    """A warning for every `styles` / `names` key that names no operation of the document."""
    notes = []
    for option, mapping in (("styles", ctx.styles), ("names", ctx.names)):
        unknown = [key for key in mapping if key not in ctx.seen]
        if unknown:
            shown = ", ".join(f"`{key}`" for key in unknown)
            notes.append(
                Diagnostic(
                    "warning",
                    f"`{option}` names {shown}, which no operation of {source} has as its "
                    "operationId (or derived name, for an operation without one), so it "
                    "changes nothing",
                )
            )
    return notes


def plan_operation(
    document: Mapping[str, Json],
    path: str,
    method: str,
    *,
    style: str = "nested",
    source: str = "openapi.json",
    profile: Profile = "2026-11-06",
    options: Options | None = None,
    styles: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    route: str = "/mcp",
    env: Mapping[str, str] | None = None,
) -> tuple[Plan, ...]:
    """Plan one operation: one `Plan` per request content type (S8.2).

    Takes the same options as `plan_document`.

    Raises:
        PlanError: the operation is missing or can't be planned as asked (the first error).
    """
    reader = DocumentReader(document, source)
    ctx, _ = _context(style, profile, options, styles, names, route, env)
    for raw in reader.operations():
        if raw.path == path and raw.method == method.lower():
            plans, errors = _plan_raw(reader, raw, ctx)
            if errors:
                raise errors[0]
            return tuple(plans)
    raise DocumentError(
        "document",
        f"the document has no operation {method.upper()} {path}",
        location=f"{source}#/paths/{path.replace('~', '~0').replace('/', '~1')}/{method.lower()}",
    )
