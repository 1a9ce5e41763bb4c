"""Calling (S12, S13, S16.4, S17, S18): a plan's arguments read, judged and routed into a
request, its bytes, and the answer as an MCP result."""

from toolshape.call._mcp import error_result
from toolshape.call._reading import pick_reading
from toolshape.call._route import Router, route_args

__all__ = [
    "Router",
    "error_result",
    "pick_reading",
    "route_args",
]


def __dir__() -> list[str]:
    return __all__
