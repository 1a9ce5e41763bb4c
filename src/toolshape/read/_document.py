"""S1: reading operations out of an OpenAPI 3.x document.

One `DocumentReader` per document: it holds what is read once per document — the document's
`DocumentIndex`, its `Bundler`, the security schemes and the parameters read — and reads each
operation from its parts (`_paths`: where the operations are; `_content`: a parameter, the
request bodies, the answer's schema). It merges an operation's parameters (S1.1, S1.5) and
refuses what a request could not carry intact, as a planning error of the operation: a path
parameter the template does not hold, a template variable no parameter fills.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import TypeVar

from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import escape
from toolshape.model._types import (
    Body,
    Operation,
    Parameter,
    Schema,
    Security,
    SecurityScheme,
    ShapeMemo,
)
from toolshape.read._bundle import Bundler
from toolshape.read._content import (
    ParameterRead,
    read_bodies,
    read_output,
    read_parameter,
    with_patterns,
)
from toolshape.read._convert import Found
from toolshape.read._deep_names import DeepNames
from toolshape.read._index import index_document
from toolshape.read._paths import RawOperation, operations
from toolshape.read._problem import Problem, fail, kind_of
from toolshape.read._rules import (
    check_template,
    first_server_url,
    merge_parameters,
    named_servers,
    read_requirements,
    read_scheme,
    security_schemes,
    tags,
)
from toolshape.schema._views import View

#: What a request view rewrites the schema of (S16.6).
_Viewed = TypeVar("_Viewed", Parameter, Body)


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
        self.request_view = View("readOnly", base64=True, clean=self.bundler.context.clean)
        self.response_view = View("writeOnly", clean=self.bundler.context.clean)
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
        """Every operation of the document, in document order (`_paths.operations`).

        Raises:
            DocumentError: `paths` is not a mapping.
        """
        return operations(self.index, self.bundler.references)

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
        bodies = read_bodies(raw.node, raw.pointer, self.index, self.bundler, refs, found)
        operation_id = raw.node.get("operationId")
        defs = self.bundler.bundle(refs, found)
        output, output_problem = (
            read_output(
                raw.node, raw.pointer, self.index, self.bundler, self.response_view, self.shapes
            )
            if self.outputs
            else (None, None)
        )
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
        return with_patterns(op, self.bundler.context.pattern_kind) if found.patterns else op

    # -- security (S18.1) --------------------------------------------------------------------

    def security_scheme_names(self) -> tuple[str, ...]:
        """Every scheme name `components.securitySchemes` defines, in document order."""
        return tuple(str(name) for name in security_schemes(self.index.document))

    def _security(self, raw: RawOperation) -> Security:
        """S18.1: the operation's `security`, else the document's; `[]` (or none) is none."""
        if is_map(raw.node) and "security" in raw.node:
            return read_requirements(raw.node["security"], raw.pointer + "/security", self._scheme)
        found = self._document_security
        if found is None:
            try:
                found = read_requirements(
                    self.index.document.get("security", []), "/security", self._scheme
                )
            except Problem as problem:
                found = problem
            self._document_security = found
        if isinstance(found, Problem):
            raise found
        return found

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

    def _parameters(
        self, raw: RawOperation, refs: list[str], found: Found
    ) -> tuple[tuple[Parameter, ...], tuple[str, ...]]:
        """The operation's parameters (S1.1), and the header parameters left out because the
        HTTP client owns them (S1.5)."""
        reads: list[tuple[str, ParameterRead]] = []
        for listing, base in (
            (raw.path_parameters, raw.path_pointer),
            (raw.node.get("parameters"), raw.pointer + "/parameters"),
        ):
            if listing is None:
                continue
            if not isinstance(listing, list):
                fail("parameter", f"`parameters` at `{base}` is a {kind_of(listing)}, not a list")
            for index, entry in enumerate(listing):
                where = f"{base}/{index}"
                reads.append((where, self._parameter(entry, where, refs, found)))
        return merge_parameters(reads)

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
            param = read_parameter(node, pointer, self.index, self.bundler, refs, own)
            read = self._parameters_read[key] = (node, param, tuple(refs[start:]), own)
        else:
            refs.extend(read[2])
        found.add(read[3])
        return read[1]
