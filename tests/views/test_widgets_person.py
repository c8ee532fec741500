"""``PersonExplorer`` driven headless against the in-process local register (search → pick → load → co-officers,
every cost shown before it is paid), and its logic and chart functions. Expected values come from the world."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import ipywidgets as widgets
import matplotlib
import pandas as pd
from widgets_support import UUID, table_rows, visible_text

from regkit.schema.interface import MAX_QUERY_LENGTH
from regkit.schema.labels import ROLE_LABELS
from regkit.widgets import PersonExplorer
from regkit.widgets import person_chart as chart
from regkit.widgets import person_logic as logic
from regkit.widgets import person_tables as tables

SCHABER = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"  # director in two groups and of his own UG; holds two companies


def _positions(world: Any, person_id: str) -> list[tuple[str, dict[str, Any]]]:
    """(company id, representation entry) of a person's management positions (not their shareholder entries)."""
    return [
        (cid, r)
        for cid, c in world.companies.items()
        for r in c.get("representation") or ()
        if r.get("id") == person_id and r["role"] != "SHAREHOLDER"
    ]


def _holdings(world: Any, person_id: str) -> list[dict[str, Any]]:
    return [h for h in world.shareholdings if h["holder_id"] == person_id]


def _loaded(client: Any) -> PersonExplorer:
    explorer = PersonExplorer(client, SCHABER)
    explorer.load_button.click()
    return explorer


def test_an_explorer_is_a_vbox_that_says_what_search_costs(client: Any) -> None:
    explorer = PersonExplorer(client)
    assert isinstance(explorer, widgets.VBox) and tuple(explorer.tabs.titles) == logic.TABS
    assert explorer.search_button.disabled and explorer.load_button.disabled
    explorer.query.value = "Schaber"
    assert "Search 'Schaber': 10 credits." in explorer.cost.value
    assert explorer.search_button.description == "Search (10 credits)" and client.requests_sent == 0
    explorer.query.value = "x" * (MAX_QUERY_LENGTH + 1)  # past the query limit: refused before anything is sent
    assert "regkit-error" in explorer.cost.value and explorer.search_button.disabled
    explorer.search_button.click()
    assert client.requests_sent == 0


def test_search_pick_load(client: Any, world: Any) -> None:
    explorer = PersonExplorer(client)
    explorer.query.value = "Raimund Schaber"
    explorer.search_button.click()
    assert client.credits_spent == 10 and "1 person found (10 credits)." in explorer.results.value
    assert explorer.search_button.description == "Search (0 credits, cached)"  # the page is cached now
    answer = client.search_persons("Raimund Schaber")  # the register's answer (from the cache: free)
    assert explorer.matches.df.to_dict("records") == [
        {
            "Name": p["name"],
            "Date of birth": p["date_of_birth"],
            "City": p["city"],
            "Current position": "yes" if p["active"] else "no",
        }
        for p in answer.raw["results"]
    ]
    assert not UUID.search(visible_text(explorer.matches))
    assert explorer.person_id.value == "" and explorer.person is None  # nothing picked, nothing loaded
    explorer.matches.selected_rows = [0]  # a click on the row
    assert explorer.person_id.value == answer.raw["results"][0]["id"] == SCHABER
    assert explorer.load_button.description == "Load (20 credits)" and client.credits_spent == 10
    explorer.load_button.click()
    assert (
        client.credits_spent == 30
        and "Loaded Raimund Schaber and their holdings (20 credits)." in explorer.status.value
    )
    panes = explorer.panes
    assert "Raimund Schaber" in panes["summary"].value
    assert (
        "<svg" in panes["positions"].value
        and "<!-- Raimund Schaber: positions over time -->" in panes["positions"].value
    )
    served = _positions(world, SCHABER)
    rows = table_rows(explorer.tables["positions"])  # one row per position, roles by their labels
    assert sorted((r["Company id"], r["Role"], r["Start date"]) for r in rows) == sorted(
        (cid, ROLE_LABELS[p["role"]], p["start_date"]) for cid, p in served
    )
    assert all(world.companies[cid]["name"]["name"] in {r["Company name"] for r in rows} for cid, _ in served)
    held = {r["Company id"]: r for r in table_rows(explorer.tables["holdings"])}
    for h in _holdings(world, SCHABER):
        assert held[h["company_id"]]["Share"] == f"{h['share'] * 100:.2f}".rstrip("0").rstrip(".") + " %"
        assert held[h["company_id"]]["Nominal share"].startswith("€")
    assert not UUID.search(visible_text(explorer.tabs).replace(SCHABER, ""))  # the card names the person's id
    assert explorer.load_button.description == "Load (0 credits, cached)"
    explorer.load_button.click()
    assert (
        client.credits_spent == 30
        and "Loaded Raimund Schaber and their holdings (0 credits, cached)." in explorer.status.value
    )
    explorer.query.value = "Schaber"
    explorer.search_button.click()  # a new search: the old results go, the new ones are listed
    assert client.credits_spent == 40 and explorer.matches is not None and explorer.matches.selected_rows == []
    explorer.pick(SCHABER)
    assert explorer.matches.selected_rows == [[str(i) for i in explorer.result_frame["id"]].index(SCHABER)]


