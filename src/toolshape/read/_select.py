"""S20.1: choosing the operations a document's tools are planned from."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from toolshape.model._json import json_text

ContentTypes: TypeAlias = Literal["all", "preferred"]
"""S20.1: a tool per request content type (`all`), or one per operation (`preferred`)."""


def _names(field: str, value: Iterable[str] | None) -> tuple[str, ...] | None:
    """A list of names given as one text or an iterable of texts.

    Raises:
        ValueError: anything else (S24.2: `methods=[1]` is a mistake, not a method).
    """
    if value is None:
        return None
    names = (value,) if isinstance(value, str) else tuple(value) if _iterable(value) else None
    if names is None or not all(isinstance(name, str) for name in names):
        raise ValueError(f"Select's {field} must be a list of text, not {json_text(value, 60)}")
    return names


def _iterable(value: object) -> bool:
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        return False
    return not isinstance(value, (bytes, dict))


@dataclass(frozen=True, slots=True, init=False)
class Select:
    """Which operations to plan (S20.1): each include list given must match, no exclude list
    may; `None` gives no list. Operations left out produce no tools and no errors.

    `Select(tags=["pets"], methods=["get"], paths=["/pets/*"], deprecated=False)`
    """

    tags: tuple[str, ...] | None
    """Keep an operation with one of these tags."""
    operations: tuple[str, ...] | None
    """Keep an operation with one of these operationIds (or derived names, S8.1)."""
    methods: tuple[str, ...] | None
    """Keep an operation of one of these HTTP methods (any case)."""
    paths: tuple[str, ...] | None
    """Keep an operation whose path key matches one of these glob patterns (`/pets/*`)."""
    exclude_tags: tuple[str, ...]
    """Leave out an operation with one of these tags."""
    exclude_operations: tuple[str, ...]
    """Leave out an operation with one of these operationIds (or derived names)."""
    deprecated: bool
    """Keep deprecated operations (the default)."""
    content_types: ContentTypes
    """`"all"` (the default): a tool per request content type (S8.2); `"preferred"`: one tool
    per operation, for the content type toolshape sends best (JSON, then form, then
    multipart, then the first the document lists), named without a suffix."""

    def __init__(
        self,
        *,
        tags: Iterable[str] | None = None,
        operations: Iterable[str] | None = None,
        methods: Iterable[str] | None = None,
        paths: Iterable[str] | None = None,
        exclude_tags: Iterable[str] = (),
        exclude_operations: Iterable[str] = (),
        deprecated: bool = True,
        content_types: ContentTypes = "all",
    ) -> None:
        """Raises:
        ValueError: `content_types` is neither `"all"` nor `"preferred"`, `deprecated` is not
            a boolean, or a list is not of text (S24.2)."""
        if content_types not in ("all", "preferred"):
            raise ValueError(
                f"Select's content_types can't be {content_types!r}; use 'all' or 'preferred'"
            )
        if not isinstance(deprecated, bool):
            raise ValueError(
                f"Select's deprecated must be true or false, not {json_text(deprecated, 60)}"
            )
        methods = _names("methods", methods)
        object.__setattr__(self, "tags", _names("tags", tags))
        object.__setattr__(self, "operations", _names("operations", operations))
        object.__setattr__(
            self, "methods", None if methods is None else tuple(m.lower() for m in methods)
        )
        object.__setattr__(self, "paths", _names("paths", paths))
        object.__setattr__(self, "exclude_tags", _names("exclude_tags", exclude_tags) or ())
        object.__setattr__(
            self, "exclude_operations", _names("exclude_operations", exclude_operations) or ()
        )
        object.__setattr__(self, "deprecated", deprecated)
        object.__setattr__(self, "content_types", content_types)

    @property
    def includes(self) -> str | None:
        """The include lists given, as text (`operations get_users; methods get`), or None
        when there are none (S20.1: what a selection that matches nothing asked for)."""
        lists = [
            (label, value)
            for label, value in (
                ("tags", self.tags),
                ("operations", self.operations),
                ("methods", self.methods),
                ("paths", self.paths),
            )
            if value is not None
        ]
        if not lists:
            return None
        return "; ".join(f"{label} {', '.join(value)}" for label, value in lists)

    def keeps(
        self, *, key: str, method: str, path: str, tags: Sequence[str], deprecated: bool
    ) -> bool:
        """Whether the operation (`key`: its operationId or derived name) is planned."""
        if deprecated and not self.deprecated:
            return False
        if self.tags is not None and not any(tag in self.tags for tag in tags):
            return False
        if self.operations is not None and key not in self.operations:
            return False
        if self.methods is not None and method.lower() not in self.methods:
            return False
        if self.paths is not None and not any(
            fnmatch.fnmatchcase(path, pattern) for pattern in self.paths
        ):
            return False
        if any(tag in self.exclude_tags for tag in tags):
            return False
        return key not in self.exclude_operations
