"""How plans show themselves in a notebook: tables in HTML and in Markdown.

`Plan` and `PlanResult` (`_repr_html_`, `_repr_markdown_`) list tools by name, style, method,
path and title, and errors by kind, operation, message and the switch that would plan the tool
anyway (S24.3). Every text that comes from the document is escaped, so a title can't write
markup into the notebook.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Protocol

from toolshape.model._errors import PlanError
from toolshape.model._options import fixes


class Shown(Protocol):
    """What a tool's row shows (a `Plan`)."""

    @property
    def name(self) -> str: ...
    @property
    def style(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def title(self) -> str | None: ...


Row = Sequence[str]

TOOL_HEADERS = ("tool", "style", "method", "path", "title")
ERROR_HEADERS = ("kind", "operation", "error", "fix")

#: What the Markdown escape writes as `\<char>` inside a table cell: emphasis, code, links,
#: images, HTML, entities, strikethrough, cells and notebooks' `$` math — so no document text
#: is read as markup.
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|!~&$])")
#: Line breaks and other control characters, shown as a space in a table cell.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def tool_row(plan: Shown) -> Row:
    return (plan.name, plan.style, plan.method, plan.path, plan.title or "")


def error_row(error: PlanError) -> Row:
    fix = "; ".join(f"{f.keyword} {f.effect}" for f in fixes(error.kind, error.rule, error.reason))
    return (error.kind, error.operation or "", error.message, fix)


def markdown(title: str, headers: Row, rows: Sequence[Row]) -> str:
    """A Markdown table under a bold title."""
    lines = [f"**{_md_cell(title)}**", "", _md_row(headers), "|" + "---|" * len(headers)]
    lines.extend(_md_row(row) for row in rows)
    return "\n".join(lines)


def html_table(title: str, headers: Row, rows: Sequence[Row]) -> str:
    """An HTML table with a caption."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(_CONTROL.sub(' ', cell))}</td>" for cell in row)
        + "</tr>"
        for row in rows
    )
    return (
        f"<table><caption>{html.escape(title)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _md_row(cells: Row) -> str:
    return "| " + " | ".join(_md_cell(cell) for cell in cells) + " |"


def _md_cell(text: str) -> str:
    return _PUNCTUATION.sub(r"\\\1", _CONTROL.sub(" ", text))
