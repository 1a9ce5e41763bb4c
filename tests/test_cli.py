"""The `toolshape plan` command."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import STORE_BODY, make_document
from toolshape.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_plan_bundled_example_table() -> None:
    """With no SPEC the bundled example plans; the table has one row per tool."""
    code, out, _ = run("plan", "--style", "flat")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["tool", "style", "args", "body", "title"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:6]}
    assert rows["searchProducts"] == ["flat", "5", "hoisted", "Search", "a", "store's", "products"]
    assert rows["createOrder"] == ["flat", "4", "hoisted", "Place", "an", "order"]
    assert rows["replaceTags"] == ["nested", "2", "wrapped", "Replace", "a", "store's", "tags"]
    assert rows["getStore"] == ["flat", "2", "none", "Get", "a", "store"]
    assert "5 tools, 0 errors" in out


def test_plan_json_shape(tmp_path: Path) -> None:
    """--json prints tools, errors and diagnostics; exit 1 when there are errors."""
    doc = make_document(STORE_BODY)
    doc["paths"]["/a"] = {
        "post": {
            "operationId": "arr",
            "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
        }
    }
    spec = tmp_path / "doc.json"
    spec.write_text(json.dumps(doc))
    code, out, _ = run(
        "plan", str(spec), "--style", "flat", "--json", "--source", "config/routes.oas.json"
    )
    assert code == 1
    data = json.loads(out)
    assert list(data) == ["tools", "routes", "errors", "diagnostics"]
    (tool,) = data["tools"]  # S16.5: the MCP Tool object, key order as SPEC
    assert list(tool) == ["name", "description", "inputSchema", "annotations"]
    assert tool["description"] == "POST /stores/{storeId}/search"  # S16.1: no summary
    (route,) = data["routes"]
    assert list(route) == [
        "name",
        "operation",
        "method",
        "path",
        "contentType",
        "style",
        "body",
        "security",
        "fixed",
    ]
    assert (route["name"], route["method"], route["contentType"], route["style"]) == (
        "searchProducts",
        "POST",
        "application/json",
        "flat",
    )
    (error,) = data["errors"]
    assert error["kind"] == "unflattenable"
    assert error["message"].endswith("(config/routes.oas.json#/paths/~1a/post)")


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "can't read"),
        ("{not json", "it is not JSON (line 1, column 2: Expecting property name"),
        ("a: [1,\nb: c\n", "it is neither JSON nor YAML (line 3, column 1:"),
        ('{"swagger": "1.2"}', "Swagger 1.2, which toolshape does not read"),
        ("[1]", "not a mapping"),
    ],
)
def test_unusable_input_exits_2_without_traceback(
    tmp_path: Path, content: Any, needle: str
) -> None:
    """A file that can't be read or isn't OpenAPI 3.x: a clear message and exit 2."""
    spec = tmp_path / "doc.json"
    if content is not None:
        spec.write_text(content)
    code, out, err = run("plan", str(spec))
    assert code == 2
    assert needle in err
    assert "Traceback" not in err
    assert out == ""


def test_profile_legacy_falls_back_instead_of_failing(tmp_path: Path) -> None:
    """--profile legacy keeps an array body wrapped instead of erroring."""
    doc = make_document({"type": "array"})
    spec = tmp_path / "doc.json"
    spec.write_text(json.dumps(doc))
    assert run("plan", str(spec), "--style", "flat")[0] == 1
    code, out, _ = run("plan", str(spec), "--style", "flat", "--profile", "legacy")
    assert code == 0
    assert "wrapped" in out


def test_python_dash_m_runs_the_command() -> None:
    """`python -m toolshape plan` is the same command."""
    done = subprocess.run(
        [sys.executable, "-m", "toolshape", "plan", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [t["name"] for t in json.loads(done.stdout)["tools"]][:1] == ["searchProducts"]


def help_text(parser: Any) -> str:
    return " ".join(str(parser.format_help()).split())  # one line: argparse wraps at will


def test_every_option_is_a_flag_with_its_default_on_every_command() -> None:
    """S21.2: every `Options` switch is reachable from `toolshape plan`, `toolshape call` and
    `toolshape serve`, each with its default (and `legacy`'s) in `--help`; the default style
    is nested, but flat for `serve` (S23.2)."""
    import argparse
    import dataclasses

    from toolshape import Options
    from toolshape.cli import _parser

    commands: Any = next(
        a.choices for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    parsers = {name: commands[name] for name in ("plan", "call", "serve")}
    modern, legacy = Options.preset("2026-11-06"), Options.preset("legacy")
    for label, parser in parsers.items():
        text = help_text(parser)
        for option in dataclasses.fields(Options):
            flag = "--" + option.name.replace("_", "-")
            assert flag in text, (label, flag)
            value = getattr(modern, option.name)
            shown = (
                "none"
                if value is None
                else str(value).lower()
                if isinstance(value, bool)
                else str(value)
            )
            assert f"default: {shown}" in text, (label, option.name)
            if getattr(legacy, option.name) != value:
                other = getattr(legacy, option.name)
                other_shown = str(other).lower() if isinstance(other, bool) else str(other)
                assert f"default: {shown} ({other_shown})" in text, (label, option.name)
        default = "flat" if label == "serve" else "nested"
        assert f"toolInputStyle (default: {default})" in " ".join(text.split()), label


def test_serves_switches_reach_its_options_over_its_preset() -> None:
    """S21.2, S23.2: `toolshape serve`'s switches plan as `Options` with those switches, over
    `serve`'s preset (collisions renamed, unflattenable bodies nested) and the profile."""
    from toolshape import Options
    from toolshape.cli import _api_settings, _parser

    def options(*flags: str) -> Options:
        args = _parser().parse_args(["serve", "doc.json", "--base-url", "http://x", *flags])
        return _api_settings(args).plan_settings().options  # type: ignore[no-any-return]

    assert options() == Options.preset(on_collision="rename", on_unflattenable="nested")
    assert options(
        "--portable-names", "--on-collision", "error", "--description-limit", "80",
        "--profile", "legacy",
    ) == Options.preset(
        "legacy",
        portable_names=True,
        on_collision="error",
        on_unflattenable="nested",
        description_limit=80,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (
            ["searchProducts", "[" * 30_000 + "]" * 30_000],
            "ARGS_JSON is not JSON: it nests too deeply",
        ),
        (
            ["searchProducts", '{"limit": ' + "9" * 5000 + "}"],
            "ARGS_JSON is not JSON: it is not JSON",
        ),
        (
            ["searchProducts", "{}", "--fixed", "limit=" + "[" * 30_000],
            "is not NAME=JSON (it nests",
        ),
        (
            ["searchProducts", "{}", "--fixed", "limit=" + "1" * 5000],
            "is not NAME=JSON (it is not JSON",
        ),
    ],
    ids=["deep arguments", "a huge integer", "a deep fixed value", "a huge fixed integer"],
)
def test_call_refuses_unreadable_json_with_exit_2(argv: list[str], needle: str) -> None:
    """S14.4, S24.4: ARGS_JSON or a `--fixed` value nested 30,000 deep or holding an integer past
    Python's digit limit: a message and exit 2, never a traceback."""
    example = str(Path(__file__).resolve().parents[1] / "src/toolshape/data/example.openapi.json")
    code, out, err = run("call", example, *argv)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err
    assert out == ""


