"""Property tests over generated valid CompanyV1 payloads (strategies in ``strategies.py``)."""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_support import newest_record_date
from strategies import cents, companies_v1, dates

from regkit.frames import (
    as_of,
    companies,
    contact,
    documents,
    history,
    indicators,
    industry_codes,
    insolvency_summaries,
    links,
    panel,
    ratios,
    representatives,
)
from regkit.frames.financials import MEASURES
from regkit.frames.histories import CURRENT, FIELDS
from regkit.frames.money import MAX_EXACT_CENTS, cents_to_eur_array

pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The members of each history as the interface names them (read independently of regkit.frames).
KEYS = {
    "names": ["name", "legal_form"],
    "addresses": ["street", "postal_code", "city", "country", "extra", "formatted_value"],
    "purposes": ["purpose"],
    "capitals": ["amount", "currency"],
    "registers": ["company_id", "register_type", "register_number", "register_court"],
}
COLUMN = {"company_id": "register_company_id"}


def plain(value):
    """A frame cell as a JSON-like value (NaN/NaT/<NA> → None, Timestamp → ISO date)."""
    if value is None or value is pd.NaT or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date().isoformat()
    return value.item() if hasattr(value, "item") else value


def entry_key(field, entry):
    return tuple(entry.get(k) for k in KEYS[field]) + (entry.get("start_date"),)


def row_key(field, row):
    return tuple(plain(row[COLUMN.get(k, k)]) for k in KEYS[field]) + (plain(row["valid_from"]),)


@SETTINGS
@given(companies_v1())
def test_history_keeps_every_version_in_order(company):
    for field in FIELDS:
        frame = history(company, field)
        entries, current = company[field], company[CURRENT[field]]
        expected = list(entries) + ([current] if current is not None and current not in entries else [])
        assert Counter(entry_key(field, e) for e in expected) == Counter(row_key(field, r) for _, r in frame.iterrows())
        assert frame["version"].tolist() == list(range(len(frame)))
        starts = [plain(v) for v in frame["valid_from"]]
        known = [s for s in starts if s is not None]
        assert starts == [None] * (len(starts) - len(known)) + known  # unknown first, then chronological
        assert known == sorted(known)
        ends = [plain(v) for v in frame["valid_to"]]
        assert ends == starts[1:] + [None] * bool(starts)
        for start, end, after in zip(starts, ends, starts[1:]):
            if start is not None and end is not None:
                assert end >= start
                assert (end == start) == (after == start)  # equal only for a same-day successor
        assert frame["is_current"].sum() == (current is not None)
        if current is not None:
            row = frame[frame["is_current"]].iloc[0]
            assert row_key(field, row) == entry_key(field, current)


@SETTINGS
@given(companies_v1(), dates)
def test_as_of_agrees_with_the_histories(company, day):
    snapshot = as_of(company, day)
    when = pd.Timestamp(day)
    attributes = {
        "names": {"name": "name", "legal_form": "legal_form"},
        "addresses": {"formatted_value": "address", "street": "street", "city": "city"},
        "purposes": {"purpose": "purpose"},
        "capitals": {"amount": "capital_amount", "currency": "capital_currency", "amount_eur": "capital_eur"},
        "registers": {"register_number": "register_number", "register_company_id": "register_company_id"},
    }
    for field, names in attributes.items():
        frame = history(company, field)
        started = frame[frame["valid_from"].isna() | (frame["valid_from"] <= when)]
        if started.empty:
            assert all(getattr(snapshot, a) is None for a in names.values())
            continue
        row = started.iloc[-1]
        assert pd.isna(row["valid_to"]) or when < row["valid_to"] or pd.isna(row["valid_from"])
        bounded = frame.dropna(subset=["valid_from", "valid_to"])
        containing = bounded[(bounded["valid_from"] <= when) & (when < bounded["valid_to"])]
        assert len(containing) <= 1 and (containing.empty or containing.index[0] == row.name)
        for column, attribute in names.items():
            assert plain(row[column]) == getattr(snapshot, attribute), (field, column)
    inc, term = company["incorporated_at"], company["terminated_at"]
    newest = newest_record_date(company)
    if not (inc <= day and (term is None or day < term)):
        assert snapshot.existed is False
    elif company["status"] == "inactive" and term is None and newest is not None and day > newest:
        assert snapshot.existed is None and snapshot.status is None  # removed, but the record dates no end
    else:
        assert snapshot.existed is True  # up to and on the newest dated fact, and after it unless removed
    roles = representatives(company)
    active = roles[(roles["start_date"] <= when) & (roles["end_date"].isna() | (when < roles["end_date"]))]
    assert snapshot.representatives["id"].tolist() == active["id"].tolist()


