"""Patterns (S13.3): what Python's `re` can compile, and which patterns can backtrack
catastrophically.

`parse` reads a pattern Python's `re` compiles into a small tree — groups, alternatives,
repeats with their bounds, and the constructs other engines may lack (back references,
look-around, atomic groups, possessive repeats, conditionals) — with this module's own reader,
not the interpreter's private parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

UNBOUNDED = -1
"""A repeat's `high` when nothing bounds it (`*`, `+`, `{2,}`)."""


@dataclass(slots=True)
class Node:
    """One part of a pattern: `kind` is `"repeat"` (with `low`, `high`, `mode`: `greedy`,
    `lazy` or `possessive`), `"group"` (with `flavour`: `plain`, `capture`, `atomic`,
    `lookahead`, `lookbehind`, `conditional`, `flags`), `"backref"`, `"class"`, `"escape"`
    (with `text`: the escape as written), `"anchor"` (`^`, `$`) or `"literal"`; `children`
    holds a group's alternatives (each a list of nodes) or a repeat's one body."""

    kind: str
    children: list[list[Node]] = field(default_factory=list)
    low: int = 0
    high: int = 0
    mode: str = "greedy"
    flavour: str = ""
    text: str = ""


class _Reader:
    """A recursive-descent reader of Python's pattern syntax (the subset `re` accepts)."""

    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.at = 0

    def alternatives(self) -> list[list[Node]]:
        branches: list[list[Node]] = [[]]
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == ")":
                break
            if char == "|":
                self.at += 1
                branches.append([])
                continue
            atom = self.atom()
            if atom is not None:
                branches[-1].append(self.repeated(atom))
        return branches

    def atom(self) -> Node | None:
        char = self.text[self.at]
        self.at += 1
        if char == "(":
            return self.group()
        if char == "[":
            self.klass()
            return Node("class")
        if char == "\\":
            return self.escape()
        if char in "^$":
            return Node("anchor", text=char)
        return Node("literal", text=char)

    def escape(self) -> Node:
        start = self.at - 1
        char = self.text[self.at]
        self.at += 1
        if char.isdigit() and char != "0":
            while self.at < len(self.text) and self.text[self.at].isdigit():
                self.at += 1
            return Node("backref", text=self.text[start : self.at])
        if char == "N" and self.text.startswith("{", self.at):
            self.at = self.text.index("}", self.at) + 1
        elif char in "xuU0":
            width = {"x": 2, "u": 4, "U": 8, "0": 2}[char]
            while self.at < len(self.text) and width and self.text[self.at] in _HEX:
                self.at += 1
                width -= 1
        return Node("escape", text=self.text[start : self.at])

    def klass(self) -> None:
        """Skip a character class (`[...]`; a `]` first is a literal, escapes skipped)."""
        if self.text.startswith("^", self.at):
            self.at += 1
        if self.text.startswith("]", self.at):
            self.at += 1
        while self.text[self.at] != "]":
            self.at += 2 if self.text[self.at] == "\\" else 1
        self.at += 1

    def group(self) -> Node | None:
        flavour = "capture"
        if self.text.startswith("?", self.at):
            flavour = self.extension()
            if flavour in ("comment", "flags-only", "named-backref"):
                return Node("backref") if flavour == "named-backref" else None
        node = Node("group", flavour=flavour, children=self.alternatives())
        self.at += 1  # the closing `)`
        return node

    def extension(self) -> str:
        """Read what follows `(?`; the group's flavour."""
        rest = self.text[self.at + 1 :]
        prefix, flavour = next(
            ((p, f) for p, f in _EXTENSIONS if rest.startswith(p)), ("", "flags")
        )
        self.at += 1 + len(prefix)
        if flavour == "named":
            self.at = self.text.index(">", self.at) + 1
            return "capture"
        if flavour == "named-backref" or flavour == "comment" or flavour == "conditional":
            self.at = self.text.index(")", self.at) + 1
        elif flavour == "flags":
            match = _FLAGS.match(self.text, self.at)
            assert match is not None  # `re` compiled it
            self.at = match.end()
            if match.group(0).endswith(")"):
                return "flags-only"
        return flavour

    def repeated(self, atom: Node) -> Node:
        match = _QUANTIFIER.match(self.text, self.at)
        if match is None:
            return atom
        self.at = match.end()
        star, low, comma, high, mode = match.groups()
        if star:
            bounds = {"*": (0, UNBOUNDED), "+": (1, UNBOUNDED), "?": (0, 1)}[star]
        else:
            lowest = int(low) if low else 0
            bounds = (lowest, lowest if not comma else int(high) if high else UNBOUNDED)
        repeat = Node("repeat", [[atom]], bounds[0], bounds[1])
        repeat.mode = {"": "greedy", "?": "lazy", "+": "possessive"}[mode]
        return self.repeated(repeat)  # `a{2}{3}` repeats a repeat


_HEX = frozenset("0123456789abcdefABCDEF")
#: What may follow `(?`, and the flavour of group it opens (`flags` for anything else).
_EXTENSIONS = (
    (":", "plain"),
    ("P<", "named"),
    ("<=", "lookbehind"),
    ("<!", "lookbehind"),
    ("<", "named"),
    ("P=", "named-backref"),
    ("=", "lookahead"),
    ("!", "lookahead"),
    (">", "atomic"),
    ("#", "comment"),
    ("(", "conditional"),
)
_FLAGS = re.compile(r"[aiLmsux-]*[:)]")
_QUANTIFIER = re.compile(r"(?:([*+?])|\{(\d*)(,?)(\d*)\})([?+]?)")


def compiles(pattern: str) -> bool:
    """Whether Python's `re` can compile `pattern` (ECMA-262-only syntax like `\\p{L}` can't)."""
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def parse(pattern: str) -> list[list[Node]] | None:
    """The alternatives of a pattern `re` compiles, as trees of `Node`s; None for one it can't
    (or one this reader can't follow)."""
    if not compiles(pattern):
        return None
    reader = _Reader(pattern)
    try:
        tree = reader.alternatives()
    except (ValueError, IndexError, AssertionError, RecursionError):
        return None
    return tree if reader.at == len(pattern) else None


def _nested(branches: list[list[Node]], inside: bool) -> bool:
    """True when an unbounded repeat holds another repeat that can match more than once."""
    for branch in branches:
        for node in branch:
            if node.kind == "repeat":
                if inside and (node.high == UNBOUNDED or node.high > 1):
                    return True
                if _nested(node.children, inside or node.high == UNBOUNDED):
                    return True
            elif node.kind == "group" and _nested(node.children, inside):
                return True
    return False


def nested_quantifier(pattern: str) -> bool:
    """Whether `pattern` repeats a repeat (`(a+)+`, `(\\w+\\s?)*`): such a pattern can take time
    exponential in the length of a value that almost matches (S13.3: warned at planning and
    never evaluated twice per call)."""
    tree = parse(pattern)
    return tree is not None and _nested(tree, False)
