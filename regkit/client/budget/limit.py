"""The spending limit: a call whose price could cross it is refused before it is sent.

Prices are reserved before each attempt and settled with what the interface actually charged, so
concurrent workers of a bulk call can never overshoot together.  Attempts that got no answer (a
timeout) settle at their full price: the budget assumes the worst, the ledger records the doubt.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from regkit.common.html import summary_html
from regkit.errors import BudgetExceededError, RegkitError
from regkit.schema.formatting import count_text, credits_text

__all__ = ["Budget", "Reservation", "budget_html"]


@dataclass(frozen=True)
class Reservation:
    """Credits held for one attempt until it is settled."""

    credits: int


class Budget:
    """Credits the client may still spend.

    Parameters
    ----------
    limit : int or None
        Credits this client may spend in total; ``None`` means no limit (spending is still counted).
    """

    #: The team whose budget this is (:class:`~regkit.client.team.TeamBudget`); ``None``: this client's.
    team: str | None = None

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 0:
            raise ValueError(f"budget must be a non-negative number of credits, not {limit!r}")
        self.limit = limit
        self._spent = 0
        self._held = 0
        self._lock = threading.Lock()

    @property
    def spent(self) -> int:
        """Credits settled so far (charged, or possibly charged)."""
        with self._lock:
            return self._spent

    @property
    def remaining(self) -> int | None:
        """Credits left after settled and reserved spending (``None`` without a limit)."""
        with self._lock:
            return None if self.limit is None else self.limit - self._spent - self._held

    def snapshot(self) -> tuple[int, int, int | None]:
        """``(spent, held, limit)`` read at one moment, so they agree: settled credits, credits reserved by calls
        under way, and the limit (``None``: no limit)."""
        with self._lock:
            return self._spent, self._held, self.limit

    def check(self, needed: int, *, what: str = "this call", **context: object) -> None:
        """Raise :class:`BudgetExceededError` if ``needed`` credits would cross the limit."""
        remaining = self.remaining
        if remaining is not None and needed > remaining:
            raise self.exceeded(needed, what=what, **context)

    def exceeded(self, needed: int, *, what: str = "this call", **context: object) -> BudgetExceededError:
        """The error for a call needing ``needed`` credits that the budget does not cover."""
        remaining = self.remaining or 0
        return BudgetExceededError(
            f"{what} needs up to {needed} credits but only {remaining} of the budget of "
            f"{self.limit} are left; nothing was sent",
            needed=needed,
            remaining=remaining,
            **context,
        )

    def reserve(self, credits: int, *, what: str = "this call", **context: object) -> Reservation:
        """Hold ``credits`` for one attempt, or raise :class:`BudgetExceededError`."""
        reservation = self.try_reserve(credits)
        if reservation is None:
            raise self.exceeded(credits, what=what, **context)
        return reservation

    def try_reserve(self, credits: int) -> Reservation | None:
        """Hold ``credits`` for one attempt, or return ``None`` if they would cross the limit."""
        with self._lock:
            if self.limit is not None and credits > self.limit - self._spent - self._held:
                return None
            self._held += credits
            return Reservation(credits)

    def settle(self, reservation: Reservation, charged: int) -> str | None:
        """Release ``reservation`` and count ``charged`` credits as spent.

        Never raises once the call was sent: a paid answer must not be lost to the bookkeeping.

        Returns
        -------
        str or None
            ``None`` when the charge was recorded (always, for this in-process budget). A
            :class:`~regkit.client.team.TeamBudget` whose Redis did not take it returns a short note instead
            (``"team budget not updated: Redis unreachable; 10 credits pending"``), keeps the charge pending and
            issues a :class:`~regkit.errors.BudgetWarning`; the caller may keep the note with its ledger row.
        """
        with self._lock:
            self._held -= reservation.credits
            self._spent += charged
        return None

    def __repr__(self) -> str:
        if self.limit is None:
            return f"<Budget no limit, {self.spent} spent>"
        return f"<Budget {self.remaining} of {self.limit} left, {self.spent} spent>"

    def _repr_html_(self) -> str | None:
        """The summary Jupyter shows: spent, left and reserved of the limit (``None``, the repr, when the team's
        Redis does not answer)."""
        try:
            spent, held, limit = self.snapshot()
        except RegkitError:
            return None
        return budget_html(limit, spent, held, self.team)


def budget_html(limit: int | None, spent: int, held: int = 0, team: str | None = None) -> str:
    """The client's (or the team's) budget: spent, left, the limit, and what calls under way hold."""
    title = f"Budget of team {team}" if team else "Budget"
    if limit is None:
        facts = [("Spent", credits_text(spent)), ("Limit", "none (spending is counted, never refused)")]
        return summary_html(title, facts, kind="budget")
    left = limit - spent - held
    facts = [("Spent", f"{count_text(spent)} of {credits_text(limit)}"), ("Left", credits_text(left))]
    if held:
        facts.append(("Reserved", f"{credits_text(held)} held by calls under way"))
    badge = ("used up", "error") if left <= 0 else None
    return summary_html(f"{title}: {credits_text(left)} left", facts, badge=badge, kind="budget")
