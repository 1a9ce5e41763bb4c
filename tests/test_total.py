"""S14.4: total — any document, any arguments end in a result or one of the library's own errors.

First the exceptions that once escaped, each from the smallest input that raised it; then a
fuzz over garbage documents and mutated corpus operations.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_documents, make_document
from toolshape import (
    ArgumentError,
    DocumentError,
    Options,
    Plan,
    PlanDataError,
    PlanError,
    Request,
    ToolshapeError,
    ViewError,
    dump_plans,
    error_result,
    load_document,
    load_plans,
    model_tool,
    plan_document,
    plan_operation,
)
from toolshape.flatten._union import merge_union
from toolshape.model._types import Wrapped
from toolshape.views._model_tool import ModelApi


def flat(prop: Any, parameters: list[dict[str, Any]] | None = None) -> Plan:
    doc = make_document({"type": "object", "properties": {"v": prop}}, parameters or [])
    (plan,) = plan_operation(doc, "/search", "post", style="flat")
    return plan


MODEL_APIS: tuple[ModelApi, ...] = ("openai", "anthropic", "gemini")


def ends_well(plan: Plan, arguments: Any) -> Request | ArgumentError:
    try:
        return plan.call(arguments)
    except ArgumentError as error:
        return error


@pytest.mark.parametrize(
    ("step", "value", "accepted"),
    [
        (0.5, 10**400, True),  # the float quotient overflowed: now decided exactly
        (0.1, 10**400, False),  # exactly: 0.1 is not 1/10 in binary, as jsonschema decides
        (0.5, float("inf"), False),  # int(inf) raised OverflowError
        (0.5, float("nan"), False),  # int(nan) raised ValueError
        (3, float("inf"), False),
        (2, 2**2000 + 1, False),
    ],
)
def test_multiple_of_on_huge_and_special_numbers(step: Any, value: Any, accepted: bool) -> None:
    """S14.4: `multipleOf` with huge integers, infinities and NaN is decided, never raised."""
    outcome = ends_well(flat({"multipleOf": step}), {"v": value})
    assert isinstance(outcome, Request) is accepted, outcome


def deep(levels: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    "parameter",
    [
        {"name": "q", "in": "query", "style": "deepObject", "explode": True, "schema": {}},
        {"name": "q", "in": "query", "content": {"application/json": {"schema": {}}}},
        {"name": "q", "in": "header", "schema": {}},
        {"name": "q", "in": "cookie", "schema": {}},
        {"name": "q", "in": "path", "required": True, "schema": {}},
    ],
    ids=["deepObject", "content", "header", "cookie", "path"],
)
def test_five_thousand_deep_values_route_or_are_refused(parameter: dict[str, Any]) -> None:
    """S14.4: a 5,000-deep value in any channel is a request or an argument error."""
    doc = make_document(None, [parameter], method="get")
    (plan,) = plan_operation(doc, next(iter(doc["paths"])), "get", style="flat")
    for value in (deep(5000), [deep(5000)], [[deep(4000)]]):
        assert isinstance(ends_well(plan, {"q": value}), (Request, ArgumentError))


def schema_of_depth(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def in_a_deep_stack(levels: int, work: Any) -> Any:
    """Run `work()` from `levels` Python frames down, as a caller deep in its own code would."""
    if levels == 0:
        return work()
    return in_a_deep_stack(levels - 1, work)


def test_a_deep_schema_copies_compares_and_pickles_from_a_deep_stack() -> None:
    """S14.4, S15: a schema as deep as planning allows (120 levels) copies, serializes, hashes,
    pickles and loads again, even from 300 frames down the caller's stack."""
    plan = flat(schema_of_depth(120))

    def everything() -> Plan:
        assert plan.input_schema == plan.input_schema
        data = plan.to_dict()
        assert Plan.from_dict(json.loads(json.dumps(data))) == plan
        hash(plan)
        loaded: Plan = pickle.loads(pickle.dumps(plan))
        return loaded

    assert in_a_deep_stack(300, everything) == plan


