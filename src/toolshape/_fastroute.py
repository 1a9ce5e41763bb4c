"""S12, S13: a compiled fast path for flat calls — the common case as one generated function.

`compile_router(router, ...)` writes one Python function per tool, once (as `_fastcheck` does
for validation): the tool's call entry. A flat call it can prove valid with the fast check is
routed in place: a branch per parameter (its channel's serialization of a scalar written
inline: the style, the name's encoding and the safe characters are known when the code is
written), the path as one concatenation, the body's bytes written as the arguments come (JSON
member by member, or form field by field) or made in one step, and the `Request` built. It
declines (and the general way, `Engine.general`, decides and words the errors) wherever it would
have to think: a value that is not a string, integer, boolean or finite number, a cookie, a
parameter with a `content` media type, an empty or dot path segment, a header value HTTP can't
carry, a form field with its own content type, an argument the general router would refuse or
rename; anything it raises means the same. Nothing document-derived is written into the source:
every name, table and text reaches the code through its namespace.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

from toolshape._credentials import NOTHING, apply_credentials
from toolshape._encode import Encoded, check_binary, encode_body
from toolshape._fastcheck import Check
from toolshape._frozen import unfrozen
from toolshape._http import header_problem, media_base
from toolshape._model import ParameterRoute
from toolshape._query import _RESERVED_SAFE, SCALAR_SAFE, _encode, _quoter, percent
from toolshape._route import Router, assemble
from toolshape._types import NO_BODY, Inbound, Request

Entry = Callable[[Any, Inbound, "Mapping[str, Any] | None"], Request]
"""How a tool is called: arguments, inbound headers, credentials (`Engine.call`)."""


class Declined(Exception):
    """The lane can't serve a call: the general way decides it."""


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
#: The JSON text of a string, as the encoder above writes it.
_JSON_STRING = json.encoder.encode_basestring


#: A frozen Request is built through its slots (its constructor sets each field with
#: `object.__setattr__`): the same object, in a quarter of the time.
_BUILDING = unfrozen(Request)

_HELPERS: Mapping[str, Any] = {
    "__builtins__": {
        f.__name__: f
        for f in (str, tuple, int, bool, float, dict, list, len, enumerate, Exception, type)
    },
    "NO_BODY": NO_BODY,
    "NOTHING": NOTHING,
    "Declined": Declined,
    "Request": Request,
    "frepr": float.__repr__,
    "isfinite": math.isfinite,
    "percent": percent,
    "reserved": _encode,
    "header_problem": header_problem,
    "dumps": _JSON,
    "json_string": _JSON_STRING,
    "Building": _BUILDING,
    "check_binary": check_binary,
    "encode_body": encode_body,
    "assemble": assemble,
    "Encoded": Encoded,
}


class _Source:
    """The lines of the generated function and the constants its code names."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = dict(_HELPERS)
        self.lines: list[str] = []
        self.base = 0
        """Where level 1 is: the lane's body sits inside the entry's guard and `try`."""

    def constant(self, value: Any) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def line(self, level: int, text: str) -> None:
        self.lines.append("    " * (level + self.base) + text + "\n")


def _encoded(out: _Source, text: str, safe: str, reserved: bool) -> str:
    """An expression: `text` percent-encoded with `safe` kept (RFC 3986), as `_query.percent`
    does it: ASCII letters and digits are kept and words whose only characters to encode are
    spaces get those replaced (both proven in C, without a pattern), other ASCII text that needs
    nothing is kept and the rest of it translated in one step, the rest (UTF-8) left to
    `percent`."""
    if reserved:
        return f"reserved({text}, {out.constant(safe)}, True)"
    search, table = _quoter(safe)
    spaces = (
        ""
        if " " in safe
        else f'{text}.replace(" ", "%20") if {text}.replace(" ", "").isalnum() else '
    )
    return (
        f"(({text} if {text}.isalnum() else {spaces}"
        f"{text} if {out.constant(search)}({text}) is None "
        f"else {text}.translate({out.constant(table)})) "
        f"if {text}.isascii() else percent({text}, {out.constant(safe)}))"
    )


#: The JSON types whose values a branch can turn into text without asking the value's class
#: more than once (a hint only: the class is checked, and anything else declines).
_SCALAR_TYPES = frozenset({"string", "integer", "boolean"})
#: Up to this many parameters, a branch per parameter tests the key itself; beyond, the key's
#: number is looked up first.
_CHAIN = 8


def _hint(schema: Any) -> str | None:
    """The scalar JSON type an argument's schema declares at its top, if it declares one."""
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    return kind if isinstance(kind, str) and kind in _SCALAR_TYPES else None


