"""``regkit serve`` and the operator commands ``regkit local plan|enable-monitors|credits``."""

from __future__ import annotations

import argparse
import errno
import json
import socket
import sqlite3
import sys
import time
from pathlib import Path
from typing import Sequence

__all__ = ["add_commands", "main", "ServeError"]


def _add_world_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None, help="world directory (default: the world bundled with regkit; REGKIT_DATA_DIR overrides)")
    parser.add_argument("--state", type=Path, default=None,
                        help="state file (default: $REGKIT_LOCAL_STATE or the user data directory)")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``serve`` and ``local`` on the ``regkit`` command (handlers under ``handler``)."""
    from .config import parse_duration

    serve = subparsers.add_parser("serve", help="serve the local register over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    serve.add_argument("--port", default="8080", help="port (default 8080; 0 picks a free one)")
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


class ServeError(Exception):
    """Why ``regkit serve`` cannot start: one line for the user, and the exit status."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(" ".join(message.split()))
        self.status = status


def _port(text: str) -> int:
    """The ``--port`` value as an integer from 0 to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise ServeError(f"--port must be a whole number from 0 to 65535 (0 picks a free one), not {text!r}", 2)
    return port


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a :class:`ServeError` saying why there is none."""
    from werkzeug.serving import LISTEN_QUEUE, get_sockaddr, select_address_family

    family = select_address_family(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(get_sockaddr(host, port, family))
        sock.listen(LISTEN_QUEUE)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {host} is in use by another program; stop it, or choose another "
                             "port with --port (0 picks a free one)") from None
        reason = error.strerror or error
        raise ServeError(f"cannot listen on {host}:{port}: {reason}; check --host and --port") from None
    return sock


def _open_world(data_dir: Path | None):
    """Read the world (cached for the application built next), or a :class:`ServeError` saying why not."""
    from .catalog import load_catalog

    try:
        return load_catalog(data_dir=data_dir)
    except FileNotFoundError as error:  # read_world's message names what is missing and how to build a world
        raise ServeError(str(error), 2) from None
    except Exception as error:  # a damaged world file fails in gzip, json or the record layout
        where = data_dir if data_dir is not None else "the bundled world"
        raise ServeError(f"{where} is not a readable regkit world ({type(error).__name__}: {error}); rebuild it "
                         "with `regkit world build --companies 5000 --seed 20261121 --out DIR`", 2) from None


def _start(args: argparse.Namespace):
    """Check the arguments, read the world, open the state and bind: the server and its register context."""
    from werkzeug.serving import make_server

    from .app import create_app
    from .config import Config, default_state_path
    from .context import EXTENSION
    from .faults import Faults

    port = _port(args.port)
    try:
        faults = Faults(latency=args.latency, fault_rate=args.fault_rate, timeout_rate=args.timeout_rate,
                        timeout=args.timeout, truncate_rate=args.truncate_rate, burst_rate=args.burst_rate,
                        seed=args.fault_seed)
        config = Config(rate_limit=args.rate_limit or None, extract_delay=args.extract_delay)
    except ValueError as error:
        raise ServeError(str(error), 2) from None
    _open_world(args.data)
    state_path = args.state or default_state_path()
    try:
        app = create_app(data_dir=args.data, state_path=state_path, config=config, faults=faults)
    except (OSError, sqlite3.Error) as error:
        raise ServeError(f"cannot open the state file {state_path}: {error}; choose another with --state") from None
    context = app.extensions[EXTENSION]
    try:
        sock = _bind(args.host, port)
    except ServeError:
        context.state.close()
        raise
    with sock:  # werkzeug serves on a duplicate of the descriptor
        server = make_server(args.host, sock.getsockname()[1], app, threaded=True, fd=sock.fileno())
    return server, context, faults


def _serve(args: argparse.Namespace) -> int:
    try:
        server, context, faults = _start(args)
    except ServeError as error:
        print(f"regkit serve: {error}", file=sys.stderr)
        return error.status
    print(f"regkit local register listening on http://{args.host}:{server.port}")
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
