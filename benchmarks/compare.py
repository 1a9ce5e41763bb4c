"""toolshape beside FastMCP's OpenAPI provider and the floor, on the same inputs, in one run.

Needs the benchmark environment (FastMCP is never a dependency of toolshape):
    python -m venv .venv-bench
    .venv-bench/bin/pip install -e . -r benchmarks/requirements.txt
    .venv-bench/bin/python -m benchmarks.compare [--runs 3]
(`benchmarks/run` does exactly this.)

Planning: each corpus document in a process of its own, median of --runs: `json.loads` (the
floor), toolshape `plan_document` (flat under `legacy`, so every operation yields a tool; and
flat under the default profile), FastMCP `from_openapi` plus listing its tools.
Per call: toolshape `Plan.call` (validate + route), FastMCP `RequestDirector.build` (routing
only, no validation) and a bare precompiled jsonschema validator (the floor), same arguments.
Memory: peak RSS of a process that plans all eight documents, per library.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.timing import CORPUS, median, ratio, rounds

HERE = Path(__file__).resolve().parent
BASE_URL = "http://upstream.test"


def fastmcp_server(document: Any) -> Any:
    """FastMCP's server for `document`, its tools listed (where input schemas exist)."""
    import httpx2
    from fastmcp import FastMCP

    server = FastMCP.from_openapi(document, client=httpx2.AsyncClient(base_url=BASE_URL))
    asyncio.run(server.list_tools())
    return server


def fastmcp_tool(server: Any, method: str, path: str) -> Any:
    """FastMCP's tool for one operation, found by method and path (it names tools its own way)."""
    from fastmcp.server.providers.openapi import OpenAPIProvider

    for provider in server.providers:
        if isinstance(provider, OpenAPIProvider):
            for tool in provider._tools.values():
                if (tool._route.method.upper(), tool._route.path) == (method.upper(), path):
                    return tool
    raise LookupError(f"{method} {path}")


def worker_plan(path: Path, runs: int) -> dict[str, Any]:
    """One document's planning times, interleaved round by round (collector on): `json.loads`,
    toolshape under `legacy` and by default, FastMCP; and FastMCP against toolshape's default,
    the median of each round's own ratio."""
    import toolshape

    text = path.read_text(encoding="utf-8")
    document = json.loads(text)
    out: dict[str, Any] = {"document": path.stem}
    out["tools"] = len(toolshape.plan_document(document, style="flat", profile="legacy").tools)
    runners: dict[str, Callable[[], object]] = {
        "loads": partial(json.loads, text),
        "legacy": partial(toolshape.plan_document, document, style="flat", profile="legacy"),
        "default": partial(toolshape.plan_document, document, style="flat"),
        "fastmcp": partial(fastmcp_server, document),
    }
    try:
        fastmcp_server(document)
    except Exception as error:  # FastMCP refuses some documents; report it, don't hide it
        del runners["fastmcp"]
        out["fastmcp_error"] = f"{type(error).__name__}: {str(error)[:160]}"
    times = rounds(runners, 1, runs)
    out.update({label: statistics.median(seconds) for label, seconds in times.items()})
    out["ratio"] = ratio(times, "fastmcp", "default") if "fastmcp" in times else None
    out.setdefault("fastmcp", None)
    return out


CALLS: list[tuple[str, str, str, str, dict[str, Any]]] = [
    (
        "worked example",
        "example",
        "/stores/{storeId}/search",
        "post",
        {"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"},
    ),
    (
        "Stripe POST /v1/customers",
        "stripe",
        "/v1/customers",
        "post",
        {
            "email": "ada@example.com",
            "name": "Ada Lovelace",
            "metadata": {"plan": "pro"},
            "address": {"line1": "1 Main St", "city": "London", "country": "GB"},
        },
    ),
    (
        "GitHub POST /repos/{owner}/{repo}/issues",
        "github",
        "/repos/{owner}/{repo}/issues",
        "post",
        {"owner": "octo", "repo": "hello", "title": "Bug", "body": "It breaks", "labels": ["bug"]},
    ),
    (
        "Jira POST /rest/api/3/issue",
        "jira",
        "/rest/api/3/issue",
        "post",
        {"updateHistory": True, "fields": {"summary": "Bug"}, "update": {}},
    ),
]


