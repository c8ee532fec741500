"""What a crawl tells: the estimate of each level before it is fetched, and the report after.

A level calls up to four endpoints (:data:`ENDPOINTS`): company lookups (``company``), and with
``direction="down"`` or ``"both"`` the holdings of each company it fetches (``holdings``); a level of
person seeds looks each person up (``person``) and asks for their holdings (``person_holdings``).
Estimate and report give the credits per endpoint; cached calls are free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from regkit.common.html import SummaryTable, plural, summary_html
from regkit.schema.formatting import count_text, credits_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CrawlReport", "LevelEstimate", "LEVEL_COLUMNS", "ENDPOINT_COLUMNS", "ENDPOINTS"]

#: The endpoints a crawl calls, by the name ``client.estimate_cost(..., endpoint=)`` takes.
ENDPOINTS = ("company", "holdings", "person", "person_holdings")

#: How a summary names the calls to each endpoint.
_ENDPOINT_LABELS = {
    "company": "company lookups",
    "holdings": "holdings of companies",
    "person": "person lookups",
    "person_holdings": "holdings of persons",
}

#: Columns of :attr:`CrawlReport.levels`, in order.
LEVEL_COLUMNS = (
    "level",
    "ids",
    "companies",
    "cached",
    "estimated_credits",
    "spent_credits",
    "fetched",
    "failed",
    "skipped",
)

#: Columns of :attr:`CrawlReport.endpoints`, in order.
ENDPOINT_COLUMNS = ("level", "endpoint", "calls", "cached", "estimated_credits", "spent_credits", "failed")


@dataclass(frozen=True)
class LevelEstimate:
    """What the next level of a crawl will cost, told before anything is spent.

    Attributes
    ----------
    level : int
        0 for the seeds, 1 for their links, ...
    ids : tuple of str
        The companies the level will fetch (after any cut for budget or ``max_companies``).
    cached : int
        How many of them the cache answers for free.
    estimated_credits : int
        What the level will cost, every endpoint it calls together.
    skipped : tuple of str
        Companies (and person seeds) of the level left out because of the budget or ``max_companies``.
    budget_left : int or None
        Credits the crawl may still spend (``None``: no limit).
    holdings : tuple of str
        The companies whose holdings the level asks for (``direction="down"`` / ``"both"``).
    persons : tuple of str
        The person seeds the level looks up (level 0 only).
    calls : dict of str to int
        Calls per endpoint (:data:`ENDPOINTS`) the level makes, cached ones included.
    cached_calls : dict of str to int
        Of them, answered by the cache for free.
    credits : dict of str to int
        Estimated credits per endpoint; they add up to ``estimated_credits``.
    """

    level: int
    ids: tuple[str, ...]
    cached: int
    estimated_credits: int
    skipped: tuple[str, ...] = ()
    budget_left: int | None = None
    holdings: tuple[str, ...] = ()
    persons: tuple[str, ...] = ()
    calls: dict[str, int] = field(default_factory=dict, hash=False)
    cached_calls: dict[str, int] = field(default_factory=dict, hash=False)
    credits: dict[str, int] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        cut = f", {len(self.skipped)} left out" if self.skipped else ""
        budget = "" if self.budget_left is None else f"; budget left {self.budget_left}"
        more = "".join(
            f" + {self.calls[e]} {e} ({self.cached_calls.get(e, 0)} cached)" for e in ENDPOINTS[1:] if self.calls.get(e)
        )
        per = ""
        if more:
            per = " (" + ", ".join(f"{e} {self.credits.get(e, 0)}" for e in ENDPOINTS if self.calls.get(e)) + ")"
        companies = f"{len(self.ids)} {'company' if len(self.ids) == 1 else 'companies'}"
        return (
            f"level {self.level}: {companies} ({self.cached} cached{cut}){more} → "
            f"{self.estimated_credits} credits{per}{budget}"
        )

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: what the level fetches, per endpoint calls, cached calls and credits."""
        facts = [("Companies", f"{count_text(len(self.ids))} ({count_text(self.cached)} cached)")]
        if self.persons:
            facts.append(("Persons", count_text(len(self.persons))))
        if self.skipped:
            facts.append(("Left out", f"{plural(len(self.skipped), 'company', 'companies')} (budget or max_companies)"))
        facts.append(("Budget", "no limit" if self.budget_left is None else f"{credits_text(self.budget_left)} left"))
        rows = [
            [
                _ENDPOINT_LABELS[e],
                count_text(self.calls[e]),
                count_text(self.cached_calls.get(e, 0)),
                count_text(self.credits.get(e, 0)),
            ]
            for e in ENDPOINTS
            if self.calls.get(e)
        ]
        table = SummaryTable(("Calls", "Number", "Cached", "Credits"), rows, numeric=(1, 2, 3))
        return summary_html(
            f"Crawl level {self.level}: {credits_text(self.estimated_credits)}",
            facts,
            tables=[table] if rows else [],
            note="An estimate: nothing was sent yet.",
            kind="crawl-level",
        )


