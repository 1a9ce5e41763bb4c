"""S20.3: a Swagger 2.0 document read as OpenAPI 3.0 — a pure conversion before planning.

`convert_swagger` returns the 3.0 document, the `basePath` requests are sent under, the
planning errors of operations that use a 2.0 construct 3.0 can't express (`tsv`,
`allowEmptyValue` on a body), and `origins`: how a pointer into the 3.0 document reads in the
2.0 text, so every message still points into what the user wrote.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolshape.model._json import Unchecked, is_map
from toolshape.model._limits import MAX_DEPTH
from toolshape.model._pointers import escape
from toolshape.read._problem import Problem

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch")
#: A 2.0 parameter's keywords that describe its value: they move into its 3.0 `schema`.
_SCHEMA_KEYS = (
    "type",
    "format",
    "items",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "enum",
    "multipleOf",
)
#: Where shared 2.0 parts move in 3.0, as `$ref` prefixes and as pointers.
_MOVED = (
    ("#/definitions/", "#/components/schemas/"),
    ("#/parameters/", "#/components/parameters/"),
    ("#/responses/", "#/components/responses/"),
)
_COMPONENT_ORIGINS = (
    ("/components/schemas", "/definitions"),
    ("/components/parameters", "/parameters"),
    ("/components/responses", "/responses"),
    ("/components/securitySchemes", "/securityDefinitions"),
)
_POINTER = re.compile(r"/(?:paths|components)/[^\s`'\"()]*")
_FLOWS = {
    "implicit": ("implicit", ("authorizationUrl",)),
    "password": ("password", ("tokenUrl",)),
    "application": ("clientCredentials", ("tokenUrl",)),
    "accessCode": ("authorizationCode", ("authorizationUrl", "tokenUrl")),
}


def is_swagger2(document: Unchecked) -> bool:
    """Whether `document` says it is Swagger 2.0 (`swagger: "2.0"`)."""
    return is_map(document) and str(document.get("swagger")) == "2.0"


@dataclass(frozen=True, slots=True)
class Converted:
    """A Swagger 2.0 document as OpenAPI 3.0, and what planning needs besides (S20.3)."""

    document: dict[str, Unchecked]
    base_path: str
    """`basePath`, normalized: `""` or `/v1` (no trailing `/`), prefixed to every request path."""
    problems: Mapping[str, Problem] = field(default_factory=dict)
    """Planning errors by operation pointer: what 3.0 can't express."""
    origins: Mapping[str, str] = field(default_factory=dict)
    """A 3.0 pointer → the 2.0 pointer it came from."""
    bare: tuple[str, ...] = ()
    """The bare references (`"$ref": "Category"`) read as definitions, sorted."""

    def origin(self, text: str) -> str:
        """`text` with every pointer into the 3.0 document read as the 2.0 one (the longest
        known prefix of each)."""
        return _POINTER.sub(lambda m: self._pointer(m.group()), text) if self.origins else text

    def _pointer(self, pointer: str) -> str:
        head, tail = pointer, ""
        while head:
            found = self.origins.get(head)
            if found is not None:
                return found + tail
            head, sep, last = head.rpartition("/")
            tail = sep + last + tail
        return pointer


def base_path_of(value: Unchecked) -> str:
    """S20.3: `basePath` as the prefix of request paths, joined with exactly one `/`."""
    if not isinstance(value, str):
        return ""
    base = value.strip().rstrip("/")
    return base if not base or base.startswith("/") else "/" + base


def convert_swagger(document: Mapping[str, Unchecked]) -> Converted:
    """The OpenAPI 3.0 reading of a Swagger 2.0 `document` (S20.3): what can't be converted is
    a problem of the operations using it.

    Raises:
        Cycle: the (parsed) document holds an object inside itself.
    """
    converter = _Converter(document)
    return converter.run()


