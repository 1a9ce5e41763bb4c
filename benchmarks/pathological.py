"""Pathological inputs (S14.4: cost that must not explode): each against a baseline of the same run.

Run: python -m benchmarks.pathological [--quick]

- `uniqueItems` on 20,000 items: `Plan`'s judge against jsonschema's own validator (goal: within
  2x jsonschema on ints and strings; objects, which jsonschema compares pairwise, far below it);
- shared sub-objects (what a YAML loader builds from anchors): planning time per expanded node
  as the sharing doubles (goal: flat, i.e. linear in the expanded size), and the refusal past
  100x;
- a million-value `enum`: one rejected call against one `json.loads` of the enum's text;
- a catastrophic `pattern`: one rejected call against one `re.search` of the same pattern
  (goal: 1x — evaluated once per call, not twice) without RE2; with the extra `toolshape[re2]`,
  the same call on values twice as long and longer (goal: flat, linear);
- Swagger 2.0 shared sub-objects (YAML anchors nested deep): converting and planning as the
  nesting deepens (goal: linear in the objects written, not the paths through them);
- one long text aliased many times in YAML: refused in time linear in the text;
- 4,000 parameters whose portable names clash: planning time as their number doubles (goal:
  linear);
- a discovery search over 480 tools as its query grows to 56 KB (goal: bounded: a query past
  64 words or 1,024 characters is refused);
- the OpenAI strict view of definitions that each name the one before twice (2^n ways) as n
  grows (goal: linear);
- an answer that inflates from 100 KB of gzip past the response cap, through `toolshape.server`
  with httpx's `MockTransport` (goal: the time of reading the cap, not the whole answer);
- the Gemini view of definitions shared two ways at each level, with long descriptions, as
  the levels grow (goal: bounded in bytes).

Every figure is a ratio to a baseline measured in the same run (or a time per unit whose
flatness shows linearity). Besides the public API the script uses `Judge` and, to measure
without RE2 where it is installed, `toolshape.schema._regex`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from typing import Any

import jsonschema

import toolshape
from toolshape.schema._validate import Judge


def seconds(run: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _errors(validator: Any, instance: Any) -> list[Any]:
    return list(validator.iter_errors(instance))


def unique_items(quick: bool) -> None:
    schema = {"type": "array", "uniqueItems": True}
    judge = Judge(schema)
    floor = jsonschema.Draft202012Validator(schema)
    n = 2_000 if quick else 20_000
    print(f"\nuniqueItems, {n} items: judge vs jsonschema's own validator")
    print(f"{'items':<22}{'judge s':>10}{'jsonschema s':>14}{'ratio':>8}")
    for label, items in (
        ("integers (valid)", list(range(n))),
        ("strings (valid)", [str(i) for i in range(n)]),
        ("integers (one repeat)", [*range(n), 0]),
    ):
        mine = seconds(partial(judge.problems, items))
        theirs = seconds(partial(_errors, floor, items))
        print(f"{label:<22}{mine:>10.4f}{theirs:>14.4f}{mine / theirs:>8.2f}")
    objects = [{"a": i} for i in range(n // 10)]
    mine = seconds(lambda: judge.problems([*objects, objects[0]]))
    theirs = seconds(lambda: list(floor.iter_errors([*objects, objects[0]])), runs=1)
    print(f"{f'{n // 10} objects (repeat)':<22}{mine:>10.4f}{theirs:>14.4f}{mine / theirs:>8.2f}")


def shared_document(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"a": node, "b": node}}
    body = {"type": "object", "properties": {"v": node}}
    return {
        "openapi": "3.1.0",
        "paths": {
            "/t": {"post": {"requestBody": {"content": {"application/json": {"schema": body}}}}}
        },
    }


def shared_sub_objects(quick: bool) -> None:
    print("\nshared sub-objects: planning time per expanded node (flat = linear)")
    print(f"{'levels':>7}{'expanded':>10}{'plan s':>10}{'µs/node':>9}  outcome")
    for levels in range(4, 11 if quick else 13):
        doc = shared_document(levels)
        expanded = 2 ** (levels + 1)
        took = seconds(partial(toolshape.plan_document, doc, style="flat"))
        result = toolshape.plan_document(doc, style="flat")
        outcome = "planned" if result.tools else f"refused ({result.errors[0].rule})"
        print(f"{levels:>7}{expanded:>10}{took:>10.4f}{took / expanded * 1e6:>9.2f}  {outcome}")
    doc = shared_document(40)
    took = seconds(lambda: toolshape.plan_document(doc, style="flat"), runs=1)
    print(f"{40:>7}{2**41:>10.1e}{took:>10.4f}{'':>9}  the 2^41-node document, refused")


def million_enum(quick: bool) -> None:
    values = list(range(100_000 if quick else 1_000_000))
    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/t": {
                "get": {"parameters": [{"name": "v", "in": "query", "schema": {"enum": values}}]}
            }
        },
    }
    (plan,) = toolshape.plan_operation(doc, "/t", "get", style="flat")

    def rejected() -> None:
        with contextlib.suppress(toolshape.ArgumentError):
            plan.call({"v": -1})

    rejected()  # builds the judge once
    text = json.dumps(values)
    mine, floor = seconds(rejected), seconds(lambda: json.loads(text))
    print(
        f"\n{len(values)}-value enum: one rejected call {mine:.4f} s, json.loads of the enum "
        f"{floor:.4f} s, ratio {mine / floor:.3f}"
    )


@contextlib.contextmanager
def without_re2() -> Iterator[None]:
    """As if the extra `toolshape[re2]` were not installed (the searchers made forgotten)."""
    from toolshape.schema import _regex

    engine = getattr(_regex, "_re2", None)
    setattr(_regex, "_re2", None)  # noqa: B010 - the module's optional import, switched off
    _regex.searcher.cache_clear()
    try:
        yield
    finally:
        setattr(_regex, "_re2", engine)  # noqa: B010 - put back
        _regex.searcher.cache_clear()


def pattern_tool(pattern: str) -> toolshape.Plan:
    """A tool whose one query argument must match `pattern`."""
    schema = {"pattern": pattern}
    parameter = {"name": "v", "in": "query", "schema": schema}
    doc = {"openapi": "3.1.0", "paths": {"/t": {"get": {"parameters": [parameter]}}}}
    (plan,) = toolshape.plan_operation(doc, "/t", "get", style="flat")
    return plan


def catastrophic_pattern(quick: bool) -> None:
    with without_re2():
        _catastrophic_pattern(quick)


def _catastrophic_pattern(quick: bool) -> None:
    pattern = "^(a+)+$"
    value = "a" * (18 if quick else 22) + "b"
    plan = pattern_tool(pattern)

    def rejected() -> None:
        with contextlib.suppress(toolshape.ArgumentError):
            plan.call({"v": value})

    mine, floor = seconds(rejected, runs=1), seconds(lambda: re.search(pattern, value), runs=1)
    print(
        f"\ncatastrophic pattern {pattern!r} without RE2, {len(value)} characters: one rejected call "
        f"{mine:.3f} s, one re.search {floor:.3f} s, ratio {mine / floor:.2f} (1 = evaluated once)"
    )


def catastrophic_pattern_with_re2(quick: bool) -> None:
    from toolshape.schema._regex import re2_available

    if not re2_available():
        print("\ncatastrophic pattern with RE2: the extra toolshape[re2] is not installed")
        return
    pattern = "^(a+)+$"
    print(f"\ncatastrophic pattern {pattern!r} with RE2: one rejected call (linear = flat µs/char)")
    print(f"{'characters':>11}{'call s':>10}{'µs/char':>9}")
    plan = pattern_tool(pattern)
    for size in (30, 1_000, 10_000) if quick else (30, 1_000, 10_000, 100_000):
        value = "a" * size + "!"

        def rejected(value: str = value) -> None:
            with contextlib.suppress(toolshape.ArgumentError):
                plan.call({"v": value})

        took = seconds(rejected)
        print(f"{size:>11}{took:>10.5f}{took / size * 1e6:>9.3f}")


def swagger_anchors(quick: bool) -> None:
    print("\nSwagger 2.0 shared sub-objects (YAML anchors): planning as the nesting deepens")
    print(f"{'levels':>7}{'paths':>10}{'plan s':>10}  outcome")
    for levels in (8, 14, 17, 20) if not quick else (8, 14):
        node: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            node = {"type": "object", "properties": {"a": node, "b": node}}
        doc = {
            "swagger": "2.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/t": {
                    "post": {
                        "parameters": [{"name": "b", "in": "body", "schema": node}],
                        "responses": {"200": {"description": "ok"}},
                    }
                }
            },
        }
        took = seconds(partial(toolshape.plan_document, doc, style="flat"), runs=1)
        result = toolshape.plan_document(doc, style="flat")
        outcome = "planned" if result.tools else f"refused ({result.errors[0].rule})"
        print(f"{levels:>7}{2**levels:>10}{took:>10.4f}  {outcome}")


def scalar_alias_bomb(quick: bool) -> None:
    print("\none long text aliased many times in YAML: reading it (refused past 100x)")
    print(f"{'text':>9}{'aliases':>9}{'read s':>9}  outcome")
    for size in (29_000, 290_000) if not quick else (29_000,):
        text = 's: &s "' + "x" * size + '"\nl: [' + ", ".join(["*s"] * 400) + "]\n"
        start = time.perf_counter()
        try:
            toolshape.load_document(text)
            outcome = "read"
        except toolshape.DocumentError:
            outcome = "refused"
        took = time.perf_counter() - start
        print(f"{size:>9}{400:>9}{took:>9.4f}  {outcome}")


def clashing_names(quick: bool) -> None:
    print("\nparameters whose portable names clash: planning (linear = flat µs/name)")
    print(f"{'names':>7}{'plan s':>9}{'µs/name':>9}")
    options = toolshape.Options.preset(portable_names=True)
    for count in (500, 1_000, 2_000, 4_000) if not quick else (500, 1_000):
        params = [
            {"name": f"p{'[]' * (i % 3 + 1)}{'$' * (i // 3)}", "in": "query", "schema": {}}
            for i in range(count)
        ]
        doc = {"openapi": "3.1.0", "paths": {"/t": {"get": {"parameters": params}}}}
        took = seconds(partial(toolshape.plan_document, doc, style="flat", options=options), 1)
        print(f"{count:>7}{took:>9.4f}{took / count * 1e6:>9.1f}")


def _word(number: int) -> str:
    """A distinct made-up word for each number (`baaa`, `caaa`, ...)."""
    return "".join(chr(97 + number // 26**k % 26) for k in range(4))[::-1] + "q"


def discovery_search(quick: bool) -> None:
    print("\ndiscovery search over 480 tools as the query grows (refused past 64 words)")
    print(f"{'query':>10}{'words':>7}{'search s':>10}  outcome")
    words = ["list", "create", "update", "delete", "customer", "invoice", "payment", "refund"]
    paths = {
        f"/{words[i % 8]}/{i}": {
            "get": {"operationId": f"{words[i % 8]}_{words[(i * 3) % 8]}_{i}",
                    "summary": " ".join(words[(i + k) % 8] for k in range(6))}
        }
        for i in range(480)
    }  # fmt: skip
    plans = toolshape.plan_document({"openapi": "3.1.0", "paths": paths}).tools
    for count in (4, 64, 640) if quick else (4, 64, 640, 8_000):
        query = " ".join(_word(i) for i in range(count))  # distinct words, none indexed
        try:
            took = seconds(partial(toolshape.search, plans, query), runs=1)
            outcome = "searched"
        except ValueError:
            took, outcome = 0.0, "refused"
        print(f"{len(query):>10}{count:>7}{took:>10.4f}  {outcome}")


def aliased_unions(size: int) -> toolshape.Plan:
    schemas: dict[str, Any] = {
        "A0": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    }
    for i in range(1, size):
        before = {"$ref": f"#/components/schemas/A{i - 1}"}
        schemas[f"A{i}"] = {"anyOf": [before, before]}
    return one_body_tool(schemas, f"A{size - 1}")


def one_body_tool(schemas: dict[str, Any], top: str) -> toolshape.Plan:
    """The flat tool of a document whose body's one property `v` is the definition `top`."""
    body = {"type": "object", "properties": {"v": {"$ref": f"#/components/schemas/{top}"}}}
    doc = {
        "openapi": "3.1.0",
        "components": {"schemas": schemas},
        "paths": {
            "/t": {"post": {"requestBody": {"content": {"application/json": {"schema": body}}}}}
        },
    }
    (plan,) = toolshape.plan_document(doc, style="flat").tools
    return plan


