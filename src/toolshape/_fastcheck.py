"""A compiled fast path for the per-call check (S13.3): is this instance valid?

`compile_check` turns a self-contained 2020-12 or draft-07 schema into one Python predicate made
of closures, mirroring `jsonschema`'s own keyword functions (and the total keywords of
`_validate`) exactly, in both directions: a sub-predicate's `False` is negated by `not`, counted
by `oneOf` and `contains`, so "invalid" must be as exact as "valid" (S14.3). The caller accepts a
call when the predicate says valid, and otherwise asks `jsonschema` itself, which decides and
words the errors. Where a keyword can't be mirrored for a value the predicate raises, and the
caller asks `jsonschema`. A schema using anything this module does not mirror exactly
(`unevaluated*`, `$dynamicRef`, a reference outside the schema, an unknown dialect, a pattern
with nested quantifiers that must not run twice) gets no fast path (`None`).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping, Sized
from fractions import Fraction
from itertools import pairwise
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema._utils import equal as _jsonschema_equal
from jsonschema._utils import unbool as _jsonschema_unbool
from jsonschema._utils import uniq as _jsonschema_uniq

from toolshape._dialects import DRAFT7, DRAFT2020_12
from toolshape._json import equal
from toolshape._pointers import unescape
from toolshape._regex import nested_quantifier

Check = Callable[[Any], bool]

_KEYWORDS: Mapping[str, frozenset[str]] = {
    DRAFT2020_12: frozenset(Draft202012Validator.VALIDATORS),
    DRAFT7: frozenset(Draft7Validator.VALIDATORS),
}


#: Keywords that re-scope references or depend on dynamic scope: no fast path beside them.
_SCOPING = frozenset(
    {"$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$recursiveRef", "$vocabulary"}
)


class _Unsupported(Exception):
    """The schema uses something this module does not mirror exactly."""


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Number)


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


#: jsonschema's draft-4-and-later type checker, predicate by predicate.
_TYPES: Mapping[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": _is_integer,
}


def _key(value: Any) -> Any:
    """A hashable key equal for exactly the values jsonschema's `equal` calls equal."""
    kind = value.__class__
    if kind is str:
        return value
    if kind is bool:
        return ("b", value)
    if kind is int or kind is float:
        return ("n", value)
    if value is None:
        return ("z",)
    if kind is list:
        return ("l", tuple(_key(v) for v in value))
    if kind is dict:
        return ("d", frozenset((k, _key(v)) for k, v in value.items()))
    raise TypeError(kind.__name__)


def unique(items: list[Any]) -> bool:
    """`uniqueItems` with jsonschema's exact verdict, in O(n log n) at worst: its own sort-based
    check first; where items don't sort (objects, mixed types), the pairwise comparison it
    would fall back to, done by hashing keys that are equal exactly when `equal` is."""
    kinds = {item.__class__ for item in items}
    if kinds <= {str} or kinds <= {int}:
        return len(set(items)) == len(items)
    try:
        ordered = sorted(_jsonschema_unbool(i) for i in items)
        return not any(_jsonschema_equal(a, b) for a, b in pairwise(ordered))
    except (NotImplementedError, TypeError):
        pass
    try:
        return len({_key(item) for item in items}) == len(items)
    except TypeError:  # not JSON: jsonschema's own pairwise comparison
        return bool(_jsonschema_uniq(items))


def is_multiple(value: Any, step: Any) -> bool:
    """`multipleOf` as jsonschema decides it, made total (S14.4): NaN and infinities are no
    multiple of anything; a float quotient too large for `int` is decided exactly."""
    if value.__class__ is float and not math.isfinite(value):
        return False
    if isinstance(step, float):
        try:
            quotient = value / step
            return bool(int(quotient) == quotient)
        except OverflowError:
            return (Fraction(value) / Fraction(step)).denominator == 1
    return not (value % step)


_PLAIN = frozenset({str, int, float, bool, type(None), list, dict})


