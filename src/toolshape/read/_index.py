"""S1, S20.3, S26.1: what a document is, read once — its OpenAPI version (a Swagger 2.0
document converted to 3.0), its methods, its default dialect and its own URI — as a frozen
value every later reading of it starts from."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from toolshape.model._dialects import DRAFT2020_12, OPENAPI30, dialect_of
from toolshape.model._errors import DocumentError
from toolshape.model._http import METHODS
from toolshape.model._json import Unchecked, is_map
from toolshape.read._problem import kind_of
from toolshape.read._swagger import Converted, Cycle, convert_swagger, is_swagger2


@dataclass(frozen=True, slots=True)
class DocumentIndex:
    """A document as `index_document` read it."""

    document: Mapping[str, Unchecked]
    """The OpenAPI 3.x document (a Swagger 2.0 one's 3.0 reading)."""
    source: str
    """The document's name in every location (S9.3)."""
    converted: Converted | None
    """S20.3: the 3.0 reading of a Swagger 2.0 document, when it is one."""
    is_30: bool
    is_32: bool
    methods: tuple[str, ...]
    """The path item fields that are operations (S1.6; `query` from 3.2 on, S26.2)."""
    default_dialect: str
    """S1.7: the dialect of a schema that declares none."""
    self_uri: str | None
    """S26.7: the document's own URI (`$self`, OpenAPI 3.2)."""


def index_document(document: object, source: str) -> DocumentIndex:
    """What `document` is (`source` names it in messages).

    Raises:
        DocumentError: not a mapping, a Swagger version other than 2.0, an `openapi` other
            than 3.0.x, 3.1.x or 3.2.x, a 2.0 `basePath` naming another host, or a document
            that holds itself.
    """
    if not is_map(document):
        raise DocumentError(
            "document",
            f"the document is a {kind_of(document)}, not a mapping; "
            "toolshape reads OpenAPI 3.0, 3.1 and 3.2 documents",
            location=f"{source}#",
        )
    converted: Converted | None = None
    if is_swagger2(document) and "openapi" not in document:
        base = document.get("basePath")
        if isinstance(base, str) and base.strip().startswith("//"):
            raise DocumentError(
                "document",
                f"the document's `basePath` `{base}` starts with `//`, which names another "
                "host, so every request would be sent there. Start it with one `/`",
                location=f"{source}#/basePath",
            )
        try:
            converted = convert_swagger(document)
        except Cycle as cycle:
            raise DocumentError(
                "document",
                f"the document holds an object inside itself (under a key `{cycle}`); a "
                "document is a tree: a YAML alias may share a part, never hold its own "
                "ancestor",
                location=f"{source}#",
            ) from None
        document = converted.document
    version = document.get("openapi")
    if "swagger" in document and version is None:
        raise DocumentError(
            "document",
            f"the document is Swagger {document.get('swagger')}, which toolshape does not "
            "read; toolshape reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 documents",
            location=f"{source}#/swagger",
        )
    if not isinstance(version, str) or not re.match(r"^3\.[012](\.|$)", version):
        raise DocumentError(
            "document",
            f"the document's `openapi` is {version!r}, not 3.0.x, 3.1.x or 3.2.x; "
            "toolshape reads OpenAPI 3.0, 3.1 and 3.2 documents",
            location=f"{source}#/openapi",
        )
    is_30 = version.startswith("3.0")
    # S26.1, S26.2: a 3.2 document is read as 3.1 is, and its path items have `query` too.
    is_32 = version.startswith("3.2")
    dialect = document.get("jsonSchemaDialect") if not is_30 else None
    known = dialect_of(dialect) if isinstance(dialect, str) else None
    own = document.get("$self") if is_32 else None  # S26.7
    return DocumentIndex(
        document=document,
        source=source,
        converted=converted,
        is_30=is_30,
        is_32=is_32,
        methods=(*METHODS, "query") if is_32 else METHODS,
        default_dialect=OPENAPI30 if is_30 else (known.uri if known else DRAFT2020_12),
        self_uri=own if isinstance(own, str) else None,
    )
