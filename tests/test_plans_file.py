"""Plans files (`toolshape.plans/1`, issue 17): a whole document's plans written once, served
without the document (S15.1) — round trip, sharing, the round-trip law over the corpus, and a
file that is not one this version serves refused, naming the field."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.calls import calls_for, outcome
from tests.conftest import CORPUS, corpus_plans
from tests.test_total import GARBAGE, mutate
from toolshape import (
    PLAN_FORMAT,
    PLANS_FORMAT,
    ArgumentError,
    Options,
    PlanDataError,
    PlanResult,
    ToolshapeError,
    dump_plans,
    load_plans,
    plan_document,
)
from toolshape.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "src" / "toolshape" / "data"
EXAMPLE_DOC = json.loads((EXAMPLE / "example.openapi.json").read_text(encoding="utf-8"))
SHOP = Path(__file__).parent / "data" / "shop.swagger.yaml"


#: The worked example, plus an operation whose body and answer use shared components.
DOCUMENT: dict[str, Any] = {
    **EXAMPLE_DOC,
    "paths": {
        **EXAMPLE_DOC["paths"],
        "/pets": {
            "post": {
                "operationId": "addPet",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                    },
                },
                "responses": {
                    "201": {
                        "description": "the pet",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                        },
                    }
                },
            }
        },
    },
    "components": {
        **EXAMPLE_DOC.get("components", {}),
        "schemas": {
            **EXAMPLE_DOC.get("components", {}).get("schemas", {}),
            "Pet": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                },
                "required": ["name"],
            },
            "Owner": {"type": "object", "properties": {"id": {"type": "integer"}}},
        },
    },
}


def example(style: str = "flat", **kwargs: Any) -> PlanResult:
    return plan_document(DOCUMENT, style=style, source="example.openapi.json", **kwargs)


def file_text(result: PlanResult, sha256: str | None = None) -> str:
    return json.dumps(dump_plans(result, sha256=sha256))


def same_result(loaded: PlanResult, result: PlanResult, every: int = 1) -> None:
    """Everything a PlanResult holds, compared as data (errors are exceptions: by `to_dict`);
    the tools' plan data for every `every`-th tool (Stripe's is 218 MB one by one)."""
    assert [t.name for t in loaded.tools] == [t.name for t in result.tools]
    for a, b in list(zip(loaded.tools, result.tools, strict=True))[::every]:
        assert a == b
        assert a.to_dict() == b.to_dict()
    assert [e.to_dict() for e in loaded.errors] == [e.to_dict() for e in result.errors]
    assert [type(e) for e in loaded.errors] == [type(e) for e in result.errors]
    assert loaded.diagnostics == result.diagnostics
    assert loaded.security_schemes == result.security_schemes
    assert (loaded.source, loaded.style, loaded.options) == (
        result.source,
        result.style,
        result.options,
    )


@pytest.mark.parametrize("style", ["flat", "nested"])
@pytest.mark.parametrize("profile", ["2026-11-06", "legacy"])
def test_a_file_round_trips_the_whole_result(style: str, profile: Any) -> None:
    """S15.1: text, bytes and parsed data all load back the result that was written."""
    result = example(style, profile=profile)
    text = file_text(result)
    for data in (text, text.encode(), json.loads(text)):
        same_result(load_plans(data), result)
        same_result(load_plans(data, lazy=False), result)


def test_the_file_records_versions_settings_and_the_source_hash() -> None:
    options = Options.preset("legacy", description_limit=80)
    result = example("flat", options=options)
    digest = hashlib.sha256(b"the document").hexdigest()
    data = dump_plans(result, sha256=digest)
    assert data["format"] == PLANS_FORMAT == "toolshape.plans/1"
    assert data["planFormat"] == PLAN_FORMAT
    assert data["source"] == {"name": "example.openapi.json", "sha256": digest}
    assert data["settings"] == {"style": "flat", "options": options.to_dict()}
    assert load_plans(json.dumps(data)).options == options
    with pytest.raises(ValueError, match="64 lower-case hex digits"):
        dump_plans(result, sha256="abc")


def test_shared_definitions_are_written_once_and_shared_again_when_loaded() -> None:
    """Every `$defs` entry the plans share is one object in memory and one entry in the file
    (OpenAI: 2.6 times smaller than its plan data one by one; Stripe: 30 times); loaded plans
    share them again."""
    document = json.loads((CORPUS / "openai.json").read_text(encoding="utf-8"))
    result = plan_document(document, style="flat", source="openai.json")
    data = dump_plans(result)
    one_by_one = sum(len(json.dumps(tool.to_dict())) for tool in result.tools)
    assert len(json.dumps(data)) * 2 < one_by_one
    loaded = load_plans(json.dumps(data))
    same_result(loaded, result)
    shared: dict[str, list[int]] = {}
    for tool in loaded.tools:
        for name, entry in tool._input.get("$defs", {}).items():
            shared.setdefault(name, []).append(id(entry))
    assert shared, "the document's tools use definitions"
    assert all(len(set(ids)) == 1 for ids in shared.values())
    assert max(len(ids) for ids in shared.values()) > 1


def test_loaded_plans_hand_out_copies_and_stay_unchanged() -> None:
    """S15.2 holds for loaded plans: what a caller does to a returned schema changes nothing,
    also for the definitions the plans share."""
    document = json.loads((CORPUS / "twilio-api-v2010.json").read_text(encoding="utf-8"))
    loaded = load_plans(file_text(plan_document(document, style="flat")))
    tool = next(t for t in loaded.tools if t.input_schema.get("$defs"))
    before = [t.to_dict() for t in loaded.tools]
    schema = tool.input_schema
    for entry in schema["$defs"].values():
        if isinstance(entry, dict):
            entry.clear()
    assert [t.to_dict() for t in loaded.tools] == before


# -- the round-trip law: a loaded plan routes every call like the plan it came from --------


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.json")), ids=lambda p: p.stem)
def test_round_trip_law_over_the_corpus(path: Path) -> None:
    """For every corpus tool in both styles, the plan loaded from the file routes every
    generated call exactly like the plan it came from: the same request, or the same error
    (S15.1). Calls are generated from each tool's own advertised schema."""
    rng = random.Random(path.stem)
    requests = refusals = 0
    for style in ("flat", "nested"):
        result = corpus_plans(path, style)
        loaded = load_plans(file_text(result))
        same_result(loaded, result, every=20)
        for original, copy in zip(result.tools, loaded.tools, strict=True):
            for arguments in calls_for(original.input_schema, rng, 2):
                expected = outcome(partial(original.call, arguments))
                assert outcome(partial(copy.call, arguments)) == expected, original.name
                requests += expected[0] == "request"
                refusals += expected[0] == ArgumentError.__name__
    assert requests >= 3  # the law was exercised both ways
    assert refusals >= 3


