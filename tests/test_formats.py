"""S16.7: an `"exact"` output schema asserts the formats the official TypeScript MCP client
asserts (ajv-formats 3.x, full mode), and no other.

The table reads like the RFCs and ajv-formats' documentation; the differential test asks the
TypeScript SDK itself (tests/node) about thousands of mutated values.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import typescript_sdk, typescript_verdicts
from toolshape.schema._formats import AJV_FORMATS

TABLE = [
    ("date-time", "2024-01-01T10:00:00Z", True),
    ("date-time", "2024-01-01 10:00:00Z", True),  # a space separates, as RFC 3339 allows
    ("date-time", "2024-01-01 10:00:00", False),  # the measured refusal: no time zone
    ("date-time", "2024-01-01t10:00:00.5+01:00", True),
    ("date-time", "2016-12-31T23:59:60Z", True),  # a leap second in UTC
    ("date-time", "2016-12-31T22:59:60Z", False),
    ("date-time", "2024-01-01T10:00:00Z\n", False),  # nothing after the end
    ("iso-date-time", "2024-01-01T10:00:00", True),  # its time zone is optional
    ("date", "2024-02-29", True),
    ("date", "2023-02-29", False),
    ("date", "1900-02-29", False),
    ("date", "2000-02-29", True),
    ("date", "2024-13-01", False),
    ("time", "10:00:00Z", True),
    ("time", "10:00:00", False),
    ("iso-time", "10:00:00", True),
    ("duration", "P1Y2M3DT4H5M6S", True),
    ("duration", "P", False),
    ("duration", "p1y", False),  # case matters here
    ("uri", "https://example.com/a?b#c", True),
    ("uri", "example.com", False),  # no scheme
    ("uri-reference", "/a/b", True),
    ("uri-reference", "a b", False),
    ("uri-template", "/users/{id}", True),
    ("url", "https://example.com", True),
    ("url", "https://localhost", False),  # ajv's url wants a dotted name
    ("email", "Someone@Example.COM", True),
    ("email", "someone@", False),
    ("hostname", "example.com", True),
    ("hostname", "-example.com", False),
    ("ipv4", "192.168.0.1", True),
    ("ipv4", "256.1.1.1", False),
    ("ipv6", "::1", True),
    ("ipv6", "1:2:3", False),
    ("uuid", "123E4567-e89b-12d3-a456-426614174000", True),
    ("uuid", "123e4567e89b12d3a456426614174000", False),
    ("json-pointer", "/a~1b/0", True),
    ("json-pointer", "a", False),
    ("relative-json-pointer", "1/a", True),
    ("byte", "aGVsbG8=", True),
    ("byte", "aGVsbG8", False),
    ("regex", "^a+$", True),
    ("regex", "a\\Z", False),  # JavaScript has no \Z
    ("regex", "(?P<name>a)", False),  # Python's named group, an error in JavaScript
    ("regex", "(", False),
    ("int32", 2**31 - 1, True),
    ("int32", 2**31, False),
    ("int32", 1.0, True),  # JavaScript has one number type: 1.0 is an integer
    ("int32", 1.5, False),
    ("int64", 2**63, True),
    ("int64", 0.5, False),
    ("float", "anything", True),
    ("password", 1, True),
    ("date-time", 17, True),  # a string format passes every other kind of value
    ("int32", "text", True),
    ("not-a-format", "x", True),  # no other format is asserted
]


@pytest.mark.parametrize(("name", "value", "valid"), TABLE, ids=[f"{n}:{v!r}" for n, v, _ in TABLE])
def test_the_ajv_formats_table(name: str, value: Any, valid: bool) -> None:
    assert AJV_FORMATS.conforms(value, name) is valid


SEEDS = {
    "date": ["2024-02-29", "1999-12-31"],
    "time": ["23:59:60+01:00", "10:00:00.123z"],
    "date-time": ["2024-01-01T10:00:00Z", "2016-12-31 23:59:60-00:30"],
    "iso-time": ["10:00:00", "23:59:60"],
    "iso-date-time": ["2024-01-01 10:00:00", "2024-01-01t10:00:00+0100"],
    "duration": ["P1Y2M3DT4H5M6S", "P3W", "PT1H"],
    "uri": ["https://user@example.com:8080/a/b?q=1#f", "urn:isbn:0451450523", "http://[::1]/"],
    "uri-reference": ["../a/b?c#d", "//example.com/x", "%41b"],
    "uri-template": ["/users/{id}{?q,r}", "{+path:3}/x"],
    "url": ["https://example.com/a", "ftp://user:pw@files.example.org:21/x", "http://10.1.2.3"],
    "email": ["a.b+c@example.co.uk", "x@y.z"],
    "hostname": ["example.com", "a-b.c.", "xn--bcher-kva.example"],
    "ipv4": ["192.168.0.1", "0.0.0.0"],
    "ipv6": ["2001:db8::1", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8"],
    "uuid": [
        "123e4567-e89b-12d3-a456-426614174000",
        "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    ],
    "json-pointer": ["/a/~0/~1", ""],
    "json-pointer-uri-fragment": ["#/a/%20", "#"],
    "relative-json-pointer": ["0#", "2/a/b"],
    "byte": ["aGVsbG8=", "YQ==", "a\nbbbb"],
    "regex": ["^[a-z]+$", "(a|b)*c", "\\d{2,3}"],
}
#: What mutations insert: the characters the definitions treat specially.
ALPHABET = "aAzZtT09:+-./%@[]{}#?~=_ \t\n\r\u00a0\u2028\ufeff\u017f\u212aé\\()*|^$"


def _mutants(seed: str, rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        text = list(seed)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            action = rng.choice("irdu")
            if action == "i" or not text:
                text.insert(at, rng.choice(ALPHABET))
            elif action == "r":
                text[min(at, len(text) - 1)] = rng.choice(ALPHABET)
            elif action == "d":
                del text[min(at, len(text) - 1)]
            else:
                text = list("".join(text).upper())
        out.append("".join(text))
    return out


@pytest.mark.integration
@typescript_sdk()
def test_the_typescript_client_agrees_on_every_string_format() -> None:
    rng = random.Random(16_7)
    cases = [
        (name, value)
        for name, seeds in SEEDS.items()
        for seed in seeds
        for value in [seed, *_mutants(seed, rng, 120)]
    ]
    verdicts = typescript_verdicts([({"format": name}, value) for name, value in cases])
    ours = [AJV_FORMATS.conforms(value, name) for name, value in cases]
    differ = [
        (name, value, theirs)
        for (name, value), mine, theirs in zip(cases, ours, verdicts, strict=True)
        if mine != theirs and not (name == "regex" and theirs is True)  # conservative: refused
    ]
    assert differ == []
    assert sum(ours) > len(cases) // 10  # the mutants exercise both verdicts


@pytest.mark.integration
@typescript_sdk()
def test_the_typescript_client_agrees_on_number_formats() -> None:
    values: list[Any] = [0, 1, -1, 1.0, 1.5, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**53, 1e300]
    values += [True, "1", None, [1], {"a": 1}]
    cases = [(name, value) for name in ("int32", "int64", "float", "double") for value in values]
    verdicts = typescript_verdicts([({"format": name}, value) for name, value in cases])
    assert [AJV_FORMATS.conforms(value, name) for name, value in cases] == verdicts


def test_a_long_hostile_value_is_checked_in_bounded_time() -> None:
    """S14.4: an upstream can answer anything; no format check backtracks without bound."""
    script = (
        "from toolshape.schema._formats import AJV_FORMATS as F\n"
        "import sys\n"
        "for name in ('email','hostname','uri','uri-reference','url','ipv6','duration',"
        "'date-time','byte','uri-template','regex'):\n"
        "    for text in ('a' * 20000 + '!', 'a.' * 10000 + '-', '1:' * 10000 + 'x',"
        " 'a@' + 'a-' * 10000, '%4' * 10000):\n"
        "        F.conforms(text, name)\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