class _Converter:
    def __init__(self, document: Mapping[str, Unchecked]) -> None:
        self.doc = document
        self.consumes = _media_list(document.get("consumes"))
        self.produces = _media_list(document.get("produces"))
        shared = document.get("parameters")
        self.shared: Mapping[str, Unchecked] = shared if is_map(shared) else {}
        self.problems: dict[str, Problem] = {}
        self.origins: dict[str, str] = dict(_COMPONENT_ORIGINS)
        self.shared_problems: dict[str, str] = {}
        self.copies: dict[int, Unchecked] = {}  # each sub-object copied once (S14.4)
        definitions = document.get("definitions")
        self.refs = _Refs(frozenset(definitions) if is_map(definitions) else frozenset())

    def _copy(self, value: Unchecked) -> Unchecked:
        """`_refs` of `value`, sharing the copies of one conversion."""
        return _refs(value, self.refs, self.copies)

    def run(self) -> Converted:
        doc = self.doc
        out: dict[str, Unchecked] = {"openapi": "3.0.3"}
        skip = {
            "swagger", "host", "basePath", "schemes", "consumes", "produces", "definitions",
            "parameters", "responses", "securityDefinitions", "paths",
        }  # fmt: skip
        for key, value in doc.items():
            if key not in skip:
                out[key] = self._copy(value)
        host = doc.get("host")
        if isinstance(host, str) and host:
            schemes = doc.get("schemes")
            if not isinstance(schemes, list) or not schemes:
                schemes = ["https"]
            base = base_path_of(doc.get("basePath"))
            out["servers"] = [
                {"url": f"{scheme}://{host}{base}"} for scheme in schemes if isinstance(scheme, str)
            ]
        components: dict[str, Unchecked] = {}
        definitions = doc.get("definitions")
        if is_map(definitions):
            components["schemas"] = {name: self._copy(s) for name, s in definitions.items()}
        parameters = {}
        for name, param in self.shared.items():
            if is_map(param) and param.get("in") not in ("body", "formData"):
                converted = self._parameter(param, f"/parameters/{escape(str(name))}")
                if isinstance(converted, str):
                    self.shared_problems[str(name)] = converted
                else:
                    parameters[name] = converted
        if parameters:
            components["parameters"] = parameters
        responses = doc.get("responses")
        if is_map(responses):
            components["responses"] = {
                name: self._response(r, self.produces or ["application/json"])
                for name, r in responses.items()
            }
        security = doc.get("securityDefinitions")
        if is_map(security):
            components["securitySchemes"] = {
                name: _scheme(s) for name, s in security.items() if is_map(s)
            }
        if components:
            out["components"] = components
        paths = doc.get("paths")
        if is_map(paths):
            out["paths"] = {path: self._path_item(path, item) for path, item in paths.items()}
        elif paths is not None:
            out["paths"] = paths
        return Converted(
            out,
            base_path_of(doc.get("basePath")),
            self.problems,
            self.origins,
            tuple(sorted(self.refs.bare)),
        )

    # -- paths and operations ----------------------------------------------------------------

    def _path_item(self, path: Unchecked, item: Unchecked) -> Unchecked:
        if not is_map(item) or "$ref" in item:
            return self._copy(item)
        pointer = f"/paths/{escape(str(path))}"
        shared = item.get("parameters")
        out: dict[str, Unchecked] = {}
        for key, value in item.items():
            if key in _METHODS and is_map(value):
                out[key] = self._operation(value, f"{pointer}/{key}", shared, pointer)
            elif key != "parameters":
                out[key] = self._copy(value)
        return out

    def _operation(
        self, op: Mapping[str, Unchecked], pointer: str, shared: Unchecked, item_pointer: str
    ) -> dict[str, Unchecked]:
        out: dict[str, Unchecked] = {}
        for key, value in op.items():
            if key not in ("parameters", "responses", "consumes", "produces", "schemes"):
                out[key] = self._copy(value)
        merged = self._merged(shared, item_pointer, op.get("parameters"), pointer)
        params: list[Unchecked] = []
        bodies: list[tuple[Mapping[str, Unchecked], str]] = []
        form: list[tuple[Mapping[str, Unchecked], str]] = []
        for entry, resolved, where in merged:
            kind = resolved.get("in") if is_map(resolved) else None
            if kind == "body":
                bodies.append((resolved, where))
            elif kind == "formData":
                form.append((resolved, where))
            elif not is_map(resolved) or (is_map(entry) and isinstance(entry.get("$ref"), str)):
                # A shared parameter (a `$ref`), or one that is no object: as written, for
                # the 3.0 reader to read, or to refuse by S1.1.
                name = _shared_name(entry["$ref"]) if is_map(entry) else None
                if name is not None and name in self.shared_problems:
                    self._problem(pointer, self.shared_problems[name])
                self.origins[f"{pointer}/parameters/{len(params)}"] = where
                params.append(self._copy(entry))
            else:
                converted = self._parameter(resolved, where)
                if isinstance(converted, str):
                    self._problem(pointer, converted)
                    continue
                self.origins[f"{pointer}/parameters/{len(params)}"] = where
                params.append(converted)
        if params:
            out["parameters"] = params
        consumes = _media_list(op.get("consumes")) or self.consumes or ["application/json"]
        if bodies and form:
            self._problem(pointer, "it has both a `body` and `formData` parameters")
        elif len(bodies) > 1:
            self._problem(pointer, "it has more than one `body` parameter")
        elif bodies:
            out["requestBody"] = self._body(*bodies[0], consumes, pointer)
        elif form:
            body = self._form(form, consumes, pointer)
            if body is not None:
                out["requestBody"] = body
        produces = _media_list(op.get("produces")) or self.produces or ["application/json"]
        responses = op.get("responses")
        if is_map(responses):
            out["responses"] = {
                code: self._response(r, produces, f"{pointer}/responses/{escape(str(code))}")
                for code, r in responses.items()
            }
        elif responses is not None:
            out["responses"] = responses
        return out

    def _merged(
        self, shared: Unchecked, item_pointer: str, own: Unchecked, pointer: str
    ) -> list[tuple[Unchecked, Unchecked, str]]:
        """The path item's parameters with the operation's over them (by name and `in`), each
        as written, resolved, and where it is written."""
        found: dict[tuple[object, object], tuple[Unchecked, Unchecked, str]] = {}
        for entries, base in ((shared, item_pointer), (own, pointer)):
            if not isinstance(entries, list):
                continue
            for index, entry in enumerate(entries):
                resolved, where = entry, f"{base}/parameters/{index}"
                if is_map(entry) and isinstance(entry.get("$ref"), str):
                    name = _shared_name(entry["$ref"])
                    if name is not None and name in self.shared:
                        resolved = self.shared[name]
                        where = f"/parameters/{escape(name)}"
                key = _identity(entry, resolved)
                found[key] = (entry, resolved, where)
        return list(found.values())

    def _problem(self, pointer: str, reason: str) -> None:
        self.problems.setdefault(pointer, Problem("parameter", reason, "S20.3"))

    # -- parameters --------------------------------------------------------------------------

    def _parameter(self, param: Mapping[str, Unchecked], where: str) -> dict[str, Unchecked] | str:
        """A query, path, header or cookie parameter as 3.0, or why 3.0 can't express it."""
        out: dict[str, Unchecked] = {}
        for key, value in param.items():
            if key in (
                "name",
                "in",
                "description",
                "required",
                "allowEmptyValue",
                "deprecated",
            ) or (isinstance(key, str) and key.startswith("x-")):
                out[key] = value
        out["schema"] = _value_schema(param)
        if param.get("type") == "array":
            style = _collection(param, where, body=False)
            if isinstance(style, str):
                return style
            out.update(style)
        return out

    def _body(
        self, param: Mapping[str, Unchecked], where: str, consumes: list[str], pointer: str
    ) -> dict[str, Unchecked]:
        if "allowEmptyValue" in param:
            self._problem(pointer, _empty_value(param, where))
        schema = self._copy(param.get("schema", {}))
        out: dict[str, Unchecked] = {
            "content": {media: {"schema": schema} for media in consumes},
            "required": param.get("required") is True,
        }
        if isinstance(param.get("description"), str):
            out["description"] = param["description"]
        out.update({k: v for k, v in param.items() if isinstance(k, str) and k.startswith("x-")})
        self.origins[f"{pointer}/requestBody"] = where
        for media in consumes:
            self.origins[f"{pointer}/requestBody/content/{escape(media)}/schema"] = (
                f"{where}/schema"
            )
        return out

    def _form(
        self,
        params: Sequence[tuple[Mapping[str, Unchecked], str]],
        consumes: list[str],
        pointer: str,
    ) -> dict[str, Unchecked] | None:
        """`formData` parameters as one object body: multipart with a file (or when `consumes`
        says so), else form-urlencoded; `collectionFormat` as the `encoding` entries."""
        multipart = "multipart/form-data" in consumes or any(
            p.get("type") == "file" for p, _ in params
        )
        media = "multipart/form-data" if multipart else "application/x-www-form-urlencoded"
        properties: dict[str, Unchecked] = {}
        required: list[str] = []
        encoding: dict[str, Unchecked] = {}
        at = f"{pointer}/requestBody/content/{escape(media)}/schema/properties"
        for param, where in params:
            name = str(param.get("name"))
            if "allowEmptyValue" in param:
                self._problem(pointer, _empty_value(param, where))
                return None
            member = _value_schema(param)
            if isinstance(param.get("description"), str):
                member["description"] = param["description"]
            properties[name] = member
            self.origins[f"{at}/{escape(name)}"] = where
            if param.get("required") is True:
                required.append(name)
            if param.get("type") == "array":
                style = _collection(param, where, body=True)
                if isinstance(style, str):
                    self._problem(pointer, style)
                    return None
                encoding[name] = style
        schema: dict[str, Unchecked] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        content: dict[str, Unchecked] = {"schema": schema}
        if encoding:
            content["encoding"] = encoding
        self.origins[f"{pointer}/requestBody"] = f"{pointer}/parameters"
        return {"content": {media: content}, "required": bool(required)}

    # -- responses ---------------------------------------------------------------------------

    def _response(
        self, response: Unchecked, produces: list[str], pointer: str | None = None
    ) -> Unchecked:
        if not is_map(response) or "$ref" in response:
            return self._copy(response)
        out: dict[str, Unchecked] = {"description": response.get("description", "")}
        if "schema" in response:
            schema = self._copy(response["schema"])
            out["content"] = {media: {"schema": schema} for media in produces}
            if pointer is not None:
                for media in produces:
                    self.origins[f"{pointer}/content/{escape(media)}/schema"] = f"{pointer}/schema"
        headers = response.get("headers")
        if is_map(headers):
            out["headers"] = {
                name: {
                    **({"description": h["description"]} if "description" in h else {}),
                    "schema": _value_schema(h),
                }
                for name, h in headers.items()
                if is_map(h)
            }
        out.update({k: v for k, v in response.items() if isinstance(k, str) and k.startswith("x-")})
        return out