def strict_view(quick: bool) -> None:
    print("\nOpenAI strict view of definitions naming the one before twice (linear = flat ms/def)")
    print(f"{'defs':>6}{'view s':>10}{'ms/def':>9}")
    for size in (8, 12, 16) if quick else (8, 12, 14, 16, 200):
        plan = aliased_unions(size)
        took = seconds(partial(toolshape.model_tool, plan, "openai"), runs=1)
        print(f"{size:>6}{took:>10.4f}{took / size * 1000:>9.3f}")


def inflating_answer(quick: bool) -> None:
    import zlib

    import anyio
    import httpx
    from mcp import Client

    from toolshape.server import Api, build_server

    inflated = 20 * 2**20 if quick else 200 * 2**20
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
    zeros = b"0," * 2**19
    bomb = b"[" + b"".join(packer.compress(zeros) for _ in range(inflated // len(zeros)))
    bomb = packer.compress(b"[") + bomb[1:] + packer.compress(b"0]") + packer.flush()
    doc = {"openapi": "3.1.0", "paths": {"/big": {"get": {"operationId": "big"}}}}
    api = Api(toolshape.plan_document(doc).tools, base_url="http://api.test")

    async def network() -> AsyncIterator[bytes]:  # as a socket gives it: 64 KB at a time
        for start in range(0, len(bomb), 65_536):
            yield bomb[start : start + 65_536]

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json", "content-encoding": "gzip"}
        return httpx.Response(200, content=network(), headers=headers)

    async def call() -> None:
        async with (
            httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
            Client(build_server([api], http=http), mode="legacy") as client,
        ):
            await client.call_tool("big", {})

    took = seconds(partial(anyio.run, call), runs=1)
    print(f"\nan answer of {len(bomb) // 1024} KB gzip inflating to {inflated // 2**20} MiB "
          f"(cap {api.max_response_bytes} bytes): one call {took:.3f} s")  # fmt: skip


def gemini_view(quick: bool) -> None:
    print("\nGemini view of definitions shared two ways per level, 2 KB of text at the bottom")
    print(f"{'levels':>7}{'document B':>12}{'view B':>10}{'view s':>9}")
    for levels in (6, 10, 14) if quick else (6, 10, 14, 18, 22):
        text = "d" * 2000
        schemas: dict[str, Any] = {
            "L0": {"type": "object", "description": text,
                   "properties": {"x": {"type": "string", "description": text}}}
        }  # fmt: skip
        for i in range(1, levels):
            before = {"$ref": f"#/components/schemas/L{i - 1}"}
            schemas[f"L{i}"] = {"type": "object", "properties": {"a": before, "b": before}}
        plan = one_body_tool(schemas, f"L{levels - 1}")
        took = seconds(partial(toolshape.model_tool, plan, "gemini"), runs=1)
        size = len(json.dumps(toolshape.model_tool(plan, "gemini").parameters))
        print(f"{levels:>7}{len(json.dumps(schemas)):>12}{size:>10}{took:>9.4f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller inputs (smoke test)")
    args = parser.parse_args()
    unique_items(args.quick)
    shared_sub_objects(args.quick)
    million_enum(args.quick)
    catastrophic_pattern(args.quick)
    catastrophic_pattern_with_re2(args.quick)
    swagger_anchors(args.quick)
    scalar_alias_bomb(args.quick)
    clashing_names(args.quick)
    discovery_search(args.quick)
    strict_view(args.quick)
    inflating_answer(args.quick)
    gemini_view(args.quick)


if __name__ == "__main__":
    main()
