"""Behaviour switches and the two profiles that preset them (S10)."""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

Profile: TypeAlias = Literal["2026-11-06", "legacy"]
"""A named preset of `Options` (S10): `2026-11-06` (the default) or `legacy`."""

PROFILES: tuple[Profile, ...] = ("2026-11-06", "legacy")

OutputView: TypeAlias = Literal["shape", "exact", "off"]
"""S16.7: a tool's output schema as a shape (the default: kinds only, tolerant of drift), as
the document says it exactly, or none."""


@dataclass(frozen=True, slots=True)
class Options:
    """Every behaviour difference between the profiles, each one switch (S10).

    Build one with `Options.preset(profile, **overrides)`; an explicit switch wins over the preset.
    """

    on_collision: Literal["error", "nested", "rename"] = "error"
    """S9.1: a collision is a planning error, or the whole tool stays nested with a warning, or
    (S19.3) every colliding parameter is advertised as `<name>__<in>`."""
    on_unflattenable: Literal["error", "wrap", "nested"] = "error"
    """S9.2 / S5: an unflattenable body is a planning error, or stays wrapped under `body`, or
    (S21.1) the tool is planned nested with the S9.2 message as a warning."""
    portable_names: bool = False
    """S19.2 (opt-in): every top-level argument name outside `^[A-Za-z0-9_.-]{1,64}$` gets an
    alias, and tool names match `^[A-Za-z0-9_-]{1,64}$`, so the strictest model APIs accept
    every tool."""
    composed_bodies: Literal["merge", "wrap"] = "merge"
    """S6: a qualifying root `allOf` / `dependentRequired` flattens, or keeps the body wrapped."""
    open_body_root: Literal["absent", "empty"] = "absent"
    """S7: an open body leaves the flat root's `additionalProperties` absent, or publishes `{}`."""
    header_names: Literal["lower", "declared"] = "lower"
    """S4.5: header argument names are lowercased, or kept as declared."""
    env_in_style: Literal["error", "resolve"] = "error"
    """S2.4: `$env(...)` in a `toolInputStyle` is an error, or resolved from `env`."""
    validation: Literal["whole", "per-channel"] = "whole"
    """S13.5: validate the whole call as sent, or channel by channel inserting `default`s."""
    schemaless_body: Literal["unflattenable", "no-body"] = "unflattenable"
    """S5.11: a media type without `schema` can't flatten, or the tool gets no body argument."""
    untyped_body: Literal["unflattenable", "flatten"] = "unflattenable"
    """S5.1: a body with `properties` but no `type` can't flatten, or flattens."""
    strict_roots: bool = True
    """S5.6-S5.10: the root keyword rows marked "from 2026-11-06" apply."""
    flatten_unions: bool = False
    """S11 (opt-in, off in both profiles): a root `oneOf` / `anyOf` of object variants flattens
    into one object; the original union judges every call again."""
    output_schemas: OutputView | bool = "shape"
    """S16.3, S16.7: a tool's output schema comes from its first JSON success response, as a
    `"shape"` (the default; `True` means it) or `"exact"`; `"off"` (`False`) gives no tool an
    output schema (answers are then text only)."""
    description_limit: int | None = None
    """S16.1: cut a tool's description at a word boundary to at most this many characters
    (ending with `…`); `None` keeps it whole."""
    output_schema_budget: int | None = 8192
    """S25.1: the most bytes (compact JSON) a tool's shape-view output schema may take: past
    it, `$ref` chains are cut one hop sooner at a time, then the root's kind alone is kept;
    `None` for no budget. `exact` output schemas are what was asked for, never cut."""
    response_fields: bool = False
    """S25.7 (opt-in): every tool whose answer is a JSON object with a shape output schema
    gets an optional `fields` argument (`_fields` when `fields` is taken): dotted paths into
    the answer, which then keeps only those members; it is never sent to the API."""

    def __post_init__(self) -> None:
        """S24.2: every switch is checked where it is given.

        Raises:
            ValueError: a value the switch can't take, naming the switch and what it takes.
        """
        if self.output_schemas is True or self.output_schemas is False:
            object.__setattr__(self, "output_schemas", "shape" if self.output_schemas else "off")
        for name, allowed in _kinds().items():
            value = getattr(self, name)
            if not any(_takes(kind, value) for kind in allowed):
                raise ValueError(f"option {name!r} can't be {value!r}; {_shown(allowed)}")

    @property
    def output_view(self) -> OutputView:
        """S16.7: the output schemas' view (`output_schemas`, which `__post_init__` made one of
        its three words)."""
        view = self.output_schemas
        assert not isinstance(view, bool)
        return view

    @classmethod
    def preset(cls, profile: Profile = "2026-11-06", **overrides: object) -> Options:
        """The options of `profile`, with `overrides` replacing single switches.

        Raises:
            ValueError: `profile` is not a known profile, or an override is not a switch.
        """
        if profile not in _PRESETS:
            known = ", ".join(repr(p) for p in PROFILES)
            raise ValueError(f"unknown profile {profile!r}; use one of {known}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise ValueError(
                f"unknown option {unknown[0]!r}; options are {', '.join(sorted(names))}"
            )
        return dataclasses.replace(_PRESETS[profile], **overrides)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """The switches as plain data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Options:
        """The options `to_dict` wrote; a switch left out keeps its `2026-11-06` value.

        Raises:
            ValueError: a name that is not a switch, or a value the switch can't take.
        """
        kinds = _kinds()
        unknown = sorted(set(data) - set(kinds))
        if unknown:
            raise ValueError(
                f"unknown option {unknown[0]!r}; options are {', '.join(sorted(kinds))}"
            )
        return cls(**data)  # type: ignore[arg-type]


def _shown(allowed: tuple[object, ...]) -> str:
    """What a switch takes, in words: `use one of 'error', 'nested', 'rename'`."""
    words = [
        "a whole number of at least 0"
        if kind is int
        else "true or false"
        if kind is bool
        else "None"
        if kind is type(None)
        else repr(kind)
        for kind in allowed
    ]
    return "use " + (words[0] if len(words) == 1 else "one of " + ", ".join(words))


def _takes(kind: object, value: object) -> bool:
    if kind is bool or kind is type(None):
        return type(value) is kind
    if kind is int:
        return type(value) is int and value >= 0
    return value == kind and type(value) is type(kind)


def option_kinds() -> dict[str, tuple[object, ...]]:
    """Every switch's possible values: a `Literal`'s values, or the types `bool`, `int`, None
    (the command line's flags are made from them)."""
    return dict(_kinds())


@functools.cache
def _kinds() -> dict[str, tuple[object, ...]]:
    """Every switch's possible values: a `Literal`'s values, or the types `bool`, `int`, None."""
    hints = typing.get_type_hints(Options)
    kinds: dict[str, tuple[object, ...]] = {}
    for field in dataclasses.fields(Options):
        hint = hints[field.name]
        parts = typing.get_args(hint) if typing.get_origin(hint) is not None else (hint,)
        kinds[field.name] = tuple(
            value
            for part in parts
            for value in (typing.get_args(part) if typing.get_origin(part) is Literal else (part,))
        )
    return kinds


_PRESETS: Mapping[Profile, Options] = {
    "2026-11-06": Options(),
    "legacy": Options(
        on_collision="nested",
        on_unflattenable="wrap",
        composed_bodies="wrap",
        open_body_root="empty",
        header_names="declared",
        env_in_style="resolve",
        validation="per-channel",
        schemaless_body="no-body",
        untyped_body="flatten",
        strict_roots=False,
    ),
}


@dataclass(frozen=True, slots=True)
class Fix:
    """S24.3: a switch that would plan a refused tool anyway, and what it does."""

    option: str
    """The `Options` field (`on_unflattenable`)."""
    value: str | bool
    effect: str
    """What the tool becomes with it (`plans it nested (its body one `body` argument)`)."""

    @property
    def flag(self) -> str:
        """The command line's spelling: `--on-unflattenable nested`, `--flatten-unions`."""
        flag = "--" + self.option.replace("_", "-")
        return flag if self.value is True else f"{flag} {self.value}"

    @property
    def keyword(self) -> str:
        """The library's spelling: `on_unflattenable="nested"`, `flatten_unions=True`."""
        return f"{self.option}={self.value!r}".replace("'", '"')


def fixes(kind: str, rule: str | None, reason: str) -> tuple[Fix, ...]:
    """S24.3: the switches that would plan a tool refused with a planning error of `kind`
    (refused by `rule`, for `reason`), best first; none when no switch would."""
    if kind == "collision":
        return (
            Fix("on_collision", "rename", "plans it, each colliding parameter as `<name>__<in>`"),
        )
    if kind != "unflattenable":
        return ()
    nested = Fix("on_unflattenable", "nested", "plans it nested (its body one `body` argument)")
    if rule == "S5.1" and "has no `type`" in reason:
        return (Fix("untyped_body", "flatten", "plans it flat (its `properties` as arguments)"),)
    if rule == "S5.3" and reason.startswith(
        ("the `body` schema has `oneOf`", "the `body` schema has `anyOf`")
    ):
        merged = Fix("flatten_unions", True, "may plan it flat (object variants merged)")
        return (merged, Fix("on_unflattenable", "nested", "plans it nested"))
    return (nested,)
