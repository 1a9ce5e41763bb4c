"""S27.5: OAuth2 client credentials — a token fetched from the scheme's `tokenUrl`, with the
scopes the operation requires, cached, fetched again once on a 401, never shown."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from tests import upstream as up
from toolshape import plan_document
from toolshape.server import build_server
from toolshape.server._oauth import ClientCredentials, usable_token_url
from toolshape.server._prepare import prepare
from toolshape.server._settings import ApiSettings
from toolshape.server._upstream import Api

ENV = {"CLIENT_ID": "cid", "CLIENT_SECRET": "s3cret", "WRONG": "nope"}


def document(token_url: str, base_url: str | None = None) -> dict[str, Any]:
    """`GET /secure` needing the `oauth` scheme's `read` and `write` scopes."""
    flow = {"tokenUrl": token_url, "scopes": {"read": "r", "write": "w"}}
    get = {
        "operationId": "getSecure",
        "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer"}}],
        "security": [{"oauth": ["write", "read"]}],
    }
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/secure": {"get": get}},
        "components": {
            "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": flow}}}
        },
    }
    if base_url is not None:
        doc["servers"] = [{"url": base_url}]
    return doc


@pytest.fixture
def upstream() -> up.Upstream:
    return up.in_memory()


def api_of(upstream: up.Upstream, secret: str = "s3cret", token_url: str | None = None) -> Api:
    url = token_url or upstream.base_url + "/token"
    plans = plan_document(document(url), style="flat").tools
    credentials = {"oauth": ClientCredentials("cid", secret, url)}
    return Api(plans, base_url=upstream.base_url, credentials=credentials)


def served(api: Api, upstream: up.Upstream, *calls: dict[str, Any]) -> list[types.CallToolResult]:
    """The calls, through the `mcp` SDK's client, the test upstream's app answering in memory
    (the token endpoint too: it is `/token` there)."""

    async def run() -> list[types.CallToolResult]:
        async with (
            up.client(upstream) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return [await client.call_tool("getSecure", call) for call in calls]

    return anyio.run(run)


def text(result: types.CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, types.TextContent)
    return content.text


def test_a_token_is_fetched_once_with_the_operations_scopes_and_sent(
    upstream: up.Upstream, caplog: pytest.LogCaptureFixture
) -> None:
    """S27.5: the first call fetches a token from `tokenUrl` (client_secret_basic, grant
    `client_credentials`, the scopes the requirement names); later calls reuse it while it is
    good; it reaches the API as a bearer token and never a log line or a result."""
    caplog.set_level(logging.DEBUG)
    first, second = served(api_of(upstream), upstream, {"n": 1}, {"n": 2})
    assert [r.is_error for r in (first, second)] == [False, False]
    token_requests = [s for s in upstream.seen if s.path == "/token"]
    assert len(token_requests) == 1
    assert token_requests[0].body == b"grant_type=client_credentials&scope=read+write"
    calls = [s for s in upstream.seen if s.path == "/secure"]
    assert [s.headers["authorization"] for s in calls] == ["Bearer tok1", "Bearer tok1"]
    shown = caplog.text + text(first) + text(second)
    assert "tok1" not in shown
    assert "s3cret" not in shown


def test_a_refused_token_is_fetched_again_once(upstream: up.Upstream) -> None:
    """S27.5: a 401 from the API gets a new token and the call is made again, once; a token
    about to expire (within 30 s) is not used."""
    api = api_of(upstream)
    (first,) = served(api, upstream, {"n": 1})
    assert first.is_error is False
    upstream.refused.add("tok1")
    (again,) = served(api, upstream, {"n": 2})
    assert again.is_error is False
    assert upstream.issued == ["tok1", "tok2"]
    upstream.refused.update({"tok2", "tok3"})
    (refused,) = served(api, upstream, {"n": 3})
    assert refused.is_error is True
    assert text(refused).startswith("HTTP 401: ")
    assert upstream.issued == ["tok1", "tok2", "tok3"]  # one new token, not more
    upstream.lifetime = 20  # under the 30 s margin: each call fetches its own
    served(api_of(upstream), upstream, {"n": 4}, {"n": 5})
    assert len(upstream.issued) == 5


def test_a_token_endpoint_that_gives_none_is_a_gateway_error(upstream: up.Upstream) -> None:
    """S27.5: a refused client is an `isError` naming the API and what the endpoint said,
    never the secret; an argument error is still the model's, judged before any token."""
    api = api_of(upstream, secret="wrong-secret")
    failed, bad = served(api, upstream, {"n": 1}, {"n": "x"})
    assert failed.is_error is True
    host = upstream.base_url.removeprefix("http://")
    assert text(failed) == (
        f"gateway error: {host}: no OAuth2 token: the token endpoint answered HTTP 401"
    )
    assert "wrong-secret" not in text(failed)
    assert text(bad).startswith("Invalid arguments for tool 'getSecure': n: ")
    assert len([s for s in upstream.seen if s.path == "/token"]) == 1


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("https://auth.example/token", None),
        ("http://127.0.0.1:9/token", None),
        ("http://localhost/token", None),
        ("http://[::1]:8080/token", None),
        ("http://auth.example/token", "is neither https nor http to a loopback address"),
        ("ftp://auth.example/token", "is neither https nor http to a loopback address"),
        ("/token", "is neither https nor http to a loopback address"),
    ],
)
def test_a_token_url_is_https_or_loopback(url: str, problem: str | None) -> None:
    """S27.5: a secret never crosses a network in clear."""
    found = usable_token_url(url)
    assert found is None if problem is None else problem in (found or "")


