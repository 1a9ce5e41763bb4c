"""S25.3: any view with its references inlined — no `$ref` and no `$defs` anywhere — for the
clients that can't read them (Cursor, Gemini CLI, VS Code, the OpenAI Agents SDK's MCP path).

Each `$ref` to a definition is replaced by the definition, inlined too; a reference met a
third time on one path (recursion), or past the byte budget, is cut: in an input schema into
JSON text (read back as the JSON it spells, objects and arrays alike, S22.5's cut), in an
output schema into `{}`. Nothing else changes. Where a cut's text could not be told from a
value the schema takes as text (a union with a text branch, `allOf`, or a keyword whose values
the reading does not follow), the cut is `{}` instead: any value, which the document judges.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._pointers import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_VALUE, def_name, escape
from toolshape.views._gemini import BUDGET, RECURSION
from toolshape.views._read import SAME, Read
from toolshape.views._shapes import by_kind, view_bytes
from toolshape.views._walk import Path, Walker

#: S25.3: what an input cut says of itself.
CUT = "JSON text of the value (nested too deeply to describe here)."
_READ_THROUGH = frozenset({"properties", "items", "anyOf", "oneOf"})
_TEXT = frozenset({"description", "title", "$comment", "deprecated", "examples", "default"})


class Inliner(Walker):
    """One schema's references inlined, on the views' walker: `view(schema, where)` gives the
    schema and how a value made for it reads back into the shape of the schema it came from.
    It folds no `allOf` and reads no types: every keyword but `$ref` is kept as written."""

    def __init__(self, root: Mapping[str, Unchecked], *, output: bool = False) -> None:
        super().__init__(root)
        self.output = output
        self.budget = BUDGET
        self.plain = output
        """Cuts are `{}` (an output schema, or a place whose text the reading can't tell)."""
        self.untyped_cut = False
        """Whether an input cut is `{}` (a view that needs every value typed can't take it)."""

    # -- the walker's hooks: a reference is inlined, everything else keeps its keywords -----

    def enter(self, schema: Unchecked) -> None:
        if is_map(schema):
            self.budget -= view_bytes(schema)

    def untyped(self, schema: Unchecked, where: str, path: Path) -> tuple[Json, Read]:
        return self._keywords(schema, where, path) if is_map(schema) else (schema, SAME)

    def fold(self, schema: Mapping[str, Unchecked]) -> Unchecked:
        return None

    def union(
        self, schema: Mapping[str, Unchecked], branches: list[Unchecked], where: str, path: Path
    ) -> tuple[Json, Read]:
        return self._keywords(schema, where, path)

    def kinded(
        self, schema: Mapping[str, Unchecked], core: list[str], null: bool, where: str, path: Path
    ) -> tuple[Json, Read]:
        return self._keywords(schema, where, path)

    def ref(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        """A `$ref` to a definition: the definition inlined (cut on its third level on one
        path, or past the budget), with the keywords beside the reference kept."""
        ref = schema["$ref"]
        name = def_name(ref) if isinstance(ref, str) else None
        if name is None or name not in self.defs:
            return self._keywords(schema, where, path)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if path.count(name) >= RECURSION or self.budget < 0:
            return self._cut(name, where, path, rest)
        inner, read = self.view(self.defs[name], f"/$defs/{escape(name)}", (*path, name))
        if not rest:
            return inner, read
        if set(rest) <= _TEXT and isinstance(inner, dict):
            return {**inner, **rest}, read
        beside, beside_read = self._keywords(rest, where, path)
        if read.changes or beside_read.changes:  # two readings of one value: none can be told
            return self._plainly(schema, where, path)
        assert isinstance(beside, dict)
        return {**beside, "allOf": [inner]}, SAME

    def _cut(
        self, name: str, where: str, path: Path, rest: Mapping[str, Unchecked]
    ) -> tuple[Json, Read]:
        why = "a recursive reference" if name in path else "a schema past the size a view keeps"
        self.reasons.append(f"{where or '/'}: {why} to `{name}` is cut")
        text = {k: v for k, v in rest.items() if k in ("description", "title")}
        if self.plain:
            self.untyped_cut = self.untyped_cut or not self.output
            return text, SAME
        return {"type": "string", "description": CUT}, Read("value")

    def _plainly(self, schema: Unchecked, where: str, path: Path) -> tuple[Json, Read]:
        """`schema` inlined with every cut inside it `{}` (nothing to read back)."""
        self.plain, plain = True, self.plain
        try:
            view, _ = self.view(schema, where, path)
        finally:
            self.plain = plain
        return view, SAME

    def _keywords(
        self, schema: Mapping[str, Unchecked], where: str, path: Path
    ) -> tuple[Json, Read]:
        out: JsonObject = {}
        reads: dict[str, Read] = {}
        item = SAME
        union = SAME
        for key, value in schema.items():
            if key in ("$defs", "definitions"):
                continue
            at = f"{where}/{key}"
            if key == "properties" and is_map(value):
                out[key] = {}
                for name, sub in value.items():
                    out[key][name], read = self.view(sub, f"{at}/{escape(name)}", path)
                    if read.changes:
                        reads[name] = read
            elif key == "items" and is_map(value):
                out[key], item = self.view(value, at, path)
            elif key in ("anyOf", "oneOf") and isinstance(value, list):
                out[key], union = self._union(value, at, path)
            elif key in SCHEMA_VALUE or key in SCHEMA_LIST or key in SCHEMA_MAP:
                out[key] = self._plain_value(key, value, at, path)
            else:
                out[key] = value
        found = [
            r
            for r in (Read("object", properties=reads) if reads else SAME, item, union)
            if r.changes
        ]
        if len(found) > 1 or (found and not _one_kind(out)):
            return self._plainly(schema, where, path)  # a value read two ways: none can be told
        if item.changes:
            return out, Read("array", inner=item)
        return out, found[0] if found else SAME

    def _union(self, branches: list[Unchecked], where: str, path: Path) -> tuple[list[Json], Read]:
        views, reads = [], []
        for i, branch in enumerate(branches):
            view, read = self.view(branch, f"{where}/{i}", path)
            views.append(view)
            reads.append(read)
        found = by_kind(views, reads, {}, self.kinds)
        if found is not None:
            return views, found
        self.plain, plain = True, self.plain
        try:
            plain_views = [self.view(b, f"{where}/{i}", path)[0] for i, b in enumerate(branches)]
        finally:
            self.plain = plain
        return plain_views, SAME

    def _plain_value(self, key: str, value: Unchecked, where: str, path: Path) -> Json:
        """A keyword whose subschemas the reading does not follow, inlined with `{}` cuts."""
        self.plain, plain = True, self.plain
        try:
            if key in SCHEMA_MAP and is_map(value):
                return {k: self.view(v, f"{where}/{escape(k)}", path)[0] for k, v in value.items()}
            if isinstance(value, list):
                return [self.view(v, f"{where}/{i}", path)[0] for i, v in enumerate(value)]
            return self.view(value, where, path)[0]
        finally:
            self.plain = plain


def _one_kind(schema: Mapping[str, Unchecked]) -> bool:
    """Whether a schema's reading follows one kind of value: an object's `properties`, an
    array's `items` or a union's branches, not two of them at once."""
    return len(_READ_THROUGH & set(schema) - {"oneOf" if "anyOf" in schema else ""}) <= 1


def inlined(
    root: Mapping[str, Unchecked], *, output: bool = False
) -> tuple[JsonObject, Read, tuple[str, ...], bool]:
    """S25.3: `root` with every reference inlined, how a value made for it reads back into
    `root`'s own shape, the cuts made (each located), and whether an input cut is untyped."""
    inliner = Inliner(root, output=output)
    try:
        view, read = inliner.view(root, "")
    except RecursionError:  # S14.4: references too deep to follow: left to the document
        return {"type": "object"}, SAME, ("/: references nested too deeply to inline",), True
    assert isinstance(view, dict)
    return view, read, tuple(dict.fromkeys(inliner.reasons)), inliner.untyped_cut
