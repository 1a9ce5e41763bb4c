"""S22.1, S22.6: the table of model views — each model API's tool, by name — from which
`model_tool`, `toolshape plan --schema-view` and `toolshape serve --schema-view` all take their
choices. A new view is one module (its `ModelTool` maker) and one row here, or one
`register_view` call; nothing else names the views.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from toolshape.model._json import JsonObject
from toolshape.plans._plan import Plan
from toolshape.views._gemini import gemini_tool
from toolshape.views._inline import inlined
from toolshape.views._strict import openai_tool
from toolshape.views._tool import ANTHROPIC_KEY, ModelTool

#: S22.6: the view a server advertises when none is asked for: the plan's own input schema.
MCP = "mcp"


@dataclass(frozen=True, slots=True)
class View:
    """One model API's tool definition, as a row of the table."""

    api: str
    """The name `model_tool` takes (`openai`)."""
    make: Callable[[Plan], ModelTool]
    """The tool of a plan, its `api` set to this row's."""
    schema_view: str | None = None
    """The name `--schema-view` takes (`openai-strict`), when a server can advertise the view's
    input schema; None when it is the plan's own (Anthropic's)."""
    keys: re.Pattern[str] | None = None
    """S22.1: the rule every property key must follow, at any depth, when the API has one."""


def inline_tool(tool: ModelTool) -> ModelTool:
    """S25.3: `tool` with every reference in its input schema inlined (its cuts read back
    first); its `strict` kept only when every input cut is typed."""
    parameters, read, reasons, untyped = inlined(tool.parameters)
    definition: JsonObject = _replaced(tool.definition, tool.parameters, parameters)
    strict = tool.strict and not untyped
    if tool.strict and untyped:
        reasons = (*reasons, "/: a cut inlined as any value (strict mode needs every type)")
    function = definition.get("function")
    if isinstance(function, dict) and "strict" in function:
        function["strict"] = strict
    output = tool.plan.output_schema
    listed = inlined(output, output=True)[0] if output is not None else None
    return dataclasses.replace(
        tool,
        definition=definition,
        parameters=parameters,
        strict=strict,
        reasons=(*tool.reasons, *reasons),
        inlined=read,
        output_schema=listed,
    )


def _replaced(value: JsonObject, old: object, new: JsonObject) -> JsonObject:
    """`value` with the object that is `old` (by identity) replaced by `new`, the objects
    holding it copied."""
    if value is old:
        return new
    return {k: _replaced(v, old, new) if isinstance(v, dict) else v for k, v in value.items()}


def _mcp_tool(plan: Plan) -> ModelTool:
    """S22.6: the MCP view: the plan's own tool (what `inline` inlines, S25.3)."""
    tool = plan.to_mcp_tool()
    return ModelTool(plan, "mcp", tool, False, (), tool["inputSchema"])


def _anthropic_tool(plan: Plan) -> ModelTool:
    """S22.4: Anthropic's tool: the plan's input schema as it is."""
    schema = plan.input_schema
    definition = {"name": plan.name, "description": plan.description, "input_schema": schema}
    return ModelTool(plan, "anthropic", definition, False, (), schema)


VIEWS: dict[str, View] = {
    view.api: view
    for view in (
        View("openai", openai_tool, schema_view="openai-strict"),
        View("anthropic", _anthropic_tool, keys=ANTHROPIC_KEY),
        View("gemini", gemini_tool, schema_view="gemini"),
        View("inline", lambda plan: inline_tool(_mcp_tool(plan)), schema_view="inline"),
    )
}
"""Every model view, by its API's name (`register_view` adds one)."""


def register_view(view: View) -> None:
    """Add `view` to the table: `model_tool(plan, view.api)` makes its tools, and with a
    `schema_view`, `--schema-view` serves its input schemas.

    Raises:
        ValueError: its API or schema view name is taken.
    """
    if view.api in VIEWS or (view.schema_view is not None and view.schema_view in schema_views()):
        raise ValueError(f"a view named {view.api!r} (or {view.schema_view!r}) is registered")
    VIEWS[view.api] = view


def schema_views() -> tuple[str, ...]:
    """S22.6: the names `--schema-view` takes: `mcp`, then each view's, in the table's order."""
    return (MCP, *(v.schema_view for v in VIEWS.values() if v.schema_view is not None))


def view_of(schema_view: str, *, inline: bool = False) -> View | None:
    """The view `--schema-view` names (None for `mcp`; with `inline`, `--inline-refs`, the
    `inline` view: the MCP view, inlined, S25.3).

    Raises:
        ValueError: no view has that name.
    """
    if schema_view == MCP:
        return VIEWS["inline"] if inline else None
    for view in VIEWS.values():
        if view.schema_view == schema_view:
            return view
    raise ValueError(f"schema view can't be {schema_view!r}; use {', '.join(schema_views())}")
