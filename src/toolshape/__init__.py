"""toolshape: OpenAPI operations as MCP tool input schemas, nested or flat, and back.

Plan once (`plan_document`, `plan_operation`), then serve calls from the plans. The stages are
packages — `read`, `flatten`, `call`, `plans`, `planner` (and `model`, `schema` below them) —
and every public name is here.
"""

from typing import TYPE_CHECKING, Any

from toolshape.model._lazy import attach
from toolshape.plans._plan import Plan

if TYPE_CHECKING:  # the names as mypy sees them; at run time each loads on first use
    from toolshape._load import load_document
    from toolshape.call._mcp import error_result
    from toolshape.call._reading import pick_reading
    from toolshape.call._request import NO_BODY, Request
    from toolshape.call._route import Router, route_args
    from toolshape.flatten._allof import merge_allof
    from toolshape.flatten._collide import Collision, detect_collision
    from toolshape.flatten._hoist import hoist_body
    from toolshape.flatten._policy import KeyPolicy, apply_key_policy
    from toolshape.model._errors import (
        ArgumentError,
        ArgumentIssue,
        CredentialError,
        DocumentError,
        EncodeError,
        HeaderError,
        PlanDataError,
        PlanError,
        PlanErrorKind,
        SettingsError,
        ToolshapeError,
        ViewError,
    )
    from toolshape.model._options import PROFILES, Options, Profile
    from toolshape.model._types import (
        BodyEncoding,
        BodyShape,
        Channel,
        Diagnostic,
        Hoisted,
        Level,
        ParamStyle,
        Reading,
        SecurityKind,
        SecurityScheme,
        Style,
        Wrapped,
    )
    from toolshape.model._version import __version__
    from toolshape.planner._api import plan_document, plan_operation
    from toolshape.planner._settings import PlanKeywords, PlanSettings
    from toolshape.plans._fields import PLAN_FORMAT
    from toolshape.plans._plan import FixedArgument, ParameterRoute, Plan, PlanResult
    from toolshape.plansfile._file import PLANS_FORMAT, PLANS_SCHEMA, dump_plans, load_plans
    from toolshape.plansfile._format import PLAN_SCHEMA
    from toolshape.read._select import Select
    from toolshape.server._search import search
    from toolshape.views._model_tool import ModelApi, model_tool
    from toolshape.views._tool import ModelTool

#: Where each public name lives: its module is imported when the name is first used, so
#: `import toolshape.flatten` loads no validator and no third-party package (DESIGN turn 4).
_HOMES = {
    "load_document": "toolshape._load",
    "error_result": "toolshape.call._mcp",
    "pick_reading": "toolshape.call._reading",
    "Router": "toolshape.call._route",
    "route_args": "toolshape.call._route",
    "merge_allof": "toolshape.flatten._allof",
    "Collision": "toolshape.flatten._collide",
    "detect_collision": "toolshape.flatten._collide",
    "hoist_body": "toolshape.flatten._hoist",
    "KeyPolicy": "toolshape.flatten._policy",
    "apply_key_policy": "toolshape.flatten._policy",
    "ArgumentError": "toolshape.model._errors",
    "ArgumentIssue": "toolshape.model._errors",
    "CredentialError": "toolshape.model._errors",
    "DocumentError": "toolshape.model._errors",
    "EncodeError": "toolshape.model._errors",
    "HeaderError": "toolshape.model._errors",
    "PlanDataError": "toolshape.model._errors",
    "PlanError": "toolshape.model._errors",
    "PlanErrorKind": "toolshape.model._errors",
    "SettingsError": "toolshape.model._errors",
    "ToolshapeError": "toolshape.model._errors",
    "ViewError": "toolshape.model._errors",
    "PROFILES": "toolshape.model._options",
    "Options": "toolshape.model._options",
    "Profile": "toolshape.model._options",
    "NO_BODY": "toolshape.call._request",
    "BodyEncoding": "toolshape.model._types",
    "BodyShape": "toolshape.model._types",
    "Channel": "toolshape.model._types",
    "Diagnostic": "toolshape.model._types",
    "Hoisted": "toolshape.model._types",
    "Level": "toolshape.model._types",
    "ParamStyle": "toolshape.model._types",
    "Reading": "toolshape.model._types",
    "Request": "toolshape.call._request",
    "SecurityKind": "toolshape.model._types",
    "SecurityScheme": "toolshape.model._types",
    "Style": "toolshape.model._types",
    "Wrapped": "toolshape.model._types",
    "__version__": "toolshape.model._version",
    "PlanKeywords": "toolshape.planner._settings",
    "PlanSettings": "toolshape.planner._settings",
    "plan_document": "toolshape.planner._api",
    "plan_operation": "toolshape.planner._api",
    "PLAN_FORMAT": "toolshape.plans._fields",
    "PLANS_FORMAT": "toolshape.plansfile._file",
    "PLANS_SCHEMA": "toolshape.plansfile._file",
    "dump_plans": "toolshape.plansfile._file",
    "load_plans": "toolshape.plansfile._file",
    "PLAN_SCHEMA": "toolshape.plansfile._format",
    "FixedArgument": "toolshape.plans._plan",
    "ParameterRoute": "toolshape.plans._plan",
    "Plan": "toolshape.plans._plan",
    "PlanResult": "toolshape.plans._plan",
    "search": "toolshape.server._search",
    "Select": "toolshape.read._select",
    "ModelApi": "toolshape.views._model_tool",
    "model_tool": "toolshape.views._model_tool",
    "ModelTool": "toolshape.views._tool",
}


def _compile_engine(plan: Plan) -> Any:
    """The composition root: a plan's call engine, from the call stage (loaded on the first
    call), so the model never imports the call side (docs/design.md)."""
    from toolshape.call._engine import compile_engine

    return compile_engine(plan)


def _check_plan_data(data: Any) -> None:
    """The plan-data check `Plan.from_dict` runs, from the plans-file layer (loaded with the
    first plan data)."""
    from toolshape.plansfile._format import check_plan_data

    check_plan_data(data)


Plan.compile_engine = _compile_engine
Plan.check_data = _check_plan_data

__all__ = [
    "NO_BODY",
    "PLANS_FORMAT",
    "PLANS_SCHEMA",
    "PLAN_FORMAT",
    "PLAN_SCHEMA",
    "PROFILES",
    "ArgumentError",
    "ArgumentIssue",
    "BodyEncoding",
    "BodyShape",
    "Channel",
    "Collision",
    "CredentialError",
    "Diagnostic",
    "DocumentError",
    "EncodeError",
    "FixedArgument",
    "HeaderError",
    "Hoisted",
    "KeyPolicy",
    "Level",
    "ModelApi",
    "ModelTool",
    "Options",
    "ParamStyle",
    "ParameterRoute",
    "Plan",
    "PlanDataError",
    "PlanError",
    "PlanErrorKind",
    "PlanKeywords",
    "PlanResult",
    "PlanSettings",
    "Profile",
    "Reading",
    "Request",
    "Router",
    "SecurityKind",
    "SecurityScheme",
    "Select",
    "SettingsError",
    "Style",
    "ToolshapeError",
    "ViewError",
    "Wrapped",
    "__version__",
    "apply_key_policy",
    "detect_collision",
    "dump_plans",
    "error_result",
    "hoist_body",
    "load_document",
    "load_plans",
    "merge_allof",
    "model_tool",
    "pick_reading",
    "plan_document",
    "plan_operation",
    "route_args",
    "search",
]


__getattr__, __dir__ = attach(__name__, _HOMES, __all__)
