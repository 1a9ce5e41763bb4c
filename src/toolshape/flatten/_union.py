"""S11 (opt-in): a root `oneOf` / `anyOf` of object variants merged into one flat object.

The merged schema accepts a superset of the union — never stricter on any path — and the
original union judges every call again (S6.3), so the flat tool accepts exactly what the
document does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from toolshape.flatten._allof import merge_allof, resolve_local
from toolshape.flatten._keywords import is_annotation
from toolshape.model._dialects import DRAFT2020_12
from toolshape.model._json import Unchecked, equal, is_map
from toolshape.model._pointers import def_name
from toolshape.model._types import Schema, Wrapped

#: S11: what a variant may hold besides annotations.
VARIANT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"})

#: S11: what the root may hold beside the union (its properties distribute into every variant).
ROOT_KEYWORDS = frozenset(
    {"type", "properties", "required", "additionalProperties", "discriminator", "$schema"}
)

_OBJECTS = 'Give every variant `"type": "object"` with `properties`'

#: The order JSON types are listed in a widened `type`.
_TYPE_ORDER = ("object", "array", "string", "number", "integer", "boolean", "null")


@dataclass(frozen=True, slots=True)
class MergedUnion:
    """A union body merged into one object (S11), and what the merge widened."""

    schema: dict[str, Unchecked]
    widened: tuple[str, ...]
    """Properties whose advertised schema is wider than some variant's, or that are no longer
    required because not every variant requires them."""


def _refuse(keyword: str, what: str, fix: str) -> Wrapped:
    return Wrapped(
        f"the `body` schema has `{keyword}` at its root and {what}, so its fields can't be "
        f"merged into one flat object. {fix}",
        "S5.3",
        keyword,
    )


def _strip(schema: Schema) -> Schema:
    """`schema` without annotations, for comparing variants' property schemas (S11.1)."""
    if not is_map(schema):
        return schema
    return {k: v for k, v in schema.items() if not is_annotation(k) and k != "default"}


def _without_default(schema: Schema) -> Schema:
    if is_map(schema) and "default" in schema:
        return {k: v for k, v in schema.items() if k != "default"}  # S11.3
    return schema


def _json_type(value: Unchecked) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _proved_types(schema: Schema) -> set[str] | None:
    """The JSON types every value `schema` accepts has, or None when it proves none."""
    if not is_map(schema):
        return None if schema is True else set()
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        return set(kind)
    if "const" in schema:
        return {_json_type(schema["const"])}
    if isinstance(schema.get("enum"), list):
        return {_json_type(v) for v in schema["enum"]}
    return None


def _string_values(schema: Schema) -> list[str] | None:
    """The values of a string `const` / `enum` schema (S11.1), else None."""
    if not is_map(schema) or schema.get("type", "string") != "string":
        return None
    if isinstance(schema.get("const"), str):
        return [schema["const"]]
    values = schema.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
        return list(values)
    return None


def _widen(schemas: list[Schema]) -> tuple[Schema, bool]:
    """One property schema accepting everything each of `schemas` accepts (S11.1);
    and whether it is wider than any of them."""
    first = schemas[0]
    if all(equal(_strip(s), _strip(first)) for s in schemas):
        return _without_default(first), False
    values = [_string_values(s) for s in schemas]
    if all(v is not None for v in values):
        merged = list(dict.fromkeys(x for v in values if v is not None for x in v))
        return {"type": "string", "enum": merged}, True
    proved = [_proved_types(s) for s in schemas]
    if any(p is None for p in proved):
        return {}, True
    types = set().union(*(p for p in proved if p is not None))
    if "number" in types:
        types.discard("integer")
    ordered = [t for t in _TYPE_ORDER if t in types]
    if not ordered:
        return False, False  # no variant accepts any value here
    return {"type": ordered[0] if len(ordered) == 1 else ordered}, True


@dataclass(frozen=True, slots=True)
class _Variant:
    properties: Mapping[str, Schema]
    required: tuple[str, ...]
    additional: Schema | None  # None: absent (open)


