"""S24.1: documents from files, text or bytes — the one place toolshape reads a file.

`load_document` is what a caller (a notebook, the command line, the server) uses to turn a
document into the parsed data the library plans from: JSON first, then YAML 1.2 (S20.2, the
extra `toolshape[yaml]`). Every failure is a `DocumentError` naming the source and, where the
reader gives them, the line and column — never `ValueError`, `TypeError` or a YAML exception.
The planning and calling stages never import this module: they take parsed data.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from toolshape._yaml import MissingYaml, YamlError, load_yaml
from toolshape.model._errors import DocumentError, SettingsError
from toolshape.model._json import spells_surrogates, unicode_safe
from toolshape.planner._api import operation_keys
from toolshape.planner._settings import operation_settings


def load_document(source: str | os.PathLike[str] | bytes | bytearray) -> dict[str, Any]:
    """The parsed document `source` holds: a `str` or path naming an existing file is read
    from it; any other `str` is the document's text, `bytes` its bytes (UTF-8).

        >>> load_document('{"openapi": "3.1.0", "paths": {}}')
        {'openapi': '3.1.0', 'paths': {}}

    Raises:
        DocumentError: the file can't be read, the text is neither JSON nor YAML (with the line
            and column), YAML without PyYAML installed, or what it holds is not a mapping.
    """
    text, name = _text(source)
    data = parse_document(text, name)
    if isinstance(data, str) and data == source:  # one word: meant as a file's name
        raise DocumentError("document", f"can't read {data}: no such file", location=data)
    return _mapping(data, name)


EXAMPLE = "example.openapi.json"
"""The bundled example document `toolshape plan` reads when no SPEC is given."""


def read_spec(path: str | None) -> tuple[dict[str, Any], str, str]:
    """The document at `path` (`-`: standard input, S24.4; None: the bundled example), how
    messages name it, and the hex SHA-256 of its bytes (a plans file records it).

    Raises:
        DocumentError: as `load_document`.
    """
    if path is None:
        data, path = resources.files("toolshape").joinpath(f"data/{EXAMPLE}").read_bytes(), EXAMPLE
    elif path == "-":
        data, path = sys.stdin.buffer.read(), "<stdin>"
    else:
        data = _document_bytes(path)
    return document_of(data, path), path, hashlib.sha256(data).hexdigest()


def _document_bytes(path: str) -> bytes:
    """The bytes of the document file at `path`.

    Raises:
        DocumentError: the file can't be read (`read_file` says why).
    """
    try:
        return read_file(path)
    except Unreadable as error:
        raise DocumentError("document", f"can't read {path}: {error}", location=path) from None


def document_of(data: bytes, name: str) -> dict[str, Any]:
    """The document a file's bytes hold (`name`: how messages name it, its path).

    Raises:
        DocumentError: as `load_document`.
    """
    return _mapping(parse_document(_decoded(data, name), name), name)


def _mapping(data: Any, name: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise DocumentError(
            "document",
            f"can't read {name}: it holds {_kind(data)}, not a mapping; an OpenAPI document is "
            "a mapping with `openapi` (or `swagger`) and `paths`",
            location=name,
        )
    return data


def _text(source: str | os.PathLike[str] | bytes | bytearray) -> tuple[str, str]:
    """The text of `source` and how messages name it."""
    if isinstance(source, (bytes, bytearray)):
        return _decoded(bytes(source), "the document"), "the document"
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and _is_file(source)
    ):
        path = os.fspath(source)
        return _decoded(_document_bytes(path), path), path
    if isinstance(source, str):
        return source, "the document"
    raise DocumentError(
        "document",
        f"a document is a path, text or bytes, not {type(source).__name__}",
    )


#: S14.4: the largest file toolshape reads (a document, plans, settings or operations file):
#: the corpus's largest document is 4 MB, its largest plans file 6 MB.
MAX_FILE_BYTES = 256 * 1024 * 1024


class Unreadable(Exception):
    """A file toolshape can't read; the message says why (`no such file or directory`)."""


