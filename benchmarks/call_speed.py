"""Per-call cost of Plan.call (validate + route) against the floor: a bare precompiled
jsonschema validator checking the same arguments against the same advertised schema.

Run: python -m benchmarks.call_speed [--number 2000]
Figures are medians of 7 interleaved repeats, all measured in this run; the ratio is call / floor.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path
from typing import Any

from jsonschema import validators

import toolshape
from benchmarks.timing import side_by_side

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'operation':<44}{'floor µs':>10}{'call µs':>10}{'call/floor':>12}")
    for label, path, route, method, arguments in CASES:
        document = json.loads(path.read_text(encoding="utf-8"))
        (plan,) = toolshape.plan_operation(document, route, method, style="flat")
        schema = plan.input_schema
        floor_validator = validators.validator_for(schema)(schema)
        assert floor_validator.is_valid(arguments), label
        plan.call(arguments)  # compile once, as a served tool would have
        timed = side_by_side(
            {
                "floor": partial(floor_validator.is_valid, arguments),
                "call": partial(plan.call, arguments),
            },
            args.number,
        )
        floor, call = timed["floor"], timed["call"]
        print(f"{label:<44}{floor * 1e6:>10.1f}{call * 1e6:>10.1f}{call / floor:>12.2f}")


if __name__ == "__main__":
    main()
