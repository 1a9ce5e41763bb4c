"""S15.1: the plan-data format `toolshape.plan/1`, as a JSON Schema, and the checks that make
loaded data safe to serve from.

`Plan.from_dict` is an input like any document: a tampered plan must not be able to send a
request the planner would never make (CRLF in a method, an absolute URL as path, a parameter
routed `in: "evil"`), nor fetch anything or raise at call time through its schemas. The envelope
is validated against `PLAN_SCHEMA`; every schema in it against the same keyword rules planning
uses (S1.4), with every reference local and the nesting bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any, Literal

from toolshape._dialects import dialect_of
from toolshape._errors import PlanDataError
from toolshape._fastcheck import Check, compile_check
from toolshape._http import CLIENT_HEADERS, HTTP_TOKEN, STYLES
from toolshape._limits import MAX_DATA_DEPTH, MAX_DEPTH
from toolshape._metaschema import DEFAULT_RULES, RULES, UNPLANNED_DIALECTS, WANTS
from toolshape._pointers import DATA, references, subschemas
from toolshape._validate import compile_schema

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


def _without_parts(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`PLAN_SCHEMA` with each route and each security scheme left unchecked (`Parts` proves
    them), every other field as it is."""
    properties = dict(schema["properties"])
    properties["parameters"] = {"type": "array"}
    properties["security"] = {**properties["security"], "items": {"type": "array"}}
    return {**schema, "properties": properties}


def _part(schema: Mapping[str, Any], name: str) -> dict[str, Any]:
    """One of `PLAN_SCHEMA`'s `$defs`, as a schema of its own."""
    return {"$schema": schema["$schema"], **schema["$defs"][name]}


