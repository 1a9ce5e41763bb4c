"""S12: routing a validated call back into the HTTP request the operation expects."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qsl, quote

from toolshape.call._credentials import NOTHING, Applied, apply_credentials
from toolshape.call._encode import BodyPlan, Encoded, check_binary, encode_body
from toolshape.call._query import Refused, form_pairs, pairs_of, percent, text_of
from toolshape.call._request import NO_BODY, Request
from toolshape.model._errors import ArgumentError, ArgumentIssue, HeaderError
from toolshape.model._http import TEMPLATE_VARIABLE, client_header, header_problem
from toolshape.model._json import Json, Unchecked, thaw
from toolshape.model._pointers import def_name
from toolshape.model._types import (
    CHANNEL_ARGUMENT,
    BodyEncoding,
    BodyShape,
    Channel,
    Inbound,
    Reading,
    Security,
)

if TYPE_CHECKING:
    from toolshape.plans._plan import FixedArgument, ParameterRoute, Plan

#: S1.6: a path key's literal text is sent as written; only what a URL can't hold is encoded.
_PATH_LITERAL_SAFE = "!$&'()*+,;=:@%-._~"
#: S13.1: the channel names a nested call may use (and `cookies` with cookie parameters).
CHANNEL_NAMES = frozenset({"pathParams", "queryParams", "body", "headers"})
_CHANNEL_OF_ARGUMENT: Mapping[str, Channel] = {v: k for k, v in CHANNEL_ARGUMENT.items()}


@dataclass(frozen=True, slots=True)
class Router:
    """How a tool's arguments go back into the HTTP request (S12), built once per tool: from
    plain data (the fields below), or from a plan (`Router.of(plan)`).

        >>> from toolshape import ParameterRoute, Router, route_args
        >>> router = Router(
        ...     method="POST",
        ...     path="/stores/{storeId}/search",
        ...     parameters=(ParameterRoute("storeId", "storeId", "path", "simple", False),),
        ...     body="hoisted",
        ...     body_properties=("query",),
        ...     content_type="application/json",
        ... )
        >>> request = route_args({"storeId": "s1", "query": "hoodie"}, router)
        >>> request.url, request.body
        ('/stores/s1/search', {'query': 'hoodie'})
    """

    method: str
    """The HTTP method, upper case."""
    path: str
    """The path key as written in the document (S1.6)."""
    parameters: tuple[ParameterRoute, ...] = ()
    body: BodyShape = "none"
    body_properties: tuple[str, ...] = ()
    """The hoisted body's property names (S4.1)."""
    body_required: bool = False
    undeclared: Literal["reject", "body"] = "reject"
    """S7: what a flat call's undeclared argument does."""
    content_type: str | None = None
    style: Literal["flat", "nested"] = "flat"
    """The tool's style: a nested tool's channel members are named by their aliases (S19.1)."""
    body_aliases: Mapping[str, str] = field(default_factory=dict)
    """S19.2: a hoisted body property's advertised name → its name in the body."""
    base_path: str = ""
    """S20.3: what every request path starts with (a Swagger 2.0 `basePath`)."""
    body_encoding: BodyEncoding | None = None
    """S17: how the body becomes bytes; None: the request carries the value, no bytes."""
    encoding: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    binary: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    body_names: tuple[str, ...] = ()
    """The body's declared top-level properties (hoisted or not): an undeclared form key may
    not forge the structure of one (S17.3)."""
    security: Security = ((),)
    """S18.1: the operation's security alternatives."""
    fixed: tuple[FixedArgument, ...] = ()
    """S18.4: the arguments the gateway supplies, routed on every call."""
    tool: str = "tool"
    """The tool's name, for argument errors."""
    tables: _Tables = field(init=False, repr=False, compare=False)
    """What routing reads, computed once from the fields above."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", _Tables.of(self))

    @classmethod
    def of(cls, plan: Plan) -> Router:
        """The routing table of `plan` (S12.1)."""
        return cls(
            method=plan.method,
            path=plan.path,
            parameters=plan.parameters,
            body=plan.body,
            body_properties=plan.body_properties,
            body_required=plan.body_required,
            undeclared=plan.undeclared,
            content_type=plan.content_type,
            style=plan.style,
            body_aliases=plan.body_aliases,
            base_path=plan.base_path,
            body_encoding=plan.body_encoding,
            encoding=plan.encoding,
            binary=plan.binary,
            body_names=plan.body_properties or _body_names(plan),
            security=plan.security,
            fixed=plan.fixed,
            tool=plan.name,
        )


@dataclass(frozen=True, slots=True)
class _Tables:
    """A router's lookups, computed once: nothing of them is computed per call."""

    by_argument: Mapping[str, ParameterRoute]
    """A flat call's parameter arguments, by advertised name (S19.1)."""
    by_channel: Mapping[Channel, Mapping[str, ParameterRoute]]
    """A nested call's members per channel: by advertised name for a nested tool, by argument
    name for a flat tool's nested reading (S19.1)."""
    base_path: str
    """S20.3: the base path, percent-encoded as a path literal."""
    segments: tuple[tuple[str, ...], ...]
    """The path template's `/`-separated segments, each split into literal text (even
    positions) and variable names (odd positions)."""
    key_query: tuple[tuple[str, str], ...]
    """S1.6: a query written in the path key, sent before the arguments' query."""
    key_query_encoded: tuple[str, ...]
    """S1.6: that query exactly as written (a valueless `?beta` stays `beta`)."""
    query_names: frozenset[str]
    """Every query name the operation declares or its path key writes: an exploded object's
    key may not forge one (S12.1)."""
    body_properties: frozenset[str]
    aliased: Mapping[str, str]
    """S19: each wire (or argument) name that has an alias → the alias: a flat call using the
    wire name is told the advertised one instead of having it land elsewhere (S7)."""
    body_plan: BodyPlan | None
    """S17: how the body becomes bytes; None without a body."""
    channel_names: frozenset[str]
    """S13.1: the names a nested call may use: `cookies` only with cookie parameters."""
    cookie_names: frozenset[str]
    """Every cookie name the operation declares or a credential uses: an exploded object's
    key may not forge one (S12.1, S18.3)."""
    fixed_names: Mapping[str, frozenset[str]]
    """S18.4: the fixed names by where an argument would give them: `""` for a flat call's
    top level, and each nested channel argument (`queryParams`, `body`)."""

    @classmethod
    def of(cls, router: Router) -> _Tables:
        """The lookups of `router`'s plain data."""
        template, _, _fragment = router.path.partition("#")  # S1.6: a fragment is never sent
        template, _, key_query = template.partition("?")
        pairs = tuple(parse_qsl(key_query, keep_blank_values=True))
        by_channel: dict[Channel, dict[str, ParameterRoute]] = {}
        nested_key = "advertised" if router.style == "nested" else "argument"
        for route in router.parameters:
            by_channel.setdefault(route.channel, {})[getattr(route, nested_key)] = route
        carried = [s for alternative in router.security for s in alternative if s.kind == "apiKey"]
        fixed_routes = [f.route for f in router.fixed if f.route is not None]
        return cls(
            by_argument={route.advertised: route for route in router.parameters},
            by_channel=by_channel,
            base_path=quote(router.base_path, safe="/" + _PATH_LITERAL_SAFE),
            segments=tuple(
                tuple(
                    part if i % 2 else quote(part, safe=_PATH_LITERAL_SAFE)
                    for i, part in enumerate(TEMPLATE_VARIABLE.split(s))
                )
                for s in template.split("/")
            ),
            key_query=pairs,
            key_query_encoded=tuple(
                quote(part, safe="!$'()*+,;=:@/?%[]~") for part in key_query.split("&") if part
            ),
            query_names=frozenset(
                [
                    *(r.name for r in router.parameters if r.channel == "query"),
                    *(k for k, _ in pairs),
                    *(s.parameter for s in carried if s.location == "query" and s.parameter),
                    *(r.name for r in fixed_routes if r.channel == "query"),
                ]
            ),
            body_properties=frozenset(router.body_properties),
            aliased=_aliased(router),
            body_plan=None
            if router.body_encoding is None or router.content_type is None
            else BodyPlan(
                router.body_encoding,
                router.content_type,
                router.encoding,
                router.binary,
                frozenset(router.body_names),
            ),
            channel_names=CHANNEL_NAMES | ({"cookies"} if "cookie" in by_channel else set()),
            cookie_names=frozenset(
                [
                    *(r.name for r in router.parameters if r.channel == "cookie"),
                    *(s.parameter for s in carried if s.location == "cookie" and s.parameter),
                    *(r.name for r in fixed_routes if r.channel == "cookie"),
                ]
            ),
            fixed_names=_fixed_names(router.fixed),
        )


