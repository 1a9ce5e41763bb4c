"""Keyword tables the flattening rules consult (S5, S6), each citing its rule."""

from __future__ import annotations

#: S6.1: keywords that only annotate; they may sit beside `allOf` and in its branches.
#: Vendor extensions (`x-...`) are treated the same way: no dialect gives them meaning.
ANNOTATIONS = frozenset({"title", "description", "examples", "$comment", "deprecated"})

#: S6.1: what a mergeable `allOf` branch may hold besides annotations.
BRANCH_KEYWORDS = frozenset({"type", "properties", "required"})

#: S5.3: applicators whose outcome depends on the whole body, so its fields can't be split up.
CONDITIONAL_KEYWORDS = ("oneOf", "anyOf", "not", "if", "then", "else")

#: S5, S11: the root unions: their reason comes before rows 1-2, and names `flatten_unions`.
UNION_KEYWORDS = ("oneOf", "anyOf")

#: S5.4: keywords that would also count or constrain the parameters at the flat root.
OBJECT_COUNTING_KEYWORDS = (
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "dependentSchemas",
)

#: S5.6 (from 2026-11-06): root keywords that judge or re-scope the body as a whole.
WHOLE_BODY_KEYWORDS = ("const", "enum", "dependencies", "$id", "$defs", "definitions")

#: S5.7 (from 2026-11-06): dynamic references at the root.
DYNAMIC_REF_KEYWORDS = ("$dynamicRef", "$recursiveRef")


def is_annotation(keyword: str) -> bool:
    """True for an annotation keyword (S6.1) or a vendor extension."""
    return keyword in ANNOTATIONS or keyword.startswith("x-")
