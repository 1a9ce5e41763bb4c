"""S22: model tools — the definition each model API accepts as it is, and calls read back into
the plan's own shape before the document's schemas judge them. Each rule from a small inline
document; pydantic-ai's strict-mode check and google-genai's `FunctionDeclaration` model are
the outside oracles."""

from __future__ import annotations

import io
import json
import random
import sys
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from google.genai import types as genai
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

from tests.conftest import SLICE, corpus_document, whole_corpus
from toolshape import (
    ArgumentError,
    ModelApi,
    Options,
    Plan,
    ToolshapeError,
    ViewError,
    merge_allof,
    model_tool,
    plan_document,
)
from toolshape.views._shapes import TYPED


def plan(body: dict[str, Any], style: str = "flat", **options: Any) -> Plan:
    document = {
        "openapi": "3.1.0",
        "paths": {
            "/things": {
                "post": {
                    "operationId": "make",
                    "summary": "Make a thing",
                    "parameters": [{"name": "dry", "in": "query", "schema": {"type": "boolean"}}],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": body}},
                    },
                }
            }
        },
    }
    (made,) = plan_document(document, style=style, options=Options.preset(**options)).tools
    return made


def strict_compatible(schema: dict[str, Any]) -> bool:
    """pydantic-ai's check (the oracle S22.2 names), with type lists as `anyOf` (the check
    walks only nodes whose `type` is exactly "object" or "array")."""
    transformer = OpenAIJsonSchemaTransformer(as_any_of(schema), strict=None)
    transformer.walk()
    return bool(transformer.is_strict_compatible)


def as_any_of(node: Any) -> Any:
    if isinstance(node, list):
        return [as_any_of(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_any_of(value) for key, value in node.items()}
    kind = out.get("type")
    if isinstance(kind, list) and {"object", "array"} & set(kind):
        rest = {k: v for k, v in out.items() if k != "type"}
        return {"anyOf": [{"type": "null"} if k == "null" else {**rest, "type": k} for k in kind]}
    return out


THING = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "default": "x"},
        "size": {"type": "integer", "minimum": 0},
        "kind": {"type": "string", "enum": ["a", "b"]},
    },
    "required": ["name"],
}


def test_optional_properties_accept_null_which_reads_as_absent() -> None:
    """S22.2, S22.3: every property required, an optional one nullable; `null` reads back as
    absent; the view is strict by pydantic-ai's own check."""
    tool = model_tool(plan(THING), "openai")
    assert tool.strict is True
    assert tool.reasons == ()
    parameters = tool.definition["function"]["parameters"]
    assert tool.definition == {
        "type": "function",
        "function": {
            "name": "make",
            "description": "Make a thing",
            "parameters": parameters,
            "strict": True,
        },
    }
    assert parameters["required"] == ["dry", "name", "size", "kind"]
    assert parameters["additionalProperties"] is False
    assert parameters["properties"]["size"] == {"type": ["integer", "null"], "minimum": 0}
    assert parameters["properties"]["kind"] == {
        "type": ["string", "null"],
        "enum": ["a", "b", None],
    }
    assert strict_compatible(parameters)
    request = tool.call({"dry": None, "name": "nm", "size": None, "kind": "a"})
    assert (request.url, request.body) == ("/things", {"name": "nm", "kind": "a"})


def test_dropped_keywords_are_enforced_after_reading() -> None:
    """S22.2: `minLength`, `default` and the like leave the view; the document still judges."""
    tool = model_tool(plan(THING), "openai")
    name = tool.parameters["properties"]["name"]
    assert name == {"type": "string"}
    with pytest.raises(ArgumentError, match='"n" is too short'):
        tool.call({"dry": None, "name": "n", "size": None, "kind": None})


def test_an_optional_and_nullable_property_is_not_strict() -> None:
    """S22.2: the view could not tell null from absent: `strict: false`, the document's schema
    unchanged, the reason naming where."""
    body = {"type": "object", "properties": {"note": {"type": ["string", "null"]}}}
    made = plan(body)
    tool = model_tool(made, "openai")
    assert tool.strict is False
    assert tool.reasons == (
        "/properties/note: optional and nullable (the view could not tell null from absent)",
    )
    assert tool.parameters == made.input_schema
    assert tool.call({"note": None}).body == {"note": None}  # read as it is: null stays null