def test_serve_reads_a_header_as_curl_does() -> None:
    """S23.5: `--header "Name: value"` trims the space after the colon; one without a colon is
    exit 2 with a message."""
    from toolshape.cli import _api_settings, _parser

    args = _parser().parse_args(
        ["serve", "doc.json", "--header", "X-Key:  abc ", "--header", "X-Two:b"]
    )
    assert _api_settings(args).headers == {"X-Key": "abc", "X-Two": "b"}
    code, _, err = run("serve", "doc.json", "--header", "X-Key abc", "--base-url", "http://x.test")
    assert code == 2
    assert "--header 'X-Key abc' is not 'NAME: VALUE'" in err


def test_document_text_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    """S24.4: control characters in document text (an ESC sequence in a summary or an
    operationId) are printed as escapes, in the table and in `--json` alike (where the escape
    is JSON's own)."""
    evil = "Evil \x1b[2J\x1b]0;owned\x07 \x9b31m title"
    doc = make_document(STORE_BODY, operation={"summary": evil})
    spec = tmp_path / "doc.json"
    spec.write_text(json.dumps(doc), encoding="utf-8")
    for argv in (["plan", str(spec)], ["plan", str(spec), "--json"]):
        code, out, err = run(*argv)
        assert code == 0, err
        assert not any(c in out for c in "\x1b\x07\x9b")
        assert "\\u001b[2J" in out
    code, out, _ = run("plan", str(spec), "--json")
    assert json.loads(out)["tools"][0]["title"] == evil


