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
        schema: dict[str, Json] = {"allOf": [plan._nested["properties"][channel]]}
        for keyword in ("$schema", "$defs"):
            if keyword in plan._nested:
                schema[keyword] = plan._nested[keyword]
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


def _with_defaults(value: Json, schema: Json) -> Json:
    """S13.5: `value` with the `default` of every absent top-level property inserted."""
    if not (
        isinstance(value, dict)
        and isinstance(schema, dict)
        and isinstance(schema.get("properties"), dict)
    ):
        return value
    defaults = {
        name: thaw(prop["default"])
        for name, prop in schema["properties"].items()
        if name not in value and isinstance(prop, dict) and "default" in prop
    }
    return {**value, **defaults} if defaults else value


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
    for channel, schema in channels.items():
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
        split[channel] = _with_defaults(split[channel], schema)
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
