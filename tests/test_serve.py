"""S23: `toolshape serve` and `toolshape.server`, end to end against a real loopback upstream
(tests/upstream.py: Starlette under uvicorn) — in memory with the `mcp` SDK's client, and as
the installed command over stdio and streamable HTTP with the `mcp` SDK, FastMCP's `Client`,
pydantic-ai's `TestModel` and the official TypeScript SDK."""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests import upstream as up
from tests.conftest import NODE, typescript_calls, typescript_sdk
from toolshape import Options, Plan, dump_plans, plan_document
from toolshape.cli import main
from toolshape.server import Api, build_server, credential_of

T = TypeVar("T")
SERVE_OPTIONS = Options.preset(on_collision="rename", on_unflattenable="nested")


@pytest.fixture(scope="module")
def upstream() -> Iterator[up.Upstream]:
    yield from up.running()


def plans(base_url: str | None = None) -> tuple[Plan, ...]:
    return plan_document(up.document(base_url), style="flat", options=SERVE_OPTIONS).tools


def served(
    apis: list[Api],
    work: Callable[[Client], Awaitable[T]],
    upstream: up.Upstream | None = None,
    **kw: Any,
) -> T:
    """Run `work` with the `mcp` SDK's client connected in memory to `build_server(apis)`;
    with `upstream`, the server's requests reach that upstream's app in memory too."""

    async def run() -> T:
        if upstream is None:
            async with Client(build_server(apis, **kw), mode="legacy") as client:
                return await work(client)
        async with (
            up.client(upstream) as http,
            Client(build_server(apis, http=http, **kw), mode="legacy") as client,
        ):
            return await work(client)

    return anyio.run(run)


def call(
    api: Api, name: str, arguments: Any, upstream: up.Upstream | None = None
) -> types.CallToolResult:
    return served([api], lambda client: client.call_tool(name, arguments), upstream)


@pytest.fixture
def memory() -> up.Upstream:
    """The test upstream's app, answering in memory (no socket: what most tests need)."""
    return up.in_memory()


def leaves(error: BaseException) -> list[BaseException]:
    """The exceptions an exception group holds (at any depth), or the exception itself."""
    inner = getattr(error, "exceptions", None)  # an exception group (3.11's, or anyio's backport)
    if isinstance(inner, tuple):
        return [leaf for one in inner for leaf in leaves(one)]
    return [error]


def text(result: types.CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, types.TextContent)
    return content.text


# -- the server in memory ----------------------------------------------------------------------


def test_a_call_reaches_the_upstream_as_the_request_the_plan_makes(memory: up.Upstream) -> None:
    api = Api(plans(), base_url=memory.base_url)
    before = len(memory.seen)
    arguments = {"id": "t 1", "verbose": True, "x-trace": "abc", "name": "n", "tags": ["a"]}
    result = call(api, "createThing", arguments, memory)
    (seen,) = memory.since(before)
    expected = api.plans[0].call(arguments)
    assert (seen.method, seen.path, seen.query) == ("POST", "/things/t 1", "verbose=true")
    assert expected.url == "/things/t%201?verbose=true"  # the request the plan makes, as sent
    assert seen.headers["x-trace"] == "abc"
    assert json.loads(seen.body) == {"name": "n", "tags": ["a"]}
    assert result.is_error is False
    assert result.structured_content is not None
    assert result.structured_content["path"] == "/things/t 1"


@pytest.mark.parametrize(
    ("name", "arguments", "check"),
    [
        ("getImage", {}, lambda r: r.content[0].type == "image" and not r.is_error),
        (
            "getMissing",
            {},
            lambda r: r.is_error and text(r) == 'HTTP 404: {"error":"no such thing"}',
        ),
        ("getMoved", {}, lambda r: not r.is_error and text(r) == ""),  # a 302, not followed
        (
            "createThing",
            {"id": "t1"},
            lambda r: r.is_error and '"name" is a required property' in text(r),
        ),
    ],
    ids=["image", "404", "no-redirect", "argument-error"],
)
def test_answers_by_kind(memory: up.Upstream, name: str, arguments: Any, check: Any) -> None:
    """S16.4, S23.5: an image is an image; a 404 an error with its body; a redirect is the
    API's answer, never followed; an argument error never reaches the upstream (S13.6)."""
    before = len(memory.seen)
    assert check(call(Api(plans(), base_url=memory.base_url), name, arguments, memory))
    assert len(memory.since(before)) == (0 if name == "createThing" else 1)


def test_upstream_failures_are_answers_and_the_server_keeps_serving(upstream: up.Upstream) -> None:
    """S23.5: a timeout, a dropped connection, a host that is down and an answer too large are
    `isError` results naming the API, the method, the path and what failed."""
    api = Api(plans(), base_url=upstream.base_url, name="echo", timeout=0.5, max_response_bytes=100)
    down = Api(plans(), base_url=f"http://127.0.0.1:{up.free_port()}", name="down")

    async def work(client: Client) -> list[types.CallToolResult]:
        return [
            await client.call_tool("echo_getSlow", {}),
            await client.call_tool("echo_getDropped", {}),
            await client.call_tool("down_getThing", {"id": "x"}),
            await client.call_tool("echo_getBig", {"size": 1000}),
            await client.call_tool("echo_getThing", {"id": "after"}),
        ]

    slow, dropped, refused, big, after = served([api, down], work)
    assert text(slow) == "echo: GET /slow failed: no answer within 0.5 s (--timeout)"
    assert text(dropped).startswith(
        "echo: GET /drop failed: the connection was closed before the answer was complete"
    )
    assert text(refused).startswith("down: GET /things/x failed: can't connect to 127.0.0.1:")
    assert text(big).startswith(
        "echo: GET /big failed: the answer is larger than 100 bytes (--max-response-bytes) "
        "and can't be cut to fit; its first 100 bytes:\n\"xxxx"
    )
    assert all(r.is_error for r in (slow, dropped, refused, big))
    assert after.is_error is False
    assert after.structured_content is not None
    assert after.structured_content["path"] == "/things/after"


