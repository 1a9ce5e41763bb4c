"""S13: the call engine — a plan's data compiled for serving calls.

`compile_engine(plan)` builds one `Engine`: the plan's `Router` (S12) and its judges (S13.3), one
per schema a call can be read against (flat, nested, the S6.3 second check, and under `legacy`
one per channel), each built when a call first needs it. `Engine.call` picks the reading,
validates, routes and checks the routed body; everything that depends only on the plan is in
the router, built once. Nothing else is computed per call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from toolshape.call._credentials import NOTHING, Applied, apply_credentials
from toolshape.call._json_text import json_text_read
from toolshape.call._reading import pick_reading
from toolshape.call._request import NO_BODY, Request
from toolshape.call._response_fields import check_fields
from toolshape.call._result import Expected, tool_result
from toolshape.call._route import Router, routed
from toolshape.model._errors import ArgumentError, ArgumentIssue
from toolshape.model._json import JsonObject, Unchecked, thaw
from toolshape.model._types import CHANNEL_ARGUMENT, Inbound, Reading, Schema
from toolshape.schema._formats import AJV_FORMATS
from toolshape.schema._validate import Judge

if TYPE_CHECKING:
    from toolshape.plans._plan import Plan


def _unexpected(key: str) -> ArgumentIssue:
    return ArgumentIssue(key, "additionalProperties", "is not an argument of this tool")


def _set_by_gateway(path: str, name: str) -> ArgumentIssue:
    return ArgumentIssue(path, "fixed", f"`{name}` is set by the gateway")


class Engine:
    """One plan, compiled for calls: its router and its judges."""

    __slots__ = (
        "_check",
        "_defaults",
        "_flat",
        "_judges",
        "_nested",
        "_output",
        "flat_properties",
        "output_items",
        "output_view",
        "output_wrapped",
        "response_fields",
        "router",
        "style",
        "validation",
    )

    def __init__(self, plan: Plan) -> None:
        self.router = Router.of(plan)
        self.style = plan.style
        self.validation = plan.validation
        self.flat_properties = frozenset(plan._input.get("properties", {}))
        self._flat: Mapping[str, Unchecked] = plan._input
        self._nested: Mapping[str, Unchecked] = plan._nested
        self._check: Schema | None = plan._check
        self._output: Schema | None = plan._output
        self.output_wrapped = plan.output_wrapped
        self.output_view = plan.output_view
        self.output_items = plan.output_items
        self.response_fields = plan.response_fields
        self._judges: dict[str, Judge] = {}
        self._defaults: dict[str, dict[str, Unchecked]] = {}

    # -- judges ------------------------------------------------------------------------------

    def judge(self, which: str) -> Judge:
        """The judge of `flat`, `nested`, `check` or `channel:<name>`, built on first use."""
        judge = self._judges.get(which)
        if judge is None:
            if which == "flat":
                schema: Schema = self._flat
            elif which == "nested":
                schema = self._nested
            elif which in ("check", "output"):  # asked for only when the plan has one
                held = self._check if which == "check" else self._output
                assert held is not None
                schema = held
            else:
                schema = self._rooted(self._nested["properties"][which.partition(":")[2]])
            exact = which == "output" and self.output_view == "exact"
            judge = self._judges[which] = Judge(schema, AJV_FORMATS if exact else None)
        return judge

    def _rooted(self, schema: Schema) -> dict[str, Unchecked]:
        """`schema` made self-contained with the nested root's `$schema` and `$defs`."""
        out: dict[str, Unchecked] = {"allOf": [schema]}
        for keyword in ("$schema", "$defs"):
            if keyword in self._nested:
                out[keyword] = self._nested[keyword]
        return out

    def _channel_defaults(self, channel: str) -> dict[str, Unchecked]:
        """S13.5: the `default` of each top-level property of one nested channel that its own
        schema accepts; a default the schema rejects is never inserted (it would turn a call
        the advertised schema accepts into an error)."""
        found = self._defaults.get(channel)
        if found is None:
            schema = self._nested["properties"][channel]
            properties = schema.get("properties") if isinstance(schema, dict) else None
            found = {}
            for name, prop in (properties or {}).items():
                if (
                    isinstance(prop, dict)
                    and "default" in prop
                    and not Judge(self._rooted(prop)).problems(prop["default"])
                ):
                    found[name] = prop["default"]
            self._defaults[channel] = found
        return found

    # -- answers -----------------------------------------------------------------------------

    def result(
        self,
        status: Unchecked,
        headers: Unchecked,
        body: Unchecked,
        uri: str | None = None,
        fields: tuple[str, ...] | None = None,
    ) -> JsonObject:
        """S16.4: the MCP `CallToolResult` of the API's answer (S25.7: kept to `fields`)."""
        return tool_result(status, headers, body, expected=self._expected(), uri=uri, fields=fields)

    def _expected(self) -> Expected | None:
        """S16.3, S16.7: what the output schema expects of an answer, or None."""
        if self._output is None or self.output_view == "off":
            return None
        return Expected(
            self.judge("output"), self.output_wrapped, self.output_view, self.output_items
        )

    # -- calls -------------------------------------------------------------------------------

    def call(
        self,
        arguments: Unchecked,
        headers: Inbound = None,
        credentials: Mapping[str, Unchecked] | None = None,
    ) -> Request:
        """S13: pick the reading, validate, route, check the routed body; the first reading's
        problems when none gives a request (`ArgumentError`; `CredentialError` for credentials
        no alternative accepts: S18.2)."""
        router = self.router
        applied = (
            NOTHING
            if credentials is None
            else apply_credentials(router.security, credentials, router.tool)
        )
        reported: list[ArgumentIssue] | None = None
        fields, asked = self._fields(arguments)
        if fields is not None:
            arguments = {k: v for k, v in arguments.items() if k != self.response_fields}
        readings = pick_reading(
            arguments,
            style=self.style,
            channels=router.tables.channel_names,
            flat_properties=self.flat_properties,
        )
        for reading in readings:
            outcome = self._attempt(arguments, reading, headers, applied)
            if isinstance(outcome, Request):
                if asked:
                    raise ArgumentError(router.tool, asked)
                return outcome if fields is None else dataclasses.replace(outcome, fields=fields)
            if reported is None:
                reported = outcome
        raise ArgumentError(router.tool, [*(reported or []), *asked])

    def _fields(self, arguments: Unchecked) -> tuple[tuple[str, ...] | None, list[ArgumentIssue]]:
        """S25.7: the answer's members the call asks for (None: the whole answer), and the
        problems with them; the argument itself is never routed."""
        name = self.response_fields
        if name is None or not isinstance(arguments, dict) or name not in arguments:
            return None, []
        assert isinstance(self._output, Mapping)  # a plan with `responseFields` has one (S15.1)
        return check_fields(arguments[name], self._output, name)

    def _attempt(
        self, arguments: Unchecked, reading: Reading, headers: Inbound, applied: Applied
    ) -> Request | list[ArgumentIssue]:
        """One reading of a call: the request, or the problems that reject it."""
        if self.router.tables.fixed_names:
            fixed = self._fixed_given(arguments, reading)
            if fixed:
                return fixed
        if self.validation == "per-channel":
            split = self._per_channel(arguments, reading)
            if isinstance(split, list):
                return split
            return self._checked(routed(self.router, split, "nested", headers, applied))
        judge = self.judge(reading if self.style == "flat" else "nested")
        problems = judge.problems(arguments)
        read: tuple[str, ...] = ()
        if problems:
            # S25.5: objects sent as their JSON text (looked for only when a kind was refused)
            kinds = any(p.keyword in ("type", "anyOf", "oneOf") for p in problems)
            parsed = json_text_read(judge, arguments) if kinds else None
            if parsed is None or judge.problems(parsed[0]):
                return problems
            arguments, read = parsed
        request = self._checked(routed(self.router, arguments, reading, headers, applied))
        if read and isinstance(request, Request):
            return dataclasses.replace(request, read_as_json=read)
        return request

    def _fixed_given(self, arguments: Unchecked, reading: Reading) -> list[ArgumentIssue]:
        """S18.4: an argument naming a fixed argument is an error, under any key policy."""
        if not isinstance(arguments, dict):
            return []
        names = self.router.tables.fixed_names
        if reading == "flat":
            top = names.get("", frozenset())
            return [_set_by_gateway(key, key) for key in arguments if key in top]
        return [
            _set_by_gateway(f"{channel}.{key}", key)
            for channel, value in arguments.items()
            if channel in names and isinstance(value, dict)
            for key in value
            if key in names[channel]
        ]

    def _checked(self, request: Request) -> Request | list[ArgumentIssue]:
        """S6.3, S11: the original body schema judges the routed body too, with nested paths."""
        if self._check is not None and request.body is not NO_BODY:
            problems = self.judge("check").problems(request.body, "body")
            if problems:
                return problems
        return request

    def _split(self, arguments: dict[str, Unchecked]) -> dict[str, Unchecked] | list[ArgumentIssue]:
        """A flat call as its nested twin: each argument under the channel that declared it."""
        router = self.router
        nested: dict[str, Unchecked] = {}
        for key, value in arguments.items():
            route = router.tables.by_argument.get(key)
            if route is not None:
                # The nested twin uses the nested reading's names (S19.1).
                nested.setdefault(CHANNEL_ARGUMENT[route.channel], {})[route.argument] = value
            elif key in router.tables.aliased:
                return [_unexpected(key)]
            elif router.body == "wrapped" and key == "body":
                nested["body"] = value
            elif router.body == "hoisted" and (
                key in router.tables.body_properties
                or key in router.body_aliases
                or router.undeclared == "body"
            ):
                nested.setdefault("body", {})[router.body_aliases.get(key, key)] = value
            else:
                return [_unexpected(key)]
        if router.body == "hoisted" and "body" not in nested and router.body_required:
            nested["body"] = {}
        return nested

    def _per_channel(
        self, arguments: Unchecked, reading: Reading
    ) -> dict[str, Unchecked] | list[ArgumentIssue]:
        """S13.5 (`legacy`): the call as nested channels with `default`s inserted, each channel
        validated on its own (errors prefixed by the channel, `queryParams.limit`)."""
        if not isinstance(arguments, dict):
            return self.judge(reading if self.style == "flat" else "nested").problems(arguments)
        split = self._split(arguments) if reading == "flat" else dict(arguments)
        if isinstance(split, list):
            return split
        channels = self._nested["properties"]
        problems = [_unexpected(key) for key in split if key not in channels]
        for channel in channels:
            if channel not in split:
                if reading == "nested":
                    problems.append(
                        ArgumentIssue("", "required", f'"{channel}" is a required property')
                    )
                    continue
                if channel == "body" and self.router.body == "wrapped":
                    problems.append(ArgumentIssue("", "required", '"body" is a required property'))
                    continue
                if channel == "body":
                    continue  # an optional body that was not given is not sent (S12.3)
                split[channel] = {}
            split[channel] = _with_defaults(split[channel], self._channel_defaults(channel))
            problems.extend(self.judge("channel:" + channel).problems(split[channel], channel))
        return problems or split


def _with_defaults(value: Unchecked, defaults: dict[str, Unchecked]) -> Unchecked:
    """S13.5: `value` with the valid `default` of every absent top-level property inserted."""
    if not isinstance(value, dict) or not defaults:
        return value
    missing = {name: thaw(default) for name, default in defaults.items() if name not in value}
    return {**value, **missing} if missing else value


def compile_engine(plan: Plan) -> Engine:
    """The call engine of `plan` (what `Plan.call` delegates to)."""
    return Engine(plan)
