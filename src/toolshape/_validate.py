"""S13.3, S13.4: compiled validators and argument errors with flat or nested paths."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from jsonschema import validators
from jsonschema.exceptions import ValidationError
from referencing.exceptions import Unresolvable

from toolshape._errors import ArgumentIssue
from toolshape._fastcheck import compile_check
from toolshape._types import Json, Schema

#: A validator's message longer than this is cut (it may quote a huge argument back).
MAX_MESSAGE = 500

_DEFAULT = validators.validator_for({})


def compile_schema(schema: Schema) -> Any:
    """A validator for `schema` under the dialect its root declares (2020-12 by default).

    `format` is an annotation only (S13.3): no format checker is attached.
    """
    return validators.validator_for(schema, default=_DEFAULT)(schema)


def _path(prefix: str, parts: Iterable[Any]) -> str:
    path = ".".join(str(part) for part in parts)
    if prefix:
        return f"{prefix}.{path}" if path else prefix
    return path


def _issue(error: ValidationError, prefix: str) -> ArgumentIssue:
    message = error.message
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    return ArgumentIssue(_path(prefix, error.absolute_path), str(error.validator), message)


def check(validator: Any, instance: Json, prefix: str = "") -> list[ArgumentIssue]:
    """Every problem `validator` finds in `instance`, paths prefixed with `prefix` (S13.4).

    Never raises: a schema that can't be evaluated (a pattern Python can't compile, a reference
    that doesn't resolve, nesting too deep) is reported as an issue at the root.
    """
    try:
        errors = validator.iter_errors(instance)
        first = next(errors, None)
        if first is None:
            return []
        return [_issue(first, prefix), *(_issue(e, prefix) for e in errors)]
    except RecursionError:
        return [ArgumentIssue(prefix, "depth", "the arguments are nested too deeply to validate")]
    except (re.error, Unresolvable) as error:
        return [
            ArgumentIssue(prefix, "schema", f"the tool's schema can't be evaluated here: {error}")
        ]


class Judge:
    """One schema's validator, built once per plan: a compiled fast path that proves validity
    (`_fastcheck`), and `jsonschema` for everything else and for the errors' wording."""

    __slots__ = ("fast", "validator")

    def __init__(self, schema: Schema) -> None:
        self.validator = compile_schema(schema)
        self.fast = compile_check(schema)

    def problems(self, instance: Json, prefix: str = "") -> list[ArgumentIssue]:
        """Every problem with `instance` (S13.4); `[]` when it is valid."""
        fast = self.fast
        if fast is not None:
            try:
                if fast(instance):
                    return []
            except Exception:  # any doubt goes to jsonschema, which decides
                pass
        return check(self.validator, instance, prefix)
