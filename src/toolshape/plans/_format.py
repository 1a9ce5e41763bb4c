"""S15.1: the plan-data format `toolshape.plan/2`, as a JSON Schema (`PLAN_SCHEMA`), its parts
as a plans file holds them (a tool's entry, its profile, a route, a security requirement), and
the checks that make loaded data safe to serve from.

`Plan.from_dict` is an input like any document: a tampered plan must not be able to send a
request the planner would never make (CRLF in a method, an absolute URL as path, a parameter
routed `in: "evil"`), nor fetch anything or raise at call time through its schemas. The envelope
is validated against `PLAN_SCHEMA`; every schema in it against the same keyword rules planning
uses (S1.4), with every reference local and the nesting bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolshape.model._errors import PlanDataError
from toolshape.model._http import CLIENT_HEADERS, HTTP_TOKEN, STYLES
from toolshape.model._limits import MAX_DATA_DEPTH, MAX_DEPTH
from toolshape.schema._dialects import dialect_of
from toolshape.schema._fastcheck import Check, compile_check
from toolshape.schema._metaschema import DEFAULT_RULES, RULES, UNPLANNED_DIALECTS, WANTS
from toolshape.schema._pointers import DATA, references, subschemas
from toolshape.schema._validate import compile_schema

PLAN_FORMAT = "toolshape.plan/2"
"""The version tag of `Plan.to_dict()` data (S15.1)."""

_STRING_OR_NULL = {"type": ["string", "null"]}
#: Every pattern ends `(?!\n)$`: in Python (which judges plan data) a bare `$` also matches
#: before a final newline, so `"name\n"` would pass.
_NO_CONTROL = "^[^\\x00-\\x1f\\x7f]*(?!\\n)$"
_TOKEN = "^[!#$%&'*+.^_`|~0-9a-z-]+(?!\\n)$"
_MEDIA_TYPE = "^[A-Za-z0-9!#$&^_.+*-]+/[A-Za-z0-9!#$&^_.+*-]+( *;[^\\x00-\\x1f\\x7f]*)?(?!\\n)$"

#: The plan-data format as a JSON Schema (2020-12). Shipped with the package as data.
PLAN_SCHEMA: Mapping[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": f"toolshape plan ({PLAN_FORMAT})",
    "type": "object",
    "properties": {
        "format": {"const": PLAN_FORMAT},
        "name": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,128}(?!\\n)$"},
        "operationId": _STRING_OR_NULL,
        "method": {"enum": ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]},
        "path": {"type": "string", "pattern": "^/[^\\x00-\\x1f\\x7f]*(?!\\n)$"},
        "contentType": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": _MEDIA_TYPE}]},
        "style": {"enum": ["flat", "nested"]},
        "location": {"type": "string"},
        "body": {"enum": ["hoisted", "wrapped", "none"]},
        "bodyProperties": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "bodyRequired": {"type": "boolean"},
        "undeclared": {"enum": ["reject", "body"]},
        "validation": {"enum": ["whole", "per-channel"]},
        "parameters": {"type": "array", "items": {"$ref": "#/$defs/parameter"}},
        "inputSchema": {"type": "object"},
        "nestedSchema": {"type": "object"},
        "bodyCheck": {"type": ["object", "boolean", "null"]},
        "title": _STRING_OR_NULL,
        "description": {"type": "string"},
        "annotations": {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "readOnlyHint": {"type": "boolean"},
                "destructiveHint": {"type": "boolean"},
                "idempotentHint": {"type": "boolean"},
                "openWorldHint": {"type": "boolean"},
            },
            "additionalProperties": False,
        },
        "outputSchema": {"type": ["object", "null"]},
        "outputWrapped": {"type": "boolean"},
        "bodyAliases": {"type": "object", "additionalProperties": {"type": "string"}},
        "basePath": {"type": "string", "pattern": "^(/[^\\x00-\\x1f\\x7f?#]*)?(?!\\n)$"},
        "bodyEncoding": {
            "enum": ["json", "form", "multipart", "text", "binary", "unsupported", None]
        },
        "encoding": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "contentType": {"type": "string", "minLength": 1, "pattern": _NO_CONTROL},
                    "style": {"enum": ["form", "spaceDelimited", "pipeDelimited", "deepObject"]},
                    "explode": {"type": "boolean"},
                    "allowReserved": {"type": "boolean"},
                },
                "additionalProperties": False,
            },
        },
        "binary": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "mediaType": {
                        "anyOf": [{"type": "null"}, {"type": "string", "pattern": _MEDIA_TYPE}]
                    },
                    "array": {"type": "boolean"},
                },
                "required": ["mediaType", "array"],
                "additionalProperties": False,
            },
        },
        "security": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "items": {"$ref": "#/$defs/scheme"}},
        },
        "fixed": {
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
        },
        "diagnostics": {"type": "array", "items": {"$ref": "#/$defs/diagnostic"}},
    },
    "required": [
        "format",
        "name",
        "operationId",
        "method",
        "path",
        "contentType",
        "style",
        "location",
        "body",
        "bodyProperties",
        "bodyRequired",
        "undeclared",
        "validation",
        "parameters",
        "inputSchema",
        "nestedSchema",
        "bodyCheck",
        "title",
        "description",
        "annotations",
        "outputSchema",
        "outputWrapped",
        "bodyAliases",
        "basePath",
        "bodyEncoding",
        "encoding",
        "binary",
        "security",
        "fixed",
        "diagnostics",
    ],
    "additionalProperties": False,
    "$defs": {
        "parameter": {
            "type": "object",
            "properties": {
                "argument": {"type": "string", "minLength": 1},
                "alias": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}]},
                "name": {"type": "string", "minLength": 1, "pattern": _NO_CONTROL},
                "in": {"enum": ["path", "query", "header", "cookie"]},
                "style": {
                    "enum": sorted({s for styles in STYLES.values() for s in styles}),
                },
                "explode": {"type": "boolean"},
                "allowReserved": {"type": "boolean"},
                "contentType": {
                    "anyOf": [{"type": "null"}, {"type": "string", "pattern": _MEDIA_TYPE}]
                },
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
                        {"type": "string", "minLength": 1, "pattern": _NO_CONTROL},
                    ]
                },
                "scheme": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": _TOKEN}]},
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
    },
}

_ENVELOPE = compile_schema(PLAN_SCHEMA)
#: The compiled fast path proves most data valid in microseconds; jsonschema words the error.
_ENVELOPE_FAST = compile_check(PLAN_SCHEMA)


#: An index into one of a plans file's tables.
_INDEX = {"type": "integer", "minimum": 0}

#: The fields of plan data whose values differ from tool to tool, and `method` (a reader of a
#: plans file looks for it beside the path): a tool's entry in a plans file holds these. The
#: others an API's tools repeat: they are a tool's profile, each distinct one written once.
#: Which fields are which decides the size and the speed of a plans file, never a verdict.
_OWN_FIELDS = (
    "name",
    "operationId",
    "method",
    "path",
    "location",
    "title",
    "description",
    "annotations",
    "bodyProperties",
    "inputSchema",
    "nestedSchema",
    "bodyCheck",
    "outputSchema",
    "parameters",
    "security",
    "encoding",
    "diagnostics",
)
PROFILE_FIELDS = tuple(name for name in PLAN_SCHEMA["required"] if name not in _OWN_FIELDS)
"""The fields of plan data a plans file writes in a tool's profile (`profiles`)."""

