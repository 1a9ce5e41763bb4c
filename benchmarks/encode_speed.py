"""Cost of encoding a body (S17) against the standard library doing the same job, in one run:
a Stripe customer form against `urllib.parse.urlencode` of the same pairs (flattened the way
Stripe's clients do), and a 1 MB multipart upload against the `email` package's generator.

Run: python -m benchmarks.encode_speed [--number 200]
The timed step is toolshape's encoder (`_encode.encode_body`, what `Plan.call` runs for the
body; `Request.encode()` then only hands the bytes out). Goal: no slower than either.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
from email.generator import BytesGenerator
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from typing import Any
from urllib.parse import urlencode

import toolshape
from benchmarks.timing import CORPUS, side_by_side
from toolshape.call._encode import BodyPlan, encode_body

CUSTOMER = {
    "email": "ada@example.com",
    "name": "Ada Lovelace",
    "description": "first customer",
    "metadata": {"plan": "pro", "team": "R&D", "seats": "12"},
    "expand": ["customer", "invoice_settings.default_payment_method"],
    "address": {"city": "London", "line1": "12 St. James's Square", "postal_code": "SW1Y 4JH"},
    "preferred_locales": ["en", "fr"],
}


def stripe_pairs(data: dict[str, Any], prefix: str | None = None) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        name = key if prefix is None else f"{prefix}[{key}]"
        if isinstance(value, dict):
            out += stripe_pairs(value, name)
        elif isinstance(value, list):
            out += [(f"{name}[{i}]", str(v)) for i, v in enumerate(value)]
        else:
            out.append((name, str(value)))
    return out


def plan_of(document: dict[str, Any], path: str) -> BodyPlan:
    (plan,) = toolshape.plan_operation(document, path, "post", style="flat")
    assert plan.body_encoding is not None
    assert plan.content_type is not None
    return BodyPlan(plan.body_encoding, plan.content_type, plan.encoding, plan.binary)


def upload_document() -> dict[str, Any]:
    schema = {
        "type": "object",
        "properties": {
            "file": {"type": "string", "format": "binary"},
            "purpose": {"type": "string"},
        },
    }
    media = {"multipart/form-data": {"schema": schema}}
    return {"openapi": "3.1.0", "paths": {"/files": {"post": {"requestBody": {"content": media}}}}}


def email_multipart(data: bytes) -> bytes:
    message = MIMEMultipart("form-data")
    part = MIMEApplication(data, "octet-stream")
    part.add_header("Content-Disposition", "form-data", name="file", filename="file")
    message.attach(part)
    text = MIMEText("dispute_evidence", "plain")
    text.add_header("Content-Disposition", "form-data", name="purpose")
    message.attach(text)
    out = io.BytesIO()
    BytesGenerator(out).flatten(message)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200)
    args = parser.parse_args()
    n = args.number
    stripe = json.loads((CORPUS / "stripe.json").read_text(encoding="utf-8"))
    form = plan_of(stripe, "/v1/customers")
    text = json.dumps(CUSTOMER, separators=(",", ":"))
    timed = side_by_side(
        {
            "floor": lambda: urlencode(stripe_pairs(CUSTOMER)),
            "mine": lambda: encode_body(form, CUSTOMER, text, ""),
        },
        n * 10,
    )
    floor, mine = timed["floor"], timed["mine"]
    print(f"{'body':<34}{'stdlib µs':>11}{'toolshape µs':>14}{'ratio':>8}")
    print(
        f"{'Stripe customer form':<34}{floor * 1e6:>11.1f}{mine * 1e6:>14.1f}{mine / floor:>8.2f}"
    )
    data = bytes(range(256)) * 4096  # 1 MiB, not UTF-8
    upload = plan_of(upload_document(), "/files")
    body = {"file": base64.b64encode(data).decode("ascii"), "purpose": "dispute_evidence"}
    body_text = json.dumps(body, separators=(",", ":"))
    timed = side_by_side(
        {
            "floor": lambda: email_multipart(data),
            "mine": lambda: encode_body(upload, body, body_text, ""),
        },
        max(n // 10, 3),
    )
    floor, mine = timed["floor"], timed["mine"]
    print(
        f"{'1 MiB multipart upload':<34}{floor * 1e6:>11.1f}{mine * 1e6:>14.1f}{mine / floor:>8.2f}"
    )


if __name__ == "__main__":
    main()
