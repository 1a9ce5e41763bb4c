"""S12: a compiled fast path for routing a flat call — the common case as one generated function.

`compile_router(router)` writes one Python function per tool, once (as `_fastcheck` does for
validation): the tool's parameters are a chain of branches on a small number, each channel's
serialization of a scalar is written inline (the style, the name's encoding and the safe
characters are known when the code is written), the path is one concatenation, and the body's
JSON text and bytes are made in place. It returns the same `Request` the general router
(`_route.routed`) builds, or None wherever it would have to think: a value that is not a string,
integer, boolean or finite number, a cookie, a parameter with a `content` media type, an empty
or dot path segment, a header value HTTP can't carry, an argument the general router would
refuse or rename. The caller then routes the call the general way, which decides and words the
errors; anything the function raises means the same. Nothing document-derived is written into
the source: every name, table and text reaches the code through its namespace.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from toolshape._credentials import NOTHING, Applied
from toolshape._encode import Encoded, check_binary, encode_body
from toolshape._fastcheck import Check
from toolshape._http import header_problem, media_base
from toolshape._model import ParameterRoute
from toolshape._query import _RESERVED_SAFE, SCALAR_SAFE, _encode, _quoter, percent
from toolshape._route import Router, assemble
from toolshape._types import NO_BODY, Inbound, Request

FastRouter = Callable[[Any, Inbound, Applied], Request | None]


def _json_text() -> Callable[[Any], str]:
    """S14.4, S17.2: the compact JSON text of a body, exactly as the general router spells it.

    `json.dumps` builds its C encoder on every call (two thirds of its time for a small body);
    this one is built once, without the circular-reference table (a cycle then ends in
    `RecursionError`, and the general router words the error). Where the C encoder is missing
    or spells a probe otherwise, the encoder's own `encode`.
    """
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    probe = {"a": [1, 'é\u2028\n"', 1.5, None, True, {"": -0.0}], "b": 10**20}
    try:
        built = json.encoder.c_make_encoder(  # type: ignore[attr-defined, unused-ignore]
            None, encoder.default, json.encoder.encode_basestring, None, ":", ",", False,
            False, False,
        )  # fmt: skip

        def text(value: Any) -> str:
            return "".join(built(value, 0))

        if text(probe) == encoder.encode(probe):
            return text
    except Exception:  # pragma: no cover - another implementation: its own encoder
        pass
    return encoder.encode  # pragma: no cover


_JSON = _json_text()

_REQUEST_FIELDS = (
    "method",
    "path",
    "query",
    "headers",
    "body",
    "content_type",
    "url",
    "content",
    "sent_type",
)

_HELPERS: Mapping[str, Any] = {
    "__builtins__": {"str": str, "tuple": tuple, "int": int, "bool": bool, "float": float},
    "NO_BODY": NO_BODY,
    "NOTHING": NOTHING,
    "new": object.__new__,
    "Request": Request,
    "frepr": float.__repr__,
    "isfinite": math.isfinite,
    "percent": percent,
    "reserved": _encode,
    "header_problem": header_problem,
    "dumps": _JSON,
    "check_binary": check_binary,
    "encode_body": encode_body,
    "assemble": assemble,
    "Encoded": Encoded,
    # A frozen Request is built through its slots (the dataclass constructor sets each field
    # with `object.__setattr__`, twice the time): same object, same fields.
    **{f"set_{name}": getattr(Request, name).__set__ for name in _REQUEST_FIELDS},
}


class _Source:
    """The lines of the generated function and the constants its code names."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = dict(_HELPERS)
        self.lines: list[str] = []

    def constant(self, value: Any) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def line(self, level: int, text: str) -> None:
        self.lines.append("    " * level + text + "\n")


def _encoded(out: _Source, text: str, safe: str, reserved: bool) -> str:
    """An expression: `text` percent-encoded with `safe` kept (RFC 3986); ASCII text that needs
    nothing is checked in C and kept as it is, like `_query.percent`."""
    if reserved:
        return f"reserved({text}, {out.constant(safe)}, True)"
    search = out.constant(_quoter(safe)[0])
    return (
        f"({text} if {text}.isascii() and ({text}.isalnum() or {search}({text}) is None) "
        f"else percent({text}, {out.constant(safe)}))"
    )


