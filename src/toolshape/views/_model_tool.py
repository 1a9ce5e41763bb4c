"""S22.1: a plan as the tool definition one model API accepts as it is — OpenAI (strict when it
can be), Anthropic, Gemini — and calls made in that definition's shape read back into the
plan's own before `Plan.call` judges them (S22.3: never looser than the document).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from toolshape.model._errors import ArgumentError, ArgumentIssue, ViewError
from toolshape.model._json import Json, JsonObject, Unchecked, is_map
from toolshape.model._types import Inbound, Request
from toolshape.plans._plan import Plan
from toolshape.schema._pointers import escape
from toolshape.views._gemini import Gemini
from toolshape.views._read import SAME, Read, Unreadable, read_back
from toolshape.views._strict import Strict, size_problem

ModelApi: TypeAlias = Literal["openai", "anthropic", "gemini"]
#: S22.1: the name rules, exactly these, for every API.
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ANTHROPIC_KEY = re.compile(r"[a-zA-Z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True)
class ModelTool:
    """One plan as one model API's tool (S22.1).

    `definition` is the API's own tool format, JSON-ready; `strict` says the OpenAI definition
    is strict; `reasons` say why it could not be (or, for Gemini, what the view cut), each
    naming the location. `call` reads arguments made in the definition's shape back into the
    plan's own and runs `Plan.call` on them.
    """

    plan: Plan
    api: ModelApi
    definition: JsonObject
    strict: bool
    reasons: tuple[str, ...]
    parameters: JsonObject
    """The view's input schema (what `definition` holds as parameters)."""
    reader: Read = field(default=SAME, repr=False)
    defs: Mapping[str, Read] = field(default_factory=dict, repr=False)

    def read(self, arguments: Unchecked) -> Unchecked:
        """`arguments` made in the view's shape, in the plan's own (S22.3).

        Raises:
            ArgumentError: pairs naming a key twice, JSON text that is not an object, or
                arguments nested too deeply to read (S14.4: as `Plan.call` refuses them).
        """
        try:
            return read_back(arguments, self.reader, self.defs)
        except Unreadable as error:
            raise ArgumentError(self.plan.name, [error.issue]) from None
        except RecursionError:
            too_deep = ArgumentIssue("", "depth", "the arguments are nested too deeply to read")
            raise ArgumentError(self.plan.name, [too_deep]) from None

    def call(
        self,
        arguments: Unchecked,
        *,
        headers: Inbound = None,
        credentials: Mapping[str, Unchecked] | None = None,
    ) -> Request:
        """`Plan.call` of the arguments read back (S22.3); the document's schemas judge them.

        Raises:
            ArgumentError: the arguments can't be read back, or the document refuses them.
            CredentialError: as for `Plan.call`.
        """
        return self.plan.call(self.read(arguments), headers=headers, credentials=credentials)


def model_tool(plan: Plan, api: ModelApi) -> ModelTool:
    """S22.1: `plan` as the tool `api` (`"openai"`, `"anthropic"`, `"gemini"`) accepts.

    Raises:
        ViewError: a name the API's rules refuse, located by its JSON pointer.
        ValueError: `api` is none of the three.
    """
    if api not in ("openai", "anthropic", "gemini"):
        raise ValueError(f"api can't be {api!r}; use 'openai', 'anthropic' or 'gemini'")
    _check_names(plan, api)
    schema = plan.input_schema
    if api == "anthropic":
        definition = {"name": plan.name, "description": plan.description, "input_schema": schema}
        return ModelTool(plan, api, definition, False, (), schema)
    if api == "gemini":
        return _gemini(plan, schema)
    return _openai(plan, schema)


