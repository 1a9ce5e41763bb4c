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
from dataclasses import dataclass
from typing import Any, Literal

from toolshape.call._items import BadItem, read_items
from toolshape.call._response_fields import keep_fields
from toolshape.model._errors import ToolshapeError
from toolshape.model._http import SEQUENTIAL, text_codec
from toolshape.model._json import SURROGATE_ESCAPE, JsonObject, Unchecked, unicode_safe
from toolshape.model._pointers import pointer
from toolshape.schema._validate import Judge

#: S16.4: the `uri` of an embedded resource when the caller gives none.
DEFAULT_URI = "toolshape:response"
#: S16.4: the text of a non-error answer that an output schema does not accept (`where`:
#: ` at <pointer>: <message>` for a JSON answer, else nothing).
MISMATCH = "HTTP {status} (the response does not match the tool's output schema{where}): "

#: S14.4: the line a result's text ends with when its structured content had text UTF-8 can't
#: carry (a lone surrogate, which JSON text can spell as `\ud800`): each is U+FFFD there.
LONE_SURROGATES = (
    "\n(toolshape: the answer spells lone surrogates, which no client can be sent; each is "
    "U+FFFD in structuredContent)"
)

_TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/x-www-form-urlencoded",
        "application/javascript",
        "application/x-ndjson",
        "application/jsonl",
        "application/json-seq",
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


@dataclass(frozen=True, slots=True)
class Expected:
    """What a tool with an output schema expects of an answer (S16.3, S16.7): the schema's
    judge, whether S16.3 wrapped it under `result`, and the view it is."""

    judge: Judge
    wrapped: bool = False
    view: Literal["shape", "exact"] = "shape"
    items: bool = False
    """S26.6: the answer is a sequence of items, structured as `{"items": [...]}`."""


def tool_result(
    status: Unchecked,
    headers: Unchecked,
    body: Unchecked,
    *,
    expected: Expected | None = None,
    uri: str | None = None,
    fields: tuple[str, ...] | None = None,
) -> JsonObject:
    """The MCP `CallToolResult` of one HTTP answer (S16.4); `expected` is None when the tool
    has no output schema; a structured answer keeps only the members on `fields` (S25.7).

    Raises:
        ToolshapeError: `status` is not an HTTP status (100-599), `headers` is neither a mapping
            nor pairs, or `body` is neither bytes nor text.
    """
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise ToolshapeError(f"the response status {status!r} is not an HTTP status (100-599)")
    kind, charset = media_type(headers)
    raw = _body_bytes(body)
    text = decode(raw, charset) if is_text(kind) else None
    result = _result(status, kind, raw, text, expected, uri)
    if fields is not None and "structuredContent" in result:
        kept = keep_fields(result["structuredContent"], fields)
        result["structuredContent"] = kept
        result["content"][0]["text"] = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
    if text is None or SURROGATE_ESCAPE.search(text) is None:
        return result
    safe, changed = unicode_safe(result)  # S14.4: JSON text can spell what UTF-8 can't carry
    if changed:
        safe["content"][0]["text"] += LONE_SURROGATES
    return safe


def _result(
    status: int,
    kind: str,
    raw: bytes,
    text: str | None,
    expected: Expected | None,
    uri: str | None,
) -> JsonObject:
    """`tool_result` of an answer read: by its status, kind and output schema."""
    failed = status >= 400
    if expected is not None and not failed:
        return _checked(status, kind, raw, text, expected, uri)
    prefix = f"HTTP {status}: " if failed else ""
    if text is not None:
        return {"content": [{"type": "text", "text": prefix + text}], "isError": failed}
    content: list[JsonObject] = [_binary(kind, raw, uri)]
    if failed:
        content.insert(0, {"type": "text", "text": f"{prefix}{len(raw)} bytes of {kind}, attached"})
    return {"content": content, "isError": failed}


def _checked(
    status: int, kind: str, raw: bytes, text: str | None, expected: Expected, uri: str | None
) -> JsonObject:
    """S16.4, S16.7: a non-error answer of a tool with an output schema: structured when it
    fits the schema, else an error saying where it does not (MCP clients refuse an
    unstructured non-error result from a tool with an output schema)."""
    read = _read(status, kind, raw, text, expected)
    if isinstance(read, _Fits):
        return {
            "content": [{"type": "text", "text": text or ""}],
            "structuredContent": read.value,
            "isError": False,
        }
    head = read.head or MISMATCH.format(status=status, where=read.where)
    if text is not None:
        return {"content": [{"type": "text", "text": head + text}], "isError": True}
    described = f"{head}{len(raw)} bytes of {kind}, attached"
    return {
        "content": [{"type": "text", "text": described}, _binary(kind, raw, uri)],
        "isError": True,
    }


@dataclass(frozen=True, slots=True)
class _Fits:
    value: JsonObject


@dataclass(frozen=True, slots=True)
class _Misfit:
    where: str
    """` at <pointer>: <message>` when the answer is JSON, else `""`."""
    head: str | None = None
    """The whole first line when the answer can't be read at all (S26.6: an item that does
    not parse), instead of `MISMATCH`'s."""


def _read(
    status: int, kind: str, raw: bytes, text: str | None, expected: Expected
) -> _Fits | _Misfit:
    """The structured content of a 2xx answer the output schema accepts, or where it fails."""
    if not 200 <= status <= 299:
        return _Misfit("")
    shape = expected.view == "shape"
    if shape and not raw.strip():  # S16.7: an empty answer is an empty structure
        return _Fits(
            {"result": None} if expected.wrapped else {"items": []} if expected.items else {}
        )
    if expected.items and text is not None and kind in SEQUENTIAL:
        items = read_items(kind, text)
        if isinstance(items, BadItem):
            what = "record" if kind == "application/json-seq" else "line"
            return _Misfit("", f"HTTP {status} ({what} {items.number} of the {kind} answer is "
                           f"not JSON: {items.reason}): ")  # fmt: skip
        structured: Unchecked = {"items": items}
    elif text is None or expected.items or not (is_json(kind) or (shape and not kind)):
        return _Misfit("")
    else:
        try:
            value = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            return _Misfit("")
        structured = {"result": value} if expected.wrapped else value
    problems = expected.judge.first(structured)
    if not problems:
        return _Fits(structured)
    where, _, message = problems[0]
    if expected.wrapped and where[:1] == ("result",):
        where = where[1:]
    return _Misfit(f" at {pointer(*map(str, where)) or '/'}: {message}")
