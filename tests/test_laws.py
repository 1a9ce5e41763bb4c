"""S14: the laws, as property tests over generated operations and calls."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolshape import (
    NO_BODY,
    ArgumentError,
    Plan,
    Request,
    model_tool,
    plan_document,
    plan_operation,
)
from toolshape.views._read import SAME, Read, kind_of

NAMES = ["a", "b", "c", "id", "body", "limit", "x-k", "Tok", "q_1"]
SCALARS = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "boolean"},
    {},
    {"type": "string", "enum": ["x", "y"]},
]
TEXT = st.text(alphabet="ab/.?#%, &=\n\u00fc", max_size=6)
VALUES = st.one_of(
    TEXT, st.integers(-5, 5), st.booleans(), st.none(), st.sampled_from(["x", "y", ".", ".."])
)
POLICIES = ["absent", False, {"type": "integer"}, {"type": "string"}]


@dataclass
class Operation:
    document: dict[str, Any]
    params: list[dict[str, Any]]
    body: dict[str, Any]
    profile: str
    """The laws hold under both profiles (S10); `legacy` keeps header names as declared."""
    properties: dict[str, Any]
    method: str = "post"
    """`post`; in a 3.2 document also `query` or an additional operation's `LINK` (S26)."""
    """Every body property, wherever the body declares it (`properties`, `allOf` branches)."""


