"""`tools/list` in bytes per corpus API (S25.1, S25.2): `toolshape serve`'s defaults beside
FastMCP's OpenAPI server on the same documents, and the model-visible part of each tool.

Run: python -m benchmarks.listing   (the benchmark environment: FastMCP is never a dependency)

For each document: toolshape's listing (serve's preset: flat, collisions renamed, bodies that
can't flatten nested; an 8 KiB output-schema budget; 4 MiB pages), its pages, and its bytes
as the client receives them (each tool's JSON); then FastMCP's listing of the same document
counted the same way. "Model-visible" is a tool's name, description and input schema (what a
model API is sent), in bytes; then, per view, in tokens of a real tokenizer: the BPE tokenizer
the `anthropic` package 0.34.2 ships with its data (`tokenizer.json`, read with Hugging Face
`tokenizers`), the one tokenizer on the package index that installs with its vocabulary.
Each view's model-visible part is what its API is sent: the MCP tool's name, description and
input schema (`mcp`, `inline`), the OpenAI function (`openai`, strict where it can be), the
Gemini function declaration (`gemini`); the views are planned with `portable_names` (names
those APIs accept).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
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


#: The views whose model-visible tokens are counted (S22.1, S25.3), by `model_tool`'s name.
VIEWS = ("inline", "openai", "gemini")


def tokenizer() -> Any:
    """The BPE tokenizer `anthropic` 0.34.2 ships with its vocabulary (the benchmark
    environment installs it)."""
    return importlib.import_module("anthropic._tokenizers").sync_get_tokenizer()


def tokens(counter: Any, value: Any) -> int:
    """The tokens of `value` as the JSON a model API is sent."""
    return len(counter.encode(json.dumps(value, ensure_ascii=False)).ids)


def seen(tool: types.Tool) -> dict[str, Any]:
    data = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {key: data[key] for key in ("name", "description", "inputSchema") if key in data}


def token_rows(counter: Any, document: Any, tools: list[types.Tool], listed: Any) -> list[int]:
    """Tokens per tool: the MCP listing, each of `VIEWS`, then FastMCP's (0: none)."""
    portable = dataclasses.replace(SERVE, portable_names=True)  # what the views' APIs take
    plans = toolshape.plan_document(document, style="flat", options=portable).tools
    row = [sum(tokens(counter, seen(t)) for t in tools) // max(len(tools), 1)]
    for view in VIEWS:
        made = [toolshape.model_tool(plan, view).definition for plan in plans]
        row.append(sum(tokens(counter, d) for d in made) // max(len(made), 1))
    theirs_ = [tokens(counter, seen(t)) for t in listed or []]
    row.append(sum(theirs_) // max(len(theirs_), 1))
    return row


def main() -> None:
    print(f"{'document':<22}{'tools':>6}{'pages':>6}{'ours MB':>9}{'theirs MB':>10}"
          f"{'ours seen/tool':>15}{'theirs seen/tool':>17}")  # fmt: skip
    counter, rows = tokenizer(), []
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
        rows.append((name, token_rows(counter, document, tools, listed)))
    print(f"\ntokens per tool (model-visible)\n{'document':<22}{'mcp':>8}"
          + "".join(f"{view:>8}" for view in VIEWS) + f"{'FastMCP':>9}")  # fmt: skip
    for name, row in rows:
        print(f"{name:<22}" + "".join(f"{n:>8}" for n in row[:-1]) + f"{row[-1] or '-':>9}")


if __name__ == "__main__":
    main()
