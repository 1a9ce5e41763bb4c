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
  linear).

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
from collections.abc import Callable, Iterator
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


if __name__ == "__main__":
    main()
