"""S13.3, S13.4: compiled validators and argument errors with flat or nested paths.

Every validator is built on a `referencing.Registry` that refuses to retrieve anything (S14.1):
a reference that does not resolve inside the schema is an argument error at call time (and a
planning error long before, S1.2), never a fetch. The validator classes extend jsonschema's own
with total versions of the keywords whose stock functions can raise or cost without bound on
hostile values (S14.4): `multipleOf` on NaN, infinities and huge integers, and `enum` / `const`
messages that would quote a million values back.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from jsonschema import (
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
    FormatChecker,
)
from jsonschema import validators as _validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable

from toolshape.model._dialects import DRAFT6, DRAFT7, DRAFT2019_09, DRAFT2020_12, dialect_of
from toolshape.model._errors import ArgumentIssue
from toolshape.model._json import Unchecked, equal, json_text
from toolshape.model._types import Schema
from toolshape.schema import _jsonschema_utils as vendored
from toolshape.schema._fastcheck import compile_check, is_multiple, unique
from toolshape.schema._regex import searcher

#: A validator's message longer than this is cut (it may quote a huge argument back).
MAX_MESSAGE = 500
#: An `enum` or `const` longer than this (as text) is summarized in messages, not quoted whole.
_MAX_QUOTED = 200


def _refuse_retrieval(uri: str) -> Any:
    """S14.1: the library never fetches a schema; every lookup outside the schema fails."""
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


#: The registry every validator resolves references in: nothing but the schema itself (and
#: jsonschema's bundled meta-schemas, which live in memory).
NO_RETRIEVAL: Registry[Any] = Registry(retrieve=_refuse_retrieval)  # type: ignore[call-arg]


def _quoted(value: Any) -> str:
    """`repr(value)`, or its start when that is long (never building a huge text first)."""
    if isinstance(value, list) and len(value) > 50:
        return f"{repr(value[:20])[:-1]}, … ({len(value)} values)]"
    text = repr(value)
    return text if len(text) <= _MAX_QUOTED else text[:_MAX_QUOTED] + "…"


def _in_enum(values: Any, instance: Any) -> bool:
    """jsonschema's `enum` verdict; `list.count` (C speed, `==`) rules out most values first,
    since jsonschema's equality implies `==`."""
    if isinstance(values, list):
        try:
            if values.count(instance) == 0:
                return False
        except Exception:  # a value `==` can't compare: decide one by one below
            pass
    return any(equal(value, instance) for value in values)