def test_a_map_is_a_list_of_pairs_read_back_into_the_object() -> None:
    """S22.2, S22.3: `additionalProperties: <schema>` without properties is `{key, value}`
    pairs; a key given twice is an argument error."""
    body = {
        "type": "object",
        "properties": {"metadata": {"type": "object", "additionalProperties": {"type": "string"}}},
        "required": ["metadata"],
    }
    tool = model_tool(plan(body), "openai")
    assert tool.strict is True
    pairs = tool.parameters["properties"]["metadata"]
    assert pairs["type"] == "array"
    assert pairs["items"]["properties"] == {"key": {"type": "string"}, "value": {"type": "string"}}
    assert strict_compatible(tool.parameters)
    call = {"dry": None, "metadata": [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]}
    assert tool.call(call).body == {"metadata": {"a": "1", "b": "2"}}
    with pytest.raises(ArgumentError) as caught:
        tool.call(
            {"dry": None, "metadata": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}
        )
    assert caught.value.message == (
        "Invalid arguments for tool 'make': metadata.1.key: the key 'a' is given twice"
    )
    with pytest.raises(ArgumentError, match=r"metadata\.b: 2 is not of type \"string\""):
        tool.call({"dry": None, "metadata": [{"key": "b", "value": 2}]})


def test_a_free_form_object_is_its_json_text() -> None:
    """S22.2, S22.3: an open object with no properties and no value schema is a string of its
    JSON text, parsed back; text that is not a JSON object is an argument error."""
    body = {"type": "object", "properties": {"extra": {"type": "object"}}, "required": ["extra"]}
    tool = model_tool(plan(body), "openai")
    assert tool.parameters["properties"]["extra"]["type"] == "string"
    assert tool.call({"dry": None, "extra": '{"a": [1, {"b": null}]}'}).body == {
        "extra": {"a": [1, {"b": None}]}
    }
    for text in ("[1]", "not json", "7"):
        with pytest.raises(ArgumentError, match="extra: the text is not a JSON object"):
            tool.call({"dry": None, "extra": text})


def test_an_open_object_with_properties_is_closed_in_the_view() -> None:
    """S22.2: tighter, never looser: the view closes it; the document would have taken more."""
    body = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    tool = model_tool(plan(body), "openai")
    assert tool.parameters["additionalProperties"] is False
    assert plan(body).call({"a": "x", "more": 1}).body == {"a": "x", "more": 1}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            {"type": "object", "properties": {"any": {}}, "required": ["any"]},
            "/properties/any: an untyped value (strict mode needs every value's type)",
        ),
        (
            {"type": "object", "properties": {"list": {"type": "array"}}, "required": ["list"]},
            "/properties/list: an array of untyped items",
        ),
        (
            {
                "type": "object",
                "properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}]}},
                "required": ["pair"],
            },
            "/properties/pair: a tuple (strict mode types arrays by `items` only)",
        ),
    ],
    ids=["untyped", "untyped-items", "tuple"],
)
def test_what_cant_be_strict_says_why(body: dict[str, Any], reason: str) -> None:
    tool = model_tool(plan(body), "openai")
    assert (tool.strict, tool.reasons) == (False, (reason,))
    assert tool.definition["function"]["strict"] is False


def nested_objects(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"]}
    return schema


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (nested_objects(11), "/: 11 levels of nested objects (strict mode takes 10)"),
        (
            {
                "type": "object",
                "properties": {f"p{i}": {"type": "string"} for i in range(5001)},
                "required": [f"p{i}" for i in range(5001)],
            },
            "/: 5002 properties (strict mode takes 5000)",
        ),
    ],
    ids=["depth", "properties"],
)
def test_openais_size_limits_count(body: dict[str, Any], reason: str) -> None:
    """S22.2: 10 levels of nested objects, 5,000 properties (the flat root is the body's own
    level, and its `dry` one property more)."""
    tool = model_tool(plan(body), "openai")
    assert (tool.strict, tool.reasons) == (False, (reason,))
    smaller = model_tool(plan(nested_objects(10)), "openai")
    assert smaller.strict is True


def test_one_of_becomes_any_of_and_a_union_reads_by_kind() -> None:
    """S22.2: `oneOf` is `anyOf`; an object branch that reads back and a string branch are told
    apart by the value's kind (Stripe's `""`-to-unset unions)."""
    unset = {"type": "string", "enum": [""]}
    options = {"type": "object", "properties": {"color": {"type": "string"}}}
    body = {
        "type": "object",
        "properties": {"opts": {"oneOf": [options, unset]}},
        "required": ["opts"],
    }
    tool = model_tool(plan(body), "openai")
    assert tool.strict is True
    opts = tool.parameters["properties"]["opts"]
    assert "anyOf" in opts
    assert "oneOf" not in opts
    assert tool.call({"dry": None, "opts": {"color": None}}).body == {"opts": {}}
    assert tool.call({"dry": None, "opts": ""}).body == {"opts": ""}


