"""Per-call cost of Plan.call (validate + route + request) against the floor: a bare
precompiled jsonschema validator checking the same arguments against the same advertised
schema; and against the fastest validators users know, where the benchmark environment has them
(`fastjsonschema`'s generated code, `jsonschema-rs`; never dependencies of toolshape), with the
fast path's own check (`fast`: the generated predicate that proves a call valid) beside them.

Run: python -m benchmarks.call_speed [--number 1000] [--repeat 21]
Figures are medians of interleaved rounds, all measured in this run; ratios are the medians of
each round's own ratio (steady on a machine whose speed drifts): `call/floor` against the
floor (the guard: at most 0.8 on the worked example), `call/fjs` Plan.call against
fastjsonschema, which validates only.
"""

from __future__ import annotations

import argparse
import json
import statistics
from functools import partial
from pathlib import Path
from typing import Any

from jsonschema import validators

import toolshape
from benchmarks.timing import CORPUS, ratio, rounds
from toolshape.schema._fastcheck import compile_check

EXAMPLE = Path(toolshape.__file__).parent / "data" / "example.openapi.json"

CASES: list[tuple[str, Path, str, str, dict[str, Any]]] = [
    (
        "worked example (searchProducts)",
        EXAMPLE,
        "/stores/{storeId}/search",
        "post",
        {"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"},
    ),
    (
        "Stripe POST /v1/customers",
        CORPUS / "stripe.json",
        "/v1/customers",
        "post",
        {
            "email": "ada@example.com",
            "name": "Ada Lovelace",
            "description": "first customer",
            "metadata": {"plan": "pro", "source": "mcp"},
            "address": {
                "line1": "1 Main St",
                "city": "London",
                "country": "GB",
                "postal_code": "N1",
            },
            "preferred_locales": ["en", "fr"],
        },
    ),
    (
        "GitHub POST /repos/{owner}/{repo}/issues",
        CORPUS / "github.json",
        "/repos/{owner}/{repo}/issues",
        "post",
        {
            "owner": "octo",
            "repo": "hello",
            "title": "Bug",
            "body": "It breaks",
            "labels": ["bug"],
            "assignees": ["ada"],
        },
    ),
    (
        "Jira POST /rest/api/3/issue",
        CORPUS / "jira.json",
        "/rest/api/3/issue",
        "post",
        {
            "updateHistory": True,
            "fields": {"summary": "Bug", "project": {"key": "ABC"}},
            "update": {},
        },
    ),
]


def anchors(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The outside validators this environment has, compiled for `schema`."""
    found: dict[str, Any] = {}
    try:
        import fastjsonschema  # type: ignore[import-not-found, unused-ignore]

        found["fjs"] = partial(fastjsonschema.compile(schema), arguments)
    except ImportError:
        pass
    try:
        import jsonschema_rs  # type: ignore[import-not-found, unused-ignore]

        found["rs"] = partial(jsonschema_rs.validator_for(schema).is_valid, arguments)
    except ImportError:
        pass
    return found


def shown(timed: dict[str, float], name: str, width: int) -> str:
    return f"{timed[name] * 1e6:>{width}.2f}" if name in timed else f"{'-':>{width}}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    print(
        f"{'operation':<44}{'floor µs':>10}{'call µs':>9}{'fast µs':>9}{'fjs µs':>8}"
        f"{'rs µs':>7}{'call/floor':>11}{'call/fjs':>10}"
    )
    for label, path, route, method, arguments in CASES:
        if not path.is_file():  # a whole document TOOLSHAPE_CORPUS does not hold
            print(f"{label:<44}(no {path.name}: set TOOLSHAPE_CORPUS)")
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        (plan,) = toolshape.plan_operation(document, route, method, style="flat")
        schema = plan.input_schema
        floor_validator = validators.validator_for(schema)(schema)
        assert floor_validator.is_valid(arguments), label
        fast = compile_check(schema)
        assert fast is not None, label
        assert fast(arguments), label
        plan.call(arguments)  # compile once, as a served tool would have
        runs = {
            "floor": partial(floor_validator.is_valid, arguments),
            "call": partial(plan.call, arguments),
            "fast": partial(fast, arguments),
            **anchors(schema, arguments),
        }
        times = rounds(runs, args.number, args.repeat)
        timed = {name: statistics.median(seconds) for name, seconds in times.items()}
        floor, call = timed["floor"], timed["call"]
        versus = f"{ratio(times, 'call', 'fjs'):>10.1f}" if "fjs" in times else f"{'-':>10}"
        print(
            f"{label:<44}{floor * 1e6:>10.1f}{call * 1e6:>9.1f}{shown(timed, 'fast', 9)}"
            f"{shown(timed, 'fjs', 8)}{shown(timed, 'rs', 7)}"
            f"{ratio(times, 'call', 'floor'):>11.2f}{versus}"
        )


if __name__ == "__main__":
    main()
