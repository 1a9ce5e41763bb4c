"""S23.5, S14.4: what the upstream answers and what a server is given end in answers, never in
a crash — driven in memory through httpx's `MockTransport` (the upstream client's own seam) and
the `mcp` SDK's client: endless and inflating bodies, lone surrogates, statuses past 599, header
bytes past ASCII, URLs the client can't send, cursors, discovery's bounds and base URLs with a
user and password."""

from __future__ import annotations

import gzip
import json
import re
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests import upstream as up
from toolshape import Options, Plan, plan_document
from toolshape.server import Api, build_server

SERVE_OPTIONS = Options.preset(on_collision="rename", on_unflattenable="nested")
Handler = Callable[[httpx.Request], httpx.Response]


def plans() -> tuple[Plan, ...]:
    return plan_document(up.document(), style="flat", options=SERVE_OPTIONS).tools


def answer(
    handler: Handler, tool: str, arguments: Any, *, base_url: str = "http://api.test", **kw: Any
) -> types.CallToolResult:
    """Call `tool` of the echo API through a server whose upstream is `handler`."""
    api = Api(plans(), base_url=base_url, **kw)

    async def run() -> types.CallToolResult:
        async with (
            httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return await client.call_tool(tool, arguments)

    return anyio.run(run)


def text(result: types.CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, types.TextContent)
    return content.text


def json_answer(body: bytes, status: int = 200) -> Handler:
    return lambda request: httpx.Response(
        status, content=body, headers={"content-type": "application/json"}
    )


def test_reading_stops_at_the_cap_however_long_the_body() -> None:
    """S23.5 (finding 7): a long body (endless, to a server that reads it all) ends at the
    cap, not at the timeout, and says that the rest was not read."""
    sent = 0

    async def endless() -> AsyncIterator[bytes]:  # 10 MB, so a regression ends, and fails
        nonlocal sent
        yield b'"'
        while sent < 10_000:
            sent += 1
            yield b"x" * 1024

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=endless(), headers={"content-type": "text/plain"})

    result = answer(
        handler, "getBig", {}, max_response_bytes=4096, max_download_bytes=4096, timeout=60
    )
    assert result.is_error
    assert text(result).startswith(
        "api.test: GET /big failed: the answer is larger than 4096 bytes "
        '(--max-download-bytes); the rest was not read; its first 4096 bytes:\n"xxx'
    )
    assert sent < 10


