"""Flattening (S3-S9, S11, S19): the primitives that turn a body and parameters into nested
and flat input schemas.

The design card's primitives of this stage, each a pure function usable alone."""

from toolshape.flatten._allof import merge_allof
from toolshape.flatten._collide import Collision, detect_collision
from toolshape.flatten._hoist import hoist_body
from toolshape.flatten._policy import KeyPolicy, apply_key_policy
from toolshape.model._types import Hoisted, Wrapped

__all__ = [
    "Collision",
    "Hoisted",
    "KeyPolicy",
    "Wrapped",
    "apply_key_policy",
    "detect_collision",
    "hoist_body",
    "merge_allof",
]


def __dir__() -> list[str]:
    return __all__
