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
        "putSettings_application_json",
        "putSettings_text_plain",
    ]
    assert planned("--operation", "health", "--operation", "search") == ["health", "search"]
    assert len(planned("--exclude-tag", "products")) == ALL + 1 - 9  # putSettings: two tools
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["call", str(SHOP), "health", "{}", "--tag", "orders"], out, err
    )  # health is left out: no such tool
    assert code == 2
    assert "no tool named 'health'" in err.getvalue()
