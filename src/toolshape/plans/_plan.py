"""The plan as data (S15): `Plan`, `ParameterRoute`, `PlanResult`.

A plan is a frozen value: what the planner decided, nothing computed for calls. It imports
nothing from the call side; `Plan.call` hands the work to a compiled call engine (`_engine`),
built from the plan's data on first use and kept in one private slot. The package wires the
engine in (`toolshape/__init__.py`), so the model never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import itemgetter
from types import SimpleNamespace
from typing import Any, ClassVar, Literal, Protocol, cast

from toolshape.model._errors import PlanError, ToolshapeError
from toolshape.model._frozen import fast_init, unfrozen
from toolshape.model._json import Json, JsonObject, Unchecked, thaw
from toolshape.model._options import Options
from toolshape.model._types import (
    BodyEncoding,
    BodyShape,
    Channel,
    Diagnostic,
    Inbound,
    ParamStyle,
    Request,
    Schema,
    Security,
    SecurityScheme,
    Style,
)
from toolshape.plans._format import OWN_VALUES, PLAN_FORMAT, check_plan_data


@fast_init
@dataclass(frozen=True, slots=True)
class ParameterRoute:
    """How one parameter argument goes back into the request (S12.1)."""

    argument: str
    """The argument name (header names after S4.5)."""
    name: str
    """The parameter's name on the wire, as declared."""
    channel: Channel
    style: ParamStyle
    explode: bool
    allow_reserved: bool = False
    content_type: str | None = None
    """Set for a parameter described by `content`: its value is sent as JSON text."""
    required: bool = False
    alias: str | None = None
    """S19: the advertised name when it differs from `argument` (a portable name, S19.2, or a
    collision renamed `<name>__<in>`, S19.3); a flat tool's nested reading still uses
    `argument`."""

    @property
    def advertised(self) -> str:
        """The name the tool advertises: the alias, else the argument name."""
        return self.alias or self.argument

    def to_dict(self) -> JsonObject:
        """The route as plain data."""
        return {
            "argument": self.argument,
            "alias": self.alias,
            "name": self.name,
            "in": self.channel,
            "style": self.style,
            "explode": self.explode,
            "allowReserved": self.allow_reserved,
            "contentType": self.content_type,
            "required": self.required,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> ParameterRoute:
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
            alias=data.get("alias"),
        )