# -- refusals: what this version can't serve --------------------------------------------


def refused(change: Callable[[dict[str, Any]], Any], *, lazy: bool = True) -> PlanDataError:
    data = json.loads(file_text(example("flat")))
    change(data)
    text = json.dumps(data)
    with pytest.raises(PlanDataError) as caught:
        load_plans(text, lazy=lazy)
    return caught.value


def test_another_format_version_is_refused_with_how_to_rebuild() -> None:
    for change, field in [
        (lambda d: d.update(format="toolshape.plans/0"), "format"),
        (lambda d: d.update(planFormat="toolshape.plan/1", toolshape="0.0.9"), "planFormat"),
    ]:
        error = refused(change)
        assert error.field == field
        assert "toolshape plan SPEC --out FILE" in error.message
    error = refused(lambda d: d.update(planFormat="toolshape.plan/1", toolshape="0.0.9"))
    assert "'toolshape.plan/1' (written by toolshape '0.0.9')" in error.message


def first_with_defs(data: dict[str, Any]) -> dict[str, Any]:
    return next(t for t in data["tools"] if isinstance(t["inputSchema"].get("$defs"), int))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(tools={}), "tools"),
        (lambda d: d["tools"][0].update(method="GET\r\nX-Evil: 1"), "tools.0.method"),
        (
            lambda d: d["tools"][1]["parameters"][0].update({"in": "evil"}),
            "tools.1.parameters.0.in",
        ),
        (lambda d: d["tools"][1].update(format="toolshape.plan/1"), "tools.1.format"),
        (lambda d: d["tools"][1].update(name=d["tools"][0]["name"]), "tools.1.name"),
        (lambda d: d["settings"]["options"].update(on_collision="maybe"), "settings.options"),
        (lambda d: d["settings"]["options"].update(nope=True), "settings.options"),
        (lambda d: d["errors"].append({"error": "ArgumentError", "message": "x"}), "errors.0"),
        (lambda d: d["source"].update(sha256="not hex"), "source.sha256"),
        (lambda d: first_with_defs(d)["inputSchema"].update({"$defs": 999}), ".inputSchema.$defs"),
        (lambda d: d["defsGroups"][0].append("no such definition"), "defsGroups.0"),
    ],
)
def test_a_tampered_file_is_refused_naming_the_field(
    change: Callable[[dict[str, Any]], Any], field: str
) -> None:
    error = refused(change)
    assert error.field.endswith(field) if field.startswith(".") else error.field == field
    assert error.message.startswith("not a toolshape plans file: `")