def _by_class(
    out: _Source, value: str, level: int, cases: list[tuple[str, str]], otherwise: str
) -> None:
    """Lines that run the statement of the first case whose test holds for `value`'s class
    (`c`), else `otherwise`: a scalar's text per its class, as `_query.text_of` and the JSON
    encoder decide by class."""
    out.line(level, f"c = type({value})")
    for index, (test, statement) in enumerate(cases):
        out.line(level, f"{'elif' if index else 'if'} {test}:")
        out.line(level + 1, statement)
    out.line(level, "else:")
    out.line(level + 1, otherwise)


def _scalar(out: _Source, hint: str | None, level: int) -> bool:
    """Lines that set `t` to the text of the scalar `v` (S12.1: as `_query.text_of` spells it)
    and decline any other value; True when that text needs no percent-encoding and
    is never empty (an integer's digits, `true`, `false`)."""
    if hint == "string":
        out.line(level, "if type(v) is not str:")
        out.line(level + 1, "raise Declined")
        out.line(level, "t = v")
        return False
    if hint == "integer":
        out.line(level, "if type(v) is not int:")
        out.line(level + 1, "raise Declined")
        out.line(level, "t = str(v)")
        return True
    if hint == "boolean":
        out.line(level, "if v is True:")
        out.line(level + 1, 't = "true"')
        out.line(level, "elif v is False:")
        out.line(level + 1, 't = "false"')
        out.line(level, "else:")
        out.line(level + 1, "raise Declined")
        return True
    cases = [
        ("c is str", "t = v"),
        ("c is int", "t = str(v)"),
        ("c is bool", 't = "true" if v else "false"'),
        ("c is float and isfinite(v)", "t = frepr(v)"),
    ]
    _by_class(out, "v", level, cases, "raise Declined")
    return False


def _parameter(
    out: _Source, route: ParameterRoute, index: int, level: int, hint: str | None
) -> None:
    """The branch of one parameter: its scalar value into the path, the query or a header."""
    if route.content_type is not None or route.channel == "cookie":
        out.line(level, "raise Declined")
        return
    plain = _scalar(out, hint, level)
    if route.channel == "path":
        text = "t" if plain else _encoded(out, "t", "", False)
        if route.style == "label":
            text = f'"." + {text}'
        elif route.style == "matrix":
            named = out.constant(f";{percent(route.name)}")
            out.line(level, f"t = {text}")
            text = f'{named} + "=" + t if t else {named}'
        out.line(level, f"p{index} = {text}")
        if not plain:
            out.line(level, f"if not p{index}:")  # the general router refuses an empty value
            out.line(level + 1, "raise Declined")
    elif route.channel == "query":
        out.line(level, f"q.append(({out.constant(route.name)}, t))")
        safe = _RESERVED_SAFE if route.allow_reserved else SCALAR_SAFE
        wire = out.constant(percent(route.name, "[]") + "=")
        text = "t" if plain else _encoded(out, "t", safe, route.allow_reserved)
        out.line(level, f"e.append({wire} + {text})")
    else:
        if not plain:
            # Letters and digits alone are a header value HTTP can carry (checked in C).
            out.line(
                level, "if not (t.isascii() and t.isalnum()) and header_problem(t) is not None:"
            )
            out.line(level + 1, "raise Declined")
        out.line(level, f"h.append(({out.constant(route.name.lower())}, t))")


BodyMode = Literal["json", "form", ""]
"""How the lane writes a hoisted body's bytes as the arguments come: `json`, each member's
JSON text; `form`, each field's form pieces; `""`, the whole body after the loop."""


def _body_keys(router: Router) -> frozenset[str]:
    """The arguments a hoisted body takes: its properties and their aliases (S19.2), as the
    general router takes them."""
    return frozenset(router.body_properties) | frozenset(router.body_aliases)


