"""Cost of `Plan.result` (S16.4) on a 10 KB JSON answer, against the floor: `json.loads` of the
same body plus a bare precompiled jsonschema validator of the same output schema.

Run: python -m benchmarks.result_speed [--number 2000]
Figures are medians of 7 interleaved repeats, all measured in this run; the ratio is result / floor
(goal: at most 1.2).
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

from jsonschema import validators

import toolshape
from benchmarks.timing import side_by_side

ITEM = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string", "maxLength": 80},
        "price": {"type": "number", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}},
        "stock": {"type": "integer"},
    },
    "required": ["id", "name", "price"],
}
PAGE = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": ITEM}, "next": {"type": ["string", "null"]}},
    "required": ["items"],
}


def document(schema: Any) -> dict[str, Any]:
    response = {"description": "d", "content": {"application/json": {"schema": schema}}}
    return {
        "openapi": "3.1.0",
        "paths": {"/items": {"get": {"operationId": "listItems", "responses": {"200": response}}}},
    }


def page(size: int) -> bytes:
    items = [
        {
            "id": f"item-{i}",
            "name": f"Product {i}",
            "price": i * 1.5,
            "tags": ["a", "b"],
            "stock": i,
        }
        for i in range(size)
    ]
    return json.dumps({"items": items, "next": None}).encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'answer':<34}{'floor µs':>10}{'result µs':>11}{'result/floor':>14}")
    for label, schema, body in (
        ("10 KB JSON page (valid)", PAGE, page(110)),
        ("10 KB JSON array (wrapped)", {"type": "array", "items": ITEM}, page(110)[10:-15]),
    ):
        (plan,) = toolshape.plan_operation(document(schema), "/items", "get")
        output = plan.output_schema
        assert output is not None
        validator = validators.validator_for(output)(output)
        headers: dict[str, str] = {"content-type": "application/json"}
        result = plan.result(200, headers, body)
        assert "structuredContent" in result, result["content"][0]["text"][:200]
        wrapped = plan.output_wrapped

        def floor(body: bytes = body, wrapped: bool = wrapped, validator: Any = validator) -> Any:
            value = json.loads(body)
            return validator.is_valid({"result": value} if wrapped else value)

        timed = side_by_side(
            {"floor": floor, "result": partial(plan.result, 200, headers, body)}, args.number
        )
        floor_s, mine = timed["floor"], timed["result"]
        print(
            f"{label + f' ({len(body)} B)':<34}{floor_s * 1e6:>10.1f}{mine * 1e6:>11.1f}{mine / floor_s:>14.2f}"
        )


if __name__ == "__main__":
    main()
