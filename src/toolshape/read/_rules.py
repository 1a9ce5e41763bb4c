"""The read rules that need no more than the node they judge (S1.1, S12.2, S18.1, S23.4, S26.4,
S26.10, S26.11, S27.5): each one function, `DocumentReader` calling them with what it found.
A rule refuses with `Problem` (through `fail`) or says why in a text, as its docstring says."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping

from toolshape.model._errors import PlanErrorKind
from toolshape.model._http import (
    DEFAULT_STYLE,
    HTTP_TOKEN,
    JSON_MEDIA,
    MEDIA_TYPE,
    SEQUENTIAL,
    STYLES,
    client_header,
    media_base,
    template_variables,
)
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import escape
from toolshape.model._types import (
    NO_SECURITY,
    Channel,
    Parameter,
    ParamStyle,
    Security,
    SecurityScheme,
)
from toolshape.read._problem import fail, kind_of

#: S18.1: the security scheme types OpenAPI defines.
SCHEME_TYPES = ("apiKey", "http", "oauth2", "openIdConnect", "mutualTLS")


def security_schemes(document: Mapping[str, Unchecked]) -> Mapping[str, Unchecked]:
    """The document's `components.securitySchemes` (none when it has no such mapping)."""
    components = document.get("components")
    schemes = components.get("securitySchemes") if is_map(components) else None
    return schemes if is_map(schemes) else {}


def deprecated_schemes(document: Mapping[str, Unchecked]) -> frozenset[str]:
    """S26.10: the security schemes `components.securitySchemes` marks `deprecated`."""
    return frozenset(
        str(name)
        for name, node in security_schemes(document).items()
        if is_map(node) and node.get("deprecated") is True
    )


def read_scheme(name: str, node: Unchecked, at: str) -> SecurityScheme:
    """S18.1, S27.5: the security scheme `name` whose object (its `$ref`s followed) is
    `node`, at the pointer `at`.

    Raises:
        Problem: a scheme toolshape can't apply: no known `type`, an apiKey without `in` and
            `name` (or with a header name no client may send), an http scheme without one.
    """
    kind = node.get("type") if is_map(node) else None
    if not is_map(node) or kind not in SCHEME_TYPES:
        fail(
            "document",
            f"the security scheme at `{at}` has no `type` of apiKey, http, oauth2, "
            "openIdConnect or mutualTLS",
            "S18.1",
        )
    if kind == "apiKey":
        where, key = node.get("in"), node.get("name")
        if where not in ("header", "query", "cookie") or not isinstance(key, str) or not key:
            fail(
                "document",
                f"the apiKey scheme at `{at}` needs `in` (header, query or cookie) and a `name`",
                "S18.1",
            )
        if where != "query":
            check_http_name(key, where, at, scheme=True)
        return SecurityScheme(name, kind, where, key.lower() if where == "header" else key)
    if kind == "http":
        scheme = node.get("scheme")
        if not isinstance(scheme, str) or not HTTP_TOKEN.match(scheme):
            fail(
                "document",
                f"the http scheme at `{at}` needs a `scheme` (bearer, basic, ...)",
                "S18.1",
            )
        return SecurityScheme(name, kind, "header", "authorization", scheme.lower())
    if kind == "mutualTLS":
        return SecurityScheme(name, kind, None, None)
    flows = node.get("flows") if kind == "oauth2" else None
    flow = flows.get("clientCredentials") if is_map(flows) else None
    token_url = flow.get("tokenUrl") if is_map(flow) else None  # S27.5
    return SecurityScheme(
        name,
        kind,
        "header",
        "authorization",
        "bearer",
        token_url if isinstance(token_url, str) and token_url else None,
    )