def _body_mode(router: Router, properties: Mapping[str, Any]) -> BodyMode:
    """`json` where no body argument declares an object or array type (a member the encoder
    writes costs more on its own than inside the whole body); `form` for a form whose fields
    can't give the same key twice (no alias, no bracket in a name) and carry no binary."""
    plan = router.body_plan
    if router.body != "hoisted" or router.undeclared == "body" or plan is None:
        return ""
    keys = _body_keys(router)
    if plan.kind == "form":
        plain = not router.body_aliases and not plan.binary
        return "form" if plain and not any("[" in k or "]" in k for k in keys) else ""
    if keys and not any(_structured(properties.get(key)) for key in keys):
        return "json"
    return ""


def _structured(schema: Any) -> bool:
    """Whether a schema declares (or may declare) the object or array type at its top."""
    if not isinstance(schema, Mapping):
        return True
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return "object" in kinds or "array" in kinds


def _form_cases(out: _Source, value: str, key: str, null: str) -> list[tuple[str, str]]:
    """S17.3: the cases (`_by_class`) that add the piece `key` + the text of the scalar
    `value`, percent-encoded, as `_query.text_of` spells it; `null` is what a null adds."""
    safe = out.constant(SCALAR_SAFE)
    return [
        ("c is str", f"add({key} + {_encoded(out, value, SCALAR_SAFE, False)})"),
        ("c is int", f"add({key} + str({value}))"),
        ("c is bool", f'add({key} + ("true" if {value} else "false"))'),
        (f"{value} is None", null),
        (f"c is float and isfinite({value})", f"add({key} + percent(frepr({value}), {safe}))"),
    ]


def _form_field(out: _Source, router: Router, level: int, properties: Mapping[str, Any]) -> None:
    """S17.3: a form field's pieces, as `_encode._form` writes the common ones: a scalar
    without `contentType` or `allowReserved` as `name=text`, a deepObject field of scalars as
    `name[key]=text` (an array's items by index); any other field declines."""
    plan = router.body_plan
    assert plan is not None
    fields: dict[str, tuple[str, str | None, dict[str, str]]] = {}
    for name in router.body_properties:
        entry = plan.encoding.get(name)
        if entry is not None and ("contentType" in entry or entry.get("allowReserved")):
            continue  # `_field` writes it
        wire = percent(name, "[]")
        deep = entry is not None and entry.get("style") == "deepObject"
        # The pieces' keys for the members the field's schema names, written once.
        known = {
            key: f"{wire}[{percent(key, '[]')}]="
            for key in _member_names(properties.get(name))
            if "[" not in key and "]" not in key
        }
        fields[name] = (wire + "=", wire + "[" if deep else None, known)
    # A field the lane does not write (or no field) is no key: the KeyError declines.
    out.line(level, f"x = {out.constant(fields)}[k]")
    if router.by_argument:
        out.line(level, "b[k] = v")  # without parameters, the body is the arguments' copy
    scalars = _form_cases(out, "v", "x[0]", "pass")  # null is undefined: not sent (S12.1)
    out.line(level, "c = type(v)")
    out.line(level, "if c is str:")  # the common case first
    out.line(level + 1, scalars[0][1])
    out.line(level, "elif c is dict or c is list:")  # only a deepObject field holds one
    out.line(level + 1, "d = x[1]")
    out.line(level + 1, "if d is None:")
    out.line(level + 2, "raise Declined")
    out.line(level + 1, "if c is dict:")
    out.line(level + 2, "m = x[2]")
    out.line(level + 2, "for kk, vv in v.items():")
    out.line(level + 3, "w = m.get(kk)")
    out.line(level + 3, "if w is None or type(kk) is not str:")
    # A key holding a bracket would forge structure: `_field` refuses it.
    out.line(level + 4, 'if type(kk) is not str or "[" in kk or "]" in kk:')
    out.line(level + 5, "raise Declined")
    out.line(level + 4, f'w = d + {_encoded(out, "kk", "", False)} + "]="')
    _form_member(out, level + 3)
    out.line(level + 1, "else:")
    out.line(level + 2, "for n, vv in enumerate(v):")
    out.line(level + 3, 'w = d + str(n) + "]="')
    _form_member(out, level + 3)
    out.line(level, "else:")
    _by_class(out, "v", level + 1, scalars[1:], "raise Declined")


