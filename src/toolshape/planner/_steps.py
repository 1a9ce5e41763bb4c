"""One tool of one operation, as named steps (S3-S9, S16, S18, S19).

`plan_tool` ties them together: `prepare` reads what every style of the tool shares (its
dialect, the credentials and fixed arguments it withholds, its text, annotations, output schema,
wire encoding and nested schema) into a `Draft`; `nested_tool` and `flat_tool` make the tool's
input in their style; `to_plan` builds the `Plan`. Errors are values until here: the steps of
`flatten` return `Wrapped`, `Collision` and the like, and only these steps, which know the
options (S10), turn them into a `PlanError` or a diagnostic.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolshape.flatten._aliases import Aliases, collision_renames, portable_aliases
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
from toolshape.flatten._union import default_mapped, describe
from toolshape.model._dialects import DIALECTS, DRAFT2020_12, OPENAPI30
from toolshape.model._errors import PlanError, PlanErrorKind
from toolshape.model._http import is_binary_media
from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._options import Options
from toolshape.model._pointers import follow
from toolshape.model._types import (
    Body,
    BodyEncoding,
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
from toolshape.planner._tool import (
    fields_argument,
    output_schema,
    title,
    tool_annotations,
    wire_body,
    wire_method,
)
from toolshape.plans._plan import FixedArgument, ParameterRoute, Plan
from toolshape.read._deep_names import DeepNames
from toolshape.schema._validate import check, compile_schema

#: S17.5: the advertised schema of a whole binary body without a schema of its own.
BASE64_BODY: Mapping[str, str] = {"type": "string", "contentEncoding": "base64"}


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


# -- the whole tool ----------------------------------------------------------------------------


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
    draft = prepare(op, body, place, options, default_dialect, hints, fixed or {}, own_fixed, deep)
    if isinstance(draft, PlanError):
        return draft
    return nested_tool(draft) if style == "nested" else flat_tool(draft)


@dataclass(slots=True)
class Draft:
    """What every style of one tool shares, read once by `prepare`; the style's step adds its
    diagnostics to `notes`."""

    op: Operation
    """The operation without the parameters a credential fills or the gateway fixes."""
    body: Body | None
    place: Place
    options: Options
    declare: str | None
    """S4.7: the `$schema` the tool's roots declare (None for 2020-12)."""
    notes: list[Diagnostic]
    annotations: JsonObject
    output: JsonObject | None
    output_wrapped: bool
    output_items: bool
    """S26.6: the answer is a sequence of items."""
    body_encoding: BodyEncoding | None
    binary: Mapping[str, Mapping[str, Json]]
    has_body: bool
    nested: JsonObject
    """The nested schema (S3)."""
    nested_body: Schema | None
    """The body schema the nested schema holds (without fixed properties, S18.4)."""
    fixed: list[FixedArgument]
    fixed_check: Schema | None
    """S6.3: the original body that judges the routed body when fixed properties left it."""
    part: FlatBody | None
    """The body's flat part, when S18.4 already needed it."""
    deep: DeepNames


def prepare(
    op: Operation,
    body: Body | None,
    place: Place,
    options: Options,
    default_dialect: str,
    hints: Mapping[str, Any] | None,
    fixed: Mapping[str, Any],
    own_fixed: frozenset[str],
    deep: DeepNames | None,
) -> Draft | PlanError:
    """What every style of the tool shares: its dialect (S4.7), the parameters withheld
    (S18.3, S18.4), the tool's annotations (S16.2), output schema (S16.3), wire encoding (S17),
    fixed body properties and the nested schema (S3); or the error that refuses the tool."""
    dialect = tool_dialect(op, body, default_dialect)
    if isinstance(dialect, Wrapped):
        return place.error("schema", dialect.reason, rule=dialect.rule)
    declare = DIALECTS[dialect].declare
    lost = _lost_credential(op, body)
    if lost is not None:
        return place.error("configuration", lost, rule="S18.1")
    notes = pattern_notes(op, place)
    withheld = withhold(op, fixed, options)
    for item in withheld.fixed:
        problem = fixed_problem(item.name, item.value, withheld.schemas[item.name], op, declare)
        if problem is not None:
            return place.error("configuration", problem, property=item.name, rule="S18.4")
    op = withheld.op
    annotations, hint_problems = tool_annotations(op, hints)
    notes.extend(place.note("warning", "MCP tool annotation left out", p) for p in hint_problems)
    output, wrapped = _output(op, options, place, notes)
    kind, binary = wire_body(body, op.defs)
    notes.extend(_wire_notes(op, place))
    has_body = body is not None and not (
        body.schema is None and options.schemaless_body == "no-body"
    )
    fixed_part = _fixed_body(op, body if has_body else None, withheld, fixed, declare, options)
    if isinstance(fixed_part, Refused):
        return place.error(
            "configuration", fixed_part.reason, property=fixed_part.property, rule="S18.4"
        )
    part, nested_body, fixed_check, fixed_arguments = fixed_part
    notes.extend(_supplied_notes(own_fixed, withheld, fixed_arguments, place))
    nested = nested_schema(
        op.parameters,
        nested_body,
        has_body=has_body,
        header_names=options.header_names,
        declare=declare,
        defs=op.defs,
    )
    if options.validation == "per-channel":
        notes.extend(invalid_defaults(nested, place))
    return Draft(
        op=op,
        body=body,
        place=place,
        options=options,
        declare=declare,
        notes=notes,
        annotations=annotations,
        output=output,
        output_wrapped=wrapped,
        output_items=output is not None and op.output is not None and op.output.items,
        body_encoding=kind,
        binary=binary,
        has_body=has_body,
        nested=nested,
        nested_body=nested_body,
        fixed=fixed_arguments,
        fixed_check=fixed_check,
        part=part,
        deep=deep or DeepNames(),
    )


