"""Calling (S12, S13, S16.4, S17, S18): a plan's arguments read, judged and routed into a
request, its bytes, and the answer as an MCP result."""