@SETTINGS
@given(companies_v1())
def test_cents_and_eur_are_exact_and_null_stays_null(company):
    eur, exact = indicators(company, unit="EUR"), indicators(company, unit="cents")
    reports = sorted(company["indicators"], key=lambda e: e["date"])
    for m in (*MEASURES, "employees"):
        given_values = [e[m] for e in reports]
        assert [plain(v) for v in exact[m]] == given_values
        assert eur[m].isna().tolist() == [v is None for v in given_values]
        if m != "employees":
            back = (eur[m] * 100).round().astype("Int64")
            assert [plain(v) for v in back] == given_values


@given(st.lists(cents, max_size=50))
def test_cents_to_eur_round_trip_in_the_documented_range(values):
    array = np.array(values, dtype=np.int64)
    eur = cents_to_eur_array(array)
    assert np.array_equal(np.rint(eur * 100).astype(np.int64), array)
    assert all(e == float(c) / 100 for e, c in zip(eur.tolist(), values))  # the nearest double to c/100


@given(st.integers(MAX_EXACT_CENTS + 1, 2**63 - 1) | st.integers(-(2**63), -MAX_EXACT_CENTS - 1))
def test_beyond_the_exact_range_eur_refuses_and_cents_stay_exact(value):
    entry = {"date": "2020-12-31", "report_id": "r", **{m: None for m in MEASURES}, "employees": None, "revenue": value}
    company = {"id": "DE-HRB-B1234-1", "names": [], "indicators": [entry]}
    with pytest.raises(ValueError, match="unit='cents'"):
        indicators(company)
    assert indicators(company, unit="cents")["revenue"].tolist() == [value]


YEARS = [1900, 1990, 2001, 2002, 2020, 2030]
BUILDERS = {
    **{f"history_{f}": functools.partial(history, field=f) for f in FIELDS},
    "representatives": representatives,
    "indicators_eur": indicators,
    "indicators_cents": lambda cs: indicators(cs, unit="cents"),
    "indicators_long": lambda cs: indicators(cs, wide=False),
    "ratios": lambda cs: ratios(indicators(cs)),
    "links": links,
    "documents": documents,
    "insolvency_summaries": insolvency_summaries,
    "industry_codes": industry_codes,
    "contact": contact,
    "companies": companies,
    "panel": lambda cs: panel(cs, years=YEARS),
}


@settings(SETTINGS, max_examples=30)
@given(st.lists(companies_v1(max_versions=3), max_size=4, unique_by=lambda c: c["id"]))
def test_frames_of_many_companies_equal_the_concatenation_of_single_ones(many):
    for name, build in BUILDERS.items():
        together = build(many)
        single = [build(c) for c in many]
        expected = pd.concat(single, ignore_index=True) if single else build([])
        pd.testing.assert_frame_equal(together, expected, obj=name)


@SETTINGS
@given(companies_v1())
def test_panel_agrees_with_as_of_at_each_year_end(company):
    frame = panel(company, years=YEARS)
    for _, row in frame.iterrows():
        then = as_of(company, f"{row['year']}-12-31")
        assert plain(row["exists_at_year_end"]) == then.existed  # <NA> in the panel is None on the snapshot
        assert plain(row["status"]) == then.status
        assert plain(row["legal_form"]) == then.legal_form
        assert plain(row["capital_eur"]) == then.capital_eur
        directors = then.representatives
        assert row["active_directors"] == (directors["role"] == "DIRECTOR").sum()
        opened = [s.get("opened_at") for s in company.get("insolvencies") or ()]
        assert row["insolvency_opened"] == any(d and d.startswith(str(row["year"])) for d in opened)


@SETTINGS
@given(companies_v1(max_versions=8))
def test_representative_ids_and_derived_keys(company):
    frame = representatives(company)
    given_ids = [r["id"] for r in company["representation"]]
    assert frame["id_derived"].tolist() == [i is None for i in given_ids]
    assert [i for i, d in zip(frame["id"], frame["id_derived"]) if not d] == [i for i in given_ids if i is not None]
    for entry, key, derived in zip(company["representation"], frame["id"], frame["id_derived"]):
        if derived:  # the identity rule's prefixes; never an id the interface could give
            assert key.startswith("legal:" if entry["type"] == "legal_person" else "person:")
    assert frame["id"].equals(representatives(company)["id"])  # stable


@SETTINGS
@given(companies_v1(max_versions=5))
def test_links_and_transactions(company):
    frame = links(company)
    expected = (
        (company["merged_into"] is not None)
        + len(company["acquisitions"])
        + len(company["asset_spin_offs"])
        + (company["profit_transfer_agreement"] is not None)
    )
    assert len(frame) == expected
    own = frame[frame["member"] != "merged_into"]  # the company is the hub of every link but its own merger
    for _day, group in own.dropna(subset=["agreement_date"]).groupby("agreement_date"):
        assert group["transaction"].nunique() == 1
    undated = frame[frame["agreement_date"].isna()]
    assert undated["transaction"].notna().all()
    assert frame["transaction"].str.endswith(":NaT").sum() == 0