def to_plan(
    draft: Draft,
    style: Style,
    advertised: JsonObject,
    shape: BodyShape,
    body_properties: tuple[str, ...] = (),
    undeclared: Literal["reject", "body"] = "reject",
    check: Schema | None = None,
    aliases: Aliases | None = None,
) -> Plan:
    """The `Plan` of a drafted tool in `style`, advertising `advertised`."""
    op, body, options = draft.op, draft.body, draft.options
    aliases = aliases or {}
    read = advertised
    advertised, fields = fields_argument(
        advertised,
        draft.output,
        draft.output_wrapped,
        options.output_view,
        options.response_fields,
    )
    return Plan(
        name=draft.place.tool,
        operation_id=op.operation_id,
        method=wire_method(op.method),
        path=op.path,
        content_type=body.content_type if body else None,
        style=style,
        location=draft.place.location,
        diagnostics=tuple(draft.notes),
        body=shape,
        parameters=tuple(route(p, options, aliases) for p in op.parameters),
        body_properties=body_properties,
        body_required=bool(body and body.required) or (shape == "wrapped" and style == "flat"),
        undeclared=undeclared,
        validation=options.validation,
        _input=advertised,
        # A nested tool reads what it advertises (aliased members, S19.2); a flat tool's
        # nested reading keeps the argument names (S19.1).
        _nested=read if style == "nested" else draft.nested,
        _check=check,
        title=title(op),
        description=describe_tool(op, options.description_limit),
        tags=op.tags,
        annotations=draft.annotations,
        _output=draft.output,
        output_wrapped=draft.output_wrapped,
        output_items=draft.output_items,
        output_view=options.output_view,
        body_encoding=draft.body_encoding if body is not None else None,
        encoding=body.encoding if body is not None else {},
        binary=draft.binary,
        security=op.security,
        # A plain JSON copy: the caller's value can't change the plan later (S15).
        fixed=tuple(
            dataclasses.replace(f, value=json.loads(json.dumps(f.value))) for f in draft.fixed
        ),
        body_aliases={
            alias: name for (channel, name), alias in aliases.items() if channel == "body"
        },
        response_fields=fields,
    )


# -- styles ------------------------------------------------------------------------------------


def nested_tool(draft: Draft) -> Plan:
    """The nested tool (S3), its channel members by portable names (S19.2)."""
    op, options, place = draft.op, draft.options, draft.place
    shape: BodyShape = "wrapped" if draft.has_body else "none"
    if not options.portable_names:
        return to_plan(draft, "nested", draft.nested, shape, check=draft.fixed_check)
    aliases = portable_aliases(
        [(p.channel, argument_name(p, options.header_names)) for p in op.parameters]
    )
    draft.notes.extend(alias_notes(aliases, place))
    body = draft.body
    if body is not None and body.schema is not None:
        draft.notes.extend(deep_name_notes(draft.deep.find([body.schema], op.defs), place))
    advertised = draft.nested
    if aliases:
        advertised = nested_schema(
            op.parameters,
            draft.nested_body,
            has_body=draft.has_body,
            header_names=options.header_names,
            declare=draft.declare,
            defs=op.defs,
            aliases=aliases,
        )
    return to_plan(draft, "nested", advertised, shape, check=draft.fixed_check, aliases=aliases)