def members(values: Any) -> Check:
    """A predicate for `enum` membership with jsonschema's equality (`True` is not `1`, `1` is
    `1.0`): strings and numbers hashed, everything else compared one by one."""
    values = tuple(values)
    if any(v.__class__ not in _PLAIN for v in values):
        return lambda v: any(equal(option, v) for option in values)
    strings = {v for v in values if v.__class__ is str}
    numbers_ = {v for v in values if v.__class__ is int or v.__class__ is float}
    rest = tuple(v for v in values if v.__class__ not in (str, int, float))

    def check(v: Any) -> bool:
        kind = v.__class__
        if kind is str:
            return v in strings
        if kind is int or kind is float:
            return v in numbers_  # `in` is identity, then `==`: as jsonschema's `equal`
        if kind in _PLAIN:
            return any(equal(option, v) for option in rest)
        return any(equal(option, v) for option in values)

    return check


def _regex(pattern: Any) -> re.Pattern[str]:
    """`pattern` compiled once, as jsonschema's `re.search` would read it; a pattern Python
    can't compile leaves the schema without a fast path."""
    if not isinstance(pattern, str) or nested_quantifier(pattern):
        raise _Unsupported("pattern")  # S13.3: jsonschema alone runs it, once
    try:
        return re.compile(pattern)
    except (re.error, TypeError, RecursionError, OverflowError):
        raise _Unsupported("pattern") from None


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


class _Compiler:
    def __init__(self, root: Any, dialect: str) -> None:
        self.root = root
        self.draft7 = dialect == DRAFT7
        self.keywords = _KEYWORDS[dialect]
        self.refs: dict[str, Check] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise _Unsupported(type(schema).__name__)
        if not _SCOPING.isdisjoint(schema) or ("$schema" in schema and schema is not self.root):
            raise _Unsupported("scope")
        if self.draft7 and "$ref" in schema:
            return self.ref(schema["$ref"])  # draft-07 ignores the siblings of `$ref`
        checks: list[Check] = []
        for key, value in schema.items():
            if key not in self.keywords or key == "format":
                continue  # unknown keywords and `format` are annotations here, as in jsonschema
            build = _BUILDERS.get(key)
            if build is None:
                raise _Unsupported(key)
            check = build(self, value, schema)
            if check is not None:
                checks.append(check)
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        every = tuple(checks)
        return lambda v: all(check(v) for check in every)

    def ref(self, ref: Any) -> Check:
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")) or "%" in ref:
            raise _Unsupported("$ref")
        check = self.refs.get(ref)
        if check is None:
            target: Any = self.root
            for raw in ref[1:].split("/")[1:] if ref != "#" else []:
                part = unescape(raw)
                if isinstance(target, dict) and part in target:
                    target = target[part]
                elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                    target = target[int(part)]
                else:
                    raise _Unsupported(ref)
            slot: list[Check] = []
            self.refs[ref] = lambda v: slot[0](v)  # filled below; allows recursion
            slot.append(self.compile(target))
            check = self.refs[ref]
        return check


def _type(c: _Compiler, value: Any, schema: Any) -> Check:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPES for n in names):
        raise _Unsupported("type")
    predicates = tuple(_TYPES[n] for n in names)
    if len(predicates) == 1:
        return predicates[0]
    return lambda v: any(p(v) for p in predicates)


def _properties(c: _Compiler, value: Any, schema: Any) -> Check:
    pairs = tuple((name, c.compile(sub)) for name, sub in value.items())

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for name, sub in pairs:  # noqa: SIM110 - a plain loop is the hot path here
            if name in v and not sub(v[name]):
                return False
        return True

    return check


def _required(c: _Compiler, value: Any, schema: Any) -> Check:
    names = tuple(value)
    return lambda v: not isinstance(v, dict) or all(n in v for n in names)


def _additional(c: _Compiler, value: Any, schema: Any) -> Check | None:
    if not isinstance(value, dict) and value:
        return None  # `true` (or any truthy non-schema): jsonschema checks nothing
    declared = schema.get("properties", {})
    joined = "|".join(schema.get("patternProperties", {}))
    matcher = _regex(joined).search if joined else None
    sub = c.compile(value) if isinstance(value, dict) else None

    def extras(v: dict[str, Any]) -> list[str]:
        return [k for k in v if k not in declared and not (matcher and matcher(k))]

    if sub is None:  # `false`, or another falsy non-object value jsonschema treats as false
        return lambda v: not isinstance(v, dict) or not extras(v)
    return lambda v: not isinstance(v, dict) or all(sub(v[k]) for k in extras(v))


