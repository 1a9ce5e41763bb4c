"""S23.2-S23.4: from settings to the `Api`s a server serves — documents read and planned (or
plans files loaded), base URLs found, credentials read from the environment — every problem
collected, so nothing starts until all of them are fixed.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import urlsplit

import httpx

from toolshape._load import (
    Unreadable,
    Unset,
    from_environment,
    is_env,
    load_document,
    load_operations,
    read_file,
)
from toolshape.model._errors import DocumentError, PlanDataError, SettingsError
from toolshape.model._http import HTTP_TOKEN, header_problem
from toolshape.model._names import MCP_TOOL
from toolshape.planner._api import plan_document
from toolshape.plans._plan import Plan, PlanResult
from toolshape.plansfile._file import load_plans
from toolshape.server._build import duplicates
from toolshape.server._oauth import ClientCredentials, usable_token_url
from toolshape.server._settings import ApiSettings
from toolshape.server._upstream import Api, served_name
from toolshape.views._tool import TOOL_NAME

#: A base URL: an absolute `http` or `https` URL.
_ABSOLUTE = re.compile(r"^https?://[^/\s]+", re.I)

Report = Callable[[str], None]


def prepare(
    settings: Sequence[ApiSettings], source: str, environ: Mapping[str, str], report: Report
) -> tuple[Api, ...]:
    """The `Api`s `settings` describe; `report` receives the planning errors and warnings of
    each (tools that are not served), one line each.

    Raises:
        SettingsError: every problem, each naming its setting (`source` names the file or the
            command line): a document or plans file that can't be read, a value a setting
            can't take, no base URL, an unset variable, a scheme the document does not
            define, two tools with one name.
    """
    problems: list[str] = []
    names: list[str] = []
    apis = [_api(one, environ, report, problems, names) for one in settings]
    served = [a for a in apis if a is not None]
    twice = duplicates(names)
    if twice:
        more = f" (and {len(twice) - 1} more names)" if len(twice) > 1 else ""
        problems.append(f"two tools are named {twice[0]!r}{more}; give each API its own `name`")
    problems.extend(
        f"the tool name {name!r} is not an MCP tool name (at most 128 of A-Z a-z 0-9 _ . -)"
        for name in names
        if not MCP_TOOL.fullmatch(name)
    )

    if problems:
        raise SettingsError(source, problems)
    return tuple(served)


def _api(
    settings: ApiSettings,
    environ: Mapping[str, str],
    report: Report,
    problems: list[str],
    names: list[str],
) -> Api | None:
    """One API, or None with its problems added to `problems`; the names of the tools it
    planned are added to `names` either way."""
    before = len(problems)
    result = _planned(settings, report, problems)
    if result is None:
        return None
    listed = [served_name(settings.name, plan.name) for plan in result.tools]
    names.extend(listed)
    if settings.schema_view != "mcp":  # S22.1: the rule every model API has for tool names
        problems.extend(
            f"{settings.key('schema_view')}: the tool name {name!r} is not one the model APIs "
            f"take ({TOOL_NAME.pattern}); plan with --portable-names (portable_names = true)"
            for name in listed
            if MCP_TOOL.fullmatch(name) and not TOOL_NAME.fullmatch(name)
        )
    base_url = _base_url(settings, result, problems)
    credentials = _credentials(settings, result, environ, problems)
    schemes = result.security_schemes
    if settings.pass_through_auth is not None and settings.pass_through_auth not in schemes:
        problems.append(
            f"{settings.key('pass_through_auth')}: the document defines no security scheme "
            f"`{settings.pass_through_auth}` (it defines: {', '.join(schemes) or 'none'})"
        )
    problems.extend(_header_problems(settings))
    problems.extend(_limit_problems(settings))
    if len(problems) > before or base_url is None:
        return None
    provided = {*credentials, *([settings.pass_through_auth] if settings.pass_through_auth else [])}
    for line in missing_credentials(result.tools, provided):
        report(f"{settings.name + ': ' if settings.name else ''}{line}")
    return Api(
        plans=result.tools,
        base_url=base_url,
        name=settings.name,
        headers=dict(settings.headers),
        credentials=credentials,
        pass_through=settings.pass_through_auth,
        timeout=float(settings.timeout),
        max_response_bytes=settings.max_response_bytes,
        max_download_bytes=settings.max_download_bytes,
        on_large_response=settings.on_large_response,
        retries=settings.retries,
        max_retry_wait=float(settings.max_retry_wait),
        schema_view=settings.schema_view,
        inline_refs=settings.inline_refs,
        tag_titles=result.tag_titles,
    )


def _planned(settings: ApiSettings, report: Report, problems: list[str]) -> PlanResult | None:
    """The API's plans: its plans file loaded, or its document planned as `settings` say."""
    if settings.plans is not None:
        given = settings.planning_given()
        if given:
            shown = ", ".join(settings.key(name) for name in given)
            problems.append(f"{shown}: a plans file is served as it was planned")
            return None
        try:
            return load_plans(read_file(settings.plans))
        except Unreadable as error:
            problems.append(f"{settings.key('plans')}: can't read {settings.plans}: {error}")
        except PlanDataError as error:
            problems.append(f"{settings.key('plans')}: can't serve {settings.plans}: {error}")
        return None
    assert settings.document is not None
    try:
        planning = settings.plan_settings()
    except SettingsError as error:  # `read_config` names these already; flags, here
        problems.extend(error.problems)
        return None
    try:
        document = load_document(settings.document)
        if settings.operations is not None:
            found = load_operations(settings.operations, document)
            planning = dataclasses.replace(planning, **found)
        result = plan_document(document, planning)
    except (DocumentError, ValueError, TypeError) as error:
        problems.append(f"{settings.key('document')}: {error}")
        return None
    except SettingsError as error:
        problems.extend(f"{settings.key('operations')}: {p}" for p in error.problems)
        return None
    for refused in result.errors:
        if refused.rule == "S20.1":  # a selection that matches nothing: nothing to serve
            problems.append(f"{settings.key('select')}: {refused}")
        else:
            report(f"not served: {refused}")
    return result


