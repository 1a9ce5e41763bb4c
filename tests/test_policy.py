"""S7: the key policy, decided by the body alone — `apply_key_policy` as SPEC's table."""

from __future__ import annotations

from typing import Any

import pytest

from toolshape import Hoisted, KeyPolicy, Wrapped, apply_key_policy

TYPED = {"type": "integer"}


def hoisted(additional: Any) -> Hoisted:
    return Hoisted(properties={"a": {}}, required=(), additional_properties=additional)


#: SPEC S7's table, one row per line: (body, open_body_root, the flat root's
#: additionalProperties (None: absent), what an undeclared argument does).
ROWS: list[tuple[str, Any, str, Any, str]] = [
    ("additionalProperties: false", hoisted(False), "absent", False, "reject"),
    ("additionalProperties absent", hoisted(None), "absent", None, "body"),
    ("additionalProperties absent (legacy)", hoisted(None), "empty", {}, "body"),
    ("additionalProperties: <schema>", hoisted(TYPED), "absent", TYPED, "body"),
    ("additionalProperties: true", hoisted(True), "absent", True, "body"),
    ("no body", None, "absent", False, "reject"),
    ("a wrapped body", Wrapped("r", "S5.1"), "absent", False, "reject"),
    ("a wrapped body (legacy)", Wrapped("r", "S5.1"), "empty", False, "reject"),
]


@pytest.mark.parametrize(
    ("body", "open_root", "root", "undeclared"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_key_policy_table(body: Any, open_root: Any, root: Any, undeclared: str) -> None:
    """S7: each row of the table — the root's additionalProperties and the undeclared rule."""
    assert apply_key_policy(body, open_body_root=open_root) == KeyPolicy(root, undeclared)  # type: ignore[arg-type]


def test_parameters_never_decide_the_policy() -> None:
    """S7: the policy depends on the body alone: the same body, any parameters, one answer."""
    one = Hoisted(properties={"a": {}}, required=("a",), additional_properties=None)
    two = Hoisted(properties={"b": TYPED, "c": {}}, required=(), additional_properties=None)
    assert apply_key_policy(one) == apply_key_policy(two) == KeyPolicy(None, "body")
