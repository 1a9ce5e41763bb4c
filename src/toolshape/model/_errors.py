"""The library's own errors: typed fields, messages built from them (S9, S13.4)."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from toolshape.model._json import Json, Unchecked

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


#: S2.3, S2.4: the configuration messages that are exactly as written, with no location.
_EXACT = frozenset({"S2.3", "S2.4"})


class ToolshapeError(Exception):
    """Base class of every error the library raises (S14.4).

    Every error is data too (S15.3): `to_dict()` gives its class and every field as plain
    JSON data, `ToolshapeError.from_dict(data)` rebuilds it (of the same class, with the same
    message), and pickling goes through the same form.
    """

    @property
    def message(self) -> str:
        """The error's text; `str(error)` is this."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Json]:
        """The error as plain JSON data: `{"error": <class name>, "message": ..., <fields>}`."""
        return {"error": type(self).__name__, "message": self.message, **self._fields()}

    def _fields(self) -> dict[str, Json]:
        return {}

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> ToolshapeError:
        return cls(str(data.get("message", "")))

    @staticmethod
    def from_dict(data: Mapping[str, Unchecked]) -> ToolshapeError:
        """Rebuild an error written by `to_dict()` (S15.3), of the class it names.

        Raises:
            ToolshapeError: `data` is not an error's plain-data form.
        """
        name = data.get("error") if isinstance(data, Mapping) else None
        cls = _ERROR_CLASSES.get(name) if isinstance(name, str) else None
        if cls is None:
            raise ToolshapeError(
                f"not a toolshape error: `error` is {name!r}, expected one of "
                f"{', '.join(sorted(_ERROR_CLASSES))}"
            )
        try:
            return cls._from_fields(data)
        except (KeyError, TypeError, ValueError) as error:
            raise ToolshapeError(f"not a toolshape {name}: missing or malformed {error}") from None

    def __reduce__(self) -> tuple[object, ...]:
        return (ToolshapeError.from_dict, (self.to_dict(),))


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
        """The exact text of S2.3, S2.4, S9.1 or S9.2 (or the general frame, which ends with
        the operation's location, S9.3)."""
        if self.kind == "configuration" and self.rule in _EXACT:
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

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind!r}, {self.message!r})"

    def _fields(self) -> dict[str, Json]:
        return {
            "kind": self.kind,
            "tool": self.tool,
            "operation": self.operation,
            "property": self.property,
            "channels": list(self.channels),
            "reason": self.reason,
            "location": self.location,
            "fix": self.fix,
            "rule": self.rule,
        }

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> PlanError:
        return cls(
            data["kind"],
            str(data["reason"]),
            tool=data.get("tool"),
            operation=data.get("operation"),
            property=data.get("property"),
            channels=tuple(data.get("channels") or ()),
            location=data.get("location"),
            fix=data.get("fix"),
            rule=data.get("rule"),
        )


class DocumentError(PlanError):
    """The input is not an OpenAPI 3.x document at all (not a mapping, Swagger 2.0, ...)."""


class PlanDataError(PlanError):
    """Plan data (`Plan.from_dict`) that is not a plan this version can serve (S15.1);
    `field` names the first field at fault (`parameters.0.in`)."""

    field: str

    def __init__(self, reason: str, *, field: str = "", **fields: Any) -> None:
        self.field = field
        fields.pop("kind", None)
        super().__init__("document", reason, **fields)

    def _fields(self) -> dict[str, Json]:
        return {**super()._fields(), "field": self.field}

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> PlanDataError:
        return cls(
            str(data["reason"]), field=str(data.get("field", "")), location=data.get("location")
        )


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

    def _fields(self) -> dict[str, Json]:
        return {
            "tool": self.tool,
            "errors": [
                {"path": e.path, "keyword": e.keyword, "message": e.message} for e in self.errors
            ],
        }

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> ArgumentError:
        return cls(
            str(data["tool"]),
            [
                ArgumentIssue(str(e["path"]), str(e["keyword"]), str(e["message"]))
                for e in data["errors"]
            ],
        )


class EncodeError(ToolshapeError):
    """A request whose body has no bytes toolshape can make: a `Request` built by hand for a
    media type S17 does not name (toolshape never plans such a tool, S17.9)."""

    content_type: str

    def __init__(self, content_type: str) -> None:
        self.content_type = content_type
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """What can't be encoded, and the way out."""
        return (
            f"toolshape can't encode a `{self.content_type}` request body (it encodes JSON, "
            "YAML, application/x-www-form-urlencoded, multipart/form-data, text/* and binary "
            "bodies); encode `Request.body` yourself for this tool"
        )

    def _fields(self) -> dict[str, Json]:
        return {"contentType": self.content_type}

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> EncodeError:
        return cls(str(data["contentType"]))


