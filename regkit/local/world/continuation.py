"""The world after its ``as_of``: each day's register events, generated from the world's seed and the day.

A generated world stands for the register on its ``as_of``. When the local register's clock moves on
(:mod:`regkit.local.models.clock`), the world lives on: every day past ``as_of`` brings register events at German
rates scaled to the world's size — new companies (:mod:`.incorporation`: made by the world's own record stages),
appointments and departures of directors, Prokura granted and ended, new
addresses in the same town and moves of the seat to another town of the court's district, new names,
liquidations (the name's ``i.L.``, the board's end, a liquidator), the annual reports of the companies that file
(3-12 months after their fiscal year ends, with amounts that add up: the statements are derived from them),
insolvency petitions against companies in distress (a new proceeding, opened or rejected 30-90 days later, the
company then in liquidation), proceedings against natural persons (at the stored world's own rate), decisions
published in open proceedings, capital increases (every holder's nominal share in proportion), profit-transfer
agreements with a company's sole shareholder started and ended, mergers of a group's GmbH into its Organträger
(the merged company's holders' rows end: the shareholdings are versioned as the records), stakes handed on to a
managing director (a new shareholder list, served as its PDF), spin-offs to a new GmbH, moves of the seat to another
court's district (a new register entry there), the amended articles (and a new shareholder list) a change of name,
capital or seat files, and on their day the pending changes a realtime lookup already showed.

Nothing is stored: the events of a day are drawn from a generator seeded with the world's seed and the day
(``"regkit-world/continuation/<seed>/<day>"``), applied in order to the records as the day before left them. A
:class:`Continuation` folds the days forward once and keeps every record's versions with the day each began, so
the world on any day since ``as_of`` is read back without folding again — and the same days give the same world
however the clock got there (7 days at once = 3 + 4).

Rates (:data:`YEARLY_RATES`, per active company and year) are scaled from the register's volumes: about 2,000
Handelsregister publications a working day for some 2.3 million active companies, about 5 % of companies touched
in 30 days once annual reports are counted.

**A move to another court's district changes the company's id** (``DE-<register>-<court>-<number>`` is its
current register entry's). From the day of the move the continuation knows the company only under its new id: its
record carries the new register (appended to ``registers``) and a new address in a town of the new court's
district; every record that links to it or lists it as a shareholder or partner, and every shareholding row that
names it (as the company held or as the holder), names the new id from that day on; its old id has no record
from that day (:meth:`Continuation.current_id` follows it to the new one, as the world's ``former_ids`` do for
the moves before ``as_of``); a person's positions there are read from the record under its new id. What the
stored world keys by the id the company had on ``as_of`` — the seed its reports' statements are drawn from, its
Transparenzregister entity, the index of its stored documents — is found through :meth:`Continuation.origin` (and
the other way, :meth:`Continuation.current_id`). A company with insolvency proceedings on record, with a pending
change, or with a planted Transparenzregister discrepancy does not move.
"""

from __future__ import annotations

import bisect
import copy
import datetime as dt
import math
import random
import threading
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cases import Administrators, CaseNumbers
from .company import new_address
from .filings import LIST_FORMS
from .financials import indicator_series
from .holdings import shareholder_entry
from .incorporation import RegisterNumbers, incorporated_company, spun_off_company
from .insolvency import OPEN_STATUSES, STATUS_AFTER_EVENT
from .names import written
from .naming import company_stem, full_name, sector_word
from .officers import natural_entry
from .people import PersonPool, iso, new_uuid
from .proceedings import event_details, event_record, opening_meetings, summary_of
from .record import register_entry
from .reference import Reference, load_reference
from .specs import Registration

__all__ = ["INCORPORATIONS_YEARLY", "YEARLY_RATES", "RegisterEvent", "Continuation", "day_rng"]

#: Register events per active company and year, by kind (annual reports follow each filer's own calendar).
YEARLY_RATES: Mapping[str, float] = {
    "director_appointed": 0.05,
    "director_left": 0.04,
    "prokura_granted": 0.03,
    "prokura_ended": 0.02,
    "address_changed": 0.03,
    "seat_moved": 0.01,
    "name_changed": 0.01,
    "liquidation": 0.012,
    "insolvency_filed": 0.01,
    "capital_changed": 0.015,
    "profit_transfer_agreement_started": 0.002,
    "profit_transfer_agreement_ended": 0.001,
    "merged_into": 0.002,
    "shares_transferred": 0.015,
    "spin_off": 0.002,
    "court_moved": 0.004,
}

#: New companies a year per company active on ``as_of`` (some 130,000 new entries a year in the commercial register
#: for about 2.3 million active companies, the register's association included: about 5 %).
INCORPORATIONS_YEARLY = 0.05

#: Kinds few companies qualify for: the company is drawn from those that do (not tried at random).
_RARE = {"profit_transfer_agreement_started", "profit_transfer_agreement_ended", "merged_into"}
#: Legal forms whose capital is registered and may be increased (a UG's increase to 25,000 EUR makes it a GmbH,
#: which is not generated).
_CAPITAL = {"gmbh", "ggmbh", "ag", "se", "kgaa"}
#: Legal forms that may be an Organgesellschaft whose shareholders the register lists (as ``SHAREHOLDER`` entries).
_CONTROLLED = {"gmbh", "ug"}

#: Legal forms with a board of directors (``DIRECTOR``) and those that may grant Prokura.
_DIRECTED = {"gmbh", "ug", "ggmbh", "ag", "se", "eg", "ev"}
_PROKURA = {"gmbh", "ug", "ggmbh", "ag", "se", "kg", "ohg", "ek", "eg", "kgaa"}
#: Legal forms that publish annual accounts (as :data:`regkit.local.world.financials.PUBLISHING_FORMS`).
_FILERS = {"gmbh", "ug", "ggmbh", "ag", "se", "kgaa", "kg", "eg"}
#: Roles a liquidation ends (the board and Prokura; it comes to companies with a board of directors only, whose
#: partners and owners, if any, stay what they are).
_BOARD_ROLES = {"DIRECTOR", "PROKURA", "OTHER"}
_DEM_PER_EUR = 1.95583
#: The chance that an open proceeding publishes a decision on a given day (about two months in three).
_PUBLISHING_DAILY = 1 / 45
#: Kinds that amend the articles of association (the name, the capital; a liquidation's "i.L."): the register
#: files the amended articles, and a company that files shareholder lists a new list.
_AMENDING = frozenset({"name_changed", "capital_changed", "liquidation"})
#: Legal forms that may spin a part of their business off to a new GmbH (a one-word designation: the new company is
#: named after the transferor's stem).
_TRANSFERORS = frozenset({"gmbh", "ag", "se"})
#: Legal forms whose shareholders may hand a stake on (as the ``holdings`` stage's transfers: GmbH and UG).
_TRANSFERRING = frozenset({"gmbh", "ug"}) & LIST_FORMS
#: How many companies an event tries before it gives up for the day (few are ineligible).
_TRIES = 25


def day_rng(seed: int | str, day: dt.date) -> random.Random:
    """The generator of ``day``'s events in a world built from ``seed`` (seeded through SHA-512: the same in every
    process)."""
    return random.Random(f"regkit-world/continuation/{seed}/{day.isoformat()}")


@dataclass(frozen=True)
class RegisterEvent:
    """One register event of a day past the world's ``as_of``.

    Attributes
    ----------
    day : datetime.date
        The day it was registered (history entries it adds start on it).
    kind : str
        One of :data:`YEARLY_RATES`, ``"report_filed"`` or ``"pending_registered"`` (a realtime change reached its
        day), ``"link_renamed"`` (a linked company's new name shown in a record that names it),
        ``"insolvency_opened"`` or ``"insolvency_rejected"`` (the court's decision on a petition filed since
        ``as_of``), ``"insolvency_event"`` (a decision published in an open proceeding),
        ``"person_insolvency_opened"`` (a proceeding against a natural person, opened), ``"acquisition"`` (the
        acquirer's side of a ``"merged_into"``). A ``"shares_transferred"`` files a new shareholder list; an
        ``"incorporated"`` company is new to the world (``spun_off_from`` in its detail when a ``"spin_off"``
        founded it). A ``"court_moved"`` names the company by the id it had until that day, its new id in its
        detail's ``company_id``; ``"link_moved"`` is a record that names it, now by the new id.
    company_id : str
        The company whose record it changes, by its id on that day ("" for a natural person's proceeding).
    detail : dict
        What the event says beyond its kind (a person's id and name, the new name, ...).
    """

    day: dt.date
    kind: str
    company_id: str
    detail: Mapping[str, Any] = field(default_factory=dict)


