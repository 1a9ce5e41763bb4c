"""The reader's reference and conversion rules, each a function, as tables: the pointer a
`$ref` names (S1.2, S26.7), the `$defs` name a referenced schema gets (S4.4), and one schema
converted (`convert`: S1.4's 3.0 conversion and 3.1 repair, S4.4's references into `$defs`,
S13.3 and S16.6's findings, S1.2 and S14.4's refusals)."""

from __future__ import annotations

from typing import Any

import pytest

from toolshape.model._dialects import DRAFT2020_12, OPENAPI30
from toolshape.read._convert import Context, Converted, Found, convert
from toolshape.read._problem import Problem
from toolshape.read._refs import DefNames, References, pointer_of


@pytest.mark.parametrize(
    ("ref", "self_uri", "pointer"),
    [
        ("#/components/schemas/Pet", None, "/components/schemas/Pet"),
        ("#/components/schemas/a~1b", None, "/components/schemas/a~1b"),
        ("#/components/schemas/with%20space", None, "/components/schemas/with space"),
        # S26.7: a reference resolving to the document's own `$self` is local.
        (
            "https://x.test/api.json#/components/schemas/Pet",
            "https://x.test/api.json",
            "/components/schemas/Pet",
        ),
        ("api.json#/components/schemas/Pet", "https://x.test/api.json", "/components/schemas/Pet"),
    ],
)
def test_a_local_reference_names_a_pointer(ref: str, self_uri: str | None, pointer: str) -> None:
    assert pointer_of(ref, self_uri) == pointer


@pytest.mark.parametrize(
    ("ref", "self_uri", "message"),
    [
        (
            "other.json#/Pet",
            None,
            "reference `other.json#/Pet` is not local to the document; toolshape never "
            "retrieves anything, so bundle it into the document",
        ),
        (
            "https://y.test/api.json#/Pet",
            "https://x.test/api.json",
            "reference `https://y.test/api.json#/Pet` is not local to the document (its "
            "`$self` is `https://x.test/api.json`); toolshape never retrieves anything, so "
            "bundle it into the document",
        ),
        ("#node", None, "reference `#node` is an anchor, not a JSON pointer"),
        ("#", None, "reference `#` points at the document root, not a schema"),
    ],
)
def test_a_reference_out_of_the_document_is_refused(
    ref: str, self_uri: str | None, message: str
) -> None:
    with pytest.raises(Problem) as caught:
        pointer_of(ref, self_uri)
    assert (caught.value.kind, caught.value.reason, caught.value.rule) == (
        "reference",
        message,
        "S1.2",
    )


def test_defs_names_keep_component_names_and_make_others_unique() -> None:
    """S4.4: a component keeps its name; another pointer's name is its path made safe, and
    numbered past any name already given or a component's."""
    names = DefNames({"Pet": {}, "paths_x": {}})
    assert names("/components/schemas/Pet") == "Pet"
    assert names("/paths/x") == "paths_x_2"
    assert names("/paths/x") == "paths_x_2"  # one name per pointer
    assert names("/paths~1x") == "paths_x_3"
    assert names.pointer == {
        "Pet": "/components/schemas/Pet",
        "paths_x_2": "/paths/x",
        "paths_x_3": "/paths~1x",
    }


def _converted(schema: Any, *, version: str = "3.1.0", **components: Any) -> Converted:
    document = {"openapi": version, "components": {"schemas": components}}
    context = Context(
        References(document), DefNames(components), version.startswith("3.0"), components
    )
    dialect = OPENAPI30 if version.startswith("3.0") else DRAFT2020_12
    return convert(context, schema, "/x", dialect)


@pytest.mark.parametrize(
    ("schema", "version", "expected"),
    [
        # S1.4: 3.0's nullable becomes a type list; its boolean bounds become numbers.
        ({"type": "string", "nullable": True}, "3.0.3", {"type": ["string", "null"]}),
        (
            {"type": "number", "minimum": 1, "exclusiveMinimum": True},
            "3.0.3",
            {"type": "number", "exclusiveMinimum": 1},
        ),
        # S1.4: true and false are schemas, copied as they are.
        (True, "3.1.0", True),
        # S4.4: a reference points into `$defs`, under the component's name.
        (
            {"items": {"$ref": "#/components/schemas/Pet"}},
            "3.1.0",
            {"items": {"$ref": "#/$defs/Pet"}},
        ),
        # S4.4: a bare discriminator mapping name is a component's.
        (
            {"discriminator": {"propertyName": "k", "mapping": {"p": "Pet"}}},
            "3.1.0",
            {"discriminator": {"propertyName": "k", "mapping": {"p": "#/$defs/Pet"}}},
        ),
    ],
)
def test_a_schema_is_converted(schema: Any, version: str, expected: Any) -> None:
    assert _converted(schema, version=version, Pet={"type": "object"}).schema == expected


