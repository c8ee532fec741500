"""``regkit webhook listen``: the webhook receiver (:mod:`regkit.client.webhook`) on a port of this machine."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

__all__ = ["add_webhook_commands", "listen"]


def listen(args: argparse.Namespace) -> int:
    """Verify, deduplicate and store the events sent to ``--host``:``--port`` until interrupted."""
    from waitress import create_server

    from regkit.errors import ValidationError

    from ..webhook import EventStore, Receiver, secret_from

    try:
        secret = secret_from(os.environ, args.secret_file)
    except ValidationError as exc:
        print(f"regkit webhook listen: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"regkit webhook listen: --port must be a whole number from 0 to 65535, not {args.port}", file=sys.stderr)
        return 2
    store = EventStore(args.store)
    on_event = None
    if args.cache is not None:  # each event expires its entity's cached answers: the next lookup fetches them
        from ..core import Client

        client = Client(cache=args.cache, offline=True, ledger_file=None, quiet=True)

        def on_event(event: dict[str, Any]) -> None:
            client.mark_stale(event["entity_id"])

    receiver = Receiver(secret, store, on_event=on_event)
    server: Any = create_server(receiver, host=args.host, port=args.port, threads=4)
    port = server.effective_port
    counts = store.counts()
    print(
        f"regkit webhook: listening on http://{args.host}:{port}/ — verified events go to {store.path} "
        f"({counts['events']} stored so far); Ctrl-C stops",
        flush=True,
    )
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    counts = store.counts()
    print(
        f"regkit webhook: stopped; {counts['events']} events stored ({counts['unrecognised']} with a body regkit does "
        f"not know, kept raw), {receiver.duplicates} sent again and not stored twice, {receiver.rejected} rejected",
        file=sys.stderr,
    )
    return 0


def add_webhook_commands(subparsers: Any) -> None:
    """Register ``webhook listen`` on ``subparsers``."""
    webhook = subparsers.add_parser("webhook", help="receive monitors' webhook events (verified, deduplicated, stored)")
    actions = webhook.add_subparsers(dest="webhook_command", metavar="ACTION", required=True)
    p = actions.add_parser(
        "listen",
        help="verify, deduplicate and store the events sent to a port (the secret from REGKIT_WEBHOOK_SECRET or "
        "--secret-file, never the command line)",
    )
    p.add_argument("--port", type=int, required=True, help="the port to listen on (0 picks a free one)")
    p.add_argument("--store", required=True, help="the SQLite file the events go to (made when missing)")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--secret-file", default=None, help="a file whose first line is the endpoint's whsec_… secret")
    p.add_argument(
        "--cache",
        default=None,
        help="a client cache (path or redis:// URL) in which each event expires its entity's answers, so the next "
        "lookup fetches exactly what changed (the cache of the service Client() would use: REGKIT_API_KEY, "
        "REGKIT_BASE_URL)",
    )
    p.set_defaults(handler=listen)
