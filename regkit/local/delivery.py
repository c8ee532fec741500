"""The running register's webhook sender: posts due messages, signed, and retries them.

One daemon thread per register (``regkit serve``, or an in-process :class:`~regkit.local.register.LocalRegister`
once its clock moves or an endpoint is set) looks for due messages every half second
(:func:`regkit.local.models.webhooks.due_messages`) and posts each to its key's endpoint with the Standard
Webhooks headers — ``webhook-id`` (the message id, the same on every try), ``webhook-timestamp`` (wall-clock
Unix seconds) and ``webhook-signature``, made by the ``standardwebhooks`` library with the endpoint's secret. A
2xx within 15 s is success; anything else is tried again after the configured delays
(:attr:`regkit.local.config.Config.webhook_retry_delays`). Delivery is at-least-once: a register stopped after a
post and before recording it posts the message again.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable

import requests

from .models.state import StateDB
from .models.webhooks import due_messages, record_try

__all__ = ["WebhookSender", "TIMEOUT"]

logger = logging.getLogger("regkit.local.webhooks")

#: Seconds an endpoint has to answer.
TIMEOUT = 15.0


class WebhookSender:
    """Delivers a state file's webhook messages in a daemon thread.

    Parameters
    ----------
    state : StateDB
        The register's state file.
    delays : tuple of float
        Seconds before each retry.
    clock : callable
        Wall-clock Unix time (the register's configured clock).
    interval : float
        Seconds between looks for due messages.
    """

    def __init__(
        self, state: StateDB, delays: tuple[float, ...], clock: Callable[[], float], interval: float = 0.5
    ) -> None:
        self.state = state
        self.delays = delays
        self.clock = clock
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._delivering = threading.Lock()  # one pass at a time: the thread's, or an in-process advance's
        self._session = requests.Session()

    def start(self) -> None:
        """Start the thread (once)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="regkit-webhooks", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """Stop the thread after the message it is posting."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=TIMEOUT + 5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.deliver_due()
            except Exception:  # the sender must outlive a bad moment (a locked state file, a closed one)
                logger.exception("Webhook delivery failed; trying again")
            self._stop.wait(self.interval)

    def deliver_due(self) -> int:
        """Post every message due now once (in batches, until none is left); return how many were delivered. One
        pass runs at a time."""
        with self._delivering:
            return self._deliver_due()

    def _deliver_due(self) -> int:
        from standardwebhooks import Webhook

        delivered = 0
        tried: set[str] = set()
        while not self._stop.is_set():
            due = [m for m in due_messages(self.state, self.clock()) if m[0] not in tried]
            if not due:
                return delivered
            for message_id, body, url, secret, _tries in due:
                if self._stop.is_set():
                    break
                tried.add(message_id)  # one try per message and pass: a retry waits for its delay
                sent_at = dt.datetime.fromtimestamp(int(self.clock()), dt.timezone.utc)
                headers = {
                    "content-type": "application/json",
                    "webhook-id": message_id,
                    "webhook-timestamp": str(int(sent_at.timestamp())),
                    "webhook-signature": Webhook(secret).sign(message_id, sent_at, body),
                }
                error: str | None
                try:
                    response = self._session.post(url, data=body.encode("utf-8"), headers=headers, timeout=TIMEOUT)
                    error = None if 200 <= response.status_code < 300 else f"HTTP {response.status_code}"
                except requests.RequestException as failure:
                    error = type(failure).__name__
                status = record_try(self.state, message_id, error, self.clock(), self.delays)
                delivered += status == "delivered"
                logger.info("Webhook %s to %s: %s", message_id, url, error or "delivered")
        return delivered