@dataclass(frozen=True, slots=True)
class FixedArgument:
    """S18.4: an argument the gateway supplies on every call, out of the advertised schemas."""

    name: str
    """Its wire name after S4.5 (a header lower case, a body property as declared)."""
    value: Json
    route: ParameterRoute | None
    """How a parameter travels; None for a body property (set in the routed body)."""

    def to_dict(self) -> JsonObject:
        """The fixed argument as plain data."""
        return {
            "name": self.name,
            "value": self.value,
            "route": None if self.route is None else self.route.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> FixedArgument:
        """Load a fixed argument written by `to_dict`."""
        route = data["route"]
        return cls(
            data["name"],
            thaw(data["value"]),
            None if route is None else ParameterRoute.from_dict(route),
        )


class CallEngine(Protocol):
    """What serves a plan's calls (`toolshape.call._engine.Engine`), as the model sees it."""

    def call(
        self,
        arguments: Unchecked,
        headers: Inbound,
        credentials: Mapping[str, Unchecked] | None,
    ) -> Request:
        """The request for `arguments` (S12, S13, S18), or an `ArgumentError` (a
        `CredentialError` for credentials no security alternative accepts)."""
        ...

    def result(
        self, status: Unchecked, headers: Unchecked, body: Unchecked, uri: str | None
    ) -> JsonObject:
        """The MCP `CallToolResult` of an HTTP answer (S16.4)."""
        ...


@fast_init
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
    _input: Mapping[str, Unchecked] = field(repr=False)
    _nested: Mapping[str, Unchecked] = field(repr=False)
    _check: Schema | None = field(default=None, repr=False)
    title: str | None = None
    """S16.1: the operation's `summary`, when it has one."""
    description: str = ""
    """S16.1: what the model reads about the tool."""
    annotations: Mapping[str, Json] = field(default_factory=dict)
    """S16.2: the MCP `ToolAnnotations` (title and hints)."""
    _output: Mapping[str, Unchecked] | None = field(default=None, repr=False)
    output_wrapped: bool = False
    """S16.3: the response schema was not an object, so the output schema wraps it under
    `result` (and so does `result()`'s `structuredContent`)."""
    body_encoding: BodyEncoding | None = None
    """S17: how the body becomes bytes (`json`, `form`, `multipart`, `text`, `binary`,
    `unsupported`); None without a body."""
    encoding: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    """S17.3, S17.4: the media type's `encoding` map, per body property."""
    binary: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    """S17.5: the body's top-level binary (base64) properties: `mediaType`, `array`."""
    security: Security = ((),)
    """S18.1: the operation's security alternatives, in order (`((),)`: none needed)."""
    fixed: tuple[FixedArgument, ...] = ()
    """S18.4: the arguments the gateway supplies on every call."""
    body_aliases: Mapping[str, str] = field(default_factory=dict)
    """S19.2: a hoisted body property's advertised name → its name in the body, for each
    property whose name is not portable."""
    base_path: str = ""
    """S20.3: what every request path starts with (a Swagger 2.0 `basePath`), or `""`."""
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    _engine: CallEngine | None = field(default=None, init=False, repr=False, compare=False)
    _pending: Callable[[Plan], None] | None = field(default=None, repr=False, compare=False)
    """A loaded plan's schema checks not run yet (`load_plans(lazy=True)`): run before its
    call engine is built, so no unchecked schema ever judges a call (S15.1). A constructor
    argument so that `dataclasses.replace` carries it to the plan it makes."""

    #: How a plan's call engine is built; the package wires `toolshape.call._engine.compile_engine`.
    compile_engine: ClassVar[Callable[[Plan], CallEngine] | None] = None

    def call(
        self,
        arguments: Unchecked,
        *,
        headers: Inbound = None,
        credentials: Mapping[str, Unchecked] | None = None,
    ) -> Request:
        """The HTTP request a tool call's `arguments` describe (S12, S13, S18).

        `headers` are the inbound headers the MCP client sent (a mapping or `(name, value)`
        pairs); a header argument replaces the inbound header of the same name (S12.2).
        `credentials` maps security scheme names to values (a token; for `basic` a
        `(user, password)` pair or `"user:password"`): the first security alternative they
        all satisfy is applied, replacing inbound headers of the same names (S18.2). Without
        `credentials` nothing is added.

        Raises:
            ArgumentError: the arguments are rejected; no request is made (S13.4, S14.2).
            CredentialError: `credentials` satisfy none of the operation's alternatives, or
                one of them is malformed (S18.2): the gateway's fault, not the model's.
        """
        engine = self._engine or self._compiled()
        return engine.call(arguments, headers, credentials)

    @property
    def credential_schemes(self) -> tuple[str, ...]:
        """S18.1: the names of every scheme of the operation's alternatives, in order."""
        return tuple(dict.fromkeys(s.name for alternative in self.security for s in alternative))

    def result(
        self,
        status: int,
        headers: Unchecked,
        body: bytes | bytearray | memoryview | str | None,
        *,
        uri: str | None = None,
    ) -> JsonObject:
        """The MCP `CallToolResult` of the API's answer to a call (S16.4), as plain data.

        `headers` are the response headers (a mapping or `(name, value)` pairs), `body` the
        response bytes; `uri` names an embedded binary resource (default `toolshape:response`).

        Raises:
            ToolshapeError: `status` is not an HTTP status, or `headers` / `body` malformed.
        """
        return self._compiled().result(status, headers, body, uri)

    @property
    def output_schema(self) -> JsonObject | None:
        """S16.3: the MCP `outputSchema` (a fresh copy), or None."""
        return None if self._output is None else dict(thaw(self._output))

    def to_mcp_tool(self) -> JsonObject:
        """S16.5: the MCP `2025-11-25` `Tool` object: `name`, `title` (when any),
        `description`, `inputSchema`, `outputSchema` (when any), `annotations`."""
        tool: JsonObject = {"name": self.name}
        if self.title is not None:
            tool["title"] = self.title
        tool["description"] = self.description
        tool["inputSchema"] = self.input_schema
        if self._output is not None:
            tool["outputSchema"] = self.output_schema
        tool["annotations"] = dict(thaw(self.annotations))
        return tool

    def _compiled(self) -> CallEngine:
        """The plan's compiled call engine, built on first use (two threads racing here build
        the same engine twice and one wins; nothing else is shared)."""
        engine = self._engine
        if engine is None:
            pending = self._pending
            if pending is not None:
                pending(self)  # raises PlanDataError for a schema that can't be served
                object.__setattr__(self, "_pending", None)
            compile_engine = Plan.compile_engine
            if compile_engine is None:  # pragma: no cover - the package always wires it
                raise ToolshapeError("no call engine is wired in: import toolshape")
            engine = compile_engine(self)
            object.__setattr__(self, "_engine", engine)
        return engine

    @property
    def input_schema(self) -> JsonObject:
        """The advertised MCP `inputSchema` (a fresh copy on every access)."""
        return dict(thaw(self._input))

    @property
    def nested_schema(self) -> JsonObject:
        """The nested schema (S3), which a flat tool also reads (S13.1); a fresh copy."""
        return dict(thaw(self._nested))

    @property
    def body_check(self) -> Schema | None:
        """S6.3: the original body schema (with `$defs`) that judges the routed body again,
        or None; a fresh copy."""
        return thaw(self._check)

    def to_dict(self) -> JsonObject:
        """The plan as plain JSON-compatible data (S15.1), loadable with `Plan.from_dict`."""
        return self._data(thaw)

    def _data(self, schema: Callable[[Any], Any]) -> JsonObject:
        """`to_dict` with `schema` turning each of the plan's schemas into data (a plans file
        shares their `$defs` entries between tools)."""
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
            "bodyAliases": dict(self.body_aliases),
            "basePath": self.base_path,
            "bodyRequired": self.body_required,
            "undeclared": self.undeclared,
            "validation": self.validation,
            "parameters": [p.to_dict() for p in self.parameters],
            "inputSchema": schema(self._input),
            "nestedSchema": schema(self._nested),
            "bodyCheck": schema(self._check),
            "title": self.title,
            "description": self.description,
            "annotations": dict(thaw(self.annotations)),
            "outputSchema": schema(self._output),
            "outputWrapped": self.output_wrapped,
            "bodyEncoding": self.body_encoding,
            "encoding": thaw(dict(self.encoding)),
            "binary": thaw(dict(self.binary)),
            "security": [[s.to_dict() for s in alternative] for alternative in self.security],
            "fixed": [f.to_dict() for f in self.fixed],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> Plan:
        """Load a plan written by `to_dict` (S15.1); it routes exactly like the original.

        The data is checked first as untrusted input: against the `toolshape.plan/1` JSON
        Schema (`PLAN_SCHEMA`), and every schema in it as planning would check it.

        Raises:
            PlanDataError: `data` is not a plan this version can serve; `field` names where.
        """
        check_plan_data(data)
        return cls._from_data(data, thaw)

    @classmethod
    def _from_data(
        cls,
        data: Mapping[str, Unchecked],
        copy: Callable[[Any], Any] | None,
        parts: tuple[tuple[ParameterRoute, ...], Security] | None = None,
        pending: Callable[[Plan], None] | None = None,
        shared: tuple[Any, ...] | None = None,
    ) -> Plan:
        """The plan of checked plan data, `copy` applied to every container it keeps (None: a
        plans file parsed from text is the loader's own, kept as parsed); `parts` are its
        routes and security alternatives when already built, `pending` the check of its
        schemas its engine runs first, given the plan (a plans file loaded lazily), and
        `shared` the values of the fields many tools share (`SHARED(data)`) when `data` holds
        only its own (a plans file's tool entry, its profile's values read once)."""
        if parts is None:
            parts = (
                tuple(ParameterRoute.from_dict(p) for p in data["parameters"]),
                security_of(data["security"]),
            )
        shared = SHARED(data) if shared is None else shared
        return cls._built(OWN(data), parts, shared, pending, copy)

    @classmethod
    def _built(
        cls,
        own: tuple[Any, ...],
        parts: tuple[tuple[ParameterRoute, ...], Security],
        shared: tuple[Any, ...],
        pending: Callable[[Plan], None] | None,
        copy: Callable[[Any], Any] | None = None,
    ) -> Plan:
        """The plan of checked values: its own (`OWN(data)`), its routes and security
        alternatives, the values of the fields many tools share (`SHARED(data)`); `pending`
        and `copy` as `_from_data` takes them."""
        # Each field stored in its slot (many plans are loaded at once): no keyword arguments,
        # no frozen `__setattr__`.
        plan: Any = _Building()
        (
            plan.content_type,
            plan.style,
            plan.body,
            plan.body_required,
            plan.undeclared,
            plan.validation,
            plan.output_wrapped,
            plan.body_aliases,
            plan.base_path,
            plan.body_encoding,
            plan.binary,
            fixed,
        ) = shared
        (  # in the order of `OWN_VALUES`
            plan.name,
            plan.operation_id,
            plan.method,
            plan.path,
            plan.location,
            plan.title,
            plan.description,
            plan.annotations,
            body_properties,
            plan._input,
            plan._nested,
            plan._check,
            plan._output,
            plan.encoding,
            diagnostics,
        ) = own
        plan.diagnostics = tuple(map(Diagnostic.from_dict, diagnostics)) if diagnostics else ()
        plan.body_properties = tuple(body_properties)
        plan.parameters, plan.security = parts
        plan.fixed = tuple(map(FixedArgument.from_dict, fixed)) if fixed else ()
        plan._pending = pending
        if copy is not None:  # data the caller keeps (and may change): its containers copied
            for name in _CONTAINERS:
                setattr(plan, name, copy(getattr(plan, name)))
        return _frozen(cls, plan)

    def _canonical(self) -> str:
        text = self._text
        if text is None:
            text = json.dumps(
                self.to_dict(), separators=(",", ":"), ensure_ascii=False, default=repr
            )
            object.__setattr__(self, "_text", text)
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return self is other or self._canonical() == other._canonical()

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __reduce__(self) -> tuple[object, ...]:
        # Pickles as its plain data; the compiled engine is rebuilt on use.
        return (Plan.from_dict, (self.to_dict(),))


#: The fields of plan data many tools share (a plans file's profile, `PROFILE_FIELDS`, less the
#: format), read at once, in the order `Plan._built` stores them.
SHARED = itemgetter(
    "contentType",
    "style",
    "body",
    "bodyRequired",
    "undeclared",
    "validation",
    "outputWrapped",
    "bodyAliases",
    "basePath",
    "bodyEncoding",
    "binary",
    "fixed",
)

#: A tool's own values in plan data (or a plans file's entry), read at once (`OWN_VALUES`).
OWN = itemgetter(*OWN_VALUES)


def security_of(requirement: Any) -> Security:
    """The security alternatives of checked plan data's `security`."""
    return tuple(
        tuple(SecurityScheme.from_dict(s) for s in alternative) for alternative in requirement
    )


_UNFROZEN_PLAN = unfrozen(Plan)
#: What `Plan._from_data` stores a plan's fields in: its slots, where the interpreter lets an
#: object change its class (`unfrozen`), else a namespace the constructor is then called from.
_Building: Any = _UNFROZEN_PLAN or SimpleNamespace
_INIT_FIELDS = tuple(f.name for f in fields(Plan) if f.init)
#: The fields of a plan that hold containers from its data (copied unless the data is its own).
_CONTAINERS = (
    "body_aliases",
    "_input",
    "_nested",
    "_check",
    "annotations",
    "_output",
    "encoding",
    "binary",
)


def _frozen(cls: type[Plan], plan: Any) -> Plan:
    """The `cls` of the fields stored in `plan` (a `_Building`): the same object `cls(...)`
    builds, made by giving the slots twin its class (every slot set first)."""
    if cls is not Plan or _UNFROZEN_PLAN is None:
        return cls(**{name: getattr(plan, name) for name in _INIT_FIELDS})
    plan._text = plan._engine = None
    plan.__class__ = Plan
    return cast(Plan, plan)


@dataclass(frozen=True, slots=True)
class PlanResult:
    """What `plan_document` returns: every tool that planned, every error, every diagnostic."""

    tools: tuple[Plan, ...]
    errors: tuple[PlanError, ...]
    diagnostics: tuple[Diagnostic, ...]
    """Document-level diagnostics followed by every tool's own (S9.4)."""
    security_schemes: tuple[str, ...] = ()
    """S18.1: every scheme name `components.securitySchemes` defines, in document order: the
    names `credentials` may use (a gateway checks its configuration against them)."""
    source: str = "openapi.json"
    """The document's name in every location (S9.3)."""
    style: Style = "nested"
    """The server-wide `toolInputStyle` planning used, resolved (S2.3)."""
    options: Options = field(default_factory=Options)
    """Every behaviour switch planning used (S10)."""
