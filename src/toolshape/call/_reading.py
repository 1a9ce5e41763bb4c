"""S13.1: which readings of a call to try, in order."""

from __future__ import annotations

from collections.abc import Collection, Set

from toolshape.model._json import Unchecked
from toolshape.model._types import Reading, Style

NESTED_ONLY: tuple[Reading, ...] = ("nested",)
NESTED_FIRST: tuple[Reading, ...] = ("nested", "flat")
FLAT_THEN_NESTED: tuple[Reading, ...] = ("flat", "nested")
FLAT_ONLY: tuple[Reading, ...] = ("flat",)


def pick_reading(
    arguments: Unchecked,
    *,
    style: Style,
    channels: Set[str],
    flat_properties: Collection[str],
) -> tuple[Reading, ...]:
    """The readings of `arguments` to try, in order; errors are reported for the first (S13.1).

    `style` is the tool's effective style; `channels` the names a nested call of this tool may
    use (`pathParams`, `queryParams`, `body`, `headers`, and `cookies` where it has cookie
    parameters); `flat_properties` the flat schema's property names.

    A nested tool reads nested only (S13.2). A flat tool reads nested first when every key is
    a channel name that is not also a flat property (and there is one); otherwise flat first,
    then nested when every key is a channel name. A call is never read half and half.

        >>> channels = {"pathParams", "queryParams", "body", "headers"}
        >>> pick_reading({"body": {"q": 1}}, style="flat", channels=channels, flat_properties={"q"})
        ('nested', 'flat')
    """
    if style == "nested":
        return NESTED_ONLY
    if not isinstance(arguments, dict) or not arguments or not arguments.keys() <= channels:
        return FLAT_ONLY
    if any(key in flat_properties for key in arguments):
        return FLAT_THEN_NESTED  # S13.1: a channel name that is also a flat property is read flat
    return NESTED_FIRST
