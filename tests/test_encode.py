"""S17: request bodies on the wire — JSON, form, multipart, binary, text — checked by parsers
that are not the library's: `urllib.parse.parse_qsl`, the `email` package, `python-multipart`."""

from __future__ import annotations

import base64
import email
import email.message
import email.policy
import json
import re
from typing import Any
from urllib.parse import parse_qsl, quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from python_multipart.multipart import MultipartParser, parse_options_header

from tests.conftest import SLICE
from toolshape import ArgumentError, Plan, PlanResult, plan_document, plan_operation
from toolshape.call._encode import decode_base64
from toolshape.call._query import Refused, percent

BINARY = bytes(range(256)) + b"\r\n--not-a-boundary\r\n\xff\xfe"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def tool(
    content_type: str,
    schema: Any,
    encoding: dict[str, Any] | None = None,
    *,
    style: str = "flat",
    openapi: str = "3.1.0",
) -> Plan:
    media: dict[str, Any] = {} if schema is None else {"schema": schema}
    if encoding is not None:
        media["encoding"] = encoding
    document = {
        "openapi": openapi,
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/upload": {
                "post": {
                    "operationId": "upload",
                    "requestBody": {"required": True, "content": {content_type: media}},
                }
            }
        },
    }
    (plan,) = plan_operation(document, "/upload", "post", style=style)
    return plan


def sent(plan: Plan, arguments: Any) -> tuple[str, bytes]:
    headers, content = plan.call(arguments).encode()
    assert content is not None
    return dict(headers)["content-type"], content


def refusal(plan: Plan, arguments: Any) -> tuple[str, str]:
    with pytest.raises(ArgumentError) as caught:
        plan.call(arguments)
    (issue,) = caught.value.errors
    return issue.path, issue.message


# -- S17.2 JSON ------------------------------------------------------------------------------


def test_json_is_utf8_compact_and_keeps_non_ascii() -> None:
    """S17.2: UTF-8, compact separators, non-ASCII kept."""
    plan = tool("application/json", {"type": "object", "properties": {"name": {}}})
    assert sent(plan, {"name": "café ☕"}) == (
        "application/json",
        '{"name":"café ☕"}'.encode(),
    )


def test_a_json_range_is_sent_as_application_json() -> None:
    """S17.2: a `*/*` body with an object schema is JSON, sent as `application/json`."""
    plan = tool("*/*", {"type": "object", "properties": {"a": {}}})
    assert sent(plan, {"a": 1}) == ("application/json", b'{"a":1}')


# -- S17.3 form ------------------------------------------------------------------------------

FORM = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "n": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object", "additionalProperties": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "raw": {"type": "string"},
        "doc": {"type": "object"},
    },
}
FORM_ENCODING = {
    "meta": {"style": "deepObject", "explode": True},
    "ids": {"style": "form", "explode": False},
    "raw": {"allowReserved": True},
    "doc": {"contentType": "application/json"},
}


def test_form_fields_follow_their_encoding_entries() -> None:
    """S17.3: style form exploded by default, the entry's style/explode/allowReserved, a
    `contentType` entry sends JSON text; `+`, `&`, `=` always encoded."""
    plan = tool("application/x-www-form-urlencoded", FORM, FORM_ENCODING)
    kind, content = sent(
        plan,
        {
            "q": "a+b&c=d 50%",
            "n": 3,
            "tags": ["x", "y"],
            "meta": {"plan": "pro", "a&b": "c=d"},
            "ids": [1, 2],
            "raw": "a%20b/c",
            "doc": {"k": [1, "v"]},
        },
    )
    assert kind == "application/x-www-form-urlencoded"
    text = content.decode("ascii")
    assert "q=a%2Bb%26c%3Dd%2050%25" in text
    assert "tags=x&tags=y" in text
    assert "meta[plan]=pro" in text
    assert "ids=1,2" in text
    assert "raw=a%20b/c" in text
    assert parse_qsl(text, keep_blank_values=True) == [
        ("q", "a+b&c=d 50%"),
        ("n", "3"),
        ("tags", "x"),
        ("tags", "y"),
        ("meta[plan]", "pro"),
        ("meta[a&b]", "c=d"),
        ("ids", "1,2"),
        ("raw", "a b/c"),
        ("doc", '{"k": [1, "v"]}'),
    ]


