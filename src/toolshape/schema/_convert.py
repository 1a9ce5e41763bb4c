"""S1.4: OpenAPI 3.0 schema objects as JSON Schema 2020-12, and the one repair of 3.1 schemas.

Each function takes one schema node whose subschemas are already converted (a fresh `dict` the
caller owns) and returns it converted; none of them reads anything else.
"""

from __future__ import annotations

from toolshape.model._dialects import DRAFT2019_09
from toolshape.model._types import Unchecked

#: Keywords that, without `type`, still constrain a value: `nullable` must then wrap them.
_NEEDS_WRAP = frozenset({"$ref", "allOf", "anyOf", "oneOf", "not", "enum", "const"})


def repair_exclusive(out: dict[str, Unchecked]) -> None:
    """S1.4: boolean `exclusiveMinimum`/`exclusiveMaximum` (the 3.0 form) → 2020-12 numbers."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(flag)
        if isinstance(value, bool):
            del out[flag]
            if value and bound in out:
                out[flag] = out.pop(bound)


#: The keywords `repair_31` reads: a schema with none of them is left as it is.
REPAIRED_31 = frozenset({"exclusiveMinimum", "exclusiveMaximum", "$recursiveAnchor"})
#: The keywords `convert_30` reads beside `type: file`: a schema with none of them (and another
#: `type`) is left as it is.
CONVERTED_30 = frozenset({"exclusiveMinimum", "exclusiveMaximum", "example", "nullable"})


def repair_31(out: dict[str, Unchecked]) -> dict[str, Unchecked]:
    """S1.4: a 3.1 schema as written, but for the 3.0 boolean bounds found in real documents."""
    if isinstance(out.get("exclusiveMinimum"), bool) or isinstance(
        out.get("exclusiveMaximum"), bool
    ):
        repair_exclusive(out)
    if isinstance(out.get("$recursiveAnchor"), bool) and out.get("$schema") != DRAFT2019_09:
        # A 2019-09 form, invalid in 2020-12 where it has no meaning (docs/decisions.md).
        del out["$recursiveAnchor"]
    return out


def convert_30(out: dict[str, Unchecked]) -> dict[str, Unchecked]:
    """S1.4: an OpenAPI 3.0 schema object as JSON Schema 2020-12."""
    if "exclusiveMinimum" in out or "exclusiveMaximum" in out:
        repair_exclusive(out)
    if "example" in out:
        example = out.pop("example")
        out.setdefault("examples", [example])
    if out.get("type") == "file":
        # S1.4: what Swagger 2.0 converters leave; read as the binary string it means (S17.4).
        out["type"] = "string"
        out.setdefault("format", "binary")
    if "nullable" not in out:
        return out
    nullable = out.pop("nullable")
    if nullable is not True:
        return out
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list):
        out["type"] = kind if "null" in kind else [*kind, "null"]
    elif any(k in out for k in _NEEDS_WRAP):
        return {"anyOf": [out, {"type": "null"}]}
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out
