"""S1.4: what each keyword's value must be, as the dialects' meta-schemas say.

A schema the dialect's meta-schema rejects (`enum: 5`, `required: [{}]`, `multipleOf: 0`,
`type: "foo"`) would make the validator raise at call time, or judge by rules nobody wrote. It is
a planning error of kind `schema` instead, naming the keyword and where it is. The tables are the
meta-schemas' own `properties`, written as data: one rule per value shape, one table of keywords
per dialect. Subschema values are checked where the walker reaches them, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from toolshape.model._dialects import DRAFT6, DRAFT7, DRAFT2019_09, DRAFT2020_12, OPENAPI30
from toolshape.model._json import is_map

Rule = Callable[[Any], bool]

#: The JSON types `type` may name.
SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

_ANCHOR_2020 = re.compile(r"^[A-Za-z_][-A-Za-z0-9._]*$")
_ANCHOR_2019 = re.compile(r"^[A-Za-z][-A-Za-z0-9.:_]*$")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _non_negative_integer(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value >= 0 and (isinstance(value, int) or value.is_integer())


def _positive_number(value: Any) -> bool:
    return _number(value) and value > 0


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _array(value: Any) -> bool:
    return isinstance(value, list)


def _object(value: Any) -> bool:
    return is_map(value)


def _schema(value: Any) -> bool:
    return isinstance(value, (bool, Mapping))


def _schema_array(value: Any) -> bool:
    # Each item is checked (and named in the error) where the walker reaches it.
    return isinstance(value, list) and len(value) > 0


def _schema_map(value: Any) -> bool:
    return is_map(value)


def _unique_strings(value: Any) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(v, str) for v in value)
        and len(set(value)) == len(value)
    )


def _type(value: Any) -> bool:
    if isinstance(value, str):
        return value in SIMPLE_TYPES
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(isinstance(v, str) and v in SIMPLE_TYPES for v in value)
        and len(set(value)) == len(value)
    )


def _dependent_required(value: Any) -> bool:
    return is_map(value) and all(_unique_strings(v) for v in value.values())


def _dependencies(value: Any) -> bool:
    return is_map(value) and all(_schema(v) or _unique_strings(v) for v in value.values())


def _items_draft7(value: Any) -> bool:
    return _schema(value) or _schema_array(value)


def _id_2020(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[^#]*#?", value) is not None


def _anchor_2020(value: Any) -> bool:
    return isinstance(value, str) and _ANCHOR_2020.fullmatch(value) is not None


def _anchor_2019(value: Any) -> bool:
    return isinstance(value, str) and _ANCHOR_2019.fullmatch(value) is not None


def _vocabulary(value: Any) -> bool:
    return is_map(value) and all(isinstance(v, bool) for v in value.values())


#: The class of JSON value each rule accepts whole: a value of it is asked nothing more.
ACCEPTED: Mapping[Rule, type] = {
    _string: str,
    _boolean: bool,
    _array: list,
    _object: dict,
    _schema: dict,
    _schema_map: dict,
}

#: What each rule asks for, in the words of the error message.
WANTS: Mapping[Rule, str] = {
    _number: "a number",
    _non_negative_integer: "a non-negative integer",
    _positive_number: "a number greater than 0",
    _string: "a string",
    _boolean: "a boolean",
    _array: "an array",
    _object: "an object",
    _schema: "a schema (an object or a boolean)",
    _schema_array: "a non-empty array of schemas",
    _schema_map: "an object of schemas",
    _unique_strings: "an array of unique strings",
    _type: f"one of {', '.join(sorted(SIMPLE_TYPES))}, or a non-empty array of them",
    _dependent_required: "an object whose values are arrays of unique strings",
    _dependencies: "an object whose values are schemas or arrays of unique strings",
    _items_draft7: "a schema or a non-empty array of schemas",
    _id_2020: "a URI reference without a fragment",
    _anchor_2020: "a plain name (`^[A-Za-z_][-A-Za-z0-9._]*$`)",
    _anchor_2019: "a plain name (`^[A-Za-z][-A-Za-z0-9.:_]*$`)",
    _vocabulary: "an object of booleans",
}

#: Rules every dialect from draft-06 on shares (the validation and meta-data vocabularies).
_COMMON: Mapping[str, Rule] = {
    "$schema": _string,
    "$ref": _string,
    "title": _string,
    "description": _string,
    "type": _type,
    "enum": _array,
    "multipleOf": _positive_number,
    "maximum": _number,
    "exclusiveMaximum": _number,
    "minimum": _number,
    "exclusiveMinimum": _number,
    "maxLength": _non_negative_integer,
    "minLength": _non_negative_integer,
    "pattern": _string,
    "maxItems": _non_negative_integer,
    "minItems": _non_negative_integer,
    "uniqueItems": _boolean,
    "maxProperties": _non_negative_integer,
    "minProperties": _non_negative_integer,
    "required": _unique_strings,
    "additionalProperties": _schema,
    "properties": _schema_map,
    "patternProperties": _schema_map,
    "definitions": _schema_map,
    "dependencies": _dependencies,
    "propertyNames": _schema,
    "contains": _schema,
    "allOf": _schema_array,
    "anyOf": _schema_array,
    "oneOf": _schema_array,
    "not": _schema,
    "format": _string,
    "examples": _array,
}

_DRAFT7_MORE: Mapping[str, Rule] = {
    "$id": _string,
    "$comment": _string,
    "readOnly": _boolean,
    "writeOnly": _boolean,
    "items": _items_draft7,
    "additionalItems": _schema,
    "if": _schema,
    "then": _schema,
    "else": _schema,
    "contentMediaType": _string,
    "contentEncoding": _string,
}

_2019_MORE: Mapping[str, Rule] = {
    **_DRAFT7_MORE,
    "$anchor": _anchor_2019,
    "$recursiveRef": _string,
    "$recursiveAnchor": _boolean,
    "$vocabulary": _vocabulary,
    "$defs": _schema_map,
    "deprecated": _boolean,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _schema_map,
    "maxContains": _non_negative_integer,
    "minContains": _non_negative_integer,
    "unevaluatedItems": _schema,
    "unevaluatedProperties": _schema,
    "contentSchema": _schema,
}

_2020_MORE: dict[str, Rule] = {
    **_2019_MORE,
    "$id": _id_2020,
    "$anchor": _anchor_2020,
    "$dynamicAnchor": _anchor_2020,
    "$dynamicRef": _string,
    "$recursiveAnchor": _anchor_2020,
    "items": _schema,
    "prefixItems": _schema_array,
}
del _2020_MORE["additionalItems"]  # 2020-12 dropped it (an unknown keyword there)

#: S1.4: the rules of each dialect toolshape plans. OpenAPI 3.0 schemas are checked after
#: their S1.4 conversion, as 2020-12.
RULES: Mapping[str, Mapping[str, Rule]] = {
    DRAFT2020_12: {**_COMMON, **_2020_MORE},
    DRAFT2019_09: {**_COMMON, **_2019_MORE},
    DRAFT7: {**_COMMON, **_DRAFT7_MORE},
    DRAFT6: {**_COMMON, "$id": _string, "items": _items_draft7, "additionalItems": _schema},
}
RULES = {**RULES, OPENAPI30: RULES[DRAFT2020_12]}
DEFAULT_RULES = RULES[DRAFT2020_12]

#: `$schema` values of dialects jsonschema knows but toolshape does not plan (S1.7).
UNPLANNED_DIALECTS = re.compile(r"^https?://json-schema\.org/(draft-0[34])/schema#?\Z")
