"""S13.6: argument errors as MCP answers; the `toolshape call` command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toolshape import ArgumentError, ArgumentIssue, error_result
from toolshape.cli import main

EXAMPLE = str(
    Path(__file__).resolve().parents[1] / "src" / "toolshape" / "data" / "example.openapi.json"
)
ERROR = ArgumentError(
    "searchProducts", [ArgumentIssue("sort", "enum", "'x' is not one of ['price', 'name']")]
)


@pytest.mark.parametrize("version", ["2025-11-25", "2026-06-01"])
def test_tool_result_with_is_error_from_2025_11_25(version: str) -> None:
    """S13.6: 2025-11-25 and later get a tool result with isError and the message as text."""
    answer = error_result(ERROR, version)
    assert answer["isError"] is True
    assert answer["content"] == [{"type": "text", "text": ERROR.message}]


@pytest.mark.parametrize("version", ["2025-11-25", None])
def test_an_error_result_carries_text_only(version: str | None) -> None:
    """S25.8: an argument error's result is its text and `isError`, with no
    `structuredContent` (the TypeScript client refused one that broke the output schema)."""
    assert error_result(ERROR, version) == {
        "content": [{"type": "text", "text": ERROR.message}],
        "isError": True,
    }


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
def test_json_rpc_error_before_2025_11_25(version: str) -> None:
    """S13.6: earlier versions get a JSON-RPC -32602 error with the same message."""
    answer = error_result(ERROR, version)
    assert answer["code"] == -32602
    assert (
        answer["message"]
        == "Invalid arguments for tool 'searchProducts': sort: 'x' is not one of ['price', 'name']"
    )
    assert answer["data"]["errors"] == [
        {"path": "sort", "keyword": "enum", "message": "'x' is not one of ['price', 'name']"}
    ]


def run(*argv: str) -> tuple[int, Any, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, json.loads(out.getvalue()) if out.getvalue() else None, err.getvalue()


def test_call_prints_the_request() -> None:
    """`toolshape call` prints method, url, headers, body and content type, and the bytes
    `Request.encode()` gives (S17.1); exit 0."""
    arguments = json.dumps({"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"})
    code, out, _ = run(
        "call", EXAMPLE, "searchProducts", arguments, "--style", "flat", "--header", "X-Tenant: old"
    )
    assert code == 0
    assert out == {
        "method": "POST",
        "url": "/stores/s1/search?limit=10",
        "headers": [["x-tenant", "acme"], ["content-type", "application/json"]],
        "body": {"query": "hoodie"},
        "contentType": "application/json",
        "encoded": {"contentType": "application/json", "text": '{"query":"hoodie"}'},
    }


def test_call_prints_the_mcp_error_answer_and_exits_1() -> None:
    """`toolshape call` with bad arguments prints the S13.6 answer for the version; exit 1."""
    arguments = json.dumps({"storeId": "s1", "x-tenant": "a", "query": "q", "sort": "x"})
    code, out, _ = run(
        "call",
        EXAMPLE,
        "searchProducts",
        arguments,
        "--style",
        "flat",
        "--protocol-version",
        "2025-06-18",
    )
    assert code == 1
    assert out["code"] == -32602
    code, out, _ = run("call", EXAMPLE, "searchProducts", arguments, "--style", "flat")
    assert code == 1
    assert out["isError"] is True


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("call", EXAMPLE, "nope", "{}"), "no tool named 'nope'"),
        (("call", EXAMPLE, "searchProducts", "{oops"), "ARGS_JSON is not JSON"),
        (("call", EXAMPLE, "searchProducts", "{}", "--header", "novalue"), "is not NAME:VALUE"),
    ],
)
def test_call_usage_errors_exit_2(argv: tuple[str, ...], needle: str) -> None:
    """Unusable input to `toolshape call` is a clear message and exit 2."""
    code, out, err = run(*argv)
    assert code == 2
    assert out is None
    assert needle in err


# -- S18: credentials and fixed arguments on the command line --------------------------------

SECURED: dict[str, Any] = {
    "openapi": "3.1.0",
    "components": {
        "securitySchemes": {
            "bearerAuth": {"type": "http", "scheme": "bearer"},
            "key": {"type": "apiKey", "in": "query", "name": "key"},
            "sid": {"type": "apiKey", "in": "cookie", "name": "sid"},
        }
    },
    "security": [{"bearerAuth": [], "key": [], "sid": []}],
    "paths": {
        "/reports": {
            "get": {
                "operationId": "listReports",
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {"name": "api-version", "in": "query", "schema": {"type": "string"}},
                ],
            }
        }
    },
}


@pytest.fixture
def secured(tmp_path: Path) -> str:
    spec = tmp_path / "secured.json"
    spec.write_text(json.dumps(SECURED), encoding="utf-8")
    return str(spec)


def test_call_applies_credentials_from_the_environment_and_masks_them(
    secured: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S18.2, S18.4: `--credential SCHEME=env:VAR` reads VAR; `--fixed NAME=JSON` is routed;
    the printed request shows where each credential goes, never its value."""
    monkeypatch.setenv("TS_TOKEN", "tok-1")
    monkeypatch.setenv("TS_KEY", "key-2")
    monkeypatch.setenv("TS_SID", "sid-3")
    code, out, _ = run(
        "call", secured, "listReports", '{"q": "x"}', "--style", "flat",
        "--credential", "bearerAuth=env:TS_TOKEN", "--credential", "key=env:TS_KEY",
        "--credential", "sid=env:TS_SID", "--fixed", 'api-version="2025-01"',
    )  # fmt: skip
    assert code == 0
    assert out["url"] == "/reports?q=x&api-version=2025-01&key=<credential>"
    assert out["headers"] == [["cookie", "sid=<credential>"], ["authorization", "<credential>"]]
    assert not any(secret in json.dumps(out) for secret in ("tok-1", "key-2", "sid-3"))


