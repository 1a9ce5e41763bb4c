"""S24.7: `--operations FILE` (JSON or TOML) gives the per-operation settings the library takes
as mappings — `style`, `name`, `annotations`, `fixed` — to `toolshape plan`, `toolshape call`
and the gateway; an unknown operation or key is exit 2 naming it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolshape import SettingsError, ToolshapeError
from toolshape.cli import main

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "operationId": "createThing",
                "parameters": [
                    {"name": "api-version", "in": "query", "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"name": {"type": "string"}},
                            }
                        }
                    }
                },
            },
            "get": {"summary": "List things"},  # no operationId: its derived name
        }
    },
}

TOML = """
[createThing]
style = "flat"
name = "make_thing"
fixed = { "api-version" = "2024-01-01" }

[createThing.annotations]
idempotentHint = true

[get_things]
style = "nested"
"""

AS_JSON = {
    "createThing": {
        "style": "flat",
        "name": "make_thing",
        "fixed": {"api-version": "2024-01-01"},
        "annotations": {"idempotentHint": True},
    },
    "get_things": {"style": "nested"},
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "api.json"
    path.write_text(json.dumps(DOCUMENT), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "text"), [("ops.toml", TOML), ("ops.json", json.dumps(AS_JSON))])
def test_plan_takes_each_setting_from_the_file(
    spec: Path, tmp_path: Path, name: str, text: str
) -> None:
    ops = tmp_path / name
    ops.write_text(text, encoding="utf-8")
    code, out, err = run("plan", str(spec), "--json", "--operations", str(ops))
    assert code == 0, err
    planned = json.loads(out)
    tools = {t["name"]: t for t in planned["tools"]}
    styles = {r["name"]: r["style"] for r in planned["routes"]}
    assert styles == {"make_thing": "flat", "get_things": "nested"}
    made = tools["make_thing"]
    assert made["inputSchema"]["properties"] == {"name": {"type": "string"}}  # api-version fixed
    assert made["annotations"]["idempotentHint"] is True


def test_call_takes_the_file_too(spec: Path, tmp_path: Path) -> None:
    ops = tmp_path / "ops.toml"
    ops.write_text(TOML, encoding="utf-8")
    code, out, err = run("call", str(spec), "make_thing", '{"name": "x"}', "--operations", str(ops))
    assert code == 0, err
    request = json.loads(out)
    assert request["url"] == "/things?api-version=2024-01-01"
    assert request["body"] == {"name": "x"}


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ('{"createThng": {"style": "flat"}}', ["`createThng` names no operation of the document"]),
        (
            '{"createThing": {"colour": "red", "style": "flatt"}}',
            [
                "`createThing.colour` is not a setting (the settings are style, name, "
                "annotations, fixed)",
                '`createThing.style` is "flatt"; use flat or nested',
            ],
        ),
        ('{"createThing": {"name": ""}}', ["`createThing.name` must be a tool name (text)"]),
        ('{"createThing": {"fixed": 3}}', ["`createThing.fixed` must be a table"]),
        ('{"createThing": "flat"}', ["`createThing` is not a table of settings"]),
        ("[1]", ["holds no table of operations"]),
        (
            "{",
            [
                "it is not JSON (line 1, column 2: Expecting property name enclosed in double quotes)"
            ],
        ),
    ],
)
def test_every_problem_is_exit_2_naming_its_key(
    spec: Path, tmp_path: Path, text: str, problems: list[str]
) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(text, encoding="utf-8")
    for command in (["plan", str(spec)], ["call", str(spec), "make_thing", "{}"]):
        code, out, err = run(*command, "--operations", str(ops))
        assert (code, out) == (2, "")
        assert err == f"toolshape: {ops}: {'; '.join(problems)}\n"


def test_a_toml_error_names_the_line(spec: Path, tmp_path: Path) -> None:
    ops = tmp_path / "ops.toml"
    ops.write_text('[createThing]\nstyle = "flat\n', encoding="utf-8")
    code, _, err = run("plan", str(spec), "--operations", str(ops))
    assert code == 2
    assert err.startswith(f"toolshape: {ops}: is not TOML: ")
    assert "line 2" in err


def test_a_missing_file_is_exit_2(spec: Path, tmp_path: Path) -> None:
    code, _, err = run("plan", str(spec), "--operations", str(tmp_path / "nope.json"))
    assert code == 2
    assert err == f"toolshape: {tmp_path / 'nope.json'}: can't be read: No such file or directory\n"


def test_serve_takes_the_file(spec: Path, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text('{"nothing": {}}', encoding="utf-8")
    code, _, err = run(
        "serve", str(spec), "--base-url", "http://127.0.0.1:9", "--operations", str(ops)
    )
    assert code == 2
    assert (
        err
        == "toolshape: toolshape serve: --operations: `nothing` names no operation of the document\n"
    )


def test_a_settings_error_is_data() -> None:
    """S15.3: like every error of the library, it round-trips through plain data."""
    error = SettingsError("ops.toml", ["`a` names no operation of the document"])
    again = ToolshapeError.from_dict(error.to_dict())
    assert isinstance(again, SettingsError)
    assert (again.source, again.problems, str(again)) == (error.source, error.problems, str(error))
