"""S16.1-S16.3: the rest of an MCP tool — its title, description, annotations and output schema.

Pure functions of the operation as read; the planner ties them to the plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

from toolshape.model._dialects import DIALECTS, DRAFT2020_12, OPENAPI30
from toolshape.model._http import MEDIA_TYPE, body_encoding, part_media
from toolshape.model._json import Json, JsonObject, Unchecked, is_map, json_text
from toolshape.model._pointers import follow
from toolshape.model._types import Body, BodyEncoding, Operation, Output, ShapeMemo
from toolshape.schema._shape import HOPS, size, sized_shape_view
from toolshape.schema._views import is_base64

#: S16.2: the hints each method implies (MCP `ToolAnnotations`); TRACE is safe like GET.
METHOD_HINTS: Mapping[str, Mapping[str, bool]] = {
    **{method: {"readOnlyHint": True} for method in ("GET", "HEAD", "OPTIONS", "TRACE")},
    # S26.2: QUERY (OpenAPI 3.2) is safe and idempotent, with a body
    "QUERY": {"readOnlyHint": True, "idempotentHint": True, "destructiveHint": False},
    **{
        method: {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True}
        for method in ("PUT", "DELETE")
    },
    "POST": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
    "PATCH": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False},
}

#: S16.2: the hints of MCP `ToolAnnotations`, in the order the MCP schema lists them.
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

#: S16.1: what ends a description cut at `description_limit`.
ELLIPSIS = "…"


def title(op: Operation) -> str | None:
    """S16.1: the operation's `summary`, else none."""
    return op.summary


def description(op: Operation, limit: int | None = None) -> str:
    """S16.1: summary, a blank line, description (the summary once when the description starts
    with it); else `<METHOD> <path>`; `Deprecated. ` first for a deprecated operation; cut at a
    word boundary to at most `limit` characters, ending with `…`."""
    summary, text = op.summary, op.description
    if summary and text:
        body = text if text.startswith(summary) else f"{summary}\n\n{text}"
    else:
        body = summary or text or f"{op.method.upper()} {op.path}"
    if op.deprecated:
        body = "Deprecated. " + body
    return cut(body, limit)


def cut(text: str, limit: int | None) -> str:
    """`text`, or its first words and `…` within `limit` characters (S16.1)."""
    if limit is None or len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    room = text[: limit - len(ELLIPSIS) + 1]
    space = max(room.rfind(" "), room.rfind("\n"))
    kept = room[:space] if space > 0 else room[: limit - len(ELLIPSIS)]
    return kept.rstrip() + ELLIPSIS


def wire_method(method: str) -> str:
    """The method a request is sent with: a fixed field's upper case (`get` → `GET`), another
    method (S26.3's `additionalOperations`) as its key is written."""
    return method.upper() if method.upper() in METHOD_HINTS else method


def annotation_problem(key: str, value: Unchecked) -> str | None:
    """S16.2: why `key` set to `value` is not a `ToolAnnotations` hint, or None."""
    if (key == "title" and isinstance(value, str)) or (key in HINTS and isinstance(value, bool)):
        return None
    return (
        f"`{key}` to {json_text(value)}, which is not a ToolAnnotations hint (`title`: a "
        "string; `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`: booleans)"
    )


def tool_annotations(
    op: Operation, overrides: Mapping[str, Unchecked] | None
) -> tuple[JsonObject, list[str]]:
    """S16.2: the tool's annotations — `title`, then the method's hints and `openWorldHint`,
    each overridden by the operation's `x-mcp-annotations`, then by the caller's `overrides` —
    and a problem per override that is not a hint of the right type (left out, said)."""
    # S26.3: another method (`additionalOperations`) is annotated as POST is
    hints = METHOD_HINTS.get(op.method.upper(), METHOD_HINTS["POST"])
    values: dict[str, Json] = {**hints, "openWorldHint": True}
    problems: list[str] = []
    named: str | None = title(op)
    for source, given in (
        ("the operation's `x-mcp-annotations`", op.extensions.get("x-mcp-annotations")),
        ("the caller's `annotations`", overrides),
    ):
        if given is None:
            continue
        if not is_map(given):
            problems.append(f"{source} is not an object, so it changes nothing")
            continue
        for key, value in given.items():
            problem = annotation_problem(key, value)
            if problem is not None:
                problems.append(f"{source} sets {problem}, so it is left out")
            elif key == "title":
                named = str(value)
            else:
                values[key] = value
    out: JsonObject = {"title": named} if named else {}
    out.update((hint, values[hint]) for hint in HINTS if hint in values)
    return out, problems


class Cut(NamedTuple):
    """S25.1: an output schema made smaller to fit the budget: its bytes before and after."""

    before: int
    after: int


