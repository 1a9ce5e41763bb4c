"""S17: a routed body as the bytes its content type needs — JSON, form, multipart, text, raw.

`encode_body` runs on every call that carries a body, right after routing (so a value the
wire can't carry is an argument error naming the argument, S17.3-S17.6), and its result travels
in the `Request`: `Request.encode()` only hands it out. Pure and deterministic: the same request
gives the same bytes (a multipart boundary is derived from the content, S17.4).
"""

from __future__ import annotations

import binascii
import hashlib
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from toolshape.call._items import write_items
from toolshape.call._query import SCALAR_SAFE, Refused, form_pairs, percent, text_of
from toolshape.model._http import media_base, part_media, text_codec
from toolshape.model._json import Unchecked
from toolshape.model._types import BodyEncoding

#: S17.5: standard base64, padding required, no line breaks.
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
#: WHATWG: what a multipart part's name or filename escapes.
_PART_NAME = str.maketrans({'"': "%22", "\r": "%0D", "\n": "%0A"})


@dataclass(frozen=True, slots=True)
class BodyPlan:
    """What encoding a tool's body needs, from the plan's data (S15, S17)."""

    kind: BodyEncoding
    content_type: str
    """The tool's content type, as declared (a range such as `*/*` included)."""
    encoding: Mapping[str, Mapping[str, Unchecked]]
    """S17.3, S17.4: the media type's `encoding` map."""
    binary: Mapping[str, Mapping[str, Unchecked]]
    """S17.5: the body's top-level binary properties: `{"mediaType": ..., "array": bool}`."""
    declared: frozenset[str] = frozenset()
    """The body's declared top-level properties: an undeclared form key may not forge the
    structure of one (`meta[plan]` beside `meta`, S17.3)."""


@dataclass(frozen=True, slots=True)
class Encoded:
    """The bytes of one body, and the `content-type` that goes with them."""

    content: bytes
    content_type: str


def decode_base64(text: Unchecked, where: str) -> bytes:
    """S17.5: the bytes of a base64 argument.

    Raises:
        Refused: the text is not standard base64 with padding and without line breaks.
    """
    if isinstance(text, str):
        try:
            decoded = _strict_base64(text)
        except (binascii.Error, ValueError):  # not the alphabet, bad padding, not ASCII
            decoded = None
        if decoded is not None:
            return decoded
    raise Refused(
        where,
        "contentEncoding",
        "is not base64 (the standard alphabet, padded with `=`, without line breaks): "
        "send the file's bytes base64-encoded",
    )


def _strict_base64(text: str) -> bytes | None:
    """The bytes of `text` if it is exactly `_BASE64`, else None (or a `binascii.Error`)."""
    if sys.version_info >= (3, 11):
        # In C, 8x the pattern's speed on a megabyte; strict mode alone lets `AAAA=` and
        # `AAAA====` by, which the length and the tail rule out.
        if len(text) % 4 or text.endswith("==="):
            return None
        return binascii.a2b_base64(text, strict_mode=True)
    return binascii.a2b_base64(text) if _BASE64.fullmatch(text) else None  # pragma: no cover


def check_binary(plan: BodyPlan, body: Unchecked, prefix: str) -> None:
    """S17.5: every binary argument of `body` is base64 text (checked on every call, whatever
    the body's media type; decoded only where bytes travel)."""
    if plan.kind in ("binary", "multipart") or not plan.binary or not isinstance(body, dict):
        return  # `encode_body` decodes the bytes that travel, with the same errors
    for name, spec in plan.binary.items():
        if name not in body:
            continue
        where = f"{prefix}.{name}" if prefix else name
        value = body[name]
        if spec.get("array") and isinstance(value, list):
            for index, item in enumerate(value):
                decode_base64(item, f"{where}.{index}")
        elif not spec.get("array"):
            decode_base64(value, where)


def _charset(content_type: str) -> str:
    """S17.6: the codec of the content type's `charset` (a character set), else UTF-8."""
    for param in content_type.split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return text_codec(value.strip().strip('"'))
    return "utf-8"


