"""Reading documents (S1, S20): operations out of an OpenAPI 3.x or Swagger 2.0 document,
references bundled, schemas converted, operations selected."""

from toolshape.read._select import Select

__all__ = [
    "Select",
]


def __dir__() -> list[str]:
    return __all__
