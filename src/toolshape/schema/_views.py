"""S16.6: request and response views of a schema.

OpenAPI marks a property `readOnly` (the server sends it, a client never does) or `writeOnly`
(a client sends it, the server never answers with it). The request view of a schema leaves every
`readOnly: true` property out of `properties` and `required` (and `dependentRequired`), at every
depth and through `$ref`s into `$defs`; the response view does the same for `writeOnly: true`.
A closed object then rejects such a property as undeclared; an open one forwards it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypeAlias

from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_VALUE, follow
from toolshape.model._types import Schema

Flag: TypeAlias = Literal["readOnly", "writeOnly"]
"""`readOnly` (left out of request schemas) or `writeOnly` (left out of response schemas)."""

_ONE = frozenset(SCHEMA_VALUE)
_LIST = frozenset(SCHEMA_LIST)
_MAP = frozenset(SCHEMA_MAP)


def flagged(schema: Schema, flag: Flag, defs: Mapping[str, Schema]) -> bool:
    """Whether a property schema carries `flag: true`: on itself, at the end of its `$ref`
    chain, or on one of its `allOf` branches (the OpenAPI 3.0 idiom `allOf: [{$ref}],
    readOnly: true` and its mirror)."""
    if (
        type(schema) is dict
        and "allOf" not in schema
        and (len(schema) != 1 or "$ref" not in schema)
    ):
        return schema.get(flag) is True  # no reference to follow, no branch (most properties)
    target = follow(schema, defs).schema
    if not is_map(target):
        return False
    if target.get(flag) is True:
        return True
    branches = target.get("allOf")
    return isinstance(branches, list) and any(
        isinstance(b := follow(branch, defs).schema, Mapping) and b.get(flag) is True
        for branch in branches
    )


def is_binary(schema: Unchecked) -> bool:
    """S17.5: a binary string — `format: binary`, `contentEncoding: binary` (RFC 2045's raw
    bytes, S17.8), or (3.1) `contentMediaType` without `contentEncoding`."""
    if not is_map(schema) or schema.get("type") != "string":
        return False
    if schema.get("format") == "binary" or schema.get("contentEncoding") == "binary":
        return True
    return "contentMediaType" in schema and "contentEncoding" not in schema


def as_base64(schema: Mapping[str, Unchecked]) -> dict[str, Unchecked]:
    """S17.5: a binary string as a model can send it: `contentEncoding: base64` (its
    `contentMediaType` and description kept, `format: binary` gone)."""
    out = {k: v for k, v in schema.items() if not (k == "format" and v == "binary")}
    out["contentEncoding"] = "base64"
    return out


def is_base64(schema: Unchecked) -> bool:
    """A string the request view advertised as base64 (S17.5)."""
    return (
        is_map(schema)
        and schema.get("type") == "string"
        and schema.get("contentEncoding") == "base64"
    )


class View:
    """One view (`readOnly` or `writeOnly` left out) over one document's schemas; views of
    shared definitions are made once. With `base64`, binary strings become base64 strings too
    (S17.5: the request view, since a model can only send text)."""

    def __init__(
        self, flag: Flag, *, base64: bool = False, clean: Mapping[int, Schema] | None = None
    ) -> None:
        self.flag = flag
        self.base64 = base64
        self.clean: Mapping[int, Schema] = {} if clean is None else clean
        """Schemas (by `id`) known to hold no reference and no flag, or to be nothing but a
        reference (`Context.clean`): their view is themselves."""
        self._memo: dict[int, tuple[Unchecked, Unchecked, tuple[str, ...]]] = {}
        self._changed: dict[str, tuple[Schema, tuple[str, ...]]] = {}
        self._bundles: dict[
            int, tuple[Mapping[str, Schema], Mapping[str, Schema], tuple[str, ...]]
        ] = {}
        self._viewed: set[str] = set()

    def of(self, schema: Schema, defs: Mapping[str, Schema]) -> tuple[Schema, tuple[str, ...]]:
        """`schema` without the flagged properties (the same object when nothing changes), and
        the names of the properties left out, at any depth of it."""
        return self._view(schema, defs)

    def defs_of(self, defs: Mapping[str, Schema]) -> tuple[Mapping[str, Schema], tuple[str, ...]]:
        """A bundle's definitions in this view (`defs` itself when none changes), and the
        names of the properties left out in them, in order.

        A bundle holds one document's definitions by name (`_bundle`: one object per name), so
        each definition is viewed once, the first time a bundle has it, and only those that
        change are looked at again.
        """
        known = self._bundles.get(id(defs))
        if known is not None and known[0] is defs:  # one bundle, many operations
            return known[1], known[2]
        changed = self._changed
        unseen = defs.keys() - self._viewed
        for name in unseen:
            schema = defs[name]
            viewed, dropped = self._view(schema, defs)
            if viewed is not schema:
                changed[name] = (viewed, dropped)
        self._viewed |= unseen
        hit = changed.keys() & defs.keys()
        out: Mapping[str, Schema] = defs
        names: dict[str, None] = {}
        if hit:
            copy = dict(defs)
            for name in [name for name in defs if name in hit]:  # in the bundle's order
                copy[name], dropped = changed[name]
                names.update(dict.fromkeys(dropped))
            out = copy
        self._bundles[id(defs)] = (defs, out, tuple(names))  # keeps `defs` (and its id)
        return out, tuple(names)

    def _across_branches(
        self, node: Mapping[str, Unchecked], branches: list[Unchecked], defs: Mapping[str, Schema]
    ) -> tuple[Mapping[str, Unchecked], list[str]]:
        """S16.6: a name whose property is flagged in one branch of an `allOf` (`branches`, as
        written) leaves the `required` of every branch of the viewed `node` (and its own): a
        sibling branch would otherwise still require it, with no schema at all. A branch that
        is a reference is replaced by its target's view with that `required` (the definition
        itself is shared)."""
        flagged_names: dict[str, None] = {}
        for branch in branches:
            target = follow(branch, defs).schema
            properties = target.get("properties") if is_map(target) else None
            if is_map(properties):
                flagged_names.update(
                    (n, None) for n, s in properties.items() if flagged(s, self.flag, defs)
                )
        if not flagged_names:
            return node, []
        kept = []
        viewed = node.get("allOf")
        for branch in viewed if isinstance(viewed, list) else branches:
            target, _ = self._view(follow(branch, defs).schema, defs)  # a reference's, viewed
            required = target.get("required") if is_map(target) else None
            if isinstance(required, list) and not flagged_names.keys().isdisjoint(required):
                target = {**target, "required": [n for n in required if n not in flagged_names]}
                kept.append(target)
            else:
                kept.append(branch)
        out = {**node, "allOf": kept}
        own = node.get("required")
        if isinstance(own, list):
            out["required"] = [n for n in own if n not in flagged_names]
        return out, list(flagged_names)

    def _view(
        self, node: Unchecked, defs: Mapping[str, Schema]
    ) -> tuple[Unchecked, tuple[str, ...]]:
        if (type(node) is not dict and not is_map(node)) or self.clean.get(id(node)) is node:
            return node, ()
        seen = self._memo.get(id(node))
        if seen is not None:
            return seen[1], seen[2]
        out: dict[str, Unchecked] | None = None
        properties = node.get("properties")
        dropped: list[str] = []
        if type(properties) is dict or is_map(properties):
            dropped = [n for n, s in properties.items() if flagged(s, self.flag, defs)]
        names: dict[str, None] = dict.fromkeys(dropped)
        for key, value in node.items():
            new = value
            if key in _MAP and (type(value) is dict or is_map(value)):
                kept: dict[str, Unchecked] = {}
                for k, v in value.items():
                    if key == "properties" and k in dropped:
                        continue
                    kept[k], inner = self._view(v, defs)
                    if inner:
                        names.update(dict.fromkeys(inner))
                if len(kept) != len(value) or any(kept[k] is not value[k] for k in kept):
                    new = kept
            elif (key in _LIST or key == "items") and isinstance(value, list):
                items = []
                for v in value:
                    item, inner = self._view(v, defs)
                    items.append(item)
                    if inner:
                        names.update(dict.fromkeys(inner))
                if any(a is not b for a, b in zip(items, value, strict=True)):
                    new = items
            elif key in _ONE:
                new, inner = self._view(value, defs)
                if inner:
                    names.update(dict.fromkeys(inner))
            elif dropped and key == "required" and isinstance(value, list):
                new = [n for n in value if n not in dropped]
            elif dropped and key == "dependentRequired" and is_map(value):
                new = {
                    k: [n for n in v if n not in dropped] if isinstance(v, list) else v
                    for k, v in value.items()
                    if k not in dropped
                }
            if new is not value:
                if out is None:
                    out = dict(node)
                out[key] = new
        result = node if out is None else out
        branches = node.get("allOf")
        if isinstance(branches, list):
            result, across = self._across_branches(result, branches, defs)
            names.update(dict.fromkeys(across))
        if self.base64 and is_binary(result):
            result = as_base64(result)
        found = tuple(names)
        self._memo[id(node)] = (node, result, found)
        return result, found