def flat_tool(draft: Draft) -> Plan | PlanError:
    """The flat tool (S4): the body hoisted (S5, S6, S11) or wrapped, the parameters beside
    it, collisions refused or renamed (S9.1, S19.3), names made portable (S19.2), the key
    policy applied (S7); or, per the options, the nested tool or the error."""
    op, options, place = draft.op, draft.options, draft.place
    part = draft.part or flat_body(op, draft.body, draft.has_body, options)
    hoisted = part.hoisted
    if isinstance(hoisted, Wrapped):
        fallback = unflattenable(draft, hoisted)
        if fallback is not None:
            return fallback
    wrapped_body = isinstance(hoisted, Wrapped)
    properties, required, names = flat_parts(
        op.parameters, part.properties, part.required, options.header_names
    )
    aliases = flat_aliases(draft, part, names, wrapped_body)
    if not isinstance(aliases, dict):
        return aliases
    if aliases:
        properties, required, names = flat_parts(
            op.parameters, part.properties, part.required, options.header_names, aliases
        )
        clash = detect_collision(names, wrapped_body=wrapped_body)
        if clash is not None:  # a rename met a name of its own: S9.1 after all
            return place.collision(clash)
    if isinstance(hoisted, Hoisted) and hoisted.widened is not None:
        draft.notes.append(
            place.note(
                "info",
                "MCP tool union body flattened",
                f"the body's variants were merged into one flat object; widened: "
                f"{describe(hoisted.widened)}; the original union still judges every call",
            )
        )
    return _flat_plan(draft, part, properties, required, aliases)


def _flat_plan(
    draft: Draft,
    part: FlatBody,
    properties: Mapping[str, Schema],
    required: Sequence[str],
    aliases: Aliases,
) -> Plan:
    """The flat tool's plan: its root under the key policy (S7), `dependentRequired` by the
    advertised names (S6.2), the `$defs` a merged body still uses."""
    op, hoisted = draft.op, part.hoisted
    policy = apply_key_policy(hoisted, open_body_root=draft.options.open_body_root)
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
        declare=draft.declare,
        defs=defs,
    )
    if isinstance(hoisted, Hoisted):
        body = draft.body
        check = (
            _with_defs(default_mapped(body.schema), op.defs, draft.declare)
            if composed and body and body.schema is not None
            else None
        )
        return to_plan(
            draft,
            "flat",
            flat,
            "hoisted",
            tuple(part.properties),
            policy.undeclared,
            check,
            aliases,
        )
    shape: BodyShape = "wrapped" if draft.has_body else "none"
    return to_plan(draft, "flat", flat, shape, (), policy.undeclared, aliases=aliases)


def unflattenable(draft: Draft, wrapped: Wrapped) -> Plan | PlanError | None:
    """S9.2, S21.1: a body that can't flatten — the error, the nested tool with the error as a
    warning, or (None) the body wrapped under `body` with a debug note (`legacy`)."""
    place, policy = draft.place, draft.options.on_unflattenable
    if policy == "wrap":
        draft.notes.append(place.note("debug", "MCP tool request body left nested", wrapped.reason))
        return None
    error = place.error("unflattenable", wrapped.reason, property="body", rule=wrapped.rule)
    if policy == "error":
        return error
    draft.notes.append(place.warn(error))
    return nested_tool(draft)


def flat_aliases(
    draft: Draft,
    part: FlatBody,
    names: Sequence[tuple[Channel, Sequence[str]]],
    wrapped_body: bool,
) -> dict[tuple[Channel, str], str] | Plan | PlanError:
    """S9.1, S19.2, S19.3: the flat tool's aliases — collisions renamed, names made portable —
    or, for a collision the options don't rename, the error or the nested tool."""
    place, options = draft.place, draft.options
    collision = detect_collision(names, wrapped_body=wrapped_body)
    aliases: dict[tuple[Channel, str], str] = {}
    if collision is not None and options.on_collision == "rename":  # S19.3
        aliases = collision_renames(names)
        shown = ", ".join(f"`{n}` ({c}) as `{a}`" for (c, n), a in aliases.items())
        draft.notes.append(place.note("info", "MCP tool arguments renamed", f"{shown} (S19.3)"))
        collision = None
    if collision is not None:
        if options.on_collision == "error":  # S9.1
            return place.collision(collision)
        draft.notes.append(
            place.note("warning", "MCP tool input schema left nested", collision.reason + ".")
        )
        return nested_tool(draft)
    if options.portable_names:  # S19.2, after the renames
        advertised = [(c, aliases.get((c, n), n)) for c, ns in names for n in ns]
        portable = portable_aliases(advertised)
        draft.notes.extend(alias_notes(portable, place))
        for channel, listed in names:
            for name in listed:
                final = portable.get((channel, aliases.get((channel, name), name)))
                if final is not None:
                    aliases[channel, name] = final
        # Hoisted: what is inside each top-level property; wrapped: all inside `body`.
        found = draft.deep.find(part.properties.values(), draft.op.defs)
        draft.notes.extend(deep_name_notes(found, place))
    return aliases


