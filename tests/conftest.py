"""Shared fixtures: the worked example, documents in the repository, and the folders of outside
material an environment variable may point to (tests/data/SOURCES.md)."""

from __future__ import annotations

import copy
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from toolshape import ArgumentError, Plan, PlanResult, plan_document

DATA = Path(__file__).resolve().parent / "data"
#: The worked example of the reference behaviour, quoted exactly (tests/data/SOURCES.md).
WORKED_EXAMPLE: dict[str, Any] = json.loads((DATA / "worked-example.json").read_text("utf-8"))
#: A slice of real documents, in the repository so the corpus laws run on every clone.
SLICE = DATA / "corpus"
SOURCE = "config/routes.oas.json"
LOCATION = "config/routes.oas.json#/paths/~1stores~1{storeId}~1search/post"


class FolderNotFound(Exception):
    """An environment variable names a folder that does not exist."""


def outside(variable: str) -> Path | None:
    """The folder the environment variable `variable` names, or None when it is unset.

    Raises:
        FolderNotFound: it is set, but names no folder (a typo must not skip tests silently).
    """
    value = os.environ.get(variable)
    if not value:
        return None
    folder = Path(value).resolve()
    if not folder.is_dir():
        raise FolderNotFound(f"{variable}={value!r} names no folder (tests/data/SOURCES.md)")
    return folder


def _skipped(variable: str, what: str, arity: int = 1) -> Any:
    """One test parameter (of `arity` values) skipped with a reason naming `variable`."""
    reason = f"set {variable} to {what} to run this (tests/data/SOURCES.md; .ci/run sets it)"
    values = (None,) * arity
    return pytest.param(*values, id=f"no-{variable}", marks=pytest.mark.skip(reason=reason))


CORPUS_VARIABLE = "TOOLSHAPE_CORPUS"
JSTS_VARIABLE = "TOOLSHAPE_JSTS"


def whole_corpus() -> list[Path]:
    """The whole documents `TOOLSHAPE_CORPUS` names (empty when it is unset)."""
    folder = outside(CORPUS_VARIABLE)
    return [] if folder is None else sorted(folder.glob("*.json"))


def whole_documents() -> list[Any]:
    """`whole_corpus()` as test parameters (ids: the file stems), or one skipped parameter
    whose reason names the variable."""
    paths = whole_corpus()
    if not paths:
        return [_skipped(CORPUS_VARIABLE, "a folder of OpenAPI documents")]
    return [pytest.param(path, id=path.stem) for path in paths]


def corpus_documents() -> list[Any]:
    """The slice in the repository (ids `slice-<stem>`), then the whole documents
    `TOOLSHAPE_CORPUS` names, as test parameters: the laws run on every clone."""
    sliced = [pytest.param(p, id=f"slice-{p.stem}") for p in sorted(SLICE.glob("*.json"))]
    return sliced + [pytest.param(path, id=path.stem) for path in whole_corpus()]


def corpus_file(name: str) -> Path:
    """One whole document of `TOOLSHAPE_CORPUS` (`stripe.json`); the test skips, naming the
    variable, when it is unset."""
    folder = outside(CORPUS_VARIABLE)
    if folder is None or not (folder / name).is_file():
        pytest.skip(f"set {CORPUS_VARIABLE} to a folder holding {name} (tests/data/SOURCES.md)")
    return folder / name


def jsts_folder() -> Path | None:
    """The JSON-Schema-Test-Suite `TOOLSHAPE_JSTS` names, or None."""
    return outside(JSTS_VARIABLE)


def jsts_paths(*drafts: str, recursive: bool = False) -> list[Path]:
    """The suite's files of `drafts` (`draft2020-12`, `draft7`), or none when
    `TOOLSHAPE_JSTS` is unset."""
    folder = jsts_folder()
    if folder is None:
        return []
    return [
        path
        for draft in drafts
        for path in sorted(
            (folder / draft).rglob("*.json") if recursive else (folder / draft).glob("*.json")
        )
    ]


def jsts_groups(*drafts: str, recursive: bool = False) -> list[Any]:
    """Every test group of the suite's files of `drafts` as a `(path, group)` test parameter
    (ids `draft7/allOf.json/3`), or one skipped parameter naming the variable."""
    folder = jsts_folder()
    if folder is None:
        return [_skipped(JSTS_VARIABLE, "the JSON-Schema-Test-Suite (tests/ and remotes/)", 2)]
    return [
        pytest.param(path, group, id=f"{path.relative_to(folder)}/{index}")
        for path in jsts_paths(*drafts, recursive=recursive)
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8")))
    ]


@cache
def corpus_document(path: Path) -> Any:
    """A corpus document, read once per test process (callers must not change it)."""
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def corpus_plans(path: Path, style: str) -> PlanResult:
    """A corpus document planned with the default profile, once per test process and style
    (plans are immutable values, S15.2, so the corpus-wide tests can share them)."""
    return plan_document(corpus_document(path), style=style, source=path.name)