def test_a_deep_object_indexes_its_arrays_as_stripe_reads_them() -> None:
    """S17.3: `metadata[plan]=pro&expand[0]=customer`, nested objects nested."""
    schema = {
        "type": "object",
        "properties": {"expand": {"type": "array"}, "address": {"type": "object"}},
    }
    encoding = {
        "expand": {"style": "deepObject", "explode": True},
        "address": {"style": "deepObject", "explode": True},
    }
    plan = tool("application/x-www-form-urlencoded", schema, encoding)
    _, content = sent(
        plan, {"expand": ["customer", "invoice"], "address": {"city": "Paris", "geo": {"lat": 1}}}
    )
    assert (
        content == b"expand[0]=customer&expand[1]=invoice&address[city]=Paris&address[geo][lat]=1"
    )


@pytest.mark.parametrize(
    ("body", "path", "needle"),
    [
        (
            {"tags": [{"a": 1}]},
            "tags",
            "can't hold a nested array or object; declare `style: deepObject`",
        ),
        ({"meta": {"a]b": "x"}}, "meta", "the key `a]b` holds a bracket"),
        ({"obj": {"q": "forged"}, "q": "real"}, "obj", "the key `q` would be sent as `q`"),
    ],
)
def test_what_a_form_can_not_express_is_an_argument_error(
    body: Any, path: str, needle: str
) -> None:
    """S17.3: a primitive form body, a nested value a form style can't express, a key that
    would forge structure or another field: argument errors naming the argument."""
    schema = {"type": "object", "properties": {"tags": {}, "meta": {}, "obj": {}, "q": {}}}
    plan = tool(
        "application/x-www-form-urlencoded",
        schema,
        {"meta": {"style": "deepObject"}},
        style="nested",
    )
    where, message = refusal(plan, {"body": body})
    assert where == ("body" if not path else f"body.{path}")
    assert needle in message


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_primitive_form_body_is_an_argument_error(kind: str) -> None:
    """S17.3: a form (or multipart) body must be an object; a primitive at the root is refused
    at call time, naming the body."""
    plan = tool(kind, {}, style="nested")
    assert refusal(plan, {"body": "just text"}) == (
        "body",
        f"a {'form' if 'urlencoded' in kind else 'multipart'} body must be an object of its fields",
    )


# -- S17.4 multipart -------------------------------------------------------------------------

UPLOAD = {
    "type": "object",
    "properties": {
        "file": {"type": "string", "format": "binary"},
        "photos": {"type": "array", "items": {"type": "string", "contentMediaType": "image/png"}},
        "title": {"type": "string"},
        "count": {"type": "integer"},
        "meta": {"type": "object"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "array", "items": {"type": "string"}},
        "note": {"type": "string"},
    },
    "required": ["file"],
}
UPLOAD_ENCODING = {"labels": {"explode": True}, "note": {"contentType": "text/markdown"}}
UPLOAD_CALL = {
    "file": b64(BINARY),
    "photos": [b64(b"\x89PNG one"), b64(b"\x89PNG two")],
    "title": 'Q3 "report"\r\nline two',
    "count": 7,
    "meta": {"a": [1, 2]},
    "tags": ["x", "y"],
    "labels": ["l1", "l2"],
    "note": "# heading",
}
#: (name, content type, filename, bytes) of every part, in body order (S17.4).
UPLOAD_PARTS = [
    ("file", "application/octet-stream", "file", BINARY),
    ("photos", "image/png", "photos", b"\x89PNG one"),
    ("photos", "image/png", "photos", b"\x89PNG two"),
    ("title", "text/plain", None, b'Q3 "report"\r\nline two'),
    ("count", "text/plain", None, b"7"),
    ("meta", "application/json", None, b'{"a": [1, 2]}'),
    ("tags", "application/json", None, b'["x", "y"]'),
    ("labels", "text/plain", None, b"l1"),
    ("labels", "text/plain", None, b"l2"),
    ("note", "text/markdown", None, b"# heading"),
]


def with_email(kind: str, content: bytes) -> list[tuple[str, str, str | None, bytes]]:
    """The parts as the `email` package reads them."""
    message = email.message_from_bytes(
        f"Content-Type: {kind}\r\n\r\n".encode() + content, policy=email.policy.HTTP
    )
    assert isinstance(message, email.message.EmailMessage)
    out = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        assert isinstance(name, str)
        assert isinstance(payload, bytes)
        out.append(
            (
                name.replace("%22", '"').replace("%0D", "\r").replace("%0A", "\n"),
                part.get_content_type(),
                part.get_filename(),
                payload,
            )
        )
    return out