def _pattern_properties(c: _Compiler, value: Any, schema: Any) -> Check:
    pairs = tuple((_regex(pattern).search, c.compile(sub)) for pattern, sub in value.items())
    return lambda v: (
        not isinstance(v, dict)
        or all(sub(item) for search, sub in pairs for key, item in v.items() if search(key))
    )


def _property_names(c: _Compiler, value: Any, schema: Any) -> Check:
    sub = c.compile(value)
    return lambda v: not isinstance(v, dict) or all(sub(k) for k in v)


def _items(c: _Compiler, value: Any, schema: Any) -> Check | None:
    if c.draft7:
        if isinstance(value, list):
            subs = tuple(c.compile(s) for s in value)
            return lambda v: (
                not isinstance(v, list) or all(s(i) for s, i in zip(subs, v, strict=False))
            )
        sub = c.compile(value)
        return lambda v: not isinstance(v, list) or all(sub(i) for i in v)
    prefix = len(schema.get("prefixItems", []))
    if value is False:
        return lambda v: not isinstance(v, list) or len(v) <= prefix
    sub = c.compile(value)
    return lambda v: not isinstance(v, list) or all(sub(i) for i in v[prefix:])


def _prefix_items(c: _Compiler, value: Any, schema: Any) -> Check:
    subs = tuple(c.compile(s) for s in value)
    return lambda v: not isinstance(v, list) or all(s(i) for s, i in zip(subs, v, strict=False))


def _additional_items(c: _Compiler, value: Any, schema: Any) -> Check | None:
    items = schema.get("items", {})
    if isinstance(items, dict):
        return None  # draft-07: only meaningful beside an `items` array
    if not isinstance(items, list):
        raise _Unsupported("additionalItems")  # jsonschema takes `len()` of a boolean here
    count = len(items)
    if not isinstance(value, dict):
        if value:
            return None
        return lambda v: not isinstance(v, list) or len(v) <= count
    sub = c.compile(value)
    return lambda v: not isinstance(v, list) or all(sub(i) for i in v[count:])


def _contains(c: _Compiler, value: Any, schema: Any) -> Check:
    sub = c.compile(value)
    if c.draft7:
        return lambda v: not isinstance(v, list) or any(sub(i) for i in v)
    low = schema.get("minContains", 1)
    high = schema.get("maxContains")

    def check(v: Any) -> bool:
        if not isinstance(v, list):
            return True
        matches = sum(1 for i in v if sub(i))
        return not (matches > (len(v) if high is None else high)) and not (matches < low)

    return check


def _bound(fails: Callable[[Any, Any], bool], limit: Any) -> Check:
    """`fails` is jsonschema's own failing comparison: NaN fails none of them (S14.3)."""
    if not _is_number(limit):
        raise _Unsupported("bound")
    return lambda v: not _is_number(v) or not fails(v, limit)


def _size(kind: type[Sized], fails: Callable[[int, Any], bool], limit: Any) -> Check:
    if not _is_number(limit):
        raise _Unsupported("size")
    return lambda v: not isinstance(v, kind) or not fails(len(v), limit)


def _enum(c: _Compiler, value: Any, schema: Any) -> Check:
    if not isinstance(value, list):
        raise _Unsupported("enum")
    return members(value)


def _const(c: _Compiler, value: Any, schema: Any) -> Check:
    return members([value])


def _pattern(c: _Compiler, value: Any, schema: Any) -> Check:
    search = _regex(value).search
    return lambda v: not isinstance(v, str) or search(v) is not None


def _multiple_of(c: _Compiler, value: Any, schema: Any) -> Check:
    if not _is_number(value) or not value > 0:
        raise _Unsupported("multipleOf")
    return lambda v: not _is_number(v) or is_multiple(v, value)


def _unique_items(c: _Compiler, value: Any, schema: Any) -> Check | None:
    if not value:
        return None
    return lambda v: not isinstance(v, list) or unique(v)


def _all_of(c: _Compiler, value: Any, schema: Any) -> Check:
    subs = tuple(c.compile(s) for s in value)
    return lambda v: all(s(v) for s in subs)


