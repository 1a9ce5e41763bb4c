"""Meta-checks shared by the corpus-wide tests: a schema is self-contained and valid under
its dialect's meta-schema, each distinct piece checked once per test process (S1.4, S4.4)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import validators

#: Keywords whose values are data, not schemas: a `$ref` inside them is not a reference.
DATA_KEYWORDS = frozenset({"examples", "example", "default", "enum", "const"})


def refs(node: Any) -> Iterator[str]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                yield item["$ref"]
            stack.extend(v for k, v in item.items() if k not in DATA_KEYWORDS)
        elif isinstance(item, list):
            stack.extend(item)


def assert_self_contained(schema: dict[str, Any]) -> None:
    defs = schema.get("$defs", {})
    for ref in refs(schema):
        assert ref.startswith("#/$defs/"), ref
        assert ref[len("#/$defs/") :] in defs, ref


#: Where the meta-schema checks subschemas as schemas of the same dialect (JSON Schema
#: 2020-12 core and applicator vocabularies; draft-07's `items` array too).
MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
ONES = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")

#: Keywords whose values the meta-schemas (2020-12 and draft-07) check for their JSON type
#: only: a value of that type is replaced by a blank of the same type before checking, so
#: schemas that differ only in their words (or data) are one check, not many.
BLANKS: dict[str, Any] = {
    "description": "",
    "title": "",
    "$comment": "",
    "examples": [],
    "enum": [],
}

#: Distinct schema texts already checked against their meta-schema, across every test here.
CHECKED: set[str] = set()
#: Schema objects already checked, by identity: a plan's schemas share their `$defs` entries
#: with every other plan of the document (kept alive here, so no identity is reused).
SEEN: dict[int, tuple[Any, frozenset[str]]] = {}


def assert_valid_under_its_dialect(schema: Any) -> None:
    """S1.4, S4.4, S4.7: self-contained, and valid under the dialect its root declares.

    `schema` is a plan's own (shared) schema, not a copy, so each `$defs` entry shared by
    many plans is walked once: its references are remembered with it."""
    cls = validators.validator_for(schema)
    defs = schema.get("$defs", {})
    root = {k: v for k, v in schema.items() if k != "$defs"}
    wanted = set(refs(root))
    for part in defs.values():
        wanted |= part_refs(part, cls)
    for ref in wanted:
        assert ref.startswith("#/$defs/"), ref
        assert ref[len("#/$defs/") :] in defs, ref
    check_parts(root, cls)


def part_refs(part: Any, cls: Any) -> frozenset[str]:
    """The references inside one `$defs` entry, walked and meta-checked once per object."""
    seen = SEEN.get(id(part))
    if seen is None or seen[0] is not part:
        check_parts(part, cls)
        seen = SEEN[id(part)] = (part, frozenset(refs(part)))
    return seen[1]


def check_parts(schema: Any, cls: Any) -> None:
    """Check `schema` against the meta-schema of `cls` piece by piece, each distinct piece once.

    The meta-schema checks every `properties` and `$defs` value as a schema of the same
    dialect, so checking each on its own (with `true` in its place) is the same check; many
    tools share one property or one component, which is then checked once, not per tool.
    """
    if not isinstance(schema, dict):
        return
    cls = validators.validator_for(schema, default=cls)
    shell = dict(schema)
    for keyword, value in schema.items():
        if keyword in MAPS and isinstance(value, dict):
            shell[keyword] = dict.fromkeys(value, True)
            parts = list(value.values())
        elif keyword in LISTS and isinstance(value, list) and value:
            shell[keyword] = [True] * len(value)
            parts = value
        elif keyword in ONES and isinstance(value, dict):
            shell[keyword] = True
            parts = [value]
        else:
            continue
        for part in parts:
            check_parts(part, cls)
    for keyword, blank in BLANKS.items():
        if isinstance(shell.get(keyword), type(blank)):
            shell[keyword] = blank
    for keyword in [k for k in shell if k.startswith("x-")]:
        del shell[keyword]  # an unknown keyword: the meta-schemas allow any value
    if isinstance(shell.get("properties"), dict) and shell["properties"]:
        shell["properties"] = {"": True}  # names are unconstrained, each value checked above
    required = shell.get("required")
    if isinstance(required, list) and all(isinstance(name, str) for name in required):
        # Strings, unique: the names' first positions keep exactly what is checked.
        shell["required"] = [str(required.index(name)) for name in required]
    text = f"{cls.__name__}:{json.dumps(shell, sort_keys=True)}"
    if text not in CHECKED:
        cls.check_schema(shell)
        CHECKED.add(text)