#: The worked example's operation, parameters and body, as the reference writes them.
STORE_OPERATION: dict[str, Any] = WORKED_EXAMPLE["paths"]["/stores/{storeId}/search"]["post"]
STORE_PARAMETERS: list[dict[str, Any]] = STORE_OPERATION["parameters"]
STORE_BODY: dict[str, Any] = STORE_OPERATION["requestBody"]["content"]["application/json"]["schema"]


def spec_example(title: str) -> Any:
    """A JSON block of the worked example ("Flat inputSchema", "Nested inputSchema")."""
    key = {
        "Nested inputSchema": "nestedInputSchema",
        "Flat inputSchema": "flatInputSchema",
        "Flat call": "flatCall",
        "Nested call": "nestedCall",
    }[title]
    return copy.deepcopy(WORKED_EXAMPLE[key])


def spec_error(name: str) -> str:
    """One of the worked example's exact messages: `invalidToolStyle` (S2.3), `envStyle`
    (S2.4), `collision` (S9.1), `arrayBody` (S9.2)."""
    message: str = WORKED_EXAMPLE["messages"][name]
    return message


def make_document(
    body: Any = None,
    parameters: list[dict[str, Any]] | None = None,
    *,
    openapi: str = "3.1.0",
    content_type: str = "application/json",
    operation: dict[str, Any] | None = None,
    components: dict[str, Any] | None = None,
    path: str | None = None,
    method: str = "post",
    body_required: bool | None = None,
) -> dict[str, Any]:
    """A one-operation document in the shape of the worked example (`searchProducts`).

    The path is the worked example's, unless `parameters` declare other path parameters: then
    it is `/search` with one `{variable}` per path parameter (S12.1: template and parameters
    must agree).
    """
    op: dict[str, Any] = {"operationId": "searchProducts"}
    op["parameters"] = copy.deepcopy(STORE_PARAMETERS if parameters is None else parameters)
    if path is None:
        well_formed = all(isinstance(p, dict) and "name" in p for p in op["parameters"])
        names = [p["name"] for p in op["parameters"] if well_formed and p.get("in") == "path"]
        path = (
            "/search" + "".join(f"/{{{name}}}" for name in names)
            if well_formed and names != ["storeId"]
            else "/stores/{storeId}/search"
        )
    if body is not None:
        media = {} if body == "no-schema" else {"schema": copy.deepcopy(body)}
        op["requestBody"] = {"content": {content_type: media}}
        if body_required is not None:
            op["requestBody"]["required"] = body_required
    op.update(operation or {})
    doc: dict[str, Any] = {
        "openapi": openapi,
        "info": {"title": "t", "version": "1"},
        "paths": {path: {method: op}},
    }
    if components:
        doc["components"] = components
    return doc


def only_path(doc: dict[str, Any]) -> str:
    """The path key of a one-operation document."""
    (path,) = doc["paths"]
    return str(path)


def accepts(plan: Plan, arguments: Any) -> bool:
    """Whether `plan` accepts a call with `arguments` (a Request, not an ArgumentError)."""
    try:
        plan.call(arguments)
    except ArgumentError:
        return False
    return True


@pytest.fixture
def store() -> dict[str, Any]:
    """The worked example operation (SPEC S3.3, S4.8)."""
    return make_document(STORE_BODY)


NODE = Path(__file__).resolve().parent / "node"


def typescript_calls(url: str, calls: list[list[Any]]) -> Any:
    """The official TypeScript client over streamable HTTP at `url` (tests/node/client.mjs):
    every page listed, each `[name, arguments]` call made; its JSON report (`names`, and per
    call `result` or the `error` the client raised)."""
    import json
    import subprocess

    done = subprocess.run(
        ["node", str(NODE / "client.mjs"), url],
        input=json.dumps({"calls": calls}).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def typescript_sdk() -> pytest.MarkDecorator:
    """A mark that skips a test, with the reason, when the official TypeScript MCP SDK is not
    installed under tests/node (`npm ci --prefix tests/node`; .ci/run does it)."""
    missing = not (NODE / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir()
    return pytest.mark.skipif(
        missing, reason="run `npm ci --prefix tests/node` (node 18+) to run this; .ci/run does"
    )


def typescript_verdicts(cases: list[tuple[Any, Any]]) -> list[Any]:
    """Whether the TypeScript MCP SDK's default validator (Ajv with ajv-formats, what its
    client judges `structuredContent` with) accepts each `(schema, instance)`."""
    import subprocess

    done = subprocess.run(
        ["node", str(NODE / "validate.mjs")],
        input=json.dumps(cases).encode(),
        capture_output=True,
        timeout=120,
        check=True,
    )
    verdicts: list[Any] = json.loads(done.stdout)
    return verdicts
