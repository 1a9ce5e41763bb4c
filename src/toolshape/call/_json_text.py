"""S25.5: JSON text where a value is declared. Models often send an object or an array as its
JSON text; where the schema admits no string, such text is read as the object or array it
spells when that is of a kind the schema admits there. A string the schema admits is never
read, and text spelling a number, a boolean or null stays text (refused): "1" is not an
integer, as the JSON-Schema-Test-Suite holds."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from toolshape.model._json import Unchecked, thaw
from toolshape.schema._validate import Judge


def json_text_read(judge: Judge, arguments: Unchecked) -> tuple[Unchecked, tuple[str, ...]] | None:
    """`arguments` (a copy) with each string the schema refuses for its type, where it admits
    no string, read as the JSON it spells — when that JSON is of a kind admitted there — and
    the paths read (`items`, `body.filter`); None when there is no such string."""
    found: dict[tuple[str | int, ...], Unchecked] = {}
    try:
        refused = list(_refused_texts(judge.validator.iter_errors(arguments)))
    except Exception:  # S14.4: what the judge could not evaluate, it has refused already
        return None
    for place, text, allowed in refused:
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if place and _admitted(parsed, allowed):
            found[place] = parsed
    if not found:
        return None
    out = thaw(arguments)
    for place, value in found.items():
        node: Any = out
        for part in place[:-1]:
            node = node[part]
        node[place[-1]] = value
    return out, tuple(".".join(map(str, place)) for place in found)


def _refused_texts(
    errors: Iterable[Any],
) -> Iterable[tuple[tuple[str | int, ...], str, tuple[str, ...]]]:
    """Where a string is refused for its type by a schema that admits no string, the string
    and the types admitted there: a `type` error, or a union every branch of which refuses it
    for its type (a union that admits text in any branch is never read as JSON)."""
    for error in errors:
        if not isinstance(error.instance, str):
            continue
        if error.validator == "type":
            allowed = _types(error.validator_value)
        elif error.validator in ("anyOf", "oneOf"):
            branches = [e for e in error.context or () if not e.relative_path]
            if len(branches) != len(error.validator_value) or not all(
                e.validator == "type" for e in branches
            ):
                continue
            allowed = tuple(t for e in branches for t in _types(e.validator_value))
        else:
            continue
        if "string" not in allowed:
            yield tuple(error.absolute_path), error.instance, allowed


def _types(value: Unchecked) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _admitted(value: Unchecked, allowed: tuple[str, ...]) -> bool:
    """Whether a parsed value is an object or an array of a type in `allowed`."""
    return (isinstance(value, dict) and "object" in allowed) or (
        isinstance(value, list) and "array" in allowed
    )
