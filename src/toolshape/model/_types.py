"""Plain-data types shared by every step of the pipeline."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from toolshape.model._json import Json, JsonObject, Unchecked, thaw

__all__ = [
    "Json",
    "JsonObject",
    "Unchecked",
    "thaw",
]  # re-exported: every step imports the JSON type from here

Schema: TypeAlias = bool | Mapping[str, Any]
"""A JSON Schema: a mapping, or (JSON Schema 2020-12 / OpenAPI 3.1) `True` / `False`."""

Channel: TypeAlias = Literal["path", "query", "header", "cookie", "body"]
"""Where an input travels: `path`, `query`, `header`, `cookie` (parameters) or `body`."""

ParamStyle: TypeAlias = Literal[
    "simple",
    "label",
    "matrix",
    "form",
    "spaceDelimited",
    "pipeDelimited",
    "deepObject",
    "cookie",
    "querystring",
]
"""How a parameter's value is serialized (OpenAPI "Style Values", S12.1); `querystring`: the
value is the whole query string (an OpenAPI 3.2 `in: querystring` parameter, S26.4)."""

Style: TypeAlias = Literal["nested", "flat"]
"""A tool's input style (S2): `nested` (one object per channel) or `flat`."""

BodyEncoding: TypeAlias = Literal["json", "form", "multipart", "text", "binary", "yaml", "items"]
"""How a body's value becomes bytes (S17): JSON, `application/x-www-form-urlencoded`,
`multipart/form-data`, `text/*`, raw bytes (a whole binary body), YAML (as JSON text,
S17.7), or a sequence of items (JSON Lines, JSON text sequences: S26.6). A media type none of these can carry is never planned (S17.9)."""

BodyShape: TypeAlias = Literal["hoisted", "wrapped", "none"]
"""How a tool's body travels: `hoisted` (its properties are top-level arguments), `wrapped`
(one `body` argument holds it), or `none` (the tool has no body argument)."""

Level: TypeAlias = Literal["error", "warning", "info", "debug"]
"""The level of a diagnostic."""

SecurityKind: TypeAlias = Literal["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"]
"""The `type` of an OpenAPI security scheme (S18.1)."""


PARAMETER_CHANNELS: tuple[Channel, ...] = ("path", "query", "header", "cookie")

#: S3.1: the nested argument name of each channel.
CHANNEL_ARGUMENT: Mapping[Channel, str] = {
    "path": "pathParams",
    "query": "queryParams",
    "body": "body",
    "header": "headers",
    "cookie": "cookies",
}

#: S3.1 / S4.1: the order channels appear in, nested and flat.
NESTED_ORDER: tuple[Channel, ...] = ("path", "query", "body", "header", "cookie")


@dataclass(frozen=True, slots=True)
class Parameter:
    """One operation parameter after S1.1 merging, `$ref` resolution and conversion."""

    name: str
    channel: Channel
    schema: Schema
    required: bool
    description: str | None = None
    style: ParamStyle | None = None
    explode: bool | None = None
    allow_reserved: bool = False
    content_type: str | None = None
    """Set when the parameter is described by `content` instead of `schema` (serialized as JSON)."""
    dialect: str = "https://json-schema.org/draft/2020-12/schema"
    """The dialect of its schema (S1.7): its own `$schema`, else the document's."""


@dataclass(frozen=True, slots=True)
class Body:
    """One request content type of an operation (S8.2)."""

    content_type: str
    schema: Schema | None
    """The converted body schema, refs pointing into `$defs`; `None` when the media type has none."""
    required: bool
    dialect: str
    """The body's dialect (S1.7), one of `toolshape.model._dialects.DIALECTS`."""
    encoding: Mapping[str, Mapping[str, Unchecked]] = field(default_factory=dict)
    """S17.3, S17.4: the media type's `encoding` map, per property (`contentType`, `style`,
    `explode`, `allowReserved`), as checked when read."""


