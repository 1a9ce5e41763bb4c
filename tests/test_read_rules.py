"""The reader's rules that judge one node, each a function, as tables: security schemes
(S18.1, S27.5, S26.10), HTTP names (S12.2), servers (S23.4, S26.11), a form querystring's
object (S26.4), path templates (S12.1), `encoding` entries (S17.3, S17.4), where an answer says
what it holds (S16.3, S26.6), an operation's tags."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from toolshape import SecurityScheme
from toolshape.model._types import Parameter
from toolshape.read._problem import Problem
from toolshape.read._rules import (
    answer_keyword,
    check_http_name,
    check_template,
    deprecated_schemes,
    first_server_url,
    form_object_problem,
    merge_parameters,
    named_servers,
    parameter_style,
    read_encoding,
    read_requirements,
    read_scheme,
    scoped,
    security_schemes,
    tags,
)

AT = "/components/securitySchemes/s"


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (
            {"type": "apiKey", "in": "header", "name": "X-Key"},
            SecurityScheme("s", "apiKey", "header", "x-key"),
        ),
        (
            {"type": "apiKey", "in": "query", "name": "Key"},
            SecurityScheme("s", "apiKey", "query", "Key"),
        ),
        (
            {"type": "apiKey", "in": "cookie", "name": "sid"},
            SecurityScheme("s", "apiKey", "cookie", "sid"),
        ),
        (
            {"type": "http", "scheme": "Bearer"},
            SecurityScheme("s", "http", "header", "authorization", "bearer"),
        ),
        (
            {"type": "http", "scheme": "basic"},
            SecurityScheme("s", "http", "header", "authorization", "basic"),
        ),
        (
            {"type": "openIdConnect", "openIdConnectUrl": "https://id.example/.well-known"},
            SecurityScheme("s", "openIdConnect", "header", "authorization", "bearer"),
        ),
        ({"type": "mutualTLS"}, SecurityScheme("s", "mutualTLS", None, None)),
        (
            {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {"tokenUrl": "https://id.example/token", "scopes": {}}
                },
            },
            SecurityScheme(
                "s", "oauth2", "header", "authorization", "bearer", "https://id.example/token"
            ),
        ),
        (
            {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://x/a"}}},
            SecurityScheme("s", "oauth2", "header", "authorization", "bearer"),
        ),
    ],
)
def test_a_scheme_says_where_its_credential_goes(node: Any, expected: SecurityScheme) -> None:
    """S18.1: apiKey by its `in` and `name` (a header name lower case), http by its scheme,
    OAuth2 and OpenID Connect as bearer tokens, mutual TLS on nothing a request carries;
    S27.5: a client-credentials flow's `tokenUrl` is kept."""
    assert read_scheme("s", node, AT) == expected


@pytest.mark.parametrize(
    ("node", "reason"),
    [
        ({"type": "basicAuth"}, "has no `type` of apiKey, http, oauth2, openIdConnect"),
        ("bearer", "has no `type` of apiKey, http, oauth2, openIdConnect"),
        ({"type": "apiKey", "in": "body", "name": "k"}, "needs `in` (header, query or cookie)"),
        ({"type": "apiKey", "in": "header"}, "needs `in` (header, query or cookie) and a `name`"),
        ({"type": "apiKey", "in": "header", "name": "X Key"}, "is not a valid HTTP header name"),
        ({"type": "apiKey", "in": "header", "name": "Host"}, "names a header the HTTP client"),
        ({"type": "http"}, "needs a `scheme` (bearer, basic, ...)"),
        ({"type": "http", "scheme": "bear er"}, "needs a `scheme` (bearer, basic, ...)"),
    ],
)
def test_a_scheme_that_cant_be_applied_is_refused(node: Any, reason: str) -> None:
    with pytest.raises(Problem) as caught:
        read_scheme("s", node, AT)
    assert reason in caught.value.reason
    assert caught.value.rule in ("S18.1", "S12.2")
    assert caught.value.kind == "document"


def test_a_requirements_scopes_ride_on_its_scheme() -> None:
    """S27.5: the scopes a requirement lists for a scheme (a list of names; else none)."""
    scheme = SecurityScheme("s", "oauth2", "header", "authorization", "bearer")
    assert scoped(scheme, ["read", "write"]).scopes == ("read", "write")
    assert scoped(scheme, []) is scheme
    assert scoped(scheme, "read") is scheme


def test_the_schemes_a_document_defines_and_deprecates() -> None:
    """S18.1, S26.10."""
    document = {
        "components": {
            "securitySchemes": {
                "old": {"type": "http", "scheme": "basic", "deprecated": True},
                "new": {"type": "http", "scheme": "bearer", "deprecated": "yes"},
            }
        }
    }
    assert list(security_schemes(document)) == ["old", "new"]
    assert deprecated_schemes(document) == {"old"}
    assert security_schemes({"components": {"securitySchemes": []}}) == {}
    assert deprecated_schemes({}) == frozenset()


