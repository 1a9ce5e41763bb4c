"""A compiled fast path for the per-call check (S13.3): is this instance valid?

`compile_check` turns a self-contained 2020-12 or draft-07 schema into one Python predicate,
written as Python source once per schema and compiled (as `fastjsonschema` does: no call per
keyword, only per referenced or branching schema), mirroring `jsonschema`'s own keyword functions (and the total keywords of
`_validate`) exactly, in both directions: a sub-predicate's `False` is negated by `not`, counted
by `oneOf` and `contains`, so "invalid" must be as exact as "valid" (S14.3). The caller accepts a
call when the predicate says valid, and otherwise asks `jsonschema` itself, which decides and
words the errors. Where a keyword can't be mirrored for a value the predicate raises, and the
caller asks `jsonschema`. A schema using anything this module does not mirror exactly
(`unevaluated*`, `$dynamicRef`, a reference outside the schema, an unknown dialect, a pattern
with nested quantifiers that must not run twice) gets no fast path (`None`).
"""

from __future__ import annotations

import hashlib
import linecache
import math
import numbers
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import pairwise
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator

from toolshape.model._dialects import DRAFT7, DRAFT2020_12
from toolshape.model._json import equal, unbool
from toolshape.model._pointers import unescape
from toolshape.schema._jsonschema_utils import uniq as _jsonschema_uniq
from toolshape.schema._regex import linear, nested_quantifier, searcher

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


_HASHED_EXACTLY = frozenset({str, int})


def unique(items: list[Any]) -> bool:
    """`uniqueItems` with jsonschema's exact verdict, in O(n log n) at worst: its own sort-based
    check first; where items don't sort (objects, mixed types), the pairwise comparison it
    would fall back to, done by hashing keys that are equal exactly when `equal` is."""
    kinds = set(map(type, items))
    if kinds <= _HASHED_EXACTLY:  # text and integers: a set of them is exact
        return len(set(items)) == len(items)
    try:
        ordered = sorted(unbool(i) for i in items)
        return not any(equal(a, b) for a, b in pairwise(ordered))
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


def _regex(pattern: Any) -> Callable[[str], bool]:
    """Whether a text holds a match of `pattern`, as jsonschema's `re.search` decides (RE2
    where it reads the pattern alike, S24.8); a pattern Python can't compile, or one that can
    backtrack catastrophically on text RE2 doesn't take, leaves the schema without a fast
    path (S13.3: jsonschema alone runs it, once)."""
    if not isinstance(pattern, str) or (nested_quantifier(pattern) and not linear(pattern)):
        raise _Unsupported("pattern")
    try:
        return searcher(pattern)
    except (re.error, TypeError, RecursionError, OverflowError):
        raise _Unsupported("pattern") from None


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


