"""Runnable examples; `python -m examples.gateway` is the MCP gateway."""
