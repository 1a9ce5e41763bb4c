"""`toolshape.server`: the MCP server people run (`toolshape serve`, SPEC S23) and embed.

Install with `pip install 'toolshape[serve]'`. `build_server(apis)` returns an `mcp` SDK server
serving one or more `Api`s; `toolshape serve` runs it over stdio or streamable HTTP.
`search` (S23.7, S27.7: what discovery answers with) needs no extra.

    import toolshape
    from toolshape.server import Api, build_server

    result = toolshape.plan_document(toolshape.load_document("openapi.yaml"), style="flat")
    server = build_server([Api(result.tools, base_url="https://api.example.com")])
"""

from typing import TYPE_CHECKING

from toolshape.model._lazy import attach

if TYPE_CHECKING:  # the names as mypy sees them; at run time each loads on first use
    from toolshape.server._build import build_server, credential_of
    from toolshape.server._limits import (
        MAX_DOWNLOAD_BYTES,
        MAX_RESPONSE_BYTES,
        PAGE_BYTES,
        PAGE_SIZE,
        TIMEOUT,
    )
    from toolshape.server._profiles import CLIENT_NAMES, CLIENT_PROFILES, ClientProfile
    from toolshape.server._search import search
    from toolshape.server._upstream import Api

__all__ = [
    "CLIENT_NAMES",
    "CLIENT_PROFILES",
    "MAX_DOWNLOAD_BYTES",
    "MAX_RESPONSE_BYTES",
    "PAGE_BYTES",
    "PAGE_SIZE",
    "TIMEOUT",
    "Api",
    "ClientProfile",
    "build_server",
    "credential_of",
    "search",
]

#: Search and the limits load without the `serve` extra; the rest with it, each when first
#: asked for.
_HOMES = {
    "PAGE_BYTES": "toolshape.server._limits",
    "PAGE_SIZE": "toolshape.server._limits",
    "build_server": "toolshape.server._build",
    "credential_of": "toolshape.server._build",
    "CLIENT_NAMES": "toolshape.server._profiles",
    "CLIENT_PROFILES": "toolshape.server._profiles",
    "ClientProfile": "toolshape.server._profiles",
    "search": "toolshape.server._search",
    "MAX_DOWNLOAD_BYTES": "toolshape.server._limits",
    "MAX_RESPONSE_BYTES": "toolshape.server._limits",
    "TIMEOUT": "toolshape.server._limits",
    "Api": "toolshape.server._upstream",
}

__getattr__, __dir__ = attach(__name__, _HOMES, __all__)
