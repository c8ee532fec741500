"""What a crawl tells: the estimate of each level before it is fetched, and the report after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CrawlReport", "LevelEstimate", "LEVEL_COLUMNS"]

#: Columns of :attr:`CrawlReport.levels`, in order.
LEVEL_COLUMNS = ("level", "ids", "companies", "cached", "estimated_credits", "spent_credits", "fetched", "failed",
                 "skipped")  # fmt: skip


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
        What the level will cost.
    skipped : tuple of str
        Companies of the level left out because of the budget or ``max_companies``.
    budget_left : int or None
        Credits the crawl may still spend (``None``: no limit).
    """

    level: int
    ids: tuple[str, ...]
    cached: int
    estimated_credits: int
    skipped: tuple[str, ...] = ()
    budget_left: int | None = None

    def __str__(self) -> str:
        cut = f", {len(self.skipped)} left out" if self.skipped else ""
        budget = "" if self.budget_left is None else f"; budget left {self.budget_left}"
        return (f"level {self.level}: {len(self.ids)} companies ({self.cached} cached{cut}) → "
                f"{self.estimated_credits} credits{budget}")  # fmt: skip


@dataclass
class CrawlReport:
    """What a crawl fetched and spent, level by level (``G.graph["crawl"]``).

    Attributes
    ----------
    rows : list of dict
        One per level fetched (see :attr:`levels`).
    stopped : str or None
        Why the crawl ended before ``depth``, or ``None``.
    failed : dict of str to Exception
        Companies whose lookup failed (404, ...). They are not fetched again by this crawl; they
        are in the graph only as ``fetched=False`` nodes where a fetched company links to them.
    skipped : list of str
        Companies not fetched because of the budget or ``max_companies``.
    """

    rows: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None
    failed: dict[str, Exception] = field(default_factory=dict)
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
            cached               int64   answered by the cache (free)
            estimated_credits    int64   told before the level was fetched
            spent_credits        int64   what the level then cost (client ledger)
            fetched              int64   lookups that succeeded
            failed               int64   lookups that failed (404, ...)
            skipped              int64   companies of the level left out (budget, max_companies)
            ===================  ======  ==================================================
        """
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=list(LEVEL_COLUMNS))
        return frame.astype({c: "int64" for c in LEVEL_COLUMNS if c != "ids"}).astype({"ids": object})

    @property
    def estimated_credits(self) -> int:
        """Sum of the estimates of the levels fetched."""
        return sum(row["estimated_credits"] for row in self.rows)

    @property
    def spent_credits(self) -> int:
        """Credits the crawl spent."""
        return sum(row["spent_credits"] for row in self.rows)

    def __repr__(self) -> str:
        stopped = f", stopped: {self.stopped}" if self.stopped else ""
        table = self.levels.drop(columns="ids").to_string(index=False)
        return (f"<CrawlReport {len(self.rows)} levels, {sum(r['fetched'] for r in self.rows)} companies, "
                f"{self.spent_credits} credits{stopped}>\n{table}")  # fmt: skip

    def _repr_html_(self) -> str:
        stopped = f"<p>Stopped: {self.stopped}</p>" if self.stopped else ""
        return self.levels.drop(columns="ids").to_html(index=False) + stopped