class _Writer:
    """Writes a schema's predicate as Python source, one function per schema it calls (a
    reference's target, a branch of `anyOf` / `oneOf` / `not` / `if` / `contains`), every other
    keyword inline as statements that `return False`: no call per keyword, as `fastjsonschema`
    does. Constants (names, patterns, enums) reach the code through its namespace."""

    def __init__(self, root: Any, dialect: str) -> None:
        self.root = root
        self.draft7 = dialect == DRAFT7
        self.keywords = _KEYWORDS[dialect]
        self.namespace: dict[str, Any] = dict(_HELPERS)
        self.functions: list[list[str]] = []
        self.refs: dict[str, str] = {}
        self.named: dict[int, str] = {}
        self.count = 0
        self.known: dict[str, str] = {}
        """The Python type a variable is known to have where code is being written (its
        `type` keyword was checked first), so its `isinstance` guards are left out."""
        self.present: dict[str, frozenset[str]] = {}
        """The keys an object variable is known to have where code is being written when it
        is an object (its `required` keyword was checked first), so they are not asked for."""

    def constant(self, value: Any) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def temporary(self) -> str:
        self.count += 1
        return f"x{self.count}"

    def function(self, schema: Any) -> str:
        """The name of a function that returns whether its argument is valid under `schema`."""
        if schema is True:
            return "_always"
        if schema is False:
            return "_never"
        name = self.named.get(id(schema))
        if name is None:
            name = self.named[id(schema)] = self._reserve()
            self._define(name, schema)
        return name

    def _reserve(self) -> str:
        self.functions.append([])
        return f"f{len(self.functions) - 1}"

    def _define(self, name: str, schema: Any) -> None:
        known, present, self.known, self.present = self.known, self.present, {}, {}
        lines = [f"def {name}(v):\n", *self.emit(schema, "v", 1), "    return True\n"]
        self.known, self.present = known, present
        self.functions[int(name[1:])] = lines

    def guarded(self, v: str, kind: str, level: int, body: Callable[[int], list[str]]) -> list[str]:
        """`body` (written at the level given) run only when `v` is a `kind`."""
        if self.known.get(v) == kind:
            return body(level)
        return _block(level, f"if isinstance({v}, {kind}):", body(level + 1))

    def given(self, v: str, kind: str) -> str:
        """The start of a condition that holds only when `v` is a `kind`."""
        return "" if self.known.get(v) == kind else f"isinstance({v}, {kind}) and "

    def ref(self, ref: Any) -> str:
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")) or "%" in ref:
            raise _Unsupported("$ref")
        name = self.refs.get(ref)
        if name is None:
            target: Any = self.root
            for raw in ref[1:].split("/")[1:] if ref != "#" else []:
                part = unescape(raw)
                if isinstance(target, dict) and part in target:
                    target = target[part]
                elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                    target = target[int(part)]
                else:
                    raise _Unsupported(ref)
            if target is True or target is False:
                return self.function(target)
            name = self.refs[ref] = self._reserve()  # before the target: allows recursion
            self._define(name, target)
        return name

    def check(self, schema: Any, expression: str, level: int) -> list[str]:
        """Statements that `return False` unless `expression` is valid under `schema`."""
        if schema is True:
            return []
        if level > _INLINE_LEVELS:  # deeper blocks go in a function of their own
            return _when(level, f"not {self.function(schema)}({expression})")
        if expression.isidentifier():
            return self.emit(schema, expression, level)
        name = self.temporary()
        return [_indent(level) + f"{name} = {expression}\n", *self.emit(schema, name, level)]

    def emit(self, schema: Any, v: str, level: int) -> list[str]:
        if schema is True:
            return []
        if schema is False:
            return [_indent(level) + "return False\n"]
        if not isinstance(schema, dict):
            raise _Unsupported(type(schema).__name__)
        if not _SCOPING.isdisjoint(schema) or ("$schema" in schema and schema is not self.root):
            raise _Unsupported("scope")
        if self.draft7 and "$ref" in schema:  # draft-07 ignores the siblings of `$ref`
            return _when(level, f"not {self.ref(schema['$ref'])}({v})")
        lines: list[str] = []
        kind = _KINDS.get(schema["type"]) if isinstance(schema.get("type"), str) else None
        before = self.known.get(v)
        if kind is not None:  # checked first: every later guard on the type is left out
            lines += _type(self, schema["type"], schema, v, level)
            self.known[v] = kind
        had = self.present.get(v)
        required = schema.get("required")
        first: list[str] | None = None
        if (
            "required" in self.keywords
            and isinstance(required, list)
            and all(isinstance(name, str) for name in required)
        ):
            first = required
        if first is not None:  # checked first (when an object): its properties are then read
            lines += _required(self, first, schema, v, level)  # without asking
            self.present[v] = frozenset(first).union(had or ())
        for key, value in schema.items():
            if key not in self.keywords or key == "format" or (key == "type" and kind):
                continue  # unknown keywords and `format` are annotations here, as in jsonschema
            if key == "required" and first is not None:
                continue  # written first
            write = _WRITERS.get(key)
            if write is None:
                raise _Unsupported(key)
            lines += write(self, value, schema, v, level)
        for facts, fact in ((self.known, before), (self.present, had)):
            # what held before holds again (an `allOf` branch is done)
            if fact is None:
                facts.pop(v, None)
            else:
                facts[v] = fact  # type: ignore[assignment]
        return lines

    def source(self) -> str:
        return "".join(line for lines in self.functions for line in lines)