def test_a_nested_all_of_that_merges_is_merged() -> None:
    """S22.2: a nested `allOf` S6.1 could merge is merged in the view."""
    merged = {
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "integer"}}},
        ]
    }
    body = {"type": "object", "properties": {"both": merged}, "required": ["both"]}
    tool = model_tool(plan(body), "openai")
    assert tool.strict is True
    both = tool.parameters["properties"]["both"]
    assert both["properties"] == {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}}


@pytest.mark.parametrize(
    ("member", "strict_reason", "accepted"),
    [
        ({"allOf": [True]}, "an untyped value (strict mode needs every value's type)", True),
        ({"allOf": [False]}, "an untyped value (strict mode needs every value's type)", False),
        (
            {"allOf": [{"type": "string"}, True]},
            "an `allOf` strict mode can't take (",
            True,
        ),
    ],
    ids=["true", "false", "beside-a-schema"],
)
def test_an_all_of_of_boolean_schemas_is_viewed_not_raised(
    member: dict[str, Any], strict_reason: str, accepted: bool
) -> None:
    """S14.4, S22.2: a boolean branch in an `allOf` gives each view (not strict, with its
    reason), never an exception; the document's schema still judges the call."""
    body = {"type": "object", "properties": {"m": member}, "required": ["m"]}
    made = plan(body)
    openai = model_tool(made, "openai")
    assert openai.strict is False
    assert openai.reasons[0].startswith(f"/properties/m: {strict_reason}")
    gemini = model_tool(made, "gemini")
    genai.FunctionDeclaration.model_validate(gemini.definition)
    for tool in (openai, gemini):
        if accepted:
            assert tool.call({"m": "x"}).body == {"m": "x"}
        else:
            with pytest.raises(ArgumentError):
                tool.call({"m": "x"})


def test_look_around_patterns_and_unlisted_formats_leave_the_view() -> None:
    body = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^(?!x)[a-z]+$"},
            "mail": {"type": "string", "format": "email", "pattern": "@"},
            "site": {"type": "string", "format": "uri"},
        },
        "required": ["code", "mail", "site"],
    }
    tool = model_tool(plan(body), "openai")
    properties = tool.parameters["properties"]
    assert properties["code"] == {"type": "string"}
    assert properties["mail"] == {"type": "string", "pattern": "@", "format": "email"}
    assert properties["site"] == {"type": "string"}
    with pytest.raises(ArgumentError, match="does not match"):  # enforced after reading
        tool.call({"dry": None, "code": "xa", "mail": "a@b", "site": "s"})


TREE = {
    "openapi": "3.1.0",
    "paths": {
        "/trees": {
            "post": {
                "operationId": "plant",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Node"}}
                    },
                },
            }
        }
    },
    "components": {
        "schemas": {
            "Node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                },
                "required": ["name", "children"],
            }
        }
    },
}


