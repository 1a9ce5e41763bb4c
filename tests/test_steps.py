"""The planner's named steps (`toolshape.planner._steps`), one table each: what the credentials
and fixed arguments withhold (S18), the tool's one dialect (S4.7), the flat body part (S5),
a body that can't flatten (S9.2, S21.1), collisions and aliases (S9.1, S19), and the nested
tool's portable members (S19.2)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import STORE_BODY, STORE_PARAMETERS, make_document
from toolshape import Options, Plan, PlanError, Wrapped
from toolshape.model._types import Operation
from toolshape.planner._steps import (
    Draft,
    Place,
    flat_aliases,
    flat_body,
    nested_tool,
    prepare,
    tool_dialect,
    unflattenable,
    withhold,
)
from toolshape.read._document import DocumentReader

PLACE = Place("searchProducts", "searchProducts", "openapi.json#/paths/~1search/post")
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def read(document: dict[str, Any]) -> Operation:
    """The one operation of `document`, as the reader gives it to the planner."""
    reader = DocumentReader(document, "openapi.json")
    (raw,) = reader.operations()
    return reader.read(raw)


def draft(document: dict[str, Any], **options: Any) -> Draft:
    """`prepare`'s draft of the one tool of a one-operation document."""
    op = read(document)
    body = op.bodies[0] if op.bodies else None
    prepared = prepare(
        op, body, PLACE, Options.preset(**options), DRAFT_07, None, {}, frozenset(), None
    )
    assert isinstance(prepared, Draft)
    return prepared


SECURED: dict[str, Any] = {
    "security": [{"key": []}],
}
KEY_SCHEME = {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}}


@pytest.mark.parametrize(
    ("parameters", "fixed", "credentials", "fixed_names", "body_names", "kept"),
    [
        (STORE_PARAMETERS, {}, (), [], set(), ["storeId", "limit", "x-tenant"]),
        (STORE_PARAMETERS, {"limit": 5}, (), ["limit"], set(), ["storeId", "x-tenant"]),
        (STORE_PARAMETERS, {"query": "q"}, (), [], {"query"}, ["storeId", "limit", "x-tenant"]),
        (
            [*STORE_PARAMETERS, {"name": "X-Key", "in": "header", "schema": {"type": "string"}}],
            {"x-tenant": "acme"},
            ("X-Key",),
            ["x-tenant"],
            set(),
            ["storeId", "limit"],
        ),
    ],
    ids=["nothing", "a fixed query parameter", "a fixed body name", "a credential and a header"],
)
def test_withhold_takes_out_credentials_and_fixed_parameters(
    parameters: list[dict[str, Any]],
    fixed: dict[str, Any],
    credentials: tuple[str, ...],
    fixed_names: list[str],
    body_names: set[str],
    kept: list[str],
) -> None:
    """S18.3, S18.4: a parameter a credential fills or the gateway fixes leaves the operation;
    a fixed name no parameter declares is left for the body."""
    document = make_document(STORE_BODY, parameters, operation=SECURED, components=KEY_SCHEME)
    withheld = withhold(read(document), fixed, Options())
    assert withheld.credentials == credentials
    assert [f.name for f in withheld.fixed] == fixed_names
    assert all(f.route is not None for f in withheld.fixed)
    assert withheld.body_names == body_names
    assert [p.name for p in withheld.op.parameters] == kept


@pytest.mark.parametrize(
    ("parameter_dialect", "body_dialect", "expected"),
    [
        (None, None, "https://json-schema.org/draft/2020-12/schema"),
        (DRAFT_07, DRAFT_07, DRAFT_07),
        (None, DRAFT_07, "S4.7"),
    ],
    ids=["2020-12", "draft-07 throughout", "two dialects"],
)
def test_a_tool_has_one_dialect(
    parameter_dialect: str | None, body_dialect: str | None, expected: str
) -> None:
    """S4.7: every schema of a tool in one dialect (the 3.1 default, else what they declare);
    two dialects are refused, naming both."""
    parameter: dict[str, Any] = {"type": "string"}
    body: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}
    if parameter_dialect:
        parameter["$schema"] = parameter_dialect
    if body_dialect:
        body["$schema"] = body_dialect
    op = read(make_document(body, [{"name": "id", "in": "query", "schema": parameter}]))
    found = tool_dialect(op, op.bodies[0], "https://json-schema.org/draft/2020-12/schema")
    if expected == "S4.7":
        assert isinstance(found, Wrapped)
        assert found.rule == "S4.7"
        assert "the parameter `id`" in found.reason
        assert "the body" in found.reason
    else:
        assert found == expected