def remote_definition(data: dict[str, Any]) -> None:
    """The first definition a tool's input uses now reaches outside the file."""
    used = data["defsGroups"][first_with_defs(data)["inputSchema"]["$defs"]][0]
    data["definitions"][used] = {"$ref": "https://evil.example/schema.json"}


@pytest.mark.parametrize("lazy", [True, False])
def test_a_tampered_schema_is_refused_before_it_judges_anything(lazy: bool) -> None:
    """S14.1, S15.1: a shared definition that reaches outside is refused — at load with
    `lazy=False`, else by the first call of a tool that uses it, before any request."""
    data = json.loads(file_text(example("flat")))
    remote_definition(data)
    text = json.dumps(data)
    if not lazy:
        with pytest.raises(PlanDataError, match="leaves the schema") as caught:
            load_plans(text, lazy=False)
        assert caught.value.field.startswith("definitions.")
        return
    result = load_plans(text)  # the envelope and routes are fine: it loads
    users = [t for t in result.tools if t._input.get("$defs")]
    assert users
    with pytest.raises(PlanDataError, match="leaves the schema"):
        users[0].call({})
    with pytest.raises(PlanDataError, match="leaves the schema"):  # and on every later call
        users[0].call({})
    # A plan made from a loaded one before its first call carries its check, under any name.
    at = result.tools.index(users[0])
    for made in (
        dataclasses.replace(load_plans(text).tools[at], description="changed"),
        dataclasses.replace(load_plans(text).tools[at], name="renamed"),
    ):
        with pytest.raises(PlanDataError, match="leaves the schema"):
            made.call({})


def with_defs_object(data: dict[str, Any], own: Any) -> tuple[int, dict[str, Any]]:
    """The first tool with shared `$defs` now names them in an object (as a file does when a
    name is not its entry's key) and holds one entry of its own, `Own`; its index, and it."""
    tool = first_with_defs(data)
    keys = data["defsGroups"][tool["inputSchema"]["$defs"]]
    tool["inputSchema"]["$defs"] = {**{key: key for key in keys}, "Own": own}
    return data["tools"].index(tool), tool


@pytest.mark.parametrize("lazy", [True, False])
def test_a_defs_object_naming_keys_and_holding_its_own_entries_loads(lazy: bool) -> None:
    """S15.1: a schema's `$defs` may name shared entries by key beside entries of its own;
    it loads, the shared entries are the file's, and the tool validates as planned."""
    data = json.loads(file_text(example("flat")))
    index, _ = with_defs_object(data, {"type": "string"})
    loaded = load_plans(json.dumps(data), lazy=lazy).tools[index]
    original = example("flat").tools[index]
    schema = loaded._input
    assert schema["$defs"]["Own"] == {"type": "string"}
    assert {k: v for k, v in schema["$defs"].items() if k != "Own"} == original._input["$defs"]
    assert outcome(partial(loaded.call, {})) == outcome(partial(original.call, {}))


@pytest.mark.parametrize(
    ("own", "names", "field", "match"),
    [
        ({"type": "string"}, "nothing", ".inputSchema.$defs", "names 'nothing', which is no"),
        ({"$ref": "https://evil.example/x"}, None, ".inputSchema", "leaves the schema"),
    ],
)
def test_a_defs_object_is_refused_where_it_is_wrong(
    own: Any, names: str | None, field: str, match: str
) -> None:
    """S15.1: in a `$defs` object, a key that names no definition is refused at load; an
    entry of its own is checked with its schema (by its first call, or at load eagerly)."""
    data = json.loads(file_text(example("flat")))
    index, tool = with_defs_object(data, own)
    if names is not None:
        tool["inputSchema"]["$defs"]["Missing"] = names
    text = json.dumps(data)
    if names is not None:
        with pytest.raises(PlanDataError, match=match) as caught:
            load_plans(text)
    else:
        with pytest.raises(PlanDataError, match=match) as caught:
            load_plans(text, lazy=False)
        assert caught.value.field == f"tools.{index}{field}"
        with pytest.raises(PlanDataError, match=match) as caught:
            load_plans(text).tools[index].call({})
    assert caught.value.field == f"tools.{index}{field}"


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[]", "{" * 100_000, '{"format": "toolshape.plans/1"}', "1" * 5000],
)
def test_what_is_not_a_plans_file_is_a_plan_data_error(text: str) -> None:
    with pytest.raises(PlanDataError):
        load_plans(text)