@st.composite
def operations(draw: st.DrawFn) -> Operation:
    names = draw(st.lists(st.sampled_from(NAMES), unique_by=str.lower, min_size=1, max_size=6))
    params: list[dict[str, Any]] = []
    properties: dict[str, Any] = {}
    for name in names:
        where = draw(st.sampled_from(["path", "query", "header", "cookie", "body", "body"]))
        schema = draw(st.sampled_from(SCALARS))
        if where == "body":
            properties[name] = schema
            continue
        if where == "header":
            schema = {"type": "string"}  # header values travel as text
        params.append(
            {
                "name": name,
                "in": where,
                "required": where == "path" or draw(st.booleans()),
                "schema": schema,
            }
        )
    body: dict[str, Any] = {"type": "object", "properties": properties}
    required = [n for n in properties if draw(st.booleans())]
    if required:
        body["required"] = required
    shape = draw(st.sampled_from(["plain", "plain", "allOf", "dependentRequired"]))
    if shape == "allOf":  # S6.1: the properties split over two branches that merge
        names = list(properties)
        cut = draw(st.integers(0, len(names)))
        body = {
            "allOf": [
                {
                    "type": "object",
                    "properties": {n: properties[n] for n in part},
                    "required": [n for n in part if n in required],
                }
                for part in (names[:cut], names[cut:])
            ]
        }
        if draw(st.booleans()):
            body["unevaluatedProperties"] = False  # closes the merged object
    else:
        policy = draw(st.sampled_from(POLICIES))
        if policy != "absent":
            body["additionalProperties"] = policy
        if shape == "dependentRequired" and len(properties) >= 2:  # S6.2: copied to the root
            first, second = draw(st.permutations(list(properties)))[:2]
            body["dependentRequired"] = {first: [second]}
    path = "/t" + "".join(f"/{{{p['name']}}}" for p in params if p["in"] == "path")
    operation: dict[str, Any] = {"operationId": "op", "parameters": params}
    operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    version = draw(st.sampled_from(["3.1.0", "3.2.0"]))  # S26: the laws hold for 3.2 too
    method = "post" if version == "3.1.0" else draw(st.sampled_from(["post", "query", "LINK"]))
    item = (
        {"additionalOperations": {method: operation}} if method == "LINK" else {method: operation}
    )
    if version == "3.2.0":
        for param in params:  # S26.5: cookies in 3.2's own style, where a value can take it
            if param["in"] == "cookie" and param["schema"].get("type") == "integer":
                param["style"] = draw(st.sampled_from(["form", "cookie"]))
    document = {"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {path: item}}
    profile = draw(st.sampled_from(["2026-11-06", "legacy"]))
    return Operation(document, params, body, profile, properties, method)


def arg_name(param: dict[str, Any], profile: str = "2026-11-06") -> str:
    lower = param["in"] == "header" and profile != "legacy"
    return str(param["name"]).lower() if lower else str(param["name"])


@st.composite
def flat_calls(draw: st.DrawFn, op: Operation) -> dict[str, Any]:
    call: dict[str, Any] = {}
    for param in op.params:
        if param["required"] or draw(st.booleans()):
            call[arg_name(param, op.profile)] = (
                draw(TEXT) if param["in"] == "header" else draw(VALUES)
            )
    for name in op.properties:
        if draw(st.booleans()):
            call[name] = draw(VALUES)
    if draw(st.booleans()):
        call[draw(st.sampled_from(["zz", "extra", "authorization"]))] = draw(VALUES)
    return call


@st.composite
def planned_calls(draw: st.DrawFn) -> tuple[Operation, Plan, dict[str, Any]]:
    """A generated operation, its flat plan, and a generated flat call to it."""
    op = draw(operations())
    plan = flat_plan(op)
    assume(plan is not None)
    assert plan is not None
    event(
        f"body: {'allOf' if 'allOf' in op.body else 'dependentRequired' if 'dependentRequired' in op.body else 'plain'}, {plan.body}"
    )
    return op, plan, draw(flat_calls(op))


def twin(op: Operation, call: dict[str, Any], wrapped: bool = False) -> dict[str, Any]:
    """The nested form of a flat call: one object per declared channel. For a tool whose body
    stays wrapped (S5, `legacy`), the flat `body` argument is the nested body; any other key
    stays at the root, where the nested form rejects it as the flat form does."""
    channels = {
        "path": "pathParams",
        "query": "queryParams",
        "header": "headers",
        "cookie": "cookies",
    }
    nested: dict[str, Any] = {channels[p["in"]]: {} for p in op.params}
    if not wrapped:
        nested["body"] = {}
    by_name = {arg_name(p, op.profile): p for p in op.params}
    for key, value in call.items():
        if key in by_name:
            nested[channels[by_name[key]["in"]]][key] = value
        elif not wrapped:
            nested["body"][key] = value
        else:
            nested[key] = value
    return nested


def accepted(plan: Plan, arguments: Any) -> Request | None:
    try:
        return plan.call(arguments)
    except ArgumentError:
        return None


def flat_plan(op: Operation) -> Plan | None:
    result = plan_document(op.document, style="flat", profile=op.profile)  # type: ignore[arg-type]
    return result.tools[0] if result.tools else None


def text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else json.dumps(value)


LAWS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@LAWS
@given(st.data())
def test_nothing_lost(data: st.DataObject) -> None:
    """S14.2: every argument of an accepted call appears exactly once, value unchanged."""
    op, plan, call = data.draw(planned_calls())
    request = accepted(plan, call)
    event("accepted" if request is not None else "rejected")
    if request is None:
        return
    by_name = {arg_name(p, op.profile): p for p in op.params}
    segments = [unquote(s) for s in request.path.split("/")]
    cookie = dict(
        c.split("=", 1) for h, v in request.headers if h == "cookie" for c in v.split("; ")
    )
    body = request.body if request.body is not NO_BODY else {}
    for key, value in call.items():
        param = by_name.get(key)
        if param is None:
            assert body[key] is value
            continue
        where, name = param["in"], param["name"]
        if where != "path" and value in (None, [], {}):
            # S12.1: undefined in RFC 6570, so left out of the request; S14.2 counts it as sent.
            assert name not in {k for k, _ in request.query}
            assert key not in body
            continue
        if where == "path":
            assert segments[
                2 + [p["name"] for p in op.params if p["in"] == "path"].index(name)
            ] == text(value)
        elif where == "query":
            assert [v for k, v in request.query if k == name] == [text(value)]
        elif where == "header":
            assert [v for k, v in request.headers if k == name.lower()] == [value]
        else:
            assert unquote(cookie[name]) == text(value)
        assert key not in body
    assert set(body) == {k for k in call if k not in by_name}


@LAWS
@given(st.data())
def test_flat_and_nested_twin_agree(data: st.DataObject) -> None:
    """S13.1, S14: a flat call and its nested twin give equal requests or are both rejected."""
    op, plan, call = data.draw(planned_calls())
    (nested_plan,) = plan_operation(
        op.document,
        next(iter(op.document["paths"])),
        op.method,
        style="nested",
        profile=op.profile,  # type: ignore[arg-type]
    )
    flat_request = accepted(plan, call)
    nested_request = accepted(nested_plan, twin(op, call, wrapped=plan.body == "wrapped"))
    event("accepted" if flat_request is not None else "rejected")
    assert flat_request == nested_request


@LAWS
@given(st.data())
def test_never_looser_than_the_document(data: st.DataObject) -> None:
    """S14.3: a flat call is accepted only if its nested twin satisfies the original schemas."""
    op, plan, call = data.draw(planned_calls())
    if accepted(plan, call) is None:
        return
    nested = twin(op, call, wrapped=plan.body == "wrapped")
    assert Draft202012Validator(op.body).is_valid(nested["body"])
    for param in op.params:
        channel = {
            "path": "pathParams",
            "query": "queryParams",
            "header": "headers",
            "cookie": "cookies",
        }[param["in"]]
        value = nested[channel].get(arg_name(param, op.profile))
        if value is None and arg_name(param, op.profile) not in nested[channel]:
            assert not param["required"]
        else:
            assert Draft202012Validator(param["schema"]).is_valid(value)


JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
CHANNEL_KEYS = st.sampled_from(
    ["pathParams", "queryParams", "body", "headers", "cookies", "a", "x-k"]
)


@LAWS
@given(st.data())
def test_total_on_arbitrary_arguments(data: st.DataObject) -> None:
    """S14.4: any JSON as arguments ends in a Request or an ArgumentError, nothing else."""
    op = data.draw(operations())
    result = plan_document(op.document, style=data.draw(st.sampled_from(["flat", "nested"])))
    if not result.tools:
        return
    arguments = data.draw(JSON | st.dictionaries(CHANNEL_KEYS, JSON, max_size=4))
    outcome: Request | ArgumentError
    try:
        outcome = result.tools[0].call(arguments)
    except ArgumentError as error:
        outcome = error
    if isinstance(outcome, ArgumentError):
        assert outcome.message.startswith("Invalid arguments for tool 'op'")
    else:
        assert isinstance(outcome, Request)


def test_total_on_huge_and_deep_arguments() -> None:
    """S14.4: huge and deeply nested arguments end in a Request or an ArgumentError."""
    op_doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "paths": {
            "/t": {
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "properties": {"a": {}}}
                            }
                        }
                    }
                }
            }
        },
    }
    (plan,) = plan_operation(op_doc, "/t", "post", style="flat")
    deep: Any = "leaf"
    for _ in range(5000):
        deep = {"a": deep}
    with pytest.raises(ArgumentError, match="nested too deeply"):
        plan.call({"a": deep})  # S14.4: no JSON encoder could send it
    shallow: Any = "leaf"
    for _ in range(200):
        shallow = {"a": shallow}
    assert plan.call({"a": shallow}).body["a"] is shallow
    assert plan.call({"a": "x" * 1_000_000}).body == {"a": "x" * 1_000_000}
    recursive = copy.deepcopy(op_doc)
    recursive["components"] = {
        "schemas": {
            "N": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/N"}}}
        }
    }
    recursive["paths"]["/t"]["post"]["requestBody"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/N"
    }
    (plan,) = plan_operation(recursive, "/t", "post", style="flat")
    with pytest.raises(ArgumentError, match="nested too deeply"):
        plan.call({"a": deep})


