"""``GroupExplorer`` driven headless against the local register: estimate (free) before crawl, the crawl
within its budget, the drawing and the interlocks on the slider's date; and its logic functions."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import ipywidgets as widgets
import pytest

from regkit.graph import RELATIONS, from_companies, interlocks, ultimate_parent
from regkit.widgets import GroupExplorer
from regkit.widgets import group_logic as logic

SUBSIDIARY = "DE-HRB-R2103-158659"  # in group G065; its links lead up to the Organträger
TOP = "DE-HRB-R2103-65834"
WALDSTEIN = "DE-HRB-X1517-62135KI"  # Organträger of G017, the largest group (24 companies)
SCHABER = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"  # a person: director in two groups, shareholder of two companies


def _up(client: Any, seed: str = SUBSIDIARY) -> GroupExplorer:
    return GroupExplorer(client, seed, direction="up")


def test_an_explorer_is_a_vbox_and_asks_for_an_estimate_first(client: Any) -> None:
    explorer = GroupExplorer(client)
    assert isinstance(explorer, widgets.VBox) and set(explorer.relation_boxes) == set(RELATIONS)
    assert explorer.estimate_button.disabled and explorer.crawl_button.disabled
    assert explorer.direction.value == "down" and tuple(explorer.direction.options) == ("up", "down", "both")
    explorer.seed.value = "DE-HRB-158659"
    assert "is not a company identifier" in explorer.status.value and explorer.estimate_button.disabled
    explorer.seed.value = SUBSIDIARY
    assert not explorer.estimate_button.disabled and explorer.crawl_button.disabled
    assert "Estimate the cost before crawling." in explorer.estimate.value
    for box in explorer.relation_boxes.values():
        box.value = False
    assert "Tick at least one relation." in explorer.status.value and explorer.estimate_button.disabled


def test_the_estimate_spends_nothing_and_enables_the_crawl(client: Any) -> None:
    explorer = _up(client)
    explorer.estimate_button.click()
    assert client.credits_spent == 0 and client.requests_sent == 0
    assert "Level 0 costs 10 credits; levels 1–2 are estimated when the crawl reaches them" in explorer.estimate.value
    assert not explorer.crawl_button.disabled
    assert explorer.crawl_button.description == "Crawl (10 credits for level 0, at most 500)"
    explorer.depth.value = 1
    assert explorer.crawl_button.disabled  # a new input needs a new estimate
    explorer.crawl_button.click()
    assert explorer.graph is None and client.credits_spent == 0


def test_the_crawl_draws_the_group_and_lists_interlocks(client: Any, fresh_figures: Any) -> None:
    explorer = _up(client)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    G = explorer.graph
    report = G.graph["crawl"]
    assert {SUBSIDIARY, TOP} <= set(G) and report.spent_credits == client.credits_spent <= 500
    assert f"for {report.spent_credits} credits." in explorer.status.value and "drew" not in explorer.status.value
    assert "The crawl, level by level:" in explorer.report.value and "Spent credits" in explorer.report.value
    assert explorer.crawl_button.description == "Crawl (0 credits, cached)"  # the same crawl again: all cached
    assert "Everything the crawl reaches is cached" in explorer.estimate.value
    founded = G.nodes[SUBSIDIARY]["incorporated_at"]  # the seed's founding, as the register answered it
    assert list(explorer.date.options) == [*logic.change_dates(G, since=founded), "current"]
    assert explorer.date.options[0] == founded.isoformat() and explorer.date.value == "current"
    assert "<svg" in explorer.drawing.value
    assert f"<!-- {G.nodes[TOP]['name']} ({TOP}) and its group -->" in explorer.drawing.value  # the title, as SVG says
    current = logic.interlocks_frame(G, None)
    assert all(name in explorer.interlocks.value for name in current["name"])
    headings = re.findall(r"<th[^>]*>([^<]*)</th>", explorer.interlocks.value)  # says what its count counts
    assert "Companies served" in headings and "N companies" not in headings
    assert "how many of them each person serves" in explorer.interlocks.value
    assert fresh_figures() == []


def test_a_new_seed_or_estimate_clears_the_group_and_other_inputs_grey_it(client: Any) -> None:
    explorer = _up(client)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    assert explorer.graph is not None and "<svg" in explorer.drawing.value and explorer.report.value
    explorer.depth.value = 1  # another input: the group shown was crawled with the old one
    assert "regkit-stale" in explorer.result_area._dom_classes and "<svg" in explorer.drawing.value
    assert "crawled with other inputs" in explorer.status.value
    explorer.estimate_button.click()  # a new estimate: the old group goes
    assert explorer.graph is None and "regkit-stale" not in explorer.result_area._dom_classes
    assert explorer.drawing.value == explorer.drawn.value == explorer.interlocks.value == explorer.report.value == ""
    explorer.crawl_button.click()
    assert "<svg" in explorer.drawing.value and explorer.drawn.value.count("Drawn: ") == 1
    explorer.seed.value = TOP  # a new seed: the old group goes at once
    assert explorer.graph is None and explorer.drawing.value == "" and list(explorer.date.options) == ["current"]
    assert explorer.crawl_button.disabled and explorer.crawl_button.description == "Crawl"


def _labelled(svg: str) -> tuple[set[str], set[str]]:
    """The companies and the people the drawing labels (SVG elements ``id="label:<company>"`` and
    ``id="person:<person>"``, a person's column)."""
    return set(re.findall(r'id="label:([^"]+)"', svg)), set(re.findall(r'id="person:([^"]+)"', svg))


def test_the_drawn_line_counts_what_is_drawn_on_the_slider_date(client: Any) -> None:
    explorer = _up(client)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    G = explorer.graph
    day = dt.date.fromisoformat(explorer.date.options[-2])  # the last day the group changed
    explorer.date.value = day.isoformat()
    companies, people = _labelled(explorer.drawing.value)
    assert len(companies) >= 2 and SUBSIDIARY in companies and not people
    top = ultimate_parent(G, SUBSIDIARY, day)
    assert (
        f"Drawn: the {len(companies)} companies of the group of {G.nodes[top]['name']} ({top}) on "
        f'{day.isoformat()}; people hidden (tick "draw people").'
    ) in explorer.drawn.value
    explorer.persons.value = True
    companies, people = _labelled(explorer.drawing.value)
    assert people and f"the {len(companies)} companies" in explorer.drawn.value
    persons = f"{len(people)} person" + ("s" if len(people) != 1 else "")
    assert f"and {persons} linked to two or more of them." in explorer.drawn.value
    assert len(G) > len(companies) + len(people)  # the crawl found more than the group drawn on that day


def test_the_slider_redraws_the_group_on_its_date(client: Any) -> None:
    explorer = _up(client)
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
    explorer = _up(first)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    second = make_client()  # same cache file
    again = _up(second)
    again.estimate_button.click()
    assert "Everything the crawl reaches is cached: it costs 0 credits." in again.estimate.value
    assert again.crawl_button.description == "Crawl (0 credits, cached)"
    again.crawl_button.click()
    assert second.credits_spent == 0 and set(again.graph) == set(explorer.graph)


def test_the_budget_caps_the_crawl(client: Any) -> None:
    explorer = _up(client)
    explorer.budget.value = 10
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    assert client.credits_spent <= 10
    assert "Stopped: budget" in explorer.status.value and "regkit-warning" in explorer.status.value


def _firm(n: int, start: str, end: str | None) -> dict[str, Any]:
    return {
        "id": f"DE-HRB-B1204-{n}",
        "name": {"name": f"Firma {n} GmbH"},
        "incorporated_at": "2000-01-01",
        "terminated_at": None,
        "representation": [
            {
                "id": "p-1",
                "name": "Eva Roth",
                "type": "natural_person",
                "role": "DIRECTOR",
                "start_date": start,
                "end_date": end,
                "authority": None,
                "natural_person": None,
            }
        ],
    }


def test_interlocks_on_a_date() -> None:
    G = from_companies([_firm(1, "2010-01-01", None), _firm(2, "2015-01-01", "2020-01-01")])
    assert len(logic.interlocks_frame(G, dt.date(2016, 6, 1))) == 1
    assert logic.interlocks_frame(G, dt.date(2020, 1, 1)).empty  # the end is the first day out of office
    assert logic.interlocks_frame(G, None).empty
    assert len(interlocks(G)) == 1
    html = logic.interlocks_html(G, dt.date(2016, 6, 1))
    assert "Eva Roth" in html and "Firma 1 GmbH · Firma 2 GmbH" in html
    assert logic.change_dates(G) == ["2000-01-01", "2010-01-01", "2015-01-01", "2020-01-01"]


def test_check_crawl() -> None:
    assert logic.check_crawl("company", "down", []) == "Tick at least one relation."
    assert logic.check_crawl("company", "both", list(RELATIONS)) is None
    assert "representation" in str(logic.check_crawl("person", "up", ["merger"]))


def test_to_day_and_estimate_html() -> None:
    assert logic.to_day("current") is None and logic.to_day("2016-01-02") == dt.date(2016, 1, 2)
    assert "at most 30 credits" in logic.estimate_html([_plan(0, 0), _plan(1, 30)], depth=1)
    assert "costs 0 credits" in logic.estimate_html([_plan(0, 0)], depth=3)


def _plan(level: int, credits: int) -> Any:
    from regkit.graph import LevelEstimate

    return LevelEstimate(level, ("DE-HRB-B1204-1",) * max(1, credits // 10), 0 if credits else 1, credits)


# -- down from a parent, seeds by name, register text and person id -------------------------------------


def _company_nodes(G: Any) -> set[str]:
    return {n for n, kind in G.nodes(data="kind") if kind == "company" and G.nodes[n].get("fetched", True)}


def test_down_from_a_parent_found_by_name_maps_the_whole_group(client: Any, world: Any) -> None:
    members = next(g["members"] for g in world.meta["groups"] if g["organtraeger"] == WALDSTEIN)
    explorer = GroupExplorer(client, world.companies[WALDSTEIN]["name"]["name"], direction="down")
    assert "is a name: Estimate looks it up first" in explorer.status.value and not explorer.estimate_button.disabled
    explorer.depth.value = 5
    explorer.budget.value = 1000
    explorer.estimate_button.click()
    assert explorer.seed.value == WALDSTEIN and client.credits_spent == 0  # autocomplete and the dry run are free
    assert "Level 0 costs 20 credits (company lookups 10, holdings 10)" in explorer.estimate.value
    explorer.crawl_button.click()
    G = explorer.graph
    assert _company_nodes(G) >= set(members)
    endpoints = G.graph["crawl"].endpoints
    calls = endpoints.groupby("endpoint")["calls"].sum()
    assert client.credits_spent == 10 * calls["company"] + 10 * calls["holdings"] == G.graph["crawl"].spent_credits
    persons = sum(1 for _, kind in G.nodes(data="kind") if kind == "natural_person")
    drawn = len(members)  # today's group: every member still belongs to it
    assert (
        f"Crawled {len(_company_nodes(G))} companies and {persons} persons for {client.credits_spent} credits "
        f"(company lookups {10 * calls['company']}, holdings {10 * calls['holdings']})."
    ) in explorer.status.value
    name = world.companies[WALDSTEIN]["name"]["name"]
    assert (
        f"Drawn: the {drawn} companies of the group of {name} ({WALDSTEIN}) over time (links that ended are "
        'faded); people hidden (tick "draw people").'
    ) in explorer.drawn.value
    explorer.persons.value = True
    assert f"Drawn: the {drawn} companies of the group of {name} ({WALDSTEIN}) over time" in explorer.drawn.value
    assert " linked to two or more of them." in explorer.drawn.value
    assert (
        f"<!-- {world.companies[WALDSTEIN]['name']['name']} ({WALDSTEIN}) and its group -->" in explorer.drawing.value
    )


def test_the_estimate_covers_holdings_and_is_free_after_the_crawl(make_client: Any) -> None:
    first = make_client()
    explorer = GroupExplorer(first, "HRB 62135 KI Kiel", direction="down")
    assert f"is {WALDSTEIN} (read offline" in explorer.status.value
    explorer.depth.value = 1
    explorer.budget.value = 1000
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    again = GroupExplorer(make_client(), WALDSTEIN, direction="down")
    again.depth.value = 1
    again.estimate_button.click()
    assert "Everything the crawl reaches is cached: it costs 0 credits." in again.estimate.value
    assert "Holdings calls" in again.estimate.value


@pytest.mark.slow
def test_a_person_seed_crawls_their_companies(client: Any, world: Any) -> None:
    served = {
        cid for cid, c in world.companies.items() for r in c.get("representation") or () if r.get("id") == SCHABER
    }
    explorer = GroupExplorer(client, SCHABER.upper(), direction="up")
    assert explorer.status.value == "" and not explorer.estimate_button.disabled
    explorer.depth.value = 1
    explorer.estimate_button.click()
    assert "person lookups 10, person holdings 10" in explorer.estimate.value
    explorer.crawl_button.click()
    assert explorer.crawled_seed == SCHABER and _company_nodes(explorer.graph) >= served
    persons = sum(1 for _, kind in explorer.graph.nodes(data="kind") if kind == "natural_person")
    assert f"Crawled {len(_company_nodes(explorer.graph))} companies" in explorer.status.value
    assert f" and {persons} persons for {client.credits_spent} credits" in explorer.status.value
    assert "Raimund Schaber and the companies crawled from them" in explorer.drawing.value


def test_directions_need_their_relations(client: Any) -> None:
    explorer = GroupExplorer(client, WALDSTEIN)
    explorer.relation_boxes["ownership"].value = False
    assert "Going down follows holdings: tick 'ownership'." in explorer.status.value
    assert explorer.estimate_button.disabled
    explorer.direction.value = "up"
    assert not explorer.estimate_button.disabled
    explorer.relation_boxes["ownership"].value = True
    for relation in ("merger", "spin_off", "profit_transfer", "representation"):
        explorer.relation_boxes[relation].value = False
    assert "Going up follows the links company records list" in explorer.status.value
    explorer.seed.value = "HRB 1 Frankfurt"
    assert "ambiguous" in explorer.status.value and explorer.estimate_button.disabled
    assert client.requests_sent == 0


def test_an_ambiguous_name_lists_the_candidates(client: Any) -> None:
    explorer = GroupExplorer(client, "Waldstein")
    explorer.estimate_button.click()
    assert "Several companies start like 'Waldstein'" in explorer.status.value and explorer.crawl_button.disabled
    assert explorer.seed.value == "Waldstein" and client.credits_spent == 0


def test_the_interactive_view_shows_the_drawn_group_in_sigma(client: Any, world: Any) -> None:
    from ipysigma import Sigma

    members = next(g["members"] for g in world.meta["groups"] if g["organtraeger"] == WALDSTEIN)
    explorer = GroupExplorer(client, WALDSTEIN, direction="down")
    explorer.depth.value, explorer.budget.value = 5, 1000
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    assert explorer.interactive.children == () and "<svg" in explorer.drawing.value
    explorer.view.value = "interactive"
    (view,) = explorer.interactive.children
    assert isinstance(view.sigma, Sigma) and explorer.drawing.value == ""
    nodes = {node["key"] for node in view.data["nodes"]}
    assert set(members) <= nodes and all(n.startswith("DE-") for n in nodes)  # the companies; people hidden
    assert f"Drawn: the {len(members)} companies" in explorer.drawn.value
    spent = client.credits_spent
    explorer.view.value = "drawing"  # back: the static drawing, nothing fetched
    assert explorer.interactive.children == () and "<svg" in explorer.drawing.value
    assert client.credits_spent == spent
    explorer.seed.value = "DE-HRB-R2103-65834"  # a new seed clears the view
    assert explorer.interactive.children == ()


def test_every_day_on_the_slider_draws_the_seeds_group(client: Any, fresh_figures: Any) -> None:
    """No day before the seed existed: each option draws at least the seed (issue 25: notebook 07's snapshot read
    "Drawn: the 0 companies … on 1992-02-03" over an empty drawing)."""
    explorer = _up(client)
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    for option in (explorer.date.options[0], explorer.date.options[len(explorer.date.options) // 2]):
        explorer.date.value = option
        counted = re.search(r"Drawn: the (\d+) companies|Drawn: the only company", explorer.drawn.value)
        assert counted is not None and int(counted.group(1) or 1) >= 1, explorer.drawn.value
        assert f"on {option}" in explorer.drawn.value and "<svg" in explorer.drawing.value
    assert fresh_figures() == []