def test_a_schema_deeper_than_planning_allows_is_a_schema_error() -> None:
    """S14.4: past 128 schema levels, planning refuses with an error naming the place."""
    doc = make_document({"type": "object", "properties": {}}, [])
    body = doc["paths"]["/search"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"]["properties"]["v"] = schema_of_depth(300)  # not through deepcopy's recursion
    result = plan_document(doc, style="flat")
    (error,) = result.errors
    assert (error.kind, error.rule) == ("schema", "S14.4")
    assert "is nested too deeply to plan (deeper than 128 schema levels" in error.message


@pytest.mark.parametrize(
    ("prop", "keyword", "wants"),
    [
        ({"minimum": "5"}, "minimum", "a number"),
        ({"multipleOf": 0}, "multipleOf", "a number greater than 0"),
        ({"type": "foo"}, "type", "one of array, boolean, integer"),
        ({"type": "file"}, "type", "one of array, boolean, integer"),  # 3.1: not converted
        ({"enum": 5}, "enum", "an array"),
        ({"$ref": 5}, "$ref", "a string"),
        ({"required": [{}]}, "required", "an array of unique strings"),
        ({"pattern": 5}, "pattern", "a string"),
        ({"maxLength": -1}, "maxLength", "a non-negative integer"),
        ({"allOf": []}, "allOf", "a non-empty array of schemas"),
        ({"items": [{}]}, "items", "a schema (an object or a boolean)"),  # 2020-12
    ],
)
def test_keywords_that_raised_at_call_time_are_planning_errors(
    prop: dict[str, Any], keyword: str, wants: str
) -> None:
    """S1.4: a keyword its meta-schema rejects is a planning error of kind `schema` naming the
    keyword and where it is — never a TypeError, ZeroDivisionError or UnknownType per call."""
    result = plan_document(make_document({"type": "object", "properties": {"v": prop}}, []))
    (error,) = result.errors
    assert (error.kind, error.rule) == ("schema", "S1.4")
    assert (
        f"`{keyword}` at `/paths/~1search/post/requestBody/content/application~1json/schema/properties/v`"
        in error.message
    )
    assert f"must be {wants}" in error.message


def test_a_30_type_file_is_a_binary_string() -> None:
    """S1.4: OpenAPI 3.0 `type: file` (left by Swagger 2.0 converters) is `string`/`binary`."""
    doc = make_document(
        {"type": "object", "properties": {"v": {"type": "file"}}}, [], openapi="3.0.3"
    )
    (plan,) = plan_operation(doc, "/search", "post", style="flat")
    assert plan.input_schema["properties"]["v"]["type"] == "string"


@pytest.mark.parametrize("node", [[], "get", 5, None])
def test_an_operation_that_is_not_an_object_is_a_document_error(node: Any) -> None:
    """S14.4: an operation that is not a mapping is its own planning error (was AttributeError)."""
    result = plan_document({"openapi": "3.1.0", "paths": {"/a": {"get": node}}}, style="flat")
    (error,) = result.errors
    assert error.kind == "document"
    assert "the operation is a" in error.message


def test_a_union_variant_with_list_properties_is_refused_not_raised() -> None:
    """S11, S14.4: `merge_union` on a variant whose `properties` is a list says why."""
    result = merge_union({"oneOf": [{"type": "object", "properties": []}]})
    assert isinstance(result, Wrapped)
    assert "its variant 0 has `properties` that is not an object" in result.reason
    doc = make_document({"oneOf": [{"type": "object", "properties": []}]}, [])
    (error,) = plan_document(doc, style="flat", options=Options.preset(flatten_unions=True)).errors
    assert (error.kind, error.rule) == ("schema", "S1.4")


def test_a_reference_passing_through_itself_is_a_reference_error() -> None:
    """S1.2: `P: {"$ref": "#/components/parameters/P/x"}` was a RecursionError."""
    doc = make_document(None, [{"$ref": "#/components/parameters/P/x"}])
    doc["components"] = {"parameters": {"P": {"$ref": "#/components/parameters/P/x"}}}
    (error,) = plan_document(doc).errors
    assert (error.kind, error.rule) == ("reference", "S1.2")
    assert "passes through itself" in error.message or "cycle" in error.message


def test_error_result_takes_none_and_refuses_nonsense() -> None:
    """S13.6, S14.4: no known version answers as the current protocol; a non-string is an error."""
    error = ArgumentError("t", [])
    assert error_result(error, None)["isError"] is True
    with pytest.raises(ToolshapeError, match="protocol_version must be"):
        error_result(error, 5)  # type: ignore[arg-type]


# -- the fuzz --------------------------------------------------------------------------------

GARBAGE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
KEYWORDS = [
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "const",
    "$ref",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "minimum",
    "multipleOf",
    "pattern",
    "additionalProperties",
    "in",
    "name",
    "schema",
    "style",
    "explode",
    "content",
    "parameters",
    "requestBody",
    "discriminator",
    "$dynamicRef",
    "$id",
    "$schema",
    "format",
    "default",
    "uniqueItems",
    "maxLength",
]


@cache
def corpus_operations() -> list[tuple[dict[str, Any], str, str]]:
    """(document, path, method) for a sample of corpus operations, documents loaded once."""
    rng = random.Random(7)
    out: list[tuple[dict[str, Any], str, str]] = []
    for path in (param.values[0] for param in corpus_documents()):
        document = json.loads(path.read_text(encoding="utf-8"))
        keys = [
            (p, m)
            for p, item in document["paths"].items()
            for m in item
            if m in ("get", "put", "post", "delete", "patch")
        ]
        out.extend((document, p, m) for p, m in rng.sample(keys, 12))
    return out


def mutate(node: Any, rng: random.Random, value: Any) -> Any:
    """`node` with one random place changed: replaced, a keyword set, or a key dropped."""
    if not isinstance(node, (dict, list)) or not node or rng.random() < 0.15:
        return value
    out = copy.copy(node)
    if isinstance(out, dict):
        choice = rng.random()
        if choice < 0.2:
            out[rng.choice(KEYWORDS)] = value
            return out
        if choice < 0.3:
            del out[rng.choice(list(out))]
            return out
        key = rng.choice(list(out))
    else:
        key = rng.randrange(len(out))
    out[key] = mutate(out[key], rng, value)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE, st.sampled_from(["flat", "nested"]), GARBAGE)
