"""S20.3: Swagger 2.0 documents, read by converting them to OpenAPI 3.0 first."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest

from toolshape import DocumentError, Options, Plan, Request, plan_document
from toolshape._yaml import load_yaml
from toolshape.read._swagger import base_path_of, convert_swagger

SHOP = Path(__file__).parent / "data" / "shop.swagger.yaml"


def swagger(paths: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": paths, **top}


def operation(method: str = "post", path: str = "/x", **op: Any) -> dict[str, Any]:
    return {
        path: {method: {"operationId": "op", "responses": {"200": {"description": "ok"}}, **op}}
    }


def converted_operation(doc: dict[str, Any], path: str = "/x", method: str = "post") -> Any:
    return convert_swagger(doc).document["paths"][path][method]


@pytest.fixture(scope="module")
def shop() -> dict[str, Any]:
    data = load_yaml(SHOP.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# -- the conversion rules, one by one ---------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "op", "types"),
    [
        ({}, {}, ["application/json"]),  # neither says: JSON
        ({"consumes": ["application/xml"]}, {}, ["application/xml"]),  # the document's
        ({"consumes": ["application/xml"]}, {"consumes": ["text/plain", "application/json"]}, ["text/plain", "application/json"]),
    ],
)  # fmt: skip
def test_the_body_parameter_is_the_request_body_for_each_consumed_type(
    top: dict[str, Any], op: dict[str, Any], types: list[str]
) -> None:
    """S20.3: the operation's `consumes`, else the document's, else `application/json`."""
    body = {"name": "b", "in": "body", "required": True, "description": "d", "x-k": 1,
            "schema": {"$ref": "#/definitions/Thing"}}  # fmt: skip
    doc = swagger(operation(parameters=[body], **op), **top)
    request_body = converted_operation(doc)["requestBody"]
    assert request_body == {
        "content": {t: {"schema": {"$ref": "#/components/schemas/Thing"}} for t in types},
        "required": True,
        "description": "d",
        "x-k": 1,
    }
    assert "parameters" not in converted_operation(doc)


@pytest.mark.parametrize(
    ("params", "consumes", "media"),
    [
        ([{"name": "a", "in": "formData", "type": "string", "required": True}], None, "application/x-www-form-urlencoded"),
        ([{"name": "f", "in": "formData", "type": "file"}], None, "multipart/form-data"),
        ([{"name": "a", "in": "formData", "type": "string"}], ["multipart/form-data"], "multipart/form-data"),
    ],
)  # fmt: skip
def test_form_data_parameters_are_one_object_body(
    params: list[dict[str, Any]], consumes: list[str] | None, media: str
) -> None:
    """S20.3: multipart when a `type: file` parameter or `consumes` says so, else
    form-urlencoded; each parameter a property, `required` kept, a file a binary string."""
    op: dict[str, Any] = {"parameters": params}
    if consumes:
        op["consumes"] = consumes
    body = converted_operation(swagger(operation(**op)))["requestBody"]
    ((found, content),) = body["content"].items()
    assert found == media
    schema = content["schema"]
    assert list(schema["properties"]) == [p["name"] for p in params]
    assert schema.get("required", []) == [p["name"] for p in params if p.get("required")]
    if params[0]["type"] == "file":
        assert schema["properties"]["f"] == {"type": "string", "format": "binary"}


@pytest.mark.parametrize(
    ("where", "collection", "expected"),
    [
        ("query", None, {"style": "form", "explode": False}),  # csv is the default
        ("query", "csv", {"style": "form", "explode": False}),
        ("path", "csv", {"style": "simple", "explode": False}),
        ("header", "csv", {"style": "simple", "explode": False}),
        ("query", "ssv", {"style": "spaceDelimited", "explode": False}),
        ("query", "pipes", {"style": "pipeDelimited", "explode": False}),
        ("query", "multi", {"style": "form", "explode": True}),
        ("formData", "csv", {"style": "form", "explode": False}),
        ("formData", "ssv", {"style": "spaceDelimited", "explode": False}),
        ("formData", "pipes", {"style": "pipeDelimited", "explode": False}),
        ("formData", "multi", {"style": "form", "explode": True}),
    ],
)
def test_each_collection_format_is_a_style(
    where: str, collection: str | None, expected: dict[str, Any]
) -> None:
    """S20.3: `csv` → form (simple on a path or header) unexploded, `ssv` → spaceDelimited,
    `pipes` → pipeDelimited, `multi` → form exploded; for `formData` as the encoding entry."""
    param: dict[str, Any] = {"name": "v", "in": where, "type": "array", "items": {"type": "string"}}
    if collection:
        param["collectionFormat"] = collection
    path = "/x/{v}" if where == "path" else "/x"
    if where == "path":
        param["required"] = True
    op = converted_operation(swagger(operation(path=path, parameters=[param])), path)
    if where == "formData":
        entry = op["requestBody"]["content"]["application/x-www-form-urlencoded"]["encoding"]["v"]
        assert entry == expected
        return
    (converted,) = op["parameters"]
    assert {k: converted[k] for k in ("style", "explode")} == expected
    assert converted["schema"] == {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize(
    ("where", "collection", "words"),
    [
        ("query", "tsv", "collectionFormat `tsv`, which OpenAPI 3 can't express"),
        ("formData", "tsv", "collectionFormat `tsv`, which OpenAPI 3 can't express"),
        ("path", "ssv", "collectionFormat `ssv`, which OpenAPI 3 allows only for query"),
        ("header", "pipes", "collectionFormat `pipes`, which OpenAPI 3 allows only for query"),
        ("header", "multi", "collectionFormat `multi`, which OpenAPI 3 allows only for query"),
    ],
)
def test_what_openapi_3_cant_express_is_a_parameter_error_pointing_into_the_20_text(
    where: str, collection: str, words: str
) -> None:
    """S20.3: `tsv`, and `ssv`, `pipes` or `multi` on a path or header parameter: a planning
    error of kind `parameter` for that operation only, at the 2.0 parameter's pointer."""
    param: dict[str, Any] = {
        "name": "v", "in": where, "type": "array", "items": {}, "collectionFormat": collection,
    }  # fmt: skip
    path = "/x/{v}" if where == "path" else "/x"
    if where == "path":
        param["required"] = True
    paths = {**operation(path=path, parameters=[param]), **operation("get", "/fine")}
    paths["/fine"]["get"]["operationId"] = "fine"
    result = plan_document(swagger(paths), source="shop.json")
    assert [t.name for t in result.tools] == ["fine"]
    (error,) = result.errors
    assert (error.kind, error.rule) == ("parameter", "S20.3")
    assert words in error.reason
    assert f"at `/paths/{path.replace('/', '~1')}/post/parameters/0`" in error.reason
    assert error.location == f"shop.json#/paths/{path.replace('/', '~1')}/post"


