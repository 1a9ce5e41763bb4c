"""The generated router of flat calls (`_fastroute`): a fast path that must serve every call
exactly as the general way does (S12, S13, S14.2, S17, S18), or decline it.

Each test compares the lane (the generated function: fast check, routing, request) with the
call engine's general way on the same plan (`general`, the lane switched off): the same
request, or the same error. Where the lane is meant to decline a call (a value it does not
serialize itself, a refusal, an argument the general router renames), the table says so, so a
lane that stops declining fails the test too.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.calls import calls_for, outcome
from tests.conftest import corpus_documents, corpus_plans, make_document, only_path
from tests.test_laws import planned_calls
from toolshape import ArgumentError, Options, Plan, Request, plan_operation
from toolshape._encode import _deep_scalars, _field
from toolshape._engine import Engine
from toolshape._fastroute import _encoded, _Source
from toolshape._query import SCALAR_SAFE, percent

STRING = {"type": "string"}


def tool(doc: dict[str, Any], style: str = "flat", **kw: Any) -> Plan:
    path = only_path(doc)
    (only,) = plan_operation(doc, path, next(iter(doc["paths"][path])), style=style, **kw)
    return only


def general(plan: Plan) -> Engine:
    """The plan's call engine with the lane off: every call the general way."""
    engine = Engine(plan)
    engine.call = engine.general
    return engine


def declined(arguments: Any, headers: Any, credentials: Any) -> Any:
    """The general way of an entry compiled to show what its lane alone makes of a call."""
    return None


def lane(plan: Plan) -> Callable[[Any, Any, Any], Any] | None:
    """The plan's lane alone (its compiled entry, declining what it does not serve), or None
    where the plan has no lane."""
    engine = Engine(plan)
    if engine.call == engine.general:
        return None  # no lane: `legacy` validates per channel (S13.5)
    return engine._compile_entry(declined)  # None: no fast check, or fixed arguments (S18.4)


def lane_request(plan: Plan, arguments: Any, **kw: Any) -> Request | None:
    """What the lane alone makes of a call: its request, or None where it declines."""
    return lane_call(lane(plan), arguments, **kw)


def lane_call(
    entry: Callable[[Any, Any, Any], Any] | None, arguments: Any, **kw: Any
) -> Request | None:
    """What the lane `entry` alone makes of a call: its request, or None where it declines."""
    if entry is None:
        return None
    try:
        request: Request | None = entry(arguments, kw.get("headers"), kw.get("credentials"))
    except Exception:  # credentials no alternative accepts: the general way raises too
        return None
    return request


def same_as_general(plan: Plan, arguments: Any, **kw: Any) -> Request | None:
    """Assert the lane and the whole call agree with the general way; the lane's request."""
    expected = outcome(
        partial(general(plan).call, arguments, kw.get("headers"), kw.get("credentials"))
    )
    assert outcome(partial(plan.call, arguments, **kw)) == expected
    fast = lane_request(plan, arguments, **kw)
    if fast is not None:
        assert ("request", fast) == expected
    return fast


def param(name: str, where: str, schema: Any = None, **kw: Any) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "schema": schema or STRING,
        **kw,
    }


OPEN_BODY = {"type": "object", "properties": {"note": STRING}}
CLOSED_BODY = {
    **OPEN_BODY,
    "properties": {"query": STRING, "note": STRING},
    "additionalProperties": False,
}
WRAP = {"options": Options(on_unflattenable="wrap")}
BINARY_BODY = {
    "type": "object",
    "properties": {"file": {"type": "string", "contentEncoding": "base64"}, "note": STRING},
}


def case(what: str, doc: dict[str, Any], call: dict[str, Any], served: bool, **kw: Any) -> Any:
    """One row: the document, the call, whether the lane serves it itself, planning options."""
    return pytest.param(doc, call, served, kw, id=what)


def params(*declared: dict[str, Any], path: str | None = None) -> dict[str, Any]:
    return make_document(None, list(declared), path=path)


