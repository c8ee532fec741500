"""The analysis-layer methods of records: ``record.history("names")``, ``batch.indicators()``, ...

Each method is a plain method that imports its builder from :mod:`regkit.frames` when it is called
and passes the record on.  These are the only imports from the client into the analysis layer, and
they are lazy on purpose: ``import regkit.client`` stays free of pandas, and the analysis layer
stays free to import the client (see the layer rules in CONTRIBUTING.md).  To add a method, add
it here with the same name and arguments as its builder; the builders, their columns and dtypes
are documented in :mod:`regkit.frames`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from regkit.errors import RegkitError

if TYPE_CHECKING:
    import pandas as pd

    from regkit.frames.snapshot import CompanyAsOf

__all__ = [
    "CompaniesFrames",
    "CompanyFrames",
    "InsolvencyPageFrames",
    "InsolvencyFrames",
    "ExtractFrames",
    "CompanySearchFrames",
    "OwnersFrames",
    "HoldingsFrames",
    "PersonSearchFrames",
    "PersonFrames",
    "UbosFrames",
    "OwnershipHistoryFrames",
    "FinancialsFrames",
]


class CompaniesFrames:
    """Frames that one company and a batch of companies both offer (mixed into
    :class:`~regkit.client.records.CompanyBatch`, and through :class:`CompanyFrames` into
    :class:`~regkit.client.records.CompanyRecord`); a batch's frame is the concatenation over its fetched
    companies."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per company: its current values and latest indicators (see ``regkit.frames.companies``)."""
        from regkit.frames.overview import companies

        return companies(self)

    def history(self, field: str) -> pd.DataFrame:
        """The history of one member (``"names"``, ``"addresses"``, ``"capitals"``, ...), one row per version
        (see ``regkit.frames.history``); ``valid_from_derived`` / ``valid_to_derived`` mark the dates a world
        imported from OffeneRegister derived (the record's ``derived``)."""
        from regkit.frames.histories import history

        return history(self, field)

    def representatives(self, active_on: Any = None, *, person_city: bool = False, **deprecated: Any) -> pd.DataFrame:
        """One row per role held (see ``regkit.frames.representatives``; ``active_on``: a date, ISO or
        ``DD.MM.YYYY`` read day first)."""
        from regkit.frames.roles import representatives

        return representatives(self, active_on, person_city=person_city, **deprecated)

    def indicators(self, unit: str = "EUR", wide: bool = True) -> pd.DataFrame:
        """Published indicators per reporting date (see ``regkit.frames.indicators``)."""
        from regkit.frames.financials import indicators

        return indicators(self, unit=unit, wide=wide)

    def links(self) -> pd.DataFrame:
        """Mergers, spin-offs and profit-transfer agreements as a relation frame (see ``regkit.frames.links``)."""
        from regkit.frames.relations import links

        return links(self)

    def panel(self, years: Iterable[int] | None = None, unit: str = "EUR") -> pd.DataFrame:
        """A company-year panel (see ``regkit.frames.panel``)."""
        from regkit.frames.panels import panel

        return panel(self, years=years, unit=unit)


class CompanyFrames(CompaniesFrames):
    """Frames of one company (mixed into :class:`~regkit.client.records.CompanyRecord`): those of
    :class:`CompaniesFrames`, and what only one company has (its documents, contact, the company on a date,
    the card Jupyter shows)."""

    def documents(self) -> pd.DataFrame:
        """The company's documents (see ``regkit.frames.documents``)."""
        from regkit.frames.details import documents

        return documents(self)

    def insolvency_summaries(self) -> pd.DataFrame:
        """One row per insolvency proceeding against the company (see ``regkit.frames.insolvency_summaries``)."""
        from regkit.frames.details import insolvency_summaries

        return insolvency_summaries(self)

    def industry_codes(self) -> pd.DataFrame:
        """The company's WZ 2025 codes, one row per code (see ``regkit.frames.industry_codes``)."""
        from regkit.frames.details import industry_codes

        return industry_codes(self)

    def contact(self) -> pd.DataFrame:
        """Contact data: website, e-mail, phone, VAT id, social media (see ``regkit.frames.contact``)."""
        from regkit.frames.details import contact

        return contact(self)

    def as_of(self, date: Any, *, person_city: bool = False) -> CompanyAsOf:
        """The company as it stood on ``date`` — a date, ISO (``"2024-02-01"``) or ``DD.MM.YYYY`` read day first
        (``"01.02.2024"`` is 1 February) — see ``regkit.frames.as_of``; ``person_city=True`` adds the city to
        derived person keys."""
        from regkit.frames.snapshot import as_of

        return as_of(self, date, person_city=person_city)

    def _repr_html_(self) -> str | None:
        """The compact company card Jupyter shows (``None`` falls back to the repr)."""
        from regkit.frames.card import company_card_html

        try:
            return company_card_html(self)
        except RegkitError:
            return None


