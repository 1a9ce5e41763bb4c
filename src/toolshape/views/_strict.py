"""S22.2: the OpenAI strict view of a tool's input schema, and how calls read back (S22.3).

Strict mode wants every object closed with every property required, a few keywords only, and
references to top-level definitions only. The view gets there by changing only what reads back
exactly — an optional property accepts `null` (meaning absent), a map is a list of pairs, a
free-form object its JSON text — and by dropping the keywords strict mode refuses, which the
document's schema still enforces after reading. What can't be viewed that way (an untyped
value, a property both optional and nullable, a tuple, OpenAI's size limits) is a reason, and
the tool is then not strict: its schema is the document's, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._pointers import def_name, escape
from toolshape.model._types import Wrapped
from toolshape.plans._plan import Plan
from toolshape.views._read import SAME, Read
from toolshape.views._shapes import accepts_null, by_kind, description_of, text_of, typed
from toolshape.views._tool import ModelTool
from toolshape.views._walk import Path, Walker

#: The string formats strict mode accepts (others are annotations, S13.3: dropped).
FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
#: The keywords a strict view keeps beside a scalar `type` (the rest are dropped).
_SCALAR = ("description", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
           "exclusiveMaximum", "multipleOf")  # fmt: skip
#: OpenAI's limits on one strict schema: levels of nested objects, properties in all.
MAX_DEPTH, MAX_PROPERTIES = 10, 5000
_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


class Strict(Walker):
    """One tool's strict view, built once: `view(schema, where)` gives the view and its
    reading; references point at the root's definitions, each viewed once."""

    def __init__(self, root: Mapping[str, Unchecked]) -> None:
        super().__init__(root)
        self.def_views: dict[str, Json] = {}
        self.def_reads: dict[str, Read] = {}
        self.reading: set[str] = set()
        """The definitions whose views are being made (a reference to one may read back)."""

    def untyped(self, schema: Unchecked, where: str, path: Path) -> tuple[Json, Read]:
        return self.refuse(where, "an untyped value (strict mode needs every value's type)")

    def unmerged(
        self, schema: Mapping[str, Unchecked], why: Wrapped, where: str, path: Path
    ) -> tuple[Json, Read]:
        return self.refuse(where, f"an `allOf` strict mode can't take ({why.reason})")

    def kinded(
        self, schema: Mapping[str, Unchecked], core: list[str], null: bool, where: str, path: Path
    ) -> tuple[Json, Read]:
        if len(core) > 1:
            branches = [{**schema, "type": k} for k in core] + ([{"type": "null"}] * null)
            return self.union(text_of(schema), branches, where, path)
        if not core:  # `enum` or `const` alone, or `type: "null"`
            return _scalar(schema, None, null), SAME
        view, read = self._typed(schema, core[0], where)
        if null:
            return nullable(view), Read("nullable", inner=read) if read.changes else SAME
        return view, read

    def _typed(self, schema: Mapping[str, Unchecked], kind: str, where: str) -> tuple[Json, Read]:
        if kind == "object":
            return self.object(schema, where, ())
        if kind == "array":
            return self._array(schema, where)
        if kind not in ("string", "number", "integer", "boolean"):
            return self.refuse(where, f"a type strict mode does not know ({kind!r})")
        return _scalar(schema, kind, False), SAME

    def ref(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        name = def_name(schema["$ref"])
        if name is None or name not in self.defs or not schema["$ref"].endswith(escape(name)):
            return self.refuse(where, f"a reference strict mode can't follow ({schema['$ref']})")
        if name not in self.def_views:
            self.def_views[name] = {}  # in progress: a recursive reference refers to it
            self.def_reads[name] = SAME
            self.reading.add(name)
            view, read = self.view(self.defs[name], f"/$defs/{escape(name)}")
            self.reading.discard(name)
            self.def_views[name], self.def_reads[name] = view, read
        ref: JsonObject = {"$ref": schema["$ref"]}
        text = text_of(schema)
        changes = name in self.reading or self.def_reads[name].changes
        return ({"anyOf": [ref], **text} if text else ref), (
            Read("ref", ref=name) if changes else SAME
        )

    def union(
        self, schema: Mapping[str, Unchecked], branches: list[Unchecked], where: str, path: Path
    ) -> tuple[Json, Read]:
        views, reads = [], []
        for i, branch in enumerate(branches):
            view, read = self.view(branch, f"{where}/anyOf/{i}")
            views.append(view)
            reads.append(read)
        found = by_kind(views, reads, self.def_views, self.kinds)
        if found is None:
            return self.refuse(where, "a union whose branches read back differently")
        return {"anyOf": views, **text_of(schema)}, found

    def properties(
        self, schema: Mapping[str, Unchecked], closed: bool, where: str, path: Path
    ) -> tuple[JsonObject, Read]:
        properties = {} if closed else schema.get("properties")
        assert is_map(properties)
        required = schema.get("required")
        needed = set(required) if isinstance(required, list) else set()
        views: JsonObject = {}
        reads: dict[str, Read] = {}
        optional: set[str] = set()
        for name, sub in properties.items():
            at = f"{where}/properties/{escape(name)}"
            view, read = self.view(sub, at)
            if name not in needed:
                if accepts_null(sub, self.defs, self.nulls):
                    self.refuse(
                        at, "optional and nullable (the view could not tell null from absent)"
                    )
                view, optional = nullable(view), optional | {name}
            views[name] = view
            if read.changes:
                reads[name] = read
        out: JsonObject = {"type": "object", "properties": views, "required": list(views)}
        out["additionalProperties"] = False
        text = description_of(schema)
        if text:
            out["description"] = text
        if not reads and not optional:
            return out, SAME
        return out, Read("object", properties=reads, drop_null=frozenset(optional))

    def _array(self, schema: Mapping[str, Unchecked], where: str) -> tuple[Json, Read]:
        items = schema.get("items")
        if "prefixItems" in schema or isinstance(items, list):
            return self.refuse(where, "a tuple (strict mode types arrays by `items` only)")
        if not typed(items):
            return self.refuse(where, "an array of untyped items")
        view, read = self.view(items, f"{where}/items")
        out: JsonObject = {"type": "array", "items": view}
        for key in ("description", "minItems", "maxItems"):
            if key in schema:
                out[key] = schema[key]
        return out, Read("array", inner=read) if read.changes else SAME


def nullable(view: Json) -> Json:
    """S22.2: `view` accepting `null` too: a scalar's type list, else `anyOf` with null."""
    if not isinstance(view, dict):
        return view
    kind, values, branches = view.get("type"), view.get("enum"), view.get("anyOf")
    if isinstance(kind, str) and kind not in ("object", "array") and branches is None:
        out: JsonObject = {**view, "type": [kind, "null"]}
        if isinstance(values, list) and None not in values:
            out["enum"] = [*values, None]
        return out
    if isinstance(kind, list):
        return view if "null" in kind else {**view, "type": [*kind, "null"]}
    if isinstance(branches, list) and not set(view) - {"anyOf", "description"}:
        if any(b == {"type": "null"} for b in branches):
            return view
        return {**view, "anyOf": [*branches, {"type": "null"}]}
    return {"anyOf": [view, {"type": "null"}]}


def _scalar(schema: Mapping[str, Unchecked], kind: str | None, null: bool) -> JsonObject:
    """A scalar's view: its type and the keywords strict mode takes; a `pattern` with
    look-around and a format strict mode does not list are dropped (S13.3)."""
    out: JsonObject = {}
    if kind is not None:
        out["type"] = [kind, "null"] if null else kind
    elif null and not any(k in schema for k in ("enum", "const")):
        out["type"] = "null"
    out.update((key, schema[key]) for key in _SCALAR if key in schema)
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not any(token in pattern for token in _LOOKAROUND):
        out["pattern"] = pattern
    if schema.get("format") in FORMATS:
        out["format"] = schema["format"]
    if schema.get("contentEncoding") == "base64":
        text = out.get("description")
        out["description"] = f"{text} (base64)" if isinstance(text, str) else "Base64 text."
    return out


def size_problem(view: Mapping[str, Any]) -> str | None:
    """S22.2: past OpenAI's limits (10 levels of nested objects, 5,000 properties), counted
    for the root and each definition on its own, without following references."""
    defs = view.get("$defs")
    parts = [view, *(defs.values() if is_map(defs) else ())]
    for part in parts:
        deepest, count = _objects(part)
        if deepest > MAX_DEPTH:
            return f"{deepest} levels of nested objects (strict mode takes {MAX_DEPTH})"
        if count > MAX_PROPERTIES:
            return f"{count} properties (strict mode takes {MAX_PROPERTIES})"
    return None


def _objects(schema: Unchecked) -> tuple[int, int]:
    """The deepest level of nested objects and the properties of all of them in `schema`."""
    deepest, count = 0, 0
    stack: list[tuple[Unchecked, int]] = [(schema, 1)]
    while stack:
        node, depth = stack.pop()
        if not is_map(node):
            continue
        properties = node.get("properties")
        if is_map(properties):
            deepest, count = max(deepest, depth), count + len(properties)
            stack.extend((sub, depth + 1) for sub in properties.values())
        stack.append((node.get("items"), depth))
        branches = node.get("anyOf")
        if isinstance(branches, list):
            stack.extend((branch, depth) for branch in branches)
    return deepest, count


def openai_tool(plan: Plan) -> ModelTool:
    """S22.2: OpenAI's tool: the strict view, or (with its reasons) the document's schema, not
    strict."""
    schema = plan.input_schema
    strict = Strict(schema)
    try:
        view, reader = _root(strict, schema)
    except RecursionError:  # S14.4: a chain of references too long to follow is a reason
        view, reader = strict.refuse("", "references nested too deeply to view")
    reasons = list(strict.reasons)
    if not reasons and isinstance(view, dict):
        if strict.def_views:
            view["$defs"] = dict(strict.def_views)
        too_big = size_problem(view)
        if too_big is not None:
            reasons.append(f"/: {too_big}")
    if reasons or not isinstance(view, dict):
        parameters, reader, defs, is_strict = schema, SAME, {}, False
    else:
        parameters, defs, is_strict = view, dict(strict.def_reads), True
    function = {
        "name": plan.name,
        "description": plan.description,
        "parameters": parameters,
        "strict": is_strict,
    }
    definition: JsonObject = {"type": "function", "function": function}
    return ModelTool(
        plan, "openai", definition, is_strict, tuple(reasons), parameters, reader, defs
    )


def _root(strict: Strict, schema: JsonObject) -> tuple[Json, Read]:
    """The root's view: an object even with no property (a free-form root can't be text)."""
    properties = schema.get("properties")
    if is_map(properties) and properties:
        return strict.view({**schema, "type": "object"}, "")
    if schema.get("additionalProperties", True) is not False:
        return strict.refuse("", "an open root with no property (strict mode closes it)")
    empty: JsonObject = {"type": "object", "properties": {}, "required": []}
    return {**empty, "additionalProperties": False}, SAME