def with_python_multipart(kind: str, content: bytes) -> list[tuple[str, str, str | None, bytes]]:
    """The parts as `python-multipart` (Starlette's and FastAPI's parser) reads them."""
    _, params = parse_options_header(kind)
    parts: list[dict[str, Any]] = []
    field: list[bytes] = []

    def begin() -> None:
        parts.append({"headers": {}, "data": b""})

    def data(buffer: bytes, start: int, end: int) -> None:
        parts[-1]["data"] += buffer[start:end]

    def header_field(buffer: bytes, start: int, end: int) -> None:
        field.append(buffer[start:end])

    def header_value(buffer: bytes, start: int, end: int) -> None:
        # Header bytes as Starlette reads them: latin-1, so UTF-8 names survive as bytes.
        parts[-1]["headers"][b"".join(field).decode().lower()] = buffer[start:end].decode("latin-1")
        field.clear()

    parser = MultipartParser(
        params[b"boundary"],
        {
            "on_part_begin": begin,
            "on_part_data": data,
            "on_header_field": header_field,
            "on_header_value": header_value,
        },
    )
    parser.write(content)
    parser.finalize()
    out = []
    for part in parts:
        _, disposition = parse_options_header(part["headers"]["content-disposition"])
        filename = disposition.get(b"filename")
        out.append(
            (
                disposition[b"name"].decode("utf-8"),
                part["headers"]["content-type"],
                filename.decode("utf-8") if filename else None,
                part["data"],
            )
        )
    return out


def test_multipart_parts_as_two_outside_parsers_read_them() -> None:
    """S17.4: one part per field in body order; binary fields decoded, with a filename and
    their media type (or application/octet-stream); other primitives text/plain; objects and
    arrays application/json; an array of binaries or an exploded array repeats the part; an
    entry's contentType wins."""
    plan = tool("multipart/form-data", UPLOAD, UPLOAD_ENCODING)
    kind, content = sent(plan, UPLOAD_CALL)
    assert kind.startswith("multipart/form-data; boundary=toolshape-")
    boundary = kind.split("boundary=", 1)[1].encode()
    assert content.count(boundary) == len(UPLOAD_PARTS) + 1
    expected = [(n, t, f, b) for n, t, f, b in UPLOAD_PARTS]
    assert with_python_multipart(kind, content) == [
        (n.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A"), t, f, b)
        for n, t, f, b in expected
    ]
    assert with_email(kind, content) == expected


def document_with(content_type: str, schema: Any, encoding: Any) -> dict[str, Any]:
    media = {"schema": schema, "encoding": encoding}
    operation = {"operationId": "upload", "requestBody": {"content": {content_type: media}}}
    return {"openapi": "3.1.0", "paths": {"/upload": {"post": operation}}}


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"headers": {"X-Part": {}}}, "has `headers`, which toolshape does not apply"),
        ({"contentType": "text/plain\r\nX-Evil: 1"}, "has `contentType`"),
        ({"contentType": "text/plain\n"}, "has `contentType`"),
        ({"contentType": "image/png, "}, "has `contentType`"),
        ({"style": "matrix"}, "has `style`"),
        ({"explode": "yes"}, "has `explode`"),
    ],
)
def test_an_encoding_entry_toolshape_can_not_apply_is_a_planning_error(
    entry: dict[str, Any], words: str
) -> None:
    """S17.3, S17.4: an entry whose bytes toolshape would not send as declared (per-part
    headers), or whose media type would write other headers, refuses the tool, naming it."""
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    result = plan_document(document_with("multipart/form-data", schema, {"a": entry}))
    (error,) = result.errors
    assert error.kind == "document"
    assert "/encoding/a" in error.reason
    assert words in error.reason