def test_a_tls_failure_is_an_answer_naming_it(upstream: up.Upstream) -> None:
    """S23.5: TLS with a server that speaks plain HTTP fails; the answer says so."""
    https = upstream.base_url.replace("http://", "https://")
    result = call(Api(plans(), base_url=https, name="echo"), "echo_getThing", {"id": "t"})
    assert result.is_error
    assert text(result).startswith("echo: GET /things/t failed: TLS with 127.0.0.1:")


def test_tools_list_is_paginated(memory: up.Upstream) -> None:
    """S23.2: pages of `page_size` tools with cursors; every tool once, in order."""
    api = Api(plans(), base_url=memory.base_url)

    async def work(client: Client) -> list[list[str]]:
        pages, cursor = [], None
        while True:
            page = await client.list_tools(cursor=cursor)
            pages.append([t.name for t in page.tools])
            cursor = page.next_cursor
            if cursor is None:
                return pages

    pages = served([api], work, memory, page_size=4)
    assert [len(p) for p in pages] == [4, 4, 2]
    assert [name for page in pages for name in page] == [p.name for p in api.plans]

    async def bad(client: Client) -> Any:
        return await client.list_tools(cursor="999")

    try:
        served([api], bad, memory)
    except BaseException as raised:
        (error,) = leaves(raised)
    else:  # pragma: no cover - the assertion's message
        raise AssertionError("a cursor the server never gave was accepted")
    assert isinstance(error, MCPError)
    assert error.error.message == "Invalid cursor: '999'"


def test_several_apis_are_prefixed_and_names_must_differ(memory: up.Upstream) -> None:
    one = Api(plans(), base_url=memory.base_url, name="a")
    two = Api(plans(), base_url=memory.base_url, name="b")

    async def work(client: Client) -> list[str]:
        return [t.name for t in (await client.list_tools()).tools]

    names = served([one, two], work, memory)
    assert names[:2] == ["a_createThing", "a_getThing"]
    assert "b_getBig" in names
    with pytest.raises(ValueError, match="two tools are named 'createThing'"):
        build_server([Api(plans(), base_url="http://x"), Api(plans(), base_url="http://y")])


def test_one_log_line_per_call_with_no_value_in_it(
    memory: up.Upstream, caplog: pytest.LogCaptureFixture
) -> None:
    """S23.8: tool, status, milliseconds; never an argument value or a credential."""
    api = Api(plans(), base_url=memory.base_url, credentials={"bearerAuth": "s3cr3t-token"})

    async def work(client: Client) -> None:
        await client.call_tool("createThing", {"id": "secret-id", "name": "secret-name"})
        await client.call_tool("whoAmI", {})
        await client.call_tool("createThing", {"id": "x"})  # refused

    with caplog.at_level(logging.INFO, logger="toolshape.server"):
        served([api], work, memory)
    lines = [r.getMessage() for r in caplog.records if r.name == "toolshape.server"]
    assert len(lines) == 3
    assert [line.split()[1:3] for line in lines] == [
        ["createThing", "200"],
        ["whoAmI", "200"],
        ["createThing", "refused"],
    ]
    assert all(line.endswith(" ms") for line in lines)
    assert not any("secret" in line or "s3cr3t" in line for line in lines)
    assert memory.seen[-1].headers["authorization"] == "Bearer s3cr3t-token"


def test_discovery_lists_three_tools_that_find_describe_and_call(memory: up.Upstream) -> None:
    """S23.7: `search_operations`, `describe_operation`, `call_operation` — the last routed
    exactly as the tool itself would be."""
    api = Api(plans(), base_url=memory.base_url)

    async def work(client: Client) -> tuple[Any, ...]:
        listed = await client.list_tools()
        found = await client.call_tool("search_operations", {"query": "things", "limit": 3})
        described = await client.call_tool("describe_operation", {"name": "createThing"})
        called = await client.call_tool(
            "call_operation", {"name": "getThing", "arguments": {"id": "d1"}}
        )
        unknown = await client.call_tool("call_operation", {"name": "nope", "arguments": {}})
        return listed, found, described, called, unknown

    listed, found, described, called, unknown = served([api], work, memory, discovery=True)
    assert [t.name for t in listed.tools] == [
        "search_operations",
        "describe_operation",
        "call_operation",
    ]
    rows = json.loads(text(found))["operations"]
    assert [r["name"] for r in rows] == ["listThings", "createThing", "getThing"]
    assert json.loads(text(described)) == api.plans[0].to_mcp_tool()
    assert called.structured_content is not None
    assert called.structured_content["path"] == "/things/d1"
    assert unknown.is_error
    assert "no operation is named 'nope'" in text(unknown)


@pytest.mark.parametrize(
    ("header", "kind", "scheme", "value"),
    [
        ("Bearer abc", "http", "bearer", "abc"),
        ("bearer abc", "oauth2", "bearer", "abc"),
        ("Basic " + base64.b64encode(b"user:pw").decode(), "http", "basic", "user:pw"),
        ("Basic !!!", "http", "basic", None),
        ("Token abc", "http", "bearer", None),
        ("key-123", "apiKey", None, "key-123"),
        ("Bearer key-123", "apiKey", None, "key-123"),
    ],
)
def test_the_credential_an_authorization_header_carries(
    header: str, kind: str, scheme: str | None, value: str | None
) -> None:
    """S23.6: what `--pass-through-auth` reads from the MCP request's own header."""
    from toolshape import SecurityScheme

    location = "header"
    given = SecurityScheme("s", kind, location, "authorization", scheme)  # type: ignore[arg-type]
    assert credential_of(header, given) == value


# -- the command, over stdio and streamable HTTP -----------------------------------------------


def write_document(folder: Path, base_url: str | None) -> Path:
    path = folder / "echo.json"
    path.write_text(json.dumps(up.document(base_url)), encoding="utf-8")
    return path


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "toolshape", "serve", *args]


