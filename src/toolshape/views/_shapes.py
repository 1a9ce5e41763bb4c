"""What the model views (S22.2, S22.5) share: the kinds of objects a model can't send as they
are, and how they are advertised instead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from toolshape.flatten._allof import merge_allof
from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._pointers import def_name
from toolshape.model._types import Wrapped
from toolshape.views._read import SAME, Read, kind_of

ObjectKind = Literal["properties", "map", "free", "closed"]

#: Keywords that make a schema say what a value is (a schema with none of them is untyped).
TYPED = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items")
#: S22.2: what a free-form object's JSON text says of itself.
JSON_TEXT = "The JSON text of an object."
#: S22.2: what a map's pairs say of themselves.
PAIRS = "The entries of a map, as key and value pairs (each key once)."


def declared_kinds(schema: Mapping[str, Unchecked]) -> list[str]:
    """The types a schema declares; without `type`, `object` when it declares `properties`,
    `array` when it declares `items` (the views advertise that kind, the document judges)."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return [str(k) for k in kind]
    if isinstance(kind, str):
        return [kind]
    if "properties" in schema:
        return ["object"]
    return ["array"] if "items" in schema or "prefixItems" in schema else []


def object_kind(schema: Mapping[str, Unchecked]) -> ObjectKind:
    """`properties`: it declares some; `map`: `additionalProperties` is a schema of the values
    and no property is declared; `free`: open, nothing declared; `closed`: no key allowed."""
    properties = schema.get("properties")
    if is_map(properties) and properties:
        return "properties"
    more = schema.get("additionalProperties", True)
    if more is False:
        return "closed"
    return "map" if is_map(more) and typed(more) else "free"


def typed(schema: Unchecked) -> bool:
    """Whether `schema` says what kind of value it takes (not `{}`, `true`, annotations only)."""
    return is_map(schema) and any(key in schema for key in TYPED)


def accepts_null(
    schema: Unchecked, defs: Mapping[str, Unchecked], memo: dict[str, bool], depth: int = 0
) -> bool:
    """Whether `schema` may accept `null`: none of its keywords refuses it (conservatively,
    past 32 levels of unions, or through a definition still being read, it may). `memo` keeps
    each definition's answer, so a view asks each definition once (S14.4: linear in the
    document)."""
    if depth > 32:
        return True
    if not is_map(schema):
        return schema is not False
    kind = schema.get("type")
    if kind is not None and kind != "null" and not (isinstance(kind, list) and "null" in kind):
        return False
    if "enum" in schema and not (isinstance(schema["enum"], list) and None in schema["enum"]):
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    if "$ref" in schema:
        name = def_name(schema["$ref"])
        if name is not None and name in defs and not _def_accepts_null(name, defs, memo):
            return False
    for key, need in (("anyOf", any), ("oneOf", any), ("allOf", all)):
        branches = schema.get(key)
        if isinstance(branches, list) and not need(
            accepts_null(b, defs, memo, depth + 1) for b in branches
        ):
            return False
    return True


def _def_accepts_null(name: str, defs: Mapping[str, Unchecked], memo: dict[str, bool]) -> bool:
    if name not in memo:
        memo[name] = True  # in progress: a definition reached through itself may accept null
        memo[name] = accepts_null(defs[name], defs, memo)
    return memo[name]


def pairs_of(value_view: Json, description: str | None) -> JsonObject:
    """S22.2: a map advertised as an array of `{"key", "value"}` pairs."""
    pair: JsonObject = {
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": value_view},
        "required": ["key", "value"],
        "additionalProperties": False,
    }
    text = f"{description} ({PAIRS})" if description else PAIRS
    return {"type": "array", "description": text, "items": pair}


def json_text(description: str | None) -> JsonObject:
    """S22.2: a free-form object advertised as its JSON text."""
    text = f"{description} ({JSON_TEXT})" if description else JSON_TEXT
    return {"type": "string", "description": text}


def by_kind(
    views: list[Json],
    reads: list[Read],
    defs: Mapping[str, Json],
    memo: dict[int, tuple[Json, set[str]]],
) -> Read | None:
    """A union's reading: by the JSON kind of the value, when every branch that reads back
    otherwise is the only branch of its kinds (None when a value could be read two ways)."""
    if not any(read.changes for read in reads):
        return SAME
    kinds: dict[str, Read] = {}
    seen: dict[str, int] = {}
    for view, read in zip(views, reads, strict=True):
        for kind in view_kinds(view, defs, memo):
            seen[kind] = seen.get(kind, 0) + 1
            kinds[kind] = read
    changing = {k for k, r in kinds.items() if r.changes}
    if not changing or any(seen[k] > 1 for k in changing) or "any" in seen:
        return None
    return Read("kinds", kinds={k: kinds[k] for k in changing})