@dataclass(frozen=True, slots=True)
class SecurityScheme:
    """One security scheme of an operation, and where its credential goes (S18.1)."""

    name: str
    """The scheme's name in `components.securitySchemes` (what `credentials` keys use)."""
    kind: SecurityKind
    location: Literal["header", "query", "cookie"] | None
    """Where the credential travels; None for `mutualTLS` (nothing a request carries)."""
    parameter: str | None
    """The header (lower case), query or cookie name: an `apiKey`'s `name`, `authorization`
    for the others; None for `mutualTLS`."""
    scheme: str | None = None
    """The `Authorization` scheme, lower case: `http`'s own (`bearer`, `basic`, `digest`),
    `bearer` for `oauth2` and `openIdConnect`; None for `apiKey` and `mutualTLS`."""
    token_url: str | None = None
    """S27.5: an `oauth2` scheme's `clientCredentials` flow's `tokenUrl`, as written; None
    without one."""
    scopes: tuple[str, ...] = ()
    """S27.5: the scopes the operation's security requirement names for this scheme."""

    def to_dict(self) -> dict[str, Json]:
        """The scheme as plain data (S15)."""
        return {
            "name": self.name,
            "type": self.kind,
            "in": self.location,
            "parameter": self.parameter,
            "scheme": self.scheme,
            "tokenUrl": self.token_url,
            "scopes": list(self.scopes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> SecurityScheme:
        """Load a scheme written by `to_dict`."""
        return cls(
            data["name"],
            data["type"],
            data["in"],
            data["parameter"],
            data["scheme"],
            data.get("tokenUrl"),
            tuple(data.get("scopes", ())),
        )


Security: TypeAlias = tuple[tuple[SecurityScheme, ...], ...]
"""S18.1: an operation's security alternatives, in order; each is the schemes that must all be
satisfied. `((),)` (one empty alternative) is "no credential needed"."""

NO_SECURITY: Security = ((),)


#: S16.7: shaped definitions shared across the tools of one document: `(id(definition), hops)`
#: -> `(definition, its shape view, the references in that view)` (the definition kept alive,
#: so its `id` stays its own).
ShapeMemo = dict[tuple[int, int, int], tuple[Unchecked, Json, tuple[str, ...], int]]


@dataclass(frozen=True, slots=True)
class Output:
    """S16.3: an operation's output schema, as read (its response view, S16.6), not yet made
    an MCP output schema."""

    schema: Schema
    defs: Mapping[str, Schema]
    dialect: str
    status: str
    """The response it came from (`200`, `2XX`)."""
    content_type: str
    shapes: ShapeMemo = field(default_factory=dict, compare=False, repr=False)
    """S16.7: the shape views of the document's definitions, shared by its tools (one dict per
    document)."""
    items: bool = False
    """S26.6: `schema` is a sequential answer's `itemSchema`: the answer is a sequence of
    items (`content_type` one of `SEQUENTIAL`)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One method of one path, read out of a document (S1)."""

    path: str
    method: str
    operation_id: str | None
    parameters: tuple[Parameter, ...]
    bodies: tuple[Body, ...]
    defs: Mapping[str, Schema]
    """Every component the parameters and bodies reference, bundled by name (S4.4)."""
    pointer: str
    """The JSON pointer of the operation inside its document (`/paths/~1things/post`)."""
    extensions: Mapping[str, Json]
    """The operation's `x-` keys, for S2.2."""
    summary: str | None = None
    """S16.1: the operation's `summary`."""
    description: str | None = None
    """S16.1: the operation's `description`."""
    deprecated: bool = False
    tags: tuple[str, ...] = ()
    """The operation's `tags` (the text ones), for search (S23.7)."""
    output: Output | None = None
    """S16.3: the output schema from the first JSON success response, when there is one."""
    output_problem: str | None = None
    """S16.3: why the response schema could not be read (the tool then has no output schema)."""
    read_only: tuple[str, ...] = ()
    """S16.6: the `readOnly` properties the request view left out, by name."""
    foreign_patterns: tuple[str, ...] = ()
    """Patterns in its schemas that Python's `re` can't compile (ECMA-262 only, like `\\p{L}`)."""
    slow_patterns: tuple[str, ...] = ()
    """Patterns in its schemas with nested quantifiers, which can backtrack catastrophically."""
    security: Security = NO_SECURITY
    """S18.1: its security alternatives (its own `security`, else the document's)."""
    ignored_headers: tuple[str, ...] = ()
    """S1.5: header parameters left out because the HTTP client owns them (`Content-Length`)."""


@dataclass(frozen=True, slots=True)
class Wrapped:
    """A body that can't flatten, and why (S5): `reason` is the S9.2 reason text."""

    reason: str
    rule: str
    """The SPEC rule that refused it, such as `S5.1`."""
    keyword: str | None = None
    """The keyword at fault, when one is."""


@dataclass(frozen=True, slots=True)
class Hoisted:
    """A body whose properties become top-level arguments (S4, S5, S6)."""

    properties: Mapping[str, Schema]
    """The body's properties in declaration order (merged across `allOf` branches, S6.1)."""
    required: tuple[str, ...]
    additional_properties: Schema | None
    """The body's `additionalProperties` as written; `None` when absent (S7)."""
    dependent_required: Mapping[str, tuple[str, ...]] | None = None
    """S6.2: copied to the flat root unchanged."""
    composed: bool = False
    """S6.3: the body was merged or carries `dependentRequired`, so the original schema judges
    the routed body a second time."""
    widened: tuple[str, ...] | None = None
    """S11: for a flattened union, the properties the merge widened (None for other bodies)."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A message about planning that is not an error of the plan (S9.1, S5, S2.3)."""

    level: Level
    message: str
    tool: str | None = None
    operation: str | None = None
    location: str | None = None

    def to_dict(self) -> dict[str, Json]:
        """The diagnostic as plain JSON data."""
        return {
            "level": self.level,
            "message": self.message,
            "tool": self.tool,
            "operation": self.operation,
            "location": self.location,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Unchecked]) -> Diagnostic:
        """Load a diagnostic written by `to_dict`."""
        return cls(
            level=data["level"],
            message=data["message"],
            tool=data.get("tool"),
            operation=data.get("operation"),
            location=data.get("location"),
        )


Reading: TypeAlias = Literal["flat", "nested"]
"""How a call's arguments are read (S13.1)."""

Inbound: TypeAlias = Mapping[str, str] | Iterable[tuple[str, str]] | None
"""The inbound headers a caller passes to `Plan.call`: a mapping or `(name, value)` pairs."""
