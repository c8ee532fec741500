"""The questions on the bundled world equal what its data files say.

Every expectation here is computed straight from the raw CompanyV1 dicts and ``world.json``
(never through ``regkit.graph``), for the twelve groups of the table in ``data/README.md``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

import pytest

from regkit.graph import from_companies, interlocks, merger_history, organkreis, ultimate_parent

D = dt.date.fromisoformat
OPEN_START, OPEN_END = dt.date.min, dt.date.max


def groups_by_top(world: Any) -> dict[str, dict[str, Any]]:
    return {g["organtraeger"]: g for g in world.meta["groups"]}


# -- raw computations ------------------------------------------------------------------------------
def raw_pta_top(world: Any, cid: str) -> str:
    """Follow profit_transfer_agreement links from a company to the end (the world has no cycles)."""
    seen = [cid]
    while (pta := world.companies[cid]["profit_transfer_agreement"]) is not None:
        cid = pta["company_id"]
        assert cid not in seen
        seen.append(cid)
    return cid


def raw_parent(company: dict[str, Any]) -> str | None:
    """The PTA target, else the one current legal-person shareholder, from the raw record."""
    if company["profit_transfer_agreement"]:
        return company["profit_transfer_agreement"]["company_id"]
    holders = {
        r["id"]
        for r in company["representation"]
        if r["type"] == "legal_person" and r["role"] == "SHAREHOLDER" and r["end_date"] is None
    }
    return holders.pop() if len(holders) == 1 else None


def raw_parent_on(company: dict[str, Any], day: dt.date) -> str | None:
    """The parent on a day: the agreement if registered by then (agreements listed are current), else the
    one legal-person shareholder of that day."""
    pta = company["profit_transfer_agreement"]
    if pta and D(pta["registration_date"]) <= day:
        return pta["company_id"]
    holders = {
        r["id"]
        for r in company["representation"]
        if r["type"] == "legal_person"
        and r["role"] == "SHAREHOLDER"
        and D(r["start_date"]) <= day
        and (r["end_date"] is None or day < D(r["end_date"]))
    }
    return holders.pop() if len(holders) == 1 else None


def raw_mergers_into(world: Any, cid: str, depth: int = 1) -> set[tuple]:
    rows = set()
    for link in world.companies[cid]["acquisitions"]:
        rows.add((link["company_id"], cid, link["registration_date"], link["agreement_date"], "in", depth))
        rows |= raw_mergers_into(world, link["company_id"], depth + 1)
    return rows


def raw_mergers_out(world: Any, cid: str) -> set[tuple]:
    rows, depth = set(), 1
    while (link := world.companies[cid]["merged_into"]) is not None:
        rows.add((cid, link["company_id"], link["registration_date"], link["agreement_date"], "out", depth))
        cid, depth = link["company_id"], depth + 1
    return rows


def raw_overlaps(companies: list[dict[str, Any]]) -> dict[tuple, list[tuple]]:
    """(person, company a, company b) → merged periods in which the person served both (not as shareholder).

    The documented person rule, on raw values: the id where given, else name and date of birth (the world
    spells a person's name identically everywhere and always gives the date of birth); never the city.
    """
    served: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for c in companies:
        for r in c["representation"]:
            if r["type"] != "natural_person" or r["role"] == "SHAREHOLDER":
                continue
            p = r["natural_person"]
            person = r["id"] or ("id-less", r["name"], p["date_of_birth"])
            served[person][c["id"]].append((D(r["start_date"]), D(r["end_date"]) if r["end_date"] else OPEN_END))
    out = {}
    for person, companies_ in served.items():
        ids = sorted(companies_)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                periods = [
                    (max(s1, s2), min(e1, e2))
                    for s1, e1 in companies_[a]
                    for s2, e2 in companies_[b]
                    if max(s1, s2) < min(e1, e2)
                ]
                if periods:
                    out[(person, a, b)] = merge(periods)
    return out


def merge(periods: list[tuple]) -> list[tuple]:
    merged: list[list] = []
    for s, e in sorted(periods):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [tuple(p) for p in merged]


# -- tests -----------------------------------------------------------------------------------------
def test_readme_groups_are_the_world_groups(world: Any, readme_groups: list[dict[str, Any]]) -> None:
    tops = groups_by_top(world)
    for row in readme_groups:
        group = tops[row["organtraeger"]]
        assert group["id"] == row["group"] and len(group["members"]) == row["companies"]
        assert world.companies[row["organtraeger"]]["name"]["name"] == row["name"]


def test_organkreis(world: Any, world_graph: Any, readme_groups: list[dict[str, Any]]) -> None:
    """The README counts the group members *with* an agreement; the Organkreis of the Organträger are
    those whose chain of agreements reaches it. In some groups (G015) an intermediate holding receives
    agreements without transferring its own profit upwards: its Organgesellschaften form a separate
    Organkreis with that holding as Organträger."""
    for row in readme_groups:
        top = row["organtraeger"]
        members = groups_by_top(world)[top]["members"]
        with_pta = [cid for cid in members if world.companies[cid]["profit_transfer_agreement"]]
        assert len(with_pta) == row["with_pta"], row["group"]
        expected = {cid for cid in world.companies if cid != top and raw_pta_top(world, cid) == top}
        assert expected <= set(with_pta)
        for member in [top, *expected]:
            result = organkreis(world_graph, member)
            assert result.organtraeger == top and result.organgesellschaften == expected, (row["group"], member)
        for member in set(with_pta) - expected:
            other = raw_pta_top(world, member)
            below = {cid for cid in world.companies if cid != other and raw_pta_top(world, cid) == other}
            assert organkreis(world_graph, member) == (other, frozenset(below)), (row["group"], member)


def test_ultimate_parent(world: Any, world_graph: Any, readme_groups: list[dict[str, Any]]) -> None:
    for row in readme_groups:
        top = row["organtraeger"]
        for member in groups_by_top(world)[top]["members"]:
            company = world.companies[member]
            if company["terminated_at"] is None:
                chain, cid = [member], member
                while (parent := raw_parent(world.companies[cid])) is not None:
                    chain.append(cid := parent)
                assert chain[-1] == top, (row["group"], chain)
                assert ultimate_parent(world_graph, member) == top
            else:  # merged away: its parent the day before it ceased to exist
                day = D(company["terminated_at"]) - dt.timedelta(days=1)
                chain, cid = [member], member
                while (parent := raw_parent_on(world.companies[cid], day)) is not None:
                    chain.append(cid := parent)
                assert chain[-1] == top, (row["group"], chain)
                assert ultimate_parent(world_graph, member, day) == top
                assert ultimate_parent(world_graph, member) == member


def test_merger_history(world: Any, world_graph: Any, readme_groups: list[dict[str, Any]]) -> None:
    for row in readme_groups:
        top = row["organtraeger"]
        assert len(world.companies[top]["acquisitions"]) == row["mergers"]
        for member in groups_by_top(world)[top]["members"]:
            expected = raw_mergers_into(world, member) | raw_mergers_out(world, member)
            frame = merger_history(world_graph, member)
            got = {
                (
                    r.absorbed,
                    r.acquirer,
                    r.registration_date.date().isoformat(),
                    None if r.agreement_date != r.agreement_date else r.agreement_date.date().isoformat(),
                    r.direction,
                    r.depth,
                )
                for r in frame.itertuples()
            }
            assert got == expected and len(frame) == len(expected), member
            assert list(frame["registration_date"]) == sorted(frame["registration_date"])
            for _, rows in frame.groupby(["acquirer", "agreement_date"]):
                assert rows["transaction"].nunique() == 1, "one agreement_date, one transaction"


def test_interlocks_of_each_group(world: Any, readme_groups: list[dict[str, Any]]) -> None:
    found = 0
    for row in readme_groups:
        members = [world.companies[cid] for cid in groups_by_top(world)[row["organtraeger"]]["members"]]
        expected = raw_overlaps(members)
        G = from_companies(members)
        assert_interlocks_match(G, interlocks(G), expected, row["group"])
        found += bool(expected)
    assert found >= 6, "directors are shared inside most large groups"


def test_interlocks_of_the_whole_world(world: Any, world_graph: Any) -> None:
    expected = raw_overlaps(list(world.companies.values()))
    assert len(expected) > 500
    assert_interlocks_match(world_graph, interlocks(world_graph), expected, "world")


def assert_interlocks_match(G: Any, frame: Any, expected: dict[tuple, list], label: str) -> None:
    got: dict[tuple, list] = defaultdict(list)
    for r in frame.itertuples():
        start = OPEN_START if r.start != r.start else r.start.date()
        end = OPEN_END if r.end != r.end else r.end.date()
        for i, a in enumerate(r.companies):
            for b in r.companies[i + 1 :]:
                got[(r.person, a, b)].append((start, end))
    got = {k: merge(v) for k, v in got.items()}
    # person node ids: the raw id, or the id-less node for persons the rule leaves alone
    renamed = {}
    for (person, a, b), periods in expected.items():
        if isinstance(person, tuple):
            person = next(u for u in G.predecessors(a) if u.startswith("person:") and G.has_edge(u, b))
        renamed[(person, a, b)] = periods
    assert got == renamed, label


@pytest.mark.parametrize("relation", ["merger", "profit_transfer"])
def test_directions_on_the_world(world: Any, world_graph: Any, relation: str) -> None:
    member = "merged_into" if relation == "merger" else "profit_transfer_agreement"
    expected = {(cid, c[member]["company_id"]) for cid, c in world.companies.items() if c[member]}
    got = {(u, v) for u, v, d in world_graph.edges(data=True) if d["relation"] == relation}
    assert got == expected
