"""``interlocks`` and ``merger_history`` on small hand-made groups, and a day-by-day property check."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.graph import from_companies, interlocks, merger_history
from regkit.graph.boards import INTERLOCK_COLUMNS
from regkit.graph.mergers import MERGER_COLUMNS

D = dt.date


def cid(n: int) -> str:
    return f"DE-HRB-B1204-{n}"


def test_periods_sets_and_dtypes(make_company: Any) -> None:
    person = make_company.person
    G = from_companies(
        [
            make_company(1, representation=[person("p-1", start_date="2010-01-01")]),
            make_company(2, representation=[person("p-1", start_date="2012-01-01", end_date="2016-01-01")]),
            make_company(
                3,
                representation=[
                    person("p-1", start_date="2014-01-01", end_date="2015-01-01"),
                    person("p-1", role="PROKURA", start_date="2014-06-01", end_date="2018-01-01"),
                ],
            ),
        ]
    )
    frame = interlocks(G)
    assert tuple(frame.columns) == INTERLOCK_COLUMNS
    assert {c: str(t) for c, t in frame.dtypes.items()} == {
        "person": "str",
        "name": "str",
        "n_companies": "int64",
        "companies": "object",
        "company_names": "object",
        "start": "datetime64[us]",
        "end": "datetime64[us]",
        "days": "Int64",
    }
    rows = [(r.companies, r.start.date(), None if pd.isna(r.end) else r.end.date()) for r in frame.itertuples()]
    assert rows == [
        ((cid(1), cid(2)), D(2012, 1, 1), D(2014, 1, 1)),
        ((cid(1), cid(2), cid(3)), D(2014, 1, 1), D(2016, 1, 1)),
        ((cid(1), cid(3)), D(2016, 1, 1), D(2018, 1, 1)),
    ]
    assert list(frame["company_names"].iloc[0]) == ["Firma 1 GmbH", "Firma 2 GmbH"]
    three = interlocks(G, min_companies=3)
    assert len(three) == 1 and three["days"].iloc[0] == 730


def test_shareholders_do_not_serve_unless_asked(make_company: Any) -> None:
    person = make_company.person
    G = from_companies(
        [
            make_company(1, representation=[person("p-1", role="SHAREHOLDER")]),
            make_company(2, representation=[person("p-1", role="SHAREHOLDER")]),
        ]
    )
    assert interlocks(G).empty
    open_ended = interlocks(G, roles=None)
    assert len(open_ended) == 1 and pd.isna(open_ended["end"].iloc[0]) and pd.isna(open_ended["days"].iloc[0])


def test_companies_as_people_on_request(make_company: Any) -> None:
    partner = make_company.legal(9, "Komplementär GmbH", "PERSONAL_LIABLE_DIRECTOR")
    G = from_companies([make_company(1, representation=[partner]), make_company(2, representation=[partner])])
    assert interlocks(G).empty
    assert interlocks(G, kinds=("company",))["person"].tolist() == [cid(9)]


def test_empty_and_invalid(make_company: Any) -> None:
    frame = interlocks(from_companies([make_company(1)]))
    assert frame.empty and tuple(frame.columns) == INTERLOCK_COLUMNS
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError):
            interlocks(from_companies([make_company(1)]), min_companies=bad)


# (company, start day, length in days): a length of 0 or less is a mandate of no day ([d, d) or start > end)
mandate = st.tuples(st.integers(0, 3), st.integers(0, 40), st.none() | st.integers(-5, 20))


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["p-1", "p-2"]), mandate), max_size=10), st.integers(1, 3))
def test_property_agrees_with_a_day_by_day_count(mandates: list, minimum: int) -> None:
    base = D(2020, 1, 1)
    reps: dict[int, list] = {n: [] for n in range(4)}
    for pid, (company, start, length) in mandates:
        end = None if length is None else (base + dt.timedelta(start + length)).isoformat()
        reps[company].append(
            {
                "id": pid,
                "name": pid,
                "type": "natural_person",
                "role": "DIRECTOR",
                "start_date": (base + dt.timedelta(start)).isoformat(),
                "end_date": end,
                "authority": None,
                "natural_person": None,
            }
        )
    G = from_companies([{"id": cid(n), "name": {"name": str(n)}, "representation": r} for n, r in reps.items()])
    frame = interlocks(G, min_companies=minimum)
    rows = [
        (r.person, r.companies, r.start.date(), None if pd.isna(r.end) else r.end.date()) for r in frame.itertuples()
    ]
    for day_number in range(0, 70):
        day = base + dt.timedelta(day_number)
        for pid in ("p-1", "p-2"):
            serving = tuple(
                sorted(
                    {
                        cid(c)
                        for p, (c, s, length) in mandates
                        if p == pid and s <= day_number and (length is None or day_number < s + length)
                    }
                )
            )
            hits = [
                companies
                for person, companies, start, end in rows
                if person == pid and start <= day and (end is None or day < end)
            ]
            assert hits == ([serving] if len(serving) >= minimum else [])
    # maximal periods: consecutive rows of a person never have the same companies back to back
    for _, rows in frame.groupby("person"):
        for a, b in zip(rows.itertuples(), list(rows.itertuples())[1:]):
            assert not (a.companies == b.companies and a.end == b.start)


def test_merger_history_in_order_with_transactions(make_company: Any) -> None:
    link = make_company.link
    G = from_companies(
        [
            make_company(
                1,
                acquisitions=[
                    link(2, "2022-10-12", "2022-07-01"),
                    link(3, "2022-10-12", "2022-07-01"),
                    link(4, "2010-05-05", None),
                ],
            ),
            make_company(2, acquisitions=[link(5, "2001-01-01", "2000-11-11")]),
            make_company(1, merged_into=None),
            make_company(6, acquisitions=[link(1, "2024-01-01", "2023-09-09")]),
        ]
    )
    frame = merger_history(G, cid(1))
    assert tuple(frame.columns) == MERGER_COLUMNS
    assert {c: str(t) for c, t in frame.dtypes.items()} == {
        "absorbed": "str",
        "absorbed_name": "str",
        "acquirer": "str",
        "acquirer_name": "str",
        "registration_date": "datetime64[us]",
        "agreement_date": "datetime64[us]",
        "direction": "str",
        "depth": "int64",
        "transaction": "int64",
    }
    got = [(r.absorbed, r.acquirer, r.direction, r.depth, r.transaction) for r in frame.itertuples()]
    assert got == [
        (cid(5), cid(2), "in", 2, 1),
        (cid(4), cid(1), "in", 1, 2),
        (cid(2), cid(1), "in", 1, 3),
        (cid(3), cid(1), "in", 1, 3),
        (cid(1), cid(6), "out", 1, 4),
    ]
    assert merger_history(G, cid(3))[["absorbed", "acquirer", "direction", "depth"]].values.tolist() == [
        [cid(3), cid(1), "out", 1],
        [cid(1), cid(6), "out", 2],
    ]
    assert merger_history(from_companies([make_company(7)]), cid(7)).empty


def test_a_shelf_company_founder_at_thousands_of_companies(make_company: Any) -> None:
    """Real registers hold founders of shelf companies: one person at 3,000 companies, each mandate 20 days,
    a new one every 10 days.  Every company overlaps only the next one, for 10 days: 2,999 pairs."""
    person = make_company.person
    first = D(2010, 1, 1)
    companies = [
        make_company(
            n,
            representation=[
                person(
                    "p-founder",
                    start_date=(first + dt.timedelta(days=10 * n)).isoformat(),
                    end_date=(first + dt.timedelta(days=10 * n + 20)).isoformat(),
                )
            ],
        )
        for n in range(1, 3001)
    ]
    frame = interlocks(from_companies(companies))
    assert len(frame) == 2999
    assert set(frame["n_companies"]) == {2} and set(frame["days"]) == {10}
    assert frame["companies"].iloc[0] == (cid(1), cid(2)) and frame["companies"].iloc[-1] == (cid(2999), cid(3000))
