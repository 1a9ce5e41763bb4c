"""Plans files (`toolshape.plans/4`, issue 17): a whole document's plans written once, served
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
from hypothesis import example as pinned
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.calls import calls_for, outcome
from tests.conftest import SLICE, corpus_documents, corpus_file, corpus_plans
from tests.test_total import GARBAGE, mutate
from toolshape import (
    PLAN_FORMAT,
    PLANS_FORMAT,
    PLANS_SCHEMA,
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
from toolshape.plans._fields import OWN_FIELDS as OWN
from toolshape.plans._fields import SHARED_FIELDS
from toolshape.plansfile._format import check_plan_data

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


def same_result(loaded: PlanResult, result: PlanResult) -> None:
    """Everything a PlanResult holds, compared as data (errors are exceptions: by `to_dict`)."""
    assert [t.name for t in loaded.tools] == [t.name for t in result.tools]
    for a, b in zip(loaded.tools, result.tools, strict=True):
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
    assert data["format"] == PLANS_FORMAT == "toolshape.plans/4"
    assert data["planFormat"] == PLAN_FORMAT
    assert data["source"] == {
        "name": "example.openapi.json",
        "sha256": digest,
        "serverUrl": "https://api.example.com/v1",
        "servers": {},  # S26.11, S26.9: a 3.0 document names no server and titles no tag
        "tagTitles": {},
    }
    assert load_plans(json.dumps(data)).server_url == "https://api.example.com/v1"
    assert data["settings"] == {"style": "flat", "options": options.to_dict()}
    assert load_plans(json.dumps(data)).options == options
    with pytest.raises(ValueError, match="64 lower-case hex digits"):
        dump_plans(result, sha256="abc")


def test_shared_definitions_are_written_once_and_shared_again_when_loaded() -> None:
    """Every `$defs` entry the plans share is one object in memory and one entry in the file;
    loaded plans share them again (Kubernetes' slice)."""
    document = json.loads((SLICE / "kubernetes-core-v1.json").read_text(encoding="utf-8"))
    result = plan_document(document, style="flat", source="kubernetes-core-v1.json")
    data = dump_plans(result)
    loaded = load_plans(json.dumps(data))
    same_result(loaded, result)
    shared: dict[str, list[int]] = {}
    for tool in loaded.tools:
        for name, entry in tool._input.get("$defs", {}).items():
            shared.setdefault(name, []).append(id(entry))
    assert shared, "the document's tools use definitions"
    assert all(len(set(ids)) == 1 for ids in shared.values())
    assert max(len(ids) for ids in shared.values()) > 1


@pytest.mark.corpus
def test_a_plans_file_is_smaller_than_its_plans_one_by_one() -> None:
    """Writing shared definitions once makes OpenAI's whole document's plans file less than
    half the size of its plan data one by one (2.6 times smaller; Stripe: 30 times)."""
    document = json.loads(corpus_file("openai.json").read_text(encoding="utf-8"))
    result = plan_document(document, style="flat", source="openai.json")
    one_by_one = sum(len(json.dumps(tool.to_dict())) for tool in result.tools)
    assert len(json.dumps(dump_plans(result))) * 2 < one_by_one


THING = "#/components/schemas/Thing"
#: `Thing` and `Tag` as the request sees them (S16.6: `readOnly` left out) are other objects
#: than as the answer does, under the same names.
VIEWS = {
    "openapi": "3.1.0",
    "info": {"title": "views", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "operationId": "makeThing",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": THING}}},
                },
                "responses": {
                    "200": {
                        "description": "made",
                        "content": {"application/json": {"schema": {"$ref": THING}}},
                    }
                },
            }
        }
    },
    "components": {
        "schemas": {
            "Thing": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "readOnly": True},
                    "tag": {"$ref": "#/components/schemas/Tag"},
                },
            },
            "Tag": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "readOnly": True},
                    "label": {"type": "string"},
                },
            },
        }
    },
}


