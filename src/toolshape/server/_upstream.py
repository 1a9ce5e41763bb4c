"""S23.4, S23.5: one API a server serves, and sending a call's request to it.

Every way the upstream can fail — no connection, a TLS failure, no answer in time, an answer
larger than allowed, a connection dropped halfway — is an answer, not a crash: an `isError`
result naming the API, the method, the path and what failed. Redirects are never followed
(credentials must not travel to another host).
"""

from __future__ import annotations

import datetime
import email.utils
import json
import math
import ssl
import zlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypeAlias
from urllib.parse import urlsplit

import anyio
import httpx

from toolshape.call._fit import fit
from toolshape.call._request import Request
from toolshape.call._response_fields import keep_fields
from toolshape.call._result import decode, is_json, is_text, media_type
from toolshape.model._http import SEQUENTIAL
from toolshape.plans._plan import Plan
from toolshape.server._limits import (
    MAX_DOWNLOAD_BYTES,
    MAX_RESPONSE_BYTES,
    MAX_RETRY_WAIT,
    RETRIES,
    TIMEOUT,
)

SchemaView: TypeAlias = str
"""S22.6: the input schema a server advertises: the plan's (`mcp`), or a model view's by its
name in the table of views (`toolshape.views.schema_views()`: `openai-strict`, `gemini`)."""

LargeResponse: TypeAlias = Literal["cut", "error"]
"""S25.6: a JSON answer past `max_response_bytes` (and within the download) is cut to fit
(`cut`), or is S23.5's error (`error`)."""


@dataclass(frozen=True, slots=True)
class Api:
    """One API a server serves: its tools' plans and how their calls reach it.

    `name` prefixes its tool names (`<name>_<tool>`) when the server serves several APIs and
    names it in failure texts; `headers` are the server's own outbound headers (a header
    argument replaces one of the same name, S12.2); `credentials` map security scheme names to
    values (S18.2); `pass_through` names the scheme whose credential each caller brings in the
    MCP request's own `Authorization` header (S23.6); `schema_view` the input schema it
    advertises (S22.6). An answer is read up to `max_download_bytes` (S25.6) and a result
    carries at most `max_response_bytes`: a JSON answer between the two is cut to fit, unless
    `on_large_response` is `error`.
    """

    plans: tuple[Plan, ...]
    base_url: str
    name: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    credentials: Mapping[str, Any] = field(default_factory=dict)
    pass_through: str | None = None
    timeout: float = TIMEOUT
    max_response_bytes: int = MAX_RESPONSE_BYTES
    max_download_bytes: int = MAX_DOWNLOAD_BYTES
    on_large_response: LargeResponse = "cut"
    retries: int = RETRIES
    """S27.4: how many times more an idempotent call is tried (no connection, 429, 503)."""
    max_retry_wait: float = MAX_RETRY_WAIT
    """S27.4: the longest wait before a try again (`Retry-After` past it: no try)."""
    schema_view: SchemaView = "mcp"
    """S22.6: with a model view's name (`openai-strict`, `gemini`, `inline`), each tool's input
    schema is that view's parameters, and calls read back from it (S22.3) before `Plan.call`."""
    inline_refs: bool = False
    """S25.3: every schema listed with no `$ref` and no `$defs` (the view's, inlined)."""
    tag_titles: Mapping[str, str] = field(default_factory=dict)
    """S26.9: each tag's title (its `summary`), words discovery search finds its tools by."""

    @property
    def read_limit(self) -> int:
        """S25.6: the most of an answer read (a result's cap, when that is the larger)."""
        return max(self.max_download_bytes, self.max_response_bytes)

    @property
    def label(self) -> str:
        """How texts name the API: its name, else its base URL's host."""
        return self.name or host_of(self.base_url) or "the API"

    def tool_name(self, plan: Plan) -> str:
        """The name the server lists `plan` under."""
        return served_name(self.name, plan.name)


def served_name(api: str | None, tool: str) -> str:
    """S23.3: a tool's name in a server: `<api>_<tool>` when the API has a name."""
    return f"{api}_{tool}" if api else tool


