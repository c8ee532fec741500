"""``CompanyExplorer`` driven headless against the in-process local register, and its logic functions."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets
import pytest
from widgets_support import UUID, table_rows, visible_text

from regkit.frames import MEASURES
from regkit.widgets import CompanyExplorer, search_logic
from regkit.widgets import company_logic as logic

DISTRESSED = "DE-HRB-P2408-81776"
ABSORBED = "DE-HRB-B8534-111252"
ACQUIRER = "DE-HRB-R3208-147620"
LIQUIDATION = "DE-HRA-T2408-42049"  # an e.K.: publishes no indicators
WALDSTEIN = "DE-HRB-X1517-62135KI"  # a GmbH: Organträger of group G017, owned by natural persons
SUEDLICHT = "DE-HRB-D4301-56744"  # an AG: owners only from filed documents (best_available)


def test_an_explorer_is_a_vbox_with_its_parts_as_attributes(client: Any) -> None:
    explorer = CompanyExplorer(client)
    assert isinstance(explorer, widgets.VBox)
    assert isinstance(explorer.company_id, widgets.Text) and isinstance(explorer.load_button, widgets.Button)
    assert isinstance(explorer.tabs, widgets.Tab) and tuple(explorer.tabs.titles) == logic.TABS
    assert "Enter a company id" in explorer.status.value and explorer.load_button.disabled
    assert "Credits spent by this explorer: 0" in explorer.credits.value


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("DE-HRB-x", "is not a company identifier"),
        ("de-hrb-p2408-81776", "did you mean 'DE-HRB-P2408-81776'?"),
        ("HRB 81776", "is not a company identifier"),
    ],
)
def test_a_malformed_id_is_explained_and_never_sent(client: Any, text: str, says: str) -> None:
    explorer = CompanyExplorer(client)
    explorer.company_id.value = text
    assert says in explorer.status.value and "nothing was sent" in explorer.status.value
    assert explorer.load_button.disabled
    explorer.load_button.click()  # a disabled button's handlers still run when clicked from code
    assert explorer.load() is None and explorer.record is None
    assert client.requests_sent == 0 and client.credits_spent == 0


def test_loading_fills_every_tab(client: Any, company: Any, fresh_figures: Any) -> None:
    raw = company(DISTRESSED)
    explorer = CompanyExplorer(client, DISTRESSED)
    assert not explorer.load_button.disabled and explorer.status.value == ""
    explorer.load_button.click()
    assert explorer.record.raw["id"] == DISTRESSED
    assert f"Loaded {raw['name']['name']} (10 credits)." in explorer.status.value
    assert "Credits spent by this explorer: 10" in explorer.credits.value and client.credits_spent == 10
    panes = explorer.panes
    assert raw["name"]["name"] in panes["summary"].value
    assert "<svg" in panes["histories"].value and raw["address"]["formatted_value"] in panes["histories"].value
    assert {r["name"] for r in raw["representation"]} == {
        row["Name"] for row in table_rows(explorer.tables["representatives"])
    }
    documents = table_rows(explorer.tables["documents"])  # newest first, the type in words, no UUID
    assert [(d["Date"], d["Type"]) for d in documents] == sorted(
        ((d["date"], d["type"].replace("_", " ")) for d in raw["documents"]), key=lambda d: d[0], reverse=True
    )
    assert f"{len(raw['documents'])} document" in panes["documents"].value
    assert all(s["case_number"] in panes["insolvencies"].value for s in raw["insolvencies"])
    assert not UUID.search(visible_text(explorer.tabs)), "a UUID is shown to the reader"
    assert "no mergers, spin-offs or profit-transfer agreement" in panes["links"].value
    assert fresh_figures() == []  # drawn off pyplot: Jupyter shows nothing twice


def test_the_metric_picker_offers_what_was_published_and_redraws(client: Any, company: Any) -> None:
    raw = company(DISTRESSED)
    explorer = CompanyExplorer(client, DISTRESSED)
    explorer.load()
    published = [m for m in (*MEASURES, "employees") if any(r[m] is not None for r in raw["indicators"])]
    assert [value for _, value in explorer.metrics.options] == published and "revenue" not in published
    said = dict(explorer.metrics.options)  # labelled as a reader says them
    assert said["Balance sheet total"] == "balance_sheet_total" and said["Equity"] == "equity"
    assert explorer.metrics.value == ("equity", "balance_sheet_total")
    first = explorer.indicator_chart.value
    assert first.count("<svg") == 1
    explorer.metrics.value = ("cash",)
    assert explorer.indicator_chart.value != first and "<svg" in explorer.indicator_chart.value
    explorer.metrics.value = ()
    assert "Pick one or more metrics." in explorer.indicator_chart.value


@pytest.mark.slow
def test_a_second_lookup_is_free_from_the_cache(client: Any) -> None:
    explorer = CompanyExplorer(client, ABSORBED)
    explorer.load()
    explorer.load_button.click()
    assert re.search(r"Loaded [^<]+ \(0 credits, cached\)\.", explorer.status.value)
    assert client.credits_spent == 10 and client.credits_saved == 10
    assert ACQUIRER in explorer.panes["links"].value


def test_an_unknown_company_is_shown_not_raised(client: Any) -> None:
    explorer = CompanyExplorer(client, "DE-HRB-B1204-999999999")
    explorer.load_button.click()
    assert "regkit-error" in explorer.status.value and "404" in explorer.status.value
    assert explorer.record is None and client.credits_spent == 0


def test_a_company_without_indicators(client: Any) -> None:
    explorer = CompanyExplorer(client, LIQUIDATION)
    explorer.load()
    assert explorer.metrics.options == () and "No indicators published." in explorer.indicator_chart.value


def test_check_company_id_uses_the_clients_validation() -> None:
    assert logic.check_company_id("  DE-HRB-P2408-81776\n") == ("DE-HRB-P2408-81776", "")
    cid, message = logic.check_company_id("")
    assert cid is None and "Enter a company id" in message
    cid, message = logic.check_company_id("DE-XYZ-M1103-1")
    assert cid is None and "register type one of HRB, HRA, PR, GnR, VR" in message


def test_tab_html_of_every_tab(company: Any) -> None:
    raw = company(ACQUIRER)
    for tab in logic.TABS:
        if tab not in ("indicators", "owners", "financials", "changes"):  # lookups of their own
            assert logic.tab_html(raw, tab), tab
    absorbed = [a["company_id"] for a in raw["acquisitions"]]
    assert absorbed and all(cid in logic.links_html(raw) for cid in absorbed)


# -- finding a company --------------------------------------------------------------------------------


def _fold(text: str) -> str:
    return text.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")


def test_register_text_becomes_the_id_offline(client: Any, world: Any) -> None:
    register = world.companies[WALDSTEIN]["register"]
    text = f"{register['register_type']} 62135 KI {register['register_court'].replace('Amtsgericht ', '')}"
    explorer = CompanyExplorer(client)
    explorer.search.value = text
    assert explorer.company_id.value == WALDSTEIN and not explorer.load_button.disabled
    assert f"{text} is {WALDSTEIN} (read offline: nothing sent, 0 credits)." in explorer.status.value
    assert explorer.record is None and client.requests_sent == 0 and client.credits_spent == 0


def test_ambiguous_register_text_lists_the_courts_and_sends_nothing(client: Any) -> None:
    explorer = CompanyExplorer(client)
    explorer.search.value = "HRB 1 Frankfurt"
    assert "ambiguous" in explorer.status.value and "Frankfurt am Main" in explorer.status.value
    assert "Frankfurt/Oder" in explorer.status.value and "regkit-error" in explorer.status.value
    assert explorer.company_id.value == "" and explorer.matches is None
    assert client.requests_sent == 0


def test_a_name_lists_matches_for_free_and_picking_fills_the_id(client: Any, world: Any) -> None:
    starting = sorted(cid for cid, c in world.companies.items() if _fold(c["name"]["name"]).startswith("waldstein"))
    explorer = CompanyExplorer(client)
    assert explorer.search.continuous_update is False  # typing sends nothing: Enter or Find does
    explorer.find_button.click()  # nothing typed: a hint, nothing sent
    assert "Type a company name" in explorer.status.value and client.requests_sent == 0
    explorer.search.value = "Waldstein"  # submitted (Enter): one autocomplete call
    answer = list(client.autocomplete_companies("Waldstein"))  # what the register answers, in its order
    ids = [r["company_id"] for r in answer]
    assert len(ids) == min(10, len(starting)) and set(ids) <= set(starting)
    assert f"{len(ids)} companies start like 'Waldstein' (autocomplete, 0 credits)" in explorer.status.value
    assert explorer.company_id.value == "" and explorer.matches.selected_rows == []  # nothing picked yet
    rows = explorer.matches.df.to_dict("records")  # one row per match: what a reader needs to tell them apart
    assert [(r["Name"], r["Register"], r["City"]) for r in rows] == [
        (a["name"], f"{a['register_type']} {a['register_number']}", a["address"]["city"]) for a in answer
    ]
    assert {r["Legal form"] for r in rows} == {"GmbH"} and not UUID.search(visible_text(explorer))
    explorer.matches.selected_rows = [1]  # a click on the second row
    assert explorer.company_id.value == ids[1] and not explorer.load_button.disabled
    assert "click Load (10 credits) to fetch it" in explorer.status.value
    assert explorer.record is None and client.credits_spent == 0  # nothing paid until Load
    explorer.load_button.click()
    assert explorer.record.raw["id"] == ids[1] and client.credits_spent == 10


def test_a_single_match_fills_the_id_and_no_match_says_what_else_to_try(client: Any, world: Any) -> None:
    explorer = CompanyExplorer(client)
    explorer.search.value = "waldstein holding"
    assert explorer.company_id.value == WALDSTEIN and explorer.matches.selected_rows == [0]
    assert explorer.matches.df["Company id"].tolist() == [WALDSTEIN]
    assert world.companies[WALDSTEIN]["name"]["name"] in explorer.status.value
    explorer.search.value = "Qxzyvw"  # a new Find: the old matches go
    assert "No company name starts like 'Qxzyvw'" in explorer.status.value and explorer.matches is None
    assert client.credits_spent == 0


def test_a_person_id_is_not_a_company(client: Any) -> None:
    explorer = CompanyExplorer(client)
    explorer.search.value = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"
    assert "is a person id" in explorer.status.value and client.requests_sent == 0


def test_parse_text_kinds() -> None:
    assert search_logic.parse_text("").kind == ""
    assert search_logic.parse_text("Solplan Holding").kind == search_logic.NAME
    assert search_logic.parse_text("DE-HRB-x").kind == search_logic.INVALID
    person = search_logic.parse_text("CFD35D80-F1F6-4762-911E-A0C0413FDB53", persons=True)
    assert person[:2] == (search_logic.PERSON, "cfd35d80-f1f6-4762-911e-a0c0413fdb53")


# -- the load button and the owners tab ---------------------------------------------------------------


def _current_shares(world: Any, company_id: str) -> dict[str, float]:
    return {
        h["holder_name"]: h["share"] for h in world.shareholdings if h["company_id"] == company_id and h["end"] is None
    }


def test_the_load_button_says_what_it_costs(client: Any) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    assert explorer.load_button.description == "Load (10 credits)"
    explorer.load_button.click()
    assert client.credits_spent == 10 and explorer.load_button.description == "Load (0 credits, cached)"
    explorer.load_button.click()
    assert client.credits_spent == 10 and re.search(r"Loaded [^<]+ \(0 credits, cached\)\.", explorer.status.value)
    explorer.company_id.value = SUEDLICHT  # another id: its own cost
    assert explorer.load_button.description == "Load (10 credits)"
    explorer.company_id.value = "DE-HRB-x"
    assert explorer.load_button.description == "Load" and explorer.load_button.disabled
    explorer.company_id.value = WALDSTEIN
    assert explorer.load_button.description == "Load (0 credits, cached)"


def test_the_owners_tab_costs_what_it_says_and_shows_percent(client: Any, world: Any) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    assert explorer.owners_button.disabled and "Load a company first." in explorer.owners_pane.value
    explorer.load()
    assert explorer.owners_button.description == "Fetch owners (10 credits)" and not explorer.owners_button.disabled
    assert client.credits_spent == 10  # loading the company does not fetch its owners
    explorer.owners_button.click()
    assert client.credits_spent == 20 and explorer.owners is not None
    shares = _current_shares(world, WALDSTEIN)
    assert shares and len(explorer.owners) == len(shares)
    rows = {r["Holder name"]: r for r in table_rows(explorer.tables["owners"])}
    assert set(rows) == set(shares)
    for name, share in shares.items():
        assert rows[name]["Share"] == f"{share * 100:.2f}".rstrip("0").rstrip(".") + " %"
        assert re.fullmatch(r"€\d{1,3}(,\d{3})*", rows[name]["Nominal share"]), rows[name]
        assert rows[name]["Holder type"] == "natural person" and rows[name]["Holder register id"] == "–"
    assert "best_available" not in explorer.owners_pane.value and not UUID.search(explorer.owners_pane.value)
    assert explorer.owners_button.description == "Fetch owners (0 credits, cached)"
    explorer.owners_button.click()
    assert client.credits_spent == 20 and re.search(
        r"Fetched [\d,]+ owners? \(0 credits, cached\)\.", explorer.owners_pane.value
    )


def test_an_ag_asks_for_the_best_available_owners_and_says_so(client: Any, world: Any) -> None:
    assert world.companies[SUEDLICHT]["legal_form"] == "ag"
    explorer = CompanyExplorer(client, SUEDLICHT)
    explorer.load()
    assert "known from filed documents" in explorer.owners_pane.value
    explorer.owners_button.click()
    assert "regkit-error" not in explorer.owners_pane.value and explorer.owners.raw["best_available"] is True
    assert "asked with best_available=True" in explorer.owners_pane.value
    assert {r["Holder name"] for r in table_rows(explorer.tables["owners"])} == set(_current_shares(world, SUEDLICHT))
    assert client.is_cached(SUEDLICHT, endpoint="owners", best_available=True)
    assert logic.owners_cost(client, explorer.record) == 0


def test_a_404_clears_what_the_tabs_showed(client: Any) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    explorer.load()
    explorer.owners_button.click()
    assert explorer.panes["summary"].value and explorer.owners is not None
    explorer.company_id.value = "DE-HRB-B1204-999999999"
    explorer.load_button.click()
    assert "404" in explorer.status.value and explorer.record is None and explorer.owners is None
    assert all(pane.value == "" for pane in explorer.panes.values())
    assert explorer.metrics.options == () and explorer.indicator_chart.value == ""
    assert explorer.owners_button.disabled and "Load a company first." in explorer.owners_pane.value
    assert client.credits_spent == 20


SPIN_OFF_SOURCE = "DE-HRB-G1103-60303"  # data/README.md: a spin-off transferor, assets to DE-HRB-G1103-116776


def test_the_links_tab_names_a_spin_off_in_words(client: Any, company: Any) -> None:
    raw = company(SPIN_OFF_SOURCE)
    recipient = raw["asset_spin_offs"][0]
    explorer = CompanyExplorer(client, SPIN_OFF_SOURCE)
    explorer.load_button.click()
    links = explorer.panes["links"].value
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", links)
    assert "spin_off" not in links and any(c.lower().startswith("spin-off") for c in cells), cells
    ids = re.findall(r'<td class="regkit-id">([^<]*)</td>', links)  # ids stay on one line (white-space:nowrap)
    assert SPIN_OFF_SOURCE in ids and recipient["company_id"] in ids


def test_an_unknown_company_is_a_sentence_not_an_http_line(client: Any, world: Any) -> None:
    unknown = "DE-HRB-R3101-99999"
    assert unknown not in world.companies
    explorer = CompanyExplorer(client, unknown)
    explorer.load_button.click()
    shown = re.sub(r"<[^>]+>", "", explorer.status.value)
    assert unknown in shown and "What to do:" in shown
    assert "GET " not in shown and "/v1/" not in shown and "404" not in shown and "company_not_found" not in shown


@pytest.mark.slow
def test_the_credits_line_counts_this_explorers_spending(client: Any) -> None:
    first, second = CompanyExplorer(client, WALDSTEIN), CompanyExplorer(client, DISTRESSED)
    first.load_button.click()
    second.load_button.click()
    assert client.credits_spent == 20  # two company lookups, 10 credits each (the price list)
    assert "Credits spent by this explorer: 10 " in second.credits.value and "in all: 20 spent" in second.credits.value
    first.load_button.click()  # from the cache: this explorer saved 10, spent nothing more
    assert "this explorer: 10 · saved by the cache: 10 · its client in all: 20 spent, 10 saved" in first.credits.value
    assert "this explorer: 10 · saved by the cache: 0" in second.credits.value


# -- the changes tab (issue 43) -------------------------------------------------------------------------


def test_the_changes_tab_compares_a_fresh_answer_with_the_one_before(client: Any, register: Any) -> None:
    from regkit.local.models.world_day import continuation_of

    events = continuation_of(register.context.catalog).events(register.today, register.today.replace(month=10))
    moved = next(e for e in events if e.kind == "seat_moved")
    explorer = CompanyExplorer(client, moved.company_id)
    explorer.load()
    assert "No changes of" in explorer.changes.view.value  # one answer: nothing to compare yet
    assert explorer.changes.button.description == "Fetch again and compare (10 credits)"
    spent = client.credits_spent
    register.advance((moved.day - register.today).days)
    explorer.changes.button.click()
    assert client.credits_spent - spent == 10  # the one lookup the button names
    assert explorer.tabs.selected_index == explorer.tabs.titles.index("changes")
    shown = explorer.changes.view.value
    assert f"seat moved to {moved.detail['city']}" in shown and moved.day.isoformat() in shown
    assert "<svg" in shown and " of the answers" not in shown and "between the answers the cache kept" in shown
    assert moved.detail["formatted_value"] in shown  # the new address, in the table's "after"
