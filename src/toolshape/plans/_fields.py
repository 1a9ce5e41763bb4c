"""S15.1: the fields of a plan, listed once.

Every serialization of a plan is built from `FIELDS` by name: `Plan.to_dict` and
`Plan.from_dict`, the plan-data schema (`PLAN_SCHEMA`), and a plans file's split of each tool
into its own entry and the fields its API's tools repeat (`Field.shared`). A new plan field is
one row here and one attribute of `Plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from toolshape.model._http import STYLES
from toolshape.model._json import Json, JsonObject, Unchecked, thaw
from toolshape.model._types import Channel, Diagnostic, ParamStyle, Security, SecurityScheme

PLAN_FORMAT = "toolshape.plan/4"
"""The version tag of `Plan.to_dict()` data (S15.1)."""


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


def security_of(requirement: Any) -> Security:
    """The security alternatives of checked plan data's `security`."""
    return tuple(
        tuple(SecurityScheme.from_dict(s) for s in alternative) for alternative in requirement
    )


class Codec(NamedTuple):
    """How one kind of field's value becomes plan data and back."""

    dump: Callable[[Any], Any]
    """Value -> JSON data (a fresh copy)."""
    load: Callable[[Any], Any]
    """Checked JSON data -> value (keeps the data's containers: the loader copies first)."""


def _same(value: Any) -> Any:
    return value


VALUE = Codec(thaw, _same)
"""A JSON value as it is (a string, a boolean, a mapping of JSON)."""
NAMES = Codec(list, tuple)
"""A tuple of names, a list in plan data."""
SCHEMA = Codec(thaw, _same)
"""A schema (or None): a plans file writes its `$defs` once per API (`dump_plans`)."""
ROUTES = Codec(
    lambda routes: [r.to_dict() for r in routes],
    lambda data: tuple(map(ParameterRoute.from_dict, data)),
)
SECURITY = Codec(
    lambda security: [[s.to_dict() for s in alternative] for alternative in security],
    security_of,
)
FIXED = Codec(
    lambda fixed: [f.to_dict() for f in fixed],
    lambda data: tuple(map(FixedArgument.from_dict, data)),
)
DIAGNOSTICS = Codec(
    lambda notes: [d.to_dict() for d in notes],
    lambda data: tuple(map(Diagnostic.from_dict, data)),
)


@dataclass(frozen=True, slots=True)
class Field:
    """One field of plan data: its key, the `Plan` attribute it holds, its JSON Schema."""

    key: str
    attr: str
    schema: Mapping[str, Any]
    codec: Codec = VALUE
    shared: bool = False
    """A plans file writes it once per distinct combination of such fields (`profiles`),
    since an API's tools repeat it; the others are each tool's own entry."""
    table: str | None = field(default=None)
    """The plans-file table a tool's entry names its value from by index (`routes`,
    `securityRequirements`), or None: the value is in the entry itself."""


_STRING_OR_NULL = {"type": ["string", "null"]}
#: Every pattern ends `(?!\n)$`: in Python (which judges plan data) a bare `$` also matches
#: before a final newline, so `"name\n"` would pass.
NO_CONTROL = "^[^\\x00-\\x1f\\x7f]*(?!\\n)$"
TOKEN = "^[!#$%&'*+.^_`|~0-9a-z-]+(?!\\n)$"
MEDIA_TYPE = "^[A-Za-z0-9!#$&^_.+*-]+/[A-Za-z0-9!#$&^_.+*-]+( *;[^\\x00-\\x1f\\x7f]*)?(?!\\n)$"
_MEDIA_OR_NULL = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": MEDIA_TYPE}]}