def _form_member(out: _Source, level: int) -> None:
    """Lines that add the piece of a deepObject member `vv` under the key `w` (a null member
    is sent empty, `w` alone)."""
    _by_class(out, "vv", level, _form_cases(out, "vv", "w", "add(w)"), "raise Declined")


def _member_names(schema: Any) -> list[str]:
    """The property names a schema declares at its top or in its top `anyOf` / `oneOf` /
    `allOf` branches (only to write pieces' keys ahead: any name may be missed)."""
    if not isinstance(schema, Mapping):
        return []
    branches = [schema]
    for keyword in ("anyOf", "oneOf", "allOf"):
        found = schema.get(keyword)
        if isinstance(found, list):
            branches += [branch for branch in found if isinstance(branch, Mapping)]
    return [
        name
        for branch in branches
        if isinstance(branch.get("properties"), Mapping)
        for name in branch["properties"]
        if isinstance(name, str)
    ]


def _rest(
    out: _Source, router: Router, level: int, mode: BodyMode, properties: Mapping[str, Any]
) -> None:
    """The branch of an argument that is no parameter: the body, or a decline."""
    if router.aliased:
        out.line(level, f"if k in {out.constant(frozenset(router.aliased))}:")
        out.line(level + 1, "raise Declined")
    if router.body == "wrapped":
        out.line(level, 'if k == "body":')
        out.line(level + 1, "b = v")
        out.line(level + 1, "continue")
    if mode == "form":
        _form_field(out, router, level, properties)
        return
    if router.body == "hoisted":
        aliases = router.body_aliases
        name = f"{out.constant(dict(aliases))}.get(k, k)" if aliases else "k"
        if mode == "json":
            # S14.4: each member's JSON text, `"name":value`, as the encoder writes it.
            members = {key: _JSON_STRING(aliases.get(key, key)) + ":" for key in _body_keys(router)}
            # No body argument (or no argument) is no key: the KeyError declines.
            out.line(level, f"x = {out.constant(members)}[k]")
            out.line(level, f"b[{name}] = v")
            cases = [
                ("c is str", "j.append(x + json_string(v))"),
                ("c is int", "j.append(x + str(v))"),
                ("c is bool", 'j.append(x + ("true" if v else "false"))'),
            ]
            _by_class(out, "v", level, cases, "j.append(x + dumps(v))")
            return
        elif router.undeclared == "body":
            out.line(level, f"b[{name}] = v")
            out.line(level, "continue")
        else:
            out.line(level, f"if k in {out.constant(_body_keys(router))}:")
            out.line(level + 1, f"b[{name}] = v")
            out.line(level + 1, "continue")
    out.line(level, "raise Declined")


def _loop(out: _Source, router: Router, properties: Mapping[str, Any], mode: BodyMode) -> None:
    """The loop over the call's arguments: a branch per parameter, the rest into the body."""
    routes = list(router.by_argument.items())
    chained = len(routes) <= _CHAIN
    out.line(1, "for k, v in a.items():")
    if not chained:
        out.line(2, f"i = {out.constant({name: i for i, (name, _) in enumerate(routes)})}.get(k)")
    for index, (name, route) in enumerate(routes):
        test = f"k == {out.constant(name)}" if chained else f"i == {index}"
        out.line(2, f"{'elif' if index else 'if'} {test}:")
        _parameter(out, route, index, 3, _hint(properties.get(name)))
    if routes:
        out.line(2, "else:")
    _rest(out, router, 3 if routes else 2, mode, properties)


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
        if len(parts) == 3 and not parts[0] and not parts[2] and parts[1] in index:
            # One variable alone: given, and no dot segment (S12.1), in one question.
            variable = f"p{index[parts[1]]}"
            out.line(1, f"if {variable} in {out.constant(frozenset({None, '.', '..'}))}:")
            out.line(2, "raise Declined")
            pieces.append(f"\0{variable}")
            continue
        segment: list[str] = []
        for i, part in enumerate(parts):
            if i % 2 == 0:
                if part:
                    segment.append(out.constant(part))
            elif part in index:
                variable = f"p{index[part]}"
                out.line(1, f"if {variable} is None:")
                out.line(2, "raise Declined")
                segment.append(variable)
            else:
                segment.append(out.constant("{" + part + "}"))
        out.line(1, f"s{number} = {' + '.join(segment)}")
        out.line(1, f'if s{number} == "." or s{number} == "..":')  # S12.1: a dot segment
        out.line(2, "raise Declined")
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


