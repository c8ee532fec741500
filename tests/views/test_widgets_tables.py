"""The explorers' tables (regkit.widgets.tables): what a reader sees, on frames of the bundled world."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from regkit.frames import indicators, insolvency_summaries, representatives
from regkit.frames.financial_ratios import RATIOS
from regkit.widgets.tables import MONEY_COLUMNS, PERCENT_COLUMNS, TABLE_CSS, display_frame, sortable_table, table_html

DISTRESSED = "DE-HRB-P2408-81776"  # open insolvency; published balance sheets
UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def _cells(html_text: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", html_text)


def test_codes_read_as_labels_and_uuids_are_left_out(company: Any) -> None:
    raw = company(DISTRESSED)
    frame = insolvency_summaries(raw)
    assert frame["id"].notna().all()  # the frame keeps the proceeding ids for analysis …
    shown = display_frame(frame)
    assert not any(UUID_TEXT.search(str(v)) for v in shown.to_numpy().ravel())  # … the display does not
    assert "Id" not in shown.columns and "Status" in shown.columns
    status = {
        "opened": "opened",
        "preliminary": "preliminary proceedings",
        "rejected_no_assets": "rejected (no assets)",
    }
    for code, text in zip(frame["current_status"], shown["Status"]):
        assert text == status.get(code, text) and "_" not in text


def test_money_has_separators_and_euro(company: Any) -> None:
    raw = company(DISTRESSED)
    frame = indicators(raw)
    shown = display_frame(frame, ["date", "equity", "balance_sheet_total"])
    assert list(shown.columns) == ["Date", "Equity", "Balance sheet total"]
    reports = {r["date"]: r for r in raw["indicators"]}
    for date, text in zip(frame["date"], shown["Balance sheet total"]):
        cents = reports[date.strftime("%Y-%m-%d")]["balance_sheet_total"]
        if cents is None:
            assert text == "–"
        else:
            assert text == f"€{round(cents / 100):,}"


def test_shares_in_percent_and_people_by_role_label(company: Any) -> None:
    reps = representatives(company(DISTRESSED))
    shown = display_frame(reps, ["name", "role", "start_date"])
    role_text = {
        "DIRECTOR": "director (Geschäftsführer / Vorstand)",
        "PROKURA": "authorised signatory (Prokura)",
        "LIQUIDATOR": "liquidator",
    }
    for code, text in zip(reps["role"], shown["Role"]):
        if code in role_text:
            assert text == role_text[code]
    shares = display_frame(pd.DataFrame({"share": [0.5, 1 / 3, None]}))
    assert list(shares["Share"]) == ["50 %", "33.33 %", "–"]


def test_every_ratio_shows_in_percent_but_the_salary_per_employee_in_euro() -> None:
    assert PERCENT_COLUMNS == {"share", *RATIOS} - {"salaries_per_employee"}
    assert "salaries_per_employee" in MONEY_COLUMNS and not PERCENT_COLUMNS & MONEY_COLUMNS
    row = {name: [0.125] for name in RATIOS}
    shown = display_frame(pd.DataFrame(row))
    assert list(shown.iloc[0]) == ["12.5 %"] * (len(RATIOS) - 1) + ["€0"]


def test_static_table_has_the_one_style_and_does_not_wrap_dates_or_numbers(company: Any) -> None:
    frame = indicators(company(DISTRESSED))
    out = table_html(frame, ["date", "equity"])
    assert out.startswith(TABLE_CSS) and 'class="regkit-table"' in out
    assert "white-space:nowrap" in TABLE_CSS
    assert out.count('<td class="regkit-date">') == len(frame) and out.count('<td class="regkit-num">') == len(frame)


def test_long_tables_say_how_many_rows_are_not_shown() -> None:
    frame = pd.DataFrame({"name": [f"<b>Firma {i}</b>" for i in range(250)]})
    out = table_html(frame, max_rows=200)
    assert len(_cells(out)) == 200 and "… and 50 more rows" in out
    assert "<b>" not in out and "&lt;b&gt;Firma 0&lt;/b&gt;" in out  # escaped


def test_sortable_table_rows_are_clickable(company: Any) -> None:
    reps = representatives(company(DISTRESSED)).reset_index(drop=True)
    picked: list[Any] = []
    table = sortable_table(reps, ["name", "role", "start_date"], on_select=picked.append)
    assert list(table.df.columns) == ["Name", "Role", "Start date"] and len(table.df) == len(reps)
    assert table.df.loc[0, "Name"] == reps.loc[0, "name"]
    table.selected_rows = [len(reps) - 1]  # what a click on the last row sends
    table.selected_rows = []
    assert picked == [len(reps) - 1, None]
    defs = table._dt_args["columnDefs"]
    assert {"targets": [2], "className": "dt-left regkit-date"} in defs


def test_every_id_and_case_number_of_the_world_is_kept_on_one_line(world: Any, proceedings: Any) -> None:
    """Each company id and case number the bundled world has is recognised as one (so its cells never wrap), in a
    static table and in a sortable one; names are not."""
    from regkit.widgets.tables import is_id_column

    ids = pd.Series(sorted(world.companies))
    cases = pd.Series(sorted({p["case_number"] for p in proceedings}))
    assert is_id_column(ids) and is_id_column(cases)
    assert not is_id_column(pd.Series([c["name"]["name"] for c in list(world.companies.values())[:50]]))
    frame = pd.DataFrame({"company_id": ids[:3].tolist(), "case_number": cases[:3].tolist(), "n": [1, 2, 3]})
    out = table_html(frame)
    assert out.count('<td class="regkit-id">') == 6 and re.search(r"td\.regkit-id[^{}]*\{white-space:nowrap\}", out)
    table = sortable_table(frame)
    assert {"targets": [0, 1], "className": "dt-left regkit-id"} in table._dt_args["columnDefs"]
