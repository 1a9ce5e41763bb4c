"""S20.2: YAML text as JSON data — the YAML 1.2 core schema, keys as text, aliases bounded.

For the command line and the example gateway (the library itself takes parsed data). PyYAML is
the optional extra `toolshape[yaml]`, imported on first use; its C parser is used when built.

- Only `true`/`false` (and their capitalized spellings) are booleans and `null`/`~`/empty null:
  `on`, `yes`, `no`, `off` stay strings (YAML 1.1 read them as booleans).
- Integers are decimal, `0o` octal or `0x` hex (`012` is twelve); floats as 1.2 writes them.
- Dates and times stay their text as written; so do `!!binary` values.
- Mapping keys are their text as written (`200:` is `"200"`); a key that is a mapping or a
  list is an error.
- Aliases may expand the document to at most 100 times what it writes — nodes and scalar
  characters, counted alike — (and always to 10,000): past that (a "billion laughs", or one
  long text aliased many times) it is refused before anything is built.
- A tag that doesn't fit its value (`!!int abc`, `!!map [1]`), an integer past Python's digit
  limit, a mapping key that is not a scalar: a `YamlError` naming the line and column.
- `<<` as a key merges a mapping (YAML 1.1's merge key, which YAML files commonly use); `<<` as
  a value is text.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from typing import Any, ClassVar

from toolshape.model._limits import EXPANSION, EXPANSION_FLOOR

_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_NULL = re.compile(r"~|null|Null|NULL|")
#: Where an anchor (`&a`) or an alias (`*a`) can start: at a line's start or after a space,
#: `[`, `{`, `,` or `:`. A text without both can't expand, and needs no count.
_ANCHOR = re.compile(r"(?:^|[\s\[{,:])&[^\s,\[\]{}]", re.M)
_ALIAS = re.compile(r"(?:^|[\s\[{,:])\*[^\s,\[\]{}]", re.M)


class YamlError(ValueError):
    """Text that is not a YAML document toolshape can read; the message says where."""


class MissingYaml(ImportError):
    """PyYAML is not installed: the message names the extra that brings it."""


def load_yaml(text: str) -> Any:
    """The JSON data a YAML document holds (S20.2).

    Raises:
        MissingYaml: PyYAML is not installed (`pip install 'toolshape[yaml]'`).
        YamlError: the text is not YAML (with the line and column), holds a key that is not a
            scalar or a recursive alias, or its aliases expand it past the bound.
    """
    yaml = _yaml()
    loader = _loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _ANCHOR.search(text) and _ALIAS.search(text):
            _check_expansion(node, yaml)
        return loader.construct_document(node)
    except RecursionError:
        raise YamlError("the document nests too deeply to read") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise YamlError(f"{where}{error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise YamlError(str(error)) from None
    finally:
        loader.dispose()


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        raise MissingYaml(
            "reading YAML needs PyYAML: install the extra with `pip install 'toolshape[yaml]'`"
        ) from None
    return yaml


@functools.cache
def _loader() -> Any:
    """A safe loader with the YAML 1.2 core schema (the C parser when PyYAML has it)."""
    yaml = _yaml()
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        # The class's own tables: only the 1.2 core resolvers below, PyYAML's constructors
        # with the JSON ones below over them.
        yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}
        yaml_constructors: ClassVar[dict[str, Any]] = dict(base.yaml_constructors)

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[str, Any]:
            if not isinstance(node, yaml.MappingNode):
                raise _wrong(node, "a mapping")
            self.flatten_mapping(node)  # `<<` merge keys
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        "a mapping key is a mapping or a list, which JSON can't hold",
                        key_node.start_mark,
                    )
                out[key_node.value] = self.construct_object(value_node, deep=deep)
            return out

    def scalar(_: Any, node: Any) -> str:
        return _text_of(node, "a scalar")

    def integer(_: Any, node: Any) -> int:
        text = _text_of(node, "an integer")
        if not _INT.fullmatch(text):
            raise _wrong(node, "an integer")
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        digits = len(text.lstrip("+-"))
        if digits > _DIGITS:
            raise _wrong(node, f"an integer of at most {_DIGITS} digits (it has {digits})")
        return int(text, 10)

    def real(_: Any, node: Any) -> float:
        text = _text_of(node, "a number").lower()
        if not _FLOAT.fullmatch(text) and not _INT.fullmatch(text):
            raise _wrong(node, "a number")
        if text.endswith(".inf"):
            return -math.inf if text.startswith("-") else math.inf
        if text == ".nan":
            return math.nan
        if not _FLOAT.fullmatch(text):  # an integer (`0x1F`, `0o17`) tagged `!!float`
            try:
                return float(integer(_, node))
            except OverflowError:
                raise _wrong(node, "a number a float can hold") from None
        return float(text)

    def boolean(_: Any, node: Any) -> bool:
        text = _text_of(node, "a boolean")
        if not _BOOL.fullmatch(text):
            raise _wrong(node, "a boolean")
        return text.lower() == "true"

    def pairs(loader: Any, node: Any) -> list[list[Any]]:
        if not isinstance(node, yaml.SequenceNode) or not all(
            isinstance(item, yaml.MappingNode) for item in node.value
        ):
            raise _wrong(node, "a list of mappings")
        return [
            [loader.construct_object(k), loader.construct_object(v)]
            for item in node.value
            for k, v in item.value
        ]

    def merge_value(_: Any, node: Any) -> str:
        return _text_of(node, "text")  # `<<` met as a value, not as a key: text

    def members(loader: Any, node: Any) -> dict[str, None]:
        return dict.fromkeys(loader.construct_mapping(node))

    tag = "tag:yaml.org,2002:"
    for name, construct in (
        ("int", integer),
        ("float", real),
        ("bool", boolean),
        ("timestamp", scalar),  # dates and times stay their text as written
        ("binary", scalar),
        ("omap", pairs),
        ("pairs", pairs),
        ("set", members),
        ("merge", merge_value),
    ):
        Loader.add_constructor(tag + name, construct)
    for name, pattern, first in (
        ("bool", _BOOL, "tTfF"),
        ("null", _NULL, ["~", "n", "N", ""]),
        ("int", _INT, "-+0123456789"),
        ("float", _FLOAT, "-+0123456789."),
        ("merge", re.compile("<<"), "<"),
    ):
        Loader.add_implicit_resolver(tag + name, re.compile(f"(?:{pattern.pattern})\\Z"), first)
    return Loader


#: Python's limit on the digits of a decimal integer it reads (`sys.get_int_max_str_digits`).
_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300


def _wrong(node: Any, wanted: str) -> Exception:
    """The constructor error of a node whose tag wants `wanted`, where it is."""
    yaml = _yaml()
    shown = repr(node.value)[:40] if isinstance(node, yaml.ScalarNode) else f"a {node.id}"
    error: Exception = yaml.constructor.ConstructorError(
        None, None, f"{shown} is not {wanted} (its tag is {node.tag})", node.start_mark
    )
    return error


def _text_of(node: Any, wanted: str) -> str:
    """A scalar node's text; any other node is an error naming what its tag wants."""
    if not isinstance(node, _yaml().ScalarNode):
        raise _wrong(node, wanted)
    return str(node.value)