def test_an_answer_that_inflates_past_the_cap_is_cut_where_it_passes_it() -> None:
    """S23.5 (finding 7): the cap counts the body after decompression, and inflating stops
    there, within each network read too: 64 KB reads of gzip that inflate to 64 MB each cost
    about the cap in memory (1 MB of gzip made 1 GiB on the event loop)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    zeros = b"0," * 2**19
    bomb = packer.compress(b"[") + b"".join(packer.compress(zeros) for _ in range(200))
    bomb += packer.compress(b"0]") + packer.flush()  # 200 MiB inflated
    reads = 0

    async def network() -> AsyncIterator[bytes]:  # as a socket gives it
        nonlocal reads
        for start in range(0, len(bomb), 65_536):
            reads += 1
            yield bomb[start : start + 65_536]

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json", "content-encoding": "gzip"}
        return httpx.Response(200, content=network(), headers=headers)

    tracemalloc.start()
    try:
        result = answer(
            handler, "getBig", {}, max_response_bytes=100_000, max_download_bytes=100_000
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.is_error
    assert "the answer is larger than 100000 bytes (--max-download-bytes)" in text(result)
    assert reads == 1  # the rest of the compressed body was never read
    assert peak < 16 * 2**20  # one read inflated whole would be 64 MB


def test_a_lone_surrogate_in_an_answer_reaches_the_client_as_u_fffd() -> None:
    """S14.4 (finding 2): JSON text may spell a lone surrogate, UTF-8 can't carry it; it is
    U+FFFD in `structuredContent` and the text says so (the stdio server exited on it)."""
    body = b'{"method": "GET", "path": "/things/a\\ud800", "query": "\\udc00"}'
    result = answer(json_answer(body), "getThing", {"id": "a"})
    assert result.is_error is False
    assert result.structured_content == {
        "method": "GET",
        "path": "/things/a\ufffd",
        "query": "\ufffd",
    }
    assert text(result) == body.decode() + (
        "\n(toolshape: the answer spells lone surrogates, which no client can be sent; each is "
        "U+FFFD in structuredContent)"
    )
    json.dumps(result.model_dump()).encode("utf-8")


@pytest.mark.parametrize("status", [600, 777, 999])
def test_a_status_past_599_is_an_answer(status: int) -> None:
    """S23.5, S14.4 (finding 10): an upstream status outside 100-599 is an `isError` result
    naming it (it raised out of `Plan.result`: a JSON-RPC error and a traceback)."""
    result = answer(json_answer(b"{}", status), "getThing", {"id": "a"})
    assert result.is_error
    assert text(result) == (
        f"api.test: GET /things/a failed: the API answered with status {status}, "
        "which is not an HTTP status (100-599)"
    )


def test_header_values_past_ascii_are_sent_as_their_latin_1_bytes() -> None:
    """S12.2 (finding 8): a header value toolshape accepts (Latin-1) reaches the API as its
    bytes — an argument, a server header and a credential alike (httpx sends ASCII only, so
    each was a JSON-RPC error)."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return json_answer(b'{"method": "POST", "path": "/things/a"}')(request)

    arguments = {"id": "a", "name": "n", "x-trace": "caf\u00e9"}
    result = answer(handler, "createThing", arguments, headers={"x-site": "M\u00fcnchen"})
    assert result.is_error is False
    (request,) = seen
    raw = dict(request.headers.raw)
    assert raw[b"x-trace"] == b"caf\xe9"
    assert raw[b"x-site"] == b"M\xfcnchen"
    answer(handler, "whoAmI", {}, credentials={"bearerAuth": "t\u00f6ken"})
    assert dict(seen[-1].headers.raw)[b"authorization"] == b"Bearer t\xf6ken"


def test_a_url_the_client_cant_send_is_an_answer() -> None:
    """S23.5 (finding 9): a request URL httpx refuses (a 70 KB query) is an `isError`
    result (`httpx.InvalidURL` escaped)."""
    result = answer(json_answer(b"{}"), "listThings", {"tag": ["x" * 70_000]})
    assert result.is_error
    assert text(result).startswith("api.test: GET /things failed: the URL can't be sent (")