# -- the command line --------------------------------------------------------------------


def test_toolshape_plan_out_writes_the_file_the_gateway_serves(tmp_path: Path) -> None:
    out = tmp_path / "plans.json"
    err = io.StringIO()
    status = main(
        ["plan", str(SHOP), "--style", "flat", "--out", str(out)], out=io.StringIO(), err=err
    )
    loaded = load_plans(out.read_bytes())
    assert status == 1  # the fixture has two operations that can't be planned flat
    assert len(loaded.errors) == 2
    assert loaded.source == str(SHOP)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["source"]["sha256"] == hashlib.sha256(SHOP.read_bytes()).hexdigest()
    assert f"wrote {out} (toolshape.plans/1): {len(loaded.tools)} tools, 2 errors" in err.getvalue()
    from toolshape.cli import parse_document

    document = parse_document(SHOP.read_text(encoding="utf-8"), str(SHOP))
    same_result(loaded, plan_document(document, style="flat", source=str(SHOP)))


# -- totality: any file ends in plans or a PlanDataError, any call in a result or own error -


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE, st.booleans())
def test_a_mutated_file_loads_and_serves_totally(seed: int, value: Any, lazy: bool) -> None:
    """S14.4 for plans files: one random place of a real file changed — a value replaced, a
    keyword set, a key dropped — and the file either is refused (`PlanDataError`) or loads, and
    then every tool's calls and answers end in a result or the library's own error."""
    rng = random.Random(seed)
    data = mutate(json.loads(MUTABLE), rng, value)
    try:
        result = load_plans(json.dumps(data), lazy=lazy)
    except PlanDataError:
        return
    except (TypeError, ValueError):  # `value` itself is not JSON (NaN is, for json.dumps)
        return
    for tool in result.tools:
        tool.to_mcp_tool()
        for arguments in ({}, {"storeId": "s", "query": "q", "x-tenant": "t", "name": "n"}):
            with contextlib.suppress(ToolshapeError):
                tool.call(arguments)
        with contextlib.suppress(ToolshapeError):
            tool.result(200, [("content-type", "application/json")], b'{"name": "n"}')


MUTABLE = file_text(example("flat"))


def repeating() -> dict[str, Any]:
    """A plans file whose tools repeat their routes and security schemes (as an API's do)."""
    operation = {
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
            {"name": "q", "in": "query", "style": "pipeDelimited", "schema": {"type": "array"}},
        ],
        "security": [{"key": []}, {"basic": [], "oauth": []}],
        "responses": {"200": {"description": "ok"}},
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            f"/t{i}/{{id}}": {"get": {**operation, "operationId": f"op{i}"}} for i in range(3)
        },
        "components": {
            "securitySchemes": {
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                "basic": {"type": "http", "scheme": "basic"},
                "oauth": {"type": "oauth2", "flows": {}},
            }
        },
    }
    return dump_plans(plan_document(document, style="flat"))


REPEATING = json.dumps(repeating())


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_the_fast_paths_prove_a_written_file_without_asking_jsonschema(style: str) -> None:
    """S15.1: the compiled checks of the envelope, the routes and the schemes accept every
    tool of a file as written (a check that raised or refused would leave loading correct
    but slow: jsonschema would decide every tool)."""
    from toolshape._model import ParameterRoute
    from toolshape._plan_format import (
        _ENVELOPE_FAST,
        _ROUTE_FAST,
        _SCHEME_FAST,
        _SPLIT,
        _TOOL_FAST,
        Parts,
    )
    from toolshape._types import SecurityScheme

    data = json.loads(file_text(example(style)))
    assert _TOOL_FAST is not None
    assert _ENVELOPE_FAST is not None
    assert _ROUTE_FAST is not None
    assert _SCHEME_FAST is not None
    assert _SPLIT  # the envelope proven in parts
    parts = Parts(ParameterRoute.from_dict, SecurityScheme.from_dict)
    for tool in data["tools"]:
        assert _TOOL_FAST(tool) is True
        assert parts._envelope(tool) is True
        assert all(_ROUTE_FAST(route) is True for route in tool["parameters"])
        assert all(_SCHEME_FAST(s) is True for a in tool["security"] for s in a)
    for plan in example(style).tools:
        assert _ENVELOPE_FAST(plan.to_dict()) is True


