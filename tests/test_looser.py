"""S14.3: a tool never accepts what the document rejects — the cases that once slipped through.

Each test plans the smallest document that showed the hole and calls the tool.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import make_document
from toolshape import ArgumentError, Plan, PlanError, plan_operation


def flat(prop: Any, **kw: Any) -> Plan:
    doc = make_document({"type": "object", "properties": {"v": prop}}, [], **kw)
    (plan,) = plan_operation(doc, "/search", "post", style="flat")
    return plan


def rejected(plan: Plan, value: Any) -> bool:
    try:
        plan.call({"v": value})
    except ArgumentError:
        return True
    return False


def rejected_by(plan: Plan, value: Any) -> str:
    """The keyword that rejected the call (the validator's, not routing's)."""
    with pytest.raises(ArgumentError) as caught:
        plan.call({"v": value})
    return caught.value.errors[0].keyword


@pytest.mark.parametrize(
    ("schema", "value", "keyword"),
    [
        # jsonschema: NaN passes `minimum` (NaN < 5 is false), so `not` fails.
        ({"not": {"minimum": 5}}, float("nan"), "not"),
        ({"not": {"exclusiveMaximum": 0}}, float("nan"), "not"),
        ({"oneOf": [{"minimum": 5}, {"maximum": 10}]}, float("nan"), "oneOf"),  # both match
        ({"contains": {"minimum": 5}, "maxContains": 1}, [float("nan")] * 2, "maxContains"),
        ({"not": {"multipleOf": 2}}, 4.0, "not"),
        ({"not": {"enum": [1]}}, 1.0, "not"),
        ({"not": {"uniqueItems": True}}, [1, 2], "not"),
    ],
)
def test_negated_and_counted_checks_reject_as_jsonschema_does(
    schema: Any, value: Any, keyword: str
) -> None:
    """S14.3: under `not`, `oneOf` counting and `maxContains`, the fast path's "invalid" is as
    exact as its "valid", so NaN and its kin are rejected by the validator exactly where
    jsonschema rejects them (not only later, as values JSON can't spell)."""
    assert rejected_by(flat(schema), value) == keyword


def test_nan_where_jsonschema_accepts_it_is_still_not_json() -> None:
    """S14.4: a value JSON can't spell never reaches the request, even where a schema allows it."""
    with pytest.raises(ArgumentError, match="not JSON values"):
        flat({"type": "number"}).call({"v": float("nan")})


def test_a_property_id_over_a_rewritten_reference_is_a_planning_error() -> None:
    """S1.2: an `$id` would re-base the `#/$defs/...` pointer below it (accepting anything or
    nothing), so it is refused instead of served wrong."""
    components = {"schemas": {"Int": {"type": "integer"}}}
    doc = make_document(
        {
            "type": "object",
            "properties": {
                "v": {
                    "$id": "https://example.com/v",
                    "properties": {"n": {"$ref": "#/components/schemas/Int"}},
                }
            },
        },
        [],
        components=components,
    )
    with pytest.raises(PlanError) as caught:
        plan_operation(doc, "/search", "post", style="flat")
    assert (caught.value.kind, caught.value.rule) == ("reference", "S1.2")
    assert "has `$id`, which would re-base the references inside it" in caught.value.message


def test_an_id_with_nothing_to_re_base_is_kept() -> None:
    """S1.2: an `$id` over a schema without references changes nothing, so it plans."""
    plan = flat({"$id": "https://example.com/v", "type": "integer"})
    assert rejected(plan, "x")
    assert not rejected(plan, 3)


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_two_dialects_in_one_tool_are_refused_not_read_as_one(style: str) -> None:
    """S4.7: a draft-07 body beside 2020-12 parameters was read wholly as draft-07 (so the
    parameters' 2020-12 keywords meant nothing); now it is a planning error in either style."""
    doc = make_document(
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {}},
        [
            {
                "name": "ids",
                "in": "query",
                "schema": {"type": "array", "prefixItems": [{"type": "integer"}]},
            }
        ],
    )
    with pytest.raises(PlanError) as caught:
        plan_operation(doc, "/search", "post", style=style)
    assert (caught.value.kind, caught.value.rule) == ("schema", "S4.7")
    assert "http://json-schema.org/draft-07/schema#" in caught.value.message
    assert "https://json-schema.org/draft/2020-12/schema" in caught.value.message