def test_total_on_python_values_with_no_json_spelling() -> None:
    """S14.4: a Python value JSON can't spell ends in an ArgumentError, not a TypeError."""
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "paths": {
            "/t/{p}": {
                "get": {"parameters": [{"name": "p", "in": "path", "required": True, "schema": {}}]}
            }
        },
    }
    (plan,) = plan_operation(doc, "/t/{p}", "get", style="flat")
    with pytest.raises(ArgumentError, match="not JSON values"):
        plan.call({"p": {1, 2}})


# -- S25.3: an inlined view's cuts read back to the same request ------------------------------

#: How a definition's member reaches the next definition: by reference, as an array of them,
#: or as a reference or null (a union read by the value's kind).
RECURSIVE = ["ref", "array", "nullable"]


@st.composite
def recursive_documents(draw: st.DrawFn) -> dict[str, Any]:
    """One operation whose body is definition `A`, recursive through itself or through `B`:
    each definition has a `name` and one to three members reaching the next definition."""
    names = draw(st.sampled_from([["A"], ["A", "B"]]))
    schemas = {}
    for i, name in enumerate(names):
        ref = {"$ref": f"#/components/schemas/{names[(i + 1) % len(names)]}"}
        shapes = draw(st.lists(st.sampled_from(RECURSIVE), min_size=1, max_size=3))
        members: dict[str, Any] = {"name": {"type": "string"}}
        for j, shape in enumerate(shapes):
            members[f"m{j}"] = (
                ref
                if shape == "ref"
                else {"type": "array", "items": ref}
                if shape == "array"
                else {"anyOf": [ref, {"type": "null"}]}
            )
        schemas[name] = {"type": "object", "properties": members, "required": ["name"]}
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}
    return {
        "openapi": "3.1.0",
        "paths": {"/t": {"post": {"operationId": "plant", "requestBody": body}}},
        "components": {"schemas": schemas},
    }