#: S25.6: the `_meta` key of a cut answer's cuts (`[{"pointer", "kept", "total"}]`).
TRUNCATED = "toolshape/truncated"


class Received(NamedTuple):
    """What the API answered: its status, its headers, the body read (at most the read limit)
    and whether there was more."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes
    more: bool = False


class Failed(Exception):
    """The upstream did not answer usably; the message says what failed."""


class Unreached(Failed):
    """No connection could be made: nothing was sent, so an idempotent call may try again."""


async def forward(
    http: httpx.AsyncClient, api: Api, plan: Plan, request: Request
) -> tuple[dict[str, Any], str]:
    """The MCP `CallToolResult` (as data) of sending `request` to `api` (S16.4, S23.5), and
    what happened in a word for the log: the HTTP status, `timeout`, `too-large` or `failed`.

    Raises:
        EncodeError: the request's body has no bytes toolshape can make (a hand-built plan).
    """
    outbound, content = request.encode()
    url = api.base_url.rstrip("/") + request.url
    # S12.2: header values are Latin-1 text (obs-text past ASCII), sent as those bytes.
    wire = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in outbound]
    if not any(name.lower() == b"accept-encoding" for name, _ in wire):
        wire.append((b"accept-encoding", b"gzip, deflate"))  # what `_Inflater` reads
    limit = api.read_limit
    tries = 1 + (api.retries if request.method.upper() in RETRIED else 0)
    for attempt in range(1, tries + 1):
        try:
            with anyio.fail_after(api.timeout):
                received = await _exchange(http, request.method, url, wire, content, limit)
        except TimeoutError:
            what = f"no answer within {api.timeout:g} s (--timeout)"
            return failure(api, request, what), _tried("timeout", attempt)
        except Failed as error:
            if isinstance(error, Unreached) and attempt < tries:  # S27.4: try again
                await anyio.sleep(_backoff(attempt, api))
                continue
            return failure(api, request, str(error)), _tried("failed", attempt)
        status = received.status
        wait = _retry_after(received.headers, attempt, api) if status in (429, 503) else None
        if wait is None or attempt == tries:
            break
        await anyio.sleep(wait)
    answer, word = _answered(api, plan, request, received)
    return answer, _tried(word, attempt)


#: S27.4: the methods a failed call is tried again with (safe or idempotent ones; never POST
#: or PATCH, whose second try could do the thing twice).
RETRIED = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "QUERY"})


def _tried(word: str, tries: int) -> str:
    """The log's word for a call, with its tries when there were several (S27.4)."""
    return word if tries == 1 else f"{word} ({tries} tries)"


def _backoff(attempt: int, api: Api) -> float:
    """S27.4: seconds before the next try when the API says nothing: 0.5, 1, 2, ... at most
    `max_retry_wait`."""
    return float(min(0.5 * 2 ** (attempt - 1), api.max_retry_wait))


