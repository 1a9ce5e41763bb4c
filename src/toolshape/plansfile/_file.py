"""Plans files (`toolshape.plans/4`): a whole document's plans, planned once at build time and
served at run time without the document (S15.1).

A file holds every tool's plan data (`toolshape.plan/4`), the errors and diagnostics, the
settings planning used and a hash of the source document. What an API's tools repeat is
written once: the `$defs` entries the plans of one document share (in memory, one object for
every tool) under `definitions`, and each set of them schemas share once too (`defsGroups`: the
keys, or an object of name -> key where a key is not its entry's name); a schema's `$defs` is
then that group's index. Stripe's 468 tools are a few MB instead of 218 MB, and load back
sharing their entries again. Each distinct route is written once under `routes`, each distinct
security requirement under `securityRequirements`, and each distinct combination of the fields
tools share (`Field.shared`: content type, style, body handling ...) under `profiles`; a tool's
entry holds its own fields and names the others by index (`parameters`, a list of indices;
`security` and `profile`, one each).

Loading decides once: the whole file against `PLANS_SCHEMA` (one compiled check; jsonschema
words a refusal with its place, `tools.5.name`), then what a schema can't say — each route's,
requirement's and fixed argument's serving rules, that every index names an entry, that tool
names differ, every `$defs` key — then every schema's keywords under its root's dialect, every
reference local (each shared definition once per dialect; lazily, before a tool's schemas are
first used). A file of another format version is refused with how to rebuild it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from functools import cache, partial
from typing import Any

from toolshape.model._errors import PlanDataError, PlanError, ToolshapeError
from toolshape.model._json import JsonObject, Unchecked, spells_surrogates, thaw, unicode_safe
from toolshape.model._options import Options
from toolshape.model._types import Diagnostic, Security
from toolshape.model._version import __version__
from toolshape.plans._fields import (
    DEFS,
    OWN_FIELDS,
    PLAN_FORMAT,
    SCHEMA_FIELDS,
    SHARED_FIELDS,
    ParameterRoute,
    security_of,
)
from toolshape.plans._plan import Plan, PlanResult
from toolshape.plansfile._format import (
    ENTRY_SCHEMA,
    PROFILE_SCHEMA,
    REQUIREMENT_SCHEMA,
    check_schema_data,
    check_schemas,
    envelope_problem,
    fixed_problem,
    other_format,
    requirement_problem,
    route_problem,
    rules_of,
    tool_problem,
)
from toolshape.schema._validate import Judge

PLANS_FORMAT = "toolshape.plans/4"
"""The version tag of a plans file (`dump_plans`, `load_plans`)."""

_REBUILD = "plan the document again with this version: `toolshape plan SPEC --out FILE`"


def _as_def(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A schema of `_format` as an entry of `PLANS_SCHEMA`'s `$defs` (whose `$defs` it refers
    to)."""
    return {key: value for key, value in schema.items() if key not in ("$schema", "$defs")}


def _items(name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/$defs/{name}"}}


PLANS_SCHEMA: Mapping[str, Any] = {
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
                "serverUrl": {"type": ["string", "null"]},
                "servers": {"type": "object", "additionalProperties": {"type": "string"}},
                "tagTitles": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["name", "sha256", "serverUrl", "servers", "tagTitles"],
            "additionalProperties": False,
        },
        "settings": {
            "type": "object",
            "properties": {"style": {"enum": ["flat", "nested"]}, "options": {"type": "object"}},
            "required": ["style", "options"],
            "additionalProperties": False,
        },
        "securitySchemes": {"type": "array", "items": {"type": "string"}},
        "tools": _items("entry"),
        "routes": _items("parameter"),
        "securityRequirements": _items("requirement"),
        "profiles": _items("profile"),
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
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
                "required": ["error", "message"],
            },
        },
        "diagnostics": _items("diagnostic"),
    },
    "required": [
        "format",
        "planFormat",
        "toolshape",
        "source",
        "settings",
        "securitySchemes",
        "tools",
        "routes",
        "securityRequirements",
        "profiles",
        "definitions",
        "defsGroups",
        "errors",
        "diagnostics",
    ],
    "additionalProperties": False,
    "$defs": {
        **DEFS,
        "entry": _as_def(ENTRY_SCHEMA),
        "requirement": _as_def(REQUIREMENT_SCHEMA),
        "profile": _as_def(PROFILE_SCHEMA),
    },
}
"""A plans file's structure as a JSON Schema (2020-12): its envelope, each tool's entry, each
route, security requirement and profile. Loading checks it first, then more than it says —
each channel's styles and HTTP names, that every index names an entry, every schema's keywords
(S15.1)."""