def test_entry_content_types_send_one_media_type() -> None:
    """S17.4: a comma-separated `contentType` sends its first media type; a range sends the
    part's default; a `contentMediaType` that would write another header is not used; an
    extension key of the entry is not toolshape's and changes nothing."""
    binary = {"type": "string", "format": "binary"}
    schema = {
        "type": "object",
        "properties": {
            "listed": binary,
            "ranged": binary,
            "forged": {"type": "string", "contentMediaType": "image/png\r\nX-Evil: 1"},
            "note": {"type": "string"},
        },
    }
    encoding = {
        "listed": {"contentType": "image/png, image/jpeg"},
        "ranged": {"contentType": "image/*", "x-vendor": True},
        "note": {"contentType": "text/markdown; charset=utf-8, text/plain"},
    }
    (plan,) = plan_document(
        document_with("multipart/form-data", schema, encoding), style="flat"
    ).tools
    call = {"listed": b64(b"\x89P"), "ranged": b64(b"\xff"), "forged": b64(b"x"), "note": "# n"}
    kind, content = sent(plan, call)
    assert [(name, media) for name, media, _, _ in with_email(kind, content)] == [
        ("listed", "image/png"),
        ("ranged", "application/octet-stream"),
        ("forged", "application/octet-stream"),
        ("note", "text/markdown"),
    ]
    assert b"X-Evil" not in content
    assert plan.encoding["ranged"] == {"contentType": "image/*"}


@pytest.mark.parametrize("name", ["X-Tenant\n", "X-Tenant\r\n"])
def test_a_header_name_with_a_line_break_is_a_planning_error(name: str) -> None:
    """S1 (amended), S12.2: a header parameter's name must be an HTTP token, a final newline
    included (a regular expression's `$` would let it by)."""
    operation = {
        "operationId": "op",
        "parameters": [{"name": name, "in": "header", "schema": {"type": "string"}}],
    }
    result = plan_document({"openapi": "3.1.0", "paths": {"/x": {"get": operation}}})
    assert result.tools == ()
    (error,) = result.errors
    assert "not an HTTP token" in error.reason or "header name" in error.reason


def test_the_boundary_is_derived_from_the_content_and_never_inside_it() -> None:
    """S17.1, S17.4: the same request gives the same bytes; another content, another
    boundary; a content that holds the first candidate gets another one."""
    plan = tool("multipart/form-data", UPLOAD)
    one = sent(plan, {"file": b64(b"one")})
    assert sent(plan, {"file": b64(b"one")}) == one
    other = sent(plan, {"file": b64(b"two")})
    assert other[0] != one[0]
    boundary = one[0].split("boundary=", 1)[1]
    tricky = sent(plan, {"file": b64(b"one"), "title": boundary})
    assert boundary not in tricky[0]
    assert tricky[1].count(tricky[0].split("boundary=", 1)[1].encode()) == 3


