"""S13.6: an argument error as the MCP answer for the client's protocol version."""

from __future__ import annotations

from toolshape.model._errors import ArgumentError, ToolshapeError
from toolshape.model._types import Json, JsonObject

#: S13.6: from this protocol version on, argument errors are tool results with `isError`.
TOOL_RESULT_SINCE = "2025-11-25"

INVALID_PARAMS = -32602
"""The JSON-RPC error code of an argument error before `2025-11-25`."""


def error_result(error: ArgumentError, protocol_version: str | None = None) -> JsonObject:
    """The MCP answer to a rejected call, as plain data (S13.6).

    For protocol version `2025-11-25` or later (and when the version is not known, `None`: the
    current protocol's answer): a tool result
    `{"content": [{"type": "text", "text": message}], "isError": true}` and nothing else
    (S25.8: no `structuredContent`). Before it: a JSON-RPC
    error object `{"code": -32602, "message": message, "data": {...}}`. Versions are compared
    as the `YYYY-MM-DD` strings MCP uses.

    Raises:
        ToolshapeError: `error` is not an `ArgumentError`, or the version is not a string.
    """
    if not isinstance(error, ArgumentError):
        raise ToolshapeError(
            f"error_result answers an ArgumentError, not {type(error).__name__}: other errors "
            "are the gateway's, not the model's"
        )
    if protocol_version is not None and not isinstance(protocol_version, str):
        raise ToolshapeError(
            f"protocol_version must be an MCP version string such as '2025-11-25' (or None), "
            f"not {protocol_version!r}"
        )
    details: list[Json] = [
        {"path": e.path, "keyword": e.keyword, "message": e.message} for e in error.errors
    ]
    if protocol_version is None or protocol_version >= TOOL_RESULT_SINCE:
        # S25.8: text only — a client refuses an error whose `structuredContent` breaks the
        # tool's output schema, and the model would never see the message.
        return {"content": [{"type": "text", "text": error.message}], "isError": True}
    return {
        "code": INVALID_PARAMS,
        "message": error.message,
        "data": {"tool": error.tool, "errors": details},
    }