def _parameter(out: _Source, route: ParameterRoute, index: int, level: int) -> None:
    """The branch of one parameter: its scalar value `t` into the path, the query or a header."""
    if route.content_type is not None or route.channel == "cookie":
        out.line(level, "return None")
        return
    if route.channel == "path":
        text = _encoded(out, "t", "", False)
        if route.style == "label":
            text = f'"." + {text}'
        elif route.style == "matrix":
            named = out.constant(f";{percent(route.name)}")
            out.line(level, f"t = {text}")
            text = f'{named} + "=" + t if t else {named}'
        out.line(level, f"p{index} = {text}")
        out.line(level, f"if not p{index}:")  # the general router refuses an empty value
        out.line(level + 1, "return None")
    elif route.channel == "query":
        out.line(level, f"q.append(({out.constant(route.name)}, t))")
        safe = _RESERVED_SAFE if route.allow_reserved else SCALAR_SAFE
        wire = out.constant(percent(route.name, "[]") + "=")
        out.line(level, f"e.append({wire} + {_encoded(out, 't', safe, route.allow_reserved)})")
    else:
        # Letters and digits alone are a header value HTTP can carry (checked in C).
        out.line(level, "if not (t.isascii() and t.isalnum()) and header_problem(t) is not None:")
        out.line(level + 1, "return None")
        out.line(level, f"h.append(({out.constant(route.name.lower())}, t))")


def _loop(out: _Source, router: Router) -> None:
    """The loop over the call's arguments: parameters by number, the rest into the body."""
    routes = router.by_argument
    hoisted = router.body == "hoisted"
    out.line(1, "for k, v in a.items():")
    out.line(2, f"i = {out.constant({name: i for i, name in enumerate(routes)})}.get(k)")
    out.line(2, "if i is None:")
    if router.aliased:
        out.line(3, f"if k in {out.constant(frozenset(router.aliased))}:")
        out.line(4, "return None")
    if router.body == "wrapped":
        out.line(3, 'if k == "body":')
        out.line(4, "b = v")
        out.line(4, "continue")
    if hoisted:
        aliases = router.body_aliases
        name = f"{out.constant(dict(aliases))}.get(k, k)" if aliases else "k"
        if router.undeclared == "body":
            out.line(3, f"b[{name}] = v")
            out.line(3, "continue")
        else:
            keys = frozenset(router.body_properties) | frozenset(aliases)
            out.line(3, f"if k in {out.constant(keys)}:")
            out.line(4, f"b[{name}] = v")
            out.line(4, "continue")
    out.line(3, "return None")
    if not routes:
        return
    # S12.1: a scalar's text, as `_query.text_of` spells it (JSON for booleans and numbers).
    out.line(2, "c = v.__class__")
    out.line(2, "if c is str:")
    out.line(3, "t = v")
    out.line(2, "elif c is int:")
    out.line(3, "t = str(v)")
    out.line(2, "elif c is bool:")
    out.line(3, 't = "true" if v else "false"')
    out.line(2, "elif c is float and isfinite(v):")
    out.line(3, "t = frepr(v)")
    out.line(2, "else:")
    out.line(3, "return None")
    for index, route in enumerate(routes.values()):
        out.line(2, f"{'if' if index == 0 else 'elif'} i == {index}:")
        _parameter(out, route, index, 3)


def _path(out: _Source, router: Router) -> str:
    """The expression of the request's path, after checking every variable was given and no
    segment is a dot segment (the general router encodes those)."""
    index = {
        route.name: i
        for i, route in enumerate(router.by_argument.values())
        if route.channel == "path"
    }
    pieces: list[str] = [router.base_path]
    for number, parts in enumerate(router.segments):
        if number:
            pieces.append("/")
        if len(parts) == 1:
            pieces.append(parts[0])
            continue
        segment: list[str] = []
        for i, part in enumerate(parts):
            if i % 2 == 0:
                if part:
                    segment.append(out.constant(part))
            elif part in index:
                variable = f"p{index[part]}"
                out.line(1, f"if {variable} is None:")
                out.line(2, "return None")
                segment.append(variable)
            else:
                segment.append(out.constant("{" + part + "}"))
        out.line(1, f"s{number} = {' + '.join(segment)}")
        out.line(1, f'if s{number} == "." or s{number} == "..":')  # S12.1: a dot segment
        out.line(2, "return None")
        pieces.append(f"\0s{number}")
    # Literal text joined, variables between: one concatenation.
    joined: list[str] = []
    literal = ""
    for piece in pieces:
        if piece.startswith("\0"):
            if literal:
                joined.append(out.constant(literal))
                literal = ""
            joined.append(piece[1:])
        else:
            literal += piece
    if literal:
        joined.append(out.constant(literal))
    return " + ".join(joined) or '""'