def _variant(
    raw: Schema,
    index: int,
    keyword: str,
    root: Mapping[str, Unchecked],
    defs: Mapping[str, Schema],
    dialect: str,
) -> _Variant | Wrapped:
    """One variant as an object, the root's own properties folded in (S11)."""
    variant = resolve_local(raw, defs)
    if is_map(variant) and "allOf" in variant:
        merged = merge_allof(variant, defs, dialect=dialect)
        if isinstance(merged, Wrapped):
            return _refuse(
                keyword,
                f"its variant {index} has an `allOf` that can't be merged",
                "Simplify that variant",
            )
        variant = merged
    if not is_map(variant):
        return _refuse(
            keyword,
            f"its variant {index} is the boolean schema `{json.dumps(variant)}`",
            "Make every variant an object schema",
        )
    kind = variant.get("type", "object" if root.get("type") == "object" else None)
    if kind != "object":
        shown = json.dumps(kind) if kind is not None else "absent"
        return _refuse(
            keyword,
            f"its variant {index} is not an object schema (`type` is {shown})",
            'Give every variant `"type": "object"` with `properties`',
        )
    for key in variant:
        if key not in VARIANT_KEYWORDS and not is_annotation(key):
            return _refuse(
                keyword,
                f"its variant {index} has `{key}`",
                "Keep only `properties`, `required`, `additionalProperties` and annotations in each variant",
            )
    for holder, what in ((variant, f"its variant {index}"), (root, "its root")):
        if not isinstance(holder.get("properties", {}), Mapping):
            return _refuse(keyword, f"{what} has `properties` that is not an object", _OBJECTS)
        if not isinstance(holder.get("required", []), list):
            return _refuse(keyword, f"{what} has `required` that is not a list", _OBJECTS)
    properties = dict(root.get("properties", {}))
    for name, schema in variant.get("properties", {}).items():
        if name in properties and not equal(_strip(properties[name]), _strip(schema)):
            properties[name] = {"allOf": [properties[name], schema]}  # both apply
        else:
            properties[name] = schema
    required = tuple(dict.fromkeys([*root.get("required", []), *variant.get("required", [])]))
    own, shared = variant.get("additionalProperties"), root.get("additionalProperties")
    if own is False or shared is False:
        additional: Schema | None = False  # either side rejects what neither declares
    elif own is None or shared is None or equal(_strip(own), _strip(shared)):
        additional = own if shared is None else shared if own is None else own
    else:
        additional = {}  # two different typed policies: widened, never copied (S11.4)
    return _Variant(properties, required, additional)


def merge_union(
    schema: Mapping[str, Unchecked],
    defs: Mapping[str, Schema] | None = None,
    *,
    dialect: str = DRAFT2020_12,
) -> MergedUnion | Wrapped:
    """Merge a body whose root is `oneOf` / `anyOf` of object variants into one object (S11).

    `defs` resolves `#/$defs/<name>` variants. The merged object has every variant's
    properties (S11.1), requires only what every variant requires (S11.2), drops variants'
    `default`s (S11.3) and takes the merged key policy (S11.4).
    """
    defs = defs or {}
    keywords = [k for k in ("oneOf", "anyOf") if k in schema]
    if len(keywords) != 1:
        return _refuse("oneOf", "`anyOf` beside it", "Use one of the two")
    keyword = keywords[0]
    raw_variants = schema[keyword]
    if not isinstance(raw_variants, list) or not raw_variants:
        return _refuse(keyword, "it is not a non-empty list", "List the variants")
    for key in schema:
        if key != keyword and key not in ROOT_KEYWORDS and not is_annotation(key):
            return _refuse(
                keyword, f"`{key}` beside it", f"Move `{key}` into the variants or remove it"
            )
    if "type" in schema and schema["type"] != "object":
        return _refuse(
            keyword,
            f"`type` {json.dumps(schema['type'])} beside it",
            "Declare the body as an object",
        )
    variants: list[_Variant] = []
    for index, raw in enumerate([*raw_variants, *_default_branch(schema, raw_variants)]):
        variant = _variant(raw, index, keyword, schema, defs, dialect)
        if isinstance(variant, Wrapped):
            return variant
        variants.append(variant)
    discriminator = schema.get("discriminator")
    if discriminator is not None:
        refused = _discriminator_problem(discriminator, variants[: len(raw_variants)], defs)
        if refused is not None:
            return _refuse(keyword, *refused)
    names: dict[str, None] = {}
    for variant in variants:
        names.update(dict.fromkeys(variant.properties))
    properties: dict[str, Schema] = {}
    widened: list[str] = []
    for name in names:
        accepted = [
            v.properties.get(name, {} if v.additional is None else v.additional)
            for v in variants
            if name in v.properties or v.additional is not False  # an open variant accepts it too
        ]
        properties[name], wider = _widen(accepted)
        if wider or len(accepted) < len(variants):
            widened.append(name)
    default = _default_mapped_name(discriminator)
    if default is not None:  # S26.8: any other value (or none) is the default branch's
        properties[default] = {"type": "string"}
        widened.extend([] if default in widened else [default])
    required = [
        n for n in variants[0].required if all(n in v.required for v in variants) and n != default
    ]
    widened.extend(
        n for v in variants for n in v.required if n not in required and n not in widened
    )
    merged: dict[str, Unchecked] = {
        "type": "object",
        "properties": properties,
        "required": required,
    }
    policies = [v.additional for v in variants]
    typed = [p for p in policies if p is not None and p is not False]
    if all(p is False for p in policies):
        merged["additionalProperties"] = False
    elif len(typed) == len(policies) and all(equal(_strip(p), _strip(typed[0])) for p in typed):
        merged["additionalProperties"] = typed[0]
    return MergedUnion(merged, tuple(widened))


