"""The planner: every tool of one operation (`plan_operation_tools`) — one per content type
(S8.2), named (S8), styled (S2) and planned by `plan_tool`'s steps (`_steps`).

Nothing here raises for a document's content: a problem is a `PlanError` in the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from toolshape.flatten._aliases import Taken, unique
from toolshape.model._errors import PlanError
from toolshape.model._json import is_map
from toolshape.model._options import Options
from toolshape.model._types import Body, Diagnostic, Operation, Style
from toolshape.planner._settings import PlanSettings, tool_style
from toolshape.planner._steps import Place, plan_tool
from toolshape.planner._tool import body_kind
from toolshape.planner._tool_names import derive_name, tool_name
from toolshape.plans._plan import Plan
from toolshape.read._document import DocumentReader
from toolshape.read._paths import RawOperation
from toolshape.read._problem import Problem
from toolshape.read._rules import deprecated_schemes

# -- every tool of one operation -------------------------------------------------------------


def operation_key(raw: RawOperation) -> tuple[str, str]:
    """`(key, label)`: the operationId (or derived name) that keys the caller's mappings, and
    how messages name the operation (S8.1)."""
    operation_id = raw.node.get("operationId") if is_map(raw.node) else None
    if isinstance(operation_id, str):
        return operation_id, operation_id
    return derive_name(raw.method or "any", raw.path), f"{raw.method.upper()} {raw.path}"


@dataclass(slots=True)
class OperationTools:
    """What planning one operation gives: its tools, its errors, and the notes about tools it
    did not list (S17.9)."""

    plans: list[Plan] = field(default_factory=list)
    errors: list[PlanError] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


def plan_operation_tools(
    reader: DocumentReader,
    raw: RawOperation,
    settings: PlanSettings,
    style: Style,
    taken: Taken | None = None,
) -> OperationTools:
    """Every tool of one operation (one per content type, S8.2, or the preferred one, S20.1).

    With `portable_names` (S19.2), tool names are portable and `taken` holds the names given
    so far in the document: a clash gets `_2`, `_3`, … in declaration order. `style` is the
    server-wide style, resolved (S2.3)."""
    portable = settings.options.portable_names
    taken = taken if taken is not None else Taken()
    key, label = operation_key(raw)
    base = settings.names.get(key, key)
    location = reader.location(raw.pointer)

    def named(content_type: str | None) -> str:
        name = tool_name(base, content_type, portable=portable)
        if portable:
            name = unique(name, taken)
            taken.add(name)
        return name

    out = OperationTools()
    own = tool_style(raw, key, label, settings, style)
    if isinstance(own, PlanError):
        out.errors.append(own)
        return out
    try:
        op = reader.read(raw)
    except Problem as problem:
        out.errors.append(
            PlanError(
                problem.kind,
                reader.origin(problem.reason),  # S20.3: pointers into a 2.0 document as written
                tool=named(None),
                operation=label,
                location=location,
                rule=problem.rule,
            )
        )
        return out
    for body, suffix in _listed(op, settings):
        place = Place(named(suffix), label, location)
        if body is not None and _unsent(body, op, settings.options):
            out.notes.append(_not_listed(place, [body]))
            continue
        outcome = _planned(op, body, place, own, reader, settings, key)
        if isinstance(outcome, PlanError):
            out.errors.append(outcome)
        else:
            out.plans.append(outcome)
    out.notes.extend(_deprecated(out.plans, reader, label, location))
    if not out.plans and not out.errors and op.bodies and settings.content_types == "preferred":
        out.notes.append(_not_listed(Place(named(None), label, location), op.bodies))
    if reader.index.converted is not None:  # S20.3: requests under `basePath`, pointers into 2.0
        out.plans = [_from_swagger(plan, reader) for plan in out.plans]
        out.errors = [_error_from_swagger(error, reader) for error in out.errors]
    return out


def _deprecated(
    plans: Sequence[Plan], reader: DocumentReader, label: str, location: str
) -> list[Diagnostic]:
    """S26.10: a warning for each security scheme the operation accepts that the document
    marks `deprecated` (named for the operation's first tool)."""
    if not plans:
        return []
    place = Place(plans[0].name, label, location)
    marked = deprecated_schemes(reader.index.document)
    accepted = dict.fromkeys(s.name for alt in plans[0].security for s in alt if s.name in marked)
    return [
        place.note(
            "warning",
            "MCP tool security scheme deprecated",
            f"the operation accepts the security scheme `{name}`, which the document marks "
            "deprecated: calls may stop working once the API drops it",
        )
        for name in accepted
    ]


#: S20.1: the request content types toolshape prefers, best first (then document order).
_PREFERRED = ("json", "form", "multipart")


def _listed(op: Operation, settings: PlanSettings) -> list[tuple[Body | None, str | None]]:
    """The bodies to plan a tool for, each with the content type its name carries (S8.2):
    every one (suffixed when there are several), or the preferred one that can be sent, with
    no suffix (S20.1); `[(None, None)]` without a body."""
    if not op.bodies:
        return [(None, None)]
    if settings.content_types == "all":
        several = len(op.bodies) > 1
        return [(body, body.content_type if several else None) for body in op.bodies]
    sendable = [(body, body_kind(body, op.defs)) for body in op.bodies]
    ranked = sorted(
        (b for b in sendable if b[1] is not None or not _needs_bytes(b[0], settings.options)),
        key=lambda b: _PREFERRED.index(b[1]) if b[1] in _PREFERRED else len(_PREFERRED),
    )
    return [(ranked[0][0], None)] if ranked else []


def _needs_bytes(body: Body, options: Options) -> bool:
    """Whether the body is sent at all (S5.11: `schemaless_body="no-body"` leaves out a body
    without a schema)."""
    return not (body.schema is None and options.schemaless_body == "no-body")


def _unsent(body: Body, op: Operation, options: Options) -> bool:
    """S17.9: a body that would be sent, but that its media type can't carry."""
    return _needs_bytes(body, options) and body_kind(body, op.defs) is None


def _not_listed(place: Place, bodies: Sequence[Body]) -> Diagnostic:
    """S17.9: the warning for a tool that is not listed because nothing can send its body."""
    types = ", ".join(f"`{body.content_type}`" for body in bodies)
    return place.note(
        "warning",
        "MCP tool not listed",
        f"toolshape can't send a {types} request body (it sends JSON, YAML as JSON text, "
        "form, multipart, text/* as a string, binary bodies and JSON Lines or JSON text "
        "sequences of items; XML only as a binary string), so no tool is listed that every "
        "call would fail (S17.9)",
    )


def _planned(
    op: Operation,
    body: Body | None,
    place: Place,
    style: Style,
    reader: DocumentReader,
    settings: PlanSettings,
    key: str,
) -> Plan | PlanError:
    """One tool of the operation, or the error that refuses it."""
    try:
        return plan_tool(
            op,
            body,
            place,
            style,
            settings.options,
            reader.index.default_dialect,
            settings.annotations.get(key),
            settings.fixed_for(key),
            frozenset(settings.fixed_per_operation.get(key, {})),
            reader.deep_names,
        )
    except RecursionError:
        return place.error("schema", "a schema of this operation is nested too deeply to plan")


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
