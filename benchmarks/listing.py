"""`tools/list` in bytes per corpus API (S25.1, S25.2): `toolshape serve`'s defaults beside
FastMCP's OpenAPI server on the same documents, and the model-visible part of each tool.

Run: python -m benchmarks.listing   (the benchmark environment: FastMCP is never a dependency)

For each document: toolshape's listing (serve's preset: flat, collisions renamed, bodies that
can't flatten nested; an 8 KiB output-schema budget; 4 MiB pages), its pages, and its bytes
as the client receives them (each tool's JSON); then FastMCP's listing of the same document
counted the same way. "Model-visible" is a tool's name, description and input schema (what a
model API is sent), in bytes: no tokenizer installs from the package index with its data.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import mcp_types as types
from mcp import Client

import toolshape
from benchmarks.compare import BASE_URL
from benchmarks.plan_corpus import corpus_paths
from toolshape.server import Api, build_server

SERVE = toolshape.Options.preset(on_collision="rename", on_unflattenable="nested")


def tool_bytes(tool: types.Tool) -> tuple[int, int]:
    """A listed tool's bytes in all, and its model-visible bytes (name, description, input)."""
    data = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    seen = {key: data[key] for key in ("name", "description", "inputSchema") if key in data}
    return len(json.dumps(data).encode()), len(json.dumps(seen).encode())


def ours(document: Any) -> tuple[int, list[types.Tool]]:
    """toolshape serve's pages and tools for `document`."""
    plans = toolshape.plan_document(document, style="flat", options=SERVE).tools
    api = Api(plans, base_url=BASE_URL)

    async def run() -> tuple[int, list[types.Tool]]:
        async with Client(build_server([api]), mode="legacy") as client:
            tools, pages, cursor = [], 0, None
            while True:
                page = await client.list_tools(cursor=cursor)
                tools.extend(page.tools)
                pages += 1
                cursor = page.next_cursor
                if cursor is None:
                    return pages, tools

    return anyio.run(run)


def theirs(document: Any) -> list[Any] | None:
    """FastMCP's tools for `document`, as MCP `Tool`s (None when it refuses the document)."""
    try:
        import httpx2
        from fastmcp import FastMCP

        server = FastMCP.from_openapi(document, client=httpx2.AsyncClient(base_url=BASE_URL))
        listed = asyncio.run(server.list_tools())
    except Exception:  # FastMCP refuses some documents; the row says so
        return None
    return [tool.to_mcp_tool() for tool in listed]


def main() -> None:
    print(f"{'document':<22}{'tools':>6}{'pages':>6}{'ours MB':>9}{'theirs MB':>10}"
          f"{'ours seen/tool':>15}{'theirs seen/tool':>17}")  # fmt: skip
    for path in corpus_paths():
        name, document = path.stem, json.loads(path.read_text(encoding="utf-8"))
        pages, tools = ours(document)
        sizes = [tool_bytes(t) for t in tools]
        listed = theirs(document)
        other = [tool_bytes(t) for t in listed] if listed is not None else []
        print(
            f"{name:<22}{len(tools):>6}{pages:>6}{sum(s for s, _ in sizes) / 1e6:>9.2f}"
            + (f"{sum(s for s, _ in other) / 1e6:>10.2f}" if listed is not None else f"{'-':>10}")
            + f"{sum(v for _, v in sizes) // max(len(sizes), 1):>15}"
            + (f"{sum(v for _, v in other) // max(len(other), 1):>17}" if other else f"{'-':>17}")
        )


if __name__ == "__main__":
    main()