def _body_names(plan: Plan) -> tuple[str, ...]:
    """The top-level property names of a nested tool's body schema (through one `$ref`)."""
    nested = plan._nested
    schema = nested.get("properties", {}).get("body")
    if isinstance(schema, Mapping) and "$ref" in schema:
        schema = nested.get("$defs", {}).get(def_name(schema["$ref"]))
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    return tuple(properties) if isinstance(properties, Mapping) else ()


def _aliased(router: Router) -> dict[str, str]:
    """S19: each wire (or argument) name that has an alias and is not itself advertised."""
    advertised = {r.advertised for r in router.parameters} | set(router.body_aliases)
    advertised |= set(router.body_properties) - set(router.body_aliases.values())
    aliased = {r.argument: r.alias for r in router.parameters if r.alias}
    aliased.update({wire: alias for alias, wire in router.body_aliases.items()})
    aliased = {wire: alias for wire, alias in aliased.items() if wire not in advertised}
    if router.body == "wrapped":
        aliased.pop("body", None)
    return aliased


def _fixed_names(fixed: tuple[FixedArgument, ...]) -> dict[str, frozenset[str]]:
    """S18.4: the fixed names, by where an argument would give them."""
    names: dict[str, set[str]] = {"": {f.name for f in fixed}}
    for item in fixed:
        channel = CHANNEL_ARGUMENT[item.route.channel if item.route else "body"]
        names.setdefault(channel, set()).add(item.name)
    return {k: frozenset(v) for k, v in names.items() if v}


