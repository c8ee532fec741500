"""The financials tab of ``CompanyExplorer``: the statement tree (``statement_html``) and the pane's controls."""

from __future__ import annotations

import re
from typing import Any

import pytest
import statements_support as support

from regkit.frames import statements
from regkit.frames.financial_statements import PATH_SLASH
from regkit.schema.formatting import euro_text
from regkit.widgets import CompanyExplorer
from regkit.widgets.company_financials import FinancialsPane, statement_html, statement_years


def _frame() -> Any:
    return statements({support.COMPANY: support.answer()})


def _rows(text: str) -> list[tuple[str, list[str]]]:
    """(data-path, the amounts shown) of every row of a statement tree."""
    out = []
    for path, body in re.findall(r'data-path="([^"]+)">(.*?)</div>', text):
        out.append((path, re.findall(r'regkit-fin-num">([^<]*)</span>', body)))
    return out


def test_the_tree_has_a_row_per_line_item_and_a_column_per_year_latest_first() -> None:
    answer = support.answer()
    text = statement_html(_frame(), "passiva", depth=9)
    header = re.search(r"regkit-fin-head.*?</div>", text).group(0)
    assert re.findall(r'regkit-fin-num">([^<]*)<', header) == ["2023", "2022"]
    by_year = {r["report_end_date"][:4]: r for r in answer["reports"]}

    def walk(rows: list[dict[str, Any]], prefix: str) -> list[tuple[str, list[str]]]:
        out = []
        for row in rows:
            path = f"{prefix}/{row['formatted_name'].replace('/', PATH_SLASH)}"
            names = [name.replace(PATH_SLASH, "/") for name in path.split("/")[1:]]
            same = [_find(by_year[y]["passiva"]["rows"], names) for y in ("2023", "2022")]
            out.append((path, [euro_text(None if v is None else v / 100) for v in same]))
            out.extend(walk(row["children"], path))
        return out

    assert _rows(text) == walk(by_year["2023"]["passiva"]["rows"], "passiva")


def _find(rows: list[dict[str, Any]], names: list[str]) -> int | None:
    for row in rows:
        if row["formatted_name"] == names[0]:
            return row["current_value"] if len(names) == 1 else _find(row["children"], names[1:])
    return None


def test_subtotals_are_collapsible_and_levels_open_them() -> None:
    frame = _frame()
    latest = frame[frame["report_id"] == "r-2023"]
    subtotals = int(latest[latest["statement"] == "aktiva"]["has_children"].sum())
    closed = statement_html(frame, "aktiva", depth=1)
    assert closed.count("<details>") == subtotals and "<details open>" not in closed
    opened = statement_html(frame, "aktiva", depth=9)
    assert opened.count("<details open>") == subtotals
    two = statement_html(frame, "aktiva", depth=2)
    top = int((latest[(latest["statement"] == "aktiva") & (latest["level"] == 1)]["has_children"]).sum())
    assert two.count("<details open>") == top


def test_english_labels_with_the_german_term_beside_them() -> None:
    text = statement_html(_frame(), "guv", depth=9)
    assert "Revenue" in text and "1. Umsatzerlöse" in text


def test_a_small_company_has_no_pnl_to_show() -> None:
    frame = statements({support.SMALL: support.small_answer()})
    assert "short balance sheet only" in statement_html(frame, "guv")
    with pytest.raises(ValueError, match="statement must be"):
        statement_html(frame, "bilanz")


def test_the_pane_redraws_when_a_picker_changes() -> None:
    pane = FinancialsPane()
    assert pane.controls.layout.display == "none"
    pane.show(support.answer(), "<b>ok</b>")
    assert pane.controls.layout.display is None and pane.consolidated.layout.display == "none"
    assert "Anlagevermögen" in pane.table.value
    pane.statement.value = "guv"
    assert "Umsatzerlöse" in pane.table.value and "Anlagevermögen" not in pane.table.value
    pane.levels.value = 9
    assert "<details" not in pane.table.value or "<details open>" in pane.table.value
    assert statement_years(pane.frame) == sorted(pane.frame["period_end"].unique(), reverse=True)


LUXLOG = "DE-HRB-R2103-65834"  # full accounts, many years
NO_REPORTS = "DE-HRA-T2408-42049"  # an e.K.: files no annual accounts


@pytest.mark.slow
def test_the_tab_says_the_cost_before_paying_then_shows_the_statements(client: Any, world: Any) -> None:
    explorer = CompanyExplorer(client, LUXLOG)
    assert explorer.financials.button.disabled and "Load a company first" in explorer.financials.head.value
    explorer.load()
    assert explorer.financials.button.description == "Fetch financials (10 credits)"
    assert not explorer.financials.button.disabled and client.credits_spent == 10
    explorer.financials.button.click()
    assert client.credits_spent == 20
    frame = explorer.financials.frame
    own = frame[~frame["consolidated"]]
    assert own["period_end"].dt.strftime("%Y-%m-%d").nunique() == len(
        {entry["date"] for entry in world.companies[LUXLOG]["indicators"]}
    )
    assert "Fixed assets" in explorer.financials.table.value and "A. Anlagevermögen" in explorer.financials.table.value
    assert explorer.financials.button.description == "Fetch financials (0 credits, cached)"
    explorer.financials.statement.value = "guv"
    assert "Revenue" in explorer.financials.table.value
    explorer.financials.button.click()  # from the cache: nothing more is spent
    assert client.credits_spent == 20


def test_a_company_without_reports_is_never_fetched(client: Any, world: Any) -> None:
    assert not world.companies[NO_REPORTS]["indicators"]
    explorer = CompanyExplorer(client, NO_REPORTS)
    explorer.load()
    spent = client.credits_spent
    assert explorer.financials.button.disabled
    assert explorer.financials.button.description == "No annual reports filed"
    assert "no annual report" in explorer.financials.head.value
    explorer.financials.button.click()  # a disabled button's handlers still run when clicked from code
    assert explorer.load_financials() is None and client.credits_spent == spent


@pytest.mark.slow
def test_loading_another_company_clears_the_tab(client: Any) -> None:
    explorer = CompanyExplorer(client, LUXLOG)
    explorer.load()
    explorer.load_financials()
    assert explorer.financials.frame is not None
    explorer.company_id.value = NO_REPORTS
    explorer.load()
    assert explorer.financials.frame is None and explorer.financials.table.value == ""
