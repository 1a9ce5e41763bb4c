"""S1.6, S26.3: where a document's operations are — each path item's operations in document
order (path keys as written), a 3.2 path item's `additionalOperations` too — before anything of
them is read. A path item that can't be read yields its operations with the problem."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from toolshape.model._errors import DocumentError
from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import escape
from toolshape.read._index import DocumentIndex
from toolshape.read._problem import Problem, kind_of
from toolshape.read._refs import References

#: S26.3: an HTTP method (a token, RFC 9110), as `additionalOperations` keys must be.
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")


@dataclass(frozen=True, slots=True)
class RawOperation:
    """Where an operation sits, before its parameters and bodies are read."""

    path: str
    method: str
    pointer: str
    node: Unchecked
    path_parameters: Unchecked
    path_pointer: str
    problem: Problem | None = None
    """Why the path item itself can't be read (a bad `$ref`, not a mapping, a bad key)."""


#: S26.3: an HTTP method (a token, RFC 9110), as `additionalOperations` keys must be.
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")


def operations(index: DocumentIndex, references: References) -> Iterator[RawOperation]:
    """Every operation of the document, in document order (S1.6: path keys as written).

    Raises:
        DocumentError: `paths` is not a mapping.
    """
    paths = index.document.get("paths")
    if paths is None:
        return
    if not is_map(paths):
        raise DocumentError(
            "document",
            f"the document's `paths` is a {kind_of(paths)}, not a mapping",
            location=f"{index.source}#/paths",
        )
    for path, item in paths.items():
        if not isinstance(path, str):
            continue
        pointer = f"/paths/{escape(path)}"
        problem = None
        if not path.startswith("/"):
            problem = Problem(
                "document",
                f"the path key `{path}` does not start with `/`, so it is not a path "
                "template (an absolute URL or a bare name would send the request elsewhere)",
                "S1.6",
            )
        elif path.startswith("//"):
            problem = Problem(
                "document",
                f"the path key `{path}` starts with `//`, which names another host, so the "
                "request would be sent there. Start it with one `/`",
                "S20.3",
            )
        try:
            item = references.follow(item, pointer)
        except Problem as error:
            problem = problem or error
        if problem is None and not is_map(item):
            problem = Problem(
                "document", f"the path item `{path}` is a {kind_of(item)}, not a mapping"
            )
        if problem is not None:
            methods = [m for m in index.methods if is_map(item) and m in item]
            for method in methods or [""]:
                yield RawOperation(
                    path,
                    method,
                    f"{pointer}/{method}" if method else pointer,
                    {},
                    None,
                    pointer,
                    problem,
                )
            continue
        shared = item.get("parameters")
        for method, node in item.items():
            if method not in index.methods:
                continue
            yield RawOperation(
                path, method, f"{pointer}/{method}", node, shared, pointer + "/parameters"
            )
        if "query" in index.methods:  # S26.3: 3.2's other methods, each by its key
            yield from _additional(index.methods, path, pointer, item, shared)


def _additional(
    methods: tuple[str, ...],
    path: str,
    pointer: str,
    item: Mapping[str, Unchecked],
    shared: Unchecked,
) -> Iterator[RawOperation]:
    """S26.3: the operations of a 3.2 path item's `additionalOperations`, each method its
    key as written; a key that is a method the path item has a field for (in any case) is
    a document error naming it."""
    more = item.get("additionalOperations")
    if not is_map(more):
        return
    for key, node in more.items():
        at = f"{pointer}/additionalOperations/{escape(str(key))}"
        problem = None
        if str(key).lower() in methods or not _TOKEN.fullmatch(str(key)):
            problem = Problem(
                "document",
                f"`additionalOperations` names `{key}`, which is "
                + (
                    f"the path item's own `{str(key).lower()}`: write it there"
                    if str(key).lower() in methods
                    else "not an HTTP method (a token of letters, digits and !#$%&'*+.^_`|~-)"
                ),
            )
        yield RawOperation(path, str(key), at, node, shared, pointer + "/parameters", problem)
