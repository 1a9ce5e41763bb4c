"""`fast_init`: a frozen dataclass built through its slots is the object its own constructor
builds — same fields, defaults, factories, equality, hash, immutability and pickling (S15.2)."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from toolshape.flatten._policy import KeyPolicy
from toolshape.model._frozen import fast_init
from toolshape.model._types import (
    Body,
    Diagnostic,
    Hoisted,
    Operation,
    Output,
    Parameter,
    Request,
    SecurityScheme,
    Wrapped,
)
from toolshape.planner._planner import Place, _FlatBody, _Withheld
from toolshape.plans._plan import ParameterRoute, Plan
from toolshape.read._document import RawOperation
from toolshape.schema._pointers import Followed


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list, compare=False)
    d: int | None = field(default=None, init=False, compare=False)


@fast_init
@dataclass(frozen=True, slots=True)
class Fast:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list, compare=False)
    d: int | None = field(default=None, init=False, compare=False)


def fields_of(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((1,), {}), ((1, "x"), {}), ((1,), {"c": [2]}), ((), {"a": 3, "b": "y", "c": []})],
)
def test_built_through_slots_as_the_constructor_builds(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    built = Fast(*args, **kwargs)
    assert type(built) is Fast
    assert fields_of(built) == fields_of(Plain(*args, **kwargs))
    assert built == Fast(*args, **kwargs)
    assert hash(built) == hash(Fast(*args, **kwargs))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.a = 2  # type: ignore[misc]
    assert fields_of(pickle.loads(pickle.dumps(built))) == fields_of(built)


def test_a_subclass_is_built_as_itself() -> None:
    """A subclass (its own layout) is built by the dataclass's constructor, keeping its class."""

    class Mine(Fast):
        __slots__ = ("e",)

    mine = Mine(1, c=[3])
    assert type(mine) is Mine
    assert (mine.a, mine.b, mine.c, mine.d) == (1, "b", [3], None)
    assert Mine(2).c == []


def test_a_default_factory_is_called_for_each_object() -> None:
    one, two = Fast(1), Fast(1)
    assert one.c == []
    assert one.c is not two.c


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [((), {}, "missing 1 required positional argument: 'a'"), ((1,), {"d": 2}, "'d'")],
)
def test_a_wrong_call_is_refused_as_the_constructor_refuses_it(
    args: tuple[Any, ...], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        Fast(*args, **kwargs)
    with pytest.raises(TypeError, match=message):
        Plain(*args, **kwargs)


FAST = (ParameterRoute, Plan, Parameter, Body, SecurityScheme, Output, Operation, Diagnostic)


PLANNING = (RawOperation, Place, _Withheld, _FlatBody, Hoisted, Wrapped, Followed, KeyPolicy)


@pytest.mark.parametrize("cls", [*FAST, Request, *PLANNING])
def test_the_library_classes_keep_their_signature(cls: type) -> None:
    """Built through their slots, with the dataclass's parameters in order and its defaults."""
    assert cls.__init__.__code__.co_filename.startswith("<toolshape ")  # type: ignore[misc]
    parameters = list(inspect.signature(cls).parameters.values())
    own = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in parameters] == [f.name for f in own]
    for parameter, declared in zip(parameters, own, strict=True):
        if declared.default is not dataclasses.MISSING:
            assert parameter.default == declared.default
        elif declared.default_factory is dataclasses.MISSING:
            assert parameter.default is inspect.Parameter.empty


def test_replace_equality_and_hash_of_a_library_object() -> None:
    route = ParameterRoute("q", "q", "query", "form", True)
    assert dataclasses.replace(route, explode=False) == ParameterRoute(
        "q", "q", "query", "form", False
    )
    assert route == ParameterRoute("q", "q", "query", "form", True, False, None, False, None)
    assert hash(route) == hash(ParameterRoute("q", "q", "query", "form", True))
