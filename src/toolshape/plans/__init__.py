"""Plans as data (S15): `Plan`, `PlanResult`, the plan-data format and plans files."""

from toolshape.plans._fields import PLAN_FORMAT, FixedArgument, ParameterRoute
from toolshape.plans._file import PLANS_FORMAT, PLANS_SCHEMA, dump_plans, load_plans
from toolshape.plans._format import PLAN_SCHEMA
from toolshape.plans._plan import Plan, PlanResult
from toolshape.plans._search import search

__all__ = [
    "PLANS_FORMAT",
    "PLANS_SCHEMA",
    "PLAN_FORMAT",
    "PLAN_SCHEMA",
    "FixedArgument",
    "ParameterRoute",
    "Plan",
    "PlanResult",
    "dump_plans",
    "load_plans",
    "search",
]


def __dir__() -> list[str]:
    return __all__
