"""`toolshape serve` as a product (S23): calls per second over streamable HTTP beside FastMCP's
OpenAPI server on the same upstream and document, and start-up for the eight corpus APIs in
one server from plans files.

Run: python -m benchmarks.serve_speed [--calls N] [--rounds R] [--startup-only | --calls-only]

Calls: one upstream (Starlette under uvicorn, answering a fixed JSON object), one document;
`toolshape serve --transport http` and FastMCP's `from_openapi(...)` served by uvicorn, each its
own process (with one worker, FastMCP's own `run(transport="http")`; with two, uvicorn's workers
on FastMCP's stateless app, as toolshape's are); 1 or 8 `mcp` SDK clients per server making the
same tool calls, the servers taking turns round by round (interleaved, so the machine's load
falls on both). CPU per call is the server's whole process tree's (its workers included).
Start-up: every corpus document planned to a plans file first (not timed), then `toolshape
serve --config` over all of them: the time from starting the process to the first `tools/list`
page, the whole listing's time and bytes, and the server's resident memory after it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

from benchmarks.timing import CORPUS

ANSWER = {"id": "t1", "name": "a thing", "tags": ["a", "b"], "size": 3}


def document(base_url: str) -> dict[str, Any]:
    thing = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "size": {"type": "integer"},
        },
        "required": ["id", "name"],
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Things", "version": "1"},
        "servers": [{"url": base_url}],
        "paths": {
            "/things/{id}": {
                "get": {
                    "operationId": "getThing",
                    "parameters": [
                        {
                            "name": "id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
                    ],
                    "responses": {
                        "200": {
                            "description": "the thing",
                            "content": {"application/json": {"schema": thing}},
                        }
                    },
                }
            }
        },
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def upstream_main(port: int) -> None:
    """A fast JSON upstream (Starlette under uvicorn), in a process of its own."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def thing(_: Any) -> JSONResponse:
        return JSONResponse(ANSWER)

    app = Starlette(routes=[Route("/things/{id}", thing)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="critical", access_log=False)


@contextmanager
def upstream() -> Iterator[str]:
    """The upstream running in its own process: its base URL."""
    with process([sys.executable, "-m", "benchmarks.serve_speed", "--upstream"]) as (_, port):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def process(command: list[str]) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`command` (which takes `--port PORT` last) running until the block ends."""
    port = free_port()
    child = subprocess.Popen([*command, "--port", str(port)], stderr=subprocess.DEVNULL)
    try:
        wait_for(port, child)
        yield child, port
    finally:
        child.terminate()
        child.wait(timeout=15)


def wait_for(port: int, child: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        if child.poll() is not None:
            raise RuntimeError(f"{child.args!r} exited with {child.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def calls_per_second(
    url: str, pid: int, tool: str, calls: int, clients: int = 1
) -> tuple[float, float]:
    """`calls` tool calls through `clients` client sessions at once (each one after another):
    calls per second, and the server's CPU milliseconds per call (its process tree's)."""
    from contextlib import AsyncExitStack

    from mcp import Client

    async def run() -> tuple[float, float]:
        async with AsyncExitStack() as stack:
            sessions = [await stack.enter_async_context(Client(url)) for _ in range(clients)]
            for client in sessions:
                await client.call_tool(tool, {"id": "t1"})  # warm up

            async def some(client: Any, count: int) -> None:
                for i in range(count):
                    result = await client.call_tool(tool, {"id": f"t{i}", "verbose": True})
                    assert not result.is_error, result

            each = max(calls // clients, 1)
            cpu, started = _cpu_seconds(pid), time.perf_counter()
            async with anyio.create_task_group() as group:
                for client in sessions:
                    group.start_soon(some, client, each)
            wall, used = time.perf_counter() - started, _cpu_seconds(pid) - cpu
            made = each * clients
            return made / wall, used * 1000 / made

    return anyio.run(run)


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU time process `pid` and its children (workers) have used."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listed:
            children = [int(child) for child in listed.read().split()]
    except OSError:
        children = []
    return own + sum(_cpu_seconds(child) for child in children)


def _fastmcp(spec: str, base_url: str) -> Any:
    import httpx2
    from fastmcp import FastMCP

    with open(spec, encoding="utf-8") as handle:
        spec_data = json.load(handle)
    return FastMCP.from_openapi(spec_data, client=httpx2.AsyncClient(base_url=base_url))


def fastmcp_app() -> Any:
    """FastMCP's server as one of uvicorn's workers: stateless, answering with JSON, as
    toolshape's workers are (a session must not need its first worker)."""
    server = _fastmcp(os.environ["FASTMCP_SPEC"], os.environ["FASTMCP_BASE"])
    return server.http_app(stateless_http=True, json_response=True)


def fastmcp_main(port: int, spec: str, base_url: str, workers: int = 1) -> None:
    """FastMCP's OpenAPI server for `spec` over streamable HTTP (a process of its own)."""
    if workers > 1:
        import uvicorn

        os.environ["FASTMCP_SPEC"], os.environ["FASTMCP_BASE"] = spec, base_url
        uvicorn.run(
            "benchmarks.serve_speed:fastmcp_app",
            factory=True,
            host="127.0.0.1",
            port=port,
            workers=workers,
            log_level="critical",
            access_log=False,
        )
        return
    server = _fastmcp(spec, base_url)
    server.run(
        transport="http", host="127.0.0.1", port=port, log_level="critical", show_banner=False
    )


