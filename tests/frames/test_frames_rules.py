"""The rules the issue left open, each pinned down by an example (see the module docstrings they cite)."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest

from regkit.frames import (
    as_of,
    companies,
    contact,
    history,
    indicators,
    insolvency_results,
    insolvency_summaries,
    links,
    panel,
    ratios,
    representatives,
)
from regkit.frames.financials import MEASURES


def test_two_versions_on_one_start_date_both_stay(company):
    """history: the earlier gets valid_to == valid_from (an empty interval); as_of shows the later one."""
    company["names"] = [
        {"name": "Alt GmbH", "legal_form": "gmbh", "start_date": "2010-01-01"},
        {"name": "Tippfehler GmbH", "legal_form": "gmbh", "start_date": "2015-05-05"},
        {"name": "Korrigiert GmbH", "legal_form": "gmbh", "start_date": "2015-05-05"},
    ]
    company["name"] = company["names"][-1]
    frame = history(company, "names")
    assert frame["name"].tolist() == ["Alt GmbH", "Tippfehler GmbH", "Korrigiert GmbH"]
    assert frame.loc[1, "valid_from"] == frame.loc[1, "valid_to"] == pd.Timestamp("2015-05-05")
    assert pd.isna(frame.loc[2, "valid_to"]) and frame["is_current"].tolist() == [False, False, True]
    assert as_of(company, "2015-05-05").name == "Korrigiert GmbH"
    assert as_of(company, "2015-05-04").name == "Alt GmbH"


def test_current_member_missing_from_its_history_is_a_version(company):
    company["purposes"] = []
    frame = history(company, "purposes")
    assert frame["purpose"].tolist() == [company["purpose"]["purpose"]] and frame["is_current"].all()


def test_null_current_capital_leaves_no_current_version(company):
    company["capital"] = None
    frame = history(company, "capitals")
    assert len(frame) == 2 and not frame["is_current"].any() and pd.isna(frame["valid_to"].iloc[-1])


def test_register_without_start_date_sorts_first(company):
    undated = {k: v for k, v in company["register"].items() if k != "start_date"}
    company["registers"] = [company["register"], undated]
    frame = history(company, "registers")
    assert frame["valid_from"].isna().tolist() == [True, False]
    assert frame["valid_to"].iloc[0] == frame["valid_from"].iloc[1]


def test_unsorted_history_is_sorted_stably(company):
    company["addresses"] = company["addresses"][::-1]
    frame = history(company, "addresses")
    assert frame["valid_from"].is_monotonic_increasing and frame["is_current"].tolist() == [False, True]


def test_unknown_enum_value_is_kept_not_nulled(company, caplog):
    company["names"][0]["legal_form"] = "societas_nova"
    with caplog.at_level(logging.WARNING, logger="regkit.frames"):
        frame = history(company, "names")
    assert frame["legal_form"].tolist() == ["societas_nova", "gmbh"]
    assert "societas_nova" in caplog.text


def test_missing_required_member_names_company_and_member(company):
    del company["names"][0]["legal_form"]
    with pytest.raises(ValueError, match="legal_form"):
        history(company, "names")
    del company["indicators"]
    with pytest.raises(ValueError, match=r"DE-HRB-F1103-99999.*'indicators'"):
        indicators(company)


def test_accepts_records_dicts_lists_mappings_and_batches(company):
    class Record:
        def __init__(self, raw):
            self.raw = raw

    expected = companies(company)
    other = dict(company, id="DE-HRB-F1103-1")
    for given in (Record(company), [company], {"x": company}, [None, Record(company)]):
        pd.testing.assert_frame_equal(companies(given), expected)
    assert companies([company, Record(other)])["company_id"].tolist() == [company["id"], other["id"]]
    with pytest.raises(TypeError):
        companies("DE-HRB-F1103-99999")
    with pytest.raises(TypeError):
        companies([{"not": "a company"}])


def test_empty_inputs_keep_their_dtypes(company):
    for build in (lambda cs: history(cs, "capitals"), representatives, indicators, links, companies):
        empty, full = build([]), build(company)
        assert len(empty) == 0 and empty.dtypes.equals(full.dtypes)


def test_dtypes_are_the_documented_ones(company):
    names = history(company, "capitals")
    assert {c: str(t) for c, t in names.dtypes.items()} == {
        "company_id": "str",
        "version": "int64",
        "valid_from": "datetime64[us]",
        "valid_to": "datetime64[us]",
        "is_current": "bool",
        "valid_from_derived": "bool",
        "valid_to_derived": "bool",
        "amount": "Float64",
        "currency": "category",
        "amount_eur": "Float64",
    }
    assert list(names["currency"].cat.categories) == ["EUR", "DEM", "USD"]
    wide = indicators(company)
    assert set(map(str, wide[list(MEASURES)].dtypes)) == {"Float64"} and str(wide["employees"].dtype) == "Int64"
    assert set(map(str, indicators(company, unit="cents")[list(MEASURES)].dtypes)) == {"Int64"}


def test_corrected_report_kept_with_revision(company):
    frame = indicators(company)
    assert frame["report_id"].tolist() == [e["report_id"] for e in company["indicators"]]
    assert frame["revision"].tolist() == [0, 0, 1] and frame["is_latest_revision"].tolist() == [True, False, True]
    assert companies(company)["report_id"].item() == company["indicators"][-1]["report_id"]


def test_long_indicators_keep_nulls_and_units(company):
    long = indicators(company, wide=False)
    assert (
        len(long) == 3 * 13
        and long["value"].isna().sum() == indicators(company)[[*MEASURES, "employees"]].isna().sum().sum()
    )
    assert set(long.loc[long["measure"] == "employees", "unit"]) == {"persons"}
    assert set(long.loc[long["measure"] != "employees", "unit"]) == {"EUR"}


def test_ratios_are_null_for_null_or_zero_inputs(company):
    company["indicators"][0]["equity"] = None
    company["indicators"][1]["revenue"] = 0
    company["indicators"][1]["employees"] = 0
    frame = ratios(indicators(company))
    assert frame["equity_ratio"].isna().tolist() == [True, False, False]
    assert frame["net_margin"].isna().tolist() == [False, True, False]  # zero revenue: no margin, not ±inf
    assert pd.isna(frame.loc[1, "salaries_per_employee"]) and frame.loc[2, "salaries_per_employee"] == 90000 / 13
    assert not np.isinf(frame[["equity_ratio", "net_margin", "liabilities_to_equity"]].astype(float)).any().any()


def test_revenue_growth_needs_the_previous_year(company):
    frame = ratios(indicators(company))
    assert pd.isna(frame.loc[0, "revenue_growth"])
    assert frame.loc[1, "revenue_growth"] == frame.loc[2, "revenue_growth"] == pytest.approx(0.1)
    company["indicators"][0]["date"] = "2021-12-31"  # a gap of two years: no growth figure
    assert ratios(indicators(company))["revenue_growth"].isna().all()


def test_links_without_agreement_date_are_their_own_transaction(company):
    company["acquisitions"] = [
        dict(company["acquisitions"][0], agreement_date=None, company_id=f"DE-HRB-X1-{n}") for n in (1, 2)
    ]
    frame = links(company)
    undated = frame[frame["agreement_date"].isna()]
    assert undated["transaction"].nunique() == 2
    assert frame.loc[frame["relation"] == "profit_transfer", "target"].item() == "DE-HRB-F1103-88888"


def test_as_of_before_incorporation_and_after_termination(company):
    before = as_of(company, "1990-01-01")
    assert (before.existed, before.status, before.name) == (False, None, None)
    company["terminated_at"] = "2024-01-01"
    after = as_of(company, "2024-06-30")
    assert (after.existed, after.status, after.name) == (False, "inactive", "Beispiel Werkzeugbau GmbH")
    assert after.to_series()["active_representatives"] == 2  # roles without end date: the record says so


def test_representatives_activity_on_a_date(company):
    frame = representatives(company, active_on="2016-12-30")
    assert frame["is_active"].tolist() == [True, False, True]
    frame = representatives(company, active_on="2016-12-31")  # end date = first day out of office
    assert frame["is_active"].tolist() == [False, True, True]
    assert representatives(company)["id_derived"].tolist() == [False, True, False]


def test_representatives_takes_active_on_and_names_what_it_does_not_take(company):
    frame = representatives(company, active_on="2016-12-31")
    assert frame["is_active"].tolist() == [False, True, True]
    with pytest.raises(TypeError, match="unexpected keyword argument 'as_of'"):  # the unreleased former name
        representatives(company, as_of="2016-12-31")
    with pytest.raises(TypeError, match="unexpected keyword"):
        representatives(company, on="2016-12-31")


def test_contact_and_insolvencies_may_be_absent(company):
    company["contact"] = None
    assert len(contact(company)) == 0 and len(insolvency_summaries(company)) == 0
    company["insolvencies"] = [{"id": "x", "current_status": "opened", "court": "AG", "case_number": "1 IN 1/24"}]
    row = insolvency_summaries(company).iloc[0]
    assert pd.isna(row["proceeding_kind"]) and pd.isna(row["opened_at"])


def test_insolvency_results_from_pages_and_iterators():
    result = {
        "id": "a",
        "debtor_name": "A",
        "debtor_kind": None,
        "debtor_legal_form": None,
        "case_number": "1",
        "court": "AG",
        "city": None,
        "current_status": "unknown",
        "has_open_insolvency": None,
        "proceeding_kind": None,
        "administration_kind": None,
        "insolvency_grounds": None,
        "administrator_name": None,
        "company_id": None,
        "person_id": None,
        "opened_at": None,
        "closed_at": None,
        "last_event_at": None,
    }
    page = {"results": [result, dict(result, id="b")], "pagination": {}}
    assert insolvency_results(page)["id"].tolist() == ["a", "b"]
    assert insolvency_results([page, page])["id"].tolist() == ["a", "b", "a", "b"]  # not de-duplicated
    frame = insolvency_results(r for r in [result])
    assert frame["ground_illiquidity"].isna().all() and frame["has_open_insolvency"].isna().all()


def test_panel_rows_span_the_company_life(company):
    company["terminated_at"] = "2020-03-31"
    frame = panel(company, years=range(1990, 2025))
    assert frame["year"].tolist() == list(range(1995, 2021))
    assert frame["exists_at_year_end"].tolist() == [True] * 25 + [False]
    assert frame["status"].iloc[-1] == "inactive" and frame["age"].iloc[0] == 0
    assert panel(company).empty or panel(company)["year"].min() >= 1995


def test_dozens_of_versions(company):
    days = [f"{1995 + i // 2}-0{1 + i % 2}-15" for i in range(36)] + ["2012-02-15"]  # 37 versions, one same-day pair
    company["names"] = [{"name": f"Name {i}", "legal_form": "gmbh", "start_date": d} for i, d in enumerate(days)]
    company["name"] = company["names"][-1]
    frame = history(company, "names")
    assert len(frame) == 37 and frame["valid_from"].is_monotonic_increasing
    assert (frame["valid_to"].iloc[:-1].to_numpy() >= frame["valid_from"].iloc[:-1].to_numpy()).all()
    assert (frame["valid_to"] == frame["valid_from"]).sum() == 1
    for _, row in frame.iterrows():
        if row["valid_to"] != row["valid_from"]:
            assert as_of(company, row["valid_from"]).name == row["name"]


def test_one_version_of_everything(world_companies):
    single = next(
        c
        for c in world_companies
        if all(
            len(c[f]) == 1
            for f in ("names", "addresses", "purposes", "capitals", "registers", "indicators", "documents")
        )
    )
    for field in ("names", "addresses", "purposes", "capitals", "registers"):
        frame = history(single, field)
        assert len(frame) == 1 and frame["is_current"].all() and frame["valid_to"].isna().all()
    assert len(indicators(single)) == 1 and len(companies(single)) == 1