def test_allow_empty_value_on_a_body_field_is_a_parameter_error() -> None:
    """S20.3: OpenAPI 3 has `allowEmptyValue` for query parameters only (kept there)."""
    params = [
        {"name": "a", "in": "formData", "type": "string", "allowEmptyValue": True},
        {"name": "q", "in": "query", "type": "string", "allowEmptyValue": True},
    ]
    (error,) = plan_document(swagger(operation(parameters=params))).errors
    assert "`allowEmptyValue`, which OpenAPI 3 has only for query parameters" in error.reason
    ok = converted_operation(swagger(operation(parameters=params[1:])))
    assert ok["parameters"][0]["allowEmptyValue"] is True


@pytest.mark.parametrize(
    ("top", "op", "types"),
    [
        ({}, {}, ["application/json"]),
        ({"produces": ["application/xml"]}, {}, ["application/xml"]),
        ({"produces": ["application/xml"]}, {"produces": ["text/csv"]}, ["text/csv"]),
    ],
)
def test_produces_gives_the_response_media_types(
    top: dict[str, Any], op: dict[str, Any], types: list[str]
) -> None:
    """S20.3: the operation's `produces`, else the document's, else `application/json`."""
    responses = {"200": {"description": "ok", "schema": {"type": "string"}}, "204": {"description": "none"}}  # fmt: skip
    doc = swagger(operation("get", responses=responses, **op), **top)
    converted = converted_operation(doc, method="get")["responses"]
    assert converted["200"] == {
        "description": "ok",
        "content": {t: {"schema": {"type": "string"}} for t in types},
    }
    assert converted["204"] == {"description": "none"}


