"""S1: reading operations out of an OpenAPI 3.x document.

One `DocumentReader` per document: it walks the paths (S1.6), merges each operation's parameters
(S1.1, S1.5) and reads its request bodies (S1.3, S8.2), leaving every schema to its `Bundler`
(S1.2, S1.4, S4.4). Whatever a request could not carry intact is refused here, as a planning error
of the operation: a path parameter the template does not hold, a template variable no parameter
fills, a header name HTTP can't send, a content key that is not a media type.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from toolshape.model._dialects import DRAFT2020_12, dialect_of
from toolshape.model._errors import DocumentError
from toolshape.model._http import (
    IGNORED_HEADERS,
    MEDIA_TYPE,
    SEQUENTIAL,
    client_header,
    media_base,
)
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import escape, subschemas
from toolshape.model._types import (
    NO_SECURITY,
    PARAMETER_CHANNELS,
    Body,
    Channel,
    Operation,
    Output,
    Parameter,
    Schema,
    Security,
    SecurityScheme,
    ShapeMemo,
)
from toolshape.read._bundle import Bundler
from toolshape.read._convert import Found
from toolshape.read._deep_names import DeepNames
from toolshape.read._index import index_document
from toolshape.read._problem import Problem, fail, kind_of
from toolshape.read._rules import (
    answer_keyword,
    check_http_name,
    check_querystring,
    check_template,
    first_server_url,
    form_object_problem,
    named_servers,
    parameter_style,
    read_encoding,
    read_scheme,
    scoped,
    security_schemes,
    tags,
)
from toolshape.schema._views import View


@dataclass(frozen=True, slots=True)
class RawOperation:
    """Where an operation sits, before its parameters and bodies are read."""

    path: str
    method: str
    pointer: str
    node: Unchecked
    path_parameters: Unchecked
    path_pointer: str
    problem: Problem | None = None
    """Why the path item itself can't be read (a bad `$ref`, not a mapping, a bad key)."""


#: S26.3: an HTTP method (a token, RFC 9110), as `additionalOperations` keys must be.
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")

#: What a request view rewrites the schema of (S16.6).
_Viewed = TypeVar("_Viewed", Parameter, Body)

#: S16.3: a success status code.
_SUCCESS = re.compile(r"2\d\d")


ParameterRead = Parameter | tuple[Parameter, ...] | str | None
"""One parameter entry as read: a parameter, a form querystring's members (S26.4), the name of
a header the HTTP client owns, or None for a header OpenAPI ignores (S1.5)."""