def _fields(schema: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """An object schema's check of the fields `names` alone, each required."""
    return {
        "$schema": schema["$schema"],
        "type": "object",
        "properties": {name: schema["properties"][name] for name in names},
        "required": list(names),
        "$defs": schema["$defs"],
    }


_TOOL = _without_parts(PLAN_SCHEMA)
_TOOL_FAST = compile_check(_TOOL)
_ROUTE_FAST = compile_check(_part(PLAN_SCHEMA, "parameter"))
_SCHEME_FAST = compile_check(_part(PLAN_SCHEMA, "scheme"))

#: The fields of plan data whose values differ from tool to tool; an API's tools repeat the
#: values of every other field (`Parts` proves each distinct combination once). Which fields
#: are which decides the speed of loading, never a verdict.
_OWN_FIELDS = (
    "name",
    "operationId",
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


def _typed(schema: Mapping[str, Any]) -> bool:
    """A schema of nothing but types, `integer` not among them (`1.5` and `1.0` are both
    floats): a value's Python type alone decides its verdict."""
    kinds = schema.get("type")
    return schema.keys() == {"type"} and "integer" not in (
        kinds if isinstance(kinds, list) else [kinds]
    )


#: The own field `Parts` proves whole, once per distinct value (a security requirement: an
#: API's tools repeat a few).
_PROVEN_BY_PARTS = ("security",)


def _proof(name: str) -> Literal["scalar", "container", "typed", "shaped", "parts", "checked"]:
    """How `Parts` proves a field of the tool envelope: a shared `scalar` by its value, a
    shared `container` by its type when empty (a tool with one not empty is checked whole),
    an own field whose value's Python type alone decides (`typed`) by its type, an own object
    of `typed` properties and no others (`shaped`) by its keys and their values' types, any
    other own field `checked` for each tool; the security requirement by `Parts` (`parts`)."""
    schema = _TOOL["properties"][name]
    if name in _PROVEN_BY_PARTS:
        return "parts"
    if name in _OWN_FIELDS:
        if _typed(schema):
            return "typed"
        shaped = (
            schema.keys() == {"type", "properties", "additionalProperties"}
            and schema["type"] == "object"
            and schema["additionalProperties"] is False
            and all(map(_typed, schema["properties"].values()))
        )
        return "shaped" if shaped else "checked"
    return "container" if schema.get("type") in ("object", "array") else "scalar"


_SHARED_SCALARS, _SHARED_CONTAINERS, _TYPED, _SHAPED, _CHECKED = (
    tuple(name for name in _TOOL["required"] if _proof(name) == proof)
    for proof in ("scalar", "container", "typed", "shaped", "checked")
)
_KEYED = itemgetter(*_SHARED_SCALARS, *_SHARED_CONTAINERS, *_TYPED, *_SHAPED)
_KEYED_FAST = compile_check(
    _fields(_TOOL, (*_SHARED_SCALARS, *_SHARED_CONTAINERS, *_TYPED, *_SHAPED))
)
_CHECKED_FAST = compile_check(_fields(_TOOL, _CHECKED))
_SECURITY_FAST = compile_check({"$schema": _TOOL["$schema"], **_TOOL["properties"]["security"]})
#: The tool envelope is proven in these two parts only where it is a plain object of
#: independent fields, each required, no other allowed (else `_TOOL_FAST` proves it whole).
_SPLIT = (
    _KEYED_FAST is not None
    and _CHECKED_FAST is not None
    and _SECURITY_FAST is not None
    and _TOOL.keys() == {*_fields(_TOOL, ()), "title", "required", "additionalProperties"}
    and set(_TOOL["required"]) == set(_TOOL["properties"])
    and _TOOL["additionalProperties"] is False
    and set(_OWN_FIELDS) <= set(_TOOL["required"])
    and len(_SHAPED) == 1
    and set(_PROVEN_BY_PARTS) <= set(_OWN_FIELDS)
)
_FIELD_COUNT = len(_TOOL["required"])
_SCALARS_END = len(_SHARED_SCALARS)
_CONTAINERS_END = _SCALARS_END + len(_SHARED_CONTAINERS)


class Parts:
    """The routes and security schemes of many plans' data (a plans file's: an API's tools
    repeat theirs), each distinct one proven valid and built once.

    Only for data parsed from JSON text: a route's or a scheme's fields are then scalars, and
    two with equal items are the same data where their values are of the same types (`True`
    is `1` to `==`, not to `type`). A route's key is its keys, then its values, then their
    types, in one tuple. A scheme's fields are text or null, which nothing else from JSON
    equals, so its items are its key, and a whole security requirement equal (`==`) to one
    proven is proven: its schemes hold the same text under the same names. A field that is
    no scalar can't be a key: `check_envelope` decides.
    """

    def __init__(self, route: Callable[[Any], Any], scheme: Callable[[Any], Any]) -> None:
        self._build_route = route
        self._build_scheme = scheme
        self._routes: dict[Any, Any] = {}
        self._schemes: dict[Any, Any] = {}
        self._requirements: dict[Any, Any] = {}
        self._last: tuple[Any, Any] = (None, None)  # the last whole requirement, built
        self._envelopes: set[tuple[Any, ...]] = set()  # the shared fields' keys proven

    def proven(self, data: Any) -> tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]] | None:
        """The built routes and security alternatives of plan data the fast paths prove as
        `check_envelope` would accept it, or None: `check_envelope` then decides (and words
        what it refuses). Never raises."""
        try:
            if not self._envelope(data) or data["fixed"]:
                return None  # fixed arguments: rare, `check_envelope` checks them
            known = self._routes
            routes = []
            for route in data["parameters"]:
                key = (*route, *route.values(), *map(type, route.values()))
                found = known.get(key)
                if found is None:
                    found = _proven(
                        known, key, route, _ROUTE_FAST, _route_problem, self._build_route
                    )
                routes.append(found)
            # An API's tools repeat whole security requirements, mostly the one before: that
            # one compared in C, any other by one key for the whole requirement.
            alternatives = data["security"]
            last, security = self._last
            if alternatives != last:
                security = self._security(alternatives)
                self._last = alternatives, security
        except Exception:  # not proven: a part the fast path refused, or any doubt
            return None
        return tuple(routes), security

    def _envelope(self, data: Any) -> bool:
        """Whether the fast paths prove `data`'s envelope (its routes and its security
        requirement aside: `proven` proves those) as `check_envelope` would accept it: the
        fields an API's tools repeat once for each distinct combination of their values, the
        others for each tool.

        Two tools' shared scalars with equal values of the same types are the same JSON, and
        so are two empty containers of the same type: the same verdict. So is an own field
        decided by its type (`typed`), and an object of such properties and no others
        (`shaped`, the annotations) with the same keys whose values have the same types: a
        key of variable length, but equal keys have equal lengths. With every field
        required and no other allowed, the fields are all there when the getter found each
        shared one, the own check each own one, and there are no more of them.

        Raises:
            Exception: any doubt (the caller then leaves `check_envelope` to decide).
        """
        if not _SPLIT:
            return _whole(data)
        values: tuple[Any, ...] = _KEYED(data)
        if len(data) != _FIELD_COUNT or any(values[_SCALARS_END:_CONTAINERS_END]):
            return _whole(data)  # a container not empty
        shaped = values[-1]  # the one field keyed by shape: its keys and their values' types
        if shaped.__class__ is not dict:
            return _whole(data)
        key = (*values[:_SCALARS_END], *map(type, values), *shaped, *map(type, shaped.values()))
        if key not in self._envelopes:
            if not _KEYED_FAST(data):  # type: ignore[misc]
                return False
            self._envelopes.add(key)
        return bool(_CHECKED_FAST(data))  # type: ignore[misc]

    def _security(self, alternatives: Any) -> Any:
        """The built security alternatives of a requirement not the last one seen.

        Raises:
            ValueError: not proven (`check_envelope` then decides and words it).
        """
        whole = tuple([tuple(map(tuple, map(dict.items, a))) for a in alternatives])
        security = self._requirements.get(whole)
        if security is None:
            if not _SECURITY_FAST(alternatives):  # type: ignore[misc]
                raise ValueError("not proven")
            known = self._schemes
            built = []
            for alternative, keys in zip(alternatives, whole, strict=True):
                schemes = []
                for scheme, items in zip(alternative, keys, strict=True):
                    found = known.get(items)
                    if found is None:
                        found = _proven(
                            known, items, scheme, _SCHEME_FAST, _scheme_problem, self._build_scheme
                        )
                    schemes.append(found)
                built.append(tuple(schemes))
            security = self._requirements[whole] = tuple(built)
        return security


