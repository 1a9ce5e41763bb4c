"""S23.7: finding the tools of a large API by words — what `toolshape serve --discovery`'s
`search_operations` answers with, as a pure function of the plans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from toolshape.plans._plan import Plan

#: How much a word counts where it is found: the name, the title, the tags, the path, the rest
#: of the description (the order `Indexed.fields` holds them in).
_WEIGHTS = (4.0, 3.0, 2.0, 2.0, 1.0)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def words(text: str) -> set[str]:
    """The lower-case words of `text`, camelCase, snake_case and paths split
    (`listPetsByOwner` → list, pets, by, owner)."""
    return {w.lower() for w in _WORD.findall(text)}


def search(plans: Iterable[Plan], query: str, limit: int = 10) -> list[Plan]:
    """S23.7: the plans that best match the words of `query`, best first (at most `limit`).

    A query word found in a tool's name counts most, then its title, its tags, its path and
    its description; a word that only begins one of them counts half. Tools no query word
    matches are left out; ties keep the plans' order. (`ranked(index(plans), ...)`: a server
    that searches the same plans again keeps the index.)
    """
    return ranked(index(plans), query, limit)


@dataclass(frozen=True, slots=True)
class Indexed:
    """One plan and the words of each field a search weighs (in `_WEIGHTS` order)."""

    plan: Plan
    fields: tuple[frozenset[str], ...]


def index(plans: Iterable[Plan]) -> tuple[Indexed, ...]:
    """The words of every plan's name, title, tags, path and description, read once."""
    return tuple(
        Indexed(
            plan,
            tuple(
                frozenset(words(text))
                for text in (
                    plan.name,
                    plan.title or "",
                    " ".join(plan.tags),
                    plan.path,
                    plan.description,
                )
            ),
        )
        for plan in plans
    )


def ranked(indexed: Iterable[Indexed], query: str, limit: int = 10) -> list[Plan]:
    """`search` over plans already indexed."""
    wanted = words(query)
    if not wanted or limit < 1:
        return []
    scored = [
        (score, i, entry.plan)
        for i, entry in enumerate(indexed)
        if (score := _score(entry, wanted))
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [plan for _, _, plan in scored[:limit]]


def _score(entry: Indexed, wanted: set[str]) -> float:
    return sum(w * _found(wanted, f) for w, f in zip(_WEIGHTS, entry.fields, strict=True))


def _found(wanted: set[str], present: frozenset[str]) -> float:
    """How many query words are among `present`: whole words count one, prefixes half."""
    total = 0.0
    for word in wanted:
        if word in present:
            total += 1.0
        elif len(word) >= 3 and any(p.startswith(word) for p in present):
            total += 0.5
    return total
