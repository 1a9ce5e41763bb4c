"""Plans as data (S15): `Plan`, `PlanResult`, the plan-data format and plans files."""

from typing import TYPE_CHECKING

from toolshape.model._lazy import attach

if TYPE_CHECKING:  # the names as mypy sees them; at run time each loads on first use
    from toolshape.plans._fields import PLAN_FORMAT, FixedArgument, ParameterRoute
    from toolshape.plans._file import PLANS_FORMAT, PLANS_SCHEMA, dump_plans, load_plans
    from toolshape.plans._format import PLAN_SCHEMA
    from toolshape.plans._plan import Plan, PlanResult

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
]

#: The plan value loads alone; the plans-file reader and its checks when first asked for.
_HOMES = {
    "PLAN_FORMAT": "toolshape.plans._fields",
    "FixedArgument": "toolshape.plans._fields",
    "ParameterRoute": "toolshape.plans._fields",
    "PLANS_FORMAT": "toolshape.plans._file",
    "PLANS_SCHEMA": "toolshape.plans._file",
    "dump_plans": "toolshape.plans._file",
    "load_plans": "toolshape.plans._file",
    "PLAN_SCHEMA": "toolshape.plans._format",
    "Plan": "toolshape.plans._plan",
    "PlanResult": "toolshape.plans._plan",
}

__getattr__, __dir__ = attach(__name__, _HOMES, __all__)