def test_a_defs_group_names_keys_that_are_not_their_names() -> None:
    """Two objects of one name are two definitions (`Tag`, `Tag~2`); a schema's `$defs` is a
    group's index all the same, the group an object of name -> key, and the loaded plan is
    the planned one (S15.1)."""
    result = plan_document(VIEWS)
    data = dump_plans(result)
    (tool,) = data["tools"]
    groups = [data["defsGroups"][tool[field]["$defs"]] for field in ("inputSchema", "outputSchema")]
    assert {"Tag", "Tag~2"} <= data["definitions"].keys()
    assert {"Tag": "Tag~2"} in groups
    assert ["Tag"] in groups
    loaded = load_plans(json.dumps(data))
    same_result(loaded, result)
    assert loaded.tools[0].output_schema == result.tools[0].output_schema
    at = data["defsGroups"].index({"Tag": "Tag~2"})
    data["defsGroups"][at] = {"Tag": "Tag~3"}
    with pytest.raises(PlanDataError, match="names 'Tag~3', which is no definition") as caught:
        load_plans(json.dumps(data))
    assert caught.value.field == f"defsGroups.{at}"


def test_loaded_plans_hand_out_copies_and_stay_unchanged() -> None:
    """S15.2 holds for loaded plans: what a caller does to a returned schema changes nothing,
    also for the definitions the plans share."""
    document = json.loads((SLICE / "openai.json").read_text(encoding="utf-8"))
    loaded = load_plans(file_text(plan_document(document, style="flat")))
    tool = next(t for t in loaded.tools if t.input_schema.get("$defs"))
    before = [t.to_dict() for t in loaded.tools]
    schema = tool.input_schema
    for entry in schema["$defs"].values():
        if isinstance(entry, dict):
            entry.clear()
    assert [t.to_dict() for t in loaded.tools] == before


# -- the round-trip law: a loaded plan routes every call like the plan it came from --------


def loading(source: Any) -> Any:
    """What loading a plans file (text or parsed data) ends in, as comparable data: each
    tool's plan data (its schemas checked first, S15.1) or refusal, or the file's refusal."""

    def each_tool() -> list[Any]:
        return [outcome(tool.to_dict) for tool in load_plans(source).tools]

    return outcome(each_tool)


