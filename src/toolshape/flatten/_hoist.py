"""S5, S6.2: deciding whether a body's properties can become top-level arguments."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Literal, NamedTuple

from toolshape.flatten._allof import merge_allof
from toolshape.flatten._keywords import (
    CONDITIONAL_KEYWORDS,
    DYNAMIC_REF_KEYWORDS,
    OBJECT_COUNTING_KEYWORDS,
    UNION_KEYWORDS,
    WHOLE_BODY_KEYWORDS,
)
from toolshape.flatten._union import merge_union
from toolshape.model._dialects import DIALECTS, DRAFT2020_12
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import references
from toolshape.model._types import Hoisted, Schema, Wrapped

_DECLARE = (
    "Declare the request body as an object with `properties` to have its fields become "
    "top-level tool arguments"
)


def _remove(keyword: str) -> str:
    return f"Remove `{keyword}` from the request body's root to have its fields become top-level tool arguments"


class _Switches(NamedTuple):
    """The profile's switches that hoisting reads (S10): see `hoist_body`."""

    flatten_unions: bool
    composed_bodies: Literal["merge", "wrap"]
    untyped_body: Literal["unflattenable", "flatten"]
    strict_roots: bool


def hoist_body(
    schema: Schema | None,
    defs: Mapping[str, Schema] | None = None,
    *,
    dialect: str = DRAFT2020_12,
    flatten_unions: bool = False,
    composed_bodies: Literal["merge", "wrap"] = "merge",
    untyped_body: Literal["unflattenable", "flatten"] = "unflattenable",
    strict_roots: bool = True,
) -> Hoisted | Wrapped:
    """The body's properties to hoist to the flat root (S5, S6), or why they can't be.

    `schema` is the body schema after S1.3 (`None` when the media type has no schema);
    `defs` resolves `#/$defs/<name>` references; `dialect` is the body's dialect (S1.7). The
    switches are `Options`' of those names (S10, the `2026-11-06` values by default):
    `flatten_unions` merges a root union of objects (S11), `composed_bodies="wrap"` keeps a
    root `allOf` or `dependentRequired` wrapped, `untyped_body="flatten"` hoists `properties`
    without `type`, `strict_roots=False` leaves out S5's rows 6-10.
    Never raises for any JSON input; never mutates `schema`.

        >>> hoist_body({"type": "object", "properties": {"q": {"type": "string"}}})
        Hoisted(properties={'q': {'type': 'string'}}, required=(), additional_properties=None, dependent_required=None, composed=False, widened=None)
    """
    options = _Switches(flatten_unions, composed_bodies, untyped_body, strict_roots)
    defs = defs or {}
    if schema is None:
        return Wrapped(
            "the media type has no `schema`, so there are no properties to hoist. "
            "Give the media type a `schema` that is an object with `properties`",
            "S5.11",
            "schema",
        )
    if not is_map(schema):
        return Wrapped(
            f"the `body` schema is not an object schema (it is the boolean schema "
            f"`{json.dumps(schema)}`, with no `type`), so it has no properties to hoist. {_DECLARE}",
            "S5.1",
            "type",
        )
    merged = _merged(schema, defs, dialect, options)
    if isinstance(merged, Wrapped):
        return merged
    schema, composed, widened = merged
    refused = _not_an_object(schema, options)
    if refused is not None:
        return refused
    properties = schema["properties"]
    known = DIALECTS.get(dialect, DIALECTS[DRAFT2020_12])
    refused = _root_problem(schema, properties, defs, known.unevaluated and not composed, options)
    if refused is not None:
        return refused
    dependent = schema.get("dependentRequired") if known.dependent_required else None
    if dependent is not None:
        refused = _dependent_problem(dependent, properties, options)
        if refused is not None:
            return refused
        composed = True
    required = schema.get("required", [])
    return Hoisted(
        properties=properties,
        required=tuple(r for r in required if isinstance(r, str))
        if isinstance(required, list)
        else (),
        additional_properties=schema.get("additionalProperties"),
        dependent_required=(
            {k: tuple(v) for k, v in dependent.items()} if is_map(dependent) else None
        ),
        composed=composed,
        widened=widened,
    )