def test_recursion_keeps_references_in_openai_and_is_cut_in_gemini() -> None:
    """S22.2: references point at `#/$defs/<name>`; S22.5: Gemini inlines them, a recursive one
    cut at its third level into JSON text (read back like a free-form object)."""
    (made,) = plan_document(TREE, style="flat").tools
    openai = model_tool(made, "openai")
    assert openai.strict is True
    assert openai.parameters["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert strict_compatible(openai.parameters)
    gemini = model_tool(made, "gemini")
    genai.FunctionDeclaration.model_validate(gemini.definition)
    level = gemini.parameters["properties"]["children"]["items"]  # followed once ...
    for _ in range(3):  # ... twice, three times, then cut
        level = level["properties"]["children"]["items"]
    assert level == {
        "type": "string",
        "description": "JSON text of the value (nested too deeply to describe here).",
    }
    assert gemini.reasons == (
        "/$defs/Node/properties/children/items: a recursive reference to `Node` is cut into JSON text",
    )
    deep = '{"name": "d", "children": []}'
    leaf = {"name": "c", "children": [deep]}
    call = {
        "name": "a",
        "children": [{"name": "b", "children": [{"name": "b2", "children": [leaf]}]}],
    }
    body = gemini.call(call).body
    assert body["children"][0]["children"][0]["children"][0]["children"] == [
        {"name": "d", "children": []}
    ]


def document_of(body: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A one-operation 3.1 document whose body is `body`, beside the component schemas `defs`."""
    operation = {
        "operationId": "make",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
    }
    return {
        "openapi": "3.1.0",
        "components": {"schemas": defs},
        "paths": {"/things": {"post": operation}},
    }


def test_gemini_views_a_recursive_union_and_reads_a_cut_array_back() -> None:
    """S22.5, S14.4: a union with a recursive branch is viewed (it recursed without end), and a
    cut that stands for an array reads its JSON text back as the array (it read objects only,
    so no call deeper than the cut could be made)."""
    nested = {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/L"}]}}
    words = {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/W"}]}}
    body = {
        "type": "object",
        "properties": {
            "l": {"$ref": "#/components/schemas/L"},
            "w": {"$ref": "#/components/schemas/W"},
        },
        "required": ["l"],
    }
    refs = json.dumps({"L": nested, "W": words}).replace("#/$defs/", "#/components/schemas/")
    (made,) = plan_document(document_of(body, json.loads(refs)), style="flat").tools
    gemini = model_tool(made, "gemini")
    genai.FunctionDeclaration.model_validate(gemini.definition)
    assert gemini.call({"l": [1, [2, [3, "[4, [5]]"]]]}).body == {"l": [1, [2, [3, [4, [5]]]]]}
    with pytest.raises(ArgumentError, match=r"l\.1\.1\.1: the text is not JSON text"):
        gemini.call({"l": [1, [2, [3, "[4"]]]})


def test_a_view_reads_back_values_of_any_depth_or_refuses_them_as_arguments() -> None:
    """S14.4, S22.3: a value 100 levels deep through a chain of reference aliases is read back
    or refused with an `ArgumentError`, as `Plan.call` refuses it (it raised RecursionError)."""
    defs: dict[str, Any] = {
        "N": {
            "type": "object",
            "properties": {"next": {"$ref": "#/components/schemas/A0"}, "n": {"type": "integer"}},
        }
    }
    for i in range(8):
        defs[f"A{i}"] = {
            "$ref": f"#/components/schemas/A{i + 1}" if i < 7 else "#/components/schemas/N"
        }
    body = {"type": "object", "properties": {"root": {"$ref": "#/components/schemas/N"}}}
    (made,) = plan_document(document_of(body, defs), style="flat").tools
    value: Any = {"n": 1, "next": None}
    for _ in range(400):
        value = {"n": 1, "next": value}
    for api in ("openai", "gemini"):
        with pytest.raises(ArgumentError):
            model_tool(made, api).call({"root": value})
    with pytest.raises(ArgumentError):
        made.call({"root": value})


def test_a_union_of_object_references_that_read_back_as_they_are_is_strict() -> None:
    """S22.2 (finding 17): `anyOf` of two references to objects whose reading changes nothing
    is strict, read by kind (it was refused as branches that read back differently)."""
    card = {"type": "object", "properties": {"number": {"type": "string"}}, "required": ["number"]}
    bank = {"type": "object", "properties": {"iban": {"type": "string"}}, "required": ["iban"]}
    body = {
        "type": "object",
        "properties": {
            "source": {
                "anyOf": [
                    {"$ref": "#/components/schemas/Card"},
                    {"$ref": "#/components/schemas/Bank"},
                ]
            }
        },
        "required": ["source"],
    }
    (made,) = plan_document(document_of(body, {"Card": card, "Bank": bank}), style="flat").tools
    openai = model_tool(made, "openai")
    assert openai.reasons == ()
    assert openai.strict is True
    assert strict_compatible(openai.parameters)
    assert openai.call({"source": {"iban": "DE00"}}).body == {"source": {"iban": "DE00"}}


def test_gemini_takes_its_schema_subset_and_nullable() -> None:
    """S22.5: one type (`null` in a list is `nullable`), string enums only, every other keyword
    dropped; the SDK's own model (which forbids unknown keys) takes the definition."""
    body = {
        "type": "object",
        "properties": {
            "note": {"type": ["string", "null"], "maxLength": 5, "pattern": "^a"},
            "level": {"type": "integer", "enum": [1, 2], "exclusiveMinimum": 0},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        },
        "required": ["note"],
    }
    tool = model_tool(plan(body), "gemini")
    genai.FunctionDeclaration.model_validate(tool.definition)
    properties = tool.parameters["properties"]
    assert properties["note"] == {"type": "string", "maxLength": 5, "nullable": True}
    assert properties["level"] == {"type": "integer"}
    assert properties["tags"] == {"type": "array", "items": {"type": "string"}}
    assert properties["choice"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert tool.definition["name"] == "make"
    assert set(tool.definition) == {"name", "description", "parameters"}
    assert tool.call({"note": None, "level": None}).body == {"note": None}  # level: absent


def test_anthropic_takes_the_schema_as_it_is() -> None:
    made = plan(THING)
    tool = model_tool(made, "anthropic")
    assert tool.definition == {
        "name": "make",
        "description": "Make a thing",
        "input_schema": made.input_schema,
    }
    assert tool.call({"name": "nm"}).body == {"name": "nm"}


def test_names_a_model_api_refuses_are_view_errors() -> None:
    """S22.1: tool names `^[a-zA-Z0-9_-]{1,64}$` for every API; Anthropic's property keys
    `^[a-zA-Z0-9_.-]{1,64}$` at any depth; `portable_names=True` fixes a tool name or a
    top-level argument, never a key inside a body."""
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "paths": {
            "/a": {
                "get": {
                    "operationId": "meta.root",
                    "parameters": [
                        {"name": "include[]", "in": "query", "schema": {"type": "string"}}
                    ],
                }
            }
        },
    }
    (dotted,) = plan_document(document, style="flat").tools
    apis: list[ModelApi] = ["openai", "anthropic", "gemini"]
    for api in apis:
        with pytest.raises(ViewError) as caught:
            model_tool(dotted, api)
        assert caught.value.pointer == "/name"
        assert caught.value.message == (
            f"{api} can't take tool 'meta.root': the tool name 'meta.root' at /name does not "
            "match [a-zA-Z0-9_-]{1,64}; plan with portable_names=True (--portable-names) to "
            "make it one"
        )
    document["paths"]["/a"]["get"]["operationId"] = "root"
    (bracketed,) = plan_document(document, style="flat").tools
    with pytest.raises(ViewError) as caught:
        model_tool(bracketed, "anthropic")
    assert (caught.value.pointer, caught.value.portable) == ("/properties/include[]", True)
    portable = Options.preset(portable_names=True)
    (fixed,) = plan_document(document, style="flat", options=portable).tools
    assert model_tool(fixed, "anthropic").definition["input_schema"]["properties"].keys() == {
        "include"
    }
    deep = plan({"type": "object", "properties": {"a b": {"type": "string"}}}, style="nested")
    with pytest.raises(ViewError) as caught:
        model_tool(deep, "anthropic")
    assert caught.value.pointer == "/properties/body/properties/a b"
    assert "does not rename keys inside a body" in caught.value.message
    again = ToolshapeError.from_dict(caught.value.to_dict())
    assert isinstance(again, ViewError)
    assert str(again) == str(caught.value)


def test_an_api_the_library_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="api can't be 'claude'"):
        model_tool(plan(THING), "claude")


def test_the_command_line_prints_the_view(tmp_path: Any) -> None:
    """S22.6: `toolshape plan --json --schema-view openai-strict` prints each tool with the
    view's input schema and the model definitions."""
    import io

    from toolshape.cli import main

    spec = tmp_path / "tree.json"
    spec.write_text(json.dumps(TREE), encoding="utf-8")
    out = io.StringIO()
    assert (
        main(
            ["plan", str(spec), "--json", "--style", "flat", "--schema-view", "openai-strict"],
            out,
            io.StringIO(),
        )
        == 0
    )
    shown = json.loads(out.getvalue())
    (model,) = shown["modelTools"]
    assert model["strict"] is True
    assert shown["tools"][0]["inputSchema"] == model["definition"]["function"]["parameters"]


# -- over the corpus ---------------------------------------------------------------------------

EVERY_OPERATION = Options.preset(
    portable_names=True, on_collision="rename", on_unflattenable="nested"
)


def corpus_paths() -> list[Any]:
    """The slice in the repository, and the whole documents `TOOLSHAPE_CORPUS` names (in place
    of the slice's cut-down copies)."""
    whole = whole_corpus()
    return whole or sorted(SLICE.glob("*.json"))


@pytest.mark.corpus
def test_the_views_over_the_corpus() -> None:
    """S22.1, S22.2, S22.5 over every corpus tool, flat and nested, planned so that every
    operation is a tool: every view it calls strict passes pydantic-ai's strict-mode check, at
    least 90% of all tools are strict; every Gemini definition is one google-genai's model
    takes; every Anthropic name is valid but the keys inside bodies (which `portable_names`
    does not rename)."""
    counts = {"tools": 0, "strict": 0}
    for path in corpus_paths():
        document = corpus_document(path)
        for style in ("flat", "nested"):
            result = plan_document(document, style=style, options=EVERY_OPERATION)
            for made in result.tools:
                counts["tools"] += 1
                openai = model_tool(made, "openai")
                if openai.strict:
                    counts["strict"] += 1
                    assert strict_compatible(openai.parameters), (path.stem, made.name)
                else:
                    assert openai.reasons, (path.stem, made.name)
                genai.FunctionDeclaration.model_validate(model_tool(made, "gemini").definition)
                refused = outcome_of_view(made)
                assert refused is None or not refused.portable, (path.stem, made.name)
    assert counts["strict"] >= 0.9 * counts["tools"], counts


# -- the reading is exact (S22.3), a law over the corpus ------------------------------------------


class Twin:
    """A call in the plan's own shape and its twin in a view's shape, built together from one
    generated value, walking the document's schema (not the library's reading)."""

    def __init__(self, defs: dict[str, Any], rng: random.Random, nulls: bool) -> None:
        self.defs, self.rng, self.nulls = defs, rng, nulls

    def of(self, schema: Any, value: Any) -> tuple[Any, Any]:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.defs[
                schema["$ref"].removeprefix("#/$defs/").replace("~1", "/").replace("~0", "~")
            ]
        if not isinstance(schema, dict):
            return value, value
        if isinstance(schema.get("allOf"), list):
            merged = merge_allof({"type": "object", **schema}, self.defs)
            if isinstance(merged, dict):
                return self.of(merged, value)
            branches = [b for b in schema["allOf"] if set(b) - {"description", "title"}]
            if len(branches) == 1:
                return self.of(branches[0], value)
            return value, value  # an `allOf` no view can merge: left untyped, read as it is
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and "type" not in schema:
                if self.ambiguous(schema[key]):  # S22.3: read by kind only when kinds differ
                    return value, value
                branch = next((b for b in schema[key] if kind_fits(b, value, self.defs)), None)
                return self.of(branch, value) if branch is not None else (value, value)
        if isinstance(value, dict):
            return self.object(schema, value)
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            pairs = [self.of(schema["items"], item) for item in value]
            return [p for p, _ in pairs], [v for _, v in pairs]
        return value, value

    def ambiguous(self, branches: list[Any]) -> bool:
        """Whether two branches of a union are of one kind in a view and one of them is
        reshaped there (a map's pairs, an object's JSON text, optional nulls): the views then
        keep the union as it is."""
        kinds: list[tuple[str, bool]] = []
        for branch in branches:
            while isinstance(branch, dict) and "$ref" in branch:
                branch = self.defs.get(branch["$ref"].removeprefix("#/$defs/"), {})
            if not isinstance(branch, dict):
                return True
            kind = branch.get("type", "object" if "properties" in branch else "any")
            if kind == "object":
                props = branch.get("properties") or {}
                more = branch.get("additionalProperties", True)
                if not props and more is not False:
                    kinds.append(
                        (
                            "array"
                            if isinstance(more, dict) and any(k in more for k in TYPED)
                            else "string",
                            True,
                        )
                    )
                else:
                    kinds.append(("object", True))  # its properties may read back
            elif isinstance(kind, str):
                kinds.append(("number" if kind == "integer" else kind, False))
            else:
                return True
        return any(
            reshaped and sum(1 for k, _ in kinds if k == kind) > 1 for kind, reshaped in kinds
        )

    def object(self, schema: dict[str, Any], value: dict[str, Any]) -> tuple[Any, Any]:
        properties = schema.get("properties") or {}
        more = schema.get("additionalProperties", True)
        if not properties and isinstance(more, dict) and any(k in more for k in TYPED):
            pairs = [(k, self.of(more, v)) for k, v in value.items()]
            return {k: p for k, (p, _) in pairs}, [{"key": k, "value": v} for k, (_, v) in pairs]
        if not properties and more is not False:
            return value, json.dumps(value)
        required = set(schema.get("required", []))
        mine: dict[str, Any] = {}
        theirs: dict[str, Any] = {}
        for name, item in value.items():
            if name not in required and self.rng.random() < 0.3:
                if self.nulls:
                    theirs[name] = None
                continue
            mine[name], theirs[name] = self.of(properties.get(name, True), item)
        if self.nulls:
            theirs.update((name, None) for name in properties if name not in value)
        return mine, theirs


def kind_fits(branch: Any, value: Any, defs: dict[str, Any]) -> bool:
    while isinstance(branch, dict) and "$ref" in branch:
        branch = defs.get(branch["$ref"].removeprefix("#/$defs/"), {})
    if not isinstance(branch, dict):
        return True
    kind = branch.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    if not kinds:
        return True
    actual = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    name = actual.get(type(value), "number")
    return name in kinds or (name == "number" and "integer" in kinds)


def outcome_of_view(made: Plan) -> ViewError | None:
    """The `ViewError` Anthropic's view of `made` raises, or None."""
    try:
        model_tool(made, "anthropic")
    except ViewError as error:
        return error
    return None


def outcome(call: Any) -> Any:
    try:
        request = call()
    except ArgumentError as error:
        return ("refused", error.message)
    return ("request", request.method, request.url, request.headers, request.body)


@pytest.mark.corpus
@pytest.mark.laws
def test_a_view_shaped_twin_routes_to_the_same_request() -> None:
    """S22.3: for calls made from the plan's own schema (every optional property sometimes
    left out), the twin in the strict or Gemini view's shape routes to the identical request;
    and `ModelTool.call` of a view-shaped call is `Plan.call` of its reading, refusals included."""
    from tests.test_drift import Generator, Unable

    checked = 0
    for path in corpus_paths():
        document = corpus_document(path)
        result = plan_document(document, style="flat", options=EVERY_OPERATION)
        for made in result.tools[::3]:
            schema = made.input_schema
            views: list[ModelApi] = ["openai", "gemini"]
            for api in views:
                tool = model_tool(made, api)
                if api == "openai" and not tool.strict:
                    continue
                rng = random.Random(f"{made.name}/{api}")
                try:
                    value = Generator(schema).value(schema)
                except (Unable, KeyError, RecursionError):
                    continue
                mine, theirs = Twin(schema.get("$defs", {}), rng, api == "openai").of(schema, value)
                expected = outcome(partial(made.call, mine))
                if expected[0] != "request":
                    continue
                assert outcome(partial(tool.call, theirs)) == expected, (made.name, api)
                checked += 1
                spoiled = json.loads(json.dumps(theirs).replace('"key": ', '"kee": ', 1))
                assert outcome(partial(tool.call, spoiled)) == outcome(
                    partial(lambda tool, made, v: made.call(tool.read(v)), tool, made, spoiled)
                )
    assert checked >= 20


@pytest.mark.integration
def test_a_new_view_is_one_module_and_one_row(tmp_path: Any) -> None:
    """S22.1, S22.6: a view registered in the table of views (tests/toy_view.py, nothing else
    changed) is made by `model_tool`, printed by `toolshape plan --json --schema-view` and
    served by `toolshape serve --schema-view` (a real stdio client lists and calls it)."""
    from tests import toy_view
    from toolshape.cli import main
    from toolshape.views import VIEWS, schema_views

    toy_view.register()
    try:
        view_is_served(tmp_path, main)
    finally:
        del VIEWS["toy"]  # the table is the process's: other tests see the three views
    assert "toy-view" not in schema_views()


def view_is_served(tmp_path: Any, main: Any) -> None:
    """The toy view, registered, through `model_tool`, `toolshape plan` and `toolshape serve`."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from tests import toy_view
    from tests import upstream as up
    from toolshape.views import VIEWS, schema_views

    assert VIEWS["toy"] is toy_view.TOY
    assert "toy-view" in schema_views()
    made = model_tool(plan(THING), "toy")
    assert made.definition["tool"] == "make"
    assert "description" not in json.dumps(made.parameters)
    with contextmanager(up.running)() as upstream:
        spec = tmp_path / "echo.json"
        spec.write_text(json.dumps(up.document(upstream.base_url)), encoding="utf-8")
        out = io.StringIO()
        assert main(["plan", str(spec), "--json", "--schema-view", "toy-view"], out=out) == 0
        printed = json.loads(out.getvalue())
        assert printed["modelTools"][0]["definition"]["tool"] == "createThing"
        serve = (
            "import sys; from tests import toy_view; toy_view.register(); "
            "from toolshape.cli import main; sys.exit(main(sys.argv[1:]))"
        )
        params = StdioServerParameters(
            command=sys.executable,
            args=["-c", serve, "serve", str(spec), "--schema-view", "toy-view"],
            cwd=str(Path(__file__).parent.parent),
        )

        async def run() -> tuple[Any, Any]:
            async with Client(params) as client:
                listed = await client.list_tools()
                return listed, await client.call_tool("getThing", {"id": "t1"})

        listed, called = anyio.run(run)
    assert all("description" not in json.dumps(t.input_schema) for t in listed.tools)
    assert called.structured_content["path"] == "/things/t1"


# -- S25.3 references inlined ------------------------------------------------------------------


def refs_in(value: Any) -> bool:
    text = json.dumps(value)
    return '"$ref"' in text or '"$defs"' in text


@pytest.mark.parametrize("api", ["inline", "openai", "gemini", "anthropic"])
def test_a_view_with_references_inlined_has_none_and_reads_its_cuts_back(api: str) -> None:
    """S25.3: with `inline_refs` (and the `inline` view, the MCP one inlined) no schema holds a
    `$ref` or `$defs`; a recursive reference is cut at its third level into JSON text, read
    back as the JSON it spells, arrays and objects alike; the OpenAI view stays strict."""
    (made,) = plan_document(TREE, style="flat").tools
    tool = model_tool(made, api, inline_refs=True)
    assert not refs_in(tool.definition)
    assert not refs_in(tool.parameters)
    assert any("recursive reference to `Node` is cut" in reason for reason in tool.reasons)
    if api == "openai":
        assert tool.strict is True
        assert strict_compatible(tool.parameters)
    if api == "gemini":
        genai.FunctionDeclaration.model_validate(tool.definition)
    deep = '{"name": "e", "children": []}'
    call = {
        "name": "a",
        "children": [
            {
                "name": "b",
                "children": [{"name": "c", "children": [{"name": "d", "children": [deep]}]}],
            }
        ],
    }
    body = tool.call(call).body
    level = body["children"][0]["children"][0]["children"][0]
    assert level["children"] == [{"name": "e", "children": []}]
    shallow = {"name": "a", "children": []}
    assert tool.call(shallow).body == made.call(shallow).body


def test_an_inlined_output_schema_cuts_into_any_value() -> None:
    """S25.3: an output schema inlined keeps no `$ref`; its recursion is cut into `{}`."""
    node = {
        "type": "object",
        "properties": {"child": {"$ref": "#/components/schemas/N"}, "n": {"type": "integer"}},
    }
    document = {
        "openapi": "3.1.0",
        "components": {"schemas": {"N": node}},
        "paths": {
            "/n": {
                "get": {
                    "operationId": "getN",
                    "responses": {
                        "200": {
                            "description": "d",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/N"}}
                            },
                        }
                    },
                }
            }
        },
    }
    (made,) = plan_document(document, options=Options.preset(output_schemas="exact")).tools
    tool = model_tool(made, "inline")
    assert tool.output_schema is not None
    assert not refs_in(tool.output_schema)
    assert "{}" in json.dumps(tool.output_schema)


@pytest.mark.corpus
def test_inlined_views_over_the_corpus() -> None:
    """S25.3 over the corpus: every tool's `inline` view and OpenAI view inlined hold no
    reference; a call made from the plan's own schema (reaching no cut) routes to the same
    request through the inlined view; the strict tools inlined stay strict by pydantic-ai's
    check."""
    from tests.test_drift import Generator, Unable

    checked = strict = 0
    every = 4 if whole_corpus() else 1  # the whole corpus, a quarter; the small slice, all
    for path in corpus_paths():
        document = corpus_document(path)
        result = plan_document(document, style="flat", options=EVERY_OPERATION)
        for made in result.tools[::every]:
            inline = model_tool(made, "inline")
            assert not refs_in(inline.parameters), made.name
            openai = model_tool(made, "openai", inline_refs=True)
            assert not refs_in(openai.parameters), made.name
            if openai.strict:
                assert strict_compatible(openai.parameters), made.name
                strict += 1
            schema = made.input_schema
            try:
                value = Generator(schema).value(schema)
            except (Unable, KeyError, RecursionError):
                continue
            expected = outcome(partial(made.call, value))
            if expected[0] == "request":
                assert outcome(partial(inline.call, value)) == expected, made.name
                checked += 1
    assert checked >= 50
    assert strict >= 50
