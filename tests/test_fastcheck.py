"""The compiled fast path (S13.3) agrees with jsonschema: never looser, and exact where it compiles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from jsonschema import validators

from tests.conftest import jsts_groups
from toolshape.model._json import equal
from toolshape.schema._fastcheck import compile_check
from toolshape.schema._validate import compile_schema

DRAFT7 = "http://json-schema.org/draft-07/schema#"


def declared(schema: Any, path: Path) -> Any:
    if "draft7" in path.parts and isinstance(schema, dict) and "$schema" not in schema:
        return {"$schema": DRAFT7, **schema}
    return schema


def verdict(schema: Any, data: Any) -> bool | None:
    """jsonschema's own verdict, or None when it can't give one (remote references, ...)."""
    try:
        return bool(
            validators.validator_for(schema, default=validators.Draft202012Validator)(
                schema
            ).is_valid(data)
        )
    except Exception:
        return None


def suite() -> list[Any]:
    """Every group of the suite (`TOOLSHAPE_JSTS`), optional/ included."""
    return jsts_groups("draft2020-12", "draft7", recursive=True)


@pytest.mark.parametrize(("path", "group"), suite())
def test_fast_path_agrees_with_jsonschema_on_the_suite(path: Path, group: dict[str, Any]) -> None:
    """Where a suite schema compiles, the predicate equals jsonschema's verdict on every instance."""
    schema = declared(group["schema"], path)
    fast = compile_check(schema)
    if fast is None:
        pytest.skip("the fast path does not compile this schema: jsonschema alone judges it")
    for test in group["tests"]:
        truth = verdict(schema, test["data"])
        if truth is None:
            continue
        try:
            result: bool | None = fast(test["data"])
        except Exception:
            result = None  # the caller falls back to jsonschema
        assert result is None or result == truth, test["description"]


def test_most_suite_schemas_compile() -> None:
    """The fast path covers the common keywords: at least 70% of the suite's groups compile."""
    groups = [(p.values[0], p.values[1]) for p in suite() if p.values[0] is not None]
    if not groups:
        pytest.skip(
            "set TOOLSHAPE_JSTS to the JSON-Schema-Test-Suite to run this (tests/data/SOURCES.md)"
        )
    compiled = [g for path, g in groups if compile_check(declared(g["schema"], path)) is not None]
    assert len(compiled) >= 0.7 * len(groups), (len(compiled), len(groups))


@pytest.mark.parametrize(
    ("one", "two", "same"),
    [
        (1, 1.0, True),
        (True, 1, False),
        (False, 0, False),
        ([1, True], [1.0, True], True),
        ({"a": [0]}, {"a": [False]}, False),
        ("1", 1, False),
    ],
)
def test_equality_is_json_equality(one: Any, two: Any, same: bool) -> None:
    """enum / const / uniqueItems compare as JSON: `true` is not `1`, `1` is `1.0`."""
    assert equal(one, two) is same


@pytest.mark.parametrize(
    ("items", "distinct"),
    [
        (["a", "a", 1], False),  # text and integers together: a set of them decides
        (["a", 1, "1"], True),
        ([1, 2, 1], False),
        ([1, True], True),  # JSON's true is not 1
        ([1, 1.0], False),  # 1 is 1.0
        ([0, False, 0.0], False),
        ([[1], [True]], True),
        ([{"a": 1}, {"a": 1.0}], False),
        ([], True),
    ],
)
def test_unique_items_is_json_uniqueness(items: list[Any], distinct: bool) -> None:
    """S13.3: uniqueItems — the fast path's verdict is jsonschema's, wherever the set of the
    items' classes sends it."""
    schema = {"uniqueItems": True}
    fast = compile_check(schema)
    assert fast is not None
    assert verdict(schema, items) is distinct
    assert fast(items) is distinct


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 2),
        st.sampled_from([0.0, 1.0, 1.5]),
        st.text("ab", max_size=2),
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("ab", max_size=1), inner, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, JSON_VALUES, st.lists(JSON_VALUES, max_size=5))
@example(1, True, [1, True])
@example([0], [False], [[0], [False], {"a": 1.0}, {"a": 1}])
@example({"a": 1}, {"a": 1.0}, [1.0, 1])
def test_equality_and_the_vendored_uniq_decide_as_jsonschema_does(
    one: Any, two: Any, items: list[Any]
) -> None:
    """The equality toolshape shares with the helper vendored from jsonschema, and that
    helper, decide equality and uniqueness as jsonschema's public validators do (`const`,
    `uniqueItems`)."""
    from toolshape.model._json import equal
    from toolshape.schema._jsonschema_utils import uniq

    assert equal(one, two) is validators.Draft202012Validator({"const": one}).is_valid(two)
    assert uniq(items) is validators.Draft202012Validator({"uniqueItems": True}).is_valid(items)