def output_schema(
    output: Output, view: Literal["shape", "exact"], budget: int | None = None
) -> tuple[JsonObject, bool, Cut | None]:
    """S16.3: the MCP output schema of a response schema in `view` (S16.7), whether it was
    wrapped, and (S25.1) how it was cut to fit `budget` bytes: an object schema is used as it
    is (`type: "object"` added when it has `properties` but no `type`); anything else becomes
    `{"type": "object", "properties": {"result": ...}}`; a sequential answer's items (S26.6)
    are `{"type": "object", "properties": {"items": {"type": "array", "items": ...}}}`. `$defs`
    at the root; a dialect other than 2020-12 declared there (S4.7)."""
    schema = output.schema
    dialect = DIALECTS.get(DRAFT2020_12 if output.dialect == OPENAPI30 else output.dialect)
    declare = dialect.declare if dialect else None
    wrapped = False
    if output.items:
        item = {k: v for k, v in schema.items() if k != "$schema"} if is_map(schema) else schema
        listed: JsonObject = {"type": "array", "items": item}
        root: JsonObject = {"type": "object", "properties": {"items": listed}}
        root["required"] = ["items"]
    elif is_map(schema) and schema.get("type") == "object":
        root = dict(schema)
    elif is_map(schema) and "type" not in schema and "properties" in schema:
        root = {"type": "object", **schema}
    else:
        root = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
        wrapped = True
    if declare is not None and "$schema" not in root:
        root = {"$schema": declare, **root}
    if output.defs:
        inner = root.get("$defs")
        root["$defs"] = {**(inner if is_map(inner) else {}), **output.defs}
    if view != "shape":
        return root, wrapped, None
    shaped, cut = budgeted(root, output.shapes, budget)
    return shaped, wrapped, cut


def budgeted(
    root: JsonObject, memo: ShapeMemo, budget: int | None
) -> tuple[JsonObject, Cut | None]:
    """S25.1: the shape view within `budget` bytes: `$ref` chains cut one hop sooner at a
    time (S16.7's two, then one, then none), else the root's kind alone with its text; a
    shallower view accepts everything a deeper one does."""
    first = None
    for hops in range(HOPS, -1, -1):
        shaped, bytes_ = sized_shape_view(root, memo, hops)
        first = bytes_ if first is None else first
        if budget is None or bytes_ <= budget:
            return shaped, None if hops == HOPS else Cut(first, bytes_)
    kind: JsonObject = {"type": "object"}
    kind.update((key, root[key]) for key in ("title", "description") if key in root)
    return kind, Cut(first or 0, size(kind))


def body_kind(body: Body, defs: Mapping[str, Unchecked]) -> BodyEncoding | None:
    """S17: how `body` becomes bytes, or None when its media type can't carry it (S17.9)."""
    schema = follow(body.schema, defs).schema
    kind = schema.get("type") if is_map(schema) else None
    string = schema is not False and (
        kind is None or kind == "string" or (isinstance(kind, list) and "string" in kind)
    )
    return body_encoding(body.content_type, is_base64(schema), string)


def wire_body(
    body: Body | None, defs: Mapping[str, Unchecked]
) -> tuple[BodyEncoding | None, dict[str, dict[str, Json]]]:
    """S17: how the body becomes bytes, and its top-level binary (base64) properties with
    their media type (S17.4, S17.5)."""
    if body is None:
        return None, {}
    schema = follow(body.schema, defs).schema
    kind = body_kind(body, defs)
    binary: dict[str, dict[str, Json]] = {}
    properties = schema.get("properties") if is_map(schema) else None
    for name, prop in (properties or {}).items():
        target = follow(prop, defs).schema
        if is_base64(target):
            binary[name] = {"mediaType": _part_type(target), "array": False}
        elif is_map(target) and target.get("type") == "array":
            items = follow(target.get("items"), defs).schema
            if is_base64(items):
                binary[name] = {"mediaType": _part_type(items), "array": True}
    return kind, binary


def _part_type(schema: Mapping[str, Unchecked]) -> str | None:
    """S17.4: a binary part's `contentMediaType` when it is one media type HTTP can send (an
    annotation with a newline in it must not write the part's headers); None otherwise, which
    sends `application/octet-stream`."""
    media = schema.get("contentMediaType")
    return part_media(media) if isinstance(media, str) and MEDIA_TYPE.match(media) else None


#: S25.7: the advertised schema of the argument that names the answer's members to keep.
FIELDS_ARGUMENT: Mapping[str, Json] = {
    "type": "array",
    "items": {"type": "string", "minLength": 1},
    "description": (
        "Only these members of the answer, as dotted paths (`data.id`; an array's items are "
        "entered implicitly); leave out for the whole answer. Never sent to the API."
    ),
}


def fields_argument(
    advertised: JsonObject, output: JsonObject | None, wrapped: bool, view: str, wanted: bool
) -> tuple[JsonObject, str | None]:
    """S25.7: `advertised` with the optional `fields` argument (`_fields`, `__fields`, ...
    when the name is taken), and its name; unchanged and None when it is not `wanted` or the
    answer is not an object with a shape output schema (an `exact` one may require members
    the answer then leaves out)."""
    if not wanted or output is None or wrapped or view != "shape":
        return advertised, None
    taken = advertised.get("properties")
    properties: JsonObject = dict(taken) if is_map(taken) else {}
    name = "fields"
    while name in properties:
        name = "_" + name
    properties[name] = dict(FIELDS_ARGUMENT)
    return {**advertised, "properties": properties}, name