def _any_of(c: _Compiler, value: Any, schema: Any) -> Check:
    subs = tuple(c.compile(s) for s in value)
    return lambda v: any(s(v) for s in subs)


def _one_of(c: _Compiler, value: Any, schema: Any) -> Check:
    subs = tuple(c.compile(s) for s in value)
    return lambda v: sum(1 for s in subs if s(v)) == 1


def _not(c: _Compiler, value: Any, schema: Any) -> Check:
    sub = c.compile(value)
    return lambda v: not sub(v)


def _if(c: _Compiler, value: Any, schema: Any) -> Check:
    condition = c.compile(value)
    then = c.compile(schema["then"]) if "then" in schema else _always
    otherwise = c.compile(schema["else"]) if "else" in schema else _always
    return lambda v: then(v) if condition(v) else otherwise(v)


def _dependent_required(c: _Compiler, value: Any, schema: Any) -> Check:
    pairs = tuple((name, tuple(needed)) for name, needed in value.items())
    return lambda v: (
        not isinstance(v, dict)
        or all(n in v for name, needed in pairs if name in v for n in needed)
    )


def _dependent_schemas(c: _Compiler, value: Any, schema: Any) -> Check:
    pairs = tuple((name, c.compile(sub)) for name, sub in value.items())
    return lambda v: not isinstance(v, dict) or all(sub(v) for name, sub in pairs if name in v)


def _dependencies(c: _Compiler, value: Any, schema: Any) -> Check:
    names = tuple((name, tuple(dep)) for name, dep in value.items() if isinstance(dep, list))
    subs = tuple((name, c.compile(dep)) for name, dep in value.items() if not isinstance(dep, list))
    return lambda v: (
        not isinstance(v, dict)
        or (
            all(n in v for name, needed in names if name in v for n in needed)
            and all(sub(v) for name, sub in subs if name in v)
        )
    )


def _ref(c: _Compiler, value: Any, schema: Any) -> Check:
    return c.ref(value)


_BUILDERS: Mapping[str, Callable[[_Compiler, Any, Any], Check | None]] = {
    "type": _type,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "patternProperties": _pattern_properties,
    "propertyNames": _property_names,
    "items": _items,
    "prefixItems": _prefix_items,
    "additionalItems": _additional_items,
    "contains": _contains,
    "minimum": lambda c, v, s: _bound(lambda a, b: a < b, v),
    "maximum": lambda c, v, s: _bound(lambda a, b: a > b, v),
    "exclusiveMinimum": lambda c, v, s: _bound(lambda a, b: a <= b, v),
    "exclusiveMaximum": lambda c, v, s: _bound(lambda a, b: a >= b, v),
    "minLength": lambda c, v, s: _size(str, lambda n, m: n < m, v),
    "maxLength": lambda c, v, s: _size(str, lambda n, m: n > m, v),
    "minItems": lambda c, v, s: _size(list, lambda n, m: n < m, v),
    "maxItems": lambda c, v, s: _size(list, lambda n, m: n > m, v),
    "minProperties": lambda c, v, s: _size(dict, lambda n, m: n < m, v),
    "maxProperties": lambda c, v, s: _size(dict, lambda n, m: n > m, v),
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "multipleOf": _multiple_of,
    "uniqueItems": _unique_items,
    "allOf": _all_of,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "not": _not,
    "if": _if,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "dependencies": _dependencies,
    "$ref": _ref,
}


def compile_check(schema: Any) -> Check | None:
    """A predicate that returns True only for instances `jsonschema` would accept, or None.

    The predicate may return False for a valid instance only where it can't tell cheaply (it
    never does for the keywords it compiles); it never returns True for an invalid one. It may
    raise (`RecursionError` on a very deep instance, `re.error` for a pattern Python can't
    compile): the caller then asks `jsonschema`.
    """
    declared = schema.get("$schema", DRAFT2020_12) if isinstance(schema, dict) else DRAFT2020_12
    dialect = {DRAFT2020_12: DRAFT2020_12, DRAFT7: DRAFT7, DRAFT7.rstrip("#"): DRAFT7}.get(declared)
    if dialect is None:
        return None
    try:
        return _Compiler(schema, dialect).compile(schema)
    except (_Unsupported, RecursionError, TypeError, AttributeError, ValueError):
        return None