def _merged(
    schema: Mapping[str, Unchecked], defs: Mapping[str, Schema], dialect: str, options: _Switches
) -> tuple[Mapping[str, Unchecked], bool, tuple[str, ...] | None] | Wrapped:
    """S6.1, S11: a root union (opted in) or `allOf` merged into one object — the schema,
    whether it was composed, what a union widened — or why not (S5.3, S5.10)."""
    if not options.flatten_unions:
        # S5: a root union names what the author wrote, before a missing `type` (rows 1-2).
        for keyword in UNION_KEYWORDS:
            if keyword in schema:
                return _conditional(keyword)
    composed, widened = False, None
    if (
        options.flatten_unions
        and ("oneOf" in schema or "anyOf" in schema)
        and "allOf" not in schema
    ):
        union = merge_union(schema, defs, dialect=dialect)
        if isinstance(union, Wrapped):
            return union
        schema, composed, widened = union.schema, True, union.widened
    if "allOf" in schema:
        if options.composed_bodies == "wrap":
            return Wrapped(
                "the `body` schema has a root `allOf`, which this profile keeps wrapped. "
                'Use the 2026-11-06 profile (composed_bodies="merge") to merge a qualifying '
                "`allOf`",
                "S5.10",
                "allOf",
            )
        merged = merge_allof(schema, defs, dialect=dialect)
        if isinstance(merged, Wrapped):
            return merged
        schema, composed = merged, True
    return schema, composed, widened


def _not_an_object(schema: Mapping[str, Unchecked], options: _Switches) -> Wrapped | None:
    """S5.1, S5.2: why the body is not an object schema with `properties`, or None."""
    kind = schema.get("type")
    if kind is None:
        if options.untyped_body == "unflattenable" or "properties" not in schema:
            return Wrapped(
                "the `body` schema has no `type`, so it is not known to be an object and has "
                'no properties to hoist. Declare `"type": "object"` with `properties` to have '
                "its fields become top-level tool arguments",
                "S5.1",
                "type",
            )
    elif kind != "object":
        return Wrapped(
            f"the `body` schema is not an object schema (`type` is {json.dumps(kind)}), so it "
            f"has no properties to hoist. {_DECLARE}",
            "S5.1",
            "type",
        )
    properties = schema.get("properties")
    if is_map(properties):
        return None
    what = "has no `properties`" if properties is None else "has `properties` that is not an object"
    return Wrapped(
        f"the `body` schema {what}, so it has no properties to hoist. {_DECLARE}",
        "S5.2",
        "properties",
    )


def _root_problem(
    schema: Mapping[str, Unchecked],
    properties: Mapping[str, Unchecked],
    defs: Mapping[str, Schema],
    unevaluated: bool,
    options: _Switches,
) -> Wrapped | None:
    """S5.3-S5.9: a root keyword that would also judge the parameters at the flat root, or
    None; `unevaluated` says whether `unevaluatedProperties` counts (S5.5)."""
    for keyword in CONDITIONAL_KEYWORDS:
        if keyword in schema:
            return _conditional(keyword)
    for keyword in OBJECT_COUNTING_KEYWORDS:
        if keyword in schema:
            return Wrapped(
                f"the `body` schema has `{keyword}` at its root, which would also count or "
                f"constrain the parameters at the flat root. {_remove(keyword)}",
                "S5.4",
                keyword,
            )
    if "unevaluatedProperties" in schema and unevaluated:
        return Wrapped(
            "the `body` schema has `unevaluatedProperties` at its root, which would also judge "
            "the parameters at the flat root. Use `additionalProperties` instead to have its "
            "fields become top-level tool arguments",
            "S5.5",
            "unevaluatedProperties",
        )
    if options.strict_roots:
        return _strict_roots(schema, properties, defs)
    return None


def _dependent_problem(
    dependent: Unchecked, properties: Mapping[str, Unchecked], options: _Switches
) -> Wrapped | None:
    """S6.2: why a `dependentRequired` can't be copied to the flat root, or None."""
    if options.composed_bodies == "wrap":
        return Wrapped(
            "the `body` schema has `dependentRequired`, which this profile keeps wrapped. "
            'Use the 2026-11-06 profile (composed_bodies="merge") to copy a qualifying '
            "`dependentRequired` to the flat root",
            "S5.10",
            "dependentRequired",
        )
    outside = _outside_names(dependent, properties)
    if outside is None:
        return None
    return Wrapped(
        f"the `body` schema's `dependentRequired` names `{outside}`, which its "
        "`properties` does not declare, so a parameter of that name could satisfy it at "
        "the flat root. Name only the body's own properties in `dependentRequired`",
        "S5.10",
        "dependentRequired",
    )


