"""What toolshape and FastMCP advertise and send for the same operations (docs/comparison.md).

Run in the benchmark environment: .venv-bench/bin/python benchmarks/features.py
Facts only: each operation is planned by both libraries; the same flat call (every required
argument, one optional one, and one undeclared argument `extra_arg`) is sent through both.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import toolshape
from benchmarks.compare import BASE_URL, fastmcp_server, fastmcp_tool, load

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


def main() -> None:
    logging.disable(logging.WARNING)
    print(
        "| operation | library | outcome | required | additionalProperties | properties (order) | request for the same flat call |"
    )
    print("|---|---|---|---|---|---|---|")
    servers: dict[str, Any] = {}
    for label, name, method, path in OPERATIONS:
        document = (
            load(name)
            if name != "example"
            else json.loads(
                (Path(toolshape.__file__).parent / "data" / "example.openapi.json").read_text()
            )
        )
        result = toolshape.plan_document(document, style="flat")
        mine = [t for t in result.tools if (t.method, t.path) == (method.upper(), path)]
        errors = [
            e
            for e in result.errors
            if e.location
            and e.location.endswith(f"/{method}")
            and path.replace("/", "~1") in e.location
        ]
        call: dict[str, Any] = {}
        if mine:
            schema = mine[0].input_schema
            call = flat_call(schema)
            try:
                request = mine[0].call(call)
                _, encoded = request.encode()  # the bytes on the wire (S17), as a gateway sends
                body = (encoded or b"").decode(errors="replace")[:100] or "-"
                sent = f"`{request.method} {request.url}` body `{body}`"
            except toolshape.ArgumentError as error:
                sent = f"rejected: {error.message}"
            row: tuple[str, ...] = (
                mine[0].style,
                str(schema.get("required")),
                policy(schema),
                order(list(schema["properties"])),
                sent,
            )
        else:
            reason = errors[0].reason.split(". ")[0] if errors else "?"
            row = (f"error ({errors[0].rule if errors else '?'}): {reason}", "-", "-", "-", "-")
        print(f"| {label} | toolshape | {row[0]} | {row[1]} | {row[2]} | {row[3]} | {row[4]} |")
        try:
            if name not in servers:
                servers[name] = fastmcp_server(load(name))
            tool = fastmcp_tool(servers[name], method, path)
        except Exception as error:  # FastMCP refuses some documents or operations: a fact to record
            print(
                f"| {label} | FastMCP | refused: {type(error).__name__}: {str(error)[:120]} | - | - | - | - |"
            )
            continue
        parameters = tool.parameters
        renamed = [p for p in parameters.get("properties", {}) if "__" in p]
        if not call:
            call = flat_call(parameters)
        try:
            built = tool._director.build(tool._route, call, BASE_URL)
            body = built.content.decode()[:100] or "-"
            sent = f"`{built.method} {built.url.raw_path.decode()}` body `{body[:120]}`"
        except Exception as error:
            sent = f"failed: {type(error).__name__}: {str(error)[:100]}"
        wrapped = "body" in parameters.get("properties", {}) and "body" not in call_names(mine)
        outcome = ("wrapped under `body`" if wrapped else "flat") + (
            f", renamed {renamed}" if renamed else ""
        )
        print(
            f"| {label} | FastMCP | {outcome} | {parameters.get('required', [])} | {policy(parameters)} "
            f"| {order(list(parameters.get('properties', {})))} | {sent} |"
        )


if __name__ == "__main__":
    main()
