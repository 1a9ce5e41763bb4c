"""Calls generated from a tool's own advertised schema, and what a call ends in, for the laws
that compare two ways of serving the same tool (S15.1 round trip, the generated router)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from toolshape import ToolshapeError


def value_for(schema: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value the schema likely accepts (typed, from `enum` / `const` when given) — or, one
    time in six, any JSON value: the law covers refusals as much as requests."""
    if rng.random() < 1 / 6 or not isinstance(schema, dict) or depth > 3:
        return rng.choice([None, True, 7, -1.5, "x", "", [], {}, ["a", 1], {"k": "v"}])
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    kind = rng.choice(kind) if isinstance(kind, list) and kind else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        return {
            name: value_for(sub, rng, depth + 1)
            for name, sub in properties.items()
            if name in schema.get("required", []) or rng.random() < 0.3
        }
    if kind == "array":
        return [value_for(schema.get("items"), rng, depth + 1) for _ in range(rng.randint(0, 2))]
    return {
        "string": "v%20/é",
        "integer": rng.choice([0, 3, 10**20]),
        "number": rng.choice([1.5, 0, -2]),
        "boolean": rng.random() < 0.5,
        "null": None,
    }.get(kind if isinstance(kind, str) else "", "x")


def outcome(call: Callable[[], Any]) -> Any:
    """What a call ends in, as comparable data: the request, or the error's class and words."""
    try:
        return ("request", call())
    except ToolshapeError as error:
        return (type(error).__name__, error.to_dict())


def calls_for(schema: dict[str, Any], rng: random.Random, count: int) -> list[Any]:
    calls: list[Any] = [value_for(schema, rng) for _ in range(count)]
    calls.append({**(calls[0] if isinstance(calls[0], dict) else {}), "undeclared~": 1})
    return calls
