"""S24.5, S24.6: the repository explains itself — every rule id cited anywhere resolves in
docs/behaviour.md, and the README is short, cites no rule id, and starts with the two
commands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULE = re.compile(r"\bS(\d{1,2})(?:\.(\d{1,2}))?\b")


def defined() -> set[str]:
    text = (ROOT / "docs" / "behaviour.md").read_text(encoding="utf-8")
    sections = {f"S{m}" for m in re.findall(r"^## S(\d+) ", text, re.M)}
    rules = set(re.findall(r"\*\*(S\d+\.\d+)\*\*", text))
    return sections | rules


def cited() -> dict[str, str]:
    found: dict[str, str] = {}
    files = [
        *ROOT.glob("src/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("examples/*.py"),
        *ROOT.glob("benchmarks/*.py"),
        *ROOT.glob("docs/*.md"),
        ROOT / "CHANGELOG.md",
    ]
    for path in files:
        for match in RULE.finditer(path.read_text(encoding="utf-8")):
            rule = f"S{match.group(1)}" + (f".{match.group(2)}" if match.group(2) else "")
            found.setdefault(rule, str(path.relative_to(ROOT)))
    return found


def test_every_cited_rule_resolves_in_the_behaviour_reference() -> None:
    missing = {rule: where for rule, where in cited().items() if rule not in defined()}
    assert missing == {}


def test_the_readme_is_short_cites_no_rule_and_starts_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert RULE.findall(text) == []
    blocks = re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S)
    first = blocks[0].strip().splitlines()
    assert len(first) == 2
    assert first[1].startswith("pip install -e '.[test]' && pytest")
    assert "docs/behaviour.md" in text


def test_the_readmes_first_tool_call_runs(tmp_path: Path, monkeypatch: Any) -> None:
    """The README's library example, run as written against the bundled example document."""
    (code,) = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.S)
    example = ROOT / "src" / "toolshape" / "data" / "example.openapi.json"
    (tmp_path / "openapi.yaml").write_text(example.read_text("utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["answer"]["structuredContent"] == {"results": []}
    assert scope["request"].url == "/stores/s1/search"
    assert scope["tool"].to_mcp_tool()["name"] == "searchProducts"