Presence = Literal["always", "maybe", "never"]
"""Whether a call's request has a body: a required hoisted body always (`{}` at least), an
optional or a wrapped one maybe, a tool without one never."""


def _presence(router: Router) -> Presence:
    if router.body == "hoisted":
        return "always" if router.body_required else "maybe"
    return "maybe" if router.body == "wrapped" else "never"


def _body(out: _Source, router: Router, mode: BodyMode, level: int) -> None:
    """S17: the body's JSON text (S14.4) and its bytes, as the general router makes them."""
    plan = router.body_plan
    prefix = "" if router.body == "hoisted" else "body"
    if mode == "form":
        assert plan is not None
        # Every field was written as a scalar's text (`_form_field`): the body is JSON.
        out.line(level, 'content = "&".join(f).encode("ascii")')
        out.line(level, f"sent = {out.constant(plan.content_type)}")
        return
    if mode == "json":
        # The members' text, unless one member was given twice (an alias and its name).
        out.line(level, 'text = "{" + ",".join(j) + "}" if len(j) == len(b) else dumps(b)')
    else:
        out.line(level, "text = dumps(b)")
    if plan is None:
        out.line(level, "content = sent = None")
        return
    bp = out.constant(plan)
    if plan.kind not in ("binary", "multipart") and plan.binary:
        out.line(level, f"check_binary({bp}, b, {prefix!r})")
    if plan.kind == "json":
        sent = "application/json" if "*" in media_base(plan.content_type) else plan.content_type
        out.line(level, "content = text.encode()")  # UTF-8
        out.line(level, f"sent = {out.constant(sent)}")
        return
    out.line(level, f"encoded = encode_body({bp}, b, text, {prefix!r})")
    out.line(level, "if encoded is None:")
    out.line(level + 1, "content = sent = None")
    out.line(level, "else:")
    out.line(level + 1, "content, sent = encoded.content, encoded.content_type")


def _bytes(out: _Source, router: Router, mode: BodyMode, presence: Presence, checked: bool) -> None:
    """The routed body checked (S6.3, where `checked`: `body_check`) and made bytes
    (`content`, `sent`), where there is one."""
    if router.body == "hoisted" and presence == "maybe":
        out.line(1, "if not b:")  # S12.3: an optional body that was not given is not sent
        out.line(2, "b = NO_BODY")
    if presence == "never":
        out.line(1, "content = sent = None")
        return
    if presence == "always":
        if checked:  # S6.3: the original body schema judges the routed body too
            out.line(1, "if not body_check(b):")
            out.line(2, "raise Declined")
        _body(out, router, mode, 1)
        return
    out.line(1, "if b is NO_BODY:")
    out.line(2, "content = sent = None")
    out.line(1, "else:")
    if checked:
        out.line(2, "if not body_check(b):")
        out.line(3, "raise Declined")
    _body(out, router, mode, 2)


def _request(
    out: _Source, router: Router, path: str, presence: Presence, channels: set[str]
) -> None:
    """The `Request`: with inbound headers or credentials, `_route.assemble` merges them;
    `channels` are those the tool's parameters use."""
    out.line(1, f"path = {path}")
    out.line(1, "if inbound or applied is not NOTHING:")
    out.line(
        2,
        f"return assemble({out.constant(router)}, path, [*q], [*e], [*h], [], b, inbound, "
        "None if content is None else Encoded(content, sent), applied)",
    )
    ct = router.content_type
    own = "tuple(h)" if "header" in channels else "()"
    if ct is None or presence == "never":
        headers, content_type = own, "None"
    else:
        with_type = f"(*h, {out.constant(('content-type', ct))})"
        headers, content_type = with_type, out.constant(ct)
        if presence == "maybe":
            headers = f"{own} if b is NO_BODY else {with_type}"
            content_type = f"None if b is NO_BODY else {content_type}"
    # S1.6: the path key's query first, as written, then the arguments'.
    kq, written = router.key_query, "&".join(router.key_query_encoded)
    if "query" in channels:
        query = f"{out.constant(kq)} + tuple(q)" if kq else "tuple(q)"
        if written:
            url = f'path + {out.constant("?" + written)} + ("&" + "&".join(e) if e else "")'
        else:
            url = 'path + "?" + "&".join(e) if e else path'
    else:
        query = out.constant(kq)
        url = f"path + {out.constant('?' + written)}" if written else "path"
    values = {
        "method": out.constant(router.method),
        "path": "path",
        "query": query,
        "headers": headers,
        "body": "b",
        "content_type": content_type,
        "url": url,
        "content": "content",
        "sent_type": "sent",
    }
    if _BUILDING is None:  # pragma: no cover - an interpreter that refuses the class assignment
        fields = ", ".join(f"{name}={value}" for name, value in values.items())
        out.line(1, f"return Request({fields})")
        return
    out.line(1, "r = Building()")
    for name, value in values.items():
        out.line(1, f"r.{name} = {value}")
    out.line(1, "r.__class__ = Request")
    out.line(1, "return r")