# -- S17.5 binary values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "openapi", "advertised"),
    [
        (
            {"type": "string", "format": "binary"},
            "3.1.0",
            {"type": "string", "contentEncoding": "base64"},
        ),
        (
            {"type": "file", "description": "d"},
            "3.0.3",
            {"type": "string", "description": "d", "contentEncoding": "base64"},
        ),
        (
            {"type": "string", "contentMediaType": "image/png"},
            "3.1.0",
            {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64"},
        ),
        (
            {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64"},
            "3.1.0",
            {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64"},
        ),
    ],
)
def test_binary_strings_are_advertised_as_base64(
    schema: Any, openapi: str, advertised: Any
) -> None:
    """S17.5: a model can only send text: every binary string becomes a base64 string."""
    plan = tool(
        "multipart/form-data", {"type": "object", "properties": {"f": schema}}, openapi=openapi
    )
    assert plan.input_schema["properties"]["f"] == advertised


@pytest.mark.parametrize(
    "text",
    [
        "not base64!",
        "YWJj\nZGVm",
        "YWJjZA",
        "YWJj ZGVm",
        "YWJj=",
        "YWJj====",
        "YW=j",
        "YWJjé===",
        5,
    ],
)
@pytest.mark.parametrize(("style", "where"), [("flat", "file"), ("nested", "body.file")])
def test_text_that_is_not_base64_is_an_argument_error(text: Any, style: str, where: str) -> None:
    """S17.5: standard alphabet, padding required, no line breaks — else an argument error
    naming the argument."""
    schema = {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}}
    plan = tool("multipart/form-data", schema, style=style)
    call = {"file": text} if style == "flat" else {"body": {"file": text}}
    path, message = refusal(plan, call)
    if not isinstance(text, str):  # the schema rejects it first
        return
    assert path == where
    assert "is not base64" in message


def test_a_whole_binary_body_is_one_base64_argument_sent_as_bytes() -> None:
    """S17.5: `application/octet-stream` without a schema: one base64 argument, raw bytes."""
    plan = tool("application/octet-stream", None, style="nested")
    assert plan.input_schema["properties"]["body"] == {
        "type": "string",
        "contentEncoding": "base64",
    }
    assert sent(plan, {"body": b64(BINARY)}) == ("application/octet-stream", BINARY)
    assert refusal(plan, {"body": "??"}) == (
        "body",
        "is not base64 (the standard alphabet, padded with `=`, without line breaks): send the file's bytes base64-encoded",
    )


def test_base64_in_json_and_form_bodies_is_sent_as_text() -> None:
    """S17.5: JSON can't carry bytes: the base64 text travels as it is."""
    schema = {"type": "object", "properties": {"f": {"type": "string", "format": "binary"}}}
    assert sent(tool("application/json", schema), {"f": b64(b"hi")}) == (
        "application/json",
        b'{"f":"aGk="}',
    )
    assert (
        sent(tool("application/x-www-form-urlencoded", schema), {"f": b64(b"hi")})[1] == b"f=aGk%3D"
    )


# -- S17.6 text, S17.7 others ----------------------------------------------------------------


def test_text_bodies_are_strings_in_their_charset() -> None:
    """S17.6: a string sent in the content type's charset; anything else an argument error."""
    plan = tool("text/plain; charset=latin-1", {"type": "string"}, style="nested")
    assert sent(plan, {"body": "café"}) == ("text/plain; charset=latin-1", "café".encode("latin-1"))
    assert refusal(plan, {"body": "日本"}) == ("body", "the text can't be sent as latin-1")
    loose = tool("text/csv", {}, style="nested")
    assert refusal(loose, {"body": {"a": 1}})[1].startswith("a `text/csv` body must be a string")


#: Charset names Python knows that are no character set (S14.4): read as UTF-8.
NOT_CHARSETS = ["rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri", "undefined", "idna"]


@pytest.mark.parametrize("charset", NOT_CHARSETS)
def test_a_charset_that_is_no_character_set_sends_utf8(charset: str) -> None:
    """S17.6, S14.4: a `charset` naming a codec that is not a character set (bytes to bytes,
    text to text, or no charset at all) sends the text as UTF-8, whatever the text."""
    content_type = f"text/plain; charset={charset}"
    plan = tool(content_type, {"type": "string"}, style="nested")
    text = "héllo wörld " * 10 + "a" * 80  # longer than one label of `idna`
    assert sent(plan, {"body": text}) == (content_type, text.encode("utf-8"))


def listed(content_type: str, schema: Any) -> PlanResult:
    document = {
        "openapi": "3.1.0",
        "paths": {
            "/upload": {
                "post": {
                    "operationId": "upload",
                    "requestBody": {"content": {content_type: {"schema": schema}}},
                }
            }
        },
    }
    return plan_document(document, style="nested")


OBJECT = {"type": "object", "properties": {"a": {"type": "string"}}}


@pytest.mark.parametrize(
    ("content_type", "schema", "kind"),
    [
        ("application/xml", OBJECT, None),
        ("application/atom+xml", {"type": "string"}, None),
        ("text/xml", {"type": "string"}, None),  # XML, and not a binary string
        ("application/xml", {"type": "string", "format": "binary"}, "binary"),
        ("text/plain", OBJECT, None),
        ("text/plain", {"type": ["string", "null"]}, "text"),
        ("text/csv", {"type": "string"}, "text"),
        ("application/vnd.example.thing", OBJECT, None),
        ("application/yaml", OBJECT, "yaml"),
        ("application/x-yaml", OBJECT, "yaml"),
        ("application/apply-patch+yaml", OBJECT, "yaml"),
        ("application/merge-patch+json", OBJECT, "json"),
    ],
)
def test_a_tool_never_lists_what_it_cant_send(
    content_type: str, schema: Any, kind: str | None
) -> None:
    """S17.9: XML that is not a binary string, `text/*` whose schema can't be a string and any
    media type S17 does not name plan no tool, with a warning naming the content type."""
    result = listed(content_type, schema)
    assert result.errors == ()
    if kind is None:
        assert result.tools == ()
        (note,) = result.diagnostics
        assert note.level == "warning"
        assert note.tool == "upload"
        assert note.message.startswith(
            f"MCP tool not listed for tool 'upload' (operation upload): toolshape can't send "
            f"a `{content_type}` request body"
        )
        assert note.message.endswith("(S17.9) (openapi.json#/paths/~1upload/post)")
    else:
        (plan,) = result.tools
        assert plan.body_encoding == kind


def test_skipped_types_leave_the_other_names_as_they_were() -> None:
    """S17.9, S8.2: the tools left keep the names every content type gives."""
    document = make_multi({"application/json": OBJECT, "application/xml": OBJECT})
    result = plan_document(document)
    assert [p.name for p in result.tools] == ["upload_application_json"]
    assert [d.tool for d in result.diagnostics] == ["upload_application_xml"]


def make_multi(content: dict[str, Any]) -> dict[str, Any]:
    body = {"content": {media: {"schema": schema} for media, schema in content.items()}}
    operation = {"operationId": "upload", "requestBody": body}
    return {"openapi": "3.1.0", "paths": {"/upload": {"post": operation}}}


def test_a_yaml_body_is_sent_as_json_text_which_is_yaml() -> None:
    """S17.7: the value as JSON text in UTF-8, which YAML 1.2 reads as the same value; the
    characters a YAML stream can't hold raw are escaped."""
    yaml = pytest.importorskip("yaml", reason="the extra toolshape[yaml] reads YAML back")
    plan = tool("application/apply-patch+yaml", OBJECT, style="nested")
    value = {
        "a": "caf\u00e9 \u0085 \u009f \u007f \u2028 \ufeff \U0001f600",
        "n": [1, 2.5, None, True],
    }
    content_type, content = sent(plan, {"body": value})
    assert content_type == "application/apply-patch+yaml"
    assert json.loads(content) == value
    assert yaml.safe_load(content.decode("utf-8")) == value


def test_a_content_encoding_binary_string_is_binary() -> None:
    """S17.8: `contentEncoding: binary` (Discord's file parts) is advertised as base64 and
    sent as a file part of raw bytes."""
    schema = {
        "type": "object",
        "properties": {"files[0]": {"type": "string", "contentEncoding": "binary"}},
    }
    plan = tool("multipart/form-data", schema, style="nested")
    advertised = plan.input_schema["properties"]["body"]["properties"]["files[0]"]
    assert advertised == {"type": "string", "contentEncoding": "base64"}
    _, content = sent(plan, {"body": {"files[0]": "AAEC"}})
    assert b'name="files[0]"; filename="files[0]"\r\n' in content
    assert b"Content-Type: application/octet-stream\r\n\r\n\x00\x01\x02\r\n" in content


def test_a_request_without_body_encodes_to_none() -> None:
    """S17.1: no body, no content."""
    document = {"openapi": "3.1.0", "paths": {"/a": {"get": {}}}}
    (plan,) = plan_document(document).tools
    assert plan.call({}).encode() == ((), None)


def test_encoding_data_survives_plan_data() -> None:
    """S15, S17: the encoding map and the binary fields are plan data."""
    plan = tool("multipart/form-data", UPLOAD, UPLOAD_ENCODING)
    loaded = Plan.from_dict(json.loads(json.dumps(plan.to_dict())))
    assert loaded == plan
    assert loaded.call(UPLOAD_CALL).encode() == plan.call(UPLOAD_CALL).encode()


# -- the law ---------------------------------------------------------------------------------

#: S17.5 as a grammar: quanta of four, the last one padded (an outside statement of the rule).
BASE64_GRAMMAR = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AQgw+/=\n é", max_size=13))
def test_base64_arguments_are_exactly_the_padded_standard_alphabet(text: str) -> None:
    """S17.5: a base64 argument decodes iff it is the grammar, to what the standard library's
    decoder gives."""
    if BASE64_GRAMMAR.fullmatch(text):
        assert decode_base64(text, "f") == base64.b64decode(text, validate=True)
    else:
        with pytest.raises(Refused) as refused:
            decode_base64(text, "f")
        assert refused.value.where == "f"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.sampled_from(["", "[]", ",|", ",|:/?[]@!$'()*;", "|"]))
