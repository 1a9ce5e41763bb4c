"""JSON pointers, `#/$defs/` references and the one walker over subschemas (S1.2, S4.4).

Every module that escapes a pointer segment, names a bundled definition or walks a schema's
subschemas does it here, so the keyword tables exist once: which keywords hold one schema, a
list of schemas or a map of schemas (as `referencing`'s own tables say), and which hold data
(`enum`, `const`, `default`, `examples`), never walked as if they were schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from toolshape.model._json import is_map

DEFS = "#/$defs/"
"""The prefix of every reference in an advertised schema (S4.4)."""


#: Keywords whose value is one schema; a list of schemas (`items` too, in draft-07 and
#: 2019-09); a map of names to schemas (`dependencies` holds schemas beside string lists) — in
#: 2020-12, 2019-09, draft-07 and draft-06 together, as `referencing`'s own tables (its
#: `subresources_of`) say: tests/test_structure.py reads them off `referencing` and compares.
#: Literals, so reading a schema loads no third-party package (`toolshape.flatten` vendors).
SCHEMA_VALUE = (
    "additionalProperties", "contains", "if", "items", "not", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "then", "else", "contentSchema",
    "additionalItems",
)  # fmt: skip
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
SCHEMA_MAP = (
    "dependentSchemas", "patternProperties", "properties", "$defs", "definitions", "dependencies",
)  # fmt: skip
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


@dataclass(frozen=True, slots=True)
class Followed:
    """Where a chain of `$ref`-only schemas into `$defs` ends."""

    schema: Any
    """The last schema of the chain: what the references name, or the schema itself."""
    names: tuple[str, ...]
    """The definitions the chain passed through, in order."""
    cycle: bool
    """The chain came back to a definition it had passed."""


def follow(schema: Any, defs: Mapping[str, Any]) -> Followed:
    """Follow `$ref`-only schemas that point into `defs` (`#/$defs/<name>`) — the one chain
    follower, with the one cycle check.

    Stops at anything else: a schema with other keywords, a reference outside `defs`, or a
    cycle (then `cycle` is true and `schema` is the last schema before it closes).
    """
    names: list[str] = []
    while (type(schema) is dict or is_map(schema)) and len(schema) == 1:
        name = def_name(schema.get("$ref"))
        if name is None or name not in defs:
            break
        if name in names or len(names) > MAX_HOPS:
            return Followed(schema, (*names, name), True)
        names.append(name)
        schema = defs[name]
    return Followed(schema, tuple(names), False)


def subschemas(schema: Any) -> Iterator[Any]:
    """The schemas directly inside `schema`, in keyword order; never data (`enum`, `examples`).

    Malformed values (a `properties` that is a list) are skipped, not walked.
    """
    if not is_map(schema):
        return
    for key, value in schema.items():
        if isinstance(value, list):
            if key in _SCHEMA_LIST:
                yield from value
        elif is_map(value):
            if key in _SCHEMA_MAP:
                yield from (v for v in value.values() if not isinstance(v, list))
            elif key in _SCHEMA_VALUE:
                yield value
        elif isinstance(value, bool) and key in _SCHEMA_VALUE:
            yield value


def references(schema: Any) -> Iterator[str]:
    """Every reference string in `schema` and all its subschemas (`own_references` of each,
    and of the schemas an extension's value holds). Iterative: any depth."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if not is_map(node):
            continue
        yield from own_references(node)
        stack.extend(annotation_schemas(node))
        stack.extend(subschemas(node))


def own_references(node: Mapping[str, Any]) -> Iterator[str]:
    """The reference strings written on the schema `node` itself, not inside its subschemas:
    `$ref`, `$dynamicRef`, `$recursiveRef`, and OpenAPI `discriminator.mapping` and
    `defaultMapping` values (S4.4, S26.8)."""
    for key in ("$ref", "$dynamicRef", "$recursiveRef"):
        value = node.get(key)
        if isinstance(value, str):
            yield value
    discriminator = node.get("discriminator")
    if is_map(discriminator) and isinstance(discriminator.get("mapping"), Mapping):
        yield from (v for v in discriminator["mapping"].values() if isinstance(v, str))
    if is_map(discriminator) and isinstance(discriminator.get("defaultMapping"), str):
        yield discriminator["defaultMapping"]  # S26.8


def annotation_schemas(node: Mapping[str, Any]) -> Iterator[Any]:
    """The mappings with a `$ref` inside the schema `node`'s extensions' values
    (`x-anyOf: [{"$ref": ...}]`), which bundling pointed into `$defs` too."""
    for key, value in node.items():
        if key[:2] == "x-" and isinstance(value, (Mapping, list)):
            yield from _annotation_schemas(value)


def _annotation_schemas(value: Any) -> Iterator[Any]:
    """Mappings with a `$ref` inside an extension's value (`x-anyOf: [{"$ref": ...}]`)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if is_map(node):
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
