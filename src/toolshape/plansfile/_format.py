"""S15.1: the plan-data format `toolshape.plan/4` as a JSON Schema (`PLAN_SCHEMA`, built from
the field table), its parts as a plans file holds them (a tool's entry, the fields tools share,
a route, a security requirement), and the checks that make loaded data safe to serve from.

`Plan.from_dict` is an input like any document: a tampered plan must not be able to send a
request the planner would never make (CRLF in a method, an absolute URL as path, a parameter
routed `in: "evil"`), nor fetch anything or raise at call time through its schemas. The envelope
is validated against `PLAN_SCHEMA`; every schema in it against the same keyword rules planning
uses (S1.4), with every reference local and the nesting bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from toolshape.model._dialects import dialect_of
from toolshape.model._errors import PlanDataError
from toolshape.model._http import (
    HTTP_TOKEN,
    IGNORED_HEADERS,
    STYLES,
    client_header,
    template_variables,
)
from toolshape.model._limits import MAX_DATA_DEPTH, MAX_DEPTH
from toolshape.model._pointers import (
    DATA,
    annotation_schemas,
    own_references,
    references,
    subschemas,
)
from toolshape.plans._fields import (
    DEFS,
    FIELDS,
    OWN_FIELDS,
    PLAN_FORMAT,
    SCHEMA_FIELDS,
    SHARED_FIELDS,
)
from toolshape.schema._metaschema import DEFAULT_RULES, RULES, UNPLANNED_DIALECTS, WANTS
from toolshape.schema._validate import Judge

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _object(title: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """A closed 2020-12 object schema with `properties`, each required, and the parts they
    refer to."""
    return {
        "$schema": _DIALECT,
        "title": title,
        "type": "object",
        "properties": dict(properties),
        "required": list(properties),
        "additionalProperties": False,
        "$defs": dict(DEFS),
    }


#: The plan-data format as a JSON Schema (2020-12), one property per field (`FIELDS`).
PLAN_SCHEMA: Mapping[str, Any] = _object(
    f"toolshape plan ({PLAN_FORMAT})",
    {"format": {"const": PLAN_FORMAT}, **{f.key: f.schema for f in FIELDS}},
)

#: An index into one of a plans file's tables.
_INDEX = {"type": "integer", "minimum": 0}

ENTRY_SCHEMA: Mapping[str, Any] = _object(
    "a tool's entry in a toolshape plans file",
    {
        **{
            f.key: {"type": "array", "items": _INDEX}
            if f.key == "parameters"
            else _INDEX
            if f.table
            else f.schema
            for f in OWN_FIELDS
        },
        "profile": _INDEX,
    },
)
"""A tool as a plans file holds it (2020-12): its own fields, its routes and security
requirement named by their indices in the file's tables (`routes`, `securityRequirements`),
the fields tools share by the index of their entry in `profiles`."""

PROFILE_SCHEMA: Mapping[str, Any] = _object(
    "a tool's shared fields in a toolshape plans file",
    {"format": {"const": PLAN_FORMAT}, **{f.key: f.schema for f in SHARED_FIELDS}},
)
"""The fields of plan data an API's tools repeat, as one entry of a plans file's `profiles`."""

REQUIREMENT_SCHEMA: Mapping[str, Any] = {
    "$schema": _DIALECT,
    **PLAN_SCHEMA["properties"]["security"],
    "$defs": dict(DEFS),
}
"""A security requirement (a plan's `security`) on its own (2020-12)."""


@cache
def _plan_judge() -> Judge:
    """`PLAN_SCHEMA`'s judge, built on first use."""
    return Judge(PLAN_SCHEMA)


def envelope_problem(judge: Judge, data: Any) -> tuple[str, str] | None:
    """The first field of `data` its schema (`judge`'s) rejects and why, or None."""
    found = judge.first(data)
    if not found:
        return None
    where, keyword, message = found[0]
    if keyword == "depth":
        return "", "is nested too deeply"
    field = ".".join(str(p) for p in where) or "(root)"
    return field, f"is not valid: {message[:300]}"


def _refuse(field: str, reason: str) -> PlanDataError:
    return PlanDataError(f"not a toolshape plan: `{field}` {reason}", field=field)


def check_plan_data(data: Any) -> None:
    """Refuse plan data that is not `toolshape.plan/4` or could not be served safely (S15.1).

    Raises:
        PlanDataError: naming the first field at fault.
    """
    if not isinstance(data, Mapping) or data.get("format") != PLAN_FORMAT:
        raise PlanDataError(f"not a toolshape plan: format {other_format(data)}", field="format")
    problem = envelope_problem(_plan_judge(), data) or serving_problem(data)
    if problem is not None:
        raise _refuse(*problem)
    check_schemas((f.key, data[f.key]) for f in SCHEMA_FIELDS)


def check_schemas(schemas: Iterable[tuple[str, Any]]) -> None:
    """`check_schema_data` of each schema field that holds one: `(field, schema)` pairs.

    Raises:
        PlanDataError: naming the first field at fault and the place in it.
    """
    for field, schema in schemas:
        if schema is not None:
            check_schema_data(schema, field)


def serving_problem(data: Any) -> tuple[str, str] | None:
    """The first route, fixed argument or security scheme of schema-valid plan data that
    can't be served: where, and why."""
    for i, route in enumerate(data["parameters"]):
        found = route_problem(route)
        if found is not None:
            return f"parameters.{i}.{found[0]}", found[1]
    fixed = fixed_problem(data)
    if fixed is not None:
        return fixed
    found = requirement_problem(data["security"])
    if found is not None:
        return f"security.{found[0]}", found[1]
    return tool_problem(data)


def tool_problem(data: Any) -> tuple[str, str] | None:
    """What planning refuses of a tool's routes as a whole, for schema-valid plan data (a
    plans file's tool with its tables resolved): where, and why — or None. A path or base
    path naming another host (S20.3), a path route without its `{variable}` or a variable
    without a route (S12.1), a header route OpenAPI ignores (S1.5) or a `Cookie` header
    beside cookie routes (S12.2), a route a credential fills (S18.3). A route's problem is
    named by its place among `parameters` (or the fixed arguments' routes)."""
    if data["path"].startswith("//"):
        return "path", "starts with `//`, which names another host"
    if data["basePath"].startswith("//"):
        return "basePath", "starts with `//`, which names another host"
    if data["outputView"] == "off" and data["outputSchema"] is not None:
        return "outputView", "is 'off', beside an output schema"
    if data["outputItems"] and (data["outputSchema"] is None or data["outputWrapped"]):
        return "outputItems", "is true, but the tool has no output schema of items"
    fields = _fields_problem(data)
    if fields is not None:
        return "responseFields", fields
    fixed = [(f"fixed.{i}.route", f["route"]) for i, f in enumerate(data["fixed"]) if f["route"]]
    routes = [*((f"parameters.{i}", r) for i, r in enumerate(data["parameters"])), *fixed]
    variables = template_variables(data["path"])
    carried = {
        (s["in"], s["parameter"].lower() if s["in"] == "header" else s["parameter"])
        for alternative in data["security"]
        for s in alternative
        if s["type"] == "apiKey"
    }
    cookies = any(route["in"] == "cookie" for _, route in routes)
    queries = [where for where, route in routes if route["in"] == "query"]
    whole = [where for where, route in routes if route["style"] == "querystring"]
    if whole and len(queries) > 1:  # S26.4: the whole query string is one route's
        return f"{whole[0]}.style", "is 'querystring', beside other query routes"
    for where, route in routes:
        reason = _route_set_problem(route, variables, carried, cookies)
        if reason is not None:
            return f"{where}.name", reason
    filled = {route["name"] for _, route in routes if route["in"] == "path"}
    missing = [name for name in variables if name not in filled]
    if missing:
        return "path", f"has `{{{missing[0]}}}`, which no path route fills"
    return None


def _fields_problem(data: Any) -> str | None:
    """S25.7: why a tool's `responseFields` can't be served, or None: it needs the shape
    output schema of an object, and an input property of its own (never a route's or a body
    property's name, which it would take from the request)."""
    name = data["responseFields"]
    if name is None:
        return None
    if data["outputSchema"] is None or data["outputWrapped"] or data["outputView"] != "shape":
        return f"is {name!r}, but the tool has no shape output schema of an object"
    properties = data["inputSchema"].get("properties")
    if not isinstance(properties, Mapping) or name not in properties:
        return f"is {name!r}, which the input schema has no property for"
    taken = {r["alias"] or r["argument"] for r in data["parameters"]}
    if name in taken or name in data["bodyProperties"] or name in data["bodyAliases"]:
        return f"is {name!r}, which is also an argument sent to the API"
    return None


def _route_set_problem(
    route: Any, variables: list[str], carried: set[tuple[str, str]], cookies: bool
) -> str | None:
    """Why one route can't stand among the tool's others, or None (`tool_problem`)."""
    channel, name = route["in"], route["name"]
    if channel == "path" and name not in variables:
        return f"is {name!r}, which has no `{{{name}}}` in the path"
    if channel == "header" and name.lower() == "cookie" and cookies:
        return "is 'Cookie', beside cookie routes: two `cookie` headers"
    if (channel, name.lower() if channel == "header" else name) in carried:
        return f"is {name!r}, which a credential fills"
    return None


def other_format(data: Any) -> str:
    """Why plan data of another format (or none) is refused, and how to rebuild it."""
    shown = data.get("format") if isinstance(data, Mapping) else type(data).__name__
    return (
        f"is {shown!r}, expected {PLAN_FORMAT!r}; plan the document again with this version "
        "of toolshape to rebuild it"
    )


def fixed_problem(data: Any) -> tuple[str, str] | None:
    """The first fixed argument (of plan data, or of the fields tools share) whose route
    breaks its serving rules, or whose value is nested too deeply: where, and why."""
    for i, fixed in enumerate(data["fixed"]):
        if fixed["route"] is not None:
            problem = route_problem(fixed["route"])
            if problem is not None:
                return f"fixed.{i}.route.{problem[0]}", problem[1]
    for i, fixed in enumerate(data["fixed"]):
        if isinstance(fixed["value"], (Mapping, list)):
            reason = _depth_problem(fixed["value"], "")
            if reason is not None:
                return f"fixed.{i}.value", reason
    return None


def requirement_problem(requirement: Any) -> tuple[str, str] | None:
    """S18.1: a schema-valid security requirement's scheme that can't be served — where in
    it, and why — or None."""
    for i, alternative in enumerate(requirement):
        for j, scheme in enumerate(alternative):
            reason = _scheme_problem(scheme)
            if reason is not None:
                return f"{i}.{j}.parameter", reason
    return None


def route_problem(route: Any) -> tuple[str, str] | None:
    """S12.1, S12.2, S1.5: a schema-valid route's field that can't be served, and why: a style
    its channel can't use, a header or cookie name HTTP can't carry, a header the tool's
    content type or credentials own; or None."""
    channel = route["in"]
    if route["style"] not in STYLES[channel]:
        return "style", f"is {route['style']!r}, which {channel} can't use"
    if channel == "header" and route["name"].lower() in IGNORED_HEADERS:
        return "name", f"is {route['name']!r}, a header the tool's content type or credentials own"
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
    if channel == "header" and client_header(name):
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
        leaving = _leaving(node)
        if leaving is not None:
            raise _refuse(field, f"holds the reference `{leaving}`, which leaves the schema")
        if isinstance(node.get("$id"), str) and any(True for _ in references(node)):
            # S1.2: `$id` would re-base the references below it
            raise _refuse(field, f"has `$id` at `{where}` above references it would re-base")
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


def _leaving(node: Mapping[str, Any]) -> str | None:
    """S1.2: a reference written on `node` (or in its extensions) that is not local, or None."""
    for ref in own_references(node):
        if not ref.startswith("#"):
            return ref
    for annotated in annotation_schemas(node):
        for ref in references(annotated):
            if not ref.startswith("#"):
                return ref
    return None


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