FORM = {
    "type": "object",
    "properties": {"a": STRING, "m": {"type": "object"}, "l": {"type": "array"}},
}
DEEP_FORM = {
    "type": "object",
    "properties": {
        "a": STRING,
        "n": {"type": ["number", "null"]},
        "m": {
            "anyOf": [
                {"type": "object", "properties": {"line1": STRING, "a[b": STRING}},
                {"type": "string"},
            ]
        },
        "l": {"type": "array"},
        "j": {"type": "object"},
        "r": STRING,
    },
    "additionalProperties": False,
}
ENCODING = {
    "m": {"style": "deepObject", "explode": True},
    "l": {"style": "deepObject", "explode": True},
    "j": {"contentType": "application/json"},
    "r": {"allowReserved": True},
}


def form(body: dict[str, Any], encoding: dict[str, Any] = ENCODING) -> dict[str, Any]:
    """A form-body document whose media type has `encoding` entries (S17.3)."""
    doc = make_document(body, [], content_type="application/x-www-form-urlencoded")
    path = only_path(doc)
    media = doc["paths"][path]["post"]["requestBody"]["content"]
    media["application/x-www-form-urlencoded"]["encoding"] = encoding
    return doc


SCALAR_BODY = {
    "type": "object",
    "properties": {"s": STRING, "i": {"type": "integer"}, "b": {"type": "boolean"}, "x": {}},
    "additionalProperties": False,
}
BASE64 = base64.b64encode(b"hi").decode()
HOSTILE = 'x"""\n\')]} + __import__("os").abort() #{'