class InsolvencyPageFrames:
    """Frames of insolvency search results (one page, or all pages of a search)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per result (see ``regkit.frames.insolvency_results``)."""
        from regkit.frames.insolvency import insolvency_results

        return insolvency_results(self)


class InsolvencyFrames:
    """Frames of one proceeding (mixed into :class:`~regkit.client.records.InsolvencyRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One-row frame of the proceeding (see ``regkit.frames.proceedings``)."""
        from regkit.frames.insolvency import proceedings

        return proceedings(self)

    def events(self) -> pd.DataFrame:
        """The proceeding's events, oldest first (see ``regkit.frames.events``)."""
        from regkit.frames.insolvency import events

        return events(self)


class ExtractFrames:
    """Frames of a Transparenzregister extract (mixed into :class:`~regkit.client.records.ExtractRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """The beneficial owners of a completed extract (see ``regkit.frames.beneficial_owners``)."""
        from regkit.frames.extracts import beneficial_owners

        return beneficial_owners(self)


class CompanySearchFrames:
    """Frames of company search results (a page, all pages of a search, or autocomplete's suggestions)."""

    #: The result ids whose holdings the client's cache held when the search was answered (``get_holdings`` or
    #: a crawl down from them is free); set by the client, ``None`` on a record built by hand.
    holdings_cached: frozenset[str] | None = None

    def to_dataframe(self) -> pd.DataFrame:
        """One row per result (see ``regkit.frames.company_search_results``), with ``holdings_cached`` when the
        client set it."""
        from regkit.frames.company_search import company_search_results

        return company_search_results(self, holdings_cached=self.holdings_cached)


class OwnersFrames:
    """Frames of a company's owners (mixed into :class:`~regkit.client.OwnersRecord`)."""

    #: Company id → name, from the company's record in the client's cache when the owners were asked for (the
    #: owners answer does not name its company); ``None`` when the cache held none.
    known_names: dict[str, str] | None = None

    def to_dataframe(self) -> pd.DataFrame:
        """One row per owner, ``share`` a fraction in [0, 1] (see ``regkit.frames.owners``); ``company_name`` from
        ``known_names``."""
        from regkit.frames.ownership import owners

        return owners(self, names=self.known_names)


class HoldingsFrames:
    """Frames of a company's or a person's holdings (mixed into :class:`~regkit.client.HoldingsRecord`)."""

    #: Holder id → name, from the holder's company or person record in the client's cache when the holdings
    #: were asked for (the holdings answer does not name its holder); ``None`` when the cache held none.
    known_names: dict[str, str] | None = None

    def to_dataframe(self) -> pd.DataFrame:
        """One row per holding, current and past, ``share`` a fraction in [0, 1] (see ``regkit.frames.holdings``);
        ``holder_name`` from ``known_names``."""
        from regkit.frames.ownership import holdings

        return holdings(self, names=self.known_names)


class PersonSearchFrames:
    """Frames of person search results (one page, or all pages of a search)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per result (see ``regkit.frames.person_search_results``)."""
        from regkit.frames.people import person_search_results

        return person_search_results(self)


class PersonFrames:
    """Frames of one person (mixed into :class:`~regkit.client.PersonRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """The person's management positions, current and past (see ``regkit.frames.management_positions``)."""
        from regkit.frames.people import management_positions

        return management_positions(self)

    def _repr_html_(self) -> str | None:
        """The person card Jupyter shows (``None`` falls back to the repr)."""
        from regkit.frames.person_card import person_card_html

        try:
            return person_card_html(self)
        except RegkitError:
            return None


class UbosFrames:
    """Frames of a company's beneficial owners (mixed into :class:`~regkit.client.ownership_records.UbosRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per beneficial owner, shares as fractions (``share``, ``max_share``) beside the answer's percent
        (see ``regkit.frames.ubos``)."""
        from regkit.frames.ownership_histories import ubos

        return ubos(self)


class OwnershipHistoryFrames:
    """Frames of a company's ownership history (mixed into
    :class:`~regkit.client.ownership_records.OwnershipHistoryRecord`)."""

    company_id: str

    def to_dataframe(self) -> pd.DataFrame:
        """One row per owner and shareholder list, shares in percent, nominal amounts in EUR (see
        ``regkit.frames.ownership_history``)."""
        from regkit.frames.ownership_histories import ownership_history

        return ownership_history(self, self.company_id or None)


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
