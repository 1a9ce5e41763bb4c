"""S1.2, S4.4: the schemas of one document converted and bundled, each definition once.

A `Bundler` converts the schemas a reading asks for (`_convert.convert`), names every schema
they reference once under the root `$defs` (S4.4), and bundles what a schema reaches. Converted
definitions, their reach and their bundles are memoized, so planning a whole document converts
each component once. A reference cycle through nothing but `$ref`s, or through keywords that
apply in place (`A: {anyOf: [{$ref: A}]}`), is refused as a `Problem` (S1.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolshape.model._dialects import dialect_of
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import def_name, def_ref, follow, unescape
from toolshape.model._types import Schema
from toolshape.read._convert import Context, Found, convert
from toolshape.read._problem import fail
from toolshape.read._refs import DefNames, References

#: S1.2: the keywords that apply their schemas to the same value (no descent into it).
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")


class Bundler:
    """Converts and bundles the schemas of one document (S1.2, S1.4, S4.4)."""

    def __init__(
        self,
        document: Mapping[str, Unchecked],
        *,
        is_30: bool,
        dialect: str,
        self_uri: str | None = None,
    ) -> None:
        self.document = document
        self.dialect = dialect
        """The document's default dialect (S1.7)."""
        components = document.get("components")
        schemas = components.get("schemas") if is_map(components) else None
        schemas = schemas if is_map(schemas) else {}
        self.context = Context(References(document, self_uri), DefNames(schemas), is_30, schemas)
        self._schemas: dict[str, Schema] = {}  # each converted definition, by name
        self._def_refs: dict[str, tuple[str, ...]] = {}  # the definitions each one references
        self._found: dict[str, Found] = {}  # what each converted definition holds
        self._dialects: dict[str, str] = {}  # the dialect under each parent pointer (S1.7)
        self._alias_checked: set[str] = set()
        self._in_place_refs: dict[str, tuple[str, ...]] = {}
        self._reaches: dict[str, tuple[str, ...]] = {}
        self._bundles: dict[tuple[str, ...], tuple[dict[str, Schema], Found]] = {}

    @property
    def references(self) -> References:
        """The document's references (`Context.references`)."""
        return self.context.references

    def schema(
        self,
        node: Unchecked,
        pointer: str,
        refs: list[str],
        found: Found,
        dialect: str | None = None,
    ) -> Schema:
        """`node` converted (`_convert.convert`, under the document's dialect unless
        `dialect`); the definitions it references are added to `refs`, and what it holds to
        `found`."""
        converted = convert(self.context, node, pointer, dialect or self.dialect)
        refs.extend(converted.refs)
        found.add(converted.found)
        return converted.schema

    def root_schema(self, node: Unchecked, pointer: str, refs: list[str], found: Found) -> Schema:
        """A body schema with S1.3 applied: a `$ref`-only root is replaced by its target."""
        node, taken = self.references.chain(node, pointer, bare=True)
        if not taken:
            return self.schema(node, pointer, refs, found)
        name = self.context.names(taken[-1])
        schema, more = self.definition(name)
        refs.extend(more)
        found.add(self._found[name])
        return schema

    def definition(self, name: str) -> tuple[Schema, tuple[str, ...]]:
        """The converted schema bundled as `name`, and the definitions it references."""
        refs_of = self._def_refs.get(name)
        if refs_of is None:
            pointer = self.context.names.pointer[name]
            target = self.references.lookup(pointer, "#" + pointer)
            converted = convert(self.context, target, pointer, self._dialect_at(pointer))
            self._schemas[name] = converted.schema
            self._found[name] = converted.found
            refs_of = self._def_refs[name] = tuple(dict.fromkeys(converted.refs))
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
            shown = " → ".join(f"`#{self.context.names.pointer[n]}`" for n in chain.names)
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
                shown = " → ".join(f"`#{self.context.names.pointer[n]}`" for n in [*path, name])
                fail(
                    "reference",
                    f"the schema `#{self.context.names.pointer[name]}` reaches itself without descending "
                    f"into the value ({shown}), so no value can ever be judged by it",
                    "S1.2",
                )
            if reached not in seen and reached in self.context.names.pointer:
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
