"""S2: the settings planning reads (`PlanSettings`, one value) and each tool's input style."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from toolshape.model._errors import PlanError, SettingsError
from toolshape.model._json import is_map, json_problem, json_text
from toolshape.model._options import PROFILES, Options, Profile, option_kinds
from toolshape.model._types import Diagnostic, Style
from toolshape.planner._tool import annotation_problem
from toolshape.read._paths import RawOperation
from toolshape.read._select import ContentTypes, Select

_ENV = re.compile(r"\$env\(([^)]*)\)")
_UNSET = object()


#: S23.2, S27.2: what `toolshape serve` plans a document with, and `toolshape plan --out`
#: writes unless a planning flag is given — flat, every operation a tool, each exact — as
#: `PlanSettings.from_mapping` reads it (the settings given go over it).
SERVED: Mapping[str, Any] = {
    "style": "flat",
    "on_collision": "rename",
    "on_unflattenable": "nested",
}


#: The keys `PlanSettings.from_mapping` reads beside every `Options` switch.
MAPPED_KEYS = frozenset({"style", "profile", "select", "fixed"})


class PlanKeywords(TypedDict, total=False):
    """`PlanSettings`' fields as the keywords `plan_document` and `plan_operation` take, with
    `profile`, which presets `options` when they are not given (every one optional)."""

    style: str
    source: str
    profile: Profile
    options: Options | None
    select: Select | None
    fixed: Mapping[str, object] | None
    styles: Mapping[str, str] | None
    names: Mapping[str, str] | None
    annotations: Mapping[str, Mapping[str, object]] | None
    fixed_per_operation: Mapping[str, Mapping[str, object]] | None
    route: str
    env: Mapping[str, str] | None


@dataclass(frozen=True, slots=True)
class PlanSettings:
    """Everything planning reads, as one value: built from keywords (`PlanSettings.of`), from
    a mapping such as a TOML table or the command line's flags (`PlanSettings.from_mapping`),
    or field by field. A new planning setting is one field here (and one flag)."""

    style: str = "nested"
    """The server-wide `toolInputStyle` (S2): `"flat"` or `"nested"`; another value plans
    nested with a warning (S2.3), and `$env(...)` is read as `options.env_in_style` says."""
    source: str = "openapi.json"
    """The document's name in every location (S9.3)."""
    options: Options = field(default_factory=Options)
    """Every behaviour switch (S10)."""
    select: Select | None = None
    """Which operations to plan (S20.1); all when None."""
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """Arguments the gateway supplies for every operation that declares them, by wire name
    (S18.4): left out of the advertised schemas, validated now, routed on every call."""
    styles: Mapping[str, str] = field(default_factory=dict)
    """A tool's own style by operationId (or derived name) (S2.2)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """A tool's name by operationId (or derived name) (S8.1)."""
    annotations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """MCP `ToolAnnotations` hints that override the method's (S16.2), by operationId (or
    derived name)."""
    fixed_per_operation: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """`fixed` for one operation, by operationId (or derived name); wins over `fixed`."""
    route: str = "/mcp"
    """The MCP route the S2.4 message names."""
    env: Mapping[str, str] = field(default_factory=dict)
    """What resolves `$env(...)` when `options.env_in_style == "resolve"` (S2.4); the library
    never reads the process environment."""

    def __post_init__(self) -> None:
        """Raises:
        TypeError: `options` that are not `Options`, or `select` that is not a `Select`."""
        if not isinstance(self.options, Options):
            raise TypeError(f"PlanSettings' options must be Options, not {self.options!r}")
        if self.select is not None and not isinstance(self.select, Select):
            raise TypeError(f"PlanSettings' select must be a Select, not {self.select!r}")

    @classmethod
    def of(cls, profile: Profile = "2026-11-06", **keywords: Any) -> PlanSettings:
        """The settings `keywords` give (`PlanKeywords`; None is a field's default), with
        `options` preset by `profile` when not given.

        Raises:
            TypeError: a keyword that is not a setting.
            ValueError: an unknown profile.
        """
        given = {key: value for key, value in keywords.items() if value is not None}
        given.setdefault("options", Options.preset(profile))
        return cls(**given)

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any], *, where: str = "", name: str = "settings"
    ) -> PlanSettings:
        """The settings a mapping gives by key: `style`, `profile`, every `Options` switch by
        its name, `select` (a table of `Select`'s fields) and `fixed` (S18.4) — what a
        configuration file's `[[api]]` table and the command line's flags give (S23.3).

        Raises:
            SettingsError: every problem at once (`name` is its source), each naming its key
                as `` `{where}{key}` ``.
        """
        problems: list[str] = []
        switches = option_kinds()
        values: dict[str, Any] = {}
        for key, value in data.items():
            problem = None if key in switches else _mapped_problem(key, value)
            if problem is not None:
                problems.append(f"`{where}{key}` {problem}")
            elif key == "select":
                values["select"] = Select(**value)
            elif key in ("style", "fixed"):
                values[key] = value
        try:
            chosen = {key: value for key, value in data.items() if key in switches}
            profile = data.get("profile")
            values["options"] = Options.preset(
                profile if profile in PROFILES else "2026-11-06", **chosen
            )
        except ValueError as error:
            problems.append(f"`{where[:-1]}`: {error}" if where else str(error))
        if problems:
            raise SettingsError(name, problems)
        return cls(**values)

    @property
    def content_types(self) -> ContentTypes:
        """S20.1: a tool per request content type (`all`), or one per operation."""
        return self.select.content_types if self.select is not None else "all"

    def per_operation(self) -> dict[str, Mapping[str, Any]]:
        """Every per-operation mapping by its keyword, for the unknown-key warning."""
        return {
            "styles": self.styles,
            "names": self.names,
            "annotations": self.annotations,
            "fixed_per_operation": self.fixed_per_operation,
        }

    def fixed_for(self, key: str) -> dict[str, Any]:
        """S18.4: the fixed arguments of the operation `key`: its own over the server's."""
        return {**self.fixed, **self.fixed_per_operation.get(key, {})}


