"""The tool entries of a plans file proven column by column (S15.1, issue 17).

An API's tools are many small entries of the same fields. Checking each entry on its own costs
the same Python steps again and again; checking each *field* across all entries at once — the
set of its values' types, its pattern over every value, its enum as a set — runs in C. Every
check here is exact for the schema shapes it takes (`_proof` says which); any entry they can't
prove leaves `check_entry` to decide each entry and to word what it refuses, so nothing here
ever refuses or accepts on its own account.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, Literal, NamedTuple

from toolshape.plans._format import BY_TABLE, ENTRY_SCHEMA, OWN_VALUES
from toolshape.plans._plan import OWN
from toolshape.schema._fastcheck import compile_check
from toolshape.schema._regex import nested_quantifier

#: The Python types JSON text parses to, for each JSON Schema `type` but `integer` (`1.0` is
#: one, `1.5` is not: a Python type does not decide it).
_PYTHON_TYPES: Mapping[str, frozenset[type]] = {
    "string": frozenset({str}),
    "null": frozenset({type(None)}),
    "object": frozenset({dict}),
    "array": frozenset({list}),
    "boolean": frozenset({bool}),
    "number": frozenset({int, float}),
}


def _types(schema: Mapping[str, Any]) -> frozenset[type] | None:
    """The Python types a schema of nothing but `type` accepts (no other type's value is
    valid, every such value is), or None: a schema a value's Python type alone doesn't
    decide."""
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if schema.keys() != {"type"} or not all(k in _PYTHON_TYPES for k in kinds):
        return None
    return frozenset().union(*(_PYTHON_TYPES[k] for k in kinds))


def _proof(name: str) -> Literal["typed", "shaped", "pattern", "enum", "checked"]:
    """How the field `name` of every tool entry is proven at once: by the set of its values'
    types (`typed`); an object of `typed` properties and no others by its keys and each
    property's types (`shaped`); a string of a pattern by the pattern over every value
    (`pattern`); an enum of strings by the set of its values (`enum`); any other field by its
    compiled check of each value (`checked`)."""
    schema = ENTRY_SCHEMA["properties"][name]
    if _types(schema) is not None:
        return "typed"
    if (
        schema.keys() == {"type", "properties", "additionalProperties"}
        and schema["type"] == "object"
        and schema["additionalProperties"] is False
        and all(_types(s) is not None for s in schema["properties"].values())
    ):
        return "shaped"
    if schema.keys() == {"type", "pattern"} and schema["type"] == "string":
        return "pattern"
    if schema.keys() == {"enum"} and all(type(v) is str for v in schema["enum"]):
        return "enum"
    return "checked"


def _value_check(name: str) -> Callable[[Any], Any] | None:
    """The compiled check of one value of the entry field `name`, or None."""
    schema = ENTRY_SCHEMA["properties"][name]
    return compile_check(
        {"$schema": ENTRY_SCHEMA["$schema"], **schema, "$defs": ENTRY_SCHEMA["$defs"]}
    )


def _column_check(name: str) -> Callable[[tuple[Any, ...]], bool] | None:
    """A predicate of every value of the entry field `name` at once (a tuple of them): True
    only where the field's schema accepts each; None where none could be made."""
    schema = ENTRY_SCHEMA["properties"][name]
    proof = _proof(name)
    accepted = _types(schema)
    if accepted is not None:  # typed
        return lambda column: set(map(type, column)) <= accepted
    if proof == "shaped":
        properties = {key: kinds for key, s in schema["properties"].items() if (kinds := _types(s))}
        return lambda column: _shaped(column, properties)
    if proof == "pattern":
        if nested_quantifier(schema["pattern"]):
            return None  # S13.3: jsonschema alone runs it
        try:
            search = re.compile(schema["pattern"]).search
        except re.error:
            return None
        return lambda column: set(map(type, column)) <= _STR and all(map(search, column))
    if proof == "enum":
        allowed = frozenset(schema["enum"])
        return lambda column: _within(column, allowed)
    check = _value_check(name)
    if check is None:
        return None
    kinds = _types({"type": schema["type"]}) if "type" in schema else None
    if kinds is not None and all(check(e) for kind in kinds for e in _EMPTY[kind]):
        # A value of another type is refused by its type, an empty one of these is valid:
        # only the others are checked (most tools' encoding, diagnostics ... are empty).
        return lambda column: (
            set(map(type, column)) <= kinds and all(map(check, filter(None, column)))
        )
    return lambda column: all(map(check, column))


