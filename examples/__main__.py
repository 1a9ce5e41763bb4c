"""`python -m examples` prints how to run the gateway."""

print("Run the gateway with: python -m examples.gateway SPEC --base-url URL [--style flat|nested]")
