"""Embedding toolshape's MCP server in a program of your own (install `toolshape[serve]`).

`toolshape serve` is the server to run; this is what it is built on, for a gateway that plans
its documents itself, adds headers of its own, or serves over a transport of its choosing.

Run (MCP over stdio): python -m examples.gateway SPEC BASE_URL
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import anyio
from mcp.server.stdio import stdio_server

import toolshape
from toolshape.server import Api, build_server


def main(argv: Sequence[str] | None = None) -> int:
    spec, base_url = (sys.argv[1:] if argv is None else argv)[:2]
    options = toolshape.Options.preset(on_collision="rename", on_unflattenable="nested")
    result = toolshape.plan_document(toolshape.load_document(spec), style="flat", options=options)
    for error in result.errors:  # stdout is the MCP stream: messages go to stderr
        print(f"not served: {error}", file=sys.stderr)
    api = Api(result.tools, base_url=base_url, headers={"user-agent": "example-gateway/1"})
    server = build_server([api])

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
