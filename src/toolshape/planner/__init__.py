"""The planner (S2, S8, S9, S16, S18.4): every tool of a document, the steps tied together."""

from toolshape.planner._api import plan_document, plan_operation
from toolshape.planner._settings import PlanKeywords, PlanSettings

__all__ = [
    "PlanKeywords",
    "PlanSettings",
    "plan_document",
    "plan_operation",
]


def __dir__() -> list[str]:
    return __all__
