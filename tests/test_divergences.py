"""The smaller divergences from SPEC (issue 10, class 7), each with the smallest document."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from tests.conftest import STORE_BODY, make_document
from tests.schemacheck import assert_self_contained
from toolshape import (
    ArgumentError,
    DocumentError,
    Options,
    PlanDataError,
    PlanError,
    ToolshapeError,
    plan_document,
    plan_operation,
)


def flat(doc: dict[str, Any], **kw: Any) -> Any:
    (plan,) = plan_operation(doc, next(iter(doc["paths"])), "post", style="flat", **kw)
    return plan


def test_legacy_never_inserts_a_default_its_schema_rejects() -> None:
    """S13.5: Xero declares `default: "false"` on a boolean; legacy inserted it and then
    rejected a call the advertised schema accepts. Now it is left out, with a warning."""
    doc = make_document(
        None, [{"name": "flag", "in": "query", "schema": {"type": "boolean", "default": "false"}}]
    )
    plan = flat(doc, profile="legacy")
    assert plan.call({}).url == "/search"
    (note,) = plan.diagnostics
    assert note.level == "warning"
    assert (
        'the `default` "false" of `queryParams.flag` does not match its own schema' in note.message
    )
    valid = make_document(
        None, [{"name": "n", "in": "query", "schema": {"type": "integer", "default": 3}}]
    )
    assert flat(valid, profile="legacy").call({}).url == "/search?n=3"  # valid ones still are


def test_references_inside_extension_keys_are_bundled() -> None:
    """S4.4: Adyen's `x-anyOf: [{"$ref": ...}]` left 75 tools not self-contained."""
    components = {"schemas": {"A": {"type": "string"}, "B": {"type": "integer"}}}
    body = {
        "type": "object",
        "properties": {
            "v": {
                "x-anyOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}]
            }
        },
    }
    schema = flat(make_document(body, [], components=components)).input_schema
    assert schema["properties"]["v"]["x-anyOf"] == [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]
    assert_self_contained(schema)


@pytest.mark.parametrize("target", ["#/components/schemas/Dog", "Dog"])
def test_discriminator_mappings_point_into_defs_and_survive_pruning(target: str) -> None:
    """S4.4: a mapping value (a reference, or a bare schema name) is rewritten, and a merged
    allOf body's pruned `$defs` keeps what mappings and `$dynamicRef`s reach."""
    components = {
        "schemas": {
            "Dog": {"type": "object", "properties": {"kind": {"const": "dog"}}},
            "Pet": {
                "oneOf": [{"$ref": "#/components/schemas/Dog"}],
                "discriminator": {"propertyName": "kind", "mapping": {"dog": target}},
            },
            "Node": {"$dynamicAnchor": "node", "type": "object"},
            "Part": {"type": "object", "properties": {"pet": {"$ref": "#/components/schemas/Pet"}}},
        }
    }
    body = {
        "allOf": [
            {"$ref": "#/components/schemas/Part"},
            {
                "type": "object",
                "properties": {"tree": {"$dynamicRef": "#/components/schemas/Node"}},
            },
        ]
    }
    schema = flat(make_document(body, [], components=components)).input_schema
    assert schema["$defs"]["Pet"]["discriminator"]["mapping"] == {"dog": "#/$defs/Dog"}
    assert {"Pet", "Dog", "Node"} <= set(schema["$defs"])
    assert "Part" not in schema["$defs"]  # merged away: pruned
    assert_self_contained(schema)


def test_a_bare_mapping_name_that_names_nothing_is_a_reference_error() -> None:
    """S1.2, S4.4: a bare name is a reference too; one that names no schema is refused."""
    body = {
        "type": "object",
        "properties": {
            "v": {
                "oneOf": [{"type": "object"}],
                "discriminator": {"propertyName": "k", "mapping": {"a": "Cat"}},
            }
        },
    }
    (error,) = plan_document(make_document(body, [])).errors
    assert (error.kind, error.rule) == ("reference", "S1.2")
    assert "maps `a` to `Cat`, which names no schema" in error.message


@pytest.mark.parametrize(("one", "two"), [(1, True), (0, False), ([1], [True])])
def test_allof_branches_compare_schemas_as_json(one: Any, two: Any) -> None:
    """S6.1, S9.1: `const: 1` and `const: true` are different schemas, so the branches don't
    merge (they did, silently picking one)."""
    body = {
        "allOf": [
            {"type": "object", "properties": {"a": {"const": one}}},
            {"type": "object", "properties": {"a": {"const": two}}},
        ]
    }
    with pytest.raises(PlanError) as caught:
        flat(make_document(body, []))
    assert (
        "`a` is declared by two branches of the `body` schema's root `allOf` with different schemas"
        in caught.value.message
    )


