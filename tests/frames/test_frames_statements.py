"""``regkit.frames.statements`` / ``statement_reports``, the 48-measure ``indicators`` and the five new ratios, on
financials answers shaped as the spec gives them (``statements_support``)."""

from __future__ import annotations

import math
import random
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
import statements_support as support

from regkit.errors import NoFinancialReportsWarning
from regkit.frames import (
    FINANCIAL_MEASURES,
    FINANCIAL_RATIOS,
    MEASURES,
    indicators,
    ratios,
    statement_reports,
    statements,
)
from regkit.schema import line_item_label

DTYPES = {
    "company_id": "str",
    "report_id": "str",
    "period_start": "datetime64[us]",
    "period_end": "datetime64[us]",
    "consolidated": "bool",
    "revision": "int64",
    "is_latest_revision": "bool",
    "statement": "category",
    "position": "int64",
    "level": "int64",
    "path": "str",
    "name": "str",
    "formatted_name": "str",
    "label": "str",
    "value": "Float64",
    "previous_value": "Float64",
    "has_children": "bool",
}


def _nodes(rows: list[dict[str, Any]], prefix: str, level: int = 1) -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for row in rows:
        path = prefix + "/" + row["formatted_name"].replace("/", "\u2215")  # a "/" in a name: see PATH_SLASH
        out.append((path, level, row))
        out.extend(_nodes(row["children"], path, level + 1))
    return out


def _expected_rows(answer: dict[str, Any]) -> list[tuple[str, str, str, int, dict[str, Any]]]:
    out = []
    for report in answer["reports"]:
        for statement in ("aktiva", "passiva", "guv"):
            if report[statement]:
                for path, level, row in _nodes(report[statement]["rows"], statement):
                    out.append((report["report_id"], statement, path, level, row))
    return out


def _without_sources(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in report.items() if k != "sources"} for report in answer["reports"]]


def test_one_row_per_line_item_and_report_with_its_columns_and_dtypes() -> None:
    answer = support.answer()
    frame = statements({support.COMPANY: answer})
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == DTYPES
    expected = _expected_rows(answer)
    assert len(frame) == len(expected)
    assert list(zip(frame["report_id"], frame["statement"].astype(str), frame["path"], frame["level"])) == [
        (r, s, p, level) for r, s, p, level, _ in expected
    ]
    values = [None if row["current_value"] is None else row["current_value"] / 100 for *_, row in expected]
    assert frame["value"].astype(object).where(frame["value"].notna(), None).tolist() == values
    assert frame["has_children"].tolist() == [bool(row["children"]) for *_, row in expected]
    assert (frame["company_id"] == support.COMPANY).all()
    assert frame["period_end"].dt.strftime("%Y-%m-%d").unique().tolist() == ["2023-12-31", "2022-12-31"]
    assert list(frame["statement"].cat.categories) == ["aktiva", "passiva", "guv"]


def test_top_rows_of_aktiva_and_passiva_add_up_to_the_same_total() -> None:
    frame = statements({support.COMPANY: support.answer()})
    top = frame[frame["level"] == 1].groupby(["report_id", "statement"], observed=True)["value"].sum()
    for report_id in frame["report_id"].unique():
        assert top[(report_id, "aktiva")] == top[(report_id, "passiva")]


def test_a_path_names_the_same_line_item_in_every_year() -> None:
    frame = statements({support.COMPANY: support.answer()})
    by_year = frame.pivot_table(index="path", columns="period_end", values="value", aggfunc="first")
    cash = by_year.loc["aktiva/B. Umlaufvermögen/IV. Kassenbestand"]
    assert cash.tolist() == [150_000.0, 90_000.0]
    assert frame.groupby("report_id")["path"].apply(lambda p: p.is_unique).all()


def test_the_frame_rebuilds_the_trees_exactly() -> None:
    answer = support.answer()
    rebuilt = statement_reports(statements({support.COMPANY: answer}))
    assert list(rebuilt) == [support.COMPANY]
    assert rebuilt[support.COMPANY] == _without_sources(answer)


