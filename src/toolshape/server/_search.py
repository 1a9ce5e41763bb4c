"""S23.7, S27.7: finding the tools of a large API by words — what `toolshape serve
--discovery`'s `search_operations` answers with, as a pure function of the plans.

BM25 over each tool's words (its name, title, tags with their titles, path and description,
weighted in that order), a word's singular and plural alike and a few verbs by their usual synonyms
(`delete contact` finds `contacts_remove`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from toolshape.plans._plan import Plan

#: How much a word counts where it is found: the name, the title, the tags, the path, the rest
#: of the description (the order `Indexed.fields` holds them in).
_WEIGHTS = (4.0, 3.0, 2.0, 2.0, 1.0)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
#: S27.7: the longest query a search takes (a longer one is an argument error: the cost of a
#: search grows with its words).
MAX_QUERY_WORDS, MAX_QUERY_CHARS = 64, 1024
#: S27.7: words that mean one thing to a caller, each read as the first of its row.
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("delete", "remove"),
    ("create", "add", "new"),
    ("update", "modify", "edit"),
    ("list", "all", "search"),
    ("get", "fetch", "retrieve"),
)
_CANONICAL = {word: row[0] for row in SYNONYMS for word in row}
#: BM25's saturation and length normalization (its usual values).
_K1, _B = 1.2, 0.75


def words(text: str) -> list[str]:
    """The words of `text`, lower case, each singular and its synonyms' first
    (`listPetsByOwner` → list, pet, by, owner; `removeContacts` → delete, contact)."""
    return [_term(w.lower()) for w in _WORD.findall(text)]


def _term(word: str) -> str:
    """A word as a search compares it: singular (the common English plurals), and the first
    of its synonyms."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return _CANONICAL.get(word, word)


def search(
    plans: Iterable[Plan],
    query: str,
    limit: int = 10,
    *,
    tag_titles: Mapping[str, str] | None = None,
) -> list[Plan]:
    """S23.7, S27.7: the plans that best match the words of `query`, best first (at most
    `limit`): BM25 over each tool's words, a word in its name counting most, then its title,
    its tags (each with its title from `tag_titles`, S26.9: `PlanResult.tag_titles`), its path
    and its description. Tools no query word matches are left out; ties keep the plans' order.
    (`ranked(index(plans), ...)`: a server that searches the same plans again keeps the index.)

    Raises:
        ValueError: a query of more than 64 words or 1,024 characters (S27.7).
    """
    return ranked(index(plans, tag_titles), query, limit)


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
    """One plan and its words: each word's weighted count (its fields' weights summed), and
    the weighted length of all of them."""

    plan: Plan
    counts: Mapping[str, float]
    length: float


@dataclass(frozen=True, slots=True)
class Index:
    """Every plan's words, and what BM25 needs of all of them: how many plans have each word,
    and the plans' average weighted length."""

    tools: tuple[Indexed, ...]
    having: Mapping[str, int]
    average: float


def index(plans: Iterable[Plan], tag_titles: Mapping[str, str] | None = None) -> Index:
    """The words of every plan's name, title, tags (each with its title in `tag_titles`),
    path and description, read once."""
    titles = tag_titles or {}
    return indexed((plan, titles) for plan in plans)


def indexed(tools: Iterable[tuple[Plan, Mapping[str, str]]]) -> Index:
    """`index` of plans each with its own API's tag titles."""
    entries = []
    having: dict[str, int] = {}
    for plan, titles in tools:
        tags = " ".join(f"{tag} {titles.get(tag, '')}" for tag in plan.tags)
        texts = (plan.name, plan.title or "", tags, plan.path, plan.description)
        counts: dict[str, float] = {}
        length = 0.0
        for weight, text in zip(_WEIGHTS, texts, strict=True):
            for word in words(text):
                counts[word] = counts.get(word, 0.0) + weight
                length += weight
        for word in counts:
            having[word] = having.get(word, 0) + 1
        entries.append(Indexed(plan, counts, length))
    average = sum(t.length for t in entries) / len(entries) if entries else 1.0
    return Index(tuple(entries), having, average or 1.0)


def ranked(indexed: Index, query: str, limit: int = 10) -> list[Plan]:
    """`search` over plans already indexed.

    Raises:
        ValueError: a query of more than 64 words or 1,024 characters (S27.7).
    """
    problem = query_problem(query)
    if problem is not None:
        raise ValueError(problem)
    wanted = set(words(query))
    if not wanted or limit < 1:
        return []
    total = len(indexed.tools)
    idf = {
        word: math.log(1 + (total - n + 0.5) / (n + 0.5))
        for word in wanted
        if (n := indexed.having.get(word, 0))
    }
    scored = [
        (score, i, entry.plan)
        for i, entry in enumerate(indexed.tools)
        if (score := _score(entry, idf, indexed.average))
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [plan for _, _, plan in scored[:limit]]


def _score(entry: Indexed, idf: Mapping[str, float], average: float) -> float:
    """BM25 of one tool for the query words found anywhere (`idf`, their rarity)."""
    norm = _K1 * (1 - _B + _B * entry.length / average)
    return sum(
        weight * tf * (_K1 + 1) / (tf + norm)
        for word, weight in idf.items()
        if (tf := entry.counts.get(word, 0.0))
    )
