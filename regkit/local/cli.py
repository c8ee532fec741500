"""``regkit serve`` and the operator commands ``regkit local plan|enable-monitors|credits``."""

from __future__ import annotations

import argparse
import errno
import json
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Config
    from .faults import Faults
    from .models.backend import RegisterContext
    from .models.catalog import Catalog
    from .models.state import StateDB
    from .server import LocalServer

__all__ = ["add_commands", "main", "ServeError"]


def _add_world_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="world directory (default: the world bundled with regkit; REGKIT_DATA_DIR overrides)",
    )
    parser.add_argument(
        "--state", type=Path, default=None, help="state file (default: $REGKIT_LOCAL_STATE or the user data directory)"
    )


def _duration(text: str) -> float:
    """An argparse type: ``50ms``, ``1.5s``, ``2m``, or a bare number of seconds."""
    from .config import parse_duration

    try:
        return parse_duration(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _days(text: str) -> int:
    """An argparse type: a whole number of days of at least 1."""
    try:
        days = int(text)
    except ValueError:
        days = 0
    if days < 1:
        raise argparse.ArgumentTypeError(
            f"a whole number of days of at least 1, not {text!r} (the register's clock never moves back)"
        )
    return days


def _add_serve(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser("serve", help="serve the local register over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    serve.add_argument("--port", default="8080", help="port (default 8080; 0 picks a free one)")
    _add_world_options(serve)
    serve.add_argument("--rate-limit", type=float, default=50.0, help="requests per second per key (0: unlimited)")
    serve.add_argument(
        "--extract-delay",
        type=_duration,
        default=2.0,
        help="time an extract stays processing (e.g. 500ms, 2s; a bare number is seconds)",
    )
    serve.add_argument(
        "--webhook-retry-delays",
        type=_delays,
        default=None,
        help="seconds before each retry of a webhook message, comma-separated "
        "(default 5,300,1800,7200,18000,36000,36000)",
    )
    serve.add_argument(
        "--latency", type=_duration, default=0.0, help="added to every request (e.g. 50ms; a bare number is seconds)"
    )
    serve.add_argument(
        "--realtime-latency",
        type=_duration,
        default=0.05,
        help="the time a realtime lookup takes inside the register, as the live service's fetch from the court does "
        "(default 50ms)",
    )
    serve.add_argument(
        "--fault-rate",
        type=float,
        default=0.0,
        help="share of requests answered 500 injected_fault (logged in one line, no traceback)",
    )
    serve.add_argument(
        "--timeout-rate",
        type=float,
        default=0.0,
        help="share of requests that get no answer: the connection is closed after --timeout",
    )
    serve.add_argument(
        "--timeout",
        type=_duration,
        default=30.0,
        help="how long a timed-out request is held before its connection is closed (default 30s)",
    )
    serve.add_argument("--truncate-rate", type=float, default=0.0, help="share of 200s with a truncated body")
    serve.add_argument("--burst-rate", type=float, default=0.0, help="chance a request starts a burst of 429s")
    serve.add_argument(
        "--burst-retry-after",
        type=int,
        default=1,
        metavar="SECONDS",
        help="the Retry-After of a burst's 429s, in whole seconds (default 1; 0 asks for no wait)",
    )
    serve.add_argument("--fault-seed", type=int, default=0, help="seed of the fault sequence")
    serve.add_argument(
        "--fault-plan",
        action="append",
        default=[],
        metavar="[METHOD ]PATH=STEP,...",
        help="a deterministic fault sequence for the requests to PATH (a trailing * makes it a prefix), met in "
        "turn before the random faults; steps: pass, error, timeout, truncate, garble, gateway, or a status "
        "400-599 with an optional @SECONDS of Retry-After; a * after the last step repeats it. Repeatable. "
        "Example: --fault-plan 'GET /v1/company/*=503,503,pass'",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="origin clients reach the register at, e.g. https://register.example.org: presigned "
        "document URLs name it (default: http://HOST:PORT as bound; never the Host header)",
    )
    serve.add_argument(
        "--auth-failure-limit",
        type=int,
        default=10,
        metavar="N",
        help="failed authentications (unknown API keys) allowed per client address per minute; "
        "then every request from it that needs a key is a 429 until the bucket refills "
        "(0: no limit; default 10)",
    )
    serve.add_argument("--threads", type=int, default=16, help="requests served at once (default 16)")
    serve.add_argument(
        "--key-concurrency",
        type=int,
        default=8,
        metavar="N",
        help="requests one API key may have in flight at once; beyond it a 429 with Retry-After "
        "(0: no bound; default 8, what regkit's client sends at once by default)",
    )
    serve.add_argument(
        "--key-work",
        type=_duration,
        default=0.5,
        metavar="SECONDS",
        help="CPU time one API key's requests in flight may be expected to take together, learned from its "
        "earlier requests; beyond it a 429 with Retry-After; a key with nothing in flight is always let in "
        "(e.g. 500ms, 2s; 0: no bound; default 0.5s)",
    )
    serve.add_argument(
        "--total-work",
        type=_duration,
        default=1.0,
        metavar="SECONDS",
        help="CPU time the requests in flight of all keys together may be expected to take, beyond each key's "
        "first request (always let in); beyond it a 429 with Retry-After (0: no bound; default 1s)",
    )
    serve.add_argument(
        "--log-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="also append the log to PATH, an access line per request included",
    )
    serve.add_argument("--verbose", action="store_true", help="also write the access lines (and debug lines) to stderr")
    serve.set_defaults(handler=_serve)


def _add_local(subparsers: argparse._SubParsersAction) -> None:
    local = subparsers.add_parser("local", help="operate on the local register's state file")
    actions = local.add_subparsers(dest="local_command", metavar="ACTION", required=True)
    plan = actions.add_parser("plan", help="change a user's plan (a plan without monitoring disables its monitors)")
    plan.add_argument("api_key")
    plan.add_argument("plan")
    enable = actions.add_parser("enable-monitors", help="re-enable a user's disabled monitors")
    enable.add_argument("api_key")
    credits = actions.add_parser("credits", help="show a user's plan and credit balance")
    credits.add_argument("api_key")
    today = actions.add_parser("today", help="show the register's today (the world's as_of until advanced)")
    advance = actions.add_parser(
        "advance",
        help="move the register's today forward: each day's register events, the monitors' checks and charges "
        "(it never moves back; an imported world does not)",
    )
    advance.add_argument("--days", type=_days, required=True, help="how many days (a whole number, at least 1)")
    webhook = actions.add_parser("webhook", help="where a key's monitor events go, and what was delivered")
    webhook_actions = webhook.add_subparsers(dest="webhook_command", metavar="ACTION", required=True)
    webhook_set = webhook_actions.add_parser(
        "set", help="set a key's webhook endpoint; prints the URL and its new whsec_ secret"
    )
    webhook_set.add_argument("api_key")
    webhook_set.add_argument("--url", required=True, help="https://, or http:// to a loopback or private host")
    webhook_deliveries = webhook_actions.add_parser("deliveries", help="list a key's webhook messages")
    webhook_deliveries.add_argument("api_key")
    for parser, handler in (
        (plan, _plan),
        (enable, _enable),
        (credits, _credits),
        (today, _today),
        (advance, _advance),
        (webhook_set, _webhook_set),
        (webhook_deliveries, _webhook_deliveries),
    ):
        _add_world_options(parser)
        parser.set_defaults(handler=handler)


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``serve`` and ``local`` on the ``regkit`` command (handlers under ``handler``)."""
    _add_serve(subparsers)
    _add_local(subparsers)


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
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror}; check --host and --port") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {port} on {host} is in use by another program; stop it, or choose another "
                "port with --port (0 picks a free one)"
            ) from None
        reason = error.strerror or error
        raise ServeError(f"cannot listen on {host}:{port}: {reason}; check --host and --port") from None
    return sock


def _open_world(data_dir: Path | None) -> Catalog:
    """Read the world (cached for the application built next), or a :class:`ServeError` saying why not."""
    from regkit.errors import RegkitError

    from .models.catalog import load_catalog

    try:
        return load_catalog(data_dir=data_dir)
    except FileNotFoundError as error:  # read_world's message names what is missing and how to build a world
        raise ServeError(str(error), 2) from None
    except RegkitError as error:  # the world is sound, but its store could not be built (a full disk): say that
        raise ServeError(f"{error}", 1) from None
    except Exception as error:  # a damaged world file fails in gzip, json or the record layout
        where = data_dir if data_dir is not None else "the bundled world"
        raise ServeError(
            f"{where} is not a readable regkit world ({type(error).__name__}: {error}); rebuild it "
            "with `regkit world build --companies 5000 --seed 20261121 --out DIR`",
            2,
        ) from None


def _settings(args: argparse.Namespace) -> tuple[Faults, Config]:
    """The fault and register settings of the arguments, or a :class:`ServeError` saying what is wrong."""
    from .config import Config
    from .faults import Faults

    if args.threads < 1 or args.auth_failure_limit < 0:
        raise ServeError("--threads must be at least 1 and --auth-failure-limit at least 0 (0: no limit)", 2)
    if args.key_concurrency < 0:
        raise ServeError("--key-concurrency must be at least 0 (0: no bound on a key's requests in flight)", 2)
    try:
        faults = Faults(
            latency=args.latency,
            fault_rate=args.fault_rate,
            timeout_rate=args.timeout_rate,
            timeout=args.timeout,
            truncate_rate=args.truncate_rate,
            burst_rate=args.burst_rate,
            burst_retry_after=args.burst_retry_after,
            seed=args.fault_seed,
            plan=tuple(args.fault_plan),
        )
        config = Config(
            rate_limit=args.rate_limit or None,
            extract_delay=args.extract_delay,
            realtime_latency=args.realtime_latency,
            public_url=args.public_url,
            auth_failure_limit=args.auth_failure_limit or None,
            key_concurrency=args.key_concurrency or None,
            key_work=args.key_work or None,
            total_work=args.total_work or None,
            **({"webhook_retry_delays": args.webhook_retry_delays} if args.webhook_retry_delays else {}),
        )
    except ValueError as error:
        message = str(error).replace("public_url", "--public-url").replace("burst_retry_after", "--burst-retry-after")
        raise ServeError(message, 2) from None
    return faults, config


def _start(args: argparse.Namespace) -> tuple[LocalServer, RegisterContext, Faults]:
    """Check the arguments, read the world, bind, set up logging and open the state.

    Returns the server (bound, not yet serving), the register context and the faults.
    """
    from .app import create_app, secrets
    from .config import default_state_path
    from .logs import configure_serve_logging
    from .models.backend import EXTENSION
    from .server import LocalServer

    port = _port(args.port)
    faults, config = _settings(args)
    catalog = _open_world(args.data)
    sock = _bind(args.host, port)
    try:
        try:
            configure_serve_logging(verbose=args.verbose, log_file=args.log_file, secrets=secrets(catalog))
        except OSError as error:
            raise ServeError(
                f"cannot write the log file {args.log_file}: {error.strerror or error}; choose another with --log-file"
            ) from None
        state_path = args.state or default_state_path()
        try:
            app = create_app(data_dir=args.data, state_path=state_path, config=config, faults=faults)
        except (OSError, sqlite3.Error) as error:
            raise ServeError(f"cannot open the state file {state_path}: {error}; choose another with --state") from None
    except ServeError:
        sock.close()
        raise
    context = app.extensions[EXTENSION]
    return LocalServer(app, args.host, threads=args.threads, sock=sock).bind(), context, faults


def _banner(args: argparse.Namespace, server: LocalServer, context: RegisterContext, faults: Faults) -> None:
    """Where the register listens and whom it serves: user names and plans, never an API key."""
    from .models.users import user_name

    catalog, config = context.catalog, context.config
    print(f"regkit local register listening on {server.url}")
    print(
        f"  world: {len(catalog.world.companies)} companies, {len(catalog.world.insolvencies)} insolvency "
        f"proceedings; state: {context.state.path}"
    )
    print(
        f"  document URLs name {config.public_url or server.url}"
        + ("" if config.public_url else " (set --public-url when clients reach the register by another address)")
    )
    print(
        f"  {len(catalog.users)} users (API keys are not shown; the bundled world's demo keys are in README.md "
        "and data/README.md):"
    )
    for key, user in catalog.users.items():
        print(
            f"    {user_name(catalog, key):<8} plan {user.get('plan')}, {user.get('included_credits')} credits"
            + (f" - {user['description']}" if user.get("description") else "")
        )
    limit = config.auth_failure_limit
    print(f"  failed authentications: {f'{limit} per minute per client address, then 429' if limit else 'no limit'}")
    print(
        f"  log: stderr{f' and {args.log_file}' if args.log_file else ''}"
        + ("" if args.verbose else " (access lines only with --verbose or in --log-file)")
    )
    if faults.active:
        print(f"  fault injection on: {faults}")
    sys.stdout.flush()


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def _serve(args: argparse.Namespace) -> int:
    try:
        server, context, faults = _start(args)
    except ServeError as error:
        print(f"regkit serve: {error}", file=sys.stderr)
        return error.status
    _banner(args, server, context, faults)
    try:
        signal.signal(signal.SIGTERM, _stop_on_sigterm)
    except ValueError:  # not the main thread: only Ctrl-C stops it
        pass
    from .delivery import WebhookSender

    sender = WebhookSender(context.state, context.config.webhook_retry_delays, context.config.clock)
    sender.start()  # the messages of every advance, this process's or another's on the same state file
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        print("stopped")
    finally:
        server.stop()
        sender.stop()
        context.state.close()
    return 0


def _open(args: argparse.Namespace) -> tuple[StateDB, Catalog]:
    from .config import default_state_path
    from .models.catalog import load_catalog
    from .models.state import StateDB

    return StateDB(args.state or default_state_path()), load_catalog(data_dir=args.data)


def _operate(args: argparse.Namespace, action: Callable[[StateDB, Catalog], str]) -> int:
    from .models.admin import OperatorError

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
    from .models.admin import set_plan

    def action(state: StateDB, catalog: Catalog) -> str:
        disabled = set_plan(state, catalog, args.api_key, args.plan, time.time())
        return f"{args.api_key} is now on plan {args.plan}" + (f"; {disabled} monitor(s) disabled" if disabled else "")

    return _operate(args, action)


def _enable(args: argparse.Namespace) -> int:
    from .models.admin import enable_monitors

    return _operate(
        args,
        lambda state, catalog: (
            f"{enable_monitors(state, catalog, args.api_key)} monitor(s) of {args.api_key} re-enabled"
        ),
    )


def _credits(args: argparse.Namespace) -> int:
    from .models.admin import credit_summary

    return _operate(
        args, lambda state, catalog: json.dumps(credit_summary(state, catalog, args.api_key, time.time()), indent=1)
    )


def _today(args: argparse.Namespace) -> int:
    from .models.clock import RegisterClock

    return _operate(args, lambda state, catalog: RegisterClock(state, catalog.meta).today().isoformat())


def _advance(args: argparse.Namespace) -> int:
    from .models.clock import RegisterClock
    from .models.monitor_checks import advance_register

    return _operate(
        args,
        lambda state, catalog: advance_register(
            RegisterClock(state, catalog.meta), catalog, args.days, time.time()
        ).isoformat(),
    )


def _webhook_set(args: argparse.Namespace) -> int:
    from .models.webhooks import set_endpoint

    def action(state: StateDB, catalog: Catalog) -> str:
        secret = set_endpoint(state, catalog, args.api_key, args.url, time.time())
        return f"{args.url}\n{secret}"

    return _operate(args, action)


def _webhook_deliveries(args: argparse.Namespace) -> int:
    from .models.webhooks import deliveries

    def action(state: StateDB, catalog: Catalog) -> str:
        rows = deliveries(state, catalog, args.api_key)
        lines = [f"{'webhook-id':<36}  {'event':<36}  {'entity':<38}  {'status':<9}  tries"]
        lines += [
            f"{r['webhook_id']:<36}  {r['event_id']:<36}  {r['entity_id']:<38}  {r['status']:<9}  {r['tries']}"
            + (f"  ({r['last_error']})" if r["last_error"] else "")
            for r in rows
        ]
        return "\n".join(lines) if rows else "no webhook messages yet"

    return _operate(args, action)


def _delays(value: str) -> tuple[float, ...]:
    try:
        delays = tuple(float(part) for part in value.split(","))
    except ValueError:
        delays = ()
    if not delays or any(delay < 0 for delay in delays):
        raise argparse.ArgumentTypeError(f"seconds separated by commas, e.g. 5,300,1800, not {value!r}")
    return delays


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``serve`` / ``local`` without the rest of the ``regkit`` command (``python -m regkit.local``)."""
    parser = argparse.ArgumentParser(prog="python -m regkit.local")
    add_commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args) or 0)
