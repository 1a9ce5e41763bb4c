"""JSON values: the type, deep copies, and equality as JSON Schema has it (S6.1, S9.1, S11.1)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

if TYPE_CHECKING:  # annotations only: the model loads no third-party package
    from typing_extensions import TypeIs

Json: TypeAlias = "dict[str, Json] | list[Json] | str | int | float | bool | None"
"""A JSON value as `json.loads` returns it: what the library produces (plan data, requests,
errors as data, MCP answers) is typed with it."""

JsonObject: TypeAlias = "dict[str, Any]"
"""A JSON object the library hands out (a schema, plan data, an MCP answer) whose members the
caller indexes freely: the recursive `Json` can't say which member holds what."""

Unchecked: TypeAlias = Any
"""A value from outside — a document's node, a call's arguments, loaded plan data — before it is
checked. Every use narrows it with `isinstance` (or a schema check) first; the name marks the
boundary where `Json`'s guarantees don't hold yet."""

_TRUE, _FALSE = object(), object()


def json_problem(value: object) -> str | None:
    """Why `value` is not a JSON value (a TOML date, `nan`, nesting past what can be read), or
    None."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        return f"is not a JSON value ({error})"
    except RecursionError:
        return "nests too deeply"
    return None


def json_text(value: object, limit: int = 200) -> str:
    """`value` as messages show it: JSON words (`null`, `true`, `"text"`), at most `limit`
    characters; a value JSON can't spell (a TOML date, something nested too deeply) as
    Python writes it (a message reads the same whatever wrote the value)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _empty(value: Any) -> Any:
    """A fresh container to copy `value` into, or None for a scalar (dict and list subclasses
    copy into plain ones)."""
    kind = type(value)
    if kind is dict or (kind not in _SCALARS and isinstance(value, dict)):
        return {}
    if kind is list or (kind not in _SCALARS and isinstance(value, list)):
        return []
    return None


def is_map(value: object) -> TypeIs[Mapping[Any, Any]]:
    """`isinstance(value, Mapping)`, answered without the ABC machinery for the types JSON
    parses to (the common case of every walk over a document: an ABC check costs several
    times a plain one)."""
    kind = type(value)
    if kind is dict:
        return True
    if kind in _SCALARS or kind is list:
        return False
    return isinstance(value, Mapping)


T = TypeVar("T")


def thaw(value: T) -> T:
    """A deep copy of plain JSON data (dicts and lists copied, scalars shared).

    Iterative, so any depth copies from any depth of the caller's stack (S14.4)."""
    root: Any = _empty(value)
    if root is None:
        return value
    scalars = _SCALARS
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        if type(target) is dict:
            for key, item in source.items():
                kind = type(item)
                if kind in scalars:
                    target[key] = item
                    continue
                copy: Any = {} if kind is dict else [] if kind is list else _empty(item)
                if copy is None:
                    target[key] = item
                else:
                    target[key] = copy
                    stack.append((item, copy))
        else:
            for item in source:
                kind = type(item)
                if kind in scalars:
                    target.append(item)
                    continue
                copy = {} if kind is dict else [] if kind is list else _empty(item)
                if copy is None:
                    target.append(item)
                else:
                    target.append(copy)
                    stack.append((item, copy))
    return root  # type: ignore[no-any-return]


def unbool(value: Any) -> Any:
    """`value`, with `true` and `false` made distinct from `1` and `0` (jsonschema's rule)."""
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema has it: `true` is not `1`, `1` is `1.0`, containers deep.

    Schemas are compared this way everywhere they are merged (S6.1, S9.1, S11.1)."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    return bool(unbool(one) == unbool(two))


#: A lone surrogate: JSON text can spell one (`"\ud800"`), UTF-8 can't carry it.
_LONE = re.compile("[\ud800-\udfff]")
#: Where JSON text spells a surrogate (`\ud800`): only there can parsing make a lone one.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def spells_surrogates(text: str | bytes | bytearray) -> bool:
    """Whether parsing `text` as JSON may give a lone surrogate (it spells a surrogate, or
    holds one): only then does `unicode_safe` have anything to do."""
    if isinstance(text, str):
        return SURROGATE_ESCAPE.search(text) is not None or _LONE.search(text) is not None
    return _ESCAPE_BYTES.search(text) is not None


def unicode_safe(value: T) -> tuple[T, bool]:
    """`value` with every lone surrogate in its texts and keys replaced by U+FFFD (so UTF-8
    can carry it to a client), and whether any was; `value` itself when none was.

    Iterative, so any depth is read from any depth of the caller's stack (S14.4)."""
    found = False

    def text(item: str) -> str:
        nonlocal found
        if _LONE.search(item) is None:
            return item
        found = True
        return item.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

    copy = thaw(value)
    if isinstance(copy, str):
        copy = text(copy)  # type: ignore[assignment]
    stack: list[Any] = [copy]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            members = [(text(k), text(v) if isinstance(v, str) else v) for k, v in node.items()]
            node.clear()
            node.update(members)  # in order: keys keep their places
            stack.extend(v for _, v in members)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, str):
                    node[i] = text(item)
                stack.append(item)
    return (copy, True) if found else (value, False)
