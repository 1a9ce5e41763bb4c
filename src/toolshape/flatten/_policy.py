"""S7: what the flat root does with an argument nothing declares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from toolshape.model._types import Hoisted, Schema, Wrapped


@dataclass(frozen=True, slots=True)
class KeyPolicy:
    """The flat root's key policy (S7)."""

    additional_properties: Schema | None
    """The flat root's `additionalProperties`; `None` leaves it out of the schema."""
    undeclared: Literal["reject", "body"]
    """An undeclared argument is an argument error, or a body field of that name."""


def apply_key_policy(
    body: Hoisted | Wrapped | None, *, open_body_root: Literal["absent", "empty"] = "absent"
) -> KeyPolicy:
    """The flat root's key policy, decided by the body alone, never by the parameters (S7).

    `body` is the hoisting result, or None for a tool without a body. `open_body_root="empty"`
    is the `legacy` form of an open body (`additionalProperties: {}`).

        >>> from toolshape.flatten import hoist_body
        >>> apply_key_policy(hoist_body({"type": "object", "properties": {}, "additionalProperties": False}))
        KeyPolicy(additional_properties=False, undeclared='reject')
    """
    if not isinstance(body, Hoisted):
        return KeyPolicy(False, "reject")  # no body, or a wrapped one: nothing to forward into
    if body.additional_properties is False:
        return KeyPolicy(False, "reject")
    if body.additional_properties is None:
        return KeyPolicy({} if open_body_root == "empty" else None, "body")
    return KeyPolicy(body.additional_properties, "body")