def test_mutated_corpus_operations_plan_and_call_totally(
    seed: int, value: Any, style: str, arguments: Any
) -> None:
    """S14.4: a corpus operation with one place mutated plans to tools or ToolshapeErrors, and
    each tool answers any arguments with a Request or an ArgumentError."""
    rng = random.Random(seed)
    document, path, _method = rng.choice(corpus_operations())
    item = mutate(document["paths"][path], rng, value)
    doc = {**document, "paths": {path: item}}
    try:
        result = plan_document(doc, style=style)
    except PlanError:
        return
    for error in result.errors:
        assert isinstance(error, PlanError)
        assert error.message
    for tool in result.tools:
        for call in (
            arguments,
            {"body": arguments},
            dict.fromkeys(("id", "q", "limit"), arguments),
        ):
            assert isinstance(ends_well(tool, call), (Request, ArgumentError))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE, st.sampled_from(["flat", "nested"]), GARBAGE)
@example(71, {"allOf": [True]}, "flat", {})  # the whole corpus: a schema `allOf: [true]`
def test_mutated_corpus_operations_give_model_tools_totally(
    seed: int, value: Any, style: str, arguments: Any
) -> None:
    """S14.4, S22: each tool of a mutated corpus operation is a model tool of every API or a
    `ViewError`, and the model tool answers any arguments — and `null` for each of its
    properties — with a Request or a ToolshapeError."""
    rng = random.Random(seed)
    document, path, _method = rng.choice(corpus_operations())
    item = mutate(document["paths"][path], rng, value)
    try:
        result = plan_document({**document, "paths": {path: item}}, style=style)
    except PlanError:
        return
    for tool in result.tools:
        for api in MODEL_APIS:
            try:
                made = model_tool(tool, api)
            except ViewError:
                continue
            json.dumps(made.definition, allow_nan=False)
            nulls = dict.fromkeys(made.parameters.get("properties", {}))
            for call in (arguments, {"body": arguments}, nulls):
                with contextlib.suppress(ToolshapeError):
                    assert isinstance(made.call(call), Request)


# -- OpenAPI 3.2 (S26): the mutator knows what 3.2 adds ---------------------------------------

