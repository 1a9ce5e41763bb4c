"""`python -m examples` says how to run the examples."""

print("python examples/plan_and_call.py        # plan, call, refuse: the library")
print("python -m examples.gateway SPEC BASE_URL  # an MCP server embedded in your own program")
