"""S1: reading operations out of an OpenAPI 3.x document.

One `DocumentReader` per document: it resolves local `$ref`s with `referencing` (never
retrieving anything), converts OpenAPI 3.0 schemas to JSON Schema 2020-12 (S1.4), and bundles
every referenced schema into `$defs` under one name (S4.4). Converted components are memoized,
so planning a whole document converts each component once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import NoReturn
from urllib.parse import unquote

from referencing import Registry, Resource
from referencing.exceptions import PointerToNowhere, Unresolvable

from toolshape._dialects import DRAFT2020_12, OPENAPI30, dialect_of
from toolshape._errors import DocumentError, PlanErrorKind
from toolshape._types import (
    PARAMETER_CHANNELS,
    Body,
    Channel,
    Json,
    Operation,
    Parameter,
    Schema,
)

#: The methods a path item may hold, in the order OpenAPI lists them.
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

#: S1.5: header parameters OpenAPI says to ignore; the content type and credentials own them.
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})

#: Keywords whose value is one schema.
_SCHEMA_VALUE = frozenset(
    {
        "additionalProperties",
        "contains",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
        "contentSchema",
    }
)
#: Keywords whose value maps names to schemas.
_SCHEMA_MAP = frozenset(
    {"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
)
#: Keywords whose value is a list of schemas.
_SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})

_BASE_URI = "urn:toolshape:document"
#: Keywords whose values are data, not schemas.
_DATA = frozenset({"enum", "const", "default", "examples", "example"})
_DRAFT2019 = "https://json-schema.org/draft/2019-09/schema"
_COMPONENT = re.compile(r"^/components/schemas/([A-Za-z0-9._-]+)$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_DEFAULT_STYLE: Mapping[Channel, str] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}


class Problem(Exception):
    """A reading failure, before the tool's name is known; `_plan` turns it into a PlanError."""

    def __init__(self, kind: PlanErrorKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def escape(segment: str) -> str:
    """One JSON pointer segment (`/` → `~1`, `~` → `~0`)."""
    return segment.replace("~", "~0").replace("/", "~1")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


@dataclass(frozen=True, slots=True)
class RawOperation:
    """Where an operation sits, before its parameters and bodies are read."""

    path: str
    method: str
    pointer: str
    node: Mapping[str, Json]
    path_parameters: Json
    path_pointer: str
    problem: Problem | None = None
    """Why the path item itself can't be read (a bad `$ref`, not a mapping)."""


class DocumentReader:
    """Reads operations of one document, memoizing converted components (S1)."""

    def __init__(self, document: object, source: str) -> None:
        if not isinstance(document, Mapping):
            raise DocumentError(
                "document",
                f"the document is a {_kind(document)}, not a mapping; "
                "toolshape reads OpenAPI 3.0 and 3.1 documents",
                location=f"{source}#",
            )
        version = document.get("openapi")
        if "swagger" in document and version is None:
            raise DocumentError(
                "document",
                f"the document is Swagger {document.get('swagger')}, which toolshape does not read; "
                "convert it to OpenAPI 3.x first",
                location=f"{source}#/swagger",
            )
        if not isinstance(version, str) or not re.match(r"^3\.[01](\.|$)", version):
            raise DocumentError(
                "document",
                f"the document's `openapi` is {version!r}, not 3.0.x or 3.1.x; "
                "toolshape reads OpenAPI 3.0 and 3.1 documents",
                location=f"{source}#/openapi",
            )
        self.document: Mapping[str, Json] = document
        self.source = source
        self.is_30 = version.startswith("3.0")
        dialect = document.get("jsonSchemaDialect") if not self.is_30 else None
        known = dialect_of(dialect) if isinstance(dialect, str) else None
        self.default_dialect = OPENAPI30 if self.is_30 else (known.uri if known else DRAFT2020_12)
        registry: Registry[Json] = Registry().with_resource(_BASE_URI, Resource.opaque(document))
        self._resolver = registry.resolver(_BASE_URI)
        self._targets: dict[str, Json] = {}
        self._names: dict[str, str] = {}
        self._taken: set[str] = set()
        self._defs: dict[str, tuple[Schema, tuple[str, ...]]] = {}
        self._def_pointer: dict[str, str] = {}
        self._patterns: dict[str, bool] = {}
        self._foreign_seen = False
        self._def_patterns: dict[str, list[str]] = {}
        components = document.get("components")
        schemas = components.get("schemas") if isinstance(components, Mapping) else None
        if isinstance(schemas, Mapping):
            self._taken.update(k for k in schemas if isinstance(k, str))

    # -- locations ---------------------------------------------------------------------------

    def location(self, pointer: str) -> str:
        """`<source>#<pointer>` (S9.3)."""
        return f"{self.source}#{pointer}"

    # -- operations --------------------------------------------------------------------------

    def operations(self) -> Iterator[RawOperation]:
        """Every operation of the document, in document order (S1.6: path keys as written).

        Raises:
            DocumentError: `paths` is not a mapping.
        """
        paths = self.document.get("paths")
        if paths is None:
            return
        if not isinstance(paths, Mapping):
            raise DocumentError(
                "document",
                f"the document's `paths` is a {_kind(paths)}, not a mapping",
                location=self.location("/paths"),
            )
        for path, item in paths.items():
            if not isinstance(path, str):
                continue
            pointer = f"/paths/{escape(path)}"
            try:
                item = self._follow(item, pointer)
            except Problem as problem:
                yield RawOperation(path, "", pointer, {}, None, pointer, problem)
                continue
            if not isinstance(item, Mapping):
                reason = f"the path item `{path}` is a {_kind(item)}, not a mapping"
                yield RawOperation(
                    path, "", pointer, {}, None, pointer, Problem("document", reason)
                )
                continue
            shared = item.get("parameters")
            for method, node in item.items():
                if method not in METHODS:
                    continue
                yield RawOperation(
                    path, method, f"{pointer}/{method}", node, shared, pointer + "/parameters"
                )

    def read(self, raw: RawOperation) -> Operation:
        """Parameters, bodies and bundled `$defs` of one operation (S1).

        Raises:
            Problem: a malformed parameter, a bad reference or a non-schema.
        """
        if raw.problem is not None:
            raise raw.problem
        if not isinstance(raw.node, Mapping):
            self._fail("document", f"the operation is a {_kind(raw.node)}, not a mapping")
        refs: list[str] = []
        params = self._parameters(raw, refs)
        bodies = self._bodies(raw, refs)
        operation_id = raw.node.get("operationId")
        defs = self.bundle(refs)
        foreign: list[str] = []
        if self._foreign_seen:  # only documents with such a pattern pay for the search
            foreign = [
                *(p for param in params for p in self._foreign(param.schema)),
                *(p for body in bodies for p in self._foreign(body.schema)),
                *(p for name in defs for p in self._def_foreign(name)),
            ]
        return Operation(
            path=raw.path,
            method=raw.method,
            operation_id=operation_id if isinstance(operation_id, str) else None,
            parameters=params,
            bodies=bodies,
            defs=defs,
            pointer=raw.pointer,
            extensions={k: v for k, v in raw.node.items() if isinstance(k, str) and k[:2] == "x-"},
            foreign_patterns=tuple(dict.fromkeys(foreign)),
        )

    def _parameters(self, raw: RawOperation, refs: list[str]) -> tuple[Parameter, ...]:
        merged: dict[tuple[str, str], Parameter] = {}
        for listing, base in (
            (raw.path_parameters, raw.path_pointer),
            (raw.node.get("parameters"), raw.pointer + "/parameters"),
        ):
            if listing is None:
                continue
            if not isinstance(listing, list):
                self._fail(
                    "parameter", f"`parameters` at `{base}` is a {_kind(listing)}, not a list"
                )
            for index, entry in enumerate(listing):
                param = self._parameter(entry, f"{base}/{index}", refs)
                if param is not None:
                    # S1.1: the operation's entry wins for the same (name, in).
                    merged[
                        (
                            param.name.lower() if param.channel == "header" else param.name,
                            param.channel,
                        )
                    ] = param
        return tuple(merged.values())

    def _parameter(self, entry: Json, pointer: str, refs: list[str]) -> Parameter | None:
        node = self._follow(entry, pointer)
        if isinstance(entry, Mapping) and isinstance(entry.get("$ref"), str):
            pointer = self._pointer_of(entry["$ref"])
        if not isinstance(node, Mapping):
            self._fail(
                "parameter", f"the parameter at `{pointer}` is a {_kind(node)}, not a mapping"
            )
        name, where = node.get("name"), node.get("in")
        if not isinstance(name, str) or not name:
            self._fail("parameter", f"the parameter at `{pointer}` has no `name`")
        if where not in PARAMETER_CHANNELS:
            shown = (
                "no `in`"
                if where is None
                else f"`in` {where!r}, which is not path, query, header or cookie"
            )
            self._fail("parameter", f"the parameter `{name}` at `{pointer}` has {shown}")
        channel: Channel = where
        if channel == "header" and name.lower() in IGNORED_HEADERS:
            return None  # S1.5
        content_type = None
        if "schema" in node:
            schema = self.schema(node["schema"], pointer + "/schema", refs)
        elif isinstance(node.get("content"), Mapping) and node["content"]:
            content_type, media = next(iter(node["content"].items()))
            media_schema = media.get("schema", {}) if isinstance(media, Mapping) else {}
            schema = self.schema(
                media_schema, f"{pointer}/content/{escape(content_type)}/schema", refs
            )
        else:
            schema = {}
        description = node.get("description")
        explode = node.get("explode")
        style = node.get("style")
        return Parameter(
            name=name,
            channel=channel,
            schema=schema,
            # An unfilled path template can't make a request, so path parameters are required.
            required=channel == "path" or node.get("required") is True,
            description=description if isinstance(description, str) else None,
            style=style if isinstance(style, str) else _DEFAULT_STYLE[channel],
            explode=explode if isinstance(explode, bool) else None,
            allow_reserved=node.get("allowReserved") is True,
            content_type=content_type,
        )

    def _bodies(self, raw: RawOperation, refs: list[str]) -> tuple[Body, ...]:
        entry = raw.node.get("requestBody")
        if entry is None:
            return ()
        pointer = raw.pointer + "/requestBody"
        node = self._follow(entry, pointer)
        if isinstance(entry, Mapping) and isinstance(entry.get("$ref"), str):
            pointer = self._pointer_of(entry["$ref"])
        if not isinstance(node, Mapping):
            self._fail(
                "document", f"the request body at `{pointer}` is a {_kind(node)}, not a mapping"
            )
        content = node.get("content")
        if not isinstance(content, Mapping):
            self._fail("document", f"the request body at `{pointer}` has no `content` mapping")
        bodies = []
        for content_type, media in content.items():
            media_pointer = f"{pointer}/content/{escape(str(content_type))}"
            if not isinstance(media, Mapping):
                self._fail("document", f"the media type at `{media_pointer}` is not a mapping")
            schema: Schema | None = None
            dialect = self.default_dialect
            if "schema" in media:
                schema = self.root_schema(media["schema"], media_pointer + "/schema", refs)
                declared = schema.get("$schema") if isinstance(schema, Mapping) else None
                if isinstance(declared, str):
                    known = dialect_of(declared)
                    dialect = known.uri if known else DRAFT2020_12
            bodies.append(
                Body(
                    content_type=str(content_type),
                    schema=schema,
                    required=node.get("required") is True,
                    dialect=dialect,
                )
            )
        return tuple(bodies)

    # -- references --------------------------------------------------------------------------

    def _fail(self, kind: PlanErrorKind, reason: str) -> NoReturn:
        raise Problem(kind, reason)

    def _pointer_of(self, ref: str) -> str:
        """The JSON pointer a local `$ref` names (S1.2: anything else is refused)."""
        if not ref.startswith("#"):
            self._fail(
                "reference",
                f"reference `{ref}` is not local to the document; "
                "toolshape never retrieves anything, so bundle it into the document",
            )
        pointer = unquote(ref[1:])
        if pointer and not pointer.startswith("/"):
            self._fail("reference", f"reference `{ref}` is an anchor, not a JSON pointer")
        if not pointer:
            self._fail("reference", f"reference `{ref}` points at the document root, not a schema")
        return pointer

    def _lookup(self, pointer: str, ref: str) -> Json:
        if pointer not in self._targets:
            try:
                self._targets[pointer] = self._resolver.lookup("#" + pointer).contents
            except (PointerToNowhere, Unresolvable, ValueError, LookupError):
                self._targets[pointer] = self._walk_through_refs(pointer, ref)
        return self._targets[pointer]

    def _walk_through_refs(self, pointer: str, ref: str) -> Json:
        """A pointer that passes through a `$ref` on its way (found in real documents):
        follow each `$ref` met mid-way, as OpenAPI tooling commonly does."""
        node: Json = self.document
        for raw in pointer.split("/")[1:]:
            segment = raw.replace("~1", "/").replace("~0", "~")
            hops = 0
            while (
                isinstance(node, Mapping)
                and segment not in node
                and isinstance(node.get("$ref"), str)
            ):
                hops += 1
                if hops > 64 or not node["$ref"].startswith("#/"):
                    break
                node = self._lookup(self._pointer_of(node["$ref"]), ref)
            if isinstance(node, Mapping) and segment in node:
                node = node[segment]
            elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
                node = node[int(segment)]
            else:
                self._fail("reference", f"reference `{ref}` points to nothing in the document")
        return node

    def _follow(self, node: Json, pointer: str) -> Json:
        """Follow a chain of `$ref`-only mappings to what they name (S1.3), refusing cycles."""
        seen = [pointer]
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            target = self._pointer_of(ref)
            if target in seen:
                chain = " → ".join(f"`#{p}`" for p in [*seen[1:], target])
                self._fail("reference", f"reference cycle {chain} never reaches a value")
            seen.append(target)
            node = self._lookup(target, ref)
        return node

    def def_name(self, pointer: str) -> str:
        """The `$defs` name of the schema at `pointer` (S4.4): a component keeps its name."""
        name = self._names.get(pointer)
        if name is None:
            match = _COMPONENT.match(pointer)
            if match:
                name = match.group(1)
            else:
                base = _UNSAFE.sub("_", pointer.strip("/").replace("~1", "_").replace("~0", "_"))
                name, count = base, 1
                while name in self._taken:
                    count += 1
                    name = f"{base}_{count}"
            self._taken.add(name)
            self._names[pointer] = name
            self._def_pointer[name] = pointer
        return name

    def _def(self, name: str) -> tuple[Schema, tuple[str, ...]]:
        cached = self._defs.get(name)
        if cached is None:
            pointer = self._def_pointer[name]
            target = self._lookup(pointer, "#" + pointer)
            refs: list[str] = []
            cached = (self.schema(target, pointer, refs), tuple(dict.fromkeys(refs)))
            self._defs[name] = cached
        return cached

    def bundle(self, refs: list[str]) -> dict[str, Schema]:
        """Every schema `refs` reach, transitively, by `$defs` name in first-reached order."""
        out: dict[str, Schema] = {}
        queue = list(dict.fromkeys(refs))
        while queue:
            name = queue.pop(0)
            if name in out:
                continue
            schema, more = self._def(name)
            out[name] = schema
            queue.extend(n for n in more if n not in out)
        for name in out:
            self._check_alias_cycle(name, out)
        return out

    def _check_alias_cycle(self, name: str, defs: Mapping[str, Schema]) -> None:
        seen = [name]
        schema = defs[name]
        while isinstance(schema, Mapping) and len(schema) == 1 and "$ref" in schema:
            target = str(schema["$ref"]).removeprefix("#/$defs/")
            if target in seen:
                chain = " → ".join(f"`#{self._def_pointer[n]}`" for n in [*seen, target])
                self._fail("reference", f"reference cycle {chain} never reaches a schema")
            seen.append(target)
            schema = defs.get(target)

    # -- patterns ----------------------------------------------------------------------------

    def _compiles(self, pattern: str) -> bool:
        known = self._patterns.get(pattern)
        if known is None:
            try:
                re.compile(pattern)
                known = True
            except re.error:
                known = False
            self._patterns[pattern] = known
        return known

    def _foreign(self, schema: Schema) -> list[str]:
        """Patterns in `schema` (not following `$ref`s) that Python's `re` can't compile."""
        found: list[str] = []
        stack: list[Json] = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, Mapping):
                pattern = node.get("pattern")
                if isinstance(pattern, str) and not self._compiles(pattern):
                    found.append(pattern)
                keyed = node.get("patternProperties")
                if isinstance(keyed, Mapping):
                    found.extend(k for k in keyed if isinstance(k, str) and not self._compiles(k))
                stack.extend(
                    v for k, v in node.items() if k not in _DATA and isinstance(v, (Mapping, list))
                )
            elif isinstance(node, list):
                stack.extend(v for v in node if isinstance(v, (Mapping, list)))
        return found

    def _def_foreign(self, name: str) -> list[str]:
        found = self._def_patterns.get(name)
        if found is None:
            found = self._def_patterns[name] = self._foreign(self._defs[name][0])
        return found

    # -- schemas -----------------------------------------------------------------------------

    def root_schema(self, node: Json, pointer: str, refs: list[str]) -> Schema:
        """A body schema with S1.3 applied: a `$ref`-only root is replaced by its target."""
        chain: list[str] = []
        while isinstance(node, Mapping) and len(node) == 1 and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            target = self._pointer_of(ref)
            if target in chain:
                shown = " → ".join(f"`#{p}`" for p in [*chain, target])
                self._fail("reference", f"reference cycle {shown} never reaches a schema")
            chain.append(target)
            node = self._lookup(target, ref)
        if not chain:
            return self.schema(node, pointer, refs)
        schema, more = self._def(self.def_name(chain[-1]))
        refs.extend(more)
        return schema

    def schema(self, node: Json, pointer: str, refs: list[str]) -> Schema:
        """`node` as a 2020-12 schema with local refs pointing into `$defs` (S1.4, S4.4).

        Raises:
            Problem: a value that is not a schema, a bad reference, or nesting too deep.
        """
        try:
            return self._schema(node, pointer, refs)
        except RecursionError:
            self._fail("schema", f"the schema at `{pointer}` is nested too deeply to plan")

    def _schema(self, node: Json, pointer: str, refs: list[str]) -> Schema:
        if isinstance(node, bool):
            return node  # S1.4: true / false are schemas, copied unchanged.
        if not isinstance(node, Mapping):
            self._fail("schema", f"expected a schema at `{pointer}`, found a {_kind(node)}")
        out: dict[str, Json] = {}
        for key, value in node.items():
            if key in _SCHEMA_VALUE or (key == "items" and not isinstance(value, list)):
                out[key] = self._schema(value, f"{pointer}/{key}", refs)
            elif key in _SCHEMA_MAP and isinstance(value, Mapping):
                if key == "patternProperties" and not all(self._compiles(str(k)) for k in value):
                    self._foreign_seen = True
                base = f"{pointer}/{escape(key)}"
                out[key] = {
                    k: self._schema(v, f"{base}/{escape(k)}", refs) for k, v in value.items()
                }
            elif (key in _SCHEMA_LIST or key == "items") and isinstance(value, list):
                out[key] = [
                    self._schema(v, f"{pointer}/{key}/{i}", refs) for i, v in enumerate(value)
                ]
            elif key == "$ref" and isinstance(value, str):
                out[key] = self._ref(value, refs)
            elif key == "pattern" and isinstance(value, str):
                out[key] = value
                if not self._compiles(value):
                    self._foreign_seen = True
            elif key == "$dynamicRef" and isinstance(value, str) and value.startswith("#/"):
                # A pointer (not an anchor) behaves like `$ref`, so it is bundled the same way.
                out[key] = self._ref(value, refs)
            elif key == "dependencies" and isinstance(value, Mapping):
                out[key] = {
                    k: v
                    if isinstance(v, list)
                    else self._schema(v, f"{pointer}/dependencies/{k}", refs)
                    for k, v in value.items()
                }
            elif (
                key == "discriminator"
                and isinstance(value, Mapping)
                and isinstance(value.get("mapping"), Mapping)
            ):
                mapping = {
                    k: self._ref(v, refs) if isinstance(v, str) and v.startswith("#") else v
                    for k, v in value["mapping"].items()
                }
                out[key] = {**value, "mapping": mapping}
            else:
                out[key] = value
        return _convert_30(out) if self.is_30 else _repair_31(out)

    def _ref(self, ref: str, refs: list[str]) -> str:
        pointer = self._pointer_of(ref)
        self._lookup(pointer, ref)
        name = self.def_name(pointer)
        refs.append(name)
        return "#/$defs/" + escape(name)