def _multiple_of(
    validator: Any, step: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """jsonschema's `multipleOf`, total: NaN and infinities are no multiple of anything, and a
    quotient too large for a float is decided exactly (S14.4)."""
    if validator.is_type(instance, "number") and not is_multiple(instance, step):
        yield ValidationError(f"{instance!r} is not a multiple of {step}")


def _enum(validator: Any, values: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's `enum` (same verdict, same wording), hashed, with a bounded message."""
    if not _in_enum(values, instance):
        yield ValidationError(f"{_quoted(instance)} is not one of {_quoted(values)}")


def _const(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not equal(instance, value):
        yield ValidationError(f"{_quoted(value)} was expected")


def _unique_items(
    validator: Any, flag: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """jsonschema's `uniqueItems` (same verdict), in O(n log n), with a bounded message."""
    if flag and validator.is_type(instance, "array") and not unique(instance):
        yield ValidationError(f"{_quoted(instance)} has non-unique elements")


def _search(pattern: str, text: str) -> bool:
    """S24.8: jsonschema's `re.search(pattern, text)` verdict, by RE2 where it reads the
    pattern alike (the extra `toolshape[re2]`), else by `re`."""
    return searcher(pattern)(text)


_TOTAL_KEYWORDS = {
    "multipleOf": _multiple_of,
    "enum": _enum,
    "const": _const,
    "uniqueItems": _unique_items,
    "pattern": vendored.pattern(_search),
    "patternProperties": vendored.pattern_properties(_search),
    "additionalProperties": vendored.additional_properties(_search),
}

#: The validator class of each dialect toolshape plans (S1.7), with the total keywords.
VALIDATORS: Mapping[str, Any] = {
    DRAFT2020_12: _validators.extend(Draft202012Validator, _TOTAL_KEYWORDS),
    DRAFT2019_09: _validators.extend(Draft201909Validator, _TOTAL_KEYWORDS),
    DRAFT7: _validators.extend(Draft7Validator, _TOTAL_KEYWORDS),
    DRAFT6: _validators.extend(Draft6Validator, _TOTAL_KEYWORDS),
}


def validator_class(schema: Schema) -> Any:
    """The validator class for the dialect `schema`'s root declares (2020-12 by default)."""
    declared = schema.get("$schema") if isinstance(schema, Mapping) else None
    known = dialect_of(declared) if isinstance(declared, str) else None
    return VALIDATORS.get(known.uri if known else DRAFT2020_12, VALIDATORS[DRAFT2020_12])


def compile_schema(schema: Schema, formats: FormatChecker | None = None) -> Any:
    """A validator for `schema` under the dialect its root declares (2020-12 by default).

    `format` is an annotation only (S13.3) unless `formats` asserts some (S16.7: an `"exact"`
    output schema). References resolve inside `schema` only (S14.1).
    """
    return validator_class(schema)(schema, registry=NO_RETRIEVAL, format_checker=formats)


def _python_words(value: Any, depth: int = 0) -> bool:
    """Whether Python spells `value` with words JSON doesn't have (`None`, `True`, `False`)."""
    if value is None or isinstance(value, bool):
        return True
    if depth > 8 or not isinstance(value, (list, dict)):
        return False
    items = value.values() if isinstance(value, dict) else value
    return any(_python_words(item, depth + 1) for item in list(items)[:100])


def _worded(message: str, values: Iterable[Any]) -> str:
    """`message` with the value and the keyword's value it quotes in JSON where Python would
    spell `None`, `True` or `False` in them (`null is not of type 'string'`): a model reads
    JSON."""
    for value in values:
        if _python_words(value):
            spelled = _quoted(value)
            if spelled in message:
                message = message.replace(spelled, json_text(value, _MAX_QUOTED), 1)
    return message


#: A Python string literal as `repr` writes one: jsonschema's messages quote values so.
_PYTHON_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


def _json_string(found: re.Match[str]) -> str:
    """One Python string literal as a JSON string (a lone surrogate escaped, as JSON may)."""
    try:
        value = ast.literal_eval(found.group())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return found.group()
    if not isinstance(value, str):
        return found.group()
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _json_words(message: str, values: Iterable[Any]) -> str:
    """S25.9: a validator's `message` as a model reads it, in JSON: the values it quotes that
    Python spells with `None`, `True` or `False` as JSON, then every string it quotes as a JSON
    string (`"id" is a required property`, not `'id' ...`)."""
    return _PYTHON_STRING.sub(_json_string, _worded(message, values))


def _path(prefix: str, parts: Iterable[Any]) -> str:
    path = ".".join(str(part) for part in parts)
    if prefix:
        return f"{prefix}.{path}" if path else prefix
    return path


Finding = tuple[tuple[str | int, ...], str, str]
"""One problem a validator finds: where (the path of keys and indices), the keyword, the
message (cut at `MAX_MESSAGE`)."""


def _finding(error: ValidationError) -> Finding:
    message = _json_words(error.message, (error.instance, error.validator_value))
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    return tuple(error.absolute_path), str(error.validator), message


def findings(
    validator: Any, instance: Unchecked, first: bool = False, subject: str = "the arguments"
) -> list[Finding]:
    """Every problem `validator` finds in `instance` (only the first with `first`); `subject`
    names the instance in the messages of the findings below.

    Never raises (S14.4): a schema that can't be evaluated (a pattern Python can't compile, a
    reference that doesn't resolve, a value nested too deeply, a keyword the validator can't
    apply to this value) is one finding at the root.
    """
    try:
        errors = validator.iter_errors(instance)
        found = next(errors, None)
        if found is None:
            return []
        return [_finding(found)] if first else [_finding(found), *map(_finding, errors)]
    except RecursionError:
        return [((), "depth", f"{subject} are nested too deeply to validate")]
    except (re.error, Unresolvable) as error:
        return [((), "schema", f"the tool's schema can't be evaluated here: {error}")]
    except Exception as error:  # S14.4: any other failure is a problem too
        return [
            (
                (),
                "schema",
                f"{subject} can't be checked against the tool's schema "
                f"({type(error).__name__}: {_quoted(str(error))})",
            )
        ]


def check(validator: Any, instance: Unchecked, prefix: str = "") -> list[ArgumentIssue]:
    """Every problem `validator` finds in a call's `instance`, paths prefixed with `prefix`
    (S13.4); never raises, so a schema that can't be evaluated rejects the call."""
    return [
        ArgumentIssue(_path(prefix, where), keyword, message)
        for where, keyword, message in findings(validator, instance)
    ]


class Judge:
    """One schema's validator, built once per plan: the one seam every caller asks (S13.3).

    Its backend is `jsonschema`, which decides every refusal and words it; with `fast` (the
    default) a compiled check (`_fastcheck`) first proves most valid values in microseconds,
    its verdicts tested equal to jsonschema's (`tests/test_fastcheck.py`). With `fast=False`,
    or a `formats` checker (which the fast check does not assert), jsonschema alone judges."""

    __slots__ = ("fast", "validator")

    def __init__(
        self, schema: Schema, formats: FormatChecker | None = None, *, fast: bool = True
    ) -> None:
        self.validator = compile_schema(schema, formats)
        self.fast = compile_check(schema) if fast and formats is None else None

    def first(self, instance: Unchecked) -> list[Finding]:
        """The first problem with `instance` (S16.4: the failing location of an answer), or
        `[]` when it is valid."""
        if self._proven(instance):
            return []
        return findings(self.validator, instance, first=True, subject="the answer's values")

    def problems(self, instance: Unchecked, prefix: str = "") -> list[ArgumentIssue]:
        """Every problem with `instance` (S13.4); `[]` when it is valid."""
        if self._proven(instance):
            return []
        return check(self.validator, instance, prefix)

    def _proven(self, instance: Unchecked) -> bool:
        """Whether the fast path proves `instance` valid (any doubt goes to jsonschema)."""
        fast = self.fast
        if fast is None:
            return False
        try:
            return bool(fast(instance))
        except Exception:
            return False
