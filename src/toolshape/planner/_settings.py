"""S2: the settings planning reads — per server and per tool — and each tool's input style."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolshape.model._errors import PlanError, SettingsError
from toolshape.model._json import is_map, json_problem, json_text
from toolshape.model._options import Options
from toolshape.model._types import Diagnostic, Style
from toolshape.planner._tool import annotation_problem
from toolshape.read._document import RawOperation
from toolshape.read._select import ContentTypes

_ENV = re.compile(r"\$env\(([^)]*)\)")
_UNSET = object()


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What applies to every tool of a document (S2, S9.3, S10)."""

    options: Options
    style: Style
    """The server-wide `toolInputStyle`, resolved (S2.3)."""
    source: str
    """The document's name in every location (S9.3)."""
    route: str
    """The MCP route the S2.4 message names."""
    env: Mapping[str, str]
    """What resolves `$env(...)` under `env_in_style="resolve"` (S2.4)."""
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """S18.4: arguments the gateway supplies for every operation that declares them."""
    content_types: ContentTypes = "all"
    """S20.1: a tool per request content type, or one per operation (`preferred`)."""


@dataclass(frozen=True, slots=True)
class ToolSettings:
    """The caller's per-operation settings, each keyed by operationId (or, for an operation
    without one, its derived name): a new per-tool feature is one more field here."""

    styles: Mapping[str, str] = field(default_factory=dict)
    """S2.2: a tool's own `toolInputStyle`."""
    names: Mapping[str, str] = field(default_factory=dict)
    """S8.1: a tool's name."""
    annotations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """S16.2: hints that override the method's, per tool."""
    fixed: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """S18.4: `fixed_per_operation`: arguments the gateway supplies, per tool (over `fixed`)."""

    def mappings(self) -> dict[str, Mapping[str, Any]]:
        """Every per-operation mapping by its keyword, for the unknown-key warning."""
        return {
            "styles": self.styles,
            "names": self.names,
            "annotations": self.annotations,
            "fixed_per_operation": self.fixed,
        }


def env_error(route: str) -> PlanError:
    """S2.4: the exact configuration error for `$env(...)` in a style."""
    return PlanError(
        "configuration",
        f'MCP handler option "toolInputStyle" on route "{route}" can\'t use $env(...): the build '
        'uses it to generate tool schemas. Use "flat" or "nested".',
        rule="S2.4",
    )


def _expand_env(
    value: str, options: Options, env: Mapping[str, str], route: str
) -> str | PlanError:
    if "$env(" not in value:
        return value
    if options.env_in_style == "error":
        return env_error(route)  # S2.4
    return _ENV.sub(lambda m: env.get(m.group(1).strip(), ""), value)


def _as_style(value: object) -> Style | None:
    if value == "flat":
        return "flat"
    if value == "nested":
        return "nested"
    return None


def server_style(
    value: object, options: Options, env: Mapping[str, str], route: str
) -> tuple[Style, list[Diagnostic]] | PlanError:
    """S2.3: a server-wide value other than flat/nested is read as nested, with a warning;
    S2.4: `$env(...)` is an error under `2026-11-06`."""
    text = _expand_env(value, options, env, route) if isinstance(value, str) else value
    if isinstance(text, PlanError):
        return text
    style = _as_style(text)
    if style is not None:
        return style, []
    return "nested", [
        Diagnostic(
            "warning",
            f'toolInputStyle {json.dumps(text)} is not "flat" or "nested", so tools without '
            'their own toolInputStyle are nested. Use "flat" or "nested".',
        )
    ]


def _tool_setting(raw: RawOperation, key: str, tools: ToolSettings) -> object:
    """S2.2: the tool's own setting: the caller's, then `x-zuplo-route.mcp`, then
    `x-zuplo-mcp-tool`; `_UNSET` when none is given (a `null` is a setting, S2.3)."""
    if key in tools.styles:
        return tools.styles[key]
    node = raw.node if is_map(raw.node) else {}
    route = node.get("x-zuplo-route")
    mcp = route.get("mcp") if is_map(route) else None
    tool = node.get("x-zuplo-mcp-tool")
    for holder in (mcp, tool):
        if is_map(holder) and "toolInputStyle" in holder:
            setting: object = holder["toolInputStyle"]
            return setting
    return _UNSET


def tool_style(
    raw: RawOperation, key: str, label: str, server: ServerSettings, tools: ToolSettings
) -> Style | PlanError:
    """S2.1-S2.4: the tool's own style, else the server's; an invalid own style is an error."""
    setting = _tool_setting(raw, key, tools)
    if setting is _UNSET:
        return server.style
    value = (
        _expand_env(setting, server.options, server.env, server.route)
        if isinstance(setting, str)
        else setting
    )
    if isinstance(value, PlanError):
        return value
    style = _as_style(value)
    if style is not None:
        return style
    shown = json.dumps(setting) if not isinstance(setting, str) else f'"{setting}"'
    return PlanError(  # S2.3
        "configuration",
        f'MCP tool configuration error: invalid toolInputStyle {shown} on operation "{label}". '
        'Use "flat" or "nested".',
        rule="S2.3",
    )


#: S24.7: the settings an operations file gives per operation, and the keyword each fills.
OPERATION_KEYS = {
    "style": "styles",
    "name": "names",
    "annotations": "annotations",
    "fixed": "fixed",
}


def operation_settings(data: Any, source: str, known: Collection[str]) -> ToolSettings:
    """S24.7: an operations file's data (by operationId, or derived name: `style`, `name`,
    `annotations`, `fixed`) as per-operation settings, checked against the document's
    operations `known`.

    Raises:
        SettingsError: every problem, each naming its key: not a table, an unknown operation
            or key, a value of the wrong kind.
    """
    if not is_map(data):
        raise SettingsError(source, ["holds no table of operations"])
    problems: list[str] = []
    found: dict[str, dict[str, Any]] = {keyword: {} for keyword in OPERATION_KEYS.values()}
    for operation, given in data.items():
        if operation not in known:
            problems.append(f"`{operation}` names no operation of the document")
        elif not is_map(given):
            problems.append(f"`{operation}` is not a table of settings")
        else:
            for key, value in given.items():
                problem = _setting_problem(key, value)
                if problem is not None:
                    problems.append(f"`{operation}.{key}` {problem}")
                else:
                    found[OPERATION_KEYS[key]][operation] = value
    if problems:
        raise SettingsError(source, problems)
    return ToolSettings(**found)


def _setting_problem(key: str, value: Any) -> str | None:
    """Why one operation's setting can't be used, or None."""
    if key not in OPERATION_KEYS:
        return f"is not a setting (the settings are {', '.join(OPERATION_KEYS)})"
    if key == "style" and value not in ("flat", "nested"):
        return f"is {json_text(value)}; use flat or nested"
    if key == "name" and (not isinstance(value, str) or not value):
        return "must be a tool name (text)"
    if key in ("annotations", "fixed") and not is_map(value):
        return "must be a table"
    if key == "annotations":
        wrong = [p for k, v in value.items() if (p := annotation_problem(k, v)) is not None]
        return f"sets {wrong[0]}" if wrong else None
    if key == "fixed":
        return next((f"`{name}` {p}" for name, v in value.items() if (p := json_problem(v))), None)
    return None
