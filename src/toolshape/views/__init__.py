"""Model tools (S22): a plan as the tool definition OpenAI, Anthropic or Gemini accepts as it
is, and calls made in that shape read back into the plan's own before `Plan.call` judges them."""

from toolshape.views._model_tool import ModelApi, ModelTool, model_tool

__all__ = ["ModelApi", "ModelTool", "model_tool"]


def __dir__() -> list[str]:
    return __all__
