"""Issue 46: a figure's title names the company. A financials or ownership-history answer names none, so the
client passes on the name its cache already holds (free: nothing is sent, no credit spent); without it the id."""

from __future__ import annotations

from typing import Any

import pytest
from matplotlib import dates as mdates

from regkit.plot import balance_sheet, cap_table, pnl_waterfall

LUXLOG = "DE-HRB-R2103-65834"  # files a P&L
WESTKRAFT = "DE-HRB-U1308-101888"  # four shareholder lists


def _name(world: Any, company_id: str) -> str:
    return str(world.companies[company_id]["name"]["name"])


def _title(ax: Any) -> str:
    suptitle = ax.figure.get_suptitle()
    return " ".join((suptitle or ax.get_title()).split())


def test_financials_know_the_name_only_from_the_cache_and_pay_nothing_for_it(client: Any, world: Any) -> None:
    unnamed = client.get_financials(LUXLOG)
    assert unnamed.company_name is None
    spent = client.credits_spent
    client.get_company(LUXLOG)
    assert client.credits_spent == spent + 10
    spent, calls = client.credits_spent, len(client.ledger)
    named = client.get_financials(LUXLOG)
    assert named.company_name == _name(world, LUXLOG)
    assert client.credits_spent == spent and len(client.ledger) == calls + 1  # the financials, from the cache
    assert named.statements().attrs["company_names"] == {LUXLOG: _name(world, LUXLOG)}


@pytest.mark.parametrize("draw", [pnl_waterfall, balance_sheet])
@pytest.mark.parametrize("as_frame", [False, True])
def test_statement_titles_name_the_company(client: Any, world: Any, draw: Any, as_frame: bool) -> None:
    def frame(financials: Any) -> Any:
        return financials.statements() if draw is balance_sheet else financials.indicators()

    financials = client.get_financials(LUXLOG)
    data = frame(financials) if as_frame else financials
    assert LUXLOG in _title(draw(data)) and _name(world, LUXLOG) not in _title(draw(data))
    client.get_company(LUXLOG)
    financials = client.get_financials(LUXLOG)
    data = frame(financials) if as_frame else financials
    title = _title(draw(data))
    assert f"{_name(world, LUXLOG)} ({LUXLOG})" in title, title


def test_the_cap_table_names_the_company_and_dates_every_list(client: Any, world: Any) -> None:
    client.get_company(WESTKRAFT)
    history = client.get_ownership_history(WESTKRAFT)
    assert history.company_name == _name(world, WESTKRAFT)
    for data in (history, history.to_dataframe()):
        ax = cap_table(data, until="2026-06-30")
        assert f"{_name(world, WESTKRAFT)} ({WESTKRAFT})" in _title(ax)
    lists = sorted({entry["document_date"] for o in history.raw["owners"] for entry in o["ownership_history"]})
    dated = [t for t in ax.texts if t.get_gid() == "list_date"]
    assert [mdates.num2date(t.xy[0]).strftime("%Y-%m-%d") for t in dated] == lists  # four lists, far enough apart
    assert [t.get_text() for t in dated] == [mdates.num2date(t.xy[0]).strftime("%-d %b %Y") for t in dated]
    (heading,) = [t for t in ax.texts if t.get_gid() == "list_dates"]
    assert heading.get_text() == "shareholder lists"


def test_lists_close_together_are_counted_when_not_dated(world: Any) -> None:
    owner = {
        "id": "p-1",
        "name": "Ida Roth",
        "entity_type": "natural_person",
        "ownership_history": [
            {"document_id": f"d{i}", "document_date": day, "nominal_shares": 2500000, "percentage_shares": 100.0}
            for i, day in enumerate(["2001-03-01", "2015-06-01", "2015-06-20", "2015-07-02", "2020-01-01"])
        ],
    }
    ax = cap_table({"owners": [owner]})
    dated = [t for t in ax.texts if t.get_gid() == "list_date"]
    (heading,) = [t for t in ax.texts if t.get_gid() == "list_dates"]
    unwritten = 5 - len(dated)
    assert 1 <= unwritten < 5 and f"({unwritten} too close to others to be dated here)" in heading.get_text()
    assert ax.get_title() == "Shareholders by shareholder list"  # a plain answer names no company