def test_a_malformed_id_is_never_sent_and_a_404_clears_the_tabs(client: Any) -> None:
    explorer = _loaded(client)
    assert explorer.panes["summary"].value and explorer.person is not None
    explorer.person_id.value = "not-a-uuid"
    assert explorer.load_button.disabled and "is not a person id" in explorer.status.value
    explorer.load_button.click()
    assert explorer.load() is None and client.credits_spent == 20
    explorer.person_id.value = "00000000-0000-4000-8000-000000000000"
    explorer.load_button.click()
    assert "404" in explorer.status.value and explorer.person is None and explorer.holdings is None
    assert all(explorer.panes[name].value == "" for name in ("summary", "positions", "holdings"))
    assert "Load a person first." in explorer.panes["interlocks"].value and explorer.co_officers_button.disabled
    assert client.credits_spent == 20  # a 404 costs nothing


def _expected_co_officers(world: Any, person_id: str) -> set[tuple[str, str]]:
    """(other person's id, company id) of everyone who held a non-shareholder role at one of the person's
    companies while the person held a position there (end dates are the first day out of office)."""
    found = set()
    for cid, own in _positions(world, person_id):
        for r in world.companies[cid]["representation"]:
            if r["type"] != "natural_person" or r["role"] == "SHAREHOLDER" or r.get("id") in (person_id, None):
                continue
            ends = [e for e in (own["end_date"], r["end_date"]) if e]
            if not ends or max(own["start_date"], r["start_date"]) < min(ends):
                found.add((r["id"], cid))
    return found


def test_co_officers_cost_what_the_button_says(client: Any, world: Any) -> None:
    explorer = _loaded(client)
    companies = {cid for cid, _ in _positions(world, SCHABER)}
    assert explorer.co_officers_button.description == f"Find co-officers ({10 * len(companies)} credits)"
    assert f"records of their {len(companies)} companies" in explorer.panes["interlocks"].value
    explorer.co_officers_button.click()
    assert client.credits_spent == 20 + 10 * len(companies)
    co = explorer.co_officers
    assert set(zip(co["person_id"], co["company_id"])) == _expected_co_officers(world, SCHABER)
    assert f"{co['person_id'].nunique()} people served with them" in explorer.panes["interlocks"].value
    assert explorer.co_officers_button.description == "Find co-officers (0 credits, cached)"
    explorer.co_officers_button.click()
    assert client.credits_spent == 20 + 10 * len(companies)


