"""The research commands of the CLI: ``regkit search``, ``owners``, ``holdings``, ``person`` — tables, JSON, and
one clear line on stderr when something fails."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_support import cli_runner
from research_support import (
    NOT_IN_REGISTER,
    holdings_by_holder,
    owners_by_company,
    pick_group_holder,
    positions_by_person,
)


@pytest.fixture
def run(register: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> Any:
    """Run ``regkit <argv>`` against the in-process test register; returns (status, stdout, stderr)."""
    return cli_runner(register, monkeypatch, capsys)


def test_search_table_json_and_csv(run: Any, world: Any) -> None:
    status, out, err = run("search", "nordstern", "--per-page", "3")
    lines = out.splitlines()
    assert status == 0 and lines[0].split()[:2] == ["company_id", "name"]
    assert err == "regkit: 10 credits spent; 1 answer fetched, 0 from the cache\n"  # stderr has what was spent
    assert len(lines) == 5 and lines[-1].startswith("page 1 of ") and "--page 2 for more" in lines[-1]
    status, out, _ = run("search", "nordstern", "--per-page", "3", "--format", "json")
    page = json.loads(out)
    assert [line.split()[0] for line in lines[1:4]] == [r["company_id"] for r in page["results"]]
    status, out, _ = run("search", "-f", "legal_form=ag,se", "-f", "employees=100..", "--format", "csv")
    rows = out.splitlines()
    assert status == 0 and rows[0].startswith("company_id,name,legal_form")
    for row in rows[1:]:
        assert world.companies[row.split(",")[0]]["legal_form"] in ("ag", "se")


@pytest.mark.slow
def test_owners_prints_shares_in_percent(run: Any, world: Any) -> None:
    holder, held = pick_group_holder(world)
    expected = {r["holder_id"]: r for r in owners_by_company(world)[held]}
    status, out, _ = run("owners", held)
    lines = out.splitlines()
    assert status == 0 and lines[0] == f"{held}: {len(expected)} current owner(s)"
    row = next(line for line in lines if line.rstrip().endswith(holder))
    assert f"{expected[holder]['share'] * 100:.2f} %" in row and "EUR" in row


def test_owners_of_an_ag_says_to_use_best_available(run: Any, world: Any) -> None:
    owners = owners_by_company(world)
    ag = next(cid for cid in sorted(owners) if world.companies[cid]["legal_form"] in NOT_IN_REGISTER)
    status, out, err = run("owners", ag)
    assert status == 1 and out == "" and "--best-available" in err and err.count("\n") == 1
    status, out, _ = run("owners", ag, "--best-available")
    assert status == 0 and "best available" in out.splitlines()[0]


def test_holdings_of_a_company_and_of_a_person(run: Any, world: Any) -> None:
    holdings = holdings_by_holder(world)
    holder, _ = pick_group_holder(world)
    status, out, _ = run("holdings", holder)
    assert status == 0 and len(out.splitlines()) == 2 + len(holdings[holder])
    person = next(
        h
        for h in sorted(holdings)
        if not h.startswith("DE-") and any(r["end"] for r in holdings[h]) and any(r["end"] is None for r in holdings[h])
    )
    status, out, _ = run("holdings", person, "--current")
    current = [r for r in holdings[person] if r["end"] is None]
    assert status == 0 and len(out.splitlines()) == 2 + len(current) < 2 + len(holdings[person])
    status, out, _ = run("holdings", person, "--format", "json")
    assert json.loads(out)["person_id"] == person


def test_person_prints_the_person_and_their_positions(run: Any, world: Any) -> None:
    positions = positions_by_person(world)
    person = next(p for p in sorted(positions) if len(positions[p]) >= 2)
    status, out, _ = run("person", person)
    assert status == 0 and out.splitlines()[0].split() == ["id", person]
    assert f"management positions ({len(positions[person])}):" in out
    for company_id, role, _, _ in positions[person]:
        assert any(company_id in line and role in line for line in out.splitlines())


@pytest.mark.parametrize(
    ("argv", "status", "fragment"),
    [
        (("search", "-f", "colour=red"), 2, "unknown filter field 'colour'"),
        (("search", "-f", "ebitda=1.."), 1, "400 unsupported_filter"),
        (("owners", "DE-HRB-nope"), 2, "not a company identifier"),
        (("holdings", "not-an-id"), 2, "not a company identifier"),
        (("person", "DE-HRB-B1234-1"), 2, "that is a company id"),
        (("person", "00000000-0000-4000-8000-000000000000"), 1, "404"),
        (("owners", "DE-HRB-B1234-1", "--offline"), 1, "offline mode"),
    ],
)
def test_errors_are_one_line_on_stderr(run: Any, argv: tuple, status: int, fragment: str) -> None:
    code, out, err = run(*argv)
    assert code == status and out == "" and fragment in err
    assert err.count("\n") == 1 and err.startswith("regkit: error: ")


def test_owners_and_holdings_name_what_the_cache_knows(run: Any, world: Any) -> None:
    holder, held = pick_group_holder(world)
    rows = holdings_by_holder(world)[holder]
    current = sum(1 for r in rows if r["end"] is None)
    status, out, _ = run("holdings", holder)
    assert status == 0 and out.splitlines()[0] == f"{holder}: {current} current, {len(rows) - current} past holding(s)"
    run("company", holder)
    run("company", held)
    name = world.companies[holder]["name"]["name"]
    status, out, _ = run("holdings", holder)
    assert out.splitlines()[0] == f"{holder} ({name}): {current} current, {len(rows) - current} past holding(s)"
    status, out, _ = run("owners", held)
    owners = owners_by_company(world)[held]
    assert out.splitlines()[0] == f"{held} ({world.companies[held]['name']['name']}): {len(owners)} current owner(s)"
