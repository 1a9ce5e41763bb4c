"""The library's own errors: typed fields, messages built from them (S9, S13.4)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

PlanErrorKind: TypeAlias = Literal[
    "collision",
    "unflattenable",
    "configuration",
    "document",
    "reference",
    "parameter",
    "schema",
    "name",
]
"""What went wrong while planning:

- `collision`: two channels declare one argument name (S9.1);
- `unflattenable`: a flat tool's body can't be flattened (S9.2);
- `configuration`: an invalid or `$env(...)` `toolInputStyle` (S2.3, S2.4);
- `document`: the document is not an OpenAPI 3.x mapping, or a structural part is malformed;
- `reference`: a `$ref` is remote, missing or cyclic (S1.2);
- `parameter`: a parameter lacks `name`/`in` or has an unknown `in` (S1.1);
- `schema`: a value where a schema was expected is not one, or nests too deeply;
- `name`: two tools end up with one name (S8.1).
"""

_KEEP_NESTED = (
    'Fix the schema, or set "toolInputStyle": "nested" on this tool (x-zuplo-route.mcp, '
    "or x-zuplo-mcp-tool in a files entry) to keep its input nested"
)


class ToolshapeError(Exception):
    """Base class of every error the library raises (S14.4)."""


class PlanError(ToolshapeError):
    """An operation (or the document) can't be planned as asked.

    The message is built from the typed fields; `str(error)` is `error.message`.
    """

    kind: PlanErrorKind
    tool: str | None
    operation: str | None
    property: str | None
    channels: tuple[str, ...]
    reason: str
    location: str | None
    rule: str | None
    """The SPEC rule that refused the plan (`S9.1`, `S5.4`, ...), when one rule did."""

    def __init__(
        self,
        kind: PlanErrorKind,
        reason: str,
        *,
        tool: str | None = None,
        operation: str | None = None,
        property: str | None = None,
        channels: Sequence[str] = (),
        location: str | None = None,
        fix: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.kind = kind
        self.tool = tool
        self.operation = operation
        self.property = property
        self.channels = tuple(channels)
        self.reason = reason
        self.location = location
        self.fix: str | None = fix
        self.rule = rule
        super().__init__(self.message)

    @builtins.property
    def message(self) -> str:
        """The exact text of S2.3, S2.4, S9.1 or S9.2 (or the general frame)."""
        if self.kind == "configuration":
            return self.reason
        where = f" ({self.location})" if self.location else ""
        head = f"MCP tool '{self.tool}' (operation {self.operation}): " if self.tool else ""
        if self.kind == "collision":
            return (
                f'{head}toolInputStyle is "flat", but its input can\'t be flattened: '
                f"{self.reason}. {self.fix}. {_KEEP_NESTED}{where}"
            )
        if self.kind == "unflattenable":
            return (
                f'{head}toolInputStyle is "flat", but its request body can\'t be flattened '
                f"and would stay under `body`: {self.reason}. {_KEEP_NESTED}{where}"
            )
        return f"{head}{self.reason}{where}"

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"PlanError({self.kind!r}, {self.message!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_plan_error, (self.to_dict(),))

    def to_dict(self) -> dict[str, object]:
        """The error as plain JSON data (the CLI's `--json` form)."""
        return {
            "kind": self.kind,
            "message": self.message,
            "tool": self.tool,
            "operation": self.operation,
            "property": self.property,
            "channels": list(self.channels),
            "reason": self.reason,
            "location": self.location,
            "rule": self.rule,
        }


def _rebuild_plan_error(data: dict[str, object]) -> PlanError:
    return PlanError(
        data["kind"],  # type: ignore[arg-type]
        str(data["reason"]),
        tool=data["tool"],  # type: ignore[arg-type]
        operation=data["operation"],  # type: ignore[arg-type]
        property=data["property"],  # type: ignore[arg-type]
        channels=data["channels"],  # type: ignore[arg-type]
        location=data["location"],  # type: ignore[arg-type]
        rule=data.get("rule"),  # type: ignore[arg-type]
    )


class DocumentError(PlanError):
    """The input is not an OpenAPI 3.x document at all (not a mapping, Swagger 2.0, ...)."""


@dataclass(frozen=True, slots=True)
class ArgumentIssue:
    """One problem with a call's arguments (S13.4)."""

    path: str
    """Where the offending value is: flat (`sort`) or nested (`body.sort`); `""` at the root."""
    keyword: str
    """The JSON Schema keyword that rejected it (`required`, `enum`, ...)."""
    message: str
    """The validator's wording."""

    def render(self) -> str:
        """`path: message`, or the message alone at the root (S13.4)."""
        return f"{self.path}: {self.message}" if self.path else self.message


class ArgumentError(ToolshapeError):
    """A tool call's arguments were rejected; no request was made (S13.4, S14.2)."""

    tool: str
    errors: tuple[ArgumentIssue, ...]

    def __init__(self, tool: str, errors: Sequence[ArgumentIssue]) -> None:
        self.tool = tool
        self.errors = tuple(errors)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """`Invalid arguments for tool '<tool>': <path>: <message>; ...` (S13.4)."""
        return f"Invalid arguments for tool '{self.tool}': " + "; ".join(
            issue.render() for issue in self.errors
        )

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        return (ArgumentError, (self.tool, self.errors))
