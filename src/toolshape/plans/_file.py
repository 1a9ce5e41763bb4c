"""Plans files (`toolshape.plans/2`): a whole document's plans, planned once at build time and
served at run time without the document (S15.1, issue 17).

A file holds every tool's plan data (`toolshape.plan/2`), the errors and diagnostics, the
settings planning used and a hash of the source document. What an API's tools repeat is
written once: the `$defs` entries the plans of one document share (in memory, one object for
every tool) under `definitions`, and each set of them schemas share once too (`defsGroups`: the
keys, or an object of name -> key where a key is not its entry's name); a schema's `$defs` is
then that group's index. Stripe's 468 tools are a few MB instead of 218 MB, and load back
sharing their entries again. Each distinct route is written once under `routes`, each distinct security
requirement under `securityRequirements`, and each distinct combination of the fields of plan
data tools repeat (format, content type, style, body handling ...: `PROFILE_FIELDS`) under
`profiles`; a tool's entry holds its own fields and names the others by index (`parameters`,
a list of indices; `security` and `profile`, one each). Loading checks and builds each table's
entries once, whichever tools name them.

Loading is as wary as planning: the file is checked as S15.1 checks plan data — the envelope,
every route, every schema's keywords under its root's dialect, every reference local — with
each shared definition checked once, for each dialect that uses it. A file of another format
version is refused with how to rebuild it.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import attrgetter, is_, is_not, itemgetter
from typing import Any

from toolshape.model._errors import PlanDataError, PlanError, ToolshapeError
from toolshape.model._json import JsonObject, Unchecked, thaw
from toolshape.model._options import Options
from toolshape.model._types import Diagnostic, Security
from toolshape.model._version import __version__
from toolshape.plans._entries import INDICES, proven_entries
from toolshape.plans._format import (
    ENTRY_SCHEMA,
    OWN_VALUES,
    PLAN_FORMAT,
    PLAN_SCHEMA,
    PROFILE_FIELDS,
    PROFILE_SCHEMA,
    REQUIREMENT_SCHEMA,
    SCHEMA_FIELDS,
    check_entry,
    check_schema_data,
    check_schemas,
    envelope_problem,
    profile_problem,
    requirement_problem,
    route_problem,
    rules_of,
)
from toolshape.plans._plan import SHARED, ParameterRoute, Plan, PlanResult, security_of
from toolshape.schema._fastcheck import compile_check
from toolshape.schema._validate import compile_schema

PLANS_FORMAT = "toolshape.plans/2"
"""The version tag of a plans file (`dump_plans`, `load_plans`)."""

_REBUILD = "plan the document again with this version: `toolshape plan SPEC --out FILE`"

#: A plans file's envelope (2020-12), what `load_plans` checks of the whole file at once: its
#: tables' entries and its tools' entries are then checked one by one.
_ENVELOPE: Mapping[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": f"toolshape plans file ({PLANS_FORMAT})",
    "type": "object",
    "properties": {
        "format": {"const": PLANS_FORMAT},
        "planFormat": {"const": PLAN_FORMAT},
        "toolshape": {"type": "string"},
        "source": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "sha256": {
                    "anyOf": [{"type": "null"}, {"type": "string", "pattern": "^[0-9a-f]{64}\\Z"}]
                },
            },
            "required": ["name", "sha256"],
            "additionalProperties": False,
        },
        "settings": {
            "type": "object",
            "properties": {"style": {"enum": ["flat", "nested"]}, "options": {"type": "object"}},
            "required": ["style", "options"],
            "additionalProperties": False,
        },
        "securitySchemes": {"type": "array", "items": {"type": "string"}},
        "definitions": {"type": "object", "additionalProperties": {"type": ["object", "boolean"]}},
        "defsGroups": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "object", "additionalProperties": {"type": "string"}},
                ]
            },
        },
        "tools": {"type": "array", "items": {"type": "object"}},
        "routes": {"type": "array", "items": {"type": "object"}},
        "securityRequirements": {"type": "array", "items": {"type": "array"}},
        "profiles": {"type": "array", "items": {"type": "object"}},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
                "required": ["error", "message"],
            },
        },
        "diagnostics": {"type": "array", "items": PLAN_SCHEMA["$defs"]["diagnostic"]},
    },
    "required": [
        "format",
        "planFormat",
        "toolshape",
        "source",
        "settings",
        "securitySchemes",
        "definitions",
        "defsGroups",
        "tools",
        "routes",
        "securityRequirements",
        "profiles",
        "errors",
        "diagnostics",
    ],
    "additionalProperties": False,
}


def _as_def(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A schema of `_plan_format` as an entry of `PLANS_SCHEMA`'s `$defs` (whose `$defs` it
    refers to)."""
    return {key: value for key, value in schema.items() if key not in ("$schema", "$defs")}


