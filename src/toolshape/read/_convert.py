"""S1.4, S4.4, S14.4: one schema of a document converted to a 2020-12 schema whose local
references point into the root `$defs` — a function of the schema that returns what it found.

`convert` checks every keyword against its dialect's meta-schema (`_metaschema`), converts a
3.0 schema or repairs a 3.1 one (S1.4), names each schema it references under `$defs` (S4.4),
and notes what a later step looks for (`Found`). Hostile schemas are refused as `Problem`s:
values nested deeper than `MAX_DEPTH`, numbers JSON can't write, and shared sub-objects (what a
YAML loader builds from anchors) that expand past `EXPANSION` times their written size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NoReturn

from toolshape.model._dialects import DRAFT2020_12, dialect_of
from toolshape.model._json import Unchecked, is_map
from toolshape.model._limits import EXPANSION, EXPANSION_FLOOR, MAX_DATA_DEPTH, MAX_DEPTH
from toolshape.model._pointers import (
    DATA,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_VALUE,
    Where,
    escape,
    render,
)
from toolshape.model._types import Schema
from toolshape.read._problem import fail, kind_of
from toolshape.read._refs import DefNames, References
from toolshape.schema._convert import CONVERTED_30, REPAIRED_31, convert_30, repair_31
from toolshape.schema._metaschema import ACCEPTED, RULES, UNPLANNED_DIALECTS, WANTS, Rule
from toolshape.schema._regex import compiles, nested_quantifier
from toolshape.schema._views import is_binary

#: A discriminator mapping value that is a schema name, not a reference (S4.4).
_BARE_NAME = re.compile(r"^[A-Za-z0-9._-]+\Z")

# What the converter does with each keyword's value (the tables of `_pointers`, as one lookup).
_ONE, _LIST, _MAP, _ITEMS, _DATA = "one", "list", "map", "items", "data"
_REF, _DYNAMIC_REF, _RECURSIVE_REF, _PATTERN = "$ref", "$dynamicRef", "$recursiveRef", "pattern"
_DEPENDENCIES, _DISCRIMINATOR, _AS_IS = "dependencies", "discriminator", "as-is"
_KIND: dict[str, str] = {
    **dict.fromkeys(SCHEMA_VALUE, _ONE),
    **dict.fromkeys(SCHEMA_LIST, _LIST),
    **dict.fromkeys(SCHEMA_MAP, _MAP),
    **dict.fromkeys(DATA, _DATA),
    "items": _ITEMS,
    "$ref": _REF,
    "$dynamicRef": _DYNAMIC_REF,
    "$recursiveRef": _RECURSIVE_REF,
    "pattern": _PATTERN,
    "dependencies": _DEPENDENCIES,
    "discriminator": _DISCRIMINATOR,
    # Keywords whose values are never schema nor hold references: copied as they are.
    **dict.fromkeys(
        (
            "type",
            "title",
            "description",
            "format",
            "required",
            "$schema",
            "$id",
            "$anchor",
            "$dynamicAnchor",
            "$comment",
            "readOnly",
            "writeOnly",
            "deprecated",
            "minimum",
            "maximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "nullable",
            "contentMediaType",
            "contentEncoding",
            "exclusiveMinimum",
            "exclusiveMaximum",
        ),
        _AS_IS,
    ),
}
_SCALARS = frozenset({str, int, float, bool, type(None)})
_UNKNOWN: tuple[str | None, Rule | None, type | None] = (None, None, None)
#: Per dialect, each keyword's kind, meta-schema rule and the class that rule surely accepts,
#: in one lookup.
_TABLES: dict[str, dict[str, tuple[str | None, Rule | None, type | None]]] = {
    dialect: {
        key: (_KIND.get(key), rule, ACCEPTED.get(rule) if rule else None)
        for key in {*_KIND, *rules}
        for rule in (rules.get(key),)
    }
    for dialect, rules in RULES.items()
}

#: The keywords that can make a schema something a view changes (S16.6, S17.5).
_VIEW_FLAGS = frozenset({"readOnly", "writeOnly", "format", "contentMediaType", "contentEncoding"})


@dataclass(slots=True)
class Found:
    """What a reading's schemas hold that a later step looks for — a finding of the
    conversion (`convert`, `Bundler.bundle`), so a step that would change nothing is
    skipped."""

    request: bool = False
    """A `readOnly: true` or a binary string: the request view changes something (S16.6,
    S17.5)."""
    response: bool = False
    """A `writeOnly: true`: the response view changes something (S16.6)."""
    patterns: bool = False
    """A pattern Python's `re` can't compile, or with nested quantifiers (S13.3)."""

    def add(self, other: Found) -> None:
        """Everything `other` found, found here too."""
        self.request = self.request or other.request
        self.response = self.response or other.response
        self.patterns = self.patterns or other.patterns


@dataclass(frozen=True, slots=True)
class Context:
    """What every conversion of one document shares: its references, the `$defs` names given
    so far, and two per-document memos."""

    references: References
    names: DefNames
    is_30: bool
    components: Mapping[str, Unchecked]
    """`#/components/schemas`: what a bare discriminator mapping value names (S4.4)."""
    clean: dict[int, Schema] = field(default_factory=dict)
    """Every converted schema (by `id`, kept alive here) with no reference and no view flag
    anywhere in it, or that is nothing but a reference: no view changes it (S16.6, S17.5; a
    view follows a reference only from the schema that holds it)."""
    patterns: dict[str, str] = field(default_factory=dict)
    """`pattern_kind`'s memo."""

    def pattern_kind(self, pattern: str) -> str:
        """`"foreign"` (Python's `re` can't compile it), `"slow"` (nested quantifiers), or
        `""`; memoized per document."""
        kind = self.patterns.get(pattern)
        if kind is None:
            kind = self.patterns[pattern] = (
                "foreign" if not compiles(pattern) else "slow" if nested_quantifier(pattern) else ""
            )
        return kind