def _base_url(settings: ApiSettings, result: PlanResult, problems: list[str]) -> str | None:
    """S23.4, S26.11: the base URL given, else the URL of the document's server named by
    `server`, else of its first server — one every call can be sent to, checked before
    anything starts."""
    key = settings.key("base_url")
    if settings.base_url is not None:
        if settings.server is not None:
            problems.append(f"{key}, {settings.key('server')}: give one of them, not both")
            return None
        problem = url_problem(settings.base_url)
        if problem is None:
            return settings.base_url
        problems.append(f"{key}: {shown(settings.base_url)!r} {problem}")
        return None
    if settings.server is not None:
        return _named_server(settings.server, settings, result, problems)
    url = result.server_url
    if url is None:
        problems.append(f"{key}: the document names no server; give the API's base URL")
        return None
    return _usable(url, f"{key}: the document's first server", problems)


def _named_server(
    name: str, settings: ApiSettings, result: PlanResult, problems: list[str]
) -> str | None:
    """S26.11: the URL of the document's server named `name`."""
    key, names = settings.key("server"), result.named_servers
    if name in names:
        return _usable(names[name], f"{key}: the server {name!r}", problems)
    listed = ", ".join(map(repr, names)) or "none"
    problems.append(
        f"{key}: no server is named {name!r} (the document's named servers are: {listed})"
    )
    return None


def _usable(url: str, what: str, problems: list[str]) -> str | None:
    """`url` when every call can be sent to it; else None, with a problem that names it as
    `what` says."""
    problem = url_problem(url)
    if problem is None:
        return url
    if not _ABSOLUTE.match(url):
        problem = "is relative"
    problems.append(f"{what} `{shown(url)}` {problem}; give the API's base URL")
    return None


def url_problem(url: str) -> str | None:
    """Why `url` can't be a base URL, or None: it must be an absolute `http` or `https` URL
    with a host, a port (when given) in 1-65535, and no query or fragment (S23.4: each call's
    path and query follow it)."""
    if not _ABSOLUTE.match(url):
        return "is not an http or https URL"
    if "?" in url or "#" in url:
        return "has a query or fragment (`?`, `#`): each call's path and query follow the base URL"
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError for `h:abc`, `h:99999`; `[::1` fails the split
        httpx.URL(url)
    except (ValueError, httpx.InvalidURL) as error:
        return f"is not a URL a client can send ({error})"
    if not parts.hostname or port == 0:
        return "names no host" if not parts.hostname else "has port 0"
    return None


def shown(url: str) -> str:
    """`url` as messages show it: a password in it as `***` (a message may be logged)."""
    scheme, slashes, rest = url.partition("://")
    userinfo, at, _ = rest.partition("/")[0].rpartition("@")
    if not at or ":" not in userinfo:
        return url
    user = userinfo.split(":", 1)[0]
    return f"{scheme}{slashes}{user}:***@{rest[len(userinfo) + 1 :]}"


