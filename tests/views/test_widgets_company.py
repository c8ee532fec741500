"""``CompanyExplorer`` driven headless against the in-process local register, and its logic functions."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pytest

from regkit.frames import MEASURES
from regkit.widgets import CompanyExplorer
from regkit.widgets import company_logic as logic

DISTRESSED = "DE-HRB-P2408-81776"
ABSORBED = "DE-HRB-B8534-111252"
ACQUIRER = "DE-HRB-R3208-147620"
LIQUIDATION = "DE-HRA-T2408-42049"  # an e.K.: publishes no indicators


def test_an_explorer_is_a_vbox_with_its_parts_as_attributes(client: Any) -> None:
    explorer = CompanyExplorer(client)
    assert isinstance(explorer, widgets.VBox)
    assert isinstance(explorer.company_id, widgets.Text) and isinstance(explorer.load_button, widgets.Button)
    assert isinstance(explorer.tabs, widgets.Tab) and tuple(explorer.tabs.titles) == logic.TABS
    assert "Enter a company id" in explorer.status.value and explorer.load_button.disabled
    assert "Credits spent: 0" in explorer.credits.value


@pytest.mark.parametrize(("text", "says"), [
    ("DE-HRB-x", "is not a company identifier"),
    ("de-hrb-p2408-81776", "did you mean 'DE-HRB-P2408-81776'?"),
    ("HRB 81776", "is not a company identifier"),
])  # fmt: skip
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
    assert "Credits spent: 10" in explorer.credits.value and client.credits_spent == 10
    panes = explorer.panes
    assert raw["name"]["name"] in panes["summary"].value
    assert "<svg" in panes["histories"].value and raw["address"]["formatted_value"] in panes["histories"].value
    assert all(r["name"] in panes["representatives"].value for r in raw["representation"])
    assert all(d["id"] in panes["documents"].value for d in raw["documents"])
    assert all(s["case_number"] in panes["insolvencies"].value for s in raw["insolvencies"])
    assert "no mergers, spin-offs or profit-transfer agreement" in panes["links"].value
    assert fresh_figures() == []  # drawn off pyplot: Jupyter shows nothing twice


def test_the_metric_picker_offers_what_was_published_and_redraws(client: Any, company: Any) -> None:
    raw = company(DISTRESSED)
    explorer = CompanyExplorer(client, DISTRESSED)
    explorer.load()
    published = [m for m in (*MEASURES, "employees") if any(r[m] is not None for r in raw["indicators"])]
    assert list(explorer.metrics.options) == published and "revenue" not in published
    assert explorer.metrics.value == ("equity", "balance_sheet_total")
    first = explorer.indicator_chart.value
    assert first.count("<svg") == 1
    explorer.metrics.value = ("cash",)
    assert explorer.indicator_chart.value != first and "<svg" in explorer.indicator_chart.value
    explorer.metrics.value = ()
    assert "Pick one or more metrics." in explorer.indicator_chart.value


def test_a_second_lookup_is_free_from_the_cache(client: Any) -> None:
    explorer = CompanyExplorer(client, ABSORBED)
    explorer.load()
    explorer.load_button.click()
    assert "from the cache, 0 credits" in explorer.status.value
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
        if tab != "indicators":
            assert logic.tab_html(raw, tab), tab
    absorbed = [a["company_id"] for a in raw["acquisitions"]]
    assert absorbed and all(cid in logic.links_html(raw) for cid in absorbed)
