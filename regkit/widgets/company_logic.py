"""What :class:`~regkit.widgets.CompanyExplorer` shows, as plain functions of a client and a record.

Each function returns HTML (or plain data), so it is tested without widgets; the explorer only wires
inputs to them.
"""

from __future__ import annotations

from typing import Any

from regkit.client import RegkitError, ValidationError
from regkit.client.validation import company_id as validate_company_id
from regkit.frames import (
    MEASURES,
    company_card_html,
    documents,
    history,
    indicators,
    insolvency_summaries,
    links,
    representatives,
)
from regkit.frames import owners as owners_frame
from regkit.frames.histories import FIELDS
from regkit.schema.interface import PRICES

from .render import draw_html, frame_html, message_html, percent_text

__all__ = ["BEST_AVAILABLE_FORMS", "EXAMPLE_ID", "TABS", "check_company_id", "load_company", "tab_html",
           "indicator_metrics", "indicator_chart_html", "summary_html", "histories_html", "representatives_html",
           "documents_html", "insolvencies_html", "links_html", "owners_request", "owners_cost",
           "owners_button_text", "load_owners", "owners_html"]  # fmt: skip

EXAMPLE_ID = "DE-HRB-R2103-65834"
"""Shown as the placeholder of the id input."""

TABS = ("summary", "histories", "representatives", "owners", "indicators", "documents", "insolvencies", "links")
"""The explorer's tabs, in order."""

BEST_AVAILABLE_FORMS = ("ag", "se", "kgaa")
"""Legal forms whose shareholders the register does not list: their owners are asked for with
``best_available=True`` (those known from filed documents)."""

_HISTORY_COLUMNS = {
    "names": ["valid_from", "valid_to", "name", "legal_form"],
    "addresses": ["valid_from", "valid_to", "formatted_value"],
    "purposes": ["valid_from", "valid_to", "purpose"],
    "capitals": ["valid_from", "valid_to", "amount", "currency", "amount_eur"],
    "registers": ["valid_from", "valid_to", "register_type", "register_number", "register_court",
                  "register_company_id"],
}  # fmt: skip


def check_company_id(text: str) -> tuple[str | None, str]:
    """The id in the form the interface expects, or ``None`` and what is wrong (nothing is sent).

    Returns
    -------
    (str or None, str)
        The id (stripped) and ``""``, or ``None`` and an HTML message from the client's validation.

    Examples
    --------
    >>> check_company_id(" DE-HRB-R2103-65834 ")
    ('DE-HRB-R2103-65834', '')
    >>> cid, message = check_company_id("de-hrb-r2103-65834")
    >>> cid, "did you mean 'DE-HRB-R2103-65834'?" in message
    (None, True)
    """
    if not text or not text.strip():
        return None, message_html(f"Enter a company id, e.g. {EXAMPLE_ID}.")
    try:
        return validate_company_id(text), ""
    except ValidationError as exc:
        return None, message_html(str(exc), "error")


def load_company(client: Any, company_id: str) -> tuple[Any, str]:
    """Fetch a company; ``(record, message)`` or ``(None, error message)`` — errors are shown, not raised."""
    try:
        record = client.get_company(company_id)
    except RegkitError as exc:
        return None, message_html(str(exc), "error")
    cost = "from the cache, 0 credits" if record.meta.from_cache else f"{record.meta.credits} credits"
    name = (record.raw.get("name") or {}).get("name") or company_id
    return record, message_html(f"Loaded {name} ({cost}).", "ok")


def owners_request(record: Any) -> tuple[str, bool]:
    """The company id and ``best_available`` flag the owners of a company record are asked for with.

    Examples
    --------
    >>> owners_request({"id": "DE-HRB-D4301-56744", "legal_form": "ag"})
    ('DE-HRB-D4301-56744', True)
    """
    raw = getattr(record, "raw", record)
    return str(raw["id"]), str(raw.get("legal_form") or "") in BEST_AVAILABLE_FORMS


def owners_cost(client: Any, record: Any) -> int:
    """Credits fetching the owners would cost now: 0 when the cache holds them, else 10 (nothing is sent)."""
    company, best = owners_request(record)
    return 0 if client.is_cached(company, endpoint="owners", best_available=best) else PRICES["owners"]


def owners_button_text(client: Any, record: Any) -> str:
    """``"Fetch owners (10 credits)"``, or ``"Fetch owners (cached: 0 credits)"``."""
    cost = owners_cost(client, record)
    return f"Fetch owners ({'cached: 0' if cost == 0 else cost} credits)"


