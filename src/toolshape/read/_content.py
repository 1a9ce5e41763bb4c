"""S1.1, S1.3, S16.3, S26.4, S26.6, S26.7: the parts of one operation, each a function of the
node it reads — a parameter, the request bodies, the success answer's schema — whose schemas
the `Bundler` converts; the references they make and what they hold are added to the `refs` and
`Found` the caller passes. Whatever a request could not carry intact is refused here: a header
name HTTP can't send, a content key that is not a media type, a querystring without one media
type."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping

from toolshape.model._dialects import DRAFT2020_12, dialect_of
from toolshape.model._http import IGNORED_HEADERS, MEDIA_TYPE, SEQUENTIAL, client_header, media_base
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import escape, subschemas
from toolshape.model._types import (
    PARAMETER_CHANNELS,
    Body,
    Channel,
    Operation,
    Output,
    Parameter,
    Schema,
    ShapeMemo,
)
from toolshape.read._bundle import Bundler
from toolshape.read._convert import Found
from toolshape.read._index import DocumentIndex
from toolshape.read._problem import Problem, fail, kind_of
from toolshape.read._refs import References
from toolshape.read._rules import (
    answer_keyword,
    check_http_name,
    form_object_problem,
    parameter_style,
    read_encoding,
)
from toolshape.schema._views import View

#: S16.3: a success status code.
_SUCCESS = re.compile(r"2\d\d")

ParameterRead = Parameter | tuple[Parameter, ...] | str | None
"""One parameter entry as read: a parameter, a form querystring's members (S26.4), the name of
a header the HTTP client owns, or None for a header OpenAPI ignores (S1.5)."""


def read_parameter(
    node: Unchecked,
    pointer: str,
    index: DocumentIndex,
    bundler: Bundler,
    refs: list[str],
    found: Found,
) -> ParameterRead:
    """One parameter entry (S1.1, S12.1, S26.4, S26.5): its schema converted, the references it
    makes added to `refs` and what it holds to `found`. None for a header OpenAPI ignores, the
    name of a header the HTTP client owns (S1.5).

    Raises:
        Problem: a parameter that is not one, or that HTTP can't send as it is written.
    """
    if not is_map(node):
        fail("parameter", f"the parameter at `{pointer}` is a {kind_of(node)}, not a mapping")
    name, where = node.get("name"), node.get("in")
    if not isinstance(name, str) or not name:
        fail("parameter", f"the parameter at `{pointer}` has no `name`")
    if where == "querystring" and index.is_32:
        return _querystring(node, name, pointer, index, bundler, refs, found)
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
    style = parameter_style(node, name, channel, pointer, is_32=index.is_32)
    content_type = None
    if "schema" in node:
        schema = bundler.schema(node["schema"], pointer + "/schema", refs, found)
    elif isinstance(node.get("content"), Mapping) and node["content"]:
        content_type, entry = next(iter(node["content"].items()))
        media, at = media_entry(
            entry, f"{pointer}/content/{escape(str(content_type))}", bundler.references, index.is_32
        )
        media_schema = media.get("schema", {}) if is_map(media) else {}
        schema = bundler.schema(media_schema, f"{at}/schema", refs, found)
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
        dialect=declared_dialect(schema, index.default_dialect),
    )


def _querystring(
    node: Mapping[str, Unchecked],
    name: str,
    pointer: str,
    index: DocumentIndex,
    bundler: Bundler,
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
    media, at = media_entry(
        entry, f"{pointer}/content/{escape(str(media_type))}", bundler.references, index.is_32
    )
    raw = media.get("schema", {}) if is_map(media) else {}
    required = node.get("required") is True
    if str(media_type).split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
        return Parameter(
            name=name,
            channel="query",
            schema=bundler.schema(raw, f"{at}/schema", refs, found),
            required=required,
            style="querystring",
            content_type=str(media_type),
        )
    form, taken = bundler.references.chain(raw, f"{at}/schema")
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
            schema=bundler.schema(sub, f"{base}/properties/{escape(member)}", refs, found),
            required=member in listed,
            style=encoding.get(member, {}).get("style", "form"),
            explode=encoding.get(member, {}).get("explode", True),
            allow_reserved=encoding.get(member, {}).get("allowReserved") is True,
            content_type=encoding.get(member, {}).get("contentType"),
        )
        for member, sub in form.get("properties", {}).items()
    )


def declared_dialect(schema: Schema, default: str) -> str:
    """S1.7: a schema's own `$schema`, else the document's dialect."""
    declared = schema.get("$schema") if is_map(schema) else None
    if isinstance(declared, str):
        known = dialect_of(declared)
        return known.uri if known else DRAFT2020_12
    return default


def read_bodies(
    operation: Mapping[str, Unchecked],
    operation_pointer: str,
    index: DocumentIndex,
    bundler: Bundler,
    refs: list[str],
    found: Found,
) -> tuple[Body, ...]:
    """The request bodies of the operation at `operation_pointer`, one per content type (S1.3, S8.2, S17.3,
    S26.6); the references their schemas make are added to `refs`, what they hold to `found`."""
    entry = operation.get("requestBody")
    if entry is None:
        return ()
    pointer = operation_pointer + "/requestBody"
    node = bundler.references.follow(entry, pointer)
    if is_map(entry) and isinstance(entry.get("$ref"), str):
        pointer = bundler.references.pointer_of(entry["$ref"])
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
        media, media_pointer = media_entry(entry, key_pointer, bundler.references, index.is_32)
        if not is_map(media):
            fail("document", f"the media type at `{media_pointer}` is not a mapping")
        schema: Schema | None = None
        dialect = index.default_dialect
        if "schema" in media:
            schema = bundler.root_schema(media["schema"], media_pointer + "/schema", refs, found)
            dialect = declared_dialect(schema, index.default_dialect)
        elif "itemSchema" in media and index.is_32 and media_base(content_type) in SEQUENTIAL:
            # S26.6: a sequential body is an array of its items
            item = bundler.root_schema(
                media["itemSchema"], f"{media_pointer}/itemSchema", refs, found
            )
            dialect = declared_dialect(item, index.default_dialect)
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


def media_entry(
    entry: Unchecked, pointer: str, references: References, is_32: bool
) -> tuple[Unchecked, str]:
    """S26.7: a `content` entry at `pointer`, and where it is — in a 3.2 document a
    `$ref` (to `components.mediaTypes`, or anywhere in the document) followed."""
    if not (is_32 and is_map(entry) and isinstance(entry.get("$ref"), str)):
        return entry, pointer
    media, taken = references.chain(entry, pointer)
    return media, taken[-1]


def read_output(
    operation: Mapping[str, Unchecked],
    operation_pointer: str,
    index: DocumentIndex,
    bundler: Bundler,
    view: View,
    shapes: ShapeMemo,
) -> tuple[Output | None, str | None]:
    """S16.3: the first JSON success response's schema, read and bundled like an input
    schema, in its response view (S16.6); or why it could not be read."""
    responses = operation.get("responses")
    if not is_map(responses):
        return None, None
    codes = sorted(str(k) for k in responses if _SUCCESS.fullmatch(str(k)))
    codes += [str(k) for k in responses if str(k).upper() == "2XX"]
    for code in codes:
        key = code if code in responses else next(k for k in responses if str(k) == code)
        pointer = f"{operation_pointer}/responses/{escape(code)}"
        try:
            response = bundler.references.follow(responses[key], pointer)
            content = response.get("content") if is_map(response) else None
            if not is_map(content):
                continue
            for media_type, entry in content.items():
                keyword = answer_keyword(media_type, index.is_32)
                if keyword is None:
                    continue
                media, at = media_entry(
                    entry,
                    f"{pointer}/content/{escape(media_type)}",
                    bundler.references,
                    index.is_32,
                )
                if not (is_map(media) and keyword in media):
                    continue
                where = f"{at}/{keyword}"
                refs: list[str] = []
                found = Found()
                schema = bundler.root_schema(media[keyword], where, refs, found)
                defs = bundler.bundle(refs, found)
                if found.response:  # writeOnly (S16.6)
                    schema = view.of(schema, defs)[0]
                    defs = view.defs_of(defs)[0]
                return (
                    Output(
                        schema,
                        defs,
                        declared_dialect(schema, index.default_dialect),
                        code,
                        media_type,
                        shapes,
                        items=keyword == "itemSchema",
                    ),
                    None,
                )
        except Problem as problem:
            return None, problem.reason
    return None, None


def with_patterns(op: Operation, pattern_kind: Callable[[str], str]) -> Operation:
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
                kind = pattern_kind(pattern)
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
