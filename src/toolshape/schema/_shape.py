"""S16.7: the shape view of an output schema — the kinds of values an answer holds, not the
API's contract.

APIs drift from their documents (a field missing or added, a new enum value, `null` for a
string); the shape view keeps only what says what kind a value is, so a drifting answer is
still structured and only a value of another kind fails. It is also small: a `$ref` reached
through more than two `$ref`s becomes `{}`, and only the definitions still referenced are kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._pointers import DEFS, def_ref, unescape
from toolshape.model._types import ShapeMemo

#: Keywords the shape view keeps as they are (the root's `$schema` is kept too).
_TEXT = ("title", "description")
#: How many `$ref`s the view follows from the root; a `$ref` past them becomes `{}`.
HOPS = 2


def size(value: Json) -> int:
    """The bytes of `value` as compact JSON in UTF-8 (what S25.1's budget counts)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


class _Versions:
    """The definitions the view keeps: one version per definition and hop count — the first
    hop's under the definition's own name, the second's as `<name>@2` (S16.7). Names are the
    same in every tool, so a document's tools can share each version (`memo`)."""

    def __init__(self, defs: Mapping[str, Unchecked], memo: ShapeMemo | None, hops: int) -> None:
        self.defs = defs
        self.hops = hops
        """How many `$ref`s this view follows (S16.7's two; fewer under S25.1's budget)."""
        # A name with `@` in it could clash with a version's: such a root is shaped on its own.
        self.memo = memo if not any("@" in name for name in defs) else None
        self.names: dict[tuple[str, int], str] = {}
        self.pending: list[tuple[str, int]] = []

    def ref(self, ref: Unchecked, hops: int) -> str | None:
        """The reference to the version of `ref`'s definition reached through `hops` `$ref`s,
        or None: past `HOPS`, or not a reference to a whole definition."""
        if hops > self.hops or not isinstance(ref, str) or not ref.startswith(DEFS):
            return None
        name = unescape(ref[len(DEFS) :])
        if "/" in ref[len(DEFS) :] or name not in self.defs:
            return None
        key = (name, hops)
        if key not in self.names:
            self.names[key] = name if hops == 1 else f"{name}@{hops}"
            self.pending.append(key)
        return def_ref(self.names[key])

    def version(self, name: str, hops: int) -> tuple[Json, int]:
        """The shape view of definition `name` reached through `hops` `$ref`s, and its size."""
        definition = self.defs[name]
        key = (id(definition), hops, self.hops)
        if self.memo is not None and key in self.memo:
            _, shaped, refs, bytes_ = self.memo[key]
            self._follow(refs, hops)
            return shaped, bytes_
        shaped = _shape(definition, hops, self)
        bytes_ = size(shaped)
        if self.memo is not None:
            self.memo[key] = (definition, shaped, tuple(_refs(shaped)), bytes_)
        return shaped, bytes_

    def _follow(self, refs: tuple[str, ...], hops: int) -> None:
        """Note the versions a shared version refers to (this tool keeps them too)."""
        for ref in refs:
            name = unescape(ref[len(DEFS) :]).removesuffix(f"@{hops + 1}")
            self.ref(def_ref(name), hops + 1)


def _refs(schema: Json) -> list[str]:
    """Every `$ref` inside a shaped schema, read keyword by keyword."""
    found: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.append(ref)
        properties = node.get("properties")
        if isinstance(properties, dict):
            stack.extend(properties.values())
        items = node.get("items")
        stack.extend(items if isinstance(items, list) else [items])
        for key in ("prefixItems", "anyOf", "allOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                stack.extend(branches)
    return found


def shape_view(
    root: Mapping[str, Unchecked], memo: ShapeMemo | None = None, hops: int = HOPS
) -> JsonObject:
    """S16.7: the shape view of the output schema `root` (an object schema, `$defs` at its
    root): `type` (with `"null"` added below the root), `properties`, `items` (not beside
    `prefixItems`), `prefixItems`, `anyOf`, `oneOf` (as `anyOf`), `allOf`, `$ref`, `title` and
    `description`; every other keyword dropped; a `$ref` reached through more than `hops`
    `$ref`s is `{}`. `memo` shares each definition's versions between the tools of one
    document (their plans then share them too)."""
    return sized_shape_view(root, memo, hops)[0]


def sized_shape_view(
    root: Mapping[str, Unchecked], memo: ShapeMemo | None = None, hops: int = HOPS
) -> tuple[JsonObject, int]:
    """`shape_view`, and its size as compact JSON (S25.1), counted from each shared
    definition's size (kept in `memo`), never by writing the whole view again."""
    defs = root.get("$defs")
    versions = _Versions(defs if is_map(defs) else {}, memo, hops)
    out = _object(root, 0, versions, top=True)
    if "$schema" in root:
        out = {"$schema": root["$schema"], **out}
    kept: dict[str, tuple[Json, int]] = {}
    while versions.pending:
        name, hop = versions.pending.pop()
        kept[versions.names[name, hop]] = versions.version(name, hop)
    total = size(out)
    if kept:
        ordered = dict(sorted(kept.items()))
        # `"$defs":{...}` inside the root's braces (after a comma unless the root is `{}`):
        # each entry `"name":<view>`, a comma between entries.
        total += len('"$defs":{}') + (1 if out else 0) + len(ordered) - 1
        total += sum(size(name) + 1 + bytes_ for name, (_, bytes_) in ordered.items())
        out["$defs"] = {name: shaped for name, (shaped, _) in ordered.items()}
    return out, total


def _shape(schema: Unchecked, hops: int, versions: _Versions) -> Json:
    """One schema's shape view, reached through `hops` `$ref`s."""
    if not is_map(schema):
        return schema if isinstance(schema, bool) else {}
    return _object(schema, hops, versions)


def _object(
    schema: Mapping[str, Unchecked], hops: int, versions: _Versions, top: bool = False
) -> JsonObject:
    """An object schema's shape view (`top`: the root, whose `type` stays as it is)."""
    out: JsonObject = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, (str, list)):
            out["type"] = value if top else _nullable(value)
        elif key in _TEXT:
            out[key] = value
        elif key == "$ref":
            ref = versions.ref(value, hops + 1)
            if ref is not None:
                out["$ref"] = ref
        elif key == "properties" and is_map(value):
            out[key] = {name: _shape(sub, hops, versions) for name, sub in value.items()}
        elif key == "prefixItems" and isinstance(value, list):
            out[key] = [_shape(sub, hops, versions) for sub in value]
        elif key == "allOf" and isinstance(value, list):
            _all_of(out, [_shape(sub, hops, versions) for sub in value])
        elif key == "items" and "prefixItems" not in schema:
            out[key] = (
                [_shape(sub, hops, versions) for sub in value]
                if isinstance(value, list)
                else _shape(value, hops, versions)
            )
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            branches: list[Json] = [_shape(sub, hops, versions) for sub in value]
            if "anyOf" in out:  # both given: the second joins `allOf`, so both still hold
                _all_of(out, [{"anyOf": branches}])
            else:
                out["anyOf"] = branches
    return out


def _nullable(kind: str | list[Json]) -> Json:
    """A `type` that also admits `null`."""
    if isinstance(kind, str):
        return kind if kind == "null" else [kind, "null"]
    return kind if "null" in kind else [*kind, "null"]


def _all_of(out: JsonObject, branches: list[Json]) -> None:
    """Add `branches` to `out`'s `allOf`."""
    given = out.get("allOf")
    out["allOf"] = [*(given if isinstance(given, list) else []), *branches]
