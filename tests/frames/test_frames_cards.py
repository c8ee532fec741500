"""The company and person cards read as a reader expects: display labels ("GmbH", "in liquidation",
"Prokura"), each person (each company) once with all their roles, money with digit grouping and its unit.
Expected values come from the bundled world and from the labels of the specification's codes."""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

from regkit.frames import company_card_html, person_card_html
from regkit.schema.labels import ROLE_LABELS


def _active(company: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in company["representation"] if r["end_date"] is None]


def _liquidating_gmbh(world_companies: list[dict[str, Any]]) -> dict[str, Any]:
    """A GmbH in liquidation with capital in EUR, published indicators, and a person in two active roles."""
    return next(
        c
        for c in world_companies
        if c["legal_form"] == "gmbh"
        and c["status"] == "liquidation"
        and (c["capital"] or {}).get("currency") == "EUR"
        and c["capital"]["amount"] >= 1000
        and c["indicators"]
        and max(Counter(r["id"] for r in _active(c) if r["id"]).values(), default=0) > 1
    )


def test_the_company_card_says_gmbh_in_liquidation_and_euros(world_companies: list[dict[str, Any]]) -> None:
    company = _liquidating_gmbh(world_companies)
    card = company_card_html(company)
    assert ">GmbH<" in card and "gmbh" not in card.replace(company["id"].lower(), "")
    assert ">in liquidation</span>" in card
    amount = company["capital"]["amount"]
    text = f"{amount:,.2f}".removesuffix(".00")
    assert f"€{text}" in card and "EUR" not in card
    newest = max(e["date"] for e in company["indicators"])
    report = [e for e in company["indicators"] if e["date"] == newest][-1]
    for key, label in (("revenue", "Revenue"), ("equity", "Equity")):
        if report[key] is not None:
            euros = round(report[key] / 100)
            assert f"{label} {'-' if euros < 0 else ''}€{abs(euros):,}" in card


def test_the_company_card_lists_a_person_once_with_all_roles(world_companies: list[dict[str, Any]]) -> None:
    company = _liquidating_gmbh(world_companies)
    card = company_card_html(company)
    roles: dict[str, list[str]] = {}
    for r in _active(company):
        roles.setdefault(r["name"], []).append(ROLE_LABELS[r["role"]])
    cell = card.split("People (active roles)</th>")[1].split("</td>")[0]
    lines = [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in cell.split("<br>")]
    shown = [tuple(line.split(" — ")) for line in lines]
    assert len(shown) == len(roles) <= 8
    for name, text in shown:
        assert text.split(", ") == list(dict.fromkeys(roles[name]))
    assert any(len(held) > 1 for held in roles.values()) and any(", " in text for _, text in shown)


def test_a_capital_in_dem_shows_its_currency_and_its_euros(world_companies: list[dict[str, Any]]) -> None:
    company = next(c for c in world_companies if (c["capital"] or {}).get("currency") == "DEM")
    amount = company["capital"]["amount"]
    euros = round(amount / 1.95583, 2)
    card = company_card_html(company)
    assert "DEM " + f"{amount:,.2f}".removesuffix(".00") + " (= €" + f"{euros:,.2f}".removesuffix(".00") + ")" in card


def test_the_person_card_lists_a_company_once_with_all_roles() -> None:
    person = {
        "id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7",
        "first_name": "Anna",
        "last_name": "Beispiel",
        "city": "Kassel",
        "date_of_birth": "1970-05-04",
        "age": 55,
        "management_positions": [
            {
                "company_name": "Roth GmbH",
                "register_id": "DE-HRB-B1234-1",
                "role": "DIRECTOR",
                "start_date": "2019-04-01",
                "end_date": None,
            },
            {
                "company_name": "Roth GmbH",
                "register_id": "DE-HRB-B1234-1",
                "role": "PROKURA",
                "start_date": "2015-01-01",
                "end_date": None,
            },
            {
                "company_name": "Alt AG",
                "register_id": "DE-HRB-B1234-2",
                "role": "LIQUIDATOR",
                "start_date": "2001-01-01",
                "end_date": "2005-01-01",
            },
        ],
    }
    card = person_card_html(person)
    assert card.count("Roth GmbH") == 1
    line = html.unescape(re.sub(r"<[^>]+>", "", card.split("Current positions</th>")[1].split("</td>")[0]))
    assert line == (
        "Roth GmbH — director (Geschäftsführer / Vorstand) since 2019-04-01, "
        "authorised signatory (Prokura) since 2015-01-01"
    )
    assert "DIRECTOR" not in card and "prokura" not in card and "1 past position" in card and "Alt AG" not in card