CASES = [
    case(
        "the worked example",
        make_document(CLOSED_BODY),
        {"storeId": "s 1/é", "limit": 10, "query": "h", "x-tenant": "acme", "note": "n"},
        True,
    ),
    case("label path", params(param("id", "path", style="label")), {"id": "a,b"}, True),
    case("matrix path", params(param("id", "path", style="matrix")), {"id": "x=y"}, True),
    case(
        "matrix path, integer",
        params(param("id", "path", {"type": "integer"}, style="matrix")),
        {"id": -3},
        True,
    ),
    case("a dot segment", params(param("id", "path")), {"id": ".."}, False),
    case(
        "a dot in a longer segment",
        params(param("id", "path"), path="/t/{id}.json"),
        {"id": "."},
        True,
    ),
    case("an empty path value", params(param("id", "path")), {"id": ""}, False),
    case(
        "allowReserved query",
        params(param("q", "query", allowReserved=True)),
        {"q": "a/b%2Fc&d"},
        True,
    ),
    case("query name to encode", params(param("a b[]", "query")), {"a b[]": "1"}, True),
    case(
        "boolean and number",
        params(param("b", "query", {"type": "boolean"}), param("n", "query", {"type": "number"})),
        {"b": False, "n": 1.5},
        True,
    ),
    case("a huge integer", params(param("n", "query", {"type": "integer"})), {"n": 10**30}, True),
    case(
        "an array value",
        params(param("ids", "query", {"type": "array", "items": STRING})),
        {"ids": ["a", "b"]},
        False,
    ),
    case(
        "a null value",
        params(param("x", "query", {"type": ["string", "null"]})),
        {"x": None},
        False,
    ),
    case("header", params(param("X-Trace", "header")), {"x-trace": "a b"}, True),
    case(
        "header with a control character",
        params(param("X-Trace", "header")),
        {"x-trace": "a\nb"},
        False,
    ),
    case(
        "header with a space at the end",
        params(param("X-Trace", "header")),
        {"x-trace": "ab "},
        False,
    ),
    case("cookie", params(param("sid", "cookie")), {"sid": "1"}, False),
    case(
        "content parameter",
        params({"name": "f", "in": "query", "content": {"application/json": {"schema": STRING}}}),
        {"f": "x"},
        False,
    ),
    case(
        "path key with a query",
        params(param("id", "path"), path="/t/{id}?beta&v=1"),
        {"id": "7"},
        True,
    ),
    case(
        "wrapped body",
        make_document({"type": "array", "items": STRING}),
        {"storeId": "s", "x-tenant": "t", "body": ["a"]},
        True,
        **WRAP,
    ),
    case(
        "text body",
        make_document(STRING, [param("id", "query")], content_type="text/plain"),
        {"id": "1", "body": "hello"},
        True,
        **WRAP,
    ),
    case(
        "a call of channel names only (S13.1: read nested first)",
        make_document(STRING, [], content_type="text/plain"),
        {"body": "hello"},
        False,
        **WRAP,
    ),
    case(
        "undeclared argument into an open body",
        make_document(OPEN_BODY, [param("id", "path")]),
        {"id": "1", "zz": {"a": [1]}},
        True,
    ),
    case(
        "undeclared argument, closed body",
        make_document(CLOSED_BODY, [param("id", "path")]),
        {"id": "1", "zz": 1},
        False,
    ),
    case(
        "optional body not given",
        make_document(CLOSED_BODY, [param("id", "path")], body_required=False),
        {"id": "1"},
        True,
    ),
    case(
        "required body not given",
        make_document(OPEN_BODY, [param("id", "path")], body_required=True),
        {"id": "1"},
        True,
    ),
    case("invalid call", make_document(CLOSED_BODY, [param("id", "path")]), {"id": 1}, False),
    case(
        "not-finite number",
        params(param("n", "query", {"type": "number"})),
        {"n": float("nan")},
        False,
    ),
    case(
        "base64 body property", make_document(BINARY_BODY, []), {"file": BASE64, "note": "x"}, True
    ),
    case("bad base64", make_document(BINARY_BODY, []), {"file": "not base64!"}, False),
    case(
        "form body",
        make_document(FORM, [], content_type="application/x-www-form-urlencoded"),
        {"a": "x y", "m": {"k": "v&", "n": None}, "l": [1, True]},
        True,
    ),
    case(
        "form: deepObject members, named and not, null and numbers",
        form(DEEP_FORM),
        {"a": "é &", "n": 1e22, "m": {"line1": "1 Main", "zip code": "é", "": None}, "l": [2.5]},
        True,
    ),
    case("form: null field", form(DEEP_FORM), {"a": "x", "n": None}, True),
    case("form: deepObject of a string", form(DEEP_FORM), {"m": "x"}, True),
    case("form: a bracket in a member's key", form(DEEP_FORM), {"m": {"a[b": "x"}}, False),
    case("form: a nested member", form(DEEP_FORM), {"l": [[1]]}, False),
    case("form: a contentType field", form(DEEP_FORM), {"j": {"k": 1}}, False),
    case("form: an allowReserved field", form(DEEP_FORM), {"r": "a/b"}, False),
    case("form: an object without deepObject", form(DEEP_FORM, {}), {"m": {"k": "v"}}, False),
    case(
        "JSON body member by member",
        make_document(SCALAR_BODY, []),
        {"s": '\u2028"é', "i": -7, "b": True, "x": {"k": [1.5, None]}},
        True,
    ),
    case("JSON body, not-finite member", make_document(SCALAR_BODY, []), {"x": 1e400}, False),
    case(
        "JSON body, an alias",
        make_document(
            {"type": "object", "properties": {"a b": STRING}, "additionalProperties": False}, []
        ),
        {"a_b": "1"},
        True,
        options=Options(portable_names=True),
    ),
    case(
        "range content type",
        make_document(CLOSED_BODY, [], content_type="*/*"),
        {"note": "x"},
        True,
    ),
    # Nothing the document says is written into the generated source (S14.1, S14.4).
    case(
        "hostile names",
        make_document(
            {"type": "object", "properties": {"b" + HOSTILE: STRING}},
            [param(HOSTILE, "query")],
            path="/t?" + HOSTILE,
        ),
        {HOSTILE: "w", "b" + HOSTILE: "v"},
        True,
    ),
    case(
        "portable alias",
        params(param("a b", "query")),
        {"a_b": "1"},
        True,
        options=Options(portable_names=True),
    ),
    case(
        "the wire name of an alias",
        params(param("a b", "query")),
        {"a b": "1"},
        False,
        options=Options(portable_names=True),
    ),
]