# -- the parts `prepare` reads -----------------------------------------------------------------


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


def _lost_credential(op: Operation, body: Body | None) -> str | None:
    """S18.1, S12.3: an apiKey in the `Content-Type` header is lost on a tool that sends a
    body (its content type owns the header): why, or None."""
    if body is None:
        return None
    for alternative in op.security:
        for scheme in alternative:
            if (
                scheme.kind == "apiKey"
                and scheme.location == "header"
                and (scheme.parameter or "").lower() == "content-type"
            ):
                return (
                    f"the security scheme `{scheme.name}` sends its key in the `Content-Type` "
                    "header, which the tool's request body owns, so the key would be lost. "
                    "Send the key in another header, a query parameter or a cookie"
                )
    return None


def pattern_notes(op: Operation, place: Place) -> list[Diagnostic]:
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


def _output(
    op: Operation, options: Options, place: Place, notes: list[Diagnostic]
) -> tuple[JsonObject | None, bool]:
    """S16.3: the output schema in the view S16.7 chooses and whether it wraps the answer; a
    note when the success response's schema can't be read."""
    view = options.output_view
    if view != "off" and op.output is not None:
        schema, wrapped, cut = output_schema(op.output, view, options.output_schema_budget)
        if cut is not None:  # S25.1
            notes.append(
                place.note(
                    "info",
                    "MCP tool output schema cut to its budget",
                    f"its shape view is {cut.before} bytes, over the output schema budget of "
                    f"{options.output_schema_budget} (output_schema_budget); it is "
                    f"{cut.after} bytes with references followed fewer hops",
                )
            )
        return schema, wrapped
    if view != "off" and op.output_problem is not None:
        notes.append(
            place.note(
                "warning",
                "MCP tool output schema left out",
                f"its success response's schema can't be read: {op.output_problem}, so the "
                "tool answers with text only",
            )
        )
    return None, False