def read_file(path: str) -> bytes:
    """The bytes of the regular file at `path`, at most `MAX_FILE_BYTES` of them (S14.4: a
    device such as `/dev/zero` would never end, a FIFO would wait for a writer).

    Raises:
        Unreadable: the file can't be opened, is not a regular file, or is too large.
    """
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise Unreadable(getattr(error, "strerror", None) or str(error)) from None
    kind = os.fstat(handle).st_mode
    if not stat.S_ISREG(kind):
        os.close(handle)
        what = "a folder" if stat.S_ISDIR(kind) else "a device, a pipe or a socket"
        raise Unreadable(f"it is {what}, not a regular file")
    with os.fdopen(handle, "rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(f"it is larger than {MAX_FILE_BYTES // 2**20} MiB")
    return data


def _is_file(text: str) -> bool:
    """Whether `text` names something in the file system (a device or a folder too: reading
    it then says why it can't be a document)."""
    try:
        return os.path.exists(text)
    except (OSError, ValueError):  # a name the system can't hold (a NUL, too long)
        return False


def _decoded(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DocumentError(
            "document",
            f"can't read {name}: it is not UTF-8 text (byte {error.start + 1} is {data[error.start]:#04x})",
            location=name,
        ) from None


def parse_document(text: str, name: str) -> Any:
    """S20.2: a document's text as JSON, else as YAML (the extra `toolshape[yaml]`); lone
    surrogates as U+FFFD.

    Raises:
        DocumentError: neither, with the parser's line and column; or YAML without PyYAML.
    """
    data = _parse(text, name)
    # S14.4: every text of a document reaches a client in UTF-8, which can't carry a lone
    # surrogate (JSON text can spell one): each is U+FFFD.
    return unicode_safe(data)[0] if spells_surrogates(text) else data


def _parse(text: str, name: str) -> Any:
    stripped = text.lstrip()
    try:
        return parse_json(text, name)
    except DocumentError:
        if stripped[:1] in ("{", "["):  # meant as JSON: the JSON parser's word
            raise
    try:
        return load_yaml(text)
    except MissingYaml as error:
        raise DocumentError(
            "document", f"can't read {name}: it is not JSON, and {error}", location=name
        ) from None
    except YamlError as error:
        raise DocumentError(
            "document", f"can't read {name}: it is neither JSON nor YAML ({error})", location=name
        ) from None
    except RecursionError:
        raise DocumentError(
            "document", f"can't read {name}: it nests too deeply", location=name
        ) from None


def parse_json(text: str | bytes, name: str) -> Any:
    """JSON text as data, every failure a `DocumentError` naming `name`.

    Raises:
        DocumentError: not JSON (with the line and column), nested too deeply, or an integer
            past Python's digit limit.
    """
    try:
        return json.loads(text)
    except RecursionError:
        reason = "it nests too deeply"
    except json.JSONDecodeError as error:
        reason = f"it is not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
    except (ValueError, TypeError) as error:  # an integer past the digit limit, bad bytes
        reason = f"it is not JSON ({str(error)[:200]})"
    raise DocumentError("document", f"can't read {name}: {reason}", location=name)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "text" if isinstance(value, str) else f"a {type(value).__name__}"


def load_settings(path: str, *, toml: bool | None = None) -> Any:
    """S24.7, S23.3: a settings file's data: TOML when `toml` says so (by default, when its
    name ends `.toml`), else JSON.

    Raises:
        SettingsError: the file can't be read or parsed (with the line and column), or TOML
            on Python 3.10 without `tomli`.
    """
    try:
        data = read_file(path)
    except Unreadable as error:
        raise SettingsError(path, [f"can't be read: {error}"]) from None
    if not (path.lower().endswith(".toml") if toml is None else toml):
        try:
            return parse_json(data, path)
        except DocumentError as error:
            raise SettingsError(path, [error.reason.removeprefix(f"can't read {path}: ")]) from None
    try:
        return _toml().loads(_decoded(data, path))
    except DocumentError as error:
        raise SettingsError(path, [error.reason.removeprefix(f"can't read {path}: ")]) from None
    except ValueError as error:  # tomllib.TOMLDecodeError: "... (at line 3, column 7)"
        raise SettingsError(path, [f"is not TOML: {error}"]) from None
    except RecursionError:  # tomllib reads arrays and tables by recursion
        raise SettingsError(path, ["nests too deeply"]) from None


def load_operations(path: str, document: Mapping[str, Any]) -> dict[str, Any]:
    """S24.7: the `plan_document` keywords (`styles`, `names`, `annotations`,
    `fixed_per_operation`) an operations file gives for `document`.

    Raises:
        SettingsError: the file can't be read, or names an operation or key that is not there.
    """
    return operation_settings(load_settings(path), path, operation_keys(document))


def _toml() -> Any:
    """`tomllib` (Python 3.11+), else `tomli`.

    Raises:
        SettingsError: neither is there.
    """
    for name in ("tomllib", "tomli"):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:  # pragma: no cover - Python 3.10
            continue
    raise SettingsError(  # pragma: no cover - Python 3.10 without tomli
        "TOML", ["reading TOML on Python 3.10 needs tomli: pip install tomli"]
    )


@dataclass(frozen=True, slots=True)
class Unset:
    """A credential source that gives no value, and why."""

    why: str


def is_env(source: str) -> bool:
    """Whether `source` is an `env:VAR` source (S18.2, S23.3: a credential is read from the
    environment, never written in clear)."""
    return source.startswith("env:") and len(source) > 4


def from_environment(source: str, environ: Mapping[str, str]) -> str | Unset:
    """The value the `env:VAR` source `source` names, or why there is none."""
    name = source[4:]
    return (
        environ[name] if name in environ else Unset(f"the environment variable {name} is not set")
    )
