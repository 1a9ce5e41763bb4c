"""Three helpers of jsonschema's private `_utils` module, vendored so toolshape imports no
private name of another library: `equal`, `unbool` and `uniq`, the equality and uniqueness
jsonschema's `const`, `enum` and `uniqueItems` decide by (the fast path mirrors them, S13.3).

From python-jsonschema/jsonschema 4.26.0 `jsonschema/_utils.py`, typed, otherwise unchanged.

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
from collections.abc import Mapping, Sequence
from typing import Any

_TRUE = object()
_FALSE = object()


def equal(one: Any, two: Any) -> bool:
    """Whether two JSON values are equal, `True` not being `1` (recursing into sequences and
    mappings to do the same)."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(i, j) for i, j in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(
            key in two and equal(value, two[key]) for key, value in one.items()
        )
    return bool(unbool(one) == unbool(two))


def unbool(element: Any) -> Any:
    """`element`, with `True` and `False` made distinct from `1` and `0` (for `uniq`)."""
    if element is True:
        return _TRUE
    if element is False:
        return _FALSE
    return element


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
