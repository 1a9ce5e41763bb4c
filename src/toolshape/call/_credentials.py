"""S18.2: credentials on a request — the first security alternative they all satisfy.

Pure: the gateway hands the values in (`Plan.call(..., credentials=...)`); nothing is read
from the environment here. No message ever holds a credential's value.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from toolshape.call._query import percent
from toolshape.model._errors import CredentialError
from toolshape.model._http import header_problem
from toolshape.model._json import Unchecked
from toolshape.model._types import Security, SecurityScheme


@dataclass(frozen=True, slots=True)
class Applied:
    """What one call's credentials add to its request."""

    headers: tuple[tuple[str, str], ...] = ()
    """Header pairs (lower-case names); each replaces a header of the same name."""
    query: tuple[tuple[str, str, str], ...] = ()
    """`(name, value, wire text)` query triples, sent after the arguments' query."""
    cookies: tuple[tuple[str, str], ...] = ()
    """Cookie pairs, percent-encoded; each replaces an inbound cookie of the same name."""


NOTHING = Applied()

_Refuse = Callable[[str], CredentialError]


def apply_credentials(
    security: Security, credentials: Mapping[str, Unchecked] | None, tool: str
) -> Applied:
    """S18.2: what `credentials` add for the first alternative whose schemes they all cover;
    an empty alternative is satisfied with nothing. Without `credentials`, nothing.

    Raises:
        CredentialError: no alternative is satisfied, or a credential is malformed.
    """
    if credentials is None:
        return NOTHING
    accepted = [[s.name for s in alternative] for alternative in security]
    if not isinstance(credentials, Mapping):
        raise CredentialError(
            tool, accepted, [], "credentials must be a mapping of security scheme names to values"
        )
    for alternative in security:
        if all(scheme.name in credentials for scheme in alternative):
            return _apply(alternative, credentials, tool, accepted)
    raise CredentialError(tool, accepted, [str(name) for name in credentials])


def _apply(
    alternative: tuple[SecurityScheme, ...],
    credentials: Mapping[str, Unchecked],
    tool: str,
    accepted: list[list[str]],
) -> Applied:
    headers: list[tuple[str, str]] = []
    query: list[tuple[str, str, str]] = []
    cookies: list[tuple[str, str]] = []
    for scheme in alternative:
        if scheme.location is None or scheme.parameter is None:
            continue  # mutualTLS: the gateway's TLS client carries it, not the request
        value = credentials[scheme.name]

        def refuse(reason: str, scheme: SecurityScheme = scheme) -> CredentialError:
            return CredentialError(
                tool, accepted, list(credentials), f"the `{scheme.name}` credential {reason}"
            )

        text = _text(scheme, value, refuse)
        if scheme.location == "query":
            query.append((scheme.parameter, text, f"{percent(scheme.parameter)}={percent(text)}"))
        elif scheme.location == "cookie":
            cookies.append((percent(scheme.parameter), percent(text)))
        else:
            problem = header_problem(text)
            if problem is not None:
                raise refuse(f"can't be sent in a header: {problem}")
            if all(name != scheme.parameter for name, _ in headers):
                headers.append((scheme.parameter, text))  # one header per name: the first
    return Applied(tuple(headers), tuple(query), tuple(cookies))


def _text(scheme: SecurityScheme, value: Unchecked, refuse: _Refuse) -> str:
    """The credential as the text its place carries (`Bearer <token>`, `Basic <base64>`)."""
    if scheme.scheme == "basic":
        if (
            isinstance(value, (tuple, list))
            and len(value) == 2
            and all(isinstance(part, str) for part in value)
        ):
            user, password = value
        elif isinstance(value, str) and ":" in value:
            user, _, password = value.partition(":")
        else:
            raise refuse('must be a (user, password) pair or "user:password" text')
        if ":" in user:
            raise refuse("has a user name with `:`, which basic authentication can't carry")
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        return f"Basic {token}"
    if not isinstance(value, str) or not value:
        raise refuse("must be non-empty text (a token)")
    if scheme.scheme is None:
        return value  # apiKey: the key itself
    label = "Bearer" if scheme.scheme == "bearer" else scheme.scheme[:1].upper() + scheme.scheme[1:]
    return f"{label} {value}"