def test_union_variants_compare_schemas_as_json() -> None:
    """S11.1: equal-looking `const: 1` / `const: true` variants are widened, not merged as one."""
    body = {
        "oneOf": [
            {"type": "object", "properties": {"a": {"const": 1}}, "required": ["a"]},
            {"type": "object", "properties": {"a": {"const": True}}, "required": ["a"]},
        ]
    }
    plan = flat(make_document(body, []), options=Options.preset(flatten_unions=True))
    assert plan.input_schema["properties"]["a"] == {"type": ["integer", "boolean"]}
    assert plan.call({"a": True}).body == {"a": True}
    with pytest.raises(ArgumentError):
        plan.call({"a": 2})


def test_a_body_parameter_beside_a_wrapped_body_names_its_own_channel() -> None:
    """S9.1 (legacy): a header named `body` sorts after the body channel, but the warning
    names `headers`, the parameter's own channel."""
    doc = make_document({"type": "array"}, [{"name": "body", "in": "header", "schema": {}}])
    plan = flat(doc, profile="legacy")
    assert "`body` is declared as a parameter by `headers`" in plan.diagnostics[-1].message


def test_a_content_type_suffix_is_never_cut() -> None:
    """S8.1: past 128 characters the base is cut, never the `_<content type>` suffix."""
    doc = make_document(STORE_BODY, operation={"operationId": "o" * 200})
    doc["paths"]["/stores/{storeId}/search"]["post"]["requestBody"]["content"]["text/plain"] = {
        "schema": {"type": "string"}
    }
    names = [t.name for t in plan_document(doc).tools]
    assert names == ["o" * 111 + "_application_json", "o" * 117 + "_text_plain"]
    assert all(len(n) == 128 for n in names)


@pytest.mark.parametrize(("setting", "shown"), [(None, "null"), (5, "5"), (["flat"], '["flat"]')])
def test_a_tool_level_null_or_non_string_style_is_the_configuration_error(
    setting: Any, shown: str
) -> None:
    """S2.3: `toolInputStyle: null` on a tool was read as absent; it is an error."""
    doc = make_document(STORE_BODY, operation={"x-zuplo-mcp-tool": {"toolInputStyle": setting}})
    (error,) = plan_document(doc).errors
    assert error.message == (
        f'MCP tool configuration error: invalid toolInputStyle {shown} on operation "searchProducts". '
        'Use "flat" or "nested".'
    )


@pytest.mark.parametrize(
    "error",
    [
        PlanError(
            "collision", "r", tool="t", operation="o", channels=("a", "b"), fix="Do it", rule="S9.1"
        ),
        DocumentError("document", "not a mapping", location="x#"),
        PlanDataError("not a toolshape plan: `body` is bad", field="body"),
        ArgumentError("t", []),
        ToolshapeError("plain"),
    ],
)
def test_every_error_round_trips_with_its_class_and_fields(error: ToolshapeError) -> None:
    """S15.3: pickling and `to_dict`/`from_dict` keep the class, every field and the message."""
    for again in (
        pickle.loads(pickle.dumps(error)),
        ToolshapeError.from_dict(json.loads(json.dumps(error.to_dict()))),
    ):
        assert type(again) is type(error)
        assert again.to_dict() == error.to_dict()
        assert str(again) == str(error)
    if isinstance(error, PlanError):
        assert pickle.loads(pickle.dumps(error)).fix == error.fix


def test_nothing_a_caller_does_to_a_plans_schemas_changes_the_plan_or_the_document() -> None:
    """S15.2: the plan's schemas are private; what it hands out are copies."""
    body = {"allOf": [{"type": "object", "properties": {"sort": {"enum": ["a", "b"]}}}]}
    doc = make_document(body)
    before = copy.deepcopy(doc)
    plan = flat(doc)
    assert not hasattr(plan, "advertised")
    for schema in (plan.input_schema, plan.nested_schema, plan.body_check):
        schema.clear()
    plan.input_schema["properties"]["sort"]["enum"].append("c")
    plan.nested_schema["properties"]["body"]["allOf"][0]["properties"]["sort"]["enum"].append("c")
    assert doc == before
    assert plan.call({"storeId": "s", "x-tenant": "t", "sort": "a"}).body == {"sort": "a"}
    with pytest.raises(ArgumentError):
        plan.call({"storeId": "s", "x-tenant": "t", "sort": "c"})


def test_unknown_styles_and_names_keys_are_warned_about() -> None:
    """S2.2, S8.1: a `styles` or `names` key that names no operation changes nothing: say so."""
    result = plan_document(
        make_document(STORE_BODY), styles={"searchProduct": "flat"}, names={"nope": "x"}
    )
    messages = [d.message for d in result.diagnostics if d.level == "warning"]
    assert any("`styles` names `searchProduct`, which no operation" in m for m in messages)
    assert any("`names` names `nope`, which no operation" in m for m in messages)


def test_a_one_of_body_names_its_one_of_not_a_missing_type() -> None:
    """S5: a root `oneOf` without `type` is refused for its `oneOf` (row 3), and the fix names
    the `flatten_unions` opt-in."""
    with pytest.raises(PlanError) as caught:
        flat(make_document({"oneOf": [{"type": "object", "properties": {}}]}, []))
    assert caught.value.rule == "S5.3"
    assert "has `oneOf` at its root" in caught.value.message
    assert "turn on `flatten_unions` (S11)" in caught.value.message
