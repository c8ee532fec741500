"""A compact HTML card of a company for Jupyter (``CompanyRecord._repr_html_``).

Plain string building from the payload — no pandas — and every value escaped. Shows name, status, legal
form, register, address, capital (with its EUR value where it differs), the active representatives, the
latest indicators and whether insolvency proceedings exist.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from ._input import as_dict
from .money import capital_eur
from .overview import latest_report

__all__ = ["company_card_html"]

_STATUS_COLOURS = {"active": "#1a7f37", "liquidation": "#9a6700", "inactive": "#6e7781"}
_MAX_PEOPLE = 6
_SHOWN = (("revenue", "Revenue"), ("net_income", "Net income"), ("equity", "Equity"),
          ("balance_sheet_total", "Balance sheet total"))  # fmt: skip


def _money(value: float | None, currency: str) -> str:
    return "–" if value is None else f"{value:,.2f} {currency}"


def _row(label: str, value: str) -> str:
    return (f"<tr><th style='text-align:left;padding:1px 8px 1px 0;font-weight:600'>{html.escape(label)}</th>"
            f"<td style='text-align:left;padding:1px 0'>{value}</td></tr>")  # fmt: skip


def _capital(company: Mapping[str, Any]) -> str:
    capital = company.get("capital")
    if not capital:
        return "–"
    text = _money(float(capital["amount"]), capital["currency"])
    eur = capital_eur(capital["amount"], capital["currency"])
    if capital["currency"] != "EUR":
        text += " (" + (_money(eur, "EUR") if eur is not None else "no fixed EUR rate") + ")"
    return html.escape(text)


def _people(company: Mapping[str, Any]) -> str:
    active = [r for r in company.get("representation") or () if r.get("end_date") is None]
    if not active:
        return "–"
    shown = [f"{html.escape(r['name'])} <small>({html.escape(r['role'].lower().replace('_', ' '))})</small>"
             for r in active[:_MAX_PEOPLE]]  # fmt: skip
    more = len(active) - _MAX_PEOPLE
    return ", ".join(shown) + (f", … {more} more" if more > 0 else "")


def _indicators(company: Mapping[str, Any]) -> str:
    report = latest_report(company)
    if report.get("date") is None:
        return "none published"
    parts = [f"{label} {_money(None if report[key] is None else report[key] / 100, 'EUR')}"
             for key, label in _SHOWN if report.get(key) is not None]  # fmt: skip
    if report.get("employees") is not None:
        parts.append(f"Employees {report['employees']:,}")
    return html.escape(f"{report['date']}: " + (" · ".join(parts) or "no values"))


def _insolvency(company: Mapping[str, Any]) -> str:
    proceedings = company.get("insolvencies") or []
    if not proceedings:
        return "none"
    latest = proceedings[-1]
    text = f"{len(proceedings)} proceeding(s); {latest['case_number']}, {latest['court']}: {latest['current_status']}"
    return f"<span style='color:#cf222e;font-weight:600'>{html.escape(text)}</span>"


def company_card_html(company: Any) -> str:
    """The HTML card of one company.

    Parameters
    ----------
    company : record or dict
        A CompanyV1 payload or a record of one.

    Returns
    -------
    str
        An HTML fragment (a ``<div>``), every value escaped.

    Examples
    --------
    >>> from regkit.frames import example_company
    >>> card = company_card_html(example_company())
    >>> "Beispiel Werkzeugbau GmbH" in card and "25,600.00 EUR" in card and "Max Beispiel" in card
    True
    """
    c = as_dict(company)
    name = (c.get("name") or {}).get("name") or c.get("id", "")
    status = c.get("status") or "unknown"
    colour = _STATUS_COLOURS.get(status, "#6e7781")
    register = c.get("register") or {}
    register_text = " ".join(str(register.get(k) or "") for k in ("register_type", "register_number")).strip()
    if register.get("register_court"):
        register_text += f", {register['register_court']}"
    rows = [
        _row("Legal form", html.escape(str(c.get("legal_form") or "–"))),
        _row("Register", html.escape(register_text or "–")),
        _row("Address", html.escape((c.get("address") or {}).get("formatted_value") or "–")),
        _row("Capital", _capital(c)),
        _row("Representatives", _people(c)),
        _row("Latest indicators", _indicators(c)),
        _row("Insolvency", _insolvency(c)),
    ]
    badge = (f"<span style='background:{colour};color:#fff;border-radius:3px;padding:0 6px;font-size:85%'>"
             f"{html.escape(status)}</span>")  # fmt: skip
    return (f"<div style='border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;max-width:46em'>"
            f"<div style='font-size:115%;font-weight:600'>{html.escape(name)} {badge}</div>"
            f"<div style='color:#57606a;font-size:85%'>{html.escape(str(c.get('id', '')))}</div>"
            f"<table style='margin-top:4px;border-collapse:collapse'>{''.join(rows)}</table></div>")  # fmt: skip
