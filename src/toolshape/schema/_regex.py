"""Patterns (S13.3): what Python's `re` can compile, and which patterns can backtrack
catastrophically.

`parse` reads a pattern Python's `re` compiles into a small tree — groups, alternatives,
repeats with their bounds, and the constructs other engines may lack (back references,
look-around, atomic groups, possessive repeats, conditionals) — with this module's own reader,
not the interpreter's private parser.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
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
            start = self.at - 1
            self.klass()
            return Node("class", text=self.text[start : self.at])
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
        flavour, flags = "capture", ""
        if self.text.startswith("?", self.at):
            flavour, flags = self.extension()
            if flavour == "comment":
                return None
            if flavour == "flags-only":  # `(?i)`: flags for the whole pattern
                return Node("flags", text=flags)
            if flavour == "named-backref":
                return Node("backref")
        node = Node("group", flavour=flavour, children=self.alternatives(), text=flags)
        self.at += 1  # the closing `)`
        return node

    def extension(self) -> tuple[str, str]:
        """Read what follows `(?`: the group's flavour, and its flags (`i` of `(?i:`)."""
        rest = self.text[self.at + 1 :]
        prefix, flavour = next(
            ((p, f) for p, f in _EXTENSIONS if rest.startswith(p)), ("", "flags")
        )
        self.at += 1 + len(prefix)
        if flavour == "named":
            self.at = self.text.index(">", self.at) + 1
            return "capture", ""
        if flavour == "named-backref" or flavour == "comment" or flavour == "conditional":
            self.at = self.text.index(")", self.at) + 1
        elif flavour == "flags":
            match = _FLAGS.match(self.text, self.at)
            assert match is not None  # `re` compiled it
            self.at = match.end()
            flags = match.group(0)[:-1]
            return ("flags-only" if match.group(0).endswith(")") else "flags"), flags
        return flavour, ""

    def repeated(self, atom: Node) -> Node:
        match = _QUANTIFIER.match(self.text, self.at)
        if match is None:
            return atom
        star, low, comma, high, mode = match.groups()
        if not star and not low and not comma:
            return atom  # `{}`: not a quantifier, two literal characters
        self.at = match.end()
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
        _compiled(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def _compiled(pattern: str) -> re.Pattern[str]:
    """`re.compile(pattern)`, its `FutureWarning`s (a possible nested set, `[[`) not shown:
    document text is not the caller's code.

    Raises:
        re.error: not a Python regular expression.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(pattern)


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


# -- RE2 (S24.8) --------------------------------------------------------------------------------

try:  # the optional extra `toolshape[re2]` (google-re2): linear-time matching
    import re2 as _re2
except ImportError:  # pragma: no cover - exercised where the extra is not installed
    _re2 = None

#: RE2's limit on a counted repetition (`{n,m}`); past it RE2 refuses the pattern.
_RE2_MAX_REPEAT = 1000
#: Escapes that mean the same to both engines for any text.
_SAME_ESCAPES = frozenset("afnrtvA")
#: Escapes whose classes are Unicode in Python and ASCII in RE2: alike for ASCII text only.
#: (`\B` is not among them: Python's never matches an empty text, RE2's does.)
_ASCII_ESCAPES = frozenset("dDwWb")
#: Python's `\s` on ASCII text, spelled for RE2 (whose `\s` has no `\v` nor `\x1c`-`\x1f`).
_SPACE, _NOT_SPACE = r"[\t\n\x0b\x0c\r\x1c-\x1f ]", r"[^\t\n\x0b\x0c\r\x1c-\x1f ]"


class _Unlike(Exception):
    """The pattern holds something RE2 lacks or reads otherwise."""


class _Spelling:
    """Writes a parsed Python pattern in RE2's syntax (`re2_spelling`)."""

    def __init__(self) -> None:
        self.ascii_only = False
        """The spelling reads like Python's for ASCII text only (`\\d`, `\\w`, `(?i)`...)."""

    def branches(self, branches: list[list[Node]], top: bool) -> str:
        return "|".join(self.sequence(branch, top) for branch in branches)

    def sequence(self, nodes: list[Node], top: bool) -> str:
        out = []
        for index, node in enumerate(nodes):
            if node.kind == "anchor" and node.text == "$":
                if not top or index != len(nodes) - 1:
                    raise _Unlike("`$` before the end")  # its zero width can't be spelled
                out.append(r"(?:\n?\z)")  # Python's `$`: the end, or before a final newline
            else:
                out.append(self.node(node))
        return "".join(out)

    def node(self, node: Node) -> str:
        kind = node.kind
        if kind == "literal":
            if node.text == ".":
                return "."  # any character but a newline, in both engines
            return (
                "\\" + node.text if node.text.isascii() and not node.text.isalnum() else node.text
            )
        if kind == "anchor":
            return node.text  # `^`, the start (`$` is `sequence`'s)
        if kind == "escape":
            return self.escape(node.text)
        if kind == "class":
            return self.klass(node.text)
        if kind == "flags":
            return self.flags(node.text, "")
        if kind == "group" and node.flavour in ("capture", "plain"):
            return f"(?:{self.branches(node.children, False)})"
        if kind == "group" and node.flavour == "flags":
            return self.flags(node.text, self.branches(node.children, False))
        if kind == "repeat":
            return self.repeat(node)
        raise _Unlike(kind if kind != "group" else node.flavour)  # backref, look-around, ...

    def escape(self, text: str) -> str:
        letter = text[1]
        if letter in _SAME_ESCAPES or not letter.isalnum():
            return text
        if letter == "Z":
            return r"\z"
        if letter in _ASCII_ESCAPES:
            self.ascii_only = True
            return text
        if letter in "sS":
            self.ascii_only = True
            return _SPACE if letter == "s" else _NOT_SPACE
        if letter == "x":
            return text
        if letter in "uU":
            return f"\\x{{{text[2:]}}}"
        raise _Unlike(text)  # `\N{...}`, octal

    def klass(self, text: str) -> str:
        inner = text[1:-1].lstrip("^")
        if "[" in inner or "\\s" in text or "\\S" in text or "\\b" in text:
            raise _Unlike("class")  # nested sets, a space or backspace class
        if "\\d" in text or "\\w" in text or "\\D" in text or "\\W" in text:
            self.ascii_only = True
        if any(f"\\{c}" in text for c in "uUN0123456789"):
            raise _Unlike("class escape")
        return text

    def flags(self, flags: str, body: str) -> str:
        if not flags or set(flags) - set("is"):
            raise _Unlike(f"flags {flags!r}")
        self.ascii_only = self.ascii_only or "i" in flags  # case folding beyond ASCII differs
        return f"(?{flags}:{body})" if body else f"(?{flags})"

    def repeat(self, node: Node) -> str:
        if node.mode == "possessive":
            raise _Unlike("possessive")
        (body,) = node.children
        atom = self.sequence(body, False)
        low, high = node.low, node.high
        if low > _RE2_MAX_REPEAT or high > _RE2_MAX_REPEAT:
            raise _Unlike("a repetition RE2 can't count")
        bounds = {(0, UNBOUNDED): "*", (1, UNBOUNDED): "+", (0, 1): "?"}.get((low, high))
        if bounds is None:
            bounds = f"{{{low},}}" if high == UNBOUNDED else f"{{{low},{high}}}"
        return f"(?:{atom}){bounds}" + ("?" if node.mode == "lazy" else "")


def re2_spelling(pattern: str) -> tuple[str, bool] | None:
    """S24.8: `pattern` as RE2 reads it alike — and whether only for ASCII text (its `\\d`,
    `\\w`, `\\b`, `\\s` and `(?i)` are Unicode in Python, ASCII in RE2) — or None when it holds
    a construct RE2 lacks (back references, look-around, atomic groups, possessive or
    conditional parts, flags other than `i` and `s`) or a `$` that is not the pattern's end."""
    tree = parse(pattern)
    if tree is None:
        return None
    spelling = _Spelling()
    try:
        return spelling.branches(tree, True), spelling.ascii_only
    except _Unlike:
        return None


def re2_available() -> bool:
    """Whether the extra `toolshape[re2]` is installed."""
    return _re2 is not None


def linear(pattern: str) -> bool:
    """Whether every text is searched for `pattern` in linear time: RE2 is installed and
    reads the pattern like Python for any text (S24.8)."""
    if _re2 is None:
        return False
    spelled = re2_spelling(pattern)
    return spelled is not None and not spelled[1]


@functools.lru_cache(maxsize=4096)
def searcher(pattern: str) -> Callable[[str], bool]:
    """Whether a text holds a match of `pattern` (JSON Schema's `pattern`: a search), with
    Python's verdict: by RE2 in linear time where both engines read it alike for that text
    (S24.8, with `toolshape[re2]`), else by `re`.

    Raises:
        re.error: `pattern` is not a Python regular expression.
    """
    python = _compiled(pattern).search
    spelled = re2_spelling(pattern) if _re2 is not None else None
    if spelled is None:
        return lambda text: python(text) is not None
    options = _re2.Options()
    options.log_errors = False
    try:
        linear = _re2.compile(spelled[0], options=options).search
    except _re2.error:  # pragma: no cover - a spelling RE2 refuses: Python decides
        return lambda text: python(text) is not None
    if spelled[1]:
        return lambda text: (linear if text.isascii() else python)(text) is not None
    return lambda text: linear(text) is not None