BY_TABLE = ("parameters", "security", "profile")
"""The fields of a tool's entry in a plans file that name entries of the file's tables by
index (its routes, its security requirement, its profile)."""

OWN_VALUES = tuple(name for name in _OWN_FIELDS if name not in BY_TABLE)
"""The fields of a tool's entry in a plans file that hold its own values (`Plan` is built from
them in this order, beside its routes, security and profile)."""


def _object(schema: Mapping[str, Any], title: str, properties: dict[str, Any]) -> dict[str, Any]:
    """`schema` (`PLAN_SCHEMA`) with other `properties`, each required, and `title`."""
    return {**schema, "title": title, "properties": properties, "required": list(properties)}


def _as_entry(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`PLAN_SCHEMA` as a plans file holds a tool (its entry): its own fields, with its routes,
    security requirement and profile named by their indices in the file's tables (`routes`,
    `securityRequirements`, `profiles`; each entry checked there)."""
    properties = {name: schema["properties"][name] for name in _OWN_FIELDS}
    properties["parameters"] = {"type": "array", "items": _INDEX}
    properties["security"] = _INDEX
    properties["profile"] = _INDEX
    return _object(schema, "a tool's entry in a toolshape plans file", properties)


def _as_profile(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`PLAN_SCHEMA`'s fields that tools repeat, as one entry of a plans file's `profiles`."""
    properties = {name: schema["properties"][name] for name in PROFILE_FIELDS}
    return _object(schema, "a tool's profile in a toolshape plans file", properties)


