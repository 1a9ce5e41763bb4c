"""S12.1, S17.3: values as form pairs — the query string's serialization, which form bodies share.

`form_pairs` turns one named value into `(name, value, wire text)` triples per OpenAPI style
and explode: the first two as a server decodes them, the third exactly as sent. Delimiters
inside items are percent-encoded, so a server that splits before decoding gets exactly the
items sent; `+`, `&` and `=` are always encoded; `allowReserved` passes `%XX` triples through.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Collection, Mapping
from urllib.parse import quote

from toolshape.model._json import Unchecked

#: Text that percent-encoding leaves as it is (RFC 3986 unreserved): the fast path.
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")
#: Scalar values keep the form and pipe delimiters `,` and `|` readable (S12.1).
SCALAR_SAFE = ",|"
#: allowReserved: the reserved characters that can't change the structure
#: (`&`, `=`, `#` and `+` stay encoded, so every argument arrives as exactly one value).
_RESERVED_SAFE = ",|:/?[]@!$'()*;"
_TRIPLE = re.compile(r"(%[0-9A-Fa-f]{2})")
#: S12.1: the delimiter of a non-exploded array or object, by style, as sent on the wire.
_DELIMITER = {"spaceDelimited": "%20", "pipeDelimited": "|"}


class Refused(Exception):
    """A value the request can't carry intact (S12.1, S17): `where` names the argument when the
    refusing code knows it; the caller fills it in otherwise."""

    def __init__(self, where: str | None, keyword: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.keyword = keyword
        self.message = message


def text_of(value: Unchecked) -> str:
    """A scalar as text: JSON spelling for booleans, numbers and null; strings as they are."""
    kind = value.__class__
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return str(value)  # the JSON spelling of an integer
    if value is None:
        return ""
    if kind is bool:
        return "true" if value else "false"
    if kind is float and math.isfinite(value):
        return float.__repr__(value)  # the JSON spelling of a finite float
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def pairs_of(value: Mapping[str, Unchecked]) -> list[tuple[str, str]]:
    """An object's members as text pairs."""
    return [(str(k), text_of(v)) for k, v in value.items()]


@functools.cache
def _quoter(safe: str) -> tuple[Callable[[str], object], dict[int, str]]:
    """What percent-encodes ASCII text with `safe` characters kept: a search for the first
    character to encode, and the `str.translate` table that encodes them. (Memoized per
    `safe`, of which the module uses a handful.)"""
    kept = {chr(code) for code in range(128) if _UNRESERVED.fullmatch(chr(code))} | set(safe)
    encoded = "".join(chr(code) for code in range(128) if chr(code) not in kept)
    # Every ASCII character in the table, kept ones mapped to themselves: a character missing
    # from it costs `translate` a caught KeyError (2.5x the time of the whole call).
    table = {code: chr(code) if chr(code) in kept else f"%{code:02X}" for code in range(128)}
    return re.compile(f"[{re.escape(encoded)}]").search, table


def percent(text: str, safe: str = "") -> str:
    """`text` percent-encoded (RFC 3986, UTF-8), `safe` characters left as they are."""
    if not text.isascii():
        return quote(text, safe=safe)
    # Nearly all text is ASCII, and most of it needs nothing: both in C (`quote` walks the
    # bytes in Python); letters and digits alone need no search.
    if text.isalnum():
        return text
    search, table = _quoter(safe)
    return text if search(text) is None else text.translate(table)


def _encode(text: str, safe: str, reserved: bool) -> str:
    """A value percent-encoded; with `allowReserved`, `%XX` triples pass unchanged."""
    if not reserved or "%" not in text:
        return percent(text, safe)
    return "".join(
        part if i % 2 else percent(part, safe) for i, part in enumerate(_TRIPLE.split(text))
    )


def form_pairs(
    name: str,
    value: Unchecked,
    style: str,
    explode: bool,
    allow_reserved: bool,
    names: Collection[str],
    where: str | None = None,
    *,
    nested: bool = True,
) -> list[tuple[str, str, str]]:
    """One named value per `style` / `explode` (S12.1, S17.3) as `(name, value, wire)` triples.

    `names` are the other names of the same query or form, which an exploded object's keys may
    not forge. With `nested=False` (form bodies), an array item or object member that is itself
    an array or object is refused for the styles that can't express it (all but deepObject).

    Raises:
        Refused: a key that would forge structure or another name, a space inside a
            spaceDelimited item, a nested value the style can't express.
    """
    safe = _RESERVED_SAFE if allow_reserved else SCALAR_SAFE
    if style == "deepObject" and isinstance(value, (dict, list)):
        return [
            (key, text, f"{percent(key, '[]')}={_encode(text, safe, allow_reserved)}")
            for key, text in deep_object(name, value, where)
        ]
    wire_name = percent(name, "[]")
    if not nested and isinstance(value, (dict, list)):
        members = value.values() if isinstance(value, dict) else value
        if any(isinstance(member, (dict, list)) for member in members):
            raise Refused(
                where,
                "style",
                f"a `{style}` field can't hold a nested array or object; declare "
                "`style: deepObject` for it in the media type's `encoding`",
            )
    if isinstance(value, list) and explode:
        return [
            (name, text, f"{wire_name}={_encode(text, safe, allow_reserved)}")
            for text in (text_of(v) for v in value)
        ]
    if isinstance(value, dict) and explode:
        out = []
        for key, text in pairs_of(value):
            if key in names and key != name:
                raise Refused(
                    where,
                    "style",
                    f"the key `{key}` would be sent as `{key}`, which this operation declares "
                    "on its own (an exploded object's keys become names)",
                )
            out.append((key, text, f"{percent(key)}={_encode(text, safe, allow_reserved)}"))
        return out
    if isinstance(value, (list, dict)):
        # S12.1: a delimiter inside an item is encoded, so the server splits exactly the items.
        wire = _DELIMITER.get(style, ",")
        plain = " " if wire == "%20" else wire
        items = (
            [text_of(v) for v in value]
            if isinstance(value, list)
            else [part for pair in pairs_of(value) for part in pair]
        )
        if plain == " " and any(" " in item for item in items):
            raise Refused(
                where,
                "style",
                "an item holds a space, which is also the delimiter of a spaceDelimited "
                "value, so the server would split it; use another style",
            )
        item_safe = safe.replace(plain, "")
        encoded = wire.join(_encode(item, item_safe, allow_reserved) for item in items)
        return [(name, plain.join(items), f"{wire_name}={encoded}")]
    text = text_of(value)
    return [(name, text, f"{wire_name}={_encode(text, safe, allow_reserved)}")]


def deep_object(prefix: str, value: Unchecked, where: str | None = None) -> list[tuple[str, str]]:
    """S12.1: `q[a][b]=1`, arrays indexed (`q[ids][0]=1`); a key holding `[` or `]` would
    forge structure, so it is refused."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Unchecked]] = [(prefix, value)]
    while stack:
        name, item = stack.pop()
        if isinstance(item, dict):
            for key in reversed(list(item)):
                if "[" in key or "]" in key:
                    raise Refused(
                        where,
                        "style",
                        f"the key `{key}` holds a bracket, which a deepObject name uses for "
                        "its structure, so the server would read another structure",
                    )
                stack.append((f"{name}[{key}]", item[key]))
        elif isinstance(item, list):
            stack.extend((f"{name}[{i}]", v) for i, v in reversed(list(enumerate(item))))
        else:  # a null member is sent empty (`q[a]=`): Stripe reads that as "unset"
            out.append((name, text_of(item)))
    return out