def test_co_officers_and_interlocks_by_hand() -> None:
    person = {
        "id": "p",
        "first_name": "Ida",
        "last_name": "Roth",
        "city": None,
        "date_of_birth": None,
        "age": None,
        "management_positions": [
            {
                "company_name": "A",
                "register_id": "DE-HRB-B1204-1",
                "role": "DIRECTOR",
                "start_date": "2010-01-01",
                "end_date": "2015-01-01",
            },
            {
                "company_name": "B",
                "register_id": "DE-HRB-B1204-2",
                "role": "DIRECTOR",
                "start_date": "2012-01-01",
                "end_date": None,
            },
        ],
    }

    def entry(pid: str, role: str, start: str, end: str | None) -> dict[str, Any]:
        return {
            "id": pid,
            "name": pid.upper(),
            "type": "natural_person",
            "role": role,
            "start_date": start,
            "end_date": end,
            "authority": None,
            "natural_person": None,
        }

    a = {
        "id": "DE-HRB-B1204-1",
        "names": [],
        "representation": [
            entry("q", "PROKURA", "2014-06-01", None),
            entry("r", "DIRECTOR", "2015-01-01", None),  # after Ida left
            entry("s", "SHAREHOLDER", "2010-01-01", None),
        ],
    }
    b = {"id": "DE-HRB-B1204-2", "names": [], "representation": [entry("q", "DIRECTOR", "2000-01-01", None)]}
    co = logic.co_officers(person, [a, b])
    assert list(co["person_id"]) == ["q", "q"] and list(co["company_id"]) == ["DE-HRB-B1204-2", "DE-HRB-B1204-1"]
    assert co["start"].tolist() == [pd.Timestamp("2012-01-01"), pd.Timestamp("2014-06-01")]  # earliest first
    assert co["end"].tolist()[1] == pd.Timestamp("2015-01-01") and pd.isna(co["end"].tolist()[0])
    assert list(co["is_current"]) == [True, False] and list(co["roles"]) == ["director", "prokura"]
    both = logic.interlocks(co)
    assert both.to_dict("records") == [
        {"person_id": "q", "name": "Q", "n_companies": 2, "company_names": "B · A", "current": True}
    ]


def test_position_bars_and_chart(client: Any, world: Any, fresh_figures: Any) -> None:
    person, held = client.get_person(SCHABER), client.get_person_holdings(SCHABER)
    bars = chart.position_bars(person, held)
    positions, holdings = _positions(world, SCHABER), _holdings(world, SCHABER)
    assert len(bars) == len(positions) + len(holdings)
    assert (bars["key"] == chart.HOLDING).sum() == len(holdings)
    newest = max(d for _, r in positions for d in (r["start_date"], r["end_date"]) if d)
    never_future = min(pd.Timestamp(f"{newest[:4]}-12-31"), pd.Timestamp.today().normalize())
    assert bars.attrs["until"] == never_future  # the year's end of the newest date, never a day still to come
    first = {cid: min(r["start_date"] for c, r in positions if c == cid) for cid, _ in positions}
    for h in holdings:
        first[h["company_id"]] = min(first.get(h["company_id"], h["start"]), h["start"])
    lanes = list(dict.fromkeys(bars["company_id"]))
    assert lanes == sorted(first, key=lambda cid: (first[cid], cid))  # earliest company on top
    for _, rows in bars.groupby("row"):  # bars on one line never overlap in time
        spans = sorted(zip(rows["start"], rows["end"]))
        assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = chart.positions_chart(person, fig.subplots(), holdings=held)
    assert [c.get_label() for c in ax.containers] == ["DIRECTOR", chart.HOLDING]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        world.companies[cid]["name"]["name"][:33] + "…"
        if len(world.companies[cid]["name"]["name"]) > 34
        else world.companies[cid]["name"]["name"]
        for cid in lanes
    ]
    fig.canvas.draw()
    years = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert years and all(len(y) == 4 and y.isdigit() for y in years)
    legend, frame = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert frame.x0 <= legend.x0 and legend.x1 <= frame.x1 and frame.y0 <= legend.y0 and legend.y1 <= frame.y1
    open_ends = [line for line in ax.lines if line.get_gid() == "open"]
    assert len(open_ends[0].get_xdata()) == int(bars["open"].sum())
    assert fresh_figures() == []


def test_a_person_without_positions_or_holdings() -> None:
    person = {
        "id": "p",
        "first_name": "Ida",
        "last_name": "Roth",
        "city": None,
        "date_of_birth": None,
        "age": None,
        "management_positions": [],
    }
    assert "No management positions and no holdings registered." in tables.positions_html(person, None)
    assert logic.co_officers(person, []).empty
    empty = copy.deepcopy(person)
    empty["management_positions"] = [
        {
            "company_name": "A",
            "register_id": "DE-HRB-B1204-1",
            "role": "DIRECTOR",
            "start_date": dt.date(2001, 1, 1).isoformat(),
            "end_date": None,
        }
    ]
    assert "<svg" in tables.positions_html(empty, None)
