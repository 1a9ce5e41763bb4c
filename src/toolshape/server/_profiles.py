"""S25.4: client profiles — which view, whether references are inlined, and how long a tool
name may be, for each kind of client — in one table, chosen per client under `auto` by the
`clientInfo.name` it sends."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toolshape.flatten._aliases import Taken, unique
from toolshape.server._upstream import Api


@dataclass(frozen=True, slots=True)
class ClientProfile:
    """How a server lists its tools to one kind of client (S25.4)."""

    name: str
    schema_view: str | None
    """The view's name (`mcp`, `inline`, `openai-strict`, `gemini`); None: each API's own."""
    inline_refs: bool = False
    """No `$ref` and no `$defs` in any schema (S25.3)."""
    name_budget: int | None = None
    """The longest tool name the client takes, or None."""

    def api(self, api: Api) -> Api:
        """`api` as this profile lists it."""
        if self.schema_view is None and not self.inline_refs:
            return api
        return dataclasses.replace(
            api,
            schema_view=self.schema_view or api.schema_view,
            inline_refs=self.inline_refs or api.inline_refs,
        )


#: S25.4: every profile, by the name `--client-profile` takes (`auto` chooses among them).
CLIENT_PROFILES: Mapping[str, ClientProfile] = {
    profile.name: profile
    for profile in (
        ClientProfile("mcp", None),
        ClientProfile("inline", "mcp", inline_refs=True),
        ClientProfile("openai-strict", "openai-strict"),
        ClientProfile("gemini", "gemini"),
        # Its MCP path refuses any `$ref`, and it sends the SDK's default client name.
        ClientProfile("openai-agents", "openai-strict", inline_refs=True),
        ClientProfile("cursor", "mcp", inline_refs=True, name_budget=60),
    )
}

#: S25.4: the clients known by the `clientInfo.name` they send, and their profile; each with
#: where the name was found (docs/command-line.md lists them). Any other name: `mcp`.
CLIENT_NAMES: Mapping[str, str] = {
    "cursor-vscode": "cursor",  # Cursor (SPEC S25.4): refuses `$ref`, 60-character names
    "gemini-cli": "inline",  # Gemini CLI (SPEC S25.4): refuses `$ref`
    "Visual Studio Code": "inline",  # VS Code (its `env.appName`, sent as the client's name)
}


def profile_for(client: str | None, chosen: str) -> ClientProfile:
    """The profile of a client that sent `client` as its name, the server's `chosen` profile
    being `auto` or one of `CLIENT_PROFILES`."""
    if chosen != "auto":
        return CLIENT_PROFILES[chosen]
    return CLIENT_PROFILES[CLIENT_NAMES.get(client or "", "mcp")]


def budgeted(names: Sequence[str], budget: int | None) -> list[str]:
    """`names` each at most `budget` characters: cut at the end as S8.1 cuts, a name that
    then clashes getting `_2`, `_3`, ... inside the budget (S19.2's `unique`); stable for the
    same names."""
    if budget is None:
        return list(names)
    taken = Taken(n for n in names if len(n) <= budget)
    out = []
    for name in names:
        if len(name) > budget:
            name = unique(name[:budget], taken, budget)
            taken.add(name)
        out.append(name)
    return out
