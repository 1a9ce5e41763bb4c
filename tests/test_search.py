"""S23.7: `toolshape.search(plans, query, limit)` ranks tools by the words of a query — name,
title, tags, path, description — purely; and S23.4's server URL is recorded with the plans."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolshape import dump_plans, load_plans, plan_document, search

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "servers": [{"url": "https://{env}.pets.example/v2", "variables": {"env": {"default": "api"}}}],
    "paths": {
        "/pets": {
            "get": {"operationId": "listPets", "summary": "List pets", "tags": ["pets"]},
            "post": {"operationId": "createPet", "summary": "Add a pet", "tags": ["pets"]},
        },
        "/owners/{id}/invoices": {
            "get": {
                "operationId": "getOwnerInvoices",
                "summary": "Invoices of an owner",
                "description": "Billing history, including refunds for pets.",
                "tags": ["billing"],
                "parameters": [{"name": "id", "in": "path", "required": True}],
            }
        },
        "/stores": {"get": {"operationId": "listStores", "tags": ["stores"]}},
    },
}


def names(query: str, limit: int = 10) -> list[str]:
    return [plan.name for plan in search(plan_document(DOCUMENT).tools, query, limit)]


def test_the_name_counts_most_then_title_tags_path_description() -> None:
    assert names("pets") == ["listPets", "createPet", "getOwnerInvoices"]
    assert names("invoice") == ["getOwnerInvoices"]  # the singular of `invoices`
    assert names("billing refunds") == ["getOwnerInvoices"]
    assert names("list") == ["listPets", "listStores"]


def test_words_are_split_and_case_is_ignored() -> None:
    assert names("OWNER") == ["getOwnerInvoices"]
    assert names("list_stores") == ["listStores", "listPets"]


def test_nothing_matches_and_limits() -> None:
    assert names("zebra") == []
    assert names("") == []
    assert names("pets", limit=1) == ["listPets"]
    assert names("pets", limit=0) == []


def test_tags_travel_with_the_plans() -> None:
    result = plan_document(DOCUMENT)
    loaded = load_plans(json.dumps(dump_plans(result)))
    assert [p.tags for p in loaded.tools] == [("pets",), ("pets",), ("billing",), ("stores",)]
    assert [p.name for p in search(loaded.tools, "billing")] == ["getOwnerInvoices"]


def test_the_first_server_url_is_recorded_with_its_defaults() -> None:
    """S23.4: the server URL the document names, its variables at their defaults; a plans
    file keeps it."""
    result = plan_document(DOCUMENT)
    assert result.server_url == "https://api.pets.example/v2"
    assert load_plans(json.dumps(dump_plans(result))).server_url == result.server_url
    assert plan_document({"openapi": "3.1.0", "paths": {}}).server_url is None
    swagger = {"swagger": "2.0", "host": "shop.example", "basePath": "/api", "paths": {}}
    assert plan_document(swagger).server_url == "https://shop.example"


SYNONYM_DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "paths": {
        "/contacts/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {}}],
            "delete": {"operationId": "contacts_remove", "summary": "Remove a contact"},
            "patch": {"operationId": "contacts_modify", "summary": "Modify a contact"},
            "get": {"operationId": "contacts_fetch", "summary": "Fetch a contact"},
        },
        "/contacts": {
            "post": {"operationId": "contacts_new", "summary": "New contact"},
            "get": {"operationId": "contacts_all", "summary": "All contacts"},
        },
        "/companies": {"get": {"operationId": "companies_all", "summary": "All companies"}},
    },
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("delete contact", "contacts_remove"),
        ("update contacts", "contacts_modify"),
        ("edit a contact", "contacts_modify"),
        ("get contact", "contacts_fetch"),
        ("retrieve contact", "contacts_fetch"),
        ("create contact", "contacts_new"),
        ("add contacts", "contacts_new"),
        ("list contacts", "contacts_all"),
        ("search companies", "companies_all"),
        ("company", "companies_all"),
    ],
)
def test_synonyms_and_plurals_find_the_tool(query: str, first: str) -> None:
    """S27.7: BM25 over the tools' words, singular and plural alike, with the synonym table
    (delete/remove, create/add/new, update/modify/edit, list/all/search, get/fetch/retrieve):
    "delete contact" finds `contacts_remove` first (it found nothing)."""
    tools = plan_document(SYNONYM_DOCUMENT).tools
    assert search(tools, query)[0].name == first