@cache
def _judge() -> Judge:
    """`PLANS_SCHEMA`'s judge, built on first use."""
    return Judge(PLANS_SCHEMA)


def dump_plans(result: PlanResult, *, sha256: str | None = None) -> JsonObject:
    """`result` as a plans file's data (`toolshape.plans/4`); `json.dump` it to write the file.

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
        "source": {
            "name": result.source,
            "sha256": sha256,
            "serverUrl": result.server_url,
            "servers": dict(result.named_servers),
            "tagTitles": dict(result.tag_titles),
        },
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
    """The routes, security requirements and shared fields of every tool written, each distinct
    one once (an API's tools repeat theirs); a tool's entry names them by index."""

    def __init__(self) -> None:
        self.routes: list[JsonObject] = []
        self.requirements: list[Any] = []
        self.profiles: list[JsonObject] = []
        self._known: dict[str, dict[str, int]] = {"routes": {}, "requirements": {}, "profiles": {}}

    def entry(self, data: JsonObject) -> JsonObject:
        """A tool's plan data as its entry in the file: its own fields (the routes and the
        security requirement by index), then the index of its shared fields."""
        known = self._known
        entry: JsonObject = {}
        for f in OWN_FIELDS:
            if f.key == "parameters":
                entry[f.key] = [_index(self.routes, known["routes"], r) for r in data[f.key]]
            elif f.key == "security":
                entry[f.key] = _index(self.requirements, known["requirements"], data[f.key])
            else:
                entry[f.key] = data[f.key]
        profile = {"format": PLAN_FORMAT, **{f.key: data[f.key] for f in SHARED_FIELDS}}
        entry["profile"] = _index(self.profiles, known["profiles"], profile)
        return entry


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

    The whole file is checked against `PLANS_SCHEMA`, then every entry of its tables (routes,
    security requirements, shared fields: each once), every index, every tool name and every
    `$defs` key. With `lazy` (the default) each tool's schemas — keywords under their dialect,
    references, depth — are checked before any of them is first used (a call, an answer, or
    handed out), so start-up pays for the rest only. With `lazy=False` every schema is checked
    now, so a bad file is refused at load.

    Raises:
        PlanDataError: not a plans file this version reads (another format version: planning
            again rebuilds it), or a field that could not be served safely; `field` names
            where (`routes.3.in`, `tools.5.parameters.1`). With `lazy`, a tool's schema problem
            is raised when that tool's schemas are first used instead.
    """
    # Parsed from text, the file is the loader's own; parsed data is the caller's: copied.
    file = _parsed(data) if isinstance(data, (str, bytes, bytearray)) else thaw(data)
    _check_file(file)
    try:
        options = Options.from_dict(file["settings"]["options"])
    except (TypeError, ValueError) as error:
        raise _refuse("settings.options", str(error)) from None
    tables = _Loaded(
        [ParameterRoute.from_dict(route) for route in file["routes"]],
        [security_of(requirement) for requirement in file["securityRequirements"]],
        [{f.attr: f.codec.load(p[f.key]) for f in SHARED_FIELDS} for p in file["profiles"]],
        file,
    )
    checks = _SchemaChecks(file["definitions"], file["defsGroups"], file["tools"])
    plans = [_plan(index, entry, tables, checks, lazy) for index, entry in enumerate(file["tools"])]
    return PlanResult(
        tuple(plans),
        _errors(file["errors"]),
        tuple(Diagnostic.from_dict(note) for note in file["diagnostics"]),
        tuple(file["securitySchemes"]),
        source=file["source"]["name"],
        style=file["settings"]["style"],
        options=options,
        server_url=file["source"]["serverUrl"],
        named_servers=file["source"]["servers"],
        tag_titles=file["source"]["tagTitles"],
    )


