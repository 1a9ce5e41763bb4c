"""The plan as data (S15): `Plan` and `PlanResult`.

A plan is a frozen value: what the planner decided, nothing computed for calls. Its fields are
listed once (`toolshape.plans._fields.FIELDS`), and its plan data is built from that table by
name. It imports nothing from the call side; `Plan.call` hands the work to a compiled call
engine built from the plan's data on first use and kept in one private slot. The package wires
the engine in (`toolshape/__init__.py`, the composition root), so the model never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from toolshape.model._errors import PlanError, ToolshapeError
from toolshape.model._json import Json, JsonObject, Unchecked, thaw
from toolshape.model._options import Options, OutputView
from toolshape.model._types import (
    BodyEncoding,
    BodyShape,
    Diagnostic,
    Inbound,
    Schema,
    Security,
    Style,
)
from toolshape.plans import _show
from toolshape.plans._fields import FIELDS, PLAN_FORMAT, FixedArgument, ParameterRoute

if TYPE_CHECKING:  # the call side's value, named in annotations only (docs/design.md)
    from toolshape.call._request import Request

__all__ = ["FixedArgument", "ParameterRoute", "Plan", "PlanResult"]


def _objects_only(root: JsonObject) -> JsonObject:
    """S16.5: `root` with each boolean schema directly under its `properties` as an object."""
    properties = root.get("properties")
    if isinstance(properties, dict) and any(isinstance(p, bool) for p in properties.values()):
        root["properties"] = {
            name: ({} if p else {"not": {}}) if isinstance(p, bool) else p
            for name, p in properties.items()
        }
    return root


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
        self,
        status: Unchecked,
        headers: Unchecked,
        body: Unchecked,
        uri: str | None,
        fields: tuple[str, ...] | None,
    ) -> JsonObject:
        """The MCP `CallToolResult` of an HTTP answer (S16.4), kept to `fields` (S25.7)."""
        ...


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
    tags: tuple[str, ...] = ()
    """The operation's `tags` (S23.7: what `search` also reads)."""
    annotations: Mapping[str, Json] = field(default_factory=dict)
    """S16.2: the MCP `ToolAnnotations` (title and hints)."""
    _output: Mapping[str, Unchecked] | None = field(default=None, repr=False)
    output_wrapped: bool = False
    """S16.3: the response schema was not an object, so the output schema wraps it under
    `result` (and so does `result()`'s `structuredContent`)."""
    output_view: OutputView = "shape"
    """S16.7: which view of the response schema `output_schema` is (`shape`, `exact`), or
    `off`: the tool has none."""
    body_encoding: BodyEncoding | None = None
    """S17: how the body becomes bytes (`json`, `form`, `multipart`, `text`, `binary`,
    `yaml`); None without a body."""
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
    output_items: bool = False
    """S26.6: the answer is a sequence of items (JSON Lines, JSON text sequences, server-sent
    events), structured as `{"items": [...]}`."""
    response_fields: str | None = None
    """S25.7: the optional argument naming the answer's members to keep (`fields`, or
    `_fields` when `fields` is taken), or None: the tool has none."""
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    _engine: CallEngine | None = field(default=None, init=False, repr=False, compare=False)
    #: How a plan's call engine is built; the package wires `toolshape.call._engine.compile_engine`.
    compile_engine: ClassVar[Callable[[Plan], CallEngine] | None] = None
    #: How plan data is checked before `from_dict` loads it (S15.1); the package wires
    #: `toolshape.plansfile._format.check_plan_data`.
    check_data: ClassVar[Callable[[Mapping[str, Unchecked]], None] | None] = None

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
        fields: tuple[str, ...] | None = None,
    ) -> JsonObject:
        """The MCP `CallToolResult` of the API's answer to a call (S16.4), as plain data.

        `headers` are the response headers (a mapping or `(name, value)` pairs), `body` the
        response bytes; `uri` names an embedded binary resource (default `toolshape:response`);
        `fields` are the members the call asked for (`Request.fields`, S25.7): a structured
        answer keeps only those, in `structuredContent` and in its text.

        Raises:
            ToolshapeError: `status` is not an HTTP status, or `headers` / `body` malformed.
        """
        return self._compiled().result(status, headers, body, uri, fields)

    @property
    def output_schema(self) -> JsonObject | None:
        """S16.3: the MCP `outputSchema` (a fresh copy), or None."""
        self._ready()
        return None if self._output is None else dict(thaw(self._output))

    def to_mcp_tool(self) -> JsonObject:
        """S16.5: the MCP `2025-11-25` `Tool` object: `name`, `title` (when any),
        `description`, `inputSchema`, `outputSchema` (when any), `annotations`. A boolean
        schema directly under a root's `properties` is advertised as `{}` (`true`) or
        `{"not": {}}` (`false`): the TypeScript client's `listTools` refuses a non-object."""
        self._ready()
        tool: JsonObject = {"name": self.name}
        if self.title is not None:
            tool["title"] = self.title
        tool["description"] = self.description
        tool["inputSchema"] = _objects_only(self.input_schema)
        output = self.output_schema
        if output is not None:
            tool["outputSchema"] = _objects_only(output)
        tool["annotations"] = dict(thaw(self.annotations))
        return tool

    def _repr_markdown_(self) -> str:
        """The tool as a one-row Markdown table (notebooks)."""
        return _show.markdown(f"MCP tool {self.name}", _show.TOOL_HEADERS, [_show.tool_row(self)])

    def _repr_html_(self) -> str:
        """The tool as a one-row HTML table (notebooks)."""
        return _show.html_table(f"MCP tool {self.name}", _show.TOOL_HEADERS, [_show.tool_row(self)])

    def _compiled(self) -> CallEngine:
        """The plan's compiled call engine, built on first use (two threads racing here build
        the same engine twice and one wins; nothing else is shared)."""
        engine = self._engine
        if engine is None:
            self._ready()
            compile_engine = Plan.compile_engine
            if compile_engine is None:  # pragma: no cover - the package always wires it
                raise ToolshapeError("no call engine is wired in: import toolshape")
            engine = compile_engine(self)
            object.__setattr__(self, "_engine", engine)
        return engine

    def _ready(self) -> None:
        """Run before any schema of the plan judges a call or leaves it: a plan of a lazily
        loaded plans file checks its schemas here, once (S15.1); a planned one has nothing
        to run."""

    @property
    def input_schema(self) -> JsonObject:
        """The advertised MCP `inputSchema` (a fresh copy on every access)."""
        self._ready()
        return dict(thaw(self._input))

    @property
    def nested_schema(self) -> JsonObject:
        """The nested schema (S3), which a flat tool also reads (S13.1); a fresh copy."""
        self._ready()
        return dict(thaw(self._nested))

    @property
    def body_check(self) -> Schema | None:
        """S6.3: the original body schema (with `$defs`) that judges the routed body again,
        or None; a fresh copy."""
        self._ready()
        return thaw(self._check)

    def to_dict(self) -> JsonObject:
        """The plan as plain JSON-compatible data (S15.1), loadable with `Plan.from_dict`."""
        return self._data()

    def _data(self, schema: Callable[[Any], Any] | None = None) -> JsonObject:
        """`to_dict`, with `schema` (when given) turning each of the plan's schemas into data
        instead of a plain copy (a plans file writes their shared `$defs` entries once)."""
        self._ready()
        out: JsonObject = {"format": PLAN_FORMAT}
        for f in FIELDS:
            value = getattr(self, f.attr)
            out[f.key] = (
                schema(value) if schema is not None and f.attr in _SCHEMAS else f.codec.dump(value)
            )
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> Plan:
        """Load a plan written by `to_dict` (S15.1); it routes exactly like the original.

        The data is checked first as untrusted input: against the `toolshape.plan/4` JSON
        Schema (`PLAN_SCHEMA`), and every schema in it as planning would check it.

        Raises:
            PlanDataError: `data` is not a plan this version can serve; `field` names where.
        """
        check = Plan.check_data
        if check is None:  # pragma: no cover - the package always wires it
            raise ToolshapeError("no plan-data check is wired in: import toolshape")
        check(data)
        checked = thaw(data)  # the plan keeps its own copy, each field loaded by name
        return cls(**{f.attr: f.codec.load(checked[f.key]) for f in FIELDS})

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