@pytest.mark.parametrize(("doc", "call", "served", "kw"), CASES)
def test_the_lane_serves_or_declines_like_the_general_way(
    doc: dict[str, Any], call: dict[str, Any], served: bool, kw: dict[str, Any]
) -> None:
    """S12.1 styles, S12.3 bodies, S17 encodings, S19 aliases, S13.4 refusals: the same
    request or the same error."""
    plan = tool(doc, **kw)
    fast = same_as_general(plan, call)
    assert (fast is not None) == served


def test_inbound_headers_and_credentials_are_merged_like_the_general_way() -> None:
    """S12.2, S18.2: a header argument replaces the inbound header; a credential replaces both."""
    doc = make_document(OPEN_BODY)
    doc["components"] = {
        "securitySchemes": {
            "key": {"type": "apiKey", "in": "header", "name": "X-Tenant"},
            "q": {"type": "apiKey", "in": "query", "name": "api_key"},
            "c": {"type": "apiKey", "in": "cookie", "name": "sid"},
        }
    }
    doc["security"] = [{"key": [], "q": [], "c": []}]
    plan = tool(doc)
    call = {"storeId": "s1", "query": "h", "x-tenant": "acme"}
    inbound = [("X-Tenant", "other"), ("Accept", "*/*"), ("Cookie", "a=1; sid=old")]
    credentials = {"key": "secret", "q": "k&1", "c": "s1"}
    fast = same_as_general(plan, call, headers=inbound, credentials=credentials)
    assert fast is not None
    assert ("x-tenant", "secret") in fast.headers
    assert ("cookie", "a=1; sid=s1") in fast.headers
    assert same_as_general(plan, call, headers={"x-tenant": "in"}) is not None
    # Headers that are neither a mapping nor pairs: the general way words the error.
    odd: Any = [("x",)]
    assert same_as_general(plan, call, headers=odd) is None
    assert outcome(partial(plan.call, call, headers=odd))[0] == "ArgumentError"


def test_no_lane_where_the_general_way_owns_the_call() -> None:
    """S18.4 fixed arguments and S13.5 per-channel validation (`legacy`) have no lane; a
    nested call, and a flat tool's call made only of channel names, skip it."""
    doc = make_document(OPEN_BODY)
    fixed = tool(doc, fixed={"x-tenant": "acme"})
    assert Engine(fixed)._compile_entry() is None
    outcome(partial(fixed.call, {"storeId": "s", "query": "q"}))
    engine = fixed._compiled()
    assert isinstance(engine, Engine)
    assert engine.call == engine.general
    legacy = tool(doc, profile="legacy")
    legacy_engine = Engine(legacy)
    assert legacy_engine.call == legacy_engine.general
    flat = tool(doc)
    nested = {
        "pathParams": {"storeId": "s"},
        "queryParams": {},
        "body": {"query": "q"},
        "headers": {"x-tenant": "t"},
    }
    assert isinstance(outcome(partial(flat.call, nested))[1], Request)
    engine = flat._compiled()
    assert isinstance(engine, Engine)
    engine.call = engine._first_call
    flat.call(nested)
    assert engine.call == engine._first_call  # a call read nested does not build the lane


def test_a_flat_call_builds_the_lane_once() -> None:
    plan = tool(make_document(OPEN_BODY))
    engine = plan._compiled()
    assert isinstance(engine, Engine)
    assert engine.call == engine._first_call
    plan.call({"storeId": "s", "query": "q", "x-tenant": "t"})
    entry = engine.call
    assert entry != engine._first_call
    assert entry != engine.general
    plan.call({"storeId": "s", "query": "q", "x-tenant": "t"})
    assert engine.call is entry