KEYWORDS_32 = [
    *KEYWORDS,
    "query",
    "additionalOperations",
    "itemSchema",
    "defaultMapping",
    "mediaTypes",
    "$self",
    "parent",
]
#: Pieces of 3.2 documents the mutator puts in place of a random node (S26.2-S26.8).
FRAGMENTS_32: list[Any] = [
    {"name": "q", "in": "querystring", "content": {"application/json": {"schema": {}}}},
    {
        "name": "q",
        "in": "querystring",
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {"a": {"type": "string"}}}
            }
        },
    },
    {"name": "c", "in": "cookie", "style": "cookie", "schema": {"type": "object"}},
    {"text/event-stream": {"itemSchema": {"type": "object"}}},
    {"application/jsonl": {"itemSchema": {"type": "integer"}}},
    {"application/json-seq": {"itemSchema": True}},
    {"LINK": {"operationId": "linkIt"}, "PURGE": {}},
    {"requestBody": {"content": {"application/json": {"schema": {}}}}},
    {"propertyName": "kind", "defaultMapping": "#/components/schemas/Nope"},
    {"$ref": "#/components/mediaTypes/Missing"},
    "querystring",
    "cookie",
    "QUERY",
]
VALUES_32 = GARBAGE | st.sampled_from(FRAGMENTS_32)


def mutate_32(node: Any, rng: random.Random, value: Any) -> Any:
    """`mutate`, with 3.2's keywords among those it sets."""
    if not isinstance(node, dict) or not node or rng.random() < 0.5:
        return mutate(node, rng, value)
    out = copy.copy(node)
    out[rng.choice(KEYWORDS_32)] = value
    return out


_ITEM = {"type": "object", "properties": {"id": {"type": "integer"}}}
#: A 3.2 document using what 3.2 adds, each path a place for the mutator to start from.
DOCUMENT_32: dict[str, Any] = {
    "openapi": "3.2.0",
    "$self": "https://api.example/openapi.json",
    "info": {"title": "t", "version": "1"},
    "tags": [{"name": "pets", "kind": "nav"}, {"name": "cats", "parent": "pets"}],
    "paths": {
        "/things": {
            "query": {
                "operationId": "findThings",
                "tags": ["cats"],
                "requestBody": {"content": {"application/json": {"schema": _ITEM}}},
            },
            "additionalOperations": {"LINK": {"operationId": "linkThings"}},
        },
        "/search": {
            "get": {
                "operationId": "search",
                "parameters": [
                    {
                        "name": "q",
                        "in": "querystring",
                        "content": {"application/x-www-form-urlencoded": {"schema": _ITEM}},
                    },
                    {"name": "c", "in": "cookie", "style": "cookie", "schema": {}},
                ],
                "responses": {
                    "200": {
                        "description": "lines",
                        "content": {"application/jsonl": {"itemSchema": _ITEM}},
                    }
                },
            }
        },
        "/events": {
            "post": {
                "operationId": "events",
                "parameters": [
                    {
                        "name": "q",
                        "in": "querystring",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                ],
                "requestBody": {"content": {"application/json-seq": {"itemSchema": _ITEM}}},
                "responses": {
                    "200": {
                        "summary": "events",
                        "content": {"text/event-stream": {"$ref": "#/components/mediaTypes/Sse"}},
                    }
                },
            }
        },
        "/pets": {
            "post": {
                "operationId": "addPet",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "oneOf": [{"$ref": "#/components/schemas/Cat"}],
                                "discriminator": {"propertyName": "kind", "defaultMapping": "Pet"},
                            }
                        }
                    }
                },
            }
        },
    },
    "components": {
        "mediaTypes": {"Sse": {"itemSchema": {"type": "object"}}},
        "schemas": {
            "Cat": {"type": "object", "properties": {"kind": {"type": "string"}}},
            "Pet": {"type": "object", "properties": {"kind": {"type": "string"}}},
        },
    },
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9),
    VALUES_32,
    st.sampled_from(["flat", "nested"]),
    GARBAGE,
    VALUES_32,
    st.booleans(),
)
def test_mutated_3_2_operations_plan_call_and_answer_totally(
    seed: int, value: Any, style: str, arguments: Any, again: Any, unions: bool
) -> None:
    """S14.4, S26: a 3.2 document using what 3.2 adds, or a corpus operation made 3.2, mutated
    twice with 3.2's keywords and pieces (querystrings, cookie styles, sequential media,
    additional operations, default mappings, media type references), plans to tools or
    ToolshapeErrors; each tool answers any arguments with a Request or an ArgumentError, and
    any answer, sequential ones too, with a result."""
    rng = random.Random(seed)
    own = [(DOCUMENT_32, path, "") for path in DOCUMENT_32["paths"]]
    document, path, _method = rng.choice(own if rng.random() < 0.5 else corpus_operations())
    item = mutate_32(mutate_32(document["paths"][path], rng, value), rng, again)
    try:
        result = plan_document(
            {**document, "openapi": "3.2.0", "paths": {path: item}},
            style=style,
            options=Options.preset(flatten_unions=unions, on_unflattenable="wrap"),
        )
    except PlanError:
        return
    for error in result.errors:
        assert isinstance(error, PlanError)
    for tool in result.tools:
        answers_totally(tool, arguments)
        for kind in ("application/jsonl", "application/json-seq", "text/event-stream"):
            for body in (
                b'{"a": 1}\n',
                b"\x1e[1\n",
                b"data: x\n\n",
                json.dumps(arguments).encode(),
            ):
                assert isinstance(tool.result(200, [("content-type", kind)], body), dict)