def encode_body(plan: BodyPlan, body: Unchecked, json_text: str, prefix: str) -> Encoded | None:
    """The bytes of `body` for its tool's content type (S17), or None for a media type
    toolshape can't encode (S17.7: `Request.encode()` then raises `EncodeError`).

    `json_text` is the body already serialized as compact JSON (S17.2); `prefix` is where the
    body's arguments are named in errors (`""` for a flat call, `"body"` for a nested one).

    Raises:
        Refused: a value the content type can't carry, naming the argument.
    """
    kind, declared = plan.kind, plan.content_type
    base = media_base(declared)
    if kind == "json":
        sent = "application/json" if "*" in base else declared
        return Encoded(json_text.encode("utf-8"), sent)
    if kind == "yaml":  # S17.7: JSON text is YAML 1.2
        return Encoded(_printable(json_text).encode("utf-8"), declared)
    if kind == "binary":
        sent = "application/octet-stream" if "*" in base else declared
        return Encoded(decode_base64(body, prefix or "body"), sent)
    if kind == "text":
        if not isinstance(body, str):
            raise Refused(prefix, "type", f"a `{base}` body must be a string, not {json_text[:60]}")
        charset = _charset(declared)
        try:
            return Encoded(body.encode(charset), declared)
        except UnicodeError:  # a character the charset lacks, a lone surrogate
            raise Refused(prefix, "type", f"the text can't be sent as {charset}") from None
    if kind == "form":
        return Encoded(_form(plan, body, prefix).encode("ascii"), declared)
    if kind == "multipart":
        return _multipart(plan, body, prefix)
    if kind == "items":  # S26.6: the body is an array of items (its schema says so)
        if not isinstance(body, list):
            raise Refused(prefix, "type", f"a `{base}` body must be an array of items")
        return Encoded(write_items(base, body), declared)
    return None


#: What JSON keeps as it is but a YAML stream may not hold, or YAML 1.1 readers take for a line
#: break: DEL, the C1 controls (NEL among them), U+2028, U+2029, a byte order mark and the
#: noncharacters U+FFFE, U+FFFF. They can only be inside strings.
_NOT_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _printable(json_text: str) -> str:
    """S17.7: JSON text that is also a YAML 1.2 stream: the characters YAML can't hold raw are
    written as JSON's `\\uXXXX` escapes (which YAML reads the same)."""
    return _NOT_YAML.sub(lambda found: f"\\u{ord(found.group()):04x}", json_text)


def _object(body: Unchecked, prefix: str, what: str) -> dict[str, Unchecked]:
    if not isinstance(body, dict):
        raise Refused(prefix, "type", f"a {what} body must be an object of its fields")
    return body


def _form(plan: BodyPlan, body: Unchecked, prefix: str) -> str:
    """S17.3: `application/x-www-form-urlencoded`, each field per its encoding entry."""
    fields = _object(body, prefix, "form")
    names = frozenset(fields)
    _check_keys(fields, plan.declared, prefix)
    pieces: list[str] = []
    taken: set[str] = set()
    encoding = plan.encoding
    for name, value in fields.items():
        entry = encoding.get(name)
        plain = entry is None or ("contentType" not in entry and not entry.get("allowReserved"))
        kind = value.__class__
        if plain and kind is str:  # the common case, in one step
            pieces.append(f"{percent(name, '[]')}={percent(value, SCALAR_SAFE)}")
            taken.add(name)
            continue
        if (
            plain
            and (kind is dict or kind is list)
            and entry
            and entry.get("style") == "deepObject"
        ):
            flat = _deep_scalars(name, value, taken)
            if flat is not None:  # one level of scalars, in one step; the rest below
                pieces.extend(flat)
                continue
        try:
            pieces.extend(_field(name, value, entry or {}, names, taken))
        except Refused as refused:
            refused.where = refused.where or (f"{prefix}.{name}" if prefix else name)
            raise
    return "&".join(pieces)


def _check_keys(fields: Mapping[str, Unchecked], declared: frozenset[str], prefix: str) -> None:
    """S17.3, S17.4, S14.3: no undeclared key of a form may forge the structure of a declared
    field (`meta[plan]` beside `meta`, whose schema would not judge it), whatever the order.

    Raises:
        Refused: naming the key and the field.
    """
    for name in fields:
        forged = _forged(name, declared)
        if forged is not None:
            raise Refused(
                f"{prefix}.{name}" if prefix else name,
                "additionalProperties",
                f"the key `{name}` would be read as part of the field `{forged}`, which this "
                "operation declares (a form key's brackets name a structure)",
            )


def _forged(name: str, declared: frozenset[str]) -> str | None:
    """S17.3: the declared field an undeclared form key with brackets would write into, or
    None."""
    if name in declared or ("[" not in name and "]" not in name):
        return None
    base = name.split("[", 1)[0].split("]", 1)[0]
    return base if base in declared else None


def _deep_scalars(
    name: str, value: dict[str, Unchecked] | list[Unchecked], taken: set[str]
) -> list[str] | None:
    """S17.3: a deepObject field whose members are all scalars (`name[key]=text`, an array's
    items by index), as `_field` writes it, the keys added to `taken`; None for anything else
    (a nested member, a key holding a bracket, a key another field took), which `_field`
    writes or refuses."""
    is_object = isinstance(value, dict)
    items = value.items() if isinstance(value, dict) else enumerate(value)
    keys: list[str] = []
    pieces: list[str] = []
    for key, item in items:
        if isinstance(item, (dict, list)):
            return None
        if is_object and (key.__class__ is not str or "[" in key or "]" in key):
            return None
        full = f"{name}[{key}]"
        if full in taken:
            return None
        keys.append(full)
        pieces.append(f"{percent(full, '[]')}={percent(text_of(item), SCALAR_SAFE)}")
    taken.update(keys)
    return pieces