# -- helpers ---------------------------------------------------------------------------------


def _identity(entry: Unchecked, resolved: Unchecked) -> tuple[object, object]:
    """What makes two parameters the same (S1.1: `name` and `in`), text only: a name or place
    of another type is its own parameter (and the 3.0 reader refuses it)."""
    if is_map(resolved):
        name, where = resolved.get("name"), resolved.get("in")
        if isinstance(name, str) and isinstance(where, str):
            return name, where
    return id(entry), None


def _media_list(value: Unchecked) -> list[str]:
    return [m for m in value if isinstance(m, str)] if isinstance(value, list) else []


def _shared_name(ref: str) -> str | None:
    return (
        ref[len("#/parameters/") :].replace("~1", "/").replace("~0", "~")
        if ref.startswith("#/parameters/")
        else None
    )


def _value_schema(param: Mapping[str, Unchecked], depth: int = 0) -> dict[str, Unchecked]:
    """A 2.0 parameter's (or header's, or items') value keywords as a schema; `type: file` is
    a binary string. Past `MAX_DEPTH` nested `items` the rest is left as written (planning
    then refuses it as too deep, S14.4)."""
    if param.get("type") == "file":
        return {"type": "string", "format": "binary"}
    if depth > MAX_DEPTH:
        return dict(param)
    schema: dict[str, Unchecked] = {}
    for key in _SCHEMA_KEYS:
        if key in param:
            value = param[key]
            nested = key == "items" and is_map(value)
            schema[key] = _value_schema(value, depth + 1) if nested else value
    return schema