def _items(name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/$defs/{name}"}}


PLANS_SCHEMA: Mapping[str, Any] = {
    **_ENVELOPE,
    "properties": {
        **_ENVELOPE["properties"],
        "tools": _items("entry"),
        "routes": _items("parameter"),
        "securityRequirements": _items("requirement"),
        "profiles": _items("profile"),
    },
    "$defs": {
        **PLAN_SCHEMA["$defs"],
        "entry": _as_def(ENTRY_SCHEMA),
        "requirement": _as_def(REQUIREMENT_SCHEMA),
        "profile": _as_def(PROFILE_SCHEMA),
    },
}
"""A plans file's structure as a JSON Schema (2020-12): its envelope, each tool's entry, each
route, security requirement and profile. Loading checks more than it says — each channel's
styles and HTTP names, that every index names an entry, every schema's keywords (S15.1)."""

_FILE = compile_schema(_ENVELOPE)
_FILE_FAST = compile_check(_ENVELOPE)


def dump_plans(result: PlanResult, *, sha256: str | None = None) -> JsonObject:
    """`result` as a plans file's data (`toolshape.plans/2`); `json.dump` it to write the file.

    `sha256` is the hex SHA-256 of the source document's bytes, recorded so a deployment can
    tell which document a file was planned from (the library reads no file to compute it).

    Raises:
        ValueError: `sha256` is not 64 lower-case hex digits.
    """
    if sha256 is not None and (
        len(sha256) != 64 or not all(c in "0123456789abcdef" for c in sha256)
    ):
        raise ValueError(f"sha256 must be 64 lower-case hex digits, not {sha256!r}")
    shared, tables = _Definitions(), _Tables()
    tools = [tables.entry(tool._data(shared.schema)) for tool in result.tools]
    return {
        "format": PLANS_FORMAT,
        "planFormat": PLAN_FORMAT,
        "toolshape": __version__,
        "source": {"name": result.source, "sha256": sha256},
        "settings": {"style": result.style, "options": result.options.to_dict()},
        "securitySchemes": list(result.security_schemes),
        "tools": tools,
        "routes": tables.routes,
        "securityRequirements": tables.requirements,
        "profiles": tables.profiles,
        "definitions": shared.entries,
        "defsGroups": shared.groups,
        "errors": [error.to_dict() for error in result.errors],
        "diagnostics": [note.to_dict() for note in result.diagnostics],
    }


class _Definitions:
    """The `$defs` entries of every schema written, each object once, keyed by its name (with
    `~2`, `~3` ... for another object of the same name)."""

    def __init__(self) -> None:
        self.entries: JsonObject = {}
        self.groups: list[list[str] | dict[str, str]] = []
        self._group_index: dict[tuple[tuple[str, str], ...], int] = {}
        self._keys: dict[int, str] = {}
        self._kept: list[Any] = []  # keeps each keyed object alive, so no id is reused

    def schema(self, schema: Any) -> Any:
        """A copy of `schema` whose `$defs` is the index of its group in `defsGroups`."""
        if not isinstance(schema, Mapping):
            return thaw(schema)
        out: JsonObject = {}
        for keyword, value in schema.items():
            if keyword == "$defs" and isinstance(value, Mapping):
                out[keyword] = self._group(
                    tuple((name, self._key(name, entry)) for name, entry in value.items())
                )
            else:
                out[keyword] = thaw(value)
        return out

    def _group(self, keys: tuple[tuple[str, str], ...]) -> int:
        """The index in `defsGroups` of a `$defs` object's names and the keys of their
        entries, each group once: the list of keys when each is its entry's name (nearly
        always), else an object of name -> key."""
        index = self._group_index.get(keys)
        if index is None:
            index = self._group_index[keys] = len(self.groups)
            if all(name == key for name, key in keys):
                self.groups.append([key for _, key in keys])
            else:
                self.groups.append(dict(keys))
        return index

    def _key(self, name: str, entry: Any) -> str:
        key = self._keys.get(id(entry))
        if key is None:
            key, n = name, 1
            while key in self.entries:
                n += 1
                key = f"{name}~{n}"
            self.entries[key] = thaw(entry)
            self._keys[id(entry)] = key
            self._kept.append(entry)
        return key


class _Tables:
    """The routes, security requirements and profiles of every tool written, each distinct
    one once (an API's tools repeat theirs); a tool's entry names them by index."""

    def __init__(self) -> None:
        self.routes: list[JsonObject] = []
        self.requirements: list[Any] = []
        self.profiles: list[JsonObject] = []
        self._known: tuple[dict[str, int], ...] = ({}, {}, {})

    def entry(self, data: JsonObject) -> JsonObject:
        """A tool's plan data as its entry in the file: its own fields, then the indices."""
        routes, requirements, profiles = self._known
        entry = {name: value for name, value in data.items() if name not in _PROFILED}
        entry["parameters"] = [_index(self.routes, routes, route) for route in data["parameters"]]
        entry["security"] = _index(self.requirements, requirements, data["security"])
        profile = {name: data[name] for name in PROFILE_FIELDS}
        entry["profile"] = _index(self.profiles, profiles, profile)
        return entry


#: The fields of plan data a tool's profile holds, as a set.
_PROFILED = frozenset(PROFILE_FIELDS)


def _index(table: list[Any], known: dict[str, int], value: Any) -> int:
    """The index of `value` in `table`, appended the first time (equal JSON text, once)."""
    key = json.dumps(value, sort_keys=True)
    found = known.get(key)
    if found is None:
        found = known[key] = len(table)
        table.append(value)
    return found


def load_plans(
    data: str | bytes | bytearray | Mapping[str, Unchecked], *, lazy: bool = True
) -> PlanResult:
    """The `PlanResult` a plans file holds (its text, or its parsed data), checked as S15.1
    checks plan data: every tool routes and validates exactly as it did when planned.

    The file's envelope, every entry of its tables (routes, security requirements, profiles:
    each once), every tool's entry and the indices in it, and every `$defs` key are checked
    here. With `lazy` (the default) each tool's schemas — keywords under their dialect,
    references, depth — are checked when its call engine is first built (its first `call` or
    `result`), before any of them judges anything: start-up pays for the envelope only. With
    `lazy=False` every schema is checked now, so a bad file is refused at load.

    Raises:
        PlanDataError: not a plans file this version reads (another format version: planning
            again rebuilds it), or a field that could not be served safely; `field` names
            where (`routes.3.in`, `tools.5.parameters.1`). With `lazy`, a tool's schema problem
            is raised by that tool's first `call` or `result` instead.
    """
    # Parsed from text, the file is the loader's own; parsed data is the caller's: copied.
    file: Any
    if isinstance(data, (str, bytes, bytearray)):
        file, from_text = _parsed(data), True
    else:
        file, from_text = thaw(data), False
    _check_file(file)
    try:
        options = Options.from_dict(file["settings"]["options"])
    except (TypeError, ValueError) as error:
        raise _refuse("settings.options", str(error)) from None
    routes = _table(file["routes"], "routes", route_problem, ParameterRoute.from_dict)
    requirements = _table(
        file["securityRequirements"], "securityRequirements", requirement_problem, security_of
    )
    profiles = _table(file["profiles"], "profiles", profile_problem, SHARED)
    tables = routes, requirements, profiles
    tools = file["tools"]
    checks = _SchemaChecks(file["definitions"], file["defsGroups"], tools)
    # One check for every plan (it finds the plan's tool by its name): nothing per tool.
    pending = checks.of if lazy else None
    # From text, every entry proven at once, field by field (`proven_entries`); any doubt,
    # and parsed data, each entry checked on its own, which words what it refuses.
    plans = _proven(tools, tables, checks, pending) if from_text else None
    if plans is None:
        plans = _each(tools, tables, checks, pending)
    return PlanResult(
        tuple(plans),
        _errors(file["errors"]),
        tuple(Diagnostic.from_dict(note) for note in file["diagnostics"]),
        tuple(file["securitySchemes"]),
        source=file["source"]["name"],
        style=file["settings"]["style"],
        options=options,
    )


def _table(
    entries: list[Any],
    field: str,
    problem: Callable[[Any], tuple[str, str] | None],
    build: Callable[[Any], Any],
) -> list[Any]:
    """Every entry of one of the file's tables checked (`problem`) and built, in order: each
    once, whichever tools name it.

    Raises:
        PlanDataError: naming the entry (`routes.3`) and the field in it.
    """
    built = []
    for index, entry in enumerate(entries):
        found = problem(entry)
        if found is not None:
            raise _refuse(_within(f"{field}.{index}", found[0]), found[1])
        built.append(build(entry))
    return built


#: The tables a tool entry names by index: routes, security requirements, profiles' values.
_Loaded = tuple[list[ParameterRoute], list[Security], list[tuple[Any, ...]]]


def _proven(
    tools: list[Any], tables: _Loaded, checks: _SchemaChecks, pending: Callable[[Plan], None] | None
) -> list[Plan] | None:
    """The plans of the file's tool entries where every entry is proven at once — its fields
    (`proven_entries`), its indices (`_resolved`), the names all different, every `$defs` a
    group's index that builds (`splice_all`) — else None, nothing changed (`_each` decides).
    `pending` is the lazy schema check (None: each tool's schemas checked now).

    Raises:
        PlanDataError: (not lazy) a tool's schema, the first in the tools' order.
    """
    found = proven_entries(tools)
    if found is None:
        return None
    named = _resolved(found.indices, *tables)
    if named is None:
        return None
    names = found.columns[_NAME]
    index_of = dict(zip(names, range(len(names)), strict=True))
    if len(index_of) != len(names):  # a name repeated: worded tool by tool
        return None
    if not checks.splice_all(_SCHEMA_COLUMNS(found.columns)):
        return None  # a `$defs` that is no group's index, or a group that names no definition
    checks.index_of.update(index_of)
    if pending is None:
        for index in range(len(tools)):
            checks.check(index)
    parts = zip(*named[:2], strict=True)
    return list(map(Plan._built, found.own, parts, named[2], repeat(pending)))


#: Where a tool entry's name and its schemas are among its own values.
_NAME = OWN_VALUES.index("name")
_SCHEMA_COLUMNS = itemgetter(*map(OWN_VALUES.index, SCHEMA_FIELDS))


def _resolved(
    indices: list[tuple[Any, ...]],
    routes: list[ParameterRoute],
    requirements: list[Security],
    profiles: list[tuple[Any, ...]],
) -> tuple[list[tuple[ParameterRoute, ...]], list[Security], list[tuple[Any, ...]]] | None:
    """Every tool entry's routes, security alternatives and profile values, found at once by
    their indices (`parameters`, `security`, `profile`), or None where an index is no `int`
    naming an entry of its table (`_unnamed` words it)."""
    if not indices:
        return [], [], []
    parameters, security, profile = zip(*indices, strict=True)
    if not set(map(type, parameters)) <= _LIST:
        return None
    flat = list(chain.from_iterable(parameters))
    if not (
        _names_in(flat, len(routes))
        and _names_in(security, len(requirements))
        and _names_in(profile, len(profiles))
    ):
        return None
    route = routes.__getitem__
    return (
        [tuple(map(route, p)) for p in parameters],
        list(map(requirements.__getitem__, security)),
        list(map(profiles.__getitem__, profile)),
    )


def _names_in(column: Sequence[Any], size: int) -> bool:
    """Every value an index of a table of `size` entries: an `int` (not `true`, not `1.0`)."""
    return not column or (
        set(map(type, column)) <= _INT and min(column) >= 0 and max(column) < size
    )


_LIST, _INT = frozenset({list}), frozenset({int})


def _each(
    tools: list[Any], tables: _Loaded, checks: _SchemaChecks, pending: Callable[[Plan], None] | None
) -> list[Plan]:
    """The plans of the file's tool entries, each entry checked on its own (`check_entry`),
    then its indices, its name, its `$defs` keys (and, not lazy, its schemas), in order.

    Raises:
        PlanDataError: at the first entry at fault, naming the field (`tools.5.parameters.1`).
    """
    plans = []
    index_of = checks.index_of
    for index, item in enumerate(tools):
        try:
            check_entry(item)
        except PlanDataError as error:
            raise _at(f"tools.{index}", error) from None
        named = _resolved([INDICES(item)], *tables)  # one entry: a column of one
        if named is None:
            raise _unnamed(item, tables, f"tools.{index}")
        name = item["name"]
        if name in index_of:
            raise _refuse(f"tools.{index}.name", f"repeats the tool name {name!r}")
        index_of[name] = index
        checks.splice(item, index)
        if pending is None:
            checks.check(index)
        (routes,), (security,), (profile,) = named
        plans.append(Plan._from_data(item, None, (routes, security), pending, profile))
    return plans


def _unnamed(item: Any, tables: tuple[list[Any], ...], where: str) -> PlanDataError:
    """The refusal of a tool entry (`check_entry` accepted) whose index names no entry
    (`_resolved` found none)."""
    routes, requirements, profiles = map(len, tables)
    indices = [
        *((f"parameters.{i}", n, "routes", routes) for i, n in enumerate(item["parameters"])),
        ("security", item["security"], "securityRequirements", requirements),
        ("profile", item["profile"], "profiles", profiles),
    ]
    for field, index, table, size in indices:
        if type(index) is not int:
            return _refuse(
                f"{where}.{field}", f"is {index!r}, not the index of an entry of `{table}`"
            )
        if index >= size:
            return _refuse(
                f"{where}.{field}", f"is {index}, which names no entry: `{table}` has {size}"
            )
    return _refuse(where, "names no entry of the file's tables")  # never: the caller found one


class _SchemaChecks:
    """The schema checks of one loaded file: each tool's own part, and each shared definition
    once per dialect that uses it (whichever tool needs it first checks it)."""

    def __init__(
        self,
        definitions: Mapping[str, Any],
        groups: list[list[str] | dict[str, str]],
        tools: list[Any],
    ) -> None:
        self.definitions = definitions
        self.groups = groups
        self.tools = tools
        self.index_of: dict[str, int] = {}  # each tool's index in the file, by its name
        self.spliced: dict[int, dict[str, Any]] = {}
        self.keys_of: dict[int, list[str]] = {}  # a spliced group's keys, by its object's id
        # What `splice` noted of a `$defs` object that is not a group, by tool and field.
        self.noted: dict[int, dict[str, tuple[tuple[str, ...], list[str]]]] = {}
        self.done: set[tuple[str, int]] = set()

    def group(self, index: int, field: str) -> dict[str, Any]:
        """Group `index` of `defsGroups` as a `$defs` object, built once and shared by every
        schema that names it (plans never change their schemas, S15.2).

        Raises:
            PlanDataError: no such group, or a key in it that names no definition.
        """
        spliced = self.spliced.get(index)
        if spliced is None:
            if not 0 <= index < len(self.groups):
                raise _refuse(field, f"names the group {index}, which is not in `defsGroups`")
            definitions, group = self.definitions, self.groups[index]
            # A list of keys, each its entry's name; or an object of name -> key.
            keys = list(group.values()) if isinstance(group, dict) else group
            try:  # a comprehension beats `dict(zip(...))` at any size (dict lookups specialize)
                if isinstance(group, dict):
                    spliced = {name: definitions[key] for name, key in group.items()}
                else:
                    spliced = {key: definitions[key] for key in group}
            except KeyError:
                missing = next(key for key in keys if key not in definitions)
                raise _refuse(
                    f"defsGroups.{index}", f"names {missing!r}, which is no definition"
                ) from None
            self.spliced[index] = spliced
            self.keys_of[id(spliced)] = keys
        return spliced

    def splice_all(self, schemas: Iterable[tuple[Any, ...]]) -> bool:
        """Put the shared definitions in place of the group index of every schema of
        `schemas` (each a column of the tools' schemas) at once, where each `$defs` among them
        is the index of a group whose keys all name definitions (as the file writes them);
        else False, nothing changed: `splice` then goes tool by tool, and words what it
        refuses."""
        objects: list[dict[str, Any]] = []
        indices: list[int] = []
        for column in schemas:
            found = list(compress(column, map(is_, map(type, column), repeat(dict))))
            defs: list[Any] = list(map(dict.get, found, repeat("$defs")))
            if not set(map(type, defs)) <= _GROUP_INDEX:
                return False
            named: list[bool] = list(map(is_not, defs, repeat(None)))
            objects.extend(compress(found, named))
            indices.extend(compress(defs, named))
        try:
            groups = {index: self.group(index, "") for index in set(indices)}
        except PlanDataError:
            return False
        deque(map(dict.__setitem__, objects, repeat("$defs"), map(groups.__getitem__, indices)), 0)
        return True

    def splice(self, item: JsonObject, index: int) -> None:
        """Put the shared definitions in place of their keys in `item`'s schemas (the
        loader's own data, changed in place), noting what `check` needs to know later.
        `index` is the tool's in the file (`tools.3`).

        Raises:
            PlanDataError: a `$defs` key that names no definition.
        """
        # A schema's `$defs` is nearly always a group (every entry shared): its spliced
        # object tells the check which group it was. Any other `$defs` object is noted here:
        # the names of its own (not shared) entries and the keys of its shared ones.
        noted: dict[str, tuple[tuple[str, ...], list[str]]] | None = None
        for field in SCHEMA_FIELDS:
            schema = item[field]
            if type(schema) is not dict:
                continue
            defs = schema.get("$defs")
            if type(defs) is int:
                spliced = self.spliced.get(defs)
                if spliced is None:
                    spliced = self.group(defs, f"tools.{index}.{field}.$defs")
                schema["$defs"] = spliced
            elif isinstance(defs, dict):
                if noted is None:
                    noted = {}
                noted[field] = self._own(schema, defs, f"tools.{index}.{field}.$defs")
        if noted is not None:
            self.noted[index] = noted

    def _own(
        self, schema: JsonObject, defs: JsonObject, field: str
    ) -> tuple[tuple[str, ...], list[str]]:
        """Splice a `$defs` object naming some entries by key and holding others itself;
        the names of its own entries and the keys of its shared ones.

        Raises:
            PlanDataError: a key that names no definition.
        """
        entries = list(defs.values())
        if _TEXT.issuperset(map(type, entries)):  # as written: every entry named by its key
            try:
                schema["$defs"] = dict(
                    zip(defs, map(self.definitions.__getitem__, entries), strict=True)
                )
                return (), entries
            except KeyError:
                pass  # worded below
        names = [name for name, entry in defs.items() if type(entry) is str]
        missing = [defs[name] for name in names if defs[name] not in self.definitions]
        if missing:
            raise _refuse(field, f"names {missing[0]!r}, which is no definition")
        schema["$defs"] = {
            name: self.definitions[entry] if type(entry) is str else entry
            for name, entry in defs.items()
        }
        own = tuple(name for name, entry in defs.items() if type(entry) is not str)
        return own, [defs[name] for name in names]

    def of(self, plan: Plan) -> None:
        """`check` of the tool `plan` was loaded from (its pending check, S15.1); a plan
        made from it by `dataclasses.replace` with another name or other schemas has its
        own schemas checked whole."""
        schemas = tuple(zip(SCHEMA_FIELDS, _SCHEMAS(plan), strict=True))
        index = self.index_of.get(plan.name)
        if index is not None and all(self.tools[index][f] is s for f, s in schemas):
            self.check(index)
        else:
            check_schemas(schemas)

    def check(self, index: int) -> None:
        """Check the schemas `splice` put the shared definitions in, of the file's tool
        `index`: each one's own part (the root's dialect decides the rules), then each
        shared entry it names, once per dialect for the whole file.

        Raises:
            PlanDataError: naming the field and the place in it.
        """
        item, noted, at = self.tools[index], self.noted.get(index), f"tools.{index}"
        for field in SCHEMA_FIELDS:
            schema = item[field]
            if schema is None:
                continue
            defs = schema.get("$defs") if isinstance(schema, dict) else None
            own_part, keys = schema, self.keys_of.get(id(defs), [])
            if noted is not None and field in noted:
                own, keys = noted[field]
                own_part = {**schema, "$defs": {n: schema["$defs"][n] for n in own}}
            elif keys:
                own_part = {**schema, "$defs": {}}
            rules = rules_of(own_part)
            check_schema_data(own_part, f"{at}.{field}")
            for key in keys:
                if (key, id(rules)) not in self.done:
                    check_schema_data(
                        self.definitions[key], f"definitions.{key}", rules=rules, depth=1
                    )
                    self.done.add((key, id(rules)))


#: A plan's schemas, in the order of `SCHEMA_FIELDS`.
_SCHEMAS = attrgetter("_input", "_nested", "_check", "_output")

#: The classes of a schema's `$defs` the loader splices at once: a group's index, or none.
_GROUP_INDEX = frozenset({int, type(None)})

#: The class of a `$defs` entry that names a shared definition by its key.
_TEXT = frozenset({str})


def _parsed(text: str | bytes | bytearray) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise _refuse("", "nests too deeply") from None
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError, too many digits
        raise _refuse("", f"is not JSON ({str(error)[:200]})") from None


def _check_file(file: Any) -> None:
    """The envelope: the format versions first (with how to rebuild), then every field."""
    if not isinstance(file, Mapping) or file.get("format") != PLANS_FORMAT:
        shown = file.get("format") if isinstance(file, Mapping) else type(file).__name__
        raise PlanDataError(
            f"not a toolshape plans file: format is {shown!r}, expected {PLANS_FORMAT!r}; "
            f"{_REBUILD}",
            field="format",
        )
    if file.get("planFormat") != PLAN_FORMAT:
        raise PlanDataError(
            f"the plans file holds plans in the format {file.get('planFormat')!r} (written by "
            f"toolshape {file.get('toolshape')!r}); this version serves {PLAN_FORMAT!r}: "
            f"{_REBUILD}",
            field="planFormat",
        )
    problem = envelope_problem(_FILE_FAST, _FILE, file)
    if problem is not None:
        raise _refuse(*problem)


def _errors(items: list[Any]) -> tuple[PlanError, ...]:
    errors = []
    for index, item in enumerate(items):
        try:
            error = ToolshapeError.from_dict(item)
        except ToolshapeError as problem:
            raise _refuse(f"errors.{index}", str(problem)) from None
        if not isinstance(error, PlanError):
            raise _refuse(f"errors.{index}", f"is a {type(error).__name__}, not a planning error")
        errors.append(error)
    return tuple(errors)


def _refuse(field: str, reason: str) -> PlanDataError:
    return PlanDataError(f"not a toolshape plans file: `{field}` {reason}", field=field)


def _within(where: str, field: str) -> str:
    """`field` of the part of the file at `where` (`(root)` or nothing: the part itself)."""
    return where if field in ("", "(root)") else f"{where}.{field}"


def _at(where: str, error: PlanDataError) -> PlanDataError:
    """A tool's plan-data error, placed in the file (`tools.3.` before its field)."""
    field = _within(where, error.field)
    reason = error.message.removeprefix("not a toolshape plan: ")
    if reason.startswith(f"`{error.field}` "):
        reason = reason[len(error.field) + 3 :]
    return _refuse(field, reason)