def _path_value(route: ParameterRoute, value: Unchecked) -> str:
    """One path variable per `style` / `explode`, percent-encoded so it can't add segments."""
    if route.content_type is not None:
        return percent(json.dumps(value, ensure_ascii=False, allow_nan=False))
    style, explode, name = route.style, route.explode, percent(route.name)
    if isinstance(value, list):
        items = [percent(text_of(v)) for v in value]
        if style == "label":
            return "." + ("." if explode else ",").join(items)
        if style == "matrix":
            if explode:
                return "".join(f";{name}={item}" for item in items) or f";{name}"
            return f";{name}=" + ",".join(items) if items else f";{name}"
        return ",".join(items)
    if isinstance(value, dict):
        pairs = [(percent(k), percent(v)) for k, v in pairs_of(value)]
        joined = [f"{k}={v}" for k, v in pairs] if explode else [f"{k},{v}" for k, v in pairs]
        if style == "label":
            return "." + ("." if explode else ",").join(joined)
        if style == "matrix":
            return (
                "".join(f";{item}" for item in joined)
                if explode
                else f";{name}=" + ",".join(joined)
            )
        return ",".join(joined)
    text = percent(text_of(value))
    if style == "label":
        return "." + text
    if style == "matrix":
        return f";{name}={text}" if text else f";{name}"
    return text


def _query(route: ParameterRoute, value: Unchecked, router: Router) -> list[tuple[str, str, str]]:
    """One query parameter per `style` / `explode` (S12.1): `(name, value, wire text)` triples,
    the first two as the server decodes them, the third exactly as sent. A `querystring`
    route's value is the whole query (S26.4): JSON text for a JSON media type, else its text,
    percent-encoded whole."""
    if route.style == "querystring":
        kind = (route.content_type or "").split(";")[0].strip().lower()
        json_type = kind == "application/json" or kind.endswith("+json")
        text = (
            json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            if json_type
            else text_of(value)
        )
        return [(route.name, text, percent(text))]
    if route.content_type is not None:
        value = json.dumps(value, ensure_ascii=False, allow_nan=False)
        return form_pairs(
            route.name, value, "form", True, route.allow_reserved, router.tables.query_names
        )
    return form_pairs(
        route.name,
        value,
        route.style,
        route.explode,
        route.allow_reserved,
        router.tables.query_names,
    )