@pytest.mark.parametrize(
    ("body", "has_body", "hoisted", "properties"),
    [
        (STORE_BODY, True, "Hoisted", ["query", "sort"]),
        ({"type": "array", "items": {"type": "string"}}, True, "Wrapped", ["body"]),
        (STORE_BODY, False, "NoneType", []),
    ],
    ids=["an object hoisted", "an array wrapped", "no body"],
)
def test_the_flat_body_part(body: Any, has_body: bool, hoisted: str, properties: list[str]) -> None:
    """S5: the body's part of a flat tool — its properties hoisted, the whole body under one
    required `body` argument, or nothing."""
    op = read(make_document(body))
    part = flat_body(op, op.bodies[0], has_body, Options())
    assert type(part.hoisted).__name__ == hoisted
    assert list(part.properties) == properties
    assert list(part.required) == (["body"] if hoisted == "Wrapped" else list(part.required))


ARRAY_BODY = {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize(
    ("on_unflattenable", "outcome", "level"),
    [("error", "PlanError", None), ("nested", "Plan", "warning"), ("wrap", "NoneType", "debug")],
)
def test_a_body_that_cannot_flatten(on_unflattenable: str, outcome: str, level: str | None) -> None:
    """S9.2, S21.1: the error; the nested tool with the error as a warning; or (`wrap`) the
    body kept under `body`, with a debug note."""
    drafted = draft(make_document(ARRAY_BODY), on_unflattenable=on_unflattenable)
    part = flat_body(drafted.op, drafted.body, True, drafted.options)
    assert isinstance(part.hoisted, Wrapped)
    result = unflattenable(drafted, part.hoisted)
    assert type(result).__name__ == outcome
    if isinstance(result, Plan):
        assert result.style == "nested"
    assert [note.level for note in drafted.notes] == ([level] if level else [])
    if isinstance(result, PlanError):
        assert (result.kind, result.property, result.rule) == ("unflattenable", "body", "S5.1")


COLLIDING = [*STORE_PARAMETERS, {"name": "query", "in": "query", "schema": {"type": "string"}}]
#: The flat names per channel of the worked example with a query parameter `query` too.
CHANNELS: list[tuple[Any, list[str]]] = [("query", ["limit", "query"]), ("body", ["query", "sort"])]


@pytest.mark.parametrize(
    ("on_collision", "outcome"),
    [
        ("error", "PlanError"),
        ("nested", "nested"),
        ("rename", {("query", "query"): "query__query"}),
    ],
)
def test_a_collision_is_refused_nested_or_renamed(on_collision: str, outcome: Any) -> None:
    """S9.1, S19.3: a collision is the error, the nested tool (with a warning), or each
    colliding parameter renamed `<name>__<in>` (a body property keeps its name)."""
    drafted = draft(make_document(STORE_BODY, COLLIDING), on_collision=on_collision)
    part = flat_body(drafted.op, drafted.body, True, drafted.options)
    found = flat_aliases(drafted, part, CHANNELS, wrapped_body=False)
    if outcome == "PlanError":
        assert isinstance(found, PlanError)
        assert (found.kind, found.property, found.channels) == (
            "collision",
            "query",
            ("queryParams", "body"),
        )
    elif outcome == "nested":
        assert isinstance(found, Plan)
        assert found.style == "nested"
        assert [n.level for n in found.diagnostics] == ["warning"]
    else:
        assert found == outcome
        assert [n.level for n in drafted.notes] == ["info"]


@pytest.mark.parametrize(
    ("names", "aliases"),
    [
        ([("query", ["limit"]), ("body", ["query"])], {}),
        (
            [("query", ["$top"]), ("body", ["a b"])],
            {("query", "$top"): "top", ("body", "a b"): "a_b"},
        ),
    ],
    ids=["portable already", "aliased"],
)
def test_portable_names_alias_what_models_refuse(
    names: list[tuple[Any, list[str]]], aliases: dict[tuple[str, str], str]
) -> None:
    """S19.2: with `portable_names`, every flat name outside `^[A-Za-z0-9_.-]{1,64}$` gets an
    alias; the others none."""
    drafted = draft(make_document(STORE_BODY), portable_names=True)
    part = flat_body(drafted.op, drafted.body, True, drafted.options)
    assert flat_aliases(drafted, part, names, wrapped_body=False) == aliases


def test_the_nested_tool_advertises_portable_members() -> None:
    """S19.2: with portable names, a nested tool's channel members get aliases (`$top` as
    `top`), routed back by their wire names."""
    parameters = [{"name": "$top", "in": "query", "schema": {"type": "integer"}}]
    plan = nested_tool(draft(make_document(STORE_BODY, parameters), portable_names=True))
    assert list(plan.input_schema["properties"]["queryParams"]["properties"]) == ["top"]
    assert plan.call({"queryParams": {"top": 3}, "body": {"query": "q"}}).url == "/search?%24top=3"
    assert [n.level for n in plan.diagnostics] == ["info"]