#: Any JSON Schema validator checks a plans file's structure by `PLANS_SCHEMA`.
PLANS_VALIDATOR = Draft202012Validator(PLANS_SCHEMA)


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_documents())
def test_round_trip_law_over_the_corpus(path: Path) -> None:
    """For every corpus tool in both styles, the plan loaded from the file routes every
    generated call exactly like the plan it came from: the same request, or the same error
    (S15.1). Calls are generated from each tool's own advertised schema: two per tool, more
    for a small document, so both ways are exercised."""
    rng = random.Random(path.stem)
    requests = refusals = 0
    for style in ("flat", "nested"):
        result = corpus_plans(path, style)
        text = file_text(result)
        assert PLANS_VALIDATOR.is_valid(json.loads(text))
        loaded = load_plans(text)
        # Every tool's plan data, and the rest of the result: the file each would write.
        assert dump_plans(loaded) == dump_plans(result)
        per_tool = max(2, 80 // max(1, len(result.tools)))
        for original, copy in zip(result.tools, loaded.tools, strict=True):
            for arguments in calls_for(original.input_schema, rng, per_tool):
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
        (lambda d: d.update(format="toolshape.plans/1"), "format"),  # everything inline
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
        (lambda d: d["routes"][0].update({"in": "evil"}), "routes.0.in"),
        (lambda d: d["routes"].__setitem__(4, []), "routes.4"),
        (lambda d: d["routes"][0].update(style="form"), "routes.0.style"),  # not in a path
        (lambda d: d["tools"][1]["parameters"].append(7), "tools.1.parameters.1"),
        (lambda d: d["tools"][1]["parameters"].append(-1), "tools.1.parameters.1"),
        (lambda d: d["tools"][1]["parameters"].append(True), "tools.1.parameters.1"),
        (lambda d: d["tools"][1]["parameters"].append(0.0), "tools.1.parameters.1"),
        (lambda d: d["tools"][1].update(parameters=0), "tools.1.parameters"),
        (lambda d: d["tools"][1].update(security=1), "tools.1.security"),
        (lambda d: d["tools"][1].update(security=[]), "tools.1.security"),
        (lambda d: d["securityRequirements"].append([]), "securityRequirements.1"),
        (lambda d: d["securityRequirements"][0].append({}), "securityRequirements.0.1"),
        (lambda d: d["profiles"][0].update(format="toolshape.plan/1"), "profiles.0.format"),
        (lambda d: d["profiles"][0].update(bodyRequired=1), "profiles.0.bodyRequired"),
        (lambda d: d["profiles"][0].update(binary=[]), "profiles.0.binary"),
        (lambda d: d["profiles"][0].update(fixed={}), "profiles.0.fixed"),
        (lambda d: d["profiles"][0].pop("style"), "profiles.0"),
        (lambda d: d["tools"][1].update(format="toolshape.plan/4"), "tools.1"),  # a profile's
        (lambda d: d["profiles"][0].update(name="x"), "profiles.0"),  # a tool's own
        (lambda d: d["tools"][1].update(profile=9), "tools.1.profile"),
        (lambda d: d["tools"][1].pop("profile"), "tools.1"),
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
    at = [tool.name for tool in result.tools].index(users[0].name)
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


def grouped(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The schemas of a file's tools whose `$defs` is a group's index, in the tools' order."""
    return [
        tool[field]
        for tool in data["tools"]
        for field in ("inputSchema", "nestedSchema", "bodyCheck", "outputSchema")
        if isinstance(tool[field], dict) and isinstance(tool[field].get("$defs"), int)
    ]


def first_key(group: list[str] | dict[str, str]) -> str:
    """The first `definitions` key a `$defs` group names (a list of keys, or names -> keys)."""
    return next(iter(group.values() if isinstance(group, dict) else group))


def with_defs(data: dict[str, Any], value: Any, *, last: bool = False) -> dict[str, Any]:
    """`data` whose first (or last) schema with a group's index as `$defs` has `value` there."""
    grouped(data)[-1 if last else 0]["$defs"] = value
    return data


@pytest.mark.parametrize("lazy", [True, False])
@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["defsGroups"].append(["no such definition"]),  # a group no schema names
        lambda d: d["defsGroups"][0].append("no such definition"),
        lambda d: d["definitions"].pop(first_key(d["defsGroups"][-1])),
        lambda d: with_defs(d, "Name"),
        lambda d: with_defs(d, True),
        lambda d: with_defs(d, -1),
        lambda d: with_defs(d, len(d["defsGroups"])),
        lambda d: with_defs(d, {}),
        lambda d: with_defs(with_defs(d, -1, last=True), 999),  # two faults
    ],
)
def test_defs_are_spliced_from_text_as_from_parsed_data(
    change: Callable[[dict[str, Any]], Any], lazy: bool
) -> None:
    """S15.1: a file whose `$defs` groups or indices are wrong loads (or is refused) exactly
    as from parsed data — the first fault named, whatever the fault — and each tool's plan
    data (its schemas checked first when loaded lazily) is the same or refused alike."""
    data = json.loads(file_text(example("flat")))
    assert len(grouped(data)) > 1
    change(data)

    def each_tool(result: PlanResult) -> list[Any]:
        return [outcome(tool.to_dict) for tool in result.tools]

    loaded = outcome(lambda: each_tool(load_plans(json.dumps(data), lazy=lazy)))
    assert loaded == outcome(lambda: each_tool(load_plans(data, lazy=lazy)))
    if loaded[0] == "request":
        loaded = ("request", load_plans(json.dumps(data), lazy=lazy))
        from_data = load_plans(data, lazy=lazy).tools
        for tool, same in zip(loaded[1].tools, from_data, strict=True):
            assert outcome(partial(tool.call, {})) == outcome(partial(same.call, {}))


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
    ["", "not json", "[]", "{" * 100_000, '{"format": "toolshape.plans/4"}', "1" * 5000],
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
    assert status == 1  # the fixture has a tool that can't be planned flat (its JSON one; S17.9)
    assert len(loaded.errors) == 1
    assert loaded.source == str(SHOP)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["source"]["sha256"] == hashlib.sha256(SHOP.read_bytes()).hexdigest()
    assert f"wrote {out} (toolshape.plans/4): {len(loaded.tools)} tools, 1 errors" in err.getvalue()
    from toolshape._load import parse_document

    document = parse_document(SHOP.read_text(encoding="utf-8"), str(SHOP))
    same_result(loaded, plan_document(document, style="flat", source=str(SHOP)))