@pytest.mark.parametrize(
    ("name", "channel", "reason"),
    [
        ("X-Request-Id", "header", None),
        ("session_id", "cookie", None),
        ("X Request", "header", "is not a valid HTTP header name"),
        ("a;b", "cookie", "is not a valid HTTP cookie name"),
        ("Content-Length", "header", "names a header the HTTP client owns"),
        ("Transfer-Encoding", "header", "names a header the HTTP client owns"),
    ],
)
def test_a_header_or_cookie_name_is_one_a_client_can_send(
    name: str, channel: Any, reason: str | None
) -> None:
    """S12.2: an RFC 9110 token, and not a header that frames or routes the request."""
    if reason is None:
        check_http_name(name, channel, "/paths/~1x/get/parameters/0")
        return
    with pytest.raises(Problem) as caught:
        check_http_name(name, channel, "/paths/~1x/get/parameters/0")
    assert reason in caught.value.reason
    assert caught.value.kind == "parameter"
    assert caught.value.rule == "S12.2"


@pytest.mark.parametrize(
    ("servers", "first", "named"),
    [
        (None, None, {}),
        ([], None, {}),
        ([{"url": "https://api.example/v1"}], "https://api.example/v1", {}),
        (
            [
                {
                    "url": "https://{region}.example/{v}",
                    "name": "prod",
                    "variables": {"region": {"default": "eu"}, "v": {"default": "v2"}},
                },
                {"url": "http://localhost:8080", "name": "local"},
                {"url": "http://other:1", "name": "local"},
            ],
            "https://eu.example/v2",
            {"prod": "https://eu.example/v2", "local": "http://localhost:8080"},
        ),
        ([{"description": "no url"}, {"url": "https://b"}], None, {}),
    ],
)
def test_a_server_url_has_its_variables_defaults(servers: Any, first: Any, named: Any) -> None:
    """S23.4: the first server's URL, variables at their defaults; S26.11: servers by `name`,
    the first of a name repeated."""
    assert first_server_url(servers) == first
    assert named_servers(servers) == named


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({"type": "object", "properties": {"q": {"type": "string"}}}, None),
        ({"properties": {"q": {}}, "required": ["q"], "x-note": 1}, None),
        ({"type": "string"}, "that is not an object of `properties`"),
        ([], "that is a list"),
        ({"type": "object", "oneOf": [{}]}, "with `oneOf`"),
        ({"additionalProperties": {"type": "string"}}, "with `additionalProperties` that is"),
        ({"required": "q"}, "whose `required` is not a list of names"),
    ],
)
def test_a_form_querystring_is_an_object_of_members(schema: Any, problem: str | None) -> None:
    """S26.4: a form querystring's members become query arguments, so its schema is an object
    of `properties`, with nothing that would judge them together."""
    found = form_object_problem(schema)
    assert found == problem if problem is None else problem in (found or "")


def test_tags_are_the_text_ones_in_order_each_once() -> None:
    assert tags(["b", 1, "a", "b", None]) == ("b", "a")
    assert tags("pets") == ()


def _param(name: str, channel: Any) -> Parameter:
    return Parameter(name, channel, {"type": "string"}, channel == "path")


@pytest.mark.parametrize(
    ("path", "params", "reason"),
    [
        ("/pets/{id}", [("id", "path")], None),
        ("/pets", [("q", "query"), ("Cookie", "header")], None),
        ("/pets/{id}", [], "has `{id}`, but no path parameter `id` fills it"),
        ("/pets", [("id", "path")], "the path parameter `id` has no `{id}` in the path"),
        (
            "/pets",
            [("sid", "cookie"), ("cookie", "header")],
            "both a `Cookie` header parameter and cookie parameters",
        ),
    ],
)
def test_every_path_variable_is_filled_and_every_path_parameter_fills_one(
    path: str, params: list[tuple[str, Any]], reason: str | None
) -> None:
    """S12.1: a lost argument or an unfilled `{variable}` is refused; S12.2: two `cookie`
    headers are never sent."""
    declared = tuple(_param(name, channel) for name, channel in params)
    if reason is None:
        check_template(path, declared)
        return
    with pytest.raises(Problem) as caught:
        check_template(path, declared)
    assert reason in caught.value.reason
    assert caught.value.kind == "parameter"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, {}),
        (
            {"photo": {"contentType": "image/png, image/*"}},
            {"photo": {"contentType": "image/png, image/*"}},
        ),
        (
            {"tags": {"style": "spaceDelimited", "explode": False, "x-note": "kept out"}},
            {"tags": {"style": "spaceDelimited", "explode": False}},
        ),
        ({"a": {"allowReserved": True}}, {"a": {"allowReserved": True}}),
    ],
)
def test_an_encoding_map_keeps_what_is_applied(given: Any, expected: Any) -> None:
    """S17.3, S17.4: contentType, style, explode and allowReserved per property; an
    extension is not toolshape's to apply."""
    assert read_encoding(given, "/paths/~1x/post/requestBody/content/form") == expected


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ([], "is a list, not a mapping"),
        ({"a": "form"}, "is not a mapping"),
        ({"a": {"headers": {}}}, "has `headers`, which toolshape does not apply"),
        ({"a": {"contentType": "not a type"}}, "has `contentType` 'not a type'"),
        ({"a": {"explode": "yes"}}, "has `explode` 'yes', which is not valid"),
        ({"a": {"style": "matrix"}}, "has `style` 'matrix', which is not valid"),
    ],
)
def test_an_encoding_entry_toolshape_cant_apply_is_refused(given: Any, reason: str) -> None:
    with pytest.raises(Problem) as caught:
        read_encoding(given, "/p")
    assert reason in caught.value.reason
    assert caught.value.rule == "S17.3"


