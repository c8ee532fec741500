"""What :class:`~regkit.widgets.CompanyExplorer` shows, as plain functions of a client and a record.

Each function returns HTML (or plain data), so it is tested without widgets; the explorer only wires
inputs to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from regkit.client.arguments.validation import validate_company_id
from regkit.errors import RegkitError, ValidationError
from regkit.frames import MEASURES, company_card_html, indicators
from regkit.schema.formatting import credits_text, plural
from regkit.schema.interface import PRICES

from .company_tables import (
    documents_html,
    histories_html,
    insolvencies_html,
    links_html,
    representatives_html,
)
from .messages import error_html, error_text
from .render import draw_figure, figure_html, message_html

if TYPE_CHECKING:
    from regkit.client import CompanyRecord, OwnersRecord
    from regkit.client.protocol import RegisterClient

__all__ = [
    "BEST_AVAILABLE_FORMS",
    "EXAMPLE_ID",
    "TABS",
    "check_company_id",
    "indicator_chart_html",
    "indicator_figure",
    "indicator_metrics",
    "load_button_text",
    "load_company",
    "load_cost",
    "load_owners",
    "owners_button_text",
    "owners_cost",
    "owners_request",
    "summary_html",
    "tab_html",
]

EXAMPLE_ID = "DE-HRB-R2103-65834"
"""Shown as the placeholder of the id input."""

TABS = (
    "summary",
    "histories",
    "representatives",
    "owners",
    "indicators",
    "financials",
    "documents",
    "insolvencies",
    "links",
    "changes",
)
"""The explorer's tabs, in order."""

BEST_AVAILABLE_FORMS = ("ag", "se", "kgaa")
"""Legal forms whose shareholders the register does not list: their owners are asked for with
``best_available=True`` (those known from filed documents)."""


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
        return None, error_html(exc)


def load_company(client: RegisterClient, company_id: str) -> tuple[CompanyRecord | None, str]:
    """Fetch a company; ``(record, message)`` or ``(None, error message)`` — errors are shown, not raised."""
    try:
        record = client.get_company(company_id)
    except RegkitError as exc:
        return None, error_html(exc)
    cost = credits_text(record.meta.credits, cached=record.meta.from_cache)
    name = (record.raw.get("name") or {}).get("name") or company_id
    return record, message_html(f"Loaded {name} ({cost}).", "ok")


def load_cost(client: RegisterClient, company_id: str) -> int:
    """Credits fetching the company would cost now: 0 when the cache holds it, else 10 (nothing is sent)."""
    return 0 if client.is_cached(company_id) else PRICES["company"]


def load_button_text(client: RegisterClient, company_id: str | None) -> str:
    """``"Load (10 credits)"``, ``"Load (0 credits, cached)"``, or ``"Load"`` while there is no valid id."""
    if company_id is None:
        return "Load"
    cost = load_cost(client, company_id)
    return f"Load ({credits_text(cost, cached=cost == 0)})"


def owners_request(record: Any) -> tuple[str, bool]:
    """The company id and ``best_available`` flag the owners of a company record are asked for with.

    Examples
    --------
    >>> owners_request({"id": "DE-HRB-D4301-56744", "legal_form": "ag"})
    ('DE-HRB-D4301-56744', True)
    """
    raw = getattr(record, "raw", record)
    return str(raw["id"]), str(raw.get("legal_form") or "") in BEST_AVAILABLE_FORMS


def owners_cost(client: RegisterClient, record: Any) -> int:
    """Credits fetching the owners would cost now: 0 when the cache holds them, else 10 (nothing is sent)."""
    company, best = owners_request(record)
    return 0 if client.is_cached(company, endpoint="owners", best_available=best) else PRICES["owners"]


def owners_button_text(client: RegisterClient, record: Any) -> str:
    """``"Fetch owners (10 credits)"``, or ``"Fetch owners (0 credits, cached)"``."""
    cost = owners_cost(client, record)
    return f"Fetch owners ({credits_text(cost, cached=cost == 0)})"


def load_owners(client: RegisterClient, record: Any) -> tuple[OwnersRecord | None, str]:
    """Fetch a company's owners (``best_available`` for an AG, SE or KGaA); ``(owners record, message)`` or
    ``(None, error message)`` — errors are shown, not raised."""
    company, best = owners_request(record)
    try:
        found = client.get_owners(company, best_available=best)
    except RegkitError as exc:
        return None, error_html(exc)
    cost = credits_text(found.meta.credits, cached=found.meta.from_cache)
    return found, message_html(f"Fetched {plural(len(found), 'owner')} ({cost}).", "ok")


def summary_html(record: Any) -> str:
    """The company card (:func:`regkit.frames.company_card_html`)."""
    return company_card_html(record)


def indicator_metrics(record: Any) -> list[str]:
    """The measures (and ``employees``) the company published at least once, in the interface's order."""
    frame = indicators(record)
    return [m for m in (*MEASURES, "employees") if frame[m].notna().any()]


def indicator_chart_html(record: Any, metrics: Any) -> str:
    """The chart of ``metrics`` (EUR measures and ``employees`` on separate axes), or why there is none."""

    chosen = [m for m in metrics if m in (*MEASURES, "employees")]
    if not chosen:
        return message_html("Pick one or more metrics." if indicator_metrics(record) else "No indicators published.")
    return figure_html(indicator_figure(record, chosen))


def indicator_figure(record: Any, metrics: list[str]) -> Any:
    """The indicators tab's chart of ``metrics`` (one or more of the measures and ``employees``): EUR measures
    and ``employees`` on Axes of their own, stacked, 8 in wide."""
    from regkit.plot.financials import indicators as plot_indicators

    groups = [g for g in ([m for m in metrics if m != "employees"], [m for m in metrics if m == "employees"]) if g]

    def draw(axes: Any) -> None:
        axes = axes if isinstance(axes, list) else [axes]
        for i, (ax, group) in enumerate(zip(axes, groups)):
            plot_indicators(record, group, ax=ax, title=None if i == 0 else "")

    return draw_figure(draw, (8.0, 3.4 * len(groups)), nrows=len(groups))


_TABS = {
    "summary": summary_html,
    "histories": histories_html,
    "representatives": representatives_html,
    "documents": documents_html,
    "insolvencies": insolvencies_html,
    "links": links_html,
}


def tab_html(record: Any, tab: str) -> str:
    """The HTML of one tab other than ``indicators`` (which has a metric picker), ``owners`` (a lookup of
    its own: :func:`load_owners`, :func:`~regkit.widgets.company_tables.owners_table`) and ``financials`` (a
    lookup of its own too: :mod:`regkit.widgets.company_financials`); errors become messages."""
    try:
        return _TABS[tab](record)
    except (RegkitError, ValueError) as exc:
        return message_html(f"{tab}: cannot show this record. {error_text(exc)}", "error")