_ANNOTATIONS = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "readOnlyHint": {"type": "boolean"},
        "destructiveHint": {"type": "boolean"},
        "idempotentHint": {"type": "boolean"},
        "openWorldHint": {"type": "boolean"},
    },
    "additionalProperties": False,
}
_ENCODING = {
    "type": "object",
    "additionalProperties": {
        "type": "object",
        "properties": {
            "contentType": {"type": "string", "minLength": 1, "pattern": NO_CONTROL},
            "style": {"enum": ["form", "spaceDelimited", "pipeDelimited", "deepObject"]},
            "explode": {"type": "boolean"},
            "allowReserved": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
}
_BINARY = {
    "type": "object",
    "additionalProperties": {
        "type": "object",
        "properties": {"mediaType": _MEDIA_OR_NULL, "array": {"type": "boolean"}},
        "required": ["mediaType", "array"],
        "additionalProperties": False,
    },
}
_FIXED = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "value": True,
            "route": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/parameter"}]},
        },
        "required": ["name", "value", "route"],
        "additionalProperties": False,
    },
}

#: The methods a path item has a field for (S26.2: `query` in 3.2), as plan data writes them.
FIXED_METHODS = ("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY")
#: S26.3: another method (`additionalOperations`), sent verbatim: an HTTP token that is none
#: of the fixed ones in any case.
_OTHER_METHOD = {
    "type": "string",
    "pattern": "^(?!("
    + "|".join("".join(f"[{c}{c.lower()}]" for c in m) for m in FIXED_METHODS)
    + ")$)[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}(?!\\n)$",
}

#: Every field of plan data, in the order `Plan.to_dict` writes them (after `format`).
FIELDS: tuple[Field, ...] = (
    Field("name", "name", {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,128}(?!\\n)$"}),
    Field("operationId", "operation_id", _STRING_OR_NULL),
    Field("method", "method", {"anyOf": [{"enum": list(FIXED_METHODS)}, _OTHER_METHOD]}),
    Field("path", "path", {"type": "string", "pattern": "^/[^\\x00-\\x1f\\x7f]*(?!\\n)$"}),
    Field("contentType", "content_type", _MEDIA_OR_NULL, shared=True),
    Field("style", "style", {"enum": ["flat", "nested"]}, shared=True),
    Field("location", "location", {"type": "string"}),
    Field("body", "body", {"enum": ["hoisted", "wrapped", "none"]}, shared=True),
    Field(
        "bodyProperties",
        "body_properties",
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        NAMES,
    ),
    Field(
        "bodyAliases",
        "body_aliases",
        {"type": "object", "additionalProperties": {"type": "string"}},
        shared=True,
    ),
    Field(
        "basePath",
        "base_path",
        {"type": "string", "pattern": "^(/[^\\x00-\\x1f\\x7f?#]*)?(?!\\n)$"},
        shared=True,
    ),
    Field("bodyRequired", "body_required", {"type": "boolean"}, shared=True),
    Field("undeclared", "undeclared", {"enum": ["reject", "body"]}, shared=True),
    Field("validation", "validation", {"enum": ["whole", "per-channel"]}, shared=True),
    Field(
        "parameters",
        "parameters",
        {"type": "array", "items": {"$ref": "#/$defs/parameter"}},
        ROUTES,
        table="routes",
    ),
    Field("inputSchema", "_input", {"type": "object"}, SCHEMA),
    Field("nestedSchema", "_nested", {"type": "object"}, SCHEMA),
    Field("bodyCheck", "_check", {"type": ["object", "boolean", "null"]}, SCHEMA),
    Field("title", "title", _STRING_OR_NULL),
    Field("description", "description", {"type": "string"}),
    Field("tags", "tags", {"type": "array", "items": {"type": "string"}}, NAMES),
    Field("annotations", "annotations", _ANNOTATIONS),
    Field("outputSchema", "_output", {"type": ["object", "null"]}, SCHEMA),
    Field("outputWrapped", "output_wrapped", {"type": "boolean"}, shared=True),
    Field("outputView", "output_view", {"enum": ["shape", "exact", "off"]}, shared=True),
    Field(
        "bodyEncoding",
        "body_encoding",
        {"enum": ["json", "form", "multipart", "text", "binary", "yaml", None]},
        shared=True,
    ),
    Field("encoding", "encoding", _ENCODING),
    Field("binary", "binary", _BINARY, shared=True),
    Field(
        "security",
        "security",
        {
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "items": {"$ref": "#/$defs/scheme"}},
        },
        SECURITY,
        table="securityRequirements",
    ),
    Field("fixed", "fixed", _FIXED, FIXED, shared=True),
    Field("outputItems", "output_items", {"type": "boolean"}, shared=True),
    Field(
        "responseFields",
        "response_fields",
        {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}]},
        shared=True,
    ),
    Field(
        "diagnostics",
        "diagnostics",
        {"type": "array", "items": {"$ref": "#/$defs/diagnostic"}},
        DIAGNOSTICS,
    ),
)

