"""What the research endpoints return: company and person search pages and results, owners, holdings, persons.

Thin records around the interface's JSON like those of :mod:`regkit.client.records` (``.raw``, ``.meta``,
members as attributes and items), with ``to_dataframe()`` from :mod:`regkit.frames`.  Shares keep the
interface's scales in ``.raw`` (an owner's ``percentage_share`` is a percentage, a holding's a fraction);
the frames put both on one scale (``share``, a fraction in [0, 1]).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import record_html
from .frame_methods import CompanySearchFrames, HoldingsFrames, OwnersFrames, PersonFrames, PersonSearchFrames
from .records import Record, SearchPage, SearchResults

__all__ = [
    "CompanySearchPage",
    "CompanySearchResults",
    "CompanySuggestions",
    "OwnersRecord",
    "HoldingsRecord",
    "PersonSearchPage",
    "PersonSearchResults",
    "PersonRecord",
]


class CompanySearchPage(CompanySearchFrames, SearchPage):
    """One page of a company search (``client.search_companies``): ``results`` and ``pagination``;
    iterating yields the result dicts (``company_id``, ``name``, ``legal_form``, ``register_*``, ``active``,
    ``country``, ``purpose``, ``address``)."""

    kind = "company_page"


class CompanySearchResults(CompanySearchFrames, SearchResults):
    """Every result of a company search, or its first ``limit`` (``client.search_all_companies``), best match
    first; the attributes are :class:`~regkit.client.records.SearchResults`'."""

    def to_dataframe(self) -> Any:
        """One row per result (see ``regkit.frames.company_search_results``); ``attrs`` holds ``total_results``,
        ``pages``, ``credits`` and ``estimated_credits``."""
        return self._with_totals(super().to_dataframe())


class CompanySuggestions(CompanySearchFrames, Record):
    """Autocomplete's suggestions (``client.autocomplete_companies``): at most 10 company search results, best
    first; iterating yields them."""

    kind = "company_suggestions"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the suggestions."""
        return iter(self.raw.get("results", []))

    def __len__(self) -> int:
        return len(self.raw.get("results", []))

    def _label(self) -> str:
        names = [str(r.get("name", "")) for r in self.raw.get("results", [])[:3]]
        return f"{len(self)} suggestion(s)" + (f": {'; '.join(names)}" if names else "")

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: each suggestion's name, legal form, register and city."""
        return record_html.suggestions_html(list(self))


class OwnersRecord(OwnersFrames, Record):
    """A company's current owners (``client.get_owners``): ``company_id``, ``best_available``, ``owners``,
    ``sources``; iterating yields the owners.

    An owner's ``percentage_share`` is a **percentage** (5.36 means 5.36 %); ``to_dataframe()`` gives it as
    ``share``, a fraction.  As for a company, cached ``sources`` whose presigned URLs have expired are removed
    (``meta.urls_expired``).
    """

    kind = "owners"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the owners."""
        return iter(self.raw.get("owners", []))

    def __len__(self) -> int:
        return len(self.raw.get("owners", []))

    def _missing(self, name: str) -> str:
        if name == "sources" and self.meta.urls_expired:
            return (
                "the cached source URLs of these owners expired (they live 30 minutes) and were removed; call "
                "client.get_owners(id, refresh_sources=True) for fresh ones (paid)"
            )
        return super()._missing(name)

    def _label(self) -> str:
        best = ", best available" if self.raw.get("best_available") else ""
        return f"{self.raw.get('company_id', '')}: {len(self)} owner(s){best}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: each owner with type, share, nominal value and since when."""
        return record_html.owners_html(self.raw)


class HoldingsRecord(HoldingsFrames, Record):
    """The companies a company (``client.get_holdings``) or a person (``client.get_person_holdings``) holds
    shares in, current and past: ``company_id`` or ``person_id``, and ``holdings``; iterating yields them.

    A holding's ``percentage_share`` is a **fraction** (0.5 means 50 %); a past holding has ``end`` set.
    """

    kind = "holdings"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the holdings."""
        return iter(self.raw.get("holdings", []))

    def __len__(self) -> int:
        return len(self.raw.get("holdings", []))

    @property
    def holder_id(self) -> str:
        """Whose holdings these are: the company id, or the person's UUID."""
        return str(self.raw.get("company_id") or self.raw.get("person_id") or "")

    @property
    def current(self) -> list[dict[str, Any]]:
        """The holdings without an ``end``."""
        return [h for h in self if h.get("end") is None]

    def _label(self) -> str:
        return f"{self.holder_id}: {len(self.current)} current, {len(self) - len(self.current)} past holding(s)"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: each holding (current first) with share, nominal value and dates."""
        return record_html.holdings_html(self.raw)


class PersonSearchPage(PersonSearchFrames, SearchPage):
    """One page of a person search (``client.search_persons``): ``results`` (``id``, ``name``, ``city``,
    ``date_of_birth``, ``active``) and ``pagination``; iterating yields the results."""

    kind = "person_page"
    results_of = "person"


class PersonSearchResults(PersonSearchFrames, SearchResults):
    """Every result of a person search, or its first ``limit`` (``client.search_all_persons``); the attributes
    are :class:`~regkit.client.records.SearchResults`'."""

    def to_dataframe(self) -> Any:
        """One row per result (see ``regkit.frames.person_search_results``); ``attrs`` holds ``total_results``,
        ``pages``, ``credits`` and ``estimated_credits``."""
        return self._with_totals(super().to_dataframe())

    results_of = "person"


class PersonRecord(PersonFrames, Record):
    """A person (``client.get_person``): ``id``, ``first_name``, ``last_name``, ``city``, ``date_of_birth``,
    ``age`` and ``management_positions`` (current and past).  ``to_dataframe()`` lists the positions; Jupyter
    shows a card."""

    kind = "person"

    @property
    def full_name(self) -> str:
        """First and last name."""
        return " ".join(str(self.raw.get(k) or "") for k in ("first_name", "last_name")).strip()

    def _label(self) -> str:
        return f"{self.raw.get('id', '')} {self.full_name}".strip()
