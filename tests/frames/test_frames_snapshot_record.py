"""A snapshot on or after a record's newest date agrees with the record (``regkit.frames.status``)."""

from __future__ import annotations

import pytest
from record_support import newest_record_date

from regkit.frames import as_of, panel

pytestmark = pytest.mark.slow


def imported_cooperative() -> dict:
    """A cooperative as a real register record reads once imported: in liquidation by its "i.L." name,
    no representative listed, no capital, a former name; nothing dates the liquidation."""
    register = {
        "company_id": "DE-GnR-D2601-312",
        "register_number": "312",
        "register_type": "GnR",
        "register_court": "Amtsgericht Würzburg",
        "start_date": "1994-06-01",
    }
    names = [
        {"name": "Raiffeisen-Warengenossenschaft Eibelstadt eG", "legal_form": "eg", "start_date": "1994-06-01"},
        {"name": "Raiffeisen-Warengenossenschaft Eibelstadt eG i.L.", "legal_form": "eg", "start_date": "2011-09-14"},
    ]
    address = {
        "street": None,
        "city": "Eibelstadt",
        "postal_code": None,
        "country": "Deutschland",
        "start_date": "1994-06-01",
        "formatted_value": "Eibelstadt",
    }
    return {
        "id": "DE-GnR-D2601-312",
        "register": register,
        "registers": [register],
        "status": "liquidation",
        "name": names[-1],
        "names": names,
        "address": address,
        "addresses": [address],
        "purpose": None,
        "purposes": [],
        "capital": None,
        "capitals": [],
        "representation": [],
        "representation_rule": None,
        "indicators": [],
        "legal_form": "eg",
        "documents": [],
        "incorporated_at": "1994-06-01",
        "notarized_at": None,
        "terminated_at": None,
        "merged_into": None,
        "acquisitions": [],
        "asset_spin_offs": [],
        "profit_transfer_agreement": None,
        "industry_codes": {"WZ2025": []},
        "contact": None,
    }


def test_cooperative_in_liquidation_without_a_liquidator_is_in_liquidation_from_its_newest_date():
    company = imported_cooperative()
    newest = newest_record_date(company)
    assert newest == "2011-09-14"
    now = as_of(company, newest)
    assert (now.existed, now.status, now.name) == (True, "liquidation", company["name"]["name"])
    assert as_of(company, "2024-01-01").status == "liquidation"
    assert as_of(company, "2011-09-13").status == "active"  # before it, only the dated facts speak
    years = panel(company, years=[2010, 2011, 2024]).set_index("year")["status"].astype(str)
    assert years.to_dict() == {2010: "active", 2011: "liquidation", 2024: "liquidation"}


def test_an_active_record_is_active_from_its_newest_date_on():
    company = imported_cooperative()
    company["status"] = "active"
    company["name"] = company["names"][0]
    company["names"] = company["names"][:1]
    newest = newest_record_date(company)
    for day in (newest, "2030-01-01"):
        then = as_of(company, day)
        assert (then.existed, then.status) == (True, "active")


def test_a_removed_record_without_termination_date_existed_on_its_newest_date_and_is_unknown_after():
    """Removed, with no date of removal (as OffeneRegister records are): the removal is not dated, so the
    company existed up to and on its newest dated fact — and after it nobody can tell (None, not False)."""
    company = imported_cooperative()
    company["status"] = "inactive"
    company["name"] = company["names"][0]
    company["names"] = company["names"][:1]
    newest = newest_record_date(company)
    assert newest == company["incorporated_at"] == "1994-06-01"  # its only date, as often in the real data
    born = as_of(company, newest)
    assert (born.existed, born.status) == (True, "active")
    later = as_of(company, "1994-06-02")
    assert (later.existed, later.status) == (None, None)
    assert later.name == company["name"]["name"]  # the facts are those of its newest date
    assert (as_of(company, "1994-05-31").existed, as_of(company, "1994-05-31").status) == (False, None)
    years = panel(company, years=[1993, 1994, 1995, 2024])
    assert years["year"].tolist() == [1994, 1995, 2024]
    assert str(years["exists_at_year_end"].dtype) == "boolean"
    assert years["exists_at_year_end"].isna().tolist() == [True, True, True]  # 31 Dec 1994 is after 1 June
    company["terminated_at"] = "2001-03-31"  # with a termination date it is known again: False from it on
    assert [as_of(company, d).existed for d in ("1994-06-02", "2001-03-30", "2001-03-31", "2024-01-01")] == [
        True,
        True,
        False,
        False,
    ]
    assert panel(company, years=[1994, 2000, 2001])["exists_at_year_end"].tolist() == [True, True, False]


def test_every_world_company_on_its_newest_date_agrees_with_its_record(world_companies):
    for company in world_companies:
        day = newest_record_date(company)
        then = as_of(company, day)
        current_roles = sorted(
            (r["name"], r["role"]) for r in company["representation"] if r["end_date"] is None or r["end_date"] > day
        )
        seen = {
            "status": then.status,
            "existed": then.existed,
            "name": then.name,
            "address": then.address,
            "register_number": then.register_number,
            "roles": sorted(zip(then.representatives["name"], then.representatives["role"])),
        }
        expected = {
            "status": company["status"],
            "existed": company["status"] != "inactive",
            "name": company["name"]["name"],
            "address": (company["address"] or {}).get("formatted_value"),
            "register_number": company["register"]["register_number"],
            "roles": current_roles,
        }
        assert seen == expected, company["id"]
        if company["capital"] is not None:
            assert (then.capital_amount, then.capital_currency) == (
                company["capital"]["amount"],
                company["capital"]["currency"],
            ), company["id"]