def _retry_after(headers: list[tuple[str, str]], attempt: int, api: Api) -> float | None:
    """S27.4: the seconds a 429 or 503 asks to wait (`Retry-After`: seconds, or an HTTP
    date), else the backoff; None when that is past `max_retry_wait` (the answer stands)."""
    given = next((v for k, v in headers if k.lower() == "retry-after"), None)
    if given is None:
        return _backoff(attempt, api)
    try:
        wait = float(given)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(given)
        except (TypeError, ValueError):
            return _backoff(attempt, api)
        wait = (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    if not math.isfinite(wait):
        return None
    wait = max(wait, 0.0)
    return wait if wait <= api.max_retry_wait else None


def _answered(
    api: Api, plan: Plan, request: Request, received: Received
) -> tuple[dict[str, Any], str]:
    """The result of an answer received, and the log's word for it."""
    status, headers, body, more = received
    if more:
        return _oversized(api, request, headers, body, downloaded=True), "too-large"
    if not 100 <= status <= 599:  # S14.4: what the API said, as an answer (httpx takes 0-999)
        what = f"the API answered with status {status}, which is not an HTTP status (100-599)"
        return failure(api, request, what), "failed"
    if len(body) <= api.max_response_bytes:
        result = plan.result(status, headers, body, fields=request.fields)
        return _read_as_json(request, result), str(status)
    cut = _cut(api, plan, request, received)
    if cut is None:
        return _oversized(api, request, headers, body[: api.max_response_bytes]), "too-large"
    return _read_as_json(request, cut), f"{status} cut"


def _read_as_json(request: Request, result: dict[str, Any]) -> dict[str, Any]:
    """S25.5: the result, its text saying which arguments were read as the JSON they spell."""
    if request.read_as_json and result.get("content"):
        first = result["content"][0]
        if first.get("type") == "text":
            shown = ", ".join(f"`{path}`" for path in request.read_as_json)
            first["text"] += f"\n(toolshape: read as the JSON they spell: {shown})"
    return result


def _cut(api: Api, plan: Plan, request: Request, received: Received) -> dict[str, Any] | None:
    """S25.6: the result of a JSON answer past `max_response_bytes`, its longest arrays cut
    from their end to fit, saying so in its text and `_meta`; None when it can't be (not
    JSON, nothing to cut, or `on_large_response` is `error`). A sequential answer (S26.6) is
    cut as its structured items."""
    read = None if api.on_large_response == "error" else _to_cut(plan, request, received)
    fitted = None if read is None else fit(read[0], api.max_response_bytes)
    if read is None or fitted is None:
        return None
    whole = read[1]
    shorter, cuts = fitted
    compact = json.dumps(shorter, separators=(",", ":"), ensure_ascii=False)
    if whole is None:
        result = plan.result(received.status, received.headers, compact.encode("utf-8"))
    else:
        result = {**whole, "content": [{"type": "text", "text": compact}]}
        result["structuredContent"] = shorter
    if not cuts:
        return result
    said = "; ".join(f"{c.pointer} kept {c.kept} of {c.total} items" for c in cuts)
    result["content"][0]["text"] += (
        f"\n(toolshape: the answer is larger than {api.max_response_bytes} bytes "
        f"(--max-response-bytes), so arrays lost items from their end: {said})"
    )
    result["_meta"] = {TRUNCATED: [c.to_dict() for c in cuts]}
    return result


def _to_cut(
    plan: Plan, request: Request, received: Received
) -> tuple[Any, dict[str, Any] | None] | None:
    """S25.6: the value of an answer to cut — a JSON answer's (S25.7: kept to the call's
    fields), with None; a sequential answer's structured items, with its whole result — or
    None when it has none."""
    status, headers, body, _ = received
    kind, _ = media_type(headers)
    if plan.output_items and kind in SEQUENTIAL:  # S26.6
        whole = plan.result(status, headers, body, fields=request.fields)
        value = whole.get("structuredContent")
        return None if value is None else (value, whole)
    if not (is_json(kind) or not kind):
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if request.fields is not None and 200 <= status <= 299:  # S25.7, then cut to fit
        value = keep_fields(value, request.fields)
    return value, None


async def _exchange(
    http: httpx.AsyncClient,
    method: str,
    url: str,
    outbound: list[tuple[bytes, bytes]],
    content: bytes | None,
    limit: int,
) -> Received:
    """Status, headers, at most `limit` bytes of the body (counted after decompression), and
    whether there was more: reading stops there (S23.5: a larger answer, however long or
    however compressed, costs no more than the limit)."""
    try:
        async with http.stream(method, url, headers=outbound, content=content) as response:
            # A transport that hands over a body already read (httpx's `MockTransport`) has
            # decoded it too; from the network, it is inflated here, never past the limit.
            read = response.is_stream_consumed
            inflater = _Inflater("" if read else response.headers.get("content-encoding", ""))
            body = bytearray()
            async for chunk in _chunks(response) if read else response.aiter_raw():
                body += inflater.feed(chunk, limit + 1 - len(body))
                if len(body) > limit:
                    break
            else:
                body += inflater.rest(limit + 1 - len(body))
            headers = list(response.headers.multi_items())
            return Received(response.status_code, headers, bytes(body[:limit]), len(body) > limit)
    except httpx.TimeoutException:
        raise TimeoutError from None
    except httpx.ConnectError as error:
        raise Unreached(_connect_problem(error, url)) from None
    except (httpx.RemoteProtocolError, httpx.ReadError) as error:
        raise Failed(
            f"the connection was closed before the answer was complete ({error})"
        ) from None
    except httpx.InvalidURL as error:  # S14.4: a URL the client can't send is an answer too
        raise Failed(f"the URL can't be sent ({error})") from None
    except httpx.HTTPError as error:
        raise Failed(f"{type(error).__name__}: {error}") from None


async def _chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    yield response.content


class _Inflater:
    """An answer's body decoded as its `Content-Encoding` says (`gzip`, `deflate`, or none),
    never more than asked for at a time: a small compressed answer can inflate a thousand
    times, so the cap must hold while inflating, not after (S23.5).

    Raises:
        Failed: an encoding toolshape does not read, or a body it can't inflate.
    """

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding.strip().lower()
        if self.encoding in ("gzip", "x-gzip"):
            self.inflate: Any = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif self.encoding == "deflate":
            self.inflate = zlib.decompressobj()
        elif self.encoding in ("", "identity"):
            self.inflate = None
        else:
            raise Failed(f"the answer is in the {encoding!r} encoding, which toolshape can't read")
        self.first = True

    def feed(self, data: bytes, most: int) -> bytes:
        """At most `most` bytes of body from `data` (the rest of `data` is never inflated)."""
        if self.inflate is None:
            return data
        try:
            return bytes(self.inflate.decompress(data, most))
        except zlib.error as error:
            if self.encoding == "deflate" and self.first:  # a raw deflate stream, as some send
                self.inflate, self.first = zlib.decompressobj(-zlib.MAX_WBITS), False
                return self.feed(data, most)
            raise Failed(f"the answer's {self.encoding} body can't be read ({error})") from None
        finally:
            self.first = False

    def rest(self, most: int) -> bytes:
        """What the encoding still holds once the answer ended (at most `most` bytes)."""
        return b"" if self.inflate is None else bytes(self.inflate.flush(max(most, 1)))


def host_of(url: str) -> str:
    """The host (and port) of `url`, never its `user:password` (S23.5: texts reach the model)."""
    netloc = urlsplit(url).netloc
    return netloc.rpartition("@")[2]


def _connect_problem(error: httpx.ConnectError, url: str) -> str:
    host = host_of(url)
    cause = error.__cause__ or error.__context__
    while cause is not None and not isinstance(cause, ssl.SSLError):
        cause = cause.__cause__ or cause.__context__
    if cause is not None or "SSL" in str(error) or "certificate" in str(error).lower():
        return f"TLS with {host} failed ({error})"
    return f"can't connect to {host} ({error})"


def failure(api: Api, request: Request, what: str) -> dict[str, Any]:
    """S23.5: an `isError` result naming the API, the method, the URL path and what failed."""
    return error_text(f"{api.label}: {request.method} {request.path} failed: {what}")


def error_text(text: str) -> dict[str, Any]:
    """An `isError` result of one text."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _oversized(
    api: Api,
    request: Request,
    headers: list[tuple[str, str]],
    body: bytes,
    *,
    downloaded: bool = False,
) -> dict[str, Any]:
    """S23.5, S25.6: an answer past what is read (`downloaded`: past `max_download_bytes`) or
    carried (`max_response_bytes`, not cut): its start as text (or its kind, when it is
    binary); the rest was not read, or not kept."""
    kind, charset = media_type(headers)
    if downloaded:
        head = (
            f"the answer is larger than {api.read_limit} bytes (--max-download-bytes); "
            "the rest was not read"
        )
        body = body[: api.max_response_bytes]
    else:
        head = (
            f"the answer is larger than {api.max_response_bytes} bytes (--max-response-bytes) "
            "and can't be cut to fit"
        )
    if not is_text(kind):
        return failure(api, request, f"{head}; it is {kind} and is not shown")
    return failure(api, request, f"{head}; its first {len(body)} bytes:\n{decode(body, charset)}")
