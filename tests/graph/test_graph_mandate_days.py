"""One rule for the days of a mandate (``regkit.frames.mandates``): ``[start, end)``, and a mandate whose start is on
or after its end lasts no day.  ``interlocks``, ``as_of`` (graph and frames), ``representatives(active_on=)``,
``in_force`` and the panel's director count must say the same on the same data — on hand-made cases and on every
person of the real OffeneRegister sample (imported here), whose importer writes ``[d, d)`` for officers of unknown
start."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

import pandas as pd
import pytest

from regkit import frames
from regkit.frames.mandates import mandate_active, mandate_days
from regkit.graph import as_of, from_companies, interlocks
from regkit.graph.boards import SERVING_ROLES
from regkit.graph.timeline import in_force
from regkit.local.world import read_world
from regkit.local.world.offeneregister import import_offeneregister, sample_file


def cid(n: int) -> str:
    return f"DE-HRB-B1204-{n}"


def full(company: dict[str, Any]) -> dict[str, Any]:
    """``make_company``'s minimal record with the members the frames read too (empty histories)."""
    empty = {"addresses": [], "purposes": [], "capitals": [], "registers": [], "indicators": [], "insolvencies": []}
    return {**company, **empty, "address": None, "purpose": None, "capital": None, "register": None}


def covering(frame: pd.DataFrame, person: str, day: dt.date) -> list[tuple]:
    """The company sets of ``person``'s interlock rows whose ``[start, end)`` holds ``day``."""
    stamp = pd.Timestamp(day)
    return [
        r.companies
        for r in frame.itertuples()
        if r.person == person and (pd.isna(r.start) or r.start <= stamp) and (pd.isna(r.end) or stamp < r.end)
    ]


def test_an_empty_mandate_is_in_no_interlock(make_company: Any) -> None:
    """The reported bug: a person at firm 1 from 2010 on and at firm 2 with start = end = 2015-01-01."""
    person = make_company.person
    G = from_companies(
        [
            make_company(1, representation=[person("p-1", start_date="2010-01-01")]),
            make_company(2, representation=[person("p-1", start_date="2015-01-01", end_date="2015-01-01")]),
        ]
    )
    assert interlocks(G).empty  # was: two companies from 2015 on, with no end
    assert as_of(G, "2016-01-01").number_of_edges() == 1
    assert as_of(G, "2015-01-01").number_of_edges() == 1
    empty = make_company(2, representation=[person("p-1", start_date="2015-01-01", end_date="2015-01-01")])
    assert frames.representatives(empty, active_on="2015-01-01")["is_active"].tolist() == [False]


CASES = {
    "start == end": ("2015-01-01", "2015-01-01"),
    "start > end": ("2016-01-01", "2015-01-01"),
    "open end": ("2015-01-01", None),
    "end exactly on the day (exclusive)": ("2015-01-01", "2016-01-01"),
    "one day": ("2015-12-31", "2016-01-01"),
    "unknown start": (None, "2015-01-01"),
}
DAYS = ["2014-12-31", "2015-01-01", "2015-06-30", "2015-12-31", "2016-01-01", "2016-12-31"]


@pytest.mark.parametrize("case", CASES)
def test_every_view_of_a_mandate_says_the_same(make_company: Any, case: str) -> None:
    start, end = CASES[case]
    person = make_company.person
    first = make_company(1, representation=[person("p-1", start_date="2000-01-01")])
    second = full(make_company(2, representation=[person("p-1", start_date=start, end_date=end)]))
    G = from_companies([first, second])
    (edge,) = G.get_edge_data("p-1", cid(2)).values()
    locks = interlocks(G)
    expected_days = None if start is not None and end is not None and start >= end else (start, end)
    assert mandate_days(start, end) == expected_days
    for iso in DAYS:
        day = dt.date.fromisoformat(iso)
        # written out here, apart from the rule: on [start, end), and never when start >= end
        expected = (start is None or start <= iso) and (end is None or iso < end)
        seen = {
            "mandate_active": mandate_active(start, end, iso),
            "in_force": in_force(edge, day),
            "graph.as_of": as_of(G, iso).has_edge("p-1", cid(2)),
            "interlocks": covering(locks, "p-1", day) == [(cid(1), cid(2))],
            "representatives(active_on=)": bool(frames.representatives(second, active_on=iso)["is_active"].iloc[0]),
            "frames.as_of": len(frames.as_of(second, iso).representatives) == 1,
        }
        if iso.endswith("-12-31"):
            directors = frames.panel(second, years=[int(iso[:4])])["active_directors"]
            seen["panel.active_directors"] = directors.tolist() == [1]
        assert seen == dict.fromkeys(seen, expected), (case, iso)
        assert covering(locks, "p-1", day) in ([], [(cid(1), cid(2))])
    now = end is None  # "currently": a mandate without end date, unless it lasts no day
    assert in_force(edge, None) is now and mandate_active(start, end, None) is now
    assert bool(frames.representatives(second)["is_active"].iloc[0]) is now


