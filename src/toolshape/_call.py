"""S13: serving one call: pick the reading, validate, route, check the original body."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolshape._errors import ArgumentError, ArgumentIssue
from toolshape._reading import pick_reading
from toolshape._route import Inbound, route_args
from toolshape._types import NO_BODY, Json, Reading, Request
from toolshape._validate import check, compile_schema

if TYPE_CHECKING:
    from toolshape._plan import Plan


def validator(plan: Plan, which: str) -> Any:
    """The plan's compiled validator for `flat`, `nested` or `check`, built once (S13.3)."""
    key = "validator:" + which
    compiled = plan._cache.get(key)
    if compiled is None:
        schema = {"flat": plan.advertised, "nested": plan.nested, "check": plan.body_check}[which]
        compiled = plan._cache[key] = compile_schema(schema)
    return compiled


def attempt(
    plan: Plan, arguments: Json, reading: Reading, headers: Inbound
) -> Request | list[ArgumentIssue]:
    """One reading of a call: the request, or the problems that reject it."""
    problems = check(validator(plan, reading if plan.style == "flat" else "nested"), arguments)
    if problems:
        return problems
    request = route_args(plan, arguments, reading, headers=headers)
    if plan.body_check is not None and request.body is not NO_BODY:
        # S6.3, S11: the original body schema judges the routed body too, with nested paths.
        problems = check(validator(plan, "check"), request.body, "body")
        if problems:
            return problems
    return request


def call(plan: Plan, arguments: Json, headers: Inbound = None) -> Request:
    """S13: the request for `arguments`, or ArgumentError with the first reading's problems."""
    reported: list[ArgumentIssue] | None = None
    for reading in pick_reading(plan, arguments):
        outcome = attempt(plan, arguments, reading, headers)
        if isinstance(outcome, Request):
            return outcome
        if reported is None:
            reported = outcome
    raise ArgumentError(plan.name, reported or [])