class CredentialError(ToolshapeError):
    """S18.2: the gateway's credentials can't authenticate a call (the gateway's fault, not the
    model's): they satisfy none of the operation's security alternatives, or one is malformed.
    The message names schemes, never a credential's value."""

    tool: str
    accepted: tuple[tuple[str, ...], ...]
    """The operation's alternatives, by scheme name."""
    given: tuple[str, ...]
    """The scheme names the credentials were given for."""
    reason: str | None
    """What is wrong with one credential, when that is the problem."""

    def __init__(
        self,
        tool: str,
        accepted: Sequence[Sequence[str]],
        given: Sequence[str],
        reason: str | None = None,
    ) -> None:
        self.tool = tool
        self.accepted = tuple(tuple(a) for a in accepted)
        self.given = tuple(given)
        self.reason = reason
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """What the operation accepts and what was given (or what is wrong with a credential)."""
        if self.reason is not None:
            return f"Credentials for tool '{self.tool}': {self.reason}"
        accepted = " or ".join(
            " and ".join(f"`{name}`" for name in alternative) for alternative in self.accepted
        )
        given = ", ".join(f"`{name}`" for name in self.given) or "none"
        return (
            f"Credentials for tool '{self.tool}' satisfy none of its security alternatives: it "
            f"accepts {accepted}; credentials were given for {given}"
        )

    def _fields(self) -> dict[str, Json]:
        return {
            "tool": self.tool,
            "accepted": [list(a) for a in self.accepted],
            "given": list(self.given),
            "reason": self.reason,
        }

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> CredentialError:
        return cls(
            str(data["tool"]),
            [[str(n) for n in a] for a in data["accepted"]],
            [str(n) for n in data["given"]],
            None if data.get("reason") is None else str(data["reason"]),
        )


class HeaderError(ToolshapeError):
    """S12.2: an inbound header `Plan.call` can't forward (a value with CR, LF, NUL or text
    outside Latin-1, or headers that are no mapping or pairs): the gateway's input, not the
    model's. The message names the header, never its value."""

    tool: str
    header: str | None
    reason: str

    def __init__(self, tool: str, header: str | None, reason: str) -> None:
        self.tool = tool
        self.header = header
        self.reason = reason
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Which inbound header, and why it can't be forwarded."""
        which = f"the inbound header `{self.header}`" if self.header else "the inbound headers"
        return f"Tool '{self.tool}' can't forward {which}: {self.reason}"

    def _fields(self) -> dict[str, Json]:
        return {"tool": self.tool, "header": self.header, "reason": self.reason}

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> HeaderError:
        header = data.get("header")
        return cls(str(data["tool"]), None if header is None else str(header), str(data["reason"]))


class SettingsError(ToolshapeError):
    """A settings file (`--operations FILE`, S24.7; a server's configuration, S23.3) that
    can't be used: every problem found, each naming its key. Nothing starts."""

    source: str
    """The file, as its name was given."""
    problems: tuple[str, ...]
    """Each problem: where (`` `listPets.style` ``) and what is wrong."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """`<file>: <problem>; <problem>`."""
        return f"{self.source}: " + "; ".join(self.problems)

    def _fields(self) -> dict[str, Json]:
        return {"source": self.source, "problems": list(self.problems)}

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> SettingsError:
        problems = data["problems"]
        return cls(
            str(data["source"]), [str(p) for p in problems] if isinstance(problems, list) else []
        )


class ViewError(ToolshapeError):
    """S22.1: a tool a model API can't take as it is: a name its rules refuse, located by its
    JSON pointer in the tool's definition."""

    api: str
    """The model API (`openai`, `anthropic`, `gemini`)."""
    tool: str
    pointer: str
    """Where the name is: `/name` for the tool's own, `/properties/<key>` ... for a key."""
    name: str
    rule: str
    """The pattern the name breaks."""
    portable: bool
    """Whether `portable_names=True` (S19.2) renames it: a tool name or a top-level argument."""

    def __init__(
        self, api: str, tool: str, pointer: str, name: str, rule: str, portable: bool
    ) -> None:
        self.api, self.tool, self.pointer, self.name, self.rule = api, tool, pointer, name, rule
        self.portable = portable
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """What breaks which rule where, and what fixes it."""
        what = "tool name" if self.pointer == "/name" else "property key"
        fix = (
            "plan with portable_names=True (--portable-names) to make it one"
            if self.portable
            else "portable_names=True does not rename keys inside a body; rename it in the document"
        )
        return (
            f"{self.api} can't take tool '{self.tool}': the {what} {self.name!r} at "
            f"{self.pointer} does not match {self.rule}; {fix}"
        )

    def _fields(self) -> dict[str, Json]:
        return {
            "api": self.api,
            "tool": self.tool,
            "pointer": self.pointer,
            "name": self.name,
            "rule": self.rule,
            "portable": self.portable,
        }

    @classmethod
    def _from_fields(cls, data: Mapping[str, Unchecked]) -> ViewError:
        api, tool, pointer, name, rule = (
            str(data[k]) for k in ("api", "tool", "pointer", "name", "rule")
        )
        return cls(api, tool, pointer, name, rule, portable=data["portable"] is True)


#: Every error class by name, for `ToolshapeError.from_dict` (S15.3).
_ERROR_CLASSES: dict[str, type[ToolshapeError]] = {
    cls.__name__: cls
    for cls in (
        ToolshapeError,
        PlanError,
        DocumentError,
        PlanDataError,
        ArgumentError,
        EncodeError,
        CredentialError,
        HeaderError,
        SettingsError,
        ViewError,
    )
}