# -- totality: any file ends in plans or a PlanDataError, any call in a result or own error -


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), GARBAGE, st.booleans())
def test_a_mutated_file_loads_and_serves_totally(seed: int, value: Any, lazy: bool) -> None:
    """S14.4 for plans files: one random place of a real file changed — a value replaced, a
    keyword set, a key dropped — and the file either is refused (`PlanDataError`) or loads, and
    then every tool's definition, calls and answers end in a result or the library's own
    error (a lazily loaded tool's schemas checked before its definition leaves it, S15.1)."""
    rng = random.Random(seed)
    data = mutate(json.loads(MUTABLE), rng, value)
    try:
        result = load_plans(json.dumps(data), lazy=lazy)
    except PlanDataError:
        return
    except (TypeError, ValueError):  # `value` itself is not JSON (NaN is, for json.dumps)
        return
    for tool in result.tools:
        with contextlib.suppress(PlanDataError):
            tool.to_mcp_tool()
        for arguments in ({}, {"storeId": "s", "query": "q", "x-tenant": "t", "name": "n"}):
            with contextlib.suppress(ToolshapeError):
                tool.call(arguments)
        with contextlib.suppress(ToolshapeError):
            tool.result(200, [("content-type", "application/json")], b'{"name": "n"}')


MUTABLE = file_text(example("flat"))


def repeating_document() -> dict[str, Any]:
    """A document whose operations repeat their parameters and security (as an API's do)."""
    operation = {
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
            {"name": "q", "in": "query", "style": "pipeDelimited", "schema": {"type": "array"}},
        ],
        "security": [{"key": []}, {"basic": [], "oauth": []}],
        "responses": {"200": {"description": "ok"}},
    }
    return {
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


def repeating() -> dict[str, Any]:
    """A plans file whose tools repeat their routes and security schemes (as an API's do)."""
    return dump_plans(plan_document(repeating_document(), style="flat"))


REPEATING = json.dumps(repeating())


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_a_written_file_is_valid_against_plans_schema(style: str) -> None:
    """S15.1: `PLANS_SCHEMA` describes the whole file — envelope, tool entries, routes,
    security requirements, profiles — so any JSON Schema validator can check one; a file with
    a tampered entry of each kind is invalid to it as `load_plans` refuses it."""
    Draft202012Validator.check_schema(PLANS_SCHEMA)
    validator = PLANS_VALIDATOR
    for data in (json.loads(file_text(example(style))), repeating()):
        assert list(validator.iter_errors(data)) == []
    tampered: list[Callable[[dict[str, Any]], Any]] = [
        lambda d: d["tools"][0].update(profile="0"),
        lambda d: d["tools"][0].update(method="get"),
        lambda d: d["routes"][0].update({"in": "evil"}),
        lambda d: d["securityRequirements"].append([]),
        lambda d: d["profiles"][0].pop("style"),
        lambda d: d["profiles"][0]["fixed"].append({"name": "x"}),
    ]
    for change in tampered:
        data = repeating()
        change(data)
        assert not validator.is_valid(data)
        with pytest.raises(PlanDataError):
            load_plans(json.dumps(data))


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_the_fast_path_proves_a_written_file_without_asking_jsonschema(style: str) -> None:
    """S15.1: the compiled check of `PLANS_SCHEMA` accepts every file as written, and that
    of `PLAN_SCHEMA` every plan's data (a check that raised or refused would leave loading
    correct but slow: jsonschema would decide)."""
    from toolshape.plansfile._file import _judge
    from toolshape.plansfile._format import _plan_judge

    fast, fast_plan = _judge().fast, _plan_judge().fast
    assert fast is not None
    assert fast_plan is not None
    for data in (json.loads(file_text(example(style))), repeating()):
        assert fast(data) is True
    for plan in example(style).tools:
        assert fast_plan(plan.to_dict()) is True


def test_what_the_tools_repeat_is_written_once_and_named_by_index() -> None:
    """S15.1: each distinct route, security requirement and profile (the fields of plan data
    tools repeat) is written once; a tool's entry holds its own fields, names the others by
    index, and is its plan data with those indices resolved."""
    result = plan_document(repeating_document(), style="flat")
    data = repeating()
    assert len(data["tools"]) == 3
    assert len(data["routes"]) == 3  # each tool's id, X-Trace and q: the same three
    assert data["securityRequirements"] == [result.tools[0].to_dict()["security"]]
    assert data["profiles"] == [{f: result.tools[0].to_dict()[f] for f in PROFILE_FIELDS}]
    for tool, entry in zip(result.tools, data["tools"], strict=True):
        assert (entry["parameters"], entry["security"], entry["profile"]) == ([0, 1, 2], 0, 0)
        assert not set(PROFILE_FIELDS) & set(entry)
        assert plan_data(data, entry) == tool.to_dict()


#: The fields of plan data a plans file writes once per distinct combination (`profiles`).
PROFILE_FIELDS = ("format", *(f.key for f in SHARED_FIELDS))
#: The fields of plan data a tool's entry holds itself.
OWN_FIELDS = frozenset(f.key for f in OWN)


def plan_data_problem(data: dict[str, Any]) -> PlanDataError | None:
    """What the plan-data check (`Plan.from_dict`'s) refuses, if anything."""
    try:
        check_plan_data(data)
    except PlanDataError as error:
        return error
    return None


def plan_data(data: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """A tool entry of a plans file as plan data: its routes and requirement resolved."""
    own = {name: value for name, value in entry.items() if name != "profile"}
    return {
        **data["profiles"][entry["profile"]],
        **own,
        "parameters": [data["routes"][i] for i in entry["parameters"]],
        "security": data["securityRequirements"][entry["security"]],
    }


#: Values a route or scheme field may hold that are valid alone but not everywhere.
PLAUSIBLE = st.sampled_from(
    [
        *("matrix", "form", "label", "simple", "deepObject", "spaceDelimited", "Host", "a b"),
        *("header", "cookie", "query", "path", "apiKey", "http", "bearer", "authorization", None),
    ]
)


def refused_in_plan_data(data: dict[str, Any], field: str, index: int) -> PlanDataError:
    """What the plan-data check (`Plan.from_dict`'s) says of the first tool whose `field`
    (`parameters` or `security`) names entry `index` of its table."""
    entry = next(
        tool
        for tool in data["tools"]
        if index == tool[field] or (isinstance(tool[field], list) and index in tool[field])
    )
    error = plan_data_problem(plan_data(data, entry))
    assert error is not None
    return error


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"in": "header", "style": "form"}, "style"),
        ({"in": "header", "style": "simple", "name": "Host"}, "name"),
        ({"in": "cookie", "style": "form", "name": "a b"}, "name"),
    ],
)
def test_a_route_the_serving_rules_refuse_is_refused_in_its_table(
    change: dict[str, Any], field: str
) -> None:
    """S12.1, S12.2: a route written once for many tools is refused where its style or name
    can't be served, naming it in `routes` — as the plan-data check refuses it in a tool."""
    data = json.loads(REPEATING)
    data["routes"][0].update(change)
    error = loading(json.dumps(data))
    assert error == loading(data)
    assert error[0] == "PlanDataError"
    assert error[1]["field"] == f"routes.0.{field}"
    assert refused_in_plan_data(data, "parameters", 0).field == f"parameters.0.{field}"


