"""S1.2, S1.3, S4.4, S26.7: a document's local references — the pointer a `$ref` names, what
it names, and the `$defs` name each referenced schema is bundled under.

Only local references are read: toolshape never retrieves anything. References out of the
document and reference cycles (also through a pointer that passes through itself) are refused
as `Problem`s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from referencing import Registry, Resource
from referencing.exceptions import PointerToNowhere, Unresolvable

from toolshape.model._json import Unchecked, is_map
from toolshape.model._pointers import unescape
from toolshape.read._problem import fail

_BASE_URI = "urn:toolshape:document"
_COMPONENT = re.compile(r"^/components/schemas/([A-Za-z0-9._-]+)\Z")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")

#: `plain_target` found nothing (None is a value a pointer may name).
NOWHERE: Any = object()


def pointer_of(ref: str, self_uri: str | None = None) -> str:
    """The JSON pointer a local `$ref` names (S1.2: anything else is refused); a reference
    that resolves against the document's `$self` (`self_uri`, without a fragment) to the
    document itself is local (S26.7)."""
    if not ref.startswith("#") and self_uri is not None:
        uri, fragment = urldefrag(urljoin(self_uri, ref))
        if uri == self_uri:
            ref = "#" + fragment
    if not ref.startswith("#"):
        within = f" (its `$self` is `{self_uri}`)" if self_uri is not None else ""
        fail(
            "reference",
            f"reference `{ref}` is not local to the document{within}; "
            "toolshape never retrieves anything, so bundle it into the document",
            "S1.2",
        )
    pointer = unquote(ref[1:]) if "%" in ref else ref[1:]
    if pointer and not pointer.startswith("/"):
        fail("reference", f"reference `{ref}` is an anchor, not a JSON pointer", "S1.2")
    if not pointer:
        fail("reference", f"reference `{ref}` points at the document root, not a schema", "S1.2")
    return pointer


def plain_target(document: Unchecked, pointer: str) -> Unchecked:
    """What `pointer` names when every step is a key of an object or a decimal index of an
    array, as `referencing` walks the (opaque) document; `NOWHERE` for anything else, which
    the resolver then decides (a `%` it would decode, a step through a `$ref`)."""
    if "%" in pointer:
        return NOWHERE
    node = document
    for raw in pointer.split("/")[1:]:
        if type(node) is dict:
            segment = unescape(raw)
            if segment not in node:
                return NOWHERE
            node = node[segment]
        elif type(node) is list and raw.isascii() and raw.isdigit():
            index = int(raw)
            if index >= len(node):
                return NOWHERE
            node = node[index]
        else:
            return NOWHERE
    return node


class References:
    """The local references of one document, each target found once (S1.2, S1.3, S26.7)."""

    def __init__(self, document: Mapping[str, Unchecked], self_uri: str | None = None) -> None:
        self.document = document
        self.self_uri = urldefrag(self_uri)[0] if self_uri is not None else None
        """S26.7: the document's own URI (an OpenAPI 3.2 `$self`): a reference that resolves
        to it is local."""
        registry: Registry[Unchecked] = Registry().with_resource(
            _BASE_URI, Resource.opaque(document)
        )
        self._resolver = registry.resolver(_BASE_URI)
        self._targets: dict[str, Unchecked] = {}
        self._resolving: set[str] = set()

    def pointer_of(self, ref: str) -> str:
        """The JSON pointer the local `ref` names (`pointer_of`, with the document's `$self`)."""
        return pointer_of(ref, self.self_uri)

    def lookup(self, pointer: str, ref: str) -> Unchecked:
        """What `pointer` names in the document (following `$ref`s met on the way)."""
        if pointer not in self._targets:
            found = plain_target(self.document, pointer)
            if found is not NOWHERE:  # what the resolver finds, found without it
                self._targets[pointer] = found
                return found
            try:
                self._targets[pointer] = self._resolver.lookup("#" + pointer).contents
            except (PointerToNowhere, Unresolvable, ValueError, LookupError):
                if pointer in self._resolving:
                    fail(
                        "reference",
                        f"reference `{ref}` passes through itself on its way to `#{pointer}`, "
                        "a cycle that never reaches a value",
                        "S1.2",
                    )
                self._resolving.add(pointer)
                try:
                    self._targets[pointer] = self._walk_through_refs(pointer, ref)
                finally:
                    self._resolving.discard(pointer)
        return self._targets[pointer]

    def _walk_through_refs(self, pointer: str, ref: str) -> Unchecked:
        """A pointer that passes through a `$ref` on its way (found in real documents):
        follow each `$ref` met mid-way, as OpenAPI tooling commonly does."""
        node: Unchecked = self.document
        for raw in pointer.split("/")[1:]:
            segment = unescape(raw)
            if is_map(node) and segment not in node:
                node = self.follow(node, pointer)
            if is_map(node) and segment in node:
                node = node[segment]
            elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
                node = node[int(segment)]
            else:
                fail("reference", f"reference `{ref}` points to nothing in the document", "S1.2")
        return node

    def follow(self, node: Unchecked, pointer: str, *, bare: bool = False) -> Unchecked:
        """Follow a chain of `$ref` mappings to what they name (S1.3), refusing cycles; with
        `bare`, only mappings that are nothing but a `$ref` (a schema's siblings count)."""
        return self.chain(node, pointer, bare=bare)[0]

    def chain(
        self, node: Unchecked, pointer: str, *, bare: bool = False
    ) -> tuple[Unchecked, list[str]]:
        """`(target, pointers)`: what a chain of `$ref`s ends at, and the pointers it took."""
        taken: list[str] = []
        while (
            (type(node) is dict or is_map(node))
            and isinstance(node.get("$ref"), str)
            and not (bare and len(node) > 1)
        ):
            ref = node["$ref"]
            target = self.pointer_of(ref)
            if target in taken or target == pointer:
                shown = " → ".join(f"`#{p}`" for p in [*taken, target])
                fail("reference", f"reference cycle {shown} never reaches a value", "S1.2")
            taken.append(target)
            node = self.lookup(target, ref)
        return node, taken


class DefNames:
    """S4.4: the `$defs` name of each referenced schema, given once per document: a component
    keeps its name; any other pointer becomes a name no component has."""

    def __init__(self, components: Mapping[str, Unchecked]) -> None:
        self._names: dict[str, str] = {}
        self._taken: set[str] = {k for k in components if isinstance(k, str)}
        self.pointer: dict[str, str] = {}
        """The pointer each given name stands for."""

    def __call__(self, pointer: str) -> str:
        """The `$defs` name of the schema at `pointer`."""
        name = self._names.get(pointer)
        if name is None:
            match = _COMPONENT.match(pointer)
            if match:
                name = match.group(1)
            else:
                base = _UNSAFE.sub("_", pointer.strip("/").replace("~1", "_").replace("~0", "_"))
                name, count = base, 1
                while name in self._taken:
                    count += 1
                    name = f"{base}_{count}"
            self._taken.add(name)
            self._names[pointer] = name
            self.pointer[name] = pointer
        return name