def view_kinds(
    view: Json, defs: Mapping[str, Json], memo: dict[int, tuple[Json, set[str]]], depth: int = 0
) -> set[str]:
    """The JSON kinds a view's values can be (`any` when it can't tell; past 16 levels of
    references and unions, it can't). `memo` keeps each definition's kinds by the identity of
    its view (held there, so the identity stays its own): each is read once."""
    if not isinstance(view, dict) or depth > 16:
        return {"any"}
    kind = view.get("type")
    if isinstance(kind, str):
        return {"number" if kind == "integer" else kind}
    if isinstance(kind, list):
        return {"number" if k == "integer" else str(k) for k in kind}
    ref = view.get("$ref")
    if isinstance(ref, str):
        target = defs.get(def_name(ref) or "", None)
        if id(target) not in memo:
            memo[id(target)] = (target, view_kinds(target, defs, memo, depth + 1))
        return memo[id(target)][1]
    branches = view.get("anyOf")
    if isinstance(branches, list):
        return set().union(*(view_kinds(b, defs, memo, depth + 1) for b in branches))
    if "enum" in view or "const" in view:
        values = view.get("enum", [view.get("const")])
        if isinstance(values, list):
            return {kind_of(v) for v in values}
    return {"any"}


def description_of(schema: Unchecked) -> str | None:
    """A schema's `description`, when it has one that is text."""
    text = schema.get("description") if is_map(schema) else None
    return text if isinstance(text, str) else None


def text_of(schema: Unchecked) -> JsonObject:
    """A schema's `description` as the keyword a view carries over (nothing without one)."""
    text = description_of(schema)
    return {} if text is None else {"description": text}


def union_key(schema: Mapping[str, Unchecked]) -> str | None:
    """`anyOf` or `oneOf`, whichever holds a union's branches, or None."""
    return next((k for k in ("anyOf", "oneOf") if isinstance(schema.get(k), list)), None)


def folded(schema: Mapping[str, Unchecked], defs: Mapping[str, Unchecked]) -> Unchecked:
    """S22.2: `schema` with its `allOf` folded in, for a view to take instead — a one-branch
    `allOf` beside annotations is its branch (`true`: any value; `false`: none), more branches
    are merged (S6.1) — or None when it has no `allOf`; `Wrapped` (why) when the branches
    can't be merged."""
    branches = meaningful(schema.get("allOf"))
    if branches is None:
        return None
    if len(branches) == 1 and not constrains(schema):
        only = branches[0]
        if not is_map(only):
            return text_of(schema) if only is not False else False
        return {**text_of(only), **only, **text_of(schema)}
    merged = merge_allof({"type": "object", **schema}, defs)
    return merged if isinstance(merged, Wrapped) else {**merged, **text_of(schema)}


def meaningful(branches: Unchecked) -> list[Unchecked] | None:
    """An `allOf`'s branches but those that only annotate (`{"description": ...}`), or None
    when it is not a list."""
    if not isinstance(branches, list):
        return None
    return [b for b in branches if not (is_map(b) and set(b) <= _ANNOTATIONS)] or branches


def constrains(schema: Mapping[str, Unchecked]) -> bool:
    """Whether `schema` says more beside its `allOf` than annotations."""
    return any(key not in _ANNOTATIONS for key in schema)


#: What beside a one-branch `allOf` says nothing of its value (or, like `default`, is dropped
#: by every view and judged by the document).
_ANNOTATIONS = frozenset(
    {"allOf", "description", "title", "$comment", "default", "examples", "example",
     "deprecated", "readOnly", "writeOnly"}
)  # fmt: skip


def view_bytes(schema: Unchecked) -> int:
    """About the bytes `schema`'s own keywords take in a view (its text, names and values;
    what it holds counts where it is viewed)."""
    if not is_map(schema):
        return 8
    size = 8
    for key, value in schema.items():
        size += len(key) + 4
        if isinstance(value, str):
            size += len(value)
        elif isinstance(value, list):
            size += sum(len(v) + 3 if isinstance(v, str) else 8 for v in value)
        elif is_map(value) and key == "properties":
            size += sum(len(name) + 4 for name in value)
    return size