@pytest.mark.parametrize(
    ("flag", "words"),
    [
        ("bearerAuth=tok-1", "give SCHEME=env:VAR (credentials are read from the environment"),
        ("bearerAuth=env:", "give SCHEME=env:VAR"),
        ("nope=env:TS_TOKEN", "the document defines no security scheme `nope` (it defines: bearerAuth, key, sid)"),
        ("bearerAuth=env:TS_UNSET", "the environment variable TS_UNSET is not set"),
    ],
)  # fmt: skip
def test_a_credential_flag_that_cant_be_used_exits_2(
    secured: str, flag: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S18.2: credentials only from the environment, only for schemes the document defines."""
    monkeypatch.setenv("TS_TOKEN", "tok-1")
    monkeypatch.delenv("TS_UNSET", raising=False)
    code, out, err = run("call", secured, "listReports", "{}", "--credential", flag)
    assert (code, out) == (2, None)
    assert words in err
    assert "tok-1" not in err


def test_credentials_no_alternative_accepts_exit_2(
    secured: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S18.2: a CredentialError is the caller's configuration: stderr and exit 2."""
    monkeypatch.setenv("TS_TOKEN", "tok-1")
    code, out, err = run(
        "call", secured, "listReports", "{}", "--credential", "bearerAuth=env:TS_TOKEN"
    )
    assert (code, out) == (2, None)
    assert "satisfy none of its security alternatives" in err


def test_a_fixed_flag_that_is_not_name_json_exits_2(secured: str) -> None:
    """S18.4: `--fixed NAME=JSON`, for `call` and `plan` alike."""
    for command in (["call", secured, "listReports", "{}"], ["plan", secured]):
        code, _, err = run(*command, "--fixed", "api-version=2025-01")
        assert code == 2
        assert "--fixed 'api-version=2025-01' is not NAME=JSON" in err


def test_plan_json_lists_security_and_fixed_arguments(secured: str) -> None:
    """S18.1, S18.4: `toolshape plan --json` routes carry the security alternatives and the
    fixed arguments; the tool's input schema has neither."""
    code, out, _ = run("plan", secured, "--json", "--style", "flat", "--fixed", 'api-version="v1"')
    assert code == 0
    (route,) = out["routes"]
    assert [[s["name"] for s in alternative] for alternative in route["security"]] == [
        ["bearerAuth", "key", "sid"]
    ]
    assert route["fixed"] == [
        {
            "name": "api-version",
            "value": "v1",
            "route": {
                "argument": "api-version",
                "alias": None,
                "name": "api-version",
                "in": "query",
                "style": "form",
                "explode": True,
                "allowReserved": False,
                "contentType": None,
                "required": False,
            },
        }
    ]
    assert set(out["tools"][0]["inputSchema"]["properties"]) == {"q"}
