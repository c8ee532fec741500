"""Facts the bundled world's data files fix (``data/README.md`` scenario table), checked through the frames.

Expected values are computed in the test from the raw records (or taken from the README), never from
``regkit.frames`` itself.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pandas as pd
import pytest

from regkit.frames import (
    as_of,
    companies,
    contact,
    documents,
    events,
    history,
    indicators,
    industry_codes,
    insolvency_summaries,
    links,
    panel,
    proceedings,
    ratios,
    representatives,
)
from regkit.frames.status import status_on

DEM_CONVERTED = "DE-HRB-R1102-109244"
UG_TO_GMBH = "DE-HRB-R3101-94644"
MOVED = "DE-HRB-R2307-168089"
ACQUIRER, ABSORBED = "DE-HRB-R3208-147620", "DE-HRB-B8534-111252"
SPIN_OFF = ("DE-HRB-G1103-60303", "DE-HRB-G1103-116776")
WALDSTEIN = "DE-HRB-X1517-62135KI"  # the largest group's Organträger
LIQUIDATION = "DE-HRA-T2408-42049"
OPEN_INSOLVENCY = "DE-HRB-P2408-81776"
CONSUMER = "7da364e3-c5b0-4073-9e81-299f0003a075"


def test_dem_capital_converted_across_2002(world):
    raw = world.companies[DEM_CONVERTED]["capitals"]
    frame = history(world.companies[DEM_CONVERTED], "capitals")
    assert frame["currency"].tolist() == [e["currency"] for e in raw] == ["DEM", "EUR"]
    dem, eur = frame.iloc[0], frame.iloc[1]
    assert dem["valid_to"] == eur["valid_from"] == pd.Timestamp(raw[1]["start_date"])
    assert 2002 <= eur["valid_from"].year <= 2012  # the README: converted between 2002 and 2012
    expected = (Decimal(str(raw[0]["amount"])) / Decimal("1.95583")).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert dem["amount_eur"] == float(expected) == 511291.88
    assert eur["amount_eur"] == eur["amount"] == raw[1]["amount"]
    assert as_of(world.companies[DEM_CONVERTED], "2001-12-31").capital_currency == "DEM"
    assert bool(eur["is_current"]) and not bool(dem["is_current"])


def test_ug_becomes_gmbh_when_capital_reaches_25000(world):
    company = world.companies[UG_TO_GMBH]
    names, capitals = history(company, "names"), history(company, "capitals")
    assert names["legal_form"].tolist() == ["ug", "gmbh"]
    switch = names.loc[1, "valid_from"]
    raised = capitals[capitals["amount"] >= 25000].iloc[0]
    assert raised["valid_from"] == switch and raised["currency"] == "EUR"
    before = as_of(company, switch - pd.Timedelta(days=1))
    after = as_of(company, switch)
    assert (before.legal_form, after.legal_form) == ("ug", "gmbh")
    assert before.capital_eur < 25000 <= after.capital_eur
    assert after.register_number == before.register_number  # same register number


def test_move_to_another_court_changes_register_and_address(world):
    company = world.companies[MOVED]
    registers, addresses = history(company, "registers"), history(company, "addresses")
    assert len(registers) == len(addresses) == 2
    assert registers["register_company_id"].tolist() == [r["company_id"] for r in company["registers"]]
    assert (
        registers.loc[1, "register_company_id"]
        == MOVED
        == world.meta["former_ids"][registers.loc[0, "register_company_id"]]
    )
    assert registers.loc[1, "valid_from"] == addresses.loc[1, "valid_from"]
    assert registers.loc[0, "register_court"] != registers.loc[1, "register_court"]


def test_merger_transaction_is_one_for_both_sides(world):
    frame = links([world.companies[ACQUIRER], world.companies[ABSORBED]])
    acquisitions = world.companies[ACQUIRER]["acquisitions"]
    dates = {a["agreement_date"] for a in acquisitions}
    assert len(acquisitions) >= 2 and len(dates) == 1  # the README: several mergers in one transaction
    merged = frame[frame["relation"] == "merger"]
    assert set(merged["target"]) == {ACQUIRER}
    assert merged["transaction"].nunique() == 1
    edges = merged.drop_duplicates(["source", "target", "relation", "registration_date"])
    assert len(edges) == len(acquisitions)  # the absorbed company's own entry mirrors one acquisition
    assert ABSORBED in set(edges["source"])


def test_spin_off_direction(world):
    source, target = SPIN_OFF
    frame = links(world.companies[source])
    spin = frame[frame["relation"] == "spin_off"]
    assert spin[["source", "target"]].values.tolist() == [[source, target]]


def test_largest_groups_profit_transfer_agreements(world, world_companies):
    group = next(g for g in world.meta["groups"] if g["organtraeger"] == WALDSTEIN)
    members = set(group["members"])
    expected = {
        c["id"]: c["profit_transfer_agreement"]["company_id"]
        for c in world_companies
        if c["id"] in members and c["profit_transfer_agreement"]
    }
    assert len(members) == 24 and len(expected) == 13  # the README's group table
    frame = links([world.companies[m] for m in group["members"]])
    pta = frame[frame["relation"] == "profit_transfer"]
    assert dict(zip(pta["source"], pta["target"])) == expected
    assert WALDSTEIN in set(pta["target"])
    assert set(pta["target"]) <= members  # to the Organträger or an intermediate holding of the group


def test_liquidation_status_and_liquidator(world):
    company = world.companies[LIQUIDATION]
    now = as_of(company, world.meta["as_of"])
    assert now.status == "liquidation" and now.name.endswith("i.L.")
    assert "LIQUIDATOR" in set(now.representatives["role"])
    appointed = next(r["start_date"] for r in company["representation"] if r["role"] == "LIQUIDATOR")
    assert as_of(company, pd.Timestamp(appointed) - pd.Timedelta(days=1)).status == "active"


def test_inferred_status_equals_current_status_for_every_world_company(world, world_companies):
    assert all(status_on(c, world.meta["as_of"])[1] == c["status"] for c in world_companies)
    frame = panel(world_companies, years=[2026])  # nothing in the stored records is dated after 2026-06-30
    current = {c["id"]: c["status"] for c in world_companies}
    assert (frame["status"].astype(str) == frame["company_id"].map(current)).all()


def test_open_insolvency(world):
    company = world.companies[OPEN_INSOLVENCY]
    summary = insolvency_summaries(company)
    assert summary[["case_number", "court", "current_status"]].values.tolist() == [
        ["89 IN 762/20", "Amtsgericht Hildesheim", "opened"]
    ]
    rows = panel(company, years=[2019, 2020, 2021])
    assert rows["insolvency_opened"].tolist() == [False, True, False]
    assert companies(company)["has_insolvency"].tolist() == [True]
    equity = indicators(company).set_index("date")["equity"]
    assert equity.iloc[-1] < equity.iloc[0]  # distress in the accounts


def test_consumer_insolvency_events(world):
    proceeding = world.insolvencies[CONSUMER]
    frame = events(proceeding)
    assert frame["published_at"].is_monotonic_increasing
    assert frame["event_type"].iloc[-1] == "discharge_granted" == proceeding["current_status"]
    assert frame["discharge_granted"].iloc[-1] == True  # noqa: E712 - a nullable boolean
    assert proceedings(proceeding)[["debtor_name", "event_count"]].values.tolist() == [
        ["Christian Ahrens", len(proceeding["events"])]
    ]


def test_corrected_reports_are_both_kept(world_companies):
    duplicated = {
        c["id"]: c["indicators"]
        for c in world_companies
        if len({e["date"] for e in c["indicators"]}) < len(c["indicators"])
    }
    assert duplicated  # the README: a few companies have two reports for one date
    frame = indicators(list(world_companies), unit="cents")
    mine = frame[frame["company_id"].isin(duplicated)]
    assert len(mine) == sum(len(v) for v in duplicated.values())
    assert set(mine["report_id"]) == {e["report_id"] for v in duplicated.values() for e in v}
    twice = mine[mine.duplicated(["company_id", "date"], keep=False)]
    assert (twice.groupby(["company_id", "date"])["is_latest_revision"].sum() == 1).all()
    assert set(twice["revision"]) == {0, 1}


def test_usd_capital_has_no_eur_value(world_companies):
    usd = [c for c in world_companies if (c["capital"] or {}).get("currency") == "USD"]
    assert usd  # the README: USD for some foreign branches
    frame = companies(usd)
    assert frame["capital_eur"].isna().all() and frame["capital_amount"].notna().all()
    assert (frame["capital_amount"] > 0).all()


@pytest.mark.slow
def test_whole_world_frames_are_complete(world, world_companies):
    assert len(companies(world.companies)) == 5000
    assert len(representatives(world_companies)) == 21_531  # the README's counts
    assert len(indicators(world_companies)) == 45_148
    assert len(documents(world_companies)) == 10_557  # 10,384 before the filings stage added 173 shareholder lists
    assert len(insolvency_summaries(world_companies)) == 971
    assert len(industry_codes(world_companies)) == sum(len(c["industry_codes"]["WZ2025"]) for c in world_companies)
    assert len(contact(world_companies)) == sum(c["contact"] is not None for c in world_companies)
    for field in ("names", "addresses", "purposes", "capitals", "registers"):
        frame = history(world_companies, field)
        assert len(frame) == sum(len(c[field]) for c in world_companies)  # current == newest entry: nothing added
        assert frame["is_current"].sum() == sum(
            c[
                {
                    "names": "name",
                    "addresses": "address",
                    "purposes": "purpose",
                    "capitals": "capital",
                    "registers": "register",
                }[field]
            ]
            is not None
            for c in world_companies
        )
    assert ratios(indicators(world_companies))["equity_ratio"].notna().any()


@pytest.mark.parametrize("field", ["representation", "indicators"])
def test_company_with_the_most_entries(world_companies, field):
    biggest = max(world_companies, key=lambda c: len(c[field]))
    frame = representatives(biggest) if field == "representation" else indicators(biggest)
    assert len(frame) == len(biggest[field]) >= 10