def _collection(
    param: Mapping[str, Unchecked], where: str, *, body: bool
) -> dict[str, Unchecked] | str:
    """S20.3: `collectionFormat` as style and explode, or why 3.0 can't express it."""
    kind = param.get("in")
    form = "form" if body or kind in ("query", "cookie") else "simple"
    found = param.get("collectionFormat", "csv")
    if found == "csv":
        return {"style": form, "explode": False}
    if found == "multi" and (body or kind == "query"):
        return {"style": "form", "explode": True}
    if found in ("ssv", "pipes") and (body or kind == "query"):
        return {"style": "spaceDelimited" if found == "ssv" else "pipeDelimited", "explode": False}
    name = param.get("name")
    if found in ("ssv", "pipes", "multi"):
        return (
            f"the {kind} parameter `{name}` at `{where}` has collectionFormat `{found}`, which "
            f"OpenAPI 3 allows only for query parameters. Use `csv`"
        )
    return (
        f"the parameter `{name}` at `{where}` has collectionFormat `{found}`, which OpenAPI 3 "
        "can't express (it has no tab-separated style). Use `csv`, `ssv`, `pipes` or `multi`"
        if found == "tsv"
        else f"the parameter `{name}` at `{where}` has collectionFormat {found!r}, which is not "
        "a Swagger 2.0 collectionFormat"
    )


