"""S9.1: two channels that declare one flat argument name."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from toolshape.model._types import CHANNEL_ARGUMENT, Channel


@dataclass(frozen=True, slots=True)
class Collision:
    """`name` is declared by both `first` and `second` (channels in S4.1 order)."""

    name: str
    first: Channel
    second: Channel
    wrapped_body: bool = False
    """The second declaration is a wrapped body's `body` argument (S9.1, `legacy`)."""

    @property
    def channels(self) -> tuple[str, str]:
        """The nested argument names of both channels (`queryParams`, `body`); for a wrapped
        body, the parameter's own channel first (`headers`, `body`), wherever it sorts."""
        first, second = CHANNEL_ARGUMENT[self.first], CHANNEL_ARGUMENT[self.second]
        if self.wrapped_body and first == "body":
            return second, first
        return first, second

    @property
    def reason(self) -> str:
        """The S9.1 reason, as the error and the legacy warning show it."""
        first, second = self.channels
        if self.wrapped_body:
            # S9.1: the message names the parameter's own channel, wherever it sorts.
            channel = first
            return (
                f"`{self.name}` is declared as a parameter by `{channel}` and is also where this "
                "operation's request body has to go"
            )
        return (
            f"`{self.name}` is declared by both `{first}` and `{second}`, so the two cannot share "
            "one flat argument"
        )

    @property
    def fix(self) -> str:
        """What to change, the sentence after the reason."""
        if self.wrapped_body:
            return "Rename the `body` parameter, or make the body a plain object, to flatten it"
        return "Rename one of them to flatten it"


def detect_collision(
    channels: Iterable[tuple[Channel, Sequence[str]]], *, wrapped_body: bool = False
) -> Collision | None:
    """The first flat argument name two channels share, in S4.1 order, or None.

    `channels` lists each channel with its argument names (header names after S4.5); pass the
    channels in flat order (path, query, body, header, cookie). With `wrapped_body`, the body
    channel's one name is the wrapped body's `body` argument.

        >>> detect_collision([("query", ["id"]), ("body", ["id", "name"])])
        Collision(name='id', first='query', second='body', wrapped_body=False)
    """
    seen: dict[str, Channel] = {}
    for channel, names in channels:
        for name in names:
            if name in seen:
                return Collision(
                    name,
                    seen[name],
                    channel,
                    wrapped_body=wrapped_body and "body" in (channel, seen[name]),
                )
            seen[name] = channel
    return None
