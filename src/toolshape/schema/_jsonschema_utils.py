"""Code of jsonschema's private modules, vendored so toolshape imports no private name of
another library: `uniq` (`jsonschema/_utils.py`: the uniqueness `uniqueItems` decides by, which
the fast path mirrors, S13.3; its `equal` and `unbool` are `toolshape.model._json`'s), and
the keywords `pattern`, `patternProperties` and `additionalProperties`
(`jsonschema/_keywords.py`) with their regular expressions searched by a function the caller
gives (RE2 where it reads a pattern alike, S24.8).

From python-jsonschema/jsonschema 4.26.0, typed; the keywords take their searcher, otherwise
unchanged.

Copyright (c) 2013 Julian Berman

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError

from toolshape.model._json import equal, unbool

#: Whether a text holds a match of a pattern (a JSON Schema `pattern` is searched).
Search = Callable[[str, str], bool]


def uniq(container: Any) -> bool:
    """Whether all of a container's elements are unique: sorted when they sort, else (slowly)
    pairwise."""
    try:
        ordered = sorted(unbool(i) for i in container)
        return not any(equal(i, j) for i, j in itertools.pairwise(ordered))
    except (NotImplementedError, TypeError):
        seen: list[Any] = []
        for item in container:
            element = unbool(item)
            if any(equal(i, element) for i in seen):
                return False
            seen.append(element)
    return True


def pattern(search: Search) -> Callable[..., Iterator[ValidationError]]:
    """jsonschema's `pattern` keyword, its pattern searched by `search`."""

    def keyword(
        validator: Any, patrn: str, instance: Any, schema: Any
    ) -> Iterator[ValidationError]:
        if validator.is_type(instance, "string") and not search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    return keyword


def pattern_properties(search: Search) -> Callable[..., Iterator[ValidationError]]:
    """jsonschema's `patternProperties` keyword, its patterns searched by `search`."""

    def keyword(
        validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
    ) -> Iterator[ValidationError]:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in patterns.items():
            for key, value in instance.items():
                if search(patrn, key):
                    yield from validator.descend(value, subschema, path=key, schema_path=patrn)

    return keyword


def additional_properties(search: Search) -> Callable[..., Iterator[ValidationError]]:
    """jsonschema's `additionalProperties` keyword, `patternProperties` searched by `search`."""

    def keyword(validator: Any, aP: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if not validator.is_type(instance, "object"):
            return
        properties = schema.get("properties", {})
        patterns = "|".join(schema.get("patternProperties", {}))
        extras = {
            key
            for key in instance
            if key not in properties and not (patterns and search(patterns, key))
        }
        if validator.is_type(aP, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], aP, path=extra)
        elif not aP and extras:
            if "patternProperties" in schema:
                verb = "does" if len(extras) == 1 else "do"
                joined = ", ".join(repr(each) for each in sorted(extras))
                listed = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
                yield ValidationError(f"{joined} {verb} not match any of the regexes: {listed}")
            else:
                shown = sorted(extras, key=str)
                was = "was" if len(shown) == 1 else "were"
                names = ", ".join(repr(extra) for extra in shown)
                yield ValidationError(
                    f"Additional properties are not allowed ({names} {was} unexpected)"
                )

    return keyword
