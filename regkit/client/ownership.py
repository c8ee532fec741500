"""Owners, holdings, beneficial owners and ownership over time: what ``get_owners``, ``get_holdings``,
``get_person_holdings``, ``get_ubos`` and ``get_ownership_history`` send, the records they return, their HTML
summaries and analysis methods.

Shares keep the interface's scales in ``.raw`` (an owner's ``percentage_share`` is a percentage, a holding's a
fraction; a beneficial owner's in percent, 5.36 meaning 5.36 %); the frames put them on one scale (``share``, a
fraction in [0, 1]).  Nominal amounts of the ownership history are integer EUR cents.  The lookups are listed in
:data:`regkit.client.lookups.LOOKUPS` (``"owners"``, ``"holdings"``, ``"person_holdings"``, ``"ubos"``,
``"owners_historical"``), so that ``Client.is_cached`` and ``Client.estimate_cost`` answer for them.


The analysis methods
--------------------
``owners.to_dataframe()``, ``ubos.to_dataframe()``, ``history.to_dataframe()`` and friends are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from regkit.common.html import SummaryTable, summary_html
from regkit.schema.formatting import MISSING, count_text, date_text, euro_text, percent_text

from .records import (
    Record,
    RecordMeta,
    percentage_text,
    text_or_missing,
)

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "UBOS_HINTS",
    "HISTORY_HINTS",
    "HINTS",
    "OwnersRecord",
    "HoldingsRecord",
    "UbosRecord",
    "OwnershipHistoryRecord",
    "OwnersFrames",
    "HoldingsFrames",
    "UbosFrames",
    "OwnershipHistoryFrames",
    "owners_html",
    "holdings_html",
]


_OWNERS_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company is an AG, SE or KGaA, whose "
    "shareholders the register does not list: get_owners(id, best_available=True) returns those known from filed "
    "documents",
    402: "not enough credits: see client.get_credits()",
}


UBOS_HINTS = {
    404: "no credits were spent; check the company id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}


HISTORY_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company has filed no shareholder list "
    "(only a GmbH, UG or gGmbH files them): client.get_owners(id) gives the owners the register lists now",
    402: "not enough credits: see client.get_credits()",
}

_HOLDINGS_HINTS = {
    404: "no credits were spent; check the id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}

#: What an error of each of this resource's operations tells the user, by operation id.
HINTS = {
    "get_owners": _OWNERS_HINTS,
    "get_holdings": _HOLDINGS_HINTS,
    "get_ubos": UBOS_HINTS,
    "get_historical_owners": HISTORY_HINTS,
}


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


class UbosFrames:
    """Frames of a company's beneficial owners (mixed into :class:`~regkit.client.ownership.UbosRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per beneficial owner, shares as fractions (``share``, ``max_share``) beside the answer's percent
        (see ``regkit.frames.ubos``)."""
        from regkit.frames.ownership_histories import ubos

        return ubos(self)


class OwnershipHistoryFrames:
    """Frames of a company's ownership history (mixed into
    :class:`~regkit.client.ownership.OwnershipHistoryRecord`)."""

    company_id: str

    def to_dataframe(self) -> pd.DataFrame:
        """One row per owner and shareholder list, shares in percent, nominal amounts in EUR (see
        ``regkit.frames.ownership_history``)."""
        from regkit.frames.ownership_histories import ownership_history

        return ownership_history(self, self.company_id or None)


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
        return owners_html(self.raw)


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
        return holdings_html(self.raw)


class UbosRecord(UbosFrames, Record):
    """A company's beneficial owners (``client.get_ubos``): ``company_id`` and ``ubos``; iterating yields them.

    A beneficial owner holds more than 25 % effectively (§ 3 GwG): ``percentage_share`` in percent, or, held
    through a partnership, only ``max_percentage_share``.  With none, the legal representatives stand in as
    fictitious beneficial owners with both shares null (:attr:`fictitious`).
    """

    kind = "ubos"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the beneficial owners."""
        return iter(self.raw.get("ubos", []))

    def __len__(self) -> int:
        return len(self.raw.get("ubos", []))

    @property
    def fictitious(self) -> bool:
        """Whether the list holds fictitious beneficial owners (legal representatives: no share known)."""
        return len(self) > 0 and all(
            u.get("percentage_share") is None and u.get("max_percentage_share") is None for u in self
        )

    def _label(self) -> str:
        kind = "fictitious beneficial owner(s)" if self.fictitious else "beneficial owner(s)"
        return f"{self.raw.get('company_id', '')}: {len(self)} {kind}"


