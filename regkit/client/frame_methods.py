"""The analysis-layer methods of company records and batches, resolved through the frames hooks.

Each method looks its builder up in :mod:`regkit.client.hooks` at call time (importing
``regkit.frames`` once if needed), so the client never imports the analysis layer at module level.
The builders, their columns and dtypes are documented in ``regkit.frames``.
"""

from __future__ import annotations

from typing import Any

from .errors import RegkitError
from .hooks import builder

__all__ = ["CompanyFrames", "BatchFrames"]


class CompanyFrames:
    """Frames of one company: ``record.representatives()``, ``record.indicators()``, … and the HTML card."""

    def _frame(self, hook: str, *args: Any, **kwargs: Any) -> Any:
        return builder(hook)(self, *args, **kwargs)

    def _repr_html_(self) -> str | None:
        """The compact company card Jupyter shows (``None`` falls back to the repr)."""
        try:
            return self._frame("company.repr_html")
        except RegkitError:
            return None

    def representatives(self, *args: Any, **kwargs: Any) -> Any:
        """One row per role held (see ``regkit.frames.representatives``)."""
        return self._frame("company.representatives", *args, **kwargs)

    def indicators(self, unit: str = "EUR", wide: bool = True) -> Any:
        """Published indicators per reporting date (see ``regkit.frames.indicators``)."""
        return self._frame("company.indicators", unit=unit, wide=wide)

    def links(self) -> Any:
        """Mergers, spin-offs and the profit-transfer agreement as a relation frame."""
        return self._frame("company.links")

    def documents(self) -> Any:
        """The company's documents (see ``regkit.frames.documents``)."""
        return self._frame("company.documents")

    def insolvency_summaries(self) -> Any:
        """One row per insolvency proceeding against the company."""
        return self._frame("company.insolvency_summaries")

    def industry_codes(self) -> Any:
        """The company's WZ 2025 codes, one row per code (see ``regkit.frames.industry_codes``)."""
        return self._frame("company.industry_codes")

    def contact(self) -> Any:
        """Contact data (website, e-mail, phone, VAT id, social media)."""
        return self._frame("company.contact")

    def as_of(self, date: Any, **options: Any) -> Any:
        """The company as it stood on ``date`` (see ``regkit.frames.as_of``; ``person_city=True``
        adds the city to derived person keys)."""
        return self._frame("company.as_of", date, **options)

    def panel(self, years: Any = None, unit: str = "EUR") -> Any:
        """A company-year panel (see ``regkit.frames.panel``)."""
        return self._frame("company.panel", years=years, unit=unit)


class BatchFrames:
    """Frames of many companies at once (the same frames as one company's, concatenated)."""

    def history(self, field: str) -> Any:
        """The history of one member for every fetched company."""
        return builder("companies.history")(self, field)

    def representatives(self, *args: Any, **kwargs: Any) -> Any:
        """One row per role held, for every fetched company."""
        return builder("companies.representatives")(self, *args, **kwargs)

    def indicators(self, unit: str = "EUR", wide: bool = True) -> Any:
        """Published indicators of every fetched company."""
        return builder("companies.indicators")(self, unit=unit, wide=wide)

    def links(self) -> Any:
        """Mergers, spin-offs and profit-transfer agreements of every fetched company."""
        return builder("companies.links")(self)

    def panel(self, years: Any = None, unit: str = "EUR") -> Any:
        """A company-year panel of every fetched company."""
        return builder("companies.panel")(self, years=years, unit=unit)