def check_http_name(name: str, channel: Channel, pointer: str, *, scheme: bool = False) -> None:
    """S12.2: a header or cookie name must be an HTTP token; framing headers stay the
    client's. (`scheme`: the name is an apiKey scheme's, S18.1.)"""
    what = f"the apiKey scheme's {channel}" if scheme else f"the {channel} parameter"
    kind: PlanErrorKind = "document" if scheme else "parameter"
    if not HTTP_TOKEN.match(name):
        fail(
            kind,
            f"{what} `{name}` at `{pointer}` is not a valid HTTP "
            f"{'header' if channel == 'header' else 'cookie'} name (an RFC 9110 token), "
            "so no HTTP client can send it. Rename it",
            "S12.2",
        )
    if channel == "header" and client_header(name):
        fail(
            kind,
            f"{what} `{name}` at `{pointer}` names a header the HTTP client owns (it "
            "frames or routes the request), so nothing may set it. Remove it",
            "S12.2",
        )


def tags(value: Unchecked) -> tuple[str, ...]:
    """An operation's `tags`: the text ones, in order, each once."""
    return (
        tuple(dict.fromkeys(t for t in value if isinstance(t, str)))
        if isinstance(value, list)
        else ()
    )


def server_url(server: Unchecked) -> str | None:
    """S23.4: a Server Object's URL with its variables at their defaults, or None when it has
    no URL."""
    if not is_map(server) or not isinstance(server.get("url"), str):
        return None
    url: str = server["url"]
    variables = server.get("variables")
    for name, variable in variables.items() if is_map(variables) else ():
        default = variable.get("default") if is_map(variable) else None
        if isinstance(default, str):
            url = url.replace("{" + str(name) + "}", default)
    return url


def first_server_url(servers: Unchecked) -> str | None:
    """S23.4: the first server's URL with its variables' defaults, or None."""
    return server_url(servers[0]) if isinstance(servers, list) and servers else None


def named_servers(servers: Unchecked) -> dict[str, str]:
    """S26.11: each server that has a `name` (OpenAPI 3.2), its URL as `server_url` gives it,
    by name (the first of a name repeated)."""
    named: dict[str, str] = {}
    for server in servers if isinstance(servers, list) else ():
        name = server.get("name") if is_map(server) else None
        url = server_url(server)
        if isinstance(name, str) and url is not None:
            named.setdefault(name, url)
    return named


#: S26.4: what a form querystring's object schema may say beside its members.
_FORM_OBJECT_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "title", "description"}
    | {"$comment", "example", "examples", "deprecated"}
)


def form_object_problem(schema: Unchecked) -> str | None:
    """S26.4: why a form querystring's schema is not an object of members each argument can
    stand for (`that is a string`, "with `oneOf`"), or None."""
    if not is_map(schema):
        return f"that is a {kind_of(schema)}"
    if schema.get("type", "object") != "object" or not is_map(schema.get("properties", {})):
        return "that is not an object of `properties`"
    extra = sorted(k for k in schema if k not in _FORM_OBJECT_KEYS and not str(k).startswith("x-"))
    if extra:
        return f"with `{extra[0]}`"
    closed = schema.get("additionalProperties", True)
    if not isinstance(closed, bool):
        return "with `additionalProperties` that is a schema"
    listed = schema.get("required", [])
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        return "whose `required` is not a list of names"
    return None


def check_querystring(
    strings: Mapping[str, Parameter | tuple[Parameter, ...]],
    merged: Mapping[tuple[str, str], Parameter],
) -> None:
    """S26.4: a querystring parameter is the whole query: never two, never beside `in: query`
    parameters."""
    if not strings:
        return
    if len(strings) > 1:
        first, second = list(strings)[:2]
        fail(
            "document",
            f"the operation has two querystring parameters (`{first}` and `{second}`); the "
            "query string is one of them at most",
            "S26.4",
        )
    ((where, found),) = strings.items()
    own = {id(p) for p in (found if isinstance(found, tuple) else (found,))}
    beside = [p.name for p in merged.values() if p.channel == "query" and id(p) not in own]
    if beside:
        fail(
            "document",
            f"the querystring parameter at `{where}` is the whole query string, beside the "
            f"query parameter `{beside[0]}`; declare one or the other",
            "S26.4",
        )