def test_a_mandate_of_no_day_is_still_listed(make_company: Any) -> None:
    """The register lists it: a row of ``representatives`` and an edge of the graph, active on no day."""
    person = make_company.person
    company = make_company(2, representation=[person("p-1", start_date="2016-01-01", end_date="2015-01-01")])
    roles = frames.representatives(company, active_on="2015-06-01")
    assert len(roles) == 1 and not roles["is_active"].any()
    assert from_companies([company]).has_edge("p-1", cid(2))


# ------------------------------------------------------------------------------------------- the real sample


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Every company of the committed OffeneRegister sample, imported as ``regkit world import offeneregister``
    does (read-only)."""
    imported = import_offeneregister(sample_file(), tmp_path_factory.mktemp("offeneregister") / "world")
    return list(read_world(imported.directory).companies.values())


@pytest.fixture(scope="module")
def sample_graph(sample: list[dict[str, Any]]) -> Any:
    return from_companies(sample)


SAMPLE_DAYS = ["1995-06-30", "2005-01-01", "2010-06-30", "2014-01-01", "2016-07-01", "2018-01-01", "2030-01-01"]


@pytest.mark.slow
def test_the_sample_has_mandates_of_no_day(sample: list[dict[str, Any]]) -> None:
    roles = [r for c in sample for r in c["representation"]]
    empty = [r for r in roles if r["end_date"] is not None and r["start_date"] >= r["end_date"]]
    assert len(empty) > 100  # the importer's [d, d) for an officer of unknown start


def test_interlocks_as_of_and_representatives_agree_on_every_person_of_the_sample(
    sample: list[dict[str, Any]], sample_graph: Any
) -> None:
    locks = interlocks(sample_graph)
    people = {n for n, kind in sample_graph.nodes(data="kind") if kind == "natural_person"}
    seen_interlocks = 0
    for iso in SAMPLE_DAYS:
        day = dt.date.fromisoformat(iso)
        H = as_of(sample_graph, iso)
        from_graph: dict[str, set[str]] = defaultdict(set)
        for u, v, attrs in H.edges(data=True):
            if u in people and attrs["relation"] == "representation" and attrs["role"] in SERVING_ROLES:
                from_graph[u].add(v)
        roles = frames.representatives(sample, active_on=iso)
        roles = roles[roles["is_active"] & (roles["type"] == "natural_person") & roles["role"].isin(SERVING_ROLES)]
        from_frames = roles.groupby("id")["company_id"].agg(set).to_dict()
        assert dict(from_graph) == from_frames, iso
        stamp = pd.Timestamp(day)
        open_rows = locks[
            (locks["start"].isna() | (locks["start"] <= stamp)) & (locks["end"].isna() | (stamp < locks["end"]))
        ]
        from_interlocks = {r.person: set(r.companies) for r in open_rows.itertuples()}
        assert len(open_rows) == len(from_interlocks)  # one period per person and day
        assert from_interlocks == {p: c for p, c in from_graph.items() if len(c) >= 2}, iso
        seen_interlocks += len(from_interlocks)
    assert seen_interlocks > 0


@pytest.mark.slow
def test_graph_existence_agrees_with_the_frames_on_the_sample(sample: list[dict[str, Any]], sample_graph: Any) -> None:
    """``as_of`` keeps a company whose existence is unknown, with ``existed=None``, exactly where
    :func:`regkit.frames.as_of` says None; it drops a company exactly where the frames say False."""
    for iso in ("1999-12-31", "2012-06-30", "2030-01-01"):
        H = as_of(sample_graph, iso)
        for company in sample:
            expected = frames.as_of(company, iso).existed
            node = company["id"]
            assert (node in H) is (expected is not False), (node, iso)
            if node in H:
                assert H.nodes[node]["existed"] is expected, (node, iso)
        unknown = [n for n, e in H.nodes(data="existed") if H.nodes[n]["kind"] == "company" and e is None]
        if iso == "2030-01-01":
            removed = {c["id"] for c in sample if c["status"] == "inactive"}
            assert set(unknown) == removed  # every removed record: none dates its removal


def test_removed_after_is_the_newest_date_of_a_removed_record(sample: list[dict[str, Any]], sample_graph: Any) -> None:
    from regkit.frames.status import newest_date

    for company in sample:
        expected = newest_date(company) if company["status"] == "inactive" else None
        got = sample_graph.nodes[company["id"]]["removed_after"]
        assert (got.isoformat() if got else None) == expected, company["id"]
