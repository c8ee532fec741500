"""``InsolvencyExplorer`` driven headless against the local register; results checked against the world's
proceedings filtered and ordered here, independently of the register's search."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import ipywidgets as widgets
import pytest

from regkit.widgets import InsolvencyExplorer
from regkit.widgets import insolvency_logic as logic


def _expected(
    proceedings: list[dict[str, Any]],
    statuses: set[str],
    legal_form: str | None = None,
    court: str = "",
    opened: tuple[str | None, str | None] = (None, None),
) -> list[str]:
    """Ids of the matching proceedings in the interface's order (last_event_at descending, then id)."""
    low, high = opened

    def match(p: dict[str, Any]) -> bool:
        return (
            p["current_status"] in statuses
            and (legal_form is None or p["debtor_legal_form"] == legal_form)
            and all(word.lower() in p["court"].lower() for word in court.split())
            and (low is None or (p["opened_at"] is not None and p["opened_at"] >= low))
            and (high is None or (p["opened_at"] is not None and p["opened_at"] <= high))
        )

    found = [p for p in proceedings if match(p)]
    assert all(p["last_event_at"] for p in found)
    found.sort(key=lambda p: p["id"])
    found.sort(key=lambda p: p["last_event_at"], reverse=True)
    return [p["id"] for p in found]


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def _case_numbers(explorer: InsolvencyExplorer) -> list[str]:
    """The case numbers of the rows the table shows, as a reader sees them."""
    return list(explorer.table.df["Case"])


def _by_id(proceedings: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in proceedings}


def _cases(proceedings: list[dict[str, Any]], ids: list[str]) -> list[str]:
    return [_by_id(proceedings)[i]["case_number"] for i in ids]