def prepared(tmp_path: Any, token_url: str, source: str) -> Api | str:
    import json

    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(document(token_url, "https://api.example")), encoding="utf-8")
    settings = ApiSettings(document=str(spec), credentials={"oauth": source})
    lines: list[str] = []
    try:
        (api,) = prepare([settings], "toolshape serve", ENV, lines.append)
    except Exception as error:
        return str(error)
    return api


def test_client_credentials_are_read_from_the_environment(tmp_path: Any) -> None:
    """S27.5: `client-credentials:env:ID:env:SECRET` reads both from the environment, for a
    scheme with a clientCredentials flow whose token URL is https or loopback."""
    api = prepared(
        tmp_path, "https://auth.example/token", "client-credentials:env:CLIENT_ID:env:CLIENT_SECRET"
    )
    assert isinstance(api, Api)
    found = api.credentials["oauth"]
    assert isinstance(found, ClientCredentials)
    assert (found.client_id, found.secret, found.token_url) == (
        "cid",
        "s3cret",
        "https://auth.example/token",
    )
    assert "s3cret" not in repr(found)


@pytest.mark.parametrize(
    ("token_url", "source", "message"),
    [
        (
            "http://auth.example/token",
            "client-credentials:env:CLIENT_ID:env:CLIENT_SECRET",
            "the token URL `http://auth.example/token` is neither https nor http to a loopback address",
        ),
        (
            "https://auth.example/token",
            "client-credentials:env:CLIENT_ID:env:UNSET",
            "the environment variable UNSET is not set",
        ),
        (
            "https://auth.example/token",
            "client-credentials:CLIENT_ID:CLIENT_SECRET",
            "give client-credentials:env:ID:env:SECRET",
        ),
        (
            "https://auth.example/token",
            "cid",
            "give env:VAR, or client-credentials:env:ID:env:SECRET",
        ),
    ],
)
def test_client_credentials_that_cant_be_used_are_settings_errors(
    tmp_path: Any, token_url: str, source: str, message: str
) -> None:
    """S27.5, S23.3: each problem is named with the setting, at start."""
    found = prepared(tmp_path, token_url, source)
    assert isinstance(found, str)
    assert f"--credential oauth: {message}" in found


def test_a_missing_client_credential_is_named_with_how_to_give_it(tmp_path: Any) -> None:
    """S27.3, S27.5: a client-credentials scheme nothing provides is named at start with the
    form its credential takes."""
    import json

    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(document("https://auth.example/token", "https://api.example")))
    lines: list[str] = []
    prepare([ApiSettings(document=str(spec))], "toolshape serve", {}, lines.append)
    assert lines == [
        "warning: calls to 1 tool will go without oauth (give --credential "
        "oauth=client-credentials:env:ID:env:SECRET, or a credentials entry)"
    ]


def test_a_token_answer_is_read_up_to_a_bound() -> None:
    """S27.5, S23.5: a token endpoint's answer is read up to 64 KiB; a longer one is no
    token, and costs no more than that to refuse."""
    import httpx

    from toolshape.server._oauth import TokenError

    def endless(request: httpx.Request) -> httpx.Response:
        assert request.headers["accept-encoding"] == "identity"
        return httpx.Response(200, content=b'{"access_token": "' + b"t" * 1_000_000 + b'"}')

    async def fetch() -> str:
        async with httpx.AsyncClient(transport=httpx.MockTransport(endless)) as http:
            source = ClientCredentials("cid", "s3cret", "https://auth.example/token")
            return await source.token(http, (), 5.0, fresh=False)

    with pytest.raises(TokenError, match="larger than 65536 bytes"):
        anyio.run(fetch)


@pytest.mark.integration
def test_toolshape_serve_takes_client_credentials_from_its_environment(tmp_path: Any) -> None:
    """S27.5 as a user runs it: `toolshape serve --credential oauth=client-credentials:env:
    CLIENT_ID:env:CLIENT_SECRET` over HTTP, a real upstream with its token endpoint, the `mcp`
    SDK's client: the call reaches the API with the token; the log has neither secret nor
    token."""
    import json
    from contextlib import contextmanager

    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    from tests.test_serve import http_server

    with contextmanager(up.running)() as real:
        spec = tmp_path / "openapi.json"
        doc = document(real.base_url + "/token", real.base_url)
        spec.write_text(json.dumps(doc), encoding="utf-8")
        log = tmp_path / "serve.log"
        source = "oauth=client-credentials:env:CLIENT_ID:env:CLIENT_SECRET"
        with http_server(str(spec), "--credential", source, log=log, env=ENV) as url:

            async def run() -> types.CallToolResult:
                async with (
                    httpx2.AsyncClient() as http,
                    Client(streamable_http_client(url, http_client=http)) as client,
                ):
                    return await client.call_tool("getSecure", {"n": 1})

            answer = anyio.run(run)
        secure = [s for s in real.seen if s.path == "/secure"]
    assert answer.is_error is False
    assert [s.headers["authorization"] for s in secure] == ["Bearer tok1"]
    logged = log.read_text(encoding="utf-8")
    assert "getSecure 200" in logged
    assert "tok1" not in logged
    assert "s3cret" not in logged