def _part(schema: Mapping[str, Any], name: str) -> dict[str, Any]:
    """One of `PLAN_SCHEMA`'s `$defs`, as a schema of its own."""
    return {"$schema": schema["$schema"], **schema["$defs"][name]}


ENTRY_SCHEMA: Mapping[str, Any] = _as_entry(PLAN_SCHEMA)
"""A tool as a plans file holds it (2020-12): its own plan data, its routes, security
requirement and profile named by index."""

_ENTRY = compile_schema(ENTRY_SCHEMA)
_ENTRY_FAST = compile_check(ENTRY_SCHEMA)
PROFILE_SCHEMA: Mapping[str, Any] = _as_profile(PLAN_SCHEMA)
"""A tool's profile in a plans file (2020-12): the fields of plan data tools repeat."""

_PROFILE = compile_schema(PROFILE_SCHEMA)
_PROFILE_FAST = compile_check(PROFILE_SCHEMA)
_ROUTE_SCHEMA = _part(PLAN_SCHEMA, "parameter")
_ROUTE = compile_schema(_ROUTE_SCHEMA)
_ROUTE_FAST = compile_check(_ROUTE_SCHEMA)
REQUIREMENT_SCHEMA: Mapping[str, Any] = {
    "$schema": PLAN_SCHEMA["$schema"],
    **PLAN_SCHEMA["properties"]["security"],
    "$defs": PLAN_SCHEMA["$defs"],
}
"""A security requirement (a plan's `security`) on its own (2020-12)."""

_REQUIREMENT = compile_schema(REQUIREMENT_SCHEMA)
_REQUIREMENT_FAST = compile_check(REQUIREMENT_SCHEMA)


def envelope_problem(fast: Check | None, validator: Any, data: Any) -> tuple[str, str] | None:
    """The first field of `data` its schema rejects and why, or None: the compiled fast path
    proves most data valid in microseconds; jsonschema decides the rest and words the error."""
    if fast is not None:
        try:
            if fast(data):
                return None
        except Exception:  # any doubt goes to jsonschema, which decides
            pass
    try:
        error = next(iter(validator.iter_errors(data)), None)
    except RecursionError:
        return "", "is nested too deeply"
    if error is None:
        return None
    field = ".".join(str(p) for p in error.absolute_path) or "(root)"
    return field, f"is not valid: {error.message[:300]}"


def _refuse(field: str, reason: str) -> PlanDataError:
    return PlanDataError(f"not a toolshape plan: `{field}` {reason}", field=field)


def check_plan_data(data: Any) -> None:
    """Refuse plan data that is not `toolshape.plan/1` or could not be served safely (S15.1).

    Raises:
        PlanDataError: naming the first field at fault.
    """
    check_envelope(data)
    check_schemas(zip(SCHEMA_FIELDS, map(data.__getitem__, SCHEMA_FIELDS), strict=True))


def check_schemas(schemas: Iterable[tuple[str, Any]]) -> None:
    """`check_schema_data` of each schema field that holds one: `(field, schema)` pairs.

    Raises:
        PlanDataError: naming the first field at fault and the place in it.
    """
    for field, schema in schemas:
        if schema is not None:
            check_schema_data(schema, field)