class OwnershipHistoryRecord(OwnershipHistoryFrames, Record):
    """How a company's owners changed (``client.get_ownership_history``): ``owners``, each with ``status``
    (``active`` or ``removed``), ``first_appearance``, ``last_appearance`` and one ``ownership_history`` entry
    per filed shareholder list showing them (``document_id``, ``document_date``, ``nominal_shares`` in EUR
    cents, ``percentage_shares``); iterating yields the owners.  :attr:`company_id` is the company asked for
    (the answer itself does not name it), :attr:`company_name` its name where the client's cache held the
    company's record when it was asked (free: nothing is sent), else ``None``.
    """

    kind = "ownership_history"

    def __init__(
        self,
        raw: Mapping[str, Any],
        meta: RecordMeta | None = None,
        *,
        company_id: str = "",
        company_name: str | None = None,
    ) -> None:
        super().__init__(raw, meta)
        self.company_id = company_id
        self.company_name = company_name

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the owners."""
        return iter(self.raw.get("owners", []))

    def __len__(self) -> int:
        return len(self.raw.get("owners", []))

    @property
    def active(self) -> list[dict[str, Any]]:
        """The owners of the latest shareholder list (``status`` ``active``)."""
        return [o for o in self if o.get("status") == "active"]

    @property
    def document_ids(self) -> list[str]:
        """The shareholder lists the history comes from, by date (oldest first)."""
        dated = {(h["document_date"], h["document_id"]) for o in self for h in o.get("ownership_history", [])}
        return [document_id for _, document_id in sorted(dated)]

    def _label(self) -> str:
        return (
            f"{self.company_id}: {len(self.active)} active, {len(self) - len(self.active)} removed owner(s) "
            f"across {len(self.document_ids)} shareholder list(s)"
        )


def owners_html(o: Mapping[str, Any]) -> str:
    """A company's current owners: each with type, share (the interface's percentage) and nominal value."""
    owners = list(o.get("owners") or ())
    rows = [
        [
            text_or_missing(w.get("name")),
            "company" if w.get("type") == "legal_person" else "person",
            str(w.get("relation_type") or MISSING).replace("_", " "),
            percentage_text(w.get("percentage_share")),
            euro_text(w.get("nominal_share")),
            date_text(w.get("start")),
        ]
        for w in owners
    ]
    known = [float(w["percentage_share"]) for w in owners if w.get("percentage_share") is not None]
    facts = [("Owners", count_text(len(owners)))]
    if known:
        facts.append(("Shares listed", percent_text(sum(known) / 100)))
    facts.append(
        (
            "Source",
            "filed documents (best available; may be out of date)" if o.get("best_available") else "shareholder list",
        )
    )
    table = SummaryTable(
        ("Owner", "Type", "Relation", "Share", "Nominal", "Since"),
        rows,
        numeric=(3, 4),
        nowrap=(5,),
        where="owners.to_dataframe()",
    )
    return summary_html(
        f"Owners of {text_or_missing(o.get('company_id'))}", facts, tables=[table] if rows else [], kind="owners"
    )


def holdings_html(h: Mapping[str, Any]) -> str:
    """The companies a company or person holds shares in: current first, then past."""
    holdings = list(h.get("holdings") or ())
    current = [x for x in holdings if x.get("end") is None]
    past = [x for x in holdings if x.get("end") is not None]
    rows = [
        [
            text_or_missing(x.get("name")),
            str(x.get("relation_type") or MISSING).replace("_", " "),
            percent_text(x.get("percentage_share")),
            euro_text(x.get("nominal_share")),
            date_text(x.get("start")),
            date_text(x.get("end")) if x.get("end") else "current",
        ]
        for x in current + past
    ]
    facts = [("Holdings", f"{count_text(len(current))} current · {count_text(len(past))} past")]
    table = SummaryTable(
        ("Company", "Relation", "Share", "Nominal", "Since", "Until"),
        rows,
        numeric=(2, 3),
        nowrap=(4, 5),
        where="holdings.to_dataframe()",
    )
    if h.get("company_id"):
        title, note = f"Holdings of {h['company_id']}", ""
    else:
        title, note = "Holdings of a person", f"person id {text_or_missing(h.get('person_id'))}"
    return summary_html(title, facts, tables=[table] if rows else [], note=note, kind="holdings")