def _repair_exclusive(out: dict[str, Json]) -> None:
    """S1.4: boolean `exclusiveMinimum`/`exclusiveMaximum` (the 3.0 form) → 2020-12 numbers."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(flag)
        if isinstance(value, bool):
            del out[flag]
            if value and bound in out:
                out[flag] = out.pop(bound)


def _repair_31(out: dict[str, Json]) -> dict[str, Json]:
    if isinstance(out.get("exclusiveMinimum"), bool) or isinstance(
        out.get("exclusiveMaximum"), bool
    ):
        _repair_exclusive(out)
    if isinstance(out.get("$recursiveAnchor"), bool) and out.get("$schema") != _DRAFT2019:
        # A 2019-09 form, invalid in 2020-12 where it has no meaning (docs/decisions.md).
        del out["$recursiveAnchor"]
    return out


#: Keywords that, without `type`, still constrain a value: `nullable` must then wrap them.
_NEEDS_WRAP = frozenset({"$ref", "allOf", "anyOf", "oneOf", "not", "enum", "const"})


def _convert_30(out: dict[str, Json]) -> dict[str, Json]:
    """S1.4: an OpenAPI 3.0 schema object as JSON Schema 2020-12."""
    if "exclusiveMinimum" in out or "exclusiveMaximum" in out:
        _repair_exclusive(out)
    if "example" in out:
        example = out.pop("example")
        out.setdefault("examples", [example])
    if "nullable" not in out:
        return out
    nullable = out.pop("nullable")
    if nullable is not True:
        return out
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list):
        out["type"] = kind if "null" in kind else [*kind, "null"]
    elif any(k in out for k in _NEEDS_WRAP):
        return {"anyOf": [out, {"type": "null"}]}
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out