def test_a_user_and_password_in_the_base_url_never_reach_the_model() -> None:
    """S23.5 (finding 6): failure texts name the host, never the base URL's userinfo."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    base = "http://alice:s3cret@api.test:8080"
    unnamed = answer(handler, "getThing", {"id": "a"}, base_url=base)
    named = answer(handler, "echo_getThing", {"id": "a"}, base_url=base, name="echo")
    assert (
        text(unnamed)
        == "api.test:8080: GET /things/a failed: can't connect to api.test:8080 (refused)"
    )
    assert text(named) == "echo: GET /things/a failed: can't connect to api.test:8080 (refused)"


@pytest.mark.parametrize("cursor", ["\u00b2", "1" * 5000, "-1", " 1", "1.0", "99"])
def test_a_cursor_the_server_never_gave_is_invalid_params(cursor: str) -> None:
    """S23.2 (finding 12): any cursor the server did not give is a JSON-RPC invalid-params
    error naming it (`²` and 5,000 digits raised ValueError)."""
    api = Api(plans(), base_url="http://api.test")

    async def run() -> None:
        async with Client(build_server([api], page_size=4), mode="legacy") as client:
            await client.list_tools(cursor=cursor)

    try:
        anyio.run(run)
    except BaseException as raised:  # an exception group around the client's error
        leaf: BaseException = raised
    else:  # pragma: no cover - the assertion's message
        raise AssertionError(f"the cursor {cursor!r} was accepted")
    while getattr(leaf, "exceptions", None):
        (leaf,) = leaf.exceptions  # type: ignore[attr-defined]
    assert isinstance(leaf, MCPError)
    assert leaf.error.code == types.INVALID_PARAMS
    assert leaf.error.message == f"Invalid cursor: {cursor[:40]!r}"


def discover(tool: str, arguments: Any, **kw: Any) -> types.CallToolResult:
    api = Api(plans(), base_url="http://api.test", **kw)

    async def run() -> types.CallToolResult:
        async with Client(build_server([api], discovery=True), mode="legacy") as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(run)


@pytest.mark.parametrize(
    ("query", "words", "characters"),
    [(" ".join(["thing"] * 65), 65, 389), ("x" * 1025, 1, 1025)],
    ids=["65-words", "1025-characters"],
)
def test_a_search_past_64_words_or_1024_characters_is_an_argument_error(
    query: str, words: int, characters: int
) -> None:
    """S27.7 (finding 1): a search's cost grows with its words, so a longer query is refused
    (a 56 KB query held the server 24 s)."""
    result = discover("search_operations", {"query": query})
    assert result.is_error
    assert text(result) == (
        "Invalid arguments for tool 'search_operations': query: a query takes at most 64 words "
        f"and 1024 characters; this one has {words} words and {characters} characters"
    )
    assert not discover("search_operations", {"query": " ".join(["thing"] * 64)}).is_error


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [("search_operations", {"query": "things"}), ("describe_operation", {"name": "whoAmI"})],
)
def test_under_pass_through_discovery_needs_the_callers_credential(
    tool: str, arguments: Any
) -> None:
    """S23.6 (finding 1): with pass-through, searching and describing need the caller's
    `Authorization` header as calling does (they answered without it)."""
    result = discover(tool, arguments, pass_through="bearerAuth")
    assert result.is_error
    assert text(result) == (
        "gateway error: this server passes each caller's own credential to the API, and this "
        "MCP request has no Authorization header"
    )


# -- totality over the server's inputs (S14.4) ----------------------------------------------------


def served_calls(handler: Handler, calls: list[tuple[str, Any]]) -> list[types.CallToolResult]:
    """Each `(tool, arguments)` called through one server whose upstream is `handler`."""
    api = Api(plans(), base_url="http://api.test", max_response_bytes=10_000)

    async def run() -> list[types.CallToolResult]:
        async with (
            httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return [await client.call_tool(tool, arguments) for tool, arguments in calls]

    return anyio.run(run)


@pytest.mark.laws
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 999),
    st.binary(max_size=64) | st.sampled_from([b'{"path": "\\ud800"}', b"[1,", b"null"]),
    st.sampled_from(
        ["application/json", "text/plain", "image/png", "", "application/x+json; charset=latin-1"]
    ),
    st.text(max_size=12),
)
def test_any_answer_and_any_header_argument_is_an_answer(
    status: int, body: bytes, kind: str, header: str
) -> None:
    """S14.4, S23.5: whatever the upstream answers (any status of three digits, any bytes, any
    content type) and whatever text a header argument holds, every call ends in a
    `CallToolResult` whose JSON UTF-8 can carry; never in a JSON-RPC error."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, content=body, headers={"content-type": kind} if kind else {})

    results = served_calls(
        handler,
        [
            ("getThing", {"id": "a"}),
            ("createThing", {"id": "a", "name": "n", "x-trace": header}),
            ("getBig", {}),
        ],
    )
    for result in results:
        json.dumps(result.model_dump(), ensure_ascii=False).encode("utf-8")


@pytest.mark.laws
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=30) | st.from_regex(r"[0-9]{1,30}", fullmatch=True))
@example("\u00b2")  # a digit to `isdigit`, not to `int`
def test_any_cursor_is_a_page_or_invalid_params(cursor: str) -> None:
    """S14.4, S23.2: any cursor text gives a page or an invalid-params error."""
    api = Api(plans(), base_url="http://api.test")

    async def run() -> types.ListToolsResult:
        async with Client(build_server([api], page_size=4), mode="legacy") as client:
            return await client.list_tools(cursor=cursor)

    try:
        page = anyio.run(run)
    except BaseException as raised:  # an exception group around the client's error
        leaf: BaseException = raised
        while getattr(leaf, "exceptions", None):
            (leaf,) = leaf.exceptions  # type: ignore[attr-defined]
        assert isinstance(leaf, MCPError), repr(leaf)
        assert leaf.error.code == types.INVALID_PARAMS
    else:
        assert cursor.isascii()
        assert cursor.isdecimal()
        assert int(cursor) < len(api.plans)
        assert page.tools