def test_the_rebuild_ignores_the_row_order_and_works_in_cents() -> None:
    answer = support.answer()
    frame = statements({support.COMPANY: answer}, unit="cents")
    assert str(frame["value"].dtype) == "Int64"
    shuffled = frame.sample(frac=1.0, random_state=random.Random(7).randrange(1000))
    shuffled.attrs = frame.attrs
    assert statement_reports(shuffled)[support.COMPANY] == _without_sources(answer)


def test_several_companies_as_a_mapping_round_trip_each() -> None:
    answers = {support.COMPANY: support.answer(), support.SMALL: support.small_answer()}
    frame = statements(answers)
    assert frame["company_id"].unique().tolist() == [support.COMPANY, support.SMALL]
    rebuilt = statement_reports(frame)
    assert {cid: reports for cid, reports in rebuilt.items()} == {
        cid: _without_sources(a) for cid, a in answers.items()
    }


def test_a_small_company_has_a_short_balance_sheet_and_no_guv() -> None:
    frame = statements({support.SMALL: support.small_answer()})
    assert set(frame["statement"].astype(str)) == {"aktiva", "passiva"}
    assert (frame["level"] == 1).all() and frame["period_start"].isna().all()
    assert statement_reports(frame)[support.SMALL][0]["guv"] is None


def test_a_row_without_its_parent_is_refused() -> None:
    frame = statements({support.COMPANY: support.answer()})
    with pytest.raises(ValueError, match="keep whole subtrees"):
        statement_reports(frame[frame["path"] != "aktiva/A. Anlagevermögen"])


def test_a_company_without_reports_gives_empty_frames_with_their_dtypes_and_a_warning() -> None:
    with pytest.warns(NoFinancialReportsWarning, match="DE-HRB-B9-9"):
        frame = statements({"DE-HRB-B9-9": support.empty_answer()})
    assert frame.empty and {n: str(d) for n, d in frame.dtypes.items()} == DTYPES
    with pytest.warns(NoFinancialReportsWarning):
        wide = indicators({"DE-HRB-B9-9": support.empty_answer()})
    assert wide.empty and list(wide.columns[5:]) == [*FINANCIAL_MEASURES, "employees"]
    assert all(str(wide[m].dtype) == "Float64" for m in FINANCIAL_MEASURES)
    assert str(wide["employees"].dtype) == "Int64"
    assert statement_reports(frame) == {}


def test_a_company_record_is_no_financials_answer(world_companies: list[dict[str, Any]]) -> None:
    with pytest.raises(TypeError, match="get_financials"):
        statements(world_companies[0])


def test_every_line_item_of_the_spec_trees_has_an_english_label() -> None:
    frame = statements({support.COMPANY: support.answer()})
    german = frame["name"].tolist()
    assert all(label != name for label, name in zip(frame["label"], german))
    assert line_item_label("Eigenkapital") == "Equity" and line_item_label("x", "B. Umlaufvermögen") == "Current assets"


def test_indicators_of_a_financials_answer_have_all_48_measures() -> None:
    answer = support.answer()
    frame = indicators({support.COMPANY: answer})
    assert len(FINANCIAL_MEASURES) == 47 and FINANCIAL_MEASURES[:12] == MEASURES
    assert list(frame.columns) == [
        "company_id",
        "date",
        "report_id",
        "revision",
        "is_latest_revision",
        *FINANCIAL_MEASURES,
        "employees",
    ]
    oldest_first = answer["indicators"][::-1]
    assert frame["report_id"].tolist() == [e["report_id"] for e in oldest_first]
    for name in FINANCIAL_MEASURES:
        expected = [e.get(name) for e in oldest_first]
        got = frame[name].astype(object).where(frame[name].notna(), None).tolist()
        assert got == [None if v is None else v / 100 for v in expected], name
    assert frame["employees"].tolist() == [e["employees"] for e in oldest_first]
    cents = indicators({support.COMPANY: answer}, unit="cents")
    assert cents["ebitda"].tolist() == [e["ebitda"] for e in oldest_first]
    long = indicators({support.COMPANY: answer}, wide=False)
    assert len(long) == 2 * 48 and set(long["measure"].cat.categories) == {*FINANCIAL_MEASURES, "employees"}


def test_a_company_record_keeps_its_13_indicator_columns(world_companies: list[dict[str, Any]]) -> None:
    record = next(c for c in world_companies if c["indicators"])
    frame = indicators(record)
    assert list(frame.columns[5:]) == [*MEASURES, "employees"]