def _body(out: _Source, router: Router) -> None:
    """S17: the body's JSON text (S14.4) and its bytes, as the general router makes them."""
    plan = router.body_plan
    out.line(1, "if b is NO_BODY:")
    out.line(2, "content = sent = None")
    out.line(1, "else:")
    out.line(2, "text = dumps(b)")
    if plan is None:
        out.line(2, "content = sent = None")
        return
    prefix = "" if router.body == "hoisted" else "body"
    bp = out.constant(plan)
    if plan.kind not in ("binary", "multipart") and plan.binary:
        out.line(2, f"check_binary({bp}, b, {prefix!r})")
    if plan.kind == "json":
        sent = "application/json" if "*" in media_base(plan.content_type) else plan.content_type
        out.line(2, "content = text.encode()")  # UTF-8
        out.line(2, f"sent = {out.constant(sent)}")
        return
    out.line(2, f"encoded = encode_body({bp}, b, text, {prefix!r})")
    out.line(2, "if encoded is None:")
    out.line(3, "content = sent = None")
    out.line(2, "else:")
    out.line(3, "content, sent = encoded.content, encoded.content_type")


def _request(out: _Source, router: Router, path: str) -> None:
    """The `Request`: with inbound headers or credentials, `_route.assemble` merges them."""
    has_body = "b is not NO_BODY"
    out.line(1, f"path = {path}")
    out.line(1, "if inbound or applied is not NOTHING:")
    out.line(
        2,
        f"return assemble({out.constant(router)}, path, [*q], [*e], [*h], [], b, inbound, "
        "None if content is None else Encoded(content, sent), applied)",
    )
    ct = router.content_type
    if ct is not None:
        out.line(1, f"if {has_body}:")
        out.line(2, f'h = (*h, ("content-type", {out.constant(ct)}))')
    written = out.constant(list(router.key_query_encoded))
    out.line(1, f"w = [*{written}, *e] if {written} else e")
    out.line(1, 'url = path + "?" + "&".join(w) if w else path')
    kq = router.key_query
    query = f"{out.constant(kq)} + tuple(q)" if kq else "tuple(q)"
    out.line(1, "r = new(Request)")
    values = {
        "method": out.constant(router.method),
        "path": "path",
        "query": query,
        "headers": "tuple(h)",
        "body": "b",
        "content_type": f"{out.constant(ct)} if {has_body} else None",
        "url": "url",
        "content": "content",
        "sent_type": "sent",
    }
    for name in _REQUEST_FIELDS:
        out.line(1, f"set_{name}(r, {values[name]})")
    out.line(1, "return r")


def compile_router(
    router: Router, check: Check, body_check: Check | None = None
) -> FastRouter | None:
    """The fast path of flat calls to `router`'s tool, or None where it has none (fixed
    arguments: S18.4, whose routing the general router owns).

    The function takes a call's arguments (a dict), the inbound headers and the applied
    credentials. It returns the `Request` the call engine would build for them when `check` (the
    flat schema's fast check, `_fastcheck`) proves them valid and `body_check` (the S6.3 check's)
    proves the routed body valid; otherwise None (or it raises), and the caller takes the
    general way, which validates, routes and words the errors.
    """
    if router.fixed:
        return None
    out = _Source()
    out.namespace["check"] = check
    out.namespace["body_check"] = body_check
    out.line(0, "def route(a, inbound, applied):")
    out.line(1, "if not check(a):")
    out.line(2, "return None")
    body = "{}" if router.body == "hoisted" else "NO_BODY"
    out.line(1, f"b = {body}")
    channels = {route.channel for route in router.by_argument.values()}
    # The query's pairs (`q`) and wire text (`e`), the headers (`h`): lists where the tool
    # declares any, else empty tuples.
    out.line(1, "q = []" if "query" in channels else "q = ()")
    out.line(1, "e = []" if "query" in channels else "e = ()")
    out.line(1, "h = []" if "header" in channels else "h = ()")
    for i, route in enumerate(router.by_argument.values()):
        if route.channel == "path":
            out.line(1, f"p{i} = None")
    _loop(out, router)
    path = _path(out, router)
    if router.body == "hoisted" and not router.body_required:
        out.line(1, "if not b:")  # S12.3: an optional body that was not given is not sent
        out.line(2, "b = NO_BODY")
    if body_check is not None:  # S6.3: the original body schema judges the routed body too
        out.line(1, "if b is not NO_BODY and not body_check(b):")
        out.line(2, "return None")
    _body(out, router)
    _request(out, router, path)
    code = compile("".join(out.lines), "<toolshape fast router>", "exec")
    exec(code, out.namespace)
    function: FastRouter = out.namespace["route"]
    return function
