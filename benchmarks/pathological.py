"""Pathological inputs (S14.4: cost that must not explode): each against a baseline of the same run.

Run: python -m benchmarks.pathological [--quick]

- `uniqueItems` on 20,000 items: `Plan`'s judge against jsonschema's own validator (goal: within
  2x jsonschema on ints and strings; objects, which jsonschema compares pairwise, far below it);
- shared sub-objects (what a YAML loader builds from anchors): planning time per expanded node
  as the sharing doubles (goal: flat, i.e. linear in the expanded size), and the refusal past
  100x;
- a million-value `enum`: one rejected call against one `json.loads` of the enum's text;
- a catastrophic `pattern`: one rejected call against one `re.search` of the same pattern
  (goal: 1x — evaluated once per call, not twice).

Every figure is a ratio to a baseline measured in the same run. The script uses only the public
API and `toolshape.schema._validate.Judge`, so it also runs against older versions for "before" figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import time
from collections.abc import Callable
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


def catastrophic_pattern(quick: bool) -> None:
    pattern = "^(a+)+$"
    value = "a" * (18 if quick else 22) + "b"
    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/t": {
                "get": {
                    "parameters": [{"name": "v", "in": "query", "schema": {"pattern": pattern}}]
                }
            }
        },
    }
    (plan,) = toolshape.plan_operation(doc, "/t", "get", style="flat")

    def rejected() -> None:
        with contextlib.suppress(toolshape.ArgumentError):
            plan.call({"v": value})

    mine, floor = seconds(rejected, runs=1), seconds(lambda: re.search(pattern, value), runs=1)
    print(
        f"\ncatastrophic pattern {pattern!r} on {len(value)} characters: one rejected call "
        f"{mine:.3f} s, one re.search {floor:.3f} s, ratio {mine / floor:.2f} (1 = evaluated once)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller inputs (smoke test)")
    args = parser.parse_args()
    unique_items(args.quick)
    shared_sub_objects(args.quick)
    million_enum(args.quick)
    catastrophic_pattern(args.quick)


if __name__ == "__main__":
    main()
