"""Cost that must not explode: each pathological input runs in a subprocess with a hard timeout,
so a regression fails the test instead of hanging CI. (How fast is a benchmark's business:
`benchmarks/pathological.py`; these tests only put a ceiling far above the expected time.)"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_document
from toolshape import plan_operation
from toolshape.schema._fastcheck import compile_check
from toolshape.schema._regex import nested_quantifier, re2_available

#: Far above the expected seconds (each case takes well under one), far below a hang.
CEILING = 60


def run_bounded(code: str) -> str:
    """Run `code` in a fresh interpreter; fail (not hang) past the ceiling."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=CEILING,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {CEILING} s")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_unique_items_over_twenty_thousand_items() -> None:
    """uniqueItems is O(n) for strings, integers and objects (the fast path was quadratic)."""
    out = run_bounded(
        """
        from toolshape.schema._validate import Judge
        judge = Judge({"type": "array", "uniqueItems": True})
        for items in ([*range(20000)], [str(i) for i in range(20000)],
                      [{"a": i} for i in range(20000)]):
            assert judge.problems(items) == []
            assert judge.problems(items + items[:1])[0].keyword == "uniqueItems"
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_shared_sub_objects_are_refused_not_expanded() -> None:
    """S14.4: a small document whose schemas share sub-objects 2^40 ways (what a YAML loader
    builds from anchors) is refused in linear time instead of planned in exponential time."""
    out = run_bounded(
        """
        import toolshape
        node = {"type": "string"}
        for _ in range(40):
            node = {"type": "object", "properties": {"a": node, "b": node}}
        doc = {"openapi": "3.1.0", "paths": {"/t": {"post": {"requestBody": {"content": {
            "application/json": {"schema": {"type": "object", "properties": {"v": node}}}}}}}}}
        (error,) = toolshape.plan_document(doc, style="flat").errors
        print(error.kind, error.rule)
        print(error.message)
        """
    )
    kind, message = out.split("\n", 1)
    assert kind == "schema S14.4"
    assert re.search(r"expands to \d+ nodes from \d+ written ones", message)


def test_modest_sharing_still_plans() -> None:
    """S14.4: sharing that expands less than 100 times (a caller reusing one schema object for
    many parameters) plans as usual."""
    shared = {"type": "string", "maxLength": 10}
    params = [{"name": f"p{i}", "in": "query", "schema": shared} for i in range(50)]
    doc = make_document({"type": "object", "properties": {"a": shared, "b": shared}}, params)
    (plan,) = plan_operation(doc, "/search", "post", style="flat")
    assert len(plan.input_schema["properties"]) == 52


def test_a_million_value_enum_rejects_a_call_quickly() -> None:
    """A rejected call against a million-value `enum` neither scans it in Python per call nor
    quotes it whole in the message."""
    out = run_bounded(
        """
        import toolshape
        doc = {"openapi": "3.1.0", "paths": {"/t": {"get": {"parameters": [
            {"name": "v", "in": "query", "schema": {"enum": list(range(1_000_000))}}]}}}}
        (plan,) = toolshape.plan_operation(doc, "/t", "get", style="flat")
        for _ in range(50):
            try:
                plan.call({"v": -1})
            except toolshape.ArgumentError as error:
                message = error.message
        assert plan.call({"v": 999_999}).url == "/t?v=999999"
        print(len(message))
        """
    )
    assert int(out) < 400


@pytest.fixture
def without_re2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run as if the extra `toolshape[re2]` were not installed (S24.8); the searchers made
    meanwhile are forgotten after the test."""
    from toolshape.schema import _regex

    monkeypatch.setattr(_regex, "_re2", None)
    _regex.searcher.cache_clear()
    yield
    _regex.searcher.cache_clear()


@pytest.mark.usefixtures("without_re2")
def test_a_catastrophic_pattern_is_warned_and_evaluated_once_per_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """S13.3: without RE2, a pattern with nested quantifiers gets a planning warning, no fast
    path, and so is evaluated once per call (by jsonschema), never twice."""
    from toolshape.schema import _regex, _validate

    pattern = "^(a+)+$"
    assert nested_quantifier(pattern)
    assert not nested_quantifier("^a+b*$")
    assert compile_check({"pattern": pattern}) is None
    doc = make_document({"type": "object", "properties": {"v": {"pattern": pattern}}}, [])
    (plan,) = plan_operation(doc, "/search", "post", style="flat")
    (note,) = plan.diagnostics
    assert note.level == "warning"
    assert "pattern that can backtrack catastrophically" in note.message
    calls: list[Any] = []

    def counting(p: str) -> Any:
        search = _regex.searcher(p)

        def counted(text: str) -> bool:
            calls.append(p)
            return search(text)

        return counted

    monkeypatch.setattr(_validate, "searcher", counting)
    assert plan.call({"v": "aaaa"}).body == {"v": "aaaa"}
    assert calls.count(pattern) == 1
    with pytest.raises(Exception, match="does not match"):
        plan.call({"v": "aaab"})
    assert calls.count(pattern) == 2


@pytest.mark.skipif(
    not re2_available(), reason="the extra toolshape[re2] (google-re2) is not installed"
)
def test_with_re2_a_catastrophic_pattern_judges_a_hostile_value_in_linear_time() -> None:
    """S24.8: with `toolshape[re2]`, `^(a+)+$` goes to RE2 (both engines read it alike), so a
    30-character hostile value is refused at once — in a subprocess with a hard timeout — with
    the verdict `re` gives on short values."""
    out = run_bounded(
        """
        import time
        from tests.conftest import make_document
        from toolshape import ArgumentError, plan_operation
        doc = make_document({"type": "object", "properties": {"v": {"pattern": "^(a+)+$"}}}, [])
        (plan,) = plan_operation(doc, "/search", "post", style="flat")
        start = time.perf_counter()
        try:
            plan.call({"v": "a" * 30 + "!"})
        except ArgumentError as error:
            assert "does not match" in error.message
        else:
            raise AssertionError("accepted")
        assert plan.call({"v": "aaaa"}).body == {"v": "aaaa"}
        print(time.perf_counter() - start)
        """
    )
    assert float(out) < CEILING


def test_four_thousand_clashing_names_get_their_suffixes_in_linear_time() -> None:
    """S19.2, S14.4: 4,000 parameters whose portable names are all `p` get `p`, `p_2`, ...,
    `p_4000` without probing every earlier suffix again (quadratic: seconds)."""
    out = run_bounded(
        """
        import time
        from tests.conftest import make_document
        from toolshape import Options, plan_operation
        params = [{"name": f"p{'[]' * (i % 3 + 1)}{'$' * (i // 3)}", "in": "query",
                   "schema": {"type": "string"}} for i in range(4000)]
        doc = make_document(None, params, method="get")
        start = time.perf_counter()
        (plan,) = plan_operation(doc, "/search", "get", style="flat",
                                 options=Options.preset(portable_names=True))
        took = time.perf_counter() - start
        names = list(plan.input_schema["properties"])
        assert names[:3] == ["p", "p_2", "p_3"] and names[-1] == "p_4000", names[-3:]
        print(took)
        """
    )
    assert float(out) < CEILING


#: A document whose definitions each name the one before twice: `A<n>` reaches `A0` 2^n ways.
ALIASED_UNIONS = """
    import json, toolshape
    def document(n):
        defs = {"A0": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
        for i in range(1, n):
            before = {"$ref": f"#/components/schemas/A{i - 1}"}
            defs[f"A{i}"] = {"anyOf": [before, before]}
        body = {"type": "object", "properties": {"v": {"$ref": f"#/components/schemas/A{n - 1}"}}}
        return {"openapi": "3.1.0", "components": {"schemas": defs}, "paths": {"/t": {"post": {
            "operationId": "make", "requestBody": {"content": {"application/json": {"schema": body}}}}}}}
    (plan,) = toolshape.plan_document(document(60), style="flat").tools
"""


@pytest.mark.parametrize("api", ["openai", "gemini"])
def test_a_view_of_references_met_two_to_the_sixty_ways_is_made_at_once(api: str) -> None:
    """S14.4, S22: a view asks each definition once whether it takes null and what kinds it
    has (OpenAI's view took 4.2 s for 2.2 KB, four times as long for each 170 bytes more)."""
    out = run_bounded(ALIASED_UNIONS + f"    print(toolshape.model_tool(plan, {api!r}).strict)\n")
    assert out.strip() == ("True" if api == "openai" else "False")


def test_a_gemini_view_is_bounded_in_bytes() -> None:
    """S14.4, S22.5: inlining references a document shares grows the view in bytes, not only
    in nodes (20 KB of document gave 10.5 MB): past about 100,000 bytes, references are cut
    into JSON text, each named in the reasons."""
    out = run_bounded(
        """
        import json, toolshape
        text = "d" * 2000
        defs = {"L0": {"type": "object", "description": text,
                       "properties": {"x": {"type": "string", "description": text}}}}
        for i in range(1, 24):
            before = {"$ref": f"#/components/schemas/L{i - 1}"}
            defs[f"L{i}"] = {"type": "object", "properties": {"a": before, "b": before}}
        body = {"type": "object", "properties": {"v": {"$ref": "#/components/schemas/L23"}}}
        document = {"openapi": "3.1.0", "components": {"schemas": defs}, "paths": {"/t": {"post": {
            "operationId": "make", "requestBody": {"content": {"application/json": {"schema": body}}}}}}}
        (plan,) = toolshape.plan_document(document, style="flat").tools
        tool = toolshape.model_tool(plan, "gemini")
        print(len(json.dumps(tool.parameters)), len(tool.reasons))
        """
    )
    size, reasons = map(int, out.split())
    assert 90_000 < size < 120_000
    assert reasons > 0
