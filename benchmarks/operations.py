"""The operations docs/comparison.md compares, and the one flat call every library gets for
each (shared by benchmarks/features.py and benchmarks/peers.py; no converter imported here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import toolshape
from benchmarks.timing import CORPUS

OPERATIONS: list[tuple[str, str, str, str]] = [
    ("worked example", "example", "post", "/stores/{storeId}/search"),
    ("GitHub: body property named `body`", "github", "post", "/repos/{owner}/{repo}/issues"),
    ("GitHub: open body", "github", "post", "/repos/{owner}/{repo}/git/trees"),
    ("GitHub: closed, nullable body", "github", "post", "/repos/{owner}/{repo}/hooks"),
    (
        "GitHub: nullable object body",
        "github",
        "put",
        "/repos/{owner}/{repo}/pulls/{pull_number}/update-branch",
    ),
    ("GitHub: root oneOf body", "github", "post", "/projects/columns/{column_id}/cards"),
    ("Stripe: closed form body", "stripe", "post", "/v1/customers"),
    ("Jira: path/body collision", "jira", "put", "/rest/api/3/application-properties/{id}"),
    (
        "Jira: body with no `type`",
        "jira",
        "put",
        "/rest/api/3/issue/{issueIdOrKey}/properties/{propertyKey}",
    ),
    (
        "Kubernetes: query/body collision",
        "kubernetes-core-v1",
        "delete",
        "/api/v1/namespaces/{namespace}/pods/{name}",
    ),
    (
        "Kubernetes: path/query collision",
        "kubernetes-core-v1",
        "get",
        "/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}",
    ),
    ("Box: root allOf body", "box", "post", "/sign_requests"),
    ("PagerDuty: header parameters", "pagerduty", "post", "/incidents"),
    (
        "Twilio: path/body collision",
        "twilio-api-v2010",
        "post",
        "/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json",
    ),
]


def sample(schema: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """A plain value of the schema's first declared type, required properties filled in."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < 8:
        schema, depth = defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), depth + 1
    if not isinstance(schema, dict):
        return "x"
    for key in ("allOf", "anyOf", "oneOf"):
        if schema.get(key):
            return sample(schema[key][0], defs, depth + 1)
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type", "object" if "properties" in schema else None)
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object" and depth < 6:
        props = schema.get("properties", {})
        return {n: sample(props.get(n, {}), defs, depth + 1) for n in schema.get("required", [])}
    plain: dict[Any, Any] = {
        "integer": 1,
        "number": 1.5,
        "boolean": True,
        "array": [],
        "object": {},
    }
    return plain.get(kind, "x")


def flat_call(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties", {})
    defs = schema.get("$defs", {})
    call = {name: sample(properties[name], defs) for name in schema.get("required", [])}
    optional = [n for n in properties if n not in call]
    if optional:
        call[optional[0]] = sample(properties[optional[0]], defs)
    call["extra_arg"] = "x"
    return call


def call_names(plans: list[toolshape.Plan]) -> set[str]:
    """The body properties toolshape hoisted (a property really named `body` among them)."""
    return {name for plan in plans for name in plan.body_properties}


def order(names: list[str]) -> str:
    shown = ", ".join(names[:6])
    return shown + (f" (+{len(names) - 6} more)" if len(names) > 6 else "")


def policy(schema: dict[str, Any]) -> str:
    return (
        json.dumps(schema["additionalProperties"]) if "additionalProperties" in schema else "absent"
    )


def document(name: str) -> Any:
    """The whole document an operation comes from: the bundled example, or a corpus document."""
    if name == "example":
        path = Path(toolshape.__file__).parent / "data" / "example.openapi.json"
    else:
        path = CORPUS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))