def _conditional(keyword: str) -> Wrapped:
    """S5.3: the reason for a root applicator; a union's fix also names the S11 opt-in."""
    fix = "Describe the request body as one object with `properties`"
    if keyword in UNION_KEYWORDS:
        fix += (
            ", or turn on `flatten_unions` (S11) to merge object variants into one flat object "
            "that the union still judges"
        )
    return Wrapped(
        f"the `body` schema has `{keyword}` at its root, so which fields are valid depends on "
        f"the body as a whole and they can't be hoisted one by one. {fix}",
        "S5.3",
        keyword,
    )


def _strict_roots(
    schema: Mapping[str, Unchecked], properties: Mapping[str, Unchecked], defs: Mapping[str, Schema]
) -> Wrapped | None:
    """S5.6-S5.9, the rows that apply from 2026-11-06."""
    for keyword in WHOLE_BODY_KEYWORDS:
        if keyword in schema:
            why = {
                "$id": "which changes how the references inside it resolve",
                "$defs": "which would no longer resolve from the flat root",
                "definitions": "which would no longer resolve from the flat root",
                "dependencies": "which would also count or constrain the parameters at the flat root",
            }.get(
                keyword,
                "which judges the body as a whole and can't be carried by separate arguments",
            )
            return Wrapped(
                f"the `body` schema has `{keyword}` at its root, {why}. {_remove(keyword)}",
                "S5.6",
                keyword,
            )
    for keyword in DYNAMIC_REF_KEYWORDS:
        if keyword in schema:
            return Wrapped(
                f"the `body` schema has `{keyword}` at its root, so what it accepts is only known "
                f"when the reference is followed. {_remove(keyword)}",
                "S5.7",
                keyword,
            )
    if "$ref" in schema:
        return Wrapped(
            "the `body` schema has a `$ref` with other keywords beside it at its root, so the "
            "referenced schema would also judge the parameters at the flat root. Move the "
            "other keywords into the referenced schema, or make the body only the `$ref`",
            "S5.7",
            "$ref",
        )
    required = schema.get("required", [])
    if isinstance(required, list):
        for name in required:
            if name not in properties:
                return Wrapped(
                    f"the `body` schema's `required` names `{name}`, which its `properties` does not "
                    f"declare, so no flat argument could carry it. Declare `{name}` in `properties`",
                    "S5.8",
                    "required",
                )
    anchor = schema.get("$dynamicAnchor")
    recursive = schema.get("$recursiveAnchor") is True
    if not isinstance(anchor, str) and not recursive:
        return None
    inside = [*references(schema), *(r for d in defs.values() for r in references(d))]
    # A `$ref` can't name an anchor (S1.2), so `#node` is a `$dynamicRef`, `#` a `$recursiveRef`.
    targeted = isinstance(anchor, str) and any(r.endswith("#" + anchor) for r in inside)
    if recursive:
        targeted = targeted or "#" in inside
    if targeted:
        keyword = "$dynamicAnchor" if isinstance(anchor, str) else "$recursiveAnchor"
        return Wrapped(
            f"the `body` schema's root `{keyword}` is the target of a dynamic reference inside "
            "it, so the recursion would require the parameters again at every nested level. "
            "Use a plain `$ref` to a component for the recursion",
            "S5.9",
            keyword,
        )
    return None


def _outside_names(dependent: Unchecked, properties: Mapping[str, Unchecked]) -> str | None:
    """The first name `dependentRequired` mentions that is not a body property (S6.2)."""
    if not is_map(dependent):
        return "(not an object)"
    for key, names in dependent.items():
        if key not in properties:
            return str(key)
        for name in names if isinstance(names, list) else [names]:
            if not isinstance(name, str) or name not in properties:
                return str(name)
    return None
