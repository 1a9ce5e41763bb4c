"""S10: the `2026-11-06` and `legacy` profiles differ exactly by their switches, each its own."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from tests.conftest import STORE_BODY, make_document, only_path
from tests.test_hoist import ROWS
from toolshape import NO_BODY, ArgumentError, Options, PlanError, plan_document, plan_operation
from toolshape.cli import main

PATH = "/stores/{storeId}/search"
PARAMS: list[dict[str, Any]] = [
    {"name": "storeId", "in": "path", "required": True, "schema": {"type": "string"}}
]


def observe(doc: dict[str, Any], profile: str, **kwargs: Any) -> dict[str, Any]:
    """What a gateway can see of planning `doc` flat: schema, style, body shape, errors, notes."""
    result = plan_document(doc, style=kwargs.pop("style", "flat"), profile=profile, **kwargs)  # type: ignore[arg-type]
    tool = result.tools[0] if result.tools else None
    return {
        "schema": json.dumps(tool.input_schema) if tool else None,
        "style": tool.style if tool else None,
        "body": tool.body if tool else None,
        "errors": tuple((e.kind, e.rule) for e in result.errors),
        "notes": tuple((d.level, d.message.split(" for tool")[0]) for d in result.diagnostics),
    }


OBJ = {"type": "object", "properties": {"q": {"type": "string"}}}

# (id, document, facets that differ, what legacy shows for them)
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("worked example", make_document(STORE_BODY), {}),
    (
        "header case (switch header_names)",
        make_document(
            STORE_BODY,
            [*PARAMS, {"name": "X-Tenant", "in": "header", "schema": {"type": "string"}}],
        ),
        {"schema": lambda s: '"X-Tenant"' in s and '"x-tenant"' not in s},
    ),
    (
        "open body (switch open_body_root)",
        make_document({"type": "object", "properties": {"q": {}}}, PARAMS),
        {"schema": lambda s: s.endswith('"additionalProperties": {}}')},
    ),
    (
        "array body (switch on_unflattenable)",
        make_document({"type": "array"}, PARAMS),
        {
            "schema": lambda s: '"body": {"type": "array"}' in s,
            "style": "flat",
            "body": "wrapped",
            "errors": (),
            "notes": (("debug", "MCP tool request body left nested"),),
        },
    ),
    (
        "allOf body (switch composed_bodies)",
        make_document({"allOf": [OBJ]}, PARAMS),
        {
            "schema": lambda s: '"body": {"allOf"' in s,
            "body": "wrapped",
            "notes": (("debug", "MCP tool request body left nested"),),
        },
    ),
    (
        "dependentRequired body (switch composed_bodies)",
        make_document(
            {**OBJ, "properties": {"q": {}, "r": {}}, "dependentRequired": {"q": ["r"]}}, PARAMS
        ),
        {
            "schema": lambda s: '"body": {"type": "object"' in s,
            "body": "wrapped",
            "notes": (("debug", "MCP tool request body left nested"),),
        },
    ),
    (
        "collision (switch on_collision)",
        make_document({"type": "object", "properties": {"storeId": {}}}, PARAMS),
        {
            "schema": lambda s: '"pathParams"' in s,
            "style": "nested",
            "body": "wrapped",
            "errors": (),
            "notes": (("warning", "MCP tool input schema left nested"),),
        },
    ),
    (
        "media type without schema (switch schemaless_body)",
        make_document("no-schema", PARAMS),
        {"schema": lambda s: '"body"' not in s, "style": "flat", "body": "none", "errors": ()},
    ),
    (
        "untyped body with properties (switch untyped_body)",
        make_document({"properties": {"q": {}}}, PARAMS),
        {"schema": lambda s: '"q": {}' in s, "style": "flat", "body": "hoisted", "errors": ()},
    ),
    (
        "const at the root (switch strict_roots)",
        make_document({**OBJ, "const": {"q": "x"}}, PARAMS),
        {
            "schema": lambda s: '"q": {"type": "string"}' in s,
            "style": "flat",
            "body": "hoisted",
            "errors": (),
        },
    ),
]


@pytest.mark.parametrize(("doc", "differs"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_profiles_differ_exactly_by_their_switches(
    doc: dict[str, Any], differs: dict[str, Any]
) -> None:
    """S10: each listed facet differs as the legacy profile says; nothing else differs."""
    modern, legacy = observe(doc, "2026-11-06"), observe(doc, "legacy")
    for facet in modern:
        if facet not in differs:
            assert modern[facet] == legacy[facet], facet
            continue
        assert modern[facet] != legacy[facet], facet
        expected = differs[facet]
        assert expected(legacy[facet]) if callable(expected) else legacy[facet] == expected, (
            facet,
            legacy[facet],
        )


def test_env_style_errors_or_resolves() -> None:
    """S2.4 (switch env_in_style): $env(...) fails under 2026-11-06 and resolves under legacy."""
    doc = make_document(STORE_BODY)
    with pytest.raises(PlanError):
        plan_document(doc, style="$env(STYLE)", env={"STYLE": "flat"})
    (tool,) = plan_document(doc, style="$env(STYLE)", profile="legacy", env={"STYLE": "flat"}).tools
    assert tool.style == "flat"


def test_validation_whole_passes_values_unchanged_per_channel_inserts_defaults() -> None:
    """S13.5 (switch validation): legacy validates per channel and inserts defaults."""
    params = [
        *PARAMS,
        {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 20}},
    ]
    body = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "sort": {"type": "string", "default": "name"}},
    }
    doc = make_document(body, params)
    (modern,) = plan_operation(doc, only_path(doc), "post", style="flat")
    (legacy,) = plan_operation(doc, only_path(doc), "post", style="flat", profile="legacy")
    call = {"storeId": "s1", "q": "hoodie"}
    assert modern.call(call).url == "/stores/s1/search"
    assert modern.call(call).body == {"q": "hoodie"}
    request = legacy.call(call)
    assert request.url == "/stores/s1/search?limit=20"
    assert request.body == {"q": "hoodie", "sort": "name"}
    with pytest.raises(ArgumentError) as caught:
        legacy.call({"storeId": "s1", "limit": "x"})
    assert (
        str(caught.value)
        == 'Invalid arguments for tool \'searchProducts\': queryParams.limit: "x" is not of type "integer"'
    )
    assert legacy.call({"pathParams": {"storeId": "s1"}, "queryParams": {}, "body": {}}).body == {
        "sort": "name"
    }


def test_per_channel_optional_body_not_given_is_not_sent() -> None:
    """S13.5, S12.3: under per-channel validation an optional, absent body is still not sent."""
    (legacy,) = plan_operation(
        make_document(OBJ, PARAMS), PATH, "post", style="flat", profile="legacy"
    )
    assert legacy.call({"storeId": "s1"}).body is NO_BODY


def test_a_single_switch_overrides_its_preset() -> None:
    """S10: modern schemas with the legacy fallback: on_collision="nested" alone."""
    doc = make_document({"type": "object", "properties": {"storeId": {}, "q": {}}}, PARAMS)
    options = Options.preset("2026-11-06", on_collision="nested")
    (tool,) = plan_document(doc, style="flat", options=options).tools
    assert tool.style == "nested"
    assert '"additionalProperties": {}' not in json.dumps(tool.input_schema)
    open_doc = make_document({"type": "object", "properties": {"q": {}}}, PARAMS)
    (legacy_closed,) = plan_document(
        open_doc, style="flat", options=Options.preset("legacy", open_body_root="absent")
    ).tools
    assert "additionalProperties" not in legacy_closed.input_schema


@pytest.mark.parametrize(
    ("overrides", "message"), [({"nope": 1}, "unknown option 'nope'"), ({}, "unknown profile")]
)
def test_bad_options_are_value_errors(overrides: dict[str, Any], message: str) -> None:
    """Options.preset names an unknown profile or switch."""
    with pytest.raises(ValueError, match=message):
        Options.preset("2026-11-06" if overrides else "2020-01-01", **overrides)  # type: ignore[arg-type]


def test_cli_switches_override_the_profile(tmp_path: Any) -> None:
    """`--on-collision nested` on the command line keeps a colliding tool nested."""
    spec = tmp_path / "doc.json"
    spec.write_text(
        json.dumps(make_document({"type": "object", "properties": {"storeId": {}}}, PARAMS))
    )
    out = io.StringIO()
    assert main(["plan", str(spec), "--style", "flat"], out, io.StringIO()) == 1
    out = io.StringIO()
    assert (
        main(
            ["plan", str(spec), "--style", "flat", "--on-collision", "nested", "--json"],
            out,
            io.StringIO(),
        )
        == 0
    )
    (route,) = json.loads(out.getvalue())["routes"]
    assert route["style"] == "nested"
    out = io.StringIO()
    assert (
        main(
            [
                "plan",
                str(spec),
                "--style",
                "flat",
                "--profile",
                "legacy",
                "--strict-roots",
                "true",
                "--json",
            ],
            out,
            io.StringIO(),
        )
        == 0
    )


#: What legacy does with a body each S5 row refuses under 2026-11-06, by rule.
LEGACY_SHAPE = {
    "S5.6": "hoisted",
    "S5.7": "hoisted",
    "S5.8": "hoisted",
    "S5.9": "hoisted",
    "S5.11": "none",
}


@pytest.mark.parametrize(
    ("body", "rule", "keyword"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_every_s5_row_under_both_profiles(body: Any, rule: str, keyword: str | None) -> None:
    """S5, S10: a refused body is an error under 2026-11-06; legacy wraps it, or flattens it
    where the row applies from 2026-11-06 only; everything else is the same."""
    components: dict[str, Any] | None = None
    if isinstance(body, dict) and body.get("$ref") == "#/$defs/X":  # a document's refs are its own
        body, components = {**body, "$ref": "#/components/schemas/X"}, {"schemas": {"X": {}}}
    params = PARAMS
    if isinstance(body, dict) and body.get("$recursiveAnchor") is True:  # a 2019-09 keyword
        body = {"$schema": "https://json-schema.org/draft/2019-09/schema", **body}
        params = []  # S4.7: 2020-12 parameters beside a 2019-09 body would be two dialects
    doc = make_document("no-schema" if body is None else body, params, components=components)
    modern, legacy = observe(doc, "2026-11-06"), observe(doc, "legacy")
    if isinstance(body, dict) and isinstance(body.get("properties"), list):
        # S1.4: a schema its meta-schema rejects is refused before any S5 row looks at it.
        assert modern["errors"] == legacy["errors"] == (("schema", "S1.4"),)
        return
    assert legacy["errors"] == ()
    if rule == "hoisted":
        assert modern["errors"] == ()
        composed = isinstance(body, dict) and "dependentRequired" in body  # legacy keeps it wrapped
        assert (modern["style"], modern["body"]) == ("flat", "hoisted")
        assert (legacy["style"], legacy["body"]) == ("flat", "wrapped" if composed else "hoisted")
        return
    assert modern["errors"] == (("unflattenable", rule),)
    untyped = rule == "S5.1" and isinstance(body, dict) and "type" not in body
    expected = "hoisted" if untyped else LEGACY_SHAPE.get(rule, "wrapped")
    assert (legacy["style"], legacy["body"]) == ("flat", expected)
    wrapped_note = (("debug", "MCP tool request body left nested"),)
    assert legacy["notes"] == (wrapped_note if expected == "wrapped" else ())


def test_per_channel_wrapped_body_is_required() -> None:
    """S5 (legacy), S13.5: a wrapped body stays a required argument under per-channel validation."""
    (tool,) = plan_operation(
        make_document({"type": "array"}, PARAMS), PATH, "post", style="flat", profile="legacy"
    )
    with pytest.raises(ArgumentError, match='"body" is a required property'):
        tool.call({"storeId": "s1"})
    assert tool.call({"storeId": "s1", "body": [1]}).body == [1]


@pytest.mark.parametrize(
    ("switches", "message"),
    [
        (
            {"on_collision": "nestd"},
            "option 'on_collision' can't be 'nestd'; use one of 'error', 'nested', 'rename'",
        ),
        ({"portable_names": "yes"}, "option 'portable_names' can't be 'yes'; use true or false"),
        (
            {"description_limit": -1},
            "option 'description_limit' can't be -1; use one of a whole number of at least 0, None",
        ),
        (
            {"output_schemas": "exactly"},
            "option 'output_schemas' can't be 'exactly'; use one of 'shape', 'exact', 'off', true or false",
        ),
        ({"no_such": 1}, "unknown option 'no_such'"),
    ],
)
def test_every_switch_is_checked_where_it_is_given(switches: dict[str, Any], message: str) -> None:
    """S24.2: `Options` and `Options.preset` refuse a value a switch can't take (a typo is no
    silent default), naming the switch and what it takes."""
    with pytest.raises(ValueError, match="option") as caught:
        Options.preset(**switches)
    assert str(caught.value).startswith(message)
    if "no_such" not in switches:
        with pytest.raises(ValueError, match="can't be"):
            Options(**switches)


@pytest.mark.parametrize(("given", "view"), [(True, "shape"), (False, "off"), ("exact", "exact")])
def test_output_schemas_takes_a_view_or_a_boolean(given: Any, view: str) -> None:
    """S16.7: `output_schemas` is `"shape"` (the default; `True`), `"exact"` or `"off"`
    (`False`), kept as the word."""
    assert Options().output_schemas == "shape"
    options = Options.preset(output_schemas=given)
    assert options.output_schemas == options.output_view == view
    assert Options.from_dict(options.to_dict()) == options
