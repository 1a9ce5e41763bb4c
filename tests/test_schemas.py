"""S3 (nested) and S4 (flat) input schemas, the worked example byte for byte."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import validators

from tests.conftest import STORE_BODY, make_document, only_path, spec_example
from toolshape import Plan, PlanError, plan_document, plan_operation


def plan(doc: dict[str, Any], style: str = "flat", **kwargs: Any) -> Plan:
    (only,) = plan_operation(doc, only_path(doc), "post", style=style, **kwargs)
    return only


def test_nested_worked_example_byte_for_byte(store: dict[str, Any]) -> None:
    """S3.3: the nested schema is the reference document's, key order included."""
    expected = spec_example("Nested inputSchema")
    assert json.dumps(plan(store, "nested").input_schema) == json.dumps(expected)


def test_flat_worked_example_byte_for_byte(store: dict[str, Any]) -> None:
    """S4.8: the flat schema is the reference document's, key order included."""
    expected = spec_example("Flat inputSchema")
    assert json.dumps(plan(store, "flat").input_schema) == json.dumps(expected)


def test_worked_example_under_openapi_30_is_the_same(store: dict[str, Any]) -> None:
    """S1.4: a 3.0 document with the same operation advertises the same schemas."""
    store["openapi"] = "3.0.3"
    assert json.dumps(plan(store).input_schema) == json.dumps(spec_example("Flat inputSchema"))


def test_nested_body_keys_are_ordered_type_properties_required_additional() -> None:
    """S3.1: the nested body leads with type, properties, required, additionalProperties."""
    body = {
        "description": "d",
        "additionalProperties": False,
        "required": ["a"],
        "properties": {"a": {}},
        "type": "object",
    }
    nested = plan(make_document(body), "nested").input_schema
    assert list(nested["properties"]["body"]) == [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "description",
    ]


def test_nested_declares_every_channel_in_order_and_requires_it() -> None:
    """S3.1, S3.2: pathParams, queryParams, body, headers, cookies; all required; root closed."""
    params: list[dict[str, Any]] = [
        {"name": "c", "in": "cookie", "schema": {"type": "string"}},
        {"name": "h", "in": "header", "schema": {"type": "string"}},
        {"name": "q", "in": "query", "schema": {"type": "string"}},
        {"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}},
    ]
    nested = plan(
        make_document({"type": "object", "properties": {}}, params), "nested"
    ).input_schema
    channels = ["pathParams", "queryParams", "body", "headers", "cookies"]
    assert list(nested["properties"]) == channels
    assert nested["required"] == channels
    assert nested["additionalProperties"] is False
    assert nested["properties"]["cookies"]["required"] == []


def test_flat_orders_path_query_body_header_cookie() -> None:
    """S4.1, S4.2: properties and required in channel order, declaration order inside."""
    params = [
        {"name": "c", "in": "cookie", "required": True, "schema": {}},
        {"name": "H", "in": "header", "required": True, "schema": {}},
        {"name": "q2", "in": "query", "required": True, "schema": {}},
        {"name": "q1", "in": "query", "required": True, "schema": {}},
        {"name": "storeId", "in": "path", "required": True, "schema": {}},
    ]
    body = {"type": "object", "properties": {"b2": {}, "b1": {}}, "required": ["b1", "b2"]}
    flat = plan(make_document(body, params)).input_schema
    assert list(flat["properties"]) == ["storeId", "q2", "q1", "b2", "b1", "h", "c"]
    assert flat["required"] == ["storeId", "q2", "q1", "b1", "b2", "h", "c"]


def test_all_optional_tool_accepts_empty_call() -> None:
    """S4.2: a tool whose inputs are all optional has an empty required list and accepts {}."""
    params = [{"name": "limit", "in": "query", "schema": {"type": "integer"}}]
    flat = plan(make_document({"type": "object", "properties": {"a": {}}}, params)).input_schema
    assert flat["required"] == []
    validators.validator_for(flat)(flat).validate({})


def test_property_schemas_are_copied_unchanged() -> None:
    """S4.3: description, default, enum and every other keyword are kept as written."""
    prop = {
        "type": "string",
        "description": "d",
        "default": "x",
        "enum": ["x", "y"],
        "x-ext": 1,
        "format": "uuid",
    }
    flat = plan(make_document({"type": "object", "properties": {"p": prop}})).input_schema
    assert flat["properties"]["p"] == prop


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "integer"}, {"type": "integer", "description": "How many."}),
        ({"type": "integer", "description": "own"}, {"type": "integer", "description": "own"}),
    ],
)
def test_parameter_description_added_only_when_schema_has_none(
    schema: dict[str, Any], expected: dict[str, Any]
) -> None:
    """S4.3: a parameter's description goes to its property only if the schema lacks one."""
    params = [{"name": "limit", "in": "query", "description": "How many.", "schema": schema}]
    flat = plan(make_document(None, params, method="post")).input_schema
    assert flat["properties"]["limit"] == expected