@dataclass(frozen=True, slots=True)
class Converted:
    """A schema as `convert` returned it."""

    schema: Schema
    refs: tuple[str, ...]
    """The `$defs` names it references, in the order met (a name once per reference)."""
    found: Found


@dataclass(slots=True)
class _Walk:
    """The state of one conversion."""

    context: Context
    refs: list[str] = field(default_factory=list)
    memo: dict[int, tuple[Unchecked, Schema, tuple[str, ...]]] = field(default_factory=dict)
    """Each node converted, by its `id`: the node (kept alive), its conversion, its refs."""
    shared: bool = False
    """A sub-object was met twice (its expansion is then measured, S14.4)."""
    flags: int = 0
    """View flags met so far: a subtree that adds none has none (`Context.clean`)."""
    found: Found = field(default_factory=Found)


def convert(context: Context, node: Unchecked, pointer: str, dialect: str) -> Converted:
    """`node` (at `pointer`, read under `dialect`) as a 2020-12 schema with local refs pointing
    into `$defs` (S1.4, S4.4).

    Raises:
        Problem: a value that is not a schema, a keyword its meta-schema rejects, a bad
            reference, nesting too deep, or shared sub-objects that expand too far.
    """
    walk = _Walk(context)
    try:
        out = _schema(walk, node, pointer, dialect, 0)
    except RecursionError:
        fail("schema", f"the schema at `{pointer}` is nested too deeply to plan", "S14.4")
    if walk.shared:
        expanded, distinct = expansion(out)
        if expanded > max(EXPANSION_FLOOR, EXPANSION * distinct):
            fail(
                "schema",
                f"the schema at `{pointer}` expands to {expanded} nodes from {distinct} "
                f"written ones (shared sub-objects, as a YAML loader builds from anchors), "
                f"past {EXPANSION} times its size; write the shared parts as `$ref`s to "
                "components instead",
                "S14.4",
            )
    return Converted(out, tuple(walk.refs), walk.found)


