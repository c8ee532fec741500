"""Compact answers for an agent: the interface's JSON answers cut to what a question needs.

An agent's context is small. Each function here takes an answer as the interface sends it (a ``.raw`` of regkit's
records) and gives a short, stable dict: a summary first, long lists paged (``page``, ``pages``, ``total``), dates
ISO (``YYYY-MM-DD``), money as text with its currency (``"25,000 EUR"``; the financial indicators, integer cents
in the interface, in whole euros), shares in percent on one scale (``"33.33 %"``: the interface's owners give
percent, its holdings a fraction). Keys with nothing to say (``None``, empty lists) are left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "PER_PAGE",
    "compact",
    "cut",
    "missing",
    "company_profile",
    "company_results",
    "document_list",
    "financial_indicators",
    "financial_statement",
    "history",
    "holdings",
    "insolvency",
    "insolvency_results",
    "money",
    "owners",
    "ownership_history",
    "page_of",
    "percent",
    "person",
    "person_results",
    "ubos",
    "HISTORIES",
]

#: List entries per page unless a tool is told otherwise.
PER_PAGE = 20

#: The histories a company record keeps, by the name a tool takes.
HISTORIES = ("names", "addresses", "registers", "capitals", "purposes", "representation")

#: The financial indicators shown per fiscal year (of the interface's 48), in this order.
_INDICATORS = (
    "revenue",
    "net_income",
    "ebit",
    "equity",
    "liabilities",
    "balance_sheet_total",
    "cash",
    "employees",
)

#: Characters of a purpose (or other long text) shown before it is cut.
_TEXT = 300


def compact(value: Any) -> Any:
    """``value`` without ``None`` members and empty lists or dicts (recursively)."""
    if isinstance(value, Mapping):
        kept = {key: compact(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item is not None and item != [] and item != {}}
    if isinstance(value, list):
        return [compact(item) for item in value]
    return value


def missing(value: Any) -> bool:
    """Whether ``value`` is no value: None, NaN, NaT or pandas' NA."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:  # pandas.NA: its comparisons are NA, which has no truth value
        return True


def money(amount: Any, currency: str | None = "EUR") -> str | None:
    """``"25,000 EUR"`` (cents kept when there are any: ``"12,500.50 EUR"``); None for no amount."""
    if amount is None or (isinstance(amount, float) and math.isnan(amount)):
        return None
    value = float(amount)
    text = f"{value:,.0f}" if value == round(value) else f"{value:,.2f}"
    return f"{text} {currency or 'EUR'}"


def _euros(cents: Any) -> str | None:
    return None if cents is None else money(round(int(cents) / 100))


def percent(value: Any, *, fraction: bool = False) -> str | None:
    """``"33.33 %"`` from percent (or, with ``fraction``, from a fraction such as 0.3333)."""
    if value is None:
        return None
    number = float(value) * (100 if fraction else 1)
    return f"{number:.2f}".rstrip("0").rstrip(".") + " %"


def page_of(items: Sequence[Any], page: int, per_page: int = PER_PAGE) -> dict[str, Any]:
    """``{"total", "page", "pages", "items"}`` of page ``page`` (from 1) of ``items``."""
    pages = max(1, math.ceil(len(items) / per_page))
    start = (page - 1) * per_page
    return {"total": len(items), "page": page, "pages": pages, "items": list(items[start : start + per_page])}


def cut(text: Any, limit: int = _TEXT) -> str | None:
    """``text`` as a string of at most ``limit`` characters (cut with "…"); None for no text."""
    if missing(text) or text == "":
        return None
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _register(register: Mapping[str, Any] | None) -> str | None:
    if not register:
        return None
    return f"{register.get('register_type', '')} {register.get('register_number', '')}, {register.get('register_court', '')}"


def _capital(capital: Mapping[str, Any] | None) -> str | None:
    return None if not capital else money(capital.get("amount"), capital.get("currency"))


def _person_or_company(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "name": entry.get("name"),
        "id": entry.get("id"),
        "role": entry.get("role"),
        "since": entry.get("start_date"),
        "until": entry.get("end_date"),
        "kind": "company" if entry.get("type") == "legal_person" else "person",
    }


