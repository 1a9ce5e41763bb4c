"""Patterns: what Python's `re` can compile, and which patterns can backtrack catastrophically."""

from __future__ import annotations

import re
from typing import Any

try:  # the parser behind `re.compile`; private, so its absence only turns the check off
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10 names it `sre_parse`
    try:
        import sre_parse as _sre_parse
    except ImportError:
        _sre_parse = None

_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})


def compiles(pattern: str) -> bool:
    """Whether Python's `re` can compile `pattern` (ECMA-262-only syntax like `\\p{L}` can't)."""
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def _repeats(items: Any, inside: bool) -> bool:
    """True when an unbounded repeat holds another repeat (`(a+)+`), at any depth."""
    for op, av in items:
        name = str(op)
        if name in _REPEATS:
            _low, high, body = av
            if inside and high > 1:
                return True
            if _repeats(body, inside or high == _sre_parse.MAXREPEAT):
                return True
        elif name == "SUBPATTERN":
            if _repeats(av[-1], inside):
                return True
        elif name == "BRANCH":
            if any(_repeats(branch, inside) for branch in av[1]):
                return True
        elif name in ("ASSERT", "ASSERT_NOT"):
            if _repeats(av[1], inside):
                return True
        elif name == "ATOMIC_GROUP" and _repeats(av, inside):
            return True
    return False


def nested_quantifier(pattern: str) -> bool:
    """Whether `pattern` repeats a repeat (`(a+)+`, `(\\w+\\s?)*`): such a pattern can take time
    exponential in the length of a value that almost matches (S13.3: warned at planning and
    never evaluated twice per call)."""
    if _sre_parse is None or not compiles(pattern):
        return False
    try:
        return _repeats(_sre_parse.parse(pattern), False)
    except (re.error, RecursionError, OverflowError, ValueError, TypeError):
        return False