def _whole(data: Any) -> bool:
    """Whether the compiled check of the whole tool envelope (routes and schemes aside)
    proves `data`: where the split can't be used."""
    return _TOOL_FAST is not None and _TOOL_FAST(data)


def _proven(
    built: dict[Any, Any],
    key: Any,
    part: Any,
    fast: Check | None,
    problem: Callable[[Any], object],
    build: Callable[[Any], Any],
) -> Any:
    """The built object of a route or scheme (`part`) seen for the first time, proven by its
    `fast` check and its serving rules (`problem`), kept under `key`.

    Raises:
        ValueError: not proven (`check_envelope` then decides and words it).
    """
    if fast is None or not fast(part) or problem(part):
        raise ValueError("not proven")
    found = built[key] = build(part)
    return found


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
        shown = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise PlanDataError(
            f"not a toolshape plan: format is {shown!r}, expected {PLAN_FORMAT!r}; plan the "
            "document again with this version of toolshape to rebuild it",
            field="format",
        )
    problem = envelope_problem(_ENVELOPE_FAST, _ENVELOPE, data)
    if problem is not None:
        raise _refuse(*problem)
    routes = [(f"parameters.{i}", route) for i, route in enumerate(data["parameters"])]
    routes += [
        (f"fixed.{i}.route", fixed["route"])
        for i, fixed in enumerate(data["fixed"])
        if fixed["route"] is not None
    ]
    for where, route in routes:
        problem = _route_problem(route)
        if problem is not None:
            raise _refuse(f"{where}.{problem[0]}", problem[1])
    for i, fixed in enumerate(data["fixed"]):
        if isinstance(fixed["value"], (Mapping, list)):
            _check_data_depth(fixed["value"], f"fixed.{i}.value", "")
    for i, alternative in enumerate(data["security"]):
        for j, scheme in enumerate(alternative):
            reason = _scheme_problem(scheme)
            if reason is not None:
                raise _refuse(f"security.{i}.{j}.parameter", reason)


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
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DATA_DEPTH:
            raise _refuse(field, f"holds a value nested deeper than {MAX_DATA_DEPTH} at `{where}`")
        children = node.values() if isinstance(node, Mapping) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (Mapping, list)))
