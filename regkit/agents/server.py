"""``regkit mcp``: the MCP server — the tools, company records as resources, prompts — over stdio or HTTP.

Built on the official Python SDK (``mcp`` 2.x, :class:`mcp.server.mcpserver.MCPServer`). Over stdio (the default)
an MCP host starts ``regkit mcp`` and speaks to it on its standard input and output; with ``--http`` it serves
Streamable HTTP at ``http://127.0.0.1:PORT/mcp`` (loopback unless told otherwise). Nothing is written to standard
output but the protocol; logs go to standard error, without the key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .session import AgentSession
from .tools import RegisterTools, ToolText

__all__ = ["INSTRUCTIONS", "build_server"]

#: What the server tells the agent at start (with the session's budget and what it serves).
INSTRUCTIONS = """\
German company register research (Handelsregister, insolvency announcements) through regkit.
Every answer starts with a `cost` line: what the call was estimated at and cost, what came from the cache (free),
and what this session has left of its budget. A call that could cross the budget is refused before anything is
sent, saying what it needed: ask for less, or use what is cached. Company ids look like DE-HRB-F1103-270764B;
parse_company_id turns 'HRB 270764 B Berlin' into one, search_companies finds them by name. Dates are ISO,
money is text with its currency (EUR), shares are percent. Long lists are paged (page, pages, total).
Start cheap: a company_profile first, then only what the question needs; group_below and group_parent walk a
group level by level and stop before a level the session cannot pay.
"""


def build_server(session: AgentSession, *, scrub: Callable[[str], str] = str) -> Any:
    """The MCP server over ``session``: every tool of :class:`~regkit.agents.tools.RegisterTools`, the resource
    template ``regkit://company/{company_id}`` (a company's profile, priced as the tool), and the prompts
    ``map_group``, ``due_diligence`` and ``what_changed``."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import CallToolResult, TextContent

    server = MCPServer(
        "regkit",
        instructions=f"{INSTRUCTIONS}\nThis session: {session.where}; budget {session.budget} credits.",
        version=_version(),
        log_level="WARNING",
    )
    tools = RegisterTools(session, scrub)

    def result(text: ToolText) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=text.text)], is_error=text.is_error)

    for name in RegisterTools.NAMES:
        method = getattr(tools, name)
        description = " ".join((method.__doc__ or "").split())  # one paragraph, as an agent reads it
        server.add_tool(_returning(method, result), name=name, description=description, structured_output=False)

    @server.resource(
        "regkit://company/{company_id}",
        name="company",
        description="A company's profile (as the company_profile tool: 10 credits unless cached)",
        mime_type="application/json",
    )
    def company(company_id: str) -> str:
        text = tools.company_profile(company_id)
        if text.is_error:
            raise ValueError(json.loads(text.text)["message"])
        return text.text

    @server.prompt(description="Map a company's group: its ultimate parent, the group below it, who controls whom")
    def map_group(company: str) -> str:
        return (
            f"Map the corporate group of {company}. If it is not a company id, find it (parse_company_id or "
            "search_companies). Take its company_profile, then group_parent for the way up to the ultimate parent, "
            "then group_below from that parent with a max_companies the session's budget allows. Report who "
            "controls whom and with what share, naming each company by name and id, and say where a walk stopped "
            "for the budget."
        )

    @server.prompt(
        description="Due diligence on a company: identity, owners, beneficial owners, finances, insolvencies"
    )
    def due_diligence(company: str) -> str:
        return (
            f"Do a due-diligence check of {company}: its company_profile (status, register, seat, representatives), "
            "its owners and beneficial_owners, its financial_indicators for the last three years, any insolvency "
            "proceedings (the profile lists them; search_insolvencies by name for related ones), and its group "
            "(group_parent). State the cost of each step from its cost line and flag anything unusual: recent "
            "changes of representatives, losses, negative equity, open proceedings."
        )

    @server.prompt(description="What changed about a company since its answers were last fetched")
    def what_changed(company: str) -> str:
        return (
            f"Say what changed about {company}. Use changes (free: it compares the answers the cache kept); if the "
            "cache holds only one version, a watchlist_estimate with this company says what refreshing costs, and "
            "watchlist_refresh fetches it again and lists the changes. Report each change with its date and category."
        )

    return server


def _version() -> str:
    """regkit's version as installed (the distribution's metadata; the facade is above this layer)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("regkit")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _returning(method: Callable[..., ToolText], result: Callable[[ToolText], Any]) -> Callable[..., Any]:
    """``method`` answering an MCP result (its signature and docstring kept: the SDK builds the tool's schema and
    description from them)."""
    import functools

    @functools.wraps(method)
    def tool(*args: Any, **kwargs: Any) -> Any:
        return result(method(*args, **kwargs))

    return tool
