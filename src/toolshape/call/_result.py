"""S16.4: the HTTP answer as the MCP `CallToolResult`, as plain data.

`tool_result` turns a status, headers and the response bytes into `content` by media type
(text, image, audio, an embedded resource), `isError` from the status, and `structuredContent`
when the plan has an output schema and the JSON body satisfies it. Nothing is dropped: every
answer's body reaches the model, as text or as base64 data.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolshape.model._errors import ToolshapeError
from toolshape.model._http import text_codec
from toolshape.model._json import JsonObject, Unchecked
from toolshape.schema._validate import Judge

#: S16.4: the `uri` of an embedded resource when the caller gives none.
DEFAULT_URI = "toolshape:response"
#: S16.4: the text of a non-error answer that an output schema does not accept.
MISMATCH = "HTTP {status} (the response does not match the tool's output schema): "

_TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/x-www-form-urlencoded",
        "application/javascript",
        "application/x-ndjson",
        "application/yaml",
    }
)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def media_type(headers: Unchecked) -> tuple[str, str | None]:
    """`(type/subtype, charset)` of the answer's `content-type`, lower-cased; `("", None)` when
    it has none.

    Raises:
        ToolshapeError: `headers` is neither a mapping nor `(name, value)` pairs.
    """
    if headers is None:
        return "", None
    items: Iterable[Unchecked] = headers.items() if isinstance(headers, Mapping) else headers
    value: str | None = None
    try:
        for name, text in items:
            if str(name).lower() == "content-type":
                value = str(text)
    except (TypeError, ValueError):
        raise ToolshapeError(
            "the response headers must be a mapping or (name, value) pairs, "
            f"not {type(headers).__name__}"
        ) from None
    if value is None:
        return "", None
    kind, _, params = value.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, given = param.partition("=")
        if key.strip().lower() == "charset":
            charset = given.strip().strip('"') or None
    return kind.strip().lower(), charset


def is_json(kind: str) -> bool:
    """`application/json` or any `*/*+json` (S16.3)."""
    return kind == "application/json" or kind.endswith("+json")


def is_text(kind: str) -> bool:
    """S16.4: an answer read as text: none given, `text/*`, JSON, XML, form and the like."""
    return (
        not kind
        or kind.startswith("text/")
        or kind in _TEXT_TYPES
        or is_json(kind)
        or (kind.endswith("+xml") and not kind.startswith("image/"))
    )


def decode(body: bytes, charset: str | None) -> str:
    """The body as text per its charset (a character set, else UTF-8), undecodable bytes
    replaced (S16.4)."""
    return body.decode(text_codec(charset), errors="replace")


def _body_bytes(body: Unchecked) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):  # a lone surrogate passes here and is replaced when decoded
        return body.encode("utf-8", errors="surrogatepass")
    raise ToolshapeError(f"the response body must be bytes (or text), not {type(body).__name__}")


def _binary(kind: str, body: bytes, uri: str | None) -> JsonObject:
    data = base64.b64encode(body).decode("ascii")
    if kind.startswith("image/"):
        return {"type": "image", "data": data, "mimeType": kind}
    if kind.startswith("audio/"):
        return {"type": "audio", "data": data, "mimeType": kind}
    return {
        "type": "resource",
        "resource": {"uri": uri or DEFAULT_URI, "mimeType": kind, "blob": data},
    }


def tool_result(
    status: Unchecked,
    headers: Unchecked,
    body: Unchecked,
    *,
    judge: Judge | None = None,
    wrapped: bool = False,
    uri: str | None = None,
) -> JsonObject:
    """The MCP `CallToolResult` of one HTTP answer (S16.4).

    `judge` is the plan's output-schema judge (None: the tool has no output schema); `wrapped`
    says S16.3 wrapped a non-object schema under `result`.

    Raises:
        ToolshapeError: `status` is not an HTTP status (100-599), `headers` is neither a mapping
            nor pairs, or `body` is neither bytes nor text.
    """
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise ToolshapeError(f"the response status {status!r} is not an HTTP status (100-599)")
    kind, charset = media_type(headers)
    raw = _body_bytes(body)
    failed = status >= 400
    textual = is_text(kind)
    text = decode(raw, charset) if textual else None
    if judge is not None and not failed:
        structured = _structured(status, kind, text, judge, wrapped)
        if structured is not None:
            return {
                "content": [{"type": "text", "text": text}],
                "structuredContent": structured,
                "isError": False,
            }
        # MCP clients refuse an unstructured non-error result from a tool with an output schema.
        head = MISMATCH.format(status=status)
        if text is not None:
            return {"content": [{"type": "text", "text": head + text}], "isError": True}
        described = f"{head}{len(raw)} bytes of {kind}, attached"
        return {
            "content": [{"type": "text", "text": described}, _binary(kind, raw, uri)],
            "isError": True,
        }
    prefix = f"HTTP {status}: " if failed else ""
    if text is not None:
        return {"content": [{"type": "text", "text": prefix + text}], "isError": failed}
    content: list[JsonObject] = [_binary(kind, raw, uri)]
    if failed:
        content.insert(0, {"type": "text", "text": f"{prefix}{len(raw)} bytes of {kind}, attached"})
    return {"content": content, "isError": failed}


def _structured(
    status: int, kind: str, text: str | None, judge: Judge, wrapped: bool
) -> JsonObject | None:
    """S16.4: the structured content of a 2xx JSON answer its output schema accepts, or None."""
    if not 200 <= status <= 299 or text is None or not is_json(kind):
        return None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return None
    structured = {"result": value} if wrapped else value
    if not isinstance(structured, dict) or judge.problems(structured):
        return None
    return structured
