"""S22.5: the Gemini view of a tool's input schema — the `Schema` subset Gemini's API and its
SDK take — and how calls read back (S22.3).

References are inlined (a recursive one cut at its third level into JSON text, read back like a
free-form object); a type list becomes one type with `nullable`; maps and free-form objects are
pairs and JSON text as in the strict view; every other keyword is dropped and enforced by the
document's schema after reading.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._pointers import def_name, escape
from toolshape.model._types import Wrapped
from toolshape.plans._plan import Plan
from toolshape.views._read import SAME, Read
from toolshape.views._shapes import (
    accepts_null,
    by_kind,
    description_of,
    object_kind,
    text_of,
    view_bytes,
)
from toolshape.views._tool import ModelTool
from toolshape.views._walk import Path, Walker

#: The keywords of Gemini's `Schema` the view keeps as they are.
_KEPT = ("format", "description", "minimum", "maximum", "minItems", "maxItems", "minLength",
         "maxLength", "minProperties", "maxProperties")  # fmt: skip
#: A recursive reference is followed this many times on one path, then cut.
RECURSION = 3
#: Past about this many bytes of view, every further reference is cut (S14.4: inlining can
#: grow a view far past its document; it stays one a model can read).
BUDGET = 100_000
_CUT = "JSON text of the value (nested too deeply to describe here)."


class Gemini(Walker):
    """One tool's Gemini view: `view(schema, where)` gives it and its reading; references are
    inlined, each path cut at its third visit to a definition or past the byte budget."""

    def __init__(self, root: Mapping[str, Unchecked]) -> None:
        super().__init__(root)
        self.budget = BUDGET
        """The bytes of view still to make before references are cut (`enter` counts them)."""
        self.plain = False
        """Inside a union that can't be read back by kind: objects as they are (free-form and
        map objects as `object`, optional properties without the null reading)."""

    def enter(self, schema: Unchecked) -> None:
        self.budget -= view_bytes(schema)

    def untyped(self, schema: Unchecked, where: str, path: Path) -> tuple[Json, Read]:
        return text_of(schema), SAME

    def unmerged(
        self, schema: Mapping[str, Unchecked], why: Wrapped, where: str, path: Path
    ) -> tuple[Json, Read]:
        """Branches that can't merge are left to the document, which judges every call."""
        return self.shaped({k: v for k, v in schema.items() if k != "allOf"}, where, path)

    def kinded(
        self, schema: Mapping[str, Unchecked], core: list[str], null: bool, where: str, path: Path
    ) -> tuple[Json, Read]:
        if len(core) > 1:
            branches = [{**schema, "type": k} for k in core]
            view, read = self.union(text_of(schema), branches, where, path)
            return ({**view, "nullable": True} if null and isinstance(view, dict) else view), read
        view, read = self._typed(schema, core[0] if core else None, where, path)
        if null and isinstance(view, dict):
            view["nullable"] = True
        return view, read

    def _typed(
        self, schema: Mapping[str, Unchecked], kind: str | None, where: str, path: Path
    ) -> tuple[Json, Read]:
        if kind == "object" or (kind is None and "properties" in schema):
            return self.object(schema, where, path)
        out: JsonObject = {} if kind is None else {"type": kind}
        out.update((key, schema[key]) for key in _KEPT if key in schema)
        values = schema.get("enum", [schema["const"]] if "const" in schema else None)
        if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
            out["enum"] = values
            out.setdefault("type", "string")
        if kind == "array":
            items = schema.get("items")
            if is_map(items):
                view, read = self.view(items, f"{where}/items", path)
                out["items"] = view
                return out, Read("array", inner=read) if read.changes else SAME
        return out, SAME

    def ref(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        name = def_name(schema["$ref"])
        if name is None or name not in self.defs:
            return {}, SAME
        if path.count(name) >= RECURSION or self.budget < 0:
            why = "a recursive reference" if name in path else "a schema past the size a view keeps"
            self.reasons.append(f"{where}: {why} to `{name}` is cut into JSON text")
            return {"type": "string", "description": _CUT}, Read("value")
        view, read = self.view(self.defs[name], f"/$defs/{escape(name)}", (*path, name))
        description = schema.get("description")
        if isinstance(description, str) and isinstance(view, dict):
            view = {**view, "description": description}
        return view, read

    def union(
        self, schema: Mapping[str, Unchecked], branches: list[Unchecked], where: str, path: Path
    ) -> tuple[Json, Read]:
        nulls = [b for b in branches if is_map(b) and b.get("type") == "null"]
        rest = [b for b in branches if b not in nulls]
        views, reads = [], []
        for i, branch in enumerate(rest):
            view, read = self.view(branch, f"{where}/anyOf/{i}", path)
            views.append(view)
            reads.append(read)
        if len(views) == 1:
            out = dict(views[0]) if isinstance(views[0], dict) else {}
        else:
            out = {"anyOf": views}
        out.update(text_of(schema))
        if nulls:
            out["nullable"] = True
        found = by_kind(views, reads, {}, self.kinds)
        if found is None and self.plain:
            return out, SAME
        if found is None:  # viewed again, every branch as it is: nothing to read back
            self.plain, plain = True, self.plain
            try:
                as_is, _ = self.union(schema, branches, where, path)
            finally:
                self.plain = plain
            return as_is, SAME
        return out, (Read("nullable", inner=found) if nulls and found.changes else found)

    def object(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        if self.plain and object_kind(schema) in ("free", "map"):  # as it is: an object
            text = description_of(schema)
            return ({"type": "object", "description": text} if text else {"type": "object"}), SAME
        return super().object(schema, where, path)

    def properties(
        self, schema: Mapping[str, Unchecked], closed: bool, where: str, path: Path
    ) -> tuple[JsonObject, Read]:
        out: JsonObject = {"type": "object"}
        properties = schema.get("properties")
        views: JsonObject = {}
        reads: dict[str, Read] = {}
        for name, sub in properties.items() if is_map(properties) else ():
            view, read = self.view(sub, f"{where}/properties/{escape(name)}", path)
            views[name] = view
            if read.changes:
                reads[name] = read
        if views:
            out["properties"] = views
        required = schema.get("required")
        if isinstance(required, list) and required:
            out["required"] = [name for name in required if name in views]
        text = description_of(schema)
        if text:
            out["description"] = text
        if self.plain:
            return out, SAME
        needed = required if isinstance(required, list) else []
        assert is_map(properties) or not views
        optional = frozenset(  # `null` for an optional property the document can't take: absent
            name
            for name in views
            if name not in needed and not accepts_null(properties[name], self.defs, self.nulls)  # type: ignore[index]
        )
        return out, Read(
            "object", properties=reads, drop_null=optional
        ) if reads or optional else SAME


def gemini_tool(plan: Plan) -> ModelTool:
    """S22.5: Gemini's tool: the Gemini view; its cuts are its reasons."""
    schema = plan.input_schema
    gemini = Gemini(schema)
    try:
        view, reader = gemini.view({**schema, "type": "object"}, "")
    except RecursionError:  # S14.4: left to the document, which judges every call
        gemini.reasons.append("/: references nested too deeply to view")
        view, reader = {"type": "object"}, SAME
    parameters = view if isinstance(view, dict) else {"type": "object"}
    definition = {"name": plan.name, "description": plan.description, "parameters": parameters}
    reasons = tuple(dict.fromkeys(gemini.reasons))  # a union viewed twice finds its cuts twice
    return ModelTool(plan, "gemini", definition, False, reasons, parameters, reader)
