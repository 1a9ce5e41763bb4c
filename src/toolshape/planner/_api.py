"""The entry points: `plan_document` and `plan_operation` (S2, S8, S9.4).

Both take one `PlanSettings` value, or its fields as keywords: a new feature adds one field
there, not one keyword to two signatures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from typing_extensions import Unpack

from toolshape.flatten._aliases import Taken
from toolshape.model._errors import DocumentError, PlanError
from toolshape.model._json import Unchecked
from toolshape.model._pointers import pointer
from toolshape.model._types import Diagnostic, Style
from toolshape.planner._planner import operation_key, plan_operation_tools
from toolshape.planner._settings import PlanKeywords, PlanSettings, server_style
from toolshape.plans._plan import Plan, PlanResult
from toolshape.read._document import DocumentReader
from toolshape.read._paths import RawOperation
from toolshape.read._select import Select


def _settings(
    caller: str, settings: PlanSettings | None, keywords: Mapping[str, Any]
) -> tuple[PlanSettings, Style, list[Diagnostic]]:
    """The settings given (a `PlanSettings`, or keywords), the server-wide style resolved, and
    the S2.3 diagnostic of that style.

    Raises:
        TypeError: a keyword that is not a setting, or both `settings` and keywords (as for
            any Python call).
        PlanError: the server-wide style uses `$env(...)` under `2026-11-06` (S2.4).
    """
    unknown = sorted(set(keywords) - _KEYWORDS)
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument {unknown[0]!r}")
    if settings is not None and keywords:
        raise TypeError(f"{caller}() takes `settings` or keywords, not both")
    chosen = settings if settings is not None else PlanSettings.of(**keywords)
    resolved = server_style(chosen)
    if isinstance(resolved, PlanError):
        raise resolved
    return chosen, *resolved


_KEYWORDS = frozenset(PlanKeywords.__annotations__)


def plan_document(
    document: Mapping[str, Unchecked],
    settings: PlanSettings | None = None,
    **keywords: Unpack[PlanKeywords],
) -> PlanResult:
    """Plan every operation of `document` as MCP tools, collecting every error (S9.4).

    The settings are one `PlanSettings`, or its fields as keywords (`PlanKeywords`, with
    `profile` presetting `options`): `style` is the server-wide `toolInputStyle` (S2);
    `styles` and `names` give per-tool styles and names by operationId (or the derived name
    of an operation without one); `source` names the document in locations (S9.3).

    Raises:
        DocumentError: `document` is not an OpenAPI 3.x document at all.
        PlanError: the server-wide `toolInputStyle` uses `$env(...)` under `2026-11-06` (S2.4).
    """
    chosen, style, diagnostics = _settings("plan_document", settings, keywords)
    source, select = chosen.source, chosen.select
    reader = DocumentReader(document, source, outputs=chosen.options.output_view != "off")
    if reader.index.converted is not None and reader.index.converted.bare:
        diagnostics.append(_bare_references(reader.index.converted.bare, source))
    if "paths" not in document:
        diagnostics.append(
            Diagnostic(
                "warning",
                f"the document has no `paths`, so it has no tools ({source}#/paths)",
                location=f"{source}#/paths",
            )
        )
    planned: list[Plan] = []
    errors: list[PlanError] = []
    taken: dict[str, Plan] = {}
    names = Taken()  # S19.2: portable names given so far, for their suffixes
    seen: set[str] = set()
    parents = tag_parents(document) if select is not None else {}
    left_out = operations = 0
    for raw in reader.operations():
        operations += 1
        key = operation_key(raw)[0]
        seen.add(key)
        if select is not None and not _selected(select, raw, key, parents):
            left_out += 1
            continue
        outcome = plan_operation_tools(reader, raw, chosen, style, names)
        errors.extend(outcome.errors)
        diagnostics.extend(outcome.notes)
        for plan in outcome.plans:
            first = taken.get(plan.name)
            if first is not None:  # S8.1: only a clash after sanitizing is an error
                errors.append(_name_clash(plan, first))
                continue
            taken[plan.name] = plan
            planned.append(plan)
            diagnostics.extend(plan.diagnostics)
    if left_out:
        diagnostics.append(
            Diagnostic("debug", f"`select` left out {left_out} operations of {source}")
        )
    asked = select.includes if select is not None else None
    if asked is not None and operations and left_out == operations:
        errors.append(_selects_nothing(asked, operations, source))
    diagnostics.extend(_unknown_keys(chosen, seen))
    diagnostics.extend(_unused_fixed(chosen.fixed, planned, errors, source))
    return PlanResult(
        tuple(planned),
        tuple(errors),
        tuple(diagnostics),
        reader.security_scheme_names(),
        source=source,
        style=style,
        options=chosen.options,
        server_url=reader.server_url(),
        named_servers=reader.named_servers(),
        tag_titles=tag_titles(document),
    )


def operation_keys(document: Mapping[str, Unchecked]) -> tuple[str, ...]:
    """The operationId (or derived name) of every operation of `document`: the keys its
    per-operation settings take (S8.1, S24.7).

    Raises:
        DocumentError: `document` is not an OpenAPI 3.x (or Swagger 2.0) document at all.
    """
    reader = DocumentReader(document, "openapi.json", outputs=False)
    return tuple(operation_key(raw)[0] for raw in reader.operations())


def _bare_references(names: tuple[str, ...], source: str) -> Diagnostic:
    """S20.3: the bare references a 2.0 document's conversion read as definitions."""
    shown = ", ".join(f"`{name}` as `#/definitions/{name}`" for name in names)
    return Diagnostic(
        "info",
        f"{source} writes bare references, read as its definitions: {shown} (S20.3)",
        location=f"{source}#/definitions",
    )


