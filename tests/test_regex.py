"""S13.3: toolshape's own reader of Python patterns — which patterns repeat a repeat (and can
backtrack catastrophically), read without the interpreter's private parser."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolshape.schema._regex import (
    UNBOUNDED,
    compiles,
    nested_quantifier,
    parse,
    re2_available,
    re2_spelling,
    searcher,
)

NESTED = [
    ("^(a+)+$", True),
    ("(\\w+\\s?)*", True),
    ("(a*)*", True),
    ("(a{2})+", True),  # a bounded repeat of more than one, inside an unbounded one
    ("(?:a|b+)*", True),
    ("(?=(a+)+)", True),  # inside look-around too
    ("(?>(a+)+)", True),
    ("(a)?(?(1)b+|c)+", True),  # a conditional's branches
    ("[(]+(b*)*", True),  # a `(` in a class opens no group
    ("\\(+(b*)*", True),
    ("^a+b*$", False),
    ("(a?)+", False),  # at most once inside
    ("(a+){3}", False),  # the outer repeat is bounded
    ("(a+)(b+)", False),
    ("(?i)a+", False),
    ("a{2,}b", False),
    ("(?#(a+)+)x", False),  # a comment
    ("[a+]+", False),
    ("x{,3}+", False),  # a possessive repeat of one repeat
    ("\\p{L}+", False),  # ECMA-262 only: Python can't compile it
]


@pytest.mark.parametrize(("pattern", "nested"), NESTED, ids=[p for p, _ in NESTED])
def test_a_repeated_repeat_is_found(pattern: str, nested: bool) -> None:
    """S13.3: an unbounded repeat holding a repeat that matches more than once is found,
    through groups, alternatives, look-around and conditionals; nothing else is."""
    assert nested_quantifier(pattern) is nested


@pytest.mark.parametrize(
    ("pattern", "kinds"),
    [
        ("(a)(?:b)\\1c", ["group", "group", "backref", "literal"]),
        ("[]a]\\d$", ["class", "escape", "anchor"]),
        ("(?<=a)(?P<n>b)(?P=n)", ["group", "group", "backref"]),
        ("\\N{LATIN SMALL LETTER A}\\x41\\u00e9", ["escape", "escape", "escape"]),
    ],
)
def test_the_reader_names_each_construct(pattern: str, kinds: list[str]) -> None:
    """The reader gives each construct its kind (what another engine may lack is visible)."""
    tree = parse(pattern)
    assert tree is not None
    ((*nodes,),) = tree
    assert [node.kind for node in nodes] == kinds


@pytest.mark.parametrize(
    ("pattern", "low", "high", "mode"),
    [
        ("a*", 0, UNBOUNDED, "greedy"),
        ("a+?", 1, UNBOUNDED, "lazy"),
        ("a?+", 0, 1, "possessive"),
        ("a{2}", 2, 2, "greedy"),
        ("a{2,}", 2, UNBOUNDED, "greedy"),
        ("a{,3}", 0, 3, "greedy"),
        ("a{1,3}?", 1, 3, "lazy"),
    ],
)
def test_a_repeat_has_its_bounds(pattern: str, low: int, high: int, mode: str) -> None:
    """Each quantifier's bounds and mode, as Python reads them."""
    tree = parse(pattern)
    assert tree is not None
    ((repeat,),) = tree
    assert (repeat.kind, repeat.low, repeat.high, repeat.mode) == ("repeat", low, high, mode)


def test_what_python_cannot_compile_is_not_read() -> None:
    """A pattern `re` refuses is not parsed and has no nested quantifier."""
    assert not compiles("(a")
    assert parse("(a") is None
    assert not nested_quantifier("(a")


ATOMS = ["a", ".", "\\d", "[ab]", "[]a]", "\\(", "\\1", "\\x41", "^", "$", "{", ","]
QUANTIFIERS = ["", "*", "+", "?", "*?", "+?", "{2}", "{2,}", "{,3}", "{1,3}", "{1}", "*+", "{}"]
OPENERS = ["(", "(?:", "(?P<n>", "(?=", "(?!", "(?>", "(?i:"]


@st.composite
def patterns(draw: st.DrawFn, depth: int = 0) -> str:
    """Patterns of atoms, groups and alternatives, each part maybe quantified."""
    out = ""
    for _ in range(draw(st.integers(1, 3))):
        if depth < 3 and draw(st.booleans()):
            inner = draw(patterns(depth + 1))
            if draw(st.booleans()):
                inner += "|" + draw(patterns(depth + 1))
            out += draw(st.sampled_from(OPENERS)) + inner + ")"
        else:
            out += draw(st.sampled_from(ATOMS))
        out += draw(st.sampled_from(QUANTIFIERS))
    return out


def _interpreter_says(pattern: str) -> bool | None:
    """The nested-quantifier verdict read off CPython's own parser (the oracle), or None
    where this interpreter has none under that name."""
    parser: Any = getattr(re, "_parser", None)
    if parser is None:  # pragma: no cover - Python 3.10 names it sre_parse
        return None
    repeats = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}

    def walk(items: Any, inside: bool) -> bool:
        for op, av in items:
            name = str(op)
            if name in repeats:
                if inside and av[1] > 1:
                    return True
                if walk(av[2], inside or av[1] == parser.MAXREPEAT):
                    return True
            elif (
                (name == "SUBPATTERN" and walk(av[-1], inside))
                or (name == "BRANCH" and any(walk(b, inside) for b in av[1]))
                or (name in ("ASSERT", "ASSERT_NOT") and walk(av[1], inside))
                or (name == "ATOMIC_GROUP" and walk(av, inside))
            ):
                return True
        return False

    return walk(parser.parse(pattern), False)


