"""JSON pointers, `#/$defs/` references and the one walker over subschemas (S1.2, S4.4).

Every module that escapes a pointer segment, names a bundled definition or walks a schema's
subschemas does it here, so the keyword tables exist once: which keywords hold one schema, a
list of schemas or a map of schemas (as `referencing`'s own tables say), and which hold data
(`enum`, `const`, `default`, `examples`), never walked as if they were schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

DEFS = "#/$defs/"
"""The prefix of every reference in an advertised schema (S4.4)."""

#: Keywords whose value is one schema (referencing's `in_value`, every dialect).
SCHEMA_VALUE = (
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
#: Keywords whose value is a list of schemas (`items` too, in draft-07 and 2019-09).
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
#: Keywords whose value maps names to schemas.
SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
#: Keywords whose value is data, never schema: a `$ref` inside them is not a reference.
DATA = frozenset({"enum", "const", "default", "examples", "example"})

_SCHEMA_VALUE = frozenset(SCHEMA_VALUE)
_SCHEMA_LIST = frozenset(SCHEMA_LIST)
_SCHEMA_MAP = frozenset(SCHEMA_MAP)

#: How deep `follow` goes through `$ref`-only schemas before it calls the chain a cycle.
MAX_HOPS = 64


def escape(segment: str) -> str:
    """One JSON pointer segment (`~` → `~0`, `/` → `~1`)."""
    return segment.replace("~", "~0").replace("/", "~1")


def unescape(segment: str) -> str:
    """The inverse of `escape`."""
    return segment.replace("~1", "/").replace("~0", "~")


def pointer(*segments: str) -> str:
    """A JSON pointer of `segments` (`pointer("paths", "/a", "get")` → `/paths/~1a/get`)."""
    return "".join("/" + escape(s) for s in segments)


Where = Any
"""A JSON pointer built lazily while walking: a pointer string, or `(parent, segment)`; the
walker only pays for the text when a message needs it (`render`)."""


def render(where: Where) -> str:
    """The JSON pointer text of a `Where`."""
    segments: list[str] = []
    while isinstance(where, tuple):
        where, segment = where
        segments.append(escape(str(segment)))
    return str(where) + "".join("/" + s for s in reversed(segments))


def def_ref(name: str) -> str:
    """The reference to the bundled definition `name` (`#/$defs/<name>`)."""
    return DEFS + escape(name)


def def_name(ref: object) -> str | None:
    """The definition a `#/$defs/<name>` reference names, or None for any other value."""
    if not isinstance(ref, str) or not ref.startswith(DEFS):
        return None
    return unescape(ref[len(DEFS) :].split("/", 1)[0])


def follow(schema: Any, defs: Mapping[str, Any]) -> Any:
    """Follow `$ref`-only schemas that point into `defs` to what they name.

    Stops at anything else: a schema with other keywords, a reference outside `defs`, or a
    cycle (the last schema before the cycle closes is returned).
    """
    seen: set[str] = set()
    while isinstance(schema, Mapping) and len(schema) == 1:
        name = def_name(schema.get("$ref"))
        if name is None or name in seen or name not in defs or len(seen) > MAX_HOPS:
            return schema
        seen.add(name)
        schema = defs[name]
    return schema


def subschemas(schema: Any) -> Iterator[Any]:
    """The schemas directly inside `schema`, in keyword order; never data (`enum`, `examples`).

    Malformed values (a `properties` that is a list) are skipped, not walked.
    """
    if not isinstance(schema, Mapping):
        return
    for key, value in schema.items():
        if key in _SCHEMA_VALUE:
            if isinstance(value, list):  # draft-07 `items: [...]`
                yield from value
            else:
                yield value
        elif key in _SCHEMA_LIST:
            if isinstance(value, list):
                yield from value
        elif key in _SCHEMA_MAP:
            if isinstance(value, Mapping):
                yield from value.values()
        elif key == "dependencies" and isinstance(value, Mapping):
            yield from (v for v in value.values() if not isinstance(v, list))


def references(schema: Any) -> Iterator[str]:
    """Every reference string in `schema` and all its subschemas: `$ref`, `$dynamicRef`,
    `$recursiveRef`, and OpenAPI `discriminator.mapping` values (S4.4). Iterative: any depth."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        for key in ("$ref", "$dynamicRef", "$recursiveRef"):
            value = node.get(key)
            if isinstance(value, str):
                yield value
        discriminator = node.get("discriminator")
        if isinstance(discriminator, Mapping) and isinstance(discriminator.get("mapping"), Mapping):
            yield from (v for v in discriminator["mapping"].values() if isinstance(v, str))
        for key, value in node.items():
            if key[:2] == "x-" and isinstance(value, (Mapping, list)):
                stack.extend(_annotation_schemas(value))
        stack.extend(subschemas(node))


def _annotation_schemas(value: Any) -> Iterator[Any]:
    """Mappings with a `$ref` inside an extension's value (`x-anyOf: [{"$ref": ...}]`)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if isinstance(node.get("$ref"), str):
                yield node
            stack.extend(v for v in node.values() if isinstance(v, (Mapping, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (Mapping, list)))


def reachable(roots: Any, defs: Mapping[str, Any]) -> dict[str, Any]:
    """The part of `defs` the references inside `roots` reach, transitively, in `defs` order
    (through `$ref`, `$dynamicRef` and discriminator mappings, S4.4)."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        for ref in references(stack.pop()):
            name = def_name(ref)
            if name is not None and name not in seen and name in defs:
                seen.add(name)
                stack.append(defs[name])
    return {name: schema for name, schema in defs.items() if name in seen}
