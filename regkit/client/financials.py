"""Financial statements: the operation of ``Client.get_financials``, its record, its analysis methods and its
expired report URLs.


The analysis methods
--------------------
``financials.indicators()``, ``financials.statements()`` and ``financials.ratios()`` are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .records import Record, RecordMeta

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["FINANCIALS_HINTS", "HINTS", "without_report_sources", "FinancialsRecord", "FinancialsFrames"]


FINANCIALS_HINTS = {
    404: "no credits were spent; check the id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}

#: What an error of each of this resource's operations tells the user, by operation id.
HINTS = {"get_financials": FINANCIALS_HINTS}


def without_report_sources(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a financials answer) with every report's ``sources`` emptied (present, as the interface
    requires): what a cached answer whose presigned URLs may have expired is handed out as."""
    reports = [{**report, "sources": []} for report in data.get("reports") or []]
    return {**data, "reports": reports}


class FinancialsFrames:
    """Frames of a company's financials answer (``client.get_financials``): the 48 indicators, the statements as
    filed and the ratios. The answer does not name its company: the record does, as ``company_id``."""

    def indicators(self, unit: str = "EUR", wide: bool = True) -> pd.DataFrame:
        """All 48 measures per fiscal year (see ``regkit.frames.indicators``); empty, with a warning, for a
        company without reports."""
        from regkit.frames.financials import indicators

        return indicators(self, unit=unit, wide=wide)

    def statements(self, unit: str = "EUR") -> pd.DataFrame:
        """One row per line item and report: aktiva, passiva and P&L as filed (see ``regkit.frames.statements``)."""
        from regkit.frames.financial_statements import statements

        return statements(self, unit=unit)

    def ratios(self) -> pd.DataFrame:
        """The indicators with the eleven ratios of ``regkit.frames.ratios`` (five of them need the 48 measures)."""
        from regkit.frames.financial_ratios import ratios

        return ratios(self.indicators())

    def to_dataframe(self) -> pd.DataFrame:
        """The statements frame (:meth:`statements`)."""
        return self.statements()


class FinancialsRecord(FinancialsFrames, Record):
    """A company's financial statements (``client.get_financials``): ``indicators``, ``reports`` and ``merged``.

    Amounts are integer **cents** as the interface sends them (``employees`` a count). ``indicators`` holds one
    entry per report the company filed itself (latest first) with ``date``, ``report_id`` and 48 measures;
    ``reports`` each have ``report_id``, ``report_start_date`` (null for a short first year),
    ``report_end_date``, ``consolidated``, ``aktiva``, ``passiva``, ``guv`` (null for a small company's short
    filing) and ``sources`` (``[{html_url}]``, presigned for 30 minutes; empty when ``meta.urls_expired``);
    a table is ``{rows: [{name, formatted_name, current_value, previous_value, children}]}``. ``merged`` is
    the company's own tables across periods (a row's ``values``: end date → cents), null without reports.
    Iterating yields the reports; ``len()`` counts them.

    The row layout (German names, English labels, which measure a row carries) is
    :mod:`regkit.schema.statements`. As frames (:class:`~regkit.client.financials.FinancialsFrames`):
    ``.indicators()`` (the 48 measures in EUR), ``.statements()`` (one row per line item and report, which
    ``regkit.frames.statement_reports`` turns back into the trees) and ``.ratios()``. As on a company record,
    ``record.indicators`` is that method: the member as sent is ``record["indicators"]``.

    The answer names no company: ``company_id`` is the one asked for, and ``company_name`` its name where the
    client's cache held the company's record when it was asked (free: nothing is sent), else ``None``. Plots
    and frames of the record use the name in titles.
    """

    kind = "financials"

    def __init__(
        self,
        raw: dict[str, Any],
        meta: RecordMeta | None = None,
        *,
        company_id: str = "",
        company_name: str | None = None,
    ) -> None:
        super().__init__(raw, meta)
        self.company_id = company_id
        self.company_name = company_name

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the reports, latest first."""
        return iter(self.raw.get("reports") or [])

    def __len__(self) -> int:
        return len(self.raw.get("reports") or [])

    @property
    def has_reports(self) -> bool:
        """Whether the company has filed any report."""
        return bool(self.raw.get("reports"))

    def _label(self) -> str:
        consolidated = sum(1 for report in self if report.get("consolidated"))
        extra = f" ({consolidated} consolidated)" if consolidated else ""
        return f"{self.company_id}: {len(self)} report(s){extra}"
