"""One settings value from the edge to the planner: `PlanSettings`, built from keywords, from a
mapping (a configuration file's `[[api]]` table, the command line's flags) or field by field,
taken by `plan_document`, `plan_operation` and the server alike (S2, S10, S20.1, S18.4,
S23.3, S24.2)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import make_document, only_path
from toolshape import (
    Options,
    PlanKeywords,
    PlanSettings,
    Select,
    SettingsError,
    plan_document,
    plan_operation,
)

DOC = make_document(
    {
        "type": "object",
        "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
        "required": ["name"],
    }
)


def test_the_keywords_are_the_values_fields_and_the_profile() -> None:
    """`PlanKeywords` (what `plan_document(doc, **keywords)` takes) is `PlanSettings`' fields
    and `profile`, the preset of `options`: one list of settings, two spellings."""
    fields = {f.name for f in dataclasses.fields(PlanSettings)}
    assert set(PlanKeywords.__annotations__) == fields | {"profile"}


def test_a_value_and_its_keywords_plan_alike() -> None:
    """S2, S10: `plan_document(doc, PlanSettings(...))` is `plan_document(doc, **keywords)`,
    and so for `plan_operation`."""
    keywords: dict[str, Any] = {"style": "flat", "source": "api.json", "profile": "legacy"}
    value = PlanSettings(style="flat", source="api.json", options=Options.preset("legacy"))
    assert PlanSettings.of(**keywords) == value
    by_value, by_keywords = plan_document(DOC, value), plan_document(DOC, **keywords)
    assert by_value.tools == by_keywords.tools
    assert [t.style for t in by_value.tools] == ["flat"]
    assert by_value.tools[0].location.startswith("api.json#")
    path = only_path(DOC)
    assert plan_operation(DOC, path, "post", value) == plan_operation(DOC, path, "post", **keywords)


def test_a_value_and_keywords_together_are_refused() -> None:
    with pytest.raises(TypeError, match=r"plan_document\(\) takes `settings` or keywords"):
        plan_document(DOC, PlanSettings(), style="flat")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        plan_document(DOC, colour="red")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"options": {"on_collision": "rename"}}, "PlanSettings' options must be Options"),
        ({"select": {"tags": ["pets"]}}, "PlanSettings' select must be a Select"),
    ],
)
def test_a_field_of_the_wrong_kind_is_refused(fields: dict[str, Any], message: str) -> None:
    """S24.2: a mapping where a value belongs is a mistake, named where it is given (it was
    once ignored: every operation planned)."""
    with pytest.raises(TypeError, match=message):
        PlanSettings(**fields)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, PlanSettings()),
        ({"style": "flat"}, PlanSettings(style="flat")),
        (
            {"profile": "legacy", "on_collision": "rename"},
            PlanSettings(options=Options.preset("legacy", on_collision="rename")),
        ),
        (
            {"select": {"tags": ["pets"], "content_types": "preferred"}},
            PlanSettings(select=Select(tags=["pets"], content_types="preferred")),
        ),
        ({"fixed": {"api-version": "2"}}, PlanSettings(fixed={"api-version": "2"})),
    ],
)
def test_a_mapping_gives_the_value(data: dict[str, Any], expected: PlanSettings) -> None:
    assert PlanSettings.from_mapping(data) == expected


def test_every_problem_of_a_mapping_is_named_at_once() -> None:
    """S24.2: each key that can't be used, in the mapping's order, then the switches'."""
    with pytest.raises(SettingsError) as caught:
        PlanSettings.from_mapping({"profile": "modern"})
    assert list(caught.value.problems) == ['`profile` is "modern"; use 2026-11-06 or legacy']
    with pytest.raises(SettingsError) as caught:
        PlanSettings.from_mapping(
            {
                "colour": "red",
                "style": "flatt",
                "profile": 3,
                "on_unflattenable": "nested",
                "select": {"tagz": ["x"]},
                "fixed": {"when": float("nan")},
                "on_collision": "nestd",
            },
            where="api[0].",
            name="serve.toml",
        )
    assert caught.value.source == "serve.toml"
    assert list(caught.value.problems) == [
        "`api[0].colour` is not a setting",
        '`api[0].style` is "flatt"; use flat or nested',
        "`api[0].profile` must be text, not 3",
        "`api[0].select` holds a key that is not a selection ('tagz')",
        "`api[0].fixed` `when` is not a JSON value (Out of range float values are not JSON "
        "compliant)",
        "`api[0]`: option 'on_collision' can't be 'nestd'; use one of 'error', 'nested', 'rename'",
    ]


