"""S12.4: the HTTP request a call routes to — plain data any HTTP client can send — and its
body's bytes (S17.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from toolshape.model._errors import EncodeError
from toolshape.model._json import JsonObject, Unchecked


class _NoBody:
    """The type of `NO_BODY`."""

    _instance: _NoBody | None = None

    def __new__(cls) -> _NoBody:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_BODY"

    def __reduce__(self) -> str:
        return "NO_BODY"

    def __bool__(self) -> bool:
        return False


NO_BODY = _NoBody()
"""`Request.body` of a request that carries no body (S12.3); distinct from a JSON `null` body."""


@dataclass(frozen=True, slots=True)
class Request:
    """The HTTP request a call routes to (S12.4): plain data any HTTP client can send."""

    method: str
    path: str
    """The expanded, percent-encoded path, without the query."""
    query: tuple[tuple[str, str], ...]
    """Query pairs in order, not encoded."""
    headers: tuple[tuple[str, str], ...]
    """Header pairs, names lower case: the inbound headers not replaced, then the arguments'."""
    body: Unchecked
    """The JSON body value (the call's own values, validated), or `NO_BODY`."""
    content_type: str | None
    url: str
    """`path` plus the encoded query."""
    content: bytes | None = field(default=None, repr=False)
    """S17: the body as the bytes its content type needs (None: no body, or a media type
    toolshape can't encode); `encode()` hands it out with the completed content type."""
    sent_type: str | None = field(default=None, repr=False)
    """S17.1: the `content-type` that goes with `content` (a multipart boundary added)."""
    read_as_json: tuple[str, ...] = ()
    """S25.5: the arguments (by path) given as JSON text where their schema takes no text, and
    read as the JSON they spell."""
    fields: tuple[str, ...] | None = None
    """S25.7: the answer's members the call asked for (dotted paths), or None for the whole
    answer; never sent, handed to `Plan.result`."""

    def encode(self) -> tuple[tuple[tuple[str, str], ...], bytes | None]:
        """S17.1: `(headers, content)`: the bytes to send (None without a body) and the
        request's headers with `content-type` completed. Pure: the same request gives the same
        bytes.

        Raises:
            EncodeError: the body's media type is one toolshape can't encode (S17.7).
        """
        if self.body is NO_BODY:
            return self.headers, None
        if self.content is None or self.sent_type is None:
            raise EncodeError(self.content_type or "")
        sent = self.sent_type
        headers = tuple((n, sent) if n == "content-type" else (n, v) for n, v in self.headers)
        return headers, self.content

    def to_dict(self) -> JsonObject:
        """The request as plain data (`body` is left out when there is none)."""
        out: JsonObject = {
            "method": self.method,
            "url": self.url,
            "headers": [list(h) for h in self.headers],
        }
        if self.body is not NO_BODY:
            out["body"] = self.body
        out["contentType"] = self.content_type
        if self.fields is not None:
            out["fields"] = list(self.fields)
        return out