def _openai(plan: Plan, schema: JsonObject) -> ModelTool:
    """S22.2: the strict view, or (with its reasons) the document's schema, not strict."""
    strict = Strict(schema)
    try:
        view, reader = _root(strict, schema)
    except RecursionError:  # S14.4: a chain of references too long to follow is a reason
        view, reader = strict.refuse("", "references nested too deeply to view")
    reasons = list(strict.reasons)
    if not reasons and isinstance(view, dict):
        if strict.def_views:
            view["$defs"] = dict(strict.def_views)
        too_big = size_problem(view)
        if too_big is not None:
            reasons.append(f"/: {too_big}")
    if reasons or not isinstance(view, dict):
        parameters, reader, defs, is_strict = schema, SAME, {}, False
    else:
        parameters, defs, is_strict = view, dict(strict.def_reads), True
    function = {
        "name": plan.name,
        "description": plan.description,
        "parameters": parameters,
        "strict": is_strict,
    }
    definition: JsonObject = {"type": "function", "function": function}
    return ModelTool(
        plan, "openai", definition, is_strict, tuple(reasons), parameters, reader, defs
    )


def _root(strict: Strict, schema: JsonObject) -> tuple[Json, Read]:
    """The root's view: an object even with no property (a free-form root can't be text)."""
    properties = schema.get("properties")
    if is_map(properties) and properties:
        return strict.view({**schema, "type": "object"}, "")
    if schema.get("additionalProperties", True) is not False:
        return strict.refuse("", "an open root with no property (strict mode closes it)")
    empty: JsonObject = {"type": "object", "properties": {}, "required": []}
    return {**empty, "additionalProperties": False}, SAME


def _gemini(plan: Plan, schema: JsonObject) -> ModelTool:
    """S22.5: the Gemini view; its cuts are its reasons."""
    gemini = Gemini(schema)
    try:
        view, reader = gemini.view({**schema, "type": "object"}, "")
    except RecursionError:  # S14.4: left to the document, which judges every call
        gemini.reasons.append("/: references nested too deeply to view")
        view, reader = {"type": "object"}, SAME
    parameters = view if isinstance(view, dict) else {"type": "object"}
    definition = {"name": plan.name, "description": plan.description, "parameters": parameters}
    reasons = tuple(dict.fromkeys(gemini.reasons))  # a union viewed twice finds its cuts twice
    return ModelTool(plan, "gemini", definition, False, reasons, parameters, reader)


def _check_names(plan: Plan, api: ModelApi) -> None:
    """S22.1: the tool's name, and for Anthropic every property key at any depth.

    Raises:
        ViewError: the first name that breaks its rule.
    """
    if not TOOL_NAME.fullmatch(plan.name):
        raise ViewError(api, plan.name, "/name", plan.name, TOOL_NAME.pattern, portable=True)
    if api != "anthropic":
        return
    for pointer, key, portable in _keys(plan.input_schema, plan.style):
        if not ANTHROPIC_KEY.fullmatch(key):
            raise ViewError(api, plan.name, pointer, key, ANTHROPIC_KEY.pattern, portable)


def _keys(schema: JsonObject, style: str) -> list[tuple[str, str, bool]]:
    """Every property key in `schema` (and its `$defs`): its pointer, the key, and whether
    `portable_names` renames it (a top-level argument; a nested tool's parameter members)."""
    found: list[tuple[str, str, bool]] = []
    stack: list[tuple[Unchecked, str, int]] = [(schema, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        if isinstance(node, list):
            stack.extend((item, f"{where}/{i}", depth) for i, item in enumerate(node))
            continue
        if not is_map(node):
            continue
        for key, value in node.items():
            at = f"{where}/{escape(key)}"
            if key == "properties" and is_map(value):
                for name, sub in value.items():
                    pointer = f"{at}/{escape(name)}"
                    portable = depth == 0 or (
                        depth == 1 and style == "nested" and not where.endswith("/body")
                    )
                    found.append((pointer, name, portable))
                    stack.append((sub, pointer, depth + 1))
            elif key == "$defs" and is_map(value):  # definitions: inside a body, any depth
                stack.extend((sub, f"{at}/{escape(n)}", 2) for n, sub in value.items())
            elif key not in ("enum", "const", "default", "examples", "example"):
                stack.append((value, at, depth))
    return sorted(found)