def test_the_references_met_are_returned_in_order_once_each_time() -> None:
    converted = _converted(
        {
            "anyOf": [{"$ref": "#/components/schemas/B"}, {"$ref": "#/components/schemas/A"}],
            "not": {"$ref": "#/components/schemas/B"},
        },
        A={},
        B={},
    )
    assert converted.refs == ("B", "A", "B")


@pytest.mark.parametrize(
    ("schema", "found"),
    [
        ({"type": "string"}, Found()),
        ({"properties": {"id": {"readOnly": True}}}, Found(request=True)),
        ({"properties": {"pw": {"writeOnly": True}}}, Found(response=True)),
        ({"type": "string", "format": "binary"}, Found(request=True)),
        ({"type": "string", "contentMediaType": "application/octet-stream"}, Found(request=True)),
        ({"pattern": "(a+)+$"}, Found(patterns=True)),  # nested quantifiers (S13.3)
        ({"pattern": r"\p{L}"}, Found(patterns=True)),  # Python's re can't read it
        ({"patternProperties": {"^(x+)+$": {}}}, Found(patterns=True)),
        ({"pattern": "^[a-z]+$"}, Found()),
    ],
)
def test_a_conversion_returns_what_later_steps_look_for(schema: Any, found: Found) -> None:
    """S16.6, S17.5: what the request and response views change; S13.3: patterns that need
    another engine."""
    assert _converted(schema).found == found


@pytest.mark.parametrize(
    ("schema", "kind", "reason", "rule"),
    [
        (
            {"properties": {"a": 3}},
            "schema",
            "expected a schema at `/x/properties/a`, found a number",
            "S1.4",
        ),
        (
            {"minLength": "3"},
            "schema",
            "`minLength` at `/x` is '3', but the JSON Schema meta-schema says it must be a "
            "non-negative integer. Fix the schema",
            "S1.4",
        ),
        (
            {"$id": "urn:x", "items": {"$ref": "#/components/schemas/A"}},
            "reference",
            "the schema at `/x` has `$id`, which would re-base the references inside it, but "
            "toolshape reads every reference as a pointer into the document. Remove `$id`",
            "S1.2",
        ),
        (
            {"items": {"$ref": "#/components/schemas/Missing"}},
            "reference",
            "reference `#/components/schemas/Missing` points to nothing in the document",
            "S1.2",
        ),
        (
            {"$recursiveRef": "#/x"},
            "reference",
            "`$recursiveRef` `#/x` at `/x` is not `#`, the only value that stays inside the "
            "document",
            "S1.2",
        ),
        (
            {"discriminator": {"propertyName": "k", "mapping": {"p": "Nope"}}},
            "reference",
            "the discriminator mapping at `/x/discriminator` maps `p` to `Nope`, which names "
            "no schema in `#/components/schemas`",
            "S1.2",
        ),
        (
            {"maximum": float("inf")},
            "schema",
            "the number at `/x/maximum` is inf, which JSON can't write, so no advertised "
            "schema can hold it. Use a finite number",
            "S14.4",
        ),
        (
            {"$schema": "http://json-schema.org/draft-04/schema#"},
            "schema",
            "the schema at `/x` declares `$schema` draft-04, a dialect toolshape does not "
            "plan. Use JSON Schema 2020-12 (or draft-07)",
            "S1.7",
        ),
    ],
)
def test_a_schema_that_cannot_be_planned_is_refused(
    schema: Any, kind: str, reason: str, rule: str
) -> None:
    with pytest.raises(Problem) as caught:
        _converted(schema, A={})
    assert (caught.value.kind, caught.value.reason, caught.value.rule) == (kind, reason, rule)


def test_shared_sub_objects_that_expand_too_far_are_refused() -> None:
    """S14.4: what a YAML loader builds from anchors is measured once shared."""
    node: Any = {"type": "string"}
    for _ in range(40):
        node = {"anyOf": [node, node]}
    with pytest.raises(Problem) as caught:
        _converted(node)
    assert caught.value.rule == "S14.4"
    assert "shared sub-objects" in caught.value.reason