def _empty_value(param: Mapping[str, Unchecked], where: str) -> str:
    return (
        f"the {param.get('in')} parameter `{param.get('name')}` at `{where}` has "
        "`allowEmptyValue`, which OpenAPI 3 has only for query parameters, not for a request "
        "body's fields. Remove it"
    )


def _scheme(scheme: Mapping[str, Unchecked]) -> dict[str, Unchecked]:
    """A 2.0 security definition as a 3.0 security scheme."""
    kind = scheme.get("type")
    extra = {k: v for k, v in scheme.items() if k == "description" or str(k).startswith("x-")}
    if kind == "basic":
        return {"type": "http", "scheme": "basic", **extra}
    if kind == "oauth2":
        flow, urls = _FLOWS.get(str(scheme.get("flow")), ("implicit", ("authorizationUrl",)))
        details: dict[str, Unchecked] = {url: scheme.get(url, "") for url in urls}
        details["scopes"] = scheme.get("scopes") or {}
        return {"type": "oauth2", "flows": {flow: details}, **extra}
    return dict(scheme)  # apiKey (and anything else) as written


class _Refs:
    """How the conversion rewrites a `$ref`: into `components` (`_MOVED`), and a bare
    definition name (`"Category"`, which older 2.0 tools wrote) as that definition."""

    def __init__(self, definitions: frozenset[str]) -> None:
        self.definitions = definitions
        self.bare: set[str] = set()

    def __call__(self, value: str) -> str:
        for old, new in _MOVED:
            if value.startswith(old):
                return new + value[len(old) :]
        if value in self.definitions and not value.startswith("#") and "/" not in value:
            self.bare.add(value)
            return "#/components/schemas/" + escape(value)
        return value


class Cycle(Exception):
    """The document holds an object inside itself (only a parsed object can: JSON can't)."""


def _refs(value: Any, ref: Callable[[str], str], copies: dict[int, Any] | None = None) -> Any:
    """A copy of `value` with every `$ref` rewritten by `ref` (into `components`), and 2.0's `discriminator: <name>` as 3.0's `{"propertyName": <name>}`. Iterative: any
    depth. Each shared sub-object (a YAML anchor's) is copied once, shared again in the copy
    (`copies`, by the original's id, across one conversion: S14.4, cost linear in the
    document's size).

    Raises:
        Cycle: an object holds itself.
    """
    copies = {} if copies is None else copies
    if not is_map(value) and not isinstance(value, list):
        return value
    if id(value) in copies:
        return copies[id(value)]
    root: Any = {} if is_map(value) else []
    copies[id(value)] = root
    # Depth first, each frame an object being copied: its children, where they go, and its
    # ancestors' ids (an object met among its own ancestors is a cycle).
    stack: list[tuple[Any, Any, Any]] = [(value, root, iter(_children(value)))]
    open_ids = {id(value)}
    while stack:
        source, target, children = stack[-1]
        step = next(children, None)
        if step is None:
            stack.pop()
            open_ids.discard(id(source))
            continue
        key, item = step
        if key == "$ref" and isinstance(item, str) and is_map(source):
            item = ref(item)
        elif key == "discriminator" and isinstance(item, str) and is_map(source):
            item = {"propertyName": item}
        elif is_map(item) or isinstance(item, list):
            if id(item) in open_ids:
                raise Cycle(str(key))
            known = copies.get(id(item))
            if known is None:
                known = {} if is_map(item) else []
                copies[id(item)] = known
                stack.append((item, known, iter(_children(item))))
                open_ids.add(id(item))
            item = known
        if isinstance(target, dict):
            target[key] = item
        else:
            target.append(item)
    return root


def _children(node: Any) -> Any:
    return node.items() if is_map(node) else enumerate(node)