def _selects_nothing(asked: str, count: int, source: str) -> PlanError:
    """S20.1: a selection whose include lists match none of a document's operations."""
    return PlanError(
        "configuration",
        f"`select` matches none of the {count} operations of {source}: it asks for {asked}",
        location=f"{source}#/paths",
        rule="S20.1",
    )


def _selected(
    select: Select, raw: RawOperation, key: str, parents: Mapping[str, str] | None = None
) -> bool:
    """S20.1: whether `select` keeps the operation; S26.9: a tag counts with every tag its
    `parent` chain reaches (`parents`: each tag's parent, from the document's `tags`)."""
    node = raw.node if isinstance(raw.node, Mapping) else {}
    tags = node.get("tags")
    own = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
    return select.keeps(
        key=key,
        method=raw.method,
        path=raw.path,
        tags=[a for tag in own for a in _ancestry(tag, parents or {})],
        deprecated=node.get("deprecated") is True,
    )


def tag_parents(document: Mapping[str, Unchecked]) -> dict[str, str]:
    """S26.9: each tag's `parent` (OpenAPI 3.2), from the document's `tags`."""
    return _tag_field(document, "parent")


def tag_titles(document: Mapping[str, Unchecked]) -> dict[str, str]:
    """S26.9: each tag's `summary` (OpenAPI 3.2: its title), from the document's `tags`."""
    return _tag_field(document, "summary")


def _tag_field(document: Mapping[str, Unchecked], key: str) -> dict[str, str]:
    """Each tag's `key` that is a string, by tag name (other tags and values left out)."""
    tags = document.get("tags")
    return {
        tag["name"]: tag[key]
        for tag in (tags if isinstance(tags, list) else [])
        if isinstance(tag, Mapping)
        and isinstance(tag.get("name"), str)
        and isinstance(tag.get(key), str)
    }


def _ancestry(tag: str, parents: Mapping[str, str]) -> list[str]:
    """`tag`, its parent, its parent's parent ... (a cycle ends where it repeats)."""
    chain = [tag]
    while (parent := parents.get(chain[-1])) is not None and parent not in chain:
        chain.append(parent)
    return chain


def _unused_fixed(
    fixed: Mapping[str, object], plans: list[Plan], errors: list[PlanError], source: str
) -> list[Diagnostic]:
    """S18.4: a warning for every `fixed` name no operation declares."""
    used = {item.name for plan in plans for item in plan.fixed}
    used |= {e.property for e in errors if e.rule == "S18.4" and e.property is not None}
    unused = [name for name in fixed if name not in used]
    if not unused:
        return []
    shown = ", ".join(f"`{name}`" for name in unused)
    return [
        Diagnostic(
            "warning",
            f"`fixed` names {shown}, which no operation of {source} declares (as a parameter, "
            "or a property of a body that flattens), so it changes nothing",
        )
    ]


def _name_clash(plan: Plan, first: Plan) -> PlanError:
    return PlanError(
        "name",
        f"the tool name '{plan.name}' is also the name of operation "
        f"{first.operation_id or first.method + ' ' + first.path} ({first.location}), "
        "so one of the two tools would be unreachable. Give one of them another name",
        tool=plan.name,
        operation=plan.operation_id or f"{plan.method} {plan.path}",
        location=plan.location,
    )


def _unknown_keys(settings: PlanSettings, seen: set[str]) -> list[Diagnostic]:
    """A warning for every per-operation key that names no operation of the document."""
    notes, source = [], settings.source
    for option, mapping in settings.per_operation().items():
        unknown = [key for key in mapping if key not in seen]
        if unknown:
            shown = ", ".join(f"`{key}`" for key in unknown)
            notes.append(
                Diagnostic(
                    "warning",
                    f"`{option}` names {shown}, which no operation of {source} has as its "
                    "operationId (or derived name, for an operation without one), so it "
                    "changes nothing",
                )
            )
    return notes


def plan_operation(
    document: Mapping[str, Unchecked],
    path: str,
    method: str,
    settings: PlanSettings | None = None,
    **keywords: Unpack[PlanKeywords],
) -> tuple[Plan, ...]:
    """Plan one operation: one `Plan` per request content type (S8.2).

    `method` is a path item's field (`get`, any case; `query` in OpenAPI 3.2), or a key of
    its `additionalOperations` as written (`LINK`, S26.3). Takes the same settings as
    `plan_document`.

    Raises:
        PlanError: the operation is missing or can't be planned as asked (the first error).
    """
    chosen, style, _ = _settings("plan_operation", settings, keywords)
    source, select = chosen.source, chosen.select
    reader = DocumentReader(document, source, outputs=chosen.options.output_view != "off")
    for raw in reader.operations():
        # a fixed field's method in any case; an additional operation's as its key (S26.3)
        if raw.path == path and raw.method in (method.lower(), method):
            if select is not None and not _selected(
                select, raw, operation_key(raw)[0], tag_parents(document)
            ):
                raise DocumentError(
                    "document",
                    f"`select` leaves out the operation {method.upper()} {path}",
                    location=f"{source}#{raw.pointer}",
                )
            outcome = plan_operation_tools(reader, raw, chosen, style)
            if outcome.errors:
                raise outcome.errors[0]
            return tuple(outcome.plans)
    raise DocumentError(
        "document",
        f"the document has no operation {method.upper()} {path}",
        location=f"{source}#{pointer('paths', path, method.lower())}",
    )