def _default_branch(schema: Mapping[str, Unchecked], branches: list[Unchecked]) -> list[Schema]:
    """S26.8: the discriminator's `defaultMapping` as one more variant to merge, unless it is
    one of the union's branches already."""
    discriminator = schema.get("discriminator")
    if _default_mapped_name(discriminator) is None:
        return []
    assert is_map(discriminator)
    target = discriminator["defaultMapping"]
    listed = any(is_map(b) and b.get("$ref") == target for b in branches)
    return [] if listed else [{"$ref": target}]


def _discriminator_problem(
    discriminator: Unchecked, variants: list[_Variant], defs: Mapping[str, Schema]
) -> tuple[str, str] | None:
    """S11.2: why the union's variants can't each carry the discriminator (it must be a string
    property of each), or None."""
    name = discriminator.get("propertyName") if is_map(discriminator) else None
    for index, variant in enumerate(variants):
        prop = (
            resolve_local(variant.properties.get(name, {}), defs) if isinstance(name, str) else None
        )
        if not is_map(prop) or (_proved_types(prop) or set()) != {"string"}:
            return (
                f"its discriminator `{name}` is not a string property of variant {index}",
                "Declare the discriminator as a string property in every variant",
            )
    return None


def _default_mapped_name(discriminator: Unchecked) -> str | None:
    """S26.8: the discriminator's property when it has a `defaultMapping`, else None."""
    if not is_map(discriminator) or not isinstance(discriminator.get("defaultMapping"), str):
        return None
    name = discriminator.get("propertyName")
    return name if isinstance(name, str) else None


def default_mapped(schema: Schema) -> Schema:
    """S26.8: a union whose discriminator has a `defaultMapping`, as JSON Schema can judge it:
    a value whose discriminator property is mapped (explicitly, or by a branch's definition
    name) is judged by the union; any other, or none, by the default branch. Any other schema
    as it is.

        >>> default_mapped({"oneOf": [{"$ref": "#/$defs/Cat"}],
        ...     "discriminator": {"propertyName": "kind", "defaultMapping": "#/$defs/Pet"}})["if"]
        {'properties': {'kind': {'enum': ['Cat']}}, 'required': ['kind']}
    """
    if not is_map(schema):
        return schema
    discriminator = schema.get("discriminator")
    name = _default_mapped_name(discriminator)
    if name is None:
        return schema
    assert is_map(discriminator)
    mapping = discriminator.get("mapping")
    keys = list(mapping) if is_map(mapping) else []
    targets = set(mapping.values()) if is_map(mapping) else set()
    for keyword in ("oneOf", "anyOf"):
        for branch in schema.get(keyword) or []:
            ref = branch.get("$ref") if is_map(branch) else None
            found = def_name(ref)
            if found is not None and ref not in targets and found not in keys:
                keys.append(found)  # mapped implicitly, by its definition's name
    union = {k: v for k, v in schema.items() if k not in ("$schema", "$defs")}
    out: dict[str, Unchecked] = {k: schema[k] for k in ("$schema", "$defs") if k in schema}
    out["if"] = {"properties": {name: {"enum": keys}}, "required": [name]}
    out["then"] = union
    out["else"] = {"$ref": discriminator["defaultMapping"]}
    return out


def describe(widened: tuple[str, ...]) -> str:
    """The S11 diagnostic's list of widened properties."""
    return ", ".join(f"`{name}`" for name in widened) if widened else "none"
