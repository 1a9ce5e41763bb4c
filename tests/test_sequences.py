"""S26.6: sequential media types (OpenAPI 3.2 `itemSchema`) — answers of JSON Lines, JSON
text sequences and server-sent events read item by item, request bodies of items written."""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from tests import upstream as up
from tests.conftest import typescript_sdk
from toolshape import ArgumentError, Options, Plan, PlanDataError, plan_document
from toolshape.call._items import BadItem, read_items, write_items
from toolshape.server import Api, build_server

ITEM = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
EVENT = {
    "type": "object",
    "properties": {
        "event": {"type": "string"},
        "data": {"type": "string"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
}
WRAP = Options.preset(on_unflattenable="wrap")


def document(
    media: str, item: Any = ITEM, version: str = "3.2.0", base_url: str | None = None
) -> dict[str, Any]:
    """`GET /lines` answering `media` items, `POST /lines` taking them."""
    answer = {"description": "items", "content": {media: {"itemSchema": item}}}
    body = {"required": True, "content": {media: {"itemSchema": item}}}
    doc: dict[str, Any] = {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/lines": {
                "get": {
                    "operationId": "readLines",
                    "parameters": [
                        {"name": n, "in": "query", "schema": {"type": "integer"}}
                        for n in ("count", "events")
                    ],
                    "responses": {"200": answer},
                },
                "post": {"operationId": "sendLines", "requestBody": body},
            }
        },
    }
    if base_url is not None:
        doc["servers"] = [{"url": base_url}]
    return doc


def reader(media: str, item: Any = ITEM) -> Any:
    (tool,) = plan_document(document(media, item), select=_only("readLines")).tools
    return tool


def _only(name: str) -> Any:
    from toolshape import Select

    return Select(operations=[name])


# -- reading items ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text", "items"),
    [
        ("application/jsonl", '{"a": 1}\n[2]\n"x"\n', [{"a": 1}, [2], "x"]),
        ("application/jsonl", '{"a": 1}\r\n\n  \n{"b": 2}', [{"a": 1}, {"b": 2}]),  # blank lines
        ("application/x-ndjson", "1\n2\n", [1, 2]),
        ("application/json-seq", '\x1e{"a": 1}\n\x1e[2]\n', [{"a": 1}, [2]]),
        ("application/jsonl", "", []),
        (
            "text/event-stream",
            ": comment\nevent: tick\nid: 7\nretry: 100\ndata: one\ndata: two\n\ndata:x\n",
            [{"event": "tick", "id": "7", "retry": 100, "data": "one\ntwo"}, {"data": "x"}],
        ),
        ("text/event-stream", 'data: {"a": 1}\r\n\r\nretry: soon\n\n', [{"data": '{"a": 1}'}]),
    ],
    ids=["jsonl", "blank-lines", "ndjson", "json-seq", "empty", "events", "events-crlf"],
)
def test_a_sequential_answer_is_read_item_by_item(kind: str, text: str, items: Any) -> None:
    """S26.6: one JSON text per line (blank lines skipped), per RS-started record, or per
    server-sent event (its fields as an object, `data` lines joined and kept as text, a
    `retry` that is not a number left out)."""
    assert read_items(kind, text) == items


@pytest.mark.parametrize(
    ("kind", "text", "number"),
    [
        ("application/jsonl", '{"a": 1}\n{"a":\n', 2),
        ("application/jsonl", "1\n\nNaN\n", 3),
        ("application/json-seq", "\x1e1\n\x1e{\n", 2),
        ("application/json-seq", "1\n\x1e2\n", 1),  # no RS before the first
    ],
)
def test_an_item_that_does_not_parse_is_named_by_its_number(
    kind: str, text: str, number: int
) -> None:
    """S26.6: the first line (or record) that is not JSON, numbered from 1."""
    found = read_items(kind, text)
    assert isinstance(found, BadItem)
    assert found.number == number


