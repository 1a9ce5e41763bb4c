"""What toolshape and FastMCP advertise and send for the same operations (docs/comparison.md).

Run in the benchmark environment: .venv-bench/bin/python benchmarks/features.py
Facts only: each operation is planned by both libraries; the same flat call (every required
argument, one optional one, and one undeclared argument `extra_arg`) is sent through both.
"""

from __future__ import annotations

import logging
from typing import Any

import toolshape
from benchmarks.compare import BASE_URL, fastmcp_server, fastmcp_tool, load
from benchmarks.operations import OPERATIONS, call_names, document, flat_call, order, policy


def main() -> None:
    logging.disable(logging.WARNING)
    print(
        "| operation | library | outcome | required | additionalProperties | properties (order) | request for the same flat call |"
    )
    print("|---|---|---|---|---|---|---|")
    servers: dict[str, Any] = {}
    for label, name, method, path in OPERATIONS:
        result = toolshape.plan_document(document(name), style="flat")
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
