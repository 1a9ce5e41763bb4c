"""S26.6: a sequential answer read item by item, and a sequential body written — JSON Lines
(`application/jsonl`, `application/x-ndjson`), JSON text sequences (`application/json-seq`,
RFC 7464) and server-sent events (`text/event-stream`, read as objects with `event`, `data`,
`id` and `retry`, `data` kept as text). Pure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolshape.model._json import Json

#: RFC 7464: what starts each JSON text of a sequence.
RS = "\x1e"


@dataclass(frozen=True, slots=True)
class BadItem:
    """A sequential answer's item that does not parse: its number (from 1) and why."""

    number: int
    reason: str


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json(text: str, number: int) -> Json | BadItem:
    try:
        value: Json = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        return BadItem(number, str(error))
    return value


def read_items(kind: str, text: str) -> list[Json] | BadItem:
    """The items of an answer of sequential media type `kind`, or the first that does not
    parse (a JSON Lines line or a JSON text sequence's record, numbered from 1).

        >>> read_items("application/jsonl", '{"a": 1}\\n\\n[2]\\n')
        [{'a': 1}, [2]]
        >>> read_items("text/event-stream", "event: tick\\ndata: 1\\ndata: 2\\n\\n")
        [{'event': 'tick', 'data': '1\\n2'}]
    """
    if kind == "text/event-stream":
        return _events(text)
    if kind == "application/json-seq":
        parts = text.split(RS)
        if parts[0].strip():
            return BadItem(1, "the sequence does not start with RS (0x1E)")
        numbered = list(enumerate(parts[1:], 1))
    else:
        numbered = list(enumerate(text.split("\n"), 1))
    items: list[Json] = []
    for number, part in numbered:
        if part.strip():
            value = _json(part, number)
            if isinstance(value, BadItem):
                return value
            items.append(value)
    return items


def _events(text: str) -> list[Json]:
    """Server-sent events (WHATWG HTML, "event stream interpretation"): each event an object
    of the fields it set (`data` lines joined by newlines; `retry` a number)."""
    events: list[Json] = []
    event: dict[str, Json] = {}
    data: list[str] = []
    for line in [*text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), ""]:
        if not line:  # a blank line ends an event (and so does the stream's end)
            if data:
                event["data"] = "\n".join(data)
            if event:
                events.append(event)
            event, data = {}, []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            data.append(value)
        elif field in ("event", "id"):
            event[field] = value
        elif field == "retry" and value.isascii() and value.isdigit():
            event["retry"] = int(value)
    return events


def write_items(kind: str, items: list[Json]) -> bytes:
    """S26.6: a sequential body: one JSON text per line (JSON Lines), or each after RS and
    before a line feed (`application/json-seq`)."""
    texts = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    if kind == "application/json-seq":
        return "".join(f"{RS}{text}\n" for text in texts).encode("utf-8")
    return "".join(f"{text}\n" for text in texts).encode("utf-8")