@contextmanager
def http_server(
    *args: str, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[str]:
    """`toolshape serve --transport http` in a process of its own; yields its MCP URL."""
    port = up.free_port()
    command = serve_command(*args, "--transport", "http", "--port", str(port))
    errors = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(command, stderr=errors, env={**os.environ, **(env or {})})
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"toolshape serve exited with {process.returncode}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=15)
        if log is not None:
            errors.close()  # type: ignore[union-attr]


@pytest.mark.integration
def test_the_command_over_stdio_with_the_base_url_from_the_document(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S23.2, S23.4: `toolshape serve SPEC` (no `--base-url`: the document's server)."""
    spec = write_document(tmp_path, upstream.base_url)
    params = StdioServerParameters(command=sys.executable, args=serve_command(str(spec))[1:])

    async def run() -> tuple[list[str], types.CallToolResult]:
        async with Client(params) as client:
            listed = await client.list_tools()
            return [t.name for t in listed.tools], await client.call_tool("getThing", {"id": "s1"})

    names, result = anyio.run(run)
    assert names == [p.name for p in plans()]
    assert result.structured_content is not None
    assert result.structured_content["path"] == "/things/s1"


@pytest.mark.integration
def test_the_command_over_http_with_the_mcp_sdk_and_fastmcp(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S23.2: streamable HTTP at `/mcp`, to the `mcp` SDK's client and FastMCP's."""
    from fastmcp import Client as FastClient

    spec = write_document(tmp_path, None)
    with http_server(str(spec), "--base-url", upstream.base_url) as url:

        async def run() -> tuple[Any, ...]:
            async with Client(url) as client:
                ours = await client.call_tool("getThing", {"id": "h1"})
            async with FastClient(url) as fast:
                tools = await fast.list_tools()
                theirs = await fast.call_tool("listThings", {"limit": 2, "tag": ["a", "b"]})
            return ours, tools, theirs

        ours, tools, theirs = anyio.run(run)
    assert ours.structured_content["path"] == "/things/h1"
    assert len(tools) == len(plans())
    assert theirs.structured_content["query"] == "limit=2&tag=a&tag=b"


@pytest.mark.integration
def test_pass_through_each_caller_reaches_the_api_as_itself(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S23.6: two clients with their own `Authorization` headers; the upstream sees each; no
    credential appears in a log line, a result or an error; no header, an `isError`."""
    spec = write_document(tmp_path, upstream.base_url)
    log = tmp_path / "serve.log"
    with http_server(str(spec), "--pass-through-auth", "bearerAuth", log=log) as url:

        async def as_user(token: str | None) -> types.CallToolResult:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            async with (
                httpx2.AsyncClient(headers=headers) as http,
                Client(streamable_http_client(url, http_client=http)) as client,
            ):
                return await client.call_tool("whoAmI", {})

        async def run() -> list[types.CallToolResult]:
            return [await as_user("alice-t0ken"), await as_user("bob-t0ken"), await as_user(None)]

        before = len(upstream.seen)
        alice, bob, nobody = anyio.run(run)
    seen = [s.headers.get("authorization") for s in upstream.since(before)]
    assert seen == ["Bearer alice-t0ken", "Bearer bob-t0ken"]
    assert alice.is_error is False
    assert bob.is_error is False
    assert nobody.is_error is True
    assert "no Authorization header" in text(nobody)
    logged = log.read_text(encoding="utf-8")
    assert logged.count("whoAmI") == 3
    for secret in ("alice-t0ken", "bob-t0ken"):
        assert secret not in logged
        assert all(secret not in json.dumps(r.model_dump()) for r in (alice, bob, nobody))


@pytest.mark.integration
def test_pass_through_sends_any_token_as_it_is(upstream: up.Upstream, tmp_path: Path) -> None:
    """S23.6: a caller's token is sent as it is, whatever it starts with (a token starting
    with `!` once read as the server's own refusal, shown in the result)."""
    spec = write_document(tmp_path, upstream.base_url)
    with http_server(str(spec), "--pass-through-auth", "bearerAuth") as url:

        async def run() -> types.CallToolResult:
            headers = {"authorization": "Bearer !bang-t0ken"}
            async with (
                httpx2.AsyncClient(headers=headers) as http,
                Client(streamable_http_client(url, http_client=http)) as client,
            ):
                return await client.call_tool("whoAmI", {})

        before = len(upstream.seen)
        answer = anyio.run(run)
    assert [s.headers.get("authorization") for s in upstream.since(before)] == [
        "Bearer !bang-t0ken"
    ]
    assert answer.is_error is False
    assert "bang-t0ken" not in json.dumps(answer.model_dump())


@pytest.mark.integration
def test_pydantic_ai_test_model_calls_every_tool_as_the_plan_routes_it(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S23.2: pydantic-ai's `TestModel` calls every tool with arguments it makes from each
    input schema; each call reaches the upstream as the request the plan makes of them."""
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel

    spec = write_document(tmp_path, upstream.base_url)
    by_name = {p.name: p for p in plans()}
    with http_server(str(spec), "--timeout", "1") as url:
        agent = Agent(TestModel(), toolsets=[MCPToolset(url, tool_error_behavior="failed")])
        before = len(upstream.seen)
        run = anyio.run(agent.run, "call every tool")  # not run_sync: it leaves a loop open
    called = [
        part
        for message in run.all_messages()
        for part in getattr(message, "parts", [])
        if isinstance(part, ToolCallPart)
    ]
    assert sorted({c.tool_name for c in called}) == sorted(by_name)
    seen = upstream.since(before)
    for part in called:
        request = by_name[part.tool_name].call(part.args_as_dict())
        path, _, query = request.url.partition("?")
        matches = [s for s in seen if (s.method, s.path, s.query) == (request.method, path, query)]
        assert matches, (part.tool_name, request.url)
        if request.body is not None and request.content_type == "application/json":
            assert any(json.loads(s.body) == request.body for s in matches)


@pytest.mark.integration
@typescript_sdk()
def test_the_typescript_client_lists_and_accepts_every_answer(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S16.7, S23.2: the official TypeScript client (which validates `structuredContent`
    against `outputSchema`) lists every page and accepts every answer, drifting ones too."""
    spec = write_document(tmp_path, upstream.base_url)
    calls = [
        ["createThing", {"id": "ts1", "name": "n"}],
        ["getThing", {"id": "ts2"}],
        ["listThings", {"limit": 1}],
        ["getImage", {}],
        ["getMissing", {}],
        ["getBig", {"size": 10}],
    ]
    with http_server(str(spec), "--page-size", "4") as url:
        answer = typescript_calls(url, calls)
    assert answer["names"] == [p.name for p in plans()]
    errors = [r["error"] for r in answer["results"] if "error" in r]
    assert errors == []
    results = [r["result"] for r in answer["results"]]
    assert results[0]["structuredContent"]["path"] == "/things/ts1"
    assert results[3]["content"][0]["type"] == "image"
    assert results[4]["isError"] is True


@pytest.mark.integration
@typescript_sdk()
def test_the_typescript_client_accepts_an_answer_kept_to_its_fields(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S25.7, S25.8: with `--response-fields`, the official TypeScript client (which checks
    `structuredContent` against `outputSchema`) accepts an answer kept to the `fields` it
    asked for, and an argument error about a path the answer does not have."""
    spec = write_document(tmp_path, upstream.base_url)
    calls = [
        ["getThing", {"id": "f1", "fields": ["path"]}],
        ["getThing", {"id": "f2", "fields": ["nope"]}],
    ]
    with http_server(str(spec), "--response-fields") as url:
        report = typescript_calls(url, calls)
    kept, refused = report["results"]
    assert kept["result"]["structuredContent"] == {"path": "/things/f1"}
    assert kept["result"].get("isError") is not True
    assert refused["result"]["isError"] is True
    assert "structuredContent" not in refused["result"]
    assert '"nope" is not in the output schema' in refused["result"]["content"][0]["text"]


@pytest.mark.integration
def test_two_workers_serve_one_plans_file(upstream: up.Upstream, tmp_path: Path) -> None:
    """S23.2: stateless HTTP, so `--workers 2` serve one plans file; every answer is the same
    whichever worker gave it, and both workers answer."""
    result = plan_document(up.document(upstream.base_url), style="flat", options=SERVE_OPTIONS)
    plans_file = tmp_path / "plans.json"
    plans_file.write_text(json.dumps(dump_plans(result)), encoding="utf-8")
    log = tmp_path / "workers.log"
    with http_server("--plans", str(plans_file), "--workers", "2", log=log) as url:

        async def run() -> list[Any]:
            answers = []
            for _ in range(24):
                async with Client(url) as client:
                    answer = await client.call_tool("getThing", {"id": "w"})
                    answers.append(answer.structured_content)
            return answers

        answers = anyio.run(run)
    assert len({json.dumps(a, sort_keys=True) for a in answers}) == 1
    pids = {
        line.split()[0]
        for line in log.read_text(encoding="utf-8").splitlines()
        if "getThing" in line
    }
    assert len(pids) == 2


# -- settings, checked before anything starts -----------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(list(argv), io.StringIO(), err)
    return code, err.getvalue()


CONFIG = """
[[api]]
name = "echo"
document = "echo.json"
base_url = "{base}"
timeout = 5
credentials = {{ bearerAuth = "env:ECHO_TOKEN" }}
headers = {{ "X-Team" = "tools" }}
select = {{ tags = ["things"] }}

[[api]]
name = "again"
plans = "plans.json"
"""


#: Two APIs from one document without names (their tools clash), the first with credentials of
#: every wrong kind.
CLASHING = """
[[api]]
document = "echo.json"
credentials = { bearerAuth = "env:NOT_SET_ANYWHERE", nope = "env:HOME", literal = "abc" }

[[api]]
document = "echo.json"
"""


def test_a_config_file_with_every_kind_of_problem_is_refused_naming_each(tmp_path: Path) -> None:
    """S23.3: an unknown key, a wrong type, an unset variable, a scheme the document does not
    define, two tools with one name — every problem, each naming its key; exit 2."""
    write_document(tmp_path, "http://127.0.0.1:9")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        """
[[api]]
document = "echo.json"
colour = "red"
timeout = "soon"
style = "flatt"
on_collision = "nestd"
select = { tagz = ["x"] }
"""
        + CLASHING,
        encoding="utf-8",
    )
    code, err = run_cli("serve", "--config", str(bad))
    assert code == 2
    assert err.splitlines() == [
        f"toolshape: {bad}: `api[0].colour` is not a setting",
        f'toolshape: {bad}: `api[0].timeout` must be a number, not "soon"',
        f'toolshape: {bad}: `api[0].style` is "flatt"; use flat or nested',
        f"toolshape: {bad}: `api[0].select` holds a key that is not a selection ('tagz')",
        f"toolshape: {bad}: `api[0]`: option 'on_collision' can't be 'nestd'; use one of 'error', 'nested', 'rename'",
    ]
    del bad
    good_but_clashing = tmp_path / "clash.toml"
    good_but_clashing.write_text(CLASHING, encoding="utf-8")
    code, err = run_cli("serve", "--config", str(good_but_clashing))
    assert code == 2
    where = f"toolshape: {good_but_clashing}: "
    assert err.splitlines() == [
        f"{where}`api[0].credentials.bearerAuth`: the environment variable NOT_SET_ANYWHERE is not set",
        f"{where}`api[0].credentials.nope`: the document defines no security scheme `nope` (it defines: bearerAuth)",
        f"{where}`api[0].credentials.literal`: give env:VAR, or client-credentials:env:ID:env:SECRET (a credential is read from the environment, never written in clear)",
        f"{where}two tools are named 'createThing' (and 9 more names); give each API its own `name`",
    ]


def test_flags_that_cant_go_together_are_refused(tmp_path: Path) -> None:
    spec = write_document(tmp_path, None)
    cases = [
        (["serve"], "give one of SPEC, --plans FILE and --config FILE"),
        (
            ["serve", str(spec), "--pass-through-auth", "bearerAuth"],
            "--pass-through-auth needs --transport http",
        ),
        (
            ["serve", "--config", "x.toml", "--base-url", "http://x"],
            "--base-url: with --config, each API's settings are in the file",
        ),
        (["serve", str(spec)], "--base-url: the document names no server; give the API's base URL"),
        (
            ["serve", str(spec), "--base-url", "api.example.com"],
            "--base-url: 'api.example.com' is not an http or https URL",
        ),
        (
            ["serve", str(spec), "--base-url", "http://x", "--header", "X-Key abc"],
            "--header 'X-Key abc' is not 'NAME: VALUE'",
        ),
        (
            ["serve", str(spec), "--base-url", "http://x", "--operation", "get_users"],
            "`select` matches none of the 10 operations",
        ),
    ]
    for argv, message in cases:
        code, err = run_cli(*argv)
        assert code == 2, argv
        assert message in err, (argv, err)


def test_a_relative_server_asks_for_a_base_url(tmp_path: Path) -> None:
    """S23.4: a relative first server can't be called."""
    spec = write_document(tmp_path, "/v1")
    code, err = run_cli("serve", str(spec))
    assert code == 2
    assert "the document's first server `/v1` is relative; give the API's base URL" in err


@pytest.mark.integration
def test_pydantic_ai_runs_openai_tools_strict_through_the_strict_view(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S22.6: `toolshape serve --schema-view openai-strict`: pydantic-ai (with an OpenAI model's
    profile) marks the tools strict by its own check, and a call with `null` for the optional
    arguments reaches the upstream without them."""
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.profiles.openai import openai_model_profile

    spec = write_document(tmp_path, upstream.base_url)
    seen_tools: dict[str, Any] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) > 1:
            return ModelResponse(parts=[TextPart("done")])
        seen_tools.update((tool.name, tool) for tool in info.function_tools)
        arguments = {
            "id": "s1",
            "verbose": None,
            "x-trace": None,
            "name": "n",
            "tags": None,
            "size": None,
        }
        return ModelResponse(parts=[ToolCallPart("createThing", arguments)])

    function_model = FunctionModel(model, profile=openai_model_profile("gpt-4o"))
    with http_server(str(spec), "--schema-view", "openai-strict") as url:
        agent = Agent(function_model, toolsets=[MCPToolset(url, tool_error_behavior="error")])
        before = len(upstream.seen)
        anyio.run(agent.run, "make a thing")
    assert seen_tools["createThing"].strict is True
    assert seen_tools["getThing"].strict is True
    ((seen,),) = [upstream.since(before)]
    assert (seen.method, seen.path, seen.query) == ("POST", "/things/s1", "")
    assert "x-trace" not in seen.headers
    assert json.loads(seen.body) == {"name": "n"}


def test_a_gemini_view_is_listed_and_read_back(memory: up.Upstream) -> None:
    """S22.6: with `schema_view="gemini"` each tool's input schema is the Gemini view's, and a
    call made in that shape reads back before the plan judges it."""
    from toolshape import model_tool

    api = Api(plans(), base_url=memory.base_url, schema_view="gemini")

    async def work(client: Client) -> tuple[Any, types.CallToolResult]:
        listed = await client.list_tools()
        return listed, await client.call_tool("listThings", {"limit": None, "tag": ["a"]})

    listed, answer = served([api], work, memory)
    by_name = {t.name: t for t in listed.tools}
    for made in api.plans:
        assert by_name[made.name].input_schema == model_tool(made, "gemini").parameters
    assert answer.structured_content is not None
    assert answer.structured_content["query"] == "tag=a"  # `limit: null` read as absent


@pytest.mark.parametrize(
    ("base_url", "problem"),
    [
        ("http://h:abc", "is not a URL a client can send (Port could not be cast to integer"),
        ("http://[::1", "is not a URL a client can send (Invalid IPv6 URL)"),
        ("http://h:99999", "is not a URL a client can send (Port out of range 0-65535)"),
        ("http://h/v1?key=1", "has a query or fragment (`?`, `#`): each call's path and query"),
        ("http://h/v1#top", "has a query or fragment (`?`, `#`): each call's path and query"),
        ("http://alice:s3cret@h:abc", "is not a URL a client can send ("),
    ],
)
def test_a_base_url_no_call_can_be_sent_to_is_refused_at_start(
    tmp_path: Path, base_url: str, problem: str
) -> None:
    """S23.4 (findings 9, 16): a base URL httpx can't send, or whose query or fragment every
    call's path would follow, is refused before anything starts (exit 2), its password never
    shown (each raised `httpx.InvalidURL` on every call, or misrouted it)."""
    spec = write_document(tmp_path, None)
    code, err = run_cli("serve", str(spec), "--base-url", base_url)
    assert code == 2
    assert (
        f"toolshape: toolshape serve: --base-url: {base_url.replace('s3cret', '***')!r} {problem}"
        in err
    )
    assert "s3cret" not in err
    served_at = write_document(tmp_path, "https://api.example.com/v1?beta=true")
    code, err = run_cli("serve", str(served_at))
    assert code == 2
    assert "the document's first server `https://api.example.com/v1?beta=true` has a query" in err


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["--timeout", "nan"], "--timeout can't be nan: give seconds above 0"),
        (["--timeout", "inf"], "--timeout can't be inf: give seconds above 0"),
        (["--timeout", "0"], "--timeout can't be 0.0: give seconds above 0"),
        (["--timeout", "-1"], "--timeout can't be -1.0: give seconds above 0"),
        (
            ["--max-response-bytes", "-1"],
            "--max-response-bytes can't be -1: give a number of bytes",
        ),
    ],
)
def test_limits_that_would_break_every_call_are_refused_at_start(
    tmp_path: Path, flags: list[str], problem: str
) -> None:
    """S23.5 (finding 11): a timeout of `nan`, `inf`, 0 or less, or a response cap below one
    byte, is exit 2 naming the flag (each started, then broke every call)."""
    spec = write_document(tmp_path, "http://127.0.0.1:9")
    code, err = run_cli("serve", str(spec), *flags)
    assert code == 2
    assert f"toolshape: toolshape serve: {problem}" in err


def test_a_config_files_values_are_each_checked_and_named(tmp_path: Path) -> None:
    """S23.3, S24.2 (findings 11, 14): `nan` and `inf` limits, a TOML date as a style, a date
    in `fixed` (workers get their settings as JSON), a list of numbers as tags and a text as
    `deprecated` are each a problem naming its key, in JSON words; nothing raises."""
    write_document(tmp_path, "http://127.0.0.1:9")
    config = tmp_path / "bad.toml"
    config.write_text(
        """
[[api]]
document = "echo.json"
timeout = nan
max_response_bytes = 0
style = 1979-05-27
fixed = { since = 1979-05-27T07:32:00Z }
select = { tags = [1] }

[[api]]
document = "echo.json"
name = "b"
timeout = inf
select = { deprecated = "no" }
""",
        encoding="utf-8",
    )
    code, err = run_cli("serve", "--config", str(config), "--transport", "http", "--workers", "2")
    assert code == 2
    assert err.splitlines() == [
        f"toolshape: {config}: `api[0].style` must be text, not 1979-05-27",
        f"toolshape: {config}: `api[0].fixed` `since` is not a JSON value (Object of type "
        "datetime is not JSON serializable)",
        f"toolshape: {config}: `api[0].select` Select's tags must be a list of text, not [1]",
        f'toolshape: {config}: `api[1].select` Select\'s deprecated must be true or false, not "no"',
    ]
    config.write_text(
        '[[api]]\ndocument = "echo.json"\ntimeout = nan\nmax_response_bytes = 0\n'
        '[[api]]\ndocument = "echo.json"\nname = "b"\ntimeout = inf\n',
        encoding="utf-8",
    )
    code, err = run_cli("serve", "--config", str(config))
    assert code == 2
    assert err.splitlines() == [
        f"toolshape: {config}: `api[0].timeout` can't be nan: give seconds above 0",
        f"toolshape: {config}: `api[0].max_response_bytes` can't be 0: give a number of bytes above 0",
        f"toolshape: {config}: `api[1].timeout` can't be inf: give seconds above 0",
    ]


def test_a_settings_file_nested_past_reading_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    """S23.3 (finding 14): a TOML array 2,000 levels deep is exit 2 naming the file
    (RecursionError)."""
    config = tmp_path / "deep.toml"
    config.write_text("a = " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    code, err = run_cli("serve", "--config", str(config))
    assert code == 2
    assert err.splitlines() == [f"toolshape: {config}: nests too deeply"]


def test_files_that_are_not_regular_files_are_refused_not_read(tmp_path: Path) -> None:
    """S14.4 (finding 13): a device (`/dev/zero`: endless) or a FIFO (waits for a writer
    forever) as a document, plans, settings or operations file is refused by name; run in a
    subprocess with a hard timeout, since a regression hangs."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    spec = write_document(tmp_path, "http://127.0.0.1:9")
    cases = [
        (["serve", "/dev/zero"], "can't read /dev/zero: it is a device, a pipe or a socket"),
        (["serve", "--plans", str(fifo)], f"can't read {fifo}: it is a device, a pipe or a socket"),
        (["serve", "--config", "/dev/zero"], "/dev/zero: can't be read: it is a device"),
        (["serve", str(spec), "--operations", str(fifo)], "can't be read: it is a device"),
        (["plan", str(fifo)], f"can't read {fifo}: it is a device, a pipe or a socket"),
    ]
    library = (
        "import pathlib, sys, toolshape\n"
        "try:\n    toolshape.load_document(pathlib.Path(sys.argv[1]))\n"
        "except toolshape.DocumentError as error:\n    sys.exit(f'{error}')"
    )
    cases.append((["-c", library, str(fifo)], "it is a device, a pipe or a socket"))
    for argv, message in cases:
        done = subprocess.run(
            [sys.executable, *(argv if argv[0] == "-c" else ["-m", "toolshape", *argv])],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode in (1, 2), (argv, done.stderr)
        assert message in done.stderr, (argv, done.stderr)


def test_an_operations_file_with_hints_that_are_not_hints_is_refused(tmp_path: Path) -> None:
    """S24.7, S16.2 (finding 14): `annotations` with a text for a boolean hint or a hint MCP
    does not have is exit 2 naming it (it exited 0, the docs say 2)."""
    spec = write_document(tmp_path, "http://127.0.0.1:9")
    operations = tmp_path / "operations.toml"
    operations.write_text(
        '[createThing.annotations]\nreadOnlyHint = "yes"\n[getThing.annotations]\nbogusHint = 5\n',
        encoding="utf-8",
    )
    code, err = run_cli("serve", str(spec), "--operations", str(operations))
    assert code == 2
    hint = (
        "which is not a ToolAnnotations hint (`title`: a string; `readOnlyHint`, "
        "`destructiveHint`, `idempotentHint`, `openWorldHint`: booleans)"
    )
    assert err.splitlines() == [
        f"toolshape: toolshape serve: --operations: `createThing.annotations` sets "
        f'`readOnlyHint` to "yes", {hint}',
        f"toolshape: toolshape serve: --operations: `getThing.annotations` sets `bogusHint` "
        f"to 5, {hint}",
    ]


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"methods": [1]}, "Select's methods must be a list of text, not [1]"),
        ({"tags": [1]}, "Select's tags must be a list of text, not [1]"),
        ({"paths": 5}, "Select's paths must be a list of text, not 5"),
        ({"deprecated": "no"}, 'Select\'s deprecated must be true or false, not "no"'),
        ({"deprecated": None}, "Select's deprecated must be true or false, not null"),
    ],
)
def test_a_selection_of_the_wrong_kinds_is_a_value_error(
    keywords: dict[str, Any], message: str
) -> None:
    """S24.2 (finding 14): `Select` refuses what is not a list of text, or a boolean, with
    `ValueError` naming the field in JSON words (`methods=[1]` raised AttributeError,
    `tags=[1]` and `deprecated="no"` were accepted)."""
    from toolshape import Select

    with pytest.raises(ValueError, match=re.escape(message)):
        Select(**keywords)


def test_a_credential_problem_names_the_flag_given(tmp_path: Path) -> None:
    """S23.3: a message about `--credential` names `--credential` (it said `--credentials`)."""
    spec = write_document(tmp_path, "http://127.0.0.1:9")
    code, err = run_cli("serve", str(spec), "--credential", "bearerAuth=env:TOOLSHAPE_UNSET_X")
    assert code == 2
    assert err.splitlines() == [
        "toolshape: toolshape serve: --credential bearerAuth: the environment variable "
        "TOOLSHAPE_UNSET_X is not set"
    ]


def test_a_large_json_answer_is_cut_to_fit_not_refused(upstream: up.Upstream) -> None:
    """S25.6: a 5 MB JSON answer from a real upstream, past the 1 MiB a result may carry and
    within the 16 MiB read, loses items from the end of its longest array until it fits; the
    text says so and `_meta` says where, and the cut answer is structured (it passes the shape
    output schema). With `on_large_response="error"` it is S23.5's error; gzip that inflates
    past the download cap is an error naming that cap."""
    (tool,) = plan_document(up.items_document(upstream.base_url), style="flat").tools
    api = Api((tool,), base_url=upstream.base_url)
    strict = Api((tool,), base_url=upstream.base_url, on_large_response="error")
    small = Api((tool,), base_url=upstream.base_url, max_download_bytes=2 * 1024 * 1024)

    async def work(client: Client) -> list[types.CallToolResult]:
        return [await client.call_tool("listItems", {"count": 150_000})]

    (cut,) = served([api], work)
    assert cut.is_error is False
    assert cut.structured_content is not None
    data = cut.structured_content["data"]
    assert cut.structured_content["total"] == 150_000
    assert 0 < len(data) < 150_000
    assert data[-1] == {"id": len(data) - 1, "name": f"item {len(data) - 1}"}
    assert len(json.dumps(cut.structured_content, separators=(",", ":"))) <= 1024 * 1024
    assert cut.meta == {
        "toolshape/truncated": [{"pointer": "/data", "kept": len(data), "total": 150_000}]
    }
    assert text(cut).endswith(
        "\n(toolshape: the answer is larger than 1048576 bytes (--max-response-bytes), so "
        f"arrays lost items from their end: /data kept {len(data)} of 150000 items)"
    )
    (refused,) = served([strict], work)
    assert refused.is_error
    assert "(--max-response-bytes) and can't be cut to fit" in text(refused)

    async def inflating(client: Client) -> list[types.CallToolResult]:
        return [await client.call_tool("listItems", {"count": 150_000, "gzip": 1})]

    (bomb,) = served([small], inflating)
    assert bomb.is_error
    host = upstream.base_url.removeprefix("http://")
    assert text(bomb).startswith(
        f"{host}: GET /items failed: the answer is larger than 2097152 bytes "
        "(--max-download-bytes); the rest was not read"
    )


def corpus_path(name: str) -> Path:
    """A document of the corpus `TOOLSHAPE_CORPUS` names (the test skips, saying so, without)."""
    from tests.conftest import outside

    folder = outside("TOOLSHAPE_CORPUS")
    if folder is None:
        pytest.skip("set TOOLSHAPE_CORPUS to the corpus folder (tests/data/SOURCES.md)")
    return folder / name


def typescript_over_stdio(spec: Path, calls: list[Any]) -> dict[str, Any]:
    """The TypeScript client's pages and call results, against `toolshape serve SPEC` with
    serve's defaults over stdio."""
    done = subprocess.run(
        [
            "node",
            str(NODE / "stdio-client.mjs"),
            *serve_command(str(spec), "--base-url", "http://127.0.0.1:9"),
        ],
        input=json.dumps({"calls": calls}).encode(),
        capture_output=True,
        timeout=300,
        check=True,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.mark.integration
@pytest.mark.corpus
@typescript_sdk()
def test_the_typescript_client_lists_all_of_stripe_in_one_page() -> None:
    """S25.1, S25.2: with serve's defaults, the official TypeScript client lists every Stripe
    tool in one page well under the 10 MiB it reads in one message (the listing was 32 MB: a
    page of 8.7 MiB, and 17-78 s in real clients)."""
    answer = typescript_over_stdio(corpus_path("stripe.json"), [])
    pages = answer["pages"]
    assert len(pages) == 1
    assert pages[0]["tools"] > 400
    assert pages[0]["bytes"] <= 4 * 1024 * 1024


@pytest.mark.integration
@pytest.mark.corpus
@typescript_sdk()
def test_the_typescript_client_accepts_an_argument_error_of_a_tool_with_an_output_schema() -> None:
    """S25.8: an argument error on a GitHub code-scanning tool (whose output schema wraps a
    list) reaches the TypeScript client as an `isError` result it accepts (it threw the result
    away when the error carried `structuredContent` that broke the output schema)."""
    calls = [["code-scanning_list-alerts-for-repo", {"owner": "o", "repo": 5}]]
    answer = typescript_over_stdio(corpus_path("github.json"), calls)
    (outcome,) = answer["results"]
    assert "error" not in outcome, outcome
    result = outcome["result"]
    assert result["isError"] is True
    assert "structuredContent" not in result
    assert result["content"][0]["text"].startswith(
        "Invalid arguments for tool 'code-scanning_list-alerts-for-repo': repo: 5 is not of type"
    )


@pytest.mark.integration
@pytest.mark.corpus
@pytest.mark.parametrize("document", ["github.json", "stripe.json", "kubernetes-core-v1.json"])
def test_the_openai_agents_sdk_keeps_every_strict_tool_strict(document: str) -> None:
    """S25.3, S25.4: the OpenAI Agents SDK over MCP with `convert_schemas_to_strict=True`,
    against `toolshape serve --client-profile openai-agents`: every tool toolshape marks
    strict stays strict and unchanged (its MCP path refused any `$ref`: 19 GitHub and 74
    Kubernetes strict tools were lost)."""
    from agents.mcp import MCPServerStdio, MCPUtil

    from toolshape import model_tool

    path = corpus_path(document)
    options = Options.preset(on_collision="rename", on_unflattenable="nested", portable_names=True)
    planned = plan_document(
        json.loads(path.read_text(encoding="utf-8")), style="flat", options=options
    )
    strict = {p.name for p in planned.tools if model_tool(p, "openai", inline_refs=True).strict}
    assert len(strict) > 50

    async def run() -> list[tuple[str, bool, bool]]:
        command = serve_command(
            str(path), "--base-url", "http://127.0.0.1:9", "--client-profile", "openai-agents"
        )
        server = MCPServerStdio(
            params={"command": command[0], "args": command[1:]},
            client_session_timeout_seconds=120,
        )
        async with server:
            tools = await server.list_tools()
            out = []
            for tool in tools:
                made = MCPUtil.to_function_tool(tool, server, convert_schemas_to_strict=True)
                out.append(
                    (
                        tool.name,
                        made.strict_json_schema,
                        made.params_json_schema == tool.input_schema,
                    )
                )
            return out

    converted = anyio.run(run)
    assert {name for name, _, _ in converted} >= strict
    lost = [
        name for name, is_strict, same in converted if name in strict and not (is_strict and same)
    ]
    assert lost == []


@pytest.mark.integration
def test_start_up_says_what_is_served_and_healthz_answers(tmp_path: Path) -> None:
    """S27.1, S27.6: on start `toolshape serve` prints what it serves and where (over stdio,
    or the HTTP URL); over HTTP, `GET /healthz` answers 200 once the plans are loaded, and a
    plain `GET /mcp` is 405 (POST only), not a stream that never ends."""
    import toolshape

    spec = write_document(tmp_path, "http://127.0.0.1:9")
    done = subprocess.run(
        serve_command(str(spec)), input=b"", capture_output=True, timeout=60, check=False
    )
    lines = done.stderr.decode().splitlines()
    assert f"toolshape serve {toolshape.__version__}: 10 tools of 127.0.0.1:9 over stdio" in lines
    log = tmp_path / "serve.log"
    with http_server(str(spec), "--name", "echo", log=log) as url:
        health = httpx2.get(url.removesuffix("/mcp") + "/healthz", timeout=10)
        streamed = httpx2.get(url, timeout=10)  # hung: a stream with nothing ever in it
    assert health.status_code == 200
    assert streamed.status_code == 405
    assert streamed.headers["allow"] == "POST"
    port = url.split(":")[2].split("/")[0]
    assert (
        f"toolshape serve {toolshape.__version__}: 10 tools of echo at http://127.0.0.1:{port}/mcp"
        in log.read_text(encoding="utf-8").splitlines()
    )


def test_missing_credentials_are_named_at_start(tmp_path: Path) -> None:
    """S27.3: a security scheme that served operations require and that nothing provides is
    named at start with how many tools will call without it; a credential or pass-through
    for it says nothing."""
    from toolshape.server._prepare import prepare
    from toolshape.server._settings import ApiSettings

    spec = str(write_document(tmp_path, "http://127.0.0.1:9"))
    lines: list[str] = []
    prepare([ApiSettings(document=spec, name="echo")], "toolshape serve", {}, lines.append)
    assert lines == [
        "echo: warning: calls to 1 tool will go without bearerAuth (give --credential "
        "bearerAuth=env:VAR, or a credentials entry)"
    ]
    lines.clear()
    given = ApiSettings(document=spec, credentials={"bearerAuth": "env:TOKEN"})
    prepare([given], "toolshape serve", {"TOKEN": "t"}, lines.append)
    passed = ApiSettings(document=spec, pass_through_auth="bearerAuth")
    prepare([passed], "toolshape serve", {}, lines.append)
    assert lines == []


@pytest.mark.integration
def test_the_desktop_clients_configuration_loads_and_serves(
    upstream: up.Upstream, tmp_path: Path
) -> None:
    """S27.8: docs/command-line.md's `mcpServers` JSON, its paths made this machine's, loads
    through a real client's config reader (pydantic-ai's `load_mcp_toolsets`, the shape Claude
    Desktop and Cursor read), and a call made through it carries the credential its `env`
    block gives."""
    from pydantic_ai import Agent
    from pydantic_ai.mcp import load_mcp_toolsets
    from pydantic_ai.models.test import TestModel

    text = (Path(__file__).parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    block = text.split("<!-- mcpServers -->", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    spec = write_document(tmp_path, upstream.base_url)
    toolshape_command = Path(sys.executable).parent / "toolshape"
    config = json.loads(
        block.replace("/absolute/path/to/.venv/bin/toolshape", str(toolshape_command))
        .replace("/absolute/path/to/openapi.json", str(spec))
        .replace("your-token", "desk-t0ken")
    )
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    toolsets = load_mcp_toolsets(path)
    agent = Agent(TestModel(call_tools=["echo_whoAmI"]), toolsets=toolsets)
    before = len(upstream.seen)
    anyio.run(agent.run, "who am I")
    seen = upstream.since(before)
    assert [s.path for s in seen] == ["/me"]
    assert seen[0].headers["authorization"] == "Bearer desk-t0ken"
