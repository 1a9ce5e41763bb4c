"""The runnable examples and benchmark scripts still run (smoke tests; no timing is asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=False, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_plan_and_call_example() -> None:
    """examples/plan_and_call.py plans the bundled example and shows a request and an error."""
    out = run("examples/plan_and_call.py")
    assert "POST /stores/s1/search?limit=10" in out
    assert '"isError": true' in out


@pytest.mark.slow
def test_planning_benchmark_prints_its_table() -> None:
    """benchmarks/plan_corpus.py runs over the corpus and prints one row per document (two
    small ones here: the whole corpus takes the benchmark's time, not the suite's)."""
    out = run(
        "-m", "benchmarks.plan_corpus", "--runs", "1", "--documents", "box", "twilio-api-v2010"
    )
    assert out.count(".json") == 2
    assert "2 documents, flat: " in out
    assert "; both styles: " in out


@pytest.mark.slow
def test_call_benchmark_prints_its_table() -> None:
    """benchmarks/call_speed.py runs every case against its floor and prints the ratios."""
    out = run("-m", "benchmarks.call_speed", "--number", "20", "--repeat", "3")
    assert out.count("\n") == 5
    assert "call/floor" in out


@pytest.mark.slow
def test_pathological_benchmark_prints_every_section() -> None:
    """benchmarks/pathological.py --quick runs all four pathological inputs."""
    out = run("-m", "benchmarks.pathological", "--quick")
    for heading in ("uniqueItems", "shared sub-objects", "-value enum", "catastrophic pattern"):
        assert heading in out
    assert "the 2^41-node document, refused" in out


@pytest.mark.slow
def test_result_benchmark_prints_its_table() -> None:
    """benchmarks/result_speed.py measures Plan.result against json.loads plus a validator."""
    out = run("-m", "benchmarks.result_speed", "--number", "5")
    assert out.count("\n") == 3
    assert "result/floor" in out


@pytest.mark.slow
def test_encode_benchmark_prints_its_table() -> None:
    """benchmarks/encode_speed.py times a Stripe form and a 1 MiB upload against the stdlib."""
    out = run("-m", "benchmarks.encode_speed", "--number", "3")
    assert out.count("\n") == 3
    assert "Stripe customer form" in out
    assert "1 MiB multipart upload" in out


@pytest.mark.slow
def test_coverage_benchmark_prints_its_ratio() -> None:
    """benchmarks/coverage_speed.py plans the corpus with and without the S19/S21 options."""
    out = run("-m", "benchmarks.coverage_speed", "--runs", "1", "--documents", "twilio-api-v2010")
    assert "portable + rename + nested" in out
    assert out.splitlines()[-1].startswith("ratio")


@pytest.mark.slow
def test_yaml_benchmark_prints_its_table() -> None:
    """benchmarks/yaml_speed.py reads YAML corpus documents beside PyYAML's safe loader."""
    out = run("-m", "benchmarks.yaml_speed", "--runs", "1", "--documents", "twilio-api-v2010")
    assert out.count("\n") == 3
    assert out.splitlines()[-1].startswith("all")


@pytest.mark.slow
def test_plans_benchmark_prints_its_table() -> None:
    """benchmarks/plans_speed.py loads a plans file against json.loads and planning."""
    out = run(
        "-m",
        "benchmarks.plans_speed",
        "--number",
        "1",
        "--repeat",
        "1",
        "--documents",
        "twilio-api-v2010",
    )
    assert "twilio-api-v2010 flat" in out
    assert "twilio-api-v2010 nested" in out
    assert "load / json.loads: median" in out


@pytest.mark.slow
@pytest.mark.integration
def test_serve_benchmark_prints_both_figures() -> None:
    """benchmarks/serve_speed.py serves calls through toolshape serve and FastMCP, and starts
    both servers from the corpus (here: a few calls; the repository's corpus slice, whatever
    `TOOLSHAPE_CORPUS` names: FastMCP takes minutes to start on the whole corpus)."""
    slice_only = {**os.environ, "TOOLSHAPE_CORPUS": str(ROOT / "tests" / "data" / "corpus")}
    out = run(
        "-m", "benchmarks.serve_speed", "--calls", "5", "--rounds", "1", "--shapes", "1x1,2x8",
        "--startup-rounds", "1", "--documents", "twilio-api-v2010", env=slice_only,
    )  # fmt: skip
    assert "toolshape serve" in out
    assert "FastMCP" in out
    assert "\n| 1 | 1 | " in out
    assert "\n| 2 | 8 | " in out
    assert "\n| 1 | 8 | " not in out
    assert "first tools/list page" in out
    assert "FastMCP's server of the same documents" in out
    assert "importing the server" in out
    assert "| twilio-api-v2010 | " in out
    assert "| box | " not in out
