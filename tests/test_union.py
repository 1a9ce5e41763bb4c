"""S11 (opt-in): union bodies of object variants flatten soundly."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.conftest import accepts, make_document, only_path
from toolshape import ArgumentError, Options, Plan, PlanError, Wrapped, hoist_body, plan_operation
from toolshape.flatten._union import MergedUnion, merge_union

UNIONS = Options.preset(flatten_unions=True)
UNION_EXAMPLES = int(os.environ.get("TOOLSHAPE_UNION_EXAMPLES", "400"))
PATH = "/stores/{storeId}/search"


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required is not None:
        out["required"] = required
    out.update(extra)
    return out


CAT = obj(
    {"kind": {"type": "string", "const": "cat"}, "lives": {"type": "integer"}},
    ["kind", "lives"],
    additionalProperties=False,
)
DOG = obj(
    {"kind": {"type": "string", "const": "dog"}, "bark": {"type": "boolean", "default": True}},
    ["kind"],
    additionalProperties=False,
)
PETS = obj(
    {
        "kind": {"type": "string", "enum": ["cat", "dog"]},
        "lives": {"type": "integer"},
        "bark": {"type": "boolean"},
    },
    ["kind"],
    additionalProperties=False,
)

# (id, union body, expected merged schema)
MERGES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "property union, required only where every variant requires it, const widened, default dropped",
        {"oneOf": [CAT, DOG]},
        PETS,
    ),
    (
        "an open variant accepts the other's property with its policy ({} when absent)",
        {"oneOf": [obj({"a": {"type": "string"}}, ["a"]), obj({"b": {"type": "integer"}})]},
        obj({"a": {}, "b": {}}, []),
    ),
    (
        "equal schemas kept, annotations ignored when comparing",
        {
            "anyOf": [
                obj({"a": {"type": "string", "description": "first"}}, ["a"]),
                obj({"a": {"type": "string"}}, ["a"]),
            ]
        },
        obj({"a": {"type": "string", "description": "first"}}, ["a"]),
    ),
    (
        "integer and number prove number; null is kept",
        {"oneOf": [obj({"n": {"type": "integer"}}), obj({"n": {"type": ["number", "null"]}})]},
        obj({"n": {"type": ["number", "null"]}}, []),
    ),
    (
        "a variant schema that proves no type widens to {}",
        {"oneOf": [obj({"n": {"type": "integer"}}), obj({"n": {"minimum": 1}})]},
        obj({"n": {}}, []),
    ),
    (
        "all variants closed: closed",
        {
            "oneOf": [
                obj({"a": {}}, additionalProperties=False),
                obj({"b": {}}, additionalProperties=False),
            ]
        },
        obj({"a": {}, "b": {}}, [], additionalProperties=False),
    ),
    (
        "one open variant: open, and it accepts the other's property with its policy",
        {
            "oneOf": [
                obj({"a": {"type": "string"}}, additionalProperties=False),
                obj({"b": {}}, additionalProperties={"type": "integer"}),
            ]
        },
        obj({"a": {"type": ["string", "integer"]}, "b": {}}, []),
    ),
    (
        "the same typed additionalProperties everywhere is kept",
        {
            "oneOf": [
                obj({"a": {}}, additionalProperties={"type": "string"}),
                obj({"b": {}}, additionalProperties={"type": "string"}),
            ]
        },
        obj({"a": {}, "b": {}}, [], additionalProperties={"type": "string"}),
    ),
    (
        "root properties and required distribute into every variant",
        {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        },
        obj({"id": {"type": "string"}}, ["id"]),
    ),
    (
        "OpenAPI discriminator over string consts becomes one enum",
        {"oneOf": [CAT, DOG], "discriminator": {"propertyName": "kind"}},
        PETS,
    ),
]


@pytest.mark.parametrize(("body", "expected"), [m[1:] for m in MERGES], ids=[m[0] for m in MERGES])
def test_merge_rules(body: dict[str, Any], expected: dict[str, Any]) -> None:
    """S11.1-S11.4: the merge table."""
    merged = merge_union(body)
    assert isinstance(merged, MergedUnion), merged
    assert merged.schema == expected


# (id, union body, keyword named by the refusal)
REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    (
        "a non-object variant",
        {"oneOf": [CAT, {"type": "array", "items": {}}]},
        "variant 1 is not an object schema",
    ),
    (
        "a variant with its own oneOf",
        {"oneOf": [CAT, {**DOG, "oneOf": [CAT]}]},
        "variant 1 has `oneOf`",
    ),
    (
        "a discriminator that isn't a string property",
        {"oneOf": [CAT, DOG], "discriminator": {"propertyName": "lives"}},
        "discriminator `lives` is not a string property",
    ),
    ("oneOf beside anyOf", {"oneOf": [CAT], "anyOf": [DOG]}, "`anyOf` beside it"),
    (
        "another keyword beside the union",
        {"oneOf": [CAT], "minProperties": 1},
        "`minProperties` beside it",
    ),
    ("a boolean variant", {"anyOf": [CAT, True]}, "variant 1 is the boolean schema `true`"),
]


@pytest.mark.parametrize(
    ("body", "needle"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_refusals_keep_an_s5_reason(body: dict[str, Any], needle: str) -> None:
    """S11: anything else stays unflattenable with an S5.3 reason naming the problem."""
    result = hoist_body(body, flatten_unions=True)
    assert isinstance(result, Wrapped)
    assert result.rule == "S5.3"
    assert needle in result.reason


def union_tool(body: Any, params: list[dict[str, Any]] | None = None) -> Plan:
    """A flat tool whose (required) body is `body`, with unions flattening."""
    doc = make_document(body, params or [], body_required=True)
    (tool,) = plan_operation(doc, only_path(doc), "post", style="flat", options=UNIONS)
    return tool


def test_union_body_is_an_error_without_the_option() -> None:
    """S5.3: without the opt-in a root oneOf is unflattenable."""
    with pytest.raises(PlanError) as caught:
        plan_operation(
            make_document({"type": "object", "properties": {}, "oneOf": [CAT, DOG]}, []),
            "/search",
            "post",
            style="flat",
        )
    assert caught.value.rule == "S5.3"
    assert union_tool({"type": "object", "properties": {}, "oneOf": [CAT, DOG]}).body == "hoisted"


def test_flat_union_tool_is_exact_after_the_second_check() -> None:
    """S11, S6.3: the advertised schema is wider; the original union judges with body paths."""
    tool = union_tool({"oneOf": [CAT, DOG]})
    assert tool.call({"kind": "cat", "lives": 9}).body == {"kind": "cat", "lives": 9}
    assert tool.call({"kind": "dog"}).body == {"kind": "dog"}  # no default inserted (S11.3)
    with pytest.raises(ArgumentError) as missing:
        tool.call({"kind": "cat"})
    assert missing.value.message.startswith("Invalid arguments for tool 'searchProducts': body: ")
    with pytest.raises(ArgumentError) as unknown:
        tool.call({"kind": "bird"})
    assert unknown.value.errors[0].path == "kind"


def test_widened_properties_are_listed_in_a_diagnostic() -> None:
    """S11: a diagnostic lists what the merge widened, so the cost is visible."""
    tool = union_tool({"oneOf": [CAT, DOG]})
    (note,) = tool.diagnostics
    assert note.level == "info"
    assert "widened: `kind`, `lives`, `bark`" in note.message


def test_union_property_colliding_with_a_parameter_is_a_collision() -> None:
    """S11.5: collisions with parameters are those of S9.1."""
    params = [{"name": "kind", "in": "query", "schema": {"type": "string"}}]
    with pytest.raises(PlanError) as caught:
        plan_operation(
            make_document({"oneOf": [CAT, DOG]}, params),
            "/search",
            "post",
            style="flat",
            options=UNIONS,
        )
    assert (caught.value.kind, caught.value.channels) == ("collision", ("queryParams", "body"))


def test_undeclared_argument_follows_the_merged_policy() -> None:
    """S11.4, S7: open merged policy forwards an undeclared argument; the union judges it."""
    tool = union_tool(
        {
            "anyOf": [
                obj({"a": {"type": "string"}}),
                obj({"b": {"type": "string"}}, additionalProperties=False),
            ]
        }
    )
    assert tool.call({"a": "x", "extra": 1}).body == {"a": "x", "extra": 1}
    closed = union_tool(
        {
            "oneOf": [
                obj({"a": {}}, additionalProperties=False),
                obj({"b": {}}, additionalProperties=False),
            ]
        }
    )
    with pytest.raises(ArgumentError, match='"extra" was unexpected'):
        closed.call({"a": 1, "extra": 1})


PROPS = st.sampled_from(["a", "b", "c", "kind"])
PROP_SCHEMAS = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer"},
        {"type": "number"},
        {"type": "string", "const": "x"},
        {"enum": ["x", "y"]},
        {},
        {"type": ["string", "null"]},
        {"minimum": 2},
    ]
)
VARIANT = st.builds(
    lambda props, required, policy: obj(props, [r for r in required if r in props], **policy),
    st.dictionaries(PROPS, PROP_SCHEMAS, max_size=3),
    st.lists(PROPS, max_size=2, unique=True),
    st.sampled_from(
        [{}, {"additionalProperties": False}, {"additionalProperties": {"type": "integer"}}]
    ),
)
UNION = st.builds(
    lambda key, variants: {key: variants},
    st.sampled_from(["oneOf", "anyOf"]),
    st.lists(VARIANT, min_size=1, max_size=3),
)
VALUES = st.one_of(st.sampled_from(["x", "y", "z", 1, 2, 2.5, None, True]))
CALL = st.dictionaries(st.sampled_from(["a", "b", "c", "kind", "extra"]), VALUES, max_size=4)


@settings(max_examples=UNION_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(UNION, CALL)
def test_flat_union_accepts_exactly_what_the_union_accepts(
    body: dict[str, Any], call: dict[str, Any]
) -> None:
    """S11: the flat tool accepts a call exactly when its nested twin is valid against the union."""
    tool = union_tool(body)
    truth = Draft202012Validator(body).is_valid(call)
    accepted = accepts(tool, call)
    event(f"accepted={accepted}")
    assert accepted == truth
    assert Draft202012Validator(tool.input_schema).is_valid(call) or not truth  # a superset


def test_cli_flatten_unions_flag(tmp_path: Any) -> None:
    """`toolshape plan --flatten-unions` turns the option on."""
    import io
    import json

    from toolshape.cli import main

    spec = tmp_path / "doc.json"
    spec.write_text(
        json.dumps(make_document({"type": "object", "properties": {}, "oneOf": [CAT, DOG]}, []))
    )
    assert main(["plan", str(spec), "--style", "flat"], io.StringIO(), io.StringIO()) == 1
    out = io.StringIO()
    assert main(["plan", str(spec), "--style", "flat", "--flatten-unions"], out, io.StringIO()) == 0
    assert "hoisted" in out.getvalue()


def test_required_only_where_every_variant_requires_it() -> None:
    """S11.2: `required` is the intersection; a discriminator of string consts becomes an enum."""
    body = {
        "oneOf": [
            obj({"kind": {"const": "a"}, "x": {}}, ["kind", "x"]),
            obj({"kind": {"const": "b"}, "y": {}}, ["kind", "y"]),
        ],
        "discriminator": {"propertyName": "kind"},
    }
    merged = merge_union(body)
    assert isinstance(merged, MergedUnion)
    assert merged.schema["required"] == ["kind"]
    assert merged.schema["properties"]["kind"] == {"type": "string", "enum": ["a", "b"]}
    assert set(merged.widened) >= {"x", "y"}