#: The fields holding schemas (the loader checks them as planning would, S1.4, S15.1).
SCHEMA_FIELDS = tuple(f for f in FIELDS if f.codec is SCHEMA)
#: The fields an API's tools repeat, written once per distinct combination in a plans file.
SHARED_FIELDS = tuple(f for f in FIELDS if f.shared)
#: The fields of a tool's own entry in a plans file (the tabled ones by index).
OWN_FIELDS = tuple(f for f in FIELDS if not f.shared)

#: The parts of plan data every field's schema refers to.
DEFS: Mapping[str, Any] = {
    "parameter": {
        "type": "object",
        "properties": {
            "argument": {"type": "string", "minLength": 1},
            "alias": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}]},
            "name": {"type": "string", "minLength": 1, "pattern": NO_CONTROL},
            "in": {"enum": ["path", "query", "header", "cookie"]},
            "style": {"enum": sorted({s for styles in STYLES.values() for s in styles})},
            "explode": {"type": "boolean"},
            "allowReserved": {"type": "boolean"},
            "contentType": _MEDIA_OR_NULL,
            "required": {"type": "boolean"},
        },
        "required": ["argument", "name", "in", "style", "explode"],
        "additionalProperties": False,
    },
    "scheme": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "type": {"enum": ["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"]},
            "in": {"enum": ["header", "query", "cookie", None]},
            "parameter": {
                "anyOf": [
                    {"type": "null"},
                    {"type": "string", "minLength": 1, "pattern": NO_CONTROL},
                ]
            },
            "scheme": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": TOKEN}]},
            "tokenUrl": {
                "anyOf": [
                    {"type": "null"},
                    {"type": "string", "minLength": 1, "pattern": NO_CONTROL},
                ]
            },
            "scopes": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name", "type", "in", "parameter", "scheme"],
        "additionalProperties": False,
        # S18.1: where each kind's credential goes.
        "oneOf": [
            {
                "properties": {
                    "type": {"const": "apiKey"},
                    "in": {"enum": ["header", "query", "cookie"]},
                    "parameter": {"type": "string"},
                    "scheme": {"type": "null"},
                }
            },
            {
                "properties": {
                    "type": {"const": "http"},
                    "in": {"const": "header"},
                    "parameter": {"const": "authorization"},
                    "scheme": {"type": "string"},
                }
            },
            {
                "properties": {
                    "type": {"enum": ["oauth2", "openIdConnect"]},
                    "in": {"const": "header"},
                    "parameter": {"const": "authorization"},
                    "scheme": {"const": "bearer"},
                }
            },
            {
                "properties": {
                    "type": {"const": "mutualTLS"},
                    "in": {"type": "null"},
                    "parameter": {"type": "null"},
                    "scheme": {"type": "null"},
                }
            },
        ],
    },
    "diagnostic": {
        "type": "object",
        "properties": {
            "level": {"enum": ["error", "warning", "info", "debug"]},
            "message": {"type": "string"},
            "tool": _STRING_OR_NULL,
            "operation": _STRING_OR_NULL,
            "location": _STRING_OR_NULL,
        },
        "required": ["level", "message"],
        "additionalProperties": False,
    },
}
