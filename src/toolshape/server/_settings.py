"""S23.2, S23.3: what `toolshape serve` is asked to serve — from its flags (one API) or a TOML
configuration file (several) — checked before anything starts, every problem named by its key.

`ApiSettings` is plain data (it crosses into worker processes as JSON, S23.2's `--workers`);
`read_config` reads and checks a configuration file; `toolshape.server._prepare` turns settings
into `Api`s.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolshape._load import load_settings
from toolshape.model._errors import SettingsError
from toolshape.model._json import json_text
from toolshape.model._options import option_kinds
from toolshape.planner._settings import MAPPED_KEYS, SERVED, PlanSettings
from toolshape.server._limits import (
    MAX_DOWNLOAD_BYTES,
    MAX_RESPONSE_BYTES,
    MAX_RETRY_WAIT,
    RETRIES,
    TIMEOUT,
)
from toolshape.server._upstream import LargeResponse, SchemaView
from toolshape.views._table import schema_views


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """One API as `serve` is asked to serve it (every value as given, checked by
    `read_config` or by the command line's parser; `_prepare` checks the rest)."""

    where: str = ""
    """How messages name a setting: `""` for flags (`--base-url`), `api[0].` in a config file."""
    name: str | None = None
    document: str | None = None
    plans: str | None = None
    base_url: str | None = None
    server: str | None = None
    """S26.11: the name of the document's server whose URL is the base URL."""
    planning: Mapping[str, Any] = field(default_factory=dict)
    """The planning settings given, by key (`style`, `profile`, `Options` switches,
    `select`, `fixed`): `PlanSettings.from_mapping` reads them over `SERVED`."""
    credentials: Mapping[str, str] = field(default_factory=dict)
    """Scheme name → `env:VAR` (never a literal secret)."""
    headers: Mapping[str, str] = field(default_factory=dict)
    operations: str | None = None
    timeout: float = TIMEOUT
    max_response_bytes: int = MAX_RESPONSE_BYTES
    max_download_bytes: int = MAX_DOWNLOAD_BYTES
    on_large_response: LargeResponse = "cut"
    retries: int = RETRIES
    max_retry_wait: float = MAX_RETRY_WAIT
    pass_through_auth: str | None = None
    schema_view: SchemaView = "mcp"
    """S22.6: `mcp`, or a model view's name (`toolshape.views.schema_views()`)."""
    inline_refs: bool = False
    """S25.3: the view's schemas with every reference inlined."""

    def key(self, name: str) -> str:
        """How a message names setting `name`: `` `api[0].timeout` `` or `--timeout`."""
        if self.where:
            return f"`{self.where}{name}`"
        return _FLAGS.get(name) or "--" + name.replace("_", "-")

    def planning_given(self) -> list[str]:
        """The planning settings given (none may be given beside a plans file)."""
        return [*self.planning, *(["operations"] if self.operations is not None else [])]

    def plan_settings(self) -> PlanSettings:
        """What the API is planned with: the settings given over `serve`'s (`SERVED`), the
        document's path naming it in locations.

        Raises:
            SettingsError: every planning setting that can't be used (S24.2), each named.
        """
        settings = PlanSettings.from_mapping({**SERVED, **self.planning}, where=self.where)
        return dataclasses.replace(settings, source=self.document or "openapi.json")

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ApiSettings:
        return cls(**data)


#: How messages name a setting given by the command line, where its flag is not its name.
_FLAGS = {
    "select": "the selection flags",
    "document": "SPEC",
    "credentials": "--credential",
    "headers": "--header",
}

#: S23.3: each key of an `[[api]]` table, and what it takes.
_SCALARS: Mapping[str, tuple[type, ...]] = {
    "name": (str,),
    "document": (str,),
    "plans": (str,),
    "base_url": (str,),
    "server": (str,),
    "operations": (str,),
    "timeout": (int, float),
    "max_response_bytes": (int,),
    "max_download_bytes": (int,),
    "on_large_response": (str,),
    "retries": (int,),
    "max_retry_wait": (int, float),
    "pass_through_auth": (str,),
    "schema_view": (str,),
    "inline_refs": (bool,),
}
_TABLES = ("credentials", "headers")


def read_config(path: str) -> tuple[ApiSettings, ...]:
    """S23.3: the APIs a configuration file (TOML) lists as `[[api]]` tables; relative paths
    in it are read from the file's folder.

    Raises:
        SettingsError: every problem, each naming its key: an unknown key, a wrong type, a
            value a setting can't take, an API with neither or both of `document` and `plans`.
    """
    data = load_settings(path, toml=True)
    problems: list[str] = []
    extra = sorted(set(data) - {"api"}) if isinstance(data, dict) else []
    problems.extend(f"`{key}` is not a setting (the file holds `[[api]]` tables)" for key in extra)
    tables = data.get("api") if isinstance(data, dict) else None
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise SettingsError(path, [*problems, "holds no `[[api]]` table"])
    folder = os.path.dirname(os.path.abspath(path))
    apis = [_api(table, f"api[{i}].", folder, problems) for i, table in enumerate(tables)]
    if problems:
        raise SettingsError(path, problems)
    return tuple(apis)


def _api(table: Mapping[str, Any], where: str, folder: str, problems: list[str]) -> ApiSettings:
    """One `[[api]]` table as settings; its problems added to `problems`."""
    planned = MAPPED_KEYS | set(option_kinds())
    values: dict[str, Any] = {"where": where}
    for key, value in table.items():
        problem = None if key in planned else _problem(key, value)
        if problem is not None:
            problems.append(f"`{where}{key}` {problem}")
        elif key in ("document", "plans", "operations"):
            values[key] = os.path.join(folder, value)
        elif key not in planned:
            values[key] = value
    if ("document" in table) == ("plans" in table):
        problems.append(f"`{where[:-1]}` needs exactly one of `document` and `plans`")
    settings = ApiSettings(**values, planning={k: v for k, v in table.items() if k in planned})
    try:
        settings.plan_settings()
    except SettingsError as error:
        problems.extend(error.problems)
    return settings


def _problem(key: str, value: Any) -> str | None:
    """Why one key of an `[[api]]` table can't be used (a planning key aside), or None."""
    if key in _SCALARS:
        wanted = _SCALARS[key]
        if not isinstance(value, wanted) or (isinstance(value, bool) and bool not in wanted):
            return f"must be {_kind_name(wanted)}, not {json_text(value, 60)}"
        if key == "on_large_response" and value not in ("cut", "error"):
            return f"is {json_text(value)}; use cut or error"
        if key == "schema_view" and value not in schema_views():
            return f"is {json_text(value)}; use {', '.join(schema_views())}"
        return None
    if key not in _TABLES:
        return "is not a setting"
    if not isinstance(value, dict):
        return "must be a table"
    bad = [k for k, v in value.items() if not isinstance(v, str)]
    return f"must map names to text (`{bad[0]}` is not text)" if bad else None


def _kind_name(kinds: tuple[type, ...]) -> str:
    if kinds == (str,):
        return "text"
    if kinds == (bool,):
        return "true or false"
    return "a number" if float in kinds else "a whole number"