def test_component_refs_are_bundled_into_root_defs() -> None:
    """S4.4: referenced components land once in the root $defs; recursion works."""
    components = {
        "schemas": {
            "Node": {
                "type": "object",
                "properties": {
                    "child": {"$ref": "#/components/schemas/Node"},
                    "tag": {"$ref": "#/components/schemas/Tag"},
                },
            },
            "Tag": {"type": "string"},
        }
    }
    body = {"type": "object", "properties": {"root": {"$ref": "#/components/schemas/Node"}}}
    flat = plan(make_document(body, components=components)).input_schema
    assert flat["properties"]["root"] == {"$ref": "#/$defs/Node"}
    assert list(flat["$defs"]) == ["Node", "Tag"]
    assert flat["$defs"]["Node"]["properties"]["child"] == {"$ref": "#/$defs/Node"}
    validator = validators.validator_for(flat)(flat)
    call = {"storeId": "s", "x-tenant": "t", "root": {"child": {"child": {"tag": "x"}}}}
    assert validator.is_valid(call)
    assert not validator.is_valid({**call, "root": {"child": {"tag": 1}}})


def test_refs_to_non_component_places_are_bundled_too() -> None:
    """S4.4: a $ref to any other place in the document also points into the root $defs."""
    doc = make_document({"type": "object", "properties": {"a": {"$ref": "#/x-shared/thing"}}})
    doc["x-shared"] = {"thing": {"type": "integer"}}
    flat = plan(doc).input_schema
    (name,) = flat["$defs"]
    assert flat["properties"]["a"] == {"$ref": f"#/$defs/{name}"}
    assert flat["$defs"][name] == {"type": "integer"}


def test_discriminator_mapping_is_rewritten() -> None:
    """S4.4: a discriminator.mapping value naming a component points into $defs."""
    components = {
        "schemas": {"Cat": {"type": "object", "properties": {"kind": {"type": "string"}}}}
    }
    prop = {
        "oneOf": [{"$ref": "#/components/schemas/Cat"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat"}},
    }
    flat = plan(
        make_document({"type": "object", "properties": {"pet": prop}}, components=components)
    ).input_schema
    assert flat["properties"]["pet"]["discriminator"]["mapping"] == {"cat": "#/$defs/Cat"}


def test_header_names_are_lowercased() -> None:
    """S4.5: a header declared `X-Tenant` is the argument `x-tenant`."""
    params = [{"name": "X-Tenant", "in": "header", "required": True, "schema": {"type": "string"}}]
    flat = plan(make_document(None, params)).input_schema
    assert flat["properties"] == {"x-tenant": {"type": "string"}}
    assert flat["required"] == ["x-tenant"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"type": "object", "properties": {}, "additionalProperties": False}, False),
        (
            {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}},
            {"type": "string"},
        ),
    ],
)
def test_root_key_policy_follows_the_body(body: dict[str, Any], expected: Any) -> None:
    """S4.6 / S7: the flat root copies the body's additionalProperties."""
    assert plan(make_document(body)).input_schema["additionalProperties"] == expected


def test_open_body_leaves_root_additional_properties_absent() -> None:
    """S7: an open body publishes no additionalProperties under 2026-11-06."""
    assert (
        "additionalProperties"
        not in plan(make_document({"type": "object", "properties": {}})).input_schema
    )


def test_draft07_body_declares_its_dialect_at_the_flat_root() -> None:
    """S4.7: a draft-07 body makes the flat root declare draft-07; 2020-12 declares nothing."""
    body = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"t": {"items": [{"type": "string"}]}},
    }
    flat = plan(make_document(body, [])).input_schema
    assert flat["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert next(iter(flat)) == "$schema"
    validator = validators.validator_for(flat)(flat)
    assert not validator.is_valid({"t": [1]})
    assert "$schema" not in plan(make_document(STORE_BODY)).input_schema


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_a_tool_in_two_dialects_is_a_schema_error(style: str) -> None:
    """S4.7: a draft-07 body beside 2020-12 parameters can't share one root, in either style."""
    body = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {},
    }
    with pytest.raises(PlanError) as caught:
        plan(make_document(body), style=style)
    assert (caught.value.kind, caught.value.rule) == ("schema", "S4.7")
    assert (
        "its schemas are not all in one dialect: the parameter `storeId` is "
        "`https://json-schema.org/draft/2020-12/schema` and the body is "
        "`http://json-schema.org/draft-07/schema#`"
    ) in caught.value.message


