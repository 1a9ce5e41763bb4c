"""Plans files and plan data as files hold them (S15.1): the formats as JSON Schemas, writing
(`dump_plans`) and loading (`load_plans`, every problem named by its field). A layer above the
call engine: the typed `Plan` (`toolshape.plans`) is the value these read and write."""

from typing import TYPE_CHECKING

from toolshape.model._lazy import attach

if TYPE_CHECKING:  # the names as mypy sees them; at run time each loads on first use
    from toolshape.plansfile._file import PLANS_FORMAT, PLANS_SCHEMA, dump_plans, load_plans
    from toolshape.plansfile._format import PLAN_SCHEMA

__all__ = [
    "PLANS_FORMAT",
    "PLANS_SCHEMA",
    "PLAN_SCHEMA",
    "dump_plans",
    "load_plans",
]

_HOMES = {
    "PLANS_FORMAT": "toolshape.plansfile._file",
    "PLANS_SCHEMA": "toolshape.plansfile._file",
    "dump_plans": "toolshape.plansfile._file",
    "load_plans": "toolshape.plansfile._file",
    "PLAN_SCHEMA": "toolshape.plansfile._format",
}

__getattr__, __dir__ = attach(__name__, _HOMES, __all__)
