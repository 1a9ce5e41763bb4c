"""S20.1: choosing the operations a document's tools are planned from."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toolshape import DocumentError, Select, plan_document, plan_operation
from toolshape._yaml import load_yaml
from toolshape.cli import main

SHOP = Path(__file__).parent / "data" / "shop.swagger.yaml"
ALL = 23  # the shop's operations


@pytest.fixture(scope="module")
def shop() -> dict[str, Any]:
    data = load_yaml(SHOP.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def operations(shop: dict[str, Any], select: Select | None) -> list[str]:
    result = plan_document(shop, select=select)
    return sorted({t.operation_id or "" for t in result.tools})


@pytest.mark.parametrize(
    ("select", "expected"),
    [
        (Select(tags=["orders"]), ["cancelOrder", "createOrder", "getOrder", "listOrders", "payOrder", "setOrderLine"]),
        (Select(tags=["files", "admin"]), ["downloadFile", "listFiles", "putSettings", "reindex", "uploadFile", "uploadImage"]),
        (Select(operations=["search", "health", "nope"]), ["health", "search"]),
        (Select(methods=["DELETE"]), ["cancelOrder", "deleteProduct"]),
        (Select(paths=["/orders/*"]), ["cancelOrder", "getOrder", "payOrder", "setOrderLine"]),
        (Select(paths=["/products/{productId}"]), ["deleteProduct", "getProduct", "replaceProduct", "updateProduct"]),
        (Select(paths=["/files*"]), ["downloadFile", "listFiles", "uploadFile"]),
    ],
)  # fmt: skip
def test_each_include_list_alone(shop: dict[str, Any], select: Select, expected: list[str]) -> None:
    """S20.1: `tags`, `operations` (operationIds), `methods` (any case), `paths` (globs
    matched against the path key, `*` crossing `/`)."""
    assert operations(shop, select) == expected


def test_exclude_lists_and_deprecated(shop: dict[str, Any]) -> None:
    """S20.1: `exclude_tags`, `exclude_operations`, and `deprecated=False` leave out."""
    assert len(operations(shop, Select())) == ALL
    without_products = operations(shop, Select(exclude_tags=["products"]))
    assert "listProducts" not in without_products
    assert "uploadImage" not in without_products  # tagged products and files
    assert len(without_products) == ALL - 9  # nine operations are tagged products
    assert operations(shop, Select(exclude_operations=["health", "search"])) == sorted(
        set(operations(shop, None)) - {"health", "search"}
    )
    assert "cancelOrder" not in operations(shop, Select(deprecated=False))
    assert len(operations(shop, Select(deprecated=False))) == ALL - 1


def test_filters_combine_every_include_and_no_exclude(shop: dict[str, Any]) -> None:
    """S20.1: an operation must match every include list given and no exclude list."""
    select = Select(
        tags=["orders", "products"],
        methods=["get", "delete"],
        paths=["/orders*", "/products*"],
        exclude_operations=["getProduct"],
        deprecated=False,
    )
    assert operations(shop, select) == ["deleteProduct", "getOrder", "listOrders", "listProducts", "listReviews"]  # fmt: skip


def test_left_out_operations_make_one_debug_diagnostic_and_nothing_else(
    shop: dict[str, Any],
) -> None:
    """S20.1: no tools, no errors; one `debug` diagnostic in total with the count (the
    operation that can't flatten is left out too, so no error is reported for it)."""
    result = plan_document(shop, style="flat", select=Select(tags=["orders"]), source="shop")
    assert result.errors == ()
    notes = [d for d in result.diagnostics if "select" in d.message]
    assert [(d.level, d.message) for d in notes] == [
        ("debug", f"`select` left out {ALL - 6} operations of shop")
    ]
    assert not any("left out" in d.message for d in plan_document(shop).diagnostics)


def test_plan_operation_refuses_an_operation_select_leaves_out(shop: dict[str, Any]) -> None:
    """S20.1: asking for one operation that the selection leaves out is an error that says so."""
    with pytest.raises(DocumentError, match=r"`select` leaves out the operation GET /health"):
        plan_operation(shop, "/health", "get", select=Select(tags=["orders"]))
    assert plan_operation(shop, "/health", "get", select=Select(operations=["health"]))


def test_select_values_are_tuples_and_compare_by_value() -> None:
    """S20.1: a frozen value; a single string is one name, lists become tuples."""
    assert Select(tags="pets") == Select(tags=["pets"])
    assert Select(methods=["GET"]).methods == ("get",)
    assert Select() == Select(tags=None, exclude_tags=())
    with pytest.raises(AttributeError):
        Select().tags = ("x",)  # type: ignore[misc]


def test_the_command_line_flags(tmp_path: Path) -> None:
    """S20.1: `--tag`, `--exclude-tag`, `--operation`, `--exclude-operation`, `--method`,
    `--path GLOB`, `--no-deprecated` on `toolshape plan` (and `call`, the gateway: one
    helper)."""

    def planned(*flags: str) -> list[str]:
        out, err = io.StringIO(), io.StringIO()
        assert main(["plan", str(SHOP), "--json", *flags], out, err) == 0, err.getvalue()
        return sorted(t["name"] for t in json.loads(out.getvalue())["tools"])

    assert planned("--tag", "orders", "--method", "get", "--no-deprecated") == [
        "getOrder",
        "listOrders",
    ]
    assert planned("--path", "/admin/*", "--exclude-operation", "reindex") == [
        "putSettings_application_json",  # the S8.2 name, though text/plain can't be sent (S17.9)
    ]
    assert planned("--operation", "health", "--operation", "search") == ["health", "search"]
    assert len(planned("--exclude-tag", "products")) == ALL - 9
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["call", str(SHOP), "health", "{}", "--tag", "orders"], out, err
    )  # health is left out: no such tool
    assert code == 2
    assert "no tool named 'health'" in err.getvalue()