def compile_router(
    router: Router,
    check: Check,
    body_check: Check | None,
    properties: Mapping[str, Any] | None,
    general: Entry,
) -> Entry | None:
    """The call entry of `router`'s tool, or None where it has none (fixed arguments: S18.4,
    whose routing the general router owns).

    The entry takes a call as `Engine.call` does (arguments, inbound headers, credentials). A
    flat call (a dict with a key that is no channel name: S13.1) that `check` (the flat
    schema's fast check, `_fastcheck`) proves valid, whose routed body `body_check` (the S6.3
    check's) proves valid too, and that the lane can route, it turns into the `Request` the
    general way would build, in this one function. Every other call, and every call the lane
    declines or anything in it raises for, goes to `general`, which validates, routes and
    words the errors. Credentials are applied first (S18.2: their error is the gateway's, and
    raised as such). `properties` (the flat schema's) only shape the code: a declared scalar
    type lets a branch write less.
    """
    if router.fixed:
        return None
    properties = properties if properties is not None else {}
    mode = _body_mode(router, properties)
    out = _Source()
    out.namespace.update(
        check=check,
        body_check=body_check,
        general=general,
        apply=apply_credentials,
        channel_names=router.channel_names,
        security=router.security,
        tool=router.tool,
    )
    out.line(0, "def call(a, inbound=None, credentials=None):")
    out.line(1, "if type(a) is dict and not a.keys() <= channel_names:")
    out.line(2, "if credentials is None:")
    out.line(3, "applied = NOTHING")
    out.line(2, "else:")
    out.line(3, "applied = apply(security, credentials, tool)")
    out.line(2, "try:")
    out.base = 2
    out.line(1, "if not check(a):")
    out.line(2, "raise Declined")
    if router.body == "hoisted":
        # A form tool without parameters: every argument is a field (`_form_field`).
        copied = mode == "form" and not router.by_argument
        out.line(1, "b = a.copy()" if copied else "b = {}")
    else:
        out.line(1, "b = NO_BODY")
    if mode:
        out.line(1, "j = []" if mode == "json" else "f = []")
        if mode == "form":
            out.line(1, "add = f.append")
    channels: set[str] = {route.channel for route in router.by_argument.values()}
    # The query's pairs (`q`) and wire text (`e`), the headers (`h`): lists where the tool
    # declares any, else empty tuples.
    out.line(1, "q = []" if "query" in channels else "q = ()")
    out.line(1, "e = []" if "query" in channels else "e = ()")
    out.line(1, "h = []" if "header" in channels else "h = ()")
    for i, route in enumerate(router.by_argument.values()):
        if route.channel == "path":
            out.line(1, f"p{i} = None")
    _loop(out, router, properties, mode)
    path = _path(out, router)
    presence = _presence(router)
    _bytes(out, router, mode, presence, body_check is not None)
    _request(out, router, path, presence, channels)
    out.base = 0
    out.line(2, "except Exception:")  # a decline, or any doubt: the general way decides
    out.line(3, "pass")
    out.line(1, "return general(a, inbound, credentials)")
    code = compile("".join(out.lines), "<toolshape fast router>", "exec")
    exec(code, out.namespace)
    function: Entry = out.namespace["call"]
    return function