def test_a_tool_without_body_declares_its_parameters_dialect() -> None:
    """S4.7: with no body, the root declares the document's `jsonSchemaDialect` (not 2020-12)."""
    doc = make_document(None, [{"name": "q", "in": "query", "schema": {"type": "string"}}])
    doc["jsonSchemaDialect"] = "http://json-schema.org/draft-07/schema#"
    assert plan(doc).input_schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert plan(doc, style="nested").input_schema["$schema"] == (
        "http://json-schema.org/draft-07/schema#"
    )


def test_openapi_30_nullable_and_exclusive_bounds_are_converted() -> None:
    """S1.4: nullable, boolean exclusiveMinimum and example become 2020-12."""
    prop = {
        "type": "integer",
        "nullable": True,
        "minimum": 1,
        "exclusiveMinimum": True,
        "example": 5,
    }
    flat = plan(
        make_document({"type": "object", "properties": {"n": prop}}, openapi="3.0.3")
    ).input_schema
    assert flat["properties"]["n"] == {
        "type": ["integer", "null"],
        "exclusiveMinimum": 1,
        "examples": [5],
    }


def test_openapi_31_boolean_exclusive_bound_is_repaired_and_nullable_kept() -> None:
    """S1.4: in 3.1 a boolean exclusiveMaximum is converted; nullable is left as written."""
    prop = {"type": "integer", "maximum": 9, "exclusiveMaximum": True, "nullable": True}
    flat = plan(make_document({"type": "object", "properties": {"n": prop}})).input_schema
    assert flat["properties"]["n"] == {"type": "integer", "nullable": True, "exclusiveMaximum": 9}


def test_boolean_schemas_are_copied_in_31() -> None:
    """S1.4: in 3.1 true and false are schemas wherever a schema may stand."""
    body = {"type": "object", "properties": {"any": True, "never": False}}
    flat = plan(make_document(body)).input_schema
    assert flat["properties"]["any"] is True
    assert flat["properties"]["never"] is False


def test_returned_schema_is_a_copy(store: dict[str, Any]) -> None:
    """S15.2: editing a returned schema never changes the plan."""
    tool = plan(store)
    schema = tool.input_schema
    schema["properties"]["query"]["type"] = "integer"
    schema["required"].clear()
    assert tool.input_schema == spec_example("Flat inputSchema")


_KEYWORDS = [
    "type",
    "nullable",
    "example",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minimum",
    "maximum",
    "$recursiveAnchor",
    "enum",
    "format",
    "description",
]
_VALUES = [True, False, "file", "string", 3, None, ["a"], "x"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYWORDS), st.sampled_from(_VALUES), max_size=5))
def test_a_schema_without_the_keywords_a_conversion_reads_is_left_alone(
    schema: dict[str, Any],
) -> None:
    """S1.4: the bundler skips `convert_30` / `repair_31` for a schema with none of the
    keywords they read (`CONVERTED_30`, `REPAIRED_31`): for such a schema each step returns it
    unchanged, so skipping is the same as running it."""
    from toolshape.schema._convert import CONVERTED_30, REPAIRED_31, convert_30, repair_31

    if CONVERTED_30.isdisjoint(schema) and schema.get("type") != "file":
        assert convert_30(dict(schema)) == schema
    if REPAIRED_31.isdisjoint(schema):
        assert repair_31(dict(schema)) == schema


@pytest.mark.parametrize(
    ("schema", "where"),
    [
        ({"type": "number", "maximum": float("inf")}, "/maximum"),
        ({"enum": [1, float("nan")]}, "/enum"),
        ({"default": {"a": [float("-inf")]}}, "/default"),
        ({"x-limits": {"high": float("inf")}}, "/x-limits"),
    ],
    ids=["a bound", "an enum value", "inside a default", "inside an extension"],
)
def test_a_number_json_cannot_write_is_a_schema_error(schema: dict[str, Any], where: str) -> None:
    """S14.4: a schema number that is not finite (`1e400`, YAML's `.inf`, `.nan`) would be
    `Infinity` or `NaN` in the advertised schema: a planning error of kind `schema` naming
    the place."""
    doc = make_document({"type": "object", "properties": {"a": schema}})
    (error,) = plan_document(doc, style="flat").errors
    assert error.kind == "schema"
    assert "which JSON can't write" in error.message
    assert f"/properties/a{where}`" in error.message
