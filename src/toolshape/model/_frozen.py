"""Frozen dataclasses built at the speed of plain ones.

A frozen dataclass's constructor sets each field through `object.__setattr__` (a call per
field), several times slower than a plain slot assignment. Planning builds thousands of them
per document (a route, a parameter, an operation, a plan per tool), so the hot ones get an
`__init__` that turns the new object into its not-frozen twin — a class with the same slots —
sets every slot by assignment, and gives it its class back: the same object, with the same
signature and defaults, in a fraction of the time.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from functools import cache
from typing import Any, TypeVar, cast

T = TypeVar("T")


@cache
def unfrozen(cls: type) -> type | None:
    """A class with the slots of the frozen dataclass `cls`, not frozen: an instance is built as
    one of these, every slot set by plain assignment, then given its class — the same object
    `cls`'s constructor builds. None where the interpreter refuses the class assignment. One
    twin per class, whoever asks (`fast_init`, a loader building plans through slots)."""
    names: tuple[str, ...] = getattr(cls, "__slots__", ())
    twin = type(f"_Unfrozen{cls.__name__}", (), {"__slots__": names})
    try:
        probe = twin()
        for name in names:
            setattr(probe, name, name)
        probe.__class__ = cls
        if all(getattr(probe, name) == name for name in names):
            return twin
    except TypeError:  # pragma: no cover - another implementation
        pass
    return None  # pragma: no cover


class _Factory:
    """The default of a parameter whose field has a `default_factory` (called per object)."""


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen slotted dataclass `cls` an `__init__` that sets its slots by plain
    assignment on its `unfrozen` twin; the signature, the defaults (factories called per
    object, as the dataclass does) and the object built are the dataclass's own. A class with
    `__post_init__`, keyword-only fields or a field without a value keeps its constructor."""
    twin = unfrozen(cast(type, cls))  # a class is hashable; `type[T]` is not said to be
    every = fields(cls)  # type: ignore[arg-type]
    if (
        twin is None
        or hasattr(cls, "__post_init__")
        or any(f.kw_only is True for f in every)
        or any(not f.init and f.default is MISSING and f.default_factory is MISSING for f in every)
        or set(getattr(cls, "__slots__", ())) != {f.name for f in every}
    ):
        return cls  # pragma: no cover - none of this library's classes
    namespace: dict[str, Any] = {"_twin": twin, "_cls": cls, "_set": object.__setattr__}
    namespace["_FACTORY"] = _Factory
    namespace["_own"] = cls.__init__  # a subclass's object (its own layout) is built by it
    parameters, given, stores = [], [], []
    for f in every:
        value = f.name
        if f.default_factory is not MISSING:
            namespace[f"_make_{f.name}"] = f.default_factory
            default = "_FACTORY"
            value = f"_make_{f.name}() if {f.name} is _FACTORY else {f.name}"
        elif f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            default = f"_default_{f.name}"
        else:
            default = ""
        if f.init:
            parameters.append(f"{f.name}={default}" if default else f.name)
            given.append(f"({value})")
        else:  # set from its default, as the dataclass does
            value = f"_make_{f.name}()" if f.default_factory is not MISSING else default
        stores.append(f"    self.{f.name} = {value}")
    body = [
        "    if self.__class__ is not _cls:",
        f"        return _own(self, {', '.join(given)})",
        "    _set(self, '__class__', _twin)",
        *stores,
        "    self.__class__ = _cls",
    ]
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body) + "\n"
    exec(compile(source, f"<toolshape {cls.__name__}.__init__>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
