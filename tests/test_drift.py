"""S16.7 as a law over real documents: an answer that drifts from the document — a required
field removed, a field added, a new enum value, `null` for a string — is still structured under
the shape view; an answer whose kind differs is an error naming where.

Answers are generated from each tool's exact output schema (kept only when the exact view
itself structures them), then mutated one way at a time.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find, settings
from hypothesis.strategies import from_regex
from jsonschema import Draft202012Validator

from tests.conftest import corpus_document, corpus_documents
from toolshape import Options, Plan, plan_document
from toolshape.model._pointers import escape
from toolshape.schema._regex import Node, parse

JSON = {"content-type": "application/json"}
FORMATS = {
    "date-time": "2024-01-01T10:00:00Z",
    "date": "2024-01-01",
    "time": "10:00:00Z",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "email": "someone@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uri-reference": "/a",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "byte": "aGVsbG8=",
    "duration": "P1D",
}


class Unable(Exception):
    """The generator can't make a value for this schema."""


def simplest(branches: list[list[Node]]) -> str:
    """A short text the first alternative of a parsed pattern spells."""
    out = []
    for node in branches[0]:
        if node.kind == "literal":
            out.append(node.text)
        elif node.kind == "escape":
            out.append({"d": "0", "w": "a", "s": " "}.get(node.text[1:], node.text[1:]))
        elif node.kind == "class":
            inside = node.text[1:-1]
            out.append("x" if inside.startswith("^") else inside.lstrip("\\")[:1])
        elif node.kind == "repeat":
            out.append(simplest(node.children) * node.low)
        elif node.kind == "group" and node.flavour in ("plain", "capture"):
            out.append(simplest(node.children))
    return "".join(out)


@functools.cache
def matching(pattern: str) -> str:
    """A text `pattern` finds: spelled from its first alternatives, else the simplest one
    hypothesis finds (deterministic, but slower)."""
    tree = parse(pattern)
    text = simplest(tree) if tree is not None else ""
    if re.search(pattern, text):
        return text
    return str(find(from_regex(pattern), lambda _: True, settings=settings(database=None)))


class Generator:
    """A small, bounded generator of one plausible value per schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.defs: dict[str, Any] = root.get("$defs", {})
        self.budget = 400

    def fits(self, value: Any, schema: Any) -> bool:
        return bool(Draft202012Validator({"$defs": self.defs, "allOf": [schema]}).is_valid(value))

    def value(self, schema: Any, depth: int = 0) -> Any:
        if depth > 14:
            raise Unable
        if schema is True or schema == {}:
            return "x"
        if not isinstance(schema, dict):
            raise Unable
        self.budget -= 1
        if "$ref" in schema:
            name = schema["$ref"].removeprefix("#/$defs/").replace("~1", "/").replace("~0", "~")
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return self.value({"allOf": [self.defs[name], rest]}, depth + 1)
        if "const" in schema:
            return schema["const"]
        if schema.get("enum"):
            return schema["enum"][0]
        if "allOf" in schema:
            return self.value(merged(schema, self.defs), depth + 1)
        for key in ("oneOf", "anyOf"):
            if schema.get(key):
                return self.union(schema, key, depth)
        return self.typed(schema, kind_of(schema), depth)

    def union(self, schema: dict[str, Any], key: str, depth: int) -> Any:
        """The first branch's value that the whole schema accepts."""
        rest = {k: v for k, v in schema.items() if k != key}
        for branch in sorted(schema[key], key=nullish):
            try:
                value = self.value({"allOf": [rest, branch]} if rest else branch, depth + 1)
            except Unable:
                continue
            if self.fits(value, schema):
                return value
        raise Unable

    def typed(self, schema: dict[str, Any], kind: str, depth: int) -> Any:
        if kind == "object":
            properties = schema.get("properties", {})
            required = set(schema.get("required", []))
            out = {}
            for name, sub in properties.items():
                if name in required or (depth < 4 and self.budget > 0):
                    out[name] = self.value(sub, depth + 1)
            out.update((name, "x") for name in required if name not in out)
            return out
        if kind == "array":
            count = max(schema.get("minItems", 0), 1 if depth < 5 and self.budget > 0 else 0)
            return [self.value(schema.get("items", True), depth + 1) for _ in range(count)]
        if kind == "string" and "pattern" in schema:
            return matching(schema["pattern"])
        if kind == "string":
            text = FORMATS.get(schema.get("format", ""), "text")
            return text + "x" * max(0, schema.get("minLength", 0) - len(text))
        if kind == "integer":
            return max(schema.get("minimum", 1), 1)
        if kind == "number":
            return schema.get("minimum", 1.5)
        return {"boolean": True, "null": None}[kind]


