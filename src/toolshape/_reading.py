"""S13.1: which readings of a call to try, in order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolshape._route import router_for
from toolshape._types import Json, Reading

if TYPE_CHECKING:
    from toolshape._plan import Plan

NESTED_ONLY: tuple[Reading, ...] = ("nested",)
NESTED_FIRST: tuple[Reading, ...] = ("nested", "flat")
FLAT_THEN_NESTED: tuple[Reading, ...] = ("flat", "nested")
FLAT_ONLY: tuple[Reading, ...] = ("flat",)


def pick_reading(plan: Plan, arguments: Json) -> tuple[Reading, ...]:
    """The readings of `arguments` to try, in order; errors are reported for the first (S13.1).

    A nested tool reads nested only (S13.2). A flat tool reads nested first when every key is
    a channel name that is not also a flat property (and there is one); otherwise flat first,
    then nested when every key is a channel name. A call is never read half and half.
    """
    if plan.style == "nested":
        return NESTED_ONLY
    if not isinstance(arguments, dict) or not arguments:
        return FLAT_ONLY
    channels = router_for(plan).channel_names
    if not all(key in channels for key in arguments):
        return FLAT_ONLY
    properties = plan._input.get("properties", {})
    if any(key in properties for key in arguments):
        return FLAT_THEN_NESTED  # S13.1: a channel name that is also a flat property is read flat
    return NESTED_FIRST
