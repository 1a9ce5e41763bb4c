"""Every example runs as written: each shell and Python block of README.md and docs/*.md, run
in a fresh folder holding the bundled example document as `openapi.json` and `openapi.yaml` (the
names the examples give a user's document), in order, file by file; what a block says it prints
(the `# ...` lines right after a `print`) is what it prints."""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "toolshape" / "data" / "example.openapi.json"
BIN = Path(sys.executable).parent

#: Lines a test can't run as written, and why (each is run elsewhere, or is the suite itself).
NOT_RUN = {
    "pytest": "it is this test suite",
    "benchmarks/run": "it builds the benchmark environment (minutes; docs/benchmarks.md)",
    ".venv-bench/bin/python": "it runs in the benchmark environment",
}


@dataclass(frozen=True)
class Block:
    file: str
    line: int
    language: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The `sh` and `python` blocks of one Markdown file, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"^```(sh|python)\n(.*?)^```", text, re.S | re.M):
        line = text[: match.start()].count("\n") + 1
        found.append(Block(str(path.relative_to(ROOT)), line, match.group(1), match.group(2)))
    return found


def documents() -> list[Path]:
    """README.md and the docs that hold a shell or Python block."""
    return [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))] if blocks(p)]


def commands(text: str) -> list[str]:
    """A shell block's commands: its lines, `\\`-continued lines joined."""
    return [c for c in text.replace("\\\n", " ").splitlines() if c.strip()]


def installed(command: str) -> str:
    """`command` without its `pip install ... &&` step: the suite runs in the environment the
    README's commands install."""
    return re.sub(r"^\s*pip install [^&]*&&\s*", "", command)


def folder(tmp_path: Path) -> Path:
    (tmp_path / "openapi.json").write_text(EXAMPLE.read_text("utf-8"), encoding="utf-8")
    shutil.copy(tmp_path / "openapi.json", tmp_path / "openapi.yaml")  # JSON is YAML
    return tmp_path


def environment(text: str) -> dict[str, str]:
    """The process environment, the venv's commands first, every `env:VAR` a block names set."""
    named = dict.fromkeys(re.findall(r"env:([A-Z_][A-Z0-9_]*)", text), "example-token")
    return {**os.environ, **named, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}


def serve(command: str, where: Path, env: dict[str, str]) -> str:
    """Start a `toolshape serve` command, wait for its start-up line (S27.1), stop it."""
    seen = b""
    with subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=where,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    ) as process:
        assert process.stderr is not None
        deadline = time.monotonic() + 60
        try:
            while b"\n" not in seen.partition(b"toolshape serve ")[2]:
                ready, _, _ = select.select([process.stderr], [], [], 1)
                chunk = os.read(process.stderr.fileno(), 4096) if ready else b""
                if (ready and not chunk) or time.monotonic() > deadline:
                    break
                seen += chunk
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
    return seen.decode("utf-8", "replace")


def run_shell(block: Block, where: Path) -> None:
    env = environment(block.text)
    for raw in commands(block.text):
        command = installed(raw)
        skipped = next((why for start, why in NOT_RUN.items() if command.startswith(start)), None)
        if skipped is not None:
            continue
        if command.startswith("toolshape serve"):
            said = serve(command, where, env)
            assert re.search(r"^toolshape serve \S+: \d+ tools? of ", said, re.M), (block.id, said)
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=where, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (block.id, command, done.stdout[-2000:], done.stderr[-2000:])


def said_prints(code: str) -> str | None:
    """The output a Python block says it prints: the `# ` lines right after its last `print`
    call, or None when it says none."""
    lines = code.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].lstrip().startswith("print("):
            said = []
            for line in lines[index + 1 :]:
                if not line.lstrip().startswith("# "):
                    break
                said.append(line.lstrip()[2:])
            return " ".join(said) or None
    return None


def run_python(block: Block, scope: dict[str, Any]) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, block.id, "exec"), scope)
    said = said_prints(block.text)
    if said is not None:
        printed = " ".join(out.getvalue().split())
        assert printed.endswith(" ".join(said.split())), (block.id, printed)


@pytest.mark.parametrize("document", documents(), ids=lambda p: p.name)
def test_every_example_runs_as_written(
    document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 10 of S27's issue: a doc's shell and Python blocks, in order, in a fresh folder;
    the files they name are there (or an earlier block makes them)."""
    found = blocks(document)
    where = folder(tmp_path)
    monkeypatch.chdir(where)
    scope: dict[str, Any] = {}
    for block in found:
        if block.language == "sh":
            run_shell(block, where)
        else:
            run_python(block, scope)


def test_the_readmes_first_command_prints_what_the_readme_says(tmp_path: Path) -> None:
    """README: `toolshape plan --style flat` plans the bundled example: five tools (three
    flat, two nested where the document asks) and no errors."""
    done = subprocess.run(
        [str(BIN / "toolshape"), "plan", "--style", "flat"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split()[:2] for line in done.stdout.splitlines()[1:6]]
    assert [style for _, style in rows].count("flat") == 3
    assert [style for _, style in rows].count("nested") == 2
    assert done.stdout.rstrip().endswith("5 tools, 0 errors")
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "five tools (three flat, two kept nested" in readme
    assert "and no\nerrors" in readme or "and no errors" in readme
