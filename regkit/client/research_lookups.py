"""Owners, holdings and persons: one paid lookup each, cached like a company, and what such a lookup would cost.

A company's record names its shareholders but never its subsidiaries; :meth:`LookupMethods.get_holdings` is the
downward edge (the companies a company holds shares in, current and past), :meth:`LookupMethods.get_owners` the
upward one (the current owners, with shares).  Persons are found by their UUID — the ``id`` of their
``representation`` entries and owner entries — or by :meth:`~regkit.client.Client.search_persons`.

:data:`LOOKUPS` names the endpoints ``Client.is_cached(id, endpoint=...)`` and
``Client.estimate_cost(ids, endpoint=...)`` answer for, so that a crawl can ask, before it pays, what a level of
company, owners, holdings and person calls would cost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from regkit.schema.interface import PRICES

from . import validation
from regkit.errors import ValidationError
from .research_records import HoldingsRecord, OwnersRecord, PersonRecord
from .transport.call import Operation

if TYPE_CHECKING:
    from .records import RecordMeta
    from .transport.call import Answer

__all__ = ["Lookup", "LOOKUPS", "COMPANY_HINTS", "LookupMethods", "lookup"]

_OWNERS_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company is an AG, SE or KGaA, whose "
    "shareholders the register does not list: get_owners(id, best_available=True) returns those known from filed "
    "documents",
    402: "not enough credits: see client.get_credits()",
}
_PERSON_HINTS = {
    404: "no credits were spent; check the person id where you found it (representation[].id, an owner's id, a "
    "person search result)",
    402: "not enough credits: see client.get_credits()",
}
COMPANY_HINTS = {
    404: "no credits were spent; check the id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}


@dataclass(frozen=True)
class Lookup:
    """One lookup endpoint: how its id is checked, its price keys, and whether it has a realtime variant.

    Attributes
    ----------
    check : callable
        Validates and normalises the id (``validation.company_id`` or ``validation.person_id``).
    price : str
        Key of :data:`regkit.schema.interface.PRICES`.
    realtime_price : str or None
        Key of the realtime variant; ``None``: the endpoint has none.
    """

    check: Callable[[Any], str]
    price: str
    realtime_price: str | None = None

    def price_of(self, realtime: bool) -> int:
        """Credits of one lookup."""
        return PRICES[self.realtime_price if realtime and self.realtime_price else self.price]


LOOKUPS: Mapping[str, Lookup] = MappingProxyType(
    {
        "company": Lookup(validation.company_id, "company", "company_realtime"),
        "owners": Lookup(validation.company_id, "owners", "owners_realtime"),
        "holdings": Lookup(validation.company_id, "holdings"),
        "person": Lookup(validation.person_id, "person"),
        "person_holdings": Lookup(validation.person_id, "person_holdings"),
    }
)
"""The endpoints of ``Client.is_cached`` / ``Client.estimate_cost``: ``get_company``, ``get_owners``,
``get_holdings``, ``get_person``, ``get_person_holdings``."""


def lookup(endpoint: Any, realtime: bool) -> Lookup:
    """The :class:`Lookup` of ``endpoint``; ``ValidationError`` for an unknown one or a realtime it lacks."""
    if endpoint not in LOOKUPS:
        raise ValidationError(
            f"endpoint must be one of {', '.join(map(repr, LOOKUPS))}, not {endpoint!r}",
            suggestion="e.g. endpoint='holdings' for get_holdings; nothing was sent",
        )
    found = LOOKUPS[endpoint]
    if realtime and found.realtime_price is None:
        raise ValidationError(
            f"endpoint {endpoint!r} has no realtime variant",
            suggestion="realtime=True applies to 'company' and 'owners' only",
        )
    return found


def _flags(**flags: bool) -> tuple[tuple[str, str], ...]:
    return tuple((name, "true") for name, on in flags.items() if on)


class LookupMethods:
    """The owners, holdings and person endpoints of :class:`~regkit.client.Client`."""

    if TYPE_CHECKING:  # provided by Client

        def _call(self, op: Operation) -> Answer: ...

        def _meta(self, answer: Answer, urls_expired: bool = False) -> RecordMeta: ...

        def _company_op(self, company_id: str, realtime: bool, export: bool) -> Operation: ...

        def _urls_stale(self, answer: Answer) -> bool: ...

    def _lookup_op(self, endpoint: Any, identifier: Any, realtime: bool, best_available: bool = False) -> Operation:
        """The operation of one lookup (arguments checked; nothing is sent)."""
        found = lookup(endpoint, realtime)
        if best_available and endpoint != "owners":
            raise ValidationError(
                f"best_available applies to endpoint='owners' only, not {endpoint!r}",
                suggestion="leave best_available out, or ask with endpoint='owners'",
            )
        ident = found.check(identifier)
        if endpoint == "company":
            return self._company_op(ident, realtime, False)
        if endpoint == "owners":
            return self._owners_op(ident, realtime, best_available, False)
        path = {
            "holdings": f"/v1/company/{quote(ident)}/holdings",
            "person": f"/v1/person/{quote(ident)}",
            "person_holdings": f"/v1/person/{quote(ident)}/holdings",
        }[endpoint]
        call = {"holdings": "get_holdings", "person": "get_person", "person_holdings": "get_person_holdings"}[endpoint]
        hints = COMPANY_HINTS if endpoint == "holdings" else _PERSON_HINTS
        return Operation(call, "GET", path, price=found.price_of(False), hints=hints)

    def _owners_op(self, company_id: str, realtime: bool, best_available: bool, export: bool) -> Operation:
        params = _flags(realtime=realtime, export=export, best_available=best_available)
        return Operation(
            "get_owners",
            "GET",
            f"/v1/company/{quote(company_id)}/owners",
            params=params,
            price=LOOKUPS["owners"].price_of(realtime),
            hints=_OWNERS_HINTS,
        )

    def get_owners(
        self,
        company_id: str,
        realtime: bool = False,
        best_available: bool = False,
        export: bool = False,
        *,
        refresh_sources: bool = False,
    ) -> OwnersRecord:
        """A company's current owners (10 credits, 20 with ``realtime``; a cache hit is free).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        realtime : bool
            Fetch from the official register now; never answered from the cache.
        best_available : bool
            For an AG, SE or KGaA, whose shareholders the register does not list: the owners known from filed
            documents (``best_available`` is then true in the answer).  Without it such a company is a 404.
        export : bool
            Leave ``sources`` out.
        refresh_sources : bool
            As for :meth:`~regkit.client.Client.get_company`: if the cached answer's presigned source URLs
            have expired, fetch it again (paid) instead of returning it without ``sources``.

        Returns
        -------
        OwnersRecord
            ``.raw`` as the interface sent it: an owner's ``percentage_share`` is a **percentage** (5.36 means
            5.36 %); ``.to_dataframe()`` (:func:`regkit.frames.owners`) gives it as ``share``, a fraction.

        Raises
        ------
        ValidationError
            A malformed id or flag (nothing is sent).
        NotFoundError
            An unknown company, or an AG/SE/KGaA without ``best_available`` (no credits spent).
        PaymentRequiredError, BudgetExceededError, ...
        """
        op = self._owners_op(
            validation.company_id(company_id),
            validation.flag(realtime, "realtime"),
            validation.flag(best_available, "best_available"),
            validation.flag(export, "export"),
        )
        refresh_sources = validation.flag(refresh_sources, "refresh_sources")
        answer = self._call(op)
        stale = "sources" in answer.data and self._urls_stale(answer)
        if stale and refresh_sources:
            answer, stale = self._call(replace(op, refresh=True)), False
        data = {k: v for k, v in answer.data.items() if k != "sources"} if stale else answer.data
        return OwnersRecord(data, self._meta(answer, urls_expired=stale))

    def get_holdings(self, company_id: str) -> HoldingsRecord:
        """The companies a company holds shares in, current and past (10 credits; cached for 30 days).

        Returns
        -------
        HoldingsRecord
            ``.raw`` is ``{"company_id", "holdings": [{company_id, name, relation_type, nominal_share,
            percentage_share, start, end}]}``; ``percentage_share`` is a **fraction** here (0.5 means 50 %),
            a past holding has ``end``.  ``.to_dataframe()``: :func:`regkit.frames.holdings`.

        Raises
        ------
        ValidationError, NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._call(self._lookup_op("holdings", company_id, False))
        return HoldingsRecord(answer.data, self._meta(answer))

    def get_person(self, person_id: str) -> PersonRecord:
        """One person with their management positions, current and past (10 credits; cached for 30 days).

        Parameters
        ----------
        person_id : str
            The person's UUID: ``representation[].id`` of a company, an owner's ``id``, a person search
            result's ``id`` (letter case does not matter).

        Returns
        -------
        PersonRecord
            ``.raw`` is the PersonV1 answer (``id``, ``first_name``, ``last_name``, ``city``, ``date_of_birth``,
            ``age``, ``management_positions``); ``.to_dataframe()``: :func:`regkit.frames.management_positions`.

        Raises
        ------
        ValidationError
            A malformed UUID (nothing is sent).
        NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._call(self._lookup_op("person", person_id, False))
        return PersonRecord(answer.data, self._meta(answer))

    def get_person_holdings(self, person_id: str) -> HoldingsRecord:
        """The companies a person holds shares in, current and past (10 credits; cached for 30 days).

        Returns
        -------
        HoldingsRecord
            ``.raw`` is ``{"person_id", "holdings": [...]}`` with the members of :meth:`get_holdings`.

        Raises
        ------
        ValidationError, NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._call(self._lookup_op("person_holdings", person_id, False))
        return HoldingsRecord(answer.data, self._meta(answer))