def test_shared_parts_move_under_components_with_every_ref_rewritten() -> None:
    """S20.3: `definitions`, `parameters` and `responses` under `components`; `$ref`s follow;
    a shared `body` parameter is inlined where it is used; `x-` keys are kept everywhere; a
    2.0 `discriminator` (a property name) is 3.0's object."""
    doc = swagger(
        operation(
            parameters=[{"$ref": "#/parameters/limit"}, {"$ref": "#/parameters/item"}],
            responses={"404": {"$ref": "#/responses/Missing"}},
        ),
        definitions={"Item": {"type": "object", "discriminator": "kind", "x-def": 1,
                              "properties": {"kind": {"type": "string"}, "sub": {"$ref": "#/definitions/Item"}}}},
        parameters={
            "limit": {"name": "limit", "in": "query", "type": "integer", "x-p": 2},
            "item": {"name": "item", "in": "body", "schema": {"$ref": "#/definitions/Item"}},
        },
        responses={"Missing": {"description": "gone", "schema": {"$ref": "#/definitions/Item"}}},
        **{"x-top": "kept"},
    )  # fmt: skip
    doc["paths"]["/x"]["post"]["x-op"] = True
    out = convert_swagger(doc).document
    assert out["openapi"] == "3.0.3"
    assert out["x-top"] == "kept"
    item = out["components"]["schemas"]["Item"]
    assert item["discriminator"] == {"propertyName": "kind"}
    assert item["properties"]["sub"] == {"$ref": "#/components/schemas/Item"}
    assert item["x-def"] == 1
    assert out["components"]["parameters"]["limit"] == {
        "name": "limit", "in": "query", "x-p": 2, "schema": {"type": "integer"},
    }  # fmt: skip
    assert out["components"]["responses"]["Missing"] == {
        "description": "gone",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}},
    }
    op = out["paths"]["/x"]["post"]
    assert op["parameters"] == [{"$ref": "#/components/parameters/limit"}]
    assert op["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Item"
    }
    assert op["responses"]["404"] == {"$ref": "#/components/responses/Missing"}
    assert op["x-op"] is True
    assert "item" not in out["components"]["parameters"]


def test_path_item_parameters_merge_into_each_operation() -> None:
    """S20.3, S1.1: the path item's parameters with the operation's over them."""
    doc = swagger(
        {
            "/x/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "type": "string"},
                    {"name": "v", "in": "query", "type": "string"},
                ],
                "get": {"parameters": [{"name": "v", "in": "query", "type": "integer"}]},
            }
        }
    )
    get = converted_operation(doc, "/x/{id}", "get")
    assert [(p["name"], p["schema"]) for p in get["parameters"]] == [
        ("id", {"type": "string"}),
        ("v", {"type": "integer"}),
    ]


@pytest.mark.parametrize(
    ("given", "base"),
    [(None, ""), ("/", ""), ("/api/v1/", "/api/v1"), ("api", "/api"), ("/v2", "/v2")],
)
def test_base_path_is_joined_with_exactly_one_slash(given: Any, base: str) -> None:
    """S20.3: `basePath` prefixes every request path, never the tool name."""
    assert base_path_of(given) == base
    doc = swagger(operation("get", "/items/{id}", parameters=[{"name": "id", "in": "path", "required": True, "type": "string"}]))  # fmt: skip
    if given is not None:
        doc["basePath"] = given
    (plan,) = plan_document(doc, style="flat").tools
    assert plan.name == "op"
    assert plan.path == "/items/{id}"
    assert plan.call({"id": "7"}).path == f"{base}/items/7"
    assert Plan.from_dict(plan.to_dict()).call({"id": "7"}).url == f"{base}/items/7"