def test_a_config_table_and_the_flags_give_one_value(tmp_path: Path) -> None:
    """S23.2, S23.3: `serve`'s flags and a configuration file's `[[api]]` table with the same
    settings are planned with equal `PlanSettings` (serve's preset under both)."""
    from toolshape.cli import _api_settings, _parser
    from toolshape.server._settings import read_config

    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(DOC), encoding="utf-8")
    config = tmp_path / "serve.toml"
    config.write_text(
        f"""
[[api]]
document = {json.dumps(str(spec))}
profile = "legacy"
portable_names = true
select = {{ tags = ["pets"], exclude_operations = ["old"] }}
fixed = {{ "api-version" = "2" }}
""",
        encoding="utf-8",
    )
    (from_file,) = read_config(str(config))
    flags = [str(spec), "--profile", "legacy", "--portable-names", "--tag", "pets"]
    flags += ["--exclude-operation", "old", "--fixed", 'api-version="2"']
    from_flags = _api_settings(_parser().parse_args(["serve", *flags]))
    assert from_file.plan_settings() == from_flags.plan_settings()
    assert from_file.plan_settings().options == Options.preset(
        "legacy", on_collision="rename", on_unflattenable="nested", portable_names=True
    )
    assert from_file.plan_settings().style == "flat"


def test_planning_keys_beside_a_plans_file_are_refused_as_the_flags_are(tmp_path: Path) -> None:
    """S27.2: a plans file is served as it was planned, so a configuration file's planning
    keys beside `plans` are refused as `serve --plans` refuses the planning flags, each named."""
    from toolshape.server._prepare import prepare
    from toolshape.server._settings import read_config

    config = tmp_path / "serve.toml"
    config.write_text(
        '[[api]]\nplans = "x.plans.json"\nbase_url = "http://x.test"\nstyle = "flat"\n'
        'portable_names = true\noperations = "ops.toml"\n',
        encoding="utf-8",
    )
    with pytest.raises(SettingsError) as caught:
        prepare(read_config(str(config)), str(config), {}, lambda line: None)
    assert list(caught.value.problems) == [
        "`api[0].style`, `api[0].portable_names`, `api[0].operations`: a plans file is served "
        "as it was planned"
    ]


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
_KEYS = st.sampled_from(
    [
        *("style", "profile", "select", "fixed", "on_collision", "portable_names", "colour"),
        *("description_limit", "output_schemas", "flatten_unions"),
    ]
)
_SELECTS = st.dictionaries(
    st.sampled_from(["tags", "methods", "deprecated", "content_types", "paths", "tagz"]),
    _VALUES,
    max_size=3,
)


@settings(max_examples=300, deadline=None)
@given(
    data=st.dictionaries(_KEYS, _VALUES, max_size=6),
    select=st.none() | _SELECTS,
)
def test_any_mapping_is_settings_or_every_problem_named(
    data: dict[str, Any], select: dict[str, Any] | None
) -> None:
    """S24.2, totality: whatever a configuration table or flags hold, `from_mapping` gives
    settings or a `SettingsError` naming keys of the mapping, never another exception."""
    if select is not None:
        data = {**data, "select": select}
    found: PlanSettings | SettingsError
    try:
        found = PlanSettings.from_mapping(data, where="api[0].")
    except SettingsError as error:
        found = error
    if isinstance(found, SettingsError):
        assert found.problems
        assert all(p.startswith("`api[0]") for p in found.problems)
        return
    assert isinstance(found, PlanSettings)
    assert set(data) <= {f.name for f in dataclasses.fields(Options)} | {
        "style",
        "profile",
        "select",
        "fixed",
    }
