"""toolshape: OpenAPI operations as MCP tool input schemas, nested or flat, and back.

Plan once (`plan_document`, `plan_operation`), then serve calls from the plans. The stages are
packages — `read`, `flatten`, `call`, `plans`, `planner` (and `model`, `schema` below them) —
and every public name is here.
"""

from toolshape._load import load_document
from toolshape.call._engine import compile_engine
from toolshape.call._mcp import error_result
from toolshape.call._reading import pick_reading
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
    NO_BODY,
    BodyEncoding,
    BodyShape,
    Channel,
    Diagnostic,
    Hoisted,
    Level,
    ParamStyle,
    Reading,
    Request,
    SecurityKind,
    SecurityScheme,
    Style,
    Wrapped,
)
from toolshape.model._version import __version__
from toolshape.planner._api import PlanSettings, plan_document, plan_operation
from toolshape.plans._fields import PLAN_FORMAT
from toolshape.plans._file import PLANS_FORMAT, PLANS_SCHEMA, dump_plans, load_plans
from toolshape.plans._format import PLAN_SCHEMA
from toolshape.plans._plan import FixedArgument, ParameterRoute, Plan, PlanResult
from toolshape.plans._search import search
from toolshape.read._select import Select
from toolshape.views._model_tool import ModelApi, model_tool
from toolshape.views._tool import ModelTool

# The composition root: plans (the model) compile their call engine through this, so the model
# never imports the call side (docs/design.md).
Plan.compile_engine = compile_engine

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


def __dir__() -> list[str]:
    return __all__