@settings(max_examples=500, deadline=None)
@given(patterns())
def test_the_reader_agrees_with_the_interpreter(pattern: str) -> None:
    """Every generated pattern Python compiles is read, and found nested exactly when
    CPython's own parse tree says so."""
    if not compiles(pattern):
        return
    assert parse(pattern) is not None, pattern
    expected = _interpreter_says(pattern)
    if expected is None:  # pragma: no cover
        pytest.skip("this interpreter's parser is not where CPython 3.11+ keeps it")
    assert nested_quantifier(pattern) is expected, pattern


# -- RE2 (S24.8) --------------------------------------------------------------------------------

SPELLINGS = [
    ("^(a+)+$", ("^(?:(?:(?:a)+))+(?:\\n?\\z)", False)),
    ("a.b\\Z", ("a.b\\z", False)),
    ("^[A-Z]{2,3}-\\d+$", ("^(?:[A-Z]){2,3}\\-(?:\\d)+(?:\\n?\\z)", True)),
    ("(?i)abc", ("(?i)abc", True)),
    ("\\s", ("[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f ]", True)),
    ("\\u00e9+", ("(?:\\x{00e9})+", False)),
    ("a{,3}", ("(?:a){0,3}", False)),
    ("(a)\\1", None),  # a back reference
    ("(?=a)b", None),  # look-ahead
    ("(?>a+)b", None),  # an atomic group
    ("a++", None),  # possessive
    ("a$b", None),  # `$` before the end
    ("(?m)^a$", None),  # a flag RE2 reads otherwise
    ("[[:alpha:]]", None),  # a nested set (RE2: a POSIX class; Python: characters)
    ("\\Ba", None),  # Python's `\B` never matches an empty text
    ("a{1001}", None),  # past RE2's counted repetition
]


@pytest.mark.parametrize(("pattern", "spelling"), SPELLINGS, ids=[p for p, _ in SPELLINGS])
def test_a_pattern_goes_to_re2_only_when_both_engines_read_it_alike(
    pattern: str, spelling: tuple[str, bool] | None
) -> None:
    """S24.8: RE2's spelling of a pattern (a final `$` as RE2's `\\z` after an optional newline,
    `\\Z` as `\\z`, Python's ASCII `\\s` spelled out), and whether it is alike only for ASCII
    text (`\\d`, `\\w`, `\\s`, `(?i)`); None for a construct RE2 lacks or reads otherwise."""
    assert re2_spelling(pattern) == spelling


SPELLED_ATOMS = [
    *["a", "b", ".", "\\d", "\\w", "\\s", "\\S", "\\D", "\\W", "\\b", "\\B", "[ab]", "[^a-z]"],
    *["[a-c\\d]", "\\(", "\\x41", "\\u00e9", "é", "\\Z", "^", "{", "\\.", "-", "\\t", "[]a]"],
]
SPELLED_QUANTIFIERS = ["", "*", "+", "?", "*?", "+?", "??", "{2}", "{2,}", "{,3}", "{1,3}", "{}"]


@st.composite
def spellable(draw: st.DrawFn, depth: int = 0) -> str:
    """Patterns of what RE2 may share with Python: groups, flags, classes, escapes, `$`."""
    out = ""
    for _ in range(draw(st.integers(1, 3))):
        if depth < 2 and draw(st.booleans()):
            opener = draw(st.sampled_from(["(", "(?:", "(?i:", "(?s:"]))
            inner = draw(spellable(depth + 1))
            if draw(st.booleans()):
                inner += "|" + draw(spellable(depth + 1))
            out += opener + inner + ")"
        else:
            out += draw(st.sampled_from(SPELLED_ATOMS))
        out += draw(st.sampled_from(SPELLED_QUANTIFIERS))
    if depth == 0 and draw(st.booleans()):
        out += "$"
    if depth == 0 and draw(st.booleans()):
        out = draw(st.sampled_from(["(?i)", "(?s)", "(?is)"])) + out
    return out


TEXTS = st.text(alphabet="ab\n é1_K{}\t]\x1c\x0bÉß٣\u017f.(", max_size=8)


@pytest.mark.skipif(
    not re2_available(), reason="the extra toolshape[re2] (google-re2) is not installed"
)
@settings(max_examples=1500, deadline=None)
@given(spellable(), st.lists(TEXTS, min_size=1, max_size=6))
def test_a_verdict_never_depends_on_whether_re2_is_installed(
    pattern: str, texts: list[str]
) -> None:
    """S24.8, S13.3: for every pattern Python compiles and every text, the search's verdict
    is `re`'s — whether RE2 decides it (a pattern both read alike, ASCII text where that
    matters) or `re` does."""
    if not compiles(pattern):
        return
    if nested_quantifier(pattern):  # the oracle, `re`, backtracks exponentially on long texts
        texts = [text[:4] for text in texts]
    search = searcher(pattern)
    for text in texts:
        assert search(text) is (re.search(pattern, text) is not None), (pattern, text)