def compare_calls(calls: int, rounds: int, workers: int = 1, clients: int = 1) -> dict[str, Any]:
    """Calls per second: toolshape serve and FastMCP, each with `workers` worker processes and
    `clients` clients at once, interleaved round by round."""
    with upstream() as base, tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "things.json"
        spec.write_text(json.dumps(document(base)), encoding="utf-8")
        ours = [sys.executable, "-m", "toolshape", "serve", str(spec), "--transport", "http",
                "--log-level", "warning", "--workers", str(workers)]  # fmt: skip
        theirs = [sys.executable, "-m", "benchmarks.serve_speed", "--fastmcp-server", str(spec),
                  base, "--workers", str(workers)]  # fmt: skip
        with process(ours) as (our, our_port), process(theirs) as (their, their_port):
            runs = {
                "toolshape": (f"http://127.0.0.1:{our_port}/mcp", our.pid),
                "fastmcp": (f"http://127.0.0.1:{their_port}/mcp", their.pid),
            }
            figures: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
            for _ in range(rounds):
                for label, (url, pid) in runs.items():
                    figures[label].append(calls_per_second(url, pid, "getThing", calls, clients))
    ours_, theirs_ = figures["toolshape"], figures["fastmcp"]
    return {
        "toolshape_calls_per_s": statistics.median(f[0] for f in ours_),
        "fastmcp_calls_per_s": statistics.median(f[0] for f in theirs_),
        "ratio": statistics.median(a[0] / b[0] for a, b in zip(ours_, theirs_, strict=True)),
        "toolshape_cpu_ms": statistics.median(f[1] for f in ours_),
        "fastmcp_cpu_ms": statistics.median(f[1] for f in theirs_),
        # CPU is read in clock ticks (10 ms): a short run can show none; such rounds have no ratio
        "cpu_ratio": statistics.median(
            [b[1] / a[1] for a, b in zip(ours_, theirs_, strict=True) if a[1] > 0] or [math.nan]
        ),
    }


def startup(folder: Path) -> dict[str, Any]:
    """Every corpus document's plans file in one `toolshape serve --config`: start to first
    page, the whole listing, its bytes, and the server's memory."""
    from mcp import Client

    tables = []
    for path in sorted(CORPUS.glob("*.json")):
        plans = folder / f"{path.stem}.plans.json"
        subprocess.run(
            [sys.executable, "-m", "toolshape", "plan", str(path), "--style", "flat",
             "--on-collision", "rename", "--on-unflattenable", "nested", "--out", str(plans)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
        name = "".join(c if c.isalnum() else "_" for c in path.stem)
        tables.append(
            f'[[api]]\nname = "{name}"\nplans = "{plans}"\nbase_url = "http://127.0.0.1:9"\n'
        )
    config = folder / "all.toml"
    config.write_text("\n".join(tables), encoding="utf-8")
    port = free_port()
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "toolshape", "serve", "--config", str(config), "--transport", "http",
         "--port", str(port), "--log-level", "warning"],
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for(port, child)

        async def listing() -> tuple[float, float, int, int]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                page = await client.list_tools()
                first = time.perf_counter() - started
                size, count, began = 0, 0, time.perf_counter()
                while True:
                    size += sum(len(t.model_dump_json(by_alias=True)) for t in page.tools)
                    count += len(page.tools)
                    if page.next_cursor is None:
                        return first, time.perf_counter() - began, size, count
                    page = await client.list_tools(cursor=page.next_cursor)

        first, whole, size, count = anyio.run(listing)
        rss = _rss_mib(child.pid)
    finally:
        child.terminate()
        child.wait(timeout=15)
    return {
        "apis": len(tables),
        "tools": count,
        "first_page_s": first,
        "whole_listing_s": whole,
        "listing_mb": size / 1e6,
        "rss_mib": rss,
    }


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--startup-only", action="store_true")
    parser.add_argument("--calls-only", action="store_true")
    parser.add_argument("--fastmcp-server", nargs=2, metavar=("SPEC", "BASE_URL"))
    parser.add_argument("--upstream", action="store_true")
    parser.add_argument("--port", type=int)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if args.fastmcp_server:
        spec, base_url = args.fastmcp_server
        fastmcp_main(args.port, spec, base_url, workers=args.workers)
        return
    if args.upstream:
        upstream_main(args.port)
        return
    if not args.startup_only:
        print(f"calls over streamable HTTP, toolshape serve beside FastMCP ({args.calls} per "
              f"round, median of {args.rounds} rounds; goal: at least 2x FastMCP's calls per "
              "worker)")  # fmt: skip
        print("| workers | clients | toolshape calls/s | FastMCP calls/s | ratio | "
              "toolshape CPU ms/call | FastMCP CPU ms/call | less CPU |")  # fmt: skip
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for workers in (1, 2):
            for clients in (1, 8):
                f = compare_calls(args.calls, args.rounds, workers, clients)
                print(f"| {workers} | {clients} | {f['toolshape_calls_per_s']:.0f} | "
                      f"{f['fastmcp_calls_per_s']:.0f} | {f['ratio']:.2f}x | {f['toolshape_cpu_ms']:.2f} | "
                      f"{f['fastmcp_cpu_ms']:.2f} | {f['cpu_ratio']:.2f}x |")  # fmt: skip
    if not args.calls_only:
        with tempfile.TemporaryDirectory() as folder:
            figures = startup(Path(folder))
        print(
            f"start-up, {figures['apis']} APIs ({figures['tools']} tools) from plans files: first "
            f"tools/list page {figures['first_page_s']:.2f} s (goal: under 1 s); whole listing "
            f"{figures['whole_listing_s']:.2f} s, {figures['listing_mb']:.1f} MB; resident memory "
            f"{figures['rss_mib']:.0f} MiB"
        )


if __name__ == "__main__":
    main()