def test_the_output_schema_is_an_object_of_items() -> None:
    """S26.6: the output schema holds the items under `items`; the answer is structured as
    `{"items": [...]}` and its text is the answer as received."""
    tool = reader("application/jsonl")
    assert tool.output_items is True
    assert tool.output_schema is not None
    assert tool.output_schema["properties"]["items"]["items"]["properties"]["id"] == {
        "type": ["integer", "null"]
    }
    again = Plan.from_dict(tool.to_dict())  # plan data keeps it (S15.1)
    assert again.output_items is True
    broken = {**tool.to_dict(), "outputSchema": None, "outputView": "off"}
    with pytest.raises(PlanDataError, match="`outputItems` is true, but the tool has no output"):
        Plan.from_dict(broken)
    body = b'{"id": 1, "name": "a"}\n{"id": 2}\n'
    result = tool.result(200, {"content-type": "application/jsonl"}, body)
    assert result == {
        "content": [{"type": "text", "text": body.decode()}],
        "structuredContent": {"items": [{"id": 1, "name": "a"}, {"id": 2}]},
        "isError": False,
    }


def test_a_bad_line_or_a_wrong_item_is_an_error() -> None:
    """S26.6, S16.4: a line that does not parse is an `isError` naming its number; an item of
    another kind than the item schema's fails the output schema where it is."""
    tool = reader("application/jsonl")
    bad = tool.result(200, {"content-type": "application/jsonl"}, b'{"id": 1}\n{"id":\n')
    assert bad["isError"] is True
    assert bad["content"][0]["text"].startswith(
        "HTTP 200 (line 2 of the application/jsonl answer is not JSON: Expecting value: "
    )
    wrong = tool.result(200, {"content-type": "application/jsonl"}, b'{"id": "x"}\n')
    assert wrong["content"][0]["text"].startswith(
        'HTTP 200 (the response does not match the tool\'s output schema at /items/0/id: "x" '
        'is not of type "integer", "null"): '
    )
    assert "structuredContent" not in wrong


def test_server_sent_events_are_objects_of_their_fields() -> None:
    """S26.6: each event an object of the fields it set, `data` as text."""
    tool = reader("text/event-stream", EVENT)
    text = b'event: a\ndata: {"x": 1}\nid: 7\n\ndata: b\n\n'
    result = tool.result(200, {"content-type": "text/event-stream; charset=utf-8"}, text)
    assert result["structuredContent"] == {
        "items": [{"event": "a", "data": '{"x": 1}', "id": "7"}, {"data": "b"}]
    }


def test_a_3_1_document_has_no_sequential_output() -> None:
    """S26.1: `itemSchema` is OpenAPI 3.2's; a 3.1 answer of JSON Lines is text."""
    (tool,) = plan_document(
        document("application/jsonl", version="3.1.0"), select=_only("readLines")
    ).tools
    assert tool.output_schema is None
    assert tool.output_items is False


# -- writing items ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("media", "sent"),
    [
        ("application/jsonl", b'{"id":1}\n{"id":2,"name":"\xc3\xa9"}\n'),
        ("application/x-ndjson", b'{"id":1}\n{"id":2,"name":"\xc3\xa9"}\n'),
        ("application/json-seq", b'\x1e{"id":1}\n\x1e{"id":2,"name":"\xc3\xa9"}\n'),
    ],
)
def test_a_sequential_body_is_an_array_of_items(media: str, sent: bytes) -> None:
    """S26.6: the body argument is an array of items, each checked by the item schema, sent
    one JSON text per line or each after RS."""
    (tool,) = plan_document(
        document(media), style="flat", options=WRAP, select=_only("sendLines")
    ).tools
    assert tool.input_schema["properties"]["body"]["type"] == "array"
    request = tool.call({"body": [{"id": 1}, {"id": 2, "name": "é"}]})
    assert request.encode() == ((("content-type", media),), sent)
    with pytest.raises(ArgumentError, match=re.escape('body.0.id: "x" is not of type "integer"')):
        tool.call({"body": [{"id": "x"}]})
    assert write_items(media, []) == b""


def test_an_event_stream_body_is_not_sent() -> None:
    """S17.9: toolshape writes no server-sent events; such a tool is not listed, saying why."""
    result = plan_document(document("text/event-stream"), select=_only("sendLines"))
    assert result.tools == ()
    assert any(
        "can't send a `text/event-stream` request body" in d.message for d in result.diagnostics
    )


# -- served, through the MCP SDK's client and the test upstream's app, in memory --------------


@pytest.fixture
def upstream() -> up.Upstream:
    return up.in_memory()


