"""S15.1: plan data is input like any document — what is not a plan this version can serve is
refused by `Plan.from_dict` with a `PlanDataError` naming the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from tests.conftest import STORE_BODY, make_document
from toolshape import PLAN_FORMAT, PLAN_SCHEMA, Plan, PlanDataError, PlanError, plan_operation


def store_plan() -> Plan:
    (plan,) = plan_operation(
        make_document(STORE_BODY), "/stores/{storeId}/search", "post", style="flat"
    )
    return plan


def tampered(change: Callable[[dict[str, Any]], Any]) -> PlanDataError:
    data = json.loads(json.dumps(store_plan().to_dict()))
    change(data)
    with pytest.raises(PlanDataError) as caught:
        Plan.from_dict(data)
    return caught.value


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(body="bogus"), "body"),
        (lambda d: d.update(inputSchema=[]), "inputSchema"),
        (lambda d: d["parameters"][0].update({"in": "evil"}), "parameters.0.in"),
        (lambda d: d.update(method="GET\r\nX-Evil: 1"), "method"),
        (lambda d: d.update(contentType="application/json\r\nX-Evil: 1"), "contentType"),
        (lambda d: d.update(path="https://evil.example/x"), "path"),
        (lambda d: d.update(path="/a\r\nb"), "path"),
        # A final newline too: a bare `$` in a pattern lets it by in Python.
        (lambda d: d.update(path="/a\n"), "path"),
        (lambda d: d.update(name="tool\n"), "name"),
        (lambda d: d.update(contentType="application/json\n"), "contentType"),
        (
            lambda d: d.update(encoding={"a": {"contentType": "text/plain\n"}}),
            "encoding.a.contentType",
        ),
        (lambda d: d["parameters"][2].update(name="X Tenant"), "parameters.2.name"),
        (lambda d: d["parameters"][2].update(name="Host"), "parameters.2.name"),
        (lambda d: d["parameters"][0].update(style="deepObject"), "parameters.0.style"),
        (lambda d: d.update(extra=1), "(root)"),
        (lambda d: d.pop("nestedSchema"), "(root)"),
        (
            lambda d: d["inputSchema"]["properties"].update(q={"$ref": "file:///etc/passwd"}),
            "inputSchema",
        ),
        (lambda d: d["inputSchema"]["properties"].update(q={"minimum": "5"}), "inputSchema"),
        (
            lambda d: d["nestedSchema"].update(
                {"$schema": "http://json-schema.org/draft-03/schema#"}
            ),
            "nestedSchema",
        ),
        (lambda d: d.update(bodyCheck=5), "bodyCheck"),
    ],
)
def test_data_that_is_not_a_servable_plan_names_its_field(
    change: Callable[[dict[str, Any]], Any], field: str
) -> None:
    """S15.1: every tampered field is refused, and the error says which."""
    error = tampered(change)
    assert error.field == field
    assert error.message.startswith(f"not a toolshape plan: `{field}`")
    assert isinstance(error, PlanError)  # callers catching PlanError keep working


def test_another_format_version_says_how_to_rebuild() -> None:
    """S15.1: a plan of another format version is refused with the way out."""
    error = tampered(lambda d: d.update(format="toolshape.plan/0"))
    assert error.field == "format"
    assert "plan the document again with this version of toolshape" in error.message


@pytest.mark.parametrize("data", [None, [], "plan", 5])
def test_data_that_is_not_a_mapping_is_refused(data: Any) -> None:
    """S15.1, S14.4: anything at all gives a PlanDataError, never another exception."""
    with pytest.raises(PlanDataError):
        Plan.from_dict(data)


def test_a_deep_schema_in_plan_data_is_refused() -> None:
    """S14.4: loaded schemas are held to the planning bounds."""
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(200):
        deep = {"properties": {"a": deep}}
    error = tampered(lambda d: d["inputSchema"]["properties"].update(q=deep))
    assert error.field == "inputSchema"
    assert "nested deeper than 128 schema levels" in error.message


def test_the_shipped_schema_file_is_the_format() -> None:
    """S15.1: `toolshape/data/plan.schema.json` is `PLAN_SCHEMA`, for tools outside Python."""
    text = (
        resources.files("toolshape")
        .joinpath("data")
        .joinpath("plan.schema.json")
        .read_text("utf-8")
    )
    assert json.loads(text) == PLAN_SCHEMA
    assert PLAN_SCHEMA["properties"]["format"] == {"const": PLAN_FORMAT}


def test_a_planned_plan_satisfies_its_own_format() -> None:
    """S15.1: what `to_dict` writes is exactly what `from_dict` takes back."""
    plan = store_plan()
    assert Plan.from_dict(json.loads(json.dumps(plan.to_dict()))) == plan


def test_a_loaded_plan_is_the_same_as_a_subclass_of_it() -> None:
    """S15.1: a plan loaded from its data, and one loaded through a subclass, are equal to the
    plan the data came from, field by field, and route alike."""
    from dataclasses import fields

    plan = store_plan()
    data = json.loads(json.dumps(plan.to_dict()))

    class Mine(Plan):
        __slots__ = ()

    built = [Plan.from_dict(data), Mine.from_dict(data)]
    assert [type(b) for b in built] == [Plan, Mine]
    for loaded in built:
        for f in fields(Plan):
            if f.compare:  # not the caches (text, engine)
                assert getattr(loaded, f.name) == getattr(plan, f.name), f.name
        arguments = {"storeId": "s1", "query": "q", "x-tenant": "t"}
        assert loaded.call(arguments) == plan.call(arguments)