SETTINGS_TOKENS = [
    "[[api]]\n", "[api]\n", 'document = "echo.json"\n', 'plans = "p.json"\n', "timeout = ",
    "max_response_bytes = ", "style = ", "select = { tags = [1] }\n", "fixed = {a = ", "nan",
    "inf", "-1", "0", "1979-05-27", '"flat"', "[", "]", "{", "}", "\n", "x = 1\n", '"\\ud800"',
    "true", "= =", "headers = { a = 1 }\n", 'credentials = { k = "env:X" }\n',
]  # fmt: skip


@pytest.mark.laws
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SETTINGS_TOKENS), max_size=20))
@example(["[[api]]\n", 'document = "echo.json"\n', "style = ", "1979-05-27", "\n"])
def test_any_config_file_is_settings_or_a_settings_error(tokens: list[str]) -> None:
    """S14.4, S23.3: any text as a `--config` file gives settings or a `SettingsError` naming
    each problem; nothing else escapes."""
    import tempfile

    from toolshape import SettingsError
    from toolshape.server._settings import read_config

    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/serve.toml"
        with open(path, "w", encoding="utf-8") as file:
            file.write("".join(tokens))
        problems: list[str] = []
        try:
            read_config(path)
        except SettingsError as error:
            problems = list(error.problems)
            assert problems, "a SettingsError names its problems"


def raw_deflate(data: bytes) -> bytes:
    """`data` as a raw deflate stream (no zlib header), as some servers send `deflate`."""
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(
    ("encoding", "packed"),
    [
        ("gzip", gzip.compress(b'{"method": "GET", "path": "/p"}')),
        ("deflate", zlib.compress(b'{"method": "GET", "path": "/p"}')),
        ("deflate", raw_deflate(b'{"method": "GET", "path": "/p"}')),
        ("identity", b'{"method": "GET", "path": "/p"}'),
    ],
    ids=["gzip", "deflate", "raw-deflate", "identity"],
)
def test_an_encoded_answer_from_the_network_is_read_as_it_says(
    encoding: str, packed: bytes
) -> None:
    """S23.5: an answer from the network in `gzip` or `deflate` (zlib's, or raw as some send)
    is inflated by the server itself, so the cap holds while inflating."""

    async def network() -> AsyncIterator[bytes]:
        for start in range(0, len(packed), 7):
            yield packed[start : start + 7]

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.headers["accept-encoding"] == "gzip, deflate"
        headers = {"content-type": "application/json", "content-encoding": encoding}
        return httpx.Response(200, content=network(), headers=headers)

    result = answer(handler, "getThing", {"id": "a"})
    assert result.is_error is False
    assert result.structured_content == {"method": "GET", "path": "/p"}


def test_an_answer_in_an_encoding_toolshape_cant_read_is_an_answer_naming_it() -> None:
    """S23.5: only `gzip` and `deflate` are asked for; an answer in another encoding anyway is
    an `isError` result naming it."""

    async def network() -> AsyncIterator[bytes]:
        yield b"\x0b\x02\x80{}\x03"

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json", "content-encoding": "br"}
        return httpx.Response(200, content=network(), headers=headers)

    result = answer(handler, "getThing", {"id": "a"})
    assert result.is_error
    assert text(result) == (
        "api.test: GET /things/a failed: the answer is in the 'br' encoding, which toolshape "
        "can't read"
    )


def test_a_tools_input_schema_is_found_without_listing() -> None:
    """S27.9: the server gives the SDK each tool's input schema by name (without it, the SDK
    ran the whole `tools/list` handler on every call: 3.2 s for a last-page tool of a large
    server); it is the schema the tool is listed with."""
    api = Api(plans(), base_url="http://api.test")
    server = build_server([api], page_size=2)
    lookup = server.get_tool_input_schema
    assert lookup is not None

    async def listed() -> dict[str, Any]:
        async with Client(build_server([api], page_size=100), mode="legacy") as client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    schemas = anyio.run(listed)
    for plan in api.plans:
        assert lookup(plan.name) == schemas[plan.name]
    assert lookup("nope") is None
    found = build_server([api], discovery=True).get_tool_input_schema
    assert found is not None
    assert found("search_operations")["required"] == ["query"]  # type: ignore[index]