def _wire_notes(op: Operation, place: Place) -> list[Diagnostic]:
    """S1.5, S16.6: the client-owned headers and the read-only properties left out."""
    notes = []
    if op.ignored_headers:
        shown = ", ".join(f"`{name}`" for name in op.ignored_headers)
        notes.append(
            place.note(
                "info",
                "MCP tool header parameters left out",
                f"the HTTP client owns {shown} (it frames or routes the request), so no "
                "argument sets them (S1.5)",
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
    return notes


def invalid_defaults(nested: Mapping[str, Unchecked], place: Place) -> list[Diagnostic]:
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


def route(p: Parameter, options: Options, aliases: Aliases) -> ParameterRoute:
    """How parameter `p` goes back into the request (S12.1), advertised by its alias."""
    argument = argument_name(p, options.header_names)
    return ParameterRoute(
        argument=argument,
        alias=aliases.get((p.channel, argument)),
        name=p.name,
        channel=p.channel,
        style=p.style or "simple",
        explode=p.explode if p.explode is not None else p.style in ("form", "cookie"),
        allow_reserved=p.allow_reserved,
        content_type=p.content_type,
        required=p.required,
    )


def alias_notes(aliases: Aliases, place: Place) -> list[Diagnostic]:
    """An info diagnostic listing a tool's portable aliases (S19.2), when it has any."""
    if not aliases:
        return []
    shown = ", ".join(f"`{name}` as `{alias}`" for (_, name), alias in aliases.items())
    return [place.note("info", "MCP tool argument aliases", f"{shown} (S19.2)")]


def deep_name_notes(found: list[str], place: Place) -> list[Diagnostic]:
    """S19.2: a warning listing the names inside a body that no alias reaches, if any."""
    if not found:
        return []
    shown = ", ".join(f"`{name}`" for name in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    return [
        place.note(
            "warning",
            "MCP tool argument names left as they are",
            f"names inside the request body don't match `^[A-Za-z0-9_.-]{{1,64}}$` and "
            f"are sent as they are: {shown}{more} (S19.2)",
        )
    ]


# -- credentials and fixed arguments (S18) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Withheld:
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


def withhold(op: Operation, fixed: Mapping[str, Any], options: Options) -> Withheld:
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
            routes.append(FixedArgument(name, fixed[name], route(p, options, {})))
            schemas[name] = p.schema
            continue
        kept.append(p)
    if not credentials and not routes:
        return Withheld(op, (), (), {}, frozenset(fixed))
    return Withheld(
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


def fixed_problem(
    name: str, value: Any, schema: Schema, op: Operation, declare: str | None
) -> str | None:
    """S18.4: why a fixed value can't be sent (not JSON, or its schema rejects it), or None."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        return f"the fixed value of `{name}` is not a JSON value ({error})"
    problems = check(compile_schema(_rooted(schema, op.defs, declare)), value)
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


def _with_defs(
    schema: Schema | None, defs: Mapping[str, Schema], declare: str | None
) -> Schema | None:
    """The original body schema, made self-contained for the S6.3 second check (None: the
    body has no schema)."""
    if not is_map(schema):
        return schema
    out: dict[str, Unchecked] = {"$schema": declare} if declare else {}
    out.update(schema)
    if defs:
        out["$defs"] = {**(schema.get("$defs") or {}), **defs}
    return out


@dataclass(frozen=True, slots=True)
class FlatBody:
    """The body's part of a flat tool: what was hoisted (or why not), as properties."""

    hoisted: Hoisted | Wrapped | None
    properties: Mapping[str, Schema]
    required: Sequence[str]


def flat_body(op: Operation, body: Body | None, has_body: bool, options: Options) -> FlatBody:
    """S5, S6, S11: the body's flat properties: hoisted, wrapped under `body`, or none."""
    if not has_body or body is None:
        return FlatBody(None, {}, [])
    hoisted = hoist_body(
        body.schema,
        op.defs,
        dialect=body.dialect,
        flatten_unions=options.flatten_unions,
        composed_bodies=options.composed_bodies,
        untyped_body=options.untyped_body,
        strict_roots=options.strict_roots,
    )
    if isinstance(hoisted, Hoisted):
        return FlatBody(hoisted, hoisted.properties, hoisted.required)
    wrapped = {"body": order_body({} if body.schema is None else body.schema)}
    return FlatBody(hoisted, wrapped, ["body"])  # a wrapped body is always required


@dataclass(frozen=True, slots=True)
class Refused:
    """S18.4: a fixed body property the gateway can't supply, and why."""

    property: str
    reason: str


#: What `_fixed_body` gives: the flat part (when it was needed), the nested body schema, the
#: second check, and every fixed argument.
_FixedParts = tuple[FlatBody | None, Schema | None, Schema | None, list[FixedArgument]]


def _fixed_body(
    op: Operation,
    body: Body | None,
    withheld: Withheld,
    fixed: Mapping[str, Any],
    declare: str | None,
    options: Options,
) -> _FixedParts | Refused:
    """S18.4: the body with the fixed properties left out (those a body that flattens
    declares), and every fixed argument; or why a fixed body property can't be supplied."""
    parameters = list(withheld.fixed)
    nested_body = body.schema if body else None
    if not withheld.body_names or body is None:
        return None, nested_body, None, parameters
    part = flat_body(op, body, True, options)
    hoisted = part.hoisted
    if isinstance(hoisted, Hoisted):
        names = [name for name in hoisted.properties if name in withheld.body_names]
        if not names:
            return part, nested_body, None, parameters
        for name in names:
            problem = fixed_problem(name, fixed[name], part.properties[name], op, declare)
            if problem is not None:
                return Refused(name, problem)
        fixed_part = _fix_body(hoisted, frozenset(names))
        nested_body = object_schema(
            fixed_part.properties,
            fixed_part.required,
            fixed_part.additional_properties,
            dependent_required=fixed_part.dependent_required,
        )
        parameters += [FixedArgument(n, fixed[n], None) for n in names]
        flat = FlatBody(fixed_part, fixed_part.properties, fixed_part.required)
        return flat, nested_body, _with_defs(body.schema, op.defs, declare), parameters
    schema = follow(body.schema, op.defs).schema
    properties = schema.get("properties") if is_map(schema) else None
    clash = sorted(withheld.body_names & set(properties or {}))
    if clash and isinstance(hoisted, Wrapped):
        return Refused(
            clash[0],
            f"`fixed` sets the body property `{clash[0]}`, but the body can't be flattened "
            f"({hoisted.reason}), so the gateway can't set one property of it apart",
        )
    return part, nested_body, None, parameters


def _supplied_notes(
    own_fixed: frozenset[str],
    withheld: Withheld,
    fixed_arguments: list[FixedArgument],
    place: Place,
) -> list[Diagnostic]:
    """S18.3, S18.4: a warning for each fixed name this operation doesn't declare, and an
    info note listing the arguments the gateway supplies."""
    notes = []
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
    return notes
