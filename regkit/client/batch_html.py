"""What the summaries of spending say: a bulk lookup's batch, its cost estimate, and the client's budget.

Each function returns :func:`~regkit.client.summary_html.summary_html` of plain text (numbers by
:mod:`regkit.schema.formatting`); ``CompanyBatch``, ``CostEstimate`` and ``Budget`` call them from their
``_repr_html_``.  Nothing here reads the network, the cache or the API key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regkit.errors import NotFoundError, RegkitError, ValidationError
from regkit.schema.formatting import MISSING, count_text, credits_text
from regkit.schema.interface import PRICES
from regkit.schema.labels import display_label

from .record_html import company_register_text
from .summary_html import SummaryTable, plural, summary_html

__all__ = ["ESTIMATE_UNITS", "batch_html", "budget_html", "cost_estimate_html"]

#: What a cost estimate counts, by the endpoint it estimates (``client.estimate_cost(..., endpoint=)``).
ESTIMATE_UNITS: dict[str, tuple[str, str]] = {
    "company": ("company", "companies"),
    "owners": ("owner list", "owner lists"),
    "holdings": ("holdings list", "holdings lists"),
    "person": ("person", "persons"),
    "person_holdings": ("person's holdings", "persons' holdings"),
}


def cost_estimate_html(estimate: Any) -> str:
    """A bulk lookup's cost before it is sent: ``12 companies · 10 credits each · 8 cached (0 credits) · 4 to
    fetch: 40 credits``, and whether the budget covers it."""
    one, many = ESTIMATE_UNITS.get(getattr(estimate, "endpoint", "company"), ESTIMATE_UNITS["company"])
    line = (
        f"{plural(estimate.distinct, one, many)} · {credits_text(estimate.price)} each · "
        f"{count_text(estimate.cached)} cached (0 credits) · {count_text(estimate.to_fetch)} to fetch: "
        f"{credits_text(estimate.credits)}"
    )
    facts = [("Lookups", line)]
    if estimate.requested != estimate.distinct:
        left_out = estimate.requested - estimate.distinct
        facts.append(
            (
                "Ids asked",
                f"{count_text(estimate.requested)} ({count_text(left_out)} duplicate or malformed, not counted)",
            )
        )
    without_reports = getattr(estimate, "without_reports", ())
    if without_reports:
        facts.append(
            (
                "No reports",
                f"{count_text(len(without_reports))} filed no annual report (their cached company record lists "
                f"none): an empty answer for {credits_text(len(without_reports) * estimate.price)}",
            )
        )
    unknown = getattr(estimate, "reports_unknown", 0)
    if unknown:
        facts.append(("Reports", f"{count_text(unknown)} not checked for reports (company record not cached)"))
    if estimate.budget_remaining is None:
        facts.append(("Budget", "no limit set"))
        badge = None
    else:
        fits = estimate.credits <= estimate.budget_remaining
        facts.append(
            (
                "Budget",
                f"{credits_text(estimate.budget_remaining)} left: "
                + ("covers it" if fits else "not enough, the call would be refused"),
            )
        )
        badge = ("within budget", "ok") if fits else ("over budget", "error")
    note = "An estimate: nothing was sent. Cached lookups are free."
    return summary_html(
        f"Cost estimate: {credits_text(estimate.credits)}", facts, badge=badge, note=note, kind="cost-estimate"
    )


def _company_row(record: Any) -> list[str]:
    raw: Mapping[str, Any] = record.raw
    name = (raw.get("name") or {}).get("name") if isinstance(raw.get("name"), Mapping) else raw.get("name")
    form = raw.get("legal_form") or (raw.get("name") or {}).get("legal_form")
    status = raw.get("status")
    return [
        str(name or raw.get("id") or MISSING),
        display_label("legal_form", form) if form else MISSING,
        company_register_text(raw),
        display_label("status", status) if status else MISSING,
    ]


def _error_text(error: RegkitError) -> str:
    if isinstance(error, NotFoundError):
        return "not found"
    if isinstance(error, ValidationError):
        return "malformed id (not sent)"
    return f"{type(error).__name__}: {error}"[:90]


def batch_html(
    ids: Sequence[str], records: Sequence[Any], errors: Mapping[str, RegkitError], failed_ids: Sequence[str]
) -> str:
    """A bulk lookup's result: how many companies were fetched, missing or failed, what it cost and saved, the
    first companies and the first failures."""
    fetched = list({id(r): r for r in records if r is not None}.values())  # each distinct record once
    from_cache = sum(1 for r in fetched if r.meta.from_cache)
    spent = sum(r.meta.credits for r in fetched)
    missing = sum(1 for e in errors.values() if isinstance(e, NotFoundError))
    malformed = sum(1 for e in errors.values() if isinstance(e, ValidationError))
    failed = len(errors) - missing - malformed
    facts = [("Fetched", f"{count_text(len(fetched))} ({count_text(from_cache)} from the cache)")]
    facts += [("Not found", count_text(missing))] if missing else []
    facts += [("Malformed ids", count_text(malformed))] if malformed else []
    facts += [("Failed", count_text(failed))] if failed else []
    facts.append(
        ("Credits", f"{credits_text(spent)} spent · {credits_text(from_cache * PRICES['company'])} saved by the cache")
    )
    if len(set(ids)) < len(ids):
        facts.append(("Duplicates", f"{count_text(len(ids) - len(set(ids)))} ids asked again (fetched once)"))
    tables = [
        SummaryTable(
            ("Company", "Legal form", "Register", "Status"),
            [_company_row(r) for r in fetched],
            nowrap=(2,),
            limit=8 if not errors else 6,
            where="batch.to_dataframe()",
        )
    ]
    if errors:
        tables.append(
            SummaryTable(
                ("Id", "Error"),
                [[cid, _error_text(e)] for cid, e in errors.items()],
                limit=3,
                where="batch.summary()",
                caption="Failed",
            )
        )
    note = (
        (
            "client.get_companies(batch.failed_ids, errors='collect') asks again for the failed ones; the fetched "
            "ones are cached and free"
        )
        if failed_ids
        else ""
    )
    badge = ("all fetched", "ok") if not errors else (f"{count_text(len(errors))} failed", "error")
    return summary_html(
        plural(len(ids), "company", "companies"),
        facts,
        badge=badge,
        tables=[t for t in tables if t.rows],
        note=note,
        kind="batch",
    )


def budget_html(limit: int | None, spent: int, held: int = 0, team: str | None = None) -> str:
    """The client's (or the team's) budget: spent, left, the limit, and what calls under way hold."""
    title = f"Budget of team {team}" if team else "Budget"
    if limit is None:
        facts = [("Spent", credits_text(spent)), ("Limit", "none (spending is counted, never refused)")]
        return summary_html(title, facts, kind="budget")
    left = limit - spent - held
    facts = [("Spent", f"{count_text(spent)} of {credits_text(limit)}"), ("Left", credits_text(left))]
    if held:
        facts.append(("Reserved", f"{credits_text(held)} held by calls under way"))
    badge = ("used up", "error") if left <= 0 else None
    return summary_html(f"{title}: {credits_text(left)} left", facts, badge=badge, kind="budget")
