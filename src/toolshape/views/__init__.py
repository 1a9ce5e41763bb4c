"""Model tools (S22): a plan as the tool definition OpenAI, Anthropic or Gemini accepts as it
is, and calls made in that shape read back into the plan's own before `Plan.call` judges them."""

from toolshape.views._model_tool import ModelApi, model_tool
from toolshape.views._table import VIEWS, View, register_view, schema_views
from toolshape.views._tool import ModelTool

__all__ = ["VIEWS", "ModelApi", "ModelTool", "View", "model_tool", "register_view", "schema_views"]


def __dir__() -> list[str]:
    return __all__