def test_security_definitions_are_security_schemes() -> None:
    """S20.3, S18: `basic` → `http` `basic`; apiKey as written; oauth2 flows renamed."""
    doc = swagger(
        operation(security=[{"basic": []}, {"key": [], "oauth": ["read"]}]),
        securityDefinitions={
            "basic": {"type": "basic", "description": "d"},
            "key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "oauth": {"type": "oauth2", "flow": "application", "tokenUrl": "https://t", "scopes": {"read": "r"}},
        },
    )  # fmt: skip
    schemes = convert_swagger(doc).document["components"]["securitySchemes"]
    assert schemes == {
        "basic": {"type": "http", "scheme": "basic", "description": "d"},
        "key": {"type": "apiKey", "in": "query", "name": "api_key"},
        "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://t", "scopes": {"read": "r"}}}},
    }  # fmt: skip
    (plan,) = plan_document(doc, style="flat").tools
    request = plan.call({}, credentials={"key": "k", "oauth": "t"})
    assert request.url == "/x?api_key=k"
    assert ("authorization", "Bearer t") in request.headers


def test_messages_point_into_the_20_text() -> None:
    """S20.3: a problem inside a definition or a body parameter names the 2.0 pointer."""
    doc = swagger(
        operation(parameters=[{"name": "b", "in": "body", "schema": {"$ref": "#/definitions/Nope"}}]),
        definitions={"Bad": {"type": "object", "properties": {"a": {"minimum": "five"}}}},
    )  # fmt: skip
    (error,) = plan_document(doc).errors
    assert "#/definitions/Nope" in error.reason
    assert "components" not in error.reason
    doc["paths"]["/x"]["post"]["parameters"][0]["schema"] = {"$ref": "#/definitions/Bad"}
    (error,) = plan_document(doc).errors
    assert "/definitions/Bad/properties/a" in error.reason
    assert "components" not in error.reason


# -- a real 2.0 document, planned and called in both styles ----------------------------------


def test_the_shop_plans_every_operation_in_both_styles(shop: dict[str, Any]) -> None:
    """S20.3: 23 operations (one with two consumed types, one of which — `text/plain` for an
    object — can't be sent, S17.9); the map body can't flatten, which
    `on_unflattenable="nested"` plans nested; nested, everything plans."""
    nested = plan_document(shop, source="shop.swagger.yaml")
    assert nested.errors == ()
    assert len(nested.tools) == 23
    (skipped,) = [d for d in nested.diagnostics if d.message.startswith("MCP tool not listed")]
    assert skipped.tool == "putSettings_text_plain"
    flat = plan_document(shop, style="flat", source="shop.swagger.yaml")
    assert [e.operation for e in flat.errors] == ["putSettings"]
    assert all(e.kind == "unflattenable" for e in flat.errors)
    assert all(e.location == "shop.swagger.yaml#/paths/~1admin~1settings/put" for e in flat.errors)
    covered = plan_document(shop, style="flat", options=Options.preset(on_unflattenable="nested"))
    assert covered.errors == ()
    assert len(covered.tools) == 23


PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n\xff").decode()
CALLS: list[tuple[str, dict[str, Any], dict[str, Any], str, str, Any]] = [
    (
        "listProducts",
        {"limit": 5, "tags": ["a", "b"], "sizes": ["s", "m"], "colors": ["r", "g"], "brand": ["x", "y"], "q": ""},
        {"queryParams": {"limit": 5, "tags": ["a", "b"], "sizes": ["s", "m"], "colors": ["r", "g"], "brand": ["x", "y"], "q": ""}},
        "GET", "/api/v1/products?limit=5&tags=a,b&sizes=s%20m&colors=r|g&brand=x&brand=y&q=", None,
    ),
    (
        "createProduct",
        {"name": "Mug", "price": 4.5, "tags": ["kitchen"]},
        {"body": {"name": "Mug", "price": 4.5, "tags": ["kitchen"]}},
        "POST", "/api/v1/products", b'{"name":"Mug","price":4.5,"tags":["kitchen"]}',
    ),
    (
        "updateProduct",
        {"productId": "p1", "on_sale": True},
        {"pathParams": {"productId": "p1"}, "body": {"on_sale": True}},
        "PATCH", "/api/v1/products/p1", b'{"on_sale":true}',
    ),
    (
        "deleteProduct",
        {"productId": "p 1", "x-reason": "dup"},
        {"pathParams": {"productId": "p 1"}, "headers": {"x-reason": "dup"}},
        "DELETE", "/api/v1/products/p%201", None,
    ),
    (
        "listReviews",
        {"productId": "p1", "stars": [4, 5]},
        {"pathParams": {"productId": "p1"}, "queryParams": {"stars": [4, 5]}},
        "GET", "/api/v1/products/p1/reviews?stars=4,5", None,
    ),
    (
        "addReview",
        {"productId": "p1", "stars": 5, "text": "fine & dandy", "topics": ["a", "b"]},
        {"pathParams": {"productId": "p1"}, "body": {"stars": 5, "text": "fine & dandy", "topics": ["a", "b"]}},
        "POST", "/api/v1/products/p1/reviews", [("stars", "5"), ("text", "fine & dandy"), ("topics", "a|b")],
    ),
    (
        "setOrderLine",
        {"orderId": "o1", "line": 2, "productId": "p1", "quantity": 3},
        {"pathParams": {"orderId": "o1", "line": 2}, "body": {"productId": "p1", "quantity": 3}},
        "PUT", "/api/v1/orders/o1/lines/2", b'{"productId":"p1","quantity":3}',
    ),
    (
        "payOrder",
        {"orderId": "o1", "amount": 9.99, "idempotency-key": "k1"},
        {"pathParams": {"orderId": "o1"}, "queryParams": {"amount": 9.99}, "headers": {"idempotency-key": "k1"}},
        "POST", "/api/v1/orders/o1/pay?amount=9.99", None,
    ),
    (
        "addPet",
        {"kind": "cat", "name": "Tom"},
        {"body": {"kind": "cat", "name": "Tom"}},
        "POST", "/api/v1/pets", b'{"kind":"cat","name":"Tom"}',
    ),
    (
        "search",
        {"q": "mug", "in": ["products"]},
        {"queryParams": {"q": "mug", "in": ["products"]}},
        "GET", "/api/v1/search?q=mug&in=products", None,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "flat", "nested", "method", "url", "content"), CALLS, ids=[c[0] for c in CALLS]
)
def test_the_shop_is_called_in_both_styles(
    shop: dict[str, Any],
    name: str,
    flat: dict[str, Any],
    nested: dict[str, Any],
    method: str,
    url: str,
    content: Any,
) -> None:
    """S20.3 with S12, S17: a flat and a nested tool of each operation send one request, under
    `basePath`, with 2.0's collection formats and form bodies on the wire."""
    requests: list[Request] = []
    for style, arguments in (("flat", flat), ("nested", nested)):
        tools = {t.name: t for t in plan_document(shop, style=style).tools}
        requests.append(tools[name].call(arguments))
    flat_request, nested_request = requests
    assert flat_request == nested_request
    assert (flat_request.method, flat_request.url) == (method, url)
    _, sent = flat_request.encode()
    if isinstance(content, list):
        assert sent is not None
        assert parse_qsl(sent.decode("ascii"), strict_parsing=True) == content
    else:
        assert sent == content


def test_the_shop_uploads_a_file_as_multipart(shop: dict[str, Any]) -> None:
    """S20.3, S17.4: `type: file` in `formData` is a base64 argument sent as a file part."""
    tools = {t.name: t for t in plan_document(shop, style="flat").tools}
    request = tools["uploadImage"].call(
        {"productId": "p1", "file": PNG, "caption": "front", "labels": ["a", "b"]}
    )
    headers, content = request.encode()
    assert request.url == "/api/v1/products/p1/images"
    assert dict(headers)["content-type"].startswith("multipart/form-data; boundary=")
    assert content is not None
    assert b'name="file"; filename="file"' in content
    assert base64.b64decode(PNG) in content
    assert content.count(b'name="labels"') == 2  # `multi`: one part per item


