"""S27.5: OAuth2 client credentials — a token fetched from the scheme's `tokenUrl` with the
gateway's client ID and secret, the scopes the operation requires, cached until it expires.

The token endpoint is the only URL toolshape fetches that the user did not give as a base URL,
so it must be https or loopback (a secret never crosses a network in clear). No redirect is
followed; neither the secret nor a token is ever in a log line or a result.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

import anyio
import httpx

#: S27.5: a token is used until this many seconds before it expires.
EARLY = 30.0
#: S23.5: the most of a token endpoint's answer read (a token answer is a few hundred bytes).
TOKEN_BYTES = 65_536


class TokenError(Exception):
    """No token could be had; the message says why (never with a secret or a token)."""


def usable_token_url(url: str) -> str | None:
    """Why `url` can't be a token endpoint (not https, nor http to a loopback address), or
    None when it can."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname:
        host = parts.hostname
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if loopback:
            return None
    return f"the token URL `{url}` is neither https nor http to a loopback address"


@dataclass(eq=False)
class ClientCredentials:
    """One scheme's client credentials and the tokens they were given, by scopes."""

    client_id: str = field(repr=False)
    secret: str = field(repr=False)
    token_url: str
    _tokens: dict[tuple[str, ...], tuple[str, float]] = field(default_factory=dict, repr=False)
    _lock: anyio.Lock = field(default_factory=anyio.Lock, repr=False)

    def cached(self, scopes: tuple[str, ...]) -> str | None:
        """The token for `scopes` while it is good, else None (nothing is fetched)."""
        found = self._tokens.get(tuple(sorted(set(scopes))))
        return found[0] if found is not None and found[1] > time.monotonic() else None

    async def token(
        self, http: httpx.AsyncClient, scopes: tuple[str, ...], timeout: float, *, fresh: bool
    ) -> str:
        """A token for `scopes`: the cached one while it is good (unless `fresh`: the API
        refused it), else a new one from the token endpoint.

        Raises:
            TokenError: the endpoint gave none.
        """
        async with self._lock:  # one fetch at a time: concurrent calls share its token
            found = None if fresh else self.cached(scopes)
            if found is not None:
                return found
            key = tuple(sorted(set(scopes)))
            token, lifetime = await self._fetch(http, key, timeout)
            self._tokens[key] = (token, time.monotonic() + max(lifetime - EARLY, 0.0))
            return token

    async def _fetch(
        self, http: httpx.AsyncClient, scopes: tuple[str, ...], timeout: float
    ) -> tuple[str, float]:
        """A new token and its lifetime in seconds (a day when the endpoint says none)."""
        pair = f"{self.client_id}:{self.secret}".encode()
        form = {
            "grant_type": "client_credentials",
            **({"scope": " ".join(scopes)} if scopes else {}),
        }
        headers = {
            "authorization": "Basic " + base64.b64encode(pair).decode("ascii"),
            "content-type": "application/x-www-form-urlencoded",
            "accept": "application/json",
            "accept-encoding": "identity",
        }
        try:
            with anyio.fail_after(timeout):
                status, body = await _posted(http, self.token_url, urlencode(form), headers)
        except TimeoutError:
            raise TokenError(f"the token endpoint gave no answer within {timeout:g} s") from None
        except httpx.HTTPError as error:
            raise TokenError(
                f"the token endpoint can't be reached ({type(error).__name__})"
            ) from None
        if status != 200:
            raise TokenError(f"the token endpoint answered HTTP {status}")
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise TokenError("the token endpoint's answer has no access_token")
        lifetime = data.get("expires_in", 86400.0)
        if isinstance(lifetime, bool) or not isinstance(lifetime, (int, float)):
            lifetime = 86400.0
        return token, float(lifetime)


async def _posted(
    http: httpx.AsyncClient, url: str, form: str, headers: dict[str, str]
) -> tuple[int, bytes]:
    """The status and body of a POST, the body read up to `TOKEN_BYTES` (S23.5).

    Raises:
        TokenError: the body is longer.
    """
    async with http.stream("POST", url, content=form, headers=headers) as answer:
        body = b""
        async for chunk in answer.aiter_bytes():
            body += chunk
            if len(body) > TOKEN_BYTES:
                raise TokenError(f"the token endpoint's answer is larger than {TOKEN_BYTES} bytes")
        return answer.status_code, body