def _header_value(route: ParameterRoute, value: Unchecked) -> str:
    """A header per `simple` style (S12.1); inside an array or object, `%` and the delimiters
    are percent-encoded so the server splits exactly the items sent."""
    if route.content_type is not None:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    elif isinstance(value, list):
        text = ",".join(_item(text_of(v)) for v in value)
    elif isinstance(value, dict):
        sep = "=" if route.explode else ","
        text = ",".join(f"{_item(k)}{sep}{_item(v)}" for k, v in pairs_of(value))
    else:
        text = text_of(value)
    problem = header_problem(text)
    if problem is not None:
        raise Refused(None, "header", problem)
    return text


def _item(text: str) -> str:
    return text.replace("%", "%25").replace(",", "%2C").replace("=", "%3D")


def _cookie_pairs(
    route: ParameterRoute, value: Unchecked, names: frozenset[str]
) -> list[tuple[str, str]]:
    """Cookie parameters per `form` style, percent-encoded; the delimiters of a non-exploded
    array or object are left raw, the items' own encoded (S12.1). An exploded object's key may
    not be another cookie's name (`names`: declared, or a credential's, S18.3)."""
    if route.style == "cookie":
        return _cookie_style(route, value, names)
    name = percent(route.name)
    if route.content_type is not None:
        return [(name, percent(json.dumps(value, ensure_ascii=False, allow_nan=False)))]
    if isinstance(value, list):
        items = [percent(text_of(v)) for v in value]
        return [(name, item) for item in items] if route.explode else [(name, ",".join(items))]
    if isinstance(value, dict):
        pairs = [(percent(k), percent(v)) for k, v in pairs_of(value)]
        if route.explode:
            _not_forged(route, value, names)
            return pairs
        return [(name, ",".join(f"{k},{v}" for k, v in pairs))]
    return [(name, percent(text_of(value)))]


#: RFC 6265 `cookie-octet`: what a value sent in `style: cookie` may hold (no space, `"`, `,`,
#: `;` or `\\`), as given: that style escapes nothing (S26.5).
_COOKIE_OCTETS = re.compile(r"[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*")


def _cookie_style(
    route: ParameterRoute, value: Unchecked, names: frozenset[str]
) -> list[tuple[str, str]]:
    """S26.5: `style: cookie`: name=value pairs (an exploded object's keys as names), nothing
    escaped, so each value must already be cookie text; a non-exploded array or object joins
    its items with `,`."""
    if isinstance(value, dict):
        pairs = list(pairs_of(value))
        texts = [t for pair in pairs for t in pair]
    else:
        pairs = []
        texts = [text_of(v) for v in value] if isinstance(value, list) else [text_of(value)]
    bad = next((t for t in texts if not _COOKIE_OCTETS.fullmatch(t)), None)
    if bad is not None:
        raise Refused(
            None,
            "style",
            f"{json.dumps(bad)} can't be sent as cookie text (style cookie escapes nothing: "
            "no space, quote, comma, semicolon or backslash)",
        )
    if isinstance(value, dict) and route.explode:
        _not_forged(route, value, names)
        return pairs
    if isinstance(value, list) and route.explode:
        return [(route.name, text) for text in texts]
    return [(route.name, ",".join(texts))]


def _not_forged(route: ParameterRoute, value: dict[str, Unchecked], names: frozenset[str]) -> None:
    """S18.3: an exploded object's key may not be another cookie's name.

    Raises:
        Refused: one is.
    """
    forged = sorted(k for k in value if k in names and k != route.name)
    if forged:
        raise Refused(
            None,
            "style",
            f"the key `{forged[0]}` would be sent as the cookie `{forged[0]}`, which "
            "this operation sets otherwise (an exploded object's keys become names)",
        )