def test_percent_encoding_is_the_standard_librarys(text: str, safe: str) -> None:
    """S12.1, S17.3: the fast percent-encoder gives exactly `urllib.parse.quote`'s text."""
    assert percent(text, safe) == quote(text, safe=safe)


KEYS = st.text(alphabet="ab&=[]%+ ü", min_size=1, max_size=4).filter(
    lambda k: "[" not in k and "]" not in k
)
SCALARS = st.one_of(st.text(alphabet="ab&=[]%+ ü\n", max_size=5), st.integers(-9, 9), st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        KEYS, st.one_of(SCALARS, st.lists(SCALARS, min_size=1, max_size=3)), min_size=1, max_size=4
    ),
    st.sampled_from(["form", "deepObject"]),
)
def test_form_law_nothing_lost_nothing_forged(body: dict[str, Any], style: str) -> None:
    """S17.3, S14.2: parse(encode(body)) gives back every value as text — nothing lost, nothing
    forged, whatever `&`, `=`, `[`, `]`, `%` or `+` the keys and values hold."""
    encoding = {name: {"style": style, "explode": True} for name in body}
    plan = tool("application/x-www-form-urlencoded", {"type": "object"}, encoding, style="nested")
    _, content = sent(plan, {"body": body})
    expected = []
    for name, value in body.items():
        if isinstance(value, list) and style == "deepObject":
            expected += [(f"{name}[{i}]", text(v)) for i, v in enumerate(value)]
        elif isinstance(value, list):
            expected += [(name, text(v)) for v in value]
        else:
            expected.append((name, text(value)))
    assert parse_qsl(content.decode("ascii"), keep_blank_values=True) == expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(KEYS, st.one_of(SCALARS, st.binary(max_size=8)), min_size=1, max_size=4))
