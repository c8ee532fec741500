"""Calls that send more than one request: their cost said before paying, an interrupt that costs nothing more.

A bulk lookup, a paged search, a crawl, a climb or a download sends many requests. Each runs inside a
:class:`SpendingRun` (``with client.spending("crawl") as run:``), which does three things:

* **Says the cost first.** ``run.announce(text)`` writes one line to the current ``sys.stderr`` before anything
  is paid (``regkit: get_companies: 400 companies to fetch (12 cached) → 4000 credits``), as tqdm shows progress
  without any logging set up, and logs it on ``regkit.client.spending`` (INFO; the logger keeps the name it had before the module moved) ``Client(quiet=True)`` or the
  environment variable ``REGKIT_QUIET=1`` keeps the line out of stderr (the log record stays).
* **Sends off the main thread.** A request a run makes on the main thread (a page of a paged search, a crawl's
  holdings) is sent by the run's worker thread while the main thread waits (:meth:`SpendingRun.off_main_thread`),
  so an interrupt never cuts a request between its answer and its cache entry or ledger row.
* **Counts what arrived.** The caller reports every ledger row of the run (:meth:`SpendingRun.count`): paid
  answers and their credits, and answers the cache gave.
* **Stops at an interrupt.** A ``KeyboardInterrupt`` (Ctrl-C; a kernel interrupt in Jupyter) inside the run sets
  its stop event: the caller sends no request after it (:func:`check_not_stopped` before every attempt, and every
  wait — a retry's backoff, a 429's pause — ends at once, :func:`pause`), the bulk fetcher cancels its queued
  lookups and gives the running ones a moment to finish (:data:`GRACE` seconds), and the run ends with
  :class:`regkit.errors.Interrupted` — a ``KeyboardInterrupt`` that says how many answers arrived, what they
  cost, and that running the same call again resumes for free (every answer that arrived is cached and in the
  ledger).

Runs nest: a crawl's bulk lookups join the crawl's run, and only the outermost one announces its own lines
(inner calls' lines are left out) and turns the interrupt into :class:`~regkit.errors.Interrupted`. The run is
found through a :class:`contextvars.ContextVar`; work handed to the client's worker threads carries it along
(:func:`carried`).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from typing import Any, TypeVar

from regkit.errors import Interrupted

__all__ = [
    "GRACE",
    "QUIET_VARIABLE",
    "SpendingRun",
    "Spending",
    "current",
    "carried",
    "check_not_stopped",
    "pause",
    "quiet_from_environment",
]

#: The cost lines' logger, under the name README documents (it kept its name when the module moved into budget/).
logger = logging.getLogger("regkit.client.spending")

#: Seconds the requests already in flight at an interrupt are given to arrive (and be cached) before the call ends.
GRACE = 0.6

#: The environment variable that keeps cost lines off stderr (``1``, ``true``, ``yes``, ``on``).
QUIET_VARIABLE = "REGKIT_QUIET"

_CURRENT: contextvars.ContextVar[SpendingRun | None] = contextvars.ContextVar("regkit_spending_run", default=None)

T = TypeVar("T")


def quiet_from_environment() -> bool:
    """Whether ``REGKIT_QUIET`` asks for no cost lines (read now, not at import)."""
    return os.environ.get(QUIET_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


class SpendingRun:
    """One call that sends more than one request (see the module docstring).

    Attributes
    ----------
    call : str
        The call, as messages name it (``"get_companies"``, ``"crawl"``).
    answers : int
        Paid answers that arrived so far.
    credits : int
        Credits charged so far.
    cached : int
        Answers the cache (or a concurrent identical call) gave for free so far.
    """

    def __init__(self, call: str, *, quiet: bool, worker: Callable[[], ThreadPoolExecutor] | None = None) -> None:
        self.call = call
        self.quiet = quiet
        self._worker = worker
        self.answers = 0
        self.credits = 0
        self.cached = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()

    @property
    def stopped(self) -> bool:
        """Whether the run was interrupted: nothing more may be sent."""
        return self._stop.is_set()

    def stop(self) -> None:
        """Send nothing more (every worker of the run sees it before its next request or at once in a wait)."""
        self._stop.set()

    def wait(self, seconds: float) -> bool:
        """Wait ``seconds`` unless the run is stopped first; whether it was stopped."""
        return self._stop.wait(seconds)

    def count(self, *, source: str, credits: int, ok: bool) -> None:
        """Account for one ledger row of the run (called by the caller for every row it writes)."""
        with self._lock:
            self.credits += credits
            if ok and source == "network":
                self.answers += 1
            elif ok:
                self.cached += 1

    def announce(self, text: str) -> None:
        """Say what is about to be paid: one line on the current stderr (unless quiet) and an INFO record."""
        logger.info("%s: %s", self.call, text)
        if self.quiet:
            return
        stream = sys.stderr  # looked up now: a notebook replaces it per cell
        if stream is None:
            return
        try:
            stream.write(f"regkit: {self.call}: {text}\n")
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: the log record has it
            pass

    def off_main_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` — on the run's worker thread when called on the main thread, waited for in short slices.

        A request sent from the main thread would be cut off wherever the interrupt lands: before its answer is
        cached, or after it was charged and before its ledger row. On the worker it always finishes (cached, in the
        ledger), while the main thread, which receives the interrupt, stops waiting for it after
        :data:`GRACE` seconds. Elsewhere (a worker of a bulk call, a thread of the user's) ``fn`` runs here.
        """
        if self._worker is None or threading.current_thread() is not threading.main_thread():
            return fn(*args)
        future = self._worker().submit(carried(fn), *args)
        try:
            while True:
                try:
                    return future.result(timeout=0.1)  # a kernel's interrupt reaches a main thread that wakes up
                except FutureTimeout:
                    continue
        except KeyboardInterrupt:
            self.stop()
            with contextlib.suppress(BaseException):  # what it answers is cached and recorded by the worker
                future.result(timeout=GRACE)
            raise

    def interrupted(self, detail: str = "") -> Interrupted:
        """The :class:`~regkit.errors.Interrupted` that ends this run, with what arrived so far."""
        with self._lock:
            return Interrupted(self.call, self.answers, self.credits, self.cached, detail)

    def __repr__(self) -> str:
        state = "stopped" if self.stopped else "running"
        return f"<SpendingRun {self.call} {state}: {self.answers} answers, {self.credits} credits>"


