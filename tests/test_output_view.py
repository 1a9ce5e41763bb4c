"""S16.7: output schemas describe shape, not contracts — the shape view (the default), the exact
view on request, and `off`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.test_tool import doc, json_response, one
from toolshape import Options, Plan, PlanDataError, plan_document
from toolshape.schema._shape import shape_view


def view(schema: dict[str, Any]) -> dict[str, Any]:
    return shape_view({"type": "object", **schema})


def test_the_shape_view_keeps_the_kinds_and_drops_the_contract() -> None:
    """S16.7: `type` (with `null` below the root), `properties`, `items`, `anyOf`, `allOf`,
    `title`, `description` stay; `required`, `additionalProperties`, `enum`, `const`,
    `format`, `pattern`, bounds, `examples`, `default` go."""
    given = {
        "title": "Thing",
        "description": "A thing.",
        "required": ["id"],
        "additionalProperties": False,
        "minProperties": 1,
        "properties": {
            "id": {"type": "string", "pattern": "^t", "minLength": 2, "format": "uuid"},
            "kind": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "fixed": {"const": 3, "examples": [3]},
            "count": {"type": ["integer", "null"], "minimum": 0, "multipleOf": 2},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "either": {"anyOf": [{"type": "string"}, {"type": "object", "required": ["x"]}]},
            "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "boolean"}}}]},
        },
    }
    assert view(given) == {
        "type": "object",
        "title": "Thing",
        "description": "A thing.",
        "properties": {
            "id": {"type": ["string", "null"]},
            "kind": {"type": ["string", "null"]},
            "fixed": {},
            "count": {"type": ["integer", "null"]},
            "tags": {"type": ["array", "null"], "items": {"type": ["string", "null"]}},
            "either": {"anyOf": [{"type": ["string", "null"]}, {"type": ["object", "null"]}]},
            "both": {
                "allOf": [
                    {"type": ["object", "null"], "properties": {"a": {"type": ["boolean", "null"]}}}
                ]
            },
        },
    }


def test_one_of_is_read_as_any_of_and_both_still_hold() -> None:
    """S16.7: `oneOf` becomes `anyOf` (a drifting answer may match two branches); beside an
    `anyOf`, it joins `allOf`."""
    assert view({"oneOf": [{"type": "string"}]}) == {
        "type": "object",
        "anyOf": [{"type": ["string", "null"]}],
    }
    both = view({"anyOf": [{"type": "string"}], "oneOf": [{"type": "integer"}]})
    assert both == {
        "type": "object",
        "anyOf": [{"type": ["string", "null"]}],
        "allOf": [{"anyOf": [{"type": ["integer", "null"]}]}],
    }


def test_items_beside_prefix_items_is_dropped() -> None:
    """S16.7: the TypeScript client's Ajv reads `items` the draft-07 way, so beside
    `prefixItems` it would judge every item; `prefixItems` alone stays."""
    pair = {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    assert view({"properties": {"pair": pair}})["properties"]["pair"] == {
        "type": ["array", "null"],
        "prefixItems": [{"type": ["string", "null"]}],
    }


def test_the_root_stays_an_object_and_keeps_its_dialect() -> None:
    """S16.7, S16.3: MCP requires `type: "object"` at the root; a declared dialect stays."""
    declared = "http://json-schema.org/draft-07/schema#"
    assert shape_view({"$schema": declared, "type": "object", "required": ["a"]}) == {
        "$schema": declared,
        "type": "object",
    }


def chain(length: int) -> dict[str, Any]:
    """A root whose property refers to D0, D0 to D1, ... each with a string `name`."""
    defs = {
        f"D{i}": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                **({"next": {"$ref": f"#/$defs/D{i + 1}"}} if i + 1 < length else {}),
            },
        }
        for i in range(length)
    }
    return {"type": "object", "properties": {"first": {"$ref": "#/$defs/D0"}}, "$defs": defs}


def test_a_reference_past_two_hops_becomes_anything() -> None:
    """S16.7: a `$ref` reached through more than two `$ref`s becomes `{}`; only the `$defs`
    still referenced are kept."""
    shaped = shape_view(chain(5))
    assert shaped["properties"] == {"first": {"$ref": "#/$defs/D0"}}
    assert sorted(shaped["$defs"]) == ["D0", "D1@2"]  # the second hop's version: `@2`
    assert shaped["$defs"]["D0"]["properties"]["next"] == {"$ref": "#/$defs/D1@2"}
    assert shaped["$defs"]["D1@2"]["properties"] == {
        "name": {"type": ["string", "null"]},
        "next": {},
    }


def test_a_definition_reached_at_two_depths_has_a_version_for_each() -> None:
    """S16.7: a tree node reached at the first and at the second hop is two definitions, the
    second with its own references cut."""
    node = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    }
    shaped = shape_view(
        {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": node},
        }
    )
    assert shaped["$defs"] == {
        "Node": {
            "type": ["object", "null"],
            "properties": {
                "children": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Node@2"}}
            },
        },
        "Node@2": {
            "type": ["object", "null"],
            "properties": {"children": {"type": ["array", "null"], "items": {}}},
        },
    }


def test_the_tools_of_a_document_share_each_version() -> None:
    """S16.7: a definition's version is one object for every tool that keeps it (so plans
    files write it once); a root whose names hold `@` is shaped on its own."""
    from toolshape.model._types import ShapeMemo

    memo: ShapeMemo = {}
    first, second = shape_view(chain(4), memo), shape_view(chain(4), memo)
    assert first == second
    document = chain(4)
    one, two = shape_view(document, memo), shape_view(document, memo)
    assert one["$defs"]["D0"] is two["$defs"]["D0"]
    assert one["$defs"]["D1@2"] is two["$defs"]["D1@2"]
    odd = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A@2"}}, "$defs": {"A@2": {}}}
    assert shape_view(odd, memo) == shape_view(odd)


def test_unused_definitions_are_pruned() -> None:
    shaped = shape_view(
        {"type": "object", "properties": {"a": {"type": "string"}}, "$defs": {"Unused": {}}}
    )
    assert "$defs" not in shaped


def stripe_like() -> dict[str, Any]:
    """A response whose objects refer onwards through twenty definitions, like Stripe's
    expandable fields: the exact schema carries every one of them."""
    schemas = {
        f"D{i}": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string", "description": f"The id of a D{i}."},
                "next": {"$ref": f"#/components/schemas/D{(i + 1) % 20}"},
            },
        }
        for i in range(20)
    }
    return doc(json_response({"$ref": "#/components/schemas/D0"}), components={"schemas": schemas})


def test_the_shape_view_is_smaller_and_the_exact_view_is_as_read() -> None:
    """S16.7: `"exact"` is S16.3's schema; `"shape"` is smaller; `"off"` (and `False`) is
    none; `True` is the shape view."""
    exact = one(stripe_like(), options=Options.preset(output_schemas="exact")).output_schema
    shape = one(stripe_like()).output_schema
    assert exact is not None
    assert shape is not None
    assert exact["required"] == ["id"]
    assert len(exact["$defs"]) == 20
    assert sorted(shape["$defs"]) == ["D1", "D2@2"]  # D0 is the root; D3 is past two hops
    assert len(json.dumps(shape)) * 5 < len(json.dumps(exact))
    assert one(stripe_like(), options=Options.preset(output_schemas=True)).output_schema == shape
    for off in ("off", False):
        assert one(stripe_like(), options=Options.preset(output_schemas=off)).output_schema is None


def test_the_view_travels_with_the_plan_and_a_contradiction_is_refused() -> None:
    """S15.1, S16.7: the plan records its view; `off` beside an output schema is refused."""
    plan = one(stripe_like(), options=Options.preset(output_schemas="exact"))
    data = plan.to_dict()
    assert data["outputView"] == "exact"
    assert Plan.from_dict(data).output_view == "exact"
    data["outputView"] = "off"
    with pytest.raises(PlanDataError) as caught:
        Plan.from_dict(data)
    assert caught.value.field == "outputView"
    assert "is 'off', beside an output schema" in str(caught.value)


BOOLEANS = {
    "type": "object",
    "properties": {"anything": True, "nothing": False, "deep": {"properties": {"x": True}}},
}


def test_boolean_property_schemas_are_advertised_as_objects() -> None:
    """S16.5: the TypeScript client's `listTools` refuses a non-object directly under a root's
    `properties`: `true` is advertised as `{}`, `false` as `{"not": {}}`, input and output;
    deeper booleans stay."""
    document = doc(
        {
            "requestBody": {"content": {"application/json": {"schema": BOOLEANS}}},
            **json_response(BOOLEANS),
        },
        method="post",
    )
    for options in (Options(), Options.preset(output_schemas="exact")):
        (plan,) = plan_document(document, style="flat", options=options).tools
        tool = plan.to_mcp_tool()
        for schema in (tool["inputSchema"], tool["outputSchema"]):
            assert schema["properties"]["anything"] == {}
            assert schema["properties"]["nothing"] == {"not": {}}
            assert schema["properties"]["deep"]["properties"]["x"] is True
        assert plan.input_schema["properties"]["anything"] is True  # the plan keeps its own


# -- S25.1 the output schema's budget ----------------------------------------------------------

TEXT = "x" * 400


def chained(levels: int) -> dict[str, Any]:
    """A document whose answer names `L0`, which names `L1`, ... each with 400 bytes of text."""
    schemas = {
        f"L{i}": {
            "type": "object",
            "description": TEXT,
            "properties": {
                "next": {"$ref": f"#/components/schemas/L{i + 1}"},
                "n": {"type": "integer"},
            },
        }
        for i in range(levels)
    }
    schemas[f"L{levels}"] = {"type": "object", "properties": {"n": {"type": "integer"}}}
    answer = {
        "type": "object",
        "title": "Page",
        "description": "One page.",
        "properties": {"data": {"$ref": "#/components/schemas/L0"}},
    }
    return doc(json_response(answer), components={"schemas": schemas})


def cut_notes(plan: Plan) -> list[str]:
    return [d.message for d in plan.diagnostics if "cut to its budget" in d.message]


@pytest.mark.parametrize(
    ("budget", "defs", "cut"),
    [
        (None, ["L0", "L1@2"], False),  # no budget: S16.7's two hops
        (8192, ["L0", "L1@2"], False),  # it fits
        (1000, ["L0"], True),  # one hop fits (two take 1,147 bytes)
        (300, [], True),  # only none fits: the root's properties, every `$ref` as `{}`
        (60, None, True),  # the root's kind alone, with its text
    ],
)
def test_an_output_schema_over_its_budget_is_cut_hop_by_hop(
    budget: int | None, defs: list[str] | None, cut: bool
) -> None:
    """S25.1: over `output_schema_budget` bytes, the shape view follows `$ref` chains one hop
    fewer at a time, then keeps the root's kind alone with its title and description; each
    cut is an `info` diagnostic naming the bytes before and after; the view stays within the
    budget and an answer is still structured."""
    plan = one(chained(4), options=Options.preset(output_schema_budget=budget))
    schema = plan.output_schema
    assert schema is not None
    size = len(json.dumps(schema, separators=(",", ":")).encode())
    if budget is not None:
        assert size <= budget
    if defs is None:
        assert schema == {"type": "object", "title": "Page", "description": "One page."}
    else:
        assert sorted(schema.get("$defs", {})) == defs
    notes = cut_notes(plan)
    assert len(notes) == (1 if cut else 0)
    if cut:
        assert f"is {size} bytes with references followed fewer hops" in notes[0]
        assert f"over the output schema budget of {budget} (output_schema_budget)" in notes[0]
    answer = {"data": {"n": 1, "next": {"n": 2, "next": {"n": 3}}}}
    result = plan.result(200, {"content-type": "application/json"}, json.dumps(answer).encode())
    assert result["isError"] is False
    assert result["structuredContent"] == answer


def test_the_counted_size_is_the_written_size() -> None:
    """S25.1: the size the budget compares is the view's compact JSON, counted from each
    shared definition's size, exactly."""
    from toolshape.schema._shape import size, sized_shape_view

    root = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "é": {"$ref": "#/$defs/B"}},
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "string", "description": "ünïcode"},
        },
    }
    for hops in (0, 1, 2):
        shaped, counted = sized_shape_view(root, {}, hops)
        assert counted == size(shaped)


def test_an_exact_output_schema_is_never_cut() -> None:
    """S25.1: the budget applies to the shape view only; `exact` is what was asked for."""
    plan = one(chained(4), options=Options.preset(output_schemas="exact", output_schema_budget=100))
    assert plan.output_schema is not None
    assert "L3" in plan.output_schema["$defs"]
    assert cut_notes(plan) == []