def test_generated_source_is_registered_for_tracebacks() -> None:
    """A compiled fast path's source is in `linecache` under its code's file name, so a
    traceback or a debugger shows the generated code (as attrs does)."""
    import linecache

    check = compile_check({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert check is not None
    name = check.__code__.co_filename
    assert name.startswith("<toolshape fast path ")
    source = "".join(linecache.getlines(name))
    assert source.startswith("def ")
    assert check.__code__.co_name in source


SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, 2.5]),
    st.sampled_from(["", "a", "ab", "b1"]),
)
JSON = st.recursive(
    SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3)
    ),
    max_leaves=8,
)
TYPES = st.sampled_from(["null", "boolean", "integer", "number", "string", "array", "object"])


def schemas() -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.booleans(),
        st.fixed_dictionaries({"type": TYPES | st.lists(TYPES, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"enum": st.lists(JSON, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"const": JSON}),
        st.fixed_dictionaries({"minimum": st.integers(-2, 2)}),
        st.fixed_dictionaries({"exclusiveMaximum": st.sampled_from([0, 1.5, 3])}),
        st.fixed_dictionaries({"multipleOf": st.sampled_from([1, 2, 0.5])}),
        st.fixed_dictionaries(
            {"minLength": st.integers(0, 2), "pattern": st.sampled_from(["^a", "[0-9]", "b$"])}
        ),
        st.fixed_dictionaries(
            {"required": st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True)}
        ),
        st.fixed_dictionaries({"minItems": st.integers(0, 2), "uniqueItems": st.booleans()}),
        st.fixed_dictionaries({"maxProperties": st.integers(0, 2)}),
    )

    def compose(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.fixed_dictionaries(
                {"properties": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)},
                optional={
                    "additionalProperties": inner,
                    "patternProperties": st.dictionaries(
                        st.sampled_from(["^c", "b"]), inner, max_size=1
                    ),
                    # beside `properties`: read without asking once checked (more than three
                    # names are asked for as one set)
                    "required": st.lists(
                        st.sampled_from(["a", "b", "c", "d"]), max_size=4, unique=True
                    ),
                },
            ),
            st.fixed_dictionaries(
                {"items": inner},
                optional={"prefixItems": st.lists(inner, max_size=2), "contains": inner},
            ),
            st.fixed_dictionaries({"anyOf": st.lists(inner, min_size=1, max_size=3)}),
            st.fixed_dictionaries({"oneOf": st.lists(inner, min_size=1, max_size=3)}),
            st.fixed_dictionaries({"allOf": st.lists(inner, min_size=1, max_size=2)}),
            st.fixed_dictionaries({"not": inner}),
            st.fixed_dictionaries({"if": inner}, optional={"then": inner, "else": inner}),
            st.fixed_dictionaries(
                {"propertyNames": inner, "dependentRequired": st.just({"a": ["b"]})}
            ),
            st.fixed_dictionaries(
                {
                    "dependentSchemas": st.dictionaries(
                        st.sampled_from(["a", "b"]), inner, max_size=1
                    )
                }
            ),
            st.fixed_dictionaries(
                {"$ref": st.just("#/$defs/node"), "$defs": st.fixed_dictionaries({"node": inner})}
            ),
        )

    return st.recursive(leaf, compose, max_leaves=6)


@settings(max_examples=600, deadline=None)
@given(schemas(), st.lists(JSON, min_size=1, max_size=5), st.sampled_from([None, DRAFT7]))
def test_fast_path_equals_jsonschema_on_generated_schemas(
    schema: Any, instances: list[Any], dialect: str | None
) -> None:
    """Generated schemas and instances: the predicate is jsonschema's verdict, or there is none."""
    if dialect and isinstance(schema, dict):
        schema = {"$schema": dialect, **schema}
    fast = compile_check(schema)
    if fast is None:
        event("not compiled: jsonschema alone judges it")
        return  # hypothesis counts these (event); the suite test above names them one by one
    for instance in instances:
        truth = verdict(schema, instance)
        if truth is not None:
            assert fast(instance) == truth, (schema, instance)