def _field(
    name: str,
    value: Unchecked,
    entry: Mapping[str, Unchecked],
    names: frozenset[str],
    taken: set[str],
) -> list[str]:
    """One form field's `name=value` pieces per its encoding entry (S17.3)."""
    declared = entry.get("contentType")
    media = part_media(declared) if isinstance(declared, str) else None
    if media is not None:
        text = json.dumps(value, ensure_ascii=False) if _is_json(media) else text_of(value)
        return [wire for _, _, wire in form_pairs(name, text, "form", True, False, names)]
    if value is None or value == [] or value == {}:
        return []  # S12.1: undefined, so not sent
    parts = form_pairs(
        name,
        value,
        entry.get("style", "form"),
        entry.get("explode", True),
        entry.get("allowReserved", False),
        names,
        nested=False,
    )
    for key, _, _ in parts:
        if key != name and key in taken:
            raise Refused(None, "style", f"the key `{key}` is also a key of another exploded field")
        taken.add(key)
    return [wire for _, _, wire in parts]


def _is_json(media: str) -> bool:
    base = media_base(media)
    return base == "application/json" or base.endswith("+json")


def _part(name: str, content: bytes, content_type: str, filename: bool) -> tuple[bytes, bytes]:
    safe = name.translate(_PART_NAME)
    disposition = f'form-data; name="{safe}"' + (f'; filename="{safe}"' if filename else "")
    head = f"Content-Disposition: {disposition}\r\nContent-Type: {content_type}\r\n\r\n"
    return head.encode("utf-8"), content


def _multipart(plan: BodyPlan, body: Unchecked, prefix: str) -> Encoded:
    """S17.4: one part per field in body order; binary fields as bytes with a filename."""
    fields = _object(body, prefix, "multipart")
    _check_keys(fields, plan.declared, prefix)
    parts: list[tuple[bytes, bytes]] = []
    for name, value in fields.items():
        if value is None:
            continue  # S12.1: undefined, so not sent
        where = f"{prefix}.{name}" if prefix else name
        entry = plan.encoding.get(name, {})
        declared = entry.get("contentType")
        media = part_media(declared) if isinstance(declared, str) else None
        spec = plan.binary.get(name)
        if spec is not None:
            kind = media or spec.get("mediaType") or "application/octet-stream"
            items = value if spec.get("array") and isinstance(value, list) else [value]
            for index, item in enumerate(items):
                at = f"{where}.{index}" if items is value else where
                parts.append(_part(name, decode_base64(item, at), kind, True))
        elif isinstance(media, str):
            text = (
                value
                if isinstance(value, str) and not _is_json(media)
                else json.dumps(value, ensure_ascii=False)
            )
            parts.append(_part(name, text.encode("utf-8"), media, False))
        elif isinstance(value, list) and entry.get("explode") is True:
            for item in value:
                parts.append(_part(name, _scalar_part(item), _scalar_type(item), False))
        elif isinstance(value, (dict, list)):
            parts.append(
                _part(
                    name,
                    json.dumps(value, ensure_ascii=False).encode("utf-8"),
                    "application/json",
                    False,
                )
            )
        else:
            parts.append(_part(name, text_of(value).encode("utf-8"), "text/plain", False))
    boundary = _boundary(parts)
    out = bytearray()
    for head, content in parts:
        out += b"--" + boundary + b"\r\n" + head + content + b"\r\n"
    out += b"--" + boundary + b"--\r\n"
    return Encoded(bytes(out), f"multipart/form-data; boundary={boundary.decode('ascii')}")


def _scalar_part(value: Unchecked) -> bytes:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
    return text_of(value).encode("utf-8")


def _scalar_type(value: Unchecked) -> str:
    return "application/json" if isinstance(value, (dict, list)) else "text/plain"


def _boundary(parts: list[tuple[bytes, bytes]]) -> bytes:
    """S17.4: a boundary derived from the content (so the same request gives the same bytes)
    that occurs nowhere inside it."""
    digest = hashlib.sha256()
    for head, content in parts:
        digest.update(head)
        digest.update(content)
    seed = digest.hexdigest()
    for attempt in range(1000):
        boundary = f"toolshape-{seed[:32]}{attempt or ''}".encode("ascii")
        if not any(boundary in head or boundary in content for head, content in parts):
            return boundary
        seed = hashlib.sha256(seed.encode("ascii")).hexdigest()
    raise AssertionError("no boundary found")  # pragma: no cover - 1000 sha-256 collisions