def load(name: str) -> Any:
    if name == "example":
        import toolshape

        text = (Path(toolshape.__file__).parent / "data" / "example.openapi.json").read_text()
        document = json.loads(text)
        # FastMCP rejects the whole example document over the allOf body's
        # `unevaluatedProperties: false` (docs/comparison.md), so it gets the others only.
        document["paths"] = {
            k: v for k, v in document["paths"].items() if not k.endswith("/orders")
        }
        return document
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


def worker_calls(number: int) -> list[dict[str, Any]]:
    from jsonschema import validators

    import toolshape

    rows = []
    for label, name, path, method, arguments in CALLS:
        document = load(name)
        (plan,) = toolshape.plan_operation(document, path, method, style="flat")
        schema = plan.input_schema
        floor = validators.validator_for(schema)(schema)
        assert floor.is_valid(arguments), label
        plan.call(arguments)
        tool = fastmcp_tool(fastmcp_server(document), method, path)
        tool._director.build(tool._route, arguments, BASE_URL)

        def timed(run: Callable[[], object]) -> float:
            return median(run, number)

        rows.append(
            {
                "call": label,
                "floor": timed(partial(floor.is_valid, arguments)),
                "toolshape": timed(partial(plan.call, arguments)),
                "fastmcp": timed(partial(tool._director.build, tool._route, arguments, BASE_URL)),
            }
        )
    return rows


def worker_memory(library: str) -> dict[str, Any]:
    import toolshape

    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if library == "toolshape":
            toolshape.plan_document(document, style="flat", profile="legacy")
        else:
            # FastMCP refuses some documents; the memory it used until then still counts.
            with contextlib.suppress(Exception):
                fastmcp_server(document)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"library": library, "peak_mib": peak_kib / 1024}


def spawn(*args: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", "--worker", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE.parent,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--number", type=int, default=500)
    parser.add_argument("--worker", nargs="*")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if args.worker:
        kind, *rest = args.worker
        if kind == "plan":
            print(json.dumps(worker_plan(Path(rest[0]), int(rest[1]))))
        elif kind == "calls":
            print(json.dumps(worker_calls(int(rest[0]))))
        else:
            print(json.dumps(worker_memory(rest[0])))
        return

    print(
        f"Planning (median of {args.runs} interleaved rounds, seconds; each document in its own"
        " process; the ratio is each round's FastMCP / toolshape default, their median)\n"
    )
    print(
        "| document | tools | json.loads | toolshape legacy flat | toolshape default flat | FastMCP | FastMCP / toolshape default |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = {"loads": 0.0, "legacy": 0.0, "default": 0.0, "fastmcp": 0.0}
    for path in sorted(CORPUS.glob("*.json")):
        row = spawn("plan", str(path), str(args.runs))
        for key in totals:
            totals[key] += row[key] or 0.0
        fast = (
            f"{row['fastmcp']:.3f}"
            if row["fastmcp"] is not None
            else f"refused ({row['fastmcp_error']})"
        )
        times = f"{row['ratio']:.1f}x" if row["ratio"] is not None else "-"
        print(
            f"| {row['document']} | {row['tools']} | {row['loads']:.3f} | {row['legacy']:.3f} "
            f"| {row['default']:.3f} | {fast} | {times} |"
        )
    print(
        f"| all eight | | {totals['loads']:.3f} | {totals['legacy']:.3f} | {totals['default']:.3f} "
        f"| {totals['fastmcp']:.3f} | {totals['fastmcp'] / totals['default']:.0f}x |"
    )

    print("\nPer call (median of 7 repeats, microseconds)\n")
    print(
        "| call | floor (bare validator) | toolshape Plan.call | FastMCP build | toolshape / floor | FastMCP / toolshape |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for row in spawn("calls", str(args.number)):
        print(
            f"| {row['call']} | {row['floor'] * 1e6:.1f} | {row['toolshape'] * 1e6:.1f} "
            f"| {row['fastmcp'] * 1e6:.1f} | {row['toolshape'] / row['floor']:.2f} "
            f"| {row['fastmcp'] / row['toolshape']:.2f} |"
        )

    print("\nPeak memory of a process that plans all eight documents\n")
    print("| library | peak RSS (MiB) |")
    print("|---|---:|")
    for library in ("toolshape", "fastmcp"):
        row = spawn("memory", library)
        print(f"| {row['library']} | {row['peak_mib']:.0f} |")


if __name__ == "__main__":
    main()
