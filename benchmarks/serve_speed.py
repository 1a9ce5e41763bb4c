"""`toolshape serve` as a product (S23): calls per second over streamable HTTP beside FastMCP's
OpenAPI server on the same upstream and document, and start-up for the eight corpus APIs in
one server from plans files.

Run: python -m benchmarks.serve_speed [--calls N] [--rounds R] [--shapes 1x1,1x8,2x1,2x8]
     [--startup-rounds R] [--documents NAME ...] [--startup-only | --calls-only]

Calls: one upstream (Starlette under uvicorn, answering a fixed JSON object), one document;
`toolshape serve --transport http` and FastMCP's `from_openapi(...)` served by uvicorn, each its
own process (with one worker, FastMCP's own `run(transport="http")`; with two, uvicorn's workers
on FastMCP's stateless app, as toolshape's are); 1 or 8 `mcp` SDK clients per server making the
same tool calls, the servers taking turns round by round (interleaved, so the machine's load
falls on both). CPU per call is the server's whole process tree's (its workers included).
Start-up: every corpus document planned to a plans file first (not timed), then `toolshape
serve --config` over all of them: the time from starting the process to the first `tools/list`
page, the whole listing's time and bytes, and the server's resident memory after it; FastMCP's
server of the same documents (mounted in one, answering with JSON) to its first page; where
the time goes (importing the server, `load_plans`, `json.loads`, each in fresh processes); and
each corpus document as one API served from the document, toolshape and FastMCP in turns
(`--startup-rounds`).
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
def process(
    command: list[str], deadline: float = 60
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`command` (which takes `--port PORT` last) running until the block ends (its port open
    within `deadline` seconds)."""
    port = free_port()
    child = subprocess.Popen(
        [*command, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for(port, child, deadline)
        yield child, port
    finally:
        child.terminate()
        child.wait(timeout=15)


def wait_for(port: int, child: subprocess.Popen[bytes], deadline: float = 60) -> None:
    deadline = time.monotonic() + deadline
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


def _fastmcp_all(folder: str, base_url: str) -> Any:
    """Every corpus document's FastMCP OpenAPI server mounted in one, each under its name."""
    from fastmcp import FastMCP

    server = FastMCP("corpus")
    for spec in sorted(Path(folder).glob("*.json")):
        server.mount(_fastmcp(str(spec), base_url), namespace=_api_name(spec))
    return server


def _api_name(spec: Path) -> str:
    return "".join(c if c.isalnum() else "_" for c in spec.stem)


def fastmcp_app() -> Any:
    """FastMCP's server as one of uvicorn's workers: stateless, answering with JSON, as
    toolshape's workers are (a session must not need its first worker)."""
    spec, base_url = os.environ["FASTMCP_SPEC"], os.environ["FASTMCP_BASE"]
    server = _fastmcp_all(spec, base_url) if Path(spec).is_dir() else _fastmcp(spec, base_url)
    return server.http_app(stateless_http=True, json_response=True)


def fastmcp_main(
    port: int, spec: str, base_url: str, workers: int = 1, *, json_answers: bool = False
) -> None:
    """FastMCP's OpenAPI server for `spec` (a folder: every document in it, mounted) over
    streamable HTTP (a process of its own); with more than one worker or `json_answers`,
    uvicorn serves its stateless app that answers with JSON, as toolshape's server does (a
    listing larger than 1 MiB is then one JSON body, not a server-sent event the Python
    client refuses)."""
    if workers > 1 or json_answers:
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


@contextmanager
def first_page(command: list[str]) -> Iterator[tuple[float, int, int, int]]:
    """Seconds from starting `command` (which takes `--port PORT` last) to its first
    `tools/list` page, the page's tool count, and the process's pid and port (it runs until
    the block ends)."""
    from mcp import Client

    started = time.perf_counter()
    with process(command, deadline=300) as (child, port):

        async def listing() -> tuple[float, int]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                page = await client.list_tools()
                return time.perf_counter() - started, len(page.tools)

        seconds, count = anyio.run(listing)
        yield seconds, count, child.pid, port


def _toolshape_serve(*more: str) -> list[str]:
    return [sys.executable, "-m", "toolshape", "serve", *more, "--transport", "http",
            "--log-level", "warning"]  # fmt: skip


def _fastmcp_serve(spec: str) -> list[str]:
    return [sys.executable, "-m", "benchmarks.serve_speed", "--fastmcp-server", spec, _NOWHERE,
            "--json-answers"]  # fmt: skip


#: A base URL no call is made to (start-up makes none).
_NOWHERE = "http://127.0.0.1:9"


def startup(folder: Path) -> dict[str, Any]:
    """Every corpus document's plans file in one `toolshape serve --config`: start to first
    page, the whole listing, its bytes, and the server's memory; FastMCP's server of the same
    documents (mounted in one) beside it."""
    from mcp import Client

    tables = []
    for path in sorted(CORPUS.glob("*.json")):
        plans = folder / f"{path.stem}.plans.json"
        subprocess.run(
            [sys.executable, "-m", "toolshape", "plan", str(path), "--style", "flat",
             "--on-collision", "rename", "--on-unflattenable", "nested", "--out", str(plans)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
        tables.append(
            f'[[api]]\nname = "{_api_name(path)}"\nplans = "{plans}"\nbase_url = "{_NOWHERE}"\n'
        )
    config = folder / "all.toml"
    config.write_text("\n".join(tables), encoding="utf-8")
    with first_page(_toolshape_serve("--config", str(config))) as (first, tools_first, pid, port):

        async def listing() -> tuple[float, int, int]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                size, count, began, cursor = 0, 0, time.perf_counter(), None
                while True:
                    page = await client.list_tools(cursor=cursor)
                    size += sum(len(t.model_dump_json(by_alias=True)) for t in page.tools)
                    count += len(page.tools)
                    cursor = page.next_cursor
                    if cursor is None:
                        return time.perf_counter() - began, size, count

        whole, size, count = anyio.run(listing)
        rss = _rss_mib(pid)
    with first_page(_fastmcp_serve(str(CORPUS))) as (theirs, *_):
        pass
    return {
        "apis": len(tables),
        "tools": count,
        "first_page_s": first,
        "first_page_tools": tools_first,
        "fastmcp_first_page_s": theirs,
        "whole_listing_s": whole,
        "listing_mb": size / 1e6,
        "rss_mib": rss,
    }


def startup_per_document(rounds: int, names: list[str] | None) -> list[dict[str, Any]]:
    """One API from its document (each corpus document, or those `names` names): toolshape
    serve DOC and FastMCP's server of DOC, start to first page, median of `rounds` rounds
    taken in turns."""
    rows = []
    for path in sorted(CORPUS.glob("*.json")):
        if names and path.stem not in names:
            continue
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(rounds):
            for command, into in (
                (_toolshape_serve(str(path), "--base-url", _NOWHERE), ours),
                (_fastmcp_serve(str(path)), theirs),
            ):
                with first_page(command) as (seconds, *_):
                    into.append(seconds)
        rows.append(
            {
                "api": path.stem,
                "toolshape_s": statistics.median(ours),
                "fastmcp_s": statistics.median(theirs),
            }
        )
    return rows


def where_startup_goes(folder: Path, rounds: int) -> dict[str, float]:
    """The parts of the many-API start-up, each in a fresh process (median of `rounds`):
    importing the server, and reading every plans file in `folder` (`load_plans`, beside
    `json.loads` of the same bytes)."""
    files = sorted(str(p) for p in folder.glob("*.plans.json"))
    probe = (
        "import json, sys, time, pathlib\n"
        "t = time.perf_counter()\n"
        "import toolshape.server._run\n"
        "imported = time.perf_counter() - t\n"
        "from toolshape import load_plans\n"
        "data = [pathlib.Path(f).read_bytes() for f in sys.argv[1:]]\n"
        "t = time.perf_counter(); [json.loads(d) for d in data]; parsed = time.perf_counter() - t\n"
        "t = time.perf_counter(); [load_plans(d) for d in data]; loaded = time.perf_counter() - t\n"
        "print(imported, parsed, loaded)\n"
    )
    runs = [
        [float(x) for x in subprocess.run(
            [sys.executable, "-c", probe, *files], capture_output=True, text=True, check=True
        ).stdout.split()]
        for _ in range(rounds)
    ]  # fmt: skip
    imported, parsed, loaded = (statistics.median(r[i] for r in runs) for i in range(3))
    return {"import_s": imported, "json_loads_s": parsed, "load_plans_s": loaded}


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
    parser.add_argument("--startup-rounds", type=int, default=3)
    parser.add_argument(
        "--shapes", default="1x1,1x8,2x1,2x8", help="calls: WORKERSxCLIENTS, comma-separated"
    )
    parser.add_argument("--documents", nargs="*", help="one-API start-up: these documents only")
    parser.add_argument("--fastmcp-server", nargs=2, metavar=("SPEC", "BASE_URL"))
    parser.add_argument("--upstream", action="store_true")
    parser.add_argument("--port", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json-answers", action="store_true")
    args = parser.parse_args(argv)
    if args.fastmcp_server:
        spec, base_url = args.fastmcp_server
        fastmcp_main(args.port, spec, base_url, args.workers, json_answers=args.json_answers)
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
        for shape in args.shapes.split(","):
            workers, clients = (int(n) for n in shape.split("x"))
            f = compare_calls(args.calls, args.rounds, workers, clients)
            print(f"| {workers} | {clients} | {f['toolshape_calls_per_s']:.0f} | "
                  f"{f['fastmcp_calls_per_s']:.0f} | {f['ratio']:.2f}x | {f['toolshape_cpu_ms']:.2f} | "
                  f"{f['fastmcp_cpu_ms']:.2f} | {f['cpu_ratio']:.2f}x |")  # fmt: skip
    if not args.calls_only:
        with tempfile.TemporaryDirectory() as folder:
            f = startup(Path(folder))
            parts = where_startup_goes(Path(folder), args.rounds)
        print(
            f"start-up, {f['apis']} APIs ({f['tools']} tools) from plans files in one server: "
            f"first tools/list page ({f['first_page_tools']} tools) {f['first_page_s']:.2f} s "
            f"(goal: under 1 s); FastMCP's server of the same documents "
            f"{f['fastmcp_first_page_s']:.2f} s; whole listing {f['whole_listing_s']:.2f} s, "
            f"{f['listing_mb']:.1f} MB; resident memory {f['rss_mib']:.0f} MiB"
        )
        print(
            f"where it goes (fresh processes, median of {args.rounds}): importing the server "
            f"{parts['import_s']:.2f} s; load_plans of the {f['apis']} files {parts['load_plans_s']:.2f} s "
            f"(json.loads of them {parts['json_loads_s']:.2f} s)"
        )
        print(f"\nstart-up, one API from its document (median of {args.startup_rounds}; goal: "
              "under 1 s)")  # fmt: skip
        print("| API | toolshape first page s | FastMCP first page s | FastMCP / toolshape |")
        print("|---|---:|---:|---:|")
        for row in startup_per_document(args.startup_rounds, args.documents):
            print(f"| {row['api']} | {row['toolshape_s']:.2f} | {row['fastmcp_s']:.2f} | "
                  f"{row['fastmcp_s'] / row['toolshape_s']:.1f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
