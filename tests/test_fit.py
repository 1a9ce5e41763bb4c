"""S25.6: a JSON answer cut to fit a budget — the longest arrays lose items from their end —
and what was left out, by JSON pointer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolshape.call._fit import Cut, fit, size

ROWS: list[tuple[str, Any, int, Any, list[tuple[str, int, int]] | None]] = [
    ("fits as it is", {"data": [1, 2]}, 100, {"data": [1, 2]}, []),
    (
        "one array",
        {"data": [1, 2, 3, 4], "more": True},
        25,
        {"data": [1], "more": True},
        [("/data", 1, 4)],
    ),
    ("the root array", [10, 20, 30, 40], 8, [10, 20], [("", 2, 4)]),
    (
        "the longest array first",
        {"a": [1, 2, 3], "b": ["long text", "long text"]},
        39,
        {"a": [1], "b": ["long text", "long text"]},
        [("/a", 1, 3)],
    ),
    (
        "then the next",
        {"a": [1, 2, 3], "b": ["long text", "long text"]},
        26,
        {"a": [], "b": ["long text"]},
        [("/a", 0, 3), ("/b", 1, 2)],
    ),
    (
        "inside an item, as long as it fits",
        {"page": {"items": [{"tags": ["x"] * 20}]}},
        40,
        {"page": {"items": [{"tags": ["x"] * 2}]}},
        [("/page/items/0/tags", 2, 20)],
    ),
    ("no array to cut", {"text": "x" * 100}, 50, None, None),
    ("arrays emptied, still too large", {"text": "x" * 100, "a": [1, 2]}, 50, None, None),
]


@pytest.mark.parametrize(
    ("value", "budget", "expected", "cuts"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_an_answer_is_cut_to_fit_or_refused(
    value: Any, budget: int, expected: Any, cuts: list[tuple[str, int, int]] | None
) -> None:
    """S25.6: the result fits the budget as compact JSON, the arrays cut (the longest first)
    lose items from their end only, and each cut says where, how many were kept of how
    many; nothing to cut is None; the answer given is never changed."""
    before = json.dumps(value)
    found = fit(value, budget)
    assert json.dumps(value) == before
    if expected is None:
        assert found is None
        return
    assert found is not None
    shorter, made = found
    assert shorter == expected
    assert size(shorter) <= budget
    assert made == tuple(Cut(p, kept, total) for p, kept, total in cuts or [])


def test_the_size_is_compact_utf_8_json() -> None:
    """S25.6: sizes count compact JSON in UTF-8, as a result carries it."""
    assert size({"é": [1, 2]}) == len('{"é":[1,2]}'.encode())
