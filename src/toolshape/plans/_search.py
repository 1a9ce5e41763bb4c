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
#: S27.7: the longest query a search takes (a longer one is an argument error: the cost of a
#: search grows with its words).
MAX_QUERY_WORDS, MAX_QUERY_CHARS = 64, 1024
#: A query word this long or longer also matches the words it begins (counting half).
_PREFIX = 3


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

    Raises:
        ValueError: a query of more than 64 words or 1,024 characters (S27.7).
    """
    return ranked(index(plans), query, limit)


def query_problem(query: str) -> str | None:
    """S27.7: why `query` is too long to search, or None."""
    if len(query) > MAX_QUERY_CHARS or len(_WORD.findall(query)) > MAX_QUERY_WORDS:
        return (
            f"a query takes at most {MAX_QUERY_WORDS} words and {MAX_QUERY_CHARS} characters; "
            f"this one has {len(_WORD.findall(query[:100_000]))} words and {len(query)} characters"
        )
    return None


@dataclass(frozen=True, slots=True)
class Indexed:
    """One plan and the words of each field a search weighs (in `_WEIGHTS` order), with every
    beginning of them a query word may be (so a search costs its words, not the index's)."""

    plan: Plan
    fields: tuple[frozenset[str], ...]
    beginnings: tuple[frozenset[str], ...]


def index(plans: Iterable[Plan]) -> tuple[Indexed, ...]:
    """The words of every plan's name, title, tags, path and description, read once."""
    out = []
    for plan in plans:
        texts = (plan.name, plan.title or "", " ".join(plan.tags), plan.path, plan.description)
        fields = tuple(frozenset(words(text)) for text in texts)
        out.append(Indexed(plan, fields, tuple(_beginnings(field) for field in fields)))
    return tuple(out)


def _beginnings(present: frozenset[str]) -> frozenset[str]:
    """Every beginning of `present`'s words that a query word can be, the words excluded."""
    return frozenset(word[:end] for word in present for end in range(_PREFIX, len(word))) - present


def ranked(indexed: Iterable[Indexed], query: str, limit: int = 10) -> list[Plan]:
    """`search` over plans already indexed.

    Raises:
        ValueError: a query of more than 64 words or 1,024 characters (S27.7).
    """
    problem = query_problem(query)
    if problem is not None:
        raise ValueError(problem)
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
    """Each query word found whole in a field counts that field's weight, one that begins a
    word of it half."""
    return sum(
        weight * (len(wanted & whole) + 0.5 * len(wanted & begun))
        for weight, whole, begun in zip(_WEIGHTS, entry.fields, entry.beginnings, strict=True)
    )
