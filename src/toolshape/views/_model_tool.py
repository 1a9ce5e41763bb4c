"""S22.1: a plan as the tool definition one model API accepts as it is — OpenAI (strict when it
can be), Anthropic, Gemini, or a view registered beside them — and calls made in that
definition's shape read back into the plan's own before `Plan.call` judges them (S22.3: never
looser than the document).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from toolshape.plans._plan import Plan
from toolshape.views._read import SAME
from toolshape.views._table import VIEWS, inline_tool
from toolshape.views._tool import ModelTool, check_names

ModelApi: TypeAlias = Literal["openai", "anthropic", "gemini"]
"""The model APIs toolshape has views for; `register_view` adds more by name."""


def model_tool(plan: Plan, api: ModelApi | str, *, inline_refs: bool = False) -> ModelTool:
    """S22.1: `plan` as the tool `api` (`"openai"`, `"anthropic"`, `"gemini"`, `"inline"` or
    a registered view's name) accepts; with `inline_refs`, with no `$ref` and no `$defs`
    anywhere in its schemas (S25.3).

    Raises:
        ViewError: a name the API's rules refuse, located by its JSON pointer.
        ValueError: no view has that name.
    """
    view = VIEWS.get(api)
    if view is None:
        names = ", ".join(repr(name) for name in VIEWS)
        raise ValueError(f"api can't be {api!r}; use one of {names}")
    check_names(plan, api, view.keys)
    tool = view.make(plan)
    return inline_tool(tool) if inline_refs and tool.inlined is SAME and api != "inline" else tool
