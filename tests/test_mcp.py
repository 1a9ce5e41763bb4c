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
