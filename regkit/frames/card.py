"""A compact HTML card of a company for Jupyter (``CompanyRecord._repr_html_``) and the explorer's summary tab.

Plain string building from the payload — no pandas — and every value escaped. Shows name, status, legal
form, register, address, capital (with its EUR value where it differs), the people in active roles (each
person once, with all their roles), the latest indicators and whether insolvency proceedings exist. Codes read
as a reader knows them (:func:`regkit.schema.display_label`: ``gmbh`` → "GmbH", ``liquidation`` → "in
Liquidation", ``PROKURA`` → "Prokura"); money has digit grouping and its unit (:mod:`regkit.schema.formatting`).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from regkit.schema import display_label
from regkit.schema.formatting import count_text, euro_text, money_text, plural

from ._input import as_dict
from .money import capital_eur
from .overview import latest_report

__all__ = ["company_card_html"]

_STATUS_COLOURS = {"active": "#1a7f37", "liquidation": "#9a6700", "inactive": "#6e7781"}
_MAX_PEOPLE = 8
_SHOWN = (
    ("revenue", "Revenue"),
    ("net_income", "Net income"),
    ("equity", "Equity"),
    ("balance_sheet_total", "Balance sheet total"),
)
_CARD = "border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;max-width:60em;font-size:13px;line-height:1.45"


def _nowrap(parts: list[str], sep: str) -> str:
    """Escaped parts joined by ``sep``, each kept on one line (a line breaks only between parts)."""
    return sep.join(f"<span style='white-space:nowrap'>{html.escape(p)}</span>" for p in parts)


def _row(label: str, value: str) -> str:
    return (
        f"<tr><th style='text-align:left;vertical-align:top;padding:2px 12px 2px 0;font-weight:600;"
        f"white-space:nowrap'>{html.escape(label)}</th><td style='text-align:left;padding:2px 0'>{value}</td>"
        "</tr>"
    )


def _amount(value: Any, currency: str) -> str:
    """``€25,600``; another currency by its code (``DEM 50,000``); cents only where there are any."""
    return money_text(value, currency)


def _capital(company: Mapping[str, Any]) -> str:
    capital = company.get("capital")
    if not capital:
        return "–"
    text = _amount(float(capital["amount"]), capital["currency"])
    if capital["currency"] != "EUR":
        eur = capital_eur(capital["amount"], capital["currency"])
        text += " (" + (f"= {euro_text(eur, 2)}" if eur is not None else "no fixed EUR rate") + ")"
    return html.escape(text)


def _people(company: Mapping[str, Any]) -> str:
    """Each person in an active role once, with all their active roles, in the order first listed."""
    roles: dict[tuple[str, str], list[str]] = {}
    for r in company.get("representation") or ():
        if r.get("end_date") is None:
            held = roles.setdefault((str(r.get("id") or ""), str(r.get("name") or "")), [])
            label = display_label("role", r.get("role") or "OTHER")
            if label not in held:
                held.append(label)
    if not roles:
        return "–"
    shown = [
        f"{html.escape(name)} <span style='color:#57606a'>— {_nowrap(held, ', ')}</span>"
        for (_, name), held in list(roles.items())[:_MAX_PEOPLE]
    ]
    more = len(roles) - _MAX_PEOPLE
    return "<br>".join(shown) + (f"<br>… and {more} more" if more > 0 else "")


def _indicators(company: Mapping[str, Any]) -> str:
    report = latest_report(company)
    if report.get("date") is None:
        return "none published"
    parts = [f"{label} {euro_text(report[key] / 100)}" for key, label in _SHOWN if report.get(key) is not None]
    if report.get("employees") is not None:
        parts.append(f"Employees {count_text(report['employees'])}")
    return (_nowrap(parts, " · ") if parts else "no values") + (
        f" <span style='color:#57606a'>(fiscal year to {html.escape(str(report['date']))})</span>"
    )


def _insolvency(company: Mapping[str, Any]) -> str:
    proceedings = company.get("insolvencies") or []
    if not proceedings:
        return "none"
    latest = proceedings[-1]
    count = plural(len(proceedings), "proceeding")
    text = (
        f"{count}; latest {latest['case_number']}, {latest['court']}: "
        f"{display_label('current_status', latest['current_status'])}"
    )
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
        An HTML fragment (a ``<div>``), every value escaped; legal form, status and roles by their display
        labels; a person in several active roles is listed once with all of them.

    Examples
    --------
    >>> from regkit.frames import example_company
    >>> card = company_card_html(example_company())
    >>> "Beispiel Werkzeugbau GmbH" in card and ">GmbH<" in card and "€25,600" in card
    True
    >>> "Max Beispiel <span style='color:#57606a'>— <span style='white-space:nowrap'>director (Geschäftsführer" in card
    True
    """
    c = as_dict(company)
    name = (c.get("name") or {}).get("name") or c.get("id", "")
    status = str(c.get("status") or "unknown")
    colour = _STATUS_COLOURS.get(status, "#6e7781")
    register = c.get("register") or {}
    register_text = " ".join(str(register.get(k) or "") for k in ("register_type", "register_number")).strip()
    if register.get("register_court"):
        register_text += f", {register['register_court']}"
    form = c.get("legal_form")
    rows = [
        _row("Legal form", html.escape(display_label("legal_form", form) if form else "–")),
        _row("Register", html.escape(register_text or "–")),
        _row("Address", html.escape((c.get("address") or {}).get("formatted_value") or "–")),
        _row("Capital", _capital(c)),
        _row("People (active roles)", _people(c)),
        _row("Latest indicators", _indicators(c)),
        _row("Insolvency", _insolvency(c)),
    ]
    badge = (
        f"<span style='background:{colour};color:#fff;border-radius:3px;padding:0 6px;font-size:80%;"
        f"vertical-align:middle;white-space:nowrap'>{html.escape(display_label('status', status))}</span>"
    )
    return (
        f"<div class='regkit-card' style='{_CARD}'>"
        f"<div style='font-size:120%;font-weight:600'>{html.escape(name)} {badge}</div>"
        f"<div style='color:#57606a;font-size:85%'>{html.escape(str(c.get('id', '')))}</div>"
        f"<table style='margin-top:4px;border-collapse:collapse'>{''.join(rows)}</table></div>"
    )
