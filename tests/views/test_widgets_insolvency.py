"""``InsolvencyExplorer`` driven headless against the local register; results checked against the world's
proceedings filtered and ordered here, independently of the register's search."""

from __future__ import annotations

import datetime as dt
from typing import Any

import ipywidgets as widgets
import pytest

from regkit.widgets import InsolvencyExplorer
from regkit.widgets import insolvency_logic as logic


def _expected(proceedings: list[dict[str, Any]], statuses: set[str], legal_form: str | None = None,
              court: str = "", opened: tuple[str | None, str | None] = (None, None)) -> list[str]:  # fmt: skip
    """Ids of the matching proceedings in the interface's order (last_event_at descending, then id)."""
    low, high = opened

    def match(p: dict[str, Any]) -> bool:
        return (p["current_status"] in statuses and (legal_form is None or p["debtor_legal_form"] == legal_form)
                and all(word.lower() in p["court"].lower() for word in court.split())
                and (low is None or (p["opened_at"] is not None and p["opened_at"] >= low))
                and (high is None or (p["opened_at"] is not None and p["opened_at"] <= high)))  # fmt: skip

    found = [p for p in proceedings if match(p)]
    assert all(p["last_event_at"] for p in found)
    found.sort(key=lambda p: p["id"])
    found.sort(key=lambda p: p["last_event_at"], reverse=True)
    return [p["id"] for p in found]


def _ids(explorer: InsolvencyExplorer) -> list[str]:
    return [value for _, value in explorer.result_select.options]


def test_the_cost_is_shown_before_anything_is_sent(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    assert isinstance(explorer, widgets.VBox)
    assert "Search page 1: 10 credits (not cached)." in explorer.cost.value
    assert explorer.search_button.description == "Search (10 credits)"
    explorer.statuses.value = ("opened",)
    explorer.court.value = "Darmstadt"
    explorer.legal_form.value = "gmbh"
    explorer.date_from.value = dt.date(2015, 1, 1)
    assert "10 credits" in explorer.cost.value
    assert client.requests_sent == 0 and client.credits_spent == 0


def test_a_search_shows_the_matching_page_and_then_costs_nothing(client: Any, proceedings: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened", "preliminary")
    explorer.court.value = "Darmstadt"
    explorer.search_button.click()
    expected = _expected(proceedings, {"opened", "preliminary"}, court="Darmstadt")
    assert _ids(explorer) == expected[:10] and len(expected) > 0
    assert f"· {len(expected)} results (10 credits)" in explorer.page_info.value
    assert all(proceedings_by_id(proceedings)[i]["case_number"] in explorer.results.value for i in _ids(explorer))
    assert client.credits_spent == 10 and "Credits spent: 10" in explorer.credits.value
    assert "0 credits (cached: free)" in explorer.cost.value
    assert explorer.search_button.description == "Search (0 credits)"
    explorer.search_button.click()
    assert client.credits_spent == 10 and "from the cache, 0 credits" in explorer.page_info.value


def proceedings_by_id(proceedings: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in proceedings}


def test_page_controls_choose_the_page_and_search_fetches_it(client: Any, proceedings: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened",)
    explorer.legal_form.value = "gmbh"
    explorer.date_from.value, explorer.date_to.value = dt.date(2018, 1, 1), dt.date(2025, 12, 31)
    explorer.per_page.value = 25
    explorer.search_button.click()
    expected = _expected(proceedings, {"opened"}, "gmbh", opened=("2018-01-01", "2025-12-31"))
    pages = -(-len(expected) // 25)
    assert pages >= 2 and explorer.page.max == pages
    explorer.next_button.click()
    assert explorer.page.value == 2 and "Search page 2: 10 credits (not cached)." in explorer.cost.value
    assert client.credits_spent == 10  # moving to a page sends nothing
    explorer.search_button.click()
    assert _ids(explorer) == expected[25:50] and client.credits_spent == 20
    explorer.prev_button.click()
    assert explorer.page.value == 1 and "0 credits (cached: free)" in explorer.cost.value
    explorer.prev_button.click()
    assert explorer.page.value == 1


def test_changing_a_filter_goes_back_to_page_one(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.statuses.value = ("opened",)
    explorer.search_button.click()
    explorer.next_button.click()
    assert explorer.page.value == 2
    explorer.court.value = "Hof"
    assert explorer.page.value == 1 and explorer.page.max == 1


def test_an_invalid_range_is_explained_and_search_disabled(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.date_from.value, explorer.date_to.value = dt.date(2024, 1, 1), dt.date(2020, 1, 1)
    assert "min 2024-01-01 is after max 2020-01-01" in explorer.cost.value and "regkit-error" in explorer.cost.value
    assert explorer.search_button.disabled
    explorer.date_to.value = None
    assert not explorer.search_button.disabled
    assert client.requests_sent == 0


def test_picking_a_result_shows_its_events(client: Any, world: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.query.value = "Ahrens"
    explorer.search_button.click()
    assert explorer.result_select.value is None and explorer.events.value == ""
    first = _ids(explorer)[0]
    explorer.result_select.value = first
    proceeding = world.insolvencies[first]
    assert f"{len(proceeding['events'])} events (10 credits)" in explorer.events.value
    assert "<svg" in explorer.events.value
    assert all(e["event_type"] in explorer.events.value for e in proceeding["events"])
    assert client.credits_spent == 20 and "Credits spent: 20" in explorer.credits.value
    explorer.result_select.value = None
    explorer.result_select.value = first
    assert "from the cache, 0 credits" in explorer.events.value and client.credits_spent == 20


def test_build_filters_maps_each_input() -> None:
    assert logic.build_filters() == {}
    assert logic.build_filters(("lifted", "opened"), "  Amtsgericht  Hof ", None, None, dt.date(2020, 12, 31),
                               "closed_at") == {"current_status": ["lifted", "opened"],
                                                "court": {"keywords": ["Amtsgericht", "Hof"]},
                                                "closed_at": (None, "2020-12-31")}  # fmt: skip
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
