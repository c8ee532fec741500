"""An agent's session: one client, the session's budget over it, and what each tool call cost.

Every tool call goes through :meth:`AgentSession.run`: the call's estimate is checked against what the session has
left *before* anything is sent (a refusal spends nothing), the call runs alone (one at a time, so that an estimate,
the call and what it cost belong together) inside one of the client's spending runs (:meth:`regkit.Client.spending`:
an interrupt stops it), and its answer gets a ``cost`` line: credits charged, requests sent, answers the cache gave
(the client's public counters before and after, and the run's count), and the session's spending after it.

The session's budget is the client's own (``Client(budget=...)``), so the client refuses any request that would
cross it even where an estimate could be wrong; with a team budget (``budget_scope``) the client keeps the team's
cap and the session keeps its own, checked here from the estimates and what the client has spent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from regkit.errors import BudgetExceededError, Interrupted, RegkitError

__all__ = ["AgentSession", "CallCost", "Estimate", "Outcome"]


@dataclass(frozen=True)
class Estimate:
    """What a tool call may cost, said before it is sent.

    Attributes
    ----------
    credits : int or None
        The most it can cost now (0 when the cache answers everything); ``None`` for a call estimated as it goes
        (a crawl or a climb, level by level).
    note : str
        How the estimate was made (``"1 company lookup, not cached"``).
    made : bool
        False when the call was refused before it could be estimated (its input was not valid).
    """

    credits: int | None
    note: str = ""
    made: bool = True


@dataclass(frozen=True)
class Outcome:
    """A tool call's answer (or the error it ended with) and what it cost.

    Attributes
    ----------
    body : dict or None
        The answer; ``None`` when the call failed.
    error : Exception or None
        Why it failed.
    cost : CallCost
        What it cost, failed or not.
    estimate : Estimate
        What it was estimated to cost before it was sent.
    line : str
        The answer's cost line (:meth:`AgentSession.cost_line`), made as the call ended.
    """

    body: dict[str, Any] | None
    error: BaseException | None
    cost: CallCost
    estimate: Estimate
    line: str


@dataclass(frozen=True)
class CallCost:
    """What one tool call cost (the client's counters before and after it).

    Attributes
    ----------
    credits : int
        Credits charged.
    sent : int
        Requests that went to the register.
    cached : int
        Answers the cache gave, for free.
    saved : int
        Credits the cache saved.
    """

    credits: int
    sent: int
    cached: int
    saved: int


class AgentSession:
    """A client and the budget an agent's session may spend through it.

    Parameters
    ----------
    client : regkit.Client
        The client every tool calls (its own budget, if any, applies too).
    budget : int
        Credits the session may spend.
    sandbox : bool
        Whether the client serves a local register (synthetic or imported data, credits that cost nothing).
    where : str
        One line saying what the session serves (stated at start and by the credits tool).
    """

    def __init__(self, client: Any, budget: int, *, sandbox: bool, where: str) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise ValueError(f"budget must be a non-negative number of credits, not {budget!r}")
        self.client = client
        self.budget = budget
        self.sandbox = sandbox
        self.where = where
        self._lock = threading.Lock()
        self._start = client.credits_spent
        self._running: Any = None  # the spending run of the call under way, which stop() stops
        self._stopping = False

    @property
    def spent(self) -> int:
        """Credits the session has spent so far."""
        return int(self.client.credits_spent - self._start)

    @property
    def left(self) -> int:
        """Credits the session may still spend."""
        return max(0, self.budget - self.spent)

    def check(self, needed: int, what: str) -> None:
        """Refuse a call that could cost ``needed`` credits when the session has less left.

        Raises
        ------
        BudgetExceededError
            Saying what the call needed and what is left; nothing was sent.
        """
        if needed > self.left:
            raise BudgetExceededError(
                f"refused: {what} could cost {needed} credits and this session has {self.left} of its "
                f"{self.budget} left; nothing was sent",
                needed=needed,
                remaining=self.left,
                suggestion="ask for less (fewer pages, a smaller depth or max_companies), use what is cached, or "
                "start the server with a larger --budget",
            )

    def stop(self) -> None:
        """Stop the call under way — its spending run is stopped, so it sends nothing more — and refuse every later
        one. Called when the server is told to end (Ctrl-C, SIGTERM), from the signal's thread: it takes no lock."""
        self._stopping = True
        running = self._running
        if running is not None:
            running.stop()

    def run(self, what: str, estimate: Callable[[], Estimate], call: Callable[[], Mapping[str, Any]]) -> Outcome:
        """Run one tool call within the budget: ``estimate()``, refused if it crosses what is left (nothing is
        sent), then ``call()``.

        The call's error, if it failed (a refusal, the client's own checks of the input, the register's 404, its run
        stopped by :meth:`stop`), is in the outcome with what the call cost until then.
        """
        client = self.client
        with self._lock:
            spent, saved, sent = client.credits_spent, client.credits_saved, client.requests_sent
            body: dict[str, Any] | None = None
            error: BaseException | None = None
            estimated = Estimate(0, "the input was refused", made=False)
            cached = 0
            try:
                if self._stopping:
                    raise RegkitError(f"{what} was not run: the server is stopping; nothing was sent")
                with client.spending(what) as run:  # counts the answers the cache gave, and stops on an interrupt
                    self._running = run
                    try:
                        estimated = estimate()
                        if estimated.credits is not None:
                            self.check(estimated.credits, what)
                        body = dict(call())
                    finally:
                        cached = run.cached
                        self._running = None
            except (Exception, Interrupted) as exc:  # every failure is the agent's to read, with its cost (an
                error = exc  # interrupt of the run by stop(), too: what arrived until then is cached and counted
            cost = CallCost(
                credits=client.credits_spent - spent,
                sent=client.requests_sent - sent,
                cached=cached,
                saved=client.credits_saved - saved,
            )
            return Outcome(body, error, cost, estimated, self.cost_line(estimated, cost))

    def cost_line(self, estimate: Estimate, cost: CallCost) -> str:
        """One line: what the call cost and was estimated at, what was sent and what the cache gave, and what the
        session has spent and left (``10 credits (estimated ≤ 10: 1 company lookup); 1 sent, 0 from the cache;
        session 20 of 1000 spent, 980 left``)."""
        note = f": {estimate.note}" if estimate.note else ""
        if not estimate.made:
            estimated = "not estimated"
        elif estimate.credits is None:
            estimated = "estimated level by level"
        else:
            estimated = f"estimated ≤ {estimate.credits}"
        saved = f" (saved {cost.saved})" if cost.saved else ""
        return (
            f"{cost.credits} credits ({estimated}{note}); {cost.sent} sent, {cost.cached} from the cache{saved}; "
            f"session {self.spent} of {self.budget} spent, {self.left} left"
        )
