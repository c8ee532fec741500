"""Integration: the client's records offer the frames; ``search_all_insolvencies`` pages through the local register
and the frames function shapes what it returns; the client says what a call would cost before it is made."""

from __future__ import annotations

import pandas as pd
import pytest

import regkit
from regkit.client import BudgetExceededError, ValidationError
from regkit.frames import companies, events, history, insolvency_results, proceedings

OPENED = [{"field": "current_status", "value": "opened"}]


@pytest.fixture()
def client(isolated_env):
    """A client of the in-process local register, no cache, state in a temporary directory."""
    with regkit.Client(cache=False) as c:
        yield c


def test_company_record_methods(client, world):
    record = client.get_company("DE-HRB-R1102-109244")
    raw = world.companies["DE-HRB-R1102-109244"]
    pd.testing.assert_frame_equal(record.history("capitals"), history(raw, "capitals"))
    pd.testing.assert_frame_equal(record.to_dataframe(), companies(raw))
    if hasattr(record, "_repr_html_"):
        assert "Hanseatic Consulting GmbH" in record._repr_html_()


def test_batch_to_dataframe(client):
    ids = ["DE-HRB-R3208-147620", "DE-HRB-B8534-111252"]
    batch = client.get_companies(ids, progress=False)
    frame = batch.to_dataframe()
    assert frame["company_id"].tolist() == ids
    pd.testing.assert_frame_equal(frame, companies([r.raw for r in batch.ok]))


def test_insolvency_records(client, world):
    page = client.search_insolvencies(per_page=5)
    pd.testing.assert_frame_equal(page.to_dataframe(), insolvency_results(page.raw))
    record = client.get_insolvency("7da364e3-c5b0-4073-9e81-299f0003a075")
    pd.testing.assert_frame_equal(record.events(), events(record.raw))
    pd.testing.assert_frame_equal(record.to_dataframe(), proceedings(record.raw))
    assert record.events()["event_type"].iloc[-1] == "discharge_granted"