def merge_parameters(
    reads: Iterable[tuple[str, Parameter | tuple[Parameter, ...] | str | None]],
) -> tuple[tuple[Parameter, ...], tuple[str, ...]]:
    """S1.1: an operation's parameters from its entries as read (each with its pointer), the
    path item's first: a later entry replaces an earlier one of the same name and `in` (a
    header's name in any case), in the earlier one's place; and the names of the header
    entries the HTTP client owns, left out (S1.5). None (a header OpenAPI ignores) adds
    nothing.

    Raises:
        Problem: two querystring parameters, or one beside `in: query` ones (S26.4).
    """
    merged: dict[tuple[str, str], Parameter] = {}
    ignored: dict[str, None] = {}
    strings: dict[str, Parameter | tuple[Parameter, ...]] = {}  # S26.4, by pointer
    for where, param in reads:
        if isinstance(param, str):
            ignored[param] = None
        elif param is not None:
            for one in param if isinstance(param, tuple) else (param,):
                key = one.name.lower() if one.channel == "header" else one.name
                merged[(key, one.channel)] = one
            if isinstance(param, tuple) or param.style == "querystring":
                strings[where] = param
    check_querystring(strings, merged)
    return tuple(merged.values()), tuple(ignored)


def read_requirements(
    given: Unchecked, pointer: str, scheme: Callable[[str, str], SecurityScheme]
) -> Security:
    """S18.1: a `security` list (at `pointer`) as alternatives, each the schemes it requires
    (`scheme(name, where)` reads one), with their scopes (S27.5); an empty list is none.

    Raises:
        Problem: not a list, a requirement that is not a mapping, or what `scheme` raises.
    """
    if not isinstance(given, list):
        fail("document", f"the `security` at `{pointer}` is a {kind_of(given)}, not a list")
    alternatives = []
    for index, requirement in enumerate(given):
        if not is_map(requirement):
            fail(
                "document",
                f"the security requirement at `{pointer}/{index}` is a "
                f"{kind_of(requirement)}, not a mapping of scheme names",
                "S18.1",
            )
        alternatives.append(
            tuple(
                scoped(scheme(str(name), f"{pointer}/{index}"), scopes)
                for name, scopes in requirement.items()
            )
        )
    return tuple(alternatives) or NO_SECURITY


def scoped(scheme: SecurityScheme, scopes: Unchecked) -> SecurityScheme:
    """S27.5: `scheme` with the scopes a security requirement names for it (its list of
    names; anything else names none)."""
    if not isinstance(scopes, list) or not scopes:
        return scheme
    return dataclasses.replace(scheme, scopes=tuple(str(s) for s in scopes))


#: S17.3, S17.4: what an encoding entry may hold, and what each value must be.
ENCODING_KEYS = {
    # S17.4: one media type or range, or a comma-separated list of them.
    "contentType": lambda v: (
        isinstance(v, str) and all(MEDIA_TYPE.match(item.strip(" \t")) for item in v.split(","))
    ),
    "style": lambda v: isinstance(v, str) and v in STYLES["query"],
    "explode": lambda v: isinstance(v, bool),
    "allowReserved": lambda v: isinstance(v, bool),
}