class _Loaded:
    """A loaded file's tables, built once each: its routes, security requirements and the
    values of each entry of shared fields (by `Plan` attribute)."""

    __slots__ = ("file", "profiles", "requirements", "routes")

    def __init__(
        self,
        routes: list[ParameterRoute],
        requirements: list[Security],
        profiles: list[dict[str, Any]],
        file: Mapping[str, Any],
    ) -> None:
        self.routes = routes
        self.requirements = requirements
        self.profiles = profiles
        self.file = file
        """The file's data (its tables as written, for the checks of a tool as a whole)."""


def _plan(
    index: int, entry: JsonObject, tables: _Loaded, checks: _SchemaChecks, lazy: bool
) -> Plan:
    """The plan of tool entry `index` (the envelope checked): its indices, its name, its
    `$defs` keys checked, and (not lazy) its schemas.

    Raises:
        PlanDataError: naming the field (`tools.5.parameters.1`).
    """
    where = f"tools.{index}"
    _check_indices(entry, tables, where)
    file = tables.file
    profile = file["profiles"][entry["profile"]]
    found = tool_problem(
        {
            "path": entry["path"],
            "basePath": profile["basePath"],
            "outputView": profile["outputView"],
            "outputSchema": entry["outputSchema"],
            "outputWrapped": profile["outputWrapped"],
            "outputItems": profile["outputItems"],
            "responseFields": profile["responseFields"],
            "inputSchema": entry["inputSchema"],
            "bodyProperties": entry["bodyProperties"],
            "bodyAliases": profile["bodyAliases"],
            "parameters": [file["routes"][i] for i in entry["parameters"]],
            "fixed": profile["fixed"],
            "security": file["securityRequirements"][entry["security"]],
        }
    )
    if found is not None:  # what planning refuses of a tool's routes as a whole
        raise _refuse(_table_place(found[0], entry, where), found[1])
    name = entry["name"]
    if name in checks.index_of:
        raise _refuse(f"{where}.name", f"repeats the tool name {name!r}")
    checks.index_of[name] = index
    checks.splice(entry, index)
    if not lazy:
        checks.check(index)
    values = {f.attr: f.codec.load(entry[f.key]) for f in OWN_FIELDS if f.key not in _TABLED}
    routes = tables.routes
    values.update(
        tables.profiles[entry["profile"]],
        parameters=tuple(routes[i] for i in entry["parameters"]),
        security=tables.requirements[entry["security"]],
    )
    return _LazyPlan(**values, pending=partial(checks.of, index)) if lazy else Plan(**values)


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _LazyPlan(Plan):
    """A plan of a lazily loaded file (`load_plans(lazy=True)`): its schema checks run before
    any of its schemas judges a call or leaves the plan, once (S15.1). It is a `Plan` in all
    else (equal to, and pickled as, the plain plan of the same data); `dataclasses.replace`
    carries the pending check to the plan it makes."""

    pending: Callable[[Plan], None] | None = dataclasses.field(
        default=None, repr=False, compare=False
    )

    def _ready(self) -> None:
        """Run the pending schema checks, once.

        Raises:
            PlanDataError: a schema the plan can't serve from.
        """
        pending = self.pending
        if pending is not None:
            pending(self)
            object.__setattr__(self, "pending", None)


#: The fields of a tool's entry that name entries of the file's tables by index.
_TABLED = frozenset({"parameters", "security"})


#: The plan-data keys a plans file writes in `profiles` (`Field.shared`).
_SHARED_KEYS = frozenset(f.key for f in SHARED_FIELDS)


def _table_place(field: str, entry: JsonObject, where: str) -> str:
    """Where in the file a field of a tool's resolved plan data is: a route's in `routes`, a
    field its API's tools repeat in the tool's entry of `profiles`, the rest in the tool's
    entry."""
    head, _, rest = field.partition(".")
    if head == "parameters":
        index, _, inside = rest.partition(".")
        return f"routes.{entry['parameters'][int(index)]}.{inside}"
    if head in _SHARED_KEYS:
        return f"profiles.{entry['profile']}.{field}"
    return f"{where}.{field}"


