"""S20.2: YAML documents on the command line and in the example gateway (`toolshape[yaml]`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from toolshape._yaml import MissingYaml, YamlError, load_yaml
from toolshape.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_keys_are_their_text_and_dates_stay_text() -> None:
    """S20.2: `200:` is `"200"`, a date or a time is the text as written."""
    data = load_yaml(
        textwrap.dedent(
            """\
            responses:
              200: {description: ok}
              4XX: {description: bad}
              1.0: {description: "a float key, as written"}
            released: 2024-01-02
            at: 2024-01-02T10:00:00Z
            binary: !!binary aGk=
            """
        )
    )
    assert data == {
        "responses": {
            "200": {"description": "ok"},
            "4XX": {"description": "bad"},
            "1.0": {"description": "a float key, as written"},
        },
        "released": "2024-01-02",
        "at": "2024-01-02T10:00:00Z",
        "binary": "aGk=",
    }


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on", "on"),
        ("off", "off"),
        ("yes", "yes"),
        ("no", "no"),
        ("y", "y"),
        ("true", True),
        ("False", False),
        ("null", None),
        ("~", None),
        ("", None),
        ("012", 12),  # decimal in 1.2 (1.1 read octal 10)
        ("0o12", 10),
        ("0x1F", 31),
        ("1_000", "1_000"),  # 1.1 read 1000
        ("1:30", "1:30"),  # 1.1 read 90 (sexagesimal)
        ("1.5e3", 1500.0),
        ("-.inf", float("-inf")),
        ("+12", 12),
    ],
)
def test_the_yaml_12_core_schema(text: str, value: Any) -> None:
    """S20.2: only `true`/`false` are booleans, only `null`/`~`/empty null; 1.2's numbers."""
    assert load_yaml(f"v: {text}\n") == {"v": value}


def test_anchors_and_merge_keys() -> None:
    """S20.2: anchors, aliases and `<<` merge keys read as YAML says."""
    data = load_yaml(
        textwrap.dedent(
            """\
            base: &base {type: string, minLength: 1}
            name: *base
            code:
              <<: *base
              maxLength: 8
            both:
              <<: [*base, {format: id}]
            """
        )
    )
    assert data["name"] == {"type": "string", "minLength": 1}
    assert data["code"] == {"type": "string", "minLength": 1, "maxLength": 8}
    assert data["both"] == {"type": "string", "minLength": 1, "format": "id"}


def test_a_billion_laughs_is_refused_before_it_is_built() -> None:
    """S20.2, S14.4: aliases past 100 times the nodes written are refused, in a subprocess
    with a hard timeout (a regression fails instead of hanging)."""
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for index in range(1, 10):
        prev, name = chr(96 + index), chr(97 + index)
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 10)}]")
    script = (
        "import sys; from toolshape._yaml import load_yaml, YamlError\n"
        "try:\n    load_yaml(sys.stdin.read())\nexcept YamlError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        timeout=20,
        check=True,
    )
    # Each node weighs 1, a scalar 1 more per character. Built: the root, its 10 one-letter
    # keys (2 each), the list `a` (1 + ten `lol`s of 4 = 41), and each list after it ten times
    # the one before plus itself: 411, 4111, ... Written: the root, the keys, `a` and its ten
    # `lol`s, and the nine lists of aliases: 1 + 20 + 41 + 9 = 71.
    built = 1 + 20 + sum(int("4" + "1" * n) for n in range(1, 11))
    assert built == 45_679_012_361
    assert f"expand the 71 nodes and characters it writes to {built}, past 100" in done.stdout