#: The attributes of a plan that hold schemas.
_SCHEMAS = frozenset({"_input", "_nested", "_check", "_output"})


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
    server_url: str | None = None
    """S23.4: the document's first server URL, its variables at their defaults (a Swagger 2.0
    document's `scheme://host`: requests carry `basePath` themselves), as written — possibly
    relative; None when the document names no server."""
    named_servers: Mapping[str, str] = field(default_factory=dict, hash=False)
    """S26.11: each named server's URL (OpenAPI 3.2), by name, as `server_url` is written —
    what `serve --server NAME` picks."""
    tag_titles: Mapping[str, str] = field(default_factory=dict, hash=False)
    """S26.9: each tag's `summary` (OpenAPI 3.2), its title in discovery search."""

    def _tables(self) -> list[tuple[str, tuple[str, ...], list[_show.Row]]]:
        """The tools, then the errors (when any), each as a titled table."""
        tables: list[tuple[str, tuple[str, ...], list[_show.Row]]] = [
            (
                f"{len(self.tools)} tools from {self.source}",
                _show.TOOL_HEADERS,
                [_show.tool_row(plan) for plan in self.tools],
            )
        ]
        if self.errors:
            tables.append(
                (
                    f"{len(self.errors)} errors",
                    _show.ERROR_HEADERS,
                    [_show.error_row(error) for error in self.errors],
                )
            )
        return tables

    def _repr_markdown_(self) -> str:
        """The tools and the errors as Markdown tables (notebooks)."""
        return "\n\n".join(_show.markdown(*table) for table in self._tables())

    def _repr_html_(self) -> str:
        """The tools and the errors as HTML tables (notebooks)."""
        return "".join(_show.html_table(*table) for table in self._tables())
