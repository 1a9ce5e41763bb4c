"""`toolshape.server`: the MCP server people run (`toolshape serve`, SPEC S23) and embed.

Install with `pip install 'toolshape[serve]'`. `build_server(apis)` returns an `mcp` SDK server
serving one or more `Api`s; `toolshape serve` runs it over stdio or streamable HTTP.

    import toolshape
    from toolshape.server import Api, build_server

    result = toolshape.plan_document(toolshape.load_document("openapi.yaml"), style="flat")
    server = build_server([Api(result.tools, base_url="https://api.example.com")])
"""

from toolshape.server._build import PAGE_BYTES, PAGE_SIZE, build_server, credential_of
from toolshape.server._profiles import CLIENT_NAMES, CLIENT_PROFILES, ClientProfile
from toolshape.server._upstream import MAX_DOWNLOAD_BYTES, MAX_RESPONSE_BYTES, TIMEOUT, Api

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
]


def __dir__() -> list[str]:
    return __all__