def _credentials(
    settings: ApiSettings, result: PlanResult, environ: Mapping[str, str], problems: list[str]
) -> dict[str, str | ClientCredentials]:
    """S23.3, S18.2: each credential from the environment variable its `env:VAR` names; S27.5:
    `client-credentials:env:ID:env:SECRET`, a client-credentials flow's ID and secret."""
    out: dict[str, str | ClientCredentials] = {}
    for scheme, source in settings.credentials.items():
        key = (
            f"{settings.key('credentials')} {scheme}"
            if not settings.where
            else f"`{settings.where}credentials.{scheme}`"
        )
        client = source.startswith(CLIENT_CREDENTIALS)
        if not client and not is_env(source):
            problems.append(f"{key}: {GIVE}")
        elif scheme not in result.security_schemes:
            known = ", ".join(result.security_schemes) or "none"
            problems.append(
                f"{key}: the document defines no security scheme `{scheme}` (it defines: {known})"
            )
        else:
            found = (
                _client_credentials(scheme, source, result, environ)
                if client
                else from_environment(source, environ)
            )
            if isinstance(found, Unset):
                problems.append(f"{key}: {found.why}")
            else:
                out[scheme] = found
    return out


#: S27.5: how a credential names a client-credentials flow's client ID and secret.
CLIENT_CREDENTIALS = "client-credentials:"
#: S23.3: what a credential's source must be.
GIVE = (
    "give env:VAR, or client-credentials:env:ID:env:SECRET (a credential is read from the "
    "environment, never written in clear)"
)


def _client_credentials(
    scheme: str, source: str, result: PlanResult, environ: Mapping[str, str]
) -> ClientCredentials | Unset:
    """S27.5: the client credentials `client-credentials:env:ID:env:SECRET` names for
    `scheme`, or why it can't have them."""
    first, _, rest = source[len(CLIENT_CREDENTIALS) :].partition(":")
    name, _, second = rest.partition(":")
    sources = (f"{first}:{name}", second)
    if not all(map(is_env, sources)):
        return Unset(f"give {CLIENT_CREDENTIALS}env:ID:env:SECRET")
    client_id, secret = (from_environment(s, environ) for s in sources)
    if isinstance(client_id, Unset):
        return client_id
    if isinstance(secret, Unset):
        return secret
    urls = sorted(
        {
            s.token_url
            for plan in result.tools
            for alternative in plan.security
            for s in alternative
            if s.name == scheme and s.token_url
        }
    )
    if not urls:
        return Unset(f"the scheme `{scheme}` has no OAuth2 clientCredentials flow with a tokenUrl")
    refused = usable_token_url(urls[0])
    return Unset(refused) if refused else ClientCredentials(client_id, secret, urls[0])


def missing_credentials(plans: Sequence[Plan], provided: set[str]) -> list[str]:
    """S27.3: a warning per security scheme that served operations require and that nothing
    provides ("calls to 12 tools will go without bearerAuth"): a tool requires a scheme when
    no security alternative of it is empty or provided whole. A scheme with a client-credentials
    flow is told how to give its client ID and secret (S27.5)."""
    without: dict[str, int] = {}
    flows = {s.name for plan in plans for a in plan.security for s in a if s.token_url}
    for plan in plans:
        alternatives = [{scheme.name for scheme in alternative} for alternative in plan.security]
        if any(alternative <= provided for alternative in alternatives):
            continue
        for name in dict.fromkeys(n for alternative in alternatives for n in sorted(alternative)):
            if name not in provided:
                without[name] = without.get(name, 0) + 1
    return [
        f"warning: calls to {count} tool{'s' if count != 1 else ''} will go without {name} "
        f"(give --credential {name}="
        f"{'client-credentials:env:ID:env:SECRET' if name in flows else 'env:VAR'}, or a "
        "credentials entry)"
        for name, count in without.items()
    ]


def _limit_problems(settings: ApiSettings) -> list[str]:
    """S23.5: a timeout of some seconds and a response cap of some bytes (`nan`, `inf`, 0 or
    less would break every call, so nothing starts)."""
    problems = []
    timeout = settings.timeout
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
        problems.append(f"{settings.key('timeout')} can't be {timeout}: give seconds above 0")
    if settings.retries < 0:
        problems.append(f"{settings.key('retries')} can't be {settings.retries}: give 0 or more")
    wait = settings.max_retry_wait
    if not (isinstance(wait, (int, float)) and math.isfinite(wait) and wait >= 0):
        problems.append(
            f"{settings.key('max_retry_wait')} can't be {wait}: give seconds, 0 or more"
        )
    for name in ("max_response_bytes", "max_download_bytes"):
        value = getattr(settings, name)
        if value < 1:
            problems.append(
                f"{settings.key(name)} can't be {value}: give a number of bytes above 0"
            )
    return problems


def _header_problems(settings: ApiSettings) -> list[str]:
    """S12.2: the server's own outbound headers, each a valid name and value."""
    problems = []
    for name, value in settings.headers.items():
        where = (
            f"{settings.key('header')} {name!r}"
            if not settings.where
            else f"`{settings.where}headers.{name}`"
        )
        if not HTTP_TOKEN.match(name):
            problems.append(f"{where}: not a header name")
        else:
            problem = header_problem(value)
            if problem is not None:
                problems.append(f"{where}: {problem}")
    return problems