def test_the_server_says_its_version() -> None:
    """S25.9: `serverInfo.version` is the package's version."""
    import toolshape

    api = Api(plans(), base_url="http://api.test")

    async def run() -> Any:
        async with Client(build_server([api]), mode="legacy") as client:
            return client.server_info

    info = anyio.run(run)
    assert info.version == toolshape.__version__
    assert info.name == "toolshape"


def test_the_serve_extra_installs_what_its_http_client_needs() -> None:
    """S27.9: the `serve` extra asks for `sniffio` beside httpx (httpcore tried to import it
    on every lock it made without it: 12% of a call's samples), and for uvicorn's faster event
    loop and HTTP parser (uvloop where the platform has it), which uvicorn then runs on."""
    from importlib.metadata import requires

    serve = re.compile(r"extra\s*==\s*[\"']serve[\"']")
    wanted = [r for r in requires("toolshape") or [] if serve.search(r)]
    names = {re.split(r"[<>=!;\[ ]", r, maxsplit=1)[0] for r in wanted}
    assert {"httpx", "sniffio", "anyio", "uvicorn", "mcp", "uvloop", "httptools"} <= names
    import sniffio  # installed with the extra

    assert callable(sniffio.current_async_library)
    from uvicorn.config import Config

    async def app(scope: Any, receive: Any, send: Any) -> None: ...

    config = Config(app)
    config.load()  # what `http="auto"` became, without starting anything
    assert config.http_protocol_class.__module__ == "uvicorn.protocols.http.httptools_impl"


