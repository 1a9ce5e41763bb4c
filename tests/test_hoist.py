"""S5 (bodies that can't flatten) and S6 (composed bodies), as one table per function."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import LOCATION, SOURCE, make_document, spec_error
from toolshape import Hoisted, Options, PlanError, Wrapped, hoist_body, merge_allof, plan_operation

LEGACY = Options.preset("legacy")
#: The legacy profile's switches hoisting reads (S10).
LEGACY_SWITCHES: dict[str, Any] = {
    "flatten_unions": LEGACY.flatten_unions,
    "composed_bodies": LEGACY.composed_bodies,
    "untyped_body": LEGACY.untyped_body,
    "strict_roots": LEGACY.strict_roots,
}
D7 = "http://json-schema.org/draft-07/schema#"
OBJ: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}

# (id, body, expected rule or "hoisted", keyword at fault)
ROWS: list[tuple[str, Any, str, str | None]] = [
    ("plain object", OBJ, "hoisted", None),
    ("object with empty properties", {"type": "object", "properties": {}}, "hoisted", None),
    ("S5.1 array", {"type": "array", "items": {}}, "S5.1", "type"),
    ("S5.1 string", {"type": "string"}, "S5.1", "type"),
    ("S5.1 nullable object", {"type": ["object", "null"], "properties": {}}, "S5.1", "type"),
    ("S5.1 no type", {"properties": {"a": {}}}, "S5.1", "type"),
    ("S5.1 boolean schema", True, "S5.1", "type"),
    ("S5.2 no properties", {"type": "object"}, "S5.2", "properties"),
    ("S5.2 properties not an object", {"type": "object", "properties": []}, "S5.2", "properties"),
    *[
        (f"S5.3 {k}", {**OBJ, k: [OBJ] if k.endswith("Of") else OBJ}, "S5.3", k)
        for k in ("oneOf", "anyOf", "not", "if", "then", "else")
    ],
    *[
        (f"S5.4 {k}", {**OBJ, k: 1 if "Prop" in k and "pattern" not in k else {}}, "S5.4", k)
        for k in (
            "minProperties",
            "maxProperties",
            "patternProperties",
            "propertyNames",
            "dependentSchemas",
        )
    ],
    (
        "S5.5 unevaluatedProperties",
        {**OBJ, "unevaluatedProperties": False},
        "S5.5",
        "unevaluatedProperties",
    ),
    *[
        (f"S5.6 {k}", {**OBJ, k: v}, "S5.6", k)
        for k, v in (
            ("const", {}),
            ("enum", [{}]),
            ("dependencies", {}),
            ("$id", "urn:x"),
            ("$defs", {}),
            ("definitions", {}),
        )
    ],
    ("S5.7 $dynamicRef", {**OBJ, "$dynamicRef": "#x"}, "S5.7", "$dynamicRef"),
    ("S5.7 $recursiveRef", {**OBJ, "$recursiveRef": "#"}, "S5.7", "$recursiveRef"),
    ("S5.7 $ref with siblings", {**OBJ, "$ref": "#/$defs/X"}, "S5.7", "$ref"),
    ("S5.8 undeclared required", {**OBJ, "required": ["a", "b"]}, "S5.8", "required"),
    (
        "S5.9 targeted dynamic anchor",
        {
            **OBJ,
            "$dynamicAnchor": "node",
            "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}},
        },
        "S5.9",
        "$dynamicAnchor",
    ),
    ("untargeted dynamic anchor flattens", {**OBJ, "$dynamicAnchor": "node"}, "hoisted", None),
    (
        "S5.9 recursive anchor",
        {
            **OBJ,
            "$recursiveAnchor": True,
            "properties": {"kids": {"items": {"$recursiveRef": "#"}}},
        },
        "S5.9",
        "$recursiveAnchor",
    ),
    (
        "S5.10 allOf with additionalProperties",
        {"allOf": [OBJ], "additionalProperties": False},
        "S5.10",
        "additionalProperties",
    ),
    (
        "S5.10 dependentRequired naming a non-property",
        {**OBJ, "dependentRequired": {"a": ["storeId"]}},
        "S5.10",
        "dependentRequired",
    ),
    (
        "S6.2 dependentRequired on own properties",
        {"type": "object", "properties": {"a": {}, "b": {}}, "dependentRequired": {"a": ["b"]}},
        "hoisted",
        None,
    ),
    ("S5.11 no schema", None, "S5.11", "schema"),
]


@pytest.mark.parametrize(
    ("body", "rule", "keyword"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_hoist_body_table(body: Any, rule: str, keyword: str | None) -> None:
    """S5: each can't-flatten row has its own rule and keyword; object bodies hoist."""
    result = hoist_body(body)
    if rule == "hoisted":
        assert isinstance(result, Hoisted)
    else:
        assert isinstance(result, Wrapped), result
        assert (result.rule, result.keyword) == (rule, keyword)
        assert keyword is None or f"`{keyword}`" in result.reason or keyword == "type"