@pytest.mark.parametrize(
    ("media_type", "is_32", "keyword"),
    [
        ("application/json", False, "schema"),
        ("application/problem+json; charset=utf-8", True, "schema"),
        ("application/jsonl", True, "itemSchema"),
        ("text/event-stream", True, "itemSchema"),
        ("application/jsonl", False, None),
        ("text/plain", True, None),
        (None, True, None),
    ],
)
def test_an_answer_says_what_it_holds_by_its_media_type(
    media_type: Any, is_32: bool, keyword: str | None
) -> None:
    """S16.3: a JSON answer's `schema`; S26.6: a 3.2 sequential answer's `itemSchema`."""
    assert answer_keyword(media_type, is_32) == keyword


@pytest.mark.parametrize(
    ("node", "channel", "is_32", "expected"),
    [
        ({}, "query", False, "form"),
        ({}, "path", False, "simple"),
        ({}, "header", False, "simple"),
        ({}, "cookie", False, "form"),
        ({"style": "label"}, "path", False, "label"),
        ({"style": "deepObject", "explode": True}, "query", False, "deepObject"),
        ({"style": "cookie"}, "cookie", True, "cookie"),
        ({"style": "cookie"}, "cookie", False, "can't use (form)"),
        ({"style": "matrix"}, "query", True, "query parameters can't use"),
        ({"style": 5}, "header", True, "header parameters can't use (simple)"),
        ({"explode": "true"}, "query", True, "has `explode` 'true', which is not a boolean"),
        ({"required": 1}, "query", True, "has `required` 1, which is not a boolean"),
    ],
)
def test_a_parameters_style_is_one_its_channel_can_use(
    node: Any, channel: Any, is_32: bool, expected: str
) -> None:
    """S12.1: each channel's styles, and its default; S1.1: the flags are booleans; S26.5:
    `style: cookie` from OpenAPI 3.2 on."""
    if " " not in expected:
        assert parameter_style(node, "p", channel, "/x", is_32=is_32) == expected
        return
    with pytest.raises(Problem) as caught:
        parameter_style(node, "p", channel, "/x", is_32=is_32)
    assert expected in caught.value.reason


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"openapi": "3.0.3", "paths": {}}, (True, False, "openapi-3.0", None)),
        ({"openapi": "3.1.0", "paths": {}}, (False, False, "2020-12", None)),
        (
            {"openapi": "3.1.1", "jsonSchemaDialect": "http://json-schema.org/draft-07/schema#"},
            (False, False, "draft-07", None),
        ),
        ({"openapi": "3.2.0", "$self": "https://x.example/api"}, (False, True, "2020-12", "x")),
        (
            {"openapi": "3.0.1", "$self": "https://x.example/api"},
            (True, False, "openapi-3.0", None),
        ),
        ({"swagger": "2.0", "paths": {}}, (True, False, "openapi-3.0", None)),
    ],
)
def test_a_document_is_indexed_once(document: Any, expected: tuple[Any, ...]) -> None:
    """S1.7: the default dialect (3.0's own, 3.1's `jsonSchemaDialect`, else 2020-12); S26.2:
    `query` is an operation from 3.2 on; S26.7: `$self` from 3.2 on; S20.3: 2.0 is read as
    its 3.0 conversion."""
    from toolshape.read._index import index_document

    index = index_document(document, "api.json")
    is_30, is_32, dialect, own = expected
    assert (index.is_30, index.is_32) == (is_30, is_32)
    assert dialect in index.default_dialect
    assert ("query" in index.methods) is is_32
    assert (index.self_uri is not None) is (own is not None)
    assert (index.converted is not None) is ("swagger" in document)
    assert index.document.get("openapi", "").startswith("3.")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "the document is a list, not a mapping"),
        ({"swagger": "1.2"}, "the document is Swagger 1.2, which toolshape does not read"),
        ({"openapi": "4.0.0"}, "the document's `openapi` is '4.0.0', not 3.0.x, 3.1.x or 3.2.x"),
        ({"openapi": 3.1}, "the document's `openapi` is 3.1, not 3.0.x"),
        ({"swagger": "2.0", "basePath": "//evil.example"}, "starts with `//`, which names"),
    ],
)
def test_what_is_not_an_openapi_document_is_refused_naming_why(document: Any, message: str) -> None:
    """S1, S20.3: a document toolshape does not read is a `DocumentError` naming why."""
    from toolshape import DocumentError
    from toolshape.read._index import index_document

    with pytest.raises(DocumentError, match=re.escape(message)):
        index_document(document, "api.json")