def expansion(root: Unchecked) -> tuple[int, int]:
    """`(expanded, distinct)`: how many containers `root` holds counting every path to a shared
    one, and counting each once. Linear in the distinct containers, at any depth."""
    sizes: dict[int, int] = {}
    held: list[Unchecked] = []  # keeps every counted object alive, so no id is reused meanwhile
    stack: list[tuple[Unchecked, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        if done:
            sizes[id(node)] = 1 + sum(
                sizes.get(id(child), 0) for child in children if isinstance(child, (dict, list))
            )
            continue
        if id(node) in sizes:
            continue
        sizes[id(node)] = 0  # a cycle contributes nothing more
        held.append(node)
        stack.append((node, True))
        stack.extend((child, False) for child in children if isinstance(child, (dict, list)))
    return sizes.get(id(root), 0), len(held)


def _schema(walk: _Walk, node: Unchecked, pointer: Where, dialect: str, depth: int) -> Schema:
    """One schema node converted (S1.4) and its references bundled (S4.4): its keywords
    checked and their values converted, the 3.0 conversion or 3.1 repair, the view flags
    noted (S16.6), `$id` refused (S1.2); each shared sub-object converted once."""
    if type(node) is not dict:
        if node is True or node is False:
            return node  # S1.4: true / false are schemas, copied unchanged.
        if not is_map(node):
            fail(
                "schema",
                f"expected a schema at `{render(pointer)}`, found a {kind_of(node)}",
                "S1.4",
            )
    seen = walk.memo.get(id(node))
    if seen is not None:
        return _again(walk, seen)
    if depth > MAX_DEPTH:
        fail(
            "schema",
            f"the schema at `{render(pointer)}` is nested too deeply to plan (deeper than "
            f"{MAX_DEPTH} schema levels; toolshape refuses deeper schemas so every copy "
            "and comparison of a plan stays bounded)",
            "S14.4",
        )
    if "$schema" in node and isinstance(declared := node["$schema"], str):
        dialect = _dialect(declared, pointer, dialect)
    start, flags = len(walk.refs), walk.flags
    out, converts = _keywords(walk, node, pointer, dialect, depth + 1)
    # Most schemas have none of the keywords either step reads: those are kept as they are.
    if walk.context.is_30:
        converted = convert_30(out) if converts or not CONVERTED_30.isdisjoint(out) else out
    else:
        converted = out if REPAIRED_31.isdisjoint(out) else repair_31(out)
    if not _VIEW_FLAGS.isdisjoint(out):
        _note_view_flags(walk, out)
    if "$id" in out and len(walk.refs) > start:
        fail(
            "reference",
            f"the schema at `{render(pointer)}` has `$id`, which would re-base the references "
            "inside it, but toolshape reads every reference as a pointer into the "
            "document. Remove `$id`",
            "S1.2",
        )
    _remember(walk, node, converted, tuple(walk.refs[start:]), walk.flags == flags)
    return converted


def _keywords(
    walk: _Walk, node: Mapping[str, Unchecked], pointer: Where, dialect: str, deeper: int
) -> tuple[dict[str, Unchecked], bool]:
    """Every keyword of a schema node checked against its dialect's meta-schema rule (S1.4)
    and its value converted by its kind; and whether a value counts only once S1.4 converts
    it (a 3.0 `type: file`, a boolean bound)."""
    table = _TABLES.get(dialect) or _TABLES[DRAFT2020_12]
    out: dict[str, Unchecked] = {}
    converts = False
    for key, value in node.items():
        if type(value) is float and not math.isfinite(value):
            _not_finite(value, (pointer, key))
        kind, rule, accepted = table.get(key, _UNKNOWN)
        if rule is not None and type(value) is not accepted and not rule(value):
            if not _converted(key, value, walk.context.is_30):
                fail(
                    "schema",
                    f"`{key}` at `{render(pointer)}` is {_shown(value)}, but the JSON "
                    f"Schema meta-schema says it must be {WANTS[rule]}. Fix the schema",
                    "S1.4",
                )
            converts = True
        if kind is _AS_IS or (kind is None and type(value) in _SCALARS):
            out[key] = value  # fast path: most values are copied as they are
        else:
            out[key] = _value(walk, kind, key, value, pointer, dialect, deeper)
    return out, converts


def _value(
    walk: _Walk,
    kind: str | None,
    key: str,
    value: Unchecked,
    pointer: Where,
    dialect: str,
    deeper: int,
) -> Unchecked:
    """One keyword's value converted per its kind (`_KIND`): subschemas walked, references
    bundled, data bounded, patterns noted (S13.3)."""
    here = (pointer, key)
    if kind is None:  # an annotation (`x-anyOf`, `xml`, ...): its `$ref`s point into `$defs`
        return _annotation(walk, value, here, 0)
    if kind is _ONE or (kind is _ITEMS and not isinstance(value, list)):
        return _schema(walk, value, here, dialect, deeper)
    if kind is _MAP and is_map(value):
        if key == "patternProperties":
            _note_patterns(walk, value)
        return {k: _schema(walk, v, (here, k), dialect, deeper) for k, v in value.items()}
    if (kind is _LIST or kind is _ITEMS) and isinstance(value, list):
        return [_schema(walk, v, (here, i), dialect, deeper) for i, v in enumerate(value)]
    if kind is _DATA:
        if type(value) not in _SCALARS:
            _data(walk, value, here)
        return value
    if kind is _REF:
        return _ref(walk, value) if isinstance(value, str) else value
    if kind is _DYNAMIC_REF:
        return _dynamic_ref(walk, value) if isinstance(value, str) else value
    if kind is _PATTERN:
        if isinstance(value, str):
            _note_patterns(walk, (value,))
        return value
    if kind is _DEPENDENCIES and is_map(value):
        return {
            k: v if isinstance(v, list) else _schema(walk, v, (here, k), dialect, deeper)
            for k, v in value.items()
        }
    if kind is _DISCRIMINATOR and is_map(value):
        return _discriminator(walk, value, pointer)
    if kind is _RECURSIVE_REF and value != "#" and isinstance(value, str):
        fail(
            "reference",
            f"`$recursiveRef` `{value}` at `{render(pointer)}` is not `#`, the only value that "
            "stays inside the document",
            "S1.2",
        )
    return value


def _again(walk: _Walk, seen: tuple[Unchecked, Schema, tuple[str, ...]]) -> Schema:
    """A shared sub-object met again in one conversion: its conversion, its references
    passed on; what holds it is clean only if it is (S14.4: sharing is then measured)."""
    walk.shared = True
    walk.refs.extend(seen[2])
    if walk.context.clean.get(id(seen[1])) is not seen[1]:
        walk.flags += 1
    return seen[1]


def _note_view_flags(walk: _Walk, out: Mapping[str, Unchecked]) -> None:
    """S16.6, S17.5: a `readOnly`, `writeOnly` or binary schema — only then are the request
    or response views made."""
    request = out.get("readOnly") is True or is_binary(out)
    response = out.get("writeOnly") is True
    if request or response:
        walk.found.request = walk.found.request or request
        walk.found.response = walk.found.response or response
        walk.flags += 1


def _remember(
    walk: _Walk, node: Unchecked, converted: Schema, refs: tuple[str, ...], unflagged: bool
) -> None:
    """Memoize a node's conversion for this walk, and mark it clean (`Context.clean`) when no
    view can change it: no reference and no view flag below it, or nothing but a reference."""
    walk.memo[id(node)] = (node, converted, refs)
    clean = walk.context.clean
    if not refs:
        if unflagged:
            clean[id(converted)] = converted
    elif is_map(converted) and len(converted) == 1 and "$ref" in converted:  # nothing below
        clean[id(converted)] = converted  # a view changes no bare reference


def _converted(key: str, value: Unchecked, is_30: bool) -> bool:
    """Values S1.4 converts before they count: 3.0 boolean bounds (also repaired in 3.1), a
    3.0 `type: file`, a boolean `$recursiveAnchor` outside 2019-09."""
    if key in ("exclusiveMinimum", "exclusiveMaximum", "$recursiveAnchor"):
        return isinstance(value, bool)
    return key == "type" and value == "file" and is_30


def _note_patterns(walk: _Walk, value: Iterable[Unchecked]) -> None:
    if not walk.found.patterns:
        walk.found.patterns = any(walk.context.pattern_kind(str(p)) for p in value)


def _dialect(declared: str, pointer: Where, current: str) -> str:
    """The dialect a `$schema` names (S1.7); unknown URIs keep the current one, as the
    validator does; draft-03 and draft-04 are refused."""
    unplanned = UNPLANNED_DIALECTS.match(declared)
    if unplanned:
        fail(
            "schema",
            f"the schema at `{render(pointer)}` declares `$schema` {unplanned.group(1)}, a dialect "
            "toolshape does not plan. Use JSON Schema 2020-12 (or draft-07)",
            "S1.7",
        )
    known = dialect_of(declared)
    return known.uri if known else current


def _ref(walk: _Walk, ref: str) -> str:
    """A local reference, pointing into `$defs` (S4.4); its target must exist (S1.2)."""
    references = walk.context.references
    pointer = references.pointer_of(ref)
    references.lookup(pointer, ref)
    name = walk.context.names(pointer)
    walk.refs.append(name)
    return "#/$defs/" + escape(name)


def _dynamic_ref(walk: _Walk, value: str) -> str:
    """S1.2: a `$dynamicRef` pointer is bundled like `$ref`; an anchor (`#node`) stays in the
    schema; anything else would leave the document."""
    if value.startswith("#/"):
        return _ref(walk, value)
    if value.startswith("#") and "/" not in value:
        return value
    fail(
        "reference",
        f"`$dynamicRef` `{value}` is not local to the document; toolshape never retrieves "
        "anything, so use a `#anchor` or a `#/pointer` inside the document",
        "S1.2",
    )


def _discriminator(
    walk: _Walk, value: Mapping[str, Unchecked], pointer: Where
) -> dict[str, Unchecked]:
    """S4.4: mapping values (references, or bare schema names) point into `$defs`, and so does
    a 3.2 `defaultMapping` (S26.8)."""
    mapping = value.get("mapping")
    found = dict(value)
    default = value.get("defaultMapping")
    if isinstance(default, str):
        found["defaultMapping"] = _mapped(walk, "defaultMapping", default, pointer)
    if is_map(mapping):
        found["mapping"] = {
            key: _mapped(walk, key, target, pointer) for key, target in mapping.items()
        }
    return found


def _mapped(walk: _Walk, key: object, target: Unchecked, pointer: Where) -> Unchecked:
    """One discriminator mapping's target (`key`'s), pointing into `$defs` (S4.4)."""
    if isinstance(target, str) and target.startswith("#"):
        return _ref(walk, target)
    if isinstance(target, str) and _BARE_NAME.match(target):
        if target not in walk.context.components:
            fail(
                "reference",
                f"the discriminator mapping at `{render(pointer)}/discriminator` maps "
                f"`{key}` to `{target}`, which names no schema in `#/components/schemas`",
                "S1.2",
            )
        return _ref(walk, "#/components/schemas/" + escape(target))
    if isinstance(target, str):
        fail(
            "reference",
            f"the discriminator mapping at `{render(pointer)}/discriminator` maps `{key}` to "
            f"`{target}`, which is not local to the document; toolshape never "
            "retrieves anything, so bundle it into the document",
            "S1.2",
        )
    return target


def _annotation(walk: _Walk, value: Unchecked, pointer: Where, depth: int) -> Unchecked:
    """A copy of an annotation's value whose `$ref`s point into `$defs` (S4.4)."""
    if depth > MAX_DATA_DEPTH:
        _data(walk, value, pointer)
    if is_map(value):
        return {
            k: _ref(walk, v)
            if k == "$ref" and isinstance(v, str)
            else _annotation(walk, v, pointer, depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_annotation(walk, v, pointer, depth + 1) for v in value]
    if type(value) is float and not math.isfinite(value):
        _not_finite(value, pointer)
    return value


def _data(walk: _Walk, value: Unchecked, pointer: Where) -> None:
    """Data inside a schema may nest `MAX_DATA_DEPTH` levels; sharing is noted (S14.4)."""
    seen: set[int] = set()
    stack: list[tuple[Unchecked, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DATA_DEPTH:
            fail(
                "schema",
                f"the value at `{render(pointer)}` is nested too deeply to plan (deeper than "
                f"{MAX_DATA_DEPTH} levels; toolshape refuses deeper values so every copy "
                "of a plan stays bounded)",
                "S14.4",
            )
        if id(node) in seen:
            walk.shared = True
            continue
        seen.add(id(node))
        children = node.values() if is_map(node) else node
        for child in children:  # most data is text and numbers: no ABC asked about them
            if type(child) is float and not math.isfinite(child):
                _not_finite(child, pointer)
            if type(child) not in _SCALARS and isinstance(child, (Mapping, list)):
                stack.append((child, depth + 1))


def _shown(value: Unchecked) -> str:
    text = repr(value) if not isinstance(value, (Mapping, list)) else kind_of(value)
    return text if len(text) <= 60 else text[:60] + "…"


def _not_finite(value: float, pointer: Where) -> NoReturn:
    """S14.4: a number JSON can't write (`1e400`, YAML's `.inf` and `.nan`) has no place in an
    advertised schema."""
    fail(
        "schema",
        f"the number at `{render(pointer)}` is {value}, which JSON can't write, so no advertised "
        "schema can hold it. Use a finite number",
        "S14.4",
    )
