"""HTTP facts the planner and the call engine share: names, framing headers, styles (S1.5,
S12.1, S12.2), as tables."""

from __future__ import annotations

import re
from collections.abc import Mapping

from toolshape._types import Channel, ParamStyle

#: S1.5: header parameters OpenAPI says to ignore; the content type and credentials own them.
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})

#: Headers that frame or route the request: the HTTP client owns them, so no argument may set
#: them (S12.2). A parameter naming one is a planning error.
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

#: RFC 9110 `token`: what a header (or cookie) name may be.
HTTP_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

#: A media type or range (`application/json`, `*/*`, `text/plain; charset=utf-8`).
MEDIA_TYPE = re.compile(r"^[A-Za-z0-9!#$&^_.+*-]+/[A-Za-z0-9!#$&^_.+*-]+\s*(;.*)?$", re.S)

#: S16.3: a JSON media type (`application/json`, `*/*+json`, with or without parameters).
JSON_MEDIA = re.compile(r"^(application/json|[^/\s;]+/[^/\s;]+\+json)\s*(;.*)?$", re.I | re.S)

#: The methods a path item may hold, in the order OpenAPI lists them.
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

#: S12.1: the styles each channel may use (OpenAPI 3.1.1 "Style Values").
STYLES: Mapping[Channel, frozenset[ParamStyle]] = {
    "path": frozenset({"simple", "label", "matrix"}),
    "query": frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject"}),
    "header": frozenset({"simple"}),
    "cookie": frozenset({"form"}),
}

#: S12.1: the style of a parameter that names none.
DEFAULT_STYLE: Mapping[Channel, ParamStyle] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}