# -- the surfaces added since: Swagger 2.0, YAML text, plans files ------------------------------

SHOP_TEXT = (Path(__file__).parent / "data" / "shop.swagger.yaml").read_text(encoding="utf-8")
SWAGGER_KEYWORDS = [
    *KEYWORDS,
    "swagger",
    "basePath",
    "host",
    "schemes",
    "consumes",
    "produces",
    "definitions",
    "collectionFormat",
    "formData",
    "body",
    "securityDefinitions",
    "responses",
    "allowEmptyValue",
]


@cache
def shop() -> dict[str, Any]:
    document = load_document(SHOP_TEXT)
    return document


def answers_totally(tool: Plan, arguments: Any) -> None:
    """Every call ends in a request or an argument error, every answer in a result."""
    for call in (arguments, {"body": arguments}, dict.fromkeys(("id", "q", "petId"), arguments)):
        assert isinstance(ends_well(tool, call), (Request, ArgumentError))
    with contextlib.suppress(ToolshapeError):
        tool.result(200, [("content-type", "application/json")], b'{"id": 1}')


@pytest.mark.laws
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE, st.sampled_from(["flat", "nested"]), GARBAGE)
def test_mutated_swagger_documents_plan_and_call_totally(
    seed: int, value: Any, style: str, arguments: Any
) -> None:
    """S14.4, S20.3: a Swagger 2.0 document with one place mutated (anywhere: its shared
    parts, `basePath`, a parameter's `name` or `in`) plans to tools or the library's own
    errors, and each tool calls and answers totally."""
    rng = random.Random(seed)
    document = mutate(copy.deepcopy(shop()), rng, value)
    if rng.random() < 0.3 and isinstance(document, dict):
        document[rng.choice(SWAGGER_KEYWORDS)] = value
    try:
        result = plan_document(document, style=style)
    except PlanError:
        return
    assert all(isinstance(error, PlanError) for error in result.errors)
    for tool in result.tools[:5]:
        answers_totally(tool, arguments)


YAML_TOKENS = [
    *("a: ", "- ", "&x ", "*x", "<<: *x", "!!int ", "!!str ", "!!map ", "!!seq ", "!!binary "),
    *("!!float ", "!!omap ", "!!set ", "!!timestamp ", "? ", "{", "}", "[", "]", ", ", "\n"),
    *("  ", "1", "1e400", ".inf", ".nan", "0x1F", "0o17", "~", "true", "on", "2024-01-01"),
    *("'q'", '"\\x00"', "|\n  t", ">\n  t", "%YAML 1.2\n---\n", "--- ", "...", "# c", "\t"),
    *("9" * 4400, "x" * 50, "é", "\x85", "\ufeff"),
]


@pytest.mark.laws
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(YAML_TOKENS), max_size=25), st.integers(0, 10**9))
def test_any_yaml_text_is_a_document_or_a_document_error(tokens: list[str], seed: int) -> None:
    """S24.1, S20.2, S14.4: any text — YAML built from its hardest tokens, or the shop's own
    text with a few characters changed — is a document or a `DocumentError`, and a document
    then plans to tools or the library's own errors."""
    rng = random.Random(seed)
    text = "".join(tokens)
    chars = list(SHOP_TEXT)
    for _ in range(3):
        chars[rng.randrange(len(chars))] = rng.choice(YAML_TOKENS)
    for source in (text, "".join(chars)):
        try:
            document = load_document(source)
        except DocumentError:
            continue
        assert isinstance(document, dict)
        with contextlib.suppress(PlanError):
            plan_document(document)