def _inbound(headers: Inbound, tool: str) -> list[tuple[str, str]]:
    """S12.2, S1.5: the inbound headers to forward, lower-cased: the client-owned ones
    (`host`, `content-length`, ...) left out.

    Raises:
        HeaderError: headers that are no mapping or pairs, or a value HTTP can't carry.
    """
    if not headers:
        return []
    items = headers.items() if isinstance(headers, Mapping) else headers
    try:
        pairs = [(str(name).lower(), value) for name, value in items]
    except (TypeError, ValueError):
        raise HeaderError(tool, None, "they must be a mapping or (name, value) pairs") from None
    out = []
    for name, value in pairs:
        if client_header(name):
            continue  # S1.5: the HTTP client frames and routes the request
        if not isinstance(value, str):
            raise HeaderError(tool, name, f"its value is a {type(value).__name__}, not text")
        problem = header_problem(value)
        if problem is not None:
            raise HeaderError(tool, name, problem)
        out.append((name, value))
    return out


class _Builder:
    """Collects one request's parts while arguments are routed."""

    __slots__ = (
        "body",
        "cookies",
        "exploded",
        "headers",
        "path_values",
        "query",
        "query_encoded",
        "router",
        "tool",
    )

    def __init__(self, router: Router) -> None:
        self.tool = router.tool
        self.router = router
        self.path_values: dict[str, str] = {}
        self.query: list[tuple[str, str]] = []
        self.query_encoded: list[str] = []
        self.exploded: set[str] = set()
        self.headers: list[tuple[str, str]] = []
        self.cookies: list[tuple[str, str]] = []
        self.body: Any = NO_BODY

    def parameter(self, route: ParameterRoute, value: Unchecked, where: str) -> None:
        channel = route.channel
        try:
            if channel == "path":
                text = _path_value(route, value)
                if not text:
                    raise Refused(
                        None,
                        "minLength",
                        "a path parameter can't be empty: the request's path would lose a segment",
                    )
                self.path_values[route.name] = text
                return
            if value is None or value == [] or value == {}:
                return  # S12.1: undefined in RFC 6570, so not sent (S14.2 counts it as sent)
            if channel == "query":
                parts = _query(route, value, self.router)
                if route.explode and isinstance(value, dict) and route.style != "deepObject":
                    names = {name for name, _, _ in parts}
                    clash = names & self.exploded
                    if clash:
                        raise Refused(
                            None,
                            "style",
                            f"the key `{sorted(clash)[0]}` is also a key of another exploded "
                            "object, so the server would read two values for one name",
                        )
                    self.exploded |= names
                for name, text, wire in parts:
                    self.query.append((name, text))
                    self.query_encoded.append(wire)
            elif channel == "header":
                self.headers.append((route.name.lower(), _header_value(route, value)))
            else:
                self.cookies.extend(_cookie_pairs(route, value, self.router.tables.cookie_names))
        except Refused as refused:
            raise ArgumentError(
                self.tool, [ArgumentIssue(refused.where or where, refused.keyword, refused.message)]
            ) from None

    def refuse(self, where: str) -> ArgumentError:
        # S7, S14.2: never silently dropped; the validator normally rejects this first.
        return ArgumentError(
            self.tool,
            [ArgumentIssue(where, "additionalProperties", "is not an argument of this tool")],
        )


def route_args(
    arguments: Unchecked,
    router: Router,
    reading: Reading = "flat",
    *,
    headers: Inbound = None,
    credentials: Mapping[str, Unchecked] | None = None,
) -> Request:
    """The request `arguments` (already validated for `reading`) describe (S12, S18).

    Every argument lands in exactly one place: its parameter's channel, the body, or (for an
    undeclared argument of an open body) a body field of that name (S7); never a header it
    doesn't declare. Fixed arguments are routed too, and `credentials` applied (S18.2).

    Raises:
        ArgumentError: a value the request can't carry intact (an empty path value, a header
            value with control characters, a key that would forge query structure, a value
            JSON can't spell), or an argument nothing declares.
        CredentialError: `credentials` satisfy no security alternative (S18.2).

        >>> from toolshape import ParameterRoute, Router
        >>> router = Router("GET", "/things/{id}", (ParameterRoute("id", "id", "path", "simple", False),))
        >>> route_args({"id": "a/b"}, router).url
        '/things/a%2Fb'
    """
    applied = apply_credentials(router.security, credentials, router.tool)
    return routed(router, arguments, reading, headers, applied)


