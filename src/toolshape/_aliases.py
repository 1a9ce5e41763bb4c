"""S19: aliases — advertised names that differ from the wire names.

Two opt-ins make them: `portable_names` (every top-level argument name the strictest model APIs
would refuse gets one, S19.2) and `on_collision="rename"` (every colliding parameter is
advertised as `<name>__<in>`, S19.3). Pure functions over names; the planner applies them and
the plan routes each alias back to its channel and wire name (S19.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from toolshape._json import is_map
from toolshape._pointers import def_name, references, subschemas
from toolshape._types import Channel, Schema

#: S19.2: the property-key rule of the strictest model APIs, and their tool-name rule.
PORTABLE_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
PORTABLE_TOOL = re.compile(r"[A-Za-z0-9_-]{1,64}")
LIMIT = 64
_KEY_OTHERS = re.compile(r"[^A-Za-z0-9_.-]+")
_TOOL_OTHERS = re.compile(r"[^A-Za-z0-9_-]+")

Aliases = Mapping[tuple[Channel, str], str]
"""Advertised names by `(channel, name)`: the name being the argument name after S4.5 (a
header lower case), a body property's name as declared."""


def portable(name: str, *, tool: bool = False) -> str:
    """S19.2: each run of other characters becomes `_`, leading and trailing `_` trimmed, cut
    to 64; an empty result is `arg` (`include[]` → `include`, `$top` → `top`). With `tool`,
    the tool-name rule (`.` is another character too)."""
    others = _TOOL_OTHERS if tool else _KEY_OTHERS
    return others.sub("_", name).strip("_")[:LIMIT] or "arg"


def unique(name: str, taken: set[str], limit: int = LIMIT) -> str:
    """`name`, or with the first of `_2`, `_3`, … that makes it free (cut to fit `limit`)."""
    if name not in taken:
        return name
    number = 2
    while True:
        suffix = f"_{number}"
        candidate = name[: limit - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


def portable_aliases(names: Sequence[tuple[Channel, str]]) -> dict[tuple[Channel, str], str]:
    """S19.2: an alias for every name outside `PORTABLE_KEY`, in declaration order; a clash
    with a kept name or an earlier alias takes the next suffix."""
    taken = {name for _, name in names if PORTABLE_KEY.fullmatch(name)}
    out: dict[tuple[Channel, str], str] = {}
    for channel, name in names:
        if PORTABLE_KEY.fullmatch(name):
            continue
        alias = unique(portable(name), taken)
        taken.add(alias)
        out[channel, name] = alias
    return out


def collision_renames(
    channels: Iterable[tuple[Channel, Sequence[str]]],
) -> dict[tuple[Channel, str], str]:
    """S19.3: every parameter whose flat name another channel declares too, as `<name>__<in>`
    (`id__path`); a body property keeps its name (a wrapped body's `body` argument too)."""
    listed = [(channel, name) for channel, names in channels for name in names]
    declared_by: dict[str, set[Channel]] = {}
    for channel, name in listed:
        declared_by.setdefault(name, set()).add(channel)
    return {
        (channel, name): f"{name}__{channel}"
        for channel, name in listed
        if len(declared_by[name]) > 1 and channel != "body"
    }


class DeepNames:
    """S19.2: the property names outside `PORTABLE_KEY` inside a body — names an alias can't
    reach, for the warning. One per document: what each definition holds is found once (the
    bundled definitions are shared by the operations that use them)."""

    __slots__ = ("_memo", "_wanted")

    def __init__(self, wanted: Callable[[], bool]) -> None:
        self._memo: dict[int, tuple[Schema, list[str], list[str]]] = {}
        self._wanted = wanted

    @property
    def wanted(self) -> bool:
        """Whether any name can be found: False while the document's schemas read so far hold
        no non-portable property name (then no walk is needed)."""
        return self._wanted()

    def find(self, roots: Iterable[Schema], defs: Mapping[str, Schema]) -> list[str]:
        """The names inside `roots` and the definitions they reach, each once, in the order
        found."""
        found: dict[str, None] = {}
        seen: set[str] = set()
        pending = [_local(root) for root in roots]
        while pending:
            names, refs = pending.pop()
            found.update(dict.fromkeys(names))
            for name in refs:
                if name not in seen and name in defs:
                    seen.add(name)
                    pending.append(self._definition(defs[name]))
        return list(found)

    def _definition(self, schema: Schema) -> tuple[list[str], list[str]]:
        entry = self._memo.get(id(schema))
        if entry is None or entry[0] is not schema:
            names, refs = _local(schema)
            self._memo[id(schema)] = (schema, names, refs)
            return names, refs
        return entry[1], entry[2]


def _local(schema: Schema) -> tuple[list[str], list[str]]:
    """The non-portable property names inside `schema` (not following references), and the
    definitions it references."""
    names: dict[str, None] = {}
    refs: dict[str, None] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if not is_map(node):
            continue
        properties = node.get("properties")
        if is_map(properties):
            for key in properties:
                if not PORTABLE_KEY.fullmatch(str(key)):
                    names[str(key)] = None
        for ref in _own_references(node):
            name = def_name(ref)
            if name is not None:
                refs[name] = None
        stack.extend(subschemas(node))
    return list(names), list(refs)


def _own_references(node: Mapping[str, Schema]) -> list[str]:
    """The references written on `node` itself (its subschemas are walked on their own)."""
    ref = node.get("$ref")
    if not (_REF_KEYS.isdisjoint(node) if ref is None else len(node) == 1):
        own = {key: node[key] for key in _REF_KEYS if key in node}
        return list(references(own))
    return [ref] if isinstance(ref, str) else []


_REF_KEYS = frozenset({"$ref", "$dynamicRef", "$recursiveRef", "discriminator"})
