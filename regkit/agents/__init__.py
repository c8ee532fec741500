"""regkit for agents: an MCP server whose tools are register research, with the budget in charge.

``regkit mcp`` (:mod:`regkit.agents.cli`) starts it, over stdio for an MCP host or over Streamable HTTP. Its tools
(:mod:`regkit.agents.tools`) are thin calls into :class:`regkit.Client` and :mod:`regkit.graph`; their answers are
compact (:mod:`regkit.agents.answers`) and each says what it cost; the session (:mod:`regkit.agents.session`)
refuses a call that could cross its budget before anything is sent. The server itself
(:mod:`regkit.agents.server`) needs the ``mcp`` extra (``pip install -e '.[mcp]'`` in the checkout, or
``pip install 'mcp>=2.3'``); the rest of regkit does not.
"""

from .session import AgentSession, CallCost, Estimate, Outcome

__all__ = ["AgentSession", "CallCost", "Estimate", "Outcome"]
