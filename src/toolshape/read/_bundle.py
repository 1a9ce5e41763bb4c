"""S1.2, S1.4, S4.4: schemas out of one document, references resolved and bundled.

A `Bundler` resolves local `$ref`s with `referencing` (never retrieving anything), converts every
schema it reaches (S1.4, `_convert`), checks every keyword against its dialect's meta-schema
(`_metaschema`), and names every referenced schema once under the root `$defs` (S4.4).
Converted components are memoized, so planning a whole document converts each one once.

Hostile documents are refused here, as planning errors (`Problem`s), never exceptions later:
references out of the document, reference cycles (also through a pointer that passes through
itself), schemas nested deeper than `MAX_DEPTH`, and shared sub-objects (what a YAML loader
builds from anchors) that expand past `EXPANSION` times their written size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn
from urllib.parse import unquote, urldefrag, urljoin

from referencing import Registry, Resource
from referencing.exceptions import PointerToNowhere, Unresolvable

from toolshape.model._dialects import DRAFT2020_12, dialect_of
from toolshape.model._errors import PlanErrorKind
from toolshape.model._json import Unchecked, is_map
from toolshape.model._limits import EXPANSION, EXPANSION_FLOOR, MAX_DATA_DEPTH, MAX_DEPTH
from toolshape.model._pointers import (
    DATA,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_VALUE,
    Where,
    def_name,
    def_ref,
    escape,
    follow,
    render,
    unescape,
)
from toolshape.model._types import Schema
from toolshape.schema._convert import CONVERTED_30, REPAIRED_31, convert_30, repair_31
from toolshape.schema._metaschema import ACCEPTED, RULES, UNPLANNED_DIALECTS, WANTS, Rule
from toolshape.schema._regex import compiles, nested_quantifier
from toolshape.schema._views import is_binary

_BASE_URI = "urn:toolshape:document"
_COMPONENT = re.compile(r"^/components/schemas/([A-Za-z0-9._-]+)\Z")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
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


#: S1.2: the keywords that apply their schemas to the same value (no descent into it).
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")

#: The keywords that can make a schema something a view changes (S16.6, S17.5).
_VIEW_FLAGS = frozenset({"readOnly", "writeOnly", "format", "contentMediaType", "contentEncoding"})

#: `Bundler._plain` found nothing (None is a value a pointer may name).
_NOWHERE: Any = object()


class Problem(Exception):
    """A reading failure, before the tool's name is known; `_plan` turns it into a PlanError."""

    def __init__(self, kind: PlanErrorKind, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.rule = rule


def fail(kind: PlanErrorKind, reason: str, rule: str | None = None) -> NoReturn:
    """Raise the `Problem` of kind `kind`."""
    raise Problem(kind, reason, rule)


def kind_of(value: object) -> str:
    """How a message names a JSON value's kind (`a list`, `a number`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if is_map(value):
        return "mapping"
    return type(value).__name__


def _shown(value: Unchecked) -> str:
    text = repr(value) if not isinstance(value, (Mapping, list)) else kind_of(value)
    return text if len(text) <= 60 else text[:60] + "…"


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


@dataclass(slots=True)
class Found:
    """What a reading's schemas hold that a later step looks for — a finding of the
    conversion (`Bundler.schema`, `Bundler.bundle`), so a step that would change nothing is
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


@dataclass(slots=True)
class _Walk:
    """The state of one conversion (`Bundler.schema`)."""

    memo: dict[int, tuple[Unchecked, Schema, tuple[str, ...]]] = field(default_factory=dict)
    """Each node converted, by its `id`: the node (kept alive), its conversion, its refs."""
    shared: bool = False
    """A sub-object was met twice (its expansion is then measured, S14.4)."""
    flags: int = 0
    """View flags met so far: a subtree that adds none has none (`Bundler.clean`)."""
    found: Found = field(default_factory=Found)
    """What the schema holds (`Found`)."""


class Bundler:
    """Resolves, converts and bundles the schemas of one document (S1.2, S1.4, S4.4)."""

    def __init__(
        self,
        document: Mapping[str, Unchecked],
        *,
        is_30: bool,
        dialect: str,
        self_uri: str | None = None,
    ) -> None:
        self.document = document
        self.is_30 = is_30
        self.dialect = dialect
        """The document's default dialect (S1.7)."""
        self.self_uri = urldefrag(self_uri)[0] if self_uri is not None else None
        """S26.7: the document's own URI (an OpenAPI 3.2 `$self`): a reference that resolves
        to it is local."""
        registry: Registry[Unchecked] = Registry().with_resource(
            _BASE_URI, Resource.opaque(document)
        )
        self._resolver = registry.resolver(_BASE_URI)
        self._targets: dict[str, Unchecked] = {}
        self._resolving: set[str] = set()
        self._names: dict[str, str] = {}
        self._taken: set[str] = set()
        self._schemas: dict[str, Schema] = {}  # each converted definition, by name
        self._def_refs: dict[str, tuple[str, ...]] = {}  # the definitions each one references
        self._dialects: dict[str, str] = {}  # the dialect under each parent pointer (S1.7)
        self._def_pointer: dict[str, str] = {}
        self._alias_checked: set[str] = set()
        self._in_place_refs: dict[str, tuple[str, ...]] = {}
        self._reaches: dict[str, tuple[str, ...]] = {}
        self._bundles: dict[tuple[str, ...], tuple[dict[str, Schema], Found]] = {}
        self._found: dict[str, Found] = {}  # what each converted definition holds
        self.clean: dict[int, Schema] = {}
        """Every converted schema (by `id`, kept alive here) with no reference and no view
        flag anywhere in it, or that is nothing but a reference: no view changes it (S16.6,
        S17.5; a view follows a reference only from the schema that holds it)."""
        self._patterns: dict[str, str] = {}
        components = document.get("components")
        schemas = components.get("schemas") if is_map(components) else None
        self._components = schemas if is_map(schemas) else {}
        self._taken.update(k for k in self._components if isinstance(k, str))

    # -- references --------------------------------------------------------------------------

    def pointer_of(self, ref: str) -> str:
        """The JSON pointer a local `$ref` names (S1.2: anything else is refused); a reference
        that resolves against the document's `$self` to the document itself is local (S26.7)."""
        if not ref.startswith("#") and self.self_uri is not None:
            uri, fragment = urldefrag(urljoin(self.self_uri, ref))
            if uri == self.self_uri:
                ref = "#" + fragment
        if not ref.startswith("#"):
            within = f" (its `$self` is `{self.self_uri}`)" if self.self_uri is not None else ""
            fail(
                "reference",
                f"reference `{ref}` is not local to the document{within}; "
                "toolshape never retrieves anything, so bundle it into the document",
                "S1.2",
            )
        pointer = _unquote(ref[1:])
        if pointer and not pointer.startswith("/"):
            fail("reference", f"reference `{ref}` is an anchor, not a JSON pointer", "S1.2")
        if not pointer:
            fail(
                "reference", f"reference `{ref}` points at the document root, not a schema", "S1.2"
            )
        return pointer

    def lookup(self, pointer: str, ref: str) -> Unchecked:
        """What `pointer` names in the document (following `$ref`s met on the way)."""
        if pointer not in self._targets:
            found = self._plain(pointer)
            if found is not _NOWHERE:  # what the resolver finds, found without it
                self._targets[pointer] = found
                return found
            try:
                self._targets[pointer] = self._resolver.lookup("#" + pointer).contents
            except (PointerToNowhere, Unresolvable, ValueError, LookupError):
                if pointer in self._resolving:
                    fail(
                        "reference",
                        f"reference `{ref}` passes through itself on its way to `#{pointer}`, "
                        "a cycle that never reaches a value",
                        "S1.2",
                    )
                self._resolving.add(pointer)
                try:
                    self._targets[pointer] = self._walk_through_refs(pointer, ref)
                finally:
                    self._resolving.discard(pointer)
        return self._targets[pointer]

    def _plain(self, pointer: str) -> Unchecked:
        """What `pointer` names when every step is a key of an object or a decimal index of an
        array, as `referencing` walks the (opaque) document; `_NOWHERE` for anything else,
        which the resolver then decides (a `%` it would decode, a step through a `$ref`)."""
        if "%" in pointer:
            return _NOWHERE
        node: Unchecked = self.document
        for raw in pointer.split("/")[1:]:
            if type(node) is dict:
                segment = unescape(raw)
                if segment not in node:
                    return _NOWHERE
                node = node[segment]
            elif type(node) is list and raw.isascii() and raw.isdigit():
                index = int(raw)
                if index >= len(node):
                    return _NOWHERE
                node = node[index]
            else:
                return _NOWHERE
        return node

    def _walk_through_refs(self, pointer: str, ref: str) -> Unchecked:
        """A pointer that passes through a `$ref` on its way (found in real documents):
        follow each `$ref` met mid-way, as OpenAPI tooling commonly does."""
        node: Unchecked = self.document
        for raw in pointer.split("/")[1:]:
            segment = unescape(raw)
            if is_map(node) and segment not in node:
                node = self.follow(node, pointer)
            if is_map(node) and segment in node:
                node = node[segment]
            elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
                node = node[int(segment)]
            else:
                fail("reference", f"reference `{ref}` points to nothing in the document", "S1.2")
        return node

    def follow(self, node: Unchecked, pointer: str, *, bare: bool = False) -> Unchecked:
        """Follow a chain of `$ref` mappings to what they name (S1.3), refusing cycles; with
        `bare`, only mappings that are nothing but a `$ref` (a schema's siblings count)."""
        return self.chain(node, pointer, bare=bare)[0]

    def chain(
        self, node: Unchecked, pointer: str, *, bare: bool = False
    ) -> tuple[Unchecked, list[str]]:
        """`(target, pointers)`: what a chain of `$ref`s ends at, and the pointers it took."""
        taken: list[str] = []
        while (
            (type(node) is dict or is_map(node))
            and isinstance(node.get("$ref"), str)
            and not (bare and len(node) > 1)
        ):
            ref = node["$ref"]
            target = self.pointer_of(ref)
            if target in taken or target == pointer:
                shown = " → ".join(f"`#{p}`" for p in [*taken, target])
                fail("reference", f"reference cycle {shown} never reaches a value", "S1.2")
            taken.append(target)
            node = self.lookup(target, ref)
        return node, taken

    def def_name(self, pointer: str) -> str:
        """The `$defs` name of the schema at `pointer` (S4.4): a component keeps its name."""
        name = self._names.get(pointer)
        if name is None:
            match = _COMPONENT.match(pointer)
            if match:
                name = match.group(1)
            else:
                base = _UNSAFE.sub("_", pointer.strip("/").replace("~1", "_").replace("~0", "_"))
                name, count = base, 1
                while name in self._taken:
                    count += 1
                    name = f"{base}_{count}"
            self._taken.add(name)
            self._names[pointer] = name
            self._def_pointer[name] = pointer
        return name

    def definition(self, name: str) -> tuple[Schema, tuple[str, ...]]:
        """The converted schema bundled as `name`, and the definitions it references."""
        refs_of = self._def_refs.get(name)
        if refs_of is None:
            pointer = self._def_pointer[name]
            target = self.lookup(pointer, "#" + pointer)
            refs: list[str] = []
            found = self._found[name] = Found()
            self._schemas[name] = self.schema(
                target, pointer, refs, found, self._dialect_at(pointer)
            )
            refs_of = self._def_refs[name] = tuple(dict.fromkeys(refs))
        return self._schemas[name], refs_of

    def _dialect_at(self, pointer: str) -> str:
        """S1.7: the dialect in effect at `pointer`: the nearest `$schema` on the way there
        (a definition inside a draft-07 schema is read as draft-07), else the document's.
        Only the nodes above `pointer`'s target count: it is found once per parent."""
        parent = pointer[: pointer.rfind("/")]
        dialect = self._dialects.get(parent)
        if dialect is None:
            dialect = self.dialect
            node: Unchecked = self.document
            for raw in pointer.split("/")[1:]:
                if not is_map(node):
                    break
                declared = node.get("$schema")
                if isinstance(declared, str):
                    known = dialect_of(declared)
                    dialect = known.uri if known else dialect
                node = node.get(unescape(raw))
            self._dialects[parent] = dialect
        return dialect

    def bundle(self, refs: list[str], found: Found) -> Mapping[str, Schema]:
        """Every schema `refs` reach, transitively, by `$defs` name: each reference's reach in
        first-reached order, one after the other (each reach computed once per document);
        what they hold is added to `found`."""
        key = tuple(dict.fromkeys(refs))
        bundled = self._bundles.get(key)
        if bundled is None:  # many operations reach the same components: bundled once, shared
            out: dict[str, Schema] = {}
            schemas = self._schemas  # every definition a reach names is converted
            for name in key:
                if name not in out:  # a name already in keeps its place (first reached)
                    reach = self._reach(name)
                    out.update(zip(reach, map(schemas.__getitem__, reach), strict=True))
            held = Found()
            for name in out:
                held.add(self._found[name])
            bundled = self._bundles[key] = (out, held)
        found.add(bundled[1])
        return bundled[0]

    def _reach(self, name: str) -> tuple[str, ...]:
        """`name` and every definition it reaches, breadth first; a reference cycle through
        nothing but `$ref`s is refused here, once per definition (S1.2)."""
        found = self._reaches.get(name)
        if found is None:
            order, seen, known = [name], {name}, self._def_refs
            for current in order:  # grows as it goes: each name once, where first reached
                refs = known.get(current)
                if refs is None:
                    refs = self.definition(current)[1]
                for reached in refs:
                    if reached not in seen:
                        seen.add(reached)
                        order.append(reached)
            found = self._reaches[name] = tuple(order)
            unchecked = [n for n in found if n not in self._alias_checked]
            if unchecked:
                defs = dict(zip(found, map(self._schemas.__getitem__, found), strict=True))
                for reached in unchecked:
                    self._check_alias_cycle(reached, defs)
                    self._check_in_place_cycle(reached)
                    self._alias_checked.add(reached)
        return found

    def _check_alias_cycle(self, name: str, defs: Mapping[str, Schema]) -> None:
        chain = follow({"$ref": def_ref(name)}, defs)
        if chain.cycle:
            shown = " → ".join(f"`#{self._def_pointer[n]}`" for n in chain.names)
            fail("reference", f"reference cycle {shown} never reaches a schema", "S1.2")

    def _check_in_place_cycle(self, name: str) -> None:
        """S1.2: a definition that reaches itself through `$ref`, `allOf`/`anyOf`/`oneOf`,
        `not`, `if`/`then`/`else` or `$dynamicRef` without descending into the value
        (`A: {anyOf: [{$ref: A}]}`) can judge no value: refused, naming it."""
        path = [name]
        stack = [iter(self._in_place(name))]
        seen = {name}
        while stack:
            reached = next(stack[-1], None)
            if reached is None:
                stack.pop()
                path.pop()
                continue
            if reached == name:
                shown = " → ".join(f"`#{self._def_pointer[n]}`" for n in [*path, name])
                fail(
                    "reference",
                    f"the schema `#{self._def_pointer[name]}` reaches itself without descending "
                    f"into the value ({shown}), so no value can ever be judged by it",
                    "S1.2",
                )
            if reached not in seen and reached in self._def_pointer:
                seen.add(reached)
                path.append(reached)
                stack.append(iter(self._in_place(reached)))

    def _in_place(self, name: str) -> tuple[str, ...]:
        """The definitions `name`'s schema applies in place (at the same value), found once."""
        found = self._in_place_refs.get(name)
        if found is None:
            names: dict[str, None] = {}
            stack: list[Unchecked] = [self.definition(name)[0]]
            while stack:
                node = stack.pop()
                if not is_map(node):
                    continue
                for key in ("$ref", "$dynamicRef"):
                    target = def_name(node.get(key))
                    if target is not None:
                        names[target] = None
                for key in _IN_PLACE_LISTS:
                    value = node.get(key)
                    if isinstance(value, list):
                        stack.extend(value)
                stack.extend(node[key] for key in _IN_PLACE_ONE if key in node)
            found = self._in_place_refs[name] = tuple(names)
        return found

    def _ref(self, ref: str, refs: list[str]) -> str:
        pointer = self.pointer_of(ref)
        self.lookup(pointer, ref)
        name = self.def_name(pointer)
        refs.append(name)
        return "#/$defs/" + escape(name)

    # -- schemas -----------------------------------------------------------------------------

    def root_schema(self, node: Unchecked, pointer: str, refs: list[str], found: Found) -> Schema:
        """A body schema with S1.3 applied: a `$ref`-only root is replaced by its target."""
        node, taken = self.chain(node, pointer, bare=True)
        if not taken:
            return self.schema(node, pointer, refs, found)
        name = self.def_name(taken[-1])
        schema, more = self.definition(name)
        refs.extend(more)
        found.add(self._found[name])
        return schema

    def schema(
        self,
        node: Unchecked,
        pointer: str,
        refs: list[str],
        found: Found,
        dialect: str | None = None,
    ) -> Schema:
        """`node` as a 2020-12 schema with local refs pointing into `$defs` (S1.4, S4.4); the
        definitions it references are added to `refs`, and what it holds to `found`.

        Raises:
            Problem: a value that is not a schema, a keyword its meta-schema rejects, a bad
                reference, nesting too deep, or shared sub-objects that expand too far.
        """
        walk = _Walk()
        try:
            out = self._schema(node, pointer, refs, dialect or self.dialect, 0, walk)
        except RecursionError:
            fail("schema", f"the schema at `{pointer}` is nested too deeply to plan", "S14.4")
        found.add(walk.found)
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
        return out

    def _schema(
        self,
        node: Unchecked,
        pointer: Where,
        refs: list[str],
        dialect: str,
        depth: int,
        walk: _Walk,
    ) -> Schema:
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
            return self._again(seen, refs, walk)
        if depth > MAX_DEPTH:
            fail(
                "schema",
                f"the schema at `{render(pointer)}` is nested too deeply to plan (deeper than "
                f"{MAX_DEPTH} schema levels; toolshape refuses deeper schemas so every copy "
                "and comparison of a plan stays bounded)",
                "S14.4",
            )
        if "$schema" in node and isinstance(declared := node["$schema"], str):
            dialect = self._dialect(declared, pointer, dialect)
        start, flags = len(refs), walk.flags
        out, converts = self._keywords(node, pointer, refs, dialect, depth + 1, walk)
        # Most schemas have none of the keywords either step reads: those are kept as they are.
        if self.is_30:
            converted = convert_30(out) if converts or not CONVERTED_30.isdisjoint(out) else out
        else:
            converted = out if REPAIRED_31.isdisjoint(out) else repair_31(out)
        if not _VIEW_FLAGS.isdisjoint(out):
            self._note_view_flags(out, walk)
        if "$id" in out and len(refs) > start:
            fail(
                "reference",
                f"the schema at `{render(pointer)}` has `$id`, which would re-base the references "
                "inside it, but toolshape reads every reference as a pointer into the "
                "document. Remove `$id`",
                "S1.2",
            )
        self._remember(node, converted, tuple(refs[start:]), walk.flags == flags, walk)
        return converted

    def _keywords(
        self,
        node: Unchecked,
        pointer: Where,
        refs: list[str],
        dialect: str,
        deeper: int,
        walk: _Walk,
    ) -> tuple[dict[str, Unchecked], bool]:
        """Every keyword of a schema node checked against its dialect's meta-schema rule (S1.4)
        and its value converted by its kind; and whether a value counts only once S1.4
        converts it (a 3.0 `type: file`, a boolean bound)."""
        table = _TABLES.get(dialect) or _TABLES[DRAFT2020_12]
        out: dict[str, Unchecked] = {}
        converts = False
        for key, value in node.items():
            if type(value) is float and not math.isfinite(value):
                _not_finite(value, (pointer, key))
            kind, rule, accepted = table.get(key, _UNKNOWN)
            if rule is not None and type(value) is not accepted and not rule(value):
                if not self._converted(key, value):
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
                out[key] = self._value(kind, key, value, pointer, refs, dialect, deeper, walk)
        return out, converts

    def _value(
        self,
        kind: str | None,
        key: str,
        value: Unchecked,
        pointer: Where,
        refs: list[str],
        dialect: str,
        deeper: int,
        walk: _Walk,
    ) -> Unchecked:
        """One keyword's value converted per its kind (`_KIND`): subschemas walked, references
        bundled, data bounded, patterns noted (S13.3)."""
        here = (pointer, key)
        if kind is None:  # an annotation (`x-anyOf`, `xml`, ...): its `$ref`s point into `$defs`
            return self._annotation(value, here, refs, 0, walk)
        if kind is _ONE or (kind is _ITEMS and not isinstance(value, list)):
            return self._schema(value, here, refs, dialect, deeper, walk)
        if kind is _MAP and is_map(value):
            if key == "patternProperties":
                self._note_patterns(value, walk)
            return {
                k: self._schema(v, (here, k), refs, dialect, deeper, walk) for k, v in value.items()
            }
        if (kind is _LIST or kind is _ITEMS) and isinstance(value, list):
            return [
                self._schema(v, (here, i), refs, dialect, deeper, walk) for i, v in enumerate(value)
            ]
        if kind is _DATA:
            if type(value) not in _SCALARS:
                self._data(value, here, walk)
            return value
        if kind is _REF:
            return self._ref(value, refs) if isinstance(value, str) else value
        if kind is _DYNAMIC_REF:
            return self._dynamic_ref(value, refs) if isinstance(value, str) else value
        if kind is _PATTERN:
            if isinstance(value, str):
                self._note_patterns((value,), walk)
            return value
        if kind is _DEPENDENCIES and is_map(value):
            return {
                k: v
                if isinstance(v, list)
                else self._schema(v, (here, k), refs, dialect, deeper, walk)
                for k, v in value.items()
            }
        if kind is _DISCRIMINATOR and is_map(value):
            return self._discriminator(value, pointer, refs)
        if kind is _RECURSIVE_REF and value != "#" and isinstance(value, str):
            fail(
                "reference",
                f"`$recursiveRef` `{value}` at `{render(pointer)}` is not `#`, the only value that "
                "stays inside the document",
                "S1.2",
            )
        return value

    def _again(
        self, seen: tuple[Unchecked, Schema, tuple[str, ...]], refs: list[str], walk: _Walk
    ) -> Schema:
        """A shared sub-object met again in one conversion: its conversion, its references
        passed on; what holds it is clean only if it is (S14.4: sharing is then measured)."""
        walk.shared = True
        refs.extend(seen[2])
        if self.clean.get(id(seen[1])) is not seen[1]:
            walk.flags += 1
        return seen[1]

    def _note_view_flags(self, out: Mapping[str, Unchecked], walk: _Walk) -> None:
        """S16.6, S17.5: a `readOnly`, `writeOnly` or binary schema — only then are the
        request or response views made."""
        request = out.get("readOnly") is True or is_binary(out)
        response = out.get("writeOnly") is True
        if request or response:
            walk.found.request = walk.found.request or request
            walk.found.response = walk.found.response or response
            walk.flags += 1

    def _remember(
        self,
        node: Unchecked,
        converted: Schema,
        refs: tuple[str, ...],
        unflagged: bool,
        walk: _Walk,
    ) -> None:
        """Memoize a node's conversion for this walk, and mark it clean (`Bundler.clean`)
        when no view can change it: no reference and no view flag below it, or nothing but a
        reference."""
        walk.memo[id(node)] = (node, converted, refs)
        if not refs:
            if unflagged:
                self.clean[id(converted)] = converted
        elif is_map(converted) and len(converted) == 1 and "$ref" in converted:  # nothing below
            self.clean[id(converted)] = converted  # a view changes no bare reference

    def _converted(self, key: str, value: Unchecked) -> bool:
        """Values S1.4 converts before they count: 3.0 boolean bounds (also repaired in 3.1),
        a 3.0 `type: file`, a boolean `$recursiveAnchor` outside 2019-09."""
        if key in ("exclusiveMinimum", "exclusiveMaximum", "$recursiveAnchor"):
            return isinstance(value, bool)
        return key == "type" and value == "file" and self.is_30

    def pattern_kind(self, pattern: str) -> str:
        """`"foreign"` (Python's `re` can't compile it), `"slow"` (nested quantifiers), or `""`;
        memoized per document."""
        kind = self._patterns.get(pattern)
        if kind is None:
            kind = self._patterns[pattern] = (
                "foreign" if not compiles(pattern) else "slow" if nested_quantifier(pattern) else ""
            )
        return kind

    def _note_patterns(self, value: Iterable[Unchecked], walk: _Walk) -> None:
        if not walk.found.patterns:
            walk.found.patterns = any(self.pattern_kind(str(p)) for p in value)

    def _dialect(self, declared: str, pointer: Where, current: str) -> str:
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

    def _dynamic_ref(self, value: str, refs: list[str]) -> str:
        """S1.2: a `$dynamicRef` pointer is bundled like `$ref`; an anchor (`#node`) stays in
        the schema; anything else would leave the document."""
        if value.startswith("#/"):
            return self._ref(value, refs)
        if value.startswith("#") and "/" not in value:
            return value
        fail(
            "reference",
            f"`$dynamicRef` `{value}` is not local to the document; toolshape never retrieves "
            "anything, so use a `#anchor` or a `#/pointer` inside the document",
            "S1.2",
        )

    def _discriminator(
        self, value: Mapping[str, Unchecked], pointer: Where, refs: list[str]
    ) -> dict[str, Unchecked]:
        """S4.4: mapping values (references, or bare schema names) point into `$defs`, and so
        does a 3.2 `defaultMapping` (S26.8)."""
        mapping = value.get("mapping")
        found = dict(value)
        default = value.get("defaultMapping")
        if isinstance(default, str):
            found["defaultMapping"] = self._mapped("defaultMapping", default, pointer, refs)
        if is_map(mapping):
            found["mapping"] = {
                key: self._mapped(key, target, pointer, refs) for key, target in mapping.items()
            }
        return found

    def _mapped(self, key: object, target: Unchecked, pointer: Where, refs: list[str]) -> Unchecked:
        """One discriminator mapping's target (`key`'s), pointing into `$defs` (S4.4)."""
        if isinstance(target, str) and target.startswith("#"):
            return self._ref(target, refs)
        if isinstance(target, str) and _BARE_NAME.match(target):
            if target not in self._components:
                fail(
                    "reference",
                    f"the discriminator mapping at `{render(pointer)}/discriminator` maps "
                    f"`{key}` to `{target}`, which names no schema in `#/components/schemas`",
                    "S1.2",
                )
            return self._ref("#/components/schemas/" + escape(target), refs)
        if isinstance(target, str):
            fail(
                "reference",
                f"the discriminator mapping at `{render(pointer)}/discriminator` maps `{key}` to "
                f"`{target}`, which is not local to the document; toolshape never "
                "retrieves anything, so bundle it into the document",
                "S1.2",
            )
        return target

    def _annotation(
        self, value: Unchecked, pointer: Where, refs: list[str], depth: int, walk: _Walk
    ) -> Unchecked:
        """A copy of an annotation's value whose `$ref`s point into `$defs` (S4.4)."""
        if depth > MAX_DATA_DEPTH:
            self._data(value, pointer, walk)
        if is_map(value):
            return {
                k: self._ref(v, refs)
                if k == "$ref" and isinstance(v, str)
                else self._annotation(v, pointer, refs, depth + 1, walk)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self._annotation(v, pointer, refs, depth + 1, walk) for v in value]
        if type(value) is float and not math.isfinite(value):
            _not_finite(value, pointer)
        return value

    def _data(self, value: Unchecked, pointer: Where, walk: _Walk) -> None:
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


def _not_finite(value: float, pointer: Where) -> NoReturn:
    """S14.4: a number JSON can't write (`1e400`, YAML's `.inf` and `.nan`) has no place in
    an advertised schema."""
    fail(
        "schema",
        f"the number at `{render(pointer)}` is {value}, which JSON can't write, so no advertised "
        "schema can hold it. Use a finite number",
        "S14.4",
    )


def _unquote(text: str) -> str:
    """A percent-decoded URI fragment (S1.2: `$ref` fragments are URI-encoded pointers)."""
    return unquote(text) if "%" in text else text