@dataclass
class CrawlReport:
    """What a crawl fetched and spent, level by level (``G.graph["crawl"]``).

    Attributes
    ----------
    rows : list of dict
        One per level fetched (see :attr:`levels`).
    endpoint_rows : list of dict
        One per level and endpoint called (see :attr:`endpoints`).
    stopped : str or None
        Why the crawl ended before ``depth``, or ``None``.
    failed : dict of str to Exception
        Companies whose lookup failed (404, ...). They are not fetched again by this crawl; they
        are in the graph only as ``fetched=False`` nodes where a fetched company links to them.
    failed_calls : dict of (str, str) to Exception
        Other calls that failed, by ``(endpoint, id)``: holdings, person lookups, person holdings.
    skipped : list of str
        Companies (and person seeds) not fetched because of the budget or ``max_companies``.
    """

    rows: list[dict[str, Any]] = field(default_factory=list)
    endpoint_rows: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None
    failed: dict[str, Exception] = field(default_factory=dict)
    failed_calls: dict[tuple[str, str], Exception] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    @property
    def levels(self) -> pd.DataFrame:
        """One row per level.

        Returns
        -------
        pandas.DataFrame
            ===================  ======  ==================================================
            level                int64   0 for the seeds
            ids                  object  tuple of the company ids the level fetched
            companies            int64   ``len(ids)``
            cached               int64   companies answered by the cache (free)
            estimated_credits    int64   told before the level was fetched (every endpoint)
            spent_credits        int64   what the level then cost (client ledger, every endpoint)
            fetched              int64   company lookups that succeeded
            failed               int64   company lookups that failed (404, ...)
            skipped              int64   companies of the level left out (budget, max_companies)
            ===================  ======  ==================================================

            :attr:`endpoints` splits the credits by endpoint.
        """
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=list(LEVEL_COLUMNS))
        return frame.astype({c: "int64" for c in LEVEL_COLUMNS if c != "ids"}).astype({"ids": object})

    @property
    def endpoints(self) -> pd.DataFrame:
        """One row per level and endpoint called: estimate and spending per endpoint.

        Returns
        -------
        pandas.DataFrame
            ===================  ======  ==================================================
            level                int64   0 for the seeds
            endpoint             str     ``company``, ``holdings``, ``person``, ``person_holdings``
            calls                int64   calls made (cached ones included)
            cached               int64   answered by the cache (free)
            estimated_credits    int64   told before the level was fetched
            spent_credits        int64   what the calls then cost (client ledger)
            failed               int64   calls that failed (404, ...: free)
            ===================  ======  ==================================================
        """
        import pandas as pd

        frame = pd.DataFrame(self.endpoint_rows, columns=list(ENDPOINT_COLUMNS))
        return frame.astype({c: "int64" for c in ENDPOINT_COLUMNS if c != "endpoint"}).astype({"endpoint": "str"})

    @property
    def estimated_credits(self) -> int:
        """Sum of the estimates of the levels fetched."""
        return sum(row["estimated_credits"] for row in self.rows)

    @property
    def spent_credits(self) -> int:
        """Credits the crawl spent."""
        return sum(row["spent_credits"] for row in self.rows)

    def credits_by_endpoint(self) -> dict[str, int]:
        """Credits the crawl spent per endpoint (only endpoints it called)."""
        spent: dict[str, int] = {}
        for row in self.endpoint_rows:
            spent[row["endpoint"]] = spent.get(row["endpoint"], 0) + row["spent_credits"]
        return spent

    def __repr__(self) -> str:
        stopped = f", stopped: {self.stopped}" if self.stopped else ""
        table = self.levels.drop(columns="ids").to_string(index=False)
        by = self.credits_by_endpoint()
        split = "" if set(by) <= {"company"} else " (" + ", ".join(f"{e} {c}" for e, c in by.items()) + ")"
        return (
            f"<CrawlReport {len(self.rows)} levels, {sum(r['fetched'] for r in self.rows)} companies, "
            f"{self.spent_credits} credits{split}{stopped}>\n{table}"
        )

    def _repr_html_(self) -> str:
        stopped = f"<p>Stopped: {self.stopped}</p>" if self.stopped else ""
        html = self.levels.drop(columns="ids").to_html(index=False)
        if set(self.credits_by_endpoint()) - {"company"}:
            html += self.endpoints.to_html(index=False)
        return html + stopped