def test_multipart_law_nothing_lost_nothing_forged(fields: dict[str, Any]) -> None:
    """S17.4, S14.2: every part comes back from python-multipart with its name and its bytes."""
    binary = {n for n, v in fields.items() if isinstance(v, bytes)}
    schema = {
        "type": "object",
        "properties": {n: {"type": "string", "format": "binary"} for n in binary},
    }
    plan = tool("multipart/form-data", schema)
    call = {n: b64(v) if n in binary else v for n, v in fields.items()}
    kind, content = sent(plan, call)
    parts = with_python_multipart(kind, content)
    assert [(n, d) for n, _, _, d in parts] == [
        (
            n.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A"),
            v if n in binary else text(v).encode(),
        )
        for n, v in fields.items()
    ]


def text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


# -- Stripe, end to end ----------------------------------------------------------------------


def stripe_form(data: dict[str, Any], prefix: str | None = None) -> list[tuple[str, str]]:
    """Stripe's own form convention (as its client libraries encode): nested objects as
    `key[sub]`, arrays indexed `key[0]`, booleans `true` / `false`, numbers as written."""
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        name = key if prefix is None else f"{prefix}[{key}]"
        if isinstance(value, dict):
            out += stripe_form(value, name)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    out += stripe_form(item, f"{name}[{index}]")
                else:
                    out.append((f"{name}[{index}]", stripe_scalar(item)))
        else:
            out.append((name, stripe_scalar(value)))
    return out


def stripe_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


STRIPE_CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "/v1/customers",
        {
            "email": "ada@example.com",
            "name": "Ada Lovelace",
            "metadata": {"plan": "pro", "team": "R&D = 1"},
            "expand": ["customer", "invoice_settings.default_payment_method"],
            "address": {
                "city": "London",
                "line1": "12 St. James's Square",
                "postal_code": "SW1Y 4JH",
            },
            "preferred_locales": ["en", "fr"],
        },
    ),
    (
        "/v1/products",
        {
            "name": "Widget+",
            "active": True,
            "images": ["https://example.com/w.png"],
            "metadata": {"sku": "W-1"},
            "package_dimensions": {"height": 1.5, "length": 2, "weight": 0.25, "width": 3},
        },
    ),
    (
        "/v1/prices",
        {
            "currency": "eur",
            "unit_amount": 1999,
            "product_data": {"name": "Gold plan", "metadata": {"tier": "gold"}},
            "recurring": {"interval": "month", "interval_count": 3},
            "expand": ["product"],
        },
    ),
    (
        "/v1/payment_intents",
        {
            "amount": 2000,
            "currency": "usd",
            "automatic_payment_methods": {"enabled": True},
            "payment_method_types": ["card"],
            "metadata": {"order_id": "6735"},
            "shipping": {"name": "Jenny Rosen", "address": {"line1": "1 Main St", "city": "SF"}},
        },
    ),
    (
        "/v1/subscriptions",
        {
            "customer": "cus_123",
            "items": [{"price": "price_1", "quantity": 2}, {"price": "price_2"}],
            "metadata": {"source": "mcp"},
            "expand": ["latest_invoice.payment_intent"],
        },
    ),
    (
        "/v1/invoices",
        {
            "customer": "cus_123",
            "custom_fields": [{"name": "PO", "value": "42"}],
            "metadata": {"a": "b"},
            "auto_advance": False,
        },
    ),
    (
        "/v1/checkout/sessions",
        {
            "success_url": "https://example.com/ok?session={CHECKOUT_SESSION_ID}",
            "mode": "payment",
            "line_items": [{"price": "price_1", "quantity": 1}],
            "metadata": {"cart": "c1"},
        },
    ),
    (
        "/v1/payment_links",
        {
            "line_items": [{"price": "price_1", "quantity": 3}],
            "metadata": {"campaign": "spring"},
            "after_completion": {
                "type": "redirect",
                "redirect": {"url": "https://example.com/thanks"},
            },
        },
    ),
    (
        "/v1/coupons",
        {
            "percent_off": 25.5,
            "duration": "repeating",
            "duration_in_months": 3,
            "metadata": {"x": "y"},
        },
    ),
    (
        "/v1/customers/{customer}",
        {
            "customer": "cus_123",
            "metadata": {"plan": ""},
            "invoice_settings": {"footer": "Thanks!"},
        },
    ),
]