class Spending:
    """The runs of one client: whether it announces costs, and the scope of each run.

    Parameters
    ----------
    quiet : bool
        Keep cost lines off stderr (``REGKIT_QUIET`` is read at each run as well).
    """

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def worker(self) -> ThreadPoolExecutor:
        """The one thread that sends a run's requests made on the main thread (started on first use)."""
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="regkit-run")
            return self._executor

    def close(self) -> None:
        """Stop the worker thread (after the request it is sending, if any)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    @contextmanager
    def run(self, call: str) -> Iterator[SpendingRun]:
        """The scope of one multi-request call (see the module docstring); a run already open in this context is
        joined instead.

        Raises
        ------
        regkit.errors.Interrupted
            On a ``KeyboardInterrupt`` inside the outermost run.
        """
        outer = _CURRENT.get()
        if outer is not None:
            yield _Joined(outer)
            return
        run = SpendingRun(call, quiet=self.quiet or quiet_from_environment(), worker=self.worker)
        token = _CURRENT.set(run)
        try:
            yield run
        except Interrupted as exc:
            run.stop()
            raise run.interrupted(exc.detail) from None
        except KeyboardInterrupt:
            run.stop()
            raise run.interrupted() from None
        finally:
            _CURRENT.reset(token)


class _Joined(SpendingRun):
    """An inner call's view of the run it joined: it stops, counts and reports through the outer run, and its cost
    lines are only logged (the outer call said its own)."""

    def __init__(self, outer: SpendingRun) -> None:
        super().__init__(outer.call, quiet=True, worker=outer._worker)
        self._outer = outer
        self._stop = outer._stop  # one stop event for the whole call
        self._lock = outer._lock

    def count(self, *, source: str, credits: int, ok: bool) -> None:
        """Account for one ledger row in the outer run."""
        self._outer.count(source=source, credits=credits, ok=ok)

    def announce(self, text: str) -> None:
        """Logged only (INFO): the outer call announced what it pays."""
        logger.info("%s (within its run): %s", self._outer.call, text)

    def interrupted(self, detail: str = "") -> Interrupted:
        """The outer run's :class:`~regkit.errors.Interrupted`."""
        return self._outer.interrupted(detail)


def current() -> SpendingRun | None:
    """The run open in this context (this thread, or the call that handed this work to a worker), if any."""
    return _CURRENT.get()


def carried(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` to run on another thread inside this context's run (a fresh copy of the context per call)."""
    context = contextvars.copy_context()
    return lambda *args, **kwargs: context.run(fn, *args, **kwargs)


def check_not_stopped(what: str) -> None:
    """Raise :class:`~regkit.errors.Interrupted` if this context's run was stopped: nothing more is sent.

    Parameters
    ----------
    what : str
        The call about to send, for the message (``"get_company"``).
    """
    run = _CURRENT.get()
    if run is not None and run.stopped:
        raise Interrupted(what, 0, 0, detail="this request was not sent: its run was interrupted")


def pause(seconds: float, sleep: Callable[[float], None] = time.sleep) -> None:
    """Wait ``seconds`` before the next attempt — ended at once by an interrupt of this context's run.

    Outside a run this is ``sleep(seconds)``; inside one it waits on the run's stop event, and an interrupt raises
    :class:`~regkit.errors.Interrupted` rather than letting the next attempt go out.
    """
    run = _CURRENT.get()
    if run is None or sleep is not time.sleep:  # outside a run, or a test's fake clock
        sleep(seconds)
    else:
        run.wait(seconds)
    check_not_stopped("a retry")
