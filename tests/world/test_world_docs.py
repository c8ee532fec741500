"""data/README.md tells the truth about the bundled world."""

from __future__ import annotations

import re

from regkit.local.world import default_data_dir

README = (default_data_dir() / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_scenario_table_lists_exactly_the_worlds_scenarios(world):
    rows = re.findall(r"^\| (.+?) \| `([^`]+)` \| (.+?) \|$", _section("Scenario table"), flags=re.M)
    assert [(case, ident) for case, ident, _ in rows] == [(s["case"], s["company_id"]) for s in world.meta["scenarios"]]


def test_group_table_matches_the_worlds_groups(world):
    rows = re.findall(
        r"^\| (G\d{3}) \| `([^`]+)` \| (.+?) \| (\d+) \| (\d+) \| (\d+) \|$", _section("Groups"), flags=re.M
    )
    assert len(rows) == 12
    groups = {g["id"]: g for g in world.meta["groups"]}
    for group_id, top, name, members, agreements, mergers in rows:
        group = groups[group_id]
        assert group["organtraeger"] == top and world.companies[top]["name"]["name"] == name
        assert len(group["members"]) == int(members)
        assert sum(bool(world.companies[m]["profit_transfer_agreement"]) for m in group["members"]) == int(agreements)
        assert len(world.companies[top]["acquisitions"]) == int(mergers)


def test_counts_in_the_readme_are_the_worlds(world):
    table = _section("What is in it")
    assert f"| companies | {len(world.companies):,}" in table
    assert f"| insolvency proceedings | {len(world.insolvencies):,}" in table
    assert f"| groups | {len(world.meta['groups'])} groups" in table


def test_documented_accounts_and_keys_are_the_worlds(world):
    section = _section("API users and Transparenzregister test accounts")
    for user in world.meta["users"]:
        assert f"`{user['api_key']}`" in section
    for account in world.meta["transparenzregister"]["accounts"]:
        assert f"| `{account['username']}` | `{account['password']}` |" in section


def test_names_and_persons_to_try_are_found_as_the_table_says(world):
    from regkit import Client

    rows = re.findall(
        r"^\| (search|person) `([^`]+)` \| `([^`]+)` \| (.+?) \|$", _section("Names and persons to try"), flags=re.M
    )
    assert len(rows) == 5
    with Client() as client:
        for kind, text, ident, what in rows:
            if kind == "search":
                assert client.search_companies(text)[0]["company_id"] == ident, text  # the best match
                if "best_available=True" in what:
                    assert len(client.get_owners(ident, best_available=True)) == 3
            else:
                found = client.search_persons(text, per_page=100)
                assert ident in {r["id"] for r in found}, text
                assert client.get_person(ident).full_name == text
