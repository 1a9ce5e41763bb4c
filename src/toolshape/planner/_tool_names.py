"""S8: tool names."""

from __future__ import annotations

import re

from toolshape.flatten._aliases import portable as portable_name
from toolshape.model._names import LIMIT

#: S8.1: a valid MCP tool name is `[A-Za-z0-9_.-]{1,128}`; anything else is replaced.
_INVALID = re.compile(r"[^A-Za-z0-9_.-]")
MAX_NAME = 128


def derive_name(method: str, path: str) -> str:
    """S8.1: a name from method and path key (`post_stores_storeId_search`), fragment included."""
    segments = [s.replace("{", "").replace("}", "") for s in path.split("/") if s]
    return "_".join([method.lower(), *segments])


def tool_name(base: str, content_type: str | None = None, *, portable: bool = False) -> str:
    """S8.1, S8.2: `base` (with `_<content type>` when given) made a valid MCP tool name.

    Every character outside `[A-Za-z0-9_.-]` becomes `_`; the result is cut to 128 characters,
    always from the base, never from the content type's suffix (S8.1). With `portable`
    (S19.2), `^[A-Za-z0-9_-]{1,64}$`: each run of other characters (`.` too) becomes one `_`,
    `_` trimmed at both ends of each part, cut to 64 the same way.
    """
    if portable:
        suffix = "" if content_type is None else "_" + portable_name(content_type, tool=True)
        suffix = suffix[: LIMIT - 1]
        return portable_name(base, tool=True)[: LIMIT - len(suffix)] + suffix
    suffix = "" if content_type is None else _INVALID.sub("_", f"_{content_type}")[:MAX_NAME]
    name = _INVALID.sub("_", base)[: MAX_NAME - len(suffix)] + suffix
    return name or "_"
