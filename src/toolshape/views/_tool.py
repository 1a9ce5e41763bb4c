"""S22.1: one plan as one model API's tool — the `ModelTool` every view makes — and the name
rules every model API has."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from toolshape.call._request import Request
from toolshape.model._errors import ArgumentError, ArgumentIssue, ViewError
from toolshape.model._json import JsonObject, Unchecked, is_map
from toolshape.model._pointers import escape
from toolshape.model._types import Inbound
from toolshape.plans._plan import Plan
from toolshape.views._read import SAME, Read, Unreadable, read_back

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
    api: str
    """The model API's name in the table of views (`openai`, `anthropic`, `gemini`, ...)."""
    definition: JsonObject
    strict: bool
    reasons: tuple[str, ...]
    parameters: JsonObject
    """The view's input schema (what `definition` holds as parameters)."""
    reader: Read = field(default=SAME, repr=False)
    defs: Mapping[str, Read] = field(default_factory=dict, repr=False)
    inlined: Read = field(default=SAME, repr=False)
    """S25.3: how a value made for the inlined view reads back into the view's own shape
    (its cuts' JSON text), before `reader`."""
    output_schema: JsonObject | None = field(default=None, repr=False)
    """S25.3: the output schema a server lists with this view (None: the plan's)."""

    def read(self, arguments: Unchecked) -> Unchecked:
        """`arguments` made in the view's shape, in the plan's own (S22.3).

        Raises:
            ArgumentError: pairs naming a key twice, JSON text that is not an object, or
                arguments nested too deeply to read (S14.4: as `Plan.call` refuses them).
        """
        try:
            return read_back(read_back(arguments, self.inlined, {}), self.reader, self.defs)
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


def check_names(plan: Plan, api: str, keys: re.Pattern[str] | None) -> None:
    """S22.1: the tool's name, and (`keys`: the API's rule for them) every property key at
    any depth.

    Raises:
        ViewError: the first name that breaks its rule.
    """
    if not TOOL_NAME.fullmatch(plan.name):
        raise ViewError(api, plan.name, "/name", plan.name, TOOL_NAME.pattern, portable=True)
    if keys is None:
        return
    for pointer, key, portable in _keys(plan.input_schema, plan.style):
        if not keys.fullmatch(key):
            raise ViewError(api, plan.name, pointer, key, keys.pattern, portable)


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