#: Blocks nest at most this deep inside one function; deeper schemas get functions of their
#: own (CPython refuses source nested 100 levels deep, and 20 loops deep).
_INLINE_LEVELS = 12


def _indent(level: int) -> str:
    return "    " * level


def _when(level: int, condition: str) -> list[str]:
    return [_indent(level) + f"if {condition}:\n", _indent(level + 1) + "return False\n"]


def _block(level: int, header: str, body: list[str]) -> list[str]:
    return [_indent(level) + header + "\n", *body] if body else []


#: The `type` values whose instances are one Python type (as `isinstance` tests it).
_KINDS: Mapping[str, str] = {"object": "dict", "array": "list", "string": "str"}

_TYPE_TESTS: Mapping[str, str] = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "number": "(type({v}) is int or type({v}) is float or _is_number({v}))",
    "integer": "(type({v}) is int or _is_integer({v}))",
}


def _type(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPE_TESTS for n in names):
        raise _Unsupported("type")
    tests = " or ".join(_TYPE_TESTS[n].format(v=v) for n in names) or "False"
    return _when(level, f"not ({tests})")


def _properties(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    pairs = [(name, w.constant(name), sub) for name, sub in value.items()]
    present = w.present.get(v, frozenset())

    def body(at: int) -> list[str]:
        lines: list[str] = []
        for name, key, sub in pairs:
            if name in present:  # required, and checked: read without asking
                lines += w.check(sub, f"{v}[{key}]", at)
            else:
                lines += _block(at, f"if {key} in {v}:", w.check(sub, f"{v}[{key}]", at + 1))
        return lines

    return w.guarded(v, "dict", level, body)


def _required(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    names = tuple(value)
    if not names:
        return []
    if len(names) > _ASKED_ONE_BY_ONE:
        missing = f"not {v}.keys() >= {w.constant(frozenset(names))}"
    else:
        missing = " or ".join(f"{w.constant(n)} not in {v}" for n in names)
    return w.guarded(v, "dict", level, lambda at: _when(at, missing))


#: Up to this many required names are asked for one by one; more, as one set in C.
_ASKED_ONE_BY_ONE = 3


def _additional(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    if not isinstance(value, dict) and value:
        return []  # `true` (or any truthy non-schema): jsonschema checks nothing
    declared = schema.get("properties", {})
    if not isinstance(declared, dict):
        raise _Unsupported("properties")
    joined = "|".join(schema.get("patternProperties", {}))
    if not joined and not isinstance(value, dict):
        # `false` alone: every key is declared, asked in C.
        names = w.constant(frozenset(declared))
        return w.guarded(v, "dict", level, lambda at: _when(at, f"not {v}.keys() <= {names}"))
    key = w.temporary()
    extra = f"{key} not in {w.constant(frozenset(declared))}"
    if joined:
        extra += f" and not {w.constant(_regex(joined))}({key})"

    def loop(at: int) -> list[str]:
        if isinstance(value, dict):
            inner = w.check(value, f"{v}[{key}]", at + 2)
        else:  # `false`, or another falsy non-object value jsonschema treats as false
            inner = [_indent(at + 2) + "return False\n"]
        return _block(at, f"for {key} in {v}:", _block(at + 1, f"if {extra}:", inner))

    return w.guarded(v, "dict", level, loop)


def _pattern_properties(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    parts = [(w.constant(_regex(pattern)), sub) for pattern, sub in value.items()]

    def body(at: int) -> list[str]:
        lines: list[str] = []
        for search, sub in parts:
            key, item = w.temporary(), w.temporary()
            inner = _block(at + 1, f"if {search}({key}):", w.check(sub, item, at + 2))
            lines += _block(at, f"for {key}, {item} in {v}.items():", inner)
        return lines

    return w.guarded(v, "dict", level, body)


def _property_names(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    key = w.temporary()
    return w.guarded(
        v, "dict", level, lambda at: _block(at, f"for {key} in {v}:", w.check(value, key, at + 1))
    )


def _each(w: _Writer, sub: Any, v: str, start: int, level: int) -> list[str]:
    """Every item of the list `v` from `start` on valid under `sub` (inside `isinstance`)."""
    item = w.temporary()
    items = f"{v}[{start}:]" if start else v
    return _block(level, f"for {item} in {items}:", w.check(sub, item, level + 1))


def _positions(w: _Writer, subs: Any, v: str, level: int) -> list[str]:
    """`zip(subs, v)`: each item present valid under the schema at its position."""
    body: list[str] = []
    for index, sub in enumerate(subs):
        body += _block(level, f"if len({v}) > {index}:", w.check(sub, f"{v}[{index}]", level + 1))
    return body


def _items(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    if w.draft7:
        if isinstance(value, list):
            return w.guarded(v, "list", level, lambda at: _positions(w, value, v, at))
        return w.guarded(v, "list", level, lambda at: _each(w, value, v, 0, at))
    prefix = len(schema.get("prefixItems", []))
    if value is False:
        return _when(level, f"{w.given(v, 'list')}len({v}) > {prefix}")
    return w.guarded(v, "list", level, lambda at: _each(w, value, v, prefix, at))


def _prefix_items(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    return w.guarded(v, "list", level, lambda at: _positions(w, value, v, at))


def _additional_items(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    items = schema.get("items", {})
    if isinstance(items, dict):
        return []  # draft-07: only meaningful beside an `items` array
    if not isinstance(items, list):
        raise _Unsupported("additionalItems")  # jsonschema takes `len()` of a boolean here
    count = len(items)
    if not isinstance(value, dict):
        if value:
            return []
        return _when(level, f"{w.given(v, 'list')}len({v}) > {count}")
    return w.guarded(v, "list", level, lambda at: _each(w, value, v, count, at))


def _contains(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    sub = w.function(value)
    item = w.temporary()
    if w.draft7:
        return _when(level, f"isinstance({v}, list) and not any({sub}({item}) for {item} in {v})")
    low = w.constant(schema.get("minContains", 1))
    high = schema.get("maxContains")
    most = f"len({v})" if high is None else w.constant(high)
    count = w.temporary()
    return _block(
        level,
        f"if isinstance({v}, list):",
        [
            _indent(level + 1) + f"{count} = sum(1 for {item} in {v} if {sub}({item}))\n",
            *_when(level + 1, f"{count} > {most} or {count} < {low}"),
        ],
    )


def _bound(operator: str) -> Callable[[_Writer, Any, Any, str, int], list[str]]:
    """`operator` is jsonschema's own failing comparison: NaN fails none of them (S14.3)."""

    def write(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
        if not _is_number(value):
            raise _Unsupported("bound")
        number = _TYPE_TESTS["number"].format(v=v)
        return _when(level, f"{number} and {v} {operator} {w.constant(value)}")

    return write


def _size(kind: str, operator: str) -> Callable[[_Writer, Any, Any, str, int], list[str]]:
    def write(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
        if not _is_number(value):
            raise _Unsupported("size")
        return _when(level, f"{w.given(v, kind)}len({v}) {operator} {w.constant(value)}")

    return write


def _enum(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    if not isinstance(value, list):
        raise _Unsupported("enum")
    return _when(level, f"not {_member(w, value, v)}")


def _const(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    return _when(level, f"not {_member(w, [value], v)}")


def _member(w: _Writer, values: list[Any], v: str) -> str:
    """An expression: `v` is one of `values` (`members`); text itself looked up in a set
    first, without a call (nothing but text equals text, to JSON)."""
    check = f"{w.constant(members(values))}({v})"
    texts = frozenset(option for option in values if option.__class__ is str)
    if not texts:
        return check
    return f"({v} in {w.constant(texts)} if type({v}) is str else {check})"


def _pattern(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    search = w.constant(_regex(value))
    return _when(level, f"{w.given(v, 'str')}not {search}({v})")


def _multiple_of(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    if not _is_number(value) or not value > 0:
        raise _Unsupported("multipleOf")
    return _when(level, f"_is_number({v}) and not is_multiple({v}, {w.constant(value)})")


def _unique_items(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    if not value:
        return []
    # An array of fewer than two items is unique: no call for it.
    return _when(level, f"{w.given(v, 'list')}len({v}) > 1 and not unique({v})")


def _all_of(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    return [line for sub in value for line in w.check(sub, v, level)]


def _any_of(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    calls = " or ".join(f"{w.function(sub)}({v})" for sub in value) or "False"
    return _when(level, f"not ({calls})")


def _one_of(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    calls = " + ".join(f"{w.function(sub)}({v})" for sub in value) or "0"
    return _when(level, f"({calls}) != 1")


def _not(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    return _when(level, f"{w.function(value)}({v})")


def _if(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    condition = w.function(value)
    then = w.check(schema["then"], v, level + 1) if "then" in schema else []
    otherwise = w.check(schema["else"], v, level + 1) if "else" in schema else []
    return [
        _indent(level) + f"if {condition}({v}):\n",
        *(then or [_indent(level + 1) + "pass\n"]),
        _indent(level) + "else:\n",
        *(otherwise or [_indent(level + 1) + "pass\n"]),
    ]


def _dependent_required(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    pairs = [
        (w.constant(name), " or ".join(f"{w.constant(n)} not in {v}" for n in tuple(needed)))
        for name, needed in value.items()
    ]

    def body(at: int) -> list[str]:
        lines: list[str] = []
        for name, missing in pairs:
            if missing:
                lines += _block(at, f"if {name} in {v}:", _when(at + 1, missing))
        return lines

    return w.guarded(v, "dict", level, body)


def _dependent_schemas(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    pairs = [(w.constant(name), sub) for name, sub in value.items()]

    def body(at: int) -> list[str]:
        lines: list[str] = []
        for name, sub in pairs:
            lines += _block(at, f"if {name} in {v}:", w.check(sub, v, at + 1))
        return lines

    return w.guarded(v, "dict", level, body)


def _dependencies(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    names = {n: d for n, d in value.items() if isinstance(d, list)}
    subs = {n: d for n, d in value.items() if not isinstance(d, list)}
    return _dependent_required(w, names, schema, v, level) + _dependent_schemas(
        w, subs, schema, v, level
    )


def _ref(w: _Writer, value: Any, schema: Any, v: str, level: int) -> list[str]:
    return _when(level, f"not {w.ref(value)}({v})")


_WRITERS: Mapping[str, Callable[[_Writer, Any, Any, str, int], list[str]]] = {
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
    "minimum": _bound("<"),
    "maximum": _bound(">"),
    "exclusiveMinimum": _bound("<="),
    "exclusiveMaximum": _bound(">="),
    "minLength": _size("str", "<"),
    "maxLength": _size("str", ">"),
    "minItems": _size("list", "<"),
    "maxItems": _size("list", ">"),
    "minProperties": _size("dict", "<"),
    "maxProperties": _size("dict", ">"),
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

_HELPERS: Mapping[str, Any] = {
    "__builtins__": {
        "isinstance": isinstance,
        "type": type,  # `type(v) is str`: specialized by CPython 3.11, `v.__class__` is not
        "len": len,
        "any": any,
        "sum": sum,
        "dict": dict,
        "list": list,
        "str": str,
        "bool": bool,
        "int": int,
        "float": float,
    },
    "_is_number": _is_number,
    "_is_integer": _is_integer,
    "is_multiple": is_multiple,
    "unique": unique,
    "_always": _always,
    "_never": _never,
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
    writer = _Writer(schema, dialect)
    try:
        root = writer.function(schema)
        if root in ("_always", "_never"):
            return _always if root == "_always" else _never
        source = writer.source()
        code = compile(source, _registered(source), "exec")
        namespace = writer.namespace
        exec(code, namespace)
    except (_Unsupported, RecursionError, TypeError, AttributeError, ValueError, SyntaxError):
        return None
    check: Check = namespace[root]
    return check


def _registered(source: str) -> str:
    """A file name for generated `source`, its text registered in `linecache` under it (as
    attrs does), so tracebacks and debuggers show the generated code. The name is the
    source's hash: one entry per distinct source, however many schemas compile to it."""
    name = f"<toolshape fast path {hashlib.sha256(source.encode()).hexdigest()[:16]}>"
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)
    return name