def routed(
    router: Router, arguments: Unchecked, reading: Reading, headers: Inbound, applied: Applied
) -> Request:
    """`route_args` with the credentials already applied (the engine applies them once)."""
    out = _Builder(router)
    if not isinstance(arguments, dict):
        raise ArgumentError(
            router.tool, [ArgumentIssue("", "type", "the arguments must be an object")]
        )
    encoded: Encoded | None = None
    try:
        if reading == "flat":
            _route_flat(router, arguments, out)
        else:
            _route_nested(router, arguments, out)
        if router.fixed:
            _route_fixed(router, out)
        if out.body is not NO_BODY:
            # S14.4: NaN, sets, bytes are not JSON; the text is the S17.2 JSON body too.
            text = json.dumps(out.body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            if router.tables.body_plan is not None:
                prefix = "" if reading == "flat" and router.body == "hoisted" else "body"
                check_binary(router.tables.body_plan, out.body, prefix)  # S17.5
                encoded = encode_body(router.tables.body_plan, out.body, text, prefix)  # S17
    except RecursionError:
        raise ArgumentError(
            router.tool, [ArgumentIssue("", "depth", "the arguments are nested too deeply to send")]
        ) from None
    except Refused as refused:
        raise ArgumentError(
            router.tool, [ArgumentIssue(refused.where or "", refused.keyword, refused.message)]
        ) from None
    except (TypeError, ValueError) as error:  # a Python value with no JSON spelling
        raise ArgumentError(
            router.tool, [ArgumentIssue("", "type", f"the arguments are not JSON values: {error}")]
        ) from None
    return _finish(router, out, headers, encoded, applied)


def _route_flat(router: Router, arguments: dict[str, Unchecked], out: _Builder) -> None:
    body: dict[str, Unchecked] | None = None
    for key, value in arguments.items():
        route = router.tables.by_argument.get(key)
        if route is not None:
            out.parameter(route, value, key)
            continue
        if router.tables.aliased and key in router.tables.aliased:
            raise ArgumentError(
                router.tool,
                [
                    ArgumentIssue(
                        key, "additionalProperties", f"is `{router.tables.aliased[key]}` here"
                    )
                ],
            )
        if router.body == "wrapped" and key == "body":
            out.body = value
        elif (
            key in router.tables.body_properties
            or key in router.body_aliases
            or (router.body == "hoisted" and router.undeclared == "body")
        ):
            if body is None:
                body = {}
            body[router.body_aliases.get(key, key)] = value
        else:
            raise out.refuse(key)
    if router.body == "hoisted":
        # S12.3: `{}` when the body is required and no body argument was given.
        out.body = body if body is not None else ({} if router.body_required else NO_BODY)


def _route_nested(router: Router, arguments: dict[str, Unchecked], out: _Builder) -> None:
    for key, value in arguments.items():
        channel = _CHANNEL_OF_ARGUMENT.get(key)
        if channel == "body" and router.body != "none":
            out.body = value
            continue
        routes = router.tables.by_channel.get(channel) if channel is not None else None
        if routes is None or not isinstance(value, dict):
            raise out.refuse(key)
        for name, item in value.items():
            route = routes.get(name)
            if route is None:
                raise out.refuse(f"{key}.{name}")
            out.parameter(route, item, f"{key}.{name}")


def _route_fixed(router: Router, out: _Builder) -> None:
    """S18.4: every fixed argument, on every call: parameters by their routes, body properties
    set in the body (a body made when the call gave none)."""
    for item in router.fixed:
        value = thaw(item.value)
        if item.route is not None:
            out.parameter(item.route, value, item.name)
            continue
        body = out.body if isinstance(out.body, dict) else {}
        out.body = {**body, item.name: value}


def _segment(parts: tuple[str, ...], values: Mapping[str, str]) -> str:
    if len(parts) == 3 and not parts[0] and not parts[2]:  # the whole segment is one variable
        text = values.get(parts[1], "{" + parts[1] + "}")
    else:
        text = "".join(
            part if i % 2 == 0 else values.get(part, "{" + part + "}")
            for i, part in enumerate(parts)
        )
    if text == "." or text == "..":
        return text.replace(".", "%2E")  # S12.1: a dot segment could climb the path
    return text


def _finish(
    router: Router, out: _Builder, inbound: Inbound, encoded: Encoded | None, applied: Applied
) -> Request:
    values = out.path_values
    path = router.tables.base_path + "/".join(
        parts[0] if len(parts) == 1 else _segment(parts, values) for parts in router.tables.segments
    )
    return _assemble(
        router,
        path,
        out.query,
        out.query_encoded,
        out.headers,
        out.cookies,
        out.body,
        inbound,
        encoded,
        applied,
    )


def _assemble(
    router: Router,
    path: str,
    query: list[tuple[str, str]],
    query_encoded: list[str],
    own_headers: list[tuple[str, str]],
    cookies: list[tuple[str, str]],
    body: Unchecked,
    inbound: Inbound,
    encoded: Encoded | None,
    applied: Applied,
) -> Request:
    """The request of a routed call: its expanded `path`, the arguments' query, headers and
    cookies (lists this takes over), the body and its bytes, with the inbound headers merged
    and the credentials applied (S12.2, S12.4, S18.2)."""
    has_body = body is not NO_BODY
    credential_cookie: str | None = None
    if applied is not NOTHING:  # S18.2: a credential replaces a header of the same name
        given = [h for h in applied.headers if h[0] != "cookie"]
        # An apiKey in the `Cookie` header is the cookie header the arguments' cookies join.
        credential_cookie = next((v for n, v in applied.headers if n == "cookie"), None)
        own = {name for name, _ in given}
        own_headers = [h for h in own_headers if h[0] not in own] + given
        cookies.extend(applied.cookies)
        for name, text, wire in applied.query:
            query.append((name, text))
            query_encoded.append(wire)
    if inbound or cookies or credential_cookie is not None:
        headers = _merge_inbound(
            router.tool, own_headers, cookies, inbound, has_body, credential_cookie
        )
    else:
        headers = own_headers
    if has_body and router.content_type is not None:
        headers.append(("content-type", router.content_type))
    url = path
    written = [*router.tables.key_query_encoded, *query_encoded]
    if written:
        url += "?" + "&".join(written)
    return Request(
        method=router.method,
        path=path,
        query=(*router.tables.key_query, *query) if router.tables.key_query else tuple(query),
        headers=tuple(headers),
        body=body,
        content_type=router.content_type if has_body else None,
        url=url,
        content=encoded.content if encoded is not None else None,
        sent_type=encoded.content_type if encoded is not None else None,
    )


def _merge_inbound(
    tool: str,
    own_headers: list[tuple[str, str]],
    cookies: list[tuple[str, str]],
    inbound: Inbound,
    has_body: bool,
    credential_cookie: str | None = None,
) -> list[tuple[str, str]]:
    """S12.2, S18.2: inbound headers not replaced by an argument or a credential, then the
    request's own; one `cookie` header: the credential's cookie header (else the inbound
    one) with the arguments' cookies, each replacing a cookie of the same name."""
    replaced = {name for name, _ in own_headers}
    if has_body:
        replaced.add("content-type")
    headers = [(n, v) for n, v in _inbound(inbound, tool) if n not in replaced]
    if cookies or credential_cookie is not None:
        kept = [h for h in headers if h[0] != "cookie"]
        own = {name for name, _ in cookies}
        written = (
            [credential_cookie]
            if credential_cookie is not None
            else [v for n, v in headers if n == "cookie"]
        )
        carried = [
            c.strip()
            for v in written
            for c in v.split(";")
            if c.strip() and c.strip().split("=", 1)[0] not in own
        ]
        cookie = "; ".join([*carried, *(f"{k}={v}" for k, v in cookies)])
        headers = [*kept, ("cookie", cookie)]
    headers.extend(own_headers)
    return headers