def test_a_rejected_call_gets_the_general_way_errors() -> None:
    """S13.4: the lane never words an error; the general way does, for the first reading."""
    plan = tool(make_document(CLOSED_BODY))
    with pytest.raises(ArgumentError) as caught:
        plan.call({"storeId": "s", "query": 5, "x-tenant": "t"})
    assert [(i.path, i.keyword) for i in caught.value.errors] == [("query", "type")]


# -- laws ------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_lane_routes_every_generated_call_like_the_general_way(data: st.DataObject) -> None:
    """S14.2 for the lane: over generated operations (path, query, header, cookie parameters,
    merged and open bodies, both profiles) and calls, with and without inbound headers."""
    _op, plan, call = data.draw(planned_calls())
    headers = data.draw(st.sampled_from([None, [], [("x-in", "1")], {"Cookie": "a=b"}]))
    same_as_general(plan, call, headers=headers)


SCALAR = st.one_of(
    st.text(max_size=5),
    st.integers(-3, 3),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
)
MEMBERS = st.one_of(
    st.dictionaries(
        st.text(alphabet="ab[]& é", max_size=3), SCALAR | st.lists(SCALAR, max_size=1), max_size=3
    ),
    st.lists(SCALAR | st.dictionaries(st.just("k"), SCALAR, max_size=1), max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(MEMBERS, st.sets(st.sampled_from(["m[a]", "m[0]", "m[b]", "x"]), max_size=2))
def test_a_deep_object_of_scalars_in_one_step_is_the_general_field(
    value: Any, taken: set[str]
) -> None:
    """S17.3: `_deep_scalars` writes exactly what `_field` writes for a deepObject field of
    scalars, and declines (None, nothing taken) every value `_field` writes otherwise or
    refuses: a nested member, a key holding a bracket, a key another field took."""
    entry = {"style": "deepObject", "explode": True}
    expected_taken = set(taken)
    try:
        expected: Any = _field("m", value, entry, frozenset({"m"}), expected_taken)
    except Exception as error:
        expected = error
    before = set(taken)
    fast = _deep_scalars("m", value, taken)
    if fast is None:
        assert taken == before
        return
    assert fast == expected
    assert taken == expected_taken


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="aZ09 -_.~%@&=+,|[]/\0é\n", max_size=8),
    st.sampled_from(["", "[]", SCALAR_SAFE, SCALAR_SAFE + " "]),
)
def test_the_lanes_percent_encoding_is_percent(text: str, safe: str) -> None:
    """S12.1, S17.3: the expression the lane writes for percent-encoding (kept as it is, spaces
    replaced, translated, or UTF-8) gives exactly `_query.percent`'s text."""
    out = _Source()
    out.line(0, f"def encode(t):\n    return {_encoded(out, 't', safe, False)}")
    exec(compile("".join(out.lines), "<test>", "exec"), out.namespace)
    assert out.namespace["encode"](text) == percent(text, safe)


# -- the corpus ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_documents())
def test_the_lane_routes_every_corpus_call_like_the_general_way(path: Path) -> None:
    """Every flat corpus tool: calls generated from its own advertised schema end the same
    way served by the lane or the general way (a request or an error), and the lane serves
    a share of them itself."""
    rng = random.Random(path.stem)
    served = total = 0
    for plan in corpus_plans(path, "flat").tools:
        slow, entry = general(plan), lane(plan)  # each compiled once per tool
        for arguments in calls_for(plan.input_schema, rng, 2):
            expected = outcome(partial(slow.call, arguments))
            assert outcome(partial(plan.call, arguments)) == expected, plan.name
            fast = lane_call(entry, arguments)
            if fast is not None:
                assert ("request", fast) == expected, plan.name
                served += 1
            total += expected[0] == "request"
    assert served >= total // 3, (served, total)
