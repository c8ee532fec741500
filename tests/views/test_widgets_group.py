"""``GroupExplorer`` driven headless against the local register: estimate (free) before crawl, the crawl
within its budget, the drawing and the interlocks on the slider's date; and its logic functions."""

from __future__ import annotations

import datetime as dt
from typing import Any

import ipywidgets as widgets

from regkit.graph import RELATIONS, from_companies, interlocks
from regkit.widgets import GroupExplorer
from regkit.widgets import group_logic as logic

SUBSIDIARY = "DE-HRB-R2103-158659"  # in group G065; its links lead up to the Organträger
TOP = "DE-HRB-R2103-65834"


def test_an_explorer_is_a_vbox_and_asks_for_an_estimate_first(client: Any) -> None:
    explorer = GroupExplorer(client)
    assert isinstance(explorer, widgets.VBox) and set(explorer.relation_boxes) == set(RELATIONS)
    assert explorer.estimate_button.disabled and explorer.crawl_button.disabled
    explorer.seed.value = "DE-HRB-158659"
    assert "is not a company identifier" in explorer.status.value and explorer.estimate_button.disabled
    explorer.seed.value = SUBSIDIARY
    assert not explorer.estimate_button.disabled and explorer.crawl_button.disabled
    assert "Estimate the cost before crawling." in explorer.estimate.value
    for box in explorer.relation_boxes.values():
        box.value = False
    assert "Tick at least one relation." in explorer.status.value and explorer.estimate_button.disabled


def test_the_estimate_spends_nothing_and_enables_the_crawl(client: Any) -> None:
    explorer = GroupExplorer(client, SUBSIDIARY)
    explorer.estimate_button.click()
    assert client.credits_spent == 0 and client.requests_sent == 0
    assert "Level 0 costs 10 credits; levels 1–2 are estimated when the crawl reaches them" in explorer.estimate.value
    assert not explorer.crawl_button.disabled and explorer.crawl_button.description == "Crawl (≤ 500 credits)"
    explorer.depth.value = 1
    assert explorer.crawl_button.disabled  # a new input needs a new estimate
    explorer.crawl_button.click()
    assert explorer.graph is None and client.credits_spent == 0


def test_the_crawl_draws_the_group_and_lists_interlocks(client: Any, fresh_figures: Any) -> None:
    explorer = GroupExplorer(client, SUBSIDIARY)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    G = explorer.graph
    report = G.graph["crawl"]
    assert {SUBSIDIARY, TOP} <= set(G) and report.spent_credits == client.credits_spent <= 500
    assert f"for {report.spent_credits} credits." in explorer.status.value
    assert "spent_credits" in explorer.report.value
    assert list(explorer.date.options) == [*logic.change_dates(G), "current"] and explorer.date.value == "current"
    assert "<svg" in explorer.drawing.value
    assert f"<!-- {G.nodes[TOP]['name']} ({TOP}) and its group -->" in explorer.drawing.value  # the title, as SVG says
    current = logic.interlocks_frame(G, None)
    assert all(name in explorer.interlocks.value for name in current["name"])
    assert fresh_figures() == []


def test_the_slider_redraws_the_group_on_its_date(client: Any) -> None:
    explorer = GroupExplorer(client, SUBSIDIARY)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    now = explorer.drawing.value
    early = explorer.date.options[0]
    explorer.date.value = early
    assert explorer.drawing.value != now and "<svg" in explorer.drawing.value
    expected = logic.interlocks_frame(explorer.graph, dt.date.fromisoformat(early))
    if expected.empty:
        assert f"nobody serves several of these companies on {early}" in explorer.interlocks.value
    else:
        assert all(name in explorer.interlocks.value for name in expected["name"])


def test_after_a_crawl_the_estimate_is_free_and_a_second_crawl_too(make_client: Any) -> None:
    first = make_client()
    explorer = GroupExplorer(first, SUBSIDIARY)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    second = make_client()  # same cache file
    again = GroupExplorer(second, SUBSIDIARY)
    again.estimate_button.click()
    assert "Everything the crawl reaches is cached: it costs 0 credits." in again.estimate.value
    again.crawl_button.click()
    assert second.credits_spent == 0 and set(again.graph) == set(explorer.graph)


def test_the_budget_caps_the_crawl(client: Any) -> None:
    explorer = GroupExplorer(client, SUBSIDIARY)
    explorer.budget.value = 10
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    assert client.credits_spent <= 10
    assert "Stopped: budget" in explorer.status.value and "regkit-warning" in explorer.status.value


def _firm(n: int, start: str, end: str | None) -> dict[str, Any]:
    return {"id": f"DE-HRB-B1204-{n}", "name": {"name": f"Firma {n} GmbH"}, "incorporated_at": "2000-01-01",
            "terminated_at": None, "representation": [
                {"id": "p-1", "name": "Eva Roth", "type": "natural_person", "role": "DIRECTOR", "start_date": start,
                 "end_date": end, "authority": None, "natural_person": None}]}  # fmt: skip


def test_interlocks_on_a_date() -> None:
    G = from_companies([_firm(1, "2010-01-01", None), _firm(2, "2015-01-01", "2020-01-01")])
    assert len(logic.interlocks_frame(G, dt.date(2016, 6, 1))) == 1
    assert logic.interlocks_frame(G, dt.date(2020, 1, 1)).empty  # the end is the first day out of office
    assert logic.interlocks_frame(G, None).empty
    assert len(interlocks(G)) == 1
    html = logic.interlocks_html(G, dt.date(2016, 6, 1))
    assert "Eva Roth" in html and "Firma 1 GmbH · Firma 2 GmbH" in html
    assert logic.change_dates(G) == ["2000-01-01", "2010-01-01", "2015-01-01", "2020-01-01"]


def test_to_day_and_estimate_html() -> None:
    assert logic.to_day("current") is None and logic.to_day("2016-01-02") == dt.date(2016, 1, 2)
    assert "at most 30 credits" in logic.estimate_html([_plan(0, 0), _plan(1, 30)], depth=1)
    assert "costs 0 credits" in logic.estimate_html([_plan(0, 0)], depth=3)


def _plan(level: int, credits: int) -> Any:
    from regkit.graph import LevelEstimate

    return LevelEstimate(level, ("DE-HRB-B1204-1",) * max(1, credits // 10), 0 if credits else 1, credits)
