"""Plans in a notebook: `Plan` and `PlanResult` show themselves as tables (`_repr_html_`,
`_repr_markdown_`) — tools by name, style, method, path and title; errors by kind, operation,
message and the switch that plans the tool anyway (S24.3) — with document text escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from toolshape import plan_document

HOSTILE = "<script>alert(1)</script> | *bold* $x$ [a](javascript:x) &amp;\nnext line"

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "paths": {
        "/things/{id}": {
            "get": {
                "operationId": "getThing",
                "summary": HOSTILE,
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
            },
            "put": {
                "operationId": "putThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "content": {"application/json": {"schema": {"type": "array", "items": {}}}}
                },
            },
        }
    },
}


class Cells(HTMLParser):
    """The text of every table cell, and every tag met."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.tags: list[str] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        if tag in ("td", "th"):
            self.cells.append("")
            self._open = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._open = False

    def handle_data(self, data: str) -> None:
        if self._open:
            self.cells[-1] += data


def test_a_result_is_a_table_of_tools_and_one_of_errors_in_html() -> None:
    result = plan_document(DOCUMENT, style="flat", source="things.json")
    parser = Cells()
    parser.feed(result._repr_html_())
    assert set(parser.tags) == {"table", "caption", "thead", "tbody", "tr", "th", "td"}
    assert parser.cells[:5] == ["tool", "style", "method", "path", "title"]
    assert parser.cells[5:10] == [
        "getThing",
        "flat",
        "GET",
        "/things/{id}",
        HOSTILE.replace("\n", " "),  # the text itself, escaped: no tag of it survives
    ]
    assert parser.cells[10:14] == ["kind", "operation", "error", "fix"]
    kind, operation, message, fix = parser.cells[14:18]
    assert (kind, operation) == ("unflattenable", "putThing")
    assert message == result.errors[0].message
    assert fix == 'on_unflattenable="nested" plans it nested (its body one `body` argument)'


def test_a_result_is_a_markdown_table_whose_cells_hold_no_markup() -> None:
    result = plan_document(DOCUMENT, style="flat", source="things.json")
    text = result._repr_markdown_()
    assert text.startswith(
        "**1 tools from things.json**\n\n| tool | style | method | path | title |"
    )
    row = next(line for line in text.splitlines() if line.startswith("| getThing"))
    cells = re.split(r"(?<!\\)\|", row)[1:-1]  # unescaped bars only
    assert len(cells) == 5
    title = cells[4].strip()
    assert "<" not in title.replace("\\<", "")
    assert "*" not in title.replace("\\*", "")
    assert "$" not in title.replace("\\$", "")
    assert "[" not in title.replace("\\[", "")
    assert re.sub(r"\\(.)", r"\1", title) == HOSTILE.replace("\n", " ")
    assert "**1 errors**" in text
    assert 'on\\_unflattenable="nested"' in text


def test_a_plan_shows_its_own_row() -> None:
    (plan, *_) = plan_document(DOCUMENT).tools
    parser = Cells()
    parser.feed(plan._repr_html_())
    assert parser.cells[5:9] == ["getThing", "nested", "GET", "/things/{id}"]
    assert plan._repr_markdown_().startswith("**MCP tool getThing**")