def test_a_scheme_the_serving_rules_refuse_is_refused_in_its_table() -> None:
    """S18.1: an API-key scheme written once for many tools is refused where it would send a
    header the client owns, naming it in `securityRequirements`."""
    data = json.loads(REPEATING)
    (scheme,) = data["securityRequirements"][0][0]
    assert (scheme["in"], scheme["parameter"]) == ("header", "x-key")
    scheme["parameter"] = "Host"
    error = loading(json.dumps(data))
    assert error == loading(data)
    assert error[1]["field"] == "securityRequirements.0.0.0.parameter"
    assert refused_in_plan_data(data, "security", 0).field == "security.0.0.parameter"


@pytest.mark.parametrize(
    ("field", "value", "at"),
    [
        ("title", 0, "title"),  # an own field only a type decides
        ("inputSchema", [], "inputSchema"),
        ("method", "get", "method"),
        ("security", False, "security"),  # the index `0` to `==`, not to the format
        ("security", 0.0, "security"),  # an integer to JSON Schema, not an index
        ("profile", True, "profile"),
        ("profile", False, "profile"),  # names the one profile to `==`
        ("profile", 0.0, "profile"),
        ("parameters", [False], "parameters.0"),
        ("parameters", [0, 1.0], "parameters.1"),
    ],
)
def test_an_entry_field_of_another_type_is_refused(field: str, value: Any, at: str) -> None:
    """S15.1: in the last tool, a field whose value is equal to the others' to `==` but of
    another type, or is no index, is refused, naming the field."""
    data = json.loads(REPEATING)
    last = len(data["tools"]) - 1
    data["tools"][last][field] = value
    error = loading(json.dumps(data))
    assert error == loading(data)
    assert error[0] == "PlanDataError"
    assert error[1]["field"] == f"tools.{last}.{at}"


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
    """S15.1, S16.2: in the last tool, a hint the others hold with another type, or another
    hint, is refused, naming the hint; hints in another order are accepted."""
    data = json.loads(REPEATING)
    last = len(data["tools"]) - 1
    proven = data["tools"][0]["annotations"]
    assert proven
    assert all(tool["annotations"].keys() == proven.keys() for tool in data["tools"])
    data["tools"][last]["annotations"] = (
        {**proven, **annotations} if isinstance(annotations, dict) else annotations
    )
    error = loading(json.dumps(data))
    assert error == loading(data)
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
def test_a_file_is_loaded_alike_from_text_and_from_parsed_data(seed: int, value: Any) -> None:
    """S15.1: a file's tool entries are accepted and refused alike from its text and from its
    parsed data, naming the same field: a field changed, dropped or added, in any tool."""
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
    assert loading(text) == loading(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9),
    GARBAGE | PLAUSIBLE,
    st.sampled_from(["routes", "securityRequirements", "profiles"]),
)
@pinned(seed=79, value="header", table="routes")  # a route moved out of the tool's path
def test_a_table_entry_is_refused_as_the_plan_data_check_refuses_it(
    seed: int, value: Any, table: str
) -> None:
    """S15.1: an entry of a file's tables (a route, a security requirement), checked once
    whichever tools name it, is accepted and refused exactly as the plan-data check of a tool
    that uses it accepts and refuses it there, naming the same field inside it and why — from
    text and from parsed data alike."""
    rng = random.Random(seed)
    data = json.loads(REPEATING)
    index = rng.randrange(len(data[table]))
    data[table][index] = mutate(data[table][index], rng, value)
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):  # `value` itself is not JSON
        return
    loaded = loading(text)
    assert loaded == loading(data)
    if table == "profiles" and not (
        isinstance(data[table][index], dict) and OWN_FIELDS.isdisjoint(data[table][index])
    ):  # no plan data has it: a profile that is no object, or holds a tool's own field
        assert loaded[0] == "PlanDataError"
        assert loaded[1]["field"] == f"{table}.{index}"
        return
    if table == "routes":
        entry = next(t for t in data["tools"] if index in t["parameters"])
        at = f"parameters.{entry['parameters'].index(index)}"
    elif table == "securityRequirements":
        entry, at = next(t for t in data["tools"] if t["security"] == index), "security"
    else:  # a profile's fields are the plan data's own
        entry, at = next(t for t in data["tools"] if t["profile"] == index), ""
    error = plan_data_problem(plan_data(data, entry))
    if error is not None and not error.field.startswith(at):
        # the entry is fine alone, but not with the tool's own fields (a route moved out of
        # the path leaves a `{id}` no route fills): both name the tool's field
        assert loaded[0] == "PlanDataError"
        assert loaded[1]["field"] == f"tools.{data['tools'].index(entry)}.{error.field}"
        assert loaded[1]["message"].split("` ", 1)[1] == error.message.split("` ", 1)[1]
    elif error is not None:
        assert loaded[0] == "PlanDataError"
        inside = error.field.removeprefix(at).removeprefix(".")
        inside = "" if inside in ("", "(root)") else f".{inside}"
        assert loaded[1]["field"] == f"{table}.{index}{inside}"
        reason = (  # plan data words its format apart: `format is ...`
            error.message.removeprefix("not a toolshape plan: format ")
            if error.field == "format"
            else error.message.split("` ", 1)[1]
        )
        assert loaded[1]["message"].split("` ", 1)[1] == reason
    else:
        assert loaded[0] == "request"  # it loads


