"""A compact HTML card of a person for Jupyter (``PersonRecord._repr_html_``).

Plain string building from the payload — no pandas — and every value escaped. Shows name, date of birth and
age, city, the current management positions and how many past ones there are.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from ._input import as_dict

__all__ = ["person_card_html"]

_MAX_POSITIONS = 8


def _row(label: str, value: str) -> str:
    return (f"<tr><th style='text-align:left;padding:1px 8px 1px 0;font-weight:600'>{html.escape(label)}</th>"
            f"<td style='text-align:left;padding:1px 0'>{value}</td></tr>")  # fmt: skip


def _position(position: Mapping[str, Any]) -> str:
    role = str(position.get("role") or "").lower().replace("_", " ")
    since = f", since {position['start_date']}" if position.get("start_date") else ""
    return (f"{html.escape(str(position.get('company_name') or position.get('register_id') or ''))} "
            f"<small>({html.escape(role + since)})</small>")  # fmt: skip


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
    >>> "Ida Roth" in card and "Roth GmbH" in card and "1 past position" in card and "Alt AG" not in card
    True
    """
    p = as_dict(person)
    name = " ".join(str(p.get(k) or "") for k in ("first_name", "last_name")).strip() or str(p.get("id", ""))
    held = p.get("management_positions") or []
    current = [m for m in held if m.get("end_date") is None]
    past = len(held) - len(current)
    shown = ", ".join(_position(m) for m in current[:_MAX_POSITIONS]) or "–"
    if len(current) > _MAX_POSITIONS:
        shown += f", … {len(current) - _MAX_POSITIONS} more"
    born = str(p.get("date_of_birth") or "–") + (f" (age {p['age']})" if p.get("age") is not None else "")
    rows = [
        _row("Born", html.escape(born)),
        _row("City", html.escape(str(p.get("city") or "–"))),
        _row("Current positions", shown),
        _row("Past positions", html.escape(f"{past} past position" + ("" if past == 1 else "s"))),
    ]
    return (f"<div style='border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;max-width:46em'>"
            f"<div style='font-size:115%;font-weight:600'>{html.escape(name)}</div>"
            f"<div style='color:#57606a;font-size:85%'>{html.escape(str(p.get('id', '')))}</div>"
            f"<table style='margin-top:4px;border-collapse:collapse'>{''.join(rows)}</table></div>")  # fmt: skip