#: The fields of plan data that hold schemas.
SCHEMA_FIELDS = ("inputSchema", "nestedSchema", "bodyCheck", "outputSchema")


def check_envelope(data: Any) -> None:
    """`check_plan_data` without the schemas' own checks: the format, the fields, the routes.

    Raises:
        PlanDataError: naming the first field at fault.
    """
    if not isinstance(data, Mapping) or data.get("format") != PLAN_FORMAT:
        raise PlanDataError(f"not a toolshape plan: format {_other_format(data)}", field="format")
    problem = envelope_problem(_ENVELOPE_FAST, _ENVELOPE, data) or _serving_problem(data)
    if problem is not None:
        raise _refuse(*problem)


def _serving_problem(data: Any) -> tuple[str, str] | None:
    """The first route, fixed argument or security scheme of schema-valid plan data that
    can't be served: where, and why."""
    for i, route in enumerate(data["parameters"]):
        found = _route_problem(route)
        if found is not None:
            return f"parameters.{i}.{found[0]}", found[1]
    fixed = _fixed_problem(data)
    if fixed is not None:
        return fixed
    found = _requirement_problem(data["security"])
    return None if found is None else (f"security.{found[0]}", found[1])


def check_entry(data: Any) -> None:
    """`check_envelope` of a tool's entry in a plans file (`ENTRY_SCHEMA`): its own fields;
    its routes, security requirement and profile are indices, each entry they name checked
    in its table (`route_problem`, `requirement_problem`, `profile_problem`).

    Raises:
        PlanDataError: naming the first field at fault.
    """
    problem = envelope_problem(_ENTRY_FAST, _ENTRY, data)
    if problem is not None:
        raise _refuse(*problem)


def route_problem(route: Any) -> tuple[str, str] | None:
    """Why `route` (a plans file's `routes` entry) can't be served — the field at fault
    (`(root)` for the whole) and the reason — or None: its schema, then its serving rules."""
    return envelope_problem(_ROUTE_FAST, _ROUTE, route) or _route_problem(route)


def requirement_problem(requirement: Any) -> tuple[str, str] | None:
    """Why `requirement` (a plans file's `securityRequirements` entry: a plan's `security`)
    can't be served — the field at fault (`(root)` for the whole) and the reason — or None."""
    problem = envelope_problem(_REQUIREMENT_FAST, _REQUIREMENT, requirement)
    return problem or _requirement_problem(requirement)


def profile_problem(profile: Any) -> tuple[str, str] | None:
    """Why `profile` (a plans file's `profiles` entry: the fields of plan data many tools
    repeat) can't be served — the field at fault (`(root)` for the whole) and the reason —
    or None."""
    if isinstance(profile, Mapping) and profile.get("format") != PLAN_FORMAT:
        return "format", _other_format(profile)
    return envelope_problem(_PROFILE_FAST, _PROFILE, profile) or _fixed_problem(profile)


def _other_format(data: Any) -> str:
    """Why plan data of another format (or none) is refused, and how to rebuild it."""
    shown = data.get("format") if isinstance(data, Mapping) else type(data).__name__
    return (
        f"is {shown!r}, expected {PLAN_FORMAT!r}; plan the document again with this version "
        "of toolshape to rebuild it"
    )


def _fixed_problem(data: Any) -> tuple[str, str] | None:
    """The first fixed argument's route that breaks its serving rules, or value nested too
    deeply: where, and why."""
    for i, fixed in enumerate(data["fixed"]):
        if fixed["route"] is not None:
            problem = _route_problem(fixed["route"])
            if problem is not None:
                return f"fixed.{i}.route.{problem[0]}", problem[1]
    for i, fixed in enumerate(data["fixed"]):
        if isinstance(fixed["value"], (Mapping, list)):
            reason = _depth_problem(fixed["value"], "")
            if reason is not None:
                return f"fixed.{i}.value", reason
    return None


