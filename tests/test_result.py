"""S16.4: the API's answer as the MCP `CallToolResult` — content by media type, `isError` by
status, `structuredContent` only where the output schema holds, nothing dropped."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from tests.test_tool import doc, json_response, one
from toolshape import Options, Plan, ToolshapeError

THING = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
MISMATCH = "HTTP {status} (the response does not match the tool's output schema): "
AT = "HTTP {status} (the response does not match the tool's output schema at {where}): "


def with_output(schema: Any = THING, view: str = "exact") -> Plan:
    return one(doc(json_response(schema)), options=Options.preset(output_schemas=view))


def without_output() -> Plan:
    return one(doc())


def text(status: int, body: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": body}], "isError": status >= 400}


JSON = [("content-type", "application/json")]


@pytest.mark.parametrize(
    ("status", "headers", "body", "expected"),
    [
        (200, JSON, b'{"a": 1}', text(200, '{"a": 1}')),
        (
            200,
            {"Content-Type": "text/plain; charset=latin-1"},
            "café".encode("latin-1"),
            text(200, "café"),
        ),
        (200, {"content-type": "text/csv"}, b"a,b\n1,2\n", text(200, "a,b\n1,2\n")),
        (200, {"content-type": "application/xml"}, b"<a/>", text(200, "<a/>")),
        (200, {"content-type": "application/x-www-form-urlencoded"}, b"a=1", text(200, "a=1")),
        (200, {}, b"plain", text(200, "plain")),
        (204, {}, b"", text(204, "")),
        (404, JSON, b'{"error": "missing"}', text(404, 'HTTP 404: {"error": "missing"}')),
        (500, {}, b"", text(500, "HTTP 500: ")),
        (200, JSON, b'{"a": 1, "bad": "\xff\xfe"}', text(200, '{"a": 1, "bad": "\ufffd\ufffd"}')),
        (200, JSON, b"not json", text(200, "not json")),
        (200, {"content-type": "text/plain; charset=no-such-charset"}, b"ok", text(200, "ok")),
    ],
    ids=[
        "json",
        "latin-1",
        "csv",
        "xml",
        "form",
        "none-given",
        "204-empty",
        "404",
        "500-empty",
        "not-utf-8",
        "json-type-not-json",
        "unknown-charset",
    ],
)
def test_textual_answers_without_an_output_schema(
    status: int, headers: Any, body: bytes, expected: Any
) -> None:
    """S16.4: a textual answer is one text item, decoded per its charset (UTF-8 by default,
    undecodable bytes replaced), prefixed `HTTP <status>: ` when it is an error."""
    assert without_output().result(status, headers, body) == expected


@pytest.mark.parametrize(
    ("kind", "item"),
    [
        (
            "image/png",
            {"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"},
        ),
        (
            "audio/mpeg",
            {"type": "audio", "data": base64.b64encode(PNG).decode(), "mimeType": "audio/mpeg"},
        ),
        (
            "application/pdf",
            {
                "type": "resource",
                "resource": {
                    "uri": "toolshape:response",
                    "mimeType": "application/pdf",
                    "blob": base64.b64encode(PNG).decode(),
                },
            },
        ),
    ],
)
def test_binary_answers(kind: str, item: dict[str, Any]) -> None:
    """S16.4: images and audio as base64 data, other binary as an embedded resource."""
    assert without_output().result(200, [("Content-Type", kind)], PNG) == {
        "content": [item],
        "isError": False,
    }


def test_an_embedded_resource_takes_the_callers_uri() -> None:
    """S16.4: `uri` names the embedded resource."""
    result = without_output().result(
        200, {"content-type": "application/pdf"}, PNG, uri="https://x/report.pdf"
    )
    assert result["content"][0]["resource"]["uri"] == "https://x/report.pdf"


def test_a_binary_error_says_so_and_keeps_the_bytes() -> None:
    """S16.4: nothing dropped: an error image is attached after the status text."""
    result = without_output().result(503, {"content-type": "image/png"}, PNG)
    assert result["isError"] is True
    assert result["content"][0] == {
        "type": "text",
        "text": f"HTTP 503: {len(PNG)} bytes of image/png, attached",
    }
    assert result["content"][1]["type"] == "image"


def test_a_valid_json_answer_is_also_structured_content() -> None:
    """S16.4: 2xx JSON that the output schema accepts is `structuredContent` too."""
    result = with_output().result(200, JSON, b'{"id": "t1"}')
    assert result == {
        "content": [{"type": "text", "text": '{"id": "t1"}'}],
        "structuredContent": {"id": "t1"},
        "isError": False,
    }
    assert list(result) == ["content", "structuredContent", "isError"]


def test_a_wrapped_answer_is_structured_under_result() -> None:
    """S16.3, S16.4: a non-object response schema is wrapped, and so is its content."""
    plan = with_output({"type": "array", "items": {"type": "integer"}})
    assert plan.result(200, JSON, b"[1, 2]")["structuredContent"] == {"result": [1, 2]}


@pytest.mark.parametrize(
    ("status", "headers", "body"),
    [
        (200, JSON, b"not json"),
        (200, JSON, b""),
        (200, {"content-type": "text/csv"}, b"id\nt1\n"),
        (200, {}, b'{"id": "t1"}'),  # JSON only by its looks
        (201, JSON, b'{"id": NaN}'),  # not JSON either
        (302, JSON, b'{"id": "t1"}'),  # a 3xx
    ],
    ids=["not-json", "empty", "csv", "no-content-type", "nan", "3xx"],
)
def test_exact_every_other_answer_below_400_is_an_error(
    status: int, headers: Any, body: bytes
) -> None:
    """S16.4 (the exact view, S16.7): MCP clients refuse an unstructured non-error result from
    a tool with an output schema, so any other answer below 400 is `isError`, with the status
    and the whole body."""
    result = with_output().result(status, headers, body)
    assert result == {
        "content": [{"type": "text", "text": MISMATCH.format(status=status) + body.decode()}],
        "isError": True,
    }


ADDRESS = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "a/b": {"type": "integer"},
        "created": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["id"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("answer", "where"),
    [
        ({"id": 5}, '/id: 5 is not of type "string"'),
        ({}, '/: "id" is a required property'),
        ({"id": "x", "a/b": "1"}, '/a~1b: "1" is not of type "integer"'),
        ({"id": "x", "tags": ["a", 2]}, '/tags/1: 2 is not of type "string"'),
        (
            {"id": "x", "more": 1},
            '/: Additional properties are not allowed ("more" was unexpected)',
        ),
        (
            {"id": "x", "created": "2024-01-01 10:00:00"},
            '/created: "2024-01-01 10:00:00" is not a "date-time"',
        ),
        ([1], '/: [1] is not of type "object"'),
    ],
    ids=["kind", "required", "escaped", "deep", "closed", "format", "root"],
)
def test_exact_an_answer_that_does_not_fit_names_where(answer: Any, where: str) -> None:
    """S16.4: the first error the validator reports, at a JSON pointer into the body as
    received; S16.7: the exact view asserts the TypeScript client's formats (a date-time with
    no time zone, as measured)."""
    body = json.dumps(answer).encode()
    result = with_output(ADDRESS).result(200, JSON, body)
    assert result == {
        "content": [{"type": "text", "text": AT.format(status=200, where=where) + body.decode()}],
        "isError": True,
    }


def test_exact_a_wrapped_answer_is_located_in_the_body_as_received() -> None:
    """S16.4: the pointer never starts `/result`: it points into what the API sent."""
    plan = with_output({"type": "array", "items": {"type": "integer"}})
    result = plan.result(200, JSON, b'[1, "two"]')
    assert result["content"][0]["text"].startswith(
        AT.format(status=200, where='/1: "two" is not of type "integer"')
    )
    root = plan.result(200, JSON, b'{"a": 1}')
    assert root["content"][0]["text"].startswith(
        AT.format(status=200, where='/: {"a": 1} is not of type "array"')
    )


def structured(body: str, value: Any) -> dict[str, Any]:
    return {
        "content": [{"type": "text", "text": body}],
        "structuredContent": value,
        "isError": False,
    }


@pytest.mark.parametrize(
    ("status", "headers", "body", "value"),
    [
        (200, JSON, '{"tags": ["a"]}', {"tags": ["a"]}),  # `id` missing
        (200, JSON, '{"id": "x", "more": {"new": true}}', {"id": "x", "more": {"new": True}}),
        (200, JSON, '{"id": null, "tags": [null]}', {"id": None, "tags": [None]}),
        (200, JSON, '{"id": "x", "created": "yesterday"}', {"id": "x", "created": "yesterday"}),
        (200, {}, '{"id": "x"}', {"id": "x"}),  # no content type, JSON all the same
        (200, JSON, "", {}),
        (204, {}, "", {}),
        (201, {"content-type": "text/plain"}, "", {}),
    ],
    ids=["missing", "extra", "nulls", "format", "no-content-type", "empty", "204", "empty-text"],
)
def test_shape_a_drifting_answer_is_structured(
    status: int, headers: Any, body: str, value: Any
) -> None:
    """S16.7: under the shape view (the default) an answer fails only when a value's kind
    differs; an empty 2xx answer is `{}`, and JSON without a content type is read as JSON."""
    result = with_output(ADDRESS, view="shape").result(status, headers, body.encode())
    assert result == structured(body, value)


def test_shape_is_the_default_and_an_empty_wrapped_answer_is_a_null_result() -> None:
    """S16.7: `output_schemas` defaults to the shape view; S16.3 wrapped, an empty answer is
    `{"result": null}`."""
    plan = one(doc(json_response({"type": "array", "items": {"type": "integer"}})))
    assert plan.output_view == "shape"
    assert plan.result(204, {}, b"") == structured("", {"result": None})
    assert plan.result(200, JSON, b"[1, null]") == structured("[1, null]", {"result": [1, None]})


@pytest.mark.parametrize(
    ("status", "headers", "body", "where"),
    [
        (200, JSON, '{"id": 5}', ' at /id: 5 is not of type "string", "null"'),
        (200, JSON, '{"tags": {"a": 1}}', ' at /tags: {"a": 1} is not of type "array", "null"'),
        (200, JSON, "[]", ' at /: [] is not of type "object"'),
        (200, {"content-type": "text/csv"}, "id\nx\n", ""),
        (200, JSON, "{", ""),
        (302, JSON, '{"id": "x"}', ""),
    ],
    ids=["kind", "array-kind", "root", "csv", "not-json", "3xx"],
)
def test_shape_an_answer_of_another_kind_is_an_error_naming_where(
    status: int, headers: Any, body: str, where: str
) -> None:
    """S16.7: the shape view still refuses a value of another kind, naming where (S16.4)."""
    result = with_output(ADDRESS, view="shape").result(status, headers, body.encode())
    head = MISMATCH.format(status=status).replace("):", f"{where}):")
    assert result == {"content": [{"type": "text", "text": head + body}], "isError": True}


def test_with_an_output_schema_an_image_is_an_error_with_the_image_attached() -> None:
    """S16.4: the mismatch text, then the image itself."""
    result = with_output().result(200, {"content-type": "image/png"}, PNG)
    assert result["isError"] is True
    assert (
        result["content"][0]["text"]
        == MISMATCH.format(status=200) + f"{len(PNG)} bytes of image/png, attached"
    )
    assert result["content"][1]["type"] == "image"


def test_with_an_output_schema_an_error_is_a_plain_error() -> None:
    """S16.4: at 400 and above the answer is the `HTTP <status>: ` error, never structured."""
    assert with_output().result(422, JSON, b'{"id": "x"}') == text(422, 'HTTP 422: {"id": "x"}')


def test_a_plan_loaded_from_data_answers_the_same() -> None:
    """S15, S16.4: the output judge is built from plan data alone."""
    plan = with_output()
    loaded = Plan.from_dict(json.loads(json.dumps(plan.to_dict())))
    for status, body in ((200, b'{"id": "a"}'), (200, b'{"id": 1}'), (500, b"x")):
        assert loaded.result(status, JSON, body) == plan.result(status, JSON, body)


@pytest.mark.parametrize(
    ("status", "headers", "body", "needle"),
    [
        (99, {}, b"", "the response status 99 is not an HTTP status (100-599)"),
        (600, {}, b"", "the response status 600 is not an HTTP status"),
        ("200", {}, b"", "the response status '200' is not an HTTP status"),
        (True, {}, b"", "the response status True is not an HTTP status"),
        (200, 5, b"", "the response headers must be a mapping or (name, value) pairs, not int"),
        (
            200,
            ["content-type"],
            b"",
            "the response headers must be a mapping or (name, value) pairs",
        ),
        (200, {}, 5, "the response body must be bytes (or text), not int"),
        (200, {}, {"a": 1}, "the response body must be bytes (or text), not dict"),
    ],
)
def test_bad_answers_are_toolshape_errors(
    status: Any, headers: Any, body: Any, needle: str
) -> None:
    """S14.4: a status outside 100-599, headers that are not a mapping or pairs, a body that is
    not bytes: a clear `ToolshapeError`, never another exception."""
    with pytest.raises(ToolshapeError) as caught:
        with_output().result(status, headers, body)
    assert needle in caught.value.message


@pytest.mark.parametrize(
    "charset", ["rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri", "undefined", "idna"]
)
def test_an_answer_in_a_charset_that_is_no_character_set_is_read_as_utf8(charset: str) -> None:
    """S16.4, S14.4: an answer whose `charset` names no character set is decoded as UTF-8, bad
    bytes replaced; never an exception."""
    headers = {"content-type": f"text/plain; charset={charset}"}
    body = "ok é".encode() + b"\xff"
    assert without_output().result(200, headers, body) == text(200, "ok é\ufffd")


def test_a_text_body_with_a_lone_surrogate_is_replaced() -> None:
    """S16.4, S14.4: a `str` answer holding a lone surrogate is read with it replaced."""
    answer = without_output().result(200, {"content-type": "text/plain"}, "a\ud800b")
    assert answer == text(200, "a\ufffd\ufffd\ufffdb")
