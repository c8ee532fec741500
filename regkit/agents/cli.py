"""``regkit mcp``: start the MCP server for an agent (see :mod:`regkit.agents`).

The key is read from the environment only (``REGKIT_API_KEY`` or ``OPENREGISTER_API_KEY``, as every regkit client
reads it): it is never an argument, so it is in no process list, shell history or host configuration shown to an
agent. Without a key, or with ``--sandbox``, the server is a sandbox on a local register in-process: the bundled
world, a world directory (``--data``), and its register's today as its state file says (``--state``: a world
``regkit local advance`` moved on).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

__all__ = ["LIVE_BUDGET", "SANDBOX_BUDGET", "add_commands", "open_session"]

#: The session budget against the live service unless ``--budget`` says otherwise.
LIVE_BUDGET = 100
#: The rehearsal budget of a sandbox: enough to find the README's group (Waldstein Holding GmbH), climb to it and
#: crawl it whole (24 companies and their holdings: 480 credits) with room for profiles and financials.
SANDBOX_BUDGET = 1_000

_KEY_VARIABLES = ("REGKIT_API_KEY", "OPENREGISTER_API_KEY")


def add_commands(subparsers: Any) -> None:
    """Register ``mcp`` on the ``regkit`` command."""
    p = subparsers.add_parser(
        "mcp",
        help="serve regkit's tools to an agent (MCP, over stdio or HTTP) with a budget in charge",
        description="An MCP server: register research tools for a language-model agent, each answer with what it "
        "cost, every call that could cross the session's budget refused before it is sent. The key comes from "
        "REGKIT_API_KEY (or OPENREGISTER_API_KEY); without one the server is a sandbox on the bundled register.",
    )
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="serve a local register in-process even when a key is set (the default without a key)",
    )
    p.add_argument("--data", metavar="DIR", help="the sandbox's world directory (regkit world build/import wrote it)")
    p.add_argument(
        "--state",
        metavar="FILE",
        help="the sandbox register's state file: its today (a world `regkit local advance --state FILE` moved on), "
        "credits and monitors",
    )
    p.add_argument(
        "--budget",
        type=_credits,
        help=f"credits the session may spend (default {LIVE_BUDGET} against the live service, "
        f"{SANDBOX_BUDGET} in a sandbox)",
    )
    p.add_argument(
        "--team",
        metavar="REDIS_URL#TEAM",
        help="the team budget to spend within as well (redis://host:6379/0#team-a; its cap is the team's)",
    )
    p.add_argument(
        "--cache",
        metavar="PATH",
        help="where answers are cached (a path or redis:// URL; default: regkit's cache against the live service, "
        "a cache of the session's own in memory in a sandbox)",
    )
    p.add_argument("--http", action="store_true", help="serve Streamable HTTP at http://HOST:PORT/mcp, not stdio")
    p.add_argument("--host", default="127.0.0.1", help="the address to bind with --http (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8765, help="the port with --http (default 8765)")
    p.set_defaults(handler=_serve)


def _credits(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a budget is a number of credits, 0 or more, not {text!r}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return value


def open_session(args: argparse.Namespace) -> tuple[Any, Any]:
    """The session ``args`` ask for and the client's key scrubber: ``(AgentSession, scrub)``."""
    from regkit.client.core import Client
    from regkit.client.transport.target import secret_scrubber

    from .session import AgentSession

    key = next((os.environ[name] for name in _KEY_VARIABLES if os.environ.get(name)), None)
    sandbox = bool(args.sandbox or args.data or args.state or key is None)
    budget = args.budget if args.budget is not None else (SANDBOX_BUDGET if sandbox else LIVE_BUDGET)
    common: dict[str, Any] = {"quiet": True, "budget": budget, "ledger_file": None if sandbox else "default"}
    if args.team:
        common.update(budget=None, budget_scope=args.team)
    if sandbox:
        from regkit.local import open_local_register
        from regkit.local.world.store import default_data_dir

        register = open_local_register(args.data or default_data_dir(), state_path=args.state)
        client = Client(
            api_key=register.default_api_key,
            adapter=register.adapter,
            cache=args.cache or "memory",
            **common,
        )
        today = register.today.isoformat()
        where = f"sandbox: {client.target.describe()}, its today {today}"
    else:
        client = Client(cache=args.cache or "default", **common)
        where = f"{client.target.describe()} at {client.base_url}"
    return AgentSession(client, budget, sandbox=sandbox, where=where), secret_scrubber(key)


def _stop_on_sigint(session: Any) -> None:
    """Ctrl-C stops the call under way at once (nothing more is sent), then interrupts as Python does: without
    this, the interpreter would wait at exit for the tool's thread, which would go on paying until its call ended."""

    def stop(signum: int, frame: Any) -> None:
        session.stop()
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, stop)


def _serve_http(server: Any, session: Any, host: str, port: int) -> None:
    """Streamable HTTP at ``http://host:port/mcp`` with uvicorn (as the SDK serves it), whose shutdown on Ctrl-C or
    SIGTERM first stops the call under way: uvicorn waits for the requests in flight, and a crawl in one would go
    on paying until it ended."""
    import anyio
    import uvicorn

    class StoppingServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            session.stop()
            super().handle_exit(sig, frame)

    app = server.streamable_http_app(streamable_http_path="/mcp", host=host)
    anyio.run(StoppingServer(uvicorn.Config(app, host=host, port=port, log_level="warning")).serve)


def _serve(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401 - the SDK (and pydantic, which the tools' schemas need) come with the extra
        import pydantic  # noqa: F401
    except ModuleNotFoundError as error:
        print(
            f"regkit mcp needs the MCP SDK ({error}): pip install 'mcp>=2.3' (regkit's mcp extra: "
            "pip install -e '.[mcp]' in the checkout)",
            file=sys.stderr,
        )
        return 1
    from regkit.errors import RegkitError

    from .server import build_server

    try:
        session, scrub = open_session(args)
        server = build_server(session, scrub=scrub)
    except RegkitError as error:
        print(f"regkit mcp: {error}", file=sys.stderr)
        return 1
    how = f"Streamable HTTP at http://{args.host}:{args.port}/mcp" if args.http else "stdio"
    print(
        f"regkit mcp: {session.where}; session budget {session.budget} credits"
        f"{' (the team budget applies too)' if args.team else ''}; over {how}",
        file=sys.stderr,
        flush=True,
    )
    try:
        if args.http:
            _serve_http(server, session, args.host, args.port)
        else:
            _stop_on_sigint(session)
            server.run()
    except KeyboardInterrupt:
        print("regkit mcp: stopped", file=sys.stderr)
        return 130
    finally:
        session.client.close()
    return 0
