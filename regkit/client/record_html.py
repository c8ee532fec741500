"""What each record's HTML summary says: the facts a reader looks for, formatted, from the record's raw answer.

One function per kind of record, each returning :func:`~regkit.client.summary_html.summary_html` of plain
text: codes as labels (:func:`regkit.schema.display_label`: ``gmbh`` → "GmbH"), counts, money, shares and
dates by :mod:`regkit.schema.formatting`.  The records' ``_repr_html_`` methods call these (records,
search pages and results here; the batch, the cost estimate and the budget in :mod:`regkit.client.batch_html`).
Nothing here reads the network, the cache or the API key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from regkit.schema.formatting import MISSING, count_text, date_text, euro_text, percent_text
from regkit.schema.labels import display_label

from .summary_html import SummaryTable, plural, summary_html

__all__ = [
    "company_register_text",
    "credentials_html",
    "credits_html",
    "extract_html",
    "holdings_html",
    "insolvency_html",
    "monitor_html",
    "owners_html",
    "search_html",
    "suggestions_html",
]

#: What a search page or result list is of, by kind: title, columns, and the columns that never wrap (dates,
#: register numbers).
_SEARCHES: dict[str, tuple[str, tuple[str, ...], tuple[int, ...]]] = {
    "company": ("Company search", ("Name", "Legal form", "Register", "City", "Status"), (2,)),
    "insolvency": ("Insolvency search", ("Debtor", "Legal form", "Court", "Status", "Last event"), (3, 4)),
    "person": ("Person search", ("Name", "City", "Born", "Status"), (2,)),
}


def _text(value: Any) -> str:
    return MISSING if value is None or value == "" else str(value)


def _active(value: Any) -> str:
    return MISSING if value is None else ("active" if value else "inactive")


def company_register_text(entry: Mapping[str, Any]) -> str:
    """How a German writes a register entry: ``"HRB 89763 Darmstadt"`` (``Amtsgericht`` left out).

    ``entry`` is a company (its ``register`` member) or a search result (``register_type``, ...).

    Examples
    --------
    >>> company_register_text({"register": {"register_type": "HRB", "register_number": "89763",
    ...                                     "register_court": "Amtsgericht Darmstadt"}})
    'HRB 89763 Darmstadt'
    """
    nested = entry.get("register")
    register: Mapping[str, Any] = nested if isinstance(nested, Mapping) else entry
    court = str(register.get("register_court") or "").removeprefix("Amtsgericht ").strip()
    parts = [str(register.get(k) or "") for k in ("register_type", "register_number")] + [court]
    return " ".join(p for p in parts if p) or MISSING


def _legal_form(entry: Mapping[str, Any], key: str = "legal_form") -> str:
    code, name = entry.get(key), entry.get("name")
    if not code and isinstance(name, Mapping):
        code = name.get("legal_form")
    return MISSING if not code else display_label("legal_form", code)


def _court(court: Any) -> str:
    """A court in a column headed "Court": ``Amtsgericht Köln`` → ``Köln``."""
    return MISSING if not court else str(court).removeprefix("Amtsgericht ")


def _search_row(kind: str, r: Mapping[str, Any]) -> list[str]:
    if kind == "company":
        city = (r.get("address") or {}).get("city")
        return [_text(r.get("name")), _legal_form(r), company_register_text(r), _text(city), _active(r.get("active"))]
    if kind == "insolvency":
        status = r.get("current_status")
        return [
            _text(r.get("debtor_name")),
            _legal_form(r, "debtor_legal_form"),
            _court(r.get("court")),
            MISSING if not status else display_label("current_status", status),
            date_text(r.get("last_event_at")),
        ]
    return [_text(r.get("name")), _text(r.get("city")), date_text(r.get("date_of_birth")), _active(r.get("active"))]


def search_html(kind: str, results: Sequence[Mapping[str, Any]], *, subtitle: str, total: int, where: str) -> str:
    """A search page or all results of a search (``kind``: ``"company"``, ``"insolvency"``, ``"person"``)."""
    title, headers, nowrap = _SEARCHES[kind]
    rows = [_search_row(kind, r) for r in results]
    table = SummaryTable(headers, rows, nowrap=nowrap, where=where)
    head = f"{title}: {plural(total, 'result')}" if total else f"{title}: no results"
    return summary_html(head, subtitle=subtitle, tables=[table] if rows else [], kind=f"{kind}-search")


def suggestions_html(results: Sequence[Mapping[str, Any]]) -> str:
    """Autocomplete's suggestions."""
    rows = [_search_row("company", r)[:4] for r in results]
    table = SummaryTable(("Name", "Legal form", "Register", "City"), rows)
    title = plural(len(rows), "suggestion") if rows else "No suggestions"
    return summary_html(title, subtitle="autocomplete (free)", tables=[table] if rows else [], kind="suggestions")