#: S14.3: values where a comparison's "invalid" is not the negation of "valid" (NaN), where
#: arithmetic overflows (huge integers, infinities), and JSON's 1 / 1.0 / true.
SPECIAL = [
    float("nan"),
    float("inf"),
    float("-inf"),
    10**400,
    -(10**400),
    2**53 + 1,
    1e308,
    1,
    1.0,
    True,
    0,
    0.0,
    False,
]
#: Wrapped schemas must keep their references: those that resolve from the root are left alone.
_ROOTED = (
    '"$ref"',
    '"$id"',
    '"$defs"',
    '"definitions"',
    '"$dynamicRef"',
    '"$anchor"',
    '"$recursive',
)


def wrapped(schema: Any) -> list[Any]:
    """`schema`, and `schema` under `not`, `if`/`then`/`else`, `oneOf`, and each doubly negated."""
    out = [schema]
    if any(k in json.dumps(schema) for k in _ROOTED):
        return out
    for outer in (
        {"not": schema},
        {"if": schema, "then": {"const": "T"}, "else": {"const": "E"}},
        {"oneOf": [schema, {"not": schema}]},
    ):
        out.extend([outer, {"not": outer}])
    return out


def special_instances(group: dict[str, Any]) -> list[Any]:
    values: list[Any] = [test["data"] for test in group["tests"]]
    values += SPECIAL + [[v] for v in SPECIAL] + [[v, v] for v in SPECIAL]
    values += [{"foo": v} for v in SPECIAL] + [{"foo": v, "bar": v} for v in SPECIAL]
    return values


@pytest.mark.parametrize(("path", "group"), suite())
def test_fast_path_agrees_under_negation_with_special_numbers(
    path: Path, group: dict[str, Any]
) -> None:
    """S14.3: under `not`, `if` and `oneOf` (where "invalid" counts as much as "valid") and on
    NaN, ±Infinity, huge integers and 1/1.0/true, the predicate never differs from the judge:
    jsonschema's own verdict, made total where it raises (`_validate`)."""
    compiled = 0
    for schema in wrapped(declared(group["schema"], path)):
        fast = compile_check(schema)
        if fast is None:
            continue
        compiled += 1
        judge = compile_schema(schema)
        for instance in special_instances(group):
            try:
                truth: bool | None = bool(judge.is_valid(instance))
            except Exception:
                truth = None  # the caller rejects such a call (`check`)
            try:
                result: bool | None = fast(instance)
            except Exception:
                result = None
            if result is not None:
                assert result == truth, (schema, instance)
    if not compiled:
        pytest.skip("the fast path does not compile this schema: jsonschema alone judges it")


HOSTILE = ['"""', "'''", "\nimport os\n", "__import__('os').system('x')", "\\", "{x}", "\x00"]


def test_hostile_names_never_enter_the_generated_source() -> None:
    """S14.4: document text reaches the generated fast path only through its namespace: names,
    patterns, constants and enum values with quotes, newlines or code in them are nowhere in
    the source, and the predicate judges them as jsonschema does."""
    import linecache

    schema = {
        "type": "object",
        "properties": {text: {"const": text} for text in HOSTILE},
        "required": HOSTILE[:2],
        "patternProperties": {"^" + HOSTILE[3].replace("(", "\\(").replace(")", "\\)"): {}},
        "additionalProperties": {"enum": HOSTILE},
    }
    check = compile_check(schema)
    assert check is not None
    source = "".join(linecache.getlines(check.__code__.co_filename))
    assert source
    for text in HOSTILE:
        assert text.strip() not in source, text
    valid = {text: text for text in HOSTILE}
    assert check(valid) is verdict(schema, valid) is True
    invalid = {**valid, '"""': "other"}
    assert check(invalid) is verdict(schema, invalid) is False


def test_the_fast_check_is_a_backend_the_judge_can_do_without() -> None:
    """S13.3: `Judge` is the one seam callers ask; with `fast=False` jsonschema alone judges,
    with the same verdicts and words."""
    from toolshape.schema._validate import Judge

    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    quick, plain = Judge(schema), Judge(schema, fast=False)
    assert quick.fast is not None
    assert plain.fast is None
    values: list[Any] = [{"a": 1}, {"a": "x"}, {}, [], {"a": None}]
    for value in values:
        assert quick.problems(value) == plain.problems(value)
        assert quick.first(value) == plain.first(value)