def test_search_all_insolvencies_pages_and_matches_iter_insolvencies(client, world):
    expected = sum(p["current_status"] == "opened" for p in world.insolvencies.values())
    results = client.search_all_insolvencies(filters=OPENED, progress=False)
    frame = results.to_dataframe()
    assert len(frame) == len(results) == frame.attrs["total_results"] == results.total_results == expected
    assert frame.attrs["pages"] == -(-expected // 100) and frame.attrs["credits"] == 10 * frame.attrs["pages"]
    assert set(frame["current_status"]) == {"opened"} and frame["id"].is_unique
    lazily = insolvency_results(client.iter_insolvencies(filters=OPENED, per_page=100))
    pd.testing.assert_frame_equal(frame, lazily)
    pd.testing.assert_frame_equal(insolvency_results(results), lazily)  # the frames function shapes it too


def test_search_all_insolvencies_limit_fetches_only_the_pages_needed(client):
    results = client.search_all_insolvencies(limit=150, progress=False)
    assert len(results) == 150 and results.pages == 2 and client.credits_spent == 20
    assert client.search_all_insolvencies(limit=0, progress=False).to_dataframe().empty and client.credits_spent == 20
    with pytest.raises(ValidationError, match="limit"):
        client.search_all_insolvencies(limit=-1)
    with pytest.raises(ValidationError, match="query"):
        client.search_all_insolvencies(query="x" * 10_000, limit=0)  # checked even when nothing would be fetched
    assert client.credits_spent == 20


def test_search_all_insolvencies_refuses_to_cross_the_budget_after_the_first_page(isolated_env):
    with regkit.Client(cache=False, budget=35) as client:
        with pytest.raises(BudgetExceededError, match="search_all_insolvencies") as caught:
            client.search_all_insolvencies(progress=False)  # 1,471 proceedings: 15 pages, 140 credits more
        assert client.credits_spent == 10 and caught.value.needed == 140
        results = client.search_all_insolvencies(limit=200, progress=False)  # page 1 leaves 15, page 2 costs 10
        assert len(results) == 200 and results.estimated_credits == 10 and client.credits_spent == 30


def test_is_cached_and_estimate_search_cost_agree_with_what_a_call_costs(isolated_env):
    client = regkit.Client(cache="memory")
    company_id = "DE-HRB-R3208-147620"
    assert not client.is_cached(company_id) and client.estimate_cost([company_id]).to_fetch == 1
    spent = client.credits_spent
    client.get_company(company_id)
    assert client.is_cached(company_id) and not client.is_cached(company_id, realtime=True)
    assert client.estimate_cost([company_id]).to_fetch == 0
    assert client.estimate_search_cost("gmbh", OPENED, page=2, per_page=25) == 10
    client.search_insolvencies("gmbh", OPENED, page=2, per_page=25)
    assert client.estimate_search_cost("gmbh", OPENED, page=2, per_page=25) == 0  # the same request: cached
    assert client.estimate_search_cost("gmbh", OPENED, page=3, per_page=25) == 10  # another page is not
    assert client.credits_spent == spent + 20  # asking cost nothing: only the two calls were paid
    with pytest.raises(ValidationError):
        client.is_cached("HRB 81776")
    with pytest.raises(ValidationError):
        client.estimate_search_cost(per_page=1000)


def test_every_company_record_method_equals_its_frames_function(client, world):
    from regkit import frames

    company_id = "DE-HRB-R3208-147620"  # acquirer of several mergers in one transaction (data/README.md)
    record, raw = client.get_company(company_id), world.companies[company_id]
    pairs = [
        (record.representatives(), frames.representatives(raw)),
        (record.indicators(), frames.indicators(raw)),
        (record.indicators(unit="cents", wide=False), frames.indicators(raw, unit="cents", wide=False)),
        (record.links(), frames.links(raw)),
        (record.documents(), frames.documents(raw)),
        (record.insolvency_summaries(), frames.insolvency_summaries(raw)),
        (record.industry_codes(), frames.industry_codes(raw)),
        (record.contact(), frames.contact(raw)),
        (record.panel(), frames.panel(raw)),
    ]
    for from_record, from_function in pairs:
        pd.testing.assert_frame_equal(from_record, from_function)
    assert record.as_of("2020-01-01").to_dict() == frames.as_of(raw, "2020-01-01").to_dict()
    assert raw["name"]["name"] in record._repr_html_()
    assert len(record.links()) == len(raw["acquisitions"]) + bool(raw["profit_transfer_agreement"]) + len(
        raw["asset_spin_offs"]
    )


def test_every_batch_method_equals_the_frames_of_its_records(client, world):
    from regkit import frames

    ids = ["DE-HRB-R3208-147620", "DE-HRB-B8534-111252", "DE-HRB-R3101-94644"]
    batch = client.get_companies(ids, progress=False)
    raws = [world.companies[i] for i in ids]
    pd.testing.assert_frame_equal(batch.history("names"), frames.history(raws, "names"))
    pd.testing.assert_frame_equal(batch.representatives(), frames.representatives(raws))
    pd.testing.assert_frame_equal(batch.indicators(), frames.indicators(raws))
    pd.testing.assert_frame_equal(batch.links(), frames.links(raws))
    pd.testing.assert_frame_equal(batch.panel(), frames.panel(raws))


LUXLOG = "DE-HRB-R2103-65834"


def test_financials_record_frames(client, world):
    import warnings

    from regkit.frames import indicators, ratios, statements

    record = client.get_financials(LUXLOG)
    named = {LUXLOG: record.raw}
    pd.testing.assert_frame_equal(record.statements(), statements(named))
    pd.testing.assert_frame_equal(record.indicators(), indicators(named))
    pd.testing.assert_frame_equal(record.ratios(), ratios(indicators(named)))
    assert (record.statements()["company_id"] == LUXLOG).all()
    assert len(record.indicators()) == len(world.companies[LUXLOG]["indicators"])
    spent = client.credits_spent
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = client.statements(LUXLOG, unit="cents")
    assert client.credits_spent == spent + 10  # this client has no cache: paid again
    assert str(frame["value"].dtype) == "Int64"
    with pytest.raises(ValidationError, match="unit"):
        client.statements(LUXLOG, unit="kEUR")
    assert client.credits_spent == spent + 10


def test_a_company_without_reports_gives_empty_frames_and_warns(client, world):
    from regkit.errors import NoFinancialReportsWarning
    from regkit.frames import FINANCIAL_MEASURES

    cid = next(c["id"] for c in world.companies.values() if not c["indicators"])
    with pytest.warns(NoFinancialReportsWarning):
        record = client.get_financials(cid)
    with pytest.warns(NoFinancialReportsWarning, match=cid):
        frame = record.statements()
    with pytest.warns(NoFinancialReportsWarning, match=cid):
        wide = record.indicators()
    assert frame.empty and wide.empty and list(wide.columns[5:]) == [*FINANCIAL_MEASURES, "employees"]


@pytest.mark.slow
def test_statements_round_trip_over_real_http_for_many_companies(tmp_path, world):
    """The register's answers, fetched over HTTP from ``regkit serve``, rebuild exactly from their frames."""
    from serve_support import served_register

    from regkit.frames import statement_reports, statements

    with_reports = [c["id"] for c in world.companies.values() if c["indicators"]]
    parents = [g["organtraeger"] for g in world.meta["groups"]]  # some file consolidated reports too
    chosen = list(dict.fromkeys([*with_reports[:: max(1, len(with_reports) // 60)], *parents]))
    with served_register(tmp_path / "serve", "--rate-limit", "0") as server:
        with regkit.Client(api_key="demo-paid", base_url=server.url, cache=False) as client:
            answers = {cid: client.get_financials(cid) for cid in chosen}
    assert len(answers) >= 60
    frame = statements(answers)
    rebuilt = statement_reports(frame)
    sent = {
        cid: [{k: v for k, v in r.items() if k != "sources"} for r in a.raw["reports"]] for cid, a in answers.items()
    }
    assert rebuilt == sent
    assert frame["consolidated"].any() and not frame.loc[frame["consolidated"], "report_id"].isna().any()


def test_a_correction_is_the_latest_revision_in_every_frame(client, world):
    """A financials answer lists a correction before the report it corrects (latest first); the frames mark
    the same report latest as the company record's frame does."""
    corrected = "DE-HRA-B1204-20819"  # two reports for 2024-12-31
    from regkit.frames import indicators, statements
    from regkit.plot.statements import balance_sheet_data

    record_frame = indicators(world.companies[corrected])
    latest = set(record_frame.loc[record_frame["is_latest_revision"], "report_id"])
    answer = client.get_financials(corrected)
    wide = answer.indicators()
    assert wide["report_id"].tolist() == record_frame["report_id"].tolist()
    assert set(wide.loc[wide["is_latest_revision"], "report_id"]) == latest
    frame = statements({corrected: answer.raw})
    own = frame[~frame["consolidated"]]
    assert set(own.loc[own["is_latest_revision"], "report_id"]) == latest
    assert set(balance_sheet_data(frame)["report_id"]) == latest
