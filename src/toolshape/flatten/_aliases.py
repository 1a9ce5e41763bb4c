"""S19: aliases — advertised names that differ from the wire names.

Two opt-ins make them: `portable_names` (every top-level argument name the strictest model APIs
would refuse gets one, S19.2) and `on_collision="rename"` (every colliding parameter is
advertised as `<name>__<in>`, S19.3). Pure functions over names; the planner applies them and
the plan routes each alias back to its channel and wire name (S19.1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from toolshape.model._names import LIMIT, PORTABLE_KEY
from toolshape.model._types import Channel

_KEY_OTHERS = re.compile(r"[^A-Za-z0-9_.-]+")
_TOOL_OTHERS = re.compile(r"[^A-Za-z0-9_-]+")

Aliases = Mapping[tuple[Channel, str], str]
"""Advertised names by `(channel, name)`: the name being the argument name after S4.5 (a
header lower case), a body property's name as declared."""


def portable(name: str, *, tool: bool = False) -> str:
    """S19.2: each run of other characters becomes `_`, leading and trailing `_` trimmed, cut
    to 64; an empty result is `arg` (`include[]` → `include`, `$top` → `top`). With `tool`,
    the tool-name rule (`.` is another character too)."""
    others = _TOOL_OTHERS if tool else _KEY_OTHERS
    return others.sub("_", name).strip("_")[:LIMIT] or "arg"


class Taken:
    """Names given so far (S19.2), and for each base name the next suffix to try, so giving
    `n` clashing names costs `n` steps, not `n²`."""

    __slots__ = ("_next", "names")

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = set(names)
        self._next: dict[tuple[str, int], int] = {}

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def add(self, name: str) -> None:
        self.names.add(name)


def unique(name: str, taken: Taken, limit: int = LIMIT) -> str:
    """`name`, or with the first of `_2`, `_3`, … that makes it free (cut to fit `limit`);
    the suffixes tried for `name` before are not tried again."""
    if name not in taken:
        return name
    key = (name, limit)
    number = taken._next.get(key, 2)
    while True:
        suffix = f"_{number}"
        candidate = name[: limit - len(suffix)] + suffix
        number += 1
        if candidate not in taken:
            taken._next[key] = number
            return candidate


def portable_aliases(names: Sequence[tuple[Channel, str]]) -> dict[tuple[Channel, str], str]:
    """S19.2: an alias for every name outside `PORTABLE_KEY`, in declaration order; a clash
    with a kept name or an earlier alias takes the next suffix."""
    taken = Taken(name for _, name in names if PORTABLE_KEY.fullmatch(name))
    out: dict[tuple[Channel, str], str] = {}
    for channel, name in names:
        if PORTABLE_KEY.fullmatch(name):
            continue
        alias = unique(portable(name), taken)
        taken.add(alias)
        out[channel, name] = alias
    return out


def collision_renames(
    channels: Iterable[tuple[Channel, Sequence[str]]],
) -> dict[tuple[Channel, str], str]:
    """S19.3: every parameter whose flat name another channel declares too, as `<name>__<in>`
    (`id__path`); a body property keeps its name (a wrapped body's `body` argument too)."""
    listed = [(channel, name) for channel, names in channels for name in names]
    declared_by: dict[str, set[Channel]] = {}
    for channel, name in listed:
        declared_by.setdefault(name, set()).add(channel)
    return {
        (channel, name): f"{name}__{channel}"
        for channel, name in listed
        if len(declared_by[name]) > 1 and channel != "body"
    }
