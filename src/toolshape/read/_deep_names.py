"""S19.2: the property names inside a body that no alias reaches, found once per document."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from toolshape.model._json import is_map
from toolshape.model._names import PORTABLE_KEY
from toolshape.model._pointers import def_name, own_references, subschemas
from toolshape.model._types import Schema


class DeepNames:
    """S19.2: the property names outside `PORTABLE_KEY` inside a body — names an alias can't
    reach, for the warning. One per document: what each definition holds is found once (the
    bundled definitions are shared by the operations that use them)."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[int, tuple[Schema, list[str], list[str]]] = {}

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
        for ref in own_references(node):
            name = def_name(ref)
            if name is not None:
                refs[name] = None
        stack.extend(subschemas(node))
    return list(names), list(refs)
