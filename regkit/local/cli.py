"""``regkit serve`` and the operator commands ``regkit local plan|enable-monitors|credits``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Sequence

__all__ = ["add_commands", "main"]


def _add_world_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None, help="world directory (default: the bundled data/)")
    parser.add_argument("--state", type=Path, default=None,
                        help="state file (default: $REGKIT_LOCAL_STATE or the user data directory)")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``serve`` and ``local`` on the ``regkit`` command (handlers under ``handler``)."""
    from .config import parse_duration

    serve = subparsers.add_parser("serve", help="serve the local register over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    _add_world_options(serve)
    serve.add_argument("--rate-limit", type=float, default=50.0, help="requests per second per key (0: unlimited)")
    serve.add_argument("--extract-delay", type=parse_duration, default=2.0, help="time an extract stays processing")
    serve.add_argument("--latency", type=parse_duration, default=0.0, help="added to every request, e.g. 50ms")
    serve.add_argument("--fault-rate", type=float, default=0.0, help="share of requests answered 500")
    serve.add_argument("--timeout-rate", type=float, default=0.0, help="share of requests that hang, then drop")
    serve.add_argument("--timeout", type=parse_duration, default=30.0, help="how long a hanging request hangs")
    serve.add_argument("--truncate-rate", type=float, default=0.0, help="share of 200s with a truncated body")
    serve.add_argument("--burst-rate", type=float, default=0.0, help="chance a request starts a burst of 429s")
    serve.add_argument("--fault-seed", type=int, default=0, help="seed of the fault sequence")
    serve.add_argument("--verbose", action="store_true", help="log every request")
    serve.set_defaults(handler=_serve)

    local = subparsers.add_parser("local", help="operate on the local register's state file")
    actions = local.add_subparsers(dest="local_command", metavar="ACTION", required=True)
    plan = actions.add_parser("plan", help="change a user's plan (a plan without monitoring disables its monitors)")
    plan.add_argument("api_key")
    plan.add_argument("plan")
    enable = actions.add_parser("enable-monitors", help="re-enable a user's disabled monitors")
    enable.add_argument("api_key")
    credits = actions.add_parser("credits", help="show a user's plan and credit balance")
    credits.add_argument("api_key")
    for parser, handler in ((plan, _plan), (enable, _enable), (credits, _credits)):
        _add_world_options(parser)
        parser.set_defaults(handler=handler)


def _serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from .app import create_app
    from .config import Config, default_state_path
    from .context import EXTENSION
    from .faults import Faults

    try:
        faults = Faults(latency=args.latency, fault_rate=args.fault_rate, timeout_rate=args.timeout_rate,
                        timeout=args.timeout, truncate_rate=args.truncate_rate, burst_rate=args.burst_rate,
                        seed=args.fault_seed)
        config = Config(rate_limit=args.rate_limit or None, extract_delay=args.extract_delay)
    except ValueError as error:
        print(f"regkit serve: {error}", file=sys.stderr)
        return 2
    app = create_app(data_dir=args.data, state_path=args.state or default_state_path(), config=config, faults=faults)
    context = app.extensions[EXTENSION]
    server = make_server(args.host, args.port, app, threaded=True)
    print(f"regkit local register listening on http://{args.host}:{server.server_port}")
    print(f"  world: {len(context.catalog.world.companies)} companies, "
          f"{len(context.catalog.world.insolvencies)} insolvency proceedings; state: {context.state.path}")
    print("  API keys (Authorization: Bearer <key>):")
    for key, user in context.catalog.users.items():
        print(f"    {key:<12} plan {user.get('plan')}, {user.get('included_credits')} credits"
              + (f" - {user['description']}" if user.get("description") else ""))
    if faults.active:
        print(f"  fault injection on: {faults}")
    sys.stdout.flush()
    if not args.verbose:
        import logging

        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
        context.state.close()
    return 0


def _open(args: argparse.Namespace):
    from .catalog import load_catalog
    from .config import default_state_path
    from .state import StateDB

    return StateDB(args.state or default_state_path()), load_catalog(data_dir=args.data)


def _operate(args: argparse.Namespace, action) -> int:
    from .admin import OperatorError

    state, catalog = _open(args)
    try:
        message = action(state, catalog)
    except OperatorError as error:
        print(f"regkit local {args.local_command}: {error}", file=sys.stderr)
        return 1
    finally:
        state.close()
    print(message)
    return 0


def _plan(args: argparse.Namespace) -> int:
    from .admin import set_plan

    def action(state, catalog) -> str:
        disabled = set_plan(state, catalog, args.api_key, args.plan, time.time())
        return f"{args.api_key} is now on plan {args.plan}" + (f"; {disabled} monitor(s) disabled" if disabled else "")

    return _operate(args, action)


def _enable(args: argparse.Namespace) -> int:
    from .admin import enable_monitors

    return _operate(args, lambda state, catalog: f"{enable_monitors(state, catalog, args.api_key)} monitor(s) of "
                                                 f"{args.api_key} re-enabled")


def _credits(args: argparse.Namespace) -> int:
    from .admin import credit_summary

    return _operate(args, lambda state, catalog: json.dumps(credit_summary(state, catalog, args.api_key, time.time()),
                                                            indent=1))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``serve`` / ``local`` without the rest of the ``regkit`` command (``python -m regkit.local``)."""
    parser = argparse.ArgumentParser(prog="python -m regkit.local")
    add_commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args) or 0)
