"""Write `tests/data/corpus/`: a few operations of real OpenAPI documents, each with every
component it reaches, so the corpus laws run on every clone (the whole documents are read
through `TOOLSHAPE_CORPUS`; tests/data/SOURCES.md names their origins and licences).

    python -m tests.data.make_slice FOLDER   # FOLDER: the eight documents of SOURCES.md

Operations are chosen by a seeded draw per document, smallest closures first, until the
document's share of the budget is spent; the output is deterministic for the same input.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

#: The documents sliced (their licences allow copying) and the bytes each may take.
BUDGET = {
    "stripe.json": 200_000,
    "github.json": 190_000,
    "openai.json": 170_000,
    "twilio-api-v2010.json": 120_000,
    "box.json": 120_000,
    "kubernetes-core-v1.json": 130_000,
}
#: Documents whose every response reaches most of the document (Stripe's `error` schema alone
#: reaches 720 KB): their operations keep each response's description only, not its content.
REQUESTS_ONLY = frozenset({"stripe.json"})
#: Operations a document's slice always holds (tests name them), before the seeded draw.
ALWAYS = {
    "stripe.json": [
        (path, "post")
        for path in (
            "/v1/customers",
            "/v1/products",
            "/v1/prices",
            "/v1/payment_intents",
            "/v1/subscriptions",
            "/v1/invoices",
            "/v1/checkout/sessions",
            "/v1/payment_links",
            "/v1/coupons",
            "/v1/customers/{customer}",
        )
    ],
    "github.json": [("/repos/{owner}/{repo}/issues", "post")],
    "kubernetes-core-v1.json": [("/api/v1/namespaces/{name}", "delete")],
}
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
OUT = Path(__file__).parent / "corpus"


def _refs(node: Any, found: set[str]) -> None:
    """Every local `$ref` (and discriminator mapping value) under `node`."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                found.add(ref)
            mapping = item.get("mapping")
            if isinstance(mapping, dict):
                found.update(
                    v for v in mapping.values() if isinstance(v, str) and v.startswith("#/")
                )
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _resolve(document: Any, ref: str) -> Any:
    node = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def closure(document: Any, start: Any) -> set[str]:
    """The top-level component pointers (`#/components/schemas/X`) `start` reaches."""
    seen: set[str] = set()
    pending: set[str] = set()
    _refs(start, pending)
    while pending:
        ref = pending.pop()
        parts = ref[2:].split("/")
        top = "#/" + "/".join(parts[:3])
        if top in seen:
            continue
        seen.add(top)
        _refs(_resolve(document, top), pending)
    return seen


def _without_content(operation: dict[str, Any]) -> dict[str, Any]:
    """`operation` with each response's description only (REQUESTS_ONLY)."""
    responses = {
        status: {"description": r.get("description", "")} if isinstance(r, dict) else r
        for status, r in operation.get("responses", {}).items()
    }
    return {**operation, "responses": responses}


def slice_document(
    document: dict[str, Any],
    budget: int,
    seed: str,
    *,
    requests_only: bool = False,
    always: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """`document` with the operations a seeded draw keeps within `budget` bytes."""
    if requests_only:
        document = {
            **document,
            "paths": {
                p: {m: _without_content(op) if m in METHODS else op for m, op in item.items()}
                for p, item in document["paths"].items()
            },
        }
    keys = [(p, m) for p, item in document["paths"].items() for m in item if m in METHODS]
    random.Random(seed).shuffle(keys)
    keys = [*(always or []), *(k for k in keys if k not in (always or []))]
    paths: dict[str, dict[str, Any]] = {}
    components: set[str] = set()
    size = 0
    for path, method in keys:
        item = document["paths"][path]
        wanted = {"parameters": item.get("parameters", []), method: item[method]}
        reached = closure(document, wanted) - components
        cost = len(json.dumps(wanted)) + sum(
            len(json.dumps(_resolve(document, r))) for r in reached
        )
        if size + cost > budget and (path, method) not in (always or []):
            continue
        size += cost
        components |= reached
        target = paths.setdefault(path, {})
        if "parameters" in item:
            target["parameters"] = item["parameters"]
        target[method] = item[method]
    out = {k: v for k, v in document.items() if k not in ("paths", "components")}
    out["paths"] = {p: paths[p] for p in document["paths"] if p in paths}
    kept: dict[str, dict[str, Any]] = {}
    for section, entries in document.get("components", {}).items():
        if section == "securitySchemes":
            kept[section] = entries
            continue
        chosen = {n: e for n, e in entries.items() if f"#/components/{section}/{n}" in components}
        if chosen:
            kept[section] = chosen
    if kept:
        out["components"] = kept
    return out


def main(folder: str) -> None:
    OUT.mkdir(exist_ok=True)
    for name, budget in BUDGET.items():
        document = json.loads((Path(folder) / name).read_text(encoding="utf-8"))
        sliced = slice_document(
            document,
            budget,
            name,
            requests_only=name in REQUESTS_ONLY,
            always=ALWAYS.get(name),
        )
        text = json.dumps(sliced, ensure_ascii=False) + "\n"
        (OUT / name).write_text(text, encoding="utf-8")
        count = sum(len([m for m in item if m in METHODS]) for item in sliced["paths"].values())
        print(f"{name}: {count} operations, {len(text):,} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