def test_every_refusal_reason_names_its_keyword_and_a_fix() -> None:
    """S5: each reason names the keyword at fault and ends with a sentence saying the fix."""
    for _, body, _, keyword in ROWS:
        result = hoist_body(body)
        if isinstance(result, Wrapped):
            assert f"`{keyword}`" in result.reason
            assert ". " in result.reason
            fix = result.reason.rsplit(". ", 1)[1]
            assert fix.split()[0] in {
                "Declare",
                "Remove",
                "Describe",
                "Use",
                "Move",
                "Give",
                "Name",
            }


def test_array_reason_is_exactly_the_reference_text() -> None:
    """S9.2: the array body's reason, with its full stop and capital inside."""
    result = hoist_body({"type": "array", "items": {"type": "string"}})
    assert isinstance(result, Wrapped)
    assert result.reason == (
        'the `body` schema is not an object schema (`type` is "array"), so it has no properties to hoist. '
        "Declare the request body as an object with `properties` to have its fields become top-level tool arguments"
    )


def test_unflattenable_error_message_is_the_reference_text() -> None:
    """S9.2: the whole build error for the example's array body, byte for byte."""
    doc = make_document({"type": "array", "items": {"type": "string"}})
    with pytest.raises(PlanError) as caught:
        plan_operation(doc, "/stores/{storeId}/search", "post", style="flat", source=SOURCE)
    assert str(caught.value) == spec_error("arrayBody")
    assert caught.value.kind == "unflattenable"
    assert caught.value.location == LOCATION
    assert (caught.value.tool, caught.value.operation, caught.value.property) == (
        "searchProducts",
        "searchProducts",
        "body",
    )


@pytest.mark.parametrize(
    "body",
    [
        {**OBJ, "const": {}},
        {**OBJ, "required": ["zzz"]},
        {**OBJ, "$ref": "#/$defs/X"},
        {**OBJ, "$defs": {}},
    ],
)
def test_strict_rows_do_not_apply_under_legacy(body: dict[str, Any]) -> None:
    """S5: rows 6-10 apply under 2026-11-06 only."""
    assert isinstance(hoist_body(body, **LEGACY_SWITCHES), Hoisted)
    assert isinstance(hoist_body(body), Wrapped)


def test_untyped_body_with_properties_flattens_under_legacy() -> None:
    """S5.1: legacy flattens a body with no type but with properties."""
    assert isinstance(hoist_body({"properties": {"a": {}}}, **LEGACY_SWITCHES), Hoisted)


def test_unevaluated_properties_is_ignored_in_draft07() -> None:
    """S5.5: in a draft-07 body unevaluatedProperties is not a keyword and is ignored."""
    assert isinstance(hoist_body({**OBJ, "unevaluatedProperties": False}, dialect=D7), Hoisted)
    assert isinstance(
        hoist_body({**OBJ, "unevaluatedProperties": False}, dialect="openapi-3.0"), Hoisted
    )


def test_hoist_never_mutates_its_input() -> None:
    """STYLE: never mutate an input schema."""
    body = {
        "allOf": [OBJ, {"type": "object", "properties": {"b": {}}, "required": ["b"]}],
        "unevaluatedProperties": False,
    }
    snapshot = repr(body)
    hoist_body(body)
    assert repr(body) == snapshot


BASE = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
NOTE = {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]}