class DocumentReader:
    """Reads the operations of one document (S1)."""

    def __init__(self, document: object, source: str, *, outputs: bool = True) -> None:
        """Raises:
        DocumentError: `document` is not an OpenAPI 3.x (or Swagger 2.0) document at all."""
        index = self.index = index_document(document, source)
        """What the document is (its version, methods, dialect), read once."""
        self.bundler = Bundler(
            index.document,
            is_30=index.is_30,
            dialect=index.default_dialect,
            self_uri=index.self_uri,
        )
        self.outputs = outputs
        """S16.3: read each operation's success response for its output schema."""
        self.request_view = View("readOnly", base64=True, clean=self.bundler.clean)
        self.response_view = View("writeOnly", clean=self.bundler.clean)
        self._schemes: dict[str, SecurityScheme | Problem] = {}
        self._parameters_read: dict[
            tuple[int, str], tuple[Unchecked, ParameterRead, tuple[str, ...], Found]
        ] = {}
        self.deep_names = DeepNames()
        """S19.2: what each bundled definition holds that no alias reaches, found once."""
        self._document_security: Security | Problem | None = None
        self.shapes: ShapeMemo = {}
        """S16.7: the shape views of definitions, shared by every tool of the document."""

    def location(self, pointer: str) -> str:
        """`<source>#<pointer>` (S9.3)."""
        return f"{self.index.source}#{pointer}"

    def server_url(self) -> str | None:
        """S23.4: the first server's URL with its variables' defaults (for Swagger 2.0,
        `<first scheme>://<host>`: request paths already start with `basePath`), or None."""
        if self.index.converted is not None:
            servers = self.index.converted.document.get("servers")
            if not isinstance(servers, list) or not servers:
                return None
            converted: str = servers[0]["url"]
            base = self.index.converted.base_path
            return converted[: len(converted) - len(base)] if base else converted
        return first_server_url(self.index.document.get("servers"))

    def named_servers(self) -> dict[str, str]:
        """S26.11: each server that has a `name` (OpenAPI 3.2), by name (none in 2.0)."""
        return (
            named_servers(self.index.document.get("servers"))
            if self.index.converted is None
            else {}
        )

    @property
    def base_path(self) -> str:
        """S20.3: what every request path starts with (a Swagger 2.0 `basePath`), or `""`."""
        return self.index.converted.base_path if self.index.converted is not None else ""

    def origin(self, text: str) -> str:
        """`text` with its pointers into the document as the caller wrote it (S20.3: a
        Swagger 2.0 document's own pointers)."""
        return self.index.converted.origin(text) if self.index.converted is not None else text

    # -- operations --------------------------------------------------------------------------

    def operations(self) -> Iterator[RawOperation]:
        """Every operation of the document, in document order (S1.6: path keys as written).

        Raises:
            DocumentError: `paths` is not a mapping.
        """
        paths = self.index.document.get("paths")
        if paths is None:
            return
        if not is_map(paths):
            raise DocumentError(
                "document",
                f"the document's `paths` is a {kind_of(paths)}, not a mapping",
                location=self.location("/paths"),
            )
        for path, item in paths.items():
            if not isinstance(path, str):
                continue
            pointer = f"/paths/{escape(path)}"
            problem = None
            if not path.startswith("/"):
                problem = Problem(
                    "document",
                    f"the path key `{path}` does not start with `/`, so it is not a path "
                    "template (an absolute URL or a bare name would send the request elsewhere)",
                    "S1.6",
                )
            elif path.startswith("//"):
                problem = Problem(
                    "document",
                    f"the path key `{path}` starts with `//`, which names another host, so the "
                    "request would be sent there. Start it with one `/`",
                    "S20.3",
                )
            try:
                item = self.bundler.references.follow(item, pointer)
            except Problem as error:
                problem = problem or error
            if problem is None and not is_map(item):
                problem = Problem(
                    "document", f"the path item `{path}` is a {kind_of(item)}, not a mapping"
                )
            if problem is not None:
                methods = [m for m in self.index.methods if is_map(item) and m in item]
                for method in methods or [""]:
                    yield RawOperation(
                        path,
                        method,
                        f"{pointer}/{method}" if method else pointer,
                        {},
                        None,
                        pointer,
                        problem,
                    )
                continue
            shared = item.get("parameters")
            for method, node in item.items():
                if method not in self.index.methods:
                    continue
                yield RawOperation(
                    path, method, f"{pointer}/{method}", node, shared, pointer + "/parameters"
                )
            if "query" in self.index.methods:  # S26.3: 3.2's other methods, each by its key
                yield from self._additional(path, pointer, item, shared)

    def _additional(
        self, path: str, pointer: str, item: Mapping[str, Unchecked], shared: Unchecked
    ) -> Iterator[RawOperation]:
        """S26.3: the operations of a 3.2 path item's `additionalOperations`, each method its
        key as written; a key that is a method the path item has a field for (in any case) is
        a document error naming it."""
        more = item.get("additionalOperations")
        if not is_map(more):
            return
        for key, node in more.items():
            at = f"{pointer}/additionalOperations/{escape(str(key))}"
            problem = None
            if str(key).lower() in self.index.methods or not _TOKEN.fullmatch(str(key)):
                problem = Problem(
                    "document",
                    f"`additionalOperations` names `{key}`, which is "
                    + (
                        f"the path item's own `{str(key).lower()}`: write it there"
                        if str(key).lower() in self.index.methods
                        else "not an HTTP method (a token of letters, digits and !#$%&'*+.^_`|~-)"
                    ),
                )
            yield RawOperation(path, str(key), at, node, shared, pointer + "/parameters", problem)

    def read(self, raw: RawOperation) -> Operation:
        """Parameters, bodies and bundled `$defs` of one operation (S1).

        Raises:
            Problem: a malformed parameter, a bad reference or a non-schema.
        """
        if raw.problem is not None:
            raise raw.problem
        if self.index.converted is not None and raw.pointer in self.index.converted.problems:
            raise self.index.converted.problems[raw.pointer]  # S20.3: what 3.0 can't express
        if not is_map(raw.node):
            fail("document", f"the operation is a {kind_of(raw.node)}, not a mapping")
        refs: list[str] = []
        found = Found()
        params, ignored = self._parameters(raw, refs, found)
        check_template(raw.path, params)
        bodies = self._bodies(raw, refs, found)
        operation_id = raw.node.get("operationId")
        defs = self.bundler.bundle(refs, found)
        output, output_problem = self._output(raw) if self.outputs else (None, None)
        read_only: tuple[str, ...] = ()
        if found.request:  # readOnly or binary strings (S16.6, S17.5)
            params, bodies, defs, read_only = self._request_view(params, bodies, defs)
        summary, description = raw.node.get("summary"), raw.node.get("description")
        security = self._security(raw)
        op = Operation(
            path=raw.path,
            method=raw.method,
            operation_id=operation_id if isinstance(operation_id, str) else None,
            parameters=params,
            bodies=bodies,
            defs=defs,
            pointer=raw.pointer,
            extensions={k: v for k, v in raw.node.items() if isinstance(k, str) and k[:2] == "x-"},
            summary=summary.strip() or None if isinstance(summary, str) else None,
            description=description.strip() or None if isinstance(description, str) else None,
            deprecated=raw.node.get("deprecated") is True,
            tags=tags(raw.node.get("tags")),
            output=output,
            output_problem=output_problem,
            read_only=read_only,
            security=security,
            ignored_headers=ignored,
        )
        return self._patterns(op) if found.patterns else op

    # -- security (S18.1) --------------------------------------------------------------------

    def security_scheme_names(self) -> tuple[str, ...]:
        """Every scheme name `components.securitySchemes` defines, in document order."""
        return tuple(str(name) for name in security_schemes(self.index.document))

    def _security(self, raw: RawOperation) -> Security:
        """S18.1: the operation's `security`, else the document's; `[]` (or none) is none."""
        if is_map(raw.node) and "security" in raw.node:
            return self._requirements(raw.node["security"], raw.pointer + "/security")
        found = self._document_security
        if found is None:
            try:
                found = self._requirements(self.index.document.get("security", []), "/security")
            except Problem as problem:
                found = problem
            self._document_security = found
        if isinstance(found, Problem):
            raise found
        return found

    def _requirements(self, given: Unchecked, pointer: str) -> Security:
        if not isinstance(given, list):
            fail("document", f"the `security` at `{pointer}` is a {kind_of(given)}, not a list")
        alternatives = []
        for index, requirement in enumerate(given):
            if not is_map(requirement):
                fail(
                    "document",
                    f"the security requirement at `{pointer}/{index}` is a "
                    f"{kind_of(requirement)}, not a mapping of scheme names",
                    "S18.1",
                )
            alternatives.append(
                tuple(
                    scoped(self._scheme(str(name), f"{pointer}/{index}"), scopes)
                    for name, scopes in requirement.items()
                )
            )
        return tuple(alternatives) or NO_SECURITY

    def _scheme(self, name: str, pointer: str) -> SecurityScheme:
        """One scheme of `components.securitySchemes`, read once per document (S18.1)."""
        found = self._schemes.get(name)
        if found is None:
            try:
                schemes = security_schemes(self.index.document)
                if name not in schemes:
                    fail(
                        "document",
                        f"the security requirement at `{pointer}` names the scheme `{name}`, "
                        "which `components.securitySchemes` does not define",
                        "S18.1",
                    )
                at = f"/components/securitySchemes/{escape(name)}"
                found = read_scheme(name, self.bundler.references.follow(schemes[name], at), at)
            except Problem as problem:
                found = problem
            self._schemes[name] = found
        if isinstance(found, Problem):
            raise found
        return found

    def _request_view(
        self, params: tuple[Parameter, ...], bodies: tuple[Body, ...], defs: Mapping[str, Schema]
    ) -> tuple[tuple[Parameter, ...], tuple[Body, ...], Mapping[str, Schema], tuple[str, ...]]:
        """S16.6: parameters, bodies and `$defs` without their `readOnly` properties."""
        view, names = self.request_view, {}

        def viewed(item: _Viewed) -> _Viewed:
            if item.schema is None:  # a media type without a schema: nothing to view
                return item
            schema, dropped = view.of(item.schema, defs)
            names.update(dict.fromkeys(dropped))
            return item if schema is item.schema else dataclasses.replace(item, schema=schema)

        new_params, new_bodies = tuple(map(viewed, params)), tuple(map(viewed, bodies))
        new_defs, dropped = view.defs_of(defs)
        names.update(dict.fromkeys(dropped))
        return new_params, new_bodies, new_defs, tuple(names)

    def _output(self, raw: RawOperation) -> tuple[Output | None, str | None]:
        """S16.3: the first JSON success response's schema, read and bundled like an input
        schema, in its response view (S16.6); or why it could not be read."""
        responses = raw.node.get("responses")
        if not is_map(responses):
            return None, None
        codes = sorted(str(k) for k in responses if _SUCCESS.fullmatch(str(k)))
        codes += [str(k) for k in responses if str(k).upper() == "2XX"]
        for code in codes:
            key = code if code in responses else next(k for k in responses if str(k) == code)
            pointer = f"{raw.pointer}/responses/{escape(code)}"
            try:
                response = self.bundler.references.follow(responses[key], pointer)
                content = response.get("content") if is_map(response) else None
                if not is_map(content):
                    continue
                for media_type, entry in content.items():
                    keyword = answer_keyword(media_type, self.index.is_32)
                    if keyword is None:
                        continue
                    media, at = self._media(entry, f"{pointer}/content/{escape(media_type)}")
                    if not (is_map(media) and keyword in media):
                        continue
                    where = f"{at}/{keyword}"
                    refs: list[str] = []
                    found = Found()
                    schema = self.bundler.root_schema(media[keyword], where, refs, found)
                    defs = self.bundler.bundle(refs, found)
                    if found.response:  # writeOnly (S16.6)
                        view = self.response_view
                        schema = view.of(schema, defs)[0]
                        defs = view.defs_of(defs)[0]
                    return (
                        Output(
                            schema,
                            defs,
                            self._declared_dialect(schema),
                            code,
                            media_type,
                            self.shapes,
                            items=keyword == "itemSchema",
                        ),
                        None,
                    )
            except Problem as problem:
                return None, problem.reason
        return None, None

    def _parameters(
        self, raw: RawOperation, refs: list[str], found: Found
    ) -> tuple[tuple[Parameter, ...], tuple[str, ...]]:
        """The operation's parameters (S1.1), and the header parameters left out because the
        HTTP client owns them (S1.5)."""
        merged: dict[tuple[str, str], Parameter] = {}
        ignored: dict[str, None] = {}
        strings: dict[str, Parameter | tuple[Parameter, ...]] = {}  # S26.4, by pointer
        for listing, base in (
            (raw.path_parameters, raw.path_pointer),
            (raw.node.get("parameters"), raw.pointer + "/parameters"),
        ):
            if listing is None:
                continue
            if not isinstance(listing, list):
                fail("parameter", f"`parameters` at `{base}` is a {kind_of(listing)}, not a list")
            for index, entry in enumerate(listing):
                param = self._parameter(entry, f"{base}/{index}", refs, found)
                if isinstance(param, str):
                    ignored[param] = None
                elif param is not None:
                    for one in param if isinstance(param, tuple) else (param,):
                        # S1.1: the operation's entry wins for the same (name, in).
                        key = one.name.lower() if one.channel == "header" else one.name
                        merged[(key, one.channel)] = one
                    if isinstance(param, tuple) or param.style == "querystring":
                        strings[f"{base}/{index}"] = param
        check_querystring(strings, merged)
        return tuple(merged.values()), tuple(ignored)

    def _parameter(
        self, entry: Unchecked, pointer: str, refs: list[str], found: Found
    ) -> ParameterRead:
        """One parameter, read once per place in the document: a component or a path's
        parameter shared by many operations is read (and its schema converted) the first
        time, then handed out again with the references it made. None for a header OpenAPI
        ignores, the name of a header the HTTP client owns (S1.5)."""
        node = self.bundler.references.follow(entry, pointer)
        if is_map(entry) and isinstance(entry.get("$ref"), str):
            pointer = self.bundler.references.pointer_of(entry["$ref"])
        key = (id(node), pointer)
        read = self._parameters_read.get(key)
        if read is None or read[0] is not node:
            start, own = len(refs), Found()
            param = self._read_parameter(node, pointer, refs, own)
            read = self._parameters_read[key] = (node, param, tuple(refs[start:]), own)
        else:
            refs.extend(read[2])
        found.add(read[3])
        return read[1]

    def _read_parameter(
        self, node: Unchecked, pointer: str, refs: list[str], found: Found
    ) -> ParameterRead:
        if not is_map(node):
            fail("parameter", f"the parameter at `{pointer}` is a {kind_of(node)}, not a mapping")
        name, where = node.get("name"), node.get("in")
        if not isinstance(name, str) or not name:
            fail("parameter", f"the parameter at `{pointer}` has no `name`")
        if where == "querystring" and self.index.is_32:
            return self._querystring(node, name, pointer, refs, found)
        if where not in PARAMETER_CHANNELS:
            shown = (
                "no `in`"
                if where is None
                else f"`in` {where!r}, which is not path, query, header or cookie"
            )
            fail("parameter", f"the parameter `{name}` at `{pointer}` has {shown}")
        channel: Channel = where
        if channel == "header" and name.lower() in IGNORED_HEADERS:
            return None  # S1.5
        if channel == "header" and client_header(name):
            return name  # S1.5: the HTTP client frames and routes the request
        if channel in ("header", "cookie"):
            check_http_name(name, channel, pointer)
        style = parameter_style(node, name, channel, pointer, is_32=self.index.is_32)
        content_type = None
        if "schema" in node:
            schema = self.bundler.schema(node["schema"], pointer + "/schema", refs, found)
        elif isinstance(node.get("content"), Mapping) and node["content"]:
            content_type, entry = next(iter(node["content"].items()))
            media, at = self._media(entry, f"{pointer}/content/{escape(str(content_type))}")
            media_schema = media.get("schema", {}) if is_map(media) else {}
            schema = self.bundler.schema(media_schema, f"{at}/schema", refs, found)
        else:
            schema = {}
        description = node.get("description")
        explode = node.get("explode")
        return Parameter(
            name=name,
            channel=channel,
            schema=schema,
            # An unfilled path template can't make a request, so path parameters are required.
            required=channel == "path" or node.get("required") is True,
            description=description if isinstance(description, str) else None,
            style=style,
            explode=explode if isinstance(explode, bool) else None,
            allow_reserved=node.get("allowReserved") is True,
            content_type=str(content_type) if content_type is not None else None,
            dialect=self._declared_dialect(schema),
        )

    def _querystring(
        self,
        node: Mapping[str, Unchecked],
        name: str,
        pointer: str,
        refs: list[str],
        found: Found,
    ) -> Parameter | tuple[Parameter, ...]:
        """S26.4: a parameter that is the whole query string. A form (`application/x-www-form-
        urlencoded`) object is its properties, each a query parameter (styled by the media
        type's `encoding`); any other media type is one argument sent as the query string."""
        content = node.get("content")
        if not is_map(content) or len(content) != 1 or "schema" in node:
            fail(
                "parameter",
                f"the querystring parameter `{name}` at `{pointer}` needs `content` with "
                "exactly one media type",
                "S26.4",
            )
        media_type, entry = next(iter(content.items()))
        media, at = self._media(entry, f"{pointer}/content/{escape(str(media_type))}")
        raw = media.get("schema", {}) if is_map(media) else {}
        required = node.get("required") is True
        if str(media_type).split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
            return Parameter(
                name=name,
                channel="query",
                schema=self.bundler.schema(raw, f"{at}/schema", refs, found),
                required=required,
                style="querystring",
                content_type=str(media_type),
            )
        form, taken = self.bundler.references.chain(raw, f"{at}/schema")
        base = taken[-1] if taken else f"{at}/schema"
        problem = form_object_problem(form)
        if problem is not None:
            fail(
                "parameter",
                f"the querystring parameter `{name}` at `{pointer}` has a form schema "
                f"{problem}, so its members can't each be an argument",
                "S26.4",
            )
        assert is_map(form)
        encoding = read_encoding(media.get("encoding") if is_map(media) else None, at)
        listed = form.get("required", [])
        return tuple(
            Parameter(
                name=member,
                channel="query",
                schema=self.bundler.schema(sub, f"{base}/properties/{escape(member)}", refs, found),
                required=member in listed,
                style=encoding.get(member, {}).get("style", "form"),
                explode=encoding.get(member, {}).get("explode", True),
                allow_reserved=encoding.get(member, {}).get("allowReserved") is True,
                content_type=encoding.get(member, {}).get("contentType"),
            )
            for member, sub in form.get("properties", {}).items()
        )

    def _declared_dialect(self, schema: Schema) -> str:
        """S1.7: a schema's own `$schema`, else the document's dialect."""
        declared = schema.get("$schema") if is_map(schema) else None
        if isinstance(declared, str):
            known = dialect_of(declared)
            return known.uri if known else DRAFT2020_12
        return self.index.default_dialect

    def _bodies(self, raw: RawOperation, refs: list[str], found: Found) -> tuple[Body, ...]:
        entry = raw.node.get("requestBody")
        if entry is None:
            return ()
        pointer = raw.pointer + "/requestBody"
        node = self.bundler.references.follow(entry, pointer)
        if is_map(entry) and isinstance(entry.get("$ref"), str):
            pointer = self.bundler.references.pointer_of(entry["$ref"])
        if not is_map(node):
            fail("document", f"the request body at `{pointer}` is a {kind_of(node)}, not a mapping")
        content = node.get("content")
        if not is_map(content):
            fail("document", f"the request body at `{pointer}` has no `content` mapping")
        bodies = []
        for content_type, entry in content.items():
            key_pointer = f"{pointer}/content/{escape(str(content_type))}"
            if not isinstance(content_type, str) or not MEDIA_TYPE.match(content_type):
                fail(
                    "document",
                    f"the request body's content key `{content_type}` at `{key_pointer}` is "
                    "not a media type (`type/subtype`), so it can't be a tool's content type",
                    "S8.2",
                )
            media, media_pointer = self._media(entry, key_pointer)
            if not is_map(media):
                fail("document", f"the media type at `{media_pointer}` is not a mapping")
            schema: Schema | None = None
            dialect = self.index.default_dialect
            if "schema" in media:
                schema = self.bundler.root_schema(
                    media["schema"], media_pointer + "/schema", refs, found
                )
                dialect = self._declared_dialect(schema)
            elif (
                "itemSchema" in media
                and self.index.is_32
                and media_base(content_type) in SEQUENTIAL
            ):
                # S26.6: a sequential body is an array of its items
                item = self.bundler.root_schema(
                    media["itemSchema"], f"{media_pointer}/itemSchema", refs, found
                )
                dialect = self._declared_dialect(item)
                schema = {"type": "array", "items": item}
            bodies.append(
                Body(
                    content_type=content_type,
                    schema=schema,
                    required=node.get("required") is True,
                    dialect=dialect,
                    encoding=read_encoding(media.get("encoding"), media_pointer),
                )
            )
        return tuple(bodies)

    def _media(self, entry: Unchecked, pointer: str) -> tuple[Unchecked, str]:
        """S26.7: a `content` entry at `pointer`, and where it is — in a 3.2 document a
        `$ref` (to `components.mediaTypes`, or anywhere in the document) followed."""
        if not (self.index.is_32 and is_map(entry) and isinstance(entry.get("$ref"), str)):
            return entry, pointer
        media, taken = self.bundler.references.chain(entry, pointer)
        return media, taken[-1]

    # -- patterns ----------------------------------------------------------------------------

    def _patterns(self, op: Operation) -> Operation:
        """`op` with the patterns of its schemas Python's `re` can't compile (ECMA-262 only)
        and those that can backtrack catastrophically, for the planning warnings (S13.3)."""
        foreign: list[str] = []
        slow: list[str] = []
        stack: list[Unchecked] = [
            *(p.schema for p in op.parameters),
            *(b.schema for b in op.bodies),
            *op.defs.values(),
        ]
        while stack:
            node = stack.pop()
            if not is_map(node):
                continue
            patterns = [node.get("pattern")]
            keyed = node.get("patternProperties")
            if is_map(keyed):
                patterns.extend(keyed)
            for pattern in patterns:
                if isinstance(pattern, str):
                    kind = self.bundler.context.pattern_kind(pattern)
                    if kind == "foreign":
                        foreign.append(pattern)
                    elif kind == "slow":
                        slow.append(pattern)
            stack.extend(subschemas(node))
        return dataclasses.replace(
            op,
            foreign_patterns=tuple(dict.fromkeys(foreign)),
            slow_patterns=tuple(dict.fromkeys(slow)),
        )
