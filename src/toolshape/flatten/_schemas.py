"""S3, S4: the nested and flat input schemas, self-contained through one root `$defs`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import reachable
from toolshape.model._types import (
    CHANNEL_ARGUMENT,
    NESTED_ORDER,
    Channel,
    Parameter,
    Schema,
)

#: S3.1: the body's leading keys, in the order of the worked example.
_BODY_KEY_ORDER = ("type", "properties", "required", "additionalProperties")


def argument_name(param: Parameter, header_names: Literal["lower", "declared"]) -> str:
    """A parameter's argument name: header names lowercased unless kept as declared (S4.5)."""
    if param.channel == "header" and header_names == "lower":
        return param.name.lower()
    return param.name


def argument_schema(param: Parameter) -> Schema:
    """S4.3: the parameter's schema unchanged, plus its `description` when the schema has none."""
    schema = param.schema
    if param.description is not None and is_map(schema) and "description" not in schema:
        return {**schema, "description": param.description}
    return schema


def order_body(schema: Schema) -> Schema:
    """S3.1: `type`, `properties`, `required`, `additionalProperties`, then document order."""
    if not is_map(schema):
        return schema
    head = {k: schema[k] for k in _BODY_KEY_ORDER if k in schema}
    return {**head, **{k: v for k, v in schema.items() if k not in head}}


def object_schema(
    properties: Mapping[str, Schema],
    required: Sequence[str],
    additional_properties: Schema | None = False,
    *,
    dependent_required: Mapping[str, Sequence[str]] | None = None,
    declare: str | None = None,
    defs: Mapping[str, Schema] | None = None,
) -> dict[str, Unchecked]:
    """An object schema in the key order of the worked example (S3, S4)."""
    out: dict[str, Unchecked] = {}
    if declare is not None:
        out["$schema"] = declare  # S4.7: the body's dialect, when it is not 2020-12
    out["type"] = "object"
    out["properties"] = dict(properties)
    out["required"] = list(required)
    if additional_properties is not None:
        out["additionalProperties"] = additional_properties
    if dependent_required:
        out["dependentRequired"] = {k: list(v) for k, v in dependent_required.items()}
    if defs:
        out["$defs"] = dict(defs)
    return out


def channel_schema(
    params: Sequence[Parameter],
    header_names: Literal["lower", "declared"],
    aliases: Mapping[tuple[Channel, str], str] | None = None,
) -> dict[str, Unchecked]:
    """S3.1: one parameter channel as a closed object (members by alias, S19.2)."""
    aliases = aliases or {}
    names = [argument_name(p, header_names) for p in params]
    advertised = [aliases.get((p.channel, n), n) for p, n in zip(params, names, strict=True)]
    return object_schema(
        {a: argument_schema(p) for p, a in zip(params, advertised, strict=True)},
        [a for p, a in zip(params, advertised, strict=True) if p.required],
    )


def nested_schema(
    params: Sequence[Parameter],
    body: Schema | None,
    *,
    has_body: bool,
    header_names: Literal["lower", "declared"],
    declare: str | None,
    defs: Mapping[str, Schema],
    aliases: Mapping[tuple[Channel, str], str] | None = None,
) -> dict[str, Unchecked]:
    """S3: one required object argument per declared channel, in S3.1 order, root closed;
    `aliases` rename channel members (a nested tool's portable names, S19.2)."""
    properties: dict[str, Schema] = {}
    for channel in NESTED_ORDER:
        if channel == "body":
            if has_body:
                properties["body"] = order_body({} if body is None else body)
            continue
        members = [p for p in params if p.channel == channel]
        if members:
            properties[CHANNEL_ARGUMENT[channel]] = channel_schema(members, header_names, aliases)
    return object_schema(properties, list(properties), False, declare=declare, defs=defs)


def flat_parts(
    params: Sequence[Parameter],
    body_properties: Mapping[str, Schema],
    body_required: Sequence[str],
    header_names: Literal["lower", "declared"],
    aliases: Mapping[tuple[Channel, str], str] | None = None,
) -> tuple[dict[str, Schema], list[str], list[tuple[Channel, list[str]]]]:
    """S4.1, S4.2: flat properties and `required` in channel order, and the advertised names
    per channel; `aliases` give names by `(channel, name)` (S19)."""
    aliases = aliases or {}
    properties: dict[str, Schema] = {}
    required: list[str] = []
    names: list[tuple[Channel, list[str]]] = []
    for channel in NESTED_ORDER:
        if channel == "body":
            if aliases:
                advertised = [aliases.get(("body", n), n) for n in body_properties]
                wanted = [aliases.get(("body", n), n) for n in body_required]
                for name, schema in zip(advertised, body_properties.values(), strict=True):
                    properties.setdefault(name, schema)
            else:  # nearly always: names as declared, each once, merged in C (earlier
                # channels keep theirs)
                advertised, wanted = list(body_properties), list(body_required)
                body = dict(body_properties)
                for name in properties.keys() & body.keys():
                    del body[name]
                properties.update(body)
            names.append(("body", advertised))
            taken = set(required)
            for name in wanted:
                if name not in taken:
                    required.append(name)
                    taken.add(name)
            continue
        advertised_names: list[str] = []
        for p in params:
            if p.channel != channel:
                continue
            name = argument_name(p, header_names)
            if aliases:
                name = aliases.get((channel, name), name)
            advertised_names.append(name)
            properties.setdefault(name, argument_schema(p))
            if p.required and name not in required:
                required.append(name)
        names.append((channel, advertised_names))
    return properties, required, names


def reachable_defs(roots: Sequence[Schema | None], defs: Mapping[str, Schema]) -> dict[str, Schema]:
    """The part of `defs` the references inside `roots` reach, in `defs` order (S4.4: through
    `$ref`, `$dynamicRef` and discriminator mappings)."""
    return reachable(roots, defs)