def nullish(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null"


def kind_of(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    return str(kind)


def merged(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """An `allOf`'s object branches as one object schema (its references followed)."""
    out: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    for branch in [{k: v for k, v in schema.items() if k != "allOf"}, *schema["allOf"]]:
        while isinstance(branch, dict) and "$ref" in branch:
            branch = defs[branch["$ref"].removeprefix("#/$defs/")]
        if not isinstance(branch, dict):
            continue
        if "allOf" in branch:
            branch = merged(branch, defs)
        if kind_of(branch) != "object" and "type" in branch:
            return dict(branch)
        out["properties"].update(branch.get("properties", {}))
        out["required"] += branch.get("required", [])
    return out


def places(value: Any) -> Iterator[Any]:
    """Every object and array inside `value`, itself included."""
    if isinstance(value, (dict, list)):
        yield value
        for inner in value.values() if isinstance(value, dict) else value:
            yield from places(inner)


def strings(value: Any) -> Iterator[tuple[Any, Any]]:
    """(container, key) of every string inside `value`."""
    for place in places(value):
        keys = place.keys() if isinstance(place, dict) else range(len(place))
        yield from ((place, key) for key in keys if isinstance(place[key], str))


def drifted(answer: Any, rng: random.Random) -> Iterator[tuple[str, Any]]:
    """`answer` mutated one way at a time: a field removed, a field added, a string changed
    (a new enum value), `null` for a string."""
    for how in ("removed", "added", "new-value", "null"):
        mutant = copy.deepcopy(answer)
        objects = [p for p in places(mutant) if isinstance(p, dict)]
        found = list(strings(mutant))
        if how == "removed" and any(objects):
            target = rng.choice([o for o in objects if o])
            del target[rng.choice(sorted(target))]
        elif how == "added" and objects:
            rng.choice(objects)["drift_field_added"] = {"new": True}
        elif how in ("new-value", "null") and found:
            place, key = rng.choice(found)
            place[key] = "A_NEW_VALUE" if how == "new-value" else None
        else:
            continue
        yield how, mutant


def answered(plan: Plan, answer: Any) -> dict[str, Any]:
    return plan.result(200, JSON, json.dumps(answer).encode())


def structured_as(plan: Plan, answer: Any) -> Any:
    return {"result": answer} if plan.output_wrapped else answer


def pairs(path: Path) -> list[tuple[Plan, Plan, dict[str, Any]]]:
    """Each tool with an output schema: its exact plan, its shape plan, its exact schema."""
    document = corpus_document(path)
    exact = plan_document(document, options=Options.preset(output_schemas="exact"))
    # S16.7's view itself, whole: the output-schema budget (S25.1) cuts it shallower by design
    whole = Options.preset(output_schema_budget=None)
    shape = {p.name: p for p in plan_document(document, options=whole).tools}
    schemas = ((p, p.output_schema) for p in exact.tools)
    return [(p, shape[p.name], schema) for p, schema in schemas if schema is not None]


def followed(schema: Any, defs: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = defs[schema["$ref"].removeprefix("#/$defs/")]
    return schema


def declared(schema: Any, name: str, defs: dict[str, Any]) -> Iterator[Any]:
    """The schemas an object schema (with its `allOf` branches) gives property `name`."""
    schema = followed(schema, defs)
    if isinstance(schema, dict):
        if name in schema.get("properties", {}):
            yield followed(schema["properties"][name], defs)
        for branch in schema.get("allOf", []):
            yield from declared(branch, name, defs)


def array_property(schema: dict[str, Any], answer: Any) -> str | None:
    """A top-level property of `answer` holding an array where the exact schema says array
    (no union that could take an object beside it), or None."""
    defs = schema.get("$defs", {})
    for name, value in answer.items() if isinstance(answer, dict) else ():
        found = list(declared(schema, name, defs))
        arrays = [d for d in found if isinstance(d, dict) and d.get("type") in ("array", ["array"])]
        unions = [d for d in found if isinstance(d, dict) and ("anyOf" in d or "oneOf" in d)]
        if isinstance(value, list) and arrays and not unions:
            return str(name)
    return None


@pytest.mark.corpus
@pytest.mark.laws
@pytest.mark.parametrize("path", corpus_documents())
def test_a_drifting_answer_is_structured_and_another_kind_is_located(path: Path) -> None:
    generated = kinds = 0
    tools = pairs(path)
    for exact, shape, schema in tools:
        rng = random.Random(exact.name)
        try:
            answer = Generator(schema).value(
                schema["properties"]["result"] if exact.output_wrapped else schema
            )
        except (Unable, KeyError, RecursionError):
            continue
        if "structuredContent" not in answered(exact, answer):
            continue  # the generator missed a constraint: not an answer the document allows
        generated += 1
        for how, mutant in drifted(answer, rng):
            result = answered(shape, mutant)
            assert result.get("structuredContent") == structured_as(shape, mutant), (
                shape.name,
                how,
                result["content"][0]["text"][:300],
            )
        name = array_property(schema, structured_as(exact, answer))
        if name is not None:
            kinds += 1
            if exact.output_wrapped:
                answer, where = {"drift": 1}, " at /: "
            else:
                answer[name], where = {"drift": 1}, f" at /{escape(name)}: "
            text = answered(shape, answer)["content"][0]["text"]
            assert text.startswith(
                f"HTTP 200 (the response does not match the tool's output schema{where}"
            ), (shape.name, text[:300])
    assert generated >= 0.8 * len(tools)
    assert kinds > 0 or not tools