def _p(name: str, channel: Any = "query", **more: Any) -> Parameter:
    return Parameter(name, channel, {}, required=False, **more)


@pytest.mark.parametrize(
    ("reads", "params", "ignored"),
    [
        # S1.1: the operation's entry replaces the path item's of the same name and `in`, in
        # the path item's place.
        (
            [("/p/0", _p("a", description="path")), ("/p/1", _p("b")),
             ("/o/0", _p("a", description="operation"))],
            (_p("a", description="operation"), _p("b")),
            (),
        ),
        # The same name in another place is another parameter.
        ([("/p/0", _p("a")), ("/o/0", _p("a", "header"))], (_p("a"), _p("a", "header")), ()),
        # A header's name matches in any case.
        ([("/p/0", _p("X-Id", "header")), ("/o/0", _p("x-id", "header"))],
         (_p("x-id", "header"),), ()),
        # S1.5: a header OpenAPI ignores adds nothing; one the client owns is named.
        ([("/o/0", None), ("/o/1", "Host"), ("/o/2", "Host")], (), ("Host",)),
        # S26.4: a form querystring's members are parameters.
        ([("/o/0", (_p("a", style="form"), _p("b", style="form")))],
         (_p("a", style="form"), _p("b", style="form")), ()),
    ],
)  # fmt: skip
def test_an_operations_parameters_merge(
    reads: list[tuple[str, Any]], params: tuple[Parameter, ...], ignored: tuple[str, ...]
) -> None:
    assert merge_parameters(reads) == (params, ignored)


def test_a_querystring_beside_a_query_parameter_is_refused() -> None:
    """S26.4: the querystring is the whole query."""
    with pytest.raises(Problem) as caught:
        merge_parameters([("/o/0", _p("q", style="querystring")), ("/o/1", _p("limit"))])
    assert caught.value.reason == (
        "the querystring parameter at `/o/0` is the whole query string, beside the query "
        "parameter `limit`; declare one or the other"
    )


BEARER = SecurityScheme("bearer", "http", "header", "authorization", "bearer")
KEY = SecurityScheme("key", "apiKey", "query", "key")


def _scheme(name: str, where: str) -> SecurityScheme:
    known = {"bearer": BEARER, "key": KEY}
    if name not in known:
        raise Problem("document", f"no scheme `{name}` (at `{where}`)")
    return known[name]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ([], ()),  # S18.1: `[]` requires nothing
        ([{}], ((),)),  # one alternative that needs no scheme
        ([{"bearer": []}, {"key": []}], ((BEARER,), (KEY,))),  # either
        ([{"bearer": [], "key": []}], ((BEARER, KEY),)),  # both
        # S27.5: the scopes a requirement names go with the scheme.
        ([{"bearer": ["read", "write"]}], ((dataclasses.replace(BEARER, scopes=("read", "write")),),)),
    ],
)  # fmt: skip
def test_security_requirements_are_alternatives(given: Any, expected: Any) -> None:
    from toolshape.model._types import NO_SECURITY

    assert read_requirements(given, "/security", _scheme) == (expected or NO_SECURITY)


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ({"bearer": []}, "the `security` at `/security` is a mapping, not a list"),
        (
            ["bearer"],
            "the security requirement at `/security/0` is a string, not a mapping of scheme names",
        ),
        ([{"other": []}], "no scheme `other` (at `/security/0`)"),
    ],
)
def test_a_security_list_that_is_not_one_is_refused(given: Any, reason: str) -> None:
    with pytest.raises(Problem) as caught:
        read_requirements(given, "/security", _scheme)
    assert caught.value.reason == reason