def served(
    tools: Any, upstream: up.Upstream, calls: list[tuple[str, Any]], **kw: Any
) -> list[types.CallToolResult]:
    api = Api(tuple(tools), base_url=upstream.base_url, **kw)

    async def run() -> list[types.CallToolResult]:
        async with (
            up.client(upstream) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(run)


def test_a_jsonl_answer_is_read_as_items_through_the_server(upstream: up.Upstream) -> None:
    """S26.6 end to end: the upstream's JSON Lines answer reaches the `mcp` SDK's client
    (which checks it against the output schema) as structured items; a JSON Lines body is sent
    one line per item; server-sent events arrive as objects."""
    jsonl = plan_document(
        document("application/jsonl", base_url=upstream.base_url), style="flat", options=WRAP
    ).tools
    events = plan_document(
        document("text/event-stream", EVENT), style="flat", select=_only("readLines")
    ).tools
    before = len(upstream.seen)
    lines, sent = served(
        jsonl,
        upstream,
        [("readLines", {"count": 2}), ("sendLines", {"body": [{"id": 1}, {"id": 2}]})],
    )
    assert lines.is_error is False
    assert lines.structured_content == {
        "items": [{"id": 0, "name": "item 0"}, {"id": 1, "name": "item 1"}]
    }
    assert sent.is_error is False
    posted = upstream.since(before)[1]
    assert (posted.method, posted.headers["content-type"], posted.body) == (
        "POST",
        "application/jsonl",
        b'{"id":1}\n{"id":2}\n',
    )
    (ticks,) = served(events, upstream, [("readLines", {"count": 2, "events": 1})])
    assert ticks.structured_content == {
        "items": [
            {"event": "tick", "id": "0", "data": "item 0"},
            {"event": "tick", "id": "1", "data": "item 1"},
        ]
    }


def test_a_large_sequential_answer_loses_items_from_its_end(upstream: up.Upstream) -> None:
    """S26.6, S25.6: a JSON Lines answer past `max_response_bytes` keeps its first items,
    saying how many in its text and `_meta`; it still passes the output schema."""
    tools = plan_document(
        document("application/jsonl"), style="flat", select=_only("readLines")
    ).tools
    (cut,) = served(tools, upstream, [("readLines", {"count": 5000})], max_response_bytes=10_000)
    assert cut.is_error is False
    assert cut.structured_content is not None
    items = cut.structured_content["items"]
    assert 0 < len(items) < 5000
    assert items[-1] == {"id": len(items) - 1, "name": f"item {len(items) - 1}"}
    assert cut.meta == {
        "toolshape/truncated": [{"pointer": "/items", "kept": len(items), "total": 5000}]
    }
    assert len(json.dumps(cut.structured_content, separators=(",", ":"))) <= 10_000


@pytest.mark.integration
@typescript_sdk()
def test_the_typescript_client_accepts_items_through_toolshape_serve(tmp_path: Any) -> None:
    """S26.6 through `toolshape serve` and a real upstream: the official TypeScript client
    (which checks `structuredContent` against `outputSchema`) accepts a JSON Lines answer as
    items, and server-sent events as objects."""
    from contextlib import contextmanager

    from tests.conftest import typescript_calls
    from tests.test_serve import http_server

    with contextmanager(up.running)() as real:
        spec = tmp_path / "lines.json"
        doc = document("application/jsonl", base_url=real.base_url)
        events = document("text/event-stream", EVENT)["paths"]["/lines"]["get"]
        doc["paths"]["/events"] = {"get": {**events, "operationId": "readEvents"}}
        spec.write_text(json.dumps(doc), encoding="utf-8")
        calls = [["readEvents", {"count": 2, "events": 1}], ["readLines", {"count": 2}]]
        with http_server(str(spec)) as url:
            report = typescript_calls(url, calls)
    events, lines = (r["result"] for r in report["results"])
    assert events["structuredContent"] == {
        "items": [
            {"event": "tick", "id": "0", "data": "item 0"},
            {"event": "tick", "id": "1", "data": "item 1"},
        ]
    }
    assert lines["structuredContent"] == {
        "items": [{"id": 0, "name": "item 0"}, {"id": 1, "name": "item 1"}]
    }