# -- a selection that matches nothing; one tool per operation ----------------------------------


@pytest.mark.parametrize(
    ("select", "asked"),
    [
        (Select(operations=["get_users"]), "operations get_users"),
        (Select(tags=["nope"], methods=["get"]), "tags nope; methods get"),
        (Select(paths=["/nowhere/*"]), "paths /nowhere/*"),
    ],
)
def test_a_selection_that_matches_nothing_is_a_configuration_error(
    shop: dict[str, Any], select: Select, asked: str
) -> None:
    """S20.1: include lists that match none of a document's operations are a `configuration`
    error naming what they asked for — a typo must not start an empty server."""
    result = plan_document(shop, select=select, source="shop.swagger.yaml")
    assert result.tools == ()
    (error,) = result.errors
    assert error.kind == "configuration"
    assert error.rule == "S20.1"
    assert error.message == (
        f"`select` matches none of the {ALL} operations of shop.swagger.yaml: it asks for "
        f"{asked} (shop.swagger.yaml#/paths)"
    )


def test_exclude_lists_alone_may_leave_out_everything(shop: dict[str, Any]) -> None:
    """S20.1: only include lists ask for something; excluding every operation is no error."""
    everything = [t.operation_id for t in plan_document(shop).tools]
    result = plan_document(shop, select=Select(exclude_operations=[str(o) for o in everything]))
    assert (result.tools, result.errors) == ((), ())


def test_the_command_line_refuses_a_selection_that_matches_nothing() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["plan", str(SHOP), "--operation", "get_users"], out, err) == 1
    assert "`select` matches none of the 23 operations" in out.getvalue() + err.getvalue()


def test_content_types_are_checked() -> None:
    """S24.2: `content_types` takes `all` or `preferred`, nothing else."""
    with pytest.raises(
        ValueError, match="Select's content_types can't be 'prefered'; use 'all' or 'preferred'"
    ):
        Select(content_types="prefered")  # type: ignore[arg-type]


MULTI = {
    "openapi": "3.1.0",
    "paths": {
        "/things": {
            "post": {
                "operationId": "create",
                "requestBody": {
                    "content": {
                        "application/xml": {"schema": {"type": "object"}},
                        "multipart/form-data": {"schema": {"type": "object"}},
                        "application/x-www-form-urlencoded": {"schema": {"type": "object"}},
                        "application/json": {"schema": {"type": "object"}},
                    }
                },
            },
            "put": {
                "operationId": "replace",
                "requestBody": {
                    "content": {
                        "application/xml": {"schema": {"type": "object"}},
                        "text/csv": {"schema": {"type": "string"}},
                        "image/png": {"schema": {"type": "string", "format": "binary"}},
                    }
                },
            },
            "patch": {
                "operationId": "patch",
                "requestBody": {"content": {"application/xml": {"schema": {"type": "object"}}}},
            },
        }
    },
}


def test_preferred_content_types_plan_one_tool_per_operation() -> None:
    """S20.1: `content_types="preferred"`: one tool per operation for the type S17 sends best
    (JSON, form, multipart, then the first the document lists that can be sent), named
    without the S8.2 suffix; an operation none of whose types can be sent gets none."""
    default = plan_document(MULTI)
    assert [t.name for t in default.tools] == [
        "create_multipart_form-data",
        "create_application_x-www-form-urlencoded",
        "create_application_json",
        "replace_text_csv",
        "replace_image_png",
    ]
    preferred = plan_document(MULTI, select=Select(content_types="preferred"))
    assert [(t.name, t.content_type) for t in preferred.tools] == [
        ("create", "application/json"),
        ("replace", "text/csv"),
    ]
    (note,) = [d for d in preferred.diagnostics if d.level == "warning"]
    assert note.tool == "patch"
    assert "can't send a `application/xml` request body" in note.message


def test_the_command_line_takes_content_types(tmp_path: Path) -> None:
    spec = tmp_path / "multi.json"
    spec.write_text(json.dumps(MULTI), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["plan", str(spec), "--json", "--content-types", "preferred"], out, err) == 0
    assert [t["name"] for t in json.loads(out.getvalue())["tools"]] == ["create", "replace"]
    with pytest.raises(SystemExit) as caught:
        main(["plan", str(spec), "--content-types", "some"], io.StringIO(), err)
    assert caught.value.code == 2