def _requirement_problem(requirement: Any) -> tuple[str, str] | None:
    """S18.1: a schema-valid security requirement's scheme that can't be served, and why."""
    for i, alternative in enumerate(requirement):
        for j, scheme in enumerate(alternative):
            reason = _scheme_problem(scheme)
            if reason is not None:
                return f"{i}.{j}.parameter", reason
    return None


def _route_problem(route: Any) -> tuple[str, str] | None:
    """S12.1, S12.2: a schema-valid route's field that can't be served, and why: a style its
    channel can't use, a header or cookie name HTTP can't carry."""
    channel = route["in"]
    if route["style"] not in STYLES[channel]:
        return "style", f"is {route['style']!r}, which {channel} can't use"
    problem = _http_name_problem(channel, route["name"])
    return None if problem is None else ("name", problem)


def _scheme_problem(scheme: Any) -> str | None:
    """S18.1: why a schema-valid scheme's `parameter` can't be served, if it can't."""
    if scheme["in"] is None:
        return None
    return _http_name_problem(scheme["in"], scheme["parameter"])


def _http_name_problem(channel: str, name: str) -> str | None:
    """S12.2: a header or cookie name is an HTTP token, and no header the client owns."""
    if channel in ("header", "cookie") and not HTTP_TOKEN.match(name):
        return f"{name!r} is not an HTTP token"
    if channel == "header" and name.lower() in CLIENT_HEADERS:
        return f"{name!r} is a header the client owns"
    return None


def rules_of(schema: Any) -> Mapping[str, Any]:
    """The keyword rules of the dialect a schema's root declares (2020-12 by default)."""
    declared = schema.get("$schema") if isinstance(schema, Mapping) else None
    known = dialect_of(declared) if isinstance(declared, str) else None
    return RULES[known.uri] if known else DEFAULT_RULES


def check_schema_data(
    schema: Any, field: str, *, rules: Mapping[str, Any] = DEFAULT_RULES, depth: int = 0
) -> None:
    """A loaded schema is one planning could have made: keyword values its meta-schema
    accepts (S1.4), only references inside it (S1.2), nesting within the planning bounds.

    `rules` and `depth` place a piece checked on its own (a shared `$defs` entry) where its
    root would: under the root's dialect, one level down.

    Raises:
        PlanDataError: naming the field and the place in it.
    """
    for ref in references(schema):
        if not ref.startswith("#"):
            raise _refuse(field, f"holds the reference `{ref}`, which leaves the schema")
    stack: list[tuple[Any, str, int, Mapping[str, Any]]] = [(schema, "", depth, rules)]
    while stack:
        node, where, depth, rules = stack.pop()
        if not isinstance(node, Mapping):
            if not isinstance(node, bool):
                raise _refuse(
                    field, f"holds a {type(node).__name__} at `{where}` where a schema goes"
                )
            continue
        if depth > MAX_DEPTH:
            raise _refuse(field, f"is nested deeper than {MAX_DEPTH} schema levels at `{where}`")
        declared = node.get("$schema")
        if isinstance(declared, str):
            if UNPLANNED_DIALECTS.match(declared):
                raise _refuse(field, f"declares the dialect {declared!r} at `{where}`")
            known = dialect_of(declared)
            rules = RULES[known.uri] if known else rules
        for key, value in node.items():
            rule = rules.get(key)
            if rule is not None and not rule(value):
                raise _refuse(field, f"has `{key}` at `{where}` that is not {WANTS[rule]}")
            if key in DATA and isinstance(value, (Mapping, list)):
                _check_data_depth(value, field, f"{where}/{key}")
        stack.extend((sub, where + "/…", depth + 1, rules) for sub in subschemas(node))


def _check_data_depth(value: Any, field: str, where: str) -> None:
    reason = _depth_problem(value, where)
    if reason is not None:
        raise _refuse(field, reason)


def _depth_problem(value: Any, where: str) -> str | None:
    """Why a data value (`const`, `enum`, a fixed argument's) can't be served: nested too
    deeply to judge."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DATA_DEPTH:
            return f"holds a value nested deeper than {MAX_DATA_DEPTH} at `{where}`"
        children = node.values() if isinstance(node, Mapping) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (Mapping, list)))
    return None