#: The values of each type JSON text parses to that are false (`filter(None, ...)` skips).
_EMPTY: Mapping[type, tuple[Any, ...]] = {
    str: ("",),
    dict: ({},),
    list: ([],),
    bool: (False,),
    type(None): (None,),
    int: (0,),
    float: (0.0, -0.0),
}


_STR, _DICT = frozenset({str}), frozenset({dict})
_MISSING: Any = object()  # a property an object of a `shaped` field leaves out


def _shaped(column: tuple[Any, ...], properties: Mapping[str, frozenset[type]]) -> bool:
    """Every value an object of these properties only, each of one of its types."""
    if (
        not set(map(type, column)) <= _DICT
        or not set(chain.from_iterable(column)) <= properties.keys()
    ):
        return False
    for key, accepted in properties.items():
        found = set(map(type, map(dict.get, column, repeat(key), repeat(_MISSING))))
        found.discard(type(_MISSING))  # left out
        if not found <= accepted:
            return False
    return True


def _within(column: tuple[Any, ...], allowed: frozenset[str]) -> bool:
    """Every value one of `allowed` (strings: nothing else is equal to one and hashes)."""
    try:
        return set(column) <= allowed
    except TypeError:  # an unhashable value: no string
        return False


#: A tool entry's indices into the file's tables (`BY_TABLE`); its own values are `OWN`'s.
INDICES = itemgetter(*BY_TABLE)
_MADE = tuple(map(_column_check, OWN_VALUES))
_CHECKS = tuple(check for check in _MADE if check is not None)
#: What the loader proves of an index (spelled out, not imported: the schema is held to it).
_INDEX = {"type": "integer", "minimum": 0}
#: Entries are proven by columns only where an entry is a plain object of independent fields,
#: each required, no other allowed, each own field's check made, the indices as the loader
#: proves them (`int`, at least 0, naming an entry).
_BY_COLUMNS = (
    len(_CHECKS) == len(OWN_VALUES)
    and ENTRY_SCHEMA.keys()
    == {"$schema", "$defs", "title", "type", "properties", "required", "additionalProperties"}
    and ENTRY_SCHEMA["type"] == "object"
    and ENTRY_SCHEMA["additionalProperties"] is False
    and sorted(ENTRY_SCHEMA["required"]) == sorted(ENTRY_SCHEMA["properties"])
    and sorted(ENTRY_SCHEMA["required"]) == sorted((*OWN_VALUES, *BY_TABLE))
    and ENTRY_SCHEMA["properties"]["parameters"] == {"type": "array", "items": _INDEX}
    and ENTRY_SCHEMA["properties"]["security"] == _INDEX
    and ENTRY_SCHEMA["properties"]["profile"] == _INDEX
)
_COUNT = len(ENTRY_SCHEMA["required"])


class Entries(NamedTuple):
    """A plans file's tool entries, proven (`proven_entries`)."""

    own: list[tuple[Any, ...]]
    """Each entry's own values, in the order of `OWN_VALUES`."""
    columns: list[tuple[Any, ...]]
    """Each own field's values of every entry, in the order of `OWN_VALUES`."""
    indices: list[tuple[Any, ...]]
    """Each entry's indices into the file's tables, in the order of `BY_TABLE`."""


def proven_entries(entries: list[Any]) -> Entries | None:
    """The tool entries' values where every entry is one `check_entry` accepts — its indices
    aside, which the loader proves when it finds what they name — else None: `check_entry`
    then decides each entry, and words what it refuses. Never raises."""
    if not _BY_COLUMNS:
        return None
    if not entries:
        return Entries([], [()] * len(OWN_VALUES), [])
    try:
        if not set(map(type, entries)) <= _DICT or not set(map(len, entries)) <= {_COUNT}:
            return None
        # Every field there (each getter found its own) and no other (as many as fields).
        own, indices = list(map(OWN, entries)), list(map(INDICES, entries))
        columns = list(zip(*own, strict=True))
        for check, column in zip(_CHECKS, columns, strict=True):
            if not check(column):
                return None
    except Exception:  # any doubt: `check_entry` decides
        return None
    return Entries(own, columns, indices)