# -- every refusal planning makes, also when loading (S15.1) --------------------------------------

#: One tool: a path parameter, a query parameter, a header parameter, and an apiKey in `X-Key`.
SERVED: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
    "security": [{"key": []}],
    "paths": {
        "/things/{id}": {
            "get": {
                "operationId": "getThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
            }
        }
    },
}


def route_named(data: dict[str, Any], name: str) -> dict[str, Any]:
    route: dict[str, Any] = next(r for r in data["routes"] if r["name"] == name)
    return route


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (
            lambda d: route_named(d, "X-Trace").update(name="Authorization"),
            "routes.2.name",
            "a header the tool's content type or credentials own",
        ),
        (
            lambda d: route_named(d, "X-Trace").update(name="content-type"),
            "routes.2.name",
            "a header the tool's content type or credentials own",
        ),
        (
            lambda d: route_named(d, "id").update(name="key", argument="key"),
            "routes.0.name",
            "which has no `{key}` in the path",
        ),
        (
            lambda d: d["tools"][0].update(path="/things/{id}/{more}"),
            "tools.0.path",
            "has `{more}`, which no path route fills",
        ),
        (
            lambda d: route_named(d, "X-Trace").update(name="x-key"),
            "routes.2.name",
            "which a credential fills",
        ),
        (
            lambda d: d["tools"][0].update(path="//evil.example/{id}"),
            "tools.0.path",
            "starts with `//`, which names another host",
        ),
        (
            lambda d: d["profiles"][0].update(basePath="//evil.example"),
            "profiles.0.basePath",
            "starts with `//`, which names another host",
        ),
    ],
    ids=[
        "Authorization",
        "Content-Type",
        "a path route off the path",
        "a path variable unfilled",
        "a credential's header",
        "another host",
        "a base path to another host",
    ],
)
def test_a_plans_file_is_refused_what_planning_refuses(
    change: Callable[[dict[str, Any]], Any], field: str, reason: str
) -> None:
    """S15.1: loading applies every rule planning applies to a tool's routes — a header the
    content type or a credential owns, a path route and its `{variable}`, another host — so a
    tampered file can't send what planning would never have sent; refused by its place, from
    text and from parsed data alike."""
    data = json.loads(file_text(plan_document(SERVED, style="flat")))
    assert [r["name"] for r in data["routes"]] == ["id", "q", "X-Trace"]
    change(data)
    loaded = loading(json.dumps(data))
    assert loaded == loading(data)
    assert loaded[0] == "PlanDataError"
    assert loaded[1]["field"] == field
    assert reason in loaded[1]["message"]