@pytest.fixture(scope="module")
def stripe() -> Any:
    """Stripe's document as tests/data/corpus holds it (those ten operations whole)."""
    return json.loads((SLICE / "stripe.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("path", "call"), STRIPE_CALLS, ids=[p for p, _ in STRIPE_CALLS])
def test_stripe_form_bodies_are_what_stripe_reads(
    stripe: Any, path: str, call: dict[str, Any]
) -> None:
    """S17.3: ten of Stripe's form operations, with nested objects, arrays and metadata: the
    encoded body, parsed back, is the form Stripe's own convention makes of the same values
    (`expand[0]=customer`, `metadata[plan]=pro`, `address[city]=...`)."""
    (plan,) = plan_operation(stripe, path, "post", style="flat")
    kind, content = sent(plan, call)
    assert kind == "application/x-www-form-urlencoded"
    body = {
        k: v
        for k, v in call.items()
        if k not in plan.input_schema["properties"] or k in plan.body_properties
    }
    assert parse_qsl(content.decode("ascii"), keep_blank_values=True) == stripe_form(body)


FORGED_FORM = {
    "type": "object",
    "properties": {
        "meta": {
            "type": "object",
            "properties": {"plan": {"enum": ["free", "pro"]}},
            "additionalProperties": False,
        },
        "name": {"type": "string"},
    },
}


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data"]
)
@pytest.mark.parametrize("style", ["flat", "nested"])
@pytest.mark.parametrize(
    "call",
    [
        {"meta[plan]": "evil"},
        {"meta": {"plan": "pro"}, "meta[plan]": "evil"},
        {"meta[plan]": "evil", "meta": {"plan": "pro"}},
        {"meta]x": "evil"},
    ],
    ids=["alone", "after", "before", "a closing bracket"],
)
def test_an_undeclared_form_key_never_forges_a_declared_fields_structure(
    content_type: str, style: str, call: dict[str, Any]
) -> None:
    """S17.3, S14.3: in an open form body, an undeclared `meta[plan]` would be read by the
    server as `meta.plan`, past `meta`'s own schema (its `enum`): an argument error naming the
    key, whatever the order of the arguments; an undeclared key of no declared field is sent."""
    plan = tool(
        content_type, FORGED_FORM, {"meta": {"style": "deepObject", "explode": True}}, style=style
    )
    arguments = call if style == "flat" else {"body": call}
    path, message = refusal(plan, arguments)
    key = next(k for k in call if k != "meta")
    assert path == (key if style == "flat" else f"body.{key}")
    assert message.startswith(f"the key `{key}` would be read as part of the field `meta`")
    _, content = sent(plan, {"other[x]": "1"} if style == "flat" else {"body": {"other[x]": "1"}})
    assert b"other[x]" in content or b'name="other[x]"' in content


def test_an_encoding_style_that_is_not_text_is_a_planning_error() -> None:
    """S14.4 (found by the totality fuzz): `style: []` in an encoding entry is a planning error
    of its operation, not a `TypeError`."""
    document = {
        "openapi": "3.1.0",
        "paths": {
            "/f": {
                "post": {
                    "operationId": "f",
                    "requestBody": {
                        "content": {
                            "application/x-www-form-urlencoded": {
                                "schema": {"type": "object", "properties": {"a": {}}},
                                "encoding": {"a": {"style": []}},
                            }
                        }
                    },
                }
            }
        },
    }
    (error,) = plan_document(document).errors
    assert "has `style` [], which is not valid" in error.message