def test_a_dash_reads_the_document_from_standard_input(tmp_path: Path) -> None:
    """S24.4: `toolshape plan -` reads the document from standard input."""
    example = Path(__file__).resolve().parents[1] / "src/toolshape/data/example.openapi.json"
    done = subprocess.run(
        [sys.executable, "-m", "toolshape", "plan", "-", "--json"],
        input=example.read_bytes(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    names = [tool["name"] for tool in json.loads(done.stdout)["tools"]]
    assert "searchProducts" in names


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """S24.4: `toolshape plan --json | head -1` ends without a `BrokenPipeError` traceback
    (the output, far larger than a pipe's buffer, is cut off)."""
    spec = Path(__file__).parent / "data" / "corpus" / "stripe.json"
    done = subprocess.run(
        f"{sys.executable} -m toolshape plan {spec} --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == "{\n"
    assert "Traceback" not in done.stderr
    assert "BrokenPipeError" not in done.stderr


HINTED: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/a": {
            "post": {
                "operationId": "arr",
                "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
            }
        },
        "/b": {
            "post": {
                "operationId": "untyped",
                "requestBody": {
                    "content": {"application/json": {"schema": {"properties": {"x": {}}}}}
                },
            }
        },
        "/c/{id}": {
            "post": {
                "operationId": "coll",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"type": "object", "properties": {"id": {}}}}
                    }
                },
            }
        },
    },
}


def test_a_printed_planning_error_is_followed_by_the_switch_that_plans_it(tmp_path: Path) -> None:
    """S24.3: after each printed planning error, one line names the switch that would plan
    the tool anyway; the error's own text stays exact; planned with it, the tool plans."""
    spec = tmp_path / "doc.json"
    spec.write_text(json.dumps(HINTED), encoding="utf-8")
    code, out, _ = run("plan", str(spec), "--style", "flat")
    assert code == 1
    lines = out.splitlines()
    hints = {
        line.split("'")[1]: lines[i + 1]
        for i, line in enumerate(lines)
        if line.startswith("error:")
    }
    assert hints["arr"].startswith("hint: `--on-unflattenable nested`")
    assert hints["untyped"].startswith("hint: `--untyped-body flatten`")
    assert hints["coll"].startswith("hint: `--on-collision rename`")
    for switch in (
        ["--on-unflattenable", "nested"],
        ["--untyped-body", "flatten"],
        ["--on-collision", "rename"],
    ):
        code, out, _ = run("plan", str(spec), "--style", "flat", *switch)
        assert "errors" in out
    code, out, _ = run(
        "plan",
        str(spec),
        "--style",
        "flat",
        "--on-unflattenable",
        "nested",
        "--on-collision",
        "rename",
    )
    assert code == 0
    assert "3 tools, 0 errors" in out


def test_the_command_line_refuses_a_style_that_is_no_style() -> None:
    """S24.2: `--style flatt` is exit 2 on the command line (the library keeps S2.3's warning)."""
    with pytest.raises(SystemExit) as caught:
        run("plan", "--style", "flatt")
    assert caught.value.code == 2


def test_the_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """S25.9: `toolshape --version` prints the package's version and exits 0."""
    import toolshape

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"toolshape {toolshape.__version__}\n"


def test_a_plans_file_is_planned_as_serve_plans_unless_a_planning_flag_is_given(
    tmp_path: Path,
) -> None:
    """S27.2: `toolshape plan --out` writes what `toolshape serve` would plan (flat,
    collisions renamed, unflattenable bodies nested) unless a planning flag is given, so a
    call that works against the document works against its plans file; `serve --plans`
    refuses every planning flag alike, `--style flat` too, naming them in one message."""
    from toolshape import load_plans

    out = tmp_path / "plans.json"
    assert main(["plan", "--out", str(out)], io.StringIO(), io.StringIO()) == 0
    served = load_plans(out.read_text(encoding="utf-8"))
    assert served.style == "flat"
    assert "flat" in {p.style for p in served.tools}
    assert served.options.on_collision == "rename"
    assert served.options.on_unflattenable == "nested"
    assert main(["plan", "--out", str(out), "--style", "nested"], io.StringIO(), io.StringIO()) == 0
    assert load_plans(out.read_text(encoding="utf-8")).style == "nested"
    err = io.StringIO()
    code = main(
        ["serve", "--plans", str(out), "--style", "flat", "--on-collision", "error"],
        io.StringIO(),
        err,
    )
    assert code == 2
    assert err.getvalue() == (
        "toolshape serve: --style, --on-collision: a plans file is served as it was planned "
        "(plan it again with these flags: toolshape plan SPEC ... --out FILE)\n"
    )
