"""S25.7: the answer's members a call asks for — its `fields` checked against the tool's
output schema, and the answer kept to them. Pure.

A path is dotted names (`data.id`); an array's items are entered implicitly. At each level the
names the output schema declares there (in `properties`, through `$ref`, `allOf`, `anyOf`,
`oneOf`, `items` and `prefixItems`) are the names a path may take; a level that declares none
(a free-form object, or one the S25.1 budget cut) takes any name below it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from toolshape.model._errors import ArgumentIssue
from toolshape.model._json import Json, Unchecked, is_map
from toolshape.model._pointers import def_name

#: How many of a level's names a message lists before it says how many more there are.
MOST_NAMES = 40
#: How many bad paths are each an issue; the rest are counted in one more (a long list of bad
#: paths must not make a message of megabytes).
MOST_PATHS = 10

#: A tree of kept paths: each name's subtree, or None when the whole member is kept.
Tree = dict[str, "Tree | None"]


def check_fields(
    given: Unchecked, output: Mapping[str, Unchecked], argument: str
) -> tuple[tuple[str, ...], list[ArgumentIssue]]:
    """The paths of a call's `argument` (`fields`) and the problems with them: not a list of
    strings, or a path the output schema does not have (each named by its place, `fields.1`)."""
    if not isinstance(given, list) or not all(isinstance(path, str) for path in given):
        return (), [ArgumentIssue(argument, "type", "must be an array of dotted paths (strings)")]
    defs = output.get("$defs")
    issues: list[ArgumentIssue] = []
    more = 0
    for i, path in enumerate(given):
        problem = _path_problem(path, output, defs if is_map(defs) else {})
        if problem is not None and len(issues) < MOST_PATHS:
            issues.append(ArgumentIssue(f"{argument}.{i}", "fields", problem))
        elif problem is not None:
            more += 1
    if more:
        issues.append(
            ArgumentIssue(
                argument, "fields", f"{more} more paths are not in the output schema either"
            )
        )
    return tuple(given), issues


def _path_problem(path: str, output: Unchecked, defs: Mapping[str, Unchecked]) -> str | None:
    """Why `path` is not a path of the answer `output` describes, or None."""
    parts = path.split(".")
    if "" in parts:
        return f"{json.dumps(path)} is not a dotted path of names (`data.id`)"
    level: list[Unchecked] = [output]
    for depth, part in enumerate(parts):
        members = _members(level, defs)
        if not members:
            return None
        if part not in members:
            where = "the answer" if depth == 0 else json.dumps(".".join(parts[:depth]))
            return f"{json.dumps(path)} is not in the output schema: {where} has {_listed(members)}"
        level = members[part]
    return None


def _members(level: list[Unchecked], defs: Mapping[str, Unchecked]) -> dict[str, list[Unchecked]]:
    """The member names the schemas of one level declare (arrays entered), each with the
    schemas it has; empty when they declare none."""
    found: dict[str, list[Unchecked]] = {}
    queue, seen = list(level), set[int]()
    for schema in queue:  # grows as it is read: branches and items come after their parent
        if not is_map(schema) or id(schema) in seen:
            continue
        seen.add(id(schema))
        name = def_name(schema.get("$ref"))
        if name is not None and name in defs:
            queue.append(defs[name])
        for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
            branches = schema.get(key)
            if isinstance(branches, list):
                queue.extend(branches)
        queue.append(schema.get("items"))
        properties = schema.get("properties")
        if is_map(properties):
            for member, sub in properties.items():
                found.setdefault(member, []).append(sub)
    return found


def _listed(members: Mapping[str, object]) -> str:
    names = [json.dumps(name) for name in members]
    shown = ", ".join(names[:MOST_NAMES])
    more = len(names) - MOST_NAMES
    return f"{shown} and {more} more" if more > 0 else shown


def keep_fields(value: Json, paths: tuple[str, ...]) -> Json:
    """`value` with only the members on `paths` (and their parents); an array's items are
    entered implicitly, a value that is neither object nor array is kept as it is.

        >>> keep_fields({"data": [{"id": 1, "x": 2}], "more": True}, ("data.id",))
        {'data': [{'id': 1}]}
    """
    tree = _tree(paths)
    holder: list[Json] = [None]
    stack: list[tuple[Json, Tree | None, list[Json] | dict[str, Json], int | str]] = [
        (value, tree, holder, 0)
    ]
    while stack:  # iterative: an answer may nest deeper than Python recurses
        node, sub, parent, key = stack.pop()
        if sub is None or not isinstance(node, (dict, list)):
            parent[key] = node  # type: ignore[index]
        elif isinstance(node, list):
            items: list[Json] = [None] * len(node)
            parent[key] = items  # type: ignore[index]
            stack.extend((item, sub, items, i) for i, item in enumerate(node))
        else:
            kept: dict[str, Json] = {name: None for name in node if name in sub}
            parent[key] = kept  # type: ignore[index]
            stack.extend((node[name], sub[name], kept, name) for name in kept)
    return holder[0]


def _tree(paths: tuple[str, ...]) -> Tree:
    """The paths as a tree; a path that keeps a whole member wins over a deeper one."""
    tree: Tree = {}
    for path in paths:
        node = tree
        *parents, last = path.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if child is None:
                break
            node = child
        else:
            node[last] = None
    return tree
