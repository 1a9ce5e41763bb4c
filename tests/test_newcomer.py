"""The first hour, as a test (S24.1): a YAML document with an `on:` key and dates, read with
`load_document`, planned, served by the gateway to the MCP SDK's own client, and called
against a real HTTP upstream — its answer structured under the shape view (S16.7)."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
import pytest

from tests.test_gateway import Upstream, session, upstream  # noqa: F401 - the fixture
from toolshape import load_document, plan_document

pytest.importorskip("yaml", reason="reading YAML needs the extra toolshape[yaml] (test extra)")

WORKFLOWS = """\
openapi: 3.0.3
info: {title: Workflows, version: "1"}
paths:
  /workflows:
    post:
      operationId: createWorkflow
      summary: Create a workflow
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, on]
              properties:
                name: {type: string}
                on:
                  type: object
                  properties:
                    push: {type: boolean}
                starts: {type: string, format: date, default: 2024-01-02}
      responses:
        "200":
          description: created
          content:
            application/json:
              schema:
                type: object
                required: [id, created]
                properties:
                  id: {type: string}
                  created: {type: string, format: date-time}
"""


def test_a_yaml_document_is_planned_served_and_called(upstream: Upstream) -> None:  # noqa: F811
    document = load_document(WORKFLOWS)
    body = document["paths"]["/workflows"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert schema["required"] == ["name", "on"]  # `on` is a key, not `true` (YAML 1.2)
    assert schema["properties"]["starts"]["default"] == "2024-01-02"  # a date stays its text
    (plan,) = plan_document(document, style="flat").tools
    assert sorted(plan.input_schema["properties"]) == ["name", "on", "starts"]

    async def work(client: Any) -> Any:
        listed = await client.list_tools()
        called = await client.call_tool("createWorkflow", {"name": "ci", "on": {"push": True}})
        return listed, called

    before = len(upstream.seen)
    listed, called = session(upstream, [plan], work)
    assert [t.name for t in listed.tools] == ["createWorkflow"]
    assert isinstance(called, types.CallToolResult)
    assert called.is_error is False
    ((method, path, _, sent),) = upstream.seen[before:]
    assert (method, path, json.loads(sent)) == (
        "POST",
        "/workflows",
        {"name": "ci", "on": {"push": True}},
    )
    # The echo's answer has neither `id` nor `created`: drift the shape view takes (S16.7).
    assert called.structured_content == {
        "method": "POST",
        "path": "/workflows",
        "body": sent.decode(),
        "results": [],
    }
