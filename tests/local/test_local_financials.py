"""``GET /v1/company/{company_id}/financials``: every statement of the bundled world adds up, its measures are its
rows, the record's indicators are reproduced; metering, errors and the presigned HTML of a report.

The expectations are derived here from the record (``data/companies.jsonl.gz``), from the HGB line names and from
arithmetic on the answer's own rows — never from the code that builds the statements.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from local_support import charged, error_of, session_for

from regkit.local.register import LocalRegister, open_local_register

pytestmark = pytest.mark.slow  # the whole bundled world, about a minute

#: Measures that are the value of the row of this German name (statement, name).
ROW_OF = {
    "balance_sheet_total": None,  # the sum of the top rows, checked on its own
    "fixed_assets": ("aktiva", "Anlagevermögen"),
    "intangible_assets": ("aktiva", "Immaterielle Vermögensgegenstände"),
    "tangible_assets": ("aktiva", "Sachanlagen"),
    "real_estate": ("aktiva", "Grundstücke, grundstücksgleiche Rechte und Bauten"),
    "financial_assets": ("aktiva", "Finanzanlagen"),
    "current_assets": ("aktiva", "Umlaufvermögen"),
    "inventory": ("aktiva", "Vorräte"),
    "receivables": ("aktiva", "Forderungen und sonstige Vermögensgegenstände"),
    "trade_receivables": ("aktiva", "Forderungen aus Lieferungen und Leistungen"),
    "cash": ("aktiva", "Kassenbestand, Guthaben bei Kreditinstituten und Schecks"),
    "active_accruals": ("aktiva", "Rechnungsabgrenzungsposten"),
    "equity": ("passiva", "Eigenkapital"),
    "capital_reserves": ("passiva", "Kapitalrücklage"),
    "retained_earnings": ("passiva", "Gewinnrücklagen"),
    "profit_carryforward": ("passiva", "Gewinnvortrag/Verlustvortrag"),
    "provisions": ("passiva", "Rückstellungen"),
    "pension_provisions": ("passiva", "Rückstellungen für Pensionen und ähnliche Verpflichtungen"),
    "other_provisions": ("passiva", "Sonstige Rückstellungen"),
    "bank_debt": ("passiva", "Verbindlichkeiten gegenüber Kreditinstituten"),
    "trade_payables": ("passiva", "Verbindlichkeiten aus Lieferungen und Leistungen"),
    "affiliated_liabilities": ("passiva", "Verbindlichkeiten gegenüber verbundenen Unternehmen"),
    "shareholder_liabilities": ("passiva", "Verbindlichkeiten gegenüber Gesellschaftern"),
    "other_liabilities": ("passiva", "Sonstige Verbindlichkeiten"),
    "passive_accruals": ("passiva", "Rechnungsabgrenzungsposten"),
    "revenue": ("guv", "Umsatzerlöse"),
    "other_operating_income": ("guv", "Sonstige betriebliche Erträge"),
    "materials": ("guv", "Materialaufwand"),
    "salaries": ("guv", "Personalaufwand"),
    "operating_depreciation": (
        "guv",
        "Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen",
    ),
    "other_operating_expenses": ("guv", "Sonstige betriebliche Aufwendungen"),
    "interest_income": ("guv", "Sonstige Zinsen und ähnliche Erträge"),
    "financial_depreciation": ("guv", "Abschreibungen auf Finanzanlagen und auf Wertpapiere des Umlaufvermögens"),
    "interest_expense": ("guv", "Zinsen und ähnliche Aufwendungen"),
    "taxes": ("guv", "Steuern vom Einkommen und vom Ertrag"),
    "income_after_tax": ("guv", "Ergebnis nach Steuern"),
    "other_taxes": ("guv", "Sonstige Steuern"),
    "net_income": ("guv", "Jahresüberschuss/Jahresfehlbetrag"),
}
#: P&L lines by § 275 (2) HGB that add to the result; every other line before "Ergebnis nach Steuern" subtracts.
PL_INCOME = {
    "Umsatzerlöse",
    "Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen",
    "Sonstige betriebliche Erträge",
    "Sonstige Zinsen und ähnliche Erträge",
}
#: The operating lines of the Gesamtkostenverfahren (§ 275 (2) no. 1–8 HGB): what EBIT sums.
OPERATING = (
    "Umsatzerlöse",
    "Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen",
    "Sonstige betriebliche Erträge",
    "Materialaufwand",
    "Personalaufwand",
    "Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen",
    "Sonstige betriebliche Aufwendungen",
)
#: The members of a record's indicators (CompanyV1), which the financials' indicators carry unchanged: read
#: off the bundled world's records themselves, not from the code under test.
RECORD_MEMBERS = tuple(
    sorted(
        {
            member
            for line in gzip.open(Path(__file__).resolve().parents[2] / "data" / "companies.jsonl.gz", "rt")
            for entry in json.loads(line).get("indicators") or ()
            for member in entry
        }
        - {"date", "report_id"}
    )
)


@pytest.fixture(scope="module")
def world_register(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRegister]:
    """An in-process register of the bundled world shared by the whole-world tests (no rate limit)."""
    directory = tmp_path_factory.mktemp("financials")
    register = open_local_register(
        state_path=directory / "state.sqlite", key_path=directory / "local.key", rate_limit=None
    )
    yield register
    register.close()


@pytest.fixture(scope="module")
def answers(world_register: LocalRegister) -> dict[str, dict[str, Any]]:
    """The financials answer of every company of the bundled world that has indicators, over HTTP (in-process)."""
    session = session_for(world_register, "demo-paid", conform=False)  # a sample is checked against the document
    found = {}
    for company_id, record in world_register.context.catalog.world.companies.items():
        if record.get("indicators"):
            response = session.get(f"/v1/company/{company_id}/financials")
            assert response.status_code == 200, (company_id, response.text)
            found[company_id] = response.json()
    return found


@pytest.fixture(scope="module")
def records(world_register: LocalRegister) -> dict[str, dict[str, Any]]:
    return world_register.context.catalog.world.companies


def walk(rows: list[dict], depth: int = 0) -> Iterator[tuple[int, dict]]:
    for row in rows:
        yield depth, row
        yield from walk(row["children"], depth + 1)


def find(rows: list[dict], name: str) -> dict | None:
    return next((row for _, row in walk(rows) if row["name"] == name), None)


def tables(report: dict) -> Iterator[tuple[str, list[dict]]]:
    for member in ("aktiva", "passiva", "guv"):
        if report[member] is not None:
            yield member, report[member]["rows"]


def top_sum(rows: list[dict]) -> int:
    return sum(row["current_value"] or 0 for row in rows)


def test_every_row_with_children_is_their_sum(answers):
    checked = 0
    for company_id, answer in answers.items():
        for report in answer["reports"]:
            for member, rows in tables(report):
                for _, row in walk(rows):
                    if row["children"]:
                        known = [c["current_value"] for c in row["children"] if c["current_value"] is not None]
                        expected = sum(known) if known else None
                        assert row["current_value"] == expected, (company_id, report["report_id"], member, row["name"])
                        checked += 1
    assert checked > 100_000


def test_both_sides_sum_to_the_balance_sheet_total_of_the_record(answers, records):
    for company_id, answer in answers.items():
        totals = {entry["report_id"]: entry["balance_sheet_total"] for entry in records[company_id]["indicators"]}
        for report in answer["reports"]:
            aktiva, passiva = top_sum(report["aktiva"]["rows"]), top_sum(report["passiva"]["rows"])
            assert aktiva == passiva, (company_id, report["report_id"])
            if not report["consolidated"]:
                assert aktiva == totals[report["report_id"]], (company_id, report["report_id"])


def test_one_own_report_per_indicator_row_with_its_id_and_dates(answers, records):
    for company_id, answer in answers.items():
        record = records[company_id]
        own = [r for r in answer["reports"] if not r["consolidated"]]
        assert sorted(r["report_id"] for r in own) == sorted(e["report_id"] for e in record["indicators"])
        by_id = {e["report_id"]: e for e in record["indicators"]}
        for report in own:
            end = report["report_end_date"]
            assert end == by_id[report["report_id"]]["date"]
            start = report["report_start_date"]
            year_before = date.fromisoformat(end).replace(day=28 if end[5:] == "02-29" else int(end[8:]))
            year_before = year_before.replace(year=year_before.year - 1)
            if start is None:  # a short first year: the full year would begin before the company was founded
                assert (year_before + timedelta(days=1)).isoformat() < record["incorporated_at"][:10]
            else:
                assert start == (year_before + timedelta(days=1)).isoformat()
        dates = [r["report_end_date"] for r in answer["reports"]]
        assert dates == sorted(dates, reverse=True)  # latest first


def test_the_record_indicators_are_the_rows(answers, records):
    """The 13 members of the record reproduced exactly by the rows (null where the record's is null)."""
    for company_id, answer in answers.items():
        reports = {r["report_id"]: r for r in answer["reports"] if not r["consolidated"]}
        for entry in records[company_id]["indicators"]:
            report = reports[entry["report_id"]]
            passiva = report["passiva"]["rows"]
            assert top_sum(report["aktiva"]["rows"]) == entry["balance_sheet_total"]
            equity = find(passiva, "Eigenkapital")
            assert equity is not None and equity["current_value"] == entry["equity"]
            # liabilities: everything on the passiva side but equity (provisions, Verbindlichkeiten, deferred income)
            assert top_sum(passiva) - equity["current_value"] == entry["liabilities"]
            for member in ("cash", "real_estate", "capital_reserves", "pension_provisions"):
                statement, name = ROW_OF[member]  # type: ignore[misc]
                row = find(report[statement]["rows"], name)
                assert (row["current_value"] if row else None) == entry[member], (company_id, member)
            guv = report["guv"]["rows"] if report["guv"] else []
            for member in ("revenue", "materials", "salaries", "taxes", "net_income"):
                row = find(guv, ROW_OF[member][1])  # type: ignore[index]
                assert (row["current_value"] if row else None) == entry[member], (company_id, member)


def test_the_pl_adds_up_and_its_result_is_the_balance_sheets(answers):
    for company_id, answer in answers.items():
        for report in answer["reports"]:
            if report["guv"] is None:
                continue
            rows = report["guv"]["rows"]
            amount = {row["name"]: row["current_value"] or 0 for row in rows}
            running = 0
            for row in rows:
                if row["name"] == "Ergebnis nach Steuern":
                    assert row["current_value"] == running, (company_id, report["report_id"])
                    break
                running += amount[row["name"]] * (1 if row["name"] in PL_INCOME else -1)
            result = amount["Ergebnis nach Steuern"] - amount["Sonstige Steuern"]
            assert amount["Jahresüberschuss/Jahresfehlbetrag"] == result
            balance = find(report["passiva"]["rows"], "Jahresüberschuss/Jahresfehlbetrag")
            assert balance is not None and balance["current_value"] == result, (company_id, report["report_id"])


def _expected_measures(report: dict, employees: int | None) -> dict[str, Any]:
    """The 48 measures of a report, computed here from its rows by the HGB line names."""
    values: dict[str, Any] = {}
    for measure, where in ROW_OF.items():
        if where is None:
            continue
        rows = report[where[0]]["rows"] if report[where[0]] else []
        row = find(rows, where[1])
        values[measure] = row["current_value"] if row else None
    aktiva, passiva = report["aktiva"]["rows"], report["passiva"]["rows"]
    values["balance_sheet_total"] = top_sum(aktiva)
    values["liabilities"] = top_sum(passiva) - (find(passiva, "Eigenkapital") or {}).get("current_value", 0)
    values["financial_debt"] = values["bank_debt"]
    if report["guv"]:
        amount = {row["name"]: row["current_value"] or 0 for row in report["guv"]["rows"]}
        ebit = sum(amount[name] * (1 if name in PL_INCOME else -1) for name in OPERATING)
        values["ebit"] = ebit
        values["ebitda"] = ebit + amount[ROW_OF["operating_depreciation"][1]]  # type: ignore[index]
        values["gross_profit"] = (
            amount["Umsatzerlöse"]
            + amount["Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen"]
            + amount["Sonstige betriebliche Erträge"]
            - amount["Materialaufwand"]
        )
        values["income_before_tax"] = amount["Ergebnis nach Steuern"] + amount["Steuern vom Einkommen und vom Ertrag"]
    else:
        values.update(ebit=None, ebitda=None, gross_profit=None, income_before_tax=None)
    values.update(employees=employees, commission_income=None, commission_expense=None, parent_net_income=None)
    return values


def test_the_48_measures_are_read_off_the_rows(answers, records):
    from openregister.types.company_get_financials_v1_response import Indicator

    measures = set(Indicator.model_fields) - {"date", "report_id"}
    assert len(measures) == 48
    for company_id, answer in answers.items():
        reports = {r["report_id"]: r for r in answer["reports"]}
        employees = {e["report_id"]: e["employees"] for e in records[company_id]["indicators"]}
        assert [i["report_id"] for i in answer["indicators"]] == [
            r["report_id"] for r in answer["reports"] if not r["consolidated"]
        ]
        for indicator in answer["indicators"]:
            assert set(indicator) == measures | {"date", "report_id"}
            report = reports[indicator["report_id"]]
            assert indicator["date"] == report["report_end_date"]
            expected = _expected_measures(report, employees[indicator["report_id"]])
            assert {m: indicator[m] for m in measures} == {m: expected[m] for m in measures}, company_id


def test_previous_value_is_the_previous_reports_current_value(answers):
    for company_id, answer in answers.items():
        for consolidated in (False, True):
            chain = [r for r in reversed(answer["reports"]) if r["consolidated"] is consolidated]  # oldest first
            for i, report in enumerate(chain):
                earlier = [r for r in chain[:i] if r["report_end_date"] < report["report_end_date"]]
                before = earlier[-1] if earlier else None
                for member, rows in tables(report):
                    names = [row["name"] for _, row in walk(rows)]
                    if before is not None:
                        assert names == [row["name"] for _, row in walk(before[member]["rows"])]  # same structure
                        previous = {row["name"]: row["current_value"] for _, row in walk(before[member]["rows"])}
                    else:
                        previous = {}
                    for _, row in walk(rows):
                        assert row["previous_value"] == previous.get(row["name"]), (company_id, member, row["name"])


def test_small_companies_file_a_short_balance_sheet_and_no_pl(answers, records):
    """No revenue in the record (the world's small companies) → § 266 (1) sentence 3 HGB: letters and Roman
    numerals only (plus the land and buildings the record carries), and no P&L."""
    small = [c for c, a in answers.items() if all(e["revenue"] is None for e in records[c]["indicators"])]
    assert 500 < len(small) < len(answers)
    for company_id in small:
        for report in answers[company_id]["reports"]:
            assert report["guv"] is None
            for _member, rows in tables(report):
                for depth, row in walk(rows):
                    number = row["formatted_name"].split(" ")[0]
                    if depth == 0:
                        assert number.rstrip(".").isalpha() and number.rstrip(".").isupper(), row["formatted_name"]
                    elif depth == 1:
                        assert set(number.rstrip(".")) <= set("IVX"), row["formatted_name"]
                    else:
                        assert row["name"] in {
                            "Grundstücke, grundstücksgleiche Rechte und Bauten",
                            "Übrige Sachanlagen",
                        }
    large = [c for c in answers if c not in set(small)]
    assert all(r["guv"] is not None for c in large for r in answers[c]["reports"])


def test_some_group_parents_file_consolidated_reports_bigger_than_their_own(answers, world_register):
    groups = world_register.context.catalog.world.meta["groups"]
    parents = {g["organtraeger"] for g in groups}
    consolidating = {c for c, a in answers.items() if any(r["consolidated"] for r in a["reports"])}
    assert consolidating and consolidating <= parents
    assert len(consolidating) < len(parents & set(answers))  # some, not all
    for company_id in consolidating:
        reports = answers[company_id]["reports"]
        own_reports = [r for r in reports if not r["consolidated"]]
        own = {r["report_end_date"]: r for r in reversed(own_reports)}  # of one date, the latest (a correction)
        group = [r for r in reports if r["consolidated"]]
        assert sorted(r["report_end_date"] for r in group) == sorted(r["report_end_date"] for r in own_reports)
        assert not {r["report_id"] for r in group} & {r["report_id"] for r in own.values()}
        for report in group:
            mine = own[report["report_end_date"]]
            assert top_sum(report["aktiva"]["rows"]) > top_sum(mine["aktiva"]["rows"])
            for member, rows in tables(report):
                theirs = {row["name"]: row["current_value"] for _, row in walk(mine[member]["rows"])}
                for _, row in walk(rows):
                    # a carry-forward is the remainder of equity after capital and reserves: not bounded by the parent's
                    if theirs[row["name"]] is None or "vortrag" in row["name"] or "Bilanzgewinn" in row["name"]:
                        continue
                    assert abs(row["current_value"]) >= abs(theirs[row["name"]]), (company_id, member, row["name"])


def test_merged_holds_every_own_period(answers):
    for company_id, answer in answers.items():
        own = [r for r in reversed(answer["reports"]) if not r["consolidated"]]  # oldest first; a correction last
        merged = answer["merged"]
        assert merged is not None
        for member in ("aktiva", "passiva", "guv"):
            if own[-1][member] is None:
                assert merged[member] is None
                continue
            expected: dict[str, dict[str, int]] = {}
            for report in own:
                for _, row in walk(report[member]["rows"]):
                    values = expected.setdefault(row["name"], {})
                    values.pop(report["report_end_date"], None)
                    if row["current_value"] is not None:
                        values[report["report_end_date"]] = row["current_value"]
            assert {row["name"]: row["values"] for _, row in walk(merged[member]["rows"])} == expected, company_id


def test_companyv1_indicators_equal_the_financials_members(answers, world_register):
    session = session_for(world_register, "demo-paid", conform=False)
    companies = world_register.context.catalog.world.companies
    for company_id in companies:
        company = session.get(f"/v1/company/{company_id}").json()
        answer = answers.get(company_id)
        if answer is None:
            assert not company.get("indicators")
            continue
        served = {i["report_id"]: i for i in answer["indicators"]}
        assert len(served) == len(company["indicators"])
        for entry in company["indicators"]:
            assert {m: served[entry["report_id"]][m] for m in RECORD_MEMBERS} == {m: entry[m] for m in RECORD_MEMBERS}
            assert served[entry["report_id"]]["date"] == entry["date"]


def test_inconsistencies_of_the_record_are_shown_not_bent(answers, records):
    """What the record's values imply, counted in the record and found as such in the reports: negative equity (the
    Eigenkapital row is negative and liabilities exceed the total) and P&Ls whose materials, salaries, taxes and
    net income exceed revenue (other operating income balances them). Nothing else on the aktiva side is negative."""
    expected: Counter[str] = Counter()
    for company_id in answers:
        for entry in records[company_id]["indicators"]:
            expected["negative equity"] += entry["equity"] < 0
            if entry["revenue"] is not None:
                costs = entry["materials"] + entry["salaries"] + entry["taxes"] + entry["net_income"]
                expected["costs beyond revenue"] += costs > entry["revenue"]
    seen: Counter[str] = Counter()
    for company_id, answer in answers.items():
        for report in answer["reports"]:
            if report["consolidated"]:
                continue
            equity = find(report["passiva"]["rows"], "Eigenkapital")["current_value"]  # type: ignore[index]
            if equity < 0:
                seen["negative equity"] += 1
                assert top_sum(report["passiva"]["rows"]) - equity > top_sum(report["aktiva"]["rows"])
            if report["guv"]:
                amount = {row["name"]: row["current_value"] or 0 for row in report["guv"]["rows"]}
                costs = amount["Materialaufwand"] + amount["Personalaufwand"]
                costs += amount["Steuern vom Einkommen und vom Ertrag"] + amount["Jahresüberschuss/Jahresfehlbetrag"]
                if costs > amount["Umsatzerlöse"]:
                    seen["costs beyond revenue"] += 1
                    assert amount["Sonstige betriebliche Erträge"] > 0
            for _, row in walk(report["aktiva"]["rows"]):
                assert row["current_value"] is None or row["current_value"] >= 0, (company_id, row["name"])
    print(dict(seen))  # with -s; the bundled world: 1,002 and 987 (module docstring of regkit.local.world.statements)
    assert seen == expected and seen["negative equity"] > 0 and seen["costs beyond revenue"] > 0


# --------------------------------------------------------------------------- one company over HTTP


@pytest.fixture(scope="module")
def sample(records) -> dict[str, str]:
    """A full filer (P&L), a small filer, a consolidating group parent and a company without reports."""
    with_reports = [c for c, r in records.items() if r.get("indicators")]
    return {
        "full": next(c for c in with_reports if records[c]["indicators"][0]["revenue"] is not None),
        "small": next(c for c in with_reports if records[c]["indicators"][0]["revenue"] is None),
        "none": next(c for c, r in records.items() if not r.get("indicators")),
    }


@pytest.mark.parametrize("kind", ["full", "small"])
def test_answer_conforms_and_costs_10_over_real_http(kind, sample, remote):
    response = remote().get(f"/v1/company/{sample[kind]}/financials")  # conformance checked by the session
    assert response.status_code == 200 and charged(response) == 10
    assert response.json()["reports"] and response.json()["merged"] is not None


def test_company_without_reports_answers_empty_and_costs_10(sample, api):
    response = api().get(f"/v1/company/{sample['none']}/financials")
    assert response.status_code == 200 and charged(response) == 10
    assert response.json() == {"indicators": [], "reports": [], "merged": None}


def test_unknown_company_is_404_and_malformed_is_400_both_free(api):
    session = api()
    before = session.get("/v1/credits").json()["used_credits"]
    assert error_of(session.get("/v1/company/DE-HRB-F1103-999999999/financials")) == (404, "company_not_found")
    assert error_of(session.get("/v1/company/not-an-id/financials")) == (400, "invalid_company_id")
    assert session.get("/v1/credits").json()["used_credits"] == before


def test_no_credits_left_is_402(sample, api):
    assert error_of(api("demo-empty").get(f"/v1/company/{sample['full']}/financials")) == (402, "insufficient_credits")


def test_report_html_is_served_by_its_presigned_url_for_30_minutes(sample, api, clock):
    answer = api().get(f"/v1/company/{sample['full']}/financials").json()
    report = answer["reports"][0]
    (source,) = report["sources"]
    page = api(None).get(source["html_url"])
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    revenue = next(row for row in report["guv"]["rows"] if row["name"] == "Umsatzerlöse")["current_value"]
    whole, cents = divmod(revenue, 100)
    assert f"{whole:,}".replace(",", ".") + f",{cents:02d} €" in page.text  # German notation
    assert "Umsatzerlöse" in page.text and report["report_id"] in page.text
    clock.advance(30 * 60 + 1)
    assert error_of(api(None).get(source["html_url"])) == (403, "url_expired")


def test_tampered_report_url_is_403_and_unknown_report_404(sample, api, register):
    answer = api().get(f"/v1/company/{sample['full']}/financials").json()
    url = answer["reports"][0]["sources"][0]["html_url"]
    assert error_of(api(None).get(url.replace(sample["full"], sample["small"]))) == (403, "invalid_signature")
    assert error_of(api(None).get(url.split("?")[0])) == (403, "invalid_signature")
    signer, key = register.context.signer, f"financials/{sample['full']}/00000000-0000-4000-8000-000000000000"
    query = signer.url(register.base_url, key).partition("?")[2]
    unknown = f"/v1/financials/{sample['full']}/00000000-0000-4000-8000-000000000000?{query}"
    assert error_of(api(None).get(unknown)) == (404, "document_not_found")


def test_answers_are_the_same_run_after_run(sample, api, make_register, tmp_path: Path):
    first = api().get(f"/v1/company/{sample['full']}/financials").json()
    other = session_for(make_register(state_path=tmp_path / "other" / "state.sqlite"), "demo-paid")
    second = other.get(f"/v1/company/{sample['full']}/financials").json()

    def without_urls(answer: dict) -> list:
        return [{**r, "sources": None} for r in answer["reports"]] + [answer["indicators"], answer["merged"]]

    assert without_urls(first) == without_urls(second)
