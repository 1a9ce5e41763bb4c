"""S24.1: `load_document` — a file, text or bytes, parsed; every failure a `DocumentError`
with the place."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from toolshape import DocumentError, load_document, plan_document

YAML_DOCUMENT = """\
openapi: 3.1.0
info: {title: t, version: "1"}
on: here            # YAML 1.1 read `on` as true; 1.2 keeps the key `on`
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - name: since
          in: query
          schema: {type: string, default: 2024-01-01}   # a date stays its text
      responses:
        "200": {description: ok}
"""


def test_a_file_text_and_bytes_read_alike(tmp_path: Path) -> None:
    """S24.1: a path (text or `PathLike`), the text and its bytes give the same document."""
    path = tmp_path / "openapi.yaml"
    path.write_text(YAML_DOCUMENT, encoding="utf-8")
    documents = [
        load_document(str(path)),
        load_document(path),
        load_document(YAML_DOCUMENT),
        load_document(YAML_DOCUMENT.encode("utf-8")),
    ]
    assert all(d == documents[0] for d in documents)
    document = documents[0]
    assert document["on"] == "here"
    schema = document["paths"]["/things"]["get"]["parameters"][0]["schema"]
    assert schema["default"] == "2024-01-01"
    (tool,) = plan_document(document, style="flat").tools
    assert tool.call({"since": "2024-02-02"}).url == "/things?since=2024-02-02"


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("{not json", "it is not JSON (line 1, column 2: Expecting property name"),
        ('{"a": ' + "9" * 5000 + "}", "it is not JSON (Exceeds the limit"),
        ("[" * 30_000 + "]" * 30_000, "it nests too deeply"),
        (b"\xff\xfe{}", "it is not UTF-8 text (byte 1 is 0xff)"),
        ("a: [1,\nb: c\n", "it is neither JSON nor YAML (line 3, column 1:"),
        ("[1, 2]", "it holds a list, not a mapping"),
        ("no-such-file.json", "can't read no-such-file.json: no such file"),
        ("a: !!int abc", "'abc' is not an integer"),
    ],
    ids=[
        "bad JSON",
        "huge integer",
        "too deep",
        "not UTF-8",
        "bad YAML",
        "a list",
        "no file",
        "bad tag",
    ],
)
def test_every_failure_is_a_document_error_naming_the_place(source: Any, needle: str) -> None:
    """S24.1, S14.4: never `ValueError`, `TypeError` or a YAML exception."""
    with pytest.raises(DocumentError) as caught:
        load_document(source)
    assert needle in caught.value.message


def test_an_unreadable_file_is_a_document_error(tmp_path: Path) -> None:
    """S24.1: a directory (or a file that can't be read) names the path and why."""
    with pytest.raises(DocumentError, match=f"can't read {tmp_path}"):
        load_document(tmp_path)


SPELLED = (
    '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/t": {"get": {'
    '"operationId": "get", "summary": "half \\ud800 a pair", "description": "\\udc00 and a '
    'whole pair \\ud83d\\ude00", "responses": {"200": {"description": "ok"}}}}}}'
)


def test_text_utf_8_cant_carry_is_read_as_u_fffd(tmp_path: Path) -> None:
    """S14.4 (finding 2): JSON text may spell lone surrogates, and every text of a document
    reaches a client in UTF-8: each is U+FFFD (whole pairs stay), so `plan --json` and a
    stdio `tools/list` can print them (a traceback, and no answer)."""
    from toolshape.cli import main

    document = load_document(SPELLED)
    operation = document["paths"]["/t"]["get"]
    assert operation["summary"] == "half \ufffd a pair"
    assert operation["description"] == "\ufffd and a whole pair \U0001f600"
    (tool,) = plan_document(document).tools
    assert tool.to_mcp_tool()["description"].encode("utf-8")
    path = tmp_path / "spelled.json"
    path.write_text(SPELLED, encoding="utf-8")
    out = io.StringIO()
    assert main(["plan", str(path), "--json"], out=out) == 0
    assert "half \ufffd a pair" in out.getvalue()
    out.getvalue().encode("utf-8")
