"""What changed between two answers about one entity: typed changes, the taxonomy of ``changes-and-webhooks``.

One function, :func:`diff_answers`, turns two answers of one operation of the interface (``get_company``,
``get_financials``, ``get_owners``, ...) about the same entity into a list of **changes**, each a dict

=========  ==========================================================================================
category   one of :data:`CATEGORIES` (a monitor's preference: ``basic``, ``representation``, ...)
kind       one of :data:`KINDS` of the category (``name_changed``, ``representative_left``, ...)
date       the register's date of the fact (``YYYY-MM-DD``), ``None`` when the answer gives none
field      the member of the answer that changed (``name``, ``address``, ``representation``, ...)
before     the value before: a string or a number, ``None`` where there was none
after      the value after, likewise
detail     an object with what else identifies the change (a person's id and name, a document's type, ...)
=========  ==========================================================================================

The local register makes its monitors' webhook events with it and the client diffs stored versions with it
(:func:`regkit.frames.changes` is its frame), so an event and a diff cannot disagree.

What is not a change: a presigned URL (``sources``), an expiry, a retrieval time, the order of lists whose order
means nothing (representatives, documents, owners, holdings, reports), and a member one of the two answers does
not carry at all (an answer fetched with fewer members, e.g. without ``export=true``): such a member is not
compared. A person without an id is matched across the two answers by the one identity rule
(:func:`regkit.schema.identity.person_key`).

Changes come in a fixed order — by category (the order of :data:`CATEGORIES`), then as the answer's members are
listed here, then by date and identity — so the same two answers give the same list, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from .identity import person_key
from .interface import PREFERENCES

__all__ = ["CATEGORIES", "KINDS", "CHANGE_MEMBERS", "DIFFERS", "diff_answers", "kind_category"]

#: The categories of change: a monitor's preferences (:data:`regkit.schema.interface.PREFERENCES`), in the order
#: changes are listed.
CATEGORIES = PREFERENCES

#: The kinds of change of each category (``changes-and-webhooks``, "A change").
KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "basic": (
            "name_changed",
            "legal_form_changed",
            "address_changed",
            "seat_moved",
            "register_changed",
            "purpose_changed",
            "capital_changed",
            "status_changed",
            "terminated",
            "merged_into",
            "acquisition",
            "spin_off",
            "profit_transfer_agreement_started",
            "profit_transfer_agreement_ended",
            "industry_changed",
            "contact_changed",
        ),
        "representation": (
            "representative_appointed",
            "representative_left",
            "role_changed",
            "authority_changed",
            "representation_rule_changed",
        ),
        "financials": ("report_filed", "report_corrected"),
        "documents": ("document_filed", "document_superseded"),
        "ownership": (
            "shareholder_list_filed",
            "owner_added",
            "owner_removed",
            "share_changed",
            "beneficial_owner_changed",
        ),
        "holdings": ("holding_added", "holding_removed", "holding_share_changed"),
        "insolvencies": ("insolvency_opened", "insolvency_status_changed", "insolvency_event"),
        "management_positions": ("position_started", "position_ended"),
    }
)

#: The members of a change, in order (the columns of :func:`regkit.frames.changes`).
CHANGE_MEMBERS = ("category", "kind", "date", "field", "before", "after", "detail")

Change = dict[str, Any]
Answer = Mapping[str, Any]


def kind_category(kind: str) -> str:
    """The category of a kind of change.

    Examples
    --------
    >>> kind_category("representative_left")
    'representation'
    """
    for category, kinds in KINDS.items():
        if kind in kinds:
            return category
    raise ValueError(f"unknown kind of change {kind!r}: one of regkit.schema.changes.KINDS")


def _change(kind: str, field: str, before: Any, after: Any, date: Any = None, **detail: Any) -> Change:
    return {
        "category": kind_category(kind),
        "kind": kind,
        "date": date if isinstance(date, str) and date else None,
        "field": field,
        "before": before,
        "after": after,
        "detail": {k: v for k, v in detail.items() if v is not None},
    }


def _both(before: Answer, after: Answer, member: str) -> bool:
    """Whether both answers carry ``member`` (a member one of them lacks is not compared)."""
    return member in before and member in after


def _get(value: Any, *path: str) -> Any:
    for step in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(step)
    return value


def _rows(value: Any) -> list[Mapping[str, Any]]:
    return [row for row in value or () if isinstance(row, Mapping)] if isinstance(value, list) else []


# -- the company record (get_company): basic, representation, documents, insolvencies ----------------------------


def _name_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "name"):
        was, now = _get(before, "name", "name"), _get(after, "name", "name")
        if was != now:
            yield _change("name_changed", "name", was, now, _get(after, "name", "start_date"))
    if _both(before, after, "legal_form") and before.get("legal_form") != after.get("legal_form"):
        yield _change(
            "legal_form_changed",
            "legal_form",
            before.get("legal_form"),
            after.get("legal_form"),
            _get(after, "name", "start_date"),
        )


def _address_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if not _both(before, after, "address"):
        return
    was, now = before.get("address") or {}, after.get("address") or {}
    keys = ("street", "postal_code", "city", "country")
    if tuple(_get(was, k) for k in keys) == tuple(_get(now, k) for k in keys):
        return
    moved = _get(was, "city") != _get(now, "city")
    yield _change(
        "seat_moved" if moved else "address_changed",
        "address",
        _get(was, "formatted_value"),
        _get(now, "formatted_value"),
        _get(now, "start_date"),
        city_before=_get(was, "city") if moved else None,
        city_after=_get(now, "city") if moved else None,
    )


def _register_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if not _both(before, after, "register"):
        return
    was, now = before.get("register") or {}, after.get("register") or {}
    keys = ("company_id", "register_court", "register_type", "register_number")
    if tuple(_get(was, k) for k in keys) != tuple(_get(now, k) for k in keys):
        yield _change(
            "register_changed",
            "register",
            _get(was, "company_id"),
            _get(now, "company_id"),
            _get(now, "start_date"),
            court_before=_get(was, "register_court"),
            court_after=_get(now, "register_court"),
        )


def _purpose_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "purpose"):
        was, now = _get(before, "purpose", "purpose"), _get(after, "purpose", "purpose")
        if was != now:
            yield _change("purpose_changed", "purpose", was, now, _get(after, "purpose", "start_date"))


def _capital_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if not _both(before, after, "capital"):
        return
    was, now = before.get("capital") or {}, after.get("capital") or {}
    if (_get(was, "amount"), _get(was, "currency")) != (_get(now, "amount"), _get(now, "currency")):
        yield _change(
            "capital_changed",
            "capital",
            _get(was, "amount"),
            _get(now, "amount"),
            _get(now, "start_date"),
            currency_before=_get(was, "currency"),
            currency_after=_get(now, "currency"),
        )


def _status_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "status") and before.get("status") != after.get("status"):
        yield _change("status_changed", "status", before.get("status"), after.get("status"), after.get("terminated_at"))
    if _both(before, after, "terminated_at") and before.get("terminated_at") != after.get("terminated_at"):
        if after.get("terminated_at"):
            yield _change(
                "terminated",
                "terminated_at",
                before.get("terminated_at"),
                after["terminated_at"],
                after["terminated_at"],
            )


def _link(row: Any) -> dict[str, Any]:
    return {"name": _get(row, "name"), "agreement_date": _get(row, "agreement_date")}


def _link_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "merged_into"):
        was, now = before.get("merged_into"), after.get("merged_into")
        if _get(was, "company_id") != _get(now, "company_id") and now:
            yield _change(
                "merged_into",
                "merged_into",
                _get(was, "company_id"),
                _get(now, "company_id"),
                _get(now, "registration_date"),
                **_link(now),
            )
    for member, kind in (("acquisitions", "acquisition"), ("asset_spin_offs", "spin_off")):
        if not _both(before, after, member):
            continue
        known = {_get(row, "company_id") for row in _rows(before.get(member))}
        for row in sorted(_rows(after.get(member)), key=lambda row: str(_get(row, "company_id"))):
            if _get(row, "company_id") not in known:
                yield _change(kind, member, None, _get(row, "company_id"), _get(row, "registration_date"), **_link(row))
    if _both(before, after, "profit_transfer_agreement"):
        was, now = before.get("profit_transfer_agreement"), after.get("profit_transfer_agreement")
        if _get(was, "company_id") != _get(now, "company_id"):
            if was:
                yield _change(
                    "profit_transfer_agreement_ended",
                    "profit_transfer_agreement",
                    _get(was, "company_id"),
                    None,
                    None,
                    **_link(was),
                )
            if now:
                yield _change(
                    "profit_transfer_agreement_started",
                    "profit_transfer_agreement",
                    None,
                    _get(now, "company_id"),
                    _get(now, "registration_date"),
                    **_link(now),
                )


def _codes(value: Any) -> str | None:
    """Industry codes as one comparable text (``WZ2025:56.11.5``), scheme by scheme, codes sorted."""
    if not isinstance(value, Mapping):
        return None
    parts = [
        f"{scheme}:{code}"
        for scheme in sorted(value)
        for code in sorted(str(_get(row, "code")) for row in _rows(value.get(scheme)))
    ]
    return ", ".join(parts) or None


def _industry_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "industry_codes"):
        was, now = _codes(before.get("industry_codes")), _codes(after.get("industry_codes"))
        if was != now:
            yield _change("industry_changed", "industry_codes", was, now)


def _contact_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if not _both(before, after, "contact"):
        return
    was, now = before.get("contact") or {}, after.get("contact") or {}
    for member in sorted(set(was) | set(now)):
        old, new = was.get(member), now.get(member)
        if isinstance(old, Mapping) or isinstance(new, Mapping):  # social media: one change per network
            for network in sorted(set(old or {}) | set(new or {})):
                if _get(old, network) != _get(new, network):
                    yield _change(
                        "contact_changed", f"contact.{member}.{network}", _get(old, network), _get(new, network)
                    )
        elif old != new:
            yield _change("contact_changed", f"contact.{member}", old, new)


def _representative(row: Mapping[str, Any], company_id: str) -> tuple[str, dict[str, Any]]:
    return person_key(row, company_id), {"person_id": row.get("id"), "name": row.get("name"), "role": row.get("role")}


def _representation_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if _both(before, after, "representation"):
        company_id = str(after.get("id") or before.get("id") or "")

        def entries(answer: Answer) -> dict[tuple[str, str, str], Mapping[str, Any]]:
            return {
                (person_key(row, company_id), str(row.get("role")), str(row.get("start_date"))): row
                for row in _rows(answer.get("representation"))
            }

        was, now = entries(before), entries(after)
        # an entry whose role alone differs (same person, same start) is a role change, not a departure and an arrival
        moved_roles = {}
        for key in now:
            if key not in was:
                match = [k for k in was if k not in now and (k[0], k[2]) == (key[0], key[2])]
                if len(match) == 1:
                    moved_roles[key] = match[0]
        for key in sorted(was.keys() | now.keys()):
            old, new = was.get(key), now.get(key)
            if new is not None and key in moved_roles:
                old_row = was[moved_roles[key]]
                _, detail = _representative(new, company_id)
                yield _change("role_changed", "representation", old_row.get("role"), new.get("role"), None, **detail)
                continue
            if old is not None and key in moved_roles.values():
                continue
            if old is None and new is not None:
                _, detail = _representative(new, company_id)
                yield _change(
                    "representative_appointed", "representation", None, new.get("role"), new.get("start_date"), **detail
                )
                if new.get("end_date"):
                    yield _change(
                        "representative_left", "representation", new.get("role"), None, new.get("end_date"), **detail
                    )
            elif new is None and old is not None:
                _, detail = _representative(old, company_id)
                if not old.get("end_date"):  # gone from the list without an end date: left, on a day not given
                    yield _change("representative_left", "representation", old.get("role"), None, None, **detail)
            elif old is not None and new is not None:
                _, detail = _representative(new, company_id)
                if old.get("end_date") != new.get("end_date") and new.get("end_date"):
                    yield _change(
                        "representative_left", "representation", new.get("role"), None, new.get("end_date"), **detail
                    )
                if old.get("authority") != new.get("authority"):
                    yield _change(
                        "authority_changed", "representation", old.get("authority"), new.get("authority"), **detail
                    )
    if _both(before, after, "representation_rule") and before.get("representation_rule") != after.get(
        "representation_rule"
    ):
        yield _change(
            "representation_rule_changed",
            "representation_rule",
            before.get("representation_rule"),
            after.get("representation_rule"),
        )


def _document_changes(before: Answer, after: Answer) -> Iterator[Change]:
    if not _both(before, after, "documents"):
        return
    was = {row.get("id"): row for row in _rows(before.get("documents"))}
    for row in sorted(_rows(after.get("documents")), key=lambda row: (str(row.get("date")), str(row.get("id")))):
        old = was.get(row.get("id"))
        detail = {"document_id": row.get("id"), "type": row.get("type")}
        if old is None:
            yield _change("document_filed", "documents", None, row.get("id"), row.get("date"), **detail)
        elif old.get("latest") and row.get("latest") is False:
            yield _change("document_superseded", "documents", row.get("id"), None, row.get("date"), **detail)


def _insolvency_summary_changes(before: Answer, after: Answer) -> Iterator[Change]:
    # A company record carries ``insolvencies`` only when it has proceedings: an answer without the member, of a
    # company that has them now, had none (the first proceeding is the change that matters most).
    if "insolvencies" not in after or not ("insolvencies" in before or "id" in before):
        return
    was = {row.get("id"): row for row in _rows(before.get("insolvencies"))}
    for row in sorted(
        _rows(after.get("insolvencies")), key=lambda row: (str(row.get("opened_at")), str(row.get("id")))
    ):
        old = was.get(row.get("id"))
        detail = {"insolvency_id": row.get("id"), "court": row.get("court"), "case_number": row.get("case_number")}
        if old is None:
            yield _change(
                "insolvency_opened", "insolvencies", None, row.get("current_status"), row.get("opened_at"), **detail
            )
        elif old.get("current_status") != row.get("current_status"):
            yield _change(
                "insolvency_status_changed",
                "insolvencies",
                old.get("current_status"),
                row.get("current_status"),
                row.get("closed_at"),
                **detail,
            )


_COMPANY: tuple[Callable[[Answer, Answer], Iterable[Change]], ...] = (
    _name_changes,
    _address_changes,
    _register_changes,
    _purpose_changes,
    _capital_changes,
    _status_changes,
    _link_changes,
    _industry_changes,
    _contact_changes,
    _representation_changes,
    _document_changes,
    _insolvency_summary_changes,
)


def _company_changes(before: Answer, after: Answer) -> list[Change]:
    return [change for differ in _COMPANY for change in differ(before, after)]


# -- financials (get_financials) ----------------------------------------------------------------------------------


def _unsigned(report: Mapping[str, Any]) -> dict[str, Any]:
    """A report without its ``sources`` (presigned URLs, newly signed on every answer: not a change)."""
    return {member: value for member, value in report.items() if member != "sources"}


def _financials_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "reports"):
        return []
    was = {row.get("report_id"): row for row in _rows(before.get("reports"))}
    found = []
    for row in sorted(
        _rows(after.get("reports")), key=lambda r: (str(r.get("report_end_date")), str(r.get("report_id")))
    ):
        old = was.get(row.get("report_id"))
        detail = {
            "report_id": row.get("report_id"),
            "report_end_date": row.get("report_end_date"),
            "consolidated": row.get("consolidated"),
        }
        if old is None:
            found.append(
                _change("report_filed", "reports", None, row.get("report_id"), row.get("report_end_date"), **detail)
            )
        elif _unsigned(old) != _unsigned(row):
            found.append(
                _change("report_corrected", "reports", row.get("report_id"), row.get("report_id"), None, **detail)
            )
    return found


# -- ownership: owners, beneficial owners, the shareholder lists (get_owners, get_ubos, get_historical_owners) ------


def _owner_key(row: Mapping[str, Any], company_id: str) -> str:
    return person_key(row, company_id)


def _share(row: Mapping[str, Any] | None, member: str = "percentage_share") -> Any:
    return None if row is None else row.get(member)


def _owners_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "owners"):
        return []
    company_id = str(after.get("company_id") or before.get("company_id") or "")
    was = {_owner_key(row, company_id): row for row in _rows(before.get("owners"))}
    now = {_owner_key(row, company_id): row for row in _rows(after.get("owners"))}
    found = []
    for key in sorted(was.keys() | now.keys()):
        old, new = was.get(key), now.get(key)
        row = new if new is not None else old
        assert row is not None
        detail = {"owner_id": row.get("id"), "name": row.get("name"), "relation_type": row.get("relation_type")}
        if old is None:
            found.append(_change("owner_added", "owners", None, _share(new), _get(new, "start"), **detail))
        elif new is None:
            found.append(_change("owner_removed", "owners", _share(old), None, _get(old, "end"), **detail))
        elif _share(old) != _share(new) or _share(old, "nominal_share") != _share(new, "nominal_share"):
            found.append(_change("share_changed", "owners", _share(old), _share(new), _get(new, "start"), **detail))
    return found


def _ubo_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "ubos"):
        return []
    company_id = str(after.get("company_id") or before.get("company_id") or "")
    was = {person_key(row, company_id): row for row in _rows(before.get("ubos"))}
    now = {person_key(row, company_id): row for row in _rows(after.get("ubos"))}
    found = []
    for key in sorted(was.keys() | now.keys()):
        old, new = was.get(key), now.get(key)
        if old is not None and new is not None and _share(old) == _share(new):
            if _share(old, "max_percentage_share") == _share(new, "max_percentage_share"):
                continue
        row = new if new is not None else old
        assert row is not None
        found.append(
            _change(
                "beneficial_owner_changed",
                "ubos",
                None if old is None else (_share(old) if _share(old) is not None else row.get("name")),
                None if new is None else (_share(new) if _share(new) is not None else row.get("name")),
                None,
                person_id=row.get("id"),
                name=row.get("name"),
                change="added" if old is None else "removed" if new is None else "share",
            )
        )
    return found


def _historical_owners_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "owners"):
        return []
    lists_before = {
        entry.get("document_id")
        for owner in _rows(before.get("owners"))
        for entry in _rows(owner.get("ownership_history"))
    }
    lists_after: dict[Any, Any] = {}
    for owner in _rows(after.get("owners")):
        for entry in _rows(owner.get("ownership_history")):
            lists_after.setdefault(entry.get("document_id"), entry.get("document_date"))
    return [
        _change("shareholder_list_filed", "owners.ownership_history", None, document_id, day, document_id=document_id)
        for document_id, day in sorted(lists_after.items(), key=lambda item: (str(item[1]), str(item[0])))
        if document_id not in lists_before
    ]


# -- holdings (get_holdings, get_person_holdings) -----------------------------------------------------------------


def _holdings_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "holdings"):
        return []

    def current(answer: Answer) -> dict[Any, Mapping[str, Any]]:  # an ended holding is one no longer held
        return {row.get("company_id"): row for row in _rows(answer.get("holdings")) if not row.get("end")}

    was, now = current(before), current(after)
    ended = {row.get("company_id"): row.get("end") for row in _rows(after.get("holdings")) if row.get("end")}
    found = []
    for key in sorted(was.keys() | now.keys(), key=str):
        old, new = was.get(key), now.get(key)
        row = new if new is not None else old
        assert row is not None
        detail = {"company_id": key, "name": row.get("name"), "relation_type": row.get("relation_type")}
        if old is None:
            found.append(_change("holding_added", "holdings", None, _share(new), _get(new, "start"), **detail))
        elif new is None:
            found.append(_change("holding_removed", "holdings", _share(old), None, ended.get(key), **detail))
        elif _share(old) != _share(new) or _share(old, "nominal_share") != _share(new, "nominal_share"):
            found.append(
                _change("holding_share_changed", "holdings", _share(old), _share(new), _get(new, "start"), **detail)
            )
    return found


# -- a person (get_person): management positions ------------------------------------------------------------------


def _person_changes(before: Answer, after: Answer) -> list[Change]:
    if not _both(before, after, "management_positions"):
        return []

    def positions(answer: Answer) -> dict[tuple[str, str, str], Mapping[str, Any]]:
        return {
            (str(row.get("register_id")), str(row.get("role")), str(row.get("start_date"))): row
            for row in _rows(answer.get("management_positions"))
        }

    was, now = positions(before), positions(after)
    found = []
    for key in sorted(was.keys() | now.keys()):
        old, new = was.get(key), now.get(key)
        row = new if new is not None else old
        assert row is not None
        detail = {
            "company_id": row.get("register_id"),
            "company_name": row.get("company_name"),
            "role": row.get("role"),
        }
        if old is None:
            found.append(
                _change(
                    "position_started", "management_positions", None, row.get("role"), row.get("start_date"), **detail
                )
            )
            if row.get("end_date"):
                found.append(
                    _change(
                        "position_ended", "management_positions", row.get("role"), None, row.get("end_date"), **detail
                    )
                )
        elif new is None:
            if not old.get("end_date"):
                found.append(_change("position_ended", "management_positions", old.get("role"), None, None, **detail))
        elif new.get("end_date") and old.get("end_date") != new.get("end_date"):
            found.append(
                _change("position_ended", "management_positions", new.get("role"), None, new.get("end_date"), **detail)
            )
    return found


# -- an insolvency proceeding (get_insolvency) --------------------------------------------------------------------


def _insolvency_changes(before: Answer, after: Answer) -> list[Change]:
    found = []
    detail = {"insolvency_id": after.get("id"), "court": after.get("court"), "case_number": after.get("case_number")}
    if _both(before, after, "current_status") and before.get("current_status") != after.get("current_status"):
        found.append(
            _change(
                "insolvency_status_changed",
                "current_status",
                before.get("current_status"),
                after.get("current_status"),
                after.get("closed_at") or after.get("last_event_at"),
                **detail,
            )
        )
    if _both(before, after, "events"):
        known = {row.get("id") for row in _rows(before.get("events"))}
        for row in sorted(_rows(after.get("events")), key=lambda r: (str(r.get("published_at")), str(r.get("id")))):
            if row.get("id") not in known:
                found.append(
                    _change(
                        "insolvency_event",
                        "events",
                        None,
                        row.get("event_type"),
                        row.get("published_at"),
                        event_id=row.get("id"),
                        report_type=row.get("report_type"),
                        **detail,
                    )
                )
    return found


#: The function that diffs two answers of each operation (its ``operationId`` in the endpoint table).
DIFFERS: Mapping[str, Callable[[Answer, Answer], list[Change]]] = MappingProxyType(
    {
        "get_company": _company_changes,
        "get_financials": _financials_changes,
        "get_owners": _owners_changes,
        "get_ubos": _ubo_changes,
        "get_historical_owners": _historical_owners_changes,
        "get_holdings": _holdings_changes,
        "get_person": _person_changes,
        "get_person_holdings": _holdings_changes,
        "get_insolvency": _insolvency_changes,
    }
)


def diff_answers(
    operation_id: str, before: Answer, after: Answer, categories: Iterable[str] | None = None
) -> list[Change]:
    """The changes from ``before`` to ``after``, two answers of ``operation_id`` about one entity.

    Parameters
    ----------
    operation_id : str
        The operation both answered, one of :data:`DIFFERS` (``"get_company"``, ``"get_owners"``, ...).
    before, after : mapping
        The older and the newer answer, as the interface sends them (JSON objects).
    categories : iterable of str, optional
        Keep only changes of these categories (a monitor's preferences); all by default.

    Returns
    -------
    list of dict
        One dict per change, with the members :data:`CHANGE_MEMBERS` (see the module), in a fixed order. Empty
        when nothing changed — also for two answers that differ only in what is not a change.

    Raises
    ------
    ValueError
        For an operation without a differ, an unknown category, or an answer that is not a JSON object.

    Examples
    --------
    >>> before = {"id": "DE-HRB-B1234-1", "name": {"name": "Alpha GmbH", "start_date": "2001-02-03"}}
    >>> after = {"id": "DE-HRB-B1234-1", "name": {"name": "Beta GmbH", "start_date": "2026-12-01"}}
    >>> diff_answers("get_company", before, after)
    [{'category': 'basic', 'kind': 'name_changed', 'date': '2026-12-01', 'field': 'name', 'before': 'Alpha GmbH', \
'after': 'Beta GmbH', 'detail': {}}]
    """
    differ = DIFFERS.get(operation_id)
    if differ is None:
        raise ValueError(f"no changes are defined for {operation_id!r}: one of {', '.join(DIFFERS)}")
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        raise ValueError("before and after must be answers of the interface (JSON objects)")
    wanted = CATEGORIES if categories is None else tuple(categories)
    unknown = sorted(set(wanted) - set(CATEGORIES))
    if unknown:
        raise ValueError(f"unknown categories {unknown}: use {', '.join(CATEGORIES)}")
    found = [change for change in differ(before, after) if change["category"] in wanted]
    return sorted(found, key=lambda change: CATEGORIES.index(change["category"]))  # stable: members' order kept