# -- hostile documents (S14.4) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameters", "top"),
    [
        ([5], {}),
        ([{"name": ["a"], "in": "query", "type": "string"}], {}),
        ([{"name": "a", "in": {"x": 1}, "type": "string"}], {}),
        ([{"name": {"a": 1}, "in": ["query"], "type": "string"}, 5, None], {}),
        ([], {"host": "api.example", "schemes": 5}),
        ([], {"host": "api.example", "schemes": [5, None, "http"]}),
    ],
    ids=[
        "a number",
        "a list name",
        "a mapping in",
        "all of them",
        "schemes a number",
        "odd schemes",
    ],
)
def test_a_malformed_parameter_or_scheme_is_the_documents_error_never_an_exception(
    parameters: list[Any], top: dict[str, Any]
) -> None:
    """S20.3, S14.4: a parameter that is no object, a `name`/`in` that is no text, `schemes`
    that is no list: planning ends in tools or planning errors (the parameter's S1.1 error),
    never a foreign exception."""
    doc = swagger(operation("get", parameters=parameters), **top)
    result = plan_document(doc)
    if parameters:
        (error,) = result.errors
        assert error.kind == "parameter"
        assert "the parameter" in error.message
        assert "`/paths/~1x/get/parameters/0`" in error.message
    else:
        assert len(result.tools) == 1
        servers = convert_swagger(doc).document["servers"]
        assert all(s["url"].endswith("://api.example") for s in servers)


def test_a_cyclic_parsed_document_is_refused() -> None:
    """S14.4: a parsed document that holds an object inside itself (JSON can't; a careless
    caller's data can) is refused with the library's own error, not read forever."""
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["self"] = schema
    doc = swagger(operation(parameters=[{"name": "b", "in": "body", "schema": schema}]))
    with pytest.raises(DocumentError, match="holds an object inside itself"):
        plan_document(doc)


def test_shared_sub_objects_are_converted_once() -> None:
    """S20.3: a sub-object a YAML anchor shares is converted once and shared again in the 3.0
    document, not copied path by path."""
    shared: dict[str, Any] = {"type": "string"}
    for _ in range(30):  # 2^30 paths through it, 31 objects
        shared = {"type": "object", "properties": {"a": shared, "b": shared}}
    doc = swagger(operation(parameters=[{"name": "b", "in": "body", "schema": shared}]))
    schema = converted_operation(doc)["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["a"] is schema["properties"]["b"]


def test_a_bare_reference_is_read_as_the_definition_it_names() -> None:
    """S20.3: `"$ref": "Category"` (older 2.0 tools wrote bare names) is read as
    `#/definitions/Category` when that definition exists, with an `info` diagnostic; a bare
    name no definition has stays an unresolvable reference."""
    doc = swagger(
        operation(
            parameters=[
                {"name": "body", "in": "body", "schema": {"$ref": "Category"}, "required": True}
            ],
            responses={"200": {"description": "ok", "schema": {"$ref": "Missing"}}},
        ),
        definitions={
            "Category": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
    )
    result = plan_document(doc, style="flat", source="shop.json")
    (plan,) = result.tools
    assert plan.input_schema["properties"] == {"name": {"type": "string"}}
    (note,) = [d for d in result.diagnostics if d.level == "info" and "bare" in d.message]
    assert note.message == (
        "shop.json writes bare references, read as its definitions: `Category` as "
        "`#/definitions/Category` (S20.3)"
    )
    assert plan.output_schema is None  # `Missing` names no definition: no output schema
    (left_out,) = [d for d in plan.diagnostics if "output schema left out" in d.message]
    assert "Missing" in left_out.message
