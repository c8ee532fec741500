"""Persons: the records of ``get_person`` and of the person search (``search_persons``, ``search_all_persons``),
with their analysis methods.

A person is found by their UUID — the ``id`` of their ``representation`` entries and owner entries — or by
:meth:`~regkit.client.Client.search_persons`.  What the lookups send is made in :mod:`regkit.client.lookups`
(``"person"``, ``"person_holdings"``), what the search sends in :mod:`regkit.client.search`; a person's holdings
are a :class:`~regkit.client.ownership.HoldingsRecord`.


The analysis methods
--------------------
``person.positions()``, ``results.to_dataframe()`` and friends are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from regkit.errors import RegkitError

from .records import (
    Record,
    SearchPage,
    SearchResults,
)

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["HINTS", "PersonSearchPage", "PersonSearchResults", "PersonRecord", "PersonSearchFrames", "PersonFrames"]

_PERSON_HINTS = {
    404: "no credits were spent; check the person id where you found it (representation[].id, an owner's id, a "
    "person search result)",
    402: "not enough credits: see client.get_credits()",
}

#: What an error of each of this resource's operations tells the user, by operation id.
HINTS = {"get_person": _PERSON_HINTS, "get_person_holdings": _PERSON_HINTS}


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