def _link(link: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not link:
        return None
    return {"company_id": link.get("company_id"), "name": link.get("name"), "registered": link.get("registration_date")}


def company_profile(record: Mapping[str, Any]) -> dict[str, Any]:
    """A company at a glance: who it is, its register, seat, capital, board and owners as the record lists them,
    its links to other companies, its latest indicators, its proceedings, and how long each history is."""
    current = [entry for entry in record.get("representation") or () if entry.get("end_date") is None]
    indicators = sorted(record.get("indicators") or (), key=lambda entry: str(entry.get("date")))
    latest = indicators[-1] if indicators else None
    links = {
        "merged_into": _link(record.get("merged_into")),
        "profit_transfer_agreement_with": _link(record.get("profit_transfer_agreement")),
        "acquisitions": [_link(link) for link in record.get("acquisitions") or ()],
        "spin_offs": [_link(link) for link in record.get("asset_spin_offs") or ()],
    }
    return compact(
        {
            "id": record.get("id"),
            "name": (record.get("name") or {}).get("name"),
            "legal_form": record.get("legal_form"),
            "status": record.get("status"),
            "register": _register(record.get("register")),
            "address": (record.get("address") or {}).get("formatted_value"),
            "incorporated_at": record.get("incorporated_at"),
            "terminated_at": record.get("terminated_at"),
            "capital": _capital(record.get("capital")),
            "purpose": cut((record.get("purpose") or {}).get("purpose")),
            "representatives_now": [_person_or_company(entry) for entry in current],
            "links": links,
            "latest_indicators": None if latest is None else _indicator_row(latest),
            "insolvencies": [
                {
                    "id": summary.get("id"),
                    "status": summary.get("current_status"),
                    "court": summary.get("court"),
                    "case_number": summary.get("case_number"),
                }
                for summary in record.get("insolvencies") or ()
            ],
            "documents": len(record.get("documents") or ()),
            "history_lengths": {name: len(record.get(name) or ()) for name in HISTORIES},
        }
    )


def history(record: Mapping[str, Any], field: str, page: int, per_page: int) -> dict[str, Any]:
    """One history of a company record (``field`` of :data:`HISTORIES`), newest first, paged."""
    entries = list(record.get(field) or ())
    if field == "representation":  # those in office first (the latest appointed first), then by when they left
        rows = [_person_or_company(entry) for entry in entries]
        current = sorted((r for r in rows if r["until"] is None), key=lambda r: str(r["since"]), reverse=True)
        former = sorted((r for r in rows if r["until"] is not None), key=lambda r: str(r["until"]), reverse=True)
        rows = current + former
    else:
        rows = [_history_row(field, entry) for entry in reversed(entries)]
    return compact({"company_id": record.get("id"), "history": field, **page_of(rows, page, per_page)})


def _history_row(field: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    since = entry.get("start_date")
    if field == "names":
        return {"name": entry.get("name"), "legal_form": entry.get("legal_form"), "since": since}
    if field == "addresses":
        return {"address": entry.get("formatted_value"), "since": since}
    if field == "registers":
        return {"register": _register(entry), "company_id": entry.get("company_id"), "since": since}
    if field == "capitals":
        return {"capital": _capital(entry), "since": since}
    return {"purpose": cut(entry.get("purpose")), "since": since}


def _indicator_row(entry: Mapping[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {"fiscal_year_end": entry.get("date")}
    for name in _INDICATORS:
        value = entry.get(name)
        row[name] = value if name == "employees" else _euros(value)
    return row


def financial_indicators(answer: Mapping[str, Any], years: int) -> dict[str, Any]:
    """The company's own reports' main indicators for the latest ``years`` fiscal years (EUR), newest first."""
    rows = sorted(answer.get("indicators") or (), key=lambda entry: str(entry.get("date")), reverse=True)
    return compact(
        {
            "fiscal_years": len(rows),
            "liabilities_are": "all of passiva but equity (provisions included)",
            "indicators": [_indicator_row(row) for row in rows[:years]],
        }
    )


def financial_statement(answer: Mapping[str, Any], year: int | None, depth: int) -> dict[str, Any]:
    """One filed report (the latest, or the one whose fiscal year ends in ``year``): its balance sheet and P&L
    rows down to ``depth`` levels, amounts in EUR, this year's and the year before's."""
    own = [report for report in answer.get("reports") or () if not report.get("consolidated")]
    if year is not None:
        own = [report for report in own if str(report.get("report_end_date", ""))[:4] == str(year)]
    if not own:
        years = sorted({str(r.get("report_end_date", ""))[:4] for r in answer.get("reports") or ()})
        return {"report": None, "years_filed": years}
    report = max(own, key=lambda report: str(report.get("report_end_date")))
    statements = {
        name: _rows(((report.get(name) or {}).get("rows")) or (), depth)
        for name in ("aktiva", "passiva", "guv")
        if report.get(name)
    }
    return compact(
        {
            "report_id": report.get("report_id"),
            "period": {"from": report.get("report_start_date"), "to": report.get("report_end_date")},
            "currency": "EUR",
            "columns": ["name", "this year", "year before"],
            **statements,
        }
    )


def _rows(rows: Iterable[Mapping[str, Any]], depth: int) -> list[Any]:
    out: list[Any] = []
    for row in rows:
        line: list[Any] = [
            row.get("formatted_name") or row.get("name"),
            _euros(row.get("current_value")),
            _euros(row.get("previous_value")),
        ]
        children = _rows(row.get("children") or (), depth - 1) if depth > 1 else []
        out.append(line + [children] if children else line)
    return out


def owners(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The current owners, largest share first: name, id, kind, share (percent) and nominal amount."""
    rows = [
        {
            "name": owner.get("name"),
            "id": owner.get("id"),
            "kind": "company" if owner.get("type") == "legal_person" else "person",
            "relation": owner.get("relation_type"),
            "share": percent(owner.get("percentage_share")),
            "nominal": money(owner.get("nominal_share")),
            "since": owner.get("start"),
        }
        for owner in answer.get("owners") or ()
    ]
    return compact(
        {"company_id": answer.get("company_id"), "from_documents": answer.get("best_available"), "owners": rows}
    )


def holdings(answer: Mapping[str, Any], page: int, per_page: int) -> dict[str, Any]:
    """What a company or person holds (current first) and held (with ``until``), paged."""
    rows = [
        {
            "company_id": holding.get("company_id"),
            "name": holding.get("name"),
            "relation": holding.get("relation_type"),
            "share": percent(holding.get("percentage_share"), fraction=True),
            "nominal": money(holding.get("nominal_share")),
            "since": holding.get("start"),
            "until": holding.get("end"),
        }
        for holding in answer.get("holdings") or ()
    ]
    current = sum(1 for row in rows if row["until"] is None)
    holder = answer.get("company_id") or answer.get("person_id")
    return compact({"holder": holder, "current": current, **page_of(rows, page, per_page)})


def ubos(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The beneficial owners (§ 3 GwG): each with the share known, or the most they could hold."""
    rows = []
    for owner in answer.get("ubos") or ():
        person = owner.get("natural_person") or {}
        rows.append(
            {
                "name": owner.get("name"),
                "id": owner.get("id"),
                "city": person.get("city"),
                "born": person.get("date_of_birth"),
                "share": percent(owner.get("percentage_share")),
                "at_most": percent(owner.get("max_percentage_share")),
            }
        )
    return compact({"company_id": answer.get("company_id"), "beneficial_owners": rows})


def ownership_history(answer: Mapping[str, Any], page: int, per_page: int) -> dict[str, Any]:
    """Every owner the filed shareholder lists name, with the share on each list (newest list first), paged."""
    rows = []
    for owner in answer.get("owners") or ():
        lists = sorted(owner.get("ownership_history") or (), key=lambda entry: str(entry.get("document_date")))
        rows.append(
            {
                "name": owner.get("name"),
                "id": owner.get("id"),
                "kind": owner.get("entity_type"),
                "first_listed": owner.get("first_appearance"),
                "last_listed": owner.get("last_appearance"),
                "shares": [
                    {"list": entry.get("document_date"), "share": percent(entry.get("percentage_shares"))}
                    for entry in reversed(lists)
                ],
            }
        )
    rows.sort(key=lambda row: (row.get("last_listed") is not None, str(row.get("first_listed"))))
    return compact(page_of(rows, page, per_page))


def _search_page(answer: Mapping[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A search page as every paged list here: ``total``, ``page``, ``pages``, ``per_page`` and ``items``."""
    pagination = answer.get("pagination") or {}
    return compact(
        {
            "total": pagination.get("total_results", len(rows)),
            "page": pagination.get("page", 1),
            "pages": pagination.get("total_pages", 1),
            "per_page": pagination.get("per_page"),
            "items": rows,
        }
    )


def company_results(answer: Mapping[str, Any]) -> dict[str, Any]:
    """A page of company search results (or suggestions): id, name, form, register, city, active."""
    rows = [
        {
            "company_id": result.get("company_id"),
            "name": result.get("name"),
            "legal_form": result.get("legal_form"),
            "register": f"{result.get('register_type', '')} {result.get('register_number', '')}, "
            f"{result.get('register_court', '')}",
            "city": (result.get("address") or {}).get("city"),
            "active": result.get("active"),
        }
        for result in answer.get("results") or ()
    ]
    return _search_page(answer, rows)


def person_results(answer: Mapping[str, Any]) -> dict[str, Any]:
    """A page of person search results."""
    rows = [
        {
            "person_id": result.get("id"),
            "name": result.get("name"),
            "city": result.get("city"),
            "born": result.get("date_of_birth"),
            "active": result.get("active"),
        }
        for result in answer.get("results") or ()
    ]
    return _search_page(answer, rows)


def person(answer: Mapping[str, Any], page: int, per_page: int) -> dict[str, Any]:
    """A person and their positions (current first), paged."""
    positions = [
        {
            "company_id": position.get("register_id"),
            "company": position.get("company_name"),
            "role": position.get("role"),
            "since": position.get("start_date"),
            "until": position.get("end_date"),
        }
        for position in answer.get("management_positions") or ()
    ]
    positions.sort(key=lambda row: (row["until"] is not None, str(row["until"] or row["since"])))
    name = " ".join(part for part in (answer.get("first_name"), answer.get("last_name")) if part)
    return compact(
        {
            "person_id": answer.get("id"),
            "name": name,
            "city": answer.get("city"),
            "born": answer.get("date_of_birth"),
            "current_positions": sum(1 for row in positions if row["until"] is None),
            "positions": page_of(positions, page, per_page),
        }
    )


def insolvency_results(answer: Mapping[str, Any]) -> dict[str, Any]:
    """A page of insolvency search results."""
    rows = [
        {
            "insolvency_id": result.get("id"),
            "debtor": result.get("debtor_name"),
            "debtor_kind": result.get("debtor_kind"),
            "company_id": result.get("company_id"),
            "person_id": result.get("person_id"),
            "court": result.get("court"),
            "case_number": result.get("case_number"),
            "status": result.get("current_status"),
            "opened_at": result.get("opened_at"),
            "closed_at": result.get("closed_at"),
        }
        for result in answer.get("results") or ()
    ]
    return _search_page(answer, rows)


def insolvency(answer: Mapping[str, Any], page: int, per_page: int) -> dict[str, Any]:
    """A proceeding: its debtor, court, status and administrator, and its published events (newest first), paged."""
    events = sorted(answer.get("events") or (), key=lambda event: str(event.get("published_at")), reverse=True)
    rows = [
        {
            "published": event.get("published_at"),
            "event": event.get("event_type"),
            "decided": event.get("decision_date"),
        }
        for event in events
    ]
    return compact(
        {
            "insolvency_id": answer.get("id"),
            "debtor": answer.get("debtor_name"),
            "debtor_kind": answer.get("debtor_kind"),
            "company_id": answer.get("company_id"),
            "court": answer.get("court"),
            "case_number": answer.get("case_number"),
            "status": answer.get("current_status"),
            "administrator": answer.get("administrator_name"),
            "opened_at": answer.get("opened_at"),
            "closed_at": answer.get("closed_at"),
            "events": page_of(rows, page, per_page),
        }
    )


def document_list(record: Mapping[str, Any]) -> dict[str, Any]:
    """The documents a company record lists (newest first; ``latest`` marks the one in force of each type)."""
    documents = sorted(
        record.get("documents") or (), key=lambda d: (str(d.get("date")), str(d.get("id"))), reverse=True
    )
    rows = [
        {"document_id": d.get("id"), "type": d.get("type"), "date": d.get("date"), "latest": d.get("latest") or None}
        for d in documents
    ]
    return compact({"company_id": record.get("id"), "documents": rows})
