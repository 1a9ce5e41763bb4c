"""S9.1: collisions — `detect_collision` over every pair SPEC lists, on its own."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from toolshape import Collision, detect_collision
from toolshape.model._types import Channel

Names = list[tuple[Channel, Sequence[str]]]

#: (pair, the channels in S4.1 order with their argument names, wrapped body, the collision)
ROWS: list[tuple[str, Names, bool, Collision | None]] = [
    ("query/body", [("query", ["id"]), ("body", ["id"])], False, Collision("id", "query", "body")),
    ("path/query", [("path", ["id"]), ("query", ["id"])], False, Collision("id", "path", "query")),
    ("path/body", [("path", ["id"]), ("body", ["id"])], False, Collision("id", "path", "body")),
    (
        "header/body (names after S4.5)",
        [("body", ["x-tenant"]), ("header", ["x-tenant"])],
        False,
        Collision("x-tenant", "body", "header"),
    ),
    (
        "header/cookie",
        [("header", ["s"]), ("cookie", ["s"])],
        False,
        Collision("s", "header", "cookie"),
    ),
    (
        "a parameter named body beside a wrapped body",
        [("query", ["body"]), ("body", ["body"])],
        True,
        Collision("body", "query", "body", wrapped_body=True),
    ),
    (
        "a header named body beside a wrapped body",
        [("body", ["body"]), ("header", ["body"])],
        True,
        Collision("body", "body", "header", wrapped_body=True),
    ),
    (
        "a merged allOf property beside a parameter",
        [("query", ["sort"]), ("body", ["query", "sort"])],
        False,
        Collision("sort", "query", "body"),
    ),
    ("no shared name", [("path", ["a"]), ("query", ["b"]), ("body", ["c"])], False, None),
    ("case differs (headers lowercased first)", [("query", ["X"]), ("body", ["x"])], False, None),
]


@pytest.mark.parametrize(
    ("channels", "wrapped", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_collision_pairs(channels: Names, wrapped: bool, expected: Collision | None) -> None:
    """S9.1: the first name two channels share, with both channels, in S4.1 order."""
    assert detect_collision(channels, wrapped_body=wrapped) == expected


@pytest.mark.parametrize(
    ("collision", "reason"),
    [
        (
            Collision("id", "query", "body"),
            "`id` is declared by both `queryParams` and `body`, so the two cannot share one flat argument",
        ),
        (
            Collision("body", "body", "header", wrapped_body=True),
            "`body` is declared as a parameter by `headers` and is also where this operation's request body has to go",
        ),
    ],
)
def test_collision_reasons_name_both_channels(collision: Collision, reason: str) -> None:
    """S9.1: the reason names the argument and both channels (a wrapped body: the parameter's)."""
    assert collision.reason == reason


@pytest.mark.parametrize(
    ("collision", "channels"),
    [
        (Collision("id", "query", "body"), ("queryParams", "body")),
        (Collision("body", "query", "body", wrapped_body=True), ("queryParams", "body")),
        (Collision("body", "body", "header", wrapped_body=True), ("headers", "body")),
        (Collision("body", "body", "cookie", wrapped_body=True), ("cookies", "body")),
    ],
)
def test_a_wrapped_body_collision_names_the_parameters_channel_first(
    collision: Collision, channels: tuple[str, str]
) -> None:
    """S9.1: a parameter named `body` beside a wrapped body is named by its own channel
    (`headers`, `cookies`) — first, wherever it sorts — never as `body`."""
    assert collision.channels == channels