def _event_rows(events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    return [
        [
            date_text(e.get("published_at")),
            display_label("event_type", e["event_type"]) if e.get("event_type") else MISSING,
            _text(e.get("summary")),
        ]
        for e in reversed(events)
    ]


def insolvency_html(p: Mapping[str, Any]) -> str:
    """One insolvency proceeding: debtor, case, status, administrator, dates, the latest events."""
    status = p.get("current_status")
    open_ = p.get("closed_at") is None
    kind = display_label("debtor_kind", p["debtor_kind"]) if p.get("debtor_kind") else MISSING
    facts = [("Debtor", _legal_form(p, "debtor_legal_form") if p.get("debtor_legal_form") else kind)]
    if p.get("company_id"):
        facts.append(("Company", str(p["company_id"])))
    facts += [
        (
            "Proceeding",
            " · ".join(display_label(c, p[c]) for c in ("proceeding_kind", "administration_kind") if p.get(c))
            or MISSING,
        ),
        ("Administrator", _text(p.get("administrator_name"))),
        ("Grounds", ", ".join(str(g).replace("_", " ") for g in p.get("insolvency_grounds") or ()) or MISSING),
        ("Opened", date_text(p.get("opened_at"))),
        ("Closed", date_text(p.get("closed_at")) if not open_ else "open"),
    ]
    if p.get("claims_filing_deadline"):
        facts.append(("Claims deadline", date_text(p["claims_filing_deadline"])))
    events = list(p.get("events") or ())
    table = SummaryTable(
        ("Published", "Event", "Summary"),
        _event_rows(events),
        nowrap=(0,),
        limit=4,
        where="record.events()",
        caption=f"Latest events ({count_text(len(events))} in all)",
    )
    badge = (display_label("current_status", status), "warning" if open_ else "info") if status else None
    subtitle = ", ".join(str(p[k]) for k in ("case_number", "court") if p.get(k))
    return summary_html(
        _text(p.get("debtor_name")),
        facts,
        subtitle=subtitle,
        badge=badge,
        tables=[table] if events else [],
        kind="insolvency",
    )


def owners_html(o: Mapping[str, Any]) -> str:
    """A company's current owners: each with type, share (the interface's percentage) and nominal value."""
    owners = list(o.get("owners") or ())
    rows = [
        [
            _text(w.get("name")),
            "company" if w.get("type") == "legal_person" else "person",
            str(w.get("relation_type") or MISSING).replace("_", " "),
            _percent_of(w.get("percentage_share")),
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
    return summary_html(f"Owners of {_text(o.get('company_id'))}", facts, tables=[table] if rows else [], kind="owners")


def holdings_html(h: Mapping[str, Any]) -> str:
    """The companies a company or person holds shares in: current first, then past."""
    holdings = list(h.get("holdings") or ())
    current = [x for x in holdings if x.get("end") is None]
    past = [x for x in holdings if x.get("end") is not None]
    rows = [
        [
            _text(x.get("name")),
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
        title, note = "Holdings of a person", f"person id {_text(h.get('person_id'))}"
    return summary_html(title, facts, tables=[table] if rows else [], note=note, kind="holdings")


def credits_html(c: Mapping[str, Any]) -> str:
    """The account's credits in this period."""
    period = c.get("period") or {}
    kind = {"billing_cycle": "billing cycle", "rolling_30_days": "rolling 30 days"}.get(str(period.get("type")), "")
    facts = [
        ("Used", f"{count_text(c.get('used_credits'))} of {count_text(c.get('included_credits'))} included"),
        ("Overage", count_text(c.get("overage_credits"))),
        ("Plan", "paid" if c.get("paid") else "free"),
        ("Period", f"{kind or MISSING}, resets {date_text(_day(period.get('reset_at')))}"),
    ]
    return summary_html(f"Credits: {count_text(c.get('remaining_credits'))} remaining", facts, kind="credits")


def _day(stamp: Any) -> Any:
    return stamp[:10] if isinstance(stamp, str) else stamp


def monitor_html(m: Mapping[str, Any]) -> str:
    """A monitor: what it watches, how often, and whether the service disabled it."""
    disabled = bool(m.get("disabled"))
    facts = [
        ("Watches", ", ".join(str(p).replace("_", " ") for p in m.get("preferences") or ()) or MISSING),
        ("Frequency", _text(m.get("update_frequency"))),
    ]
    what = "person" if m.get("entity_type") == "person" else "company"
    title = f"Monitor of {what} {m.get('entity_id')}" if what == "company" else "Monitor of a person"
    note = f"person id {_text(m.get('entity_id'))}" if what == "person" else ""
    return summary_html(
        title, facts, badge=("disabled", "error") if disabled else ("active", "ok"), note=note, kind="monitor"
    )


def extract_html(e: Mapping[str, Any]) -> str:
    """A Transparenzregister extract: status, what it is of, its beneficial owners and documents."""
    status = str(e.get("status") or "unknown")
    level = {"completed": "ok", "failed": "error", "processing": "info"}.get(status, "info")
    facts = [
        ("Of", str(e.get("company_id") or (f"eKRN {e['ekrn']}" if e.get("ekrn") else MISSING))),
        ("Submitted", date_text(_stamp(e.get("submitted_at")))),
    ]
    if e.get("completed_at"):
        facts.append(("Completed", date_text(_stamp(e["completed_at"]))))
    if e.get("reference_number"):
        facts.append(("Reference", str(e["reference_number"])))
    documents = [str(d.get("filename") or d.get("format") or "") for d in e.get("documents") or ()]
    if documents:
        facts.append(("Documents", ", ".join(documents)))
    ubos = list((e.get("report") or {}).get("ubos") or ())
    rows = [
        [
            _text((u.get("natural_person") or {}).get("full_name")),
            str((u.get("interest") or {}).get("type") or MISSING).replace("_", " "),
            _percent_of((u.get("interest") or {}).get("percentage")),
        ]
        for u in ubos
    ]
    table = SummaryTable(
        ("Beneficial owner", "Interest", "Share"),
        rows,
        numeric=(2,),
        where="extract.to_dataframe()",
        caption="Beneficial owners",
    )
    return summary_html(
        "Transparenzregister extract",
        facts,
        subtitle=str(e.get("id") or ""),
        badge=(status, level),
        tables=[table] if rows else [],
        kind="extract",
    )


def _percent_of(percentage: Any) -> str:
    return MISSING if percentage is None else percent_text(float(percentage) / 100)


def _stamp(value: Any) -> Any:
    """An ISO timestamp as a datetime (so :func:`date_text` writes it to the minute), other values unchanged."""
    if isinstance(value, str) and "T" in value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    return value


def credentials_html(c: Mapping[str, Any]) -> str:
    """A stored credential set as the interface confirms it: its name and dates (never the login or password)."""
    facts = [("Stored", date_text(_stamp(c.get("created_at")))), ("Updated", date_text(_stamp(c.get("updated_at"))))]
    return summary_html(
        f"Credentials \u201c{_text(c.get('name'))}\u201d",
        facts,
        subtitle="Transparenzregister login, stored by the service",
        kind="credentials",
    )
