"""The plan as a value (S15): `Plan`, `PlanResult`, and the routing records they hold. It
imports the model only; plans files and the plan-data checks are `toolshape.plansfile`."""

from toolshape.plans._fields import PLAN_FORMAT, FixedArgument, ParameterRoute
from toolshape.plans._plan import Plan, PlanResult

__all__ = [
    "PLAN_FORMAT",
    "FixedArgument",
    "ParameterRoute",
    "Plan",
    "PlanResult",
]


def __dir__() -> list[str]:
    return __all__