class Continuation:
    """A world's records on every day since its ``as_of``, folded forward on demand.

    Parameters
    ----------
    meta : mapping
        The world's ``world.json`` (``seed``, ``as_of``, ``groups``).
    companies : mapping
        The stored records by id (a store's table or a :class:`~regkit.local.world.store.World`'s dict); never
        changed.
    realtime : mapping
        The records a realtime lookup shows (pending changes); each becomes the company's record on its day.
    insolvencies : mapping
        The stored proceedings by id (never changed): open ones publish decisions, new ones are added.
    reference : Reference
        The reference lists new names, streets, places and persons are drawn from.
    shareholdings : mapping, optional
        The stored shareholding rows by the company held (``Catalog.ownership.by_company``); never changed. Without
        them no company merges into another (a merger ends the merged company's holders).
    """

    def __init__(
        self,
        meta: Mapping[str, Any],
        companies: Mapping[str, dict[str, Any]],
        realtime: Mapping[str, dict[str, Any]],
        insolvencies: Mapping[str, dict[str, Any]],
        reference: Reference,
        shareholdings: Mapping[str, list[Mapping[str, Any]]] | None = None,
    ) -> None:
        self.seed = meta["seed"]
        #: The stored shareholding rows by the company held (a company merged into another loses its holders).
        self.base_shareholdings: Mapping[str, list[Mapping[str, Any]]] = shareholdings or {}
        #: Each company's shareholding rows since ``as_of``, versioned as the records (only those that changed).
        self._rows: dict[str, list[tuple[dt.date, list[dict[str, Any]]]]] = {}
        #: The companies a holder took a stake in since ``as_of``: ``(day, company id)`` by the holder's id.
        self._stakes_taken: dict[str, list[tuple[dt.date, str]]] = defaultdict(list)
        #: The stored rows' companies by holder id (built when a holder is first renamed).
        self._held_by: dict[str, set[str]] | None = None
        #: The documents filed since ``as_of`` by id: ``(day, company id, document)``.
        self._documents: dict[str, tuple[dt.date, str, dict[str, Any]]] = {}
        #: The companies incorporated since ``as_of``: ``(day, company id)`` in the order they were registered.
        self._incorporated: list[tuple[dt.date, str]] = []
        self._new: set[str] = set()
        #: The moves to another court's district since ``as_of``: ``(day, new id)`` by the id the company had
        #: until that day.
        self._moves: dict[str, tuple[dt.date, str]] = {}
        #: The id each company that moved since ``as_of`` had on ``as_of`` (or at its incorporation), by every id it
        #: had since.
        self._origin: dict[str, str] = {}
        #: The register numbers courts give next (above every number of the world, former ones included).
        self._numbers = RegisterNumbers([*companies, *(meta.get("former_ids") or {})])
        #: The companies with a planted Transparenzregister discrepancy (their owners stay as the world has them).
        self._planted = {
            plant["company_id"] for plant in (meta.get("transparenzregister") or {}).get("discrepancies") or ()
        }
        self.as_of = dt.date.fromisoformat(str(meta["as_of"])[:10])
        self.base = companies
        self.reference = reference
        self._lock = threading.Lock()
        self._folded = self.as_of
        #: Each company's records since ``as_of`` with the day each began (None from the day it moved away: it
        #: has a new id).
        self._versions: dict[str, list[tuple[dt.date, dict[str, Any] | None]]] = {}
        self._events: dict[dt.date, list[RegisterEvent]] = {}
        #: (day, company id) of every version naming a person, by the person's lower-case UUID.
        self._people: dict[str, list[tuple[dt.date, str]]] = defaultdict(list)
        self._grouped = {member for group in meta.get("groups") or () for member in group.get("members", ())}
        #: The groups' Organträger: they transfer no profit themselves.
        self._tops = {group["organtraeger"] for group in meta.get("groups") or () if group.get("organtraeger")}
        #: Each group member's Organträger (a member merges into it).
        self._top_of = {
            member: group["organtraeger"]
            for group in meta.get("groups") or ()
            if group.get("organtraeger")
            for member in group.get("members", ())
        }
        #: The ids of the companies events may happen to (not those merged or moved away), and of every company
        #: that had a record since ``as_of`` (what :meth:`companies_on` looks at), sorted.
        self._ids = sorted(companies)
        self._known = list(self._ids)
        self.base_proceedings = insolvencies
        #: Proceedings' versions since ``as_of``, as the companies' (new proceedings included).
        self._proceedings: dict[str, list[tuple[dt.date, dict[str, Any]]]] = {}
        #: The follow-up of a new proceeding on its day: ``(proceeding id, event type)``.
        self._follow_ups: dict[dt.date, list[tuple[str, str]]] = defaultdict(list)
        self._open = sorted(pid for pid, p in self.base_proceedings.items() if p.get("current_status") in OPEN_STATUSES)
        #: Proceedings against natural persons a year at the stored world's own rate: those first published in the
        #: year before ``as_of``.
        year_before = iso(self.as_of - dt.timedelta(days=365))
        self.person_proceedings_yearly = sum(
            1
            for p in self.base_proceedings.values()
            if p.get("debtor_kind") == "natural_person" and (p.get("first_event_at") or "") > year_before
        )
        #: The natural persons a proceeding filed since ``as_of`` is against, by lower-case UUID: ``(day, details)``.
        self._debtors: dict[str, tuple[dt.date, dict[str, Any]]] = {}
        self._cases = {(p["court"], p["case_number"]) for p in self.base_proceedings.values()}
        self._courts = {court.code: court for court in reference.courts}
        administrators_rng = random.Random(f"regkit-world/continuation/{meta['seed']}/administrators")
        self._administrators = Administrators(
            administrators_rng, PersonPool(administrators_rng, reference), 40, reference
        )
        self._pending: dict[dt.date, list[dict[str, Any]]] = defaultdict(list)
        #: The day each realtime record's pending change is registered, by company id.
        self._pending_on: dict[str, dt.date] = {}
        for record in realtime.values():
            self._pending_on[record["id"]] = _pending_day(record, self.as_of)
            self._pending[self._pending_on[record["id"]]].append(record)
        self._filings: dict[dt.date, list[tuple[str, dt.date]]] = defaultdict(list)
        self._linked_from: dict[str, set[str]] = defaultdict(set)
        #: The companies that may come to qualify for each rare kind (what a scan for one need look at: the
        #: parts of a record no event of the continuation changes, or the ids an event adds).
        self._candidates: dict[str, set[str]] = {kind: set() for kind in _RARE}
        active = 0
        for company_id, record in companies.items():
            active += record["status"] == "active"
            for target in _link_targets(record):
                self._linked_from[target].add(company_id)
            if _files(record):
                due, year_end = _filing_day(record, self.as_of)
                self._filings[due].append((company_id, year_end))
            if record["legal_form"] in _CONTROLLED and _sole_parent(record) is not None:
                self._candidates["profit_transfer_agreement_started"].add(company_id)
            if record.get("profit_transfer_agreement"):
                self._candidates["profit_transfer_agreement_ended"].add(company_id)
            if record["legal_form"] == "gmbh" and company_id in self._top_of:
                self._candidates["merged_into"].add(company_id)
        #: How many companies were active on ``as_of``: the rates' scale (kept, so a day's counts do not depend
        #: on the days before).
        self.active = active

    @classmethod
    def of_world(cls, world: Any, reference: Reference | None = None) -> Continuation:
        """The continuation of an in-memory world (:func:`regkit.local.world.read_world`: its ``meta``,
        ``companies``, ``realtime``, ``insolvencies`` and ``shareholdings`` rows), with the reference lists of
        ``reference`` (default: the bundled ones) — the same events a register serving that world generates."""
        if reference is None:
            from .store import default_reference_dir

            reference = load_reference(default_reference_dir())
        by_company: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for row in world.shareholdings:
            by_company[row["company_id"]].append(row)
        return cls(world.meta, world.companies, world.realtime, world.insolvencies, reference, dict(by_company))

    # -- reading -------------------------------------------------------------------------------------------------

    def company(self, company_id: str, day: dt.date) -> dict[str, Any] | None:
        """The record of ``company_id`` on ``day`` (the stored one before its first event), or None if unknown."""
        self.fold_to(day)
        return _on(self._versions.get(company_id), day, self.base, company_id)

    def pending_day(self, company_id: str) -> dt.date | None:
        """The day the pending change a realtime lookup of ``company_id`` shows is registered (from then on it is
        the company's record), or None for a company without one."""
        return self._pending_on.get(company_id)

    def changed(self, day: dt.date) -> list[str]:
        """The ids of the companies whose record on ``day`` is not the stored one, sorted (not those moved away
        by then: their record is under their new id)."""
        self.fold_to(day)
        return sorted(
            cid
            for cid, versions in list(self._versions.items())  # a snapshot: another thread may fold later days
            if versions[0][0] <= day and _on(versions, day, self.base, cid) is not None
        )

    def current_id(self, company_id: str, day: dt.date) -> str:
        """The id on ``day`` of the company that had ``company_id`` (itself unless it moved to another court's
        district by then)."""
        self.fold_to(day)
        while (move := self._moves.get(company_id)) is not None and move[0] <= day:
            company_id = move[1]
        return company_id

    def origin(self, company_id: str) -> str:
        """The id the company with ``company_id`` had on ``as_of`` (or at its incorporation): what the data derived
        from the stored world (statements, Transparenzregister entity, stored documents) is keyed by."""
        return self._origin.get(company_id, company_id)

    def moves(self, day: dt.date) -> dict[str, str]:
        """The moves to another court's district by ``day``: each former id with the id it led to on ``day``."""
        self.fold_to(day)
        return {old: self.current_id(old, day) for old, (since, _) in list(self._moves.items()) if since <= day}

    def proceeding(self, proceeding_id: str, day: dt.date) -> dict[str, Any] | None:
        """The proceeding ``proceeding_id`` (a lower-case UUID) on ``day``, or None (also before it was filed)."""
        self.fold_to(day)
        return _on(self._proceedings.get(proceeding_id), day, self.base_proceedings, proceeding_id)

    def proceedings_on(self, day: dt.date) -> dict[str, dict[str, Any]]:
        """Every proceeding on ``day`` by id, in id order: the stored ones as they are then, and those filed since."""
        self.fold_to(day)
        ids = sorted(set(self.base_proceedings) | set(self._proceedings))
        found = {pid: self.proceeding(pid, day) for pid in ids}
        return {pid: record for pid, record in found.items() if record is not None}

    def companies_on(self, day: dt.date) -> dict[str, dict[str, Any]]:
        """Every company's record on ``day``, by id in id order (the stored records where nothing happened; the
        companies incorporated by then included)."""
        self.fold_to(day)
        found = ((company_id, self.company(company_id, day)) for company_id in list(self._known))
        return {company_id: record for company_id, record in found if record is not None}

    def incorporated(self, day: dt.date) -> list[str]:
        """The ids on ``day`` of the companies incorporated since ``as_of``, by ``day``, in the order they were
        registered."""
        self.fold_to(day)
        return [self.current_id(company_id, day) for since, company_id in list(self._incorporated) if since <= day]

    def nominal_share(self, row: Mapping[str, Any], day: dt.date) -> Any:
        """The nominal share of a shareholding row on ``day``: its stored one (or as founded), unless the company's
        capital has changed since ``as_of`` (or its incorporation) — then the row's share of the new capital (in euros), as every holder takes part
        in proportion to what it holds."""
        stored = row.get("nominal_share")
        if not row.get("share") or row["company_id"] not in self._versions:
            return stored
        capital = (self.company(row["company_id"], day) or {}).get("capital")
        origin = self.origin(row["company_id"])
        first = self.base.get(origin) or self._versions[origin][0][1] or {}  # stored, or as founded
        if not capital or capital == first.get("capital"):
            return stored
        amount = capital["amount"] / _DEM_PER_EUR if capital.get("currency") == "DEM" else capital["amount"]
        return round(float(row["share"]) * float(amount), 2)

    def companies_of_person(self, key: str, day: dt.date) -> set[str]:
        """The companies whose record on ``day`` is not the stored one and names the person ``key`` (a lower-case
        UUID) in its representation."""
        self.fold_to(day)
        return {company_id for start, company_id in self._people.get(key, ()) if start <= day}

    def shareholdings(self, company_id: str, day: dt.date) -> list[Mapping[str, Any]]:
        """The shareholding rows of the company ``company_id`` on ``day`` (the stored ones before a change)."""
        self.fold_to(day)
        versions = self._rows.get(company_id)
        if versions:
            at = bisect.bisect_right(versions, day, key=lambda version: version[0])
            if at:
                return list(versions[at - 1][1])
        return list(self.base_shareholdings.get(company_id, ()))

    def shareholdings_changed(self, day: dt.date) -> list[str]:
        """The ids of the companies whose shareholding rows on ``day`` are not the stored ones, sorted."""
        self.fold_to(day)
        return sorted(cid for cid, versions in list(self._rows.items()) if versions[0][0] <= day)

    def stakes_taken(self, holder_id: str, day: dt.date) -> set[str]:
        """The ids of the companies in which ``holder_id`` (a person's UUID or a company's id) took a stake since
        ``as_of``, by ``day``."""
        self.fold_to(day)
        return {company_id for since, company_id in self._stakes_taken.get(holder_id, ()) if since <= day}

    def document(self, document_id: str, day: dt.date) -> tuple[str, dict[str, Any]] | None:
        """``(company id, document)`` of a document filed since ``as_of`` and by ``day``, or None."""
        self.fold_to(day)
        found = self._documents.get(document_id)
        return (found[1], found[2]) if found is not None and found[0] <= day else None

    def persons_named(self, day: dt.date) -> set[str]:
        """The lower-case UUIDs of the persons named in the representation of a record changed by ``day`` (a new
        set)."""
        self.fold_to(day)
        named = {key for key, seen in list(self._people.items()) if seen and seen[0][0] <= day}
        return named | {key for key, (since, _) in list(self._debtors.items()) if since <= day}

    def debtor(self, key: str, day: dt.date) -> dict[str, Any] | None:
        """The ``natural_person`` details of the person ``key`` (a lower-case UUID) if a proceeding filed against
        them since ``as_of`` is on record by ``day``, else None."""
        self.fold_to(day)
        found = self._debtors.get(key)
        return found[1] if found is not None and found[0] <= day else None

    def events(self, after: dt.date, until: dt.date) -> list[RegisterEvent]:
        """The events of the days after ``after`` up to ``until``, in the order they were applied."""
        self.fold_to(until)
        days = (after + dt.timedelta(days=n) for n in range(1, (until - after).days + 1))
        return [event for day in days for event in self._events.get(day, ())]

    # -- folding -------------------------------------------------------------------------------------------------

    def fold_to(self, day: dt.date) -> None:
        """Generate and apply the events of every day up to ``day`` not folded yet."""
        if day <= self._folded:
            return
        with self._lock:
            while self._folded < day:
                next_day = self._folded + dt.timedelta(days=1)
                self._events[next_day] = self._day(next_day)
                self._folded = next_day

    def _current(self, company_id: str) -> dict[str, Any]:
        record = self._record_now(company_id)
        if record is None:
            raise KeyError(f"{company_id} has no record now (it moved to another court's district)")
        return record

    def _record_now(self, company_id: str) -> dict[str, Any] | None:
        """The record of ``company_id`` as the days folded so far left it; None for an id the world does not know,
        or one the company left for a new register."""
        versions = self._versions.get(company_id)
        return versions[-1][1] if versions else self.base.get(company_id)

    def _put(self, day: dt.date, record: dict[str, Any]) -> None:
        for entry in record["representation"]:
            if entry["type"] == "natural_person" and entry.get("id"):
                self._people[entry["id"].lower()].append((day, record["id"]))
        self._put_version(day, record["id"], record)

    def _put_version(self, day: dt.date, company_id: str, record: dict[str, Any] | None) -> None:
        versions = self._versions.setdefault(company_id, [])
        if versions and versions[-1][0] == day:
            versions[-1] = (day, record)
        else:
            versions.append((day, record))

    def _day(self, day: dt.date) -> list[RegisterEvent]:
        rng = day_rng(self.seed, day)
        events: list[RegisterEvent] = []
        for record in self._pending.get(day, ()):
            registered = copy.deepcopy(dict(record))
            self._relink(registered)  # the companies it names as they are now (moved, renamed since as_of)
            self._put(day, registered)
            for target in _link_targets(registered):
                self._linked_from[target].add(registered["id"])
            events.append(RegisterEvent(day, "pending_registered", record["id"]))
        for company_id, year_end in self._filings.pop(day, ()):
            if self._files(self._current(company_id)):  # not once it is dissolved
                events += self._apply(day, rng, "report_filed", company_id, year_end=year_end)
        for proceeding_id, event_type in self._follow_ups.pop(day, ()):
            events += self._follow_up(day, rng, proceeding_id, event_type)
        for proceeding_id in list(self._open):  # an open proceeding publishes something most months
            if rng.random() < _PUBLISHING_DAILY:
                events += self._decision(day, rng, proceeding_id)
        pending = {r["id"] for later, records in self._pending.items() if later > day for r in records}
        for kind, rate in YEARLY_RATES.items():
            for _ in range(_poisson(rng, rate * self.active / 365.25)):
                chosen = self._eligible(rng, kind, pending)
                if chosen is not None:
                    events += self._apply(day, rng, kind, chosen)
        for _ in range(_poisson(rng, self.person_proceedings_yearly / 365.25)):
            events.append(self._file_against_person(day, rng))
        for number in range(_poisson(rng, INCORPORATIONS_YEARLY * self.active / 365.25)):
            events.append(self._incorporate(day, number))
        return events

    def _incorporate(self, day: dt.date, number: int) -> RegisterEvent:
        """The ``number``-th company incorporated on ``day`` (:mod:`.incorporation`): its record, its shareholders'
        rows and its documents from that day on; it may have register events of its own from the next day."""
        record, rows = incorporated_company(self.seed, day, number, self.reference, self._numbers)
        self._register_new(day, record, rows)
        return RegisterEvent(
            day, "incorporated", record["id"], {"name": record["name"]["name"], "legal_form": record["legal_form"]}
        )

    def _register_new(self, day: dt.date, record: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        """A company new to the world from ``day``: its record, rows and documents."""
        company_id = record["id"]
        bisect.insort(self._ids, company_id)
        bisect.insort(self._known, company_id)
        self._incorporated.append((day, company_id))
        self._new.add(company_id)
        self._put(day, record)
        if rows:
            self._put_rows(day, company_id, rows)
        for row in rows:
            if row.get("holder_id"):
                self._stakes_taken[row["holder_id"]].append((day, company_id))
        for document in record["documents"]:
            self._documents[document["id"]] = (day, company_id, document)
        if self._files(record):  # its first fiscal year ends on 31 December; the report follows as any filer's
            year_end = dt.date(day.year, 12, 31)
            lag = dt.timedelta(days=90 + zlib.crc32(company_id.encode()) % 270)
            self._filings[year_end + lag].append((company_id, year_end))

    def _relink(self, record: dict[str, Any]) -> None:
        """Name every company ``record`` links to (or lists among its representatives) by its id and name of now:
        a record made before ``as_of`` (a pending change) may name a company that has moved or been renamed since."""
        for target in set(_link_targets(record)):
            current = target
            while (move := self._moves.get(current)) is not None:  # every move so far is of a day folded
                current = move[1]
            found = self._record_now(current)
            if found is None:
                continue
            if current != target:
                _reid_in(record, target, current, (found.get("address") or {}).get("city") or "")
            _rename_in(record, current, found["name"]["name"])

    def _files(self, record: Mapping[str, Any]) -> bool:
        """Whether the company files annual reports on (:func:`_files`); a filer incorporated since ``as_of`` files
        its first before it has any."""
        if record["id"] in self._new and not record.get("indicators"):
            return record["status"] == "active" and record["legal_form"] in _FILERS and "insolvencies" not in record
        return _files(record)

    def _eligible(self, rng: random.Random, kind: str, pending: set[str]) -> str | None:
        if kind in _RARE:  # drawn from the few that qualify (a scan of the candidates, a few times a year)
            candidates = sorted(self._candidates[kind])
            qualified = [cid for cid in candidates if self._may(kind, self._current(cid), pending)]
            return qualified[rng.randrange(len(qualified))] if qualified else None
        for _ in range(_TRIES):
            company_id = self._ids[rng.randrange(len(self._ids))]
            if self._may(kind, self._current(company_id), pending):
                return company_id
        return None

    def _may(self, kind: str, record: Mapping[str, Any], pending: set[str]) -> bool:
        """Whether an event of ``kind`` may happen to ``record`` now (:func:`_may`, and what the kinds that link
        companies need: a wholly owning parent of the world that is active, not a group's Organträger)."""
        if not _may(kind, record, pending, self._grouped):
            return False
        if kind == "profit_transfer_agreement_started":
            if record["id"] in self._tops:
                return False
            parent = _sole_parent(record)
            found = None if parent is None else self._record_now(parent)
            return found is not None and found["status"] == "active"
        if kind in {"insolvency_filed", "spin_off"} and record["id"] in self._new and not record.get("indicators"):
            return False  # a new company has no accounts yet to show distress, nor a business to spin off
        if kind == "shares_transferred":  # the stake's row is on file, and the owners are not a planted case
            return (
                record["id"] not in self._planted and _transfer_parties(record, self._rows_now(record["id"]))[0] != []
            )
        if kind == "court_moved":  # the planted Transparenzregister discrepancies stay where they were planted
            return record["id"] not in self._planted
        if kind == "merged_into":  # a group's GmbH no other record names (it holds nothing, heads nothing)
            top = self._top_of.get(record["id"])
            return (
                bool(self.base_shareholdings)
                and top is not None
                and top != record["id"]
                and top not in pending
                and self._current(top)["status"] == "active"
                and not self._linked_from.get(record["id"])
            )
        return True

    def _apply(
        self, day: dt.date, rng: random.Random, kind: str, company_id: str, *, year_end: dt.date | None = None
    ) -> list[RegisterEvent]:
        record = copy.deepcopy(dict(self._current(company_id)))
        name = record["name"]["name"]
        if year_end is not None:
            detail = _report_filed(self, record, day, rng, year_end)
        elif kind == "insolvency_filed":
            detail = self._file(record, day, rng)
        elif kind == "merged_into":
            return self._merge(day, rng, record)
        elif kind == "spin_off":
            return self._spin_off(day, rng, record)
        elif kind == "court_moved":
            return self._move_court(day, rng, record)
        else:
            detail = _CHANGES[kind](self, record, day, rng)
        if kind in _AMENDING:
            self._file_amendment(day, rng, record)
        self._put(day, record)
        for target in _link_targets(record):
            self._linked_from[target].add(company_id)
        events = [RegisterEvent(day, kind, company_id, detail)]
        if record["name"]["name"] != name:
            events += self._rename_links(day, record)
        return events

    def _merge(self, day: dt.date, rng: random.Random, record: dict[str, Any]) -> list[RegisterEvent]:
        """The company merges into its group's Organträger (Verschmelzung zur Aufnahme), registered today: it is
        dissolved without liquidation (``inactive``, terminated today, every representative's and shareholder's
        entry ended today, its holders' rows too); the acquirer lists it among its acquisitions."""
        top_id = self._top_of[record["id"]]
        acquirer = copy.deepcopy(dict(self._current(top_id)))
        agreed = day - dt.timedelta(days=rng.randint(30, 150)) if rng.random() < 0.85 else None
        dates = {"registration_date": iso(day), "agreement_date": iso(agreed) if agreed else None}
        record["merged_into"] = {"company_id": top_id, "name": acquirer["name"]["name"], **dates}
        record["status"] = "inactive"
        record["terminated_at"] = iso(day)
        record["contact"] = None
        for entry in record["representation"]:
            if entry["end_date"] is None:
                entry["end_date"] = iso(day)
        acquirer["acquisitions"].append({"company_id": record["id"], "name": record["name"]["name"], **dates})
        rows = [dict(row) for row in self._rows_now(record["id"])]
        for row in rows:
            if row.get("end") is None:
                row["end"] = iso(day)
        self._put_rows(day, record["id"], rows)
        self._put(day, record)
        self._put(day, acquirer)
        self._linked_from[top_id].add(record["id"])
        self._linked_from[record["id"]].add(top_id)
        return [
            RegisterEvent(day, "merged_into", record["id"], {"company_id": top_id}),
            RegisterEvent(day, "acquisition", top_id, {"company_id": record["id"]}),
        ]

    def _file_amendment(self, day: dt.date, rng: random.Random, record: dict[str, Any]) -> None:
        """The documents a change of the articles files (as the world's ``documents`` stage has them): the
        amended articles and, from a company that files shareholder lists, a new list; each the newest of its type."""
        types = {document["type"] for document in record.get("documents") or ()}
        if "articles_of_association" not in types:  # a register without filed articles (HRA, PR)
            return
        filed = ["articles_of_association"]
        if "shareholder_list" in types and record["legal_form"] in LIST_FORMS:
            filed.append("shareholder_list")
        for kind in filed:
            document: dict[str, Any] = {"id": new_uuid(rng), "type": kind, "date": iso(day), "latest": True}
            for older in record["documents"]:
                if older["type"] == kind:
                    older["latest"] = False
            record["documents"].append(document)
            self._documents[document["id"]] = (day, record["id"], document)
        record["documents"].sort(key=lambda d: (d["type"], d["date"]))

    def _spin_off(self, day: dt.date, rng: random.Random, record: dict[str, Any]) -> list[RegisterEvent]:
        """A part of the company's business is spun off to a new GmbH it holds whole (Ausgliederung zur
        Neugründung, registered today, agreed some weeks before): the new company (:func:`.spun_off_company`) and
        the transferor's ``asset_spin_offs`` link to it."""
        agreed = day - dt.timedelta(days=rng.randint(10, 60))
        new, rows = spun_off_company(self.seed, day, self.reference, self._numbers, record)
        self._register_new(day, new, rows)
        record["asset_spin_offs"].append(
            {
                "company_id": new["id"],
                "name": new["name"]["name"],
                "registration_date": iso(day),
                "agreement_date": iso(agreed),
            }
        )
        self._put(day, record)
        self._linked_from[new["id"]].add(record["id"])  # the transferor names it, and it names its shareholder
        self._linked_from[record["id"]].add(new["id"])
        founded = {"name": new["name"]["name"], "legal_form": new["legal_form"], "spun_off_from": record["id"]}
        return [
            RegisterEvent(day, "spin_off", record["id"], {"company_id": new["id"]}),
            RegisterEvent(day, "incorporated", new["id"], founded),
        ]

    def _move_court(self, day: dt.date, rng: random.Random, record: dict[str, Any]) -> list[RegisterEvent]:
        """The company moves its seat to a town in another court's district (Sitzverlegung), registered today: the
        new court enters it under a new number (the next it gives), from today its id; the seat is in the articles,
        so the amended articles are filed. Everything that names the company names the new id from today
        (:meth:`_rekey`)."""
        old_id, register = record["id"], record["register"]
        code = old_id.split("-")[2]
        court = None
        for _ in range(_TRIES):
            drawn = self.reference.current_courts.draw(rng)
            if drawn.code != code and self.reference.court_places.get(drawn.code):
                court = drawn
                break
        if court is None:
            return []
        places = self.reference.court_places[court.code]
        address = new_address(rng, places[rng.randrange(len(places))], day)
        record["addresses"].append(address)
        record["address"] = address
        number = self._numbers.next(court.code, register["register_type"], rng)
        entry = register_entry(Registration(court, register["register_type"], day, number))
        record["registers"].append(entry)
        record["register"] = entry
        record["id"] = entry["company_id"]
        self._file_amendment(day, rng, record)
        detail = {
            "company_id": record["id"],
            "register_court": court.name,
            "register_number": number,
            "city": address["city"],
        }
        return [RegisterEvent(day, "court_moved", old_id, detail), *self._rekey(day, old_id, record)]

    def _rekey(self, day: dt.date, old_id: str, record: dict[str, Any]) -> list[RegisterEvent]:
        """From ``day`` the company with ``old_id`` is ``record`` under its new id: the old id has no record any
        more; the records that link to the company or list it among their representatives, and the shareholding
        rows of the company and those it is the holder in, name the new id; what the continuation keeps by company
        (filings due, candidates, groups, links, stakes) follows."""
        new_id = record["id"]
        self._moves[old_id] = (day, new_id)
        self._origin[new_id] = self.origin(old_id)
        self._put(day, record)
        self._put_version(day, old_id, None)
        for entry in record["representation"]:  # a person's positions under the old id are those under the new
            if entry["type"] == "natural_person" and entry.get("id"):
                self._people[entry["id"].lower()].append((day, old_id))
        self._ids.remove(old_id)
        bisect.insort(self._ids, new_id)
        bisect.insort(self._known, new_id)
        if old_id in self._new:
            self._new.add(new_id)
        for due in self._filings.values():
            due[:] = [(new_id if cid == old_id else cid, year_end) for cid, year_end in due]
        for ids in (*self._candidates.values(), self._grouped, self._tops):
            if old_id in ids:
                ids.discard(old_id)
                ids.add(new_id)
        if old_id in self._top_of:
            self._top_of[new_id] = self._top_of.pop(old_id)
        for member, top in self._top_of.items():
            if top == old_id:
                self._top_of[member] = new_id
        events = []
        for source_id in sorted(self._linked_from.pop(old_id, ())):
            source = self._record_now(source_id)
            if source is None or source_id == old_id:
                continue
            source = copy.deepcopy(dict(source))
            if _reid_in(source, old_id, new_id, record["address"]["city"]):
                self._put(day, source)
                events.append(RegisterEvent(day, "link_moved", source_id, {"company_id": new_id}))
            self._linked_from[new_id].add(source_id)
        for sources in self._linked_from.values():  # the records the company's own record links to
            if old_id in sources:
                sources.discard(old_id)
                sources.add(new_id)
        rows = [{**row, "company_id": new_id} for row in self._rows_now(old_id)]
        if rows:
            self._put_rows(day, new_id, rows)
            self._put_rows(day, old_id, [])
        for row in rows:
            if row.get("holder_id"):
                self._stakes_taken[row["holder_id"]].append((day, new_id))
        for company_id in sorted(self._holdings_of(old_id)):
            held = [dict(row) for row in self._rows_now(company_id)]
            named = [row for row in held if row.get("holder_id") == old_id]
            for row in named:
                row["holder_id"] = new_id
            if named:
                self._put_rows(day, company_id, held)
                self._stakes_taken[new_id].append((day, company_id))
        return events

    def _rows_now(self, company_id: str) -> list[Mapping[str, Any]]:
        """The shareholding rows of ``company_id`` as the days folded so far left them."""
        versions = self._rows.get(company_id)
        return list(versions[-1][1]) if versions else list(self.base_shareholdings.get(company_id, ()))

    def _put_rows(self, day: dt.date, company_id: str, rows: list[dict[str, Any]]) -> None:
        versions = self._rows.setdefault(company_id, [])
        if versions and versions[-1][0] == day:
            versions[-1] = (day, rows)
        else:
            versions.append((day, rows))

    def _rename_links(self, day: dt.date, target: Mapping[str, Any]) -> list[RegisterEvent]:
        """Show ``target``'s new name in every record that links to it (merged into, acquisitions, spin-offs,
        the profit-transfer agreement, a general partner or shareholder among the representatives), and in the
        shareholding rows it is the holder of (owners, holdings and shareholder lists name a holder as it is
        named now, as the world's build does)."""
        events = []
        for source_id in sorted(self._linked_from.get(target["id"], ())):
            record = copy.deepcopy(dict(self._current(source_id)))
            if _rename_in(record, target["id"], target["name"]["name"]):
                self._put(day, record)
                events.append(RegisterEvent(day, "link_renamed", source_id, {"company_id": target["id"]}))
        for company_id in sorted(self._holdings_of(target["id"])):
            rows = [dict(row) for row in self._rows_now(company_id)]
            named = [row for row in rows if row.get("holder_id") == target["id"]]
            if any(row["holder_name"] != target["name"]["name"] for row in named):
                for row in named:
                    row["holder_name"] = target["name"]["name"]
                self._put_rows(day, company_id, rows)
        return events

    def _holdings_of(self, holder_id: str) -> set[str]:
        """The companies ``holder_id`` holds or held a stake in: on the world's date (the stored rows, indexed by
        holder on the first call) or taken since."""
        if self._held_by is None:
            held_by: dict[str, set[str]] = defaultdict(set)
            for company_id, rows in self.base_shareholdings.items():
                for row in rows:
                    if row.get("holder_id"):
                        held_by[row["holder_id"]].add(company_id)
            self._held_by = held_by
        return self._held_by.get(holder_id, set()) | {cid for _, cid in self._stakes_taken.get(holder_id, ())}

    # -- insolvency proceedings ---------------------------------------------------------------------------------

    def _current_proceeding(self, proceeding_id: str) -> dict[str, Any]:
        versions = self._proceedings.get(proceeding_id)
        return versions[-1][1] if versions else self.base_proceedings[proceeding_id]

    def _put_proceeding(self, day: dt.date, record: dict[str, Any]) -> None:
        versions = self._proceedings.setdefault(record["id"], [])
        if versions and versions[-1][0] == day:
            versions[-1] = (day, record)
        else:
            versions.append((day, record))
        if record["current_status"] in OPEN_STATUSES:
            if record["id"] not in self._open:
                bisect.insort(self._open, record["id"])
        elif record["id"] in self._open:
            self._open.remove(record["id"])

    def _file(self, record: dict[str, Any], day: dt.date, rng: random.Random) -> dict:
        """An insolvency petition against the company: preliminary measures ordered a few days ago and published
        today; the court opens the proceeding 30-90 days later (seven in ten), or rejects it for want of assets."""
        code = record["register"]["company_id"].split("-")[2]
        court = self._courts.get(code) or self.reference.current_courts.draw(rng)
        decided = day - dt.timedelta(days=rng.randint(1, 4))
        while True:
            case = f"{CaseNumbers(rng).department(court)} IN {rng.randint(1, 2400)}/{decided.year % 100:02d}"
            if (court.name, case) not in self._cases:
                self._cases.add((court.name, case))
                break
        administrator, office = self._administrators.draw()
        grounds = ["illiquidity"] if rng.random() < 0.8 else ["illiquidity", "over_indebtedness"]
        first = _court_event(
            rng, "preliminary_measures", decided, day, grounds=grounds, administrator=administrator, office=office
        )
        proceeding = {
            "id": new_uuid(rng),
            "case_number": case,
            "court": court.name,
            "current_status": "preliminary",
            "debtor_name": record["name"]["name"],
            "debtor_kind": "legal_person",
            "debtor_legal_form": record["legal_form"],
            "company_id": record["id"],
            "proceeding_kind": "regular_insolvency",
            "administration_kind": "external_administration",
            "administrator_name": administrator,
            "administrator_address": office,
            "insolvency_grounds": grounds,
            "claims_filing_deadline": None,
            "opened_at": None,
            "closed_at": None,
            "first_event_at": iso(day),
            "last_event_at": iso(day),
            "distribution_available": None,
            "distribution_claims_total": None,
            "events": [first],
            "city": (record.get("address") or {}).get("city"),
            "person_id": None,
            "has_open_insolvency": True,
        }
        self._put_proceeding(day, proceeding)
        record.setdefault("insolvencies", []).append(summary_of(proceeding))
        follow = "proceedings_opened" if rng.random() < 0.7 else "rejected_insufficient_assets"
        self._follow_ups[day + dt.timedelta(days=rng.randint(30, 90))].append((proceeding["id"], follow))
        return {"insolvency_id": proceeding["id"], "case_number": case, "court": court.name}

    def _file_against_person(self, day: dt.date, rng: random.Random) -> RegisterEvent:
        """A proceeding against a natural person, opened by the court a few days ago and published today: a consumer
        insolvency (IK) for most, a regular one (IN) for the self-employed; the debtor is a person of the day."""
        court = self.reference.current_courts.draw(rng)
        places = self.reference.court_places.get(court.code) or []
        place = places[rng.randrange(len(places))] if places else None
        person = PersonPool(rng, self.reference).create(
            city=place.city if place else None, born_before=dt.date(day.year - 20, 1, 1)
        )
        consumer = rng.random() < 0.8
        decided = day - dt.timedelta(days=rng.randint(1, 4))
        register = "IK" if consumer else "IN"
        while True:
            case = f"{CaseNumbers(rng).department(court)} {register} {rng.randint(1, 2400)}/{decided.year % 100:02d}"
            if (court.name, case) not in self._cases:
                self._cases.add((court.name, case))
                break
        administrator, office = self._administrators.draw()
        grounds = ["illiquidity"]
        deadline = decided + dt.timedelta(days=rng.randint(42, 70))
        event = _court_event(
            rng,
            "proceedings_opened",
            decided,
            day,
            court,
            grounds=grounds,
            administrator=administrator,
            office=office,
            deadline=deadline,
        )
        details = person.details()
        proceeding = {
            "id": new_uuid(rng),
            "case_number": case,
            "court": court.name,
            "current_status": STATUS_AFTER_EVENT["proceedings_opened"],
            "debtor_name": person.full_name,
            "debtor_kind": "natural_person",
            "debtor_legal_form": None,
            "company_id": None,
            "proceeding_kind": "consumer_insolvency" if consumer else "regular_insolvency",
            "administration_kind": "external_administration",
            "administrator_name": administrator,
            "administrator_address": office,
            "insolvency_grounds": grounds,
            "claims_filing_deadline": iso(deadline),
            "opened_at": iso(decided),
            "closed_at": None,
            "first_event_at": iso(day),
            "last_event_at": iso(day),
            "distribution_available": None,
            "distribution_claims_total": None,
            "events": [event],
            "city": details.get("city"),
            "person_id": person.id,
            "has_open_insolvency": True,
        }
        self._put_proceeding(day, proceeding)
        self._debtors[person.id.lower()] = (day, {"name": person.full_name, **details})
        detail = {"insolvency_id": proceeding["id"], "case_number": case, "court": court.name, "person_id": person.id}
        return RegisterEvent(day, "person_insolvency_opened", "", detail)

    def _follow_up(self, day: dt.date, rng: random.Random, proceeding_id: str, event_type: str) -> list[RegisterEvent]:
        """The court's decision on a petition filed since ``as_of``: the proceeding opened (the company dissolved, in
        liquidation), or the petition rejected for want of assets (dissolved too)."""
        proceeding = copy.deepcopy(self._current_proceeding(proceeding_id))
        decided = day - dt.timedelta(days=rng.randint(1, 4))
        court = next((c for c in self._courts.values() if c.name == proceeding["court"]), None)
        deadline = decided + dt.timedelta(days=rng.randint(42, 70)) if event_type == "proceedings_opened" else None
        event = _court_event(
            rng,
            event_type,
            decided,
            day,
            court,
            grounds=proceeding["insolvency_grounds"],
            administrator=proceeding["administrator_name"],
            office=proceeding["administrator_address"],
            deadline=deadline,
        )
        proceeding["events"].append(event)
        proceeding["current_status"] = STATUS_AFTER_EVENT[event_type]
        proceeding["last_event_at"] = iso(day)
        proceeding["has_open_insolvency"] = proceeding["current_status"] in OPEN_STATUSES
        if event_type == "proceedings_opened":
            proceeding["opened_at"] = iso(decided)
            proceeding["claims_filing_deadline"] = iso(deadline) if deadline else None
        else:
            proceeding["closed_at"] = iso(decided)
        self._put_proceeding(day, proceeding)
        if not proceeding.get("company_id"):  # a natural person's proceeding: no record to update
            return [RegisterEvent(day, "insolvency_opened", "", {"insolvency_id": proceeding_id})]
        record = copy.deepcopy(dict(self._current(proceeding["company_id"])))
        record["insolvencies"] = [
            summary_of(proceeding) if summary["id"] == proceeding_id else summary for summary in record["insolvencies"]
        ]
        if record["status"] == "active":
            record["status"] = "liquidation"  # opened, or rejected for want of assets: the company is dissolved
        self._put(day, record)
        kind = "insolvency_opened" if event_type == "proceedings_opened" else "insolvency_rejected"
        return [RegisterEvent(day, kind, proceeding["company_id"], {"insolvency_id": proceeding_id})]

    def _decision(self, day: dt.date, rng: random.Random, proceeding_id: str) -> list[RegisterEvent]:
        """A decision published in an open proceeding (its status stays)."""
        proceeding = copy.deepcopy(self._current_proceeding(proceeding_id))
        if proceeding["events"] and proceeding["events"][-1]["published_at"] >= iso(day):
            return []
        decided = day - dt.timedelta(days=rng.randint(1, 4))
        decided = max(decided, dt.date.fromisoformat(proceeding["events"][-1]["published_at"]))
        event = _court_event(rng, "in_proceeding_decision", decided, day)
        proceeding["events"].append(event)
        proceeding["last_event_at"] = iso(day)
        self._put_proceeding(day, proceeding)
        return [
            RegisterEvent(day, "insolvency_event", proceeding.get("company_id") or "", {"insolvency_id": proceeding_id})
        ]


# -- the changes -------------------------------------------------------------------------------------------------


def _may(kind: str, record: Mapping[str, Any], pending: set[str], grouped: set[str]) -> bool:
    """Whether an event of ``kind`` may happen to ``record`` now: an active company without insolvency
    proceedings and without a pending change, with what the kind needs."""
    if record["status"] != "active" or "insolvencies" in record or record["id"] in pending:
        return False
    form = record["legal_form"]
    current = [entry for entry in record["representation"] if entry["end_date"] is None]
    directors = [entry for entry in current if entry["role"] == "DIRECTOR" and entry["type"] == "natural_person"]
    if kind == "director_appointed":
        return form in _DIRECTED
    if kind == "director_left":
        return form in _DIRECTED and len(directors) >= 2
    if kind == "prokura_granted":
        return form in _PROKURA
    if kind == "prokura_ended":
        return any(entry["role"] == "PROKURA" for entry in current)
    if kind in {"address_changed", "seat_moved", "court_moved"}:
        return record["address"] is not None
    if kind == "name_changed":
        return form not in {"ek", "ev", "municipal"} and not record["name"]["name"].endswith(" i.L.")
    if kind == "liquidation":
        return (
            form in _DIRECTED
            and record["id"] not in grouped
            and not record["acquisitions"]
            and record["merged_into"] is None
        )
    if kind == "capital_changed":
        return form in _CAPITAL and record.get("capital") is not None
    if kind == "profit_transfer_agreement_started":
        return form in _CONTROLLED and record.get("profit_transfer_agreement") is None and not record["merged_into"]
    if kind == "profit_transfer_agreement_ended":
        return record.get("profit_transfer_agreement") is not None
    if kind == "merged_into":
        return (
            form == "gmbh"
            and record.get("profit_transfer_agreement") is None
            and not record["acquisitions"]
            and record["merged_into"] is None
        )
    if kind == "spin_off":  # a business with published accounts
        return form in _TRANSFERORS and record.get("capital") is not None and bool(record.get("indicators"))
    if kind == "shares_transferred":  # the parties are checked against the rows (Continuation._may)
        return form in _TRANSFERRING and any(d["type"] == "shareholder_list" for d in record.get("documents") or ())
    if kind == "insolvency_filed":  # a firm in distress: its last accounts show a loss, or no P&L at all
        last = (record.get("indicators") or [{}])[-1]
        distressed = last.get("net_income") is None or last["net_income"] < 0
        return distressed and record["id"] not in grouped and form not in {"ev", "municipal"}
    return True


def _appoint(self: Continuation, record: dict[str, Any], day: dt.date, rng: random.Random, role: str) -> dict:
    city = (record["address"] or {}).get("city")
    person = PersonPool(rng, self.reference).create(city=city, born_before=dt.date(day.year - 25, 1, 1))
    authority = self.reference.authority["director" if role == "DIRECTOR" else "prokura"].draw(rng)
    entry = natural_entry(person, role, day, None, authority)
    record["representation"].append(entry)
    _sort_representation(record)
    return {"person_id": person.id, "name": entry["name"], "role": role}


def _leave(record: dict[str, Any], day: dt.date, rng: random.Random, role: str) -> dict:
    current = [
        entry
        for entry in record["representation"]
        if entry["end_date"] is None and entry["role"] == role and entry["type"] == "natural_person"
    ]
    entry = current[rng.randrange(len(current))]
    entry["end_date"] = iso(day)
    return {"person_id": entry["id"], "name": entry["name"], "role": role}


def _director_appointed(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _appoint(self, record, day, rng, "DIRECTOR")


def _director_left(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _leave(record, day, rng, "DIRECTOR")


def _prokura_granted(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _appoint(self, record, day, rng, "PROKURA")


def _prokura_ended(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _leave(record, day, rng, "PROKURA")


def _moved(self: Continuation, record: dict, day: dt.date, rng: random.Random, *, same_town: bool) -> dict:
    """A new address from ``day`` on: in the same town, or (a move of the seat) in another town of the court's
    district, else of its federal state."""
    reference, town = self.reference, record["address"]["city"]
    places = reference.court_places.get(record["register"]["company_id"].split("-")[2]) or []
    if same_town:
        choices = [p for p in places if p.city == town] or list(reference.places_by_city.get(town, ()))
    else:
        code = record["register"]["company_id"].split("-")[2]
        state = next((court.state for court in reference.courts if court.code == code), "")
        choices = [p for p in places if p.city != town] or [
            p for p in reference.places_by_state.get(state, ()) if p.city != town
        ]
    if not choices:  # a town the reference lists do not know: a new street in it
        street = f"{record['address'].get('street') or 'Hauptstraße 1'} {rng.randint(1, 99)}"
        address = dict(record["address"], street=street, start_date=iso(day))
        address["formatted_value"] = ", ".join(
            str(part)
            for part in (address.get("extra"), street, f"{address.get('postal_code', '')} {town}".strip())
            if part
        )
    else:
        address = new_address(rng, choices[rng.randrange(len(choices))], day)
    record["addresses"].append(address)
    record["address"] = address
    return {"city": address["city"], "formatted_value": address["formatted_value"]}


def _address_changed(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _moved(self, record, day, rng, same_town=True)


def _seat_moved(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    return _moved(self, record, day, rng, same_town=False)


def _name_changed(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    reference, form = self.reference, record["legal_form"]
    city = (record["address"] or {}).get("city") or ""
    codes = (record.get("industry_codes") or {}).get("WZ2025") or [{"code": "70.10"}]
    old = record["name"]["name"]
    for _ in range(_TRIES):
        stem = company_stem(rng, [written(reference.last_names.draw(rng)) for _ in range(2)], city)
        name = full_name(stem, sector_word(rng, codes[0]["code"]), form)
        if name != old:
            break
    entry = {"name": name, "legal_form": form, "start_date": iso(day)}
    record["names"].append(entry)
    record["name"] = entry
    return {"before": old, "after": name}


def _liquidation(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    """The company is dissolved: its name carries ``i.L.``, the board's terms end, a liquidator (most often a
    former director) takes over; a company in liquidation publishes no contact data."""
    formers = [
        entry
        for entry in record["representation"]
        if entry["end_date"] is None and entry["type"] == "natural_person" and entry["role"] in _BOARD_ROLES
    ]
    for entry in record["representation"]:
        if entry["end_date"] is None and entry["role"] in _BOARD_ROLES and entry["type"] == "natural_person":
            entry["end_date"] = iso(day)
    authority = self.reference.authority["liquidator"].draw(rng)
    former = formers[rng.randrange(len(formers))] if formers and rng.random() < 0.7 else None
    if former is not None:
        liquidator = copy.deepcopy(former)
        liquidator.update(role="LIQUIDATOR", start_date=iso(day), end_date=None, authority=authority)
    else:
        city = (record["address"] or {}).get("city")
        person = PersonPool(rng, self.reference).create(city=city, born_before=dt.date(day.year - 25, 1, 1))
        liquidator = natural_entry(person, "LIQUIDATOR", day, None, authority)
    record["representation"].append(liquidator)
    _sort_representation(record)
    entry = {"name": record["name"]["name"] + " i.L.", "legal_form": record["legal_form"], "start_date": iso(day)}
    record["names"].append(entry)
    record["name"] = entry
    record["status"] = "liquidation"
    record["contact"] = None
    return {"liquidator_id": liquidator["id"], "liquidator": liquidator["name"]}


def _report_filed(self: Continuation, record: dict, day: dt.date, rng: random.Random, year_end: dt.date) -> dict:
    """The indicators of the fiscal year ending ``year_end``, moved on from the last published year's (the
    statements follow from them); the next filing is scheduled."""
    entry = (
        _next_year(rng, record["indicators"][-1], year_end)
        if record["indicators"]
        else _first_year(rng, record, year_end)
    )
    record["indicators"].append(entry)
    if _files(record):
        due, next_end = _filing_day(record, day)
        self._filings[due].append((record["id"], next_end))
    return {"report_id": entry["report_id"], "date": entry["date"]}


def _capital_changed(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    """A capital increase: by a tenth to twice the capital, to a round amount in euros (a capital still in marks
    is converted on the way); every holder takes part in proportion (:meth:`Continuation.nominal_share`)."""
    old = record["capital"]
    euros = old["amount"] / _DEM_PER_EUR if old.get("currency") == "DEM" else old["amount"]
    step = 1_000 if euros < 1_000_000 else 50_000
    amount = float(math.ceil(euros * rng.uniform(1.1, 2.0) / step) * step)
    entry = {"amount": amount, "currency": "EUR", "start_date": iso(day)}
    record["capitals"].append(entry)
    record["capital"] = entry
    return {
        "before": {"amount": old["amount"], "currency": old.get("currency")},
        "after": {"amount": amount, "currency": "EUR"},
    }


def _profit_transfer_agreement_started(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    """A profit and loss transfer agreement with the company's sole shareholder (the Organträger), registered
    today, agreed some weeks before (now and then the register gives no agreement date)."""
    parent = _sole_parent(record)
    assert parent is not None  # the kind's eligibility
    agreed = day - dt.timedelta(days=rng.randint(20, 120)) if rng.random() < 0.85 else None
    self._candidates["profit_transfer_agreement_ended"].add(record["id"])
    record["profit_transfer_agreement"] = {
        "company_id": parent,
        "name": self._current(parent)["name"]["name"],
        "registration_date": iso(day),
        "agreement_date": iso(agreed) if agreed else None,
    }
    return {"company_id": parent}


def _profit_transfer_agreement_ended(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    """The agreement is terminated (its end is registered today): the record no longer shows it."""
    ended = record["profit_transfer_agreement"]
    record["profit_transfer_agreement"] = None
    return {"company_id": ended["company_id"]}


def _shares_transferred(self: Continuation, record: dict, day: dt.date, rng: random.Random) -> dict:
    """A shareholder hands their whole stake on to a managing director who held none (a notarised transfer; the
    notary files a new shareholder list, § 40 (2) GmbHG): the holder's ``SHAREHOLDER`` entry and row end today,
    the director's begin today with the same share, and the list is the company's newest document."""
    rows = [dict(row) for row in self._rows_now(record["id"])]
    givers, takers = _transfer_parties(record, rows)
    giver, taker = givers[rng.randrange(len(givers))], takers[rng.randrange(len(takers))]
    today = iso(day)
    giver["end_date"] = today
    record["representation"].append(shareholder_entry(taker, today))
    _sort_representation(record)
    stakes = [row for row in rows if row.get("holder_id") == giver["id"] and row.get("end") is None]
    for stake in stakes:  # each share the holder has (most hold one), passed on as it is
        stake["end"] = today
        rows.append(
            {
                "company_id": record["id"],
                "holder_id": taker["id"],
                "holder_type": "natural_person",
                "holder_name": taker["name"],
                "holder_details": dict(taker["natural_person"]),
                "relation_type": stake["relation_type"],
                "share": stake["share"],
                "nominal_share": stake["nominal_share"],
                "start": today,
                "end": None,
            }
        )
    self._put_rows(day, record["id"], rows)
    self._stakes_taken[taker["id"]].append((day, record["id"]))
    filed: dict[str, Any] = {"id": new_uuid(rng), "type": "shareholder_list", "date": today, "latest": True}
    for document in record["documents"]:
        if document["type"] == "shareholder_list":
            document["latest"] = False
    record["documents"] = sorted([*record["documents"], filed], key=lambda d: (d["type"], d["date"]))
    self._documents[filed["id"]] = (day, record["id"], filed)
    return {
        "from_id": giver["id"],
        "from": giver["name"],
        "to_id": taker["id"],
        "to": taker["name"],
        "share": sum(float(stake["share"]) for stake in stakes),
        "document_id": filed["id"],
    }


_CHANGES: Mapping[str, Callable[[Continuation, dict, dt.date, random.Random], dict]] = {
    "director_appointed": _director_appointed,
    "director_left": _director_left,
    "prokura_granted": _prokura_granted,
    "prokura_ended": _prokura_ended,
    "address_changed": _address_changed,
    "seat_moved": _seat_moved,
    "name_changed": _name_changed,
    "liquidation": _liquidation,
    "capital_changed": _capital_changed,
    "profit_transfer_agreement_started": _profit_transfer_agreement_started,
    "profit_transfer_agreement_ended": _profit_transfer_agreement_ended,
    "shares_transferred": _shares_transferred,
}


def _on(
    versions: Sequence[tuple[dt.date, dict[str, Any] | None]] | None,
    day: dt.date,
    stored: Mapping[str, dict[str, Any]],
    key: str,
) -> dict[str, Any] | None:
    """The version in effect on ``day`` (the newest begun by then); before the first, the stored record (None for
    a record that did not exist before it)."""
    if versions:
        at = bisect.bisect_right(versions, day, key=lambda version: version[0])
        if at:
            return versions[at - 1][1]
    return stored.get(key)


def _court_event(
    rng: random.Random, event_type: str, decided: dt.date, day: dt.date, court: Any = None, **facts: Any
) -> dict[str, Any]:
    """An event of a proceeding decided on ``decided`` and published on ``day``, stating ``facts`` (the grounds,
    administrator and office, the claims deadline; none by default); an opening names its meetings at ``court``."""
    stated: dict[str, Any] = {
        "grounds": [],
        "administrator": None,
        "office": None,
        "deadline": None,
        "available": None,
        "claims": None,
    }
    stated.update(facts)
    details = event_details(event_type, decided, stated)
    if event_type == "proceedings_opened" and court is not None:
        details["meetings"] = opening_meetings(rng, court, decided)
    event = event_record(rng, event_type, decided, details, decided)
    event["published_at"] = iso(day)
    return event


# -- helpers -----------------------------------------------------------------------------------------------------


def _sort_representation(record: dict[str, Any]) -> None:
    record["representation"].sort(key=lambda entry: (entry["start_date"], entry["role"], entry["name"]))


def _poisson(rng: random.Random, mean: float) -> int:
    """A Poisson-distributed count with ``mean`` (Knuth's method: means here are a few at most)."""
    limit, count, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


def _pending_day(record: Mapping[str, Any], as_of: dt.date) -> dt.date:
    """The day a realtime record's pending change is registered: its newest date after ``as_of``."""
    dates = [
        entry["start_date"]
        for member in ("addresses", "capitals", "names", "representation")
        for entry in record.get(member) or ()
        if entry.get("start_date")
    ]
    later = [dt.date.fromisoformat(value) for value in dates if value > iso(as_of)]
    return max(later) if later else as_of + dt.timedelta(days=1)


def _links(record: Mapping[str, Any]) -> list[Any]:
    """The record's links to other companies (merged into, the profit-transfer agreement, acquisitions, spin-offs),
    the absent ones as None."""
    links = [record.get("merged_into"), record.get("profit_transfer_agreement")]
    return links + list(record.get("acquisitions") or ()) + list(record.get("asset_spin_offs") or ())


def _sole_parent(record: Mapping[str, Any]) -> str | None:
    """The id of the company of the world that is the sole current shareholder of ``record`` (from its
    ``SHAREHOLDER`` entries), or None."""
    holders = [
        entry for entry in record["representation"] if entry["role"] == "SHAREHOLDER" and entry["end_date"] is None
    ]
    if len(holders) == 1 and holders[0]["type"] == "legal_person" and holders[0].get("id"):
        return str(holders[0]["id"])
    return None


def _transfer_parties(
    record: Mapping[str, Any], rows: Iterable[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Who may hand a stake on in ``record`` and who may take it (both lists empty when nobody may): the current
    ``SHAREHOLDER`` entries of natural persons whose row is current, and the current managing directors who hold
    no stake — in a company without a corporate shareholder (as the ``holdings`` stage's transfers)."""
    current = [entry for entry in record["representation"] if entry["end_date"] is None]
    holders = [entry for entry in current if entry["role"] == "SHAREHOLDER"]
    if any(entry["type"] != "natural_person" or not entry.get("id") for entry in holders):
        return [], []
    staked = {row.get("holder_id") for row in rows if row.get("end") is None and float(row["share"]) > 0}
    givers = [entry for entry in holders if entry["id"] in staked]
    holding = {entry["id"] for entry in holders}
    takers = [
        entry
        for entry in current
        if entry["role"] == "DIRECTOR"
        and entry["type"] == "natural_person"
        and entry.get("id")
        and entry["id"] not in holding
        and entry["id"] not in staked
    ]
    return (givers, takers) if givers and takers else ([], [])


def _link_targets(record: Mapping[str, Any]) -> Iterable[str]:
    for link in _links(record):
        if link and link.get("company_id"):
            yield link["company_id"]
    for entry in record.get("representation") or ():
        if entry["type"] == "legal_person" and entry.get("id"):
            yield entry["id"]


def _rename_in(record: dict[str, Any], target_id: str, name: str) -> bool:
    """Write ``name`` wherever ``record`` names ``target_id``; whether anything changed."""
    changed = False
    for link in _links(record):
        if link and link.get("company_id") == target_id and link.get("name") != name:
            link["name"] = name
            changed = True
    for entry in record.get("representation") or ():
        if entry["type"] == "legal_person" and entry.get("id") == target_id and entry["name"] != name:
            entry["name"] = name
            if entry.get("legal_person"):
                entry["legal_person"]["name"] = name
            changed = True
    return changed


def _reid_in(record: dict[str, Any], old_id: str, new_id: str, city: str) -> bool:
    """Write ``new_id`` wherever ``record`` names ``old_id`` (a company that moved to ``city``, in another court's
    district); whether anything changed."""
    changed = False
    for link in _links(record):
        if link and link.get("company_id") == old_id:
            link["company_id"] = new_id
            changed = True
    for entry in record.get("representation") or ():
        if entry["type"] == "legal_person" and entry.get("id") == old_id:
            entry["id"] = new_id
            if entry.get("legal_person"):
                entry["legal_person"]["city"] = city
            changed = True
    return changed


def _files(record: Mapping[str, Any]) -> bool:
    """Whether the company files annual reports on: an active filer with reports and no insolvency."""
    return (
        record["status"] == "active"
        and record["legal_form"] in _FILERS
        and bool(record.get("indicators"))
        and "insolvencies" not in record
    )


#: The share of a filer's fiscal years whose report is published (the rest are not filed: the register's
#: Bundesanzeiger volume, about 2,000 publications a day for 2.3 million companies, is about a third of the
#: companies a year).
_PUBLISHED_YEARS = 0.45


def _filing_day(record: Mapping[str, Any], after: dt.date) -> tuple[dt.date, dt.date]:
    """The next report the company files after ``after``: ``(day, fiscal year end)``. It files a fiscal year's
    report 3 to 12 months after the year ends (its own lag); some years' reports it does not file
    (:data:`_PUBLISHED_YEARS`); a report overdue on ``after`` is filed within the next 180 days."""
    key = record["id"].encode()
    lag = dt.timedelta(days=90 + zlib.crc32(key) % 270)
    year_end = _plus_years(dt.date.fromisoformat(record["indicators"][-1]["date"]), 1)
    while zlib.crc32(key + str(year_end.year).encode()) % 100 >= _PUBLISHED_YEARS * 100:
        year_end = _plus_years(year_end, 1)
    due = year_end + lag
    if due <= after:
        due = after + dt.timedelta(days=1 + zlib.crc32(key[::-1]) % 180)
    return due, year_end


def _plus_years(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def _first_year(rng: random.Random, record: Mapping[str, Any], year_end: dt.date) -> dict[str, Any]:
    """The indicators of a new company's first (short) fiscal year ending ``year_end``: a small firm's balance
    sheet (:func:`~.financials.indicator_series`), scaled to a young company's — a total of two to five times its
    capital, at least some 20,000 EUR; equity and liabilities add up to the total, to the cent."""
    published = _plus_years(year_end, 1) + dt.timedelta(days=1)  # the series leaves out years not yet published
    [entry] = indicator_series(rng, record["legal_form"], year_end.year, year_end.year, "small", None, published)
    capital = (record.get("capital") or {}).get("amount") or 0
    target = max(float(capital) * 100 * rng.uniform(2, 5), rng.uniform(2_000_000, 8_000_000))
    scale = target / entry["balance_sheet_total"]
    for name, value in entry.items():
        if name not in {"date", "report_id", "employees"} and isinstance(value, int | float):
            entry[name] = int(round(value * scale))
    entry.update(date=iso(year_end), report_id=new_uuid(rng))
    entry["liabilities"] = entry["balance_sheet_total"] - entry["equity"]
    return entry


def _next_year(rng: random.Random, last: Mapping[str, Any], year_end: dt.date) -> dict[str, Any]:
    """The indicators of the fiscal year ending ``year_end``, after ``last``: the balance sheet grows a few
    percent a year, the ratios move a little; what ``last`` left out (a small firm's P&L) stays out; equity and
    liabilities add up to the total, to the cent."""
    years = max(1, year_end.year - dt.date.fromisoformat(last["date"]).year)
    growth = (1 + rng.gauss(0.03, 0.07)) ** years
    entry: dict[str, Any] = {"date": iso(year_end)}
    entry["report_id"] = new_uuid(rng)
    for name, value in last.items():
        if name in {"date", "report_id"}:
            continue
        if value is None or name == "employees":
            entry[name] = value if name != "employees" or value is None else max(1, round(value * growth))
        else:
            entry[name] = int(round(value * growth * (1 + rng.gauss(0, 0.03))))
    total, equity = entry.get("balance_sheet_total"), entry.get("equity")
    if total is not None and equity is not None:
        if total <= 0:
            total = entry["balance_sheet_total"] = abs(total) or 100
        entry["liabilities"] = total - equity
    return entry