@pytest.mark.laws
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE)
def test_a_plans_file_with_its_text_damaged_loads_or_is_refused(seed: int, arguments: Any) -> None:
    """S15.1, S14.4: a plans file's text with bytes cut, repeated or changed is loaded or
    refused with `PlanDataError`; what loads calls and answers totally."""
    rng = random.Random(seed)
    result = plan_document(shop(), style=rng.choice(["flat", "nested"]))
    text = bytearray(json.dumps(dump_plans(result)).encode("utf-8"))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text))
        choice = rng.random()
        if choice < 0.4:
            text[at] = rng.randrange(256)
        elif choice < 0.7:
            del text[at : at + rng.randint(1, 20)]
        else:
            text[at:at] = text[rng.randrange(len(text)) :][: rng.randint(1, 40)]
    try:
        loaded = load_plans(bytes(text), lazy=rng.random() < 0.5)
    except PlanDataError:
        return
    for tool in loaded.tools[:5]:
        with contextlib.suppress(PlanDataError):
            answers_totally(tool, arguments)


# -- the model views: linear in the document (S14.4, S22) ------------------------------------------


def view_document(seed: int, size: int, chained: bool) -> dict[str, Any]:
    """A document of `size` definitions, each an object, union, `allOf` or array over earlier
    ones (or itself); `chained`: each a union naming the one before twice (2^size ways)."""
    rng = random.Random(seed)
    defs: dict[str, Any] = {}
    for i in range(size):
        refs = [{"$ref": f"#/components/schemas/D{rng.randrange(i + 1)}"} for _ in range(3)]
        earlier = [{"$ref": f"#/components/schemas/D{rng.randrange(max(i, 1))}"} for _ in range(2)]
        if chained and i:
            before = {"$ref": f"#/components/schemas/D{i - 1}"}
            defs[f"D{i}"] = {"anyOf": [before, before]}
            continue
        shape = rng.randrange(5)
        if shape == 0 or i == 0:
            names = ["a", "b", "c"][: rng.randrange(1, 4)]
            properties = {
                n: rng.choice([{"type": "string"}, {"type": ["integer", "null"]}, refs[k]])
                for k, n in enumerate(names)
            }
            required = [n for n in names if rng.random() < 0.5]
            defs[f"D{i}"] = {"type": "object", "properties": properties, "required": required}
        elif shape == 1:  # a union or `allOf` names earlier definitions only (S1.2: no cycle)
            defs[f"D{i}"] = {"anyOf": earlier}
        elif shape == 2:
            defs[f"D{i}"] = {"oneOf": [earlier[0], {"type": "string"}]}
        elif shape == 3:
            defs[f"D{i}"] = {"type": "array", "items": refs[0]}
        else:
            defs[f"D{i}"] = {"allOf": earlier[:1], "description": "d"}
    body = {"type": "object", "properties": {"v": {"$ref": f"#/components/schemas/D{size - 1}"}}}
    return make_document(body, [], components={"schemas": defs})


def nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(nodes(v) for v in value)
    return 1


#: The work a view may do per node of its document, and in all (the Gemini view's budget of
#: about 100,000 bytes, at 8 bytes or more a node).
WORK_PER_NODE, WORK_CEILING = 40, 20_000


@pytest.mark.laws
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 48), st.booleans())
@example(1, 48, True)  # each definition a union naming the one before twice: 2^48 ways
def test_a_view_works_in_proportion_to_its_document(seed: int, size: int, chained: bool) -> None:
    """S14.4, S22 (findings 4, 15): the OpenAI and Gemini views call their walkers, the null
    check and the kind check a bounded number of times per node of the document (OpenAI's
    strict view took time exponential in it), counted, not timed."""
    from toolshape.views import _gemini, _shapes, _strict

    document = view_document(seed, size, chained)
    (plan,) = plan_document(document, style="flat").tools
    calls = 0

    def counted(function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return function(*args, **kwargs)

        return wrapper

    patches = [
        (_shapes, "accepts_null"),
        (_shapes, "view_kinds"),
        (_strict, "accepts_null"),
        (_gemini, "accepts_null"),
        (_strict.Strict, "view"),
        (_gemini.Gemini, "view"),
    ]
    with pytest.MonkeyPatch.context() as patch:
        for owner, name in patches:
            patch.setattr(owner, name, counted(getattr(owner, name)))
        for api in ("openai", "gemini"):
            calls = 0
            made = model_tool(plan, api)
            json.dumps(made.definition)
            ceiling = WORK_PER_NODE * nodes(document["components"]) + 200
            assert calls <= (ceiling if api == "openai" else max(ceiling, WORK_CEILING)), api