def _ratio(top: float | None, bottom: float | None) -> float:
    return math.nan if top is None or bottom is None or bottom == 0 else top / bottom


def test_the_five_ratios_of_the_new_measures_follow_their_formulas() -> None:
    answer = support.answer()
    out = ratios(indicators({support.COMPANY: answer}))
    for i, e in enumerate(answer["indicators"][::-1]):
        expected = {
            "ebitda_margin": _ratio(e["ebitda"], e["revenue"]),
            "interest_coverage": _ratio(e["ebit"], abs(e["interest_expense"])),
            "net_debt_to_ebitda": _ratio(e["financial_debt"] - e["cash"], e["ebitda"]),
            "days_sales_outstanding": _ratio(e["trade_receivables"] * 365, e["revenue"]),
            "payables_days": _ratio(e["trade_payables"] * 365, abs(e["materials"])),
        }
        for name, value in expected.items():
            assert out[name].iloc[i] == pytest.approx(value, rel=1e-12), name
    assert all(str(out[name].dtype) == "Float64" for name in FINANCIAL_RATIOS)


def test_a_zero_or_missing_denominator_gives_na_never_inf() -> None:
    answer = support.answer()
    answer["indicators"][0]["interest_expense"] = 0
    answer["indicators"][0]["ebitda"] = None
    answer["indicators"][1]["revenue"] = 0
    out = ratios(indicators({support.COMPANY: answer}))
    values = out[list(FINANCIAL_RATIOS)]
    assert not np.isinf(values.to_numpy(dtype=float, na_value=np.nan)).any()
    latest, older = out.iloc[1], out.iloc[0]
    assert pd.isna(latest["interest_coverage"]) and pd.isna(latest["net_debt_to_ebitda"])
    assert pd.isna(latest["ebitda_margin"])
    assert pd.isna(older["ebitda_margin"]) and pd.isna(older["days_sales_outstanding"])


def test_a_company_frame_gets_no_financial_ratios(world_companies: list[dict[str, Any]]) -> None:
    record = next(c for c in world_companies if c["indicators"])
    out = ratios(indicators(record))
    assert not set(FINANCIAL_RATIOS) & set(out.columns)


def test_no_warning_for_answers_with_reports() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        statements({support.COMPANY: support.answer()})
        indicators({support.COMPANY: support.answer()})


@pytest.fixture(scope="module")
def world_answers(world: Any) -> dict[str, dict[str, Any]]:
    """The financials answers of every 8th world company with indicators, as the register derives them."""
    from regkit.local.world.statements import company_financials

    seed = world.meta["seed"]
    chosen = [c for c in world.companies.values() if c["indicators"]][::8]
    return {c["id"]: company_financials(c, seed) for c in chosen}


@pytest.mark.slow
def test_the_world_s_statements_round_trip_for_many_companies(world_answers: dict[str, dict[str, Any]]) -> None:
    frame = statements(world_answers)
    assert len(world_answers) > 300
    assert len(frame) == sum(len(_expected_rows(a)) for a in world_answers.values())
    rebuilt = statement_reports(frame)
    assert rebuilt == {cid: _without_sources(a) for cid, a in world_answers.items()}
    cents = statements(world_answers, unit="cents")
    assert statement_reports(cents) == rebuilt


def test_every_line_of_the_world_has_an_english_label(world_answers: dict[str, dict[str, Any]]) -> None:
    frame = statements(world_answers)
    labels = frame.drop_duplicates(["statement", "name"])
    untranslated = labels[labels["label"] == labels["name"]]
    assert untranslated.empty, untranslated[["statement", "name"]]


def test_the_world_s_48_indicators_equal_the_answer(world_answers: dict[str, dict[str, Any]]) -> None:
    frame = indicators(world_answers, unit="cents")
    # latest first, a correction before the report it corrects: reversed, the frame's order (oldest first)
    entries = [(cid, e) for cid, a in world_answers.items() for e in a["indicators"][::-1]]
    assert len(frame) == len(entries)
    for name in (*FINANCIAL_MEASURES, "employees"):
        got = frame[name].astype(object).where(frame[name].notna(), None).tolist()
        assert got == [e.get(name) for _, e in entries], name