# (id, allOf body, expected: merged schema or the keyword of the refusal)
ALLOF: list[tuple[str, dict[str, Any], Any]] = [
    (
        "reference example",
        {"allOf": [{"$ref": "#/$defs/Base"}, NOTE], "unevaluatedProperties": False},
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "note": {"type": "string"}},
            "required": ["id", "note"],
            "additionalProperties": False,
        },
    ),
    (
        "open without unevaluatedProperties",
        {"allOf": [BASE, NOTE], "type": "object", "description": "d"},
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "note": {"type": "string"}},
            "required": ["id", "note"],
        },
    ),
    (
        "$schema beside (S6.1)",
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "allOf": [BASE, NOTE],
            "unevaluatedProperties": False,
        },
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "note": {"type": "string"}},
            "required": ["id", "note"],
            "additionalProperties": False,
        },
    ),
    (
        "equal schema twice",
        {"allOf": [BASE, BASE]},
        {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
    ),
    (
        "additionalProperties beside",
        {"allOf": [BASE], "additionalProperties": False},
        "additionalProperties",
    ),
    ("required beside", {"allOf": [BASE], "required": ["id"]}, "required"),
    (
        "unevaluatedProperties true",
        {"allOf": [BASE], "unevaluatedProperties": True},
        "unevaluatedProperties",
    ),
    (
        "branch with additionalProperties",
        {"allOf": [{**BASE, "additionalProperties": False}]},
        "additionalProperties",
    ),
    ("branch with minProperties", {"allOf": [{**BASE, "minProperties": 1}]}, "minProperties"),
    ("branch with nested oneOf", {"allOf": [{**BASE, "oneOf": [BASE]}]}, "oneOf"),
    ("branch without type", {"allOf": [{"properties": {}}]}, "allOf"),
    (
        "conflicting property",
        {"allOf": [BASE, {"type": "object", "properties": {"id": {"type": "integer"}}}]},
        "allOf",
    ),
]


@pytest.mark.parametrize(("body", "expected"), [r[1:] for r in ALLOF], ids=[r[0] for r in ALLOF])
def test_merge_allof_table(body: dict[str, Any], expected: Any) -> None:
    """S6.1: qualifying allOf bodies merge; every disqualifier refuses with its keyword."""
    result = merge_allof(body, {"Base": BASE})
    if isinstance(expected, dict):
        assert result == expected
    else:
        assert isinstance(result, Wrapped)
        assert (result.rule, result.keyword) == ("S5.10", expected)


def test_unevaluated_false_leaves_merged_object_open_in_draft07() -> None:
    """S6.1: unevaluatedProperties does not exist in draft-07, so the merged object stays open."""
    merged = merge_allof({"allOf": [BASE, NOTE], "unevaluatedProperties": False}, dialect=D7)
    assert isinstance(merged, dict)
    assert "additionalProperties" not in merged


def test_allof_body_keeps_wrapped_under_legacy() -> None:
    """S5: under legacy a root allOf or dependentRequired keeps the body wrapped."""
    assert isinstance(hoist_body({"allOf": [BASE]}, **LEGACY_SWITCHES), Wrapped)
    dependent = {
        "type": "object",
        "properties": {"a": {}, "b": {}},
        "dependentRequired": {"a": ["b"]},
    }
    assert isinstance(hoist_body(dependent, **LEGACY_SWITCHES), Wrapped)


def test_dependent_required_is_copied_to_flat_root() -> None:
    """S6.2: the reference example's dependentRequired is copied unchanged and composed."""
    body = {
        "type": "object",
        "properties": {"card": {"type": "string"}, "billingZip": {"type": "string"}},
        "dependentRequired": {"card": ["billingZip"]},
    }
    (tool,) = plan_operation(make_document(body), "/stores/{storeId}/search", "post", style="flat")
    assert tool.input_schema["dependentRequired"] == {"card": ["billingZip"]}
    assert tool.body_check is not None


def test_merged_allof_property_beside_parameter_collides() -> None:
    """S9.1: a merged allOf property colliding with a parameter is a collision."""
    body = {"allOf": [{"type": "object", "properties": {"storeId": {"type": "string"}}}]}
    with pytest.raises(PlanError) as caught:
        plan_operation(make_document(body), "/stores/{storeId}/search", "post", style="flat")
    assert caught.value.kind == "collision"
    assert caught.value.channels == ("pathParams", "body")
