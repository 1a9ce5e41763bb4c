"""S6.1: merging a root `allOf` into one object schema."""

from __future__ import annotations

import json
from collections.abc import Mapping

from toolshape.flatten._keywords import BRANCH_KEYWORDS, is_annotation
from toolshape.model._dialects import DIALECTS, DRAFT2020_12, Dialect
from toolshape.model._json import Unchecked, equal, is_map
from toolshape.model._pointers import follow
from toolshape.model._types import Schema, Wrapped

_HOW = 'Give every branch `"type": "object"` with only `properties`, `required` and annotations'


def resolve_local(schema: Schema, defs: Mapping[str, Schema]) -> Schema:
    """What a chain of `$ref`-only schemas into `defs` names (the schema itself otherwise)."""
    found: Schema = follow(schema, defs).schema
    return found


def merge_allof(
    schema: Mapping[str, Unchecked],
    defs: Mapping[str, Schema] | None = None,
    *,
    dialect: str = DRAFT2020_12,
) -> dict[str, Unchecked] | Wrapped:
    """Merge a body whose root is `allOf` into one object schema (S6.1), or say why not.

    `defs` resolves branches that are `$ref`s to `#/$defs/<name>`. The merged schema has
    `type`, `properties`, the union of `required`, and `additionalProperties: false` when the
    root carries `unevaluatedProperties: false` in a dialect that has it.

        >>> merge_allof({
        ...     "allOf": [
        ...         {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        ...         {"type": "object", "properties": {"note": {"type": "string"}}},
        ...     ],
        ...     "unevaluatedProperties": False,
        ... })
        {'type': 'object', 'properties': {'id': {'type': 'string'}, 'note': {'type': 'string'}}, 'required': ['id'], 'additionalProperties': False}
    """
    defs = defs or {}
    known = DIALECTS.get(dialect, DIALECTS[DRAFT2020_12])
    branches = schema.get("allOf")
    if not isinstance(branches, list) or not branches:
        return Wrapped(
            "the `body` schema's root `allOf` is not a non-empty list of schemas, so there is "
            "nothing to merge. Declare the request body as an object with `properties`",
            "S5.10",
            "allOf",
        )
    problem = _beside_allof(schema, known)
    if problem is not None:
        return problem
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for index, raw in enumerate(branches):
        problem = _merge_branch(resolve_local(raw, defs), index, properties, required)
        if problem is not None:
            return problem
    merged: dict[str, Unchecked] = {
        "type": "object",
        "properties": properties,
        "required": required,
    }
    if schema.get("unevaluatedProperties") is False and known.unevaluated:
        merged["additionalProperties"] = False
    return merged


def _beside_allof(schema: Mapping[str, Unchecked], known: Dialect) -> Wrapped | None:
    """S6.1: why a keyword beside the root `allOf` keeps it from merging, or None."""
    for key, value in schema.items():
        if key == "allOf" or is_annotation(key):
            continue
        if (key == "type" and value == "object") or key == "$schema":
            continue  # S6.1: `$schema` only names the dialect, already read (S1.7)
        if key == "unevaluatedProperties" and (value is False or not known.unevaluated):
            continue
        if key == "additionalProperties":
            return Wrapped(
                "the `body` schema has `additionalProperties` beside its root `allOf`, which "
                "applies only to the root's own `properties` and would not close the merged "
                "object. Use `unevaluatedProperties: false` to close a composed body",
                "S5.10",
                key,
            )
        if key == "unevaluatedProperties":
            return Wrapped(
                "the `body` schema's `unevaluatedProperties` beside its root `allOf` is "
                f"{json.dumps(value)}, not `false`, so the merged object can't carry it. "
                "Use `unevaluatedProperties: false` or remove it",
                "S5.10",
                key,
            )
        return Wrapped(
            f"the `body` schema has `{key}` beside its root `allOf`, so the branches can't be "
            'merged into one object. Keep only `type: "object"`, `unevaluatedProperties: '
            "false`, `$schema` and annotations beside `allOf`",
            "S5.10",
            key,
        )
    return None


def _merge_branch(
    branch: Unchecked, index: int, properties: dict[str, Schema], required: list[str]
) -> Wrapped | None:
    """S6.1: adds branch `index`'s properties and required names to those merged so far, or
    says why it can't be merged."""
    where = f"the `body` schema's root `allOf` branch {index}"
    if not is_map(branch) or branch.get("type") != "object":
        if not is_map(branch):
            shown = f"the boolean schema `{json.dumps(branch)}`"
        elif "$ref" in branch:
            shown = "a `$ref` with other keywords beside it"
        elif "type" not in branch:
            shown = "a schema with no `type`"
        else:
            shown = f"`type` {json.dumps(branch['type'])}"
        return Wrapped(
            f'{where} is not `type: "object"` (it is {shown}), so the branches can\'t be '
            f"merged into one object. {_HOW}",
            "S5.10",
            "allOf",
        )
    for key in branch:
        if key not in BRANCH_KEYWORDS and not is_annotation(key):
            return Wrapped(
                f"{where} has `{key}`, so the branches can't be merged into one object. {_HOW}",
                "S5.10",
                key,
            )
    props = branch.get("properties", {})
    if not is_map(props):
        return Wrapped(
            f"{where} has `properties` that is not an object, so it has no properties to "
            f"merge. {_HOW}",
            "S5.10",
            "properties",
        )
    for name, prop in props.items():
        if name in properties and not equal(properties[name], prop):  # S6.1: JSON values
            return Wrapped(
                f"`{name}` is declared by two branches of the `body` schema's root `allOf` "
                "with different schemas, so the branches can't be merged into one object. "
                "Declare it with the same schema in both, or in one branch only",
                "S5.10",
                "allOf",
            )
        properties.setdefault(name, prop)
    branch_required = branch.get("required", [])
    if not isinstance(branch_required, list):
        return Wrapped(
            f"{where} has `required` that is not a list, so it can't be merged. {_HOW}",
            "S5.10",
            "required",
        )
    required.extend(r for r in branch_required if r not in required)
    return None