def deep_value(schemas: dict[str, Any], name: str, depth: int) -> dict[str, Any]:
    """A value of definition `name`: its first member `depth` levels deep, the others one."""
    out: dict[str, Any] = {"name": f"{name}{depth}"}
    if depth == 0:
        return out
    for j, (member, schema) in enumerate(schemas[name]["properties"].items()):
        if member == "name" or (j > 1 and depth < 7):
            continue
        ref = (
            schema.get("$ref") or schema.get("items", {}).get("$ref") or schema["anyOf"][0]["$ref"]
        )
        inner = deep_value(schemas, ref.rsplit("/", 1)[1], depth - 1 if j == 1 else 0)
        out[member] = [inner] if schema.get("type") == "array" else inner
    return out


def cut_twin(value: Any, read: Read) -> Any:
    """`value`, made for the plan's own schema, as the inlined view takes it: each cut's value
    as its JSON text (the inverse of the inlined view's reading)."""
    if read.kind == "value":
        return json.dumps(value)
    if read.kind == "object" and isinstance(value, dict):
        return {k: cut_twin(v, read.properties.get(k, SAME)) for k, v in value.items()}
    if read.kind == "array" and isinstance(value, list):
        return [cut_twin(v, read.inner or SAME) for v in value]
    if read.kind == "kinds":
        if kind_of(value) in read.kinds:
            return cut_twin(value, read.kinds[kind_of(value)])
        cut = read.kinds.get("string")
        return json.dumps(value) if cut is not None and cut.kind == "value" else value
    assert read.kind in ("same", "object", "array"), read.kind
    return value


@LAWS
@given(recursive_documents(), st.sampled_from(["flat", "nested"]))
def test_an_inlined_views_cuts_read_back_to_the_same_request(
    document: dict[str, Any], style: str
) -> None:
    """S25.3: a call made to an inlined definition routes to the same request as the same call
    made to the view it came from — a value reaching past the recursion cut included, its
    cut part sent as the JSON text the inlined view asks for."""
    (plan,) = plan_document(document, style=style).tools
    inline = model_tool(plan, "inline")
    assert '"$ref"' not in json.dumps(inline.parameters)
    body = deep_value(document["components"]["schemas"], "A", 8)
    value = body if style == "flat" else {"body": body}
    twin = cut_twin(value, inline.inlined)
    assert twin != value  # the value reaches past a cut
    assert inline.call(twin).to_dict() == plan.call(value).to_dict()