def read_encoding(given: Unchecked, pointer: str) -> dict[str, dict[str, Unchecked]]:
    """S17.3, S17.4: a media type's `encoding` map, each entry checked; unknown keys of an
    entry (`headers`) are not used and refused rather than ignored."""
    if given is None:
        return {}
    if not is_map(given):
        fail(
            "document",
            f"the `encoding` at `{pointer}` is a {kind_of(given)}, not a mapping",
            "S17.3",
        )
    out: dict[str, dict[str, Unchecked]] = {}
    for name, entry in given.items():
        where = f"{pointer}/encoding/{escape(str(name))}"
        if not is_map(entry):
            fail("document", f"the encoding entry at `{where}` is not a mapping", "S17.3")
        for key, value in entry.items():
            want = ENCODING_KEYS.get(key)
            if want is None and str(key).startswith("x-"):
                continue  # a specification extension: not toolshape's to apply
            if want is None:
                fail(
                    "document",
                    f"the encoding entry at `{where}` has `{key}`, which toolshape does not "
                    "apply (it knows contentType, style, explode and allowReserved)",
                    "S17.3",
                )
            if not want(value):
                fail(
                    "document",
                    f"the encoding entry at `{where}` has `{key}` {value!r}, which is not valid",
                    "S17.3",
                )
        out[str(name)] = {key: value for key, value in entry.items() if key in ENCODING_KEYS}
    return out


def check_template(path: str, params: tuple[Parameter, ...]) -> None:
    """S12.1, S14.2: every path parameter fills a `{variable}` and every variable is filled."""
    variables = template_variables(path)
    declared = [p.name for p in params if p.channel == "path"]
    for name in declared:
        if name not in variables:
            fail(
                "parameter",
                f"the path parameter `{name}` has no `{{{name}}}` in the path `{path}`, so "
                f"its argument would be lost. Add `{{{name}}}` to the path, or declare "
                "the parameter in the channel it really travels in",
                "S12.1",
            )
    for name in variables:
        if name not in declared:
            fail(
                "parameter",
                f"the path `{path}` has `{{{name}}}`, but no path parameter `{name}` "
                f"fills it, so the request would be sent with `{{{name}}}` in its path. "
                f"Declare a path parameter `{name}`",
                "S12.1",
            )
    if any(p.channel == "cookie" for p in params) and any(
        p.channel == "header" and p.name.lower() == "cookie" for p in params
    ):
        fail(
            "parameter",
            "the operation declares both a `Cookie` header parameter and cookie "
            "parameters, which would send two `cookie` headers. Declare the cookies as "
            "cookie parameters only",
            "S12.2",
        )


def answer_keyword(media_type: object, is_32: bool) -> str | None:
    """S16.3, S26.6: where an answer of `media_type` says what it holds: a JSON answer's
    `schema`, a 3.2 sequential answer's `itemSchema`; None for any other answer."""
    if not isinstance(media_type, str):
        return None
    if JSON_MEDIA.match(media_type):
        return "schema"
    sequential = is_32 and media_base(media_type) in SEQUENTIAL
    return "itemSchema" if sequential else None


def parameter_style(
    node: Mapping[str, Unchecked], name: str, channel: Channel, pointer: str, *, is_32: bool
) -> ParamStyle:
    """S1.1, S12.1: a parameter's style (its channel's default when it gives none), its
    `explode`, `allowReserved` and `required` each a boolean; `cookie` style only in 3.2
    (S26.5).

    Raises:
        Problem: a flag that is not a boolean, or a style the channel can't use.
    """
    style = node.get("style")
    for flag in ("explode", "allowReserved", "required"):
        if flag in node and not isinstance(node[flag], bool):
            fail(
                "parameter",
                f"the parameter `{name}` at `{pointer}` has `{flag}` "
                f"{node[flag]!r}, which is not a boolean",
                "S1.1",
            )
    styles = STYLES[channel] - ({"querystring"} if is_32 else {"cookie", "querystring"})
    if style is not None and (not isinstance(style, str) or style not in styles):
        allowed = ", ".join(sorted(styles))
        fail(
            "parameter",
            f"the {channel} parameter `{name}` at `{pointer}` has style {style!r}, which "
            f"{channel} parameters can't use ({allowed})",
            "S12.1",
        )
    return style if isinstance(style, str) else DEFAULT_STYLE[channel]
