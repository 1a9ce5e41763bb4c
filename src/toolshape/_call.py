"""S13: serving one call: pick the reading, validate, route, check the original body."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolshape._errors import ArgumentError, ArgumentIssue
from toolshape._reading import pick_reading
from toolshape._route import Inbound, route_args, router_for
from toolshape._types import CHANNEL_ARGUMENT, NO_BODY, Json, Reading, Request, thaw
from toolshape._validate import Judge

if TYPE_CHECKING:
    from toolshape._plan import Plan


def validator(plan: Plan, which: str) -> Judge:
    """The plan's judge for `flat`, `nested` or `check`, built once (S13.3)."""
    judge: Judge | None = plan._cache.get(which)
    if judge is None:
        schema = {"flat": plan._input, "nested": plan._nested, "check": plan._check}[which]
        judge = plan._cache[which] = Judge(schema)
    return judge


def _channel_validator(plan: Plan, channel: str) -> Judge:
    """S13.5 (per-channel): a judge for one nested channel, with the plan's `$defs`."""
    key = "channel:" + channel
    judge: Judge | None = plan._cache.get(key)
    if judge is None:
        schema = _with_root_keywords(plan, plan._nested["properties"][channel])
        judge = plan._cache[key] = Judge(schema)
    return judge


def _unexpected(key: str) -> ArgumentIssue:
    return ArgumentIssue(key, "additionalProperties", "is not an argument of this tool")


def _split(plan: Plan, arguments: dict[str, Json]) -> dict[str, Json] | list[ArgumentIssue]:
    """A flat call as its nested twin: each argument under the channel that declared it."""
    router = router_for(plan)
    nested: dict[str, Json] = {}
    for key, value in arguments.items():
        route = router.by_argument.get(key)
        if route is not None:
            nested.setdefault(CHANNEL_ARGUMENT[route.channel], {})[key] = value
        elif plan.body == "wrapped" and key == "body":
            nested["body"] = value
        elif plan.body == "hoisted" and (
            key in router.body_properties or plan.undeclared == "body"
        ):
            nested.setdefault("body", {})[key] = value
        else:
            return [_unexpected(key)]
    if plan.body == "hoisted" and "body" not in nested and plan.body_required:
        nested["body"] = {}
    return nested


def _defaults(plan: Plan, channel: str) -> dict[str, Json]:
    """S13.5: the `default` of each top-level property of one nested channel that its own
    schema accepts; a default the schema rejects is never inserted (it would turn a call the
    advertised schema accepts into an error)."""
    key = "defaults:" + channel
    found: dict[str, Json] | None = plan._cache.get(key)
    if found is None:
        schema = plan._nested["properties"][channel]
        properties = schema.get("properties") if isinstance(schema, dict) else None
        found = {}
        for name, prop in (properties or {}).items():
            if isinstance(prop, dict) and "default" in prop:
                judge = Judge(_with_root_keywords(plan, prop))
                if not judge.problems(prop["default"]):
                    found[name] = prop["default"]
        plan._cache[key] = found
    return found


def _with_root_keywords(plan: Plan, schema: Json) -> dict[str, Json]:
    """`schema` made self-contained with the nested root's `$schema` and `$defs`."""
    out: dict[str, Json] = {"allOf": [schema]}
    for keyword in ("$schema", "$defs"):
        if keyword in plan._nested:
            out[keyword] = plan._nested[keyword]
    return out


def _with_defaults(value: Json, defaults: dict[str, Json]) -> Json:
    """S13.5: `value` with the valid `default` of every absent top-level property inserted."""
    if not isinstance(value, dict) or not defaults:
        return value
    missing = {name: thaw(default) for name, default in defaults.items() if name not in value}
    return {**value, **missing} if missing else value


def per_channel(
    plan: Plan, arguments: Json, reading: Reading
) -> dict[str, Json] | list[ArgumentIssue]:
    """S13.5 (`legacy`): the call as nested channels with `default`s inserted, each channel
    validated on its own (errors prefixed by the channel, `queryParams.limit`), or the problems."""
    if not isinstance(arguments, dict):
        return validator(plan, reading if plan.style == "flat" else "nested").problems(arguments)
    split = _split(plan, arguments) if reading == "flat" else dict(arguments)
    if isinstance(split, list):
        return split
    channels = plan._nested["properties"]
    problems = [_unexpected(key) for key in split if key not in channels]
    for channel in channels:
        if channel not in split:
            if reading == "nested":
                problems.append(
                    ArgumentIssue("", "required", f"'{channel}' is a required property")
                )
                continue
            if channel == "body" and plan.body == "wrapped":
                problems.append(ArgumentIssue("", "required", "'body' is a required property"))
                continue
            if channel == "body":
                continue  # an optional body that was not given is not sent (S12.3)
            split[channel] = {}
        split[channel] = _with_defaults(split[channel], _defaults(plan, channel))
        problems.extend(_channel_validator(plan, channel).problems(split[channel], channel))
    return problems or split


def attempt(
    plan: Plan, arguments: Json, reading: Reading, headers: Inbound
) -> Request | list[ArgumentIssue]:
    """One reading of a call: the request, or the problems that reject it."""
    if plan.validation == "per-channel":
        split = per_channel(plan, arguments, reading)
        if isinstance(split, list):
            return split
        return _checked(plan, route_args(plan, split, "nested", headers=headers))
    problems = validator(plan, reading if plan.style == "flat" else "nested").problems(arguments)
    if problems:
        return problems
    return _checked(plan, route_args(plan, arguments, reading, headers=headers))


def _checked(plan: Plan, request: Request) -> Request | list[ArgumentIssue]:
    """S6.3, S11: the original body schema judges the routed body too, with nested paths."""
    if plan._check is not None and request.body is not NO_BODY:
        problems = validator(plan, "check").problems(request.body, "body")
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
