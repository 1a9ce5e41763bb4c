"""S18: credentials the model never sees, and arguments the gateway fixes."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolshape import (
    ArgumentError,
    CredentialError,
    Plan,
    PlanDataError,
    Request,
    ToolshapeError,
    plan_document,
    plan_operation,
)

SCHEMES: dict[str, Any] = {
    "keyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "keyQuery": {"type": "apiKey", "in": "query", "name": "api_key"},
    "keyCookie": {"type": "apiKey", "in": "cookie", "name": "session"},
    "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
    "basic": {"type": "http", "scheme": "Basic"},
    "digest": {"type": "http", "scheme": "digest"},
    "oauth": {"type": "oauth2", "flows": {}},
    "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example/.well-known"},
    "mtls": {"type": "mutualTLS"},
}


def document(
    security: Any = None,
    *,
    operation_security: Any = None,
    parameters: list[dict[str, Any]] | None = None,
    body: dict[str, Any] | None = None,
    method: str = "post",
) -> dict[str, Any]:
    operation: dict[str, Any] = {"operationId": "op", "parameters": parameters or []}
    if operation_security is not None:
        operation["security"] = operation_security
    if body is not None:
        operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "components": {"securitySchemes": SCHEMES},
        "paths": {"/things": {method: operation}},
    }
    if security is not None:
        doc["security"] = security
    return doc


def tool(doc: dict[str, Any], style: str = "flat", **kw: Any) -> Plan:
    path, item = next(iter(doc["paths"].items()))
    (plan,) = plan_operation(doc, path, next(iter(item)), style=style, **kw)
    return plan


def sent(request: Request) -> dict[str, Any]:
    """What reaches the server: headers, query pairs (decoded by the standard library)."""
    return {
        "headers": list(request.headers),
        "query": parse_qsl(urlsplit(request.url).query, keep_blank_values=True),
    }


def credential_error(plan: Plan, arguments: Any, credentials: Any) -> CredentialError:
    with pytest.raises(CredentialError) as caught:
        plan.call(arguments, credentials=credentials)
    return caught.value


def rejected(plan: Plan, arguments: Any, **kw: Any) -> ArgumentError:
    with pytest.raises(ArgumentError) as caught:
        plan.call(arguments, **kw)
    return caught.value


# -- S18.1 alternatives as data ---------------------------------------------------------------


#: S27.5: a scheme without a client-credentials flow, required with no scopes.
NO_FLOW: dict[str, Any] = {"tokenUrl": None, "scopes": []}


def test_each_scheme_kind_is_recorded_with_where_it_goes() -> None:
    """S18.1: name, kind and place of every scheme; one alternative per requirement."""
    plan = tool(document([{name: []} for name in SCHEMES]))
    recorded = [[s.to_dict() for s in alternative] for alternative in plan.security]
    assert recorded == [
        [{"name": "keyHeader", "type": "apiKey", "in": "header", "parameter": "x-api-key", "scheme": None, **NO_FLOW}],
        [{"name": "keyQuery", "type": "apiKey", "in": "query", "parameter": "api_key", "scheme": None, **NO_FLOW}],
        [{"name": "keyCookie", "type": "apiKey", "in": "cookie", "parameter": "session", "scheme": None, **NO_FLOW}],
        [{"name": "bearer", "type": "http", "in": "header", "parameter": "authorization", "scheme": "bearer", **NO_FLOW}],
        [{"name": "basic", "type": "http", "in": "header", "parameter": "authorization", "scheme": "basic", **NO_FLOW}],
        [{"name": "digest", "type": "http", "in": "header", "parameter": "authorization", "scheme": "digest", **NO_FLOW}],
        [{"name": "oauth", "type": "oauth2", "in": "header", "parameter": "authorization", "scheme": "bearer", **NO_FLOW}],
        [{"name": "oidc", "type": "openIdConnect", "in": "header", "parameter": "authorization", "scheme": "bearer", **NO_FLOW}],
        [{"name": "mtls", "type": "mutualTLS", "in": None, "parameter": None, "scheme": None, **NO_FLOW}],
    ]  # fmt: skip
    assert plan.credential_schemes == tuple(SCHEMES)
    assert Plan.from_dict(plan.to_dict()) == plan
    assert Plan.from_dict(plan.to_dict()).security == plan.security


@pytest.mark.parametrize(
    ("document_security", "operation_security", "expected"),
    [
        (None, None, [[]]),  # no security anywhere: nothing needed
        ([{"bearer": []}], None, [["bearer"]]),  # the document's
        ([{"bearer": []}], [], [[]]),  # `security: []` on the operation overrides it
        ([{"bearer": []}], [{"basic": []}, {}], [["basic"], []]),  # `{}`: an empty alternative
        (None, [{"keyHeader": [], "keyQuery": []}, {"oauth": ["read"]}], [["keyHeader", "keyQuery"], ["oauth"]]),
    ],
)  # fmt: skip
def test_the_operations_security_else_the_documents(
    document_security: Any, operation_security: Any, expected: list[list[str]]
) -> None:
    """S18.1: the operation's `security`, else the document's; `[]` means none."""
    plan = tool(document(document_security, operation_security=operation_security))
    assert [[s.name for s in alternative] for alternative in plan.security] == expected


# -- S18.2 applying credentials ---------------------------------------------------------------

BASIC = "Basic " + base64.b64encode(b"ada:s3cr:et").decode()  # the oracle, by the standard library


@pytest.mark.parametrize(
    ("scheme", "credential", "header", "query"),
    [
        ("keyHeader", "k-1", ("x-api-key", "k-1"), []),
        ("keyQuery", "k 1&x=2", None, [("api_key", "k 1&x=2")]),
        ("keyCookie", "abc;def", ("cookie", "session=abc%3Bdef"), []),
        ("bearer", "tok", ("authorization", "Bearer tok"), []),
        ("basic", ("ada", "s3cr:et"), ("authorization", BASIC), []),
        ("basic", "ada:s3cr:et", ("authorization", BASIC), []),
        ("digest", "username=ada", ("authorization", "Digest username=ada"), []),
        ("oauth", "at", ("authorization", "Bearer at"), []),
        ("oidc", "id", ("authorization", "Bearer id"), []),
        ("mtls", None, None, []),
    ],
)
def test_each_scheme_kind_puts_its_credential_where_the_scheme_says(
    scheme: str, credential: Any, header: tuple[str, str] | None, query: list[tuple[str, str]]
) -> None:
    """S18.1, S18.2: apiKey in header, query or cookie; `Authorization: Bearer` for bearer,
    oauth2 and openIdConnect; `Basic <base64(user:password)>` from a pair or text; another
    http scheme by its name; mutualTLS adds nothing to the request."""
    plan = tool(document([{scheme: []}]))
    request = plan.call({}, credentials={scheme: credential})
    assert sent(request) == {"headers": [header] if header else [], "query": query}
    assert plan.call({}) == Request("POST", "/things", (), (), request.body, None, "/things")


def test_alternatives_are_tried_in_order() -> None:
    """S18.2: the first alternative whose schemes all have a credential is applied."""
    plan = tool(document([{"keyHeader": [], "keyQuery": []}, {"bearer": []}, {"basic": []}]))
    both = plan.call({}, credentials={"keyHeader": "h", "keyQuery": "q", "bearer": "b"})
    assert sent(both) == {"headers": [("x-api-key", "h")], "query": [("api_key", "q")]}
    half = plan.call({}, credentials={"keyHeader": "h", "basic": "u:p", "bearer": "b"})
    assert sent(half) == {"headers": [("authorization", "Bearer b")], "query": []}


def test_an_empty_alternative_is_satisfied_with_nothing() -> None:
    """S18.2: `{}` in `security` (and `security: []`) needs no credential."""
    optional = tool(document([{"bearer": []}, {}]))
    assert sent(optional.call({}, credentials={})) == {"headers": [], "query": []}
    assert sent(optional.call({}, credentials={"bearer": "b"}))["headers"] == [
        ("authorization", "Bearer b")
    ]
    public = tool(document([{"bearer": []}], operation_security=[]))
    assert sent(public.call({}, credentials={"basic": "u:p"})) == {"headers": [], "query": []}


def test_a_credential_replaces_an_inbound_header_of_the_same_name() -> None:
    """S18.2: the gateway's credential wins over what the client sent; without credentials
    the inbound header passes (the gateway may authenticate by itself)."""
    plan = tool(document([{"bearer": []}, {"keyCookie": []}]))
    inbound = {"Authorization": "Bearer client", "x-trace": "1", "cookie": "session=old; a=1"}
    request = plan.call({}, headers=inbound, credentials={"bearer": "gateway"})
    assert dict(request.headers) == {
        "authorization": "Bearer gateway",
        "x-trace": "1",
        "cookie": "session=old; a=1",
    }
    cookie = plan.call({}, headers=inbound, credentials={"keyCookie": "new"})
    assert dict(cookie.headers)["cookie"] == "a=1; session=new"
    assert dict(plan.call({}, headers=inbound).headers)["authorization"] == "Bearer client"


# -- S18.2 bad credentials ------------------------------------------------------------------


def test_credentials_no_alternative_accepts_are_the_gateways_error() -> None:
    """S18.2: CredentialError (not ArgumentError) naming what the operation accepts and
    what was given — before the arguments are looked at."""
    plan = tool(document([{"keyHeader": [], "keyQuery": []}, {"bearer": []}]))
    error = credential_error(plan, {"not": "an argument"}, {"keyHeader": "h", "nope": "x"})
    assert error.message == (
        "Credentials for tool 'op' satisfy none of its security alternatives: it accepts "
        "`keyHeader` and `keyQuery` or `bearer`; credentials were given for `keyHeader`, `nope`"
    )
    assert isinstance(error, ToolshapeError)
    assert not isinstance(error, ArgumentError)
    assert error.accepted == (("keyHeader", "keyQuery"), ("bearer",))
    assert error.given == ("keyHeader", "nope")
    again = ToolshapeError.from_dict(error.to_dict())
    assert isinstance(again, CredentialError)
    assert again.to_dict() == error.to_dict()


@pytest.mark.parametrize(
    ("scheme", "credential", "words"),
    [
        ("basic", "no-colon", 'must be a (user, password) pair or "user:password" text'),
        ("basic", ("a", "b", "c"), "must be a (user, password) pair"),
        ("basic", ("a:b", "c"), "has a user name with `:`"),
        ("basic", 5, "must be a (user, password) pair"),
        ("bearer", "", "must be non-empty text"),
        ("bearer", ["t"], "must be non-empty text"),
        ("bearer", "tok\r\nX-Evil: 1", "can't be sent in a header"),
        ("keyHeader", " padded", "can't be sent in a header"),
    ],
)
def test_a_malformed_credential_is_named_and_never_echoed(
    scheme: str, credential: Any, words: str
) -> None:
    """S18.2: a credential its scheme can't carry is a CredentialError naming the scheme; the
    message never holds the value."""
    plan = tool(document([{scheme: []}]))
    error = credential_error(plan, {}, {scheme: credential})
    assert f"the `{scheme}` credential" in error.message
    assert words in error.message
    if isinstance(credential, str) and credential:
        assert credential.strip() not in error.message


def test_credentials_that_are_not_a_mapping_are_refused() -> None:
    """S18.2, S14.4: anything but a mapping is a CredentialError, never another exception."""
    plan = tool(document([{"bearer": []}]))
    error = credential_error(plan, {}, ["bearer", "tok"])
    assert "must be a mapping of security scheme names" in error.message


@pytest.mark.parametrize(
    ("schemes", "requirement", "words"),
    [
        ({}, [{"missing": []}], "names the scheme `missing`, which `components.securitySchemes`"),
        ({"k": {"type": "apiKey", "in": "body", "name": "k"}}, [{"k": []}], "needs `in`"),
        ({"k": {"type": "apiKey", "in": "header"}}, [{"k": []}], "needs `in`"),
        ({"k": {"type": "apiKey", "in": "header", "name": "X Key"}}, [{"k": []}], "not a valid HTTP header name"),
        ({"k": {"type": "apiKey", "in": "header", "name": "Host"}}, [{"k": []}], "names a header the HTTP client owns"),
        ({"h": {"type": "http"}}, [{"h": []}], "needs a `scheme`"),
        ({"x": {"type": "magic"}}, [{"x": []}], "has no `type` of apiKey"),
        ({}, {"bearer": []}, "is a mapping, not a list"),
        ({}, ["bearer"], "is a string, not a mapping of scheme names"),
    ],
)  # fmt: skip
def test_a_security_requirement_that_cant_be_read_refuses_the_tool(
    schemes: dict[str, Any], requirement: Any, words: str
) -> None:
    """S18.1: undefined schemes, apiKeys without a place, names HTTP can't send, unknown
    kinds: a planning error of the operation naming it."""
    doc = document()
    doc["components"]["securitySchemes"] = schemes
    doc["paths"]["/things"]["post"]["security"] = requirement
    result = plan_document(doc)
    assert result.tools == ()
    (error,) = result.errors
    assert error.kind == "document"
    assert words in error.reason


def test_the_documents_scheme_names_are_listed_for_the_gateway() -> None:
    """S18.1: what names `credentials` may use, for a gateway to check its configuration."""
    assert plan_document(document()).security_schemes == tuple(SCHEMES)


# -- S18.3 credential parameters -------------------------------------------------------------

CREDENTIAL_PARAMETERS: list[dict[str, Any]] = [
    {"name": "x-api-KEY", "in": "header", "required": True, "schema": {"type": "string"}},
    {"name": "api_key", "in": "query", "required": True, "schema": {"type": "string"}},
    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
    {"name": "limit", "in": "query", "schema": {"type": "integer"}},
]


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_parameters_that_carry_a_credential_are_never_advertised(style: str) -> None:
    """S18.3: same `in` and name (headers case-insensitively) as an apiKey scheme the
    operation uses, in any alternative: out of both schemas, filled from the credential."""
    doc = document(
        [{"keyHeader": []}, {"keyQuery": [], "keyCookie": []}], parameters=CREDENTIAL_PARAMETERS
    )
    plan = tool(doc, style)
    for schema in (plan.input_schema, plan.nested_schema):
        text = str(schema)
        assert "api_key" not in text
        assert "x-api-key" not in text.lower()
        assert "session" not in text
        assert "limit" in text
    call = {"limit": 2} if style == "flat" else {"queryParams": {"limit": 2}}
    request = plan.call(call, credentials={"keyQuery": "q", "keyCookie": "c"})
    assert sent(request) == {
        "headers": [("cookie", "session=c")],
        "query": [("limit", "2"), ("api_key", "q")],
    }
    assert any("`api_key` (a credential)" in d.message for d in plan.diagnostics)


@pytest.mark.parametrize(
    ("call", "forged"),
    [
        ({"api_key": "forged"}, '"api_key" was unexpected'),  # undeclared, no body
        ({"queryParams": {"api_key": "forged"}}, '"api_key" was unexpected'),
        ({"queryParams": {}, "headers": {"x-api-key": "forged"}}, '"headers" was unexpected'),
    ],
)
def test_an_argument_can_not_set_a_credential(call: dict[str, Any], forged: str) -> None:
    """S18.3: the hidden parameter is not an argument of the tool, whatever the reading (and
    a channel holding only credentials is no channel)."""
    doc = document([{"keyHeader": [], "keyQuery": []}], parameters=CREDENTIAL_PARAMETERS)
    error = rejected(tool(doc), call, credentials={"keyHeader": "h", "keyQuery": "q"})
    assert forged in error.message


def test_an_exploded_object_can_not_forge_a_credentials_query_or_cookie() -> None:
    """S18.3, S12.1: an exploded object's keys become names, and a credential's name is not
    one of them — even when the gateway adds no credential itself."""
    parameters = [
        {"name": "filter", "in": "query", "schema": {"type": "object"}, "explode": True},
        {"name": "prefs", "in": "cookie", "schema": {"type": "object"}, "explode": True},
    ]
    plan = tool(document([{"keyQuery": [], "keyCookie": []}], parameters=parameters))
    for call in ({"filter": {"api_key": "forged"}}, {"prefs": {"session": "forged"}}):
        error = rejected(plan, call)
        assert "would be sent as" in error.errors[0].message
    ok = plan.call(
        {"filter": {"a": "1"}, "prefs": {"b": "2"}}, credentials={"keyQuery": "q", "keyCookie": "c"}
    )
    assert sent(ok)["query"] == [("a", "1"), ("api_key", "q")]


# -- S18.4 fixed arguments ------------------------------------------------------------------

FIXED_PARAMETERS: list[dict[str, Any]] = [
    {"name": "account", "in": "path", "required": True, "schema": {"type": "string"}},
    {"name": "api-version", "in": "query", "required": True, "schema": {"enum": ["2024-01", "2025-01"]}},
    {"name": "X-Tenant", "in": "header", "schema": {"type": "string"}},
    {"name": "limit", "in": "query", "schema": {"type": "integer"}},
]  # fmt: skip
BODY = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "owner": {"type": "string", "minLength": 2}},
    "required": ["name", "owner"],
}
PARAMETERS_FIXED = {"account": "acct_1", "api-version": "2025-01", "x-tenant": "acme"}
FIXED = {**PARAMETERS_FIXED, "owner": "ops"}


def fixed_document(body: dict[str, Any] | None = None) -> dict[str, Any]:
    doc = document(parameters=FIXED_PARAMETERS, body=body or BODY)
    doc["paths"] = {"/accounts/{account}/things": doc["paths"]["/things"]}
    return doc


@pytest.mark.parametrize("style", ["flat", "nested"])
def test_fixed_arguments_leave_the_schemas_and_go_out_on_every_call(style: str) -> None:
    """S18.4: out of the advertised schemas (flat and nested, and `required`); routed on
    every call — path, query, header (by its lowercased name) and a body property."""
    plan = tool(fixed_document(), style, fixed=FIXED)
    flat_names = set(plan.input_schema["properties"])
    nested = plan.nested_schema["properties"]
    if style == "flat":
        assert flat_names == {"limit", "name"}
        assert plan.input_schema["required"] == ["name"]
    assert set(nested) == {"queryParams", "body"}  # the path and header channels are empty
    assert nested["queryParams"]["properties"].keys() == {"limit"}
    assert nested["body"]["properties"].keys() == {"name"}
    assert nested["body"]["required"] == ["name"]
    call = {"name": "n"} if style == "flat" else {"queryParams": {}, "body": {"name": "n"}}
    request = plan.call(call)
    assert request.path == "/accounts/acct_1/things"
    assert request.query == (("api-version", "2025-01"),)
    assert ("x-tenant", "acme") in request.headers
    assert request.body == {"name": "n", "owner": "ops"}
    assert [f.name for f in plan.fixed] == ["account", "api-version", "x-tenant", "owner"]


@pytest.mark.parametrize(
    ("call", "path"),
    [
        ({"name": "n", "api-version": "2024-01"}, "api-version"),
        ({"name": "n", "owner": "me"}, "owner"),
        ({"name": "n", "x-tenant": "evil"}, "x-tenant"),
        ({"queryParams": {"api-version": "2024-01"}, "body": {"name": "n"}}, "queryParams.api-version"),
        ({"body": {"name": "n", "owner": "me"}}, "body.owner"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("closed", [True, False])
def test_an_argument_naming_a_fixed_one_is_an_argument_error(
    call: dict[str, Any], path: str, closed: bool
) -> None:
    """S18.4: `` `api-version` is set by the gateway``, under any key policy (an open body
    would otherwise take it as a body field)."""
    body = {**BODY, "additionalProperties": False} if closed else BODY
    plan = tool(fixed_document(body), fixed=FIXED)
    error = rejected(plan, call)
    name = path.rpartition(".")[2]
    assert [(e.path, e.keyword, e.message) for e in error.errors] == [
        (path, "fixed", f"`{name}` is set by the gateway")
    ]


def test_fixed_per_operation_wins_over_fixed() -> None:
    """S18.4: per operation (by operationId) first, then the names for all operations."""
    plan = tool(
        fixed_document(), fixed=FIXED, fixed_per_operation={"op": {"api-version": "2024-01"}}
    )
    assert plan.call({"name": "n"}).query == (("api-version", "2024-01"),)


@pytest.mark.parametrize(
    ("fixed", "words"),
    [
        ({"api-version": "1999"}, "the fixed value \"1999\" of `api-version` does not match its schema"),
        ({"owner": "x"}, "the fixed value \"x\" of `owner` does not match its schema"),
        ({"owner": float("nan")}, "the fixed value of `owner` is not a JSON value"),
    ],
)  # fmt: skip
def test_a_fixed_value_its_schema_rejects_is_a_configuration_error(
    fixed: dict[str, Any], words: str
) -> None:
    """S18.4: validated at planning time; a `configuration` error naming the argument."""
    result = plan_document(fixed_document(), fixed=fixed)
    (error,) = result.errors
    assert (error.kind, error.rule, error.property) == ("configuration", "S18.4", next(iter(fixed)))
    assert words in error.reason
    assert error.message.endswith(f"({error.location})")  # S9.3: the operation's location
    assert error.location
    assert not any("no operation" in d.message for d in result.diagnostics)


def test_a_fixed_name_no_operation_declares_is_a_warning() -> None:
    """S18.4: a warning diagnostic naming it (for `fixed`, the document; for
    `fixed_per_operation`, the tool; and an unknown operation key)."""
    result = plan_document(
        fixed_document(),
        fixed={"nowhere": 1, "limit": 5},
        fixed_per_operation={"op": {"elsewhere": 2}, "ghost": {"a": 1}},
    )
    messages = [d.message for d in result.diagnostics if d.level == "warning"]
    assert any("`fixed` names `nowhere`, which no operation" in m for m in messages)
    assert any(
        "`fixed_per_operation` names `elsewhere`, which this operation" in m for m in messages
    )
    assert any("`fixed_per_operation` names `ghost`, which no operation" in m for m in messages)
    assert not any("`limit`" in m for m in messages)


def test_a_fixed_body_property_follows_dependent_required_and_the_original_schema() -> None:
    """S18.4, S6.3: a fixed property is always present, so what it requires becomes
    required; the original body (with the fixed value) still judges every call."""
    body = {
        "type": "object",
        "properties": {"owner": {"type": "string"}, "team": {"type": "string"}, "n": {}},
        "dependentRequired": {"owner": ["team"], "n": ["owner"]},
    }
    plan = tool(fixed_document(body), fixed={**PARAMETERS_FIXED, "owner": "ops"})
    assert plan.input_schema["required"] == ["team"]
    assert "dependentRequired" not in plan.input_schema
    assert plan.call({"team": "t", "n": 1}).body == {"team": "t", "n": 1, "owner": "ops"}
    assert rejected(plan, {"n": 1}).errors[0].message == '"team" is a required property'
    check = plan.body_check
    assert isinstance(check, dict)
    assert check["dependentRequired"] == body["dependentRequired"]


def test_a_fixed_property_of_a_body_that_cant_flatten_is_a_configuration_error() -> None:
    """S18.4: one property of a whole body can't be set apart."""
    body = {
        "type": "object",
        "properties": {"owner": {"type": "string"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    result = plan_document(fixed_document(body), fixed={"owner": "ops"}, style="flat")
    (error,) = result.errors
    assert error.kind == "configuration"
    assert "`fixed` sets the body property `owner`, but the body can't be flattened" in error.reason


def test_fixed_arguments_survive_plan_data_and_are_checked_there() -> None:
    """S15.1: fixed arguments and security are plan data; a tampered route is refused."""
    plan = tool(fixed_document(), fixed=FIXED)
    again = Plan.from_dict(plan.to_dict())
    assert again == plan
    assert again.call({"name": "n"}) == plan.call({"name": "n"})
    data = plan.to_dict()
    data["fixed"][2]["route"]["name"] = "Host"
    with pytest.raises(PlanDataError) as caught:
        Plan.from_dict(data)
    assert caught.value.field == "fixed.2.route.name"
    data = plan.to_dict()
    data["security"] = [
        [{"name": "b", "type": "http", "in": "query", "parameter": "x", "scheme": "bearer"}]
    ]
    with pytest.raises(PlanDataError):
        Plan.from_dict(data)


def test_a_fixed_value_is_the_plans_own_copy() -> None:
    """S15: changing the caller's value after planning changes nothing."""
    value = {"deep": ["a"]}
    body = {"type": "object", "properties": {"meta": {"type": "object"}, "n": {}}}
    plan = tool(fixed_document(body), fixed={**PARAMETERS_FIXED, "meta": value})
    value["deep"].append("b")
    request = plan.call({"n": 1})
    assert request.body == {"n": 1, "meta": {"deep": ["a"]}}
    request.body["meta"]["deep"].append("c")
    assert plan.call({"n": 1}).body["meta"] == {"deep": ["a"]}


# -- the law --------------------------------------------------------------------------------

LAW_PARAMETERS: list[dict[str, Any]] = [
    *CREDENTIAL_PARAMETERS,
    {"name": "filter", "in": "query", "schema": {"type": "object"}, "explode": True},
    {"name": "prefs", "in": "cookie", "schema": {"type": "object"}, "explode": True},
    {"name": "api-version", "in": "query", "schema": {"type": "string"}},
]
NAMES = st.sampled_from(
    ["api_key", "x-api-key", "X-API-Key", "session", "api-version", "limit", "filter", "prefs",
     "queryParams", "headers", "cookies", "body", "owner", "authorization", "n"]
)  # fmt: skip
VALUES = st.recursive(
    st.one_of(st.text(max_size=4), st.integers(-3, 3), st.none()),
    lambda inner: st.one_of(st.dictionaries(NAMES, inner, max_size=3), st.lists(inner, max_size=2)),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(NAMES, VALUES, max_size=5), st.sampled_from(["flat", "nested"]))
@example({"filter": {"api-version": None}}, "flat")  # an exploded key forging the fixed one
@example({"prefs": {"session": "x"}}, "flat")
def test_no_arguments_change_a_credential_or_a_fixed_value(
    arguments: dict[str, Any], style: str
) -> None:
    """S18.3, S18.4, S14.2: whatever the model sends, flat or nested, an accepted call carries
    each credential and fixed value exactly once, exactly as the gateway gave it."""
    body = {"type": "object", "properties": {"owner": {"type": "string"}, "n": {}}}
    doc = document(
        [{"keyHeader": [], "keyQuery": [], "keyCookie": []}], parameters=LAW_PARAMETERS, body=body
    )
    plan = tool(doc, style, fixed={"api-version": "v9", "owner": "ops"})
    credentials = {"keyHeader": "H", "keyQuery": "Q", "keyCookie": "C"}
    try:
        request = plan.call(arguments, headers={"X-API-Key": "inbound"}, credentials=credentials)
    except ArgumentError:
        return
    headers = [h for h in request.headers if h[0] in ("x-api-key", "authorization")]
    assert headers == [("x-api-key", "H")]
    query = parse_qsl(urlsplit(request.url).query, keep_blank_values=True)
    assert [v for k, v in query if k == "api_key"] == ["Q"]
    assert [v for k, v in query if k == "api-version"] == ["v9"]
    cookies = [
        c.strip() for v in dict(request.headers).get("cookie", "").split(";") if v for c in [v]
    ]
    assert [c for c in cookies if c.split("=", 1)[0] == "session"] == ["session=C"]
    assert request.body["owner"] == "ops"


# -- credentials in the headers a request's framing owns (S18.1, S18.2) --------------------------


def test_an_api_key_in_the_cookie_header_joins_the_arguments_cookies() -> None:
    """S18.2: an apiKey sent as the `Cookie` header and cookie parameters make one `cookie`
    header: the credential's cookies (replacing the inbound header) with the arguments'."""
    schemes = {"cookieKey": {"type": "apiKey", "in": "header", "name": "Cookie"}}
    doc = document([{"cookieKey": []}], parameters=[{"name": "a", "in": "cookie"}], method="get")
    doc["components"]["securitySchemes"] = schemes
    plan = tool(doc)
    request = plan.call(
        {"a": "1"}, credentials={"cookieKey": "s=2; a=7"}, headers={"Cookie": "z=9"}
    )
    assert request.headers == (("cookie", "s=2; a=1"),)
    assert plan.call({}, credentials={"cookieKey": "s=2"}).headers == (("cookie", "s=2"),)


def test_two_schemes_of_one_alternative_send_one_authorization_header() -> None:
    """S18.2: an apiKey in `Authorization` beside a bearer scheme in one alternative: one
    `authorization` header (the first scheme's), and it replaces the inbound one."""
    doc = document([{"authKey": [], "bearer": []}], method="get")
    doc["components"]["securitySchemes"] = {
        **SCHEMES,
        "authKey": {"type": "apiKey", "in": "header", "name": "Authorization"},
    }
    plan = tool(doc)
    request = plan.call(
        {}, credentials={"authKey": "k", "bearer": "t"}, headers={"Authorization": "x"}
    )
    assert request.headers == (("authorization", "k"),)


def test_an_api_key_in_the_content_type_header_is_a_configuration_error() -> None:
    """S18.1: a tool whose body's content type owns the header would lose the key: a
    `configuration` error naming the scheme and ending with the location; a tool without a
    body plans."""
    schemes = {**SCHEMES, "typeKey": {"type": "apiKey", "in": "header", "name": "Content-Type"}}
    documents = [
        document([{"typeKey": []}], body={"type": "object"}),
        document([{"typeKey": []}], method="get"),
    ]
    for doc in documents:
        doc["components"]["securitySchemes"] = schemes
    with_body, without = (plan_document(doc) for doc in documents)
    (error,) = with_body.errors
    assert (error.kind, error.rule) == ("configuration", "S18.1")
    assert (
        "the security scheme `typeKey` sends its key in the `Content-Type` header" in error.message
    )
    assert error.message.endswith("(openapi.json#/paths/~1things/post)")
    assert len(without.tools) == 1
