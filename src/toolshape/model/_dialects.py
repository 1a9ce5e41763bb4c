"""Keyword tables per dialect (S1.7): which object keywords exist, as data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DRAFT2020_12 = "https://json-schema.org/draft/2020-12/schema"
DRAFT2019_09 = "https://json-schema.org/draft/2019-09/schema"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT6 = "http://json-schema.org/draft-06/schema#"
OPENAPI30 = "openapi-3.0"
"""Not a URI: the OpenAPI 3.0 schema object, which only decides which keywords exist (S1.7)."""

OAS31_BASE = "https://spec.openapis.org/oas/3.1/dialect/base"


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one JSON Schema dialect knows, as far as flattening cares (S5.5, S6.1, S6.2)."""

    uri: str
    unevaluated: bool
    """`unevaluatedProperties` is a keyword (S5.5: ignored where it is not)."""
    dependent_required: bool
    """`dependentRequired` is a keyword (S6.2)."""
    declare: str | None
    """The `$schema` the flat root declares for a body of this dialect (S4.7); None for 2020-12."""


DIALECTS: Mapping[str, Dialect] = {
    d.uri: d
    for d in (
        Dialect(DRAFT2020_12, unevaluated=True, dependent_required=True, declare=None),
        Dialect(DRAFT2019_09, unevaluated=True, dependent_required=True, declare=DRAFT2019_09),
        Dialect(DRAFT7, unevaluated=False, dependent_required=False, declare=DRAFT7),
        Dialect(DRAFT6, unevaluated=False, dependent_required=False, declare=DRAFT6),
        # S1.7 / S4.7: after the S1.4 conversion a 3.0 schema counts as 2020-12.
        Dialect(OPENAPI30, unevaluated=False, dependent_required=False, declare=None),
    )
}

#: Spellings of a `$schema` value that name a known dialect (with or without the trailing `#`,
#: http or https); the OpenAPI 3.1 base dialect is 2020-12 plus annotations.
_ALIASES: Mapping[str, str] = {
    OAS31_BASE: DRAFT2020_12,
    "https://spec.openapis.org/oas/3.1/dialect/2024-10-25": DRAFT2020_12,
    "https://spec.openapis.org/oas/3.1/dialect/2024-11-10": DRAFT2020_12,
    # S26.1: OpenAPI 3.2's schema dialect is 3.1's
    "https://spec.openapis.org/oas/3.2/dialect/base": DRAFT2020_12,
    "https://spec.openapis.org/oas/3.2/dialect/2025-09-17": DRAFT2020_12,
}


def dialect_of(uri: str) -> Dialect | None:
    """The dialect a `$schema` / `jsonSchemaDialect` value names, or None when unknown."""
    key = uri.rstrip("#")
    key = key.replace("http://json-schema.org/draft/", "https://json-schema.org/draft/")
    key = _ALIASES.get(key, key)
    for candidate in (key, key + "#", key.replace("https://", "http://") + "#"):
        if candidate in DIALECTS:
            return DIALECTS[candidate]
    return None