def _mapped_problem(key: str, value: Any) -> str | None:
    """Why `PlanSettings.from_mapping` can't use one key (not a switch), or None."""
    if key not in MAPPED_KEYS:
        return "is not a setting"
    if key in ("style", "profile") and not isinstance(value, str):
        return f"must be text, not {json_text(value, 60)}"
    if key == "style" and value not in ("flat", "nested"):
        return f"is {json_text(value)}; use flat or nested"
    if key == "profile" and value not in PROFILES:
        return f"is {json_text(value)}; use {' or '.join(PROFILES)}"
    if key in ("style", "profile"):
        return None
    if not is_map(value):
        return "must be a table"
    if key == "fixed":  # S18.4: sent as JSON (and carried to every worker as JSON)
        return next((f"`{name}` {p}" for name, v in value.items() if (p := json_problem(v))), None)
    try:
        Select(**value)
    except TypeError as error:
        return f"holds a key that is not a selection ({str(error).split('argument ')[-1]})"
    except ValueError as error:
        return str(error)
    return None


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


def server_style(settings: PlanSettings) -> tuple[Style, list[Diagnostic]] | PlanError:
    """S2.3: a server-wide value other than flat/nested is read as nested, with a warning;
    S2.4: `$env(...)` is an error under `2026-11-06`."""
    value: object = settings.style
    text = (
        _expand_env(value, settings.options, settings.env, settings.route)
        if isinstance(value, str)
        else value
    )
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


def _tool_setting(raw: RawOperation, key: str, settings: PlanSettings) -> object:
    """S2.2: the tool's own setting: the caller's, then `x-zuplo-route.mcp`, then
    `x-zuplo-mcp-tool`; `_UNSET` when none is given (a `null` is a setting, S2.3)."""
    if key in settings.styles:
        return settings.styles[key]
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
    raw: RawOperation, key: str, label: str, settings: PlanSettings, server: Style
) -> Style | PlanError:
    """S2.1-S2.4: the tool's own style, else the server's (`server`, resolved); an invalid
    own style is an error."""
    setting = _tool_setting(raw, key, settings)
    if setting is _UNSET:
        return server
    value = (
        _expand_env(setting, settings.options, settings.env, settings.route)
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


#: S24.7: the settings an operations file gives per operation, and the field each fills.
OPERATION_KEYS = {
    "style": "styles",
    "name": "names",
    "annotations": "annotations",
    "fixed": "fixed_per_operation",
}


def operation_settings(data: Any, source: str, known: Collection[str]) -> dict[str, Any]:
    """S24.7: an operations file's data (by operationId, or derived name: `style`, `name`,
    `annotations`, `fixed`) as `PlanSettings`' per-operation fields, checked against the
    document's operations `known`.

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
    return found


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
