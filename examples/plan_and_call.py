"""Plan the bundled example document flat, then serve one good and one bad call.

Run: python examples/plan_and_call.py
"""

from __future__ import annotations

import json
from importlib import resources

import toolshape


def main() -> None:
    text = (
        resources.files("toolshape").joinpath("data").joinpath("example.openapi.json").read_text()
    )
    result = toolshape.plan_document(json.loads(text), style="flat", source="example.openapi.json")
    tools = {tool.name: tool for tool in result.tools}
    search = tools["searchProducts"]
    print(json.dumps(search.input_schema, indent=2))

    request = search.call({"storeId": "s1", "limit": 10, "query": "hoodie", "x-tenant": "acme"})
    print(request.method, request.url, dict(request.headers), request.body)

    try:
        search.call({"storeId": "s1", "query": "hoodie", "x-tenant": "acme", "sort": "size"})
    except toolshape.ArgumentError as error:
        print(json.dumps(toolshape.error_result(error, "2025-11-25"), indent=2))


if __name__ == "__main__":
    main()