def _check_indices(entry: JsonObject, tables: _Loaded, where: str) -> None:
    """Every index of a tool's entry names an entry of its table: an `int` (not `true`, not
    `1.0`, which JSON Schema's `integer` allows) within the table.

    Raises:
        PlanDataError: naming the index (`tools.5.parameters.1`).
    """
    routes = len(tables.routes)
    for i, index in enumerate(entry["parameters"]):
        if type(index) is not int or index >= routes:
            raise _bad_index(f"{where}.parameters.{i}", index, "routes", routes)
    for key, table, size in (
        ("security", "securityRequirements", len(tables.requirements)),
        ("profile", "profiles", len(tables.profiles)),
    ):
        index = entry[key]
        if type(index) is not int or index >= size:
            raise _bad_index(f"{where}.{key}", index, table, size)


def _bad_index(field: str, index: Any, table: str, size: int) -> PlanDataError:
    """The refusal of an index that names no entry of `table` (of `size` entries)."""
    if type(index) is not int:
        return _refuse(field, f"is {index!r}, not the index of an entry of `{table}`")
    return _refuse(field, f"is {index}, which names no entry: `{table}` has {size}")


def _check_file(file: Any) -> None:
    """The whole file: the format versions first (with how to rebuild), then `PLANS_SCHEMA`,
    then the serving rules of every table entry (S12.1, S12.2, S18.1, S18.4).

    Raises:
        PlanDataError: naming the first field at fault (`routes.3.style`).
    """
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
    profiles = file.get("profiles")
    for index, profile in enumerate(profiles if isinstance(profiles, list) else ()):
        if isinstance(profile, Mapping) and profile.get("format") != PLAN_FORMAT:
            # As plan data words it: the format first, with how to rebuild.
            raise _refuse(f"profiles.{index}.format", other_format(profile))
    problem = envelope_problem(_judge(), file)
    if problem is not None:
        raise _refuse(*problem)
    for table, check in _SERVING:
        for index, item in enumerate(file[table]):
            found = check(item)
            if found is not None:
                raise _refuse(f"{table}.{index}.{found[0]}", found[1])


#: What a table entry's schema can't say: each kind's serving rules.
_SERVING = (
    ("routes", route_problem),
    ("securityRequirements", requirement_problem),
    ("profiles", fixed_problem),
)


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
        for field in _SCHEMA_KEYS:
            schema = item[field]
            if not isinstance(schema, dict):
                continue
            defs = schema.get("$defs")
            if type(defs) is int:  # the envelope proved it an integer; `True` is not one
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
        if all(isinstance(entry, str) for entry in entries):  # as written: each named by key
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

    def of(self, index: int, plan: Plan) -> None:
        """The pending check of the plan loaded from tool `index` (S15.1): `check(index)`; a
        plan made from it by `dataclasses.replace` with other schemas has its own checked
        whole."""
        schemas = _schemas(plan)
        if all(self.tools[index][key] is schema for key, schema in schemas):
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
        for field in _SCHEMA_KEYS:
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


#: The keys of the fields of plan data that hold schemas.
_SCHEMA_KEYS = tuple(f.key for f in SCHEMA_FIELDS)


def _schemas(plan: Plan) -> tuple[tuple[str, Any], ...]:
    """A plan's schemas by their plan-data keys."""
    return tuple((f.key, getattr(plan, f.attr)) for f in SCHEMA_FIELDS)


def _parsed(text: str | bytes | bytearray) -> Any:
    """The file's data; texts UTF-8 can't carry (lone surrogates) as U+FFFD (S14.4)."""
    try:
        data = json.loads(text)
        return unicode_safe(data)[0] if spells_surrogates(text) else data
    except RecursionError:
        raise _refuse("", "nests too deeply") from None
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError, too many digits
        raise _refuse("", f"is not JSON ({str(error)[:200]})") from None


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