#: Values a route or scheme field may hold that are valid alone but not everywhere.
PLAUSIBLE = st.sampled_from(
    [
        *("matrix", "form", "label", "simple", "deepObject", "spaceDelimited", "Host", "a b"),
        *("header", "cookie", "query", "path", "apiKey", "http", "bearer", "authorization", None),
    ]
)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"in": "header", "style": "form"}, "parameters.0.style"),
        ({"in": "header", "style": "simple", "name": "Host"}, "parameters.0.name"),
        ({"in": "cookie", "style": "form", "name": "a b"}, "parameters.0.name"),
    ],
)
def test_a_repeated_route_the_full_check_refuses_is_refused(
    change: dict[str, Any], field: str
) -> None:
    """S12.1, S12.2: a route proven once for many tools is still refused where its style or
    name can't be served, in the last tool that has it as in the first."""
    data = json.loads(REPEATING)
    data["tools"][-1]["parameters"][0].update(change)
    error = outcome(partial(load_plans, json.dumps(data)))
    assert error == outcome(partial(load_plans, data))
    assert error[0] == "PlanDataError"
    assert error[1]["field"] == f"tools.{len(data['tools']) - 1}.{field}"


def test_a_repeated_scheme_the_full_check_refuses_is_refused() -> None:
    """S18.1: an API-key scheme proven once for many tools is still refused, in the last
    tool that has it, where it would send a header the client owns."""
    data = json.loads(REPEATING)
    last = len(data["tools"]) - 1
    (scheme,) = data["tools"][last]["security"][0]
    assert (scheme["in"], scheme["parameter"]) == ("header", "x-key")
    scheme["parameter"] = "Host"
    error = outcome(partial(load_plans, json.dumps(data)))
    assert error == outcome(partial(load_plans, data))
    assert error[1]["field"] == f"tools.{last}.security.0.0.parameter"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bodyRequired", 0),  # `false` to `==`, not to the format
        ("outputWrapped", 1),
        ("binary", []),  # empty, as in every other tool, but not an object
        ("fixed", {}),
        ("bodyAliases", ""),
        ("method", "get"),
        ("title", 0),  # an own field only a type decides
        ("security", []),  # no alternative: a requirement `Parts` proves whole
        ("security", {}),
    ],
)
def test_a_repeated_envelope_field_the_full_check_refuses_is_refused(
    field: str, value: Any
) -> None:
    """S15.1: the fields an API's tools repeat are proven once for each distinct combination
    of values, with their types: a value equal to a proven one but of another type, or an
    empty container of another type, is still refused in the last tool that has it."""
    data = json.loads(REPEATING)
    last = len(data["tools"]) - 1
    data["tools"][last][field] = value
    error = outcome(partial(load_plans, json.dumps(data)))
    assert error == outcome(partial(load_plans, data))
    assert error[0] == "PlanDataError"
    assert error[1]["field"] == f"tools.{last}.{field}"


def test_the_fields_keyed_by_type_are_decided_by_their_python_type() -> None:
    """S15.1: an own field `Parts` proves by its value's type alone must be one whose schema
    gives every value of a Python type the same verdict (not `integer`: `1.0` is one, `1.5`
    is not, both floats)."""
    from jsonschema import Draft202012Validator

    from toolshape._plan_format import _TOOL, _TYPED

    samples = [None, True, False, 0, 1, -3, 0.0, 1.0, 1.5, "", "x", [], [1], {}, {"a": 1}]
    assert _TYPED  # the split keys some fields by type
    for name in _TYPED:
        valid = Draft202012Validator(_TOOL["properties"][name]).is_valid
        verdicts: dict[type, set[bool]] = {}
        for value in samples:
            verdicts.setdefault(type(value), set()).add(valid(value))
        assert all(len(v) == 1 for v in verdicts.values()), name


