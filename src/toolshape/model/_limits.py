"""S14.4: the bounds that keep every plan copyable, comparable and serializable from any depth
of the caller's stack, and planning linear in what a document expands to."""

from __future__ import annotations

#: How many schema levels deep a schema may nest.
MAX_DEPTH = 128
#: How many levels deep data inside a schema (`default`, `examples`, `enum`) may nest.
MAX_DATA_DEPTH = 256
#: Shared sub-objects may expand a schema to this many times its written size (S20.2's bound
#: for YAML aliases, here for any document a caller builds) ...
EXPANSION = 100
#: ... and always to this many nodes.
EXPANSION_FLOOR = 10_000