def load_owners(client: Any, record: Any) -> tuple[Any, str]:
    """Fetch a company's owners (``best_available`` for an AG, SE or KGaA); ``(owners record, message)`` or
    ``(None, error message)`` — errors are shown, not raised."""
    company, best = owners_request(record)
    try:
        found = client.get_owners(company, best_available=best)
    except RegkitError as exc:
        return None, message_html(str(exc), "error")
    cost = "from the cache, 0 credits" if found.meta.from_cache else f"{found.meta.credits} credits"
    return found, message_html(f"Fetched {len(found)} owner{'' if len(found) == 1 else 's'} ({cost}).", "ok")


def owners_html(found: Any) -> str:
    """The owners table, shares in percent; for an AG, SE or KGaA first a note that they come from filed
    documents (``best_available``)."""
    frame = owners_frame(found)
    frame["share"] = [percent_text(v) for v in frame["share"]]
    note = ""
    if getattr(found, "raw", found).get("best_available"):
        note = message_html("The register does not list the shareholders of an AG, SE or KGaA: these are the owners "
                            "known from filed documents (asked with best_available=True).", "warning")  # fmt: skip
    columns = ["holder_name", "holder_type", "relation_type", "share", "nominal_share", "start", "holder_city",
               "holder_id"]  # fmt: skip
    return note + frame_html(frame, columns, empty="no owners known")


def summary_html(record: Any) -> str:
    """The company card (:func:`regkit.frames.company_card_html`)."""
    return company_card_html(record)


def histories_html(record: Any) -> str:
    """The company's timeline chart, then one table per history (names, addresses, ...)."""
    from regkit.plot.history import timeline, timeline_bars

    rows = timeline_bars(record)["row"].nunique()
    parts = [draw_html(lambda ax: timeline(record, ax), (10.0, max(2.5, 0.34 * rows + 1.4)))]
    for field in FIELDS:
        parts.append(f"<h4>{field}</h4>")
        parts.append(frame_html(history(record, field), _HISTORY_COLUMNS[field], empty=f"no {field} registered"))
    return "".join(parts)


def representatives_html(record: Any) -> str:
    """One row per role held, active roles first."""
    frame = representatives(record).sort_values(["is_active", "start_date"], ascending=[False, True], kind="stable")
    columns = ["name", "role", "start_date", "end_date", "is_active", "authority", "city"]
    return frame_html(frame, columns, empty="no representatives registered")


def indicator_metrics(record: Any) -> list[str]:
    """The measures (and ``employees``) the company published at least once, in the interface's order."""
    frame = indicators(record)
    return [m for m in (*MEASURES, "employees") if frame[m].notna().any()]


def indicator_chart_html(record: Any, metrics: Any) -> str:
    """The chart of ``metrics`` (EUR measures and ``employees`` on separate axes), or why there is none."""
    from regkit.plot.financials import indicators as plot_indicators

    chosen = [m for m in metrics if m in (*MEASURES, "employees")]
    if not chosen:
        return message_html("Pick one or more metrics." if indicator_metrics(record) else "No indicators published.")
    groups = [g for g in ([m for m in chosen if m != "employees"], [m for m in chosen if m == "employees"]) if g]

    def draw(axes: Any) -> None:
        axes = axes if isinstance(axes, list) else [axes]
        for i, (ax, group) in enumerate(zip(axes, groups)):
            plot_indicators(record, group, ax=ax, title=None if i == 0 else "")

    return draw_html(draw, (8.0, 3.4 * len(groups)), nrows=len(groups))


def documents_html(record: Any) -> str:
    """The documents, newest first."""
    frame = documents(record).sort_values("date", ascending=False, kind="stable")
    return frame_html(frame, ["date", "type", "latest", "id"], empty="no documents")


def insolvencies_html(record: Any) -> str:
    """The proceedings against the company (the record's insolvency summaries)."""
    columns = ["case_number", "court", "current_status", "proceeding_kind", "opened_at", "closed_at", "id"]
    return frame_html(insolvency_summaries(record), columns, empty="no insolvency proceedings")


def links_html(record: Any) -> str:
    """Mergers, spin-offs and the profit-transfer agreement, as source → target."""
    columns = ["relation", "source", "source_name", "target", "target_name", "registration_date", "agreement_date"]
    return frame_html(links(record), columns, empty="no mergers, spin-offs or profit-transfer agreement")


_TABS = {"summary": summary_html, "histories": histories_html, "representatives": representatives_html,
         "documents": documents_html, "insolvencies": insolvencies_html, "links": links_html}  # fmt: skip


def tab_html(record: Any, tab: str) -> str:
    """The HTML of one tab other than ``indicators`` (which has a metric picker) and ``owners`` (a lookup of
    its own: :func:`load_owners`, :func:`owners_html`); errors become messages."""
    try:
        return _TABS[tab](record)
    except (RegkitError, ValueError) as exc:
        return message_html(f"{tab}: cannot show this record ({type(exc).__name__}: {exc})", "error")