def test_the_fields_keyed_by_shape_are_decided_by_their_keys_and_types() -> None:
    """S15.1: an own object field `Parts` proves by its keys and their values' types must be
    one whose schema gives every object of the same keys and value types the same verdict:
    each property decided by its Python type, no other property allowed."""
    from jsonschema import Draft202012Validator

    from toolshape._plan_format import _SHAPED, _TOOL

    samples: list[Any] = [None, True, False, 0, 1, 1.0, 1.5, "", "x", [], {}]
    assert _SHAPED == ("annotations",)  # the split keys the tool's annotations by shape
    for name in _SHAPED:
        schema = _TOOL["properties"][name]
        valid = Draft202012Validator(schema).is_valid
        keys = [*schema["properties"], "other"]
        rng = random.Random(name)
        verdicts: dict[tuple[Any, ...], set[bool]] = {}
        for _ in range(3000):
            value = {k: rng.choice(samples) for k in rng.sample(keys, rng.randrange(4))}
            shape = (*value, *map(type, value.values()))
            verdicts.setdefault(shape, set()).add(valid(value))
        assert all(len(v) == 1 for v in verdicts.values()), name


@pytest.mark.parametrize(
    ("annotations", "field"),
    [
        ({"readOnlyHint": 1}, "annotations.readOnlyHint"),  # `true` to `==`, not a boolean
        ({"title": None}, "annotations.title"),
        ({"destroyHint": True}, "annotations"),  # no such hint
        ([], "annotations"),
    ],
)
def test_annotations_proven_by_shape_are_refused_as_the_full_check_refuses(
    annotations: Any, field: str
) -> None:
    """S15.1, S16.2: the tools' annotations are proven once per shape (their hints and the
    hints' types): in the last tool, hints of a proven shape with another type, or another
    hint, are still refused, naming the hint; hints in another order are accepted."""
    data = json.loads(REPEATING)
    last = len(data["tools"]) - 1
    proven = data["tools"][0]["annotations"]
    assert proven
    assert all(tool["annotations"].keys() == proven.keys() for tool in data["tools"])
    data["tools"][last]["annotations"] = (
        {**proven, **annotations} if isinstance(annotations, dict) else annotations
    )
    error = outcome(partial(load_plans, json.dumps(data)))
    assert error == outcome(partial(load_plans, data))
    assert error[0] == "PlanDataError"
    assert error[1]["field"] == f"tools.{last}.{field}"
    data["tools"][last]["annotations"] = dict(reversed(proven.items()))
    loaded = load_plans(json.dumps(data))
    assert loaded.tools[last].annotations == proven


#: Values some field of a tool's envelope holds, to move between fields and tools.
ENVELOPE_VALUES = st.sampled_from(
    [True, False, 0, 1, "", "GET", "flat", "hoisted", "json", "reject", "whole", [], {}, "/t"]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE | PLAUSIBLE | ENVELOPE_VALUES)
def test_an_envelope_proven_in_parts_is_refused_as_the_full_check_refuses(
    seed: int, value: Any
) -> None:
    """S15.1: a tool's envelope, proven from text in parts (what the tools repeat once per
    distinct combination, each tool's own fields each time), is accepted and refused exactly
    as the full check of every tool (parsed data) decides, naming the same field: a field
    changed, dropped or added, in any tool."""
    rng = random.Random(seed)
    data = json.loads(REPEATING)
    tool = data["tools"][rng.randrange(len(data["tools"]))]
    choice = rng.random()
    if choice < 0.1:
        del tool[rng.choice(list(tool))]
    elif choice < 0.2:
        tool[rng.choice(["extra", "Method", ""])] = value
    else:
        field = rng.choice(list(tool))
        tool[field] = value if choice < 0.6 else mutate(tool[field], rng, value)
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):  # `value` itself is not JSON
        return
    assert outcome(partial(load_plans, text)) == outcome(partial(load_plans, data))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE | PLAUSIBLE, st.sampled_from(["parameters", "security"]))
def test_repeated_parts_proven_once_refuse_what_the_full_check_refuses(
    seed: int, value: Any, part: str
) -> None:
    """S15.1: a file's routes and security schemes, each distinct one proven once when the
    file is text, are accepted and refused exactly as the full check of every tool (parsed
    data) accepts and refuses them, naming the same field."""
    rng = random.Random(seed)
    data = json.loads(REPEATING)
    tool = rng.randrange(len(data["tools"]))
    data["tools"][tool][part] = mutate(data["tools"][tool][part], rng, value)
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):  # `value` itself is not JSON
        return
    from_text, from_data = outcome(partial(load_plans, text)), outcome(partial(load_plans, data))
    assert from_text == from_data
