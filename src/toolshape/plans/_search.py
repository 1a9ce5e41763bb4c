"""S23.7: finding the tools of a large API by words — what `toolshape serve --discovery`'s
`search_operations` answers with, as a pure function of the plans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from toolshape.plans._plan import Plan

#: How much a word counts where it is found: the name, the title, the tags, the path, the rest
#: of the description.
_WEIGHTS = (("name", 4.0), ("title", 3.0), ("tags", 2.0), ("path", 2.0), ("description", 1.0))
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def words(text: str) -> set[str]:
    """The lower-case words of `text`, camelCase, snake_case and paths split
    (`listPetsByOwner` → list, pets, by, owner)."""
    return {w.lower() for w in _WORD.findall(text)}


def search(plans: Iterable[Plan], query: str, limit: int = 10) -> list[Plan]:
    """S23.7: the plans that best match the words of `query`, best first (at most `limit`).

    A query word found in a tool's name counts most, then its title, its tags, its path and
    its description; a word that only begins one of them counts half. Tools no query word
    matches are left out; ties keep the plans' order.
    """
    wanted = words(query)
    if not wanted or limit < 1:
        return []
    scored = [(score, i, plan) for i, plan in enumerate(plans) if (score := _score(plan, wanted))]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [plan for _, _, plan in scored[:limit]]


def _score(plan: Plan, wanted: set[str]) -> float:
    fields = {
        "name": words(plan.name),
        "title": words(plan.title or ""),
        "tags": words(" ".join(plan.tags)),
        "path": words(plan.path),
        "description": words(plan.description),
    }
    return sum(weight * _found(wanted, fields[field]) for field, weight in _WEIGHTS)


def _found(wanted: set[str], present: Sequence[str] | set[str]) -> float:
    """How many query words are among `present`: whole words count one, prefixes half."""
    total = 0.0
    for word in wanted:
        if word in present:
            total += 1.0
        elif len(word) >= 3 and any(p.startswith(word) for p in present):
            total += 0.5
    return total
