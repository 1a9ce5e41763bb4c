"""S25.6: a JSON answer cut to fit a budget of bytes — the longest arrays lose items from
their end — and what was left out, by JSON pointer. Pure: the server decides when to ask."""

from __future__ import annotations

import json
from dataclasses import dataclass

from toolshape.model._json import Json, thaw
from toolshape.model._pointers import pointer


@dataclass(frozen=True, slots=True)
class Cut:
    """One array an answer was cut in: where (a JSON pointer into the answer), how many of its
    items were kept, and how many it had."""

    pointer: str
    kept: int
    total: int

    def to_dict(self) -> dict[str, Json]:
        return {"pointer": self.pointer, "kept": self.kept, "total": self.total}


def size(value: Json) -> int:
    """The bytes of `value` as compact JSON in UTF-8."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def fit(value: Json, budget: int) -> tuple[Json, tuple[Cut, ...]] | None:
    """`value` (a copy) within `budget` bytes as compact JSON, its longest arrays (most items
    first; of two as long, the larger) losing items from their end one array at a time, and
    the cuts made (by pointer); None when no cut of arrays can make it fit.

        >>> fit({"data": [1, 2, 3, 4], "more": True}, 25)
        ({'data': [1], 'more': True}, (Cut(pointer='/data', kept=1, total=4),))
    """
    value = thaw(value)
    total = size(value)
    totals: dict[tuple[str | int, ...], int] = {}
    while total > budget:
        found = _largest(value)
        if found is None:
            return None
        place, items = found
        totals.setdefault(place, len(items))
        over = total - budget
        dropped = 0
        while items and dropped < over:
            dropped += size(items.pop()) + (1 if items else 0)
        total = size(value)
    cuts = [
        Cut(pointer(*map(str, place)), len(_at(value, place)), count)
        for place, count in totals.items()
    ]
    return value, tuple(sorted(cuts, key=lambda cut: cut.pointer))


def _largest(value: Json) -> tuple[tuple[str | int, ...], list[Json]] | None:
    """The longest non-empty array of `value` (most items; of two as long, the larger), and
    where it is."""
    best: tuple[int, int, tuple[str | int, ...], list[Json]] | None = None
    stack: list[tuple[tuple[str | int, ...], Json]] = [((), value)]
    while stack:
        place, node = stack.pop()
        if isinstance(node, dict):
            stack.extend(((*place, key), item) for key, item in node.items())
        elif isinstance(node, list):
            if node and (best is None or len(node) >= best[0]):
                rank = (len(node), size(node))
                if best is None or rank > best[:2]:
                    best = (*rank, place, node)
            stack.extend(((*place, i), item) for i, item in enumerate(node))
    return None if best is None else (best[2], best[3])


def _at(value: Json, place: tuple[str | int, ...]) -> list[Json]:
    node = value
    for part in place:
        node = node[part]  # type: ignore[index]
    assert isinstance(node, list)
    return node
