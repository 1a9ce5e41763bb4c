"""A toy model view, as a new model API's view is written: one module and one row.

Its definition is `{"tool": name, "arguments": schema}`, its input schema the plan's with every
description dropped (and nothing to read back). Registering it is the only change it needs:
`model_tool(plan, "toy")`, `toolshape plan --json --schema-view toy-view` and `toolshape serve
--schema-view toy-view` then take it (tests/test_model_tools.py).
"""

from __future__ import annotations

from typing import Any

from toolshape import Plan
from toolshape.views import ModelTool, View, register_view


def _plain(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _plain(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_plain(item) for item in schema]
    return schema


def toy_tool(plan: Plan) -> ModelTool:
    """The toy API's tool: the plan's schema without descriptions."""
    parameters = _plain(plan.input_schema)
    definition = {"tool": plan.name, "arguments": parameters}
    return ModelTool(plan, "toy", definition, False, (), parameters)


TOY = View("toy", toy_tool, schema_view="toy-view")


def register() -> None:
    """Add the toy view to the table (once per process)."""
    from toolshape.views import VIEWS

    if "toy" not in VIEWS:
        register_view(TOY)