def _shares(root: Any, yaml: Any) -> bool:
    """Whether a node is reached twice (an alias to it): the one pass most documents need."""
    mapping, sequence = yaml.MappingNode, yaml.SequenceNode
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        key = id(node)
        if key in seen:
            return True
        seen.add(key)
        if node.__class__ is mapping:
            stack.extend(part for pair in node.value for part in pair)
        elif node.__class__ is sequence:
            stack.extend(node.value)
    return False


def _weight(node: Any, yaml: Any) -> int:
    """What one node builds by itself: 1, and a scalar's characters (S20.2)."""
    return 1 + len(node.value) if isinstance(node, yaml.ScalarNode) else 1


def _check_expansion(root: Any, yaml: Any) -> None:
    """Refuse a node graph whose aliases expand it past `EXPANSION` times what it writes —
    nodes and scalar characters alike — or that refers to itself (JSON can't hold a cycle).
    Linear in the nodes written."""
    if not isinstance(root, (yaml.MappingNode, yaml.SequenceNode)) or not _shares(root, yaml):
        return
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    written = 0
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node, yaml)
            sizes[key] = _weight(node, yaml) + sum(sizes[id(child)] for child in children)
            written += _weight(node, yaml)
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise YamlError(
                f"line {node.start_mark.line + 1}: an alias refers to a node that holds it, "
                "which JSON can't hold"
            )
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node, yaml) if id(child) not in sizes)
    built = sizes[id(root)]
    if built > max(EXPANSION * written, EXPANSION_FLOOR):
        raise YamlError(
            f"the document's aliases expand the {written} nodes and characters it writes to "
            f"{built}, past {EXPANSION} times; write the repeated parts out, or fewer times"
        )


def _children(node: Any, yaml: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