def test_one_long_text_aliased_many_times_is_refused() -> None:
    """S20.2 (scalar characters count): 0.29 MB of text aliased 400 times would build 116 MB;
    it is refused, in a subprocess with a hard timeout."""
    text = 's: &s "' + "x" * 290_000 + '"\nl: [' + ", ".join(["*s"] * 400) + "]\n"
    script = (
        "import sys; from toolshape._yaml import load_yaml, YamlError\n"
        "try:\n    load_yaml(sys.stdin.read())\nexcept YamlError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=text,
        capture_output=True,
        text=True,
        timeout=20,
        check=True,
    )
    assert "past 100 times" in done.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!int abc", "line 1, column 4: 'abc' is not an integer"),
        ("a: !!float x", "line 1, column 4: 'x' is not a number"),
        ("a: !!map [1]", "line 1, column 4: a sequence is not a mapping"),
        ("a: !!omap [1]", "line 1, column 4: a sequence is not a list of mappings"),
        ("a: !!pairs {a: 1}", "line 1, column 4: a mapping is not a list of mappings"),
        ("a: !!bool yes", "line 1, column 4: 'yes' is not a boolean"),
        ("a: " + "9" * 4301, "is not an integer of at most 4300 digits (it has 4301)"),
    ],
)
def test_a_tag_that_does_not_fit_its_value_is_a_yaml_error(text: str, message: str) -> None:
    """S20.2, S14.4: a tag its value can't carry, or an integer past Python's digit limit, is a
    `YamlError` naming the place — never a foreign exception."""
    with pytest.raises(YamlError) as caught:
        load_yaml(text)
    assert message in str(caught.value)


def test_merge_keys_merge_and_a_plain_double_less_than_is_text() -> None:
    """S20.2: `<<` as a key merges a mapping; `<<` as a value is text."""
    assert load_yaml("a: <<\n") == {"a": "<<"}
    assert load_yaml("b: &x {c: 1}\nd:\n  <<: *x\n  e: 2\n") == {
        "b": {"c": 1},
        "d": {"c": 1, "e": 2},
    }


def test_a_few_aliases_are_fine_and_a_recursive_one_is_not() -> None:
    """S20.2: the bound is relative (and never below 10,000 nodes); a cycle is refused."""
    shared = "s: &s {a: 1, b: [1, 2, 3]}\n" + "".join(f"k{i}: *s\n" for i in range(200))
    assert len(load_yaml(shared)) == 201
    with pytest.raises(YamlError, match="an alias refers to a node that holds it"):
        load_yaml("a: &a {self: *a}\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a: [1, 2\nb: 3\n", "line 2, column 2:"),
        ("a: b: c\n", "line 1, column 5: mapping values are not allowed"),
        ("? [1, 2]\n: v\n", "a mapping key is a mapping or a list"),
    ],
)
def test_text_that_is_not_yaml_names_the_line_and_column(text: str, words: str) -> None:
    """S20.2: the parser's line and column."""
    with pytest.raises(YamlError) as caught:
        load_yaml(text)
    assert words in str(caught.value)


def test_without_pyyaml_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """S20.2: the library stays three dependencies; the command line says what to install."""
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(MissingYaml, match=r"pip install 'toolshape\[yaml\]'"):
        load_yaml("a: 1")
    spec = tmp_path / "doc.yaml"
    spec.write_text("openapi: 3.1.0\npaths: {}\n")
    code, out, err = run("plan", str(spec))
    assert (code, out) == (2, "")
    assert "it is not JSON, and reading YAML needs PyYAML: install the extra" in err


def test_the_command_line_plans_and_calls_a_yaml_document(tmp_path: Path) -> None:
    """S20.2: `toolshape plan` and `toolshape call` read YAML (here a Swagger 2.0 one)."""
    spec = str(ROOT / "tests" / "data" / "shop.swagger.yaml")
    code, out, _ = run("plan", spec, "--json", "--style", "nested")
    assert code == 0
    assert len(json.loads(out)["tools"]) == 23  # one operation each (S17.9)
    code, out, _ = run("call", spec, "getProduct", '{"pathParams": {"productId": "p1"}}')
    assert code == 0
    assert json.loads(out)["url"] == "/api/v1/products/p1"
