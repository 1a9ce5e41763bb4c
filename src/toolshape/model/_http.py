"""HTTP facts the planner and the call engine share: names, framing headers, styles (S1.5,
S12.1, S12.2), as tables."""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping

from toolshape.model._types import BodyEncoding, Channel, ParamStyle

#: S1.5: header parameters OpenAPI says to ignore; the content type and credentials own them.
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})

#: Headers that frame or route the request: the HTTP client owns them, so no argument sets
#: them and `Plan.call` never forwards them (S1.5, S12.2); `Proxy-*` too (`client_header`).
CLIENT_HEADERS = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
    }
)


def client_header(name: str) -> bool:
    """S1.5: whether a header is one the HTTP client owns (`Host`, `Content-Length`, ...,
    `Proxy-*`), any case."""
    lower = name.lower()
    return lower in CLIENT_HEADERS or lower.startswith("proxy-")


#: RFC 9110 `token`: what a header (or cookie) name may be.
HTTP_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")  # `\Z`: `$` passes a final newline

#: A media type or range (`application/json`, `*/*`, `text/plain; charset=utf-8`); its
#: parameters hold no control character, so it is a header value HTTP can send.
MEDIA_TYPE = re.compile(
    r"[A-Za-z0-9!#$&^_.+*-]+/[A-Za-z0-9!#$&^_.+*-]+[ \t]*(;[^\x00-\x08\x0a-\x1f\x7f]*)?\Z"
)

#: S16.3: a JSON media type (`application/json`, `*/*+json`, with or without parameters).
JSON_MEDIA = re.compile(r"^(application/json|[^/\s;]+/[^/\s;]+\+json)\s*(;.*)?$", re.I | re.S)

#: S26.6: the sequential media types (OpenAPI 3.2 `itemSchema`): an answer or a body that is a
#: sequence of items — JSON Lines, newline-delimited JSON, JSON text sequences (RFC 7464),
#: server-sent events.
SEQUENTIAL = frozenset(
    {"application/jsonl", "application/x-ndjson", "application/json-seq", "text/event-stream"}
)

#: The methods a path item may hold, in the order OpenAPI lists them.
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

#: S12.1: the styles each channel may use (OpenAPI 3.1.1 "Style Values").
STYLES: Mapping[Channel, frozenset[ParamStyle]] = {
    "path": frozenset({"simple", "label", "matrix"}),
    # `querystring`: a 3.2 `in: querystring` parameter's value, the whole query (S26.4)
    "query": frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject", "querystring"}),
    "header": frozenset({"simple"}),
    "cookie": frozenset({"form", "cookie"}),  # `cookie`: OpenAPI 3.2 only (S26.5)
}

#: S12.1: the style of a parameter that names none.
DEFAULT_STYLE: Mapping[Channel, ParamStyle] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}

#: S17.5: media types whose bodies are bytes, whatever their schema says.
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/")
_BINARY_TYPES = frozenset(
    {
        "application/octet-stream",
        "application/pdf",
        "application/zip",
        "application/gzip",
        "application/x-tar",
    }
)


def media_base(content_type: str) -> str:
    """`type/subtype` of a content type, lower case, without parameters."""
    return content_type.partition(";")[0].strip().lower()


#: S12.2: what a header value may hold: visible ASCII and Latin-1, spaces and tabs inside.
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e\x80-\xff]*")


def header_problem(text: str) -> str | None:
    """S12.2: why `text` can't be a header value (an HTTP client would refuse it), or None."""
    if not _HEADER_VALUE.fullmatch(text):
        return (
            "a header value can't contain CR, LF, NUL or other control characters, or text "
            "outside Latin-1"
        )
    if text != text.strip(" \t"):
        return "a header value can't start or end with a space or tab"
    return None


def part_media(content_type: str) -> str | None:
    """S17.3, S17.4: the media type an `encoding` entry's `contentType` sends: the first of a
    comma-separated list (`image/png, image/jpeg`); None for a range (`image/*`), which is no
    content type (the part's default applies)."""
    first = content_type.split(",", 1)[0].strip()
    return None if "*" in media_base(first) else first


def is_binary_media(content_type: str) -> bool:
    """S17.5: a media type whose body is raw bytes (`application/octet-stream`, `image/*`, ...)."""
    base = media_base(content_type)
    return base in _BINARY_TYPES or base.startswith(_BINARY_PREFIXES)


def is_xml(content_type: str) -> bool:
    """`application/xml`, `text/xml` or any `*/*+xml` (S17.9)."""
    base = media_base(content_type)
    return base in ("application/xml", "text/xml") or base.endswith("+xml")


def is_yaml(content_type: str) -> bool:
    """S17.7: `application/yaml` (or the older `application/x-yaml`) or any `*/*+yaml`
    (Kubernetes' `application/apply-patch+yaml`); `text/yaml` is text (S17.6)."""
    base = media_base(content_type)
    return base in ("application/yaml", "application/x-yaml") or (
        base.endswith("+yaml") and not base.startswith("text/")
    )


def body_encoding(
    content_type: str, binary_schema: bool, string_schema: bool = True
) -> BodyEncoding | None:
    """S17: how a body of `content_type` becomes bytes, or None when none can (S17.9: XML that
    is not a binary string, `text/*` whose schema can't be a string, a media type S17 does
    not name). `binary_schema` says its schema is a binary (base64) string, `string_schema`
    that it may be a string. A range (`*/*`) is JSON unless its schema is binary."""
    base = media_base(content_type)
    if base == "application/x-www-form-urlencoded":
        return "form"
    if base == "multipart/form-data":
        return "multipart"
    if base in SEQUENTIAL and base != "text/event-stream":  # S26.6
        return "items"
    if binary_schema or is_binary_media(base):
        return "binary"
    if is_xml(base):
        return None
    if JSON_MEDIA.match(base) or base in ("*/*", "application/*"):
        return "json"
    if is_yaml(base):
        return "yaml"
    if base.startswith("text/") and string_schema:
        return "text"
    return None


#: Codecs Python reads as text but that are no character set: a charset naming one is read as
#: UTF-8 (`idna` and `punycode` encode host names, `undefined` raises on every use, the escape
#: codecs write Python literals).
_NOT_CHARSETS = frozenset({"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape"})


def text_codec(charset: str | None) -> str:
    """The codec a `charset` parameter names when it is a character set Python knows — one
    that turns text into bytes and back (not `rot13`, `base64`, `zlib`, ...) — else `utf-8`
    (S14.4, S16.4, S17.6: a body is never encoded or decoded by anything else)."""
    if not charset:
        return "utf-8"
    try:
        name = codecs.lookup(charset).name
        "a".encode(name)  # a bytes-to-bytes or text-to-text codec refuses `str.encode`
        b"a".decode(name)
    except (LookupError, UnicodeError, ValueError, TypeError):
        return "utf-8"
    return "utf-8" if name in _NOT_CHARSETS else charset


#: S1.6: a `{variable}` of a path template (its name the group).
TEMPLATE_VARIABLE = re.compile(r"\{([^{}]*)\}")


def template_variables(path: str) -> list[str]:
    """The `{variables}` of a path key's template (S1.6: before any `?query` or `#fragment`)."""
    template = path.partition("#")[0].partition("?")[0]
    return TEMPLATE_VARIABLE.findall(template)