def test_the_cost_is_shown_before_anything_is_sent(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    assert isinstance(explorer, widgets.VBox)
    assert "Search page 1: 10 credits." in explorer.cost.value
    assert explorer.search_button.description == "Search (10 credits)"
    assert explorer.prev_button.disabled and explorer.next_button.disabled  # no pages before a search
    explorer.statuses.value = ("opened",)
    explorer.court.value = "Darmstadt"
    explorer.legal_form.value = "gmbh"
    explorer.date_from.value = dt.date(2015, 1, 1)
    assert "10 credits" in explorer.cost.value and explorer.table is None
    assert client.requests_sent == 0 and client.credits_spent == 0


@pytest.mark.slow
def test_a_search_shows_a_formatted_table_and_then_costs_nothing(client: Any, proceedings: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened", "preliminary")
    explorer.court.value = "Darmstadt"
    explorer.search_button.click()
    expected = _expected(proceedings, {"opened", "preliminary"}, court="Darmstadt")
    assert len(expected) > 0 and _case_numbers(explorer) == _cases(proceedings, expected[:10])
    pages = -(-len(expected) // 10)
    assert f"page 1 of {pages} · {len(expected)} proceedings (10 credits)" in explorer.page_info.value
    shown = explorer.table.df
    assert list(shown.columns) == ["Debtor", "Case", "Court", "Status", "Legal form", "Opened", "Last event"]
    assert not any(UUID.search(str(v)) for v in shown.to_numpy().ravel())  # ids are kept in the frame, not shown
    first = _by_id(proceedings)[expected[0]]
    assert first["opened_at"][:10] in set(shown["Opened"])
    assert first["court"].removeprefix("Amtsgericht ") in set(shown["Court"])  # the town: every court is one
    assert client.credits_spent == 10 and "Credits spent by this explorer: 10" in explorer.credits.value
    assert "Search page 1: 0 credits, cached." in explorer.cost.value
    assert explorer.search_button.description == "Search (0 credits, cached)"
    explorer.search_button.click()
    assert client.credits_spent == 10 and "(0 credits, cached)" in explorer.page_info.value


def test_legal_forms_read_as_the_register_writes_them(client: Any, proceedings: Any) -> None:
    explorer = InsolvencyExplorer(client)
    assert ("GmbH", "gmbh") in explorer.legal_form.options
    explorer.legal_form.value = "gmbh"
    explorer.search_button.click()
    assert set(explorer.table.df["Legal form"]) == {"GmbH"}


def test_the_arrows_fetch_the_next_and_previous_page(client: Any, proceedings: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened",)
    explorer.legal_form.value = "gmbh"
    explorer.date_from.value, explorer.date_to.value = dt.date(2018, 1, 1), dt.date(2025, 12, 31)
    explorer.per_page.value = 25
    explorer.search_button.click()
    expected = _expected(proceedings, {"opened"}, "gmbh", opened=("2018-01-01", "2025-12-31"))
    pages = -(-len(expected) // 25)
    assert pages >= 2 and explorer.page.max == pages
    assert explorer.prev_button.disabled and explorer.next_button.description == "Next ▶ (10 credits)"
    first_page = _case_numbers(explorer)
    explorer.next_button.click()
    assert client.credits_spent == 20 and explorer.page.value == 2
    assert _case_numbers(explorer) == _cases(proceedings, expected[25:50]) != first_page
    assert f"page 2 of {pages} · {len(expected)} proceedings (10 credits)" in explorer.page_info.value
    assert explorer.prev_button.description == "◀ Previous (0 credits, cached)"
    explorer.prev_button.click()
    assert _case_numbers(explorer) == first_page and client.credits_spent == 20
    assert f"page 1 of {pages} · {len(expected)} proceedings (0 credits, cached)" in explorer.page_info.value
    assert explorer.next_button.description == "Next ▶ (0 credits, cached)"
    explorer.page.value = pages
    explorer.search_button.click()
    assert _case_numbers(explorer) == _cases(proceedings, expected[25 * (pages - 1) :])
    assert explorer.next_button.disabled and explorer.next_button.description == "Next ▶"


def test_changing_an_input_greys_the_results_until_the_next_search(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened",)
    explorer.search_button.click()
    explorer.next_button.click()
    assert explorer.page.value == 2 and not explorer.stale
    explorer.court.value = "Hof"
    assert explorer.page.value == 1 and explorer.page.max == 1
    assert explorer.stale and "regkit-stale" in explorer.results_area._dom_classes
    assert "The results below are for the previous inputs" in explorer.status.value
    assert explorer.prev_button.disabled and explorer.next_button.disabled
    spent = client.credits_spent
    explorer.table.selected_rows = [0]  # a click on a greyed row does nothing
    assert client.credits_spent == spent and "Click a row" in explorer.events.value
    explorer.search_button.click()
    assert not explorer.stale and "regkit-stale" not in explorer.results_area._dom_classes
    assert all("Hof" in court for court in explorer.table.df["Court"])


def test_an_error_clears_the_results(make_client: Any) -> None:
    client = make_client(budget=10)
    explorer = InsolvencyExplorer(client)
    explorer.search_button.click()
    assert explorer.table is not None and client.credits_spent == 10
    explorer.next_button.click()  # 10 more credits: over the budget
    assert "regkit-error" in explorer.status.value and "budget" in explorer.status.value.lower()
    assert explorer.table is None and explorer.frame is None and explorer.page_info.value == ""
    assert explorer._table_box.children == () and explorer.events.value == ""
    assert client.credits_spent == 10


def test_an_invalid_range_is_explained_and_search_disabled(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.date_from.value, explorer.date_to.value = dt.date(2024, 1, 1), dt.date(2020, 1, 1)
    assert "min 2024-01-01 is after max 2020-01-01" in explorer.cost.value and "regkit-error" in explorer.cost.value
    assert explorer.search_button.disabled
    explorer.date_to.value = None
    assert not explorer.search_button.disabled
    assert client.requests_sent == 0


@pytest.mark.slow
def test_clicking_a_row_shows_its_events(client: Any, world: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.query.value = "Ahrens"
    explorer.search_button.click()
    assert "Click a row" in explorer.events.value and client.credits_spent == 10
    explorer.table.selected_rows = [0]
    proceeding = world.insolvencies[explorer.frame["id"].iloc[0]]
    n = len(proceeding["events"])
    assert f"{proceeding['debtor_name']} ({proceeding['case_number']}): {n} event{'s' * (n != 1)} (10 credits)" in (
        explorer.events.value
    )
    assert "<svg" in explorer.events.value
    said = {"proceedings_opened": "proceedings opened", "discharge_granted": "discharge granted"}
    for event in proceeding["events"]:  # each event by its label (the code's words), never the code itself
        assert said.get(event["event_type"], event["event_type"].replace("_", " ")) in explorer.events.value
    assert client.credits_spent == 20 and "Credits spent by this explorer: 20" in explorer.credits.value
    explorer.table.selected_rows = []
    explorer.table.selected_rows = [0]
    assert "(0 credits, cached)" in explorer.events.value and client.credits_spent == 20


def test_build_filters_maps_each_input() -> None:
    assert logic.build_filters() == {}
    assert logic.build_filters(
        ("lifted", "opened"), "  Amtsgericht  Hof ", None, None, dt.date(2020, 12, 31), "closed_at"
    ) == {
        "current_status": ["lifted", "opened"],
        "court": {"keywords": ["Amtsgericht", "Hof"]},
        "closed_at": (None, "2020-12-31"),
    }
    with pytest.raises(ValueError, match="date_field must be one of"):
        logic.build_filters(date_from=dt.date(2020, 1, 1), date_field="filed_at")


def test_search_cost_without_a_cache_is_always_the_price(make_client: Any) -> None:
    uncached = make_client(cache=False)
    logic.run_search(uncached, None, {"current_status": ["opened"]}, 1, 10)
    assert logic.search_cost(uncached, None, {"current_status": ["opened"]}, 1, 10) == 10
    assert uncached.credits_spent == 10


def test_search_cost_follows_the_cache_key(client: Any) -> None:
    filters = logic.build_filters(["opened"], "Darmstadt")
    assert logic.search_cost(client, None, filters, 1, 10) == 10
    logic.run_search(client, "", filters, 1, 10)
    assert logic.search_cost(client, None, filters, 1, 10) == 0
    assert logic.search_cost(client, None, filters, 1, 25) == 10
    assert logic.search_cost(client, "Fachhandel", filters, 1, 10) == 10
    assert logic.search_cost(client, None, {**filters, "court": {"keywords": ["Darmstadt"]}}, 2, 10) == 10