def test_an_id_above_references_is_refused_before_it_judges_anything() -> None:
    """S1.2, S15.1: a schema with `$id` above references (which it would re-base) is refused —
    by the tool's first use when loaded lazily, at load otherwise."""
    data = json.loads(file_text(example("flat")))
    tool = next(t for t in data["tools"] if isinstance(t["inputSchema"].get("$defs"), int))
    tool["inputSchema"]["$id"] = "https://evil.example/schema"
    text = json.dumps(data)
    with pytest.raises(PlanDataError, match="has `\\$id` at `` above references it would re-base"):
        load_plans(text, lazy=False)
    lazily = next(t for t in load_plans(text).tools if t.name == tool["name"])
    with pytest.raises(PlanDataError, match="above references"):
        lazily.to_mcp_tool()


@pytest.mark.parametrize(
    "use",
    [
        lambda t: t.input_schema,
        lambda t: t.to_mcp_tool(),
        lambda t: t.to_dict(),
        hash,
        lambda t: __import__("pickle").dumps(t),
        lambda t: t == __import__("dataclasses").replace(t, description="another"),
    ],
    ids=["input_schema", "to_mcp_tool", "to_dict", "hash", "pickle", "equality"],
)
def test_a_lazily_loaded_schema_is_checked_before_anything_hands_it_out(use: Any) -> None:
    """S15.1, S14.4: a tool whose schema nests 300 levels deep (or reaches outside) never hands
    it out unchecked: every accessor — and hashing, equality and pickling, which write it —
    raises `PlanDataError` first, never `RecursionError` or the schema itself."""
    data = json.loads(file_text(example("flat")))
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(300):
        deep = {"properties": {"a": deep}}
    data["tools"][0]["inputSchema"]["properties"]["deep"] = deep
    (tool, *_) = load_plans(json.dumps(data)).tools
    with pytest.raises(PlanDataError, match="nested deeper than 128 schema levels"):
        use(tool)
