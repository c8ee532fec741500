"""A compact HTML card of a person for Jupyter (``PersonRecord._repr_html_``) and the explorer's summary tab.

Plain string building from the payload — no pandas — and every value escaped. Shows name, date of birth and
age, city, the current management positions (each company once, with all the roles held there, by their
display labels: "director (Geschäftsführer / Vorstand)", "authorised signatory (Prokura)") and how many past positions there are.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from regkit.schema import display_label
from regkit.schema.formatting import plural

from ._input import as_dict

__all__ = ["person_card_html"]

_MAX_COMPANIES = 8
_CARD = "border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;max-width:60em;font-size:13px;line-height:1.45"


def _nowrap(text: str) -> str:
    """Escaped text kept on one line (one role and its start date)."""
    return f"<span style='white-space:nowrap'>{html.escape(text)}</span>"


def _row(label: str, value: str) -> str:
    return (
        f"<tr><th style='text-align:left;vertical-align:top;padding:2px 12px 2px 0;font-weight:600;"
        f"white-space:nowrap'>{html.escape(label)}</th><td style='text-align:left;padding:2px 0'>{value}</td>"
        "</tr>"
    )


def _current(held: list[Mapping[str, Any]]) -> str:
    """Each company once: its name, then every current role there with its start."""
    companies: dict[str, tuple[str, list[str]]] = {}
    for m in held:
        if m.get("end_date") is None:
            key = str(m.get("register_id") or m.get("company_name") or "")
            name = str(m.get("company_name") or m.get("register_id") or "")
            since = f" since {m['start_date']}" if m.get("start_date") else ""
            companies.setdefault(key, (name, []))[1].append(display_label("role", m.get("role") or "OTHER") + since)
    if not companies:
        return "–"
    shown = [
        f"{html.escape(name)} <span style='color:#57606a'>— {', '.join(map(_nowrap, roles))}</span>"
        for name, roles in list(companies.values())[:_MAX_COMPANIES]
    ]
    more = len(companies) - _MAX_COMPANIES
    return "<br>".join(shown) + (f"<br>… and {more} more" if more > 0 else "")


def person_card_html(person: Any) -> str:
    """The HTML card of one person.

    Parameters
    ----------
    person : record or dict
        A PersonV1 payload (``client.get_person(uuid)``) or a record of one.

    Returns
    -------
    str
        An HTML fragment (a ``<div>``), every value escaped.

    Examples
    --------
    >>> card = person_card_html({"id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7", "first_name": "Ida",
    ...     "last_name": "Roth", "city": "Kassel", "date_of_birth": "1970-05-04", "age": 55,
    ...     "management_positions": [{"company_name": "Roth GmbH", "register_id": "DE-HRB-B1234-1",
    ...     "role": "DIRECTOR", "start_date": "2019-04-01", "end_date": None}, {"company_name": "Alt AG",
    ...     "register_id": "DE-HRB-B1234-2", "role": "PROKURA", "start_date": "2001-01-01",
    ...     "end_date": "2005-01-01"}]})
    >>> "<span style='white-space:nowrap'>director (Geschäftsführer / Vorstand) since 2019-04-01</span>" in card
    True
    >>> "Ida Roth" in card and "1 past position" in card and "Alt AG" not in card
    True
    """
    p = as_dict(person)
    name = " ".join(str(p.get(k) or "") for k in ("first_name", "last_name")).strip() or str(p.get("id", ""))
    held = list(p.get("management_positions") or [])
    past = sum(1 for m in held if m.get("end_date") is not None)
    born = str(p.get("date_of_birth") or "–") + (f" (age {p['age']})" if p.get("age") is not None else "")
    rows = [
        _row("Born", html.escape(born)),
        _row("City", html.escape(str(p.get("city") or "–"))),
        _row("Current positions", _current(held)),
        _row("Past positions", html.escape(plural(past, "past position"))),
    ]
    return (
        f"<div class='regkit-card' style='{_CARD}'>"
        f"<div style='font-size:120%;font-weight:600'>{html.escape(name)}</div>"
        f"<div style='color:#57606a;font-size:85%'>{html.escape(str(p.get('id', '')))}</div>"
        f"<table style='margin-top:4px;border-collapse:collapse'>{''.join(rows)}</table></div>"
    )
