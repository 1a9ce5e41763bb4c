"""The planner: every tool of one operation (`plan_operation_tools`) — one per content type
(S8.2), named (S8), styled (S2) and planned by `plan_tool`'s steps (`_steps`).

Nothing here raises for a document's content: a problem is a `PlanError` in the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from toolshape.flatten._aliases import Taken, unique
from toolshape.model._errors import PlanError
from toolshape.model._json import is_map
from toolshape.model._types import Body
from toolshape.planner._settings import ServerSettings, ToolSettings, tool_style
from toolshape.planner._steps import Place, plan_tool
from toolshape.planner._tool_names import derive_name, tool_name
from toolshape.plans._plan import Plan
from toolshape.read._bundle import Problem
from toolshape.read._document import DocumentReader, RawOperation

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
    taken: Taken | None = None,
) -> tuple[list[Plan], list[PlanError]]:
    """Every tool of one operation (one per content type, S8.2): plans and errors.

    With `portable_names` (S19.2), tool names are portable and `taken` holds the names given
    so far in the document: a clash gets `_2`, `_3`, … in declaration order."""
    portable = server.options.portable_names
    taken = taken if taken is not None else Taken()
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