def test_the_workers_socket_gives_connections_without_nagles_delay() -> None:
    """S27.9: the socket `--workers` share is TCP by protocol, so asyncio sets `TCP_NODELAY`
    on each connection it accepts (uvicorn's protocol-0 socket left Nagle's algorithm on:
    about 45 ms a call with delayed ACKs, two workers slower than one)."""
    import asyncio
    import socket

    from toolshape.server._run import listening

    sock = listening("127.0.0.1", 0)
    assert sock.proto == socket.IPPROTO_TCP
    sock.listen()
    seen: list[int] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted = transport.get_extra_info("socket")
            seen.append(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def run() -> None:
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        port = sock.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    asyncio.run(run())
    assert seen == [1]


def pages_of(api: Api, **kw: Any) -> list[list[types.Tool]]:
    """Every `tools/list` page of a server of `api`, in order."""

    async def run() -> list[list[types.Tool]]:
        async with Client(build_server([api], **kw), mode="legacy") as client:
            pages, cursor = [], None
            while True:
                page = await client.list_tools(cursor=cursor)
                pages.append(list(page.tools))
                cursor = page.next_cursor
                if cursor is None:
                    return pages

    return anyio.run(run)


def tool_bytes(tool: types.Tool) -> int:
    data = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize(
    ("kw", "counts"),
    [
        ({}, [10]),  # 4 MiB by default: the whole API in one page
        ({"page_bytes": 2_000}, None),  # by bytes: each page within them
        ({"page_bytes": 1}, [1] * 10),  # a tool larger than a page is a page of its own
        ({"page_size": 4}, [4, 4, 2]),  # and at most `page_size` tools
        ({"page_size": 4, "page_bytes": 1}, [1] * 10),
    ],
)
def test_pages_hold_whole_tools_up_to_their_bytes(
    kw: dict[str, Any], counts: list[int] | None
) -> None:
    """S25.2: a `tools/list` page holds whole tools in document order up to `page_bytes` of
    them serialized (4 MiB by default) and at most `page_size`; a tool larger than that is a
    page of its own; every tool is listed once."""
    api = Api(plans(), base_url="http://api.test")
    pages = pages_of(api, **kw)
    assert [t.name for page in pages for t in page] == [p.name for p in api.plans]
    if counts is not None:
        assert [len(page) for page in pages] == counts
    else:
        assert len(pages) > 1
        assert any(len(page) > 1 for page in pages)
        limit = kw["page_bytes"]
        for page in pages:
            # the server counts its own JSON, a few bytes apart from the SDK's per tool
            assert len(page) == 1 or sum(tool_bytes(t) for t in page) <= limit + 64 * len(page)


def test_an_argument_read_as_json_is_said_in_the_result() -> None:
    """S25.5: an array sent as its JSON text reaches the API as the array, and the result's
    text says the argument was read as the JSON it spells."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return json_answer(b'{"method": "POST", "path": "/things/a"}')(request)

    result = answer(handler, "createThing", {"id": "a", "name": "n", "tags": '["x", "y"]'})
    assert result.is_error is False
    assert json.loads(seen[0].content) == {"name": "n", "tags": ["x", "y"]}
    assert text(result).endswith("\n(toolshape: read as the JSON they spell: `tags`)")


@pytest.mark.parametrize(
    "kw",
    [
        {"inline_refs": True},
        {"schema_view": "inline"},
        {"schema_view": "openai-strict", "inline_refs": True},
    ],
)
def test_a_server_lists_schemas_with_no_reference_when_asked(kw: dict[str, Any]) -> None:
    """S25.3: with `inline_refs` (or the `inline` view) no listed input or output schema
    holds a `$ref` or `$defs`, and calls still reach the API as the plan routes them."""
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "kids": {"type": "array", "items": {"$ref": "#/components/schemas/N"}},
        },
    }
    document = up.document()
    document["components"]["schemas"] = {"N": node}
    document["paths"]["/things"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ] = {"$ref": "#/components/schemas/N"}
    plans = plan_document(document, style="flat", options=SERVE_OPTIONS).tools
    api = Api(plans, base_url="http://api.test", **kw)

    async def run() -> list[types.Tool]:
        async with Client(build_server([api]), mode="legacy") as client:
            return list((await client.list_tools()).tools)

    listed = anyio.run(run)
    dumped = json.dumps([t.model_dump(mode="json", by_alias=True) for t in listed])
    assert '"$ref"' not in dumped
    assert '"$defs"' not in dumped
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return json_answer(b'{"name": "n", "kids": []}')(request)

    result = answer(handler, "listThings", {"limit": 2}, **kw)
    assert result.is_error is False
    assert seen[0].url.query == b"limit=2"


def listed_to(client: str, api: Api, **kw: Any) -> tuple[list[types.Tool], types.CallToolResult]:
    """What a client that says its name is `client` is listed, and its call of the last tool
    that needs no argument."""

    def handler(request: httpx.Request) -> httpx.Response:
        return json_answer(b'{"method": "GET", "path": "/x"}')(request)

    async def run() -> tuple[list[types.Tool], types.CallToolResult]:
        async with (
            httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
            Client(
                build_server([api], http=http, **kw),
                mode="legacy",
                client_info=types.Implementation(name=client, version="1"),
            ) as mcp,
        ):
            tools = list((await mcp.list_tools()).tools)
            missing = next(t.name for t in tools if t.name.startswith("getMissing"))
            return tools, await mcp.call_tool(missing, {})

    return anyio.run(run)


def long_named_plans() -> tuple[Plan, ...]:
    """The echo API's plans, their names made longer than 60 characters."""
    import dataclasses

    return tuple(
        dataclasses.replace(p, name=f"{p.name}_{'x' * 70}", diagnostics=()) for p in plans()
    )


def test_a_client_gets_its_profile_by_the_name_it_sends(caplog: pytest.LogCaptureFixture) -> None:
    """S25.4: under `auto`, Cursor (`cursor-vscode`) is listed every schema with no `$ref` and
    names of at most 60 characters (unique, each routing to its tool); an unknown client is
    listed the plans' own; the first request of each client logs its profile."""
    import logging

    api = Api(long_named_plans(), base_url="http://api.test")
    with caplog.at_level(logging.INFO, logger="toolshape.server"):
        cursor, answered = listed_to("cursor-vscode", api)
        other, _ = listed_to("some-client", api)
    assert all(len(t.name) <= 60 for t in cursor)
    assert len({t.name for t in cursor}) == len(cursor) == len(other)
    assert answered.is_error is False  # the cut name routed to its tool
    assert answered.structured_content == {"method": "GET", "path": "/x"}
    assert all(len(t.name) > 60 for t in other)
    dumped = json.dumps([t.model_dump(mode="json", by_alias=True) for t in cursor])
    assert '"$ref"' not in dumped
    lines = [r.getMessage() for r in caplog.records if r.name == "toolshape.server.clients"]
    assert lines == [
        "toolshape: client cursor-vscode: profile cursor",
        "toolshape: client some-client: profile mcp",
    ]


def test_a_fixed_profile_and_a_name_budget_apply_to_every_client() -> None:
    """S25.4: `client_profile` other than `auto` lists every client alike; `name_budget` cuts
    every name (a call under a cut name routes to its tool)."""
    api = Api(long_named_plans(), base_url="http://api.test")
    tools, answered = listed_to("cursor-vscode", api, client_profile="mcp", name_budget=40)
    assert all(len(t.name) <= 40 for t in tools)
    assert answered.is_error is False
    with pytest.raises(ValueError, match="client_profile can't be 'claude'"):
        build_server([api], client_profile="claude")


def statuses(*answers: int | str, retry_after: str | None = None) -> tuple[Handler, list[str]]:
    """An upstream answering each request with the next of `answers` (a status, or
    `refuse` for no connection), and the methods it was asked with."""
    seen: list[str] = []
    left = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        answer = left.pop(0) if len(left) > 1 else left[0]
        if answer == "refuse":
            raise httpx.ConnectError("refused", request=request)
        headers = {"content-type": "application/json"}
        if retry_after is not None:
            headers["retry-after"] = retry_after
        body = b'{"method": "GET", "path": "/things/a"}'
        return httpx.Response(int(answer), content=body, headers=headers)

    return handler, seen


@pytest.mark.parametrize(
    ("tool", "arguments", "answers", "kw", "tries", "error"),
    [
        ("getThing", {"id": "a"}, (503, 429, 200), {}, 3, False),
        ("getThing", {"id": "a"}, ("refuse", 200), {}, 2, False),
        ("getThing", {"id": "a"}, (503,), {}, 3, True),  # --retries 2: three tries in all
        ("getThing", {"id": "a"}, (503, 200), {"retries": 0}, 1, True),
        ("createThing", {"id": "a", "name": "n"}, (503, 200), {}, 1, True),  # POST: never
        ("getThing", {"id": "a"}, (503, 200), {"max_retry_wait": 0.0}, 2, False),
    ],
    ids=["503-429-200", "no-connection", "gives-up", "no-retries", "post-never", "wait-0"],
)
def test_idempotent_calls_are_tried_again(
    tool: str, arguments: Any, answers: tuple[Any, ...], kw: dict[str, Any], tries: int, error: bool
) -> None:
    """S27.4: GET, HEAD, OPTIONS, PUT, DELETE and QUERY are tried again on no connection, 429
    or 503, at most `retries` times more (2); POST and PATCH never are."""
    handler, seen = statuses(*answers, retry_after="0")
    result = answer(handler, tool, arguments, **kw)
    assert len(seen) == tries
    assert result.is_error is error


def test_a_retry_after_past_the_longest_wait_is_the_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """S27.4: a `Retry-After` longer than `max_retry_wait` is not waited for: the 503 is the
    answer; the log line counts the tries when there are several."""
    import logging

    handler, seen = statuses(503, 200, retry_after="60")
    result = answer(handler, "getThing", {"id": "a"}, max_retry_wait=10.0)
    assert len(seen) == 1
    assert result.is_error
    handler, seen = statuses(503, 200, retry_after="0")
    with caplog.at_level(logging.INFO, logger="toolshape.server"):
        answer(handler, "getThing", {"id": "a"})
    lines = [r.getMessage() for r in caplog.records if r.name == "toolshape.server"]
    assert lines[-1].split()[1:5] == ["getThing", "200", "(2", "tries)"]
