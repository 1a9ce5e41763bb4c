"""The public surface: every public name at the top, `dir()` showing only them, the stage
packages' own names, and the six primitives of the design card usable alone, each with an
example that runs."""

from __future__ import annotations

import doctest
import importlib

import pytest

import toolshape

PRIMITIVES = [
    "merge_allof",
    "hoist_body",
    "detect_collision",
    "apply_key_policy",
    "pick_reading",
    "route_args",
]
STAGES = ["read", "flatten", "call", "plans", "plansfile", "planner"]


def test_dir_shows_the_public_names_only() -> None:
    """`dir(toolshape)` is `__all__`, and every name in it is there (nothing private shows)."""
    assert dir(toolshape) == sorted(toolshape.__all__)
    assert all(hasattr(toolshape, name) for name in toolshape.__all__)
    assert not [
        name for name in toolshape.__all__ if name.startswith("_") and name != "__version__"
    ]


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_package_exports_its_own_public_names(stage: str) -> None:
    """A stage package's `__all__` is what `dir()` shows, each name also public at the top."""
    package = importlib.import_module(f"toolshape.{stage}")
    assert package.__all__
    assert dir(package) == sorted(package.__all__)
    for name in package.__all__:
        assert getattr(package, name) is getattr(toolshape, name), name


@pytest.mark.parametrize("name", PRIMITIVES)
def test_each_primitive_runs_its_documented_example(name: str) -> None:
    """Each primitive's docstring shows a call, and the call gives what it shows."""
    function = getattr(toolshape, name)
    assert ">>>" in (function.__doc__ or ""), name
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    module = importlib.import_module(function.__module__)
    tests = finder.find(function, name, module=module, globs=vars(module))
    assert tests, name
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0


def test_the_router_example_runs() -> None:
    """`Router`'s example builds a routing table from plain data, no plan needed (S12)."""
    module = importlib.import_module(toolshape.Router.__module__)
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder(recurse=False).find(
        toolshape.Router, "Router", module=module, globs=vars(module)
    ):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0


def test_the_core_imports_no_extra_and_the_server_no_command_line() -> None:
    """S23.1: `import toolshape` loads none of the `serve` extra's packages (nor PyYAML), and
    `toolshape.server`, which a gateway embeds, imports nothing of `toolshape.cli`."""
    import subprocess
    import sys

    code = (
        "import sys, toolshape; core = {m.split('.')[0] for m in sys.modules}; "
        "import toolshape.server; print(sorted(core & {'mcp', 'mcp_types', 'httpx', "
        "'uvicorn', 'starlette', 'anyio', 'yaml'}), 'toolshape.cli' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.split() == ["[]", "False"]
