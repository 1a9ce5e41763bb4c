"""S22: the one walker every model view is made by — a schema's view and how it reads back
(S22.3) — with the hooks each view sets (`Strict`, `Gemini`, a new model API's).

The walker decides what a schema is, in one order for every view: untyped, a reference, an
`allOf` to fold, a union, then its declared types (a type list, or one type and `null`); and for
an object, whether it is free-form (its JSON text), a map (key and value pairs) or an object of
properties. A view says what it does at each of those places; it never walks by itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._types import Wrapped
from toolshape.views._read import Read
from toolshape.views._shapes import (
    declared_kinds,
    description_of,
    folded,
    json_text,
    object_kind,
    pairs_of,
    typed,
    union_key,
)

Path = tuple[str, ...]
"""The definitions followed by reference to the schema being viewed, outermost first."""


class Walker:
    """One tool's view under construction: `view(schema, where)` gives a schema's view and its
    reading; the methods below `view` are the hooks a view sets."""

    def __init__(self, root: Mapping[str, Unchecked]) -> None:
        defs = root.get("$defs")
        self.defs: Mapping[str, Unchecked] = defs if is_map(defs) else {}
        self.reasons: list[str] = []
        """Why the view could not take the document's schema as it is, each located."""
        self.nulls: dict[str, bool] = {}
        self.kinds: dict[int, tuple[Json, set[str]]] = {}
        """What `accepts_null` and `by_kind` found of each definition (S14.4: each once)."""

    def view(self, schema: Unchecked, where: str, path: Path = ()) -> tuple[Json, Read]:
        """The view of `schema` (at JSON pointer `where`, reached through the references
        `path`) and its reading."""
        self.enter(schema)
        if not typed(schema):
            return self.untyped(schema, where, path)
        assert is_map(schema)
        if "$ref" in schema:
            return self.ref(schema, where, path)
        taken = self.fold(schema)
        if isinstance(taken, Wrapped):
            return self.unmerged(schema, taken, where, path)
        if taken is not None:
            return self.view(taken, where, path)
        return self.shaped(schema, where, path)

    def shaped(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        """The view of a typed schema with no reference or `allOf` left: a union, else its
        declared types."""
        union = union_key(schema)
        if union is not None and "type" not in schema:
            return self.union(schema, schema[union], where, path)
        kinds = declared_kinds(schema)
        core = [kind for kind in kinds if kind != "null"]
        return self.kinded(schema, core, len(core) < len(kinds), where, path)

    def object(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        """S22.2: an object's view: a free-form object is its JSON text, a map its key and
        value pairs, and an object of properties as `properties` says."""
        shape = object_kind(schema)
        text = description_of(schema)
        if shape == "free":
            return json_text(text), Read("json")
        if shape == "map":
            value, read = self.view(
                schema["additionalProperties"], f"{where}/additionalProperties", path
            )
            return pairs_of(value, text), Read("pairs", inner=read)
        return self.properties(schema, shape == "closed", where, path)

    def refuse(self, where: str, why: str) -> tuple[Json, Read]:
        """What can't be viewed: a reason, and `{}` in the view's place."""
        self.reasons.append(f"{where or '/'}: {why}")
        return {}, Read()

    # -- the hooks ---------------------------------------------------------------------------

    def enter(self, schema: Unchecked) -> None:
        """Each schema viewed, before anything else (a budget counts it)."""

    def untyped(self, schema: Unchecked, where: str, path: Path) -> tuple[Json, Read]:
        """A schema that says no kind (`{}`, `true`, annotations only)."""
        raise NotImplementedError

    def fold(self, schema: Mapping[str, Unchecked]) -> Unchecked:
        """S22.2: the schema an `allOf` folds into (`folded`): None for none, `Wrapped` when
        its branches can't be merged. A view that keeps `allOf` as written folds nothing."""
        return folded(schema, self.defs)

    def ref(self, schema: Mapping[str, Unchecked], where: str, path: Path) -> tuple[Json, Read]:
        """A `$ref` to a definition."""
        raise NotImplementedError

    def unmerged(
        self, schema: Mapping[str, Unchecked], why: Wrapped, where: str, path: Path
    ) -> tuple[Json, Read]:
        """An `allOf` whose branches can't be merged (S6.1's reason in `why`)."""
        raise NotImplementedError

    def union(
        self, schema: Mapping[str, Unchecked], branches: list[Unchecked], where: str, path: Path
    ) -> tuple[Json, Read]:
        """`anyOf` or `oneOf` without a `type` beside it; `schema` gives its description."""
        raise NotImplementedError

    def kinded(
        self, schema: Mapping[str, Unchecked], core: list[str], null: bool, where: str, path: Path
    ) -> tuple[Json, Read]:
        """A schema of the types `core` (none: an `enum` or `const` alone), `null` too when
        `null` is true."""
        raise NotImplementedError

    def properties(
        self, schema: Mapping[str, Unchecked], closed: bool, where: str, path: Path
    ) -> tuple[JsonObject, Read]:
        """An object of properties (`closed`: no key allowed at all)."""
        raise NotImplementedError
