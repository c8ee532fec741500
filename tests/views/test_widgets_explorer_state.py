"""What the Company and Person explorers show a reader: formatted tables (labels, €, %, no UUIDs, sortable when
long), true costs on every button, and no stale state after an input changes. Driven headless against the
in-process local register; expected values come from the bundled world and from the register's answers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from widgets_support import UUID, table_rows, visible_text

from regkit.schema.labels import ROLE_LABELS
from regkit.widgets import CompanyExplorer, PersonExplorer
from regkit.widgets.company_panes import LONG

WALDSTEIN = "DE-HRB-X1517-62135KI"  # a GmbH with a capital in DEM
SUEDLICHT = "DE-HRB-D4301-56744"  # an AG
SCHABER = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"
DATE = re.compile(r"\d{4}-\d{2}-\d{2}|–")


def _biggest(world: Any) -> dict[str, Any]:
    """The company with the most representation entries (more than a short table holds)."""
    return max(world.companies.values(), key=lambda c: (len(c["representation"]), c["id"]))


@pytest.mark.slow
def test_a_long_list_of_representatives_is_a_sortable_table_a_reader_can_read(client: Any, world: Any) -> None:
    company = _biggest(world)
    assert len(company["representation"]) > LONG
    explorer = CompanyExplorer(client, company["id"])
    explorer.load()
    table = explorer.tables["representatives"].table
    assert table is not None and len(table.df) == len(company["representation"])
    rows = table_rows(explorer.tables["representatives"])
    assert sorted((r["Name"], r["Role"], r["Start date"]) for r in rows) == sorted(
        (r["name"], ROLE_LABELS[r["role"]], r["start_date"]) for r in company["representation"]
    )
    assert all(DATE.fullmatch(r["Start date"]) and DATE.fullmatch(r["End date"]) for r in rows)
    active = sum(r["end_date"] is None for r in company["representation"])
    assert [r["Active"] for r in rows] == ["yes"] * active + ["no"] * (len(rows) - active)  # active first
    people = len({(r["id"], r["name"]) for r in company["representation"]})
    assert f"{people} people in {len(rows)} roles; {active} active" in explorer.panes["representatives"].value
    assert not UUID.search(visible_text(explorer.tabs))


@pytest.mark.slow
def test_a_short_list_is_a_static_table_and_money_has_its_unit(client: Any, world: Any) -> None:
    company = world.companies[WALDSTEIN]
    explorer = CompanyExplorer(client, WALDSTEIN)
    explorer.load()
    assert explorer.tables["representatives"].table is None and len(company["representation"]) <= LONG
    assert len(table_rows(explorer.tables["representatives"])) == len(company["representation"])
    capital = company["capital"]
    assert capital["currency"] == "DEM"
    euros = f"{round(capital['amount'] / 1.95583, 2):,.2f}".removesuffix(".00")
    cell = f"{capital['amount']:,.2f}".removesuffix(".00")
    histories = explorer.panes["histories"].value
    assert f">DEM {cell}</td>" in histories and f">€{euros}</td>" in histories
    summary = explorer.panes["summary"].value
    assert ">GmbH<" in summary and f"DEM {cell} (= €{euros})" in summary


@pytest.mark.slow
def test_typing_another_id_greys_the_tabs_and_loading_it_replaces_them(client: Any, world: Any) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    explorer.load()
    assert "regkit-stale" not in explorer.tabs._dom_classes
    explorer.company_id.value = SUEDLICHT
    assert "regkit-stale" in explorer.tabs._dom_classes
    assert f"still show {WALDSTEIN}" in explorer.status.value and "regkit-warning" in explorer.status.value
    assert explorer.load_button.description == "Load (10 credits)"
    explorer.company_id.value = WALDSTEIN  # back to the company shown: nothing stale
    assert "regkit-stale" not in explorer.tabs._dom_classes and "still show" not in explorer.status.value
    explorer.company_id.value = SUEDLICHT
    explorer.load_button.click()
    assert "regkit-stale" not in explorer.tabs._dom_classes
    assert world.companies[SUEDLICHT]["name"]["name"] in explorer.panes["summary"].value
    assert world.companies[WALDSTEIN]["name"]["name"] not in explorer.panes["summary"].value
    explorer.company_id.value = "DE-HRB-B1204-999999999"
    explorer.load_button.click()  # a 404: nothing of the previous company stays
    assert "404" in explorer.status.value and "regkit-stale" not in explorer.tabs._dom_classes
    assert all(not table_rows(pane) for pane in explorer.tables.values())
    assert world.companies[SUEDLICHT]["name"]["name"] not in visible_text(explorer.tabs)


def test_a_new_find_clears_the_old_matches(client: Any) -> None:
    explorer = CompanyExplorer(client)
    explorer.search.value = "Waldstein"
    assert explorer.matches is not None and len(explorer.matches.df) > 1
    explorer.search.value = "HRB 1 Frankfurt"  # ambiguous register text: an error, and no old matches under it
    assert explorer.matches is None and explorer.match_frame is None and "regkit-error" in explorer.status.value


def test_a_person_with_many_positions_gets_a_sortable_table(client: Any, world: Any) -> None:
    counts: dict[str, int] = {}
    for c in world.companies.values():
        for r in c["representation"]:
            if r["type"] == "natural_person" and r["role"] != "SHAREHOLDER" and r["id"]:
                counts[r["id"]] = counts.get(r["id"], 0) + 1
    busiest = max(counts, key=lambda pid: (counts[pid], pid))
    assert counts[busiest] > LONG
    explorer = PersonExplorer(client, busiest)
    explorer.load()
    table = explorer.tables["positions"].table
    assert table is not None and len(table.df) == counts[busiest]
    assert set(table.df["Role"]) <= set(ROLE_LABELS.values())
    assert f"{counts[busiest]} positions at" in explorer.tables["positions"].head.value
    assert not UUID.search(visible_text(explorer.tables["positions"]))


def test_the_person_load_button_counts_only_what_is_not_cached(client: Any) -> None:
    client.get_person(SCHABER)  # the person is cached, their holdings are not
    explorer = PersonExplorer(client, SCHABER)
    assert explorer.load_button.description == "Load (10 credits)"
    explorer.load_button.click()
    assert client.credits_spent == 20 and explorer.load_button.description == "Load (0 credits, cached)"


@pytest.mark.slow
def test_the_person_explorer_greys_then_clears_on_another_id(client: Any) -> None:
    explorer = PersonExplorer(client, SCHABER)
    explorer.load()
    other = "00000000-0000-4000-8000-000000000000"
    explorer.person_id.value = other
    assert "regkit-stale" in explorer.tabs._dom_classes and "still show Raimund Schaber" in explorer.status.value
    assert explorer.load_button.description == "Load (20 credits)"
    explorer.load_button.click()  # a 404
    assert "404" in explorer.status.value and "regkit-stale" not in explorer.tabs._dom_classes
    assert "Raimund Schaber" not in visible_text(explorer.tabs)
